//! The endgame database: the value (win, loss or draw for the side to move, with best play and
//! without the draw rules' counts) of every position of at most [`MAX_PIECES`] pieces, by
//! retrograde analysis, for one set of rules.
//!
//! # Layout
//!
//! Positions are grouped in classes by their material: (Black men, Black kings, White men, White
//! kings), each side with at least one piece. A class's table holds one byte per index:
//!
//! ```text
//! index = (((rank(black men) * C(32, bk) + rank(black kings)) * C(28, wm) + rank(white men))
//!          * C(32, wk) + rank(white kings)) * 2 + side to move (0 Black, 1 White)
//! ```
//!
//! where `rank` is the colex rank of a set of squares (sum of C(square, i + 1) over its squares
//! in increasing order, i from 0): kings' squares are bit indices 0..32; men's are counted among
//! the 28 squares a man of that side may stand on (Black's bits 0..28, White's bits 4..32, less
//! 4). Indices where two pieces share a square are unused.
//!
//! # Build
//!
//! Classes are solved in an order where every move out of a class (a capture: fewer pieces; a
//! man crowned: one man fewer, one king more) leads to a class solved before: by pieces, then by
//! men. Within a class: each position's moves are counted; moves out of the class are looked up
//! (one to a position lost for the opponent wins; one to a draw rules out a loss); a position
//! with no move, or only moves to won positions, is lost. Then the won and lost positions are
//! propagated back through the steps that lead to them (un-moves within the class, checked to be
//! legal: in English rules a step is illegal where a capture exists). What is left is drawn.

use super::movegen::{forward, Board, Capturing, CROWN_ROW, NEIGHBOUR, NONE};
use crate::game::Side;

/// Positions of at most this many pieces are in the database.
pub const MAX_PIECES: u32 = 4;

/// The value of a position for the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Win,
    Loss,
    Draw,
}

const UNKNOWN: u8 = 0;
const WIN: u8 = 1;
const LOSS: u8 = 2;
const DRAW: u8 = 3;
/// In the move counts of a build: a move to a drawn position exists.
const DRAW_EXIT: u8 = 0x80;

/// C(n, k) for n <= 32, k <= 4.
const fn binomials() -> [[u32; 5]; 33] {
    let mut c = [[0u32; 5]; 33];
    let mut n = 0;
    while n <= 32 {
        c[n][0] = 1;
        let mut k = 1;
        while k <= 4 {
            c[n][k] = if n == 0 { 0 } else { c[n - 1][k - 1] + c[n - 1][k] };
            k += 1;
        }
        n += 1;
    }
    c
}
static C: [[u32; 5]; 33] = binomials();

/// The material of a class: Black men, Black kings, White men, White kings.
type Material = [usize; 4];

fn material(b: &Board) -> Material {
    [
        (b.pieces[0] & !b.kings).count_ones() as usize,
        (b.pieces[0] & b.kings).count_ones() as usize,
        (b.pieces[1] & !b.kings).count_ones() as usize,
        (b.pieces[1] & b.kings).count_ones() as usize,
    ]
}

/// Where the men of each side may stand: bit offset of the 28 squares.
const MAN_OFFSET: [u32; 2] = [0, 4];

fn slot(m: &Material) -> usize {
    ((m[0] * 5 + m[1]) * 5 + m[2]) * 5 + m[3]
}

/// The four sets' sizes of a class: 28 or 32 squares, and their counts.
fn domains(m: &Material) -> [(usize, usize); 4] {
    [(28, m[0]), (32, m[1]), (28, m[2]), (32, m[3])]
}

fn class_size(m: &Material) -> usize {
    domains(m).iter().map(|&(n, k)| C[n][k] as usize).product::<usize>() * 2
}

/// Colex rank of the set bits of `set` (`k` of them).
fn rank(mut set: u32) -> usize {
    let (mut r, mut i) = (0, 1);
    while set != 0 {
        let sq = set.trailing_zeros() as usize;
        set &= set - 1;
        r += C[sq][i] as usize;
        i += 1;
    }
    r
}

/// The set of `k` squares (of `n`) with colex rank `r`.
fn unrank(mut r: usize, k: usize, n: usize) -> u32 {
    let mut set = 0;
    let mut top = n;
    for i in (1..=k).rev() {
        let mut sq = top - 1;
        while C[sq][i] as usize > r {
            sq -= 1;
        }
        r -= C[sq][i] as usize;
        set |= 1 << sq;
        top = sq;
    }
    set
}

/// The index of a position in its class's table.
fn index(b: &Board, side: Side, m: &Material) -> usize {
    let sets = [
        (b.pieces[0] & !b.kings) >> MAN_OFFSET[0],
        b.pieces[0] & b.kings,
        (b.pieces[1] & !b.kings) >> MAN_OFFSET[1],
        b.pieces[1] & b.kings,
    ];
    let mut i = 0;
    for (set, (n, k)) in sets.into_iter().zip(domains(m)) {
        i = i * C[n][k] as usize + rank(set);
    }
    i * 2 + side.index()
}

/// The position at `index` of the class, or None where two pieces would share a square.
fn position(mut index: usize, m: &Material) -> Option<(Board, Side)> {
    let side = if index.is_multiple_of(2) { Side::First } else { Side::Second };
    index /= 2;
    let d = domains(m);
    let mut sets = [0u32; 4];
    for j in (0..4).rev() {
        let (n, k) = d[j];
        let size = C[n][k] as usize;
        sets[j] = unrank(index % size, k, n);
        index /= size;
    }
    let (bm, bk, wm, wk) = (sets[0] << MAN_OFFSET[0], sets[1], sets[2] << MAN_OFFSET[1], sets[3]);
    let all = [bm, bk, wm, wk];
    let total: u32 = all.iter().map(|s| s.count_ones()).sum();
    if (bm | bk | wm | wk).count_ones() != total {
        return None;
    }
    Some((Board { pieces: [bm | bk, wm | wk], kings: bk | wk }, side))
}

