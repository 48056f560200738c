//! m,n,k positions as 64-bit bitboards, for boards of M rows and N columns with M x (N + 1) <= 64
//! (7x7 uses 56 bits, 8x7 all 64).
//!
//! Cell (r, c) is bit `r * (N + 1) + c`. Bit N of every row is a padding column that is never
//! set: a line shifted across the right or left edge meets it and cannot wrap into the next row,
//! and a shift past the top or bottom drops off the word. Lines run along four steps: 1 (a row),
//! N + 1 (a column), N + 2 and N (the two diagonals).
//!
//! The bit numbers on 7x7 (N + 1 = 8 bits a row; `pad`: the padding column, never set; bits 56
//! to 63 are unused). Row 0 is the top row, as in the protocol:
//!
//! ```text
//!          col 0  1  2  3  4  5  6  pad
//!   row 0:     0  1  2  3  4  5  6    7
//!   row 1:     8  9 10 11 12 13 14   15
//!   row 2:    16 17 18 19 20 21 22   23
//!   row 3:    24 25 26 27 28 29 30   31
//!   row 4:    32 33 34 35 36 37 38   39
//!   row 5:    40 41 42 43 44 45 46   47
//!   row 6:    48 49 50 51 52 53 54   55
//! ```
//!
//! Here the steps are 1 along a row, 8 down a column, 9 and 7 along the diagonals.
//!
//! A position keeps the stones of the side to move and of its opponent in every orientation of
//! the board's symmetry group (8 on a square board, 4 on a rectangle), updated as moves are
//! played, so that the position and its images share one table key.

use crate::game::solver::lines::{completions_along, completions_long, has_line};
use anyhow::{bail, Result};

/// The geometry of a board: its size, K, its K-cell windows and its symmetries.
#[derive(Clone, Debug)]
pub struct Board {
    rows: u32,
    cols: u32,
    k: u32,
    /// Every cell of the board (padding excluded).
    cells: u64,
    /// The line steps: a row, a column, the two diagonals.
    steps: [u32; 4],
    /// Every set of K cells in a row on the board.
    windows: Vec<u64>,
    /// The whole line (edge to edge) of each window, in the order of `windows`.
    lines: Vec<u64>,
    /// How many of the symmetries in `image` the board has (4 or 8); the first is the identity.
    symmetries: usize,
    /// The bit of cell `i` in the image of the board under symmetry `s`: `image[s][i]`.
    image: [[u64; 64]; 8],
    /// The inverse: the cell whose image under `s` is cell `i`.
    preimage: [[u8; 64]; 8],
}

