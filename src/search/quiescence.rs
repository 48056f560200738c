//! A quiet node past the horizon: the evaluation, or what the game's forcing moves there get.

use super::searcher::{Basis, Run, Value};
use super::{Game, RootKnowledge, Score};

impl<G: Game, K: RootKnowledge<G>> Run<'_, G, K> {
    /// A quiet node past the horizon: the evaluation, or better, what the game's forcing moves
    /// there (see [`Knowledge::quiescence_moves`]) get, each a ply deeper, at most
    /// [`QUIESCENCE_PLIES`] of them in a row. Never a proof: it rests on the evaluation.
    pub(super) fn quiescence(&mut self, game: &mut G, depth: i32, ply: usize, mut alpha: Score, beta: Score) -> Value {
        let stand = self.know.evaluate(game);
        if stand >= beta || depth <= -QUIESCENCE_PLIES {
            return Value::heuristic(stand);
        }
        let mut basis = Basis::new();
        basis.guess();
        let mut list = std::mem::take(&mut self.stack[ply].moves);
        list.clear();
        self.know.quiescence_moves(game, depth < 0, &mut list);
        list.sort_unstable_by_key(|c| std::cmp::Reverse(c.score));
        let me = game.to_move();
        let mut best = stand;
        alpha = alpha.max(stand);
        for c in &list {
            self.stack[ply].current = game.move_key(c.mv);
            game.play(c.mv);
            let v = self.child(game, me, depth - 1, ply + 1, alpha, beta, false);
            basis.add(v);
            let score = v.score;
            game.undo();
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                alpha = alpha.max(score);
                if score >= beta {
                    break;
                }
            }
        }
        self.stack[ply].moves = list;
        if self.stopped {
            Value::proof(0)
        } else {
            Value::on(best, basis)
        }
    }
}

/// The longest run of forcing moves a quiescence search plays past the horizon.
const QUIESCENCE_PLIES: i32 = 8;
