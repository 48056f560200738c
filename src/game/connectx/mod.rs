//! Connect-X: an M x N board stood upright; a move names a column and the piece drops to the
//! lowest free cell, which is the highest row index (row 0 is the top, as in the CXGame
//! referee). X in a row wins; a full board is a draw. Connect-4 is 6 x 7 x 4.

pub mod book;
mod book_maker;
mod columns;
mod description;
mod entry;
mod knowledge;
mod picture;
mod solve;
mod solver_in_play;

pub use entry::GAME_TYPE;
pub use knowledge::CxKnowledge;
pub mod solver;

use super::kinarow::{check_size, parse_index, Lines};
use super::{Alternating, Game, Outcome, Side};
use anyhow::{anyhow, bail, Result};

/// Salt of this game's hashes (see [`Lines::new`]; one table for every game:
/// [`crate::game::salt`]).
const GAME_ID: u64 = crate::game::salt::CONNECTX;

/// A move is a column index.
pub type Column = u32;

#[derive(Clone, Debug)]
pub struct ConnectX {
    lines: Lines,
    /// Pieces in each column.
    height: Vec<usize>,
    history: Vec<Column>,
}

impl ConnectX {
    pub fn new(rows: usize, cols: usize, x: usize) -> Result<ConnectX> {
        check_size(rows, cols, x)?;
        Ok(ConnectX { lines: Lines::new(rows, cols, x, &[], GAME_ID), height: vec![0; cols], history: Vec::new() })
    }

    /// Whether the exact solver covers this board ((rows + 1) x cols <= 64).
    pub fn solver_fits(&self) -> bool {
        solver::Shape::new(self.rows(), self.cols(), self.lines.k()).is_ok()
    }

    pub fn lines(&self) -> &Lines {
        &self.lines
    }
    pub fn history(&self) -> &[Column] {
        &self.history
    }
    pub fn rows(&self) -> usize {
        self.lines.rows()
    }
    pub fn cols(&self) -> usize {
        self.lines.cols()
    }
    pub fn height(&self, col: usize) -> usize {
        self.height[col]
    }

    /// The cell a piece dropped in `col` lands on, if the column is not full.
    pub fn landing_cell(&self, col: usize) -> Option<usize> {
        let h = self.height[col];
        (h < self.rows()).then(|| (self.rows() - 1 - h) * self.cols() + col)
    }

    /// Whether `cell` is the next cell to fill in its column.
    pub fn is_playable_cell(&self, cell: usize) -> bool {
        self.landing_cell(cell % self.cols()) == Some(cell)
    }
}

impl Alternating for ConnectX {}

impl Game for ConnectX {
    type Move = Column;

    fn to_move(&self) -> Side {
        Side::after_moves(self.history.len())
    }

    fn legal_moves(&self, out: &mut Vec<Column>) {
        if self.outcome().is_none() {
            out.extend((0..self.cols()).filter(|&c| self.height[c] < self.rows()).map(|c| c as Column));
        }
    }

    fn is_legal(&self, mv: Column) -> bool {
        (mv as usize) < self.cols() && self.height[mv as usize] < self.rows() && self.outcome().is_none()
    }

    fn play(&mut self, mv: Column) {
        let cell = self.landing_cell(mv as usize).expect("legal move");
        self.lines.place(cell, self.to_move());
        self.height[mv as usize] += 1;
        self.history.push(mv);
    }

    fn undo(&mut self) {
        let Some(mv) = self.history.pop() else { return };
        let col = mv as usize;
        self.height[col] -= 1;
        let cell = self.landing_cell(col).expect("the column had a piece");
        self.lines.remove(cell, self.to_move());
    }

    fn moves_played(&self) -> usize {
        self.history.len()
    }

    fn hash(&self) -> u64 {
        self.lines.hash()
    }

    fn symmetric_hash(&self) -> u64 {
        self.lines.symmetric_hash(true)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.lines.outcome()
    }

    fn is_dead_draw(&self) -> bool {
        self.lines.is_dead_draw()
    }

    fn move_key(&self, mv: Column) -> u32 {
        mv
    }

    fn move_key_space(&self) -> usize {
        self.cols()
    }

    fn move_for_key(&self, key: u32) -> Option<Column> {
        self.is_legal(key).then_some(key)
    }

    fn parse_move(&self, text: &str) -> Result<Column> {
        let t = text.trim();
        let col = parse_index(t).ok_or_else(|| anyhow!("expected a column number, got '{t}'"))?;
        if col >= self.cols() {
            bail!("column {col} is off the board (columns 0..{})", self.cols() - 1);
        }
        Ok(col as Column)
    }

    fn format_move(&self, mv: Column) -> String {
        mv.to_string()
    }
}

#[cfg(test)]
mod tests;
