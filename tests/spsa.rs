//! The search's options and `boardbot spsa` through the real binary: an option of the
//! selectivity changes the search (and its game's own value leaves it as it is), bad values are
//! refused in every form (flag, `set`, match engine); a tiny SPSA run is reproducible from its
//! seed, resumes after an interruption to the same file, says its progress, and refuses bad
//! parameters before any game. (The schedule's arithmetic and the parameters' parsing are unit
//! tests in src/spsa.rs.)

mod common;

use common::{Engine, BIN};
use std::path::PathBuf;
use std::process::Command;

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("boardbot-spsa-{}-{name}", std::process::id()))
}

fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(BIN).args(args).env_remove("RUST_LOG").output().expect("run boardbot");
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

/// The checkers positions' node count of `bench --depth 7` with `flags`.
fn checkers_nodes(flags: &[&str]) -> u64 {
    let args: Vec<&str> = ["bench", "--depth", "7", "--only", "checkers"].iter().chain(flags).copied().collect();
    let (ok, out, err) = run(&args);
    assert!(ok, "{err}");
    let last = out.lines().last().unwrap_or_default();
    last.strip_prefix("nodes searched ").and_then(|n| n.parse().ok()).unwrap_or_else(|| panic!("{out}"))
}

#[test]
fn the_search_options_change_the_search_and_refuse_bad_values() {
    let own = checkers_nodes(&[]);
    // Checkers' own values (src/game/checkers/knowledge.rs) given explicitly: the same search.
    let given = ["--reduction", "75", "--pruning-depth", "3", "--static-margin", "60", "--futility-margin", "100"];
    assert_eq!(checkers_nodes(&given), own);
    assert_eq!(checkers_nodes(&["--singular-margin", "2", "--singular-depth", "6"]), own);
    // Other values: another search.
    assert_ne!(checkers_nodes(&["--reduction", "80"]), own);
    assert_ne!(checkers_nodes(&["--static-margin", "40"]), own);
    assert_ne!(checkers_nodes(&["--singular-depth", "0"]), own);

    for (flag, value, says) in [
        ("--reduction", "301", "reduction must be a number from 0 to 300, or default; got '301'"),
        ("--static-margin=-5", "", "static-margin must be a number from 0 to 2000, or default; got '-5'"),
        ("--singular-margin", "2.5", "singular-margin must be a number from 0 to 200, or default; got '2.5'"),
        ("--soft-share", "101", "soft-share must be a number from 1 to 100, or default; got '101'"),
    ] {
        let args = ["bench", "--depth", "1", "--only", "checkers", flag, value];
        let (ok, _, err) = run(&args[..if value.is_empty() { 6 } else { 7 }]);
        assert!(!ok && err.contains(says), "{flag} {value}: {err}");
    }
    // Not an option of the modes that do not search with them.
    let (ok, _, err) = run(&["perft", "checkers", "english", "2", "--reduction", "80"]);
    assert!(!ok && err.contains("--reduction is an option of the engine's search"), "{err}");

    // The protocol: `set`, its errors, and a search with the options set.
    let mut e = Engine::spawn();
    e.expect_ok("set reduction 80");
    e.expect_ok("set static_margin 40");
    e.expect_ok("set soft-share 60");
    assert!(e.expect_error("set futility-margin lots").contains("futility-margin must be a number from 0 to 2000"));
    assert!(e.expect_error("set pruning-depth 21").contains("got '21'"));
    e.expect_ok("set reduction default");
    e.expect_ok("set nodes 2000");
    e.expect_ok("init checkers english first 1");
    e.send("go");
    assert!(!e.recv().is_empty());
    e.close_stdin();

    // A match's engine spec: a bad value stops the engine, and the match says why.
    let (ok, out, err) = run(&[
        "match",
        "--game",
        "checkers",
        "english",
        "--engine1",
        "self --nodes 100 --reduction 999",
        "--engine2",
        "self --nodes 100",
        "--setup-timeout",
        "5",
        "-q",
    ]);
    assert!(!ok || out.contains("forfeit"), "{out}{err}");
    let (ok, out, err) = run(&[
        "match",
        "--game",
        "checkers",
        "english",
        "--engine1",
        "self --nodes 200 --reduction 50 --static-margin 80",
        "--engine2",
        "self --nodes 200",
        "-q",
    ]);
    assert!(ok && out.contains("self --nodes 200 --reduction 50"), "{out}{err}");
}

