//! An exact (weak) solver for m,n,k-games on boards of M rows and N columns with
//! M x (N + 1) <= 64 (up to 7x7 and 8x7), any K, K or more in a row winning, no blocked cells:
//! whether the side to move wins, draws or loses with perfect play.
//!
//! - [`bitboard`]: positions as bitboards in every orientation of the board; lines by shifts.
//! - [`search`]: negamax with null windows, forced blocks, double threats, the windows' scan.
//! - [`pairing`]: pairing strategies, proofs that a side completes no window.
//! - [`pn`]: the same rules searched by df-pn (proof numbers): what the bot uses in play.
//! - The table of proved bounds is the Connect-X solver's ([`crate::game::solver::table`]).

pub mod bitboard;
pub mod pairing;
pub mod pn;
pub mod search;

pub use crate::game::solver::{table::BoundTable, Aborted};
pub use bitboard::{Board, Stones};
pub use search::AlphaBeta;

#[cfg(test)]
mod tests;
