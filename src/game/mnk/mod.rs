//! m,n,k-games: two players place stones on free cells of an M x N board (some cells may be
//! blocked); the first to get K in a row (horizontally, vertically or diagonally) wins; a full
//! board is a draw. Tic-tac-toe is 3,3,3; free-style gomoku is 15,15,5.

mod book;
mod book_maker;
mod description;
mod entry;
pub mod eval;
mod knowledge;
mod picture;
mod policy;
mod psq;
mod solve;
pub mod solver;
mod solver_in_play;
pub mod threats;
mod vct;

use super::kinarow::{check_size, parse_index, CellSet, Lines};
use super::{Alternating, Game, Outcome, Side};
use anyhow::{anyhow, bail, Result};

pub use entry::GAME_TYPE;
pub use knowledge::MnkKnowledge;
pub use vct::ThreatMemo;

/// A move is a cell index, `row * N + col`.
pub type Cell = u32;

/// Salt of this game's hashes (see [`Lines::new`]; one table for every game:
/// [`crate::game::salt`]).
const GAME_ID: u64 = crate::game::salt::MNK;

/// The K of the boards (beyond the exact solvers' range, up to [`PATTERN_CELLS`] cells) that
/// keep line patterns and play by them (see [`eval`]).
const PATTERN_K: usize = 5;

/// The most cells of a board that keeps line patterns: gomoku's boards (15 x 15 to 20 x 20) and
/// more, while the patterns' memory stays within the few MiB the engine may take beyond `hash`
/// (28 bytes a cell, and for each stone on the board a frame of about 1.2 KB to take it back:
/// at most about 1.2 MB on a full 32 x 32 board, beside the 92 KB of the two lookup tables).
/// Larger boards play by the window sums, within [`crate::game::kinarow::BYTES_PER_CELL`].
const PATTERN_CELLS: usize = 32 * 32;

/// Candidate cells are the empty cells within this distance (in kings' moves) of a stone.
const NEAR_RADIUS: usize = 2;

#[derive(Clone, Debug)]
pub struct Mnk {
    lines: Lines,
    history: Vec<Cell>,
    /// For every cell, the number of stones within NEAR_RADIUS.
    near: Vec<u16>,
    /// Empty cells with at least one stone near them.
    near_empty: CellSet,
}

impl Mnk {
    /// An empty M x N board, K in a row, with `blocked` cells as (row, col).
    pub fn new(rows: usize, cols: usize, k: usize, blocked: &[(usize, usize)]) -> Result<Mnk> {
        check_size(rows, cols, k)?;
        let mut idx = Vec::with_capacity(blocked.len());
        for &(r, c) in blocked {
            if r >= rows || c >= cols {
                bail!("blocked cell {r},{c} is off the {rows}x{cols} board");
            }
            idx.push(r * cols + c);
        }
        idx.sort_unstable();
        idx.dedup();
        let n = rows * cols;
        let mut lines = Lines::new(rows, cols, k, &idx, GAME_ID);
        if k == PATTERN_K && n > knowledge::SMALL_BOARD && n <= PATTERN_CELLS {
            lines.enable_patterns(eval::pattern_weights());
        }
        Ok(Mnk { lines, history: Vec::new(), near: vec![0; n], near_empty: CellSet::new(n) })
    }

    /// A copy that keeps no line patterns (see [`Lines::without_patterns`]), for the threat
    /// searches.
    fn without_patterns(&self) -> Mnk {
        Mnk {
            lines: self.lines.without_patterns(),
            history: self.history.clone(),
            near: self.near.clone(),
            near_empty: self.near_empty.clone(),
        }
    }

    pub fn lines(&self) -> &Lines {
        &self.lines
    }
    pub fn history(&self) -> &[Cell] {
        &self.history
    }

    /// Puts a stone of `side` on the empty cell `mv`, keeping the cells near the stones, but
    /// not the history: searches that do not alternate (threat searches) place stones with it.
    fn put(&mut self, mv: Cell, side: Side) {
        let cell = mv as usize;
        self.lines.place(cell, side);
        self.near_empty.remove(mv);
        for n in self.neighbours(cell) {
            self.near[n] += 1;
            if self.near[n] == 1 && self.lines.is_empty_cell(n) {
                self.near_empty.insert(n as u32);
            }
        }
    }

