//! PDN (Portable Draughts Notation), the game files of checkers players (CheckerBoard, the ACF
//! archives, lidraughts), read and written for English checkers.
//!
//! Read: any number of games, each its tags (`[Name "value"]`, `\"` inside a value) and its
//! move text: move numbers (`12.`, `12...`, also glued to the move: `12.11-15`), moves with `-`,
//! `x` or `:` between squares (`22x15x6`, or a multiple jump by its ends, `22x6`), annotations
//! glued to a move (`!`, `?`, `!?`, `*`), NAGs (`$3`), comments (`{...}` over any lines, `;` to the
//! end of the line, `%` lines), variations (`( ... )`, nested: skipped) and the result (`1-0`,
//! `0-1`, `1/2-1/2`, the draughts forms `2-0`, `0-2`, `1-1`, `0-0`, or `*`). A `FEN` tag gives
//! the start. Anything else is an error naming its line.

use super::{fen, Checkers, Rules};
use crate::game::any::{GameRecordText, GameSpec, LoadedRecord, RecordFormat, RecordMove};
use crate::game::{Game, Side};
use anyhow::{anyhow, bail, Result};

/// A game of a PDN file: its tags, moves (as written, with their lines) and result.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PdnGame {
    pub tags: Vec<(String, String)>,
    pub moves: Vec<(String, usize)>,
    pub result: Option<String>,
}

impl PdnGame {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

/// PDN as a record format of the registry (English rules: the house rules have no PDN number).
pub static FORMAT: RecordFormat = RecordFormat {
    name: "PDN",
    extension: "pdn",
    write: |spec, game| (spec.words().first().map(String::as_str) == Some("english")).then(|| write(spec, game)),
    read: load,
    notes: true,
};

const RESULTS: &[&str] = &["1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*"];

/// The games of a PDN text (syntax only: the moves are checked when played).
pub fn read(text: &str) -> Result<Vec<PdnGame>> {
    let mut games = Vec::new();
    let mut game = PdnGame::default();
    let mut in_moves = false;
    let chars: Vec<char> = text.chars().collect();
    let (mut i, mut line) = (0, 1);
    let finish = |game: &mut PdnGame, games: &mut Vec<PdnGame>| {
        if !game.tags.is_empty() || !game.moves.is_empty() || game.result.is_some() {
            games.push(std::mem::take(game));
        }
    };
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\n' => {
                line += 1;
                i += 1;
                if chars.get(i) == Some(&'%') {
                    while i < chars.len() && chars[i] != '\n' {
                        i += 1;
                    }
                }
            }
            c if c.is_whitespace() || c == '\u{feff}' => i += 1,
            '[' => {
                if in_moves {
                    finish(&mut game, &mut games);
                    in_moves = false;
                }
                let start = line;
                let end = (i..chars.len()).find(|&j| chars[j] == ']' || chars[j] == '\n');
                let Some(end) = end.filter(|&j| chars[j] == ']') else { bail!("line {start}: a tag without its ']'") };
                let inner: String = chars[i + 1..end].iter().collect();
                let (name, value) = inner.trim().split_once(char::is_whitespace).unwrap_or((inner.trim(), ""));
                let value = value.trim();
                let Some(value) = value.strip_prefix('"').and_then(|v| v.strip_suffix('"')) else {
                    bail!("line {start}: tag {name}: its value is not in quotes");
                };
                if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                    bail!("line {start}: '{name}' is not a tag name");
                }
                game.tags.push((name.to_string(), value.replace("\\\"", "\"").replace("\\\\", "\\")));
                i = end + 1;
            }
            '{' => {
                let start = line;
                while i < chars.len() && chars[i] != '}' {
                    line += usize::from(chars[i] == '\n');
                    i += 1;
                }
                if i == chars.len() {
                    bail!("line {start}: a comment without its '}}'");
                }
                i += 1;
            }
            ';' => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '(' => {
                let (start, mut depth) = (line, 0);
                loop {
                    match chars.get(i) {
                        None => bail!("line {start}: a variation without its ')'"),
                        Some('(') => depth += 1,
                        Some(')') => depth -= 1,
                        Some('\n') => line += 1,
                        Some('{') => {
                            while i < chars.len() && chars[i] != '}' {
                                line += usize::from(chars[i] == '\n');
                                i += 1;
                            }
                        }
                        _ => {}
                    }
                    i += 1;
                    if depth == 0 {
                        break;
                    }
                }
            }
            _ => {
                let start = i;
                while i < chars.len() && !chars[i].is_whitespace() && !"{([;".contains(chars[i]) {
                    i += 1;
                }
                let token: String = chars[start..i].iter().collect();
                in_moves = true;
                if RESULTS.contains(&token.as_str()) {
                    game.result = Some(token);
                    finish(&mut game, &mut games);
                    in_moves = false;
                    continue;
                }
                if token.starts_with('$') && token[1..].chars().all(|c| c.is_ascii_digit()) {
                    continue;
                }
                // A move number, alone or glued to its move.
                let rest = token.trim_start_matches(|c: char| c.is_ascii_digit());
                let rest = match rest.strip_prefix('.') {
                    Some(after) if rest.len() < token.len() => after.trim_start_matches('.'),
                    _ => token.as_str(),
                };
                let mv = rest.trim_end_matches(['!', '?', '*', '+']);
                if mv.is_empty() {
                    continue;
                }
                let is_move = mv
                    .split(['-', 'x', 'X', ':'])
                    .all(|s| !s.is_empty() && s.len() <= 2 && s.chars().all(|c| c.is_ascii_digit()))
                    && mv.contains(['-', 'x', 'X', ':']);
                if !is_move {
                    bail!("line {line}: '{token}' is not a move, a move number or a result");
                }
                game.moves.push((mv.replace(['X', ':'], "x"), line));
            }
        }
    }
    finish(&mut game, &mut games);
    Ok(games)
}

