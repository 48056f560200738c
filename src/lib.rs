//! boardbot: a game-playing engine for two-player, perfect-information board games.
//!
//! - [`game`]: the rules of each game, and the per-game knowledge search uses.
//! - [`search`]: game-agnostic iterative-deepening alpha-beta.
//! - [`bot`]: a game in progress plus the player that picks its moves.
//! - [`protocol`]: the line protocol of protocol.md.
//! - [`referee`]: `boardbot match`, an independent referee between engine processes.
//! - [`merge`]: `boardbot merge`, the shards of a match or a self-play run put together.
//! - [`analyze`]: `boardbot analyze`, the search algorithms compared on a position.
//! - [`ui`]: the user interfaces: `boardbot play` (a terminal) and `boardbot serve` (a browser).
//! - [`selfplay`] and [`tune`]: `boardbot selfplay` (positions of the engine's games) and
//!   `boardbot tune` (an evaluation's weights fitted to them).

pub mod analyze;
pub mod annotate;
pub mod bench;
pub mod bot;
pub mod cache;
pub mod game;
pub mod memory;
pub mod merge;
pub mod net_train;
pub mod protocol;
pub mod referee;
pub mod search;
pub mod selfplay;
pub mod solve;
pub mod spsa;
pub mod suite;
pub mod tune;
pub mod ui;