    /// Takes back the stone of `side` that [`Mnk::put`] put on `mv`.
    fn take(&mut self, mv: Cell, side: Side) {
        let cell = mv as usize;
        self.lines.remove(cell, side);
        for n in self.neighbours(cell) {
            self.near[n] -= 1;
            if self.near[n] == 0 {
                self.near_empty.remove(n as u32);
            }
        }
        if self.near[cell] > 0 {
            self.near_empty.insert(mv);
        }
    }

    fn neighbours(&self, cell: usize) -> impl Iterator<Item = usize> {
        let (rows, cols) = (self.lines.rows(), self.lines.cols());
        let (r, c) = (cell / cols, cell % cols);
        let r0 = r.saturating_sub(NEAR_RADIUS);
        let r1 = (r + NEAR_RADIUS).min(rows - 1);
        let c0 = c.saturating_sub(NEAR_RADIUS);
        let c1 = (c + NEAR_RADIUS).min(cols - 1);
        (r0..=r1).flat_map(move |rr| (c0..=c1).map(move |cc| rr * cols + cc))
    }
}

/// Parses "ROW COL" or "ROW,COL" into (row, col).
pub(crate) fn parse_cell(text: &str, rows: usize, cols: usize) -> Result<(usize, usize)> {
    // Two numbers with any mix of commas and blanks between them (protocol.md), nothing before
    // the first (`,5 6` is no cell) and nothing after the second.
    let t = text.trim();
    let separator = |c: char| c == ',' || c.is_whitespace();
    let parts: Vec<&str> = match t.find(separator) {
        Some(i) => vec![&t[..i], t[i..].trim_start_matches(separator)],
        None => vec![t],
    };
    if parts.len() != 2 {
        bail!("expected a cell as 'ROW COL', got '{text}'");
    }
    let num = |s: &str| parse_index(s).ok_or_else(|| anyhow!("'{s}' is not a row or column number"));
    let (r, c) = (num(parts[0])?, num(parts[1])?);
    if r >= rows || c >= cols {
        bail!("cell {r},{c} is off the {rows}x{cols} board");
    }
    Ok((r, c))
}

impl Alternating for Mnk {}

impl Game for Mnk {
    type Move = Cell;

    fn to_move(&self) -> Side {
        Side::after_moves(self.history.len())
    }

    fn legal_moves(&self, out: &mut Vec<Cell>) {
        if self.outcome().is_none() {
            out.extend((0..self.lines.cell_count()).filter(|&c| self.lines.is_empty_cell(c)).map(|c| c as Cell));
        }
    }

    fn is_legal(&self, mv: Cell) -> bool {
        (mv as usize) < self.lines.cell_count() && self.lines.is_empty_cell(mv as usize) && self.outcome().is_none()
    }

    fn play(&mut self, mv: Cell) {
        self.put(mv, self.to_move());
        self.history.push(mv);
    }

    fn undo(&mut self) {
        let Some(mv) = self.history.pop() else { return };
        self.take(mv, self.to_move());
    }

    fn moves_played(&self) -> usize {
        self.history.len()
    }

    fn hash(&self) -> u64 {
        self.lines.hash()
    }

    fn symmetric_hash(&self) -> u64 {
        self.lines.symmetric_hash(false)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.lines.outcome()
    }

    fn is_dead_draw(&self) -> bool {
        self.lines.is_dead_draw()
    }

    fn move_key(&self, mv: Cell) -> u32 {
        mv
    }

    fn move_key_space(&self) -> usize {
        self.lines.cell_count()
    }

    fn move_for_key(&self, key: u32) -> Option<Cell> {
        self.is_legal(key).then_some(key)
    }

    fn parse_move(&self, text: &str) -> Result<Cell> {
        let (r, c) = parse_cell(text, self.lines.rows(), self.lines.cols())?;
        Ok((r * self.lines.cols() + c) as Cell)
    }

    fn format_move(&self, mv: Cell) -> String {
        let cols = self.lines.cols() as u32;
        format!("{} {}", mv / cols, mv % cols)
    }
}

#[cfg(test)]
mod tests;
