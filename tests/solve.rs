//! `boardbot solve` as a user runs it: Pons' position format in, scores and means out, wrong
//! expectations and bad input reported with a failing status; m,n,k positions as `ROW,COL` cells.

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
        (&["--game", "mnk", "3", "3", "3"][..], "1\n", "line 1: '1' is neither a cell ROW,COL nor a value"),
        (&["--game", "mnk", "3", "3", "3"][..], "0,0 0,0\n", "line 1: move 2: cell 0,0 is taken"),
        (&["--game", "mnk", "3", "3", "3"][..], "3,0\n", "line 1: move 1: cell 3,0 is off the 3x3 board"),
        (&["--game", "mnk", "3", "3", "3"][..], "0,0 1 2,2\n", "'2,2' after the expected value"),
        (&["--game", "mnk", "8", "8", "5"][..], ".\n", "does not fit"),
        (&["--game", "go", "9", "9", "5"][..], ".\n", "unknown game 'go'"),
        (&["--game", "mnk", "3", "3", "3", "--threads", "2"][..], ".\n", "neither --threads nor --analyze"),
    ] {
        let o = solve(args, input);
        assert!(!o.status.success(), "{input}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(message), "{args:?} {input}: {err}");
    }
}

#[test]
fn mnk_values_of_empty_boards_and_positions() {
    // ../shared/README.md: 3x3x3 draw, 3x4x3 and 4x4x3 first-player wins, 4x4x4 and 5x5x4
    // draws, first-player wins with K = 4 from 6x5 on, 6x6x5 a draw; 5x5x5 a draw (a pairing
    // of the second player's from the empty board).
    for (game, expected) in [
        (["3", "3", "3"], ". 0 draw nodes "),
        (["3", "4", "3"], ". 1 first player wins nodes "),
        (["4", "4", "3"], ". 1 first player wins nodes "),
        (["4", "4", "4"], ". 0 draw nodes "),
        (["5", "5", "4"], ". 0 draw nodes "),
        (["6", "5", "4"], ". 1 first player wins nodes "),
        (["6", "6", "4"], ". 1 first player wins nodes "),
        (["5", "5", "5"], ". 0 draw nodes 2 "),
        (["6", "6", "5"], ". 0 draw nodes "),
    ] {
        let o = solve(&["--game", "mnk", game[0], game[1], game[2]], ".\n");
        assert!(o.status.success(), "{game:?}: {}", String::from_utf8_lossy(&o.stderr));
        let out = stdout(&o);
        assert!(out.starts_with(expected), "{game:?}: {out}");
        assert!(out.lines().nth(1).unwrap().starts_with("positions 1 mean time "), "{out}");
    }
    // Tic-tac-toe positions, values from the side to move, with expected values checked:
    // centre then edge wins for the first player (to move); after a third stone in a corner the
    // second player (to move) loses; a finished game is lost for the side to move.
    let input = "1,1 0,1 1\n1,1  0,1 0,0 -1\n\n0,0 1,1 0\n0,0 1,0 0,1 1,1 0,2\n";
    let o = solve(&["--game", "mnk", "3", "3", "3", "--fresh"], input);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    assert!(lines[0].starts_with("1,1 0,1 1 first player wins nodes "), "{out}");
    assert!(lines[1].starts_with("1,1 0,1 0,0 -1 first player wins nodes "), "{out}");
    assert!(lines[2].starts_with("0,0 1,1 0 draw nodes "), "{out}");
    assert!(lines[3].starts_with("0,0 1,0 0,1 1,1 0,2 -1 first player wins nodes 0 "), "{out}");
    assert!(lines[4].starts_with("positions 4 mean time ") && lines[4].ends_with("wrong 0"), "{out}");

    let wrong = solve(&["--game", "mnk", "3", "3", "3"], ". 1\n");
    assert!(!wrong.status.success());
    assert!(stdout(&wrong).starts_with(". 0 WRONG (expected 1) draw nodes "), "{}", stdout(&wrong));
}

