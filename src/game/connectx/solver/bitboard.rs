//! Connect-X positions as two 64-bit bitboards, for boards with (rows + 1) x cols <= 64.
//!
//! Column `c`, height `h` (0 = the bottom) is bit `c * (rows + 1) + h`. The extra bit on top of
//! each column is never set, so a line shifted across a column edge always meets an empty bit
//! and cannot wrap around. A position keeps the stones of the side to move (`current`) and all
//! stones (`mask`); playing a move is two instructions.
//!
//! The bit numbers on Connect-4's board (6 rows, 7 columns, 7 bits a column; bits 49 to 63 are
//! unused):
//!
//! ```text
//!    6 13 20 27 34 41 48    <- the extra bit of each column, never set
//!    5 12 19 26 33 40 47    <- the top row
//!    4 11 18 25 32 39 46
//!    3 10 17 24 31 38 45
//!    2  9 16 23 30 37 44
//!    1  8 15 22 29 36 43
//!    0  7 14 21 28 35 42    <- the bottom row (height 0)
//!   col 0 ...        col 6
//! ```
//!
//! Neighbours along a line are 1 bit apart vertically, rows + 1 (7) horizontally, and rows (6)
//! and rows + 2 (8) along the two diagonals.

use crate::game::solver::lines::{completions_along, completions_long, has_line, shl};
use anyhow::{bail, Result};

/// The geometry of a board known at run time: its size, X, and the masks derived from them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    rows: u32,
    cols: u32,
    x: u32,
    /// Bits per column: rows + 1.
    h1: u32,
    /// The bottom cell of every column.
    bottom: u64,
    /// Every cell of the board.
    board: u64,
}

impl Shape {
    /// A board of `rows` x `cols` with `x` in a row to win; it must fit in 64 bits.
    pub fn new(rows: usize, cols: usize, x: usize) -> Result<Shape> {
        if rows == 0 || cols == 0 || x == 0 {
            bail!("rows, columns and X must be at least 1");
        }
        if (rows + 1) * cols > 64 {
            bail!("a {rows}x{cols} board does not fit the solver's bitboard ((rows + 1) x cols <= 64)");
        }
        let (rows, cols, x) = (rows as u32, cols as u32, x as u32);
        let h1 = rows + 1;
        let column = (1u64 << rows) - 1;
        let (mut bottom, mut board) = (0, 0);
        for c in 0..cols {
            bottom |= 1 << (c * h1);
            board |= column << (c * h1);
        }
        Ok(Shape { rows, cols, x, h1, bottom, board })
    }

    /// Whether this is Connect-4's board, 6x7 with four in a row ([`Connect4`]).
    pub fn is_connect4(&self) -> bool {
        (self.rows, self.cols, self.x) == (6, 7, 4)
    }
}

impl Geometry for Shape {
    #[inline(always)]
    fn rows_u32(&self) -> u32 {
        self.rows
    }
    #[inline(always)]
    fn cols_u32(&self) -> u32 {
        self.cols
    }
    #[inline(always)]
    fn x_u32(&self) -> u32 {
        self.x
    }
    #[inline(always)]
    fn bottom(&self) -> u64 {
        self.bottom
    }
    #[inline(always)]
    fn board(&self) -> u64 {
        self.board
    }
}

/// Connect-4's board (6 rows, 7 columns, four in a row) as a type: its size and masks are
/// constants, so that the solver's code for it folds them into its instructions (the solver
/// switches to it on that board; measured: docs/results/connect4-solver.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Connect4;

/// The bottom cell of each of Connect-4's 7 columns of 7 bits.
const C4_BOTTOM: u64 = {
    let mut bottom = 0;
    let mut c = 0;
    while c < 7 {
        bottom |= 1 << (7 * c);
        c += 1;
    }
    bottom
};

impl Geometry for Connect4 {
    #[inline(always)]
    fn rows_u32(&self) -> u32 {
        6
    }
    #[inline(always)]
    fn cols_u32(&self) -> u32 {
        7
    }
    #[inline(always)]
    fn x_u32(&self) -> u32 {
        4
    }
    #[inline(always)]
    fn bottom(&self) -> u64 {
        C4_BOTTOM
    }
    #[inline(always)]
    fn board(&self) -> u64 {
        C4_BOTTOM * 0x3f
    }
}

