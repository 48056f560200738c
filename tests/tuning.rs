//! The tuning machinery through the real binary: `selfplay` writes positions, `tune` fits a
//! weights file to them, and the file is loaded by the protocol (`--weights`, `set weights`)
//! and by a match's engine. (The fit's accuracy, selfplay's reproducibility and the file's
//! round trip are unit tests in src/tune.rs, src/selfplay.rs and src/search/weights.rs.)

mod common;

use common::{Engine, BIN};
use std::path::PathBuf;
use std::process::Command;

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("boardbot-tuning-{}-{name}", std::process::id()))
}

fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(BIN).args(args).output().expect("run boardbot");
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

#[test]
fn selfplay_then_tune_then_the_weights_in_the_protocol_and_a_match() {
    let (data, tuned, bad) = (temp("data.txt"), temp("tuned.txt"), temp("bad.txt"));
    let _ = std::fs::remove_file(&data);
    let (d, t, b) = (data.to_str().unwrap(), tuned.to_str().unwrap(), bad.to_str().unwrap());

    let (ok, _, err) =
        run(&["selfplay", "checkers", "english", "--games", "6", "--nodes", "300", "--seed", "3", "--hash", "16"]
            .into_iter()
            .chain(["--out", d, "--quiet"])
            .collect::<Vec<_>>());
    assert!(ok, "selfplay failed: {err}");
    let text = std::fs::read_to_string(&data).unwrap();
    assert!(text.contains("\n# limit nodes 300\n"), "{text}");
    let games: std::collections::BTreeSet<&str> =
        text.lines().filter(|l| !l.starts_with('#')).map(|l| l.split('\t').next().unwrap()).collect();
    assert_eq!(games.len(), 6, "{text}");

    let (ok, out, err) = run(&["tune", "checkers", "english", "--data", d, "--out", t, "--validation", "30"]);
    assert!(ok, "tune failed: {err}\n{out}");
    assert!(out.contains("validation:") && out.contains(" -> "), "{out}");
    let weights = std::fs::read_to_string(&tuned).unwrap();
    assert!(weights.starts_with("# tuned by boardbot tune checkers english"), "{weights}");
    assert!(
        weights.lines().any(|l| l.split_whitespace().collect::<Vec<_>>() == ["man_open", "100"]),
        "the unit stays: {weights}"
    );
    assert!(weights.lines().any(|l| l == "game checkers"), "{weights}");

    // The protocol: a flag, and `set weights` in a game.
    let mut e = Engine::spawn_with(&["--weights", t, "--nodes", "300"], &[]);
    e.expect_ok("init checkers english first 1");
    let reply = e.ask("go");
    assert!(reply.starts_with(|c: char| c.is_ascii_digit()), "a move: {reply}\n{}", e.transcript());
    std::fs::write(&bad, "game checkers\nqueen 3\n").unwrap();
    let error = e.expect_error(&format!("set weights {b}"));
    assert!(error.contains("unknown weight 'queen'"), "{error}");
    assert!(e.expect_error(&format!("set weights {b}.missing")).contains("cannot read"));
    e.expect_ok("set weights default");
    e.expect_ok(&format!("set weights {t}"));
    let reply = e.ask("go");
    assert!(reply.starts_with(|c: char| c.is_ascii_digit()), "a move: {reply}\n{}", e.transcript());
    e.send("quit");

    // A file that cannot be read ends the process before it reads any input.
    let (ok, _, err) = run(&["--weights", &format!("{b}.missing")]);
    assert!(!ok && err.contains("cannot read"), "{err}");

    // A match's engine takes the file as an engine flag.
    let (ok, out, err) = run(&[
        "match",
        "--game",
        "checkers",
        "english",
        "--rounds",
        "1",
        "--timeout",
        "5",
        "--engine1",
        &format!("self --nodes 300 --weights {t}"),
        "--engine2",
        "self --nodes 300",
    ]);
    assert!(ok, "match failed: {err}\n{out}");
    let total = out.lines().find(|l| l.starts_with("TOTAL")).unwrap_or_else(|| panic!("{out}"));
    let fields: Vec<&str> = total.split_whitespace().collect();
    assert_eq!(fields[1..7], ["2", fields[2], fields[3], fields[4], "0", "0"], "two games, no forfeit: {out}");

    for f in [data, tuned, bad] {
        let _ = std::fs::remove_file(f);
    }
}

