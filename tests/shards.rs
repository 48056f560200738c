//! `--shard I/N` and `boardbot merge`, run as a user runs them: a node-limited match, an SPRT and
//! a self-play run played whole and in N = 1, 2, 3 shards must merge to the same results; wrong
//! merges (a shard missing, a game altered, another match) must show. And the distributed driver
//! (scripts/dask-shards.py) on a local Dask cluster, with a Python that has dask (scripts/test.sh
//! makes one; without it that test fails and says how to make it).

mod common;

use boardbot::referee::results::{self, GameResult};
use common::BIN;
use std::path::{Path, PathBuf};
use std::process::Command;

fn temp(name: &str) -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("boardbot-shards-{}-{name}", std::process::id()))
}

/// Runs the binary; panics unless it succeeds; returns stdout.
fn boardbot(args: &[&str]) -> String {
    let out = Command::new(BIN).args(args).output().expect("run boardbot");
    assert!(out.status.success(), "boardbot {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Runs the binary and returns whether it succeeded, with stderr.
fn boardbot_status(args: &[&str]) -> (bool, String) {
    let out = Command::new(BIN).args(args).output().expect("run boardbot");
    (out.status.success(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// A match's report from its table on (the table, the score, the SPRT, the summaries).
fn from_table(report: &str) -> String {
    let start = report.find("\nboard ").unwrap_or_else(|| panic!("no table in:\n{report}"));
    report[start..].to_string()
}

/// [`from_table`] without what depends on the machine's speed: the reply-time columns of the
/// table (its last four) and the summaries' reply times.
fn without_times(report: &str) -> String {
    let mut in_table = false;
    let mut lines = Vec::new();
    for line in from_table(report).lines() {
        if line.starts_with("board ") {
            in_table = true;
        }
        if in_table {
            let words: Vec<&str> = line.split_whitespace().collect();
            lines.push(words[..words.len() - 4].join(" "));
            in_table = !line.starts_with("TOTAL");
        } else {
            lines.push(line.split(" late of ").next().unwrap().to_string());
        }
    }
    lines.join("\n")
}

/// The games of a results file, without their reply times.
fn games_of(path: &Path) -> Vec<GameResult> {
    let (_, games) = results::read(&std::fs::read_to_string(path).unwrap()).unwrap();
    games.into_iter().map(|g| GameResult { replies: [vec![], vec![]], ..g }).collect()
}

/// A node-limited match (nodes, not time, end the searches: the games do not depend on the
/// machine) of 8 pairs with results of every kind.
const MATCH: [&str; 19] = [
    "match",
    "--game",
    "mnk",
    "5",
    "5",
    "4",
    "--rounds",
    "8",
    "--timeout",
    "20",
    "--engine1",
    "self --nodes 600 --hash 8",
    "--engine2",
    "self --nodes 200 --hash 8",
    "--seed",
    "3",
    "--opening",
    "2",
    "--quiet",
];

/// Plays `args` as N shards with --results; returns the files.
fn play_shards(args: &[&str], n: usize, name: &str) -> Vec<PathBuf> {
    (1..=n)
        .map(|i| {
            let file = temp(&format!("{name}-{i}of{n}.jsonl"));
            let shard = format!("{i}/{n}");
            boardbot(&[args, &["--shard", &shard, "--results", file.to_str().unwrap()]].concat());
            file
        })
        .collect()
}

fn merge(files: &[PathBuf], more: &[&str]) -> String {
    let mut args = vec!["merge"];
    args.extend(files.iter().map(|f| f.to_str().unwrap()));
    args.extend(more);
    boardbot(&args)
}

#[test]
fn match_shards_merge_to_the_whole_match() {
    let whole_file = temp("whole.jsonl");
    let whole = boardbot(&[&MATCH[..], &["--results", whole_file.to_str().unwrap()]].concat());
    let whole_games = games_of(&whole_file);
    assert_eq!(whole_games.len(), 16);
    let results: Vec<&str> = whole_games.iter().map(|g| g.result.as_str()).collect();
    assert!(
        results.contains(&"1-0") && results.contains(&"1/2-1/2"),
        "a match of one result proves little: {results:?}"
    );

    // The whole match's own file merges to its report, reply times included, and to itself.
    let merged_file = temp("merged.jsonl");
    let one = merge(std::slice::from_ref(&whole_file), &["--out", merged_file.to_str().unwrap()]);
    assert_eq!(from_table(&one), from_table(&whole));
    assert_eq!(std::fs::read_to_string(&merged_file).unwrap(), std::fs::read_to_string(&whole_file).unwrap());

    for n in [1, 2, 3] {
        let files = play_shards(&MATCH, n, "match");
        for (i, f) in files.iter().enumerate() {
            let numbers: Vec<usize> = games_of(f).iter().map(|g| g.game).collect();
            let expected: Vec<usize> = (1..=16).filter(|g| (g - 1) / 2 % n == i).collect();
            assert_eq!(numbers, expected, "shard {}/{n} plays its pairs, whole", i + 1);
        }
        let merged = merge(&files, &["--out", merged_file.to_str().unwrap()]);
        assert!(merged.starts_with(&format!("merged {n} results file(s)")), "{merged}");
        assert!(merged.contains(": 16 games counted of the match's 16; 0 duplicate"), "{merged}");
        assert_eq!(without_times(&merged), without_times(&whole), "{n} shards");
        assert_eq!(games_of(&merged_file), whole_games, "{n} shards: the merged file is the whole match's");

        // Wrong merges show: a shard missing (fewer games, other totals) ...
        if n > 1 {
            let part = merge(&files[1..], &[]);
            assert_ne!(without_times(&part), without_times(&whole));
        }
        // ... a game's result altered (another table and score) ...
        let text = std::fs::read_to_string(&files[0]).unwrap();
        let decisive = games_of(&files[0]).into_iter().find(|g| g.result == "1-0").map(|g| g.game);
        if let Some(game) = decisive {
            let altered: String = text
                .lines()
                .map(|l| match results::Line::parse(l).unwrap() {
                    results::Line::Game(g) if g.game == game => {
                        let flipped = GameResult { result: "0-1".into(), score: 1.0 - g.score, ..g };
                        results::Line::Game(flipped).text() + "\n"
                    }
                    _ => format!("{l}\n"),
                })
                .collect();
            assert_ne!(altered, text);
            let bad = temp("altered.jsonl");
            std::fs::write(&bad, &altered).unwrap();
            let mut others = files.clone();
            others[0] = bad.clone();
            assert_ne!(without_times(&merge(&others, &[])), without_times(&whole), "{n}: altered game {game}");
            // ... and, next to the true record of that game, a conflict.
            let (ok, err) = boardbot_status(&["merge", bad.to_str().unwrap(), files[0].to_str().unwrap()]);
            assert!(!ok && err.contains(&format!("game {game} differs")), "{err}");
            let _ = std::fs::remove_file(bad);
        }
        // A file given twice counts once.
        let twice = merge(&[files.clone(), files.clone()].concat(), &[]);
        assert_eq!(without_times(&twice), without_times(&whole));
        assert!(twice.contains(&format!("; {} duplicate record(s)", 16)), "{twice}");
        files.iter().for_each(|f| drop(std::fs::remove_file(f)));
    }
    // Another match (another seed) does not merge.
    let other = temp("other.jsonl");
    let mut args = MATCH.to_vec();
    (args[7], args[15]) = ("1", "4");
    boardbot(&[&args[..], &["--results", other.to_str().unwrap()]].concat());
    let (ok, err) = boardbot_status(&["merge", whole_file.to_str().unwrap(), other.to_str().unwrap()]);
    assert!(!ok && err.contains("another match"), "{err}");
    for f in [whole_file, merged_file, other] {
        let _ = std::fs::remove_file(f);
    }
}

#[test]
fn an_sprt_over_shards_gives_the_verdict_of_one_run_for_the_games_played() {
    // The node-limited engine against a random player on 4x4, 3 in a row: H1 (+200 Elo) after
    // a few pairs, before the cap of 12.
    let args = [
        "match",
        "--game",
        "mnk",
        "4",
        "4",
        "3",
        "--rounds",
        "12",
        "--timeout",
        "20",
        "--sprt",
        "0",
        "200",
        "--engine1",
        "self --nodes 300 --hash 8",
        "--engine2",
        "random",
        "--seed",
        "5",
        "--quiet",
    ];
    let whole_file = temp("sprt-whole.jsonl");
    let whole = boardbot(&[&args[..], &["--results", whole_file.to_str().unwrap()]].concat());
    assert!(whole.contains(": H1 accepted"), "{whole}");
    let whole_games = games_of(&whole_file);
    let pairs = whole_games.len() / 2;
    assert!(pairs < 12, "the test stopped early: {pairs} pairs");
    let json = |text: &str| -> serde_json::Value { serde_json::from_str(text.trim()).unwrap() };
    for n in [1, 2, 3] {
        let files = play_shards(&args, n, "sprt");
        let merged = merge(&files, &[]);
        assert_eq!(without_times(&merged), without_times(&whole), "{n} shards");
        let figures = json(&merge(&files, &["--json"]));
        assert_eq!(figures["verdict"], "H1");
        assert_eq!(figures["pairs"], pairs);
        // Shard 1/1 is the whole match, which stops at the verdict; shards play all their pairs,
        // and the games after the verdict are not counted.
        let left_out = if n == 1 { 0 } else { 24 - 2 * pairs };
        assert_eq!(figures["left_out"], left_out, "{n} shards");
        let numbers: Vec<usize> = serde_json::from_value(figures["numbers"].clone()).unwrap();
        assert_eq!(numbers, (1..=2 * pairs).collect::<Vec<_>>());
        assert!((figures["llr"].as_f64().unwrap() - figures["upper"].as_f64().unwrap()) >= 0.0);
        // Without the first shard the counted games are others: not one run's.
        if n > 1 {
            let part = json(&merge(&files[1..], &["--json"]));
            assert_ne!(part["numbers"], figures["numbers"]);
        }
        files.iter().for_each(|f| drop(std::fs::remove_file(f)));
    }
    let _ = std::fs::remove_file(whole_file);
}

#[test]
fn selfplay_shards_merge_to_the_whole_file() {
    let run = |out: &Path, shard: Option<&str>| {
        let mut args = vec!["selfplay", "mnk", "5", "5", "4", "--games", "7", "--nodes", "300", "--hash", "8"];
        args.extend(["--seed", "2", "--quiet", "--out", out.to_str().unwrap()]);
        if let Some(s) = shard {
            args.extend(["--shard", s]);
        }
        let _ = boardbot(&args);
    };
    let whole_file = temp("whole.txt");
    let _ = std::fs::remove_file(&whole_file);
    run(&whole_file, None);
    let whole = std::fs::read_to_string(&whole_file).unwrap();
    let merged_file = temp("merged.txt");
    for n in [1, 2, 3] {
        let files: Vec<PathBuf> = (1..=n)
            .map(|i| {
                let f = temp(&format!("selfplay-{i}of{n}.txt"));
                let _ = std::fs::remove_file(&f);
                run(&f, Some(&format!("{i}/{n}")));
                f
            })
            .collect();
        for (i, f) in files.iter().enumerate() {
            let text = std::fs::read_to_string(f).unwrap();
            assert_eq!(n == 1, !text.contains(&format!("# shard {}/{n}\n", i + 1)), "{text}");
            let (_, records) = boardbot::selfplay::read(&text).unwrap();
            assert!(records.iter().all(|r| (r.game - 1) % n == i), "shard {}/{n}", i + 1);
        }
        merge(&files, &["--out", merged_file.to_str().unwrap()]);
        assert_eq!(std::fs::read_to_string(&merged_file).unwrap(), whole, "{n} shards");
        // Shards given twice: each game once.
        merge(&[files.clone(), files.clone()].concat(), &["--out", merged_file.to_str().unwrap()]);
        assert_eq!(std::fs::read_to_string(&merged_file).unwrap(), whole, "{n} shards twice");
        if n > 1 {
            // A shard missing, or cut off in its last game: not the whole file.
            merge(&files[1..], &["--out", merged_file.to_str().unwrap()]);
            assert_ne!(std::fs::read_to_string(&merged_file).unwrap(), whole);
            let text = std::fs::read_to_string(&files[0]).unwrap();
            std::fs::write(&files[0], &text[..text.len() - 10]).unwrap();
            merge(&files, &["--out", merged_file.to_str().unwrap()]);
            let cut = std::fs::read_to_string(&merged_file).unwrap();
            assert!(cut.len() < whole.len() && whole.starts_with(&cut[..cut.len().min(200)]), "{n}");
            // A game altered conflicts with its true record.
            let altered: String = text
                .lines()
                .enumerate()
                .map(|(i, l)| {
                    match l.starts_with('#') || i != text.lines().position(|l| !l.starts_with('#')).unwrap() {
                        true => format!("{l}\n"),
                        false => {
                            let mut fields: Vec<&str> = l.split('\t').collect();
                            fields[3] = if fields[3] == "12345" { "-1" } else { "12345" };
                            fields.join("\t") + "\n"
                        }
                    }
                })
                .collect();
            assert_ne!(altered, text);
            std::fs::write(&files[0], &altered).unwrap();
            let copy = temp("selfplay-true.txt");
            std::fs::write(&copy, &text).unwrap();
            let (ok, err) = boardbot_status(&["merge", files[0].to_str().unwrap(), copy.to_str().unwrap()]);
            assert!(!ok && err.contains("differs"), "{err}");
            let _ = std::fs::remove_file(copy);
        }
        files.iter().for_each(|f| drop(std::fs::remove_file(f)));
    }
    for f in [whole_file, merged_file] {
        let _ = std::fs::remove_file(f);
    }
}

/// The Python with dask.distributed the driver test runs on: $BOARDBOT_PYTHON, else the venv
/// that scripts/test.sh makes in the target folder (`target/daskenv`), else python3. None is no
/// reason to pass: the test fails with the command that makes the venv.
fn dask_python() -> Option<String> {
    let venv = Path::new(env!("CARGO_TARGET_TMPDIR")).parent().expect("the target folder").join("daskenv/bin/python");
    let candidates =
        [std::env::var("BOARDBOT_PYTHON").ok(), Some(venv.to_string_lossy().into_owned()), Some("python3".into())];
    candidates.into_iter().flatten().find(|python| {
        Command::new(python).args(["-c", "import dask.distributed"]).output().is_ok_and(|o| o.status.success())
    })
}

#[test]
fn the_dask_driver_completes_a_match_with_a_worker_killed_and_stops_an_sprt() {
    let python = dask_python().unwrap_or_else(|| {
        panic!(
            "no Python with dask.distributed: run scripts/test.sh (it makes the venv), or `python3 -m venv \
             target/daskenv && target/daskenv/bin/pip install 'dask[distributed]'` (Debian: `apt-get install \
             python3-venv` first), or set BOARDBOT_PYTHON to a Python that has it"
        )
    });
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/dask-shards-test.py");
    let out = Command::new(&python)
        .arg(script)
        .args(["--binary", BIN, "--workdir", temp("dask").to_str().unwrap()])
        .output()
        .expect("run the driver's test");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("PASS match: every game counted once"), "{stdout}");
    assert!(stdout.contains("PASS sprt:"), "{stdout}");
}
