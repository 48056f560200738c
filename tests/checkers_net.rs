//! English checkers' network evaluation through the real binary: `--net` with a bad file stops
//! with an error that names it, `--net features` gives the tuned features' search, and
//! `train-net` writes a net the engine then plays with. (The accumulator, the quantisation and
//! the file's checks are unit tests in src/game/checkers/net.rs; the trainer's in
//! src/net_train.rs.)

use std::path::PathBuf;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_boardbot");

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("boardbot-net-{}-{name}", std::process::id()))
}

fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(BIN).args(args).env_remove("RUST_LOG").output().expect("run boardbot");
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

fn bench_nodes(net: &str) -> String {
    let (ok, out, err) = run(&["--net", net, "bench", "--depth", "5", "--only", "checkers english"]);
    assert!(ok, "{err}");
    out.lines().last().unwrap_or_default().to_string()
}

#[test]
fn a_bad_net_file_is_a_clear_error() {
    let (ok, _, err) = run(&["--net", "/nonexistent/english.net", "bench", "--depth", "1"]);
    assert!(!ok && err.contains("/nonexistent/english.net"), "{err}");
    let truncated = temp("truncated.net");
    let shipped = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/src/game/checkers/net/english.net")).unwrap();
    std::fs::write(&truncated, &shipped[..shipped.len() / 2]).unwrap();
    let (ok, _, err) = run(&["--net", truncated.to_str().unwrap(), "bench", "--depth", "1"]);
    assert!(!ok && err.contains("truncated"), "{err}");
    let _ = std::fs::remove_file(&truncated);
}

#[test]
fn train_net_writes_a_net_the_engine_plays_with() {
    let (data, net) = (temp("data.bin"), temp("trained.net"));
    let _ = std::fs::remove_file(&data);
    let (d, n) = (data.to_str().unwrap(), net.to_str().unwrap());
    let (ok, _, err) = run(&[
        "selfplay", "checkers", "english", "--games", "4", "--nodes", "300", "--seed", "3", "--hash", "16", "--out", d,
        "--format", "bin", "--quiet",
    ]);
    assert!(ok, "{err}");
    let (ok, out, err) = run(&["train-net", "--data", d, "--out", n, "--epochs", "2", "--seed", "5", "--quiet"]);
    assert!(ok && out.contains("wrote"), "{out}{err}");
    // Version 2, four output buckets: 8 + 16 header bytes, 16,580 f32 values, the checksum.
    assert_eq!(std::fs::metadata(&net).unwrap().len(), 66_352);
    // The shipped net, the trained one and the features search differently; the default is the
    // shipped net.
    let shipped_file = concat!(env!("CARGO_MANIFEST_DIR"), "/src/game/checkers/net/english.net");
    let (shipped, trained, features) = (bench_nodes(shipped_file), bench_nodes(n), bench_nodes("off"));
    assert_eq!(bench_nodes("features"), features);
    assert_eq!(bench_nodes("default"), shipped);
    assert_ne!(shipped, features);
    assert_ne!(trained, shipped);
    for f in [&data, &net] {
        let _ = std::fs::remove_file(f);
    }
}
