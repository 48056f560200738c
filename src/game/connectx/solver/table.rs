//! The solver's transposition table: exact bounds on a position's score and its best move.
//!
//! Scores of an exact solver do not depend on a search depth, so a bound once proved stays true:
//! a store tightens whatever the slot already knew of the same position. Slots are two atomic
//! words (the key XOR the data, and the data), so that threads can share the table without locks:
//! a torn slot fails the key check and reads as empty.

use super::bitboard::Shape;
use crate::memory::zeroed_words;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// What the table knows of a position: lower <= score <= upper, and the move that proved a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub lower: i32,
    pub upper: i32,
    /// Column of the best move found, if any.
    pub best: Option<usize>,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Table({} MiB)", self.megabytes())
    }
}

pub struct Table {
    /// Slot i is words 2i (the key XOR the data) and 2i + 1 (the data).
    words: Vec<AtomicU64>,
    mask: usize,
    /// The board the entries belong to (keys of different boards collide: the empty board's
    /// key is 0 on all of them), as [`shape_id`]; 0 while the table is empty.
    shape: AtomicU64,
}

fn shape_id(s: &Shape) -> u64 {
    (1 + s.rows() as u64) | ((s.cols() as u64) << 16) | ((s.x() as u64) << 32)
}

fn pack(e: Entry) -> u64 {
    let byte = |v: i32| (v.clamp(-127, 127) + 128) as u64;
    byte(e.lower) | byte(e.upper) << 8 | (e.best.map_or(0, |c| c as u64 + 1) << 16)
}

fn unpack(d: u64) -> Entry {
    let val = |b: u64| (b & 0xff) as i32 - 128;
    let best = (d >> 16) & 0xff;
    Entry { lower: val(d), upper: val(d >> 8), best: (best != 0).then(|| best as usize - 1) }
}

impl Table {
    /// A table of about `megabytes` MiB (a power of two slots of 16 bytes).
    pub fn new(megabytes: usize) -> Table {
        let wanted = (megabytes.max(1) << 20) / 16;
        let slots = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        // Zeroed memory, mapped by the system on first touch ([`Table::clear`] touches it all).
        Table { words: zeroed_words(2 * slots), mask: slots - 1, shape: AtomicU64::new(0) }
    }

    pub fn megabytes(&self) -> usize {
        (self.words.len() * 8) >> 20
    }

    fn index(&self, key: u64) -> usize {
        // Keys are sparse bit patterns: mix them before taking the low bits.
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 20) as usize & self.mask
    }

    pub fn get(&self, key: u64) -> Option<Entry> {
        let i = 2 * self.index(key);
        let (k, d) = (&self.words[i], &self.words[i + 1]);
        let data = d.load(Relaxed);
        (data != 0 && k.load(Relaxed) ^ data == key).then(|| unpack(data))
    }

    /// Records `entry` for `key`, keeping the tighter bounds of an earlier entry of the same key.
    pub fn put(&self, key: u64, mut entry: Entry) {
        if let Some(old) = self.get(key) {
            entry.lower = entry.lower.max(old.lower);
            entry.upper = entry.upper.min(old.upper);
            entry.best = entry.best.or(old.best);
        }
        let data = pack(entry);
        let i = 2 * self.index(key);
        let (k, d) = (&self.words[i], &self.words[i + 1]);
        k.store(key ^ data, Relaxed);
        d.store(data, Relaxed);
    }

    /// Makes the table ready for positions of `shape`: cleared if it held another board's.
    pub fn prepare(&self, shape: &Shape) {
        let id = shape_id(shape);
        let old = self.shape.swap(id, Relaxed);
        if old != id && old != 0 {
            self.clear();
            self.shape.store(id, Relaxed);
        }
    }

    /// Empties the table (it then takes positions of any board).
    pub fn clear(&self) {
        self.shape.store(0, Relaxed);
        for w in &self.words {
            w.store(0, Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_tighten_and_round_trip() {
        let t = Table::new(1);
        assert_eq!(t.get(42), None);
        t.put(42, Entry { lower: -3, upper: 18, best: Some(6) });
        assert_eq!(t.get(42), Some(Entry { lower: -3, upper: 18, best: Some(6) }));
        t.put(42, Entry { lower: -18, upper: 5, best: None });
        assert_eq!(t.get(42), Some(Entry { lower: -3, upper: 5, best: Some(6) }));
        assert_eq!(t.get(43), None);
        assert_eq!(t.megabytes(), 1);
    }
}
