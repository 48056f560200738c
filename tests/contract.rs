//! What every entry of the registry's `GAMES` gets without a line of its own: the texts that
//! list the games name it, and (below) the rules' contract, checked by random playouts.

use boardbot::game::registry::{GameSpec, GameType, Resources, GAMES};
use std::io::Write;
use std::process::{Command, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_boardbot"))
}

fn output(args: &[&str], input: &str) -> String {
    let mut child =
        bin().args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn every_text_that_lists_games_names_every_game() {
    let help = output(&[], "help\nquit\n");
    let about = output(&[], "about\nquit\n");
    let main_help = output(&["--help"], "");
    let match_help = output(&["match", "--help"], "");
    let protocol = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/protocol.md")).unwrap();
    let description = env!("CARGO_PKG_DESCRIPTION");
    for t in GAMES {
        assert!(help.contains(t.usage), "`help` lacks {}: {help}", t.usage);
        assert!(about.contains(t.name), "`about` lacks {}: {about}", t.name);
        assert!(main_help.contains(t.title), "--help lacks {}: {main_help}", t.title);
        assert!(match_help.contains(t.usage), "match --help lacks {}", t.usage);
        assert!(protocol.contains(&format!("`{}`", t.usage)), "protocol.md has no section for `{}`", t.usage);
        assert!(description.contains(t.title), "Cargo.toml's description lacks {}", t.title);
    }
}

#[test]
fn the_match_legend_gives_every_games_points() {
    let out = bin()
        .args(["match", "--game", "mnk", "3", "3", "3", "--rounds", "1", "--timeout", "2"])
        .args(["--engine1", "random", "--engine2", "random", "--quiet"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    for t in GAMES {
        let [first, second, draw] = t.points;
        let points = if first == second {
            format!("{}: win {first}, draw {draw}", t.name)
        } else {
            format!("{}: win {first} as first, {second} as second, draw {draw}", t.name)
        };
        assert!(text.contains(&points), "the legend lacks '{points}': {text}");
    }
}

/// Every board an entry names ([`GameType::names`]: `tic-tac-toe`, `connect4`, `bantumi`, ...):
/// the descriptions the contract is checked on.
fn named_boards() -> Vec<(&'static GameType, GameSpec)> {
    let mut boards = Vec::new();
    for &t in GAMES {
        assert!(!t.names.is_empty(), "the registry entry {} names no board", t.name);
        for (name, description) in t.names {
            let spec = GameSpec::parse(description).unwrap_or_else(|e| panic!("{name}: {description}: {e}"));
            assert!(std::ptr::eq(spec.kind(), t), "{name} is not a board of {}", t.name);
            boards.push((t, spec));
        }
    }
    boards
}

#[test]
fn every_game_keeps_the_rules_contract() {
    for (seed, (_, spec)) in named_boards().into_iter().enumerate() {
        let game = spec.new_game(&Resources::none()).unwrap();
        let report = game.check_rules(seed as u64, 20).unwrap_or_else(|e| panic!("{spec}: {e}"));
        assert_eq!(report.playouts, 20, "{spec}");
        assert!(report.positions > 20, "{spec}: {report:?}");
    }
}

#[test]
fn different_games_start_from_different_hashes() {
    let boards = named_boards();
    for (i, (a, x)) in boards.iter().enumerate() {
        for (b, y) in &boards[i + 1..] {
            if !std::ptr::eq(*a, *b) {
                let (hx, hy) =
                    (x.new_game(&Resources::none()).unwrap().hash(), y.new_game(&Resources::none()).unwrap().hash());
                assert_ne!(hx, hy, "{x} and {y} start from one hash");
            }
        }
    }
}

#[test]
fn every_game_plays_a_match_against_random_and_replays_it() {
    let dir = std::env::temp_dir().join(format!("boardbot-contract-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for &t in GAMES {
        let (_, description) = t.names[0];
        let log = dir.join(format!("{}.log", t.name));
        // The engine with a node cap, and 2 s a move: the search stops at the cap, but the exact
        // solvers at the root (connect4's) run under the clock only, and take their share of any
        // budget given (20 s a move made this test take 37 s).
        let out = bin()
            .args(["match", "--game"])
            .args(description.split_whitespace())
            .args([
                "--rounds",
                "1",
                "--timeout",
                "2",
                "--engine1",
                "self --nodes 3000",
                "--engine2",
                "random",
                "--quiet",
            ])
            .arg("--log")
            .arg(&log)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{description}: {text}{}", String::from_utf8_lossy(&out.stderr));
        let replay = bin().arg("replay").arg(&log).output().unwrap();
        let replayed = String::from_utf8_lossy(&replay.stdout);
        assert!(
            replay.status.success(),
            "{description}: replay: {replayed}{}",
            String::from_utf8_lossy(&replay.stderr)
        );
        let games = std::fs::read_to_string(&log).unwrap().lines().filter(|l| !l.starts_with('#')).count();
        assert_eq!(games, 2, "{description}: a round is two games");
        // The engine, even capped, never loses to random play.
        let total: Vec<&str> =
            text.lines().find(|l| l.starts_with("TOTAL")).unwrap_or_default().split_whitespace().collect();
        // TOTAL games W D L F oF ...
        assert_eq!(total.get(1..6), Some(&["2", total[2], total[3], "0", "0"][..]), "{description}: {text}");
    }
    std::fs::remove_dir_all(&dir).ok();
}
