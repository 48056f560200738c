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
