//! The courses' reference players of checkers: random, and greedy (a move taking the most
//! pieces, else a random move).

use super::{Checkers, Move};
use rand::seq::SliceRandom;
use rand::RngCore;

/// The greedy player: among the legal moves taking the most pieces (if any move takes one), a
/// random one; otherwise any random move. None once the game is over.
pub fn greedy_move(g: &Checkers, mut rng: &mut dyn RngCore) -> Option<Move> {
    let mut moves = Vec::new();
    crate::game::Game::legal_moves(g, &mut moves);
    let most = moves.iter().map(|m| m.jumps).max()?;
    let best: Vec<Move> = moves.into_iter().filter(|m| m.jumps == most).collect();
    best.choose(&mut rng).copied()
}
