//! The solver's positions: the seeds in the pits only, seen from the side to move, packed in a
//! `u128`; a move is a few integer additions.
//!
//! Layout (bytes of the `u128`, least significant first; P <= 7 pits a row):
//!
//! ```text
//!   byte:  0  1  2  3  4  5  6 |  7 | 8  9 10 11 12 13 14 | 15
//!          mover's pits 0..P     zero  opponent's pits      zero
//!          (from its left)             0..P (from its left)
//! ```
//!
//! Pit j of the mover faces the opponent's pit P - 1 - j. Stores are not part of a position: the
//! solver's values are remaining margins (what the mover's store lead gains from now on), which
//! depend on the pits alone. Swapping the two 8-byte halves (a rotation by 64 bits) gives the
//! position seen by the opponent. The bytes past a row's P pits are always zero. Every count
//! stays below 256 because the solver takes at most 255 seeds in the pits ([`max_seeds`]; 127
//! on 7 pits, where the table keeps 7 bits a pit), so additions never carry from one byte into
//! the next.
//!
//! Sowing walks the mover's cycle of 2P + 1 slots: its pits 0..P (slots 0..P), its store (slot
//! P), the opponent's pits 0..P (slots P + 1..2P + 1); the opponent's store is skipped. `s`
//! seeds from pit `i` are `s / (2P + 1)` full laps (one seed in every slot) and then one seed in
//! each of the `s % (2P + 1)` slots after `i`, precomputed as byte masks.

use crate::game::kalah::Capture;

/// The most pits a row may have for the solver.
pub const MAX_PITS: usize = 7;

/// The most seeds the pits may hold for the solver on `pits` pits a row: 255 (a count fits in
/// a byte) up to 6 pits; 127 on 7, where the table keeps a position in 7 bits a pit.
pub const fn max_seeds(pits: usize) -> usize {
    if pits <= 6 {
        255
    } else {
        127
    }
}
/// The largest lap: 2 * MAX_PITS + 1 slots.
const MAX_CYCLE: usize = 2 * MAX_PITS + 1;

/// Ones in the low byte of every byte of a `u64`: a multiplication by it sums the bytes into the
/// top byte.
const BYTE_ONES: u64 = 0x0101_0101_0101_0101;

/// The seeds of a row (the low or high half of a position).
#[inline(always)]
pub fn row_sum(row: u64) -> u32 {
    (row.wrapping_mul(BYTE_ONES) >> 56) as u32
}

/// The seeds in all the pits of `pos`.
#[inline(always)]
pub fn seeds(pos: u128) -> u32 {
    row_sum(pos as u64) + row_sum((pos >> 64) as u64)
}

/// Byte `i` of `pos`.
#[inline(always)]
pub fn byte(pos: u128, i: usize) -> u32 {
    (pos >> (8 * i)) as u32 & 0xff
}

/// The same position seen by the other player.
#[inline(always)]
pub fn flip(pos: u128) -> u128 {
    pos.rotate_left(64)
}

/// A position from its two rows (each from its owner's left), the mover's first.
pub fn pack(mover: &[u16], opponent: &[u16]) -> u128 {
    let mut pos = 0u128;
    for (j, (&a, &b)) in mover.iter().zip(opponent).enumerate() {
        pos |= (a as u128) << (8 * j) | (b as u128) << (64 + 8 * j);
    }
    pos
}

/// How a move ends.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The opponent moves next; the child is seen from the opponent.
    Normal,
    /// An extra turn: the mover moves again; the child is seen from the mover.
    Extra,
    /// The game is over; `gain` is the move's whole value (child 0).
    End,
}

/// A move's result: the child position, the seeds it moved to the mover's store (for
/// [`Kind::End`], the mover's seeds minus the opponent's from the move and the sweep) and how
/// the turn passes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Child {
    pub pos: u128,
    pub gain: i32,
    pub kind: Kind,
}

/// The board size and capture rule, with the sowing masks.
#[derive(Clone, Debug)]
pub struct Geometry {
    pits: usize,
    capture: Capture,
    cycle: u32,
    /// `add[i][r]`: one seed in each of the `r` slots after pit `i` (stores excepted).
    add: [[u128; MAX_CYCLE]; MAX_PITS],
    /// `store[i][r]`: whether the mover's store is among those `r` slots.
    store: [[bool; MAX_CYCLE]; MAX_PITS],
    /// One seed in every pit of both rows.
    lap: u128,
}

impl Geometry {
    /// The geometry of `pits` pits a row (1..=MAX_PITS).
    pub fn new(pits: usize, capture: Capture) -> Geometry {
        assert!((1..=MAX_PITS).contains(&pits));
        let cycle = 2 * pits + 1;
        let slot_mask = |slot: usize| -> u128 {
            if slot < pits {
                1u128 << (8 * slot)
            } else if slot == pits {
                0
            } else {
                1u128 << (64 + 8 * (slot - pits - 1))
            }
        };
        let mut add = [[0u128; MAX_CYCLE]; MAX_PITS];
        let mut store = [[false; MAX_CYCLE]; MAX_PITS];
        for i in 0..pits {
            for r in 1..cycle {
                let slot = (i + r) % cycle;
                add[i][r] = add[i][r - 1] | slot_mask(slot);
                store[i][r] = store[i][r - 1] || slot == pits;
            }
        }
        let lap = (0..cycle).map(slot_mask).fold(0, |a, m| a | m);
        Geometry { pits, capture, cycle: cycle as u32, add, store, lap }
    }

    pub fn pits(&self) -> usize {
        self.pits
    }
    pub fn capture(&self) -> Capture {
        self.capture
    }

    /// Plays the mover's pit `i` (non-empty) of `pos`.
    #[inline(always)]
    pub fn play(&self, pos: u128, i: usize) -> Child {
        let p = self.pits;
        let s = byte(pos, i);
        debug_assert!(s > 0);
        // Divisions are slow, and a pit rarely holds a whole lap.
        let (laps, r) = if s < self.cycle { (0, s as usize) } else { (s / self.cycle, (s % self.cycle) as usize) };
        let mut b = pos - ((s as u128) << (8 * i)) + laps as u128 * self.lap + self.add[i][r];
        let mut gain = (laps + self.store[i][r] as u32) as i32;
        let mut last = i + r;
        if last >= self.cycle as usize {
            last -= self.cycle as usize;
        }
        let mut kind = Kind::Normal;
        if last == p {
            kind = Kind::Extra;
        } else if last < p && byte(b, last) == 1 {
            let facing = 8 + p - 1 - last;
            let taken = byte(b, facing);
            if taken > 0 || self.capture == Capture::Empty {
                gain += taken as i32 + 1;
                b &= !(0xffu128 << (8 * last) | 0xffu128 << (8 * facing));
            }
        }
        let (mine, theirs) = (b as u64, (b >> 64) as u64);
        if mine == 0 || theirs == 0 {
            gain += row_sum(mine) as i32 - row_sum(theirs) as i32;
            return Child { pos: 0, gain, kind: Kind::End };
        }
        match kind {
            Kind::Extra => Child { pos: b, gain, kind },
            _ => Child { pos: flip(b), gain, kind },
        }
    }
}
