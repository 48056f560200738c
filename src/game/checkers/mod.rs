//! Checkers: English draughts (American checkers) and a course project's house rules.
//!
//! # Rules
//!
//! - An 8x8 board, play on the 32 dark squares numbered 1..=32 (see [`movegen`] for the
//!   layout). Black (the first player, [`Side::First`]) starts with 12 men on 1..=12 and moves
//!   first; White (the second player) has 12 men on 21..=32.
//! - A man steps diagonally forward to an empty square, or captures by jumping diagonally
//!   forward over an enemy piece to the empty square beyond; a king steps or jumps one square in
//!   any diagonal direction. A capture goes on from its landing square while it can (a multiple
//!   jump); a piece is never jumped twice. A man reaching the far row is crowned, and that ends
//!   the move.
//! - `english`: capturing is compulsory, and a capture path must be completed (any path may be
//!   chosen, not necessarily the longest). `house`: capturing is optional, and a multiple jump
//!   may stop after any jump (every prefix of a capture path is a move of its own).
//! - A side with no piece or no legal move loses. Draws: the same position with the same side
//!   to move for the third time; 40 moves by each side (80 plies in a row) with no capture and no
//!   man moved.
//!
//! # Invariants
//!
//! - `board.pieces` are disjoint; `board.kings` is a subset of their union.
//! - `hash` is the Zobrist hash of the pieces, the side to move and the rules, kept up to date
//!   by `play`; `undo` restores the saved one.
//! - `quiet` counts the plies since the last capture or man move (from the position given, 0 for
//!   a FEN).
//! - `past` holds the state before each move played, oldest first: `undo` pops it, and the
//!   repetition rule reads the hashes in it.

pub mod book;
mod book_maker;
pub mod database;
mod description;
pub mod endgame;
mod entry;
pub mod eval;
pub mod fen;
pub mod knowledge;
pub mod movegen;
pub mod net;
pub mod notation;
pub mod openings;
pub mod packing;
pub mod pdn;
mod picture;
pub mod reference;

pub use entry::{CheckersKnowledge, GAME_TYPE};
pub use movegen::{Board, Capturing, Move};

use super::{Game, Outcome, Side};
use anyhow::{anyhow, Result};

/// Salt of this game's hashes (one table for every game: [`crate::game::salt`]).
const GAME_ID: u64 = crate::game::salt::CHECKERS;

/// Plies in a row without a capture or a man move after which the game is drawn (40 moves by
/// each side).
pub const QUIET_PLIES_DRAW: u16 = 80;

/// Which rules: English draughts, or the house rules (optional captures, stop anywhere).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Rules {
    English,
    House,
}

impl Rules {
    pub fn name(self) -> &'static str {
        match self {
            Rules::English => "english",
            Rules::House => "house",
        }
    }
    pub fn parse(word: &str) -> Result<Rules> {
        match word.to_ascii_lowercase().as_str() {
            "english" | "american" => Ok(Rules::English),
            "house" => Ok(Rules::House),
            _ => Err(anyhow!("unknown checkers rules '{word}' (english or house)")),
        }
    }
    pub fn capturing(self) -> Capturing {
        match self {
            Rules::English => Capturing::Complete,
            Rules::House => Capturing::Optional,
        }
    }
}

/// The state a move changes, saved before it.
#[derive(Copy, Clone, Debug)]
struct Saved {
    board: Board,
    side: Side,
    hash: u64,
    quiet: u16,
}

#[derive(Clone, Debug)]
pub struct Checkers {
    rules: Rules,
    board: Board,
    side: Side,
    hash: u64,
    quiet: u16,
    past: Vec<Saved>,
}

/// Zobrist keys: `PIECE_KEYS[kind][square]`, kind 0 a black man, 1 a white man, 2 a black
/// king, 3 a white king; then the side key (White to move) and the house rules' key.
static PIECE_KEYS: [[u64; 32]; 4] = piece_keys();
const SIDE_KEY: u64 = splitmix(GAME_ID << 32 | 1000);
const HOUSE_KEY: u64 = splitmix(GAME_ID << 32 | 1001);

use super::zobrist::splitmix;

