//! Connect-X positions as two 64-bit bitboards, for boards with (rows + 1) x cols <= 64.
//!
//! Column `c`, height `h` (0 = the bottom) is bit `c * (rows + 1) + h`. The extra bit on top of
//! each column is never set, so a line shifted across a column edge always meets an empty bit
//! and cannot wrap around. A position keeps the stones of the side to move (`current`) and all
//! stones (`mask`); playing a move is two instructions.

use crate::game::proof::lines::{completions_along, completions_long, has_line, shl};

/// The geometry of a board: its size, X, and the masks derived from them.
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
    pub fn new(rows: usize, cols: usize, x: usize) -> Result<Shape, String> {
        if rows == 0 || cols == 0 || x == 0 {
            return Err("rows, columns and X must be at least 1".into());
        }
        if (rows + 1) * cols > 64 {
            return Err(format!("a {rows}x{cols} board does not fit the solver's bitboard ((rows + 1) x cols <= 64)"));
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

    pub fn rows(&self) -> usize {
        self.rows as usize
    }
    pub fn cols(&self) -> usize {
        self.cols as usize
    }
    pub fn x(&self) -> usize {
        self.x as usize
    }
    /// A number unique to the board among all the solvers' boards (for [`crate::game::proof::table::Table::prepare`]).
    pub fn id(&self) -> u64 {
        (1 + self.rows as u64) | ((self.cols as u64) << 16) | ((self.x as u64) << 32)
    }
    pub fn cells(&self) -> u32 {
        self.rows * self.cols
    }
    pub fn column_mask(&self, col: usize) -> u64 {
        ((1u64 << self.rows) - 1) << (col as u32 * self.h1)
    }
    fn top_cell(&self, col: usize) -> u64 {
        1u64 << (self.rows - 1 + col as u32 * self.h1)
    }

    /// Shifts between neighbours along the four line directions: vertical, horizontal and the two
    /// diagonals.
    fn directions(&self) -> [u32; 4] {
        [1, self.h1, self.h1 - 1, self.h1 + 1]
    }

    /// Whether `stones` hold X in a row.
    pub fn has_line(&self, stones: u64) -> bool {
        has_line(stones, self.x, &self.directions())
    }

    /// The cells (occupied or not) that would complete X in a row with `stones`: for each
    /// direction, a cell with `a` stones in a row behind it and X - 1 - a ahead of it.
    #[inline(always)]
    pub fn completions(&self, stones: u64) -> u64 {
        // One copy of the loop per line length, so that each is unrolled with constant shifts.
        match (self.x, self.h1) {
            // Connect-4 (6x7, 7 bits a column) with every shift a constant.
            (4, 7) => self.completions_fixed::<3, 7>(stones),
            (x, _) => self.completions_any(x, stones),
        }
    }

    #[inline(always)]
    fn completions_any(&self, x: u32, stones: u64) -> u64 {
        match x {
            1 => self.board,
            2 => self.completions_of::<1>(stones),
            3 => self.completions_of::<2>(stones),
            4 => self.completions_of::<3>(stones),
            5 => self.completions_of::<4>(stones),
            6 => self.completions_of::<5>(stones),
            7 => self.completions_of::<6>(stones),
            8 => self.completions_of::<7>(stones),
            _ => completions_long(stones, x, &self.directions()) & self.board,
        }
    }

    /// [`Shape::completions`] for X = K + 1.
    #[inline(always)]
    fn completions_of<const K: usize>(&self, stones: u64) -> u64 {
        // Vertically only the cells below matter: above an empty cell every cell is empty.
        let vertical = (1..=K).fold(u64::MAX, |run, a| run & shl(stones, a as u32));
        let others = [self.h1, self.h1 - 1, self.h1 + 1].iter().fold(0, |r, &s| r | completions_along::<K>(stones, s));
        (vertical | others) & self.board
    }

    /// [`Shape::completions_of`] with the column height a constant too: every shift is a
    /// constant below 64.
    #[inline(always)]
    fn completions_fixed<const K: usize, const H1: u32>(&self, stones: u64) -> u64 {
        // The loop of [`completions_along`] again, with plain shifts: the compiler does not fold
        // that function's guarded shifts for constant amounts (measured: 70% more instructions).
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
        result & self.board
    }
}

/// A position: the stones of the side to move, all stones, and the number of moves played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    shape: Shape,
    current: u64,
    mask: u64,
    /// `current` and `mask` of the mirror image (columns reversed), kept as moves are played.
    mirror_current: u64,
    mirror_mask: u64,
    moves: u32,
}

