//! Parsing protocol lines into commands. See protocol.md for the grammar.

use crate::bot::GameSpec;
use std::time::Duration;

#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Init { spec: GameSpec, first: bool, timeout: Duration },
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
pub fn parse(line: &str) -> Result<Option<Command>, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((&head, args)) = words.split_first() else { return Ok(None) };
    let no_args = |cmd: Command| {
        if args.is_empty() {
            Ok(Some(cmd))
        } else {
            Err(format!("'{head}' takes no arguments"))
        }
    };
    match head.to_ascii_lowercase().as_str() {
        "init" => parse_init(args).map(Some),
        "go" => no_args(Command::Go),
        "move" => {
            if args.is_empty() {
                Err("'move' needs a move".into())
            } else {
                Ok(Some(Command::Move(args.join(" "))))
            }
        }
        "position" => Ok(Some(Command::Position(args.iter().map(|s| s.to_string()).collect()))),
        "set" => match args {
            [key, value] => Ok(Some(Command::Set { key: key.to_string(), value: value.to_string() })),
            _ => Err("usage: set KEY VALUE".into()),
        },
        "name" => no_args(Command::Name),
        "about" => no_args(Command::About),
        "quit" => no_args(Command::Quit),
        _ => Err(format!("unknown command '{head}'")),
    }
}

fn parse_init(args: &[&str]) -> Result<Command, String> {
    const USAGE: &str = "usage: init [mnk|cx] M N K FIRST TIMEOUT [blocked ROW,COL ...]";
    let (kind, rest) = match args.first().map(|s| s.to_ascii_lowercase()) {
        Some(k) if k == "mnk" => ("mnk", &args[1..]),
        Some(k) if k == "cx" || k == "connectx" => ("cx", &args[1..]),
        _ => ("mnk", args),
    };
    if rest.len() < 5 {
        return Err(USAGE.into());
    }
    let size = |s: &str, what: &str| -> Result<usize, String> {
        s.parse::<usize>()
            .ok()
            .filter(|&v| v >= 1)
            .ok_or_else(|| format!("{what} must be a whole number >= 1, got '{s}'"))
    };
    let (rows, cols, k) = (size(rest[0], "M")?, size(rest[1], "N")?, size(rest[2], "K")?);
    let first = match rest[3].to_ascii_lowercase().as_str() {
        "true" | "1" | "first" => true,
        "false" | "0" | "second" => false,
        other => return Err(format!("FIRST must be true/false, 1/0 or first/second, got '{other}'")),
    };
    let timeout =
        rest[4].parse::<f64>().ok().filter(|t| t.is_finite() && *t > 0.0 && *t <= MAX_TIMEOUT_SECS).ok_or_else(
            || format!("TIMEOUT must be a number of seconds in (0, {MAX_TIMEOUT_SECS}], got '{}'", rest[4]),
        )?;
    let extra = &rest[5..];
    let mut blocked = Vec::new();
    if let Some((&word, cells)) = extra.split_first() {
        if !word.eq_ignore_ascii_case("blocked") {
            return Err(format!("unexpected '{word}' after TIMEOUT ({USAGE})"));
        }
        if kind != "mnk" {
            return Err("blocked cells exist only in m,n,k-games".into());
        }
        for c in cells {
            let (r, col) = c.split_once(',').ok_or_else(|| format!("blocked cell must be ROW,COL, got '{c}'"))?;
            let num = |s: &str| s.parse::<usize>().map_err(|_| format!("bad blocked cell '{c}'"));
            blocked.push((num(r)?, num(col)?));
        }
    }
    let spec = match kind {
        "mnk" => GameSpec::Mnk { rows, cols, k, blocked },
        _ => GameSpec::ConnectX { rows, cols, x: k },
    };
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
                spec: GameSpec::Mnk { rows: 7, cols: 7, k: 5, blocked: vec![] },
                first: true,
                timeout: Duration::from_secs(10)
            }
        );
        let c = parse("init cx 6 7 4 second 0.5").unwrap().unwrap();
        assert_eq!(
            c,
            Command::Init {
                spec: GameSpec::ConnectX { rows: 6, cols: 7, x: 4 },
                first: false,
                timeout: Duration::from_millis(500)
            }
        );
        let c = parse("init mnk 5 5 4 1 2 blocked 0,0 2,3").unwrap().unwrap();
        assert!(
            matches!(c, Command::Init { spec: GameSpec::Mnk { ref blocked, .. }, first: true, .. } if blocked == &vec![(0, 0), (2, 3)])
        );
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
