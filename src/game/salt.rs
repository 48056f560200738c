//! Each game's hash salt, mixed into every key of its positions' hashes (see
//! [`crate::search::Game::hash`]), so that a table shared across games never takes one game's
//! position for another's. One table, so that no two games take the same salt: a new game adds
//! its line here (the registry's tests check that they differ). The games' rules read it; it
//! reads nothing.

pub const MNK: u64 = 1;
pub const CONNECTX: u64 = 2;
pub const KALAH: u64 = 3;
pub const CHECKERS: u64 = 4;
/// Every salt above, to check that they differ.
pub const ALL: &[u64] = &[MNK, CONNECTX, KALAH, CHECKERS];
