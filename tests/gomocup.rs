//! The Gomocup (pbrain) protocol on the real binary (`boardbot --protocol gomocup`): a whole
//! session of every command, tactics set up with BOARD, and `boardbot match` driving the binary
//! as a pbrain engine.

mod common;

use boardbot::game::mnk::Mnk;
use boardbot::game::{Game, Outcome, Side};
use common::*;
use std::collections::HashSet;
use std::process::Command;
use std::time::{Duration, Instant};

fn gomocup(args: &[&str]) -> Engine {
    let mut all = vec!["--protocol", "gomocup"];
    all.extend_from_slice(args);
    Engine::spawn_with(&all, &[])
}

/// The stones of a game as the test sees them, to check the engine's moves.
struct Stones {
    width: usize,
    height: usize,
    taken: HashSet<(usize, usize)>,
}

impl Stones {
    fn new(width: usize, height: usize) -> Stones {
        Stones { width, height, taken: HashSet::new() }
    }

    /// Reads the engine's reply as a move `x,y` on a free cell of the board and plays it.
    fn engine_move(&mut self, reply: &str) -> (usize, usize) {
        let parts: Vec<usize> = reply.split(',').map(|p| p.parse().unwrap_or(usize::MAX)).collect();
        assert_eq!(parts.len(), 2, "a move x,y, got '{reply}'");
        let (x, y) = (parts[0], parts[1]);
        assert!(x < self.width && y < self.height, "'{reply}' is off the {}x{} board", self.width, self.height);
        assert!(self.taken.insert((x, y)), "'{reply}' is on a stone");
        (x, y)
    }

    /// Sends TURN on the first free cell of `cells`; returns that cell and the engine's (checked)
    /// move.
    fn turn(&mut self, e: &mut Engine, cells: &[(usize, usize)]) -> ((usize, usize), (usize, usize)) {
        let &(x, y) = cells.iter().find(|c| !self.taken.contains(c)).expect("a free cell");
        self.taken.insert((x, y));
        let reply = e.ask(&format!("TURN {x},{y}"));
        ((x, y), self.engine_move(&reply))
    }
}

/// Asserts the reply is `ERROR <message>`.
fn expect_error(e: &mut Engine, line: &str) {
    let reply = e.ask(line);
    assert!(reply.starts_with("ERROR ") && reply.len() > 6, "'{line}' got '{reply}'");
}

/// Sends a BOARD block (each stone `x,y,field`) and returns the reply to DONE.
fn board(e: &mut Engine, stones: &[(usize, usize, u8)]) -> String {
    e.send("BOARD");
    for (x, y, f) in stones {
        e.send(&format!("{x},{y},{f}"));
    }
    e.ask("DONE")
}

const CELLS: [(usize, usize); 8] = [(7, 7), (8, 8), (6, 8), (8, 6), (9, 9), (5, 5), (10, 3), (2, 11)];

