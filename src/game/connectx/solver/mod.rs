//! An exact Connect-X solver for every board whose bitboard fits in 64 bits ((rows + 1) x cols
//! <= 64) and any X: Connect-4 (6x7x4), 4x4x4, 5x5x4, 6x6x5, 7x7x5, 8x7x4 ...
//!
//! - [`bitboard`]: positions as bitboards; lines of any length by shifts.
//! - [`BoundTable`] (shared with the m,n,k solver, in [`crate::game::solver`]): a lock-free table of
//!   proved score bounds and best moves.
//! - [`search`]: negamax with alpha-beta, null-window narrowing, move ordering.
//!
//! Scores follow Pascal Pons' convention (the one of the shared benchmark positions), from the
//! side to move's view: 0 for a draw; a win by the stone played after `m` stones in all scores
//! `(cells + 1 - m) / 2` (integer division), so the earlier the win, the higher (on 6x7: 22 minus
//! the winner's stones); a loss scores the negative of the opponent's win.

pub mod bitboard;
pub mod search;

pub use crate::game::solver::{table::BoundTable, Aborted};
pub use bitboard::{Connect4, Geometry, Position, Shape};
pub use search::{solve_parallel, Solver};

#[cfg(test)]
mod tests;
