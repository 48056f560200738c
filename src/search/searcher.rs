//! Iterative deepening over a principal-variation (negamax) alpha-beta search.
//!
//! Negamax here does not assume alternation: after a move, if the same side is still to move the
//! child's score is taken as it is, otherwise negated. Results are proofs when the subtree
//! reached only decided positions through exhaustive move lists: such entries are stored with
//! depth [`PROVEN`], and a root result that is a proof ends the search at once.

use super::clock::{
    DEFENCE_SHARE, SEARCH_RESERVE, SOLVER_SHARE, SWINDLE_MAX, SWINDLE_SHARE, TRAP_END, TRAP_QUERY_SHARE,
};
use super::ordering::MoveOrder;
use super::tt::{Bound, Tt, NO_MOVE, PROVEN};
use super::{
    Candidate, Game, Limits, Outcome, Proof, RootKnowledge, Score, Selectivity, Side, MAX_PLY, WIN, WIN_BOUND,
};
use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};
use std::time::{Duration, Instant};

/// One finished iteration: its depth, score, and the nodes and time spent so far.
#[derive(Clone, Debug)]
pub struct SearchInfo {
    pub depth: u32,
    pub score: Score,
    pub nodes: u64,
    pub elapsed: Duration,
}

#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    pub best: M,
    pub score: Score,
    /// Depth of the last completed iteration (0 if the move was decided without search).
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
    /// The score is exact: the game's value with best play (within the game's move lists).
    pub proved: bool,
    pub pv: Vec<M>,
    /// Every completed iteration, in order.
    pub iterations: Vec<SearchInfo>,
}

pub struct Searcher {
    tt: Tt,
    /// Move-ordering memory, one per search thread.
    orderings: Vec<MoveOrder>,
}

const INF: Score = WIN + 1;
/// The opponent's likeliest replies looked at when setting traps (see [`TRAP_END`]).
const TRAP_REPLIES: usize = 8;
/// Time is checked every this many nodes.
const CHECK_EVERY: u64 = 4;

impl Searcher {
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher { tt: Tt::new(hash_mb), orderings: vec![MoveOrder::new()] }
    }

    /// The transposition table's size in bytes.
    pub fn table_bytes(&self) -> usize {
        self.tt.bytes()
    }

    /// Forgets the move-ordering memory (a new game). The table is kept: its entries are keyed
    /// by position and stay true.
    pub fn new_game(&mut self) {
        self.orderings.iter_mut().for_each(|o| *o = MoveOrder::new());
    }

    /// Searches `game` (which must not be over) within `limits` with one thread; `game` is left
    /// as it was.
    pub fn search<G: Game, K: RootKnowledge<G>>(
        &mut self,
        game: &mut G,
        know: &K,
        limits: &Limits,
    ) -> SearchResult<G::Move> {
        self.tt.new_search();
        self.orderings[0].new_search(game.move_key_space());
        Run::new(&self.tt, know, &mut self.orderings[0], limits, None, 0).iterate(game)
    }

    /// As [`Searcher::search`], with `threads` threads (Lazy SMP): helpers search copies of the
    /// game through the same table, which makes the main thread's search deeper; the main
    /// thread's result is the answer, and the helpers stop when it does.
    pub fn search_parallel<G: Game + Send, K: RootKnowledge<G>>(
        &mut self,
        game: &mut G,
        know: &K,
        limits: &Limits,
        threads: usize,
    ) -> SearchResult<G::Move> {
        if threads <= 1 {
            return self.search(game, know, limits);
        }
        self.tt.new_search();
        self.orderings.resize_with(threads, MoveOrder::new);
        let keys = game.move_key_space();
        let done = AtomicBool::new(false);
        let (tt, done_ref) = (&self.tt, &done);
        let (main, helpers) = self.orderings.split_first_mut().expect("at least one thread");
        std::thread::scope(|scope| {
            let mut handles = Vec::new();
            for (i, ordering) in helpers.iter_mut().enumerate() {
                let mut copy = game.clone();
                handles.push(scope.spawn(move || {
                    ordering.new_search(keys);
                    Run::new(tt, know, ordering, limits, Some(done_ref), i + 1).iterate(&mut copy).nodes
                }));
            }
            main.new_search(keys);
            let mut result = Run::new(tt, know, main, limits, None, 0).iterate(game);
            done.store(true, AtomicOrdering::Relaxed);
            for h in handles {
                result.nodes += h.join().unwrap_or(0);
            }
            result
        })
    }
}

struct Run<'a, G: Game, K: RootKnowledge<G>> {
    tt: &'a Tt,
    know: &'a K,
    ordering: &'a mut MoveOrder,
    limits: &'a Limits,
    /// Set when the main thread is done (for helper threads).
    done: Option<&'a AtomicBool>,
    /// 0 for the main thread; helpers are numbered from 1 (they log nothing and start at
    /// staggered depths, so that the threads do not all search the same tree in step).
    thread: usize,
    /// Move lists, one per ply, reused.
    lists: Vec<Vec<Candidate<G::Move>>>,
    nodes: u64,
    stopped: bool,
    /// Some leaf of the current subtree was judged heuristically (not a proof).
    heuristic: bool,
    /// Some leaf of the current subtree was scored a draw by its history
    /// ([`Game::drawn_by_history`]): the subtree's score depends on the path to it, so it is not
    /// stored in the table.
    path_draw: bool,
    /// Swindle chances already computed, by (position, levels).
    swindle_memo: ahash::AHashMap<(u64, u32), Option<f64>>,
    /// Proofs made for swindles, by (position, threshold).
    proof_memo: ahash::AHashMap<(u64, Score), bool>,
    /// An earlier stop than the limits' (the swindle's slice), from the search's start.
    deadline: Option<Duration>,
    /// When the clock was last looked at, from the search's start.
    last_look: Duration,
    /// The longest time between two looks at the clock in this search: the thread was not
    /// running (a loaded machine) or a node took that long. A reply may come that much after
    /// the stop, so the search stops that much before its hard limit (at most half of it;
    /// issue 39: replies at 0.1 and 0.2 s came up to twice the budget late beside two CPU hogs).
    stall: Duration,
    /// No new iteration after this (the limits' soft deadline, moved on if the exact solver
    /// took part of the budget).
    soft: Option<Duration>,
    /// The game's reductions and pruning (see [`Selectivity`]).
    sel: Selectivity,
    /// The ply of the null move being searched (none: usize::MAX); a null move's child and a
    /// null move's verification make none.
    null_ply: usize,
    /// Quiet moves searched at a node before a cutoff (for the history malus), one list per ply.
    tried: Vec<Vec<u32>>,
}

