//! A position as the tuner (`boardbot tune`, src/tune.rs) sees it: its static evaluation for
//! any weights of the game's evaluation ([`TunedPosition`]), at the position itself or at the
//! quiet end of its forcing line ([`Leaf`]). The contract: the evaluation is from the first
//! player's view, and a position is handed out only where it is quiet (no forcing move the
//! knowledge would search past the horizon), as the search's leaves are.

use crate::search::{Game, Knowledge, Outcome, RootKnowledge, Score, Side, Weights, WIN_BOUND};
use std::sync::Arc;

/// A position as a tuner sees it: its static evaluation, from the first player's view, for any
/// weights of the game's evaluation.
pub trait TunedPosition: Send {
    fn evaluate(&self, weights: &Weights) -> Score;
    /// The evaluation's features from the first player's view, where it is linear (see
    /// [`RootKnowledge::features`]).
    fn features(&self) -> Option<Vec<(u32, f32)>>;
}

/// A position as a policy's tuner sees it: the features of each candidate the policy orders
/// (indices of the policy's weights), and which candidate was played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PolicySample {
    pub features: Vec<Vec<u32>>,
    pub chosen: usize,
}

/// Which evaluation of a position a tuner fits.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Leaf {
    /// The static evaluation, of a position whose side to move is quiet (none otherwise).
    Static,
    /// The static evaluation at the end of the line of forcing moves (captures) a quiescence
    /// search expects, found with the game's own weights.
    Quiescence,
}

/// Plies of forcing moves [`quiet_leaf`] looks through at most.
pub(super) const LEAF_PLIES: u32 = 16;

/// A negamax of the forcing moves from `g` (those the knowledge searches past the horizon,
/// where the side to move is not quiet; standing pat where some legal move is not one of them),
/// as a quiescence search sees it: the score from the side to move's view and the quiet position
/// at the end of the expected line (None when the line ends the game). At most `plies` deep.
pub(super) fn quiet_leaf<G: Game, K: Knowledge<G>>(know: &K, g: &mut G, plies: u32) -> (Score, Option<G>) {
    match g.outcome() {
        Some(Outcome::Draw) => return (0, None),
        Some(Outcome::Win(side)) => return (if side == g.to_move() { WIN_BOUND } else { -WIN_BOUND }, None),
        None => {}
    }
    if plies == 0 || know.quiet(g) {
        return (know.evaluate(g), Some(g.clone()));
    }
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let forcing: Vec<G::Move> = moves.iter().copied().filter(|&mv| know.searched_past_horizon(g, mv)).collect();
    let mut best: (Score, Option<G>) =
        if forcing.len() < moves.len() { (know.evaluate(g), Some(g.clone())) } else { (-WIN_BOUND - 1, None) };
    let me = g.to_move();
    for mv in forcing {
        g.play(mv);
        let (score, leaf) = quiet_leaf(know, g, plies - 1);
        let score = if g.to_move() == me { score } else { -score };
        g.undo();
        if score > best.0 {
            best = (score, leaf);
        }
    }
    best
}

/// A position with its knowledge, evaluated from the first player's view.
pub(super) struct Tuned<G, K> {
    pub(super) game: G,
    pub(super) know: Arc<K>,
}

impl<G: Game + Send, K: RootKnowledge<G> + Send> TunedPosition for Tuned<G, K> {
    fn evaluate(&self, weights: &Weights) -> Score {
        let e = self.know.evaluate_with(&self.game, weights);
        match self.game.to_move() {
            Side::First => e,
            Side::Second => -e,
        }
    }

    fn features(&self) -> Option<Vec<(u32, f32)>> {
        let f = self.know.features(&self.game)?;
        Some(match self.game.to_move() {
            Side::First => f,
            Side::Second => f.into_iter().map(|(i, c)| (i, -c)).collect(),
        })
    }
}