/// The record of a PDN text's first game (a file of several: the first), for loading: None when
/// the text does not look like PDN (no tag and no numbered move).
pub fn load(text: &str) -> Option<Result<LoadedRecord>> {
    let t = text.trim_start_matches('\u{feff}').trim_start();
    let looks = t.starts_with('[') || t.starts_with("1.") || t.starts_with("1 .") || t.starts_with('{');
    if !looks {
        return None;
    }
    Some(load_first(text))
}

fn load_first(text: &str) -> Result<LoadedRecord> {
    let games = read(text)?;
    let Some(g) = games.into_iter().next() else { bail!("no game in the PDN") };
    if let Some(t) = g.tag("GameType") {
        let kind = t.split(',').next().unwrap_or("").trim();
        if kind != "21" {
            bail!("GameType \"{t}\": not English checkers (21)");
        }
    }
    let mut game = "checkers english".to_string();
    if let Some(f) = g.tag("FEN") {
        let start = fen::parse(Rules::English, f).map_err(|e| anyhow!("FEN \"{f}\": {e}"))?;
        if *start.board() != *Checkers::new(Rules::English).board() || start.to_move() != Side::First {
            game = format!("checkers english fen {}", fen::write(&start));
        }
    }
    let players = match (g.tag("Black"), g.tag("White")) {
        (Some(b), Some(w)) => Some([b.to_string(), w.to_string()]),
        _ => None,
    };
    let moves =
        g.moves.into_iter().map(|(text, line)| RecordMove { written: text.clone(), text, line, human: true }).collect();
    Ok(LoadedRecord { game, moves, players })
}

