//! The exact solvers' transposition table: proved bounds on a position's score and its best move
//! (a column of Connect-X, a cell of an m,n,k board).
//!
//! Scores of an exact solver do not depend on a search depth, so a bound once proved stays true:
//! a store tightens whatever the slot already knew of the same position. Slots are two atomic
//! words (the key XOR the data, and the data), so that threads can share the table without locks:
//! a torn slot fails the key check and reads as empty.
//!
//! A key maps to a bucket of two slots. The first keeps the entry nearest the root (fewest
//! stones: the largest subtree saved), unless it comes from an earlier solve; the second takes
//! everything else.

use crate::memory::{zeroed_words, Words};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// What the table knows of a position: lower <= score <= upper, and the move that proved a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    pub lower: i32,
    pub upper: i32,
    /// The best move found (below 255), if any.
    pub best: Option<usize>,
}

impl std::fmt::Debug for BoundTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "BoundTable({} MiB)", self.megabytes())
    }
}

pub struct BoundTable {
    /// Slot i is words 2i (the key XOR the data) and 2i + 1 (the data); bucket b is slots 2b
    /// and 2b + 1.
    words: Words,
    /// Buckets - 1.
    mask: usize,
    /// The current solve's number (8 bits), stored with the entries it writes.
    generation: AtomicU64,
    /// The board the entries belong to (keys of different boards collide: the empty board's
    /// key is 0 on all of them), as the solver's nonzero board id; 0 while the table is empty.
    board: AtomicU64,
}

/// Bits of a slot's data: lower bound, upper bound, best move + 1 (0: none), stones on the
/// board, generation; one byte each.
fn pack(e: Bounds, moves: u32, generation: u64) -> u64 {
    let byte = |v: i32| (v.clamp(-127, 127) + 128) as u64;
    byte(e.lower)
        | byte(e.upper) << 8
        | e.best.map_or(0, |c| c as u64 + 1) << 16
        | (moves.min(255) as u64) << 24
        | (generation & 0xff) << 32
}

fn moves_of(data: u64) -> u32 {
    ((data >> 24) & 0xff) as u32
}

fn generation_of(data: u64) -> u64 {
    (data >> 32) & 0xff
}

fn unpack(d: u64) -> Bounds {
    let val = |b: u64| (b & 0xff) as i32 - 128;
    let best = (d >> 16) & 0xff;
    Bounds { lower: val(d), upper: val(d >> 8), best: (best != 0).then(|| best as usize - 1) }
}

impl BoundTable {
    /// A table of about `megabytes` MiB (a power of two buckets of 32 bytes).
    pub fn new(megabytes: usize) -> BoundTable {
        let wanted = ((megabytes.max(1) << 20) / 32).max(1);
        let buckets = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        // Zeroed memory, mapped by the system on first touch ([`BoundTable::clear`] touches it all).
        BoundTable {
            words: zeroed_words(4 * buckets),
            mask: buckets - 1,
            generation: AtomicU64::new(0),
            board: AtomicU64::new(0),
        }
    }

    /// Starts a new solve: entries of earlier ones may now give way to it in a bucket's first slot.
    pub fn new_solve(&self) {
        self.generation.fetch_add(1, Relaxed);
    }

    pub fn megabytes(&self) -> usize {
        (self.words.len() * 8) >> 20
    }

    #[inline(always)]
    fn index(&self, key: u64) -> usize {
        // Keys are sparse bit patterns: mix them before taking the low bits.
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 20) as usize & self.mask
    }

    /// The data of the slot of `key`'s bucket that holds it, and that slot's first word.
    #[inline(always)]
    fn find(&self, key: u64) -> (Option<u64>, usize) {
        let b = 4 * self.index(key);
        for i in [b, b + 2] {
            let data = self.words[i + 1].load(Relaxed);
            if data != 0 && self.words[i].load(Relaxed) ^ data == key {
                return (Some(data), i);
            }
        }
        (None, b)
    }

    /// Starts loading `key`'s bucket into the cache, so that a later [`BoundTable::get`] or
    /// [`BoundTable::put`] of it does not wait for memory.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let bucket = &self.words[4 * self.index(key)];
            // Measured reason for `unsafe` (the intrinsic is an unsafe fn): the Connect-X solver
            // prefetching its children's buckets took 0.817 of the time on 1,650 shared positions
            // (`boardbot solve --hash 64`, median of 5 paired runs; commit ab0f984).
            // SAFETY: a prefetch is a hint that reads no memory (it cannot fault); SSE, which it
            // needs, is part of every x86-64 processor.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket as *const AtomicU64 as *const i8) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    #[inline(always)]
    pub fn get(&self, key: u64) -> Option<Bounds> {
        self.find(key).0.map(unpack)
    }

    /// Records `entry` for `key`, a position with `moves` stones, keeping the tighter bounds of
    /// an earlier entry of the same key.
    pub fn put(&self, key: u64, mut entry: Bounds, moves: u32) {
        let generation = self.generation.load(Relaxed);
        let (old, found) = self.find(key);
        let i = match old {
            Some(data) => {
                let old = unpack(data);
                entry.lower = entry.lower.max(old.lower);
                entry.upper = entry.upper.min(old.upper);
                entry.best = entry.best.or(old.best);
                found
            }
            None => {
                let first = self.words[found + 1].load(Relaxed);
                let keep_first = first != 0 && generation_of(first) == generation & 0xff && moves_of(first) < moves;
                if keep_first {
                    found + 2
                } else {
                    found
                }
            }
        };
        let data = pack(entry, moves, generation);
        self.words[i].store(key ^ data, Relaxed);
        self.words[i + 1].store(data, Relaxed);
    }

    /// Makes the table ready for positions of the board `id` (nonzero, unique to a game and its
    /// size): cleared if it held another board's.
    pub fn prepare(&self, id: u64) {
        let old = self.board.swap(id, Relaxed);
        if old != id && old != 0 {
            self.clear();
            self.board.store(id, Relaxed);
        }
    }

    /// Empties the table (it then takes positions of any board).
    pub fn clear(&self) {
        self.board.store(0, Relaxed);
        for w in self.words.iter() {
            w.store(0, Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_tighten_and_round_trip() {
        let t = BoundTable::new(1);
        assert_eq!(t.get(42), None);
        t.put(42, Bounds { lower: -3, upper: 18, best: Some(6) }, 10);
        assert_eq!(t.get(42), Some(Bounds { lower: -3, upper: 18, best: Some(6) }));
        t.put(42, Bounds { lower: -18, upper: 5, best: None }, 10);
        assert_eq!(t.get(42), Some(Bounds { lower: -3, upper: 5, best: Some(6) }));
        assert_eq!(t.get(43), None);
        assert_eq!(t.megabytes(), 1);
    }
}
