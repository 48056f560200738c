//! `boardbot solve` as a user runs it: Pons' position format in, scores and means out, wrong
//! expectations and bad input reported with a failing status.

use std::io::Write;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_boardbot");

/// `boardbot solve --hash 16 ARGS` with `input` on stdin.
fn solve(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(BIN)
        .args(["solve", "--hash", "16"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("boardbot runs");
    // A solve refusing its arguments exits without reading: the write may then fail (broken pipe).
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn scores_of_shared_positions_with_means() {
    let input = include_str!("data/connect4/Test_L2_R1.head30");
    for args in [&[][..], &["--threads", "2"], &["--fresh"]] {
        let o = solve(args, input);
        assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
        let out = stdout(&o);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 31, "{out}");
        for (line, expected) in lines.iter().zip(input.lines()) {
            let (moves, score) = expected.split_once(' ').unwrap();
            assert!(line.starts_with(&format!("{moves} {score} nodes ")), "{line} vs {expected}");
        }
        assert!(lines[30].starts_with("positions 30 mean time ") && lines[30].ends_with("wrong 0"), "{}", lines[30]);
    }
}

#[test]
fn weak_scores_and_analysis() {
    let o = solve(&["--weak"], "5554224333234511764415115 4\n2252576253462244111563365343671351441 -1\n");
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.starts_with("5554224333234511764415115 1 nodes "), "{out}");
    assert!(out.contains("\n2252576253462244111563365343671351441 -1 nodes "), "{out}");
    // Column 5 is full; only column 6 wins (score 4), every other move loses.
    let o = solve(&["--analyze"], "5554224333234511764415115\n");
    assert!(stdout(&o).starts_with("5554224333234511764415115 -8 -8 -8 -8 - 4 -8 nodes "), "{}", stdout(&o));
}

#[test]
fn other_boards_and_bad_input() {
    // 4x4x4 after one stone in column 1 is a draw; on 5x4 with three in a row the first player wins.
    let o = solve(&["--game", "cx", "4", "4", "4"], "1\n");
    assert!(stdout(&o).starts_with("1 0 nodes "), "{}", stdout(&o));
    let o = solve(&["--game", "cx", "5", "4", "3", "--weak"], "12\n");
    assert!(stdout(&o).starts_with("12 1 nodes "), "{}", stdout(&o));
    // `.` is the empty board: 4x4x4 is a draw, 4x5x3 a first-player win.
    let o = solve(&["--game", "cx", "4", "4", "4"], ".\n");
    assert!(stdout(&o).starts_with(". 0 nodes "), "{}", stdout(&o));
    let o = solve(&["--game", "cx", "4", "5", "3", "--weak"], ". 1\n");
    assert!(stdout(&o).starts_with(". 1 nodes ") && o.status.success(), "{}", stdout(&o));

    let wrong = solve(&[], "5554224333234511764415115 3\n");
    assert!(!wrong.status.success());
    assert!(stdout(&wrong).contains("4 WRONG (expected 3)"), "{}", stdout(&wrong));
    for (args, input, message) in [
        (&[][..], "1111111\n", "line 1: move 7: column 0 is full"),
        (&[][..], "19\n", "line 1: '9' is not a column (1..7)"),
        (&["--game", "cx", "8", "8", "4"][..], "1\n", "does not fit"),
        (&["--game", "mnk", "3", "3", "3"][..], "1\n", "cx M N X"),
    ] {
        let o = solve(args, input);
        assert!(!o.status.success(), "{input}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(message), "{args:?} {input}: {err}");
    }
}
