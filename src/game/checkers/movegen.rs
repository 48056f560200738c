//! The board as bitboards and the move generator.
//!
//! # Square layout
//!
//! A bitboard is a `u32`: bit `n - 1` is square `n` of the standard numbering (1..=32). Black
//! (the first player) starts on 1..=12 at the top and moves down (to higher numbers); White
//! starts on 21..=32 and moves up. Row `r` (0 at the top) holds bits `4r..4r + 4`; the dark
//! squares of even rows are in columns 1, 3, 5, 7 and those of odd rows in columns 0, 2, 4, 6:
//!
//! ```text
//!  column:  0   1   2   3   4   5   6   7
//!  row 0      [ 1]    [ 2]    [ 3]    [ 4]      bits  0..3    Black's back rank
//!  row 1  [ 5]    [ 6]    [ 7]    [ 8]          bits  4..7
//!  row 2      [ 9]    [10]    [11]    [12]      bits  8..11
//!  row 3  [13]    [14]    [15]    [16]          bits 12..15
//!  row 4      [17]    [18]    [19]    [20]      bits 16..19
//!  row 5  [21]    [22]    [23]    [24]          bits 20..23
//!  row 6      [25]    [26]    [27]    [28]      bits 24..27
//!  row 7  [29]    [30]    [31]    [32]          bits 28..31    White's back rank
//! ```
//!
//! A step to a neighbouring square is a shift of the bit index: +4 on every row and +5 (even
//! rows) or +3 (odd rows) going down; -4 and -3 (even rows) or -5 (odd rows) going up; the
//! masks keep steps from wrapping round the board's edges (see [`step`]).
//!
//! # Moves
//!
//! A [`Move`] is a step or a whole capture path: its landing squares in order. Two capture paths
//! with the same start and end are two moves; [`Move::ord`] tells them apart in the move's key.

use crate::game::Side;

/// Directions, as seen on the diagram: down-left, down-right, up-left, up-right. The opposite
/// of `d` is `3 - d`.
pub const DL: usize = 0;
pub const DR: usize = 1;
pub const UL: usize = 2;
pub const UR: usize = 3;

const EVEN_ROWS: u32 = 0x0F0F_0F0F;
const ODD_ROWS: u32 = 0xF0F0_F0F0;
const LEFT_COLUMN: u32 = 0x1111_1111; // index 0 of a row: column 0 (odd rows) or 1 (even rows)
const RIGHT_COLUMN: u32 = 0x8888_8888; // index 3 of a row: column 6 (odd rows) or 7 (even rows)
/// The row each side crowns on: Black on 29..=32, White on 1..=4.
pub const CROWN_ROW: [u32; 2] = [0xF000_0000, 0x0000_000F];
/// Every square.
pub const ALL: u32 = u32::MAX;

/// Every square of `b` moved one step in direction `d` (squares that would leave the board are
/// dropped).
#[inline(always)]
pub const fn step(b: u32, d: usize) -> u32 {
    match d {
        DL => ((b & EVEN_ROWS) << 4) | ((b & ODD_ROWS & !LEFT_COLUMN) << 3),
        DR => ((b & EVEN_ROWS & !RIGHT_COLUMN) << 5) | ((b & ODD_ROWS) << 4),
        UL => ((b & EVEN_ROWS) >> 4) | ((b & ODD_ROWS & !LEFT_COLUMN) >> 5),
        _ => ((b & EVEN_ROWS & !RIGHT_COLUMN) >> 3) | ((b & ODD_ROWS) >> 4),
    }
}

/// `NEIGHBOUR[sq][d]`: the square (bit index) next to `sq` in direction `d`, or `NONE`.
pub const NONE: u8 = 255;
pub static NEIGHBOUR: [[u8; 4]; 32] = neighbours();

const fn neighbours() -> [[u8; 4]; 32] {
    let mut t = [[NONE; 4]; 32];
    let mut sq = 0;
    while sq < 32 {
        let mut d = 0;
        while d < 4 {
            let b = step(1 << sq, d);
            if b != 0 {
                t[sq][d] = b.trailing_zeros() as u8;
            }
            d += 1;
        }
        sq += 1;
    }
    t
}

