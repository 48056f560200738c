//! The line protocol (protocol.md): parsing and the session loop; and the Gomocup (pbrain)
//! protocol of gomoku managers ([`gomocup`]); the Manchester Kalah referee's ([`mkagent`]).

pub mod command;
pub mod gomocup;
pub mod mkagent;
mod session;

pub use session::serve;
