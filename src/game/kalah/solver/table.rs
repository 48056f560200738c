//! The solver's transposition table: proved bounds on a position's remaining margin, its best
//! move and the work that proved them.
//!
//! The size is fixed when the table is made (a number of bytes) and the memory is allocated then,
//! once; the table never grows. Values of an exact solver do not depend on a search depth, so a
//! bound once proved stays true: a store for a position already present tightens its bounds.
//!
//! Layout: buckets of 4 entries of 16 bytes, one bucket a cache line (64 bytes, aligned). An entry
//! is two words, one a row: the low 49 bits hold the row of the position itself (the
//! [`super::board`] layout: up to 6 pits, its 48 bits as they are; on 7 pits, 7 bits a pit, each
//! count then being below 128), the top 15 bits of each word 30 bits of data:
//!
//! ```text
//!   bits 0..9   lower bound + 256     bits 18..21  best pit (7: none)
//!   bits 9..18  upper bound + 256     bits 21..27  work: log2 of the nodes that proved it, + 1
//! ```
//!
//! The key is the whole position, so a hit is never a false match. An entry with both words 0 is
//! empty (a stored entry's lower bound + 256 is never 0). A new position replaces the bucket's
//! entry of least work.

use crate::memory::{zeroed_words, Words};
use std::sync::atomic::Ordering::Relaxed;

/// Bytes in a bucket.
const BUCKET_BYTES: usize = 64;
const ENTRIES: usize = 4;
/// Key bits of a word; the rest (15 bits) hold data.
const KEY_BITS: u32 = 49;
const KEY: u64 = (1 << KEY_BITS) - 1;
const DATA_BITS: u32 = 64 - KEY_BITS;
const NO_MOVE: u32 = 7;

/// What the table knows of a position: `lower <= value <= upper`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub lower: i32,
    pub upper: i32,
    /// The pit that proved the last bound stored, if any.
    pub best: Option<usize>,
}

pub struct Table {
    words: Words,
    buckets: usize,
    /// Rows of 7 pits: a row's key is its counts in 7 bits each.
    squeeze: bool,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Table({} buckets)", self.buckets)
    }
}

#[inline(always)]
fn pack(e: Entry, work: u32) -> u32 {
    (e.lower + 256) as u32
        | ((e.upper + 256) as u32) << 9
        | e.best.map_or(NO_MOVE, |m| m as u32) << 18
        | work.min(63) << 21
}

#[inline(always)]
fn unpack(d: u32) -> Entry {
    let best = (d >> 18) & 7;
    Entry {
        lower: (d & 511) as i32 - 256,
        upper: ((d >> 9) & 511) as i32 - 256,
        best: (best != NO_MOVE).then_some(best as usize),
    }
}

/// The 30 bits of data of an entry's two words.
#[inline(always)]
fn data(w0: u64, w1: u64) -> u32 {
    (w0 >> KEY_BITS) as u32 | ((w1 >> KEY_BITS) as u32) << DATA_BITS
}

#[inline(always)]
fn work_of(d: u32) -> u32 {
    d >> 21
}

/// Starts loading the cache line of `at` (a hint: it reads no memory and cannot fault).
#[inline(always)]
pub fn prefetch<T>(at: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // Measured reason for `unsafe` (the intrinsic is an unsafe fn): Kalah(6,4)'s solve
        // prefetching its children's buckets, docs/results/kalah.md.
        // SAFETY: a prefetch is a hint that reads no memory (it cannot fault); SSE, which it
        // needs, is part of every x86-64 processor.
        #[allow(unused_unsafe)]
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>(at as *const T as *const i8)
        };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = at;
}

impl Table {
    /// A table of `bytes` bytes (rounded down to whole buckets of 64 bytes; at least one).
    pub fn new(bytes: usize) -> Table {
        let buckets = (bytes / BUCKET_BYTES).max(1);
        Table { words: zeroed_words(buckets * BUCKET_BYTES / 8), buckets, squeeze: false }
    }

    /// Keys positions of `pits` pits a row (the table must be empty, or of the same width).
    pub fn set_pits(&mut self, pits: usize) {
        self.squeeze = pits > 6;
    }