const fn piece_keys() -> [[u64; 32]; 4] {
    let mut t = [[0; 32]; 4];
    let mut k = 0;
    while k < 4 {
        let mut sq = 0;
        while sq < 32 {
            t[k][sq] = splitmix(GAME_ID << 32 | (k * 32 + sq) as u64);
            sq += 1;
        }
        k += 1;
    }
    t
}

#[inline(always)]
fn piece_key(side: usize, king: bool, sq: u32) -> u64 {
    PIECE_KEYS[side + 2 * king as usize][sq as usize]
}

impl Checkers {
    /// The start: Black's men on 1..=12, White's on 21..=32, Black to move.
    pub fn new(rules: Rules) -> Checkers {
        let board = Board { pieces: [0x0000_0FFF, 0xFFF0_0000], kings: 0 };
        Checkers::from_board(rules, board, Side::First)
    }

    /// Any position (pieces disjoint, kings among them; not checked here: see [`fen`]).
    pub fn from_board(rules: Rules, board: Board, side: Side) -> Checkers {
        let mut g = Checkers { rules, board, side, hash: 0, quiet: 0, past: Vec::new() };
        g.hash = g.compute_hash();
        g
    }

    fn compute_hash(&self) -> u64 {
        let mut h = if self.rules == Rules::House { HOUSE_KEY } else { 0 };
        for s in 0..2 {
            let mut b = self.board.pieces[s];
            while b != 0 {
                let sq = b.trailing_zeros();
                b &= b - 1;
                h ^= piece_key(s, self.board.kings & (1 << sq) != 0, sq);
            }
        }
        if self.side == Side::Second {
            h ^= SIDE_KEY;
        }
        h
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Plies since the last capture or man move.
    pub fn quiet_plies(&self) -> u16 {
        self.quiet
    }

    /// How many times the position (with the side to move) occurred before, since the last
    /// capture or man move.
    pub fn earlier_occurrences(&self) -> usize {
        let n = self.past.len();
        let back = (self.quiet as usize).min(n);
        // Same side to move: an even number of plies back.
        (2..=back).step_by(2).filter(|&k| self.past[n - k].hash == self.hash).count()
    }

    /// Whether the side to move has a capture.
    pub fn can_capture(&self) -> bool {
        self.board.jumpers(self.side) != 0
    }

    /// The legal moves into `out` (cleared first is the caller's choice: this appends).
    pub fn generate(&self, out: &mut Vec<Move>) {
        self.board.generate(self.side, self.rules.capturing(), out);
    }

    /// Whether `key` names a step between neighbouring squares, and then the legal step it
    /// names now (None: not legal); None where the key names no step (a capture, or no move).
    fn step_for_key(&self, key: u32) -> Option<Option<Move>> {
        let (from, to, ord) = ((key >> 11) as u8, ((key >> 6) & 31) as u8, key & 63);
        if key as usize >= movegen::MOVE_KEY_SPACE || ord != 0 {
            return None;
        }
        let d = movegen::NEIGHBOUR[from as usize].iter().position(|&n| n == to)?;
        let (own, empty) = (self.board.pieces[self.side.index()], self.board.empty());
        let king = self.board.kings & (1 << from) != 0;
        let legal = own & (1 << from) != 0
            && empty & (1 << to) != 0
            && (king || movegen::forward(self.side).contains(&d))
            && (self.rules == Rules::House || !self.can_capture())
            && self.outcome().is_none();
        Some(legal.then_some(Move { from, to, jumps: 0, ord: 0, captured: 0, path: to as u64 }))
    }

    /// Leaf positions `depth` plies ahead (every capture path its own move; a finished game is
    /// a leaf only at depth 0). `lists` holds one move list per ply, reused.
    pub fn perft(&mut self, depth: u32) -> u64 {
        let mut lists = vec![Vec::with_capacity(64); depth as usize + 1];
        self.perft_with(depth, &mut lists)
    }

    fn perft_with(&mut self, depth: u32, lists: &mut [Vec<Move>]) -> u64 {
        if depth == 0 {
            return 1;
        }
        let (list, rest) = lists.split_first_mut().expect("one list per ply");
        if depth == 1 {
            return self.board.count_moves(self.side, self.rules.capturing(), list);
        }
        list.clear();
        self.generate(list);
        let mut n = 0;
        for &mv in list.iter() {
            self.play(mv);
            n += self.perft_with(depth - 1, rest);
            self.undo();
        }
        n
    }

    /// The position after `mv` (legal here), on a copy: no history kept (for copy-make).
    pub fn board_after(&self, mv: Move) -> Board {
        let mut b = self.board;
        apply(&mut b, self.side, mv);
        b
    }
}

/// Plays `mv` of `side` on `b`; returns whether it crowned a man.
#[inline(always)]
fn apply(b: &mut Board, side: Side, mv: Move) -> bool {
    let (s, o) = (side.index(), 1 - side.index());
    let (from, to) = (1u32 << mv.from, 1u32 << mv.to);
    let king = b.kings & from != 0;
    b.pieces[s] ^= from ^ to;
    b.pieces[o] &= !mv.captured;
    b.kings &= !mv.captured;
    if king {
        b.kings ^= from ^ to;
        false
    } else if movegen::CROWN_ROW[s] & to != 0 {
        b.kings |= to;
        true
    } else {
        false
    }
}

impl Game for Checkers {
    type Move = Move;

