//! One node of the search: the steps of [`Run::negamax`] before and after its moves (the clock,
//! a settled position, the window, what is known without searching, the table, pruning, the
//! store). The moves themselves are searched in moves.rs, a quiet leaf past the horizon in
//! quiescence.rs.

use super::frame::NULL_MOVE;
use super::picker::MovePicker;
use super::searcher::{Run, Value, INF};
use super::tt::{Bound, NO_MOVE, PROVEN};
use super::{Game, Outcome, RootKnowledge, Score, Side, MAX_PLY, WIN, WIN_BOUND};
use std::ops::ControlFlow::{self, Break, Continue};

/// A node's window (alpha, beta), narrowed to the scores still possible there (lo, hi: the
/// mate distances, and 0 for a side that cannot win): lo <= alpha < beta <= hi.
#[derive(Clone, Copy)]
pub(super) struct Window {
    pub(super) alpha: Score,
    pub(super) beta: Score,
    pub(super) lo: Score,
    pub(super) hi: Score,
}

/// What a node's steps share: the depth left, the ply from the root, whether it is on the
/// principal variation, the side to move, whether it is quiet, and the table's move.
#[derive(Clone, Copy)]
pub(super) struct Node {
    pub(super) depth: i32,
    pub(super) ply: usize,
    pub(super) pv: bool,
    pub(super) me: Side,
    pub(super) quiet: bool,
    pub(super) tt_move: u32,
}

