//! `boardbot --protocol mkagent` inside the real Manchester Kalah referee: `ManKalah.jar` and its
//! test agent `MKRefAgent.jar` (tests/data/kalah/, copies of the jars of github:crisbodnar/KalahAI
//! at 93bdec9), whole games in both seats, with a swap by boardbot and one by its opponent; and
//! the agent fed bad messages directly. Needs `java` (17 or later) on the PATH.
//!
//! MKRefAgent never swaps from the start position: as North it swaps only when South's position
//! (stores and rows) is worth more to it than its best move, but South's first move keeps at most
//! South's own 49 seeds on South's side, and North's hole 1 then keeps all of North's: so the game
//! with a swap by the opponent uses `SwapAgent.java` (it always swaps), run by `java` as a single
//! source file.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

/// The binary under test (BOARDBOT_BIN: another build, e.g. to show a test failing before a fix).
fn boardbot() -> String {
    std::env::var("BOARDBOT_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_boardbot").to_string())
}

fn data(file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/kalah").join(file)
}

/// A log file for one agent, in the tests' scratch folder.
fn log_path(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("mkagent");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(format!("{name}.log"))
}

/// boardbot as an agent with a game clock of `clock` seconds, logging to `log`. The referee splits
/// the command on spaces and runs it without a shell.
fn agent(clock: u32, log: &Path, extra: &str) -> String {
    format!("{} --protocol mkagent --clock {clock} --hash 64 --log {} {extra}", boardbot(), log.display())
}

/// What the referee printed of one game.
#[derive(Debug)]
struct JarGame {
    /// Its stdout: `<1 if won> <average ms a move>` for each agent, in argument order.
    stdout: String,
    /// Its stderr: the boards, `Move: South - 4` / `Move: Swap`, the verdict.
    stderr: String,
}

impl JarGame {
    fn moves(&self) -> Vec<&str> {
        self.stderr.lines().filter_map(|l| l.strip_prefix("Move: ")).collect()
    }
    /// `WINNER: Player k (...)` as k (0 for a draw), and the score, if the game ended regularly.
    fn result(&self) -> Option<(u32, u32)> {
        let winner = self.stderr.lines().find_map(|l| {
            l.strip_prefix("WINNER: Player ").and_then(|r| r[..1].parse().ok()).or((l == "DRAW").then_some(0))
        })?;
        let score = self.stderr.lines().find_map(|l| l.strip_prefix("SCORE: ")?.trim().parse().ok())?;
        Some((winner, score))
    }
    /// The referee's error lines (a protocol error, an illegal move, a timeout, a broken pipe).
    fn errors(&self) -> Vec<&str> {
        self.stderr.lines().filter(|l| l.starts_with("Error") || l.contains("ABORTED")).collect()
    }
}

/// One game in ManKalah.jar: `first` starts South. Panics if the referee does not finish within
/// `limit`.
fn jar_game(first: &str, second: &str, limit: Duration) -> JarGame {
    let mut child = Command::new("java")
        .arg("-jar")
        .arg(data("ManKalah.jar"))
        .arg(first)
        .arg(second)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run `java` ({e}): these tests need Java 17 or later on the PATH"));
    let (tx, rx) = mpsc::channel();
    let (mut out, mut err) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    let tx2 = tx.clone();
    std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut out, &mut s);
        let _ = tx.send((0, s));
    });
    std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut err, &mut s);
        let _ = tx2.send((1, s));
    });
    let mut texts = [String::new(), String::new()];
    for _ in 0..2 {
        match rx.recv_timeout(limit) {
            Ok((i, s)) => texts[i] = s,
            Err(_) => {
                let _ = child.kill();
                panic!("the referee did not finish within {limit:?}");
            }
        }
    }
    let _ = child.wait();
    let [stdout, stderr] = texts;
    JarGame { stdout, stderr }
}