impl Board {
    /// An M x N board with K in a row; it must fit in 64 bits with its padding column.
    pub fn new(rows: usize, cols: usize, k: usize) -> Result<Board> {
        if rows == 0 || cols == 0 || k == 0 {
            bail!("M, N and K must be at least 1");
        }
        if rows * (cols + 1) > 64 {
            bail!("a {rows}x{cols} board does not fit the solver's bitboard (M x (N + 1) <= 64 bits)");
        }
        let (rows, cols, k) = (rows as u32, cols as u32, k as u32);
        let w = cols + 1;
        let bit = |r: u32, c: u32| 1u64 << (r * w + c);
        let mut cells = 0;
        for r in 0..rows {
            for c in 0..cols {
                cells |= bit(r, c);
            }
        }
        // Windows: K cells from (r, c) along (dr, dc), all on the board.
        // Each with its line: the cells from (r, c) back and on along (dr, dc) to the edges.
        let on = |r: i32, c: i32| (0..rows as i32).contains(&r) && (0..cols as i32).contains(&c);
        let mut with_lines = Vec::new();
        for (dr, dc) in [(0i32, 1i32), (1, 0), (1, 1), (1, -1)] {
            for r in 0..rows as i32 {
                for c in 0..cols as i32 {
                    let (er, ec) = (r + dr * (k as i32 - 1), c + dc * (k as i32 - 1));
                    if on(er, ec) {
                        let window = (0..k as i32).fold(0, |m, i| m | bit((r + dr * i) as u32, (c + dc * i) as u32));
                        let (mut sr, mut sc) = (r, c);
                        while on(sr - dr, sc - dc) {
                            (sr, sc) = (sr - dr, sc - dc);
                        }
                        let mut line = 0;
                        while on(sr, sc) {
                            line |= bit(sr as u32, sc as u32);
                            (sr, sc) = (sr + dr, sc + dc);
                        }
                        with_lines.push((window, line));
                    }
                }
            }
        }
        // K = 1: a cell is a window along every direction; one is enough.
        with_lines.sort_unstable();
        with_lines.dedup_by_key(|&mut (w, _)| w);
        let (windows, lines) = with_lines.into_iter().unzip();
        // Symmetries: optionally transpose (square boards only), then flip rows and/or columns.
        let symmetries = if rows == cols { 8 } else { 4 };
        let mut image = [[0u64; 64]; 8];
        let mut preimage = [[0u8; 64]; 8];
        for (s, img) in image.iter_mut().enumerate().take(symmetries) {
            let (transpose, flip_rows, flip_cols) = (s & 4 != 0, s & 1 != 0, s & 2 != 0);
            for r in 0..rows {
                for c in 0..cols {
                    let (mut a, mut b) = if transpose { (c, r) } else { (r, c) };
                    if flip_rows {
                        a = rows - 1 - a;
                    }
                    if flip_cols {
                        b = cols - 1 - b;
                    }
                    let (from, to) = (r * w + c, a * w + b);
                    img[from as usize] = 1 << to;
                    preimage[s][to as usize] = from as u8;
                }
            }
        }
        Ok(Board { rows, cols, k, cells, steps: [1, w, w + 1, w - 1], windows, lines, symmetries, image, preimage })
    }

    pub fn rows(&self) -> usize {
        self.rows as usize
    }
    pub fn cols(&self) -> usize {
        self.cols as usize
    }
    pub fn k(&self) -> usize {
        self.k as usize
    }
    /// Every cell of the board as a bitboard.
    pub fn cells(&self) -> u64 {
        self.cells
    }
    pub fn cell_count(&self) -> u32 {
        self.rows * self.cols
    }
    pub fn windows(&self) -> &[u64] {
        &self.windows
    }
    /// The whole line of each window, in the order of [`Board::windows`].
    pub fn lines(&self) -> &[u64] {
        &self.lines
    }
    /// A number unique to the board among all the solvers' boards (Connect-X's ids stay below
    /// 2^40), for [`crate::game::solver::table::BoundTable::prepare`].
    pub fn id(&self) -> u64 {
        1 << 63 | (self.rows as u64) | (self.cols as u64) << 16 | (self.k as u64) << 32
    }

    /// The bit index of cell (row, col).
    pub fn index(&self, row: usize, col: usize) -> u32 {
        row as u32 * (self.cols + 1) + col as u32
    }
    /// The (row, col) of bit index `i`.
    pub fn cell(&self, i: u32) -> (usize, usize) {
        ((i / (self.cols + 1)) as usize, (i % (self.cols + 1)) as usize)
    }

    /// Whether `stones` hold K in a row.
    pub fn has_line(&self, stones: u64) -> bool {
        has_line(stones, self.k, &self.steps)
    }

    /// The cells (occupied or not) that would complete K in a row with `stones`.
    #[inline(always)]
    pub fn completions(&self, stones: u64) -> u64 {
        let s = &self.steps;
        let along = match self.k {
            1 => return self.cells,
            2 => {
                completions_along::<1>(stones, s[0])
                    | completions_along::<1>(stones, s[1])
                    | completions_along::<1>(stones, s[2])
                    | completions_along::<1>(stones, s[3])
            }
            3 => self.along::<2>(stones),
            4 => self.along::<3>(stones),
            5 => self.along::<4>(stones),
            6 => self.along::<5>(stones),
            7 => self.along::<6>(stones),
            8 => self.along::<7>(stones),
            k => completions_long(stones, k, s),
        };
        along & self.cells
    }

    #[inline(always)]
    fn along<const K: usize>(&self, stones: u64) -> u64 {
        self.steps.iter().fold(0, |r, &s| r | completions_along::<K>(stones, s))
    }

