//! The scripts in scripts/ that compute figures from match logs, run on logs whose answers are
//! known.

mod common;

use common::BIN;
use std::path::PathBuf;
use std::process::Command;

fn temp_log(name: &str, lines: &[&str]) -> PathBuf {
    let path = std::env::temp_dir().join(format!("boardbot-values-{name}-{}.log", std::process::id()));
    let mut text = String::from("# game\tboard\tfirst\tsecond\tresult\treason\tmoves\n");
    for line in lines {
        text.push_str(&line.replace(" | ", "\t"));
        text.push('\n');
    }
    std::fs::write(&path, text).unwrap();
    path
}

/// Runs scripts/opening-values.sh on a 3x3x3 log of `games` from openings of `plies` stones
/// and checks that its output holds every line of `expected`.
fn check_opening_values(name: &str, games: &[&str], plies: &str, expected: &[&str]) {
    let log = temp_log(name, games);
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/opening-values.sh");
    let out = Command::new("bash")
        .arg(script)
        .arg(&log)
        .args([plies, "3", "3", "3", "--hash", "16"])
        .env("BIN", BIN)
        .output()
        .expect("bash runs the script");
    let _ = std::fs::remove_file(&log);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    for line in expected {
        assert!(text.lines().any(|l| l == *line), "no line '{line}' in:\n{text}");
    }
}

#[test]
fn opening_values_tells_each_engines_errors_against_the_proved_values() {
    // 3x3x3: after `1,1 0,1` (centre, then an edge) the first player wins; after `1,1 0,0` (a
    // corner) it is a draw. Only the openings and the results matter to the script.
    // A: 1 + 1/2 + 0 + 1/2 points where the values give 1 + 0 + 1/2 + 1/2: it drew a lost game
    // as second (took 1/2) and lost a drawn one as first (let 1/2 go). B is the mirror image.
    check_opening_values(
        "openings",
        &[
            "1 | mnk 3 3 3 | e1:A | e2:B | 1-0 | win | 1,1 0,1 0,0 2,2 2,0 1,0 0,2",
            "2 | mnk 3 3 3 | e2:B | e1:A | 1/2-1/2 | dead draw | 1,1 0,1 2,1 0,0 0,2 2,0 1,0 1,2",
            "3 | mnk 3 3 3 | e1:A | e2:B | 0-1 | win | 1,1 0,0 0,1 2,1 2,2 1,2 0,2 1,0",
            "4 | mnk 3 3 3 | e2:B | e1:A | 1/2-1/2 | dead draw | 1,1 0,0 2,2 0,2 0,1 2,1 1,2 1,0",
        ],
        "2",
        &[
            "4 games checked against proved opening values, 0 left out (opening not proved)",
            "A: 4 games, 2.0 points, 2.0 by the values; let 0.5 go below the value, took 0.5 above it",
            "B: 4 games, 2.0 points, 2.0 by the values; let 0.5 go below the value, took 0.5 above it",
        ],
    );
}

#[test]
fn opening_values_from_the_empty_board() {
    // PLIES 0: every game is checked against the empty board's value (3x3x3: a draw).
    check_opening_values(
        "empty",
        &[
            "1 | mnk 3 3 3 | e1:A | e2:B | 1-0 | win | 1,1 0,1 0,0 2,2 2,0 1,0 0,2",
            "2 | mnk 3 3 3 | e2:B | e1:A | 1/2-1/2 | dead draw | 1,1 0,0 2,2 0,2 0,1 2,1 1,2 1,0",
        ],
        "0",
        &[
            "2 games checked against proved opening values, 0 left out (opening not proved)",
            "A: 2 games, 1.5 points, 1.0 by the values; let 0.0 go below the value, took 0.5 above it",
            "B: 2 games, 0.5 points, 1.0 by the values; let 0.5 go below the value, took 0.0 above it",
        ],
    );
}