/// Checks that a game ended regularly, with no protocol error or timeout, and that boardbot's log
/// (`logs`) never found the referee's board different from its own; returns (winner, score).
fn check(name: &str, game: &JarGame, logs: &[&Path]) -> (u32, u32) {
    let tail: String = game.stderr.lines().rev().take(12).collect::<Vec<_>>().join("\n");
    assert!(game.errors().is_empty(), "{name}: {:?}\n{tail}", game.errors());
    let result = game.result().unwrap_or_else(|| panic!("{name}: no result\n{tail}"));
    for log in logs {
        let text = std::fs::read_to_string(log).unwrap_or_default();
        assert!(!text.contains("differs from ours"), "{name}: {}:\n{text}", log.display());
    }
    eprintln!("{name}: winner {} by {}, moves {}; stdout {:?}", result.0, result.1, game.moves().len(), game.stdout);
    result
}

const CLOCK: u32 = 5;
/// A guard against a stall only: a game at CLOCK takes seconds, the JVMs' start included, but a
/// loaded CI machine can slow both a lot (the referee's own limit is an hour an agent).
const LIMIT: Duration = Duration::from_secs(900);

#[test]
fn whole_games_in_the_real_referee_against_its_test_agent_in_both_seats() {
    let mkref = format!("java -jar {}", data("MKRefAgent.jar").display());
    let (south_log, north_log) = (log_path("south-vs-mkref"), log_path("north-vs-mkref"));
    let (south, north) = std::thread::scope(|s| {
        let a = s.spawn(|| jar_game(&agent(CLOCK, &south_log, ""), &mkref, LIMIT));
        let b = s.spawn(|| jar_game(&mkref, &agent(CLOCK, &north_log, ""), LIMIT));
        (a.join().unwrap(), b.join().unwrap())
    });
    check("boardbot South, MKRefAgent North", &south, &[&south_log]);
    check("MKRefAgent South, boardbot North", &north, &[&north_log]);
    // MKRefAgent opens with hole 1; neither game has a swap by MKRefAgent.
    assert_eq!(north.moves()[0], "South - 1");
    assert!(!south.moves().contains(&"Swap"));
}

/// After South's hole 3 or 4 boardbot's search swaps at every budget from 20 ms to 8 s (its
/// evaluation and search at a80cb1a); the opener is greedy, whose first move with seed 0 is hole 4.
/// The referee then sends the swapper nothing: its next message is the other player's move.
#[test]
fn boardbot_swaps_inside_the_real_referee_and_plays_on() {
    let (bot_log, opener_log) = (log_path("swapper"), log_path("opener"));
    let opener = agent(CLOCK, &opener_log, "--player greedy --seed 0");
    let game = jar_game(&opener, &agent(CLOCK, &bot_log, ""), LIMIT);
    check("greedy South, boardbot North (swaps)", &game, &[&bot_log, &opener_log]);
    let moves = game.moves();
    assert!(["South - 3", "South - 4"].contains(&moves[0]), "the opening: {moves:?}");
    assert_eq!(moves[1], "Swap", "boardbot declined the swap: {moves:?}");
    // Both agents kept playing after the swap: the former South moves from North.
    assert!(moves[2].starts_with("North - "), "{moves:?}");
    assert!(moves.len() > 10, "{moves:?}");
}

#[test]
fn boardbot_follows_a_swap_by_its_opponent_inside_the_real_referee() {
    let bot_log = log_path("swapped");
    let swapper = format!("java {}", data("SwapAgent.java").display());
    let game = jar_game(&agent(CLOCK, &bot_log, ""), &swapper, LIMIT);
    check("boardbot South, SwapAgent North (swaps)", &game, &[&bot_log]);
    let moves = game.moves();
    assert_eq!(moves[1], "Swap", "{moves:?}");
    // boardbot, now North, moves next.
    assert!(moves[2].starts_with("North - "), "{moves:?}");
}

/// boardbot as an agent, fed lines directly.
struct Agent {
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
}

