//! Checkers in the registry: the description `checkers english|house [fen FEN]`, the game built
//! with its knowledge, its perft and its games in PDN (its pictures: [`super::picture`]; its
//! opening book's maker: [`super::book`]).

use super::description::read;
use super::knowledge::CheckersKnowledge as Know;
use super::{fen, Checkers};
use crate::game::any::{AnyGame, GameSpec, GameType, Resources};
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
    record: Some(super::pdn::write),
    format: Some(&super::pdn::FORMAT),
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