/// A game in PDN: the tags (`GameType "21"`, English draughts; `FEN` when the game did not start
/// from the usual position), then the moves numbered by pairs, Black's first, and the result
/// from Black's (the first player's) view.
pub fn write(spec: &GameSpec, game: &GameRecordText) -> String {
    let words: Vec<&str> = spec.words().iter().map(String::as_str).collect();
    let start = super::description::read(&words).unwrap_or_else(|_| Checkers::new(Rules::English));
    let quote = |t: &str| t.replace(['"', '\\'], "'");
    let mut s = String::new();
    s.push_str(&format!("[Event \"{}\"]\n", quote(&game.event)));
    s.push_str(&format!("[Round \"{}\"]\n", game.number));
    s.push_str(&format!("[Black \"{}\"]\n", quote(&game.players[0])));
    s.push_str(&format!("[White \"{}\"]\n", quote(&game.players[1])));
    s.push_str(&format!("[Result \"{}\"]\n", game.result));
    s.push_str("[GameType \"21\"]\n");
    if start.rules() == Rules::House {
        s.push_str("[Variant \"house rules: optional captures, a multiple jump may stop after any jump\"]\n");
    }
    if spec.words().len() > 1 {
        s.push_str(&format!("[FEN \"{}\"]\n", fen::write(&start)));
    }
    if !game.reason.is_empty() {
        s.push_str(&format!("[Termination \"{}\"]\n", quote(&game.reason)));
    }
    s.push('\n');
    let mut line = String::new();
    let first_ply = usize::from(start.to_move() == Side::Second);
    if first_ply == 1 && !game.moves.is_empty() {
        line.push_str("1... ");
    }
    for (ply, mv) in (first_ply..).zip(&game.moves) {
        if ply % 2 == 0 {
            line.push_str(&format!("{}. ", ply / 2 + 1));
        }
        line.push_str(mv);
        line.push(' ');
        if let Some(note) = game.notes.get(ply - first_ply).filter(|n| !n.is_empty()) {
            line.push_str(&format!("{{{}}} ", note.replace(['{', '}'], "")));
        }
        if line.len() > 70 {
            s.push_str(line.trim_end());
            s.push('\n');
            line.clear();
        }
    }
    line.push_str(&game.result);
    s.push_str(&line);
    s.push_str("\n\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_syntax_that_real_files_use_is_read() {
        let text = "\u{feff}[Event \"Club \\\"open\\\" 1998\"]\n[Black \"Jordan,A\"]\n[White \"Smith, B\"]\n[Result \"1/2-1/2\"]\n\
                    [GameType \"21\"]\n\n1.  9-14 22-17 2. 11-15 25-22 3. 15-19 {Forms the dyke,\n over two lines} 23x16\n\
                    4. 12x19! 24x15 $3 5. 10x19 (5. 6x13 {a line} (5... 1-6)) 17x10 ; to the end\n% an escaped line\n\
                    6.6x15 21-17?! 7... 5-9 1/2-1/2\n\n[Event \"second\"]\n[Result \"2-0\"]\n1. 11-15 23-19 2-0\n\n1. 9-13 *\n";
        let games = read(text).unwrap();
        assert_eq!(games.len(), 3);
        let g = &games[0];
        assert_eq!(g.tag("event"), Some("Club \"open\" 1998"));
        assert_eq!(g.tag("White"), Some("Smith, B"));
        let moves: Vec<&str> = g.moves.iter().map(|m| m.0.as_str()).collect();
        assert_eq!(
            moves,
            [
                "9-14", "22-17", "11-15", "25-22", "15-19", "23x16", "12x19", "24x15", "10x19", "17x10", "6x15",
                "21-17", "5-9"
            ]
        );
        assert_eq!(g.moves[5].1, 8, "the line of 23x16, after a comment over two lines");
        assert_eq!(g.result.as_deref(), Some("1/2-1/2"));
        assert_eq!((games[1].result.as_deref(), games[1].moves.len()), (Some("2-0"), 2));
        assert_eq!((games[2].tags.len(), games[2].result.as_deref()), (0, Some("*")));
    }

    #[test]
    fn broken_syntax_is_an_error_naming_its_line() {
        for (text, words) in [
            ("[Event \"x\"\n1. 11-15", "line 1"),
            ("[Event x]\n", "quotes"),
            ("1. 11-15 {never closed\n22-18", "line 1: a comment"),
            ("1. 11-15\n2. e2-e4", "line 2: 'e2-e4'"),
            ("1. 11-15 (22-18\n", "variation"),
            ("1. 11-15 hello", "'hello'"),
        ] {
            let e = read(text).unwrap_err().to_string();
            assert!(e.contains(words), "{text:?}: {e}");
        }
    }
}
