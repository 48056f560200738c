//! `boardbot analyze` as a user runs it: the algorithms' table and chart for a position of any
//! game, and clear errors for bad input.

use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_boardbot");

fn analyze(args: &[&str]) -> Output {
    Command::new(BIN).arg("analyze").args(args).output().expect("boardbot runs")
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

#[test]
fn tic_tac_toe_by_every_algorithm_with_a_chart() {
    let svg = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("analyze-ttt.svg");
    let o = analyze(&["mnk", "3", "3", "3", "--depth", "9", "--plot", svg.to_str().unwrap()]);
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    // Plain minimax visits the whole game tree of tic-tac-toe: 549,946 positions.
    let row9 = out.lines().find(|l| l.starts_with("9 ")).expect("the nodes row of depth 9");
    let cells: Vec<&str> = row9.split_whitespace().collect();
    assert_eq!(cells[1], "549946", "{row9}");
    // Every algorithm says draw at depth 9 where it proves it, and names a best move.
    for name in ["minimax", "alphabeta", "ordered", "table", "symmetric", "full"] {
        assert!(out.lines().any(|l| l.starts_with(name) && l.contains("depth  9")), "{name}: {out}");
    }
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<polyline"));
}

#[test]
fn a_position_of_kalah_and_chosen_algorithms() {
    let o = analyze(&["kalah", "6", "3", "--position", "5", "--depth", "4", "--algorithm", "minimax,ordered"]);
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    assert!(out.contains("after 5"), "{out}");
    assert!(!out.lines().any(|l| l.starts_with("alphabeta")), "{out}");
    assert!(out.lines().any(|l| l.starts_with("ordered   depth  4")), "{out}");
}

#[test]
fn bad_input_is_refused_with_a_reason() {
    for (args, words) in [
        (&["nogame"][..], "unknown game"),
        (&["mnk", "3", "3", "3", "--position", "9 9"][..], "--position"),
        (&["mnk", "3", "3", "3", "--algorithm", "magic"][..], "unknown algorithm"),
        (&["mnk", "3", "3", "3", "--depth", "0"][..], "--depth"),
    ] {
        let o = analyze(args);
        assert!(!o.status.success(), "{args:?}");
        assert!(text(&o).contains(words), "{args:?}: {}", text(&o));
    }
}