    /// The distance of bit index `i` from the centre, doubled (Chebyshev: in kings' moves), so
    /// that nearer is smaller.
    pub fn centre_distance(&self, i: u32) -> u32 {
        let (r, c) = self.cell(i);
        let dr = (2 * r as u32).abs_diff(self.rows - 1);
        let dc = (2 * c as u32).abs_diff(self.cols - 1);
        dr.max(dc) + dr.min(dc) / 2
    }
}

/// A position: in each orientation of the board, the stones of the side to move and of its
/// opponent (orientation 0 is the board as it is).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stones {
    stones: [[u64; 2]; 8],
    moves: u32,
}

impl Stones {
    pub fn new() -> Stones {
        Stones { stones: [[0; 2]; 8], moves: 0 }
    }

    /// The position after `cells` ((row, col), 0-based) are played from the empty board. Fails
    /// on a cell off the board or taken, and on a move after the game was won.
    pub fn from_cells(board: &Board, cells: &[(usize, usize)]) -> Result<Stones> {
        let mut p = Stones::new();
        for (i, &(r, c)) in cells.iter().enumerate() {
            if r >= board.rows() || c >= board.cols() {
                bail!("move {}: cell {r},{c} is off the {}x{} board", i + 1, board.rows(), board.cols());
            }
            let idx = board.index(r, c);
            if p.occupied() & (1 << idx) != 0 {
                bail!("move {}: cell {r},{c} is taken", i + 1);
            }
            if p.is_over(board) {
                bail!("move {}: the game was already won", i + 1);
            }
            p.play(board, idx);
        }
        Ok(p)
    }

    pub fn moves(&self) -> u32 {
        self.moves
    }
    /// Stones of the side to move.
    pub fn own(&self) -> u64 {
        self.stones[0][0]
    }
    /// Stones of the side that just moved.
    pub fn opponent(&self) -> u64 {
        self.stones[0][1]
    }
    pub fn occupied(&self) -> u64 {
        self.stones[0][0] | self.stones[0][1]
    }
    pub fn empty(&self, board: &Board) -> u64 {
        board.cells & !self.occupied()
    }

    /// Whether the side that just moved has K in a row (then the game is over).
    pub fn is_over(&self, board: &Board) -> bool {
        board.has_line(self.opponent())
    }

    /// Plays the empty cell of bit index `i` for the side to move.
    #[inline(always)]
    pub fn play(&mut self, board: &Board, i: u32) {
        for s in 0..board.symmetries {
            let [own, opp] = self.stones[s];
            self.stones[s] = [opp, own | board.image[s][i as usize]];
        }
        self.moves += 1;
    }

    /// A hash of the position as it is (its images under the board's symmetries have others).
    pub fn plain_key(&self) -> u64 {
        hash(self.stones[0])
    }

    /// The key shared by the position and all its images under the board's symmetries (the
    /// smallest of their hashes), and the symmetry that maps the position to the image it is
    /// the hash of.
    #[inline(always)]
    pub fn canonical_key(&self, board: &Board) -> (u64, usize) {
        let mut best = (u64::MAX, 0);
        for s in 0..board.symmetries {
            let h = hash(self.stones[s]);
            if h < best.0 {
                best = (h, s);
            }
        }
        best
    }
}

impl Default for Stones {
    fn default() -> Self {
        Stones::new()
    }
}

/// The cell that the canonical image's cell `i` is in a position mapped by symmetry `s`.
pub fn from_image(board: &Board, s: usize, i: u32) -> u32 {
    board.preimage[s][i as usize] as u32
}

/// The cell of the canonical image (under symmetry `s`) of a position's cell `i`.
pub fn to_image(board: &Board, s: usize, i: u32) -> u32 {
    board.image[s][i as usize].trailing_zeros()
}

