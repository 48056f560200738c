//! The built-in reference players of the courses: random, and L1 (take an immediate win; else a
//! random move that does not hand the opponent an immediate win; else any random move).

use crate::search::Searchable;
use rand::seq::SliceRandom;
use rand::Rng;

pub fn random_move<G: Searchable, R: Rng>(game: &G, rng: &mut R) -> Option<G::Move> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves.choose(rng).copied()
}

pub fn l1_move<G: Searchable, R: Rng>(game: &mut G, rng: &mut R) -> Option<G::Move> {
    if let Some(mv) = game.winning_move() {
        return Some(mv);
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let safe = safe_moves(game, &moves);
    safe.choose(rng).or(moves.choose(rng)).copied()
}

/// The moves among `moves` that do not hand the opponent an immediate win (L1's choices when it
/// cannot win at once; if none, it picks among all moves).
pub fn safe_moves<G: Searchable>(game: &mut G, moves: &[G::Move]) -> Vec<G::Move> {
    let me = game.to_move();
    moves
        .iter()
        .copied()
        .filter(|&mv| {
            game.play(mv);
            let gives_win = game.outcome().is_none() && game.to_move() != me && game.winning_move().is_some();
            game.undo();
            !gives_win
        })
        .collect()
}
