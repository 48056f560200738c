//! `boardbot match` as a user runs it: the real binary referees games between the bot and small
//! fake engines (shell one-liners), and its table and game log are checked.

use boardbot::game::connectx::ConnectX;
use boardbot::game::mnk::Mnk;
use boardbot::game::{Game, Outcome, Side};
use std::path::{Path, PathBuf};
use std::process::Command;

struct Match {
    table: String,
    /// Log rows, split on tabs: number, board, first, second, result, reason, moves.
    games: Vec<Vec<String>>,
}

fn run_match(args: &[&str]) -> Match {
    let log = temp_path("log");
    let m = run_match_logged(args, &log);
    let _ = std::fs::remove_file(&log);
    m
}

/// Runs a match that writes its game log to `log`.
fn run_match_logged(args: &[&str], log: &Path) -> Match {
    let out = Command::new(env!("CARGO_BIN_EXE_boardbot"))
        .arg("match")
        .args(args)
        .args(["--quiet", "--log", log.to_str().unwrap()])
        .output()
        .expect("run boardbot match");
    assert!(out.status.success(), "match failed: {}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(log).expect("game log");
    let games = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect();
    Match { table: String::from_utf8_lossy(&out.stdout).into_owned(), games }
}

/// A fresh path in cargo's temporary directory for tests (inside `target/`).
fn temp_path(what: &str) -> PathBuf {
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "boardbot-referee-test-{}-{}.{what}",
        std::process::id(),
        rand_suffix()
    ))
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

/// The per-board and TOTAL rows of a results table without the reply-time columns (the last
/// four), which depend on timing.
fn results_without_times(table: &str) -> Vec<String> {
    let start = table.lines().position(|l| l.starts_with("board")).expect("a table header") + 1;
    let end = table.lines().position(|l| l.starts_with("TOTAL")).expect("a TOTAL row") + 1;
    table
        .lines()
        .take(end)
        .skip(start)
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            words[..words.len() - 4].join(" ")
        })
        .collect()
}

#[test]
fn jobs_do_not_change_the_results() {
    let args = |jobs: &'static str| {
        let mut a: Vec<&str> = "--game mnk 4 4 3 --game cx 5 4 4 --rounds 3 --timeout 2 --engine1 l1 --engine2 random \
                                --seed 7 --jobs"
            .split_whitespace()
            .collect();
        a.push(jobs);
        a
    };
    let one = run_match(&args("1"));
    let two = run_match(&args("2"));
    assert_eq!(one.games.len(), 12);
    // The log rows are the same, in the same order.
    assert_eq!(one.games, two.games);
    let rows = results_without_times(&one.table);
    assert_eq!(rows.len(), 3, "{}", one.table);
    assert_eq!(rows, results_without_times(&two.table));
    // Different seeds give different games: the comparison above is not between empty logs.
    let mut other = args("2");
    let seed = other.iter().position(|a| *a == "--seed").unwrap() + 1;
    other[seed] = "8";
    assert_ne!(run_match(&other).games, one.games);
}

#[test]
fn a_late_engine_still_forfeits_under_jobs() {
    let m = run_match(&[
        "--game",
        "mnk",
        "3",
        "3",
        "3",
        "--timeout",
        "0.3",
        "--rounds",
        "2",
        "--engine2",
        SLOW,
        "--jobs",
        "2",
    ]);
    assert_eq!(m.games.len(), 4);
    for (i, g) in m.games.iter().enumerate() {
        assert_eq!(g[0], (i + 1).to_string(), "the log is in game order");
        let (first, result, loser) = if i % 2 == 0 { ("e1", "1-0", "second") } else { ("e2", "0-1", "first") };
        assert!(g[2].starts_with(first), "{g:?}");
        assert_eq!(g[4], result, "{g:?}");
        assert!(g[5].starts_with(&format!("forfeit by {loser} timeout")), "{g:?}");
    }
    let t = totals(&m.table);
    assert_eq!((t[0], t[1], t[5], t[6], t[7]), (4.0, 4.0, 4.0, 10.0, 0.0), "{}", m.table);
}

