//! The text forms the referee reads: boards (`mnk M N K`, `cx M N X`, board files) and engine
//! specs (a command line, or a built-in player of this binary).

use super::pbrain;
use super::process::{ProcessConfig, Protocol};
use crate::game::any::Player;
use crate::game::registry::GameSpec;
use anyhow::{anyhow, bail, Result};
use std::path::Path;
use std::time::Duration;

/// Parses a board: a game's description as the registry reads it (`mnk M N K [blocked
/// ROW,COL ...]`, `cx M N X`, ...).
pub fn parse_board(words: &[&str]) -> Result<GameSpec> {
    GameSpec::from_words(words).map_err(|e| anyhow!("board '{}': {e}", words.join(" ")))
}

/// The boards of the m,n,k course tournament (M N K), from the shared reference facts.
const MNK_TOURNAMENT: &[(usize, usize, usize)] = &[
    (3, 3, 3),
    (4, 3, 3),
    (4, 4, 3),
    (4, 4, 4),
    (5, 4, 4),
    (5, 5, 4),
    (5, 5, 5),
    (6, 4, 4),
    (6, 5, 4),
    (6, 6, 4),
    (6, 6, 5),
    (6, 6, 6),
    (7, 4, 4),
    (7, 5, 4),
    (7, 6, 4),
    (7, 7, 4),
    (7, 5, 5),
    (7, 6, 5),
    (7, 7, 5),
    (7, 7, 6),
    (7, 7, 7),
    (8, 8, 4),
    (10, 10, 5),
    (50, 50, 10),
    (70, 70, 10),
];

/// A built-in set of boards by name: `mnk-tournament` (the 25 boards of the m,n,k course
/// tournament) or `cx-tournament` (the Connect-X boards in use: every M, N in 4..=7 with X = 4,
/// the same with X = 5 except 4 4 5, then 25 25 10, 50 50 15, 75 75 20 and 100 100 30).
pub fn builtin_boards(name: &str) -> Option<Vec<GameSpec>> {
    match name {
        "mnk-tournament" => Some(MNK_TOURNAMENT.iter().map(|&(m, n, k)| board(&format!("mnk {m} {n} {k}"))).collect()),
        "cx-tournament" => {
            let mut v = Vec::new();
            for x in [4, 5] {
                for rows in 4..=7 {
                    for cols in 4..=7 {
                        if (rows, cols, x) != (4, 4, 5) {
                            v.push(board(&format!("cx {rows} {cols} {x}")));
                        }
                    }
                }
            }
            for (n, x) in [(25, 10), (50, 15), (75, 20), (100, 30)] {
                v.push(board(&format!("cx {n} {n} {x}")));
            }
            Some(v)
        }
        _ => None,
    }
}

/// A built-in board's spec (the text is known to be good).
fn board(text: &str) -> GameSpec {
    GameSpec::parse(text).expect("a built-in board")
}

/// Parses a board file: one board a line, `#` starts a comment, blank lines are skipped.
pub fn parse_boards(text: &str) -> Result<Vec<GameSpec>> {
    let mut boards = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("");
        let words: Vec<&str> = line.split_whitespace().collect();
        if !words.is_empty() {
            boards.push(parse_board(&words).map_err(|e| anyhow!("line {}: {e}", i + 1))?);
        }
    }
    Ok(boards)
}

/// The text of a board, as `parse_board` reads it.
pub fn board_text(spec: &GameSpec) -> String {
    spec.to_string()
}

/// Splits a command line into words: blanks separate words, except inside '...' or "...";
/// a backslash outside single quotes takes the next character as is.
pub fn split_command(text: &str) -> Result<Vec<String>> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if let Some(w) = word.take() {
                    words.push(w);
                }
            }
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => w.push(c),
                        None => bail!("unclosed ' in '{text}'"),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => w.push(c),
                            Some(c) => {
                                w.push('\\');
                                w.push(c);
                            }
                            None => bail!("unclosed \" in '{text}'"),
                        },
                        Some(c) => w.push(c),
                        None => bail!("unclosed \" in '{text}'"),
                    }
                }
            }
            '\\' => {
                let c = chars.next().ok_or_else(|| anyhow!("trailing backslash in '{text}'"))?;
                word.get_or_insert_with(String::new).push(c);
            }
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    Ok(words)
}

