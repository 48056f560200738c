//! Game records in and out: a game written in its players' format (a game type's
//! [`RecordFormat`]: checkers PDN, gomoku psq, Connect-4 column strings) or in boardbot's own,
//! which says any game of the registry; and any of these read back into a game, every move
//! checked by the rules.
//!
//! boardbot's own format (extension `.txt`), one item a line, `#` lines are comments:
//!
//! ```text
//! # boardbot game
//! game kalah 6 4
//! first You
//! second boardbot
//! result 0-1
//! moves
//! 3
//! 1
//! ```
//!
//! `game` (required) is the description as `init` takes it; the optional `first`, `second` and
//! `result` name the players and the result; after `moves`, one move a line in move text.

use super::any::{AnyGame, GameRecordText, GameSpec, LoadedRecord, RecordMove, Resources};
use super::registry::GAMES;
use anyhow::{anyhow, bail, Result};

/// A game's result as records write it, the first player's view: `1-0`, `0-1`, `1/2-1/2`, or
/// `*` while it goes on.
pub fn result_text(outcome: Option<crate::game::Outcome>) -> &'static str {
    use crate::game::{Outcome, Side};
    match outcome {
        Some(Outcome::Win(Side::First)) => "1-0",
        Some(Outcome::Win(Side::Second)) => "0-1",
        Some(Outcome::Draw) => "1/2-1/2",
        None => "*",
    }
}

/// The largest record read (the longest games are a few thousand moves).
pub const MAX_RECORD_BYTES: usize = 1 << 20;

/// A game written for download: (file extension, text).
pub fn export(game: &dyn AnyGame, record: &GameRecordText) -> (&'static str, String) {
    let spec = game.spec();
    let noted = record.notes.iter().any(|n| !n.is_empty());
    let format = spec.kind().format.filter(|f| f.notes || !noted);
    if let Some(text) = format.and_then(|f| (f.write)(spec, record).map(|t| (f.extension, t))) {
        return text;
    }
    let mut text = format!("# boardbot game\ngame {spec}\n");
    for (key, value) in [("first", &record.players[0]), ("second", &record.players[1]), ("result", &record.result)] {
        if !value.is_empty() {
            text.push_str(&format!("{key} {}\n", value.replace('\n', " ")));
        }
    }
    text.push_str("moves\n");
    for (i, m) in record.moves.iter().enumerate() {
        text.push_str(&format!("{m}\n"));
        if let Some(note) = record.notes.get(i).filter(|n| !n.is_empty()) {
            text.push_str(&format!("# {}\n", note.replace('\n', " ")));
        }
    }
    ("txt", text)
}

/// Reads boardbot's own format; None if the text is not in it.
fn read_own(text: &str) -> Option<Result<LoadedRecord>> {
    let mut lines =
        text.lines().enumerate().map(|(i, l)| (i + 1, l.trim())).filter(|(_, l)| !l.is_empty() && !l.starts_with('#'));
    let (_, first) = lines.clone().next()?;
    first.strip_prefix("game ")?;
    let mut record = LoadedRecord { game: String::new(), moves: Vec::new(), players: None };
    let mut names = [String::new(), String::new()];
    let mut in_moves = false;
    for (line, l) in lines.by_ref() {
        if in_moves {
            record.moves.push(RecordMove { text: l.to_string(), line, human: false, written: l.to_string() });
            continue;
        }
        let (key, value) = l.split_once(' ').unwrap_or((l, ""));
        match key {
            "game" => record.game = value.trim().to_string(),
            "first" => names[0] = value.trim().to_string(),
            "second" => names[1] = value.trim().to_string(),
            "result" => {}
            "moves" => in_moves = true,
            _ => return Some(Err(anyhow!("line {line}: '{key}' is not game, first, second, result or moves"))),
        }
    }
    if !names.iter().all(String::is_empty) {
        record.players = Some(names);
    }
    Some(Ok(record))
}

/// The formats a record may be in, for an error that reads none of them.
fn formats() -> String {
    let mut names: Vec<String> =
        GAMES.iter().filter_map(|t| t.format.map(|f| format!("{} ({} .{})", f.name, t.title, f.extension))).collect();
    names.push("boardbot's own (a line 'game DESCRIPTION', then 'moves' and one move a line)".into());
    names.join(", ")
}