impl Position {
    pub fn new(shape: Shape) -> Position {
        Position { shape, current: 0, mask: 0, mirror_current: 0, mirror_mask: 0, moves: 0 }
    }

    /// The position after `cols` (0-based columns) from the empty board. Fails on a full or
    /// missing column and on a move after the game was won.
    pub fn from_moves(shape: Shape, cols: &[usize]) -> Result<Position, String> {
        let mut p = Position::new(shape);
        for (i, &c) in cols.iter().enumerate() {
            if c >= shape.cols() {
                return Err(format!("move {}: column {c} is off the board", i + 1));
            }
            if !p.can_play(c) {
                return Err(format!("move {}: column {c} is full", i + 1));
            }
            if p.is_winning_move(c) && i + 1 < cols.len() {
                return Err(format!("move {}: the game was already won", i + 2));
            }
            p.play_col(c);
        }
        Ok(p)
    }

    pub fn shape(&self) -> &Shape {
        &self.shape
    }
    pub fn moves(&self) -> u32 {
        self.moves
    }
    /// Stones of the side to move, and of both sides.
    pub fn stones(&self) -> (u64, u64) {
        (self.current, self.mask)
    }

    pub fn can_play(&self, col: usize) -> bool {
        self.mask & self.shape.top_cell(col) == 0
    }
    /// The cells where a piece can land now, one per non-full column.
    pub fn playable(&self) -> u64 {
        (self.mask + self.shape.bottom) & self.shape.board
    }
    /// Plays in `col`, whose landing cell is `cell` (one bit of [`Position::playable`]).
    pub fn play(&mut self, col: usize, cell: u64) {
        self.current ^= self.mask;
        self.mask |= cell;
        // The same cell in the mirrored column.
        let (from, to) = (col as u32 * self.shape.h1, (self.shape.cols - 1 - col as u32) * self.shape.h1);
        let mirrored = if to >= from { cell << (to - from) } else { cell >> (from - to) };
        self.mirror_current ^= self.mirror_mask;
        self.mirror_mask |= mirrored;
        self.moves += 1;
    }
    pub fn play_col(&mut self, col: usize) {
        self.play(col, self.playable() & self.shape.column_mask(col));
    }

    /// Empty cells that would complete a line of the side to move (or of its opponent).
    pub fn own_wins(&self) -> u64 {
        self.shape.completions(self.current) & !self.mask
    }
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
    pub fn threats_after(&self, cell: u64) -> u32 {
        let stones = self.current | cell;
        (self.shape.completions(stones) & !(self.mask | cell)).count_ones()
    }

    /// A number unique to the position: the stones of the side to move plus all stones. Per
    /// column that sum lies in [2^h - 1, 2^(h+1) - 2] for a column of height h, so it never
    /// carries into the next column and tells both the height and the stones apart.
    pub fn key(&self) -> u64 {
        self.current + self.mask
    }

    /// The key of the position mirrored left to right.
    pub fn mirrored_key(&self) -> u64 {
        self.mirror_current + self.mirror_mask
    }

    /// The key shared by the position and its mirror image (the smaller of the two), and whether
    /// it is the mirror image's.
    pub fn canonical_key(&self) -> (u64, bool) {
        let (key, mirrored) = (self.key(), self.mirrored_key());
        if mirrored < key {
            (mirrored, true)
        } else {
            (key, false)
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
        for &(r, c, x) in &[(6, 7, 4), (4, 4, 3), (5, 6, 5), (7, 8, 4), (3, 16, 4), (6, 9, 2), (2, 21, 1), (1, 32, 9)] {
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