/// The directions a man of `side` moves in: Black down, White up.
#[inline(always)]
pub fn forward(side: Side) -> [usize; 2] {
    match side {
        Side::First => [DL, DR],
        Side::Second => [UL, UR],
    }
}

/// Which captures are moves: `Complete` (English: capturing is compulsory and a capture path
/// goes on while it can), or `Optional` (house rules: any move may be played, and every prefix
/// of a capture path is a move of its own).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Capturing {
    Complete,
    Optional,
}

/// A step (`jumps == 0`) or a capture path. Two moves are equal when they are the same path in
/// the same position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The square left (bit index).
    pub from: u8,
    /// The square reached (bit index); equal to `from` for a king's capture that comes round.
    pub to: u8,
    /// Pieces jumped (0: a step).
    pub jumps: u8,
    /// Among the moves of its position with the same `from` and `to`, this one's rank in the
    /// generator's order (0 but for a second capture path between the same squares); below 64.
    pub ord: u8,
    /// The squares of the pieces taken.
    pub captured: u32,
    /// The landing squares in order, 5 bits each from the lowest (a step: `to` alone); the last
    /// one is `to`.
    pub path: u64,
}

/// Move keys are below this: `from`, `to` (5 bits each) and `ord` (6 bits).
pub const MOVE_KEY_SPACE: usize = 1 << 16;

impl Move {
    /// An impossible move (a placeholder for text that names no legal move): equal to no move
    /// the generator makes.
    pub const NULL: Move = Move { from: 0, to: 0, jumps: 0, ord: u8::MAX, captured: 0, path: 0 };

    /// The search's null move: the side to move passes (never a legal move; see
    /// `Checkers::play`).
    pub const PASS: Move = Move { from: 0, to: 0, jumps: 0, ord: u8::MAX - 1, captured: 0, path: 0 };

    pub fn key(self) -> u32 {
        (self.from as u32) << 11 | (self.to as u32) << 6 | self.ord as u32
    }

    /// The landing squares in order (bit indices).
    pub fn landings(self) -> impl Iterator<Item = u8> {
        let n = self.jumps.max(1) as u32;
        (0..n).map(move |i| ((self.path >> (5 * i)) & 31) as u8)
    }

    pub fn is_capture(self) -> bool {
        self.jumps > 0
    }
}

/// A position's pieces: `pieces[side.index()]` and the kings of both.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    pub pieces: [u32; 2],
    pub kings: u32,
}

impl Board {
    pub fn empty(&self) -> u32 {
        !(self.pieces[0] | self.pieces[1])
    }

    /// The pieces of `side` that can jump now.
    #[inline]
    pub fn jumpers(&self, side: Side) -> u32 {
        let own = self.pieces[side.index()];
        let opp = self.pieces[1 - side.index()];
        let empty = self.empty();
        let from = |d: usize| step(step(empty, 3 - d) & opp, 3 - d);
        let [a, b] = forward(side);
        let [c, e] = forward(side.other());
        (own & (from(a) | from(b))) | (own & self.kings & (from(c) | from(e)))
    }

    /// The pieces of `side` that can step now.
    #[inline]
    pub fn steppers(&self, side: Side) -> u32 {
        let own = self.pieces[side.index()];
        let empty = self.empty();
        let [a, b] = forward(side);
        let [c, e] = forward(side.other());
        (own & (step(empty, 3 - a) | step(empty, 3 - b)))
            | (own & self.kings & (step(empty, 3 - c) | step(empty, 3 - e)))
    }

    /// Whether `side` has a legal move (under either rule).
    #[inline]
    pub fn has_move(&self, side: Side) -> bool {
        self.steppers(side) | self.jumpers(side) != 0
    }

    /// Appends the legal moves of `side` to `out`: captures first (with `Complete`, only them
    /// if there are any), then steps.
    pub fn generate(&self, side: Side, capturing: Capturing, out: &mut Vec<Move>) {
        let jumpers = self.jumpers(side);
        if jumpers != 0 {
            self.captures(side, jumpers, capturing, out);
            if capturing == Capturing::Complete {
                return;
            }
        }
        self.steps(side, out);
    }

