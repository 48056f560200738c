//! The line protocol (protocol.md): parsing and the session loop; and the Gomocup (pbrain)
//! protocol of gomoku managers ([`gomocup`]).

pub mod command;
pub mod gomocup;
mod session;

pub use session::serve;
