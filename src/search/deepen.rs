//! Phase 2 of the search: iterative deepening over the root's moves (given by the root policy,
//! root.rs), each iteration in an aspiration window, the root's moves searched by the node
//! search.

use super::node::{Node, Window};
use super::picker::MovePicker;
use super::searcher::{score_text, Run, SearchInfo, SearchResult, Source, Value, INF};
use super::tt::NO_MOVE;
use super::{Game, RootKnowledge, Score, MAX_PLY, WIN_BOUND};

impl<G: Game, K: RootKnowledge<G>> Run<'_, G, K> {
    /// Phase 2: iterative deepening over `moves` (best first, reordered as it goes), after
    /// `best` (the result so far: a first pass's, whose iterations are kept), until a result is
    /// proved, the soft deadline or the node limit passes, or the search is stopped.
    /// `exhaustive`: the root's list is every move that matters (a result may be a proof).
    /// `lost`: the root policy knows the position is lost (the exact solver proved it): the
    /// iterations end once the search sees the loss too (a score of a loss), as they end at a
    /// proof, since deeper ones would only reorder moves that all lose.
    pub(super) fn deepen(
        &mut self,
        game: &mut G,
        moves: &mut [G::Move],
        exhaustive: bool,
        lost: bool,
        mut best: SearchResult<G::Move>,
    ) -> SearchResult<G::Move> {
        let first_depth = 1 + (self.thread as u32 % 2);
        let mut prev_score: Option<Score> = None;
        for depth in first_depth..=self.limits.max_depth.min(MAX_PLY as u32 - 1).max(first_depth) {
            let (value, mv, alpha) = self.aspiration(game, moves, depth, prev_score);
            let score = value.score;
            if self.stopped {
                // The moves the stopped iteration finished: in the first, the best of them;
                // later, a move that beat the previous best (searched first) inside the
                // window, a deeper verdict than the last finished iteration's.
                let beaten = best.depth > 0 && mv != moves[0] && score > alpha;
                if (best.depth == 0 && score > -INF) || beaten {
                    best.best = mv;
                    best.pv = vec![mv];
                }
                break;
            }
            // Best move first in the next iteration.
            if let Some(i) = moves.iter().position(|&m| m == mv) {
                moves[..=i].rotate_right(1);
            }
            let proved = exhaustive && value.proof;
            best = self.iteration_done(game, best.iterations, depth, score, mv, proved);
            prev_score = Some(score);
            if proved
                || (lost && score <= -WIN_BOUND)
                || self.soft.is_some_and(|s| self.limits.elapsed() >= s)
                || self.limits.max_nodes.is_some_and(|n| self.nodes >= n)
            {
                break;
            }
        }
        best
    }

    /// The result of a finished iteration (after the earlier ones, `iterations`), logged by the
    /// main thread.
    fn iteration_done(
        &mut self,
        game: &mut G,
        mut iterations: Vec<SearchInfo>,
        depth: u32,
        score: Score,
        mv: G::Move,
        proved: bool,
    ) -> SearchResult<G::Move> {
        iterations.push(SearchInfo { depth, score, nodes: self.nodes, elapsed: self.limits.elapsed() });
        let best = SearchResult {
            best: mv,
            score,
            depth,
            nodes: self.nodes,
            elapsed: self.limits.elapsed(),
            proved,
            pv: self.principal_variation(game, mv),
            iterations,
            source: Source::Search,
        };
        if self.thread == 0 {
            log::info!(
                "depth {depth} score {} nodes {} nps {} time {:.3}s{} pv {}",
                score_text(score),
                self.nodes,
                (self.nodes as f64 / best.elapsed.as_secs_f64().max(1e-6)) as u64,
                best.elapsed.as_secs_f64(),
                if proved { " proved" } else { "" },
                best.pv.iter().map(|&m| game.format_move(m)).collect::<Vec<_>>().join(", ")
            );
        }
        best
    }

    /// One iteration of phase 2 at `depth`: the root searched in an aspiration window around the
    /// last iteration's score (from depth 4 on, away from proofs), widened fourfold on each
    /// side that fails. The value (its proof status: the last search's, in the window that held
    /// the score), the best move and the window's alpha at the end.
    pub(super) fn aspiration(
        &mut self,
        game: &mut G,
        moves: &mut [G::Move],
        depth: u32,
        prev_score: Option<Score>,
    ) -> (Value, G::Move, Score) {
        let (mut alpha, mut beta) = (-INF, INF);
        let mut delta = 0;
        if let Some(p) = prev_score.filter(|p| depth >= 4 && p.abs() < WIN_BOUND) {
            delta = 24 + p.abs() / 16;
            alpha = p - delta;
            beta = p + delta;
        }
        loop {
            let (value, mv) = self.root(game, moves, depth as i32, alpha, beta);
            let score = value.score;
            if self.stopped {
                return (value, mv, alpha);
            }
            if score <= alpha && alpha > -INF {
                alpha = (alpha - delta).max(-INF);
                delta *= 4;
            } else if score >= beta && beta < INF {
                beta = (beta + delta).min(INF);
                delta *= 4;
            } else {
                return (value, mv, alpha);
            }
        }
    }

    /// One root iteration over `moves` (ordered), by the node's move loop (no move reduced or
    /// pruned at the root); returns the value and the best move.
    fn root(&mut self, game: &mut G, moves: &[G::Move], depth: i32, alpha: Score, beta: Score) -> (Value, G::Move) {
        let node = Node { depth, ply: 0, pv: true, me: game.to_move(), quiet: true, tt_move: NO_MOVE };
        let window = Window { alpha, beta, lo: -INF, hi: INF };
        let mut picker = MovePicker::root(moves, std::mem::take(&mut self.stack[0].moves));
        let found = self.search_moves(game, &node, window, false, &mut picker);
        self.stack[0].moves = picker.into_list();
        (Value::on(found.best, found.basis), found.best_mv.unwrap_or(moves[0]))
    }
}
