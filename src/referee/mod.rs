//! An independent referee: plays matches between two engines and keeps the score.
//!
//! - [`adapter`]: what the referee needs of a player ([`EngineAdapter`]) and how players fail
//!   ([`Fault`]).
//! - [`process`]: the one kind of player so far, a child process speaking boardbot's protocol
//!   or, given as `pbrain:CMD`, the Gomocup protocol of gomoku engines ([`pbrain`]). The
//!   built-in players (`self`, `l1`, `random`) are this same binary run as such a process.
//! - [`game`]: one game, checked against the referee's own copy of the rules.
//! - [`score`]: course points and the totals of a match; [`report`]: tables and logs.
//! - [`runner`]: a match on one or more jobs (pairs of engines playing games in parallel).
//! - [`sprt`]: the sequential probability ratio test on game pairs (`match --sprt`);
//!   [`results`]: a match's games as mergeable records (`match --results`); [`shard`]: one
//!   N-th of a match (`--shard I/N`); [`merge`]: a match's shards put together (for `boardbot merge`, src/merge.rs).
//! - [`spec`]: the text forms of boards and engines; [`cli`]: `boardbot match`;
//!   [`progress`]: its progress display.
//! - [`replay`]: `boardbot replay`, which checks a game log against the rules.

pub mod adapter;
pub mod cli;
pub mod game;
pub mod merge;
pub mod pbrain;
pub mod process;
pub mod progress;
pub mod replay;
pub mod report;
pub mod results;
pub mod runner;
pub mod score;
pub mod shard;
pub mod spec;
pub mod sprt;

pub use adapter::{EngineAdapter, Fault, FaultKind, GameSetup, Reply};
pub use cli::MatchArgs;
pub use game::{play_game, GameEnd, GameRecord};
pub use process::{ProcessConfig, ProcessEngine, Protocol};
pub use replay::ReplayArgs;
pub use runner::{run_match, EnginePair};
pub use score::Tally;

use crate::game::registry::GameSpec;
use std::time::Duration;

/// What to play: every board `rounds` times two games, with each engine moving first once per
/// round unless `first` names the engine that always does (see [`runner::schedule`]).
#[derive(Clone, Debug)]
pub struct MatchPlan {
    pub boards: Vec<GameSpec>,
    pub rounds: usize,
    /// Time per move.
    pub timeout: Duration,
    /// Game `i` of the match (from 0) is played with seed `seed + i`.
    pub seed: u64,
    /// The engine that moves first in every game (0: engine1), or None to alternate.
    pub first: Option<usize>,
    /// Stop a game as a draw once neither side can win any more ([`GameEnd::DeadDraw`]),
    /// rather than play it out to the full board.
    pub dead_draws: bool,
    /// Random plies the referee plays before the engines take over (0: none). Both games of a
    /// round start from the same opening, with the colours swapped.
    pub opening: usize,
    /// Given openings (move texts): round `r` of each board starts from `openings[r %
    /// openings.len()]` (or, with `shuffle_openings`, see [`runner::schedule`]), then `opening`
    /// random plies.
    pub openings: Vec<Vec<String>>,
    /// The given openings are taken in an order drawn from the seed, each once in every
    /// `openings.len()` rounds, rather than in the order given.
    pub shuffle_openings: bool,
    /// The part of the match this run plays (all of it: [`shard::Shard::WHOLE`]); see
    /// [`runner::shard_schedule`].
    pub shard: shard::Shard,
}

/// The results of a match.
#[derive(Clone, Debug, Default)]
pub struct MatchResult {
    /// Per board, in the order played.
    pub boards: Vec<(GameSpec, Tally)>,
    pub total: Tally,
    pub games: Vec<GameRecord>,
}