impl<G: Game, K: RootKnowledge<G>> Run<'_, G, K> {
    /// One node of the principal variation search, in named steps in the order they run (as
    /// Stockfish's search reads):
    /// 1. the clock ([`Run::out_of_time`], the one place a node looks at it);
    /// 2. a position settled at once: the game over, drawn by its history, won by one move, the
    ///    ply cap ([`Run::settled`]);
    /// 3. the window narrowed to the scores still possible ([`Run::window`]);
    /// 4. what is known without searching the moves: the game's known value, a quiet leaf
    ///    ([`Run::known`]), the table ([`Run::probe`]);
    /// 5. pruning before any move: reverse futility, futility, the null move ([`Run::prune`]);
    /// 6. the moves, in the stages of the move picker (the table's move first), with reductions
    ///    ([`Run::search_moves`]);
    /// 7. the store ([`Run::store`]).
    ///
    /// Each step either hands on what the next needs (`Continue`) or ends the node with its
    /// value (`Break`): the value says whether its score is a proof.
    ///
    /// Invariants: the window is not empty (alpha < beta) and within +-INF; a zero window at a
    /// node gives a bound, never an exact score; what is stored has a bound that says how the
    /// score stands to the window searched, and a depth in 0..PROVEN, or PROVEN for a proof.
    /// `depth` is the depth left: below 1 the node is past the horizon (only moves the game
    /// searches there, or a quiet leaf), and it may go below 0 there.
    pub(super) fn negamax(
        &mut self,
        game: &mut G,
        depth: i32,
        ply: usize,
        alpha: Score,
        beta: Score,
        pv: bool,
    ) -> Value {
        debug_assert!(alpha < beta, "an empty window ({alpha}, {beta})");
        debug_assert!(-INF <= alpha && beta <= INF, "a window past the scores ({alpha}, {beta})");
        match self.node(game, depth, ply, alpha, beta, pv) {
            Break(v) | Continue(v) => v,
        }
    }

    /// The steps of [`Run::negamax`].
    fn node(
        &mut self,
        game: &mut G,
        depth: i32,
        ply: usize,
        alpha: Score,
        beta: Score,
        pv: bool,
    ) -> ControlFlow<Value, Value> {
        self.nodes += 1;
        self.stack[ply].enter();
        if self.out_of_time() {
            return Break(Value::proof(0));
        }
        self.settled(game, ply)?;
        let window = self.window(game, ply, alpha, beta)?;
        let quiet = self.known(game, depth, ply, &window)?;
        let key = self.node_key(game, ply);
        let tt_move = self.probe(key, depth, ply, pv, &window)?;
        let node = Node { depth, ply, pv, me: game.to_move(), quiet, tt_move };
        let futile = self.prune(game, &node, &window)?;
        self.singular(game, &node, &window, key)?;
        let table = if quiet { game.move_for_key(tt_move).map(|mv| (mv, tt_move)) } else { None };
        let mut picker = MovePicker::node(table, std::mem::take(&mut self.stack[ply].moves));
        let found = self.search_moves(game, &node, window, futile, &mut picker);
        self.stack[ply].moves = picker.into_list();
        if self.stopped {
            return Break(Value::proof(0));
        }
        let best = found.best.clamp(window.lo, window.hi);
        if !found.basis.path_draw {
            self.store(key, &node, &window, best, found.best_key, found.basis.proof);
        }
        Continue(Value::on(best, found.basis))
    }

    /// Step 2: the score of a position settled without a search: the game over, drawn by its
    /// history, won at once by the side to move, or at the ply cap (the evaluation).
    fn settled(&mut self, game: &G, ply: usize) -> ControlFlow<Value> {
        if game.drawn_by_history() {
            return Break(Value { score: 0, proof: false, path_draw: true });
        }
        match game.outcome() {
            Some(Outcome::Draw) => return Break(Value::proof(0)),
            Some(Outcome::Win(side)) => {
                let s = WIN - ply as Score;
                return Break(Value::proof(if side == game.to_move() { s } else { -s }));
            }
            None => {}
        }
        if self.know.winning_move(game).is_some() {
            return Break(Value::proof(WIN - ply as Score - 1));
        }
        if ply >= MAX_PLY - 1 {
            return Break(Value::heuristic(self.know.evaluate(game)));
        }
        Continue(())
    }

    /// Step 3: the window (alpha, beta) narrowed to the scores still possible: the mate
    /// distance, and what the game knows (a side that cannot win scores at most 0). Break: the
    /// node's value (a proof), where nothing in the window is possible.
    fn window(&self, game: &G, ply: usize, alpha: Score, beta: Score) -> ControlFlow<Value, Window> {
        let me = game.to_move();
        let lo = if self.know.can_win(game, me.other()) { -(WIN - ply as Score) } else { 0 };
        let hi = if self.know.can_win(game, me) { WIN - ply as Score - 1 } else { 0 };
        if lo >= beta {
            return Break(Value::proof(lo));
        }
        if hi <= alpha {
            return Break(Value::proof(hi));
        }
        let (alpha, beta) = (alpha.max(lo), beta.min(hi));
        if alpha >= beta {
            return Break(Value::proof(alpha));
        }
        debug_assert!(lo <= alpha && beta <= hi);
        Continue(Window { alpha, beta, lo, hi })
    }

    /// Step 4a: what the game knows of the position without a search (a value from an endgame
    /// database), a win the evaluation does not see at a quiet node (past the horizon, or at
    /// every depth where the game asks: [`Selectivity::quiet_wins_inside`]), and a quiet node
    /// past the horizon (the quiescence search). Continue: whether the side to move is quiet,
    /// the node to be searched.
    fn known(&mut self, game: &mut G, depth: i32, ply: usize, window: &Window) -> ControlFlow<Value, bool> {
        if let Some(v) = self.know.known_value(game) {
            return Break(Value::heuristic(v.clamp(window.lo, window.hi)));
        }
        let quiet = self.know.quiet(game);
        if quiet && (depth <= 0 || self.sel.quiet_wins_inside) {
            if let Some(plies) = self.know.quiet_win(game) {
                return Break(Value::proof(WIN - ply as Score - plies as Score));
            }
        }
        if depth <= 0 && quiet {
            if let Some(plies) = self.know.horizon_win(game) {
                return Break(Value::proof(WIN - ply as Score - plies as Score));
            }
            return Break(self.quiescence(game, depth, ply, window.alpha, window.beta));
        }
        Continue(quiet)
    }

    /// Step 4b: the table. Break: the score stored for the position, where it settles the window
    /// (a proof always; a heuristic score deep enough, and never at a PV node); Continue: the
    /// table's move for the position ([`NO_MOVE`] if none).
    fn probe(&mut self, key: u64, depth: i32, ply: usize, pv: bool, window: &Window) -> ControlFlow<Value, u32> {
        let Some(e) = self.tt.probe(key) else { return Continue(NO_MOVE) };
        if e.depth == PROVEN || (!pv && e.depth as i32 >= depth) {
            let s = e.score(ply);
            let usable = match e.bound {
                Bound::Exact => true,
                Bound::Lower => s >= window.beta,
                Bound::Upper => s <= window.alpha,
            };
            if usable {
                return Break(Value { score: s, proof: e.depth == PROVEN, path_draw: false });
            }
        }
        Continue(e.mv)
    }

    /// Step 5: pruning before any move, where the game allows it ([`Selectivity`]). Near the
    /// horizon at a quiet non-PV node, the static evaluation may settle the node (reverse
    /// futility) or rule out the quiet moves (futility: Continue(true)). Null move: if passing
    /// still fails high on a shallower search, so would a move (verified by a shallower normal
    /// search where the game asks, for zugzwang). Break: the node's value (no proof).
    fn prune(&mut self, game: &mut G, node: &Node, window: &Window) -> ControlFlow<Value, bool> {
        let Node { depth, ply, pv, me, quiet, .. } = *node;
        let (alpha, beta) = (window.alpha, window.beta);
        let mut futile = false;
        let sel = self.sel;
        let inside = alpha > -WIN_BOUND && beta < WIN_BOUND;
        if !pv && quiet && depth <= 3 && inside && (sel.static_margin.is_some() || sel.futility_margin.is_some()) {
            let stand = self.static_eval(game, ply);
            if sel.static_margin.is_some_and(|m| stand - m * depth >= beta) {
                return Break(Value::heuristic(stand));
            }
            futile = sel.futility_margin.is_some_and(|m| stand + m * depth <= alpha);
        }
        if sel.null_reduction > 0 && !pv && quiet && depth >= 2 && inside && self.stack[ply - 1].current != NULL_MOVE {
            if let Some(pass) = self.know.null_move(game) {
                if self.static_eval(game, ply) >= beta {
                    let r = sel.null_reduction + depth / 6;
                    self.stack[ply].current = NULL_MOVE;
                    game.play(pass);
                    let null = self.child(game, me, depth - 1 - r, ply + 1, beta - 1, beta, false);
                    game.undo();
                    let (mut s, mut path_draw) = (null.score, null.path_draw);
                    if s >= beta && sel.null_verify && depth - r > 0 && !self.stopped {
                        // The verification searches this node as if a null move had led to it,
                        // so that it makes none itself (its children may).
                        let parent = std::mem::replace(&mut self.stack[ply - 1].current, NULL_MOVE);
                        let verified = self.negamax(game, depth - r, ply, beta - 1, beta, false);
                        self.stack[ply - 1].current = parent;
                        (s, path_draw) = (verified.score, path_draw | verified.path_draw);
                    }
                    if self.stopped {
                        return Break(Value::proof(0));
                    }
                    if s >= beta {
                        return Break(Value { score: if s >= WIN_BOUND { beta } else { s }, proof: false, path_draw });
                    }
                    // The null move failed: what its searches met is no part of the node's value.
                }
            }
        }
        Continue(futile)
    }

    /// The node's table key: the position's; with a move left out (the search of a singular
    /// extension), another key, so that what that search finds is kept apart from the
    /// position's own entry (its best move is never the one left out).
    fn node_key(&self, game: &G, ply: usize) -> u64 {
        match self.stack[ply].excluded {
            NO_MOVE => game.hash(),
            excluded => game.hash() ^ (excluded as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15),
        }
    }

    /// Step 5b: the singular extension, where the game allows it ([`Selectivity::singular_depth`]):
    /// if the table's move holds a lower bound from a search nearly as deep and no other move
    /// reaches that score less a margin in a search of half the depth (the frame's `excluded`
    /// left out), the table's move is singular: it is searched a ply deeper (the frame's
    /// `extend_table`, read by [`Run::extension`]). If another move does reach it and the lowered
    /// score is at least beta, the node fails high (multi-cut). Break: that score (no proof).
    fn singular(&mut self, game: &mut G, node: &Node, window: &Window, key: u64) -> ControlFlow<Value> {
        let Node { depth, ply, quiet, tt_move, .. } = *node;
        let sel = self.sel;
        if sel.singular_depth == 0 || depth < sel.singular_depth || ply == 0 || !quiet || tt_move == NO_MOVE {
            return Continue(());
        }
        if self.stack[ply].excluded != NO_MOVE {
            return Continue(());
        }
        let Some(e) = self.tt.probe(key) else { return Continue(()) };
        if e.mv != tt_move || e.bound == Bound::Upper || (e.depth as i32) < depth - 3 {
            return Continue(());
        }
        let tt_score = e.score(ply);
        if tt_score.abs() >= WIN_BOUND {
            return Continue(());
        }
        let bar = tt_score - sel.singular_margin * depth;
        self.stack[ply].excluded = tt_move;
        let others = self.negamax(game, (depth - 1) / 2, ply, bar - 1, bar, false);
        self.stack[ply].excluded = NO_MOVE;
        if self.stopped {
            return Break(Value::proof(0));
        }
        if others.score < bar {
            self.stack[ply].extend_table = true;
        } else if bar >= window.beta {
            return Break(Value { score: bar, proof: false, path_draw: others.path_draw });
        }
        Continue(())
    }

    /// The extension of the move `key` of the node at `ply`: a ply for a singular table move
    /// (see [`Run::singular`]).
    pub(super) fn extension(&self, ply: usize, key: u32, tt_move: u32) -> i32 {
        (self.stack[ply].extend_table && key == tt_move) as i32
    }

    /// The node's static evaluation, asked of the game once a node (kept in its frame).
    fn static_eval(&mut self, game: &G, ply: usize) -> Score {
        if let Some(e) = self.stack[ply].static_eval {
            return e;
        }
        let e = self.know.evaluate(game);
        self.stack[ply].static_eval = Some(e);
        e
    }

    /// The late-move reduction of the `i`th move (from 0) at `depth`: in an exhaustive list, the
    /// game's own (log(depth) x log(i) x its factor, one less at a PV node) or 1 to 2 plies; in
    /// a heuristic selection (a large board's moves near the stones), where most late moves are
    /// beside the point, log(depth) x log(i).
    pub(super) fn reduction(&self, depth: i32, i: usize, pv: bool, exhaustive: bool) -> i32 {
        if exhaustive {
            match self.sel.reduction {
                None => 1 + (depth >= 6 && i >= 8) as i32,
                Some(f) => {
                    let r = (depth as f32).ln() * (i as f32).ln() * f;
                    (r as i32 - pv as i32).max(1)
                }
            }
        } else {
            ((depth as f32).ln() * (i as f32).ln() * LATE_MOVE_REDUCTION) as i32
        }
    }

    /// Step 7: the node's score `best` (within the narrowed window's bounds) in the table, as a
    /// bound on the window searched, with its depth; a proof (`proof`: no heuristic leaf below)
    /// at depth PROVEN.
    pub(super) fn store(&mut self, key: u64, node: &Node, window: &Window, best: Score, best_key: u32, proof: bool) {
        debug_assert!(window.lo <= best && best <= window.hi, "{best} outside [{}, {}]", window.lo, window.hi);
        let bound = if best >= window.beta {
            Bound::Lower
        } else if best <= window.alpha {
            Bound::Upper
        } else {
            Bound::Exact
        };
        debug_assert!(window.beta - window.alpha > 1 || bound != Bound::Exact, "an exact score in a zero window");
        let stored_depth = if proof { PROVEN } else { node.depth.clamp(0, PROVEN as i32 - 1) as u8 };
        self.tt.store(key, stored_depth, best, node.ply, bound, best_key);
    }
}

/// The factor of the late-move reductions in a heuristic selection of moves.
const LATE_MOVE_REDUCTION: f32 = 1.0;
