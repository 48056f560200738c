//! The search's entry ([`Searcher`]: one thread or Lazy SMP) and its per-thread state ([`Run`]),
//! which the parts of the search share: the root policy (root.rs), iterative deepening
//! (deepen.rs), the node (node.rs), its moves (moves.rs) and the quiescence search
//! (quiescence.rs).
//!
//! Negamax here does not assume alternation: after a move, if the same side is still to move the
//! child's score is taken as it is, otherwise negated. Results are proofs when the subtree
//! reached only decided positions through exhaustive move lists: such entries are stored with
//! depth [`PROVEN`], and a root result that is a proof ends the search at once.

use super::frame::Frame;
use super::ordering::MoveOrder;
use super::tt::Tt;
use super::{Game, Limits, RootKnowledge, Score, Selectivity, Side, MAX_PLY, WIN, WIN_BOUND};
use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};
use std::time::Duration;

/// One finished iteration: its depth, score, and the nodes and time spent so far.
#[derive(Clone, Debug)]
pub struct SearchInfo {
    pub depth: u32,
    pub score: Score,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// Where a search's move came from: the root policy (src/search/root.rs) decides it and says so;
/// the page, the terminal and the logs read it with the move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// Iterative deepening ([`SearchResult::depth`] deep), or a textbook algorithm's search.
    #[default]
    Search,
    /// The only move (or the only one that the exact solver does not refute), played without a
    /// search under a clock.
    OnlyMove,
    /// The game's opening book.
    Book,
    /// The game's exact solver, before any search.
    Solver,
    /// A move that wins at once.
    WinsAtOnce,
    /// No time was left (a stop, or the budget already spent): the first move in the game's
    /// order, played without a search.
    NoTime,
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
    /// What decided the move.
    pub source: Source,
}

pub struct Searcher {
    tt: Tt,
    /// Move-ordering memory, one per search thread.
    orderings: Vec<MoveOrder>,
}

/// Beyond every score: the widest window is (-INF, INF).
pub(super) const INF: Score = WIN + 1;

/// What a search of a position returns: its score (from the view of the side to move there,
/// or of the mover for [`Run::child`]) and what the score rests on.
#[derive(Clone, Copy, Debug)]
pub(super) struct Value {
    pub(super) score: Score,
    /// The score is a proof: every leaf below was decided (the game over, a win seen at once,
    /// a proved table entry) through exhaustive move lists; no leaf was judged heuristically (an
    /// evaluation, a pruned or reduced selection, a table entry that is no proof).
    pub(super) proof: bool,
    /// Some leaf below was scored a draw by its history ([`Game::drawn_by_history`]): the score
    /// depends on the path to the position, so it is not stored in the table.
    pub(super) path_draw: bool,
}

impl Value {
    /// A proved score. (A stopped search returns `Value::proof(0)`, which nobody reads.)
    pub(super) fn proof(score: Score) -> Value {
        Value { score, proof: true, path_draw: false }
    }

    /// A heuristic score: no proof.
    pub(super) fn heuristic(score: Score) -> Value {
        Value { score, proof: false, path_draw: false }
    }

    /// The score `score` resting on the searches summed up in `basis`.
    pub(super) fn on(score: Score, basis: Basis) -> Value {
        Value { score, proof: basis.proof, path_draw: basis.path_draw }
    }
}

/// What a node's score rests on, summed over the searches below it so far (every one counts,
/// a re-search and a search whose score was not kept too): whether all were proofs, and
/// whether one met a draw by history. A node's step that judges heuristically (a pruned move,
/// a list that is not exhaustive) marks it with [`Basis::guess`].
#[derive(Clone, Copy, Debug)]
pub(super) struct Basis {
    pub(super) proof: bool,
    pub(super) path_draw: bool,
}

impl Basis {
    /// Nothing searched yet: a proof so far.
    pub(super) fn new() -> Basis {
        Basis { proof: true, path_draw: false }
    }

    /// A search below returned `v`.
    pub(super) fn add(&mut self, v: Value) {
        self.proof &= v.proof;
        self.path_draw |= v.path_draw;
    }

    /// A step judged heuristically: the score is no proof.
    pub(super) fn guess(&mut self) {
        self.proof = false;
    }
}
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

pub(super) struct Run<'a, G: Game, K: RootKnowledge<G>> {
    pub(super) tt: &'a Tt,
    pub(super) know: &'a K,
    pub(super) ordering: &'a mut MoveOrder,
    pub(super) limits: &'a Limits,
    /// Set when the main thread is done (for helper threads).
    pub(super) done: Option<&'a AtomicBool>,
    /// 0 for the main thread; helpers are numbered from 1 (they log nothing and start at
    /// staggered depths, so that the threads do not all search the same tree in step).
    pub(super) thread: usize,
    /// One frame per ply (see [`Frame`]), 0 the root's.
    pub(super) stack: Vec<Frame<G::Move>>,
    pub(super) nodes: u64,
    pub(super) stopped: bool,
    /// An earlier stop than the limits' (the swindle's slice), from the search's start.
    pub(super) deadline: Option<Duration>,
    /// When the clock was last looked at, from the search's start.
    pub(super) last_look: Duration,
    /// The longest time between two looks at the clock in this search: the thread was not
    /// running (a loaded machine) or a node took that long. A reply may come that much after
    /// the stop, so the search stops that much before its hard limit (at most half of it;
    /// issue 39: replies at 0.1 and 0.2 s came up to twice the budget late beside two CPU hogs).
    pub(super) stall: Duration,
    /// No new iteration after this (the limits' soft deadline, moved on if the exact solver
    /// took part of the budget).
    pub(super) soft: Option<Duration>,
    /// The game's reductions and pruning (see [`Selectivity`]).
    pub(super) sel: Selectivity,
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
            stack: (0..MAX_PLY + 2).map(|_| Frame::new()).collect(),
            nodes: 0,
            stopped: false,
            deadline: None,
            last_look: Duration::ZERO,
            stall: Duration::ZERO,
            soft: limits.soft,
            sel: Selectivity::default(),
        }
    }
}

impl<G: Game, K: RootKnowledge<G>> Run<'_, G, K> {
    /// Searches the position after a move by `me`, returning its value from `me`'s view.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn child(
        &mut self,
        game: &mut G,
        me: Side,
        depth: i32,
        ply: usize,
        alpha: Score,
        beta: Score,
        pv: bool,
    ) -> Value {
        if game.to_move() == me {
            self.negamax(game, depth, ply, alpha, beta, pv)
        } else {
            let v = self.negamax(game, depth, ply, -beta, -alpha, pv);
            Value { score: -v.score, ..v }
        }
    }

    pub(super) fn out_of_time(&mut self) -> bool {
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

    /// The expected line after `first`, read back from the table.
    pub(super) fn principal_variation(&self, game: &mut G, first: G::Move) -> Vec<G::Move> {
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