#[test]
fn jobs_play_at_the_same_time() {
    // Each engine2 process answers `init` only once two of them have started a game: with one
    // job at a time it would wait in vain (and forfeit at the setup timeout).
    let dir = temp_path("dir");
    std::fs::create_dir(&dir).unwrap();
    let engine = format!(
        "sh -c 'read a; touch {d}/$$; while [ $(ls {d} | wc -l) -lt 2 ]; do sleep 0.05; done; echo ok; \
         while read l; do echo 99 99; done'",
        d = dir.display()
    );
    let m = run_match(&[
        "--game",
        "cx",
        "4",
        "4",
        "3",
        "--timeout",
        "1",
        "--setup-timeout",
        "5",
        "--engine2",
        &engine,
        "--jobs",
        "2",
    ]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(m.games.len(), 2);
    for g in &m.games {
        assert!(g[5].contains("illegal: '99 99'"), "both games got past the setup: {g:?}");
    }
}

#[test]
fn plain_progress_lines_when_stderr_is_not_a_terminal() {
    let args = ["match", "--game", "mnk", "3", "3", "3", "--engine1", "l1", "--engine2", "random"];
    let out = Command::new(env!("CARGO_BIN_EXE_boardbot")).args(args).output().expect("run boardbot match");
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = stderr.lines().filter(|l| l.starts_with('[')).collect();
    assert_eq!(lines.len(), 2, "{stderr}");
    for (done, line) in lines.iter().enumerate() {
        assert!(line.starts_with(&format!("[{}/2 ", done + 1)) && line.contains(" left] game "), "{line}");
    }
    assert!(!stderr.contains('\x1b'), "no terminal codes in a pipe: {stderr:?}");
    let quiet = Command::new(env!("CARGO_BIN_EXE_boardbot")).args(args).arg("--quiet").output().unwrap();
    assert!(quiet.status.success());
    assert_eq!(String::from_utf8_lossy(&quiet.stderr), "", "--quiet prints no progress");
}

/// Replays a logged game with the library's rules: every move legal, and the logged result is
/// the position's outcome after the last move (and not before).
fn replay<G: Game>(mut game: G, moves: &str, result: &str, reason: &str) {
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
    if reason.starts_with("dead draw:") {
        // Stopped as soon as neither side could win: not before the last move.
        assert!(game.outcome().is_none() && game.is_dead_draw() && expected == Outcome::Draw);
        game.undo();
        assert!(!game.is_dead_draw(), "a dead draw one move earlier");
    } else {
        assert_eq!(game.outcome(), Some(expected));
    }
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
        assert!(g[5] == "win" || g[5] == "draw" || g[5].starts_with("dead draw:"), "no forfeits expected: {g:?}");
        let b: Vec<usize> = g[1].split_whitespace().skip(1).map(|w| w.parse().unwrap()).collect();
        match g[1].split_whitespace().next() {
            Some("mnk") => replay(Mnk::new(b[0], b[1], b[2], &[]).unwrap(), &g[6], &g[4], &g[5]),
            _ => replay(ConnectX::new(b[0], b[1], b[2]).unwrap(), &g[6], &g[4], &g[5]),
        }
    }
}

