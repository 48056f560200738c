//! The yardstick of the tests: a tiny exhaustive negamax with memo, written only against the
//! [`Game`] trait (play, undo, stores) and sharing no code with [`super::solver`]. For small
//! boards only: it visits every position reachable from the one given.
//!
//! Values are "remaining margins": what the side to move's store lead (its store minus the
//! opponent's) will gain from now to the end of the game with perfect play by both. A position's
//! remaining margin depends only on the seeds in the pits, seen from the side to move (its row
//! first), so that is the memo's key. The final first-player margin is the current store
//! difference plus the remaining margin, negated when the second player is to move.

use super::{Kalah, KalahMove};
use crate::game::{Game, Side};
use std::collections::HashMap;

/// The memo, valid for one set of rules (pits, capture rule); positions where the pie rule still
/// matters (the first two moves) are never stored.
pub struct Negamax {
    memo: HashMap<Vec<u16>, i32>,
}

impl Default for Negamax {
    fn default() -> Self {
        Self::new()
    }
}

impl Negamax {
    pub fn new() -> Negamax {
        Negamax { memo: HashMap::new() }
    }

    /// Positions in the memo.
    pub fn len(&self) -> usize {
        self.memo.len()
    }
    pub fn is_empty(&self) -> bool {
        self.memo.is_empty()
    }

    /// The remaining margin of `k` for the side to move (0 once over).
    pub fn remaining(&mut self, k: &Kalah) -> i32 {
        let mut k = k.clone();
        self.search(&mut k)
    }

    /// The first player's final margin with perfect play from `k`.
    pub fn first_margin(&mut self, k: &Kalah) -> i32 {
        let r = self.remaining(k);
        k.store_difference() + if k.to_move() == Side::First { r } else { -r }
    }

    /// The remaining margin for the side to move of each legal move of `k`: its store lead's
    /// gain from the move plus the remaining margin after it (negated if the opponent moves).
    pub fn move_values(&mut self, k: &Kalah) -> Vec<(KalahMove, i32)> {
        let mut k = k.clone();
        let mut moves = Vec::new();
        k.legal_moves(&mut moves);
        moves.into_iter().map(|mv| (mv, self.value_of(&mut k, mv))).collect()
    }

    fn search(&mut self, k: &mut Kalah) -> i32 {
        if k.is_over() {
            return 0;
        }
        let key = (!k.pie() || k.moves_played() >= 2).then(|| {
            let me = k.to_move();
            let mut key = k.row(me).to_vec();
            key.extend_from_slice(k.row(me.other()));
            key
        });
        if let Some(&v) = key.as_ref().and_then(|key| self.memo.get(key)) {
            return v;
        }
        let mut moves = Vec::new();
        k.legal_moves(&mut moves);
        let best = moves.into_iter().map(|mv| self.value_of(k, mv)).max().expect("a position not over has moves");
        if let Some(key) = key {
            self.memo.insert(key, best);
        }
        best
    }

    fn value_of(&mut self, k: &mut Kalah, mv: KalahMove) -> i32 {
        let me = k.to_move();
        let lead = k.store_lead(me);
        k.play(mv);
        let gained = k.store_lead(me) - lead;
        let rest = self.search(k);
        let v = gained + if k.to_move() == me { rest } else { -rest };
        k.undo();
        v
    }
}
