//! `boardbot match` as a user runs it: the real binary referees games between the bot and small
//! fake engines (shell one-liners), and its table and game log are checked.

use boardbot::game::connectx::ConnectX;
use boardbot::game::mnk::Mnk;
use boardbot::game::{Game, Outcome, Side};
use std::path::PathBuf;
use std::process::Command;

struct Match {
    table: String,
    /// Log rows, split on tabs: number, board, first, second, result, reason, moves.
    games: Vec<Vec<String>>,
}

fn run_match(args: &[&str]) -> Match {
    let log: PathBuf =
        std::env::temp_dir().join(format!("boardbot-referee-test-{}-{}.log", std::process::id(), rand_suffix()));
    let out = Command::new(env!("CARGO_BIN_EXE_boardbot"))
        .arg("match")
        .args(args)
        .args(["--quiet", "--log", log.to_str().unwrap()])
        .output()
        .expect("run boardbot match");
    assert!(out.status.success(), "match failed: {}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&log).expect("game log");
    let _ = std::fs::remove_file(&log);
    let games = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect();
    Match { table: String::from_utf8_lossy(&out.stdout).into_owned(), games }
}

fn rand_suffix() -> u128 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos()
}

/// The TOTAL row's columns: games W D L F oF pts1 pts2.
fn totals(table: &str) -> Vec<f64> {
    let row = table.lines().find(|l| l.starts_with("TOTAL")).expect("a TOTAL row");
    row.split_whitespace().skip(1).take(8).map(|w| w.parse().unwrap()).collect()
}

const SLOW: &str = "sh -c 'read a; echo ok; while read l; do sleep 5; done'";
const ILLEGAL: &str = "sh -c 'read a; echo ok; while read l; do echo 99 99; done'";
const GARBLED: &str = "sh -c 'read a; echo ok; while read l; do echo hello; done'";
const CRASHING: &str = "sh -c 'read a; echo ok; read b; exit 3'";

#[test]
fn every_kind_of_fault_forfeits_the_game_with_colours_alternating() {
    for (engine, kind) in [(SLOW, "timeout"), (ILLEGAL, "illegal"), (GARBLED, "garbled"), (CRASHING, "crash")] {
        let m = run_match(&["--game", "mnk", "3", "3", "3", "--timeout", "0.3", "--rounds", "1", "--engine2", engine]);
        assert_eq!(m.games.len(), 2, "{kind}");
        // Game 1: engine1 moves first; game 2: engine2 does.
        assert!(m.games[0][2].starts_with("e1") && m.games[1][2].starts_with("e2"), "{kind}: {:?}", m.games);
        assert_eq!(m.games[0][4], "1-0", "{kind}");
        assert_eq!(m.games[1][4], "0-1", "{kind}");
        assert!(m.games[0][5].starts_with(&format!("forfeit by second {kind}")), "{kind}: {}", m.games[0][5]);
        assert!(m.games[1][5].starts_with(&format!("forfeit by first {kind}")), "{kind}: {}", m.games[1][5]);
        // m,n,k scoring: a win as first is worth 2, as second 3; the forfeiter gets nothing.
        let t = totals(&m.table);
        assert_eq!((t[0], t[1], t[4], t[5], t[6], t[7]), (2.0, 2.0, 0.0, 2.0, 5.0, 0.0), "{kind}: {}", m.table);
    }
}

#[test]
fn connect_x_wins_score_three_and_a_crashed_engine_is_restarted() {
    // The crashing engine dies in game 1; game 2 needs a fresh process to get as far as 'go'.
    let m = run_match(&["--game", "cx", "4", "4", "3", "--timeout", "0.3", "--rounds", "1", "--engine2", CRASHING]);
    assert_eq!(m.games[1][5], "forfeit by first crash: no reply to 'go': engine exited (exit status: 3)");
    assert_eq!(totals(&m.table)[6], 6.0);
}

/// Replays a logged game with the library's rules: every move legal, and the logged result is
/// the position's outcome after the last move (and not before).
fn replay<G: Game>(mut game: G, moves: &str, result: &str) {
    let moves: Vec<&str> = moves.split_whitespace().collect();
    for (i, text) in moves.iter().enumerate() {
        assert!(game.outcome().is_none(), "the game was over before move {}", i + 1);
        let mv = game.parse_move(&text.replace(',', " ")).expect("a logged move parses");
        assert!(game.is_legal(mv), "move {} '{text}' is illegal", i + 1);
        game.play(mv);
    }
    let expected = match result {
        "1-0" => Outcome::Win(Side::First),
        "0-1" => Outcome::Win(Side::Second),
        _ => Outcome::Draw,
    };
    assert_eq!(game.outcome(), Some(expected));
}

#[test]
fn logged_games_replay_to_the_logged_result() {
    let m = run_match(&[
        "--game",
        "mnk",
        "5",
        "5",
        "4",
        "--game",
        "cx",
        "5",
        "4",
        "4",
        "--game",
        "mnk",
        "3",
        "3",
        "3",
        "--timeout",
        "0.3",
        "--rounds",
        "1",
        "--engine2",
        "l1",
    ]);
    assert_eq!(m.games.len(), 6);
    for g in &m.games {
        assert!(g[5] == "win" || g[5] == "draw", "no forfeits expected: {g:?}");
        let b: Vec<usize> = g[1].split_whitespace().skip(1).map(|w| w.parse().unwrap()).collect();
        match g[1].split_whitespace().next() {
            Some("mnk") => replay(Mnk::new(b[0], b[1], b[2], &[]).unwrap(), &g[6], &g[4]),
            _ => replay(ConnectX::new(b[0], b[1], b[2]).unwrap(), &g[6], &g[4]),
        }
    }
}
