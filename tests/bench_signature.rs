//! The search's signature: `boardbot bench --depth 7` (one thread, fixed depth, so the count
//! does not depend on the machine's speed or load) searches the same number of nodes as the
//! signature committed in tests/data/bench-signature.txt. A refactor of the search keeps it; a
//! change that alters the search updates the file in the same commit.

use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_boardbot");

/// The committed signature: the file's first line that is not a comment.
fn committed() -> u64 {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/bench-signature.txt");
    let text = std::fs::read_to_string(path).expect("tests/data/bench-signature.txt");
    let line = text.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with('#')).expect("a signature line");
    line.parse().unwrap_or_else(|e| panic!("signature {line:?}: {e}"))
}

#[test]
fn bench_at_depth_7_searches_the_committed_number_of_nodes() {
    let out = Command::new(BIN).args(["bench", "--depth", "7"]).env_remove("RUST_LOG").output().expect("run boardbot");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "bench failed: {}\n{stdout}", String::from_utf8_lossy(&out.stderr));
    let last = stdout.lines().last().unwrap_or_default();
    let total: u64 = last
        .strip_prefix("nodes searched ")
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no `nodes searched N` last line in:\n{stdout}"));
    // The total is the sum of the positions' lines (the signature says what the table says).
    let sum: u64 = stdout
        .lines()
        .filter_map(|l| l.split_whitespace().skip_while(|&w| w != "nodes").nth(1))
        .filter_map(|n| n.parse::<u64>().ok())
        .sum();
    assert_eq!(total, sum, "the total is not the positions' sum:\n{stdout}");
    assert_eq!(
        total,
        committed(),
        "the search's node count changed (a refactor must keep it; a search change updates \
         tests/data/bench-signature.txt):\n{stdout}"
    );
}
