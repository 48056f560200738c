//! Pieces shared by the exact solvers of Connect-X ([`crate::game::connectx::solver`]) and of
//! m,n,k-games ([`crate::game::mnk::solver`]).
//!
//! - [`lines`]: lines of stones on 64-bit bitboards, found by shifts.
//! - [`table`]: a lock-free table of proved score bounds and best moves.
//! - [`Budget`]: when a solve gives up (a deadline, a stop flag).

pub mod lines;
pub mod table;
#[cfg(test)]
pub mod testing;

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Instant;

/// Why a solve gave up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Aborted;

/// How often (in nodes) the clock and the stop flag are looked at.
pub const CHECK_EVERY: u64 = 4096;

/// When a solve gives up: at a deadline, or when another thread sets a flag.
#[derive(Clone, Copy, Debug, Default)]
pub struct Budget<'a> {
    pub deadline: Option<Instant>,
    pub stop: Option<&'a AtomicBool>,
    /// Set once a limit was reached; the search then unwinds.
    pub aborted: bool,
}

impl Budget<'_> {
    /// Whether the solve must give up, looking at the limits every [`CHECK_EVERY`] nodes.
    #[inline(always)]
    pub fn reached(&mut self, nodes: u64) -> bool {
        if nodes.is_multiple_of(CHECK_EVERY) {
            return self.reached_now();
        }
        self.aborted
    }

    /// Whether the solve must give up, looking at the limits now (after work between nodes as
    /// long as [`CHECK_EVERY`] nodes).
    pub fn reached_now(&mut self) -> bool {
        if !self.aborted {
            self.aborted =
                self.stop.is_some_and(|s| s.load(Relaxed)) || self.deadline.is_some_and(|d| Instant::now() >= d);
        }
        self.aborted
    }
}

/// Narrows the window [alpha, beta] of a fail-hard search to the proved bounds [lower, upper];
/// the node's value when that closes the window.
#[inline(always)]
pub fn narrow(alpha: &mut i32, beta: &mut i32, lower: i32, upper: i32) -> Option<i32> {
    if *alpha < lower {
        *alpha = lower;
        if *alpha >= *beta {
            return Some(*alpha);
        }
    }
    if *beta > upper {
        *beta = upper;
        if *alpha >= *beta {
            return Some(*beta);
        }
    }
    None
}

/// The exact solvers' table of bounds, one for every game that uses one (its entries say which
/// board they are of): half of the games' memory budget, made once (its memory mapped then, so
/// that no move's time pays for it). None without a budget.
pub fn shared_table(resources: &crate::game::any::Resources) -> Option<std::sync::Arc<table::BoundTable>> {
    resources.shared("proof table", |mib| table::BoundTable::new((mib / 2).max(1)))
}
