//! Game-agnostic search: iterative deepening, PVS negamax alpha-beta with a transposition table,
//! aspiration windows, killer and history ordering, late-move reductions, and a clock. It knows
//! games only through [`Game`] and [`Searchable`]; it never names one.

pub mod clock;
pub mod dfpn;
mod ordering;
mod searcher;
pub mod tt;

pub use clock::Limits;
pub use searcher::{SearchInfo, SearchResult, Searcher};

use crate::game::{Game, Side};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Scores are from the view of the side to move. A win `p` plies from the root scores
/// `WIN - p`, so faster wins score higher and slower losses lose less.
pub type Score = i32;
pub const WIN: Score = 1_000_000;
pub const MAX_PLY: usize = 256;
/// Scores beyond this are wins or losses found by search, never evaluations.
pub const WIN_BOUND: Score = WIN - MAX_PLY as Score;
/// Evaluations are clamped into +-EVAL_LIMIT.
pub const EVAL_LIMIT: Score = WIN_BOUND / 2;

/// A candidate move with the game's estimate of how promising it is (higher first).
#[derive(Copy, Clone, Debug)]
pub struct Candidate<M> {
    pub mv: M,
    pub score: i64,
}

/// What an exact solver proved about a position: its value (in search units: a win in `p`
/// plies scores `WIN - p`) and the moves that keep it, best first. For a win, one winning move
/// is enough, and the score may be a lower bound (a win proved, its distance not; or a draw
/// at least, the win not settled).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof<M> {
    pub score: Score,
    pub moves: Vec<M>,
}

/// What the search needs to know about a game beyond its rules: evaluation, candidate moves,
/// and tactics (immediate wins, forced replies, whether a side can still win).
pub trait Searchable: Game {
    /// Static evaluation from the view of the side to move, in +-EVAL_LIMIT.
    fn evaluate(&self) -> Score;

    /// A move that wins at once for the side to move, if there is one.
    fn winning_move(&self) -> Option<Self::Move>;

    /// Whether the side to move can be evaluated statically: no immediate threat against it
    /// that the evaluation would not see. Non-quiet nodes are searched past the horizon.
    fn quiet(&self) -> bool;

    /// Candidate moves for search, appended to `out` in any order with ordering scores. When the
    /// side to move is forced (e.g. it must block a threat) only the forced replies are given.
    /// Returns whether the list is exhaustive, i.e. every omitted legal move is provably no
    /// better than the ones given; only then may search treat its result as a proof.
    fn candidates(&self, out: &mut Vec<Candidate<Self::Move>>) -> bool;

    /// At a quiet node (see [`Searchable::quiet`]): a win the side to move forces in this many
    /// plies that the static evaluation does not see (e.g. a stone that makes two threats at
    /// once). Search scores such a leaf as the win instead of evaluating it.
    fn quiet_win(&self) -> Option<u32> {
        None
    }

    /// Whether `side` can still win at all (false lets search bound the score by a draw).
    fn can_win(&self, _side: Side) -> bool {
        true
    }

    /// The exact value of the position and the moves that keep it, from a game's own exact
    /// solver, if it has one for this position and it finishes before `deadline` (or `stop`).
    fn solve_exactly(&self, _deadline: Instant, _stop: Option<&AtomicBool>) -> Option<Proof<Self::Move>> {
        None
    }

    /// Whether the side to move wins with best play, by the game's exact solver, if it has one
    /// for this position and it settles the question before `deadline` (or `stop`).
    fn wins_exactly(&self, _deadline: Instant, _stop: Option<&AtomicBool>) -> Option<bool> {
        None
    }

    /// The moves among `moves` after which the game's exact solver has already proved that the
    /// opponent wins, from what its earlier searches left (no new search): e.g. those a solve
    /// refuted before it ran out of time. The search leaves them out, unless they are all.
    fn refuted_moves(&self, _moves: &[Self::Move]) -> Vec<Self::Move> {
        Vec::new()
    }

    /// When the opponent threatens a forced win (one it would have if it were to move), the
    /// moves among `moves` that take it away (possibly none); None when it threatens none or the
    /// game cannot tell before `deadline`.
    fn threat_answers(&self, _moves: &[Self::Move], _deadline: Instant) -> Option<Vec<Self::Move>> {
        None
    }
}

#[cfg(test)]
mod tests;
