//! The games. One folder per game holds its rules (a struct implementing [`Game`]: to-move,
//! legal moves, play/undo, hash, outcome, move text), its pictures ([`render::Render`]) and, beside
//! them, its knowledge (an implementation of [`crate::search::Knowledge`]: evaluation, ordering,
//! threats, exact solvers and when play calls them), and its entry in the [`registry`].
//!
//! - [`registry`]: every game by name; a game's description text becomes a game there.
//! - [`any`]: [`any::AnyGame`], a game of any kind through text, which the layers above hold,
//!   and [`playing::Playing`], its generic implementation over a game's rules, pictures and knowledge.
//! - [`render`]: how a game shows itself to people (the board as text, the web page's view).
//! - [`players`]: how the engine picks a move (players, algorithms, levels, requests).
//! - [`tuned`]: a position as the tuner sees it. [`contract`]: the rules' contract, checked.
//! - [`salt`]: every game's hash salt, in one table.
//! - [`kinarow`], [`solver`]: what the K-in-a-row games share (the board of windows; what their
//!   exact solvers share: the table of proved bounds, line helpers, the budget); [`solve`]: what
//!   the games' `boardbot solve` commands share.
//!
//! A game's folder names its files alike: `mod.rs` (the rules), `description.rs` (its
//! description's words read), `entry.rs` (the registry entry: the game built with its knowledge),
//! `picture.rs` (the board as text and as the page's view), `knowledge.rs` (evaluation,
//! ordering), `solver/` (the exact solver), `solver_in_play.rs` (when play calls it), `solve.rs`
//! (its `boardbot solve`), `book.rs` (an opening book), `book_maker.rs` (its `boardbot book`).

pub mod any;
pub mod checkers;
pub mod connectx;
pub mod contract;
pub mod kalah;
pub mod kinarow;
pub mod mnk;
pub mod players;
pub mod playing;
pub mod record;
pub mod registry;
pub mod render;
pub mod salt;
pub mod solve;
pub mod solver;
pub mod tuned;
pub use crate::search::zobrist;

pub use crate::search::game::{Alternating, Game, Outcome, Side};

#[cfg(test)]
mod search_tests;
