//! `boardbot suite` (src/suite.rs): the gomoku position suite parses, the binary solves a few
//! easy positions of it under a node cap (never a time cap: the result must not depend on the
//! machine's load), and bad input is a clear error.

use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_boardbot");
const SUITE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/gomoku-suite.txt");
const EASY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/gomoku-suite-easy.txt");

fn suite(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(BIN).arg("suite").args(args).output().expect("run boardbot");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The positions of a suite file: its lines that are neither blank nor comments.
fn positions(path: &str) -> usize {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .count()
}

/// The numbers of the last line, `solved N of M (...)`.
fn solved(stdout: &str) -> (usize, usize) {
    let last = stdout.lines().last().expect("some output");
    let w: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(&w[..1], ["solved"], "last line: {last}");
    assert_eq!(w[2], "of", "last line: {last}");
    (w[1].parse().unwrap(), w[3].parse().unwrap())
}

#[test]
fn the_suite_file_parses_with_both_labels_and_a_few_hundred_positions() {
    let text = std::fs::read_to_string(SUITE).unwrap();
    let n = positions(SUITE);
    assert!(n >= 200, "{n} positions");
    for label in ["win", "defend"] {
        assert!(text.lines().any(|l| l.starts_with(&format!("{label} |"))), "no {label} position");
    }
    assert!(text.lines().any(|l| l.starts_with("win | quiet |")), "no win starting with a quiet move");
    // `--only nothing` parses the whole file and searches none of it.
    let (ok, stdout, stderr) = suite(&[SUITE, "--only", "no-such-class", "--nodes", "1"]);
    assert!(ok, "{stderr}");
    assert_eq!(solved(&stdout), (0, 0));
}

#[test]
fn easy_positions_are_solved_under_a_node_cap() {
    let n = positions(EASY);
    assert!(n >= 4, "{n} easy positions");
    let (ok, stdout, stderr) = suite(&[EASY, "--nodes", "20000", "--hash", "4", "--verbose"]);
    assert!(ok, "{stderr}");
    assert_eq!(solved(&stdout), (n, n), "{stdout}");
    // The same positions every run: a node cap gives the same moves on any machine.
    let (_, again, _) = suite(&[EASY, "--nodes", "20000", "--hash", "4", "--verbose"]);
    let played = |s: &str| {
        s.lines()
            .filter(|l| l.starts_with("line"))
            .map(|l| l.split_whitespace().nth(5).unwrap().to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(played(&stdout), played(&again));
}

#[test]
fn a_bad_suite_file_is_a_clear_error() {
    let dir = std::env::temp_dir().join(format!("boardbot-suite-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "win | vcf | o | 7,7 0,0 | 7,10 | the side to move is x\n").unwrap();
    let (ok, stdout, stderr) = suite(&[bad.to_str().unwrap(), "--nodes", "100"]);
    assert!(!ok);
    assert!(stdout.is_empty(), "{stdout}");
    assert!(stderr.contains("line 1") && stderr.contains("side to move"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    let (ok, _, stderr) = suite(&[dir.join("missing.txt").to_str().unwrap()]);
    assert!(!ok && stderr.contains("cannot read"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn probe_reports_a_vcf_and_the_only_defence() {
    // x has an open three on row 7 (7,7 7,8 7,9) and o three stones in a corner: x to move has
    // a VCF; with o to move, x threatens.
    let out = Command::new(BIN)
        .args(["suite", "--probe", "--moves"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(b"7,7 0,0 7,8 0,1 7,9 0,2\n7,7 0,0 7,8 0,1 7,9 0,2 7,10\n")?;
            child.wait_with_output()
        })
        .expect("run boardbot");
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(
        lines[0].contains("tomove=x") && lines[0].contains("vct=proved") && lines[0].contains("value=1"),
        "{}",
        lines[0]
    );
    // After 7,10 x has an open four on row 7 (7,6 and 7,11): o cannot stop both.
    assert!(lines[1].contains("tomove=o") && lines[1].contains("ovcf=7,"), "{}", lines[1]);
    let alive = lines[1].split("alive=").nth(1).unwrap_or("").split_whitespace().filter(|w| !w.contains('=')).count();
    assert_eq!(alive, 0, "{}", lines[1]);
}