impl Agent {
    fn start() -> Agent {
        let mut child = Command::new(boardbot())
            .args(["--protocol", "mkagent", "--clock", "10", "--hash", "16"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in output.lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Agent { child, input, lines }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").unwrap();
        self.input.flush().unwrap();
    }

    /// The next reply; None if none comes within a minute (the clock is 10 s for the game).
    fn reply(&self) -> Option<String> {
        self.lines.recv_timeout(Duration::from_secs(60)).ok()
    }
}

impl Drop for Agent {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Issue 39, item 5: after `START;North`, a message with a bad turn field, then the right one: the
/// agent answers it (it used to have played the move at the bad message, and never answered).
#[test]
fn a_message_with_a_bad_turn_field_changes_nothing() {
    let mut a = Agent::start();
    a.send("START;North");
    a.send("CHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;MAYBE");
    a.send("CHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;YOU");
    let reply = a.reply().expect("no reply to the right message");
    assert!(reply == "SWAP" || reply.strip_prefix("MOVE;").is_some_and(|h| ("1".."8").contains(&h)), "{reply}");
}

/// Issue 39, item 5: a garbled confirmation of the agent's own move, then the right one: the move
/// is played once, and the agent answers the opponent's reply (it used to play its move twice and
/// stop).
#[test]
fn a_garbled_confirmation_does_not_play_the_move_twice() {
    let mut a = Agent::start();
    a.send("START;South");
    let reply = a.reply().expect("no first move");
    let ours = reply.strip_prefix("MOVE;").expect(&reply).to_string();
    let s = state_after(&[&ours]);
    a.send(&format!("CHANGE;{ours};{s};OPX"));
    a.send(&format!("CHANGE;{ours};{};OPP", &s[2..]));
    a.send(&format!("CHANGE;{ours};{s};OPP"));
    // North sows its hole 7.
    a.send(&format!("CHANGE;7;{};YOU", state_after(&[&ours, "7"])));
    let reply = a.reply().expect("no reply to North's move");
    let hole: usize = reply.strip_prefix("MOVE;").and_then(|h| h.parse().ok()).expect(&reply);
    assert!((1..=7).contains(&hole), "{reply}");
}

/// The referee's state (North's holes and store, South's) after `moves` from the start, by the
/// engine's rules (the engine's first player sits South; no swap here).
fn state_after(moves: &[&str]) -> String {
    use boardbot::game::kalah::{Capture, Kalah};
    use boardbot::game::{Game, Side};
    let mut k = Kalah::with_rules(7, 7, Capture::Standard, true).unwrap();
    for mv in moves {
        k.play(k.parse_move(mv).unwrap());
    }
    let mut counts = Vec::new();
    for side in [Side::Second, Side::First] {
        counts.extend(k.row(side).iter().map(u16::to_string));
        counts.push(k.store(side).to_string());
    }
    counts.join(",")
}

/// Issue 57, item 10: a START in the middle of a game silently started another (the referee
/// never sends one: it plays one game an agent); it is logged and ignored, the game goes on; and
/// END is logged.
#[test]
fn a_start_in_the_middle_of_a_game_is_ignored_and_end_is_logged() {
    let log = log_path("start-mid-game");
    let _ = std::fs::remove_file(&log);
    let mut child = Command::new(boardbot())
        .args(["--protocol", "mkagent", "--clock", "10", "--hash", "16", "--log", log.to_str().unwrap()])
        .env("RUST_LOG", "info")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    // South sowed its hole 1; North (us) answers; then a START; then END.
    let lines = ["START;North", "CHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;YOU", "START;South", "END"];
    for line in lines {
        writeln!(input, "{line}").unwrap();
    }
    input.flush().unwrap();
    let mut replies = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut replies).unwrap();
    assert!(child.wait().unwrap().success());
    let replies: Vec<&str> = replies.lines().collect();
    assert_eq!(replies.len(), 1, "one reply, to North's turn: {replies:?}");
    assert!(replies[0] == "SWAP" || replies[0].starts_with("MOVE;"), "{replies:?}");
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.contains("START in the middle of a game (1 moves played): ignored"), "{text}");
    assert!(text.contains("END: the referee ends the game"), "{text}");
}
