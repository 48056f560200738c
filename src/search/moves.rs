//! A node's moves (step 6 of [`Run::negamax`]): the table's move, then the candidates best first,
//! with late-move reductions and pruning.

use super::node::{Node, Window};
use super::searcher::{Basis, Run, INF};
use super::tt::NO_MOVE;
use super::{Game, RootKnowledge, Score, WIN_BOUND};

impl<G: Game, K: RootKnowledge<G>> Run<'_, G, K> {
    /// Step 6: the moves, best first, with late-move reductions and pruning: the best score
    /// (-INF if none was searched to the end), its move's key and what the score rests on. Stage 1, in a quiet position:
    /// the table's move before generating any other (when it refutes the position, scoring
    /// every candidate is saved). Stage 2: the candidates, ordered by the table's move, the
    /// killers and the history.
    pub(super) fn search_moves(
        &mut self,
        game: &mut G,
        node: &Node,
        window: Window,
        futile: bool,
    ) -> (Score, u32, Basis) {
        let Node { depth, ply, pv, me, quiet, tt_move } = *node;
        let Window { mut alpha, beta, lo, hi } = window;
        let sel = self.sel;
        let side = me.index();
        let (mut best, mut best_key) = (-INF, NO_MOVE);
        let mut searched = 0;
        let mut basis = Basis::new();

        let tt_mv = if quiet { game.move_for_key(tt_move) } else { None };
        if let Some(mv) = tt_mv {
            self.stack[ply].current = tt_move;
            game.play(mv);
            let v = self.child(game, me, depth - 1, ply + 1, alpha, beta, pv);
            basis.add(v);
            let score = v.score;
            game.undo();
            searched = 1;
            if !self.stopped && score > best {
                best = score;
                best_key = tt_move;
                alpha = alpha.max(score);
            }
        }

        let mut list = std::mem::take(&mut self.stack[ply].moves);
        list.clear();
        self.stack[ply].quiets_tried.clear();
        let mut exhaustive = true;
        if best < beta && !self.stopped {
            exhaustive = self.know.candidates(game, &mut list);
            if !exhaustive {
                basis.guess();
            }
            if tt_mv.is_some() {
                list.retain(|c| game.move_key(c.mv) != tt_move);
            }
            let excluded = self.stack[ply].excluded;
            if excluded != NO_MOVE {
                list.retain(|c| game.move_key(c.mv) != excluded);
            }
            if depth <= 0 {
                // Past the horizon (a position not quiet): only the moves the game searches
                // there; if it leaves some out, the side to move may stand pat on the evaluation.
                let all = list.len();
                list.retain(|c| self.know.searched_past_horizon(game, c.mv));
                if list.len() < all {
                    basis.guess();
                    let stand = self.know.evaluate(game).clamp(lo, hi);
                    if stand > best {
                        best = stand;
                        alpha = alpha.max(stand);
                    }
                    if stand >= beta {
                        list.clear();
                    }
                }
            }
            for c in list.iter_mut() {
                let k = game.move_key(c.mv);
                c.score = if k == tt_move {
                    i64::MAX
                } else if self.stack[ply].is_killer(k) {
                    i64::MAX / 2 + c.score.min(1 << 40)
                } else {
                    c.score + self.ordering.history(side, k)
                };
            }
        }
        // A forced move does not use up depth.
        let next = if list.len() + searched == 1 || (sel.extend_unquiet && !quiet) { depth } else { depth - 1 };
        // Late-move pruning: where the list is a heuristic selection anyway (no proof possible),
        // a non-PV node near the horizon searches only its best-ordered moves, once one of them
        // does not lose (pruned moves must not make a lost score: a false mate).
        // A game may allow it in its exhaustive lists too (see `Selectivity::pruning_depth`).
        let prune_late = !pv && if exhaustive { quiet && depth <= sel.pruning_depth } else { depth <= 4 };
        let count = if prune_late { list.len().min(lmp_count(depth)) } else { list.len() };

        // The moves best first: the first few picked one by one when their turn comes (most
        // cutoffs come that early, and spare sorting the rest), then the rest sorted.
        for j in 0..list.len() {
            if j >= count && best > -WIN_BOUND {
                basis.guess();
                break;
            }
            if j < PICKED_ONE_BY_ONE {
                let pick = (j + 1..list.len()).fold(j, |b, x| if list[x].score > list[b].score { x } else { b });
                list.swap(j, pick);
            } else if j == PICKED_ONE_BY_ONE {
                list[j..].sort_unstable_by_key(|c| std::cmp::Reverse(c.score));
            }
            let c = &list[j];
            let i = j + searched;
            let key_mv = game.move_key(c.mv);
            let quiet_move = c.score < i64::MAX / 2;
            // The game's own selectivity leaves its tactical moves alone.
            let tame = quiet_move && (sel.reduction.is_none() && !futile || !self.know.tactical(game, c.mv));
            if futile && i > 0 && tame && best > -WIN_BOUND {
                basis.guess();
                continue;
            }
            if sel.history_malus && quiet_move && !game.move_key(c.mv).eq(&tt_move) {
                self.stack[ply].quiets_tried.push(key_mv);
            }
            self.stack[ply].current = key_mv;
            game.play(c.mv);
            let score = if i == 0 {
                let v = self.child(game, me, next, ply + 1, alpha, beta, pv);
                basis.add(v);
                v.score
            } else {
                let r = if depth >= 3 && i >= 3 && tame { self.reduction(depth, i, pv, exhaustive) } else { 0 };
                let v = self.child(game, me, next - r, ply + 1, alpha, alpha + 1, false);
                basis.add(v);
                let mut s = v.score;
                if r > 0 && s > alpha && !self.stopped {
                    let v = self.child(game, me, next, ply + 1, alpha, alpha + 1, false);
                    basis.add(v);
                    s = v.score;
                }
                if pv && s > alpha && s < beta && !self.stopped {
                    let v = self.child(game, me, next, ply + 1, alpha, beta, true);
                    basis.add(v);
                    s = v.score;
                }
                s
            };
            game.undo();
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                best_key = key_mv;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        if quiet_move || key_mv != tt_move {
                            self.stack[ply].add_killer(key_mv);
                            self.ordering.reward(side, key_mv, depth);
                        }
                        if sel.history_malus {
                            for &k in &self.stack[ply].quiets_tried {
                                if k != key_mv {
                                    self.ordering.punish(side, k, depth);
                                }
                            }
                        }
                        break;
                    }
                }
            }
        }
        self.stack[ply].moves = list;
        (best, best_key, basis)
    }
}

/// How many of a node's moves are picked one by one before the rest are sorted.
const PICKED_ONE_BY_ONE: usize = 4;

/// How many moves a non-PV node searches at `depth` when its list is not exhaustive.
fn lmp_count(depth: i32) -> usize {
    3 + (depth.max(1) as usize).pow(2)
}