/// `boardbot replay` on a log: (success, stdout, stderr).
fn replay_cli(log: &Path, more: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_boardbot"))
        .arg("replay")
        .arg(log)
        .args(more)
        .output()
        .expect("run boardbot replay");
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

#[test]
fn replay_checks_a_real_match_log_and_catches_a_tampered_move() {
    let log = temp_path("log");
    let args = "--game mnk 4 4 3 --game cx 5 4 4 --rounds 1 --timeout 2 --engine1 l1 --engine2 random --seed 3";
    let m = run_match_logged(&args.split_whitespace().collect::<Vec<_>>(), &log);
    assert_eq!(m.games.len(), 4);

    let (ok, out, err) = replay_cli(&log, &[]);
    assert!(ok, "{out}\n{err}");
    assert!(out.ends_with(&format!("replayed 4 game(s) of {}: 4 ok, 0 failed\n", log.display())), "{out}");
    assert_eq!(out.matches(": ok: ").count(), 4, "{out}");
    // The final board of game 1: 4 rows of 4 cells, as many stones as moves.
    let moves = m.games[0][6].split_whitespace().count();
    let board: Vec<&str> = out.lines().skip(1).take(4).collect();
    assert!(board.iter().all(|row| row.len() == 4 && row.chars().all(|c| ".XO".contains(c))), "{out}");
    assert_eq!(board.concat().chars().filter(|c| *c != '.').count(), moves, "{out}");

    let (ok, out, _) = replay_cli(&log, &["--game", "3", "--each-move"]);
    assert!(ok);
    assert!(out.starts_with("game 3 [cx 5 4 4]"), "{out}");
    assert_eq!(out.matches("after move ").count(), m.games[2][6].split_whitespace().count(), "{out}");
    let (ok, _, err) = replay_cli(&log, &["--game", "9"]);
    assert!(!ok && err.contains("no game 9 in"), "{err}");

    // Game 2's third move made the same as its first: an occupied cell.
    let text = std::fs::read_to_string(&log).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut fields: Vec<String> = lines[2].split('\t').map(str::to_string).collect();
    let mut moves: Vec<String> = fields[6].split_whitespace().map(str::to_string).collect();
    moves[2] = moves[0].clone();
    fields[6] = moves.join(" ");
    lines[2] = fields.join("\t");
    std::fs::write(&log, lines.join("\n") + "\n").unwrap();
    let (ok, out, err) = replay_cli(&log, &[]);
    assert!(!ok, "a tampered log fails");
    let expected = format!("game 2 (line 3): FAILED: move 3 '{}' by first is illegal", moves[0]);
    assert!(out.contains(&expected), "{out}");
    assert!(out.contains("3 ok, 1 failed"), "{out}");
    assert!(err.contains("1 of 4 game(s) failed the check: line 3 (game 2)"), "{err}");

    // A line cut short: named by its number.
    lines[4] = "4\tcx 5 4 4\te2:random".to_string();
    std::fs::write(&log, lines.join("\n") + "\n").unwrap();
    let (ok, out, err) = replay_cli(&log, &[]);
    assert!(!ok);
    assert!(out.contains("line 5: FAILED: malformed log line: expected 7 tab-separated fields"), "{out}");
    assert!(err.contains("line 3 (game 2), line 5"), "{err}");
    let _ = std::fs::remove_file(&log);
}

#[test]
fn replay_accepts_logged_forfeits() {
    let log = temp_path("log");
    let m = run_match_logged(&["--game", "mnk", "3", "3", "3", "--timeout", "0.5", "--engine2", ILLEGAL], &log);
    assert!(m.games.iter().all(|g| g[5].starts_with("forfeit by")), "{:?}", m.games);
    let (ok, out, err) = replay_cli(&log, &[]);
    let _ = std::fs::remove_file(&log);
    assert!(ok, "{out}\n{err}");
    assert!(out.contains("game 1 (line 2): ok: forfeit by second after 1 legal moves (accepted as logged)"), "{out}");
    assert!(out.contains("game 2 (line 3): ok: forfeit by first after 0 legal moves (accepted as logged)"), "{out}");
}

#[test]
fn as_first_player_on_connect4_the_bot_wins_against_l1_and_itself() {
    // The opening book and then the exact solver: every game is a win, with both opponents
    // (L1 plays differently in each game: its seed is the game's).
    for opponent in ["l1", "self"] {
        let m = run_match(&[
            "--game",
            "cx",
            "6",
            "7",
            "4",
            "--timeout",
            "0.5",
            "--rounds",
            "2",
            "--first",
            "1",
            "--engine2",
            opponent,
        ]);
        assert_eq!(m.games.len(), 4, "{opponent}");
        for g in &m.games {
            assert!(g[2].starts_with("e1"), "engine1 moves first: {g:?}");
            assert_eq!((g[4].as_str(), g[5].as_str()), ("1-0", "win"), "{opponent}: {g:?}");
        }
    }
}

#[test]
fn given_openings_start_the_rounds_in_file_order_and_bad_ones_are_refused() {
    let file = temp_path("openings");
    // Two openings (one of odd length: the second player moves first after it), a comment and
    // a blank line; 3 rounds, so the first opening comes back in round 3.
    std::fs::write(&file, "# 4x4x3 openings\n1,1 2,2\n\n0,0 3,3 0,3 # three stones\n").unwrap();
    let args = ["--game", "mnk", "4", "4", "3", "--rounds", "3", "--timeout", "2", "--engine1", "l1"];
    let m = run_match(&[&args[..], &["--engine2", "random", "--openings", file.to_str().unwrap()]].concat());
    assert_eq!(m.games.len(), 6);
    assert!(m.table.contains("; 2 given openings, one a round, repeated"), "{}", m.table);
    let starts: Vec<Vec<&str>> = m.games.iter().map(|g| g[6].split_whitespace().collect()).collect();
    for (i, start) in starts.iter().enumerate() {
        let opening: &[&str] = if i / 2 == 1 { &["0,0", "3,3", "0,3"] } else { &["1,1", "2,2"] };
        assert_eq!(&start[..opening.len()], opening, "game {}", i + 1);
        assert!(start.len() > opening.len(), "the engines played on in game {}", i + 1);
    }
    // Each engine plays each side once a round.
    for round in m.games.chunks(2) {
        assert_eq!((round[0][2].as_str(), round[1][2].as_str()), ("e1:l1", "e2:random"));
    }

    // An illegal opening (an occupied cell) is refused before any game, with its line.
    std::fs::write(&file, "1,1 2,2\n1,1 1,1\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_boardbot"))
        .args(["match", "--game", "mnk", "4", "4", "3", "--openings", file.to_str().unwrap()])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("line 2: not an opening on 'mnk 4 4 3': move 2 '1,1' is not legal there"), "{err}");
    assert!(out.stdout.is_empty(), "no game was played");
    // With --opening as well (random plies after the given opening): refused the same.
    let out = Command::new(env!("CARGO_BIN_EXE_boardbot"))
        .args(["match", "--game", "mnk", "4", "4", "3", "--opening", "2", "--openings", file.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains("line 2: not an opening"));
    let _ = std::fs::remove_file(&file);
}