/// An engine spec: a built-in player of this binary (`self`: full strength, `l1`, `random`,
/// `abN`: alpha-beta to N moves, `levelN`: strength N, each optionally followed by more engine flags), a command line, or
/// `pbrain:` and the command line of an engine speaking the Gomocup (pbrain) protocol. The
/// built-in players are this binary run as a process like any other engine; they get `--seed
/// SEED` and, before each game, `set seed` with that game's seed.
pub fn engine_config(
    text: &str,
    self_exe: &Path,
    seed: u64,
    setup_timeout: Duration,
    echo_stderr: bool,
) -> Result<ProcessConfig> {
    if let Some(command) = text.get(..pbrain::PREFIX.len()).filter(|p| p.eq_ignore_ascii_case(pbrain::PREFIX)) {
        let command = &text[command.len()..];
        let argv = split_command(command)?;
        let head = argv.first().ok_or_else(|| anyhow!("empty pbrain engine command"))?;
        let name = format!("{}{}", pbrain::PREFIX, short_name(command, head));
        return Ok(ProcessConfig { name, argv, protocol: Protocol::Pbrain, seeded: false, setup_timeout, echo_stderr });
    }
    let words = split_command(text)?;
    let (head, rest) = words.split_first().ok_or_else(|| anyhow!("empty engine spec"))?;
    let exe = self_exe.to_string_lossy().into_owned();
    let builtin: Option<Vec<String>> = match head.to_ascii_lowercase().as_str() {
        "self" => Some(vec![]),
        "l1" => Some(vec!["--player".into(), "l1".into()]),
        "greedy" => Some(vec!["--player".into(), "greedy".into()]),
        "random" => Some(vec!["--player".into(), "random".into()]),
        h if h.parse::<Player>().is_ok_and(|p| matches!(p, Player::AlphaBeta(_))) => {
            Some(vec!["--player".into(), h.to_string()])
        }
        h if crate::bot::LEVELS.iter().any(|(name, _)| *name == h) => Some(vec!["--level".into(), h.to_string()]),
        h => h.strip_prefix("level").and_then(|n| n.parse::<u32>().ok()).map(|n| vec!["--level".into(), n.to_string()]),
    };
    let (argv, seeded) = match builtin {
        Some(_) if rest.iter().any(|w| w == "--seed" || w.starts_with("--seed=")) => {
            bail!(
                "engine '{text}': --seed is the match's (it seeds every game of a built-in engine: `match --seed`); leave it out of the engine"
            )
        }
        Some(flags) => {
            let mut argv = vec![exe];
            argv.extend(flags);
            argv.extend(["--seed".to_string(), seed.to_string()]);
            argv.extend(rest.iter().cloned());
            (argv, true)
        }
        None => (words.clone(), false),
    };
    let name =
        if builtin_name(head) { text.split_whitespace().collect::<Vec<_>>().join(" ") } else { short_name(text, head) };
    Ok(ProcessConfig { name, argv, protocol: Protocol::Boardbot, seeded, setup_timeout, echo_stderr })
}

/// The name of an engine run as the command line `text` with program `head`: the command line
/// if it is short, else the program's file name.
fn short_name(text: &str, head: &str) -> String {
    if text.len() <= 24 {
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    } else {
        Path::new(head).file_name().map_or_else(|| head.to_string(), |f| f.to_string_lossy().into_owned())
    }
}

