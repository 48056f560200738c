//! What search needs a game to be: its rules ([`Game`]), seen from the side to move.
//!
//! Search is the bottom layer: it defines this contract and the games implement it (as in the
//! `minimax` crate). The contract assumes neither strict alternation (Kalah gives extra turns:
//! always ask [`Game::to_move`]) nor that a move is a cell (a checkers move is a path): a move is
//! any small copyable value with a stable numeric key for tables. Algorithms that do assume
//! alternation say so by asking for [`Alternating`].

use anyhow::Result;
use std::fmt::Debug;

/// One of the two players. `First` moves first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    First,
    Second,
}

impl Side {
    pub fn index(self) -> usize {
        self as usize
    }
    /// The side to move after `moves` moves, in a game of strict alternation.
    pub fn after_moves(moves: usize) -> Side {
        if moves.is_multiple_of(2) {
            Side::First
        } else {
            Side::Second
        }
    }
    pub fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }
}

/// How a finished game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win(Side),
    Draw,
}

/// The rules of a two-player, perfect-information game.
pub trait Game: Clone {
    type Move: Copy + Eq + Debug + Send + Sync;

    /// The player who moves next (meaningless once the game is over).
    fn to_move(&self) -> Side;
    /// All legal moves, appended to `out`; none once the game is over.
    fn legal_moves(&self, out: &mut Vec<Self::Move>);
    /// Whether `mv` is legal now (false once the game is over).
    fn is_legal(&self, mv: Self::Move) -> bool;
    /// Plays a legal move. Playing an illegal move is a bug of the caller.
    fn play(&mut self, mv: Self::Move);
    /// Takes back the last move played.
    fn undo(&mut self);
    /// Number of moves played since the start.
    fn moves_played(&self) -> usize;
    /// Zobrist hash of the position (including whatever decides who moves). Each game salts its
    /// keys with a number of its own (the registry keeps the one table of salts), so that two
    /// games' positions never share a hash by construction: tables may be shared across games.
    fn hash(&self) -> u64;
    /// A hash shared by the positions equal to this one up to the board's symmetries
    /// (reflections, rotations), with the same side to move: tables keyed by it hold one entry
    /// for all of them. By default the plain [`Game::hash`] (a game without symmetries).
    fn symmetric_hash(&self) -> u64 {
        self.hash()
    }
    /// `Some` once the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// Whether the game, not over yet, can only end in a draw whatever is played (a referee may
    /// adjudicate it). The default knows of no such position.
    fn is_dead_draw(&self) -> bool {
        false
    }
    /// Whether the position is drawn, or may be scored a draw by a search, because of how it was
    /// reached rather than what it is: it repeats an earlier position of the game or of the line
    /// searched, or a move-count rule is due. A search scores it 0 and keeps every score that
    /// depends on it out of its table (the same position reached another way may not be drawn).
    /// The default: never (the outcome depends on the position alone).
    fn drawn_by_history(&self) -> bool {
        false
    }
    /// A stable key of a move, below [`Game::move_key_space`], for tables (history, TT). Two
    /// different legal moves of a position have different keys.
    fn move_key(&self, mv: Self::Move) -> u32;
    /// An upper bound on [`Game::move_key`] + 1.
    fn move_key_space(&self) -> usize;
    /// The legal move whose key is `key`, if there is one now.
    fn move_for_key(&self, key: u32) -> Option<Self::Move>;
    /// Parses move text; checks syntax and that the move is on the board, not legality.
    fn parse_move(&self, text: &str) -> Result<Self::Move>;
    /// The protocol text of a move.
    fn format_move(&self, mv: Self::Move) -> String;
}

/// A game where every move passes the turn to the other side: the side to move after `n` moves
/// is [`Side::after_moves`]`(n)`. Searches over AND/OR trees (df-pn), which take one ply for
/// one side's turn, ask for it; games with extra turns (Kalah) do not implement it and stay out
/// of them.
pub trait Alternating: Game {}
