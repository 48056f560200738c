//! When to stop: a hard deadline that a reply must beat, a soft one after which no new iteration
//! starts, depth and node caps, and a stop flag another thread may raise (end of input, quit).

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

/// Share of the budget after which starting another iteration is not worth it: an iteration
/// usually costs more than all earlier ones together.
const SOFT_SHARE: f64 = 0.5;

impl Limits {
    /// No limits at all (search until `max_depth` or a proof).
    pub fn infinite() -> Limits {
        Limits { start: Instant::now(), hard: None, soft: None, max_depth: u32::MAX, max_nodes: None, stop: None }
    }

    pub fn depth(depth: u32) -> Limits {
        Limits { max_depth: depth, ..Limits::infinite() }
    }

    /// A move within `timeout - margin` of `start`.
    pub fn per_move(start: Instant, timeout: Duration, margin: Duration) -> Limits {
        let budget = timeout.saturating_sub(margin).max(Duration::from_millis(5));
        Limits { start, hard: Some(budget), soft: Some(budget.mul_f64(SOFT_SHARE)), ..Limits::infinite() }
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