#[test]
fn mnk_values_by_dfpn_on_boards_of_any_size() {
    // The same known values and tic-tac-toe positions by df-pn, then K = 4 boards whose
    // first-player wins (../shared/README.md: 6x5x4 and every larger board) it proves in a
    // fraction of a second, 8x8x4 beyond the bitboard solver's range.
    for (game, expected) in [
        (["3", "3", "3"], ". 0 draw nodes "),
        (["4", "4", "3"], ". 1 first player wins nodes "),
        (["6", "5", "4"], ". 1 first player wins nodes "),
        (["8", "8", "4"], ". 1 first player wins nodes "),
    ] {
        let o = solve(&["--dfpn", "--game", "mnk", game[0], game[1], game[2]], ".\n");
        assert!(o.status.success(), "{game:?}: {}", String::from_utf8_lossy(&o.stderr));
        assert!(stdout(&o).starts_with(expected), "{game:?}: {}", stdout(&o));
    }
    let input = "1,1 0,1 1\n1,1  0,1 0,0 -1\n0,0 1,1 0\n0,0 1,0 0,1 1,1 0,2\n";
    let o = solve(&["--dfpn", "--game", "mnk", "3", "3", "3", "--fresh"], input);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let lines: Vec<String> = stdout(&o).lines().map(String::from).collect();
    assert!(lines[0].starts_with("1,1 0,1 1 first player wins nodes "), "{lines:?}");
    assert!(lines[1].starts_with("1,1 0,1 0,0 -1 first player wins nodes "), "{lines:?}");
    assert!(lines[2].starts_with("0,0 1,1 0 draw nodes "), "{lines:?}");
    assert!(lines[3].starts_with("0,0 1,0 0,1 1,1 0,2 -1 first player wins nodes 0 "), "{lines:?}");
    assert!(lines[4].ends_with("wrong 0"), "{lines:?}");
    for (args, input, message) in [
        (&["--dfpn", "--game", "cx", "6", "7", "4"][..], ".\n", "--dfpn is for m,n,k games"),
        (&["--dfpn", "--game", "mnk", "3", "3", "3"][..], "0,0 0,0\n", "line 1: move 2: cell 0,0 is taken"),
        (&["--dfpn", "--game", "mnk", "3", "3", "3"][..], "3,0\n", "line 1: move 1: cell 3,0 is off the 3x3 board"),
        (&["--dfpn", "--game", "mnk", "3", "3", "3"][..], ". 1\n", "disagree with their expected score"),
    ] {
        let o = solve(args, input);
        assert!(!o.status.success(), "{args:?} {input}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(message), "{args:?} {input}: {err}");
    }
    let o = solve(&["--dfpn", "--game", "mnk", "7", "7", "5", "--limit", "0.2"], ".\n");
    assert!(o.status.success() && stdout(&o).starts_with(". unknown nodes "), "{}", stdout(&o));
}

#[test]
fn mnk_7x7x5_is_a_draw() {
    // ../shared/README.md: a draw; proved with pairings in about 5 s (release build).
    let o = solve(&["--game", "mnk", "7", "7", "5"], ".\n");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(stdout(&o).starts_with(". 0 draw nodes "), "{}", stdout(&o));
}

#[test]
fn a_limit_gives_up_with_unknown() {
    let o = solve(&["--game", "mnk", "7", "7", "5", "--limit", "0.2"], ".\n");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(stdout(&o).starts_with(". unknown nodes "), "{}", stdout(&o));
}

/// Runs `boardbot book` for free-style gomoku into `out` with searches of 50 ms.
fn make_gomoku_book(out: &std::path::Path, plies: &str) -> Output {
    Command::new(BIN)
        .args(["book", "--game", "mnk", "15", "15", "5", "--plies", plies, "--threads", "1", "--hash", "16"])
        .arg("--out")
        .arg(out)
        .env("BOOK_SECONDS", "0.05")
        .env("BOOK_REPLY_SECONDS", "0.05")
        .env("BOOK_WIDTH", "2")
        .output()
        .expect("boardbot runs")
}

#[test]
fn a_gomoku_book_from_the_engines_searches_covers_both_colours_and_resumes() {
    let out = std::env::temp_dir().join(format!("boardbot-gomoku-book-{}.txt", std::process::id()));
    let _ = std::fs::remove_file(&out);
    let o = make_gomoku_book(&out, "3");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&out).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    // The first player's book: the centre, then its third stone against the direct and the
    // indirect reply (the two kinds of stones next to the centre); the second player's: its
    // reply to the centre.
    let mut positions: Vec<&str> = lines.iter().map(|l| l.split("=>").next().unwrap().trim()).collect();
    positions.sort_unstable();
    assert_eq!(positions, ["", "7,7", "7,7 6,6", "7,7 6,7"], "{text}");
    for line in &lines {
        let (moves, rest) = line.split_once("=>").unwrap();
        let reply = rest.split('#').next().unwrap().trim();
        let mut cells: Vec<&str> = moves.split_whitespace().collect();
        assert!(!cells.contains(&reply), "{line}");
        cells.push(reply);
        for cell in cells {
            let (r, c) = cell.split_once(',').unwrap();
            assert!(r.parse::<usize>().unwrap() < 15 && c.parse::<usize>().unwrap() < 15, "{line}");
        }
    }
    // Again: every position is in the file, none is searched or written twice.
    let o = make_gomoku_book(&out, "3");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), text);
    // Other m,n,k boards have no book.
    let o = Command::new(BIN)
        .args(["book", "--game", "mnk", "7", "7", "5", "--plies", "2", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("mnk 15 15 5"), "{}", String::from_utf8_lossy(&o.stderr));
    let _ = std::fs::remove_file(&out);
}

#[test]
fn the_game_comes_as_words_or_after_game_in_every_subcommand() {
    let run = |args: &[&str], stdin: &str| {
        let mut c = Command::new(BIN)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        c.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
        let o = c.wait_with_output().unwrap();
        assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let value = |out: String| out.lines().next().unwrap().split(" nodes").next().unwrap().to_string();
    assert_eq!(value(run(&["solve", "mnk", "3", "3", "3"], ".\n")), ". 0 draw");
    assert_eq!(value(run(&["solve", "--game", "mnk", "3", "3", "3"], ".\n")), ". 0 draw");
    let file = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("words-{}.txt", std::process::id()));
    std::fs::write(&file, ".\n").unwrap();
    assert_eq!(value(run(&["solve", "mnk", "3", "3", "3", file.to_str().unwrap()], "")), ". 0 draw");
    let _ = std::fs::remove_file(&file);
    let perft = |args: &[&str]| run(args, "").split(" time").next().unwrap().to_string();
    assert_eq!(perft(&["perft", "checkers", "english", "5"]), "perft 5 7361");
    assert_eq!(perft(&["perft", "--game", "checkers", "english", "5"]), "perft 5 7361");
    let nodes = |args: &[&str]| run(args, "").lines().filter(|l| l.starts_with("minimax")).collect::<Vec<_>>().len();
    assert_eq!(nodes(&["analyze", "--game", "mnk", "3", "3", "3", "--depth", "2", "--algorithm", "minimax"]), 2);
    assert_eq!(nodes(&["analyze", "mnk", "3", "3", "3", "--depth", "2", "--algorithm", "minimax"]), 2);
}
