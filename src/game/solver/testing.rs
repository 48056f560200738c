//! Helpers of the solvers' tests.

use crate::game::Game;

/// Plays up to `plies` random moves on `g` (drawn from the generator state `seed`), stopping
/// before a move that would end the game; returns the moves played.
pub fn random_moves<G: Game>(g: &mut G, plies: usize, seed: &mut u64) -> Vec<G::Move> {
    let mut played = Vec::new();
    while played.len() < plies {
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let mv = moves[(*seed >> 33) as usize % moves.len()];
        g.play(mv);
        if g.outcome().is_some() {
            g.undo();
            break;
        }
        played.push(mv);
    }
    played
}
