//! The user interfaces: they hold games only through `AnyGame`, `GameSpec` and `Engine`.
//!
//! - [`play`]: `boardbot play`, a person against the engine in a terminal.
//! - [`serve`]: `boardbot serve`, a page in the browser.
//! - [`words`]: the engine's thinking in people's words, for both.

pub mod play;
pub mod serve;
pub mod words;
