//! Checkers in the registry: the description `checkers english|house [fen FEN]`, the game built
//! with its knowledge, its perft and its games in PDN (its pictures: [`super::picture`]; its
//! opening book's maker: [`super::book`]).

use super::description::read;
use super::knowledge::CheckersKnowledge as Know;
use super::{fen, Checkers, Rules};
use crate::game::any::{AnyGame, GameRecordText, GameSpec, GameType, Resources};
use crate::game::playing::Playing;
use crate::game::{Game, Side};
use anyhow::Result;

pub use super::knowledge::CheckersKnowledge;

pub static GAME_TYPE: GameType = GameType {
    name: "checkers",
    aliases: &["draughts"],
    size_words: 1,
    usage: "checkers english|house [fen FEN]",
    about: "Checkers on the 32 dark squares, Black moves first (English draughts: checkers english; \
            optional captures that may stop after any jump: checkers house)",
    title: "checkers",
    names: &[("checkers", "checkers english"), ("draughts", "checkers english")],
    examples: &["checkers english", "checkers house"],
    build,
    book: Some(super::book_maker::make_book),
    perft: Some(perft),
    record: Some(pdn),
    ..GameType::DEFAULTS
};

fn build(words: &[&str], resources: &Resources) -> Result<Box<dyn AnyGame>> {
    let game = read(words)?;
    let mut canonical = vec![game.rules().name().to_string()];
    if game.board() != Checkers::new(game.rules()).board() || game.to_move() != Side::First {
        canonical.extend(["fen".to_string(), fen::write(&game)]);
    }
    let spec = GameSpec::new(&GAME_TYPE, canonical);
    let know = Know::new(game.rules(), resources);
    Ok(Box::new(Playing::new(spec, game, know)))
}

/// `boardbot perft`: leaf positions `depth` plies from the description's position.
fn perft(spec: &GameSpec, depth: u32) -> Result<u64> {
    let words: Vec<&str> = spec.words().iter().map(String::as_str).collect();
    Ok(read(&words)?.perft(depth))
}

/// A game in PDN (Portable Draughts Notation): the tags (`GameType "21"`, English draughts;
/// `FEN` when the game did not start from the usual position), then the moves numbered by
/// pairs, Black's first, and the result from Black's (the first player's) view.
fn pdn(spec: &GameSpec, game: &GameRecordText) -> String {
    let words: Vec<&str> = spec.words().iter().map(String::as_str).collect();
    let start = read(&words).unwrap_or_else(|_| Checkers::new(Rules::English));
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
