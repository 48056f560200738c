//! Parsing protocol lines into commands. See protocol.md for the grammar.

use crate::game::registry::{self, GameSpec};
use anyhow::{anyhow, bail, Result};
use std::time::Duration;

#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Init { spec: GameSpec, first: bool, timeout: Duration },
    Help,
    Go,
    Move(String),
    Position(Vec<String>),
    Set { key: String, value: String },
    Name,
    About,
    Quit,
}

/// Longest accepted TIMEOUT, in seconds (a day).
const MAX_TIMEOUT_SECS: f64 = 86_400.0;

/// Parses one line; `Ok(None)` for a blank line.
pub fn parse(line: &str) -> Result<Option<Command>> {
    parse_within(line, 0)
}

/// As [`parse`], an `init` of a board that takes more than `board_limit_mib` MiB (0: no limit)
/// refused before the board is made.
pub fn parse_within(line: &str, board_limit_mib: usize) -> Result<Option<Command>> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((&head, args)) = words.split_first() else { return Ok(None) };
    let no_args = |cmd: Command| {
        if args.is_empty() {
            Ok(Some(cmd))
        } else {
            Err(anyhow!("'{head}' takes no arguments"))
        }
    };
    match head.to_ascii_lowercase().as_str() {
        "init" => parse_init(args, board_limit_mib).map(Some),
        "go" => no_args(Command::Go),
        "move" => {
            if args.is_empty() {
                Err(anyhow!("'move' needs a move"))
            } else {
                Ok(Some(Command::Move(args.join(" "))))
            }
        }
        "position" => Ok(Some(Command::Position(args.iter().map(|s| s.to_string()).collect()))),
        "set" => match args {
            [key, value] => Ok(Some(Command::Set { key: key.to_string(), value: value.to_string() })),
            _ => Err(anyhow!("usage: set KEY VALUE")),
        },
        "help" => no_args(Command::Help),
        "name" => no_args(Command::Name),
        "about" => no_args(Command::About),
        "quit" => no_args(Command::Quit),
        _ => Err(anyhow!("unknown command '{head}'")),
    }
}

/// `init [GAME] SIZE... FIRST TIMEOUT [OPTIONS...]`: the game's name (default `mnk`) and its size
/// words as the registry reads them, then who moves first and the time per move, then the
/// game's options (`blocked ROW,COL ...`).
fn parse_init(args: &[&str], board_limit_mib: usize) -> Result<Command> {
    let usage = || anyhow!("usage: init [GAME] SIZE... FIRST TIMEOUT [OPTIONS...] ({})", registry::names());
    let (kind, rest) = match args.first().and_then(|name| registry::game_type(name)) {
        Some(kind) => (kind, &args[1..]),
        None if args.first().is_some_and(|w| w.bytes().all(|b| b.is_ascii_alphabetic())) => {
            bail!("unknown game '{}' ({})", args[0], registry::names())
        }
        None => (registry::GAMES[0], args),
    };
    let n = kind.size_words;
    if rest.len() < n + 2 {
        return Err(usage());
    }
    let first = match rest[n].to_ascii_lowercase().as_str() {
        "true" | "1" | "first" => true,
        "false" | "0" | "second" => false,
        other => bail!("FIRST must be true/false, 1/0 or first/second, got '{other}'"),
    };
    let t = rest[n + 1];
    let timeout = Some(t)
        .filter(|t| t.bytes().all(|b| b.is_ascii_digit() || b == b'.'))
        .and_then(|t| t.parse::<f64>().ok())
        .filter(|t| t.is_finite() && *t > 0.0 && *t <= MAX_TIMEOUT_SECS)
        .ok_or_else(|| anyhow!("TIMEOUT must be a number of seconds in (0, {MAX_TIMEOUT_SECS}], got '{t}'"))?;
    let mut words = vec![kind.name];
    words.extend_from_slice(&rest[..n]);
    words.extend_from_slice(&rest[n + 2..]);
    let spec = GameSpec::from_words_within(&words, board_limit_mib)?;
    Ok(Command::Init { spec, first, timeout: Duration::from_secs_f64(timeout) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn init_forms() {
        let c = parse("init 7 7 5 true 10").unwrap().unwrap();
        assert_eq!(
            c,
            Command::Init {
                spec: GameSpec::parse("mnk 7 7 5").unwrap(),
                first: true,
                timeout: Duration::from_secs(10)
            }
        );
        let c = parse("init cx 6 7 4 second 0.5").unwrap().unwrap();
        assert_eq!(
            c,
            Command::Init {
                spec: GameSpec::parse("cx 6 7 4").unwrap(),
                first: false,
                timeout: Duration::from_millis(500)
            }
        );
        let c = parse("init mnk 5 5 4 1 2 blocked 0,0 2,3").unwrap().unwrap();
        let Command::Init { spec, first: true, .. } = c else { panic!("{c:?}") };
        assert_eq!(spec.to_string(), "mnk 5 5 4 blocked 0,0 2,3");
    }

    #[test]
    fn malformed_lines_are_errors_not_panics() {
        for line in [
            "init",
            "init 3 3",
            "init 0 3 3 true 1",
            "init 3 3 3 maybe 1",
            "init 3 3 3 true -1",
            "init 3 3 3 true nan",
            "init 3 3 3 true inf",
            "init cx 6 7 4 true 1 blocked 0,0",
            "init 3 3 3 true 1 extra",
            "init 3 3 3 true 1 blocked 1-1",
            "init 99999999999999999999 3 3 true 1",
            "init +3 3 3 true 1",
            "init 3 3 3 true +1",
            "init chess 8 8 true 1",
            "frobnicate",
            "move",
            "go now",
            "set hash",
        ] {
            assert!(parse(line).is_err(), "{line}");
        }
        assert_eq!(parse("   ").unwrap(), None);
    }
}
