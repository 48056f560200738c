//! When to stop: a hard deadline that a reply must beat, a soft one after which no new iteration
//! starts, depth and node caps, and a stop flag another thread may raise (end of input, quit).
//! Every share of a move's time is here: the soft deadline's, the safety margin's, and those of
//! the root's phases (the exact solver, the answers to a threat, the traps, the swindle).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub struct Limits {
    /// When the move was asked for (the moment its line was read).
    pub start: Instant,
    /// The search must be over by `start + hard`.
    pub hard: Option<Duration>,
    /// No new iteration starts after `start + soft`.
    pub soft: Option<Duration>,
    pub max_depth: u32,
    pub max_nodes: Option<u64>,
    pub stop: Option<Arc<AtomicBool>>,
}

/// Share of a move's budget after which no new iteration starts, when the time is per move: time
/// left unused is lost, and search plays a stopped iteration's move where it beat the last
/// finished iteration's, so iterations start until late.
const SOFT_SHARE: f64 = 0.85;

/// The same share when the budget is carved from a game clock: what a move leaves unused goes to
/// the later moves (at 0.85 the Kalah agent's 6 s clock ran short in the endgame and lost to
/// greedy as North, tests/mkagent.rs).
const CLOCK_SOFT_SHARE: f64 = 0.5;

/// The safety margin kept free of a move's time is at most this share of the timeout, so that
/// short time controls keep most of their time (0.2 s: 60 ms of margin, 140 ms to think).
pub const MARGIN_SHARE: f64 = 0.3;

// ---- The shares of a move's budget that the search's phases at the root may take (the
// searcher reads them; they are here so that every share of the time is in one file). ----

/// The share of a move's budget that a game's exact solver may take at the root.
pub(crate) const SOLVER_SHARE: f64 = 0.8;
/// The share of a move's budget that the search for answers to a threatened forced win may take.
pub(crate) const DEFENCE_SHARE: f64 = 0.2;
/// The search itself keeps at least this share of the budget: the answers to a threat end by
/// then, even when the exact solver took its whole share first.
pub(crate) const SEARCH_RESERVE: f64 = 0.15;
/// The swindle's slice of time: this share of the budget, and at most SWINDLE_MAX.
pub(crate) const SWINDLE_SHARE: f64 = 0.25;
pub(crate) const SWINDLE_MAX: Duration = Duration::from_millis(300);
/// Setting traps after the exact solver's verdict: the search may take the budget up to this
/// share, each of the solver's verdicts on an opponent's reply at most TRAP_QUERY_SHARE of it
/// (the search looks at the opponent's likeliest `TRAP_REPLIES` replies).
pub(crate) const TRAP_END: f64 = 0.85;
pub(crate) const TRAP_QUERY_SHARE: f64 = 1.0 / 16.0;

impl Limits {
    /// No limits at all (search until `max_depth` or a proof).
    pub fn infinite() -> Limits {
        Limits { start: Instant::now(), hard: None, soft: None, max_depth: u32::MAX, max_nodes: None, stop: None }
    }

    pub fn depth(depth: u32) -> Limits {
        Limits { max_depth: depth, ..Limits::infinite() }
    }

    /// A move within `timeout - margin` of `start`, the margin at most [`MARGIN_SHARE`] of the
    /// timeout.
    pub fn per_move(start: Instant, timeout: Duration, margin: Duration) -> Limits {
        Limits::with_share(start, timeout, margin, SOFT_SHARE)
    }

    /// As [`Limits::per_move`], for a move's share of a game clock: iterations stop earlier (see
    /// [`CLOCK_SOFT_SHARE`]).
    pub fn from_clock(start: Instant, timeout: Duration, margin: Duration) -> Limits {
        Limits::with_share(start, timeout, margin, CLOCK_SOFT_SHARE)
    }

    fn with_share(start: Instant, timeout: Duration, margin: Duration, share: f64) -> Limits {
        let margin = margin.min(timeout.mul_f64(MARGIN_SHARE));
        let budget = timeout.saturating_sub(margin).max(Duration::from_millis(1));
        Limits { start, hard: Some(budget), soft: Some(budget.mul_f64(share)), ..Limits::infinite() }
    }

    pub fn with_stop(mut self, stop: Arc<AtomicBool>) -> Limits {
        self.stop = Some(stop);
        self
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    pub fn stop_requested(&self) -> bool {
        self.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed))
    }

    pub fn past_hard(&self) -> bool {
        self.hard.is_some_and(|h| self.start.elapsed() >= h)
    }

    pub fn past_soft(&self) -> bool {
        self.soft.is_some_and(|s| self.start.elapsed() >= s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_margin_is_at_most_a_share_of_a_short_timeout() {
        let now = Instant::now();
        let ms = Duration::from_millis;
        // The 100 ms margin stands at 1 s; at 0.2 s it is 60 ms (300 ms left 5 ms to think).
        assert_eq!(Limits::per_move(now, ms(1000), ms(100)).hard, Some(ms(900)));
        assert_eq!(Limits::per_move(now, ms(1000), ms(300)).hard, Some(ms(700)));
        assert_eq!(Limits::per_move(now, ms(200), ms(300)).hard, Some(ms(140)));
        assert_eq!(Limits::per_move(now, ms(200), ms(20)).hard, Some(ms(180)));
        assert_eq!(Limits::per_move(now, ms(10_000), ms(300)).hard, Some(ms(9700)));
    }
}