/// The same for gomoku's pattern evaluation (a board that keeps patterns: K = 5 beyond 64
/// cells): self-play, a fit of the named pattern weights (by their gradient: they are many),
/// the file in a game; a file naming a weight the evaluation does not have is refused.
#[test]
fn gomoku_pattern_weights_are_tuned_and_loaded() {
    let (data, tuned) = (temp("mnk-data.txt"), temp("mnk-tuned.txt"));
    let _ = std::fs::remove_file(&data);
    let (d, t) = (data.to_str().unwrap(), tuned.to_str().unwrap());
    let (ok, _, err) = run(&[
        "selfplay", "mnk", "9", "9", "5", "--games", "8", "--nodes", "200", "--seed", "5", "--hash", "16", "--out", d,
        "--quiet",
    ]);
    assert!(ok, "selfplay failed: {err}");

    let (ok, out, err) = run(&["tune", "mnk", "9", "9", "5", "--data", d, "--out", t, "--validation", "25"]);
    assert!(ok, "tune failed: {err}\n{out}");
    assert!(out.contains("validation:") && out.contains(" -> "), "{out}");
    let weights = std::fs::read_to_string(&tuned).unwrap();
    assert!(weights.lines().any(|l| l == "game mnk"), "{weights}");
    for name in ["cell.move.F3+B3+DEAD+DEAD", "cell.wait.F3S+F3+DEAD+DEAD", "threat.mine.BLOCK4_FLEX3"] {
        assert!(weights.lines().any(|l| l.split_whitespace().next() == Some(name)), "{name} in {weights}");
    }

    let mut e = Engine::spawn_with(&["--nodes", "300"], &[]);
    e.expect_ok("init mnk 15 15 5 first 1");
    e.expect_ok(&format!("set weights {t}"));
    let reply = e.ask("go");
    assert!(reply.split_whitespace().count() == 2, "a move: {reply}\n{}", e.transcript());
    let bad = temp("mnk-bad.txt");
    std::fs::write(&bad, "game mnk\ncell.move.F3+B3+DEAD+DEAD 7\nqueen 3\n").unwrap();
    let error = e.expect_error(&format!("set weights {}", bad.to_str().unwrap()));
    assert!(error.contains("unknown weight 'queen'"), "{error}");
    let reply = e.ask("go");
    assert!(reply.split_whitespace().count() == 2, "a move: {reply}\n{}", e.transcript());
    e.send("quit");

    for f in [data, tuned, bad] {
        let _ = std::fs::remove_file(f);
    }
}

/// `tune` fits to a match's game log (games between any engines) as to a self-play file, both
/// at once with `--data` repeated; a log of another board is refused by name.
#[test]
fn tune_reads_match_logs_beside_selfplay_files() {
    let (log, data, tuned) = (temp("tune-log.txt"), temp("tune-log-selfplay.txt"), temp("tune-log-tuned.txt"));
    let _ = std::fs::remove_file(&data);
    let (l, d, t) = (log.to_str().unwrap(), data.to_str().unwrap(), tuned.to_str().unwrap());
    let (ok, _, err) = run(&[
        "match",
        "mnk",
        "9",
        "9",
        "5",
        "--engine1",
        "ab2",
        "--engine2",
        "greedy",
        "--rounds",
        "3",
        "--opening",
        "4",
        "--seed",
        "3",
        "--log",
        l,
        "--quiet",
    ]);
    assert!(ok, "match failed: {err}");
    let text = std::fs::read_to_string(&log).unwrap();
    let plies: usize = text.lines().skip(1).map(|l| l.rsplit('\t').next().unwrap().split_whitespace().count()).sum();
    assert_eq!(text.lines().count(), 7, "a header and 6 games: {text}");

    let (ok, out, err) = run(&["tune", "mnk", "9", "9", "5", "--data", l, "--out", t, "--validation", "25"]);
    assert!(ok, "tune on a log failed: {err}\n{out}");
    assert!(out.contains(&format!("{l}: {plies} positions")), "one position before each of the {plies} moves: {out}");

    let (ok, _, err) = run(&[
        "selfplay", "mnk", "9", "9", "5", "--games", "4", "--nodes", "200", "--seed", "5", "--hash", "16", "--out", d,
        "--quiet",
    ]);
    assert!(ok, "selfplay failed: {err}");
    let selfplay = std::fs::read_to_string(&data).unwrap().lines().filter(|l| !l.starts_with('#')).count();
    let (ok, out, err) = run(&["tune", "mnk", "9", "9", "5", "--data", l, "--data", d, "--out", t]);
    assert!(ok, "tune on both failed: {err}\n{out}");
    assert!(out.contains(&format!(": {} positions", plies + selfplay)), "both files' positions: {out}");
    assert!(std::fs::read_to_string(&tuned).unwrap().contains(&format!("--data {l} --data {d}")));

    let (ok, out, err) = run(&["tune", "mnk", "10", "10", "5", "--data", l, "--out", t]);
    assert!(!ok && err.contains("a game of mnk 9 9 5, not mnk 10 10 5"), "another board refused: {err}\n{out}");
    for f in [log, data, tuned] {
        let _ = std::fs::remove_file(f);
    }
}