/// The geometry of a board: its size, X, and the masks derived from them; either a [`Shape`]
/// known at run time or a board known at compile time ([`Connect4`]).
pub trait Geometry: Copy + std::fmt::Debug + PartialEq + Eq {
    fn rows_u32(&self) -> u32;
    fn cols_u32(&self) -> u32;
    fn x_u32(&self) -> u32;
    /// The bottom cell of every column.
    fn bottom(&self) -> u64;
    /// Every cell of the board.
    fn board(&self) -> u64;

    /// Bits per column: rows + 1.
    #[inline(always)]
    fn h1(&self) -> u32 {
        self.rows_u32() + 1
    }
    fn rows(&self) -> usize {
        self.rows_u32() as usize
    }
    #[inline(always)]
    fn cols(&self) -> usize {
        self.cols_u32() as usize
    }
    fn x(&self) -> usize {
        self.x_u32() as usize
    }
    /// A number unique to the board among all the solvers' boards (for [`crate::game::solver::table::BoundTable::prepare`]).
    fn id(&self) -> u64 {
        (1 + self.rows_u32() as u64) | ((self.cols_u32() as u64) << 16) | ((self.x_u32() as u64) << 32)
    }
    #[inline(always)]
    fn cells(&self) -> u32 {
        self.rows_u32() * self.cols_u32()
    }
    #[inline(always)]
    fn column_mask(&self, col: usize) -> u64 {
        ((1u64 << self.rows_u32()) - 1) << (col as u32 * self.h1())
    }
    /// The column of a cell of the board.
    #[inline(always)]
    fn column_of(&self, cell: u64) -> usize {
        (cell.trailing_zeros() / self.h1()) as usize
    }
    #[inline(always)]
    fn top_cell(&self, col: usize) -> u64 {
        1u64 << (self.rows_u32() - 1 + col as u32 * self.h1())
    }

    /// Shifts between neighbours along the four line directions: vertical, horizontal and the two
    /// diagonals.
    fn directions(&self) -> [u32; 4] {
        let h1 = self.h1();
        [1, h1, h1 - 1, h1 + 1]
    }

    /// Whether `stones` hold X in a row.
    fn has_line(&self, stones: u64) -> bool {
        has_line(stones, self.x_u32(), &self.directions())
    }

    /// The cells (occupied or not) that would complete X in a row with `stones`: for each
    /// direction, a cell with `a` stones in a row behind it and X - 1 - a ahead of it.
    #[inline(always)]
    fn completions(&self, stones: u64) -> u64 {
        // One copy of the loop per line length, so that each is unrolled with constant shifts.
        match (self.x_u32(), self.h1()) {
            // Connect-4 (6x7, 7 bits a column) with every shift a constant.
            (4, 7) => completions_fixed::<3, 7>(stones) & self.board(),
            (x, h1) => completions_any(x, h1, stones, self.board()),
        }
    }
}

#[inline(always)]
fn completions_any(x: u32, h1: u32, stones: u64, board: u64) -> u64 {
    match x {
        1 => board,
        2 => completions_of::<1>(h1, stones) & board,
        3 => completions_of::<2>(h1, stones) & board,
        4 => completions_of::<3>(h1, stones) & board,
        5 => completions_of::<4>(h1, stones) & board,
        6 => completions_of::<5>(h1, stones) & board,
        7 => completions_of::<6>(h1, stones) & board,
        8 => completions_of::<7>(h1, stones) & board,
        _ => completions_long(stones, x, &[1, h1, h1 - 1, h1 + 1]) & board,
    }
}

/// [`Geometry::completions`] for X = K + 1 (off the board too).
#[inline(always)]
fn completions_of<const K: usize>(h1: u32, stones: u64) -> u64 {
    // Vertically only the cells below matter: above an empty cell every cell is empty.
    let vertical = (1..=K).fold(u64::MAX, |run, a| run & shl(stones, a as u32));
    let others = [h1, h1 - 1, h1 + 1].iter().fold(0, |r, &s| r | completions_along::<K>(stones, s));
    vertical | others
}

