//! When to stop: a hard deadline that a reply must beat, a soft one after which no new iteration
//! starts, depth and node caps, and a stop flag another thread may raise (end of input, quit).
//! Every share of a move's time is here: the soft deadline's, the safety margin's, and those of
//! the root's phases (the exact solver, the answers to a threat, the traps, the swindle).

use super::SelectivityOverride;
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
    /// The values that take the place of the game's own selectivity (none by default).
    pub selectivity: SelectivityOverride,
}

/// Share of a move's budget after which no new iteration starts, when the time is per move: time
/// left unused is lost, and search plays a stopped iteration's move where it beat the last
/// finished iteration's, so iterations start until late.
pub const SOFT_SHARE: f64 = 0.85;

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
        Limits {
            start: Instant::now(),
            hard: None,
            soft: None,
            max_depth: u32::MAX,
            max_nodes: None,
            stop: None,
            selectivity: SelectivityOverride::default(),
        }
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

    /// These limits with the soft deadline at `share` of the hard one, if `share` is given (the
    /// engine's `soft-share` option), in place of [`SOFT_SHARE`] or [`CLOCK_SOFT_SHARE`].
    pub fn with_soft_share(mut self, share: Option<f64>) -> Limits {
        if let (Some(share), Some(hard)) = (share, self.hard) {
            self.soft = Some(hard.mul_f64(share));
        }
        self
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

/// The most of a move's time the margin may take once widened by the delays measured in a game
/// (see [`ReplyClock`]): the search keeps at least the rest.
pub const MAX_WIDENED_SHARE: f64 = 0.8;

/// A measured delay widens the margin by this many times itself: the next may be longer.
const WIDEN_FACTOR: u32 = 2;

impl Limits {
    /// These limits with the margin widened by `extra`, the margin in all at most
    /// [`MAX_WIDENED_SHARE`] of `timeout`; the soft deadline keeps its share of the hard one.
    pub fn widened(mut self, timeout: Duration, extra: Duration) -> Limits {
        let (Some(hard), false) = (self.hard, extra.is_zero()) else { return self };
        let floor = timeout.mul_f64(1.0 - MAX_WIDENED_SHARE).min(hard);
        let narrower = hard.saturating_sub(extra).max(floor).max(Duration::from_millis(1));
        self.soft = self.soft.map(|s| s.mul_f64(narrower.as_secs_f64() / hard.as_secs_f64()));
        self.hard = Some(narrower);
        self
    }
}

/// A move's reply as the engine measured it (see [`ReplyClock::written`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReplyTime {
    /// From the line read to the reply written.
    pub elapsed: Duration,
    /// The move's time.
    pub timeout: Duration,
    /// From the search's stop (its result in hand) to the reply written: what ran between them
    /// (the protocol's work, the system's scheduling on a loaded machine).
    pub after_stop: Duration,
    /// The reply's lateness past the search's planned end (the hard deadline): the stop's own
    /// delay and `after_stop`.
    pub late: Duration,
    /// Whether this reply widened the margin.
    pub widened: bool,
}

/// Measures, move by move, how late each reply is written against the search's plan, and widens
/// the margin for the rest of the game when the delay grows, as a referee's clock would see it:
/// the margin is widened to [`WIDEN_FACTOR`] times the worst lateness seen ([`Limits::widened`]).
#[derive(Clone, Debug, Default)]
pub struct ReplyClock {
    /// The margin's widening for the rest of the game.
    widen: Duration,
    /// The move searched and not yet written: its start, time, hard deadline and stop.
    pending: Option<(Instant, Duration, Option<Duration>, Instant)>,
}

impl ReplyClock {
    /// A new game: no delay measured yet.
    pub fn new_game(&mut self) {
        *self = ReplyClock::default();
    }

    /// The margin's widening now.
    pub fn widen(&self) -> Duration {
        self.widen
    }

    /// The search of a move with `limits` and `timeout` has stopped, now.
    pub fn searched(&mut self, limits: &Limits, timeout: Duration) {
        self.pending = Some((limits.start, timeout, limits.hard, Instant::now()));
    }

    /// The reply of the move searched last is written, now (None if no move was searched since
    /// the last reply).
    pub fn written(&mut self) -> Option<ReplyTime> {
        let (start, timeout, hard, stopped) = self.pending.take()?;
        let now = Instant::now();
        let after_stop = now.saturating_duration_since(stopped);
        let planned = hard.map_or(stopped, |h| (start + h).min(stopped));
        let late = now.saturating_duration_since(planned);
        let widened = late * WIDEN_FACTOR > self.widen && hard.is_some();
        if widened {
            self.widen = late * WIDEN_FACTOR;
        }
        Some(ReplyTime { elapsed: now.saturating_duration_since(start), timeout, after_stop, late, widened })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_measured_delay_widens_the_margin_up_to_its_share() {
        let now = Instant::now();
        let ms = Duration::from_millis;
        let l = Limits::per_move(now, ms(1000), ms(100));
        assert_eq!(l.clone().widened(ms(1000), Duration::ZERO).hard, Some(ms(900)));
        let w = l.clone().widened(ms(1000), ms(100));
        assert_eq!((w.hard, w.soft), (Some(ms(800)), Some(ms(680))));
        assert_eq!(l.widened(ms(1000), ms(5000)).hard, Some(ms(200)), "the search keeps a fifth");
        // The clock: no move searched, nothing measured; a late reply widens the margin to
        // twice its lateness, an earlier one leaves it.
        let mut c = ReplyClock::default();
        assert_eq!(c.written(), None);
        let past = Limits::per_move(now - ms(200), ms(100), ms(10));
        c.searched(&past, ms(100));
        let r = c.written().unwrap();
        assert!(r.widened && r.late >= ms(110) && r.elapsed >= ms(200), "{r:?}");
        assert!(c.widen() >= ms(220));
        let widen = c.widen();
        c.searched(&Limits::per_move(Instant::now(), ms(100), ms(10)), ms(100));
        assert!(!c.written().unwrap().widened);
        assert_eq!(c.widen(), widen);
        c.new_game();
        assert_eq!(c.widen(), Duration::ZERO);
    }

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