/// The game of a record's text: its description and its moves in move text, each checked by
/// the rules. Errors name the line and the move; nothing is built from a bad record.
pub fn import(text: &str) -> Result<(GameSpec, Vec<String>)> {
    if text.len() > MAX_RECORD_BYTES {
        bail!("a record of {} bytes: at most {MAX_RECORD_BYTES}", text.len());
    }
    if text.chars().any(|c| c.is_control() && !c.is_whitespace()) {
        bail!("not a game record: the text has control characters (a binary file?)");
    }
    if text.trim().is_empty() {
        bail!("an empty record");
    }
    let read = GAMES
        .iter()
        .filter_map(|t| t.format)
        .find_map(|f| (f.read)(text).map(|r| (f.name, r)))
        .or_else(|| read_own(text).map(|r| ("boardbot", r)));
    let Some((format, record)) = read else { bail!("not a game record in any format read here: {}", formats()) };
    let record = record.map_err(|e| anyhow!("{format}: {e}"))?;
    let spec = GameSpec::parse(&record.game).map_err(|e| anyhow!("{format}: the game '{}': {e}", record.game))?;
    let mut game = spec.new_game(&Resources::none())?;
    let mut moves = Vec::with_capacity(record.moves.len());
    for (k, m) in record.moves.iter().enumerate() {
        let text = match m.human {
            true => game
                .parse_human(&m.text)
                .map_err(|e| anyhow!("{format}: line {}: move {} ({}): {e}", m.line, k + 1, m.written))?,
            false => m.text.clone(),
        };
        game.play(&text).map_err(|e| anyhow!("{format}: line {}: move {} ({}): {e}", m.line, k + 1, m.written))?;
        moves.push(text);
    }
    Ok((spec, moves))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::seq::SliceRandom;
    use rand::SeedableRng;

    /// A game of `description` after `plies` random moves (fewer if it ends).
    fn played(description: &str, plies: usize, seed: u64) -> Box<dyn AnyGame> {
        let mut game = GameSpec::parse(description).unwrap().new_game(&Resources::none()).unwrap();
        let mut rng = SmallRng::seed_from_u64(seed);
        for _ in 0..plies {
            let moves = game.legal_moves();
            if game.outcome().is_some() || moves.is_empty() {
                break;
            }
            game.play(moves.choose(&mut rng).unwrap()).unwrap();
        }
        game
    }

    fn record_of(game: &dyn AnyGame) -> GameRecordText {
        GameRecordText {
            event: "test".into(),
            number: 1,
            players: ["You".into(), "boardbot".into()],
            moves: game.history(),
            result: "*".into(),
            reason: String::new(),
            notes: Vec::new(),
        }
    }

    #[test]
    fn a_download_loads_as_the_same_game_in_every_family() {
        for (description, extension) in [
            ("checkers english", "pdn"),
            ("checkers english fen W:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29", "pdn"),
            ("checkers house", "txt"),
            ("mnk 15 15 5", "psq"),
            ("mnk 20 20 5", "psq"),
            ("mnk 7 7 5", "psq"),
            ("mnk 3 3 3", "txt"),
            ("mnk 6 6 4 blocked 0,0 5,5", "txt"),
            ("cx 6 7 4", "c4"),
            ("cx 5 8 4", "txt"),
            ("kalah 6 4", "txt"),
        ] {
            for (plies, seed) in [(0, 1), (9, 2), (60, 3), (400, 4)] {
                let game = played(description, plies, seed);
                let (ext, text) = export(game.as_ref(), &record_of(game.as_ref()));
                // A Connect-4 game of no moves is no column string: boardbot's own format.
                let empty_c4 = plies == 0 && extension == "c4";
                assert_eq!(ext, if empty_c4 { "txt" } else { extension }, "{description}");
                let (spec, moves) = import(&text).unwrap_or_else(|e| panic!("{description} {plies}: {e}\n{text}"));
                assert_eq!(
                    (spec.to_string(), moves),
                    (game.spec().to_string(), game.history()),
                    "{description}\n{text}"
                );
            }
        }
    }

    #[test]
    fn pdn_of_other_programs_loads() {
        // As other programs write: CRLF lines, a GameType with the board's details, numbers
        // glued to moves, each capture by its ends with 'x' (22x6 for 22x15x6), comments over
        // lines, NAGs and annotations, a result in draughts' form.
        for seed in 0..20 {
            let game = played("checkers english", 90, seed);
            let mut text =
                "[Event \"friendly\"]\r\n[Black \"A\"]\r\n[White \"B\"]\r\n[GameType \"21,B,8,8,N2,0\"]\r\n\r\n"
                    .to_string();
            for (ply, mv) in game.history().iter().enumerate() {
                let squares: Vec<&str> = mv.split(['x', '-']).collect();
                let written = match mv.contains('x') {
                    true => format!("{}x{}", squares[0], squares[squares.len() - 1]),
                    false => mv.clone(),
                };
                match ply % 4 {
                    0 => text.push_str(&format!("{}.{written} ", ply / 2 + 1)),
                    1 => text.push_str(&format!("{written}! {{a comment\r\nover two lines}} ")),
                    2 => text.push_str(&format!("{}. {written} $1\r\n", ply / 2 + 1)),
                    _ => text.push_str(&format!("{written}?! ")),
                }
            }
            text.push_str("0-2\r\n");
            let (spec, moves) = import(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!((spec.to_string(), moves), ("checkers english".to_string(), game.history()), "{text}");
        }
        // A file of several games: the first.
        let two = "[Event \"1\"]\n1. 11-15 *\n\n[Event \"2\"]\n1. 9-13 *\n";
        assert_eq!(import(two).unwrap().1, ["11-15"]);
    }

    /// Fifty records that are no game, or not a legal one: each refused with a message naming
    /// what is wrong (the line, the move), nothing built.
    #[test]
    fn bad_records_are_refused_with_the_line_and_move() {
        let good_pdn = "[GameType \"21\"]\n1. 11-15 23-19 2. 8-11 22-17 *\n";
        let mut bad: Vec<(String, &str)> = vec![
            ("".into(), "empty"),
            ("   \n\n".into(), "empty"),
            ("\u{0}\u{1}\u{2}binary".into(), "control"),
            ("hello world".into(), "not a game record"),
            ("[GameType \"21\"]\n1. 11-15 23-19 2. 8-11 22-16 *\n".into(), "line 2: move 4 (22-16)"),
            ("[GameType \"21\"]\n1. 11-18 *\n".into(), "move 1 (11-18)"),
            ("[GameType \"20\"]\n1. 32-28 *\n".into(), "not English checkers"),
            ("[GameType \"21\"]\n[FEN \"B:W99:B1\"]\n1. 1-5 *\n".into(), "FEN"),
            ("[GameType \"21\"]\n1. 11-15 {open\n".into(), "comment"),
            ("[GameType \"21\"\n".into(), "tag"),
            ("[GameType \"21\"]\n1. e3-d4 *\n".into(), "'e3-d4'"),
            ("[GameType \"21\"]\n1. 11-15 23-19 2. 15-24 *\n".into(), "move 3"),
            ("Piskvorky 15x15, 11:11, 0\n8,8,0\n8,8,0\n-1\n".into(), "line 3: move 2"),
            ("Piskvorky 15x15, 11:11, 0\n16,8,0\n-1\n".into(), "off the 15x15 board"),
            ("Piskvorky 15x15, 11:11, 0\n0,8,0\n".into(), "off the"),
            ("Piskvorky axb, 11:11, 0\n".into(), "board size"),
            ("Piskvorky 2x2, 1:1, 0\n".into(), "5 to 100"),
            ("Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0\n8,8,0\n".into(), "line 4: move 3 (8,8,0)"),
            ("4444444".into(), "move 7"),
            ("48".into(), "move 2 (8)"),
            ("40".into(), "move 2 (0)"),
            ("game kalah 6 4\nmoves\n7\n".into(), "line 3: move 1 (7)"),
            ("game kalah 6 4\nmoves\n3\n3\n".into(), "move 2"),
            ("game mnk 3 3 3\nmoves\n1 1\n1 1\n".into(), "move 2 (1 1)"),
            ("game mnk 3 3 3\nmoves\n0 0\n1 1\n0 1\n2 2\n0 2\n2 0\n".into(), "move 6"),
            ("game nonsense 1 2\nmoves\n".into(), "the game 'nonsense 1 2'"),
            ("game mnk 0 0 0\n".into(), "the game"),
            ("game cx 6 7 4\ncolour red\n".into(), "'colour'"),
            ("game checkers english\nmoves\n11-14\n".into(), "move 1 (11-14)"),
            ("game checkers english\nmoves\n1 2\n".into(), "move 1"),
            ("x".repeat(MAX_RECORD_BYTES + 1), "at most"),
        ];
        // Cut files: every record above cut short, and good ones cut mid-move.
        for cut in [good_pdn.len() - 9, good_pdn.len() - 12] {
            bad.push((format!("{}12-", &good_pdn[..cut]), "is not a move"));
        }
        for junk in ["1. 11-15 23-19 2. 8-11 22-17 3. 99-88 *", "1. 11x15 *", "1. 9-13 22-18 2. 13x22 *"] {
            bad.push((format!("[GameType \"21\"]\n{junk}\n"), "line 2"));
        }
        for n in 1..=16u32 {
            // Connect-4 strings filling a column past its top: the seventh disc in one column.
            let col = char::from_digit(1 + n % 7, 10).unwrap();
            let other = char::from_digit(1 + (n + 3) % 7, 10).unwrap();
            bad.push((format!("{0}{1}{0}{1}{0}{1}{0}", col, other).repeat(1) + &col.to_string().repeat(6), "move"));
        }
        assert!(bad.len() >= 50, "{} bad records", bad.len());
        for (text, words) in &bad {
            let e = import(text).map(|(s, m)| format!("{s} {m:?}")).unwrap_err().to_string();
            assert!(e.contains(words), "{:?}: {e}", text.chars().take(80).collect::<String>());
        }
        assert!(import(good_pdn).is_ok());
    }
}