/// [`completions_of`] with the column height a constant too: every shift is a constant below 64.
#[inline(always)]
fn completions_fixed<const K: usize, const H1: u32>(stones: u64) -> u64 {
    // The loop of [`completions_along`] again, with plain shifts: the compiler does not fold
    // that function's guarded shifts for constant amounts (measured:
    // docs/results/connect4-solver.md).
    let mut result = (1..=K).fold(u64::MAX, |run, a| run & (stones << a));
    for s in [H1, H1 - 1, H1 + 1] {
        let mut ahead = [u64::MAX; 8];
        for b in 1..=K {
            ahead[b] = ahead[b - 1] & (stones >> (b as u32 * s));
        }
        let mut behind = u64::MAX;
        for a in 0..=K {
            if a > 0 {
                behind &= stones << (a as u32 * s);
            }
            result |= behind & ahead[K - a];
        }
    }
    result
}

/// A position: the stones of the side to move, all stones, and the number of moves played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position<G = Shape> {
    shape: G,
    current: u64,
    mask: u64,
    /// `current` and `mask` of the mirror image (columns reversed), kept as moves are played.
    mirror_current: u64,
    mirror_mask: u64,
    moves: u32,
}

impl Position<Shape> {
    /// The same position on a board known at compile time, which must be this one's.
    pub fn with_geometry<G: Geometry>(&self, g: G) -> Position<G> {
        debug_assert_eq!(g.id(), self.shape.id());
        let Position { shape: _, current, mask, mirror_current, mirror_mask, moves } = *self;
        Position { shape: g, current, mask, mirror_current, mirror_mask, moves }
    }
}

impl<G: Geometry> Position<G> {
    pub fn new(shape: G) -> Position<G> {
        Position { shape, current: 0, mask: 0, mirror_current: 0, mirror_mask: 0, moves: 0 }
    }

    /// The position after `cols` (0-based columns) from the empty board. Fails on a full or
    /// missing column and on a move after the game was won.
    pub fn from_moves(shape: G, cols: &[usize]) -> Result<Position<G>> {
        let mut p = Position::new(shape);
        for (i, &c) in cols.iter().enumerate() {
            if c >= shape.cols() {
                bail!("move {}: column {c} is off the board", i + 1);
            }
            if !p.can_play(c) {
                bail!("move {}: column {c} is full", i + 1);
            }
            if p.is_winning_move(c) && i + 1 < cols.len() {
                bail!("move {}: the game was already won", i + 2);
            }
            p.play_col(c);
        }
        Ok(p)
    }

    #[inline(always)]
    pub fn shape(&self) -> &G {
        &self.shape
    }
    #[inline(always)]
    pub fn moves(&self) -> u32 {
        self.moves
    }
    /// Stones of the side to move, and of both sides.
    pub fn stones(&self) -> (u64, u64) {
        (self.current, self.mask)
    }

    #[inline(always)]
    pub fn can_play(&self, col: usize) -> bool {
        self.mask & self.shape.top_cell(col) == 0
    }
    /// The cells where a piece can land now, one per non-full column.
    #[inline(always)]
    pub fn playable(&self) -> u64 {
        (self.mask + self.shape.bottom()) & self.shape.board()
    }
    /// Plays in `col`, whose landing cell is `cell` (one bit of [`Position::playable`]).
    #[inline(always)]
    pub fn play(&mut self, col: usize, cell: u64) {
        self.current ^= self.mask;
        self.mask |= cell;
        // The same cell in the mirrored column.
        let mirrored = self.mirror_cell(col, cell);
        self.mirror_current ^= self.mirror_mask;
        self.mirror_mask |= mirrored;
        self.moves += 1;
    }
    pub fn play_col(&mut self, col: usize) {
        self.play(col, self.playable() & self.shape.column_mask(col));
    }

