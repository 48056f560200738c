//! A Connect-4 game as a column string, as Pascal Pons' solver and site write it: the columns
//! played from the empty board, one digit each from 1 (`4453`). Only the 6 x 7 board, four in a
//! row (a string does not say the board).

use crate::game::any::{GameRecordText, GameSpec, LoadedRecord, RecordFormat, RecordMove};
use anyhow::Result;

pub static FORMAT: RecordFormat = RecordFormat { name: "column string", extension: "c4", write, read, notes: false };

fn write(spec: &GameSpec, game: &GameRecordText) -> Option<String> {
    if spec.words() != ["6", "7", "4"] || game.moves.is_empty() {
        return None;
    }
    let digits: Option<String> =
        game.moves.iter().map(|m| m.parse::<u32>().ok().and_then(|c| char::from_digit(c + 1, 10))).collect();
    Some(format!("{}\n", digits?))
}

fn read(text: &str) -> Option<Result<LoadedRecord>> {
    let t = text.trim();
    if t.is_empty() || !t.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let moves = t
        .chars()
        .map(|c| RecordMove {
            text: c.to_digit(10).map_or(c.to_string(), |d| d.wrapping_sub(1).to_string()),
            line: 1,
            human: false,
            written: c.to_string(),
        })
        .collect();
    Some(Ok(LoadedRecord { game: "cx 6 7 4".into(), moves, players: None }))
}