#[test]
fn opening_values_from_given_openings() {
    // The games of `--openings FILE` with two 3-stone openings: round 1 (games 1, 2) from the
    // first, a first-player win, round 2 (games 3, 4) from the second, a draw. A drew the
    // lost game as second (took 1/2) and lost the drawn one as first (let 1/2 go); B the mirror.
    let book = std::env::temp_dir().join(format!("boardbot-values-book-{}.txt", std::process::id()));
    std::fs::write(&book, "# 3x3x3\n1,1 0,1 0,0\n\n1,1 0,0 2,2  # a draw\n").unwrap();
    check_opening_values(
        "book",
        &[
            "1 | mnk 3 3 3 | e1:A | e2:B | 1-0 | win | 1,1 0,1 0,0 2,2 2,0 1,0 0,2",
            "2 | mnk 3 3 3 | e2:B | e1:A | 1/2-1/2 | dead draw | 1,1 0,1 0,0 2,2 2,0 0,2 1,2 1,0",
            "3 | mnk 3 3 3 | e1:A | e2:B | 0-1 | win | 1,1 0,0 2,2 0,2 2,1 0,1",
            "4 | mnk 3 3 3 | e2:B | e1:A | 1/2-1/2 | dead draw | 1,1 0,0 2,2 0,2 2,0 1,0 0,1 2,1",
        ],
        book.to_str().unwrap(),
        &[
            "4 games checked against proved opening values, 0 left out (opening not proved)",
            "A: 4 games, 2.0 points, 2.0 by the values; let 0.5 go below the value, took 0.5 above it",
            "B: 4 games, 2.0 points, 2.0 by the values; let 0.5 go below the value, took 0.5 above it",
        ],
    );
    let _ = std::fs::remove_file(&book);
}

/// Runs scripts/won-openings.sh with `args` (at most 5 batches of 20 candidates) and returns
/// whether it succeeded, and its lines.
fn try_won_openings(args: &[&str], min_nodes: &str) -> (bool, Vec<String>) {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/won-openings.sh");
    let out = Command::new("bash")
        .arg(script)
        .args(args)
        .env("BIN", BIN)
        .env("MIN_NODES", min_nodes)
        .env("HASH", "16")
        .env("BATCH", "20")
        .env("BATCHES", "5")
        .output()
        .expect("bash runs the script");
    (out.status.success(), String::from_utf8_lossy(&out.stdout).lines().map(String::from).collect())
}

fn won_openings(args: &[&str], min_nodes: &str) -> Vec<String> {
    let (ok, lines) = try_won_openings(args, min_nodes);
    assert!(ok, "{lines:?}");
    lines
}

#[test]
fn won_openings_are_won_for_the_side_to_move_and_repeatable() {
    // 4x4x3 positions of 2 to 4 random stones that need a search of at least 2 nodes.
    let book = won_openings(&["4", "4", "3", "2", "4", "6", "7"], "2");
    assert_eq!(book.len(), 6, "{book:?}");
    for line in &book {
        let cells: Vec<&str> = line.split(' ').collect();
        assert!((2..=4).contains(&cells.len()), "{line}");
        let mut distinct = cells.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), cells.len(), "{line}");
    }
    // Each is proved a win for the side to move by the solver, with its value given to check.
    let input: String = book.iter().map(|l| format!("{l} 1\n")).collect();
    let mut solve = Command::new(BIN)
        .args(["solve", "--game", "mnk", "4", "4", "3", "--hash", "16"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    use std::io::Write;
    solve.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = solve.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("positions 6 ") && text.contains("wrong 0"), "{text}");
    // The same seed gives the same book; another seed another one.
    assert_eq!(won_openings(&["4", "4", "3", "2", "4", "6", "7"], "2"), book);
    assert_ne!(won_openings(&["4", "4", "3", "2", "4", "6", "8"], "2"), book);
    // The node threshold leaves out the wins that need less search: none of these positions
    // needs a million nodes, so the script fails after its 5 batches, with nothing found.
    assert_eq!(try_won_openings(&["4", "4", "3", "2", "4", "6", "7"], "1000000"), (false, vec![]));
}

