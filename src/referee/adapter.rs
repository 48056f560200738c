//! The referee's view of a player: an [`EngineAdapter`] starts an engine, sets up games, asks
//! for moves under a deadline and stops it. The referee knows nothing of how an engine is run or
//! which protocol it speaks; every failure comes back as a [`Fault`] that forfeits the game.

use crate::game::registry::GameSpec;
use std::fmt;
use std::time::Duration;

/// Why a player forfeits a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FaultKind {
    /// No reply within the time limit.
    Timeout,
    /// A reply shaped like a move (numbers only, or moves of the game) that is not legal now.
    Illegal,
    /// A reply that is not a move at all: an `error` line, an unexpected `ok` or `end`, text.
    Garbled,
    /// The engine could not be started, died, or closed its pipes.
    Crash,
}

impl FaultKind {
    pub fn as_str(self) -> &'static str {
        match self {
            FaultKind::Timeout => "timeout",
            FaultKind::Illegal => "illegal",
            FaultKind::Garbled => "garbled",
            FaultKind::Crash => "crash",
        }
    }
}

impl fmt::Display for FaultKind {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A failure of an engine, with what happened in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    pub kind: FaultKind,
    pub detail: String,
    /// How long the faulty reply took, or for a timeout how long the referee waited, when known
    /// (it counts as a reply time in the statistics).
    pub elapsed: Option<Duration>,
}

impl Fault {
    pub fn new(kind: FaultKind, detail: impl Into<String>) -> Fault {
        Fault { kind, detail: detail.into(), elapsed: None }
    }

    pub fn timeout(elapsed: Duration, limit: Duration, detail: impl Into<String>) -> Fault {
        let detail = format!("{} after {} ms (limit {} ms)", detail.into(), ms(elapsed), ms(limit));
        Fault { kind: FaultKind::Timeout, detail, elapsed: Some(elapsed) }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}: {}", self.kind, self.detail)
    }
}

fn ms(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1000.0)
}

/// One game as an engine sees it.
#[derive(Clone, Debug)]
pub struct GameSetup<'a> {
    pub spec: &'a GameSpec,
    /// Whether this engine moves first.
    pub first: bool,
    /// Time allowed per move.
    pub timeout: Duration,
    /// Seed of the engine's random choices for this game, for engines that take one.
    pub seed: u64,
    /// Moves the referee played before the engines take over (`--opening`), in the protocol's
    /// text, from the first player's; the first move asked for is the one after them.
    pub opening: &'a [String],
}

/// A move as the engine wrote it, and how long it took to come (from the write of the request
/// to the read of the reply).
#[derive(Clone, Debug)]
pub struct Reply {
    pub text: String,
    pub elapsed: Duration,
}

/// A player, however it is run.
pub trait EngineAdapter: Send {
    /// A short name for tables and logs.
    fn name(&self) -> &str;
    /// Starts the engine if it is not running.
    fn start(&mut self) -> Result<(), Fault>;
    /// Whether the engine is running (as far as the adapter knows).
    fn is_running(&self) -> bool;
    /// Sets up a new game (any game in progress is abandoned). Not timed as a move.
    fn new_game(&mut self, setup: &GameSetup) -> Result<(), Fault>;
    /// Asks for a turn: the first the engine is asked for in this game (after the opening) if
    /// `opponent_turn` is empty, else the reply to the opponent's turn (its moves in order;
    /// the turn must not end the game). The reply must come within `limit`.
    /// The text is returned as written; the caller checks it against the rules.
    fn ask_move(&mut self, opponent_turn: &[String], limit: Duration) -> Result<Reply, Fault>;
    /// Stops the engine at once.
    fn kill(&mut self);
    /// Stops the engine politely (asks it to quit, kills it if it does not).
    fn quit(&mut self);
    /// Kills and starts the engine again.
    fn restart(&mut self) -> Result<(), Fault> {
        self.kill();
        self.start()
    }
}