/// `tune --policy` fits free-style gomoku's move policy to the moves of a match log (here 40
/// of the Rapfi self-play games the compiled-in policy was fitted to): every weight named,
/// the moves predicted better than by chance, and the file loads no weights of the evaluation.
/// A self-play file (no moves to fit) and a game with no policy are refused.
#[test]
fn tune_fits_the_gomoku_policy_to_a_match_log() {
    let (log, tuned) = (temp("policy-log.txt"), temp("policy-tuned.txt"));
    let (l, t) = (log.to_str().unwrap(), tuned.to_str().unwrap());
    let data = include_str!("../benches/data/gomoku-rapfi-selfplay.tsv");
    std::fs::write(&log, data.lines().take(41).map(|l| format!("{l}\n")).collect::<String>()).unwrap();
    let (ok, out, err) = run(&["tune", "mnk", "15", "15", "5", "--policy", "--data", l, "--out", t, "--passes", "100"]);
    assert!(ok, "tune --policy failed: {err}\n{out}");
    let candidates: f64 = out
        .split(" candidates each")
        .next()
        .and_then(|s| s.rsplit('(').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no candidates count in {out}"));
    let fitted = out.lines().find(|l| l.starts_with("fitted: training: log-loss ")).expect("the fitted line");
    let loss: f64 = fitted["fitted: training: log-loss ".len()..].split(',').next().unwrap().parse().unwrap();
    assert!(loss < 0.8 * candidates.ln(), "log-loss {loss} against chance's {}: {out}", candidates.ln());
    let file = std::fs::read_to_string(&tuned).unwrap();
    let names: Vec<&str> =
        file.lines().filter(|l| !l.starts_with('#')).skip(1).map(|l| l.split(' ').next().unwrap()).collect();
    assert_eq!(names.len(), 2 * 1820, "a weight for each combination, own and the opponent's");
    assert!(names.contains(&"own.F3+B3+DEAD+DEAD") && names.contains(&"opp.F4+DEAD+DEAD+DEAD"));

    let mut e = Engine::spawn_with(&["--nodes", "300"], &[]);
    e.expect_ok("init mnk 15 15 5 first 1");
    let error = e.expect_error(&format!("set weights {t}"));
    assert!(error.contains("unknown weight 'own.DEAD+DEAD+DEAD+DEAD'"), "{error}");
    e.send("quit");

    let selfplay = temp("policy-selfplay.txt");
    let s = selfplay.to_str().unwrap();
    let (ok, _, err) =
        run(&["selfplay", "mnk", "15", "15", "5", "--games", "1", "--nodes", "100", "--out", s, "--quiet"]);
    assert!(ok, "selfplay failed: {err}");
    let (ok, _, err) = run(&["tune", "mnk", "15", "15", "5", "--policy", "--data", s, "--out", t]);
    assert!(!ok && err.contains("not a match's game log"), "{err}");
    let (ok, _, err) = run(&["tune", "kalah", "6", "4", "--policy", "--data", l, "--out", t]);
    assert!(!ok && err.contains("kalah orders its moves by no policy"), "{err}");
    for f in [log, tuned, selfplay] {
        let _ = std::fs::remove_file(f);
    }
}
