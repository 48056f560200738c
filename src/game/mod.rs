//! The games. One folder per game holds its rules (a struct implementing [`Game`]: to-move,
//! legal moves, play/undo, hash, outcome, move text), its pictures ([`any::Render`]) and, beside
//! them, its knowledge (an implementation of [`crate::search::Knowledge`]: evaluation, ordering,
//! threats, exact solvers and when play calls them), and its entry in the [`registry`].
//!
//! - [`registry`]: every game by name; a game's description text becomes a game there.
//! - [`any`]: [`any::AnyGame`], a game of any kind through text, which the layers above hold.
//! - [`kinarow`], [`proof`]: what the K-in-a-row games share (the board of windows; the exact
//!   solvers' table and line helpers); [`solving`]: what the games' `solve` commands share.

pub mod any;
pub mod checkers;
pub mod connectx;
pub mod contract;
pub mod kalah;
pub mod kinarow;
pub mod mnk;
pub mod proof;
pub mod registry;
pub mod solving;
pub use crate::search::zobrist;

pub use crate::search::game::{Alternating, Game, Outcome, Side};

#[cfg(test)]
mod search_tests;