/// Runs `boardbot match ARGS --quiet --results FILE` and returns its stdout and the results.
fn run_with_results(
    args: &[&str],
) -> (String, boardbot::referee::results::MatchHeader, Vec<boardbot::referee::results::GameResult>) {
    let file = temp_path("results");
    let out = Command::new(env!("CARGO_BIN_EXE_boardbot"))
        .arg("match")
        .args(args)
        .args(["--quiet", "--results", file.to_str().unwrap()])
        .output()
        .expect("run boardbot match");
    assert!(out.status.success(), "match failed: {}", String::from_utf8_lossy(&out.stderr));
    let (header, games) = boardbot::referee::results::read(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let _ = std::fs::remove_file(&file);
    (String::from_utf8_lossy(&out.stdout).into_owned(), header, games)
}

#[test]
fn an_sprt_stops_at_its_verdict_and_its_results_merge_back() {
    use boardbot::referee::results::{pentanomial, sprt_course};
    use boardbot::referee::sprt::Verdict;
    // On 4x4, 3 in a row (a first player's win) the engine beats a random player with either
    // colour: H1 (+200 Elo) is accepted in a few pairs, long before the cap of 50.
    let args = ["--game", "mnk", "4", "4", "3", "--timeout", "2", "--rounds", "50", "--sprt", "0", "200"];
    let (out, header, games) = run_with_results(&[&args[..], &["--engine1", "self", "--engine2", "random"]].concat());
    assert!(out.contains("SPRT [0, 200] logistic Elo, alpha 0.05, beta 0.05: H1 accepted"), "{out}");
    assert!(out.contains("pentanomial (pairs where engine1 scored 0, 1/2, 1, 3/2, 2 points): ["), "{out}");
    let sprt = header.sprt.expect("the test in the header");
    assert_eq!((sprt.elo0, sprt.elo1, header.rounds), (0.0, 200.0, 50));
    let pairs = games.len() / 2;
    assert!(games.len() % 2 == 0 && (2..50).contains(&pairs), "{} games", games.len());
    assert_eq!(games.iter().map(|g| g.game).collect::<Vec<_>>(), (1..=games.len()).collect::<Vec<_>>());
    // The results give back the same course: the verdict at the last pair, not before.
    let (counts, llr, verdict) = sprt_course(&sprt, &games);
    assert_eq!((verdict, counts.pairs() as usize, counts), (Some(Verdict::H1), pairs, pentanomial(&games)));
    assert!(out.contains(&format!("LLR {llr:.3} >= 2.944 after {pairs} pairs ({} games)", 2 * pairs)), "{out}");
    assert_eq!(totals(&out)[0], (2 * pairs) as f64, "the table counts the games of the test");
    // The other way round, H0: engine1 is not 200 Elo stronger.
    let (out, _, games) = run_with_results(&[&args[..], &["--engine1", "random", "--engine2", "self"]].concat());
    assert!(out.contains(": H0 accepted (engine1 is not 200 Elo stronger)"), "{out}");
    assert!(games.len() < 100);
    // One board only, colours alternating.
    let out = Command::new(env!("CARGO_BIN_EXE_boardbot"))
        .args(["match", "--game", "mnk", "3", "3", "3", "--game", "mnk", "4", "4", "3", "--sprt", "0", "5"])
        .output()
        .unwrap();
    assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains("--sprt plays one board"));
    let out = Command::new(env!("CARGO_BIN_EXE_boardbot"))
        .args(["match", "--game", "mnk", "3", "3", "3", "--sprt", "5", "0"])
        .output()
        .unwrap();
    assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains("ELO0 must be below ELO1"));
}

