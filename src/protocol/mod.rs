//! The line protocol (protocol.md): parsing and the session loop.

pub mod command;
mod session;

pub use session::serve;
