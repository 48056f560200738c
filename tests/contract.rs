//! What every entry of the registry's `GAMES` gets without a line of its own: the texts that
//! list the games name it, and (below) the rules' contract, checked by random playouts.

use boardbot::game::registry::GAMES;
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
