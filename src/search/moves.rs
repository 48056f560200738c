//! A node's moves (step 6 of [`Run::negamax`]), and the root's: one loop over what the move
//! picker (picker.rs) hands out, with principal-variation windows, late-move reductions and
//! pruning (none of which touches the root's moves), and the killers and history on a cutoff.

use super::node::{Node, Window};
use super::picker::{ordering_key, MovePicker, Picked, Stage, Step};
use super::searcher::{Basis, Run, INF};
use super::tt::NO_MOVE;
use super::{Candidate, Game, RootKnowledge, Score, WIN_BOUND};

/// What a node's move loop has found so far, and what its moves are searched with.
pub(super) struct MoveLoop<M> {
    /// The best score (-INF while no move was searched to the end), its move and key.
    pub(super) best: Score,
    pub(super) best_mv: Option<M>,
    pub(super) best_key: u32,
    /// What the score rests on.
    pub(super) basis: Basis,
    alpha: Score,
    beta: Score,
    /// The depth the moves are searched to: one less than the node's, or the node's for a
    /// forced move (set once the list is generated).
    next_depth: i32,
    /// Late-move pruning: the list's moves past this many are not searched once one does not
    /// lose.
    count: usize,
    /// The list is every move that matters.
    exhaustive: bool,
}