    fn to_move(&self) -> Side {
        self.side
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        if self.outcome().is_none() {
            self.generate(out);
        }
    }

    fn is_legal(&self, mv: Move) -> bool {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        moves.contains(&mv)
    }

    fn play(&mut self, mv: Move) {
        self.past.push(Saved { board: self.board, side: self.side, hash: self.hash, quiet: self.quiet });
        if mv.ord == Move::PASS.ord {
            // The search's null move: the turn passes, nothing else changes.
            self.hash ^= SIDE_KEY;
            self.quiet = self.quiet.saturating_add(1);
            self.side = self.side.other();
            return;
        }
        let (s, o) = (self.side.index(), 1 - self.side.index());
        let king = self.board.kings & (1 << mv.from) != 0;
        let mut h = self.hash ^ piece_key(s, king, mv.from as u32);
        let mut taken = mv.captured;
        while taken != 0 {
            let sq = taken.trailing_zeros();
            taken &= taken - 1;
            h ^= piece_key(o, self.board.kings & (1 << sq) != 0, sq);
        }
        let crowned = apply(&mut self.board, self.side, mv);
        h ^= piece_key(s, king || crowned, mv.to as u32);
        self.hash = h ^ SIDE_KEY;
        self.quiet = if king && mv.captured == 0 { self.quiet.saturating_add(1) } else { 0 };
        self.side = self.side.other();
    }

    fn undo(&mut self) {
        if let Some(s) = self.past.pop() {
            (self.board, self.side, self.hash, self.quiet) = (s.board, s.side, s.hash, s.quiet);
        }
    }

    fn moves_played(&self) -> usize {
        self.past.len()
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    /// A side to move without a move loses; then the third occurrence of a position, and 80
    /// plies without a capture or a man move, draw.
    fn outcome(&self) -> Option<Outcome> {
        if !self.board.has_move(self.side) {
            return Some(Outcome::Win(self.side.other()));
        }
        if self.quiet >= QUIET_PLIES_DRAW || (self.quiet >= 4 && self.earlier_occurrences() >= 2) {
            return Some(Outcome::Draw);
        }
        None
    }

    /// The search scores a position that repeats one of the game or of its line as a draw
    /// already at its second occurrence (the side that repeated can repeat again), and one where
    /// the 40-move rule is due.
    fn drawn_by_history(&self) -> bool {
        self.quiet >= QUIET_PLIES_DRAW || (self.quiet >= 4 && self.earlier_occurrences() >= 1)
    }

    fn move_key(&self, mv: Move) -> u32 {
        mv.key()
    }

    fn move_key_space(&self) -> usize {
        movegen::MOVE_KEY_SPACE
    }

    fn move_for_key(&self, key: u32) -> Option<Move> {
        if let Some(step) = self.step_for_key(key) {
            return step;
        }
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        moves.into_iter().find(|m| m.key() == key)
    }

    fn parse_move(&self, text: &str) -> Result<Move> {
        notation::parse(self, text)
    }

    fn format_move(&self, mv: Move) -> String {
        notation::format(mv)
    }
}

#[cfg(test)]
mod tests;