fn builtin_name(word: &str) -> bool {
    let w = word.to_ascii_lowercase();
    matches!(w.as_str(), "self" | "l1" | "greedy" | "random")
        || w.parse::<Player>().is_ok_and(|p| matches!(p, Player::AlphaBeta(_)))
        || crate::bot::LEVELS.iter().any(|(name, _)| *name == w)
        || w.strip_prefix("level").is_some_and(|n| n.parse::<u32>().is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_sets() {
        let mnk = builtin_boards("mnk-tournament").unwrap();
        assert_eq!(mnk.len(), 25);
        assert_eq!(board_text(&mnk[24]), "mnk 70 70 10");
        let cx = builtin_boards("cx-tournament").unwrap();
        assert_eq!(cx.len(), 16 + 15 + 4);
        assert!(!cx.iter().any(|b| board_text(b) == "cx 4 4 5"));
        assert!(builtin_boards("nope").is_none());
    }

    #[test]
    fn boards() {
        assert_eq!(parse_board(&["mnk", "3", "3", "3"]).unwrap().to_string(), "mnk 3 3 3");
        assert_eq!(parse_board(&["CX", "6", "7", "4"]).unwrap().to_string(), "cx 6 7 4");
        assert_eq!(
            parse_board(&["mnk", "5", "5", "4", "blocked", "0,0", "1,2"]).unwrap().to_string(),
            "mnk 5 5 4 blocked 0,0 1,2"
        );
        for bad in ["mnk 3 3", "go 3 3 3", "cx 6 7 4 blocked 0,0", "mnk 0 3 3", "mnk 3 3 x", "mnk 3 3 3 blocked 9,9"] {
            let words: Vec<&str> = bad.split_whitespace().collect();
            assert!(parse_board(&words).is_err(), "{bad}");
        }
        let file = "# boards\nmnk 3 3 3\n\n  cx 6 7 4  # connect four\n";
        assert_eq!(parse_boards(file).unwrap().len(), 2);
        assert!(parse_boards("mnk 3 3 3\nmnk 3\n").unwrap_err().to_string().starts_with("line 2"));
        let spec = GameSpec::parse("mnk 5 5 4 blocked 0,0").unwrap();
        assert_eq!(board_text(&spec), "mnk 5 5 4 blocked 0,0");
    }

    #[test]
    fn command_lines() {
        assert_eq!(split_command("a  b\tc").unwrap(), ["a", "b", "c"]);
        assert_eq!(
            split_command("sh -c 'read a; echo ok; while read l; do sleep 5; done'").unwrap(),
            ["sh", "-c", "read a; echo ok; while read l; do sleep 5; done"]
        );
        assert_eq!(split_command(r#"x "a \"b\" c" d\ e ''"#).unwrap(), ["x", "a \"b\" c", "d e", ""]);
        assert!(split_command("sh -c 'oops").is_err());
        assert!(split_command("").unwrap().is_empty());
    }

    #[test]
    fn engine_specs() {
        let exe = Path::new("/bin/boardbot");
        let t = Duration::from_secs(5);
        let c = engine_config("l1", exe, 7, t, false).unwrap();
        assert_eq!(c.argv, ["/bin/boardbot", "--player", "l1", "--seed", "7"]);
        assert!(c.seeded);
        assert_eq!(c.name, "l1");
        let c = engine_config("self --threads 2", exe, 0, t, false).unwrap();
        assert_eq!(c.argv, ["/bin/boardbot", "--seed", "0", "--threads", "2"]);
        let c = engine_config("level3", exe, 0, t, false).unwrap();
        assert_eq!(c.argv, ["/bin/boardbot", "--level", "3", "--seed", "0"]);
        let c = engine_config("sh -c 'read a; echo ok; while read l; do echo 99 99; done'", exe, 0, t, false).unwrap();
        assert_eq!(c.argv.len(), 3);
        assert!(!c.seeded);
        assert_eq!(c.name, "sh");
        assert_eq!(c.protocol, Protocol::Boardbot);
        assert!(engine_config("  ", exe, 0, t, false).is_err());
        // A built-in engine's seed is the match's (issue 57: a second --seed crashed the engine).
        for text in ["hard --seed 3", "self --seed=3", "random --threads 1 --seed 3"] {
            let e = engine_config(text, exe, 0, t, false).unwrap_err().to_string();
            assert!(e.contains("--seed is the match's"), "{e}");
        }
        let c = engine_config("pbrain:/opt/gomoku/pbrain-figrid --threads 1", exe, 3, t, false).unwrap();
        assert_eq!(c.argv, ["/opt/gomoku/pbrain-figrid", "--threads", "1"]);
        assert_eq!((c.protocol, c.seeded, c.name.as_str()), (Protocol::Pbrain, false, "pbrain:pbrain-figrid"));
        let c = engine_config("PBRAIN:'my engine' -x", exe, 3, t, false).unwrap();
        assert_eq!((c.argv.len(), c.name.as_str()), (2, "pbrain:'my engine' -x"));
        assert!(engine_config("pbrain:", exe, 0, t, false).is_err());
    }
}