/// The database of one set of rules.
pub struct Endgame {
    capturing: Capturing,
    /// By [`slot`] of the material: the class's table (values), if it is in the database.
    tables: Vec<Option<Vec<u8>>>,
    bytes: usize,
}

impl Endgame {
    /// The bytes the tables of up to `pieces` pieces take.
    pub fn bytes_for(pieces: u32) -> usize {
        classes(pieces).iter().map(class_size).sum()
    }

    /// Builds the database of every position of up to `pieces` (<= [`MAX_PIECES`]) pieces.
    pub fn build(capturing: Capturing, pieces: u32) -> Endgame {
        let mut db = Endgame { capturing, tables: vec![None; 625], bytes: 0 };
        for m in classes(pieces.min(MAX_PIECES)) {
            let table = db.solve_class(&m);
            db.bytes += table.len();
            db.tables[slot(&m)] = Some(table);
        }
        db
    }

    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// The value of a position for `side` to move, if its material is in the database.
    pub fn probe(&self, b: &Board, side: Side) -> Option<Value> {
        if b.pieces[side.index()] == 0 {
            return Some(Value::Loss);
        }
        let m = material(b);
        let table = self.tables.get(slot(&m))?.as_ref()?;
        Some(match table[index(b, side, &m)] {
            WIN => Value::Win,
            LOSS => Value::Loss,
            _ => Value::Draw,
        })
    }

    /// The pieces a probe covers.
    pub fn covers(&self, b: &Board) -> bool {
        b.pieces[0] == 0 || b.pieces[1] == 0 || self.tables.get(slot(&material(b))).is_some_and(|t| t.is_some())
    }

    fn solve_class(&self, m: &Material) -> Vec<u8> {
        let size = class_size(m);
        let mut value = vec![UNKNOWN; size];
        let mut count = vec![0u8; size];
        let mut queue = Vec::new();
        let mut moves = Vec::with_capacity(32);
        for i in 0..size {
            let Some((b, side)) = position(i, m) else { continue };
            moves.clear();
            b.generate(side, self.capturing, &mut moves);
            let (mut inside, mut draw, mut win) = (0u8, false, false);
            for &mv in &moves {
                let man = b.kings & (1 << mv.from) == 0;
                let crowns = man && CROWN_ROW[side.index()] & (1 << mv.to) != 0;
                if mv.captured == 0 && !crowns {
                    inside += 1;
                    continue;
                }
                let mut after = b;
                super::apply(&mut after, side, mv);
                match self.probe(&after, side.other()) {
                    Some(Value::Loss) => {
                        win = true;
                        break;
                    }
                    Some(Value::Draw) => draw = true,
                    Some(Value::Win) => {}
                    None => unreachable!("a class is solved after the classes its moves lead to"),
                }
            }
            if win {
                value[i] = WIN;
                queue.push(i as u32);
            } else if inside == 0 && !draw {
                value[i] = LOSS;
                queue.push(i as u32);
            } else {
                count[i] = inside | if draw { DRAW_EXIT } else { 0 };
            }
        }
        // Back from each decided position through the steps that reach it.
        let mut head = 0;
        while head < queue.len() {
            let q = queue[head] as usize;
            head += 1;
            let (b, side) = position(q, m).expect("a decided index is a position");
            let mover = side.other();
            let s = mover.index();
            let empty = b.empty();
            let mut pieces = b.pieces[s];
            while pieces != 0 {
                let x = pieces.trailing_zeros() as usize;
                pieces &= pieces - 1;
                let king = b.kings & (1 << x) != 0;
                for (d, &y) in NEIGHBOUR[x].iter().enumerate() {
                    // The piece came to x from y, moving in direction 3 - d.
                    if !king && !forward(mover).contains(&(3 - d)) {
                        continue;
                    }
                    if y == NONE || empty & (1 << y) == 0 {
                        continue;
                    }
                    let mut before = b;
                    before.pieces[s] ^= (1 << x) | (1 << y);
                    if king {
                        before.kings ^= (1 << x) | (1 << y);
                    }
                    if self.capturing == Capturing::Complete && before.jumpers(mover) != 0 {
                        continue;
                    }
                    let p = index(&before, mover, m);
                    if value[p] != UNKNOWN {
                        continue;
                    }
                    if value[q] == LOSS {
                        value[p] = WIN;
                        queue.push(p as u32);
                    } else {
                        count[p] -= 1;
                        if count[p] == 0 {
                            value[p] = LOSS;
                            queue.push(p as u32);
                        }
                    }
                }
            }
        }
        for v in &mut value {
            if *v == UNKNOWN {
                *v = DRAW;
            }
        }
        value
    }
}

/// Every class of up to `pieces` pieces, each side with one at least, in the order they are
/// solved: by pieces, then by men (a crowning leads to one man fewer).
fn classes(pieces: u32) -> Vec<Material> {
    let mut out = Vec::new();
    let n = pieces as usize;
    for total in 2..=n {
        for men in 0..=total {
            for bm in 0..=men {
                let wm = men - bm;
                for bk in 0..=total - men {
                    let wk = total - men - bk;
                    if bm + bk >= 1 && wm + wk >= 1 {
                        out.push([bm, bk, wm, wk]);
                    }
                }
            }
        }
    }
    out
}