/// A 64-bit hash of a pair of bitboards (the side to move's stones, the opponent's). Keys of
/// boards larger than 40 cells cannot be both exact and 64 bits (3^49 positions on 7x7), so keys
/// are hashes; the table checks all 64 bits, so two positions mix up only if their hashes are
/// equal (about one chance in 2^64 per pair).
#[inline(always)]
fn hash([own, opp]: [u64; 2]) -> u64 {
    mix(mix(own) ^ opp.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

use crate::search::zobrist::mix;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_that_fit() {
        assert!(Board::new(7, 7, 5).is_ok(), "7 x 8 = 56 bits");
        assert!(Board::new(8, 7, 4).is_ok(), "8 x 8 = 64 bits");
        assert!(Board::new(8, 8, 5).is_err(), "8 x 9 = 72 bits");
        let b = Board::new(7, 7, 5).unwrap();
        // Rows, columns: 7 x 3 each; diagonals: 9 each way.
        assert_eq!(b.windows().len(), 21 + 21 + 9 + 9);
        assert_eq!(Board::new(3, 3, 3).unwrap().windows().len(), 8);
        assert_eq!(Board::new(2, 2, 3).unwrap().windows().len(), 0);
    }

    #[test]
    fn completions_match_the_windows() {
        // Random stones on several boards: a cell completes a line exactly when some window
        // holds it and K - 1 stones.
        let mut seed = 99u64;
        for &(r, c, k) in &[(7, 7, 5), (8, 7, 4), (3, 4, 3), (5, 5, 4), (2, 5, 2), (4, 12, 9), (6, 6, 1)] {
            let b = Board::new(r, c, k).unwrap();
            for _ in 0..200 {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let stones = mix(seed) & mix(seed ^ 1) & b.cells();
                let expected = b
                    .windows()
                    .iter()
                    .filter(|&&w| (w & stones).count_ones() + 1 >= k as u32)
                    .fold(0, |m, &w| m | (w & !stones))
                    | if k == 1 { b.cells() } else { 0 };
                let got = b.completions(stones) & !stones;
                assert_eq!(got, expected & !stones, "{r}x{c}x{k} {stones:#x}");
                assert_eq!(b.has_line(stones), b.windows().iter().any(|&w| w & !stones == 0));
            }
        }
    }

    #[test]
    fn symmetric_positions_share_a_key() {
        let b = Board::new(4, 4, 3).unwrap();
        let key = |cells: &[(usize, usize)]| Stones::from_cells(&b, cells).unwrap().canonical_key(&b).0;
        let k = key(&[(0, 1), (2, 2)]);
        // Rotations and reflections of the same stones.
        assert_eq!(key(&[(1, 0), (2, 2)]), k, "transposed");
        assert_eq!(key(&[(3, 1), (1, 2)]), k, "rows flipped");
        assert_eq!(key(&[(0, 2), (2, 1)]), k, "columns flipped");
        assert_eq!(key(&[(3, 2), (1, 1)]), k, "rotated half a turn");
        assert_eq!(key(&[(1, 3), (2, 1)]), k, "rotated a quarter turn");
        assert_ne!(key(&[(2, 2), (0, 1)]), k, "colours swapped");
        assert_ne!(key(&[(0, 1), (2, 3)]), k);
        // A rectangle has no transposition.
        let r = Board::new(3, 4, 3).unwrap();
        let key = |cells: &[(usize, usize)]| Stones::from_cells(&r, cells).unwrap().canonical_key(&r).0;
        assert_eq!(key(&[(0, 0)]), key(&[(2, 3)]));
        assert_ne!(key(&[(0, 1)]), key(&[(1, 0)]));
        // Images and preimages are inverse.
        for s in 0..b.symmetries {
            for i in 0..16 {
                let idx = b.index(i / 4, i % 4);
                assert_eq!(from_image(&b, s, to_image(&b, s, idx)), idx);
            }
        }
    }

    #[test]
    fn positions_from_cells() {
        let b = Board::new(3, 3, 3).unwrap();
        assert!(Stones::from_cells(&b, &[(0, 0), (0, 0)]).unwrap_err().to_string().contains("taken"));
        assert!(Stones::from_cells(&b, &[(3, 0)]).unwrap_err().to_string().contains("off the 3x3 board"));
        let won = [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)];
        assert!(Stones::from_cells(&b, &won).unwrap().is_over(&b));
        let after = [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (2, 2)];
        assert!(Stones::from_cells(&b, &after).unwrap_err().to_string().contains("already won"));
    }
}