/// A stand-in for Rapfi that speaks enough of the Gomocup protocol for the Rapfi scripts: OK to
/// START, and to each BOARD a MESSAGE line whose evaluation is 100 times the stones given as the
/// side to move's (1) minus 10 times the opponent's (2), or a mate (+M5) with 3 stones of its
/// own, then a move: 7,7 if it is free, else the first free cell of row 0.
const FAKE_RAPFI: &str = r#"#!/usr/bin/env python3
import sys
mine = theirs = 0
taken = set()
board = False
for line in sys.stdin:
    w = line.strip()
    if w.startswith("START"):
        print("OK", flush=True)
    elif w == "BOARD":
        board, mine, theirs, taken = True, 0, 0, set()
    elif w == "DONE":
        board = False
        ev = "+M5" if mine == 3 else "%+d" % (100 * mine - 10 * theirs)
        print("MESSAGE Speed 1 | Depth 1-1 | Eval %s | Node 1 | Time 0ms" % ev, flush=True)
        free = [c for c in ["7,7"] + ["0,%d" % i for i in range(15)] if c not in taken]
        print(free[0], flush=True)
    elif board:
        mine += w.endswith(",1")
        theirs += w.endswith(",2")
        taken.add(w.rsplit(",", 1)[0])
    elif w == "END":
        break
"#;

/// Writes [`FAKE_RAPFI`] into `dir` as an executable and returns its path.
fn fake_rapfi(dir: &std::path::Path) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let engine = dir.join("fake-rapfi");
    std::fs::write(&engine, FAKE_RAPFI).unwrap();
    std::fs::set_permissions(&engine, std::fs::Permissions::from_mode(0o755)).unwrap();
    engine
}