impl<'a, G: Game, K: RootKnowledge<G>> Run<'a, G, K> {
    fn new(
        tt: &'a Tt,
        know: &'a K,
        ordering: &'a mut MoveOrder,
        limits: &'a Limits,
        done: Option<&'a AtomicBool>,
        thread: usize,
    ) -> Self {
        Run {
            tt,
            know,
            ordering,
            limits,
            done,
            thread,
            lists: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            nodes: 0,
            stopped: false,
            heuristic: false,
            path_draw: false,
            swindle_memo: Default::default(),
            proof_memo: Default::default(),
            deadline: None,
            last_look: Duration::ZERO,
            stall: Duration::ZERO,
            soft: limits.soft,
            sel: Selectivity::default(),
            null_ply: usize::MAX,
            tried: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
        }
    }
}

/// The root's moves to search (phase 1 of `Run::iterate`), best-ordered: `exhaustive` if they
/// are every move that matters; `settled` if the exact solver proved the value that every one of
/// them keeps (a draw or a loss: the search only orders them for the traps); `refuted`: the moves
/// the solver refuted, left out unless every move searched loses.
struct RootMoves<M> {
    moves: Vec<M>,
    exhaustive: bool,
    settled: bool,
    refuted: Vec<M>,
}

/// A node's window (alpha, beta), narrowed to the scores still possible there (lo, hi: the
/// mate distances, and 0 for a side that cannot win): lo <= alpha < beta <= hi.
#[derive(Clone, Copy)]
struct Window {
    alpha: Score,
    beta: Score,
    lo: Score,
    hi: Score,
}

/// What a node's steps share: the depth left, the ply from the root, whether it is on the
/// principal variation, the side to move, whether it is quiet, and the table's move.
#[derive(Clone, Copy)]
struct Node {
    depth: i32,
    ply: usize,
    pv: bool,
    me: Side,
    quiet: bool,
    tt_move: u32,
}