impl<G: Game, K: RootKnowledge<G>> Run<'_, G, K> {
    /// Step 6 (and the root's moves, at ply 0): the moves `picker` hands out, each searched
    /// with a principal-variation window and, where the game allows, reduced or pruned, until
    /// one fails high; the node is `futile` (only moves the game calls tactical are searched
    /// after the first).
    pub(super) fn search_moves(
        &mut self,
        game: &mut G,
        node: &Node,
        window: Window,
        futile: bool,
        picker: &mut MovePicker<G::Move>,
    ) -> MoveLoop<G::Move> {
        let Node { depth, ply, tt_move, .. } = *node;
        let sel = self.sel;
        let mut s = MoveLoop {
            best: -INF,
            best_mv: None,
            best_key: NO_MOVE,
            basis: Basis::new(),
            alpha: window.alpha,
            beta: window.beta,
            next_depth: depth - 1,
            count: usize::MAX,
            exhaustive: true,
        };
        self.stack[ply].quiets_tried.clear();
        loop {
            if picker.step == Step::Generate {
                if s.best >= s.beta || self.stopped {
                    break;
                }
                self.generate(game, node, &window, picker, &mut s);
            }
            if picker.step == Step::List && picker.list_handed_out() >= s.count && s.best > -WIN_BOUND {
                s.basis.guess();
                break;
            }
            let know = self.know;
            let Some(p) = picker.next(know, game, || s.basis.guess()) else {
                if picker.step == Step::Generate {
                    continue;
                }
                break;
            };
            // The game's own selectivity leaves its tactical moves alone.
            let tame = p.quiet && (sel.reduction.is_none() && !futile || !self.know.tactical(game, p.mv));
            if futile && p.number > 0 && tame && s.best > -WIN_BOUND {
                s.basis.guess();
                continue;
            }
            if sel.history_malus && p.quiet && p.key != tt_move {
                self.stack[ply].quiets_tried.push(p.key);
            }
            let score = self.search_move(game, node, &p, &mut s, tame);
            if self.stopped {
                break;
            }
            if self.improve(node, &p, score, &mut s) {
                break;
            }
        }
        s
    }

    /// The list of a node's moves, after the table's move: the game's candidates (no proof if
    /// they are not every move that matters), past the horizon only those the game searches there
    /// (the side to move may then stand pat on the evaluation), each with its ordering key by
    /// its stage.
    fn generate(
        &mut self,
        game: &mut G,
        node: &Node,
        window: &Window,
        picker: &mut MovePicker<G::Move>,
        s: &mut MoveLoop<G::Move>,
    ) {
        let Node { depth, ply, pv, quiet, tt_move, .. } = *node;
        let table_searched = picker.table_searched();
        let list = &mut picker.list;
        list.clear();
        s.exhaustive = self.know.candidates(game, list);
        if !s.exhaustive {
            s.basis.guess();
        }
        if table_searched {
            list.retain(|c| game.move_key(c.mv) != tt_move);
        }
        let excluded = self.stack[ply].excluded;
        if excluded != NO_MOVE {
            list.retain(|c| game.move_key(c.mv) != excluded);
        }
        if depth <= 0 {
            self.past_horizon(game, window, list, s);
        }
        self.order(game, node, list);
        let sel = self.sel;
        // A forced move does not use up depth.
        let moves = list.len() + table_searched as usize;
        s.next_depth = if moves == 1 || (sel.extend_unquiet && !quiet) { depth } else { depth - 1 };
        // Late-move pruning: where the list is a heuristic selection anyway (no proof possible),
        // a non-PV node near the horizon searches only its best-ordered moves, once one of them
        // does not lose (pruned moves must not make a lost score: a false mate).
        // A game may allow it in its exhaustive lists too (see `Selectivity::pruning_depth`).
        let prune_late = !pv && if s.exhaustive { quiet && depth <= sel.pruning_depth } else { depth <= 4 };
        if prune_late && lmp_count(depth) < list.len() {
            s.count = lmp_count(depth);
        }
        picker.generated();
    }

    /// Past the horizon (a position not quiet): only the moves of `list` the game searches
    /// there; if it leaves some out, the side to move may stand pat on the evaluation (and the
    /// score is no proof).
    fn past_horizon(&self, game: &G, window: &Window, list: &mut Vec<Candidate<G::Move>>, s: &mut MoveLoop<G::Move>) {
        let all = list.len();
        list.retain(|c| self.know.searched_past_horizon(game, c.mv));
        if list.len() < all {
            s.basis.guess();
            let stand = self.know.evaluate(game).clamp(window.lo, window.hi);
            if stand > s.best {
                s.best = stand;
                s.alpha = s.alpha.max(stand);
            }
            if stand >= s.beta {
                list.clear();
            }
        }
    }

    /// Each move's score replaced by its ordering key: its stage (the table's move, the game's
    /// stages, the killers, the rest) and within it the game's score (plus the history, for
    /// the rest).
    fn order(&self, game: &G, node: &Node, list: &mut [Candidate<G::Move>]) {
        for c in list.iter_mut() {
            let k = game.move_key(c.mv);
            let stage = if k == node.tt_move {
                Stage::TableMove
            } else if let Some(n) = self.know.move_stage(game, c) {
                Stage::Game(n)
            } else if self.stack[node.ply].is_killer(k) {
                Stage::Killers
            } else {
                Stage::Rest
            };
            let history = if stage == Stage::Rest { self.ordering.history(node.me.index(), k) } else { 0 };
            c.score = ordering_key(stage, c.score, history);
        }
    }

    /// One move searched: the first with the full window, the others with a null window
    /// around alpha (reduced if `tame` and late, again unreduced if that fails high, again with
    /// the full window at a PV node if the score falls inside it). Its score from the node's
    /// view.
    fn search_move(
        &mut self,
        game: &mut G,
        node: &Node,
        p: &Picked<G::Move>,
        s: &mut MoveLoop<G::Move>,
        tame: bool,
    ) -> Score {
        let Node { depth, ply, pv, me, .. } = *node;
        let (alpha, beta, next) = (s.alpha, s.beta, s.next_depth);
        let next = next + self.extension(ply, p.key, node.tt_move);
        self.stack[ply].current = p.key;
        game.play(p.mv);
        let score = if p.number == 0 {
            let v = self.child(game, me, next, ply + 1, alpha, beta, pv);
            s.basis.add(v);
            v.score
        } else {
            let i = p.number;
            let r = if depth >= 3 && i >= 3 && tame { self.reduction(depth, i, pv, s.exhaustive) } else { 0 };
            let v = self.child(game, me, next - r, ply + 1, alpha, alpha + 1, false);
            s.basis.add(v);
            let mut score = v.score;
            if r > 0 && score > alpha && !self.stopped {
                let v = self.child(game, me, next, ply + 1, alpha, alpha + 1, false);
                s.basis.add(v);
                score = v.score;
            }
            if pv && score > alpha && score < beta && !self.stopped {
                let v = self.child(game, me, next, ply + 1, alpha, beta, true);
                s.basis.add(v);
                score = v.score;
            }
            score
        };
        game.undo();
        score
    }

    /// A move's `score` taken into the loop: the best so far, alpha raised; true on a cutoff,
    /// where (below the root) a move other than the table's becomes a killer and gains history,
    /// and with the history malus the quiet moves searched before it lose history.
    fn improve(&mut self, node: &Node, p: &Picked<G::Move>, score: Score, s: &mut MoveLoop<G::Move>) -> bool {
        if score <= s.best {
            return false;
        }
        (s.best, s.best_mv, s.best_key) = (score, Some(p.mv), p.key);
        if score <= s.alpha {
            return false;
        }
        s.alpha = score;
        if score < s.beta {
            return false;
        }
        let Node { depth, ply, me, .. } = *node;
        if ply > 0 {
            if p.stage != Stage::TableMove {
                self.stack[ply].add_killer(p.key);
                self.ordering.reward(me.index(), p.key, depth);
            }
            if self.sel.history_malus {
                for &k in &self.stack[ply].quiets_tried {
                    if k != p.key {
                        self.ordering.punish(me.index(), k, depth);
                    }
                }
            }
        }
        true
    }
}

/// How many moves a non-PV node searches at `depth` when its list is not exhaustive.
fn lmp_count(depth: i32) -> usize {
    3 + (depth.max(1) as usize).pow(2)
}