    /// The number of legal moves of `side` (as [`Board::generate`] would give).
    pub fn count_moves(&self, side: Side, capturing: Capturing, scratch: &mut Vec<Move>) -> u64 {
        let jumpers = self.jumpers(side);
        let mut n = 0;
        if jumpers != 0 {
            scratch.clear();
            self.captures(side, jumpers, capturing, scratch);
            n = scratch.len() as u64;
            if capturing == Capturing::Complete {
                return n;
            }
        }
        let own = self.pieces[side.index()];
        let empty = self.empty();
        let [a, b] = forward(side);
        let [c, e] = forward(side.other());
        for d in [a, b] {
            n += (step(own, d) & empty).count_ones() as u64;
        }
        for d in [c, e] {
            n += (step(own & self.kings, d) & empty).count_ones() as u64;
        }
        n
    }

    /// The steps of `side`, appended to `out`.
    pub fn steps(&self, side: Side, out: &mut Vec<Move>) {
        let own = self.pieces[side.index()];
        let empty = self.empty();
        let [a, b] = forward(side);
        let [c, e] = forward(side.other());
        for (d, movers) in [(a, own), (b, own), (c, own & self.kings), (e, own & self.kings)] {
            let mut targets = step(movers, d) & empty;
            while targets != 0 {
                let to = targets.trailing_zeros() as u8;
                targets &= targets - 1;
                let from = NEIGHBOUR[to as usize][3 - d];
                out.push(Move { from, to, jumps: 0, ord: 0, captured: 0, path: to as u64 });
            }
        }
    }

    /// The capture paths of the pieces `jumpers` of `side`, appended to `out`.
    fn captures(&self, side: Side, mut jumpers: u32, capturing: Capturing, out: &mut Vec<Move>) {
        let opp = self.pieces[1 - side.index()];
        while jumpers != 0 {
            let from = jumpers.trailing_zeros() as u8;
            jumpers &= jumpers - 1;
            let king = self.kings & (1 << from) != 0;
            let start = out.len();
            let mut walk = Walk {
                from,
                dirs: if king { &[DL, DR, UL, UR] } else { forward_dirs(side) },
                opp,
                // The piece has left its square: a king may come back to it.
                empty: self.empty() | (1 << from),
                crown: if king { 0 } else { CROWN_ROW[side.index()] },
                capturing,
                out,
            };
            walk.extend(from, 0, 0, 0);
            // Ranks among paths with the same ends (two routes round the same pieces).
            if out.len() - start > 1 {
                for i in start + 1..out.len() {
                    let same = out[start..i].iter().filter(|m| m.to == out[i].to).count();
                    debug_assert!(same < 64, "more capture paths between two squares than keys allow");
                    out[i].ord = same.min(63) as u8;
                }
            }
        }
    }
}

fn forward_dirs(side: Side) -> &'static [usize] {
    match side {
        Side::First => &[DL, DR],
        Side::Second => &[UL, UR],
    }
}

/// One piece's capture paths, walked depth first.
struct Walk<'a> {
    from: u8,
    dirs: &'static [usize],
    opp: u32,
    empty: u32,
    /// The squares where the piece is crowned (which ends the move); 0 for a king.
    crown: u32,
    capturing: Capturing,
    out: &'a mut Vec<Move>,
}

impl Walk<'_> {
    /// Extends the path that has reached `at` after `jumps` jumps taking `captured`; returns
    /// whether there was a jump to make from `at`.
    fn extend(&mut self, at: u8, jumps: u8, captured: u32, path: u64) -> bool {
        let mut any = false;
        for &d in self.dirs {
            let over = NEIGHBOUR[at as usize][d];
            if over == NONE || (self.opp & !captured) & (1 << over) == 0 {
                continue;
            }
            let land = NEIGHBOUR[over as usize][d];
            if land == NONE || self.empty & (1 << land) == 0 {
                continue;
            }
            any = true;
            let (captured, path, jumps) = (captured | 1 << over, path | (land as u64) << (5 * jumps as u32), jumps + 1);
            let mv = Move { from: self.from, to: land, jumps, ord: 0, captured, path };
            let crowned = self.crown & (1 << land) != 0;
            match self.capturing {
                Capturing::Optional => {
                    self.out.push(mv);
                    if !crowned {
                        self.extend(land, jumps, captured, path);
                    }
                }
                Capturing::Complete => {
                    if crowned || !self.extend(land, jumps, captured, path) {
                        self.out.push(mv);
                    }
                }
            }
        }
        any
    }
}