    /// The key of a row (a half of a position).
    #[inline(always)]
    fn key(&self, row: u64) -> u64 {
        if !self.squeeze {
            return row;
        }
        // Bytes 0..7 of the row, each below 128, side by side in 7 bits each.
        (0..7).fold(0, |k, i| k | (row >> i) & (0x7f << (7 * i)))
    }

    /// A table of `mib` MiB.
    pub fn with_mib(mib: usize) -> Table {
        Table::new(mib << 20)
    }

    /// The table's size in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets * BUCKET_BYTES
    }

    /// Forgets every entry.
    pub fn clear(&self) {
        for w in self.words.iter() {
            w.store(0, Relaxed);
        }
    }

    /// The first word of `pos`'s bucket.
    #[inline(always)]
    fn bucket(&self, pos: u128) -> usize {
        let (lo, hi) = (pos as u64, (pos >> 64) as u64);
        let h = (lo ^ hi.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(23)).wrapping_mul(0xD6E8_FEB8_6659_FD93);
        let b = ((h as u128 * self.buckets as u128) >> 64) as usize;
        b * (BUCKET_BYTES / 8)
    }

    /// Loads the first word of `pos`'s bucket and returns it: a load issued early, whose value
    /// nothing waits for, brings the bucket's cache line in while other work goes on (several
    /// such loads are in flight at once).
    #[inline(always)]
    pub fn touch(&self, pos: u128) -> u64 {
        self.words[self.bucket(pos)].load(Relaxed)
    }

    /// Starts loading `pos`'s bucket into the cache without waiting for it, so that a later
    /// [`Table::probe`] or [`Table::store`] of `pos` finds it there.
    #[inline(always)]
    pub fn prefetch(&self, pos: u128) {
        prefetch(&self.words[self.bucket(pos)]);
    }

    /// What the table knows of `pos`.
    #[inline(always)]
    pub fn probe(&self, pos: u128) -> Option<Entry> {
        let (lo, hi) = (self.key(pos as u64), self.key((pos >> 64) as u64));
        let start = self.bucket(pos);
        for e in 0..ENTRIES {
            let w0 = self.words[start + 2 * e].load(Relaxed);
            if w0 & KEY == lo {
                let w1 = self.words[start + 2 * e + 1].load(Relaxed);
                if w1 & KEY == hi {
                    return Some(unpack(data(w0, w1)));
                }
            }
        }
        None
    }

    /// Records `lower <= value(pos) <= upper` (and a best pit) proved with `nodes` nodes,
    /// tightening what the table knew of `pos`.
    #[inline(always)]
    pub fn store(&self, pos: u128, mut e: Entry, nodes: u64) {
        let (lo, hi) = (self.key(pos as u64), self.key((pos >> 64) as u64));
        let start = self.bucket(pos);
        let mut work = 64 - nodes.leading_zeros();
        let mut slot = 0;
        let mut least = u32::MAX;
        for i in 0..ENTRIES {
            let w0 = self.words[start + 2 * i].load(Relaxed);
            let w1 = self.words[start + 2 * i + 1].load(Relaxed);
            if w0 & KEY == lo && w1 & KEY == hi {
                let d = data(w0, w1);
                let old = unpack(d);
                e.lower = e.lower.max(old.lower);
                e.upper = e.upper.min(old.upper);
                if e.best.is_none() {
                    e.best = old.best;
                }
                work = work.max(work_of(d));
                slot = i;
                break;
            }
            let w = if w0 == 0 && w1 == 0 { 0 } else { work_of(data(w0, w1)) + 1 };
            if w < least {
                least = w;
                slot = i;
            }
        }
        let d = pack(e, work);
        let low = (1u32 << DATA_BITS) - 1;
        self.words[start + 2 * slot].store(lo | ((d & low) as u64) << KEY_BITS, Relaxed);
        self.words[start + 2 * slot + 1].store(hi | ((d >> DATA_BITS) as u64) << KEY_BITS, Relaxed);
    }
}