    /// Empty cells that would complete a line of the side to move (or of its opponent).
    #[inline(always)]
    pub fn own_wins(&self) -> u64 {
        self.shape.completions(self.current) & !self.mask
    }
    #[inline(always)]
    pub fn enemy_wins(&self) -> u64 {
        self.shape.completions(self.current ^ self.mask) & !self.mask
    }
    pub fn can_win_next(&self) -> bool {
        self.own_wins() & self.playable() != 0
    }
    pub fn is_winning_move(&self, col: usize) -> bool {
        self.own_wins() & self.playable() & self.shape.column_mask(col) != 0
    }

    /// The landing cells of the moves that do not let the opponent win at once (assuming the
    /// side to move cannot win at once): the single block when the opponent threatens one cell,
    /// nothing when it threatens two, and never the cell right under an opponent's win.
    #[inline(always)]
    pub fn non_losing_moves(&self) -> u64 {
        let mut possible = self.playable();
        let enemy = self.enemy_wins();
        let forced = possible & enemy;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                return 0;
            }
            possible = forced;
        }
        possible & !(enemy >> 1)
    }

    /// How many empty cells would complete a line of the side to move after it plays `cell`.
    #[inline(always)]
    pub fn threats_after(&self, cell: u64) -> u32 {
        let stones = self.current | cell;
        (self.shape.completions(stones) & !(self.mask | cell)).count_ones()
    }

    /// A number unique to the position: the stones of the side to move plus all stones. Per
    /// column that sum lies in [2^h - 1, 2^(h+1) - 2] for a column of height h, so it never
    /// carries into the next column and tells both the height and the stones apart.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.current + self.mask
    }

    /// The key of the position mirrored left to right.
    #[inline(always)]
    pub fn mirrored_key(&self) -> u64 {
        self.mirror_current + self.mirror_mask
    }

    /// The key shared by the position and its mirror image (the smaller of the two), and whether
    /// it is the mirror image's.
    #[inline(always)]
    pub fn canonical_key(&self) -> (u64, bool) {
        let (key, mirrored) = (self.key(), self.mirrored_key());
        if mirrored < key {
            (mirrored, true)
        } else {
            (key, false)
        }
    }

    /// The canonical key ([`Position::canonical_key`]) of the position after the move in `col`
    /// that lands on `cell`, without playing it. The key of a child is `2 mask - current +
    /// cell` (its stones to move are `mask - current`, all its stones `mask + cell`); the same
    /// holds for the mirror image with the mirrored cell.
    #[inline(always)]
    pub fn child_key(&self, col: usize, cell: u64) -> u64 {
        let key = (2 * self.mask - self.current) + cell;
        let mirrored = (2 * self.mirror_mask - self.mirror_current) + self.mirror_cell(col, cell);
        key.min(mirrored)
    }

    /// The cell in the mirrored column of `cell`, a cell of `col`.
    #[inline(always)]
    fn mirror_cell(&self, col: usize, cell: u64) -> u64 {
        let h1 = self.shape.h1();
        let (from, to) = (col as u32 * h1, (self.shape.cols_u32() - 1 - col as u32) * h1);
        if to >= from {
            cell << (to - from)
        } else {
            cell >> (from - to)
        }
    }

    /// The score of a win by the side to move with its next stone, in Pons' convention: the
    /// number of cells left after the win, halved, plus one (22 minus the winner's stones on 6x7).
    pub fn win_score(&self) -> i32 {
        (self.shape.cells() as i32 + 1 - self.moves as i32) / 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cols(text: &str) -> Vec<usize> {
        text.bytes().map(|b| (b - b'1') as usize).collect()
    }

    #[test]
    fn connect4_is_its_shape() {
        let s = Shape::new(6, 7, 4).unwrap();
        assert!(s.is_connect4());
        let parts = |g: &dyn Fn() -> (u64, u64, u32, u32, u64)| g();
        assert_eq!(
            parts(&|| (s.bottom(), s.board(), s.h1(), s.cells(), s.id())),
            parts(&|| (Connect4.bottom(), Connect4.board(), Connect4.h1(), Connect4.cells(), Connect4.id()))
        );
        let p = Position::from_moves(s, &cols("4453")).unwrap();
        let q = Position::from_moves(Connect4, &cols("4453")).unwrap();
        assert_eq!(p.with_geometry(Connect4), q);
        assert_eq!((p.own_wins(), p.enemy_wins(), p.key()), (q.own_wins(), q.enemy_wins(), q.key()));
        for col in 0..7 {
            let mut child = p;
            child.play_col(col);
            let cell = p.playable() & s.column_mask(col);
            assert_eq!(p.child_key(col, cell), child.canonical_key().0);
        }
    }

    #[test]
    fn lines_for_any_x() {
        let s = Shape::new(6, 7, 4).unwrap();
        // Vertical four in column 1 for the first player.
        let p = Position::from_moves(s, &cols("1212121")).unwrap();
        // The side to move is the second player; the first player (opponent) has the line.
        assert!(s.has_line(p.current ^ p.mask));
        assert!(!s.has_line(p.current));
        let s5 = Shape::new(6, 7, 5).unwrap();
        let p = Position::from_moves(s5, &cols("11223344")).unwrap();
        // First player to move with 4 in the bottom row: column 5 (index 4) completes five.
        assert!(p.is_winning_move(4));
        assert!(!p.is_winning_move(5));
        assert_eq!(p.own_wins() & p.playable(), p.playable() & s5.column_mask(4));
    }

    #[test]
    fn completions_match_a_plain_scan() {
        // Random games on several shapes: after every move, the completion cells found by the
        // shifts are exactly the empty cells whose filling makes a line, for both sides.
        let mut seed = 12345u64;
        // X beyond 8 (the loop without unrolling), up to lines longer than any of the board's.
        for &(r, c, x) in &[
            (6, 7, 4),
            (4, 4, 3),
            (5, 6, 5),
            (7, 8, 4),
            (3, 16, 4),
            (6, 9, 2),
            (2, 21, 1),
            (1, 32, 9),
            (1, 32, 32),
            (62, 1, 62),
            (7, 8, 7),
            (6, 7, 9),
            (6, 7, 64),
            (6, 7, 255),
        ] {
            let s = Shape::new(r, c, x).unwrap();
            for _ in 0..30 {
                let mut p = Position::new(s);
                while p.moves() < s.cells() && !s.has_line(p.current ^ p.mask) {
                    for stones in [p.current, p.current ^ p.mask] {
                        let comp = s.completions(stones);
                        for bit in 0..64 {
                            let cell = 1u64 << bit;
                            if cell & s.board != 0 && cell & p.mask == 0 {
                                let plain = s.has_line(stones | cell) && !s.has_line(stones);
                                assert_eq!(
                                    comp & cell != 0,
                                    plain,
                                    "{r}x{c}x{x} bit {bit} stones {stones:#x} mask {:#x}",
                                    p.mask
                                );
                            }
                        }
                    }
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    let open: Vec<usize> = (0..s.cols()).filter(|&col| p.can_play(col)).collect();
                    p.play_col(open[(seed >> 33) as usize % open.len()]);
                }
            }
        }
    }

    #[test]
    fn keys_and_mirrors() {
        let s = Shape::new(6, 7, 4).unwrap();
        let key = |m: &str| Position::from_moves(s, &cols(m)).unwrap().key();
        assert_eq!(key("1234"), key("3214"), "transpositions share a key");
        assert_ne!(key("1234"), key("2143"), "the same cells with the colours swapped");
        assert_ne!(key("12"), key("1"), "heights tell positions apart");
        let p = Position::from_moves(s, &cols("1234")).unwrap();
        assert_eq!(p.mirrored_key(), key("7654"));
        let q = Position::from_moves(s, &cols("4455213")).unwrap();
        assert_eq!(q.mirrored_key(), key("4433675"));
        assert!(Position::from_moves(s, &cols("1111111")).is_err(), "a full column");
        assert!(Position::from_moves(s, &cols("12121212")).is_err(), "a move after the win");
    }
}
