//! An independent referee: plays matches between two engines and keeps the score.
//!
//! - [`adapter`]: what the referee needs of a player ([`EngineAdapter`]) and how players fail
//!   ([`Fault`]).
//! - [`process`]: the one kind of player so far, a child process speaking boardbot's protocol.
//!   The built-in players (`self`, `l1`, `random`) are this same binary run as such a process.
//! - [`game`]: one game, checked against the referee's own copy of the rules.
//! - [`score`]: course points and the totals of a match; [`report`]: tables and logs.
//! - [`spec`]: the text forms of boards and engines; [`cli`]: `boardbot match`.

pub mod adapter;
pub mod cli;
pub mod game;
pub mod process;
pub mod report;
pub mod score;
pub mod spec;

pub use adapter::{EngineAdapter, Fault, FaultKind, GameSetup, Reply};
pub use cli::MatchArgs;
pub use game::{play_game, GameEnd, GameRecord};
pub use process::{ProcessConfig, ProcessEngine};
pub use score::Tally;

use crate::bot::GameSpec;
use std::time::Duration;

/// What to play: every board `rounds` times with each engine moving first once per round.
#[derive(Clone, Debug)]
pub struct MatchPlan {
    pub boards: Vec<GameSpec>,
    pub rounds: usize,
    /// Time per move.
    pub timeout: Duration,
    /// Game `i` of the match (from 0) is played with seed `seed + i`.
    pub seed: u64,
}

/// The results of a match.
#[derive(Clone, Debug, Default)]
pub struct MatchResult {
    /// Per board, in the order played.
    pub boards: Vec<(GameSpec, Tally)>,
    pub total: Tally,
    pub games: Vec<GameRecord>,
}

/// Plays `plan` between `engines` (engine1, engine2), calling `on_game` after each game. Both
/// engines must start; after that, every failure of an engine only forfeits a game (the engine
/// is started again for the next one). Game `2r` of each board has engine1 first, `2r + 1`
/// engine2, so the colours are balanced exactly.
pub fn run_match(
    plan: &MatchPlan,
    engines: [&mut dyn EngineAdapter; 2],
    mut on_game: impl FnMut(&GameRecord),
) -> anyhow::Result<MatchResult> {
    let [e1, e2] = engines;
    for e in [&mut *e1, &mut *e2] {
        e.start().map_err(|f| anyhow::anyhow!("engine {}: {f}", e.name()))?;
    }
    let mut result = MatchResult::default();
    let mut number = 0;
    for spec in &plan.boards {
        let mut tally = Tally::default();
        for _round in 0..plan.rounds {
            for first in 0..2 {
                let seed = plan.seed.wrapping_add(number as u64);
                let record = play_game(number, spec, [&mut *e1, &mut *e2], first, plan.timeout, seed)
                    .map_err(|e| anyhow::anyhow!("board '{spec}': {e}"))?;
                number += 1;
                tally.add(&record);
                on_game(&record);
                result.games.push(record);
            }
        }
        result.total.merge(&tally);
        result.boards.push((spec.clone(), tally));
    }
    e1.quit();
    e2.quit();
    Ok(result)
}