impl<G: Game, K: RootKnowledge<G>> Run<'_, G, K> {
    /// The search from the root, in three phases:
    /// 1. the root's moves: a move decided at once (a win, the book, a forced move, no time
    ///    left, the exact solver's proof), or the moves to search after the solver's refutations
    ///    and the threat defence ([`Run::root_moves`]);
    /// 2. iterative deepening over them, with aspiration windows ([`Run::deepen`]);
    /// 3. with the value settled or lost, a move for the opponent's errors: traps and swindles
    ///    ([`Run::play_for_errors`]).
    fn iterate(&mut self, game: &mut G) -> SearchResult<G::Move> {
        self.sel = self.know.selectivity(game);
        let root = match self.root_moves(game) {
            Ok(root) => root,
            Err(decided) => return decided,
        };
        let mut moves = root.moves;
        let mut best = self.deepen(game, &mut moves, root.exhaustive, root.refuted);
        self.play_for_errors(game, &moves, root.settled, &mut best);
        best.nodes = self.nodes;
        best.elapsed = self.limits.elapsed();
        best
    }

    /// A move decided before any search, with its score.
    fn decided(&self, best: G::Move, score: Score, proved: bool) -> SearchResult<G::Move> {
        SearchResult {
            best,
            score,
            depth: 0,
            nodes: 0,
            elapsed: self.limits.elapsed(),
            proved,
            pv: vec![best],
            iterations: Vec::new(),
        }
    }

    /// Phase 1: the root's moves, best-ordered, after the exact solver and the threat defence;
    /// Err: a move decided at once.
    fn root_moves(&mut self, game: &mut G) -> Result<RootMoves<G::Move>, SearchResult<G::Move>> {
        if let Some(mv) = self.know.winning_move(game) {
            return Err(self.decided(mv, WIN - 1, true));
        }
        if self.limits.hard.is_some() {
            if let Some(mv) = self.know.book_move(game) {
                if self.thread == 0 {
                    log::info!("book: {}", game.format_move(mv));
                }
                return Err(self.decided(mv, 0, false));
            }
        }
        let mut root = Vec::new();
        let exhaustive = self.know.candidates(game, &mut root);
        assert!(!root.is_empty(), "search needs a game in progress");
        root.sort_by_key(|c| std::cmp::Reverse(c.score));
        if root.len() == 1 && self.limits.hard.is_some() {
            // A forced move under the clock: answer at once (its score is not needed to play).
            return Err(self.decided(root[0].mv, 0, false));
        }
        if self.limits.stop_requested() || self.limits.past_hard() {
            // No time left (an extra turn of the same reply after the budget ran out, or a stop):
            // the best-ordered move at once, without the solvers' and threats' set-up work.
            return Err(self.decided(root[0].mv, 0, false));
        }
        // The exact solver proved the root a draw or a loss that several moves keep.
        let mut settled = false;
        // Moves the exact solver already refuted, left out of the search (see below).
        let mut refuted_out: Vec<G::Move> = Vec::new();
        if let Some(proof) = self.exact_solution(game) {
            if proof.score >= WIN_BOUND || proof.moves.len() == 1 {
                return Err(self.decided(proof.moves[0], proof.score, true));
            }
            // A draw or a loss: any of these moves keeps it; the search orders them, and the
            // traps (see `Run::trap`) pick the one that gives the opponent the most chances to
            // go wrong.
            root.retain(|c| proof.moves.contains(&c.mv));
            if root.is_empty() {
                return Err(self.decided(proof.moves[0], proof.score, true));
            }
            settled = root.len() > 1;
            if settled {
                // The search only orders the moves for the traps: it gets a fifth of what is
                // left before them.
                let spent = self.limits.elapsed();
                let trap_end = self.limits.hard.map(|h| h.mul_f64(TRAP_END));
                self.soft = trap_end.map(|e| spent + e.saturating_sub(spent) / 5);
            }
        } else {
            // What the solver refuted before it ran out of time (or at earlier moves) is not
            // searched again.
            let moves: Vec<G::Move> = root.iter().map(|c| c.mv).collect();
            let refuted = self.know.refuted_moves(game, &moves);
            if !refuted.is_empty() && refuted.len() < root.len() {
                log::info!(
                    "refuted: {} of {} moves lose by the exact solver: {}",
                    refuted.len(),
                    root.len(),
                    refuted.iter().map(|&m| game.format_move(m)).collect::<Vec<_>>().join(", ")
                );
                root.retain(|c| !refuted.contains(&c.mv));
                refuted_out = refuted;
                if root.len() == 1 && self.limits.hard.is_some() {
                    return Err(self.decided(root[0].mv, 0, false));
                }
            }
            if let Some(answers) = self.threat_defence(game, &root) {
                // The opponent threatens a forced win: only the moves that stop it are
                // searched (all of them if none does).
                if !answers.is_empty() {
                    root.retain(|c| answers.contains(&c.mv));
                }
            }
        }
        let moves = root.iter().map(|c| c.mv).collect();
        Ok(RootMoves { moves, exhaustive, settled, refuted: refuted_out })
    }

    /// Phase 2: iterative deepening over `moves` (best first, reordered as it goes); a second
    /// time over every move when the first proved a loss without the moves the solver refuted
    /// (`refuted_out`): those may lose later, and a lost position is played to lose as late as
    /// possible. `exhaustive`: the root's list is every move that matters (a result may be a
    /// proof).
    fn deepen(
        &mut self,
        game: &mut G,
        moves: &mut Vec<G::Move>,
        exhaustive: bool,
        mut refuted_out: Vec<G::Move>,
    ) -> SearchResult<G::Move> {
        let mut best = SearchResult {
            best: moves[0],
            score: 0,
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            proved: false,
            pv: vec![moves[0]],
            iterations: Vec::new(),
        };
        // The pauses are measured from here: the solvers' and threats' time before is no pause.
        self.last_look = self.limits.elapsed();
        let first_depth = 1 + (self.thread as u32 % 2);
        loop {
            let mut prev_score: Option<Score> = None;
            for depth in first_depth..=self.limits.max_depth.min(MAX_PLY as u32 - 1).max(first_depth) {
                self.heuristic = !exhaustive;
                let (score, mv, alpha) = self.aspiration(game, moves, depth, prev_score);
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
                let proved = !self.heuristic;
                let mut iterations = std::mem::take(&mut best.iterations);
                iterations.push(SearchInfo { depth, score, nodes: self.nodes, elapsed: self.limits.elapsed() });
                best = SearchResult {
                    best: mv,
                    score,
                    depth,
                    nodes: self.nodes,
                    elapsed: self.limits.elapsed(),
                    proved,
                    pv: self.principal_variation(game, mv),
                    iterations,
                };
                prev_score = Some(score);
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
                if proved
                    || self.soft.is_some_and(|s| self.limits.elapsed() >= s)
                    || self.limits.max_nodes.is_some_and(|n| self.nodes >= n)
                {
                    break;
                }
            }
            if best.proved && best.score <= -WIN_BOUND && !refuted_out.is_empty() && !self.stopped {
                log::info!("every move left loses: the refuted moves are searched too");
                moves.append(&mut refuted_out);
                continue;
            }
            return best;
        }
    }

    /// One iteration of phase 2 at `depth`: the root searched in an aspiration window around the
    /// last iteration's score (from depth 4 on, away from proofs), widened fourfold on each
    /// side that fails. The score, the best move and the window's alpha at the end.
    fn aspiration(
        &mut self,
        game: &mut G,
        moves: &mut [G::Move],
        depth: u32,
        prev_score: Option<Score>,
    ) -> (Score, G::Move, Score) {
        let (mut alpha, mut beta) = (-INF, INF);
        let mut delta = 0;
        if let Some(p) = prev_score.filter(|p| depth >= 4 && p.abs() < WIN_BOUND) {
            delta = 24 + p.abs() / 16;
            alpha = p - delta;
            beta = p + delta;
        }
        loop {
            let heuristic_before = self.heuristic;
            let (score, mv) = self.root(game, moves, depth as i32, alpha, beta);
            if self.stopped {
                return (score, mv, alpha);
            }
            if score <= alpha && alpha > -INF {
                alpha = (alpha - delta).max(-INF);
                delta *= 4;
            } else if score >= beta && beta < INF {
                beta = (beta + delta).min(INF);
                delta *= 4;
            } else {
                return (score, mv, alpha);
            }
            self.heuristic = heuristic_before;
        }
    }

    /// Phase 3: playing under a clock (not solving), with the value settled (a draw or a loss
    /// several moves keep: a trap) or proved lost or drawn (a swindle), the move that gives the
    /// opponent the most chances to go wrong, in place of `best`'s.
    fn play_for_errors(&mut self, game: &mut G, moves: &[G::Move], settled: bool, best: &mut SearchResult<G::Move>) {
        if settled && !self.stopped {
            if let Some(mv) = self.trap(game, moves) {
                if mv != best.best {
                    log::info!("trap: {} instead of {}", game.format_move(mv), game.format_move(best.best));
                    best.pv = vec![mv];
                    best.best = mv;
                }
            }
        } else if best.proved && best.score <= 0 && self.thread == 0 && !self.stopped && self.limits.hard.is_some() {
            if let Some(mv) = self.swindle(game, moves, best.score, best.depth as i32) {
                if mv != best.best {
                    log::info!("swindle: {} instead of {}", game.format_move(mv), game.format_move(best.best));
                    best.pv = vec![mv];
                    best.best = mv;
                }
            }
        }
    }

    /// The game's exact solver at the root, under the clock only (the main thread asks it; it
    /// gets a share of the budget, and the search the rest if it does not finish).
    fn exact_solution(&mut self, game: &G) -> Option<Proof<G::Move>> {
        let hard = self.limits.hard.filter(|_| self.thread == 0)?;
        let deadline = self.limits.start + hard.mul_f64(SOLVER_SHARE);
        let Some(proof) = self.know.solve_exactly(game, deadline, self.limits.stop.as_deref()) else {
            // The search keeps its usual share of the time that is left.
            let (spent, soft) = (self.limits.elapsed(), self.soft?);
            if spent > Duration::from_millis(1) {
                self.soft = Some(spent + hard.saturating_sub(spent).mul_f64(soft.as_secs_f64() / hard.as_secs_f64()));
            }
            return None;
        };
        log::info!(
            "solved: score {} time {:.3}s moves {}",
            score_text(proof.score),
            self.limits.elapsed().as_secs_f64(),
            proof.moves.iter().map(|&m| game.format_move(m)).collect::<Vec<_>>().join(", ")
        );
        Some(proof)
    }

    /// The root moves that stop the opponent's threatened forced win, if it has one, from the
    /// game's threat search under the clock (the main thread, within DEFENCE_SHARE of the budget).
    fn threat_defence(&mut self, game: &G, root: &[Candidate<G::Move>]) -> Option<Vec<G::Move>> {
        let hard = self.limits.hard.filter(|_| self.thread == 0)?;
        let deadline =
            (Instant::now() + hard.mul_f64(DEFENCE_SHARE)).min(self.limits.start + hard.mul_f64(1.0 - SEARCH_RESERVE));
        let moves: Vec<G::Move> = root.iter().map(|c| c.mv).collect();
        let answers = self.know.threat_answers(game, &moves, deadline)?;
        log::info!("threat: {} of {} moves stop the opponent's forced win", answers.len(), moves.len());
        Some(answers)
    }

    /// One root iteration over `moves` (ordered); returns the score and the best move.
    fn root(&mut self, game: &mut G, moves: &mut [G::Move], depth: i32, alpha: Score, beta: Score) -> (Score, G::Move) {
        let me = game.to_move();
        let (mut alpha, mut best, mut best_mv) = (alpha, -INF, moves[0]);
        for (i, &mv) in moves.iter().enumerate() {
            game.play(mv);
            let score = if i == 0 {
                self.child(game, me, depth - 1, 1, alpha, beta, true)
            } else {
                let s = self.child(game, me, depth - 1, 1, alpha, alpha + 1, false);
                if s > alpha && s < beta && !self.stopped {
                    self.child(game, me, depth - 1, 1, alpha, beta, true)
                } else {
                    s
                }
            };
            game.undo();
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                best_mv = mv;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        (best, best_mv)
    }

    /// The exact solver proved the root a draw or a loss, and every move of `moves` (in the
    /// search's order) keeps it. Against an opponent that errs they are not equal: this picks
    /// the one after which the largest share of the opponent's likeliest sensible replies (its
    /// first TRAP_REPLIES candidates by the game's move ordering that do not hand us a win it
    /// would see at once) are proved lost for it by the solver, with ties to the search's
    /// order, within TRAP_END of the budget. `None` if no reply was proved lost.
    fn trap(&mut self, game: &mut G, moves: &[G::Move]) -> Option<G::Move> {
        let hard = self.limits.hard?;
        let end = self.limits.start + hard.mul_f64(TRAP_END);
        let query = hard.mul_f64(TRAP_QUERY_SHARE);
        let stop = self.limits.stop.clone();
        let me = game.to_move();
        let (mut best, mut best_share) = (None, 0.0);
        let mut replies = Vec::new();
        for &mv in moves {
            game.play(mv);
            let (mut looked, mut lost) = (0u32, 0u32);
            if game.outcome().is_none() && game.to_move() != me {
                replies.clear();
                self.know.candidates(game, &mut replies);
                replies.sort_by_key(|c| std::cmp::Reverse(c.score));
                for r in &replies {
                    let now = Instant::now();
                    if now >= end || looked as usize == TRAP_REPLIES {
                        break;
                    }
                    game.play(r.mv);
                    // A reply that hands us a win the game sees at once (a move that wins, or
                    // a stone that makes two threats) is no trap: the opponent sees it too.
                    let obvious = self.know.winning_move(game).is_some()
                        || (self.know.quiet(game) && self.know.quiet_win(game).is_some());
                    if game.outcome().is_none() && game.to_move() == me && !obvious {
                        looked += 1;
                        if self.know.wins_exactly(game, (now + query).min(end), stop.as_deref()) == Some(true) {
                            lost += 1;
                        }
                    }
                    game.undo();
                }
            }
            game.undo();
            if Instant::now() >= end {
                // This move's count is incomplete: it is left out.
                break;
            }
            let share = if looked == 0 { 0.0 } else { lost as f64 / looked as f64 };
            log::debug!("trap: {} loses {lost} of the {looked} replies looked at", game.format_move(mv));
            if share > best_share {
                (best, best_share) = (Some(mv), share);
            }
        }
        if let Some(mv) = best {
            log::info!(
                "trap: {} (share of replies proved lost {best_share:.3}) time {:.3}s",
                game.format_move(mv),
                self.limits.elapsed().as_secs_f64()
            );
        }
        best
    }

    /// The root is proved a draw or a loss (`value`): against a perfect opponent every move that
    /// keeps that value is as good as another, but an opponent that errs can still be beaten (or
    /// fail to win). So pick the move that maximises the chance that the opponent gives up its
    /// result, modelling it as a player who takes an immediate win, never hands one over, and
    /// otherwise picks among its moves at random: an expectimax over `levels` of our moves, with
    /// proofs at the leaves, deepened while time lasts. Returns `None` if nothing was decided.
    fn swindle(&mut self, game: &mut G, moves: &[G::Move], value: Score, depth: i32) -> Option<G::Move> {
        // A settled result is answered almost at once: the swindle gets a short slice of time.
        let hard = self.limits.hard?;
        let slice = (hard.mul_f64(SWINDLE_SHARE)).min(SWINDLE_MAX);
        let begin = self.limits.elapsed();
        self.deadline = Some(begin + slice);
        let mut choice = None;
        let mut last_chance = -1.0;
        self.swindle_memo.clear();
        self.proof_memo.clear();
        for levels in 1..=MAX_PLY as u32 {
            // A deeper level costs several times the last: start one only early in the slice.
            if levels > 1 && self.limits.elapsed() > begin + slice / 2 {
                break;
            }
            match self.best_swindle(game, moves, value, depth, levels) {
                Some((chance, mv)) if !self.stopped => {
                    log::info!(
                        "swindle level {levels}: {} (opponent error chance {chance:.3}) time {:.3}s",
                        game.format_move(mv),
                        self.limits.elapsed().as_secs_f64()
                    );
                    choice = Some(mv);
                    if chance == last_chance {
                        // A level that adds nothing: every line was followed to its end.
                        break;
                    }
                    last_chance = chance;
                }
                _ => break,
            }
        }
        choice
    }

    /// Our move with the largest chance of an opponent error within `levels` of our moves.
    fn best_swindle(
        &mut self,
        game: &mut G,
        moves: &[G::Move],
        value: Score,
        depth: i32,
        levels: u32,
    ) -> Option<(f64, G::Move)> {
        let me = game.to_move();
        let mut best: Option<(f64, G::Move)> = None;
        for &mv in moves {
            game.play(mv);
            let chance = self.error_chance(game, me, value, depth, levels);
            game.undo();
            if self.stopped {
                return None;
            }
            if let Some(c) = chance {
                if best.is_none_or(|(b, _)| c > b) {
                    best = Some((c, mv));
                }
            }
        }
        best
    }

    /// After our move: `None` if it is not proved to keep `value` (or hands the opponent an
    /// immediate win); else the chance that the modelled opponent errs within `levels`.
    fn error_chance(&mut self, game: &mut G, me: Side, value: Score, depth: i32, levels: u32) -> Option<f64> {
        let key = (game.hash(), levels);
        if let Some(&known) = self.swindle_memo.get(&key) {
            return known;
        }
        let chance = self.error_chance_uncached(game, me, value, depth, levels);
        if !self.stopped {
            self.swindle_memo.insert(key, chance);
        }
        chance
    }

    fn error_chance_uncached(&mut self, game: &mut G, me: Side, value: Score, depth: i32, levels: u32) -> Option<f64> {
        let losing = value <= -WIN_BOUND;
        // Our result after a reply is better than `value` if it is at least this.
        let better = if losing { -WIN_BOUND + 1 } else { WIN_BOUND };
        if game.outcome().is_some() {
            return Some(0.0);
        }
        if game.to_move() != me && self.know.winning_move(game).is_some() {
            return None;
        }
        // The move must keep the value: a draw, or a loss no faster than the slowest one.
        if !self.proved_at_least(game, me, depth, value) {
            return None;
        }
        let mut replies = Vec::new();
        game.legal_moves(&mut replies);
        let (mut total, mut chance) = (0u32, 0f64);
        for &r in &replies {
            game.play(r);
            // A sensible opponent does not hand us an immediate win.
            if !(game.outcome().is_none() && game.to_move() == me && self.know.winning_move(game).is_some()) {
                total += 1;
                if self.proved_at_least(game, me, depth, better) {
                    chance += 1.0;
                } else if levels > 1 && game.outcome().is_none() && game.to_move() == me {
                    let mut ours = Vec::new();
                    game.legal_moves(&mut ours);
                    if let Some((c, _)) = self.best_swindle(game, &ours, value, depth, levels - 1) {
                        chance += c;
                    }
                }
            }
            game.undo();
            if self.stopped {
                return None;
            }
        }
        // If every reply hands us a win, the opponent has to give one.
        Some(if total == 0 { 1.0 } else { chance / total as f64 })
    }

    /// Whether the position is proved worth at least `threshold` to `me` (memoized).
    fn proved_at_least(&mut self, game: &mut G, me: Side, depth: i32, threshold: Score) -> bool {
        let key = (game.hash(), threshold);
        if let Some(&known) = self.proof_memo.get(&key) {
            return known;
        }
        self.heuristic = false;
        let v = self.child(game, me, depth, 1, threshold - 1, threshold, false);
        let proved = !self.heuristic && v >= threshold;
        if !self.stopped {
            self.proof_memo.insert(key, proved);
        }
        proved
    }

    /// Searches the position after a move by `me`, returning its score from `me`'s view.
    #[allow(clippy::too_many_arguments)]
    fn child(&mut self, game: &mut G, me: Side, depth: i32, ply: usize, alpha: Score, beta: Score, pv: bool) -> Score {
        if game.to_move() == me {
            self.negamax(game, depth, ply, alpha, beta, pv)
        } else {
            -self.negamax(game, depth, ply, -beta, -alpha, pv)
        }
    }

    fn out_of_time(&mut self) -> bool {
        if !self.stopped && self.nodes.is_multiple_of(CHECK_EVERY) {
            let l = self.limits;
            let elapsed = l.elapsed();
            self.stall = self.stall.max(elapsed.saturating_sub(self.last_look));
            self.last_look = elapsed;
            self.stopped = l.stop_requested()
                || self.done.is_some_and(|d| d.load(AtomicOrdering::Relaxed))
                || l.hard.is_some_and(|h| elapsed + self.stall.min(h / 2) >= h)
                || self.deadline.is_some_and(|d| elapsed >= d)
                || l.max_nodes.is_some_and(|n| self.nodes >= n);
        }
        self.stopped
    }

    /// One node of the principal variation search, in named steps in the order they run (as
    /// Stockfish's search reads):
    /// 1. the clock ([`Run::out_of_time`], the one place a node looks at it);
    /// 2. a position settled at once: the game over, drawn by its history, won by one move, the
    ///    ply cap ([`Run::settled`]);
    /// 3. the window narrowed to the scores still possible ([`Run::window`]);
    /// 4. what is known without searching the moves: the game's known value, a quiet leaf
    ///    ([`Run::known`]), the table ([`Run::probe`]);
    /// 5. pruning before any move: reverse futility, futility, the null move ([`Run::prune`]);
    /// 6. the moves, the table's first, with reductions ([`Run::search_moves`]);
    /// 7. the store ([`Run::store`]).
    ///
    /// Invariants: the window is not empty (alpha < beta) and within +-INF; a zero window at a
    /// node gives a bound, never an exact score; what is stored has a bound that says how the
    /// score stands to the window searched, and a depth in 0..PROVEN, or PROVEN for a proof.
    /// `depth` is the depth left: below 1 the node is past the horizon (only moves the game
    /// searches there, or a quiet leaf), and it may go below 0 there.
    fn negamax(&mut self, game: &mut G, depth: i32, ply: usize, alpha: Score, beta: Score, pv: bool) -> Score {
        debug_assert!(alpha < beta, "an empty window ({alpha}, {beta})");
        debug_assert!(-INF <= alpha && beta <= INF, "a window past the scores ({alpha}, {beta})");
        self.nodes += 1;
        if self.out_of_time() {
            return 0;
        }
        if let Some(score) = self.settled(game, ply) {
            return score;
        }
        let window = match self.window(game, ply, alpha, beta) {
            Ok(window) => window,
            Err(score) => return score,
        };
        let quiet = match self.known(game, depth, ply, &window) {
            Ok(quiet) => quiet,
            Err(score) => return score,
        };
        let key = game.hash();
        let tt_move = match self.probe(key, depth, ply, pv, &window) {
            Ok(tt_move) => tt_move,
            Err(score) => return score,
        };
        let node = Node { depth, ply, pv, me: game.to_move(), quiet, tt_move };
        let futile = match self.prune(game, &node, &window) {
            Ok(futile) => futile,
            Err(score) => return score,
        };
        let outer_heuristic = std::mem::replace(&mut self.heuristic, false);
        let outer_path_draw = std::mem::replace(&mut self.path_draw, false);
        let (best, best_key) = self.search_moves(game, &node, window, futile);
        let path_draw = self.path_draw;
        self.path_draw |= outer_path_draw;
        if self.stopped {
            self.heuristic |= outer_heuristic;
            return 0;
        }
        let best = best.clamp(window.lo, window.hi);
        let subtree_heuristic = self.heuristic;
        self.heuristic |= outer_heuristic;
        if !path_draw {
            self.store(key, &node, &window, best, best_key, subtree_heuristic);
        }
        best
    }

    /// Step 2: the score of a position settled without a search: the game over, drawn by its
    /// history, won at once by the side to move, or at the ply cap (the evaluation).
    fn settled(&mut self, game: &G, ply: usize) -> Option<Score> {
        if game.drawn_by_history() {
            self.heuristic = true;
            self.path_draw = true;
            return Some(0);
        }
        match game.outcome() {
            Some(Outcome::Draw) => return Some(0),
            Some(Outcome::Win(side)) => {
                let s = WIN - ply as Score;
                return Some(if side == game.to_move() { s } else { -s });
            }
            None => {}
        }
        if self.know.winning_move(game).is_some() {
            return Some(WIN - ply as Score - 1);
        }
        if ply >= MAX_PLY - 1 {
            self.heuristic = true;
            return Some(self.know.evaluate(game));
        }
        None
    }

    /// Step 3: the window (alpha, beta) narrowed to the scores still possible: the mate
    /// distance, and what the game knows (a side that cannot win scores at most 0). Err: the
    /// node's score, where nothing in the window is possible.
    fn window(&self, game: &G, ply: usize, alpha: Score, beta: Score) -> Result<Window, Score> {
        let me = game.to_move();
        let lo = if self.know.can_win(game, me.other()) { -(WIN - ply as Score) } else { 0 };
        let hi = if self.know.can_win(game, me) { WIN - ply as Score - 1 } else { 0 };
        if lo >= beta {
            return Err(lo);
        }
        if hi <= alpha {
            return Err(hi);
        }
        let (alpha, beta) = (alpha.max(lo), beta.min(hi));
        if alpha >= beta {
            return Err(alpha);
        }
        debug_assert!(lo <= alpha && beta <= hi);
        Ok(Window { alpha, beta, lo, hi })
    }

    /// Step 4a: what the game knows of the position without a search (a value from an endgame
    /// database), and a quiet node past the horizon (a win the evaluation does not see, or the
    /// quiescence search). Ok: whether the side to move is quiet, the node to be searched.
    fn known(&mut self, game: &mut G, depth: i32, ply: usize, window: &Window) -> Result<bool, Score> {
        if let Some(v) = self.know.known_value(game) {
            self.heuristic = true;
            return Err(v.clamp(window.lo, window.hi));
        }
        let quiet = self.know.quiet(game);
        if depth <= 0 && quiet {
            if let Some(plies) = self.know.quiet_win(game) {
                return Err(WIN - ply as Score - plies as Score);
            }
            self.heuristic = true;
            return Err(self.quiescence(game, depth, ply, window.alpha, window.beta));
        }
        Ok(quiet)
    }

    /// Step 4b: the table. Err: the score stored for the position, where it settles the window
    /// (a proof always; a heuristic score deep enough, and never at a PV node); Ok: the table's
    /// move for the position ([`NO_MOVE`] if none).
    fn probe(&mut self, key: u64, depth: i32, ply: usize, pv: bool, window: &Window) -> Result<u32, Score> {
        let Some(e) = self.tt.probe(key) else { return Ok(NO_MOVE) };
        if e.depth == PROVEN || (!pv && e.depth as i32 >= depth) {
            let s = e.score(ply);
            let usable = match e.bound {
                Bound::Exact => true,
                Bound::Lower => s >= window.beta,
                Bound::Upper => s <= window.alpha,
            };
            if usable {
                if e.depth != PROVEN {
                    self.heuristic = true;
                }
                return Err(s);
            }
        }
        Ok(e.mv)
    }

    /// Step 5: pruning before any move, where the game allows it ([`Selectivity`]). Near the
    /// horizon at a quiet non-PV node, the static evaluation may settle the node (reverse
    /// futility) or rule out the quiet moves (futility: Ok(true)). Null move: if passing still
    /// fails high on a shallower search, so would a move (verified by a shallower normal search
    /// where the game asks, for zugzwang). Err: the node's score.
    fn prune(&mut self, game: &mut G, node: &Node, window: &Window) -> Result<bool, Score> {
        let Node { depth, ply, pv, me, quiet, .. } = *node;
        let (alpha, beta) = (window.alpha, window.beta);
        let mut futile = false;
        let sel = self.sel;
        let inside = alpha > -WIN_BOUND && beta < WIN_BOUND;
        if !pv && quiet && depth <= 3 && inside && (sel.static_margin.is_some() || sel.futility_margin.is_some()) {
            let stand = self.know.evaluate(game);
            if sel.static_margin.is_some_and(|m| stand - m * depth >= beta) {
                self.heuristic = true;
                return Err(stand);
            }
            futile = sel.futility_margin.is_some_and(|m| stand + m * depth <= alpha);
        }
        if sel.null_reduction > 0 && !pv && quiet && depth >= 2 && inside && self.null_ply.wrapping_add(1) != ply {
            if let Some(pass) = self.know.null_move(game) {
                if self.know.evaluate(game) >= beta {
                    let r = sel.null_reduction + depth / 6;
                    let (heuristic0, draw0) = (self.heuristic, self.path_draw);
                    let outer_null = std::mem::replace(&mut self.null_ply, ply);
                    game.play(pass);
                    let mut s = self.child(game, me, depth - 1 - r, ply + 1, beta - 1, beta, false);
                    game.undo();
                    if s >= beta && sel.null_verify && depth - r > 0 && !self.stopped {
                        // The verification searches this node without a null move (null_ply
                        // is this ply's: its children may make one again).
                        self.null_ply = ply.wrapping_sub(1);
                        s = self.negamax(game, depth - r, ply, beta - 1, beta, false);
                    }
                    self.null_ply = outer_null;
                    if self.stopped {
                        return Err(0);
                    }
                    if s >= beta {
                        self.heuristic = true;
                        return Err(if s >= WIN_BOUND { beta } else { s });
                    }
                    (self.heuristic, self.path_draw) = (heuristic0, draw0);
                }
            }
        }
        Ok(futile)
    }

    /// Step 6: the moves, best first, with late-move reductions and pruning: the best score
    /// (-INF if none was searched to the end) and its move's key. Stage 1, in a quiet position:
    /// the table's move before generating any other (when it refutes the position, scoring
    /// every candidate is saved). Stage 2: the candidates, ordered by the table's move, the
    /// killers and the history.
    fn search_moves(&mut self, game: &mut G, node: &Node, window: Window, futile: bool) -> (Score, u32) {
        let Node { depth, ply, pv, me, quiet, tt_move } = *node;
        let Window { mut alpha, beta, lo, hi } = window;
        let sel = self.sel;
        let side = me.index();
        let (mut best, mut best_key) = (-INF, NO_MOVE);
        let mut searched = 0;

        let tt_mv = if quiet { game.move_for_key(tt_move) } else { None };
        if let Some(mv) = tt_mv {
            game.play(mv);
            let score = self.child(game, me, depth - 1, ply + 1, alpha, beta, pv);
            game.undo();
            searched = 1;
            if !self.stopped && score > best {
                best = score;
                best_key = tt_move;
                alpha = alpha.max(score);
            }
        }

        let mut list = std::mem::take(&mut self.lists[ply]);
        list.clear();
        self.tried[ply].clear();
        let mut exhaustive = true;
        if best < beta && !self.stopped {
            exhaustive = self.know.candidates(game, &mut list);
            if !exhaustive {
                self.heuristic = true;
            }
            if tt_mv.is_some() {
                list.retain(|c| game.move_key(c.mv) != tt_move);
            }
            if depth <= 0 {
                // Past the horizon (a position not quiet): only the moves the game searches
                // there; if it leaves some out, the side to move may stand pat on the evaluation.
                let all = list.len();
                list.retain(|c| self.know.searched_past_horizon(game, c.mv));
                if list.len() < all {
                    self.heuristic = true;
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
                } else if self.ordering.is_killer(ply, k) {
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
                self.heuristic = true;
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
                self.heuristic = true;
                continue;
            }
            if sel.history_malus && quiet_move && !game.move_key(c.mv).eq(&tt_move) {
                self.tried[ply].push(key_mv);
            }
            game.play(c.mv);
            let score = if i == 0 {
                self.child(game, me, next, ply + 1, alpha, beta, pv)
            } else {
                let r = if depth >= 3 && i >= 3 && tame { self.reduction(depth, i, pv, exhaustive) } else { 0 };
                let mut s = self.child(game, me, next - r, ply + 1, alpha, alpha + 1, false);
                if r > 0 && s > alpha && !self.stopped {
                    s = self.child(game, me, next, ply + 1, alpha, alpha + 1, false);
                }
                if pv && s > alpha && s < beta && !self.stopped {
                    s = self.child(game, me, next, ply + 1, alpha, beta, true);
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
                            self.ordering.reward(side, ply, key_mv, depth);
                        }
                        if sel.history_malus {
                            for &k in &self.tried[ply] {
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
        self.lists[ply] = list;
        (best, best_key)
    }

    /// The late-move reduction of the `i`th move (from 0) at `depth`: in an exhaustive list, the
    /// game's own (log(depth) x log(i) x its factor, one less at a PV node) or 1 to 2 plies; in
    /// a heuristic selection (a large board's moves near the stones), where most late moves are
    /// beside the point, log(depth) x log(i).
    fn reduction(&self, depth: i32, i: usize, pv: bool, exhaustive: bool) -> i32 {
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
    /// bound on the window searched, with its depth; a proof (no heuristic leaf below,
    /// `subtree_heuristic` false) at depth PROVEN.
    fn store(&mut self, key: u64, node: &Node, window: &Window, best: Score, best_key: u32, subtree_heuristic: bool) {
        debug_assert!(window.lo <= best && best <= window.hi, "{best} outside [{}, {}]", window.lo, window.hi);
        let bound = if best >= window.beta {
            Bound::Lower
        } else if best <= window.alpha {
            Bound::Upper
        } else {
            Bound::Exact
        };
        debug_assert!(window.beta - window.alpha > 1 || bound != Bound::Exact, "an exact score in a zero window");
        let stored_depth = if subtree_heuristic { node.depth.clamp(0, PROVEN as i32 - 1) as u8 } else { PROVEN };
        self.tt.store(key, stored_depth, best, node.ply, bound, best_key);
    }

    /// A quiet node past the horizon: the evaluation, or better, what the game's forcing moves
    /// there (see [`Knowledge::quiescence_moves`]) get, each a ply deeper, at most
    /// [`QUIESCENCE_PLIES`] of them in a row.
    fn quiescence(&mut self, game: &mut G, depth: i32, ply: usize, mut alpha: Score, beta: Score) -> Score {
        let stand = self.know.evaluate(game);
        if stand >= beta || depth <= -QUIESCENCE_PLIES {
            return stand;
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        list.clear();
        self.know.quiescence_moves(game, depth < 0, &mut list);
        list.sort_unstable_by_key(|c| std::cmp::Reverse(c.score));
        let me = game.to_move();
        let mut best = stand;
        alpha = alpha.max(stand);
        for c in &list {
            game.play(c.mv);
            let score = self.child(game, me, depth - 1, ply + 1, alpha, beta, false);
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
        self.lists[ply] = list;
        if self.stopped {
            0
        } else {
            best
        }
    }

    /// The expected line after `first`, read back from the table.
    fn principal_variation(&self, game: &mut G, first: G::Move) -> Vec<G::Move> {
        let mut pv = vec![first];
        game.play(first);
        let mut legal = Vec::new();
        while pv.len() < 32 && game.outcome().is_none() {
            let Some(e) = self.tt.probe(game.hash()) else { break };
            legal.clear();
            game.legal_moves(&mut legal);
            let Some(&mv) = legal.iter().find(|&&m| game.move_key(m) == e.mv) else { break };
            pv.push(mv);
            game.play(mv);
        }
        for _ in 0..pv.len() {
            game.undo();
        }
        pv
    }
}

/// The factor of the late-move reductions in a heuristic selection of moves.
const LATE_MOVE_REDUCTION: f32 = 1.0;

/// The longest run of forcing moves a quiescence search plays past the horizon.
const QUIESCENCE_PLIES: i32 = 8;

/// How many of a node's moves are picked one by one before the rest are sorted.
const PICKED_ONE_BY_ONE: usize = 4;

/// How many moves a non-PV node searches at `depth` when its list is not exhaustive.
fn lmp_count(depth: i32) -> usize {
    3 + (depth.max(1) as usize).pow(2)
}

/// Human-readable score: "win in N" / "loss in N" plies, or centi-units.
pub fn score_text(score: Score) -> String {
    if score >= WIN_BOUND {
        format!("win{}", WIN - score)
    } else if score <= -WIN_BOUND {
        format!("loss{}", WIN + score)
    } else {
        format!("{score}")
    }
}
