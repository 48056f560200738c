//! The games. One folder per game holds its rules (a struct implementing [`Game`]: to-move,
//! legal moves, play/undo, hash, outcome, move text), its pictures ([`render::Render`]) and, beside
//! them, its knowledge (an implementation of [`crate::search::Knowledge`]: evaluation, ordering,
//! threats, exact solvers and when play calls them), and its entry in the [`registry`].
//!
//! - [`registry`]: every game by name; a game's description text becomes a game there.
//! - [`any`]: [`any::AnyGame`], a game of any kind through text, which the layers above hold,
//!   and [`any::Playing`], its generic implementation over a game's rules, pictures and knowledge.
//! - [`render`]: how a game shows itself to people (the board as text, the web page's view).
//! - [`players`]: how the engine picks a move (players, algorithms, levels, requests).
//! - [`tuned`]: a position as the tuner sees it. [`contract`]: the rules' contract, checked.
//! - [`salt`]: every game's hash salt, in one table.
//! - [`kinarow`], [`proof`]: what the K-in-a-row games share (the board of windows; the exact
//!   solvers' table and line helpers); [`solving`]: what the games' `solve` commands share.

pub mod any;
pub mod checkers;
pub mod connectx;
pub mod contract;
pub mod kalah;
pub mod kinarow;
pub mod mnk;
pub mod players;
pub mod playing;
pub mod proof;
pub mod registry;
pub mod render;
pub mod salt;
pub mod solving;
pub mod tuned;
pub use crate::search::zobrist;

pub use crate::search::game::{Alternating, Game, Outcome, Side};

#[cfg(test)]
mod search_tests;