/// A tiny run: checkers, 4 iterations at 300 nodes a move (about a second).
fn tiny(out: &str, quiet: bool) -> (bool, String, String) {
    let mut args = vec![
        "spsa",
        "checkers",
        "english",
        "--param",
        "reduction",
        "--param",
        "static-margin=60,0,200",
        "--iterations",
        "4",
        "--nodes",
        "300",
        "--openings",
        "acf3",
        "--seed",
        "5",
        "--hash",
        "8",
        "--out",
        out,
    ];
    if quiet {
        args.push("-q");
    }
    run(&args)
}

#[test]
fn a_tiny_spsa_run_is_reproducible_resumes_and_refuses_bad_parameters() {
    let (a, b) = (temp("a.txt"), temp("b.txt"));
    for f in [&a, &b] {
        let _ = std::fs::remove_file(f);
    }
    let (ok, out, err) = tiny(a.to_str().unwrap(), false);
    assert!(ok, "{err}");
    assert!(out.starts_with("theta after 4 iterations: reduction "), "{out}");
    assert!(err.contains("[4/4") && err.contains("iteration 4: "), "progress on stderr: {err}");
    let first = std::fs::read_to_string(&a).unwrap();
    assert!(first.contains("# game checkers english\n# limit nodes 300"), "{first}");
    assert!(first.contains("# param reduction start 75 min 0 max 300 c_end 15 r_end 0.002\n"), "{first}");
    let lines: Vec<&str> = first.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 4, "{first}");
    for (i, line) in lines.iter().enumerate() {
        let words: Vec<&str> = line.split('\t').collect();
        assert_eq!((words.len(), words[0]), (4, (i + 1).to_string().as_str()), "{line}");
        let score: f64 = words[1].parse().unwrap();
        assert!((-2.0..=2.0).contains(&score) && (score * 2.0).fract() == 0.0, "{line}");
    }

    // The same seed, the same file; quiet says nothing.
    let (ok, _, err) = tiny(b.to_str().unwrap(), true);
    assert!(ok && err.is_empty(), "{err}");
    assert_eq!(std::fs::read_to_string(&b).unwrap(), first);

    // Interrupted after the second iteration, part-way through writing the third's line: run
    // again, it keeps the two, drops the cut line, and ends with the same file.
    let cut = first.len() - lines[3].len() - 1 - lines[2].len() / 2;
    std::fs::write(&b, &first[..cut]).unwrap();
    let (ok, _, err) = tiny(b.to_str().unwrap(), false);
    assert!(ok, "{err}");
    assert!(err.contains("[4/4") && !err.contains("[1/4") && !err.contains("iteration 1:"), "{err}");
    assert_eq!(std::fs::read_to_string(&b).unwrap(), first);
    // Complete, it plays nothing more.
    let (ok, out, _) = tiny(b.to_str().unwrap(), true);
    assert!(ok && out.starts_with("theta after 4 iterations"));
    assert_eq!(std::fs::read_to_string(&b).unwrap(), first);

    // Another run's file is not continued.
    let (ok, _, err) = run(&[
        "spsa",
        "checkers",
        "english",
        "--param",
        "reduction",
        "--iterations",
        "4",
        "--nodes",
        "300",
        "--out",
        b.to_str().unwrap(),
    ]);
    assert!(!ok && err.contains("holds a run of other settings"), "{err}");

    // Bad parameters: refused before any game, no file written.
    let c = temp("c.txt");
    let _ = std::fs::remove_file(&c);
    for (param, says) in [
        ("colour", "--param unknown option 'colour'"),
        ("player", "--param player: not a numeric option (the numeric ones: margin, hash"),
        ("reduction=400", "--param reduction: the start 400 is outside the range 0..=300"),
        ("static-margin=50,60,100", "--param static-margin: the start 50 is outside the range 60..=100"),
        ("singular-margin=2,0,500", "is not a range within the option's 0..=200"),
        ("reduction=fast", "--param reduction: the start 'fast' is not a number"),
    ] {
        let (ok, _, err) =
            run(&["spsa", "checkers", "english", "--param", param, "--iterations", "2", "--nodes", "300", "--out"]
                .into_iter()
                .chain([c.to_str().unwrap()])
                .collect::<Vec<_>>());
        assert!(!ok && err.contains(says), "{param}: {err}");
        assert!(!c.exists(), "{param}");
    }
    // A game without a value of its own for the option needs a start.
    let (ok, _, err) =
        run(&["spsa", "cx", "6", "7", "4", "--param", "reduction", "--iterations", "2", "--nodes", "300", "--out"]
            .into_iter()
            .chain([c.to_str().unwrap()])
            .collect::<Vec<_>>());
    assert!(!ok && err.contains("give a start: --param reduction=START"), "{err}");
    for f in [&a, &b] {
        let _ = std::fs::remove_file(f);
    }
}