#[test]
fn checkers_rounds_start_from_the_acf_ballots_with_both_colours() {
    let args = ["--game", "checkers", "english", "--openings", "acf3", "--rounds", "2", "--timeout", "2"];
    let (out, header, games) = run_with_results(&[&args[..], &["--engine1", "greedy", "--engine2", "random"]].concat());
    assert!(out.contains("; the first 2 of 156 given openings, one a round"), "{out}");
    assert_eq!(header.openings.as_deref(), Some("acf3"));
    assert_eq!(games.len(), 4);
    // ACF ballots 1 and 2, each played with both colours.
    for (g, ballot) in games.iter().zip(["9-13 21-17 5-9", "9-13 21-17 5-9", "9-13 21-17 6-9", "9-13 21-17 6-9"]) {
        assert_eq!(g.moves[..3].join(" "), ballot, "{g:?}");
        assert!(g.moves.len() > 3, "played on");
    }
    assert_eq!(
        games.iter().map(|g| (g.first, g.opening)).collect::<Vec<_>>(),
        [(1, Some(1)), (2, Some(1)), (1, Some(2)), (2, Some(2))]
    );
    // With random plies after each ballot: the same ballot, then the plies drawn for the round.
    let (_, _, games) =
        run_with_results(&[&args[..], &["--opening", "2", "--engine1", "greedy", "--engine2", "random"]].concat());
    assert_eq!(games[0].moves[..3].join(" "), "9-13 21-17 5-9");
    assert_eq!(games[0].moves[..5], games[1].moves[..5], "both games of a round from the same opening");
}

/// Issue 57, item 11: `boardbot merge` given a match's game log (`--log`) read it as a self-play
/// file of 0 games and exited 0; it is refused, with what reads it.
#[test]
fn merge_refuses_a_game_log() {
    let (log, results) = (temp_path("log"), temp_path("jsonl"));
    let args =
        ["--game", "mnk", "3", "3", "3", "--rounds", "1", "--engine1", "l1", "--engine2", "random", "--seed", "5"];
    let out = Command::new(env!("CARGO_BIN_EXE_boardbot"))
        .arg("match")
        .args(args)
        .args(["--quiet", "--log", log.to_str().unwrap(), "--results", results.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let merge =
        |files: &[&Path]| Command::new(env!("CARGO_BIN_EXE_boardbot")).arg("merge").args(files).output().unwrap();
    let out = merge(&[&log]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("is a match's game log") && err.contains("replay"), "{err}");
    let out = merge(&[&results, &log]);
    assert!(!out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = merge(&[&results]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    for f in [log, results] {
        let _ = std::fs::remove_file(f);
    }
}

/// Issue 57, item 11: a built-in engine given its own `--seed` crashed (the match adds one);
/// the match refuses it at once, naming the engine.
#[test]
fn an_engine_with_its_own_seed_is_refused() {
    let out = Command::new(env!("CARGO_BIN_EXE_boardbot"))
        .args(["match", "--game", "mnk", "3", "3", "3", "--engine1", "random", "--engine2", "hard --seed 3", "--quiet"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("engine 'hard --seed 3': --seed is the match's"), "{err}");
}