#[test]
fn a_whole_session_with_every_command() {
    let mut e = gomocup(&["--margin", "100"]);
    let about = e.ask("ABOUT");
    assert!(about.starts_with(r#"name="boardbot", version=""#), "{about}");
    assert!(about.contains(r#"author=""#) && about.contains(r#"country=""#), "{about}");
    e.expect("UNKNOWN_COMMAND 1", "UNKNOWN command 'UNKNOWN_COMMAND'");
    expect_error(&mut e, "BEGIN"); // no game yet
    expect_error(&mut e, "TURN 7,7");

    e.expect("START 15", "OK");
    // INFO gets no reply; unknown keys are ignored. 300 ms a move (90 ms kept as margin: 30% of it).
    for info in ["timeout_turn 300", "timeout_match 0", "max_memory 83886080", "game_type 1", "rule 0"] {
        e.send(&format!("INFO {info}"));
    }
    e.send("INFO folder C:\\some folder");
    e.send("INFO evaluate 3,4");
    e.send("INFO some_future_key 1");
    let mut s = Stones::new(15, 15);
    let t = Instant::now();
    let first = e.ask("BEGIN");
    s.engine_move(&first);
    for _ in 0..2 {
        s.turn(&mut e, &CELLS);
    }
    assert!(t.elapsed() < Duration::from_secs(3), "3 moves at 300 ms took {:?}", t.elapsed());

    // Bad input: an error, and nothing changes.
    let occupied = format!("TURN {first}");
    for bad in [
        occupied.as_str(),
        "TURN 15,3",
        "TURN 3",
        "TURN a,b",
        "TURN -1,2",
        "TAKEBACK 0,0",
        "START 4",
        "START 1001",
        "START many",
        "RECTSTART 20",
        "RECTSTART 3,20",
        "BEGIN",
        "RESTART now",
        "INFO timeout_turn soon",
    ] {
        expect_error(&mut e, bad);
    }
    // A bad BOARD: its whole block gets one error.
    e.send("BOARD");
    e.send("");
    e.send("1,2");
    e.send("3,3,1");
    let reply = e.ask("DONE");
    assert!(reply.starts_with("ERROR BOARD: expected X,Y,FIELD"), "{reply}");
    let reply = board(&mut e, &[(1, 1, 2), (2, 2, 2), (3, 3, 2)]);
    assert!(reply.starts_with("ERROR BOARD: 0 own and 3 opponent stones"), "{reply}");
    // Still the same game (the engine's fourth stone: no five yet in any case).
    // TAKEBACK: the last stone only; the cell is free again afterwards.
    let ((ox, oy), (x, y)) = s.turn(&mut e, &CELLS);
    expect_error(&mut e, &format!("TAKEBACK {ox},{oy}"));
    e.expect(&format!("TAKEBACK {x},{y}"), "OK");
    e.expect(&format!("TAKEBACK {ox},{oy}"), "OK");
    s.taken.remove(&(x, y));
    s.taken.remove(&(ox, oy));
    // The engine's taken-back stone is played by the opponent now: accepted, so it is gone.
    let reply = e.ask(&format!("TURN {x},{y}"));
    s.taken.insert((x, y));
    s.engine_move(&reply);

    // BOARD: a position of its own, stones in any order; then we move.
    let stones = [(7, 7, 2), (7, 8, 1), (8, 7, 2), (6, 6, 1), (9, 9, 2)];
    let mut s = Stones::new(15, 15);
    s.taken.extend(stones.iter().map(|&(x, y, _)| (x, y)));
    let reply = board(&mut e, &stones);
    s.engine_move(&reply);
    // The match clock: with 4 s left, a move may take 1/20 of it (200 ms), not timeout_turn.
    e.send("INFO timeout_turn 10000");
    e.send("INFO timeout_match 100000");
    e.send("INFO time_left 4000");
    let t = Instant::now();
    s.turn(&mut e, &CELLS);
    assert!(t.elapsed() < Duration::from_millis(1500), "took {:?} with 4 s left", t.elapsed());
    e.send("INFO time_left 2147483647");
    e.send("INFO timeout_turn 300");

    // RESTART: the same board, empty, so BEGIN is accepted again.
    e.expect("RESTART", "OK");
    let mut s = Stones::new(15, 15);
    let reply = e.ask("BEGIN");
    s.engine_move(&reply);

    // A board of 20 columns and 10 rows.
    e.expect("RECTSTART 20,10", "OK");
    let mut s = Stones::new(20, 10);
    s.taken.insert((19, 9));
    let reply = e.ask("TURN 19,9");
    s.engine_move(&reply);
    expect_error(&mut e, "TURN 5,10");
    s.turn(&mut e, &[(19, 0), (0, 9)]);

    // Rules other than free-style are refused, at once and at every move until rule 0.
    e.expect("START 15", "OK");
    for rule in ["1", "2", "4", "8", "5"] {
        expect_error(&mut e, &format!("INFO rule {rule}"));
        expect_error(&mut e, "BEGIN");
    }
    e.send("INFO rule 0");
    let reply = e.ask("BEGIN");
    Stones::new(15, 15).engine_move(&reply);

    e.send("END");
    e.assert_exits_ok(REPLY_TIMEOUT);
    assert_eq!(e.remaining_lines(REPLY_TIMEOUT), Vec::<String>::new(), "END gets no reply");
}

#[test]
fn board_positions_take_a_five_and_block_a_four() {
    let mut e = gomocup(&[]);
    e.expect("START 15", "OK");
    e.send("INFO timeout_turn 2000");
    // Our open four on row 7 and the opponent's on row 10; equal counts: we move first and win.
    let mut stones = vec![];
    for x in 3..7 {
        stones.push((x, 7, 1));
        stones.push((x, 10, 2));
    }
    let reply = board(&mut e, &stones);
    assert!(reply == "2,7" || reply == "7,7", "the five, not {reply}");

    // The opponent's broken four X X _ X X on row 5, one stone more: only 5,5 holds.
    let own = [(0, 0, 1), (14, 14, 1), (0, 14, 1)];
    let theirs = [(3, 5, 2), (4, 5, 2), (6, 5, 2), (7, 5, 2)];
    assert_eq!(board(&mut e, &[&theirs[..], &own[..]].concat()), "5,5");

    // A diagonal four closed at one end by our stone: the other end.
    let stones = [(1, 1, 1), (2, 2, 2), (3, 3, 2), (14, 0, 1), (4, 4, 2), (5, 5, 2), (0, 13, 1)];
    assert_eq!(board(&mut e, &stones), "6,6");

    // Impossible positions: the counts, a five already on the board, a stone twice, off the board.
    expect_error(&mut e, "BEGIN"); // the board has stones
    let five: Vec<_> = (0..5).map(|x| (x, 0, 2)).chain((0..4).map(|x| (x, 1, 1))).collect();
    for bad in [&[(1, 1, 1), (2, 2, 1)][..], &[(1, 1, 2), (2, 2, 2)][..], &five[..], &[(1, 1, 2), (1, 1, 1)][..]] {
        let reply = board(&mut e, bad);
        assert!(reply.starts_with("ERROR BOARD: "), "{bad:?}: {reply}");
    }
    assert!(board(&mut e, &[(15, 1, 2)]).starts_with("ERROR BOARD: 15,1 is off the 15x15 board"));
    // The last good position is still the game: its four is blocked, so the opponent plays on.
    let reply = e.ask("TURN 10,10");
    assert!(!reply.starts_with("ERROR"), "{reply}");

    // Two fours of the opponent (row 5 and column 10, each closed by our stone at one end): we
    // block one, its five on the other ends the game, and it can be taken back.
    let mut stones: Vec<_> = (3..7).map(|x| (x, 5, 2)).chain((3..7).map(|y| (10, y, 2))).collect();
    stones.extend([(2, 5, 1), (10, 2, 1), (0, 0, 1), (14, 14, 1), (0, 14, 1), (14, 0, 1), (7, 12, 1)]);
    let reply = board(&mut e, &stones);
    let five = if reply == "7,5" { "10,7" } else { "7,5" };
    e.expect(&format!("TURN {five}"), &format!("ERROR the game is over: {five} made five"));
    expect_error(&mut e, "TURN 12,12");
    e.expect(&format!("TAKEBACK {five}"), "OK");
    let reply = e.ask("TURN 12,12");
    assert!(!reply.starts_with("ERROR"), "{reply}");
    e.send("END");
    e.assert_exits_ok(REPLY_TIMEOUT);
}

fn temp_log() -> std::path::PathBuf {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("gomocup-test-{}-{nanos}.log", std::process::id()))
}

#[test]
fn the_referee_drives_a_pbrain_engine() {
    let log = temp_log();
    let pbrain = format!("pbrain:{BIN} --protocol gomocup");
    let out = Command::new(BIN)
        .args(["match", "--game", "mnk", "7", "7", "5", "--game", "mnk", "6", "9", "5", "--rounds", "1"])
        .args(["--timeout", "0.35", "--engine1", "self", "--engine2", &pbrain, "--quiet", "--log"])
        .arg(&log)
        .output()
        .expect("run boardbot match");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&log).expect("game log");
    let _ = std::fs::remove_file(&log);
    let games: Vec<Vec<&str>> = text.lines().filter(|l| !l.starts_with('#')).map(|l| l.split('\t').collect()).collect();
    assert_eq!(games.len(), 4, "{text}");
    for g in &games {
        assert!(g[2..4].contains(&"e2:pbrain:boardbot"), "{g:?}");
        assert!(g[5] == "win" || g[5] == "draw" || g[5].starts_with("dead draw:"), "no forfeit: {g:?}");
        // Every move legal and the result the rules' own.
        let dims: Vec<usize> = g[1].split_whitespace().skip(1).map(|w| w.parse().unwrap()).collect();
        let mut game = Mnk::new(dims[0], dims[1], dims[2], &[]).unwrap();
        for mv in g[6].split_whitespace() {
            let mv = game.parse_move(mv).unwrap();
            assert!(game.is_legal(mv), "{g:?}");
            game.play(mv);
        }
        let result = match game.outcome() {
            Some(Outcome::Win(Side::First)) => "1-0",
            Some(Outcome::Win(Side::Second)) => "0-1",
            Some(Outcome::Draw) => "1/2-1/2",
            None if game.is_dead_draw() && g[5].starts_with("dead draw:") => "1/2-1/2",
            None => panic!("unfinished: {g:?}"),
        };
        assert_eq!(g[4], result, "{g:?}");
    }
    assert!(stdout.contains("engine2 pbrain:boardbot: ") && stdout.contains(" late of "), "{stdout}");

    // Boards a pbrain engine cannot play are refused before any game.
    for board in [["mnk", "7", "7", "4"], ["cx", "6", "7", "5"]] {
        let out = Command::new(BIN)
            .args(["match", "--game"])
            .args(board)
            .args(["--engine2", &pbrain, "--quiet"])
            .output()
            .expect("run boardbot match");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && stderr.contains("only m,n,k boards with K = 5"), "{stderr}");
    }
}

/// A line of /proc/PID/status in KiB (VmHWM: the peak of the resident memory; VmRSS: now).
fn status_kib(pid: u32, key: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc (Linux) to read the memory");
    let line = status.lines().find(|l| l.starts_with(key)).unwrap_or_else(|| panic!("no {key} in {status}"));
    line.split_whitespace().nth(1).and_then(|n| n.parse().ok()).unwrap_or_else(|| panic!("{line}"))
}

/// Issue 57, item 6: the process holds no table before the manager says how much it may take;
/// with `INFO max_memory` 80 MiB a board too large is refused before it is made, and the
/// process's peak stays within 80 MiB whatever START asks, in play too (it was 157 MB for
/// START 1000, 86.3 MB for START 520, and 64 MiB before any INFO).
#[test]
fn max_memory_holds_for_every_board_and_nothing_is_held_before_it() {
    const LIMIT_KIB: u64 = 80 << 10;
    let mut e = gomocup(&[]);
    assert!(e.ask("ABOUT").starts_with("name="));
    let idle = status_kib(e.pid(), "VmHWM:");
    assert!(idle < 32 << 10, "{idle} KiB before any INFO or START");
    e.send("INFO max_memory 83886080");
    e.send("INFO timeout_turn 300");
    for size in ["1000", "520"] {
        let reply = e.ask(&format!("START {size}"));
        assert!(reply.starts_with("ERROR ") && reply.contains("more than the hash allows"), "START {size}: {reply}");
        let peak = status_kib(e.pid(), "VmHWM:");
        assert!(peak <= LIMIT_KIB, "START {size}: peak {peak} KiB");
    }
    // The largest square board that fits, replayed (two boards at once), and a few moves on it.
    for _ in 0..2 {
        e.expect("START 390", "OK");
    }
    let mut s = Stones::new(390, 390);
    s.engine_move(&e.ask("BEGIN"));
    for _ in 0..2 {
        s.turn(&mut e, &[(190, 190), (191, 191), (189, 191), (150, 150)]);
    }
    let stones: Vec<(usize, usize, u8)> = (0..6).map(|i| (10 + i, 10, 1 + (i % 2) as u8)).collect();
    let reply = board(&mut e, &stones);
    assert!(reply.contains(','), "BOARD: {reply}");
    let peak = status_kib(e.pid(), "VmHWM:");
    assert!(peak <= LIMIT_KIB, "in play on 390 x 390: peak {peak} KiB");
}