#[test]
fn rapfi_label_writes_each_distinct_position_with_the_engines_evaluation_in_boardbots_units() {
    let dir = std::env::temp_dir().join(format!("boardbot-rapfi-label-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let engine = fake_rapfi(&dir);
    // Two games: the second is lost by a forfeit (left out); a self-play file repeats a position.
    let log = temp_log(
        "rapfi-label",
        &[
            "1 | mnk 15 15 5 | a | b | 1-0 | win | 7,7 7,8 8,8 8,9 9,9",
            "2 | mnk 15 15 5 | a | b | 0-1 | forfeit by first timeout | 1,1 2,2",
        ],
    );
    let selfplay = dir.join("selfplay.txt");
    std::fs::write(
        &selfplay,
        "# game mnk 15 15 5\n1\t1/2\t0-1\t5\tmoves 7,7 7,8\n1\t2/2\t0-1\t-7\tmoves 0,0 0,1 0,2 0,3 0,4 0,5\n",
    )
    .unwrap();
    let out = dir.join("labelled.txt");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/rapfi-label.py");
    let run = Command::new("python3")
        .arg(script)
        .args(["--rapfi", engine.to_str().unwrap(), "--nodes", "10", "--k", "5", "--jobs", "2"])
        .arg(&out)
        .args([&log, &selfplay])
        .output()
        .expect("python3 runs (Debian: apt-get install python3)");
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let text = std::fs::read_to_string(&out).unwrap();
    let mut records: Vec<Vec<&str>> =
        text.lines().filter(|l| !l.starts_with('#')).map(|l| l.split('\t').collect()).collect();
    records.sort_by_key(|r| r[4].len());
    assert!(text.lines().any(|l| l == "# game mnk 15 15 5"), "{text}");
    // e = 2 v / (K ln 10) at K 5, v = 100 x own stones - 10 x the opponent's: 0 -> 0, -10 ->
    // -2, 90 -> 16, 80 -> 14, 180 -> 31; three stones of its own: a mate, +2000. The log's first
    // game gives its 5 positions before a move (7,7 7,8, again in the self-play file, counts
    // once), the self-play file's second position 1 more; the forfeited game none.
    let expected = [
        ["1", "1/5", "1-0", "0", "moves"],
        ["1", "2/5", "1-0", "-2", "moves 7,7"],
        ["1", "3/5", "1-0", "16", "moves 7,7 7,8"],
        ["1", "4/5", "1-0", "14", "moves 7,7 7,8 8,8"],
        ["1", "5/5", "1-0", "31", "moves 7,7 7,8 8,8 8,9"],
        ["100000001", "2/2", "0-1", "2000", "moves 0,0 0,1 0,2 0,3 0,4 0,5"],
    ];
    assert_eq!(records.len(), expected.len(), "{text}");
    for (r, e) in records.iter().zip(&expected) {
        assert_eq!(&r[..], &e[..], "{text}");
    }
    std::fs::remove_dir_all(&dir).ok();
    std::fs::remove_file(&log).ok();
}

#[test]
fn rapfi_missed_wins_keeps_the_positions_the_own_search_missed_and_the_engine_still_wins() {
    let dir = std::env::temp_dir().join(format!("boardbot-missed-wins-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let engine = fake_rapfi(&dir);
    // Boardbot's scores (side to move's view) and the labels: A won for Rapfi, not for boardbot,
    // and the stand-in announces a mate there (three stones of its own); B the same but the
    // stand-in announces none when asked again; C won for both; D not won for Rapfi; E lost.
    let (a, b, c, d, e) = (
        "moves 0,0 0,1 0,2 0,3 0,4 0,5",
        "moves 0,0 0,1",
        "moves 1,0 1,1 1,2 1,3 1,4 1,5",
        "moves 2,0 2,1 2,2 2,3 2,4 2,5",
        "moves 3,0 3,1 3,2 3,3 3,4 3,5",
    );
    let selfplay = dir.join("selfplay.txt");
    let own = [(a, 40), (b, -3), (c, 999_990), (d, 12), (e, 7)];
    let mut text = String::from("# game mnk 15 15 5\n");
    for (i, (p, s)) in own.iter().enumerate() {
        text.push_str(&format!("1\t{}/5\t1-0\t{s}\t{p}\n", i + 1));
    }
    std::fs::write(&selfplay, text).unwrap();
    let labelled = dir.join("labelled.txt");
    let labels = [(a, 2000), (b, 2000), (c, 2000), (d, 300), (e, -2000)];
    let mut text = String::from("# game mnk 15 15 5\n");
    for (i, (p, s)) in labels.iter().enumerate() {
        text.push_str(&format!("1\t{}/5\t1-0\t{s}\t{p}\n", i + 1));
    }
    std::fs::write(&labelled, text).unwrap();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/rapfi-missed-wins.py");
    let run = Command::new("python3")
        .arg(script)
        .args(["--rapfi", engine.to_str().unwrap(), "--nodes", "10", "--count", "10"])
        .args([&labelled, &selfplay])
        .output()
        .expect("python3 runs (Debian: apt-get install python3)");
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let out = String::from_utf8(run.stdout).unwrap();
    let wins: Vec<&str> = out.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(
        wins,
        ["win | rapfi | x | 0,0 0,1 0,2 0,3 0,4 0,5 | 7,7 | selfplay game 1 position 1/5; boardbot 40; rapfi 10 nodes +M5"],
        "{out}"
    );
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("2 positions Rapfi marks won") && stderr.contains("1 of 2 kept"), "{stderr}");
    // The suite reads it.
    let suite = dir.join("suite.txt");
    std::fs::write(&suite, &out).unwrap();
    let check = Command::new(BIN).args(["suite", suite.to_str().unwrap(), "--nodes", "100"]).output().unwrap();
    assert!(check.status.success(), "{}", String::from_utf8_lossy(&check.stderr));
    assert!(
        String::from_utf8_lossy(&check.stdout).contains("(1 positions)"),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn rapfi_book_prepares_the_replies_of_both_engines_once_and_resumes() {
    let dir = std::env::temp_dir().join(format!("boardbot-rapfi-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let engine = fake_rapfi(&dir);
    let book = dir.join("book.txt");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/rapfi-book.py");
    let make_with = |book: &std::path::Path, plies: &str, more: &[&str]| {
        let run = Command::new("python3")
            .arg(script)
            .args(["--rapfi", engine.to_str().unwrap(), "--boardbot", BIN, "--nodes", "10"])
            .args(["--reply-nodes", "5,7", "--boardbot-ms", "50", "--plies", plies, "--colour", "first"])
            .args(more)
            .arg(book)
            .output()
            .expect("python3 runs (Debian: apt-get install python3)");
        assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
        std::fs::read_to_string(book).unwrap()
    };
    let make = |book: &std::path::Path, plies: &str| make_with(book, plies, &[]);
    let text = make(&book, "4");
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    // The first move; the stand-in's reply (0,0: every budget gives it) and boardbot's own next
    // to the stone, each answered by the stand-in's move; nothing of 4 stones or more.
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].starts_with(" => 7,7  # Rapfi"), "{text}");
    assert!(lines.iter().any(|l| l.starts_with("7,7 0,0 => 0,1  # Rapfi")), "{text}");
    let own = lines.iter().find(|l| !l.starts_with(" =>") && !l.starts_with("7,7 0,0")).expect("boardbot's reply");
    let reply = own.split_whitespace().nth(1).unwrap();
    let (r, c) = reply.split_once(',').unwrap();
    let (r, c): (i32, i32) = (r.parse().unwrap(), c.parse().unwrap());
    assert!((r - 7).abs() <= 2 && (c - 7).abs() <= 2, "boardbot answers near the stone: {text}");
    assert!(own.contains("=> 0,0  # Rapfi"), "{text}");
    // The replies prepared for are kept as a comment, for a run that resumes.
    assert!(text.contains(&format!("# replies 7,7 : 0,0 {reply}\n")), "{text}");
    // Run again: every position is known, nothing is added.
    assert_eq!(make(&book, "4"), text);
    // Widened: every cell near the first stone is prepared for too, one of each of its 5
    // symmetric kinds (row and column offsets 0,1 1,1 0,2 1,2 2,2; boardbot's reply is one),
    // in a new line of replies; each new kind answered. Run again: nothing is added.
    let wide = make_with(&book, "4", &["--near-below", "2", "--again"]);
    let replies = wide.lines().rfind(|l| l.starts_with("# replies 7,7 : ")).unwrap();
    assert_eq!(replies.split_whitespace().count(), 4 + 6, "{wide}");
    assert!(replies.starts_with(&format!("# replies 7,7 : 0,0 {reply} ")), "{wide}");
    let answered = wide.lines().filter(|l| !l.starts_with('#') && l.contains("=>")).count();
    assert_eq!(answered, 1 + 6, "{wide}");
    assert_eq!(make_with(&book, "4", &["--near-below", "2", "--again"]), wide);
    // A book that holds a position in another image (7,7 0,0 turned half a turn) answers it
    // in the image met: the line after it goes on from 0,1, not from 14,13.
    let turned = dir.join("turned.txt");
    std::fs::write(&turned, "7,7 14,14 => 14,13\n").unwrap();
    let text = make(&turned, "5");
    assert!(!text.contains("7,7 0,0 =>"), "{text}");
    assert!(text.contains("# replies 7,7 0,0 0,1 : "), "{text}");
    std::fs::remove_dir_all(&dir).ok();
}

/// scripts/decisive-openings.py on two made-up result files: an opening is kept where enough of
/// its pairs (pooled over the files) were played and few enough split 1-1; a file of other
/// openings is refused; and `match` plays from what it prints.
#[test]
fn decisive_openings_keeps_the_openings_whose_pairs_were_decided() {
    let dir = std::env::temp_dir().join(format!("boardbot-decisive-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "# four openings\n7,7 7,8 8,8 6,6\n7,7 8,8\n6,6 7,7 8,8\n5,5 7,7\n").unwrap();
    // Each round: (opening, engine1's scores in its two games); 1.0 in all is a pair split 1-1.
    let write = |name: &str, header_openings: &std::path::Path, rounds: &[(usize, f64, f64)]| {
        let mut text = format!("{{\"match\":{{\"openings\":\"{}\"}}}}\n", header_openings.display());
        for (i, &(opening, a, b)) in rounds.iter().enumerate() {
            for score in [a, b] {
                text.push_str(&format!(
                    "{{\"game\":{{\"board\":\"mnk 15 15 5\",\"round\":{},\"opening\":{opening},\"score\":{score:.1}}}}}\n",
                    i + 1
                ));
            }
        }
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    // Opening 1: 5 pairs, all split. 2: 5 pairs, 2 split. 3: 3 pairs (too few), none split.
    // 4: 6 pairs over both files, 4 split. A round with one game only counts for nothing.
    let mut a = vec![(1, 1.0, 0.0); 5];
    a.extend([(2, 1.0, 0.0), (2, 0.0, 1.0), (2, 1.0, 1.0), (2, 0.0, 0.0), (2, 1.0, 1.0)]);
    a.extend([(3, 1.0, 1.0); 3]);
    a.extend([(4, 0.5, 0.5), (4, 1.0, 0.0), (4, 1.0, 1.0)]);
    let a = write("a.jsonl", &openings, &a);
    let b = write("b.jsonl", &openings, &[(4, 0.0, 1.0), (4, 1.0, 0.0), (4, 0.0, 0.0)]);
    let mut text = std::fs::read_to_string(&b).unwrap();
    text.push_str("{\"game\":{\"board\":\"mnk 15 15 5\",\"round\":4,\"opening\":4,\"score\":1.0}}\n");
    std::fs::write(&b, text).unwrap();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/decisive-openings.py");
    let run = |args: &[&str], files: &[&PathBuf]| {
        Command::new("python3")
            .arg(script)
            .args(args)
            .arg(&openings)
            .args(files)
            .output()
            .expect("python3 runs (Debian: apt-get install python3)")
    };
    let out = run(&[], &[&a, &b]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "7,7 8,8\n5,5 7,7\n");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("2 of 4 openings kept; their pairs: 6 of 11 split 1-1 (all: 11 of 19)"), "{stderr}");
    let strict = run(&["--share", "0.5"], &[&a, &b]);
    assert_eq!(String::from_utf8_lossy(&strict.stdout), "7,7 8,8\n");
    let few = run(&["--min-pairs", "3"], &[&a]);
    assert_eq!(String::from_utf8_lossy(&few.stdout), "7,7 8,8\n6,6 7,7 8,8\n5,5 7,7\n");
    // Results of a match on other openings are refused.
    let other = write("other.jsonl", &dir.join("other.txt"), &[(1, 1.0, 1.0)]);
    let refused = run(&[], &[&a, &other]);
    assert!(!refused.status.success(), "{}", String::from_utf8_lossy(&refused.stdout));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("not"), "{}", String::from_utf8_lossy(&refused.stderr));
    // The shipped set is such a file, and a match plays from it.
    let shipped = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/results/gomoku-15x15-decisive.txt");
    let results = dir.join("shipped.jsonl");
    let played = Command::new(BIN)
        .args(["match", "mnk", "15", "15", "5", "--engine1", "random", "--engine2", "random", "--rounds", "2"])
        .args(["--openings", shipped, "--results", results.to_str().unwrap(), "--seed", "5"])
        .output()
        .unwrap();
    assert!(played.status.success(), "{}", String::from_utf8_lossy(&played.stderr));
    // Each game begins with the stones of its opening (numbered from 1 among the file's openings).
    let text = std::fs::read_to_string(shipped).unwrap();
    let set: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(set.len(), 120);
    let games: Vec<String> = std::fs::read_to_string(&results)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("{\"game\""))
        .map(String::from)
        .collect();
    assert_eq!(games.len(), 4);
    for game in &games {
        let number: usize = game.split("\"opening\":").nth(1).unwrap().split(',').next().unwrap().parse().unwrap();
        let stones: Vec<String> = set[number - 1].split(' ').map(|c| format!("\"{}\"", c.replace(',', " "))).collect();
        assert!(game.contains(&format!("\"moves\":[{}", stones.join(","))), "opening {number}: {game}");
    }
    std::fs::remove_dir_all(&dir).ok();
}
