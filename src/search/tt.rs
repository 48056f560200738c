//! Transposition table: a fixed-size array of two-entry buckets, allocated once. One entry is
//! replaced in preference to the other by age, then depth. Memory is exactly the size asked for
//! (rounded down to whole buckets) plus the struct.

use super::{Score, WIN_BOUND};

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The score is at least this.
    Lower,
    /// The score is at most this.
    Upper,
}

/// Depth stored for a result proved exactly (its subtree reached only decided positions).
pub const PROVEN: u8 = u8::MAX;
pub const NO_MOVE: u32 = u32::MAX;

#[derive(Copy, Clone, Debug)]
pub struct Entry {
    key: u64,
    pub mv: u32,
    score: Score,
    pub depth: u8,
    pub bound: Bound,
    generation: u8,
}

impl Entry {
    /// The score, seen from a node `ply` plies from the root.
    pub fn score(&self, ply: usize) -> Score {
        from_tt(self.score, ply)
    }
}

const EMPTY: Entry = Entry { key: 0, mv: NO_MOVE, score: 0, depth: 0, bound: Bound::Upper, generation: 0 };

pub struct Tt {
    entries: Vec<Entry>,
    generation: u8,
}

impl Tt {
    /// A table of about `mb` mebibytes (at least one bucket).
    pub fn new(mb: usize) -> Tt {
        let buckets = (mb * 1024 * 1024 / (2 * std::mem::size_of::<Entry>())).max(1);
        Tt { entries: vec![EMPTY; buckets * 2], generation: 0 }
    }

    pub fn bytes(&self) -> usize {
        self.entries.len() * std::mem::size_of::<Entry>()
    }

    pub fn clear(&mut self) {
        self.entries.fill(EMPTY);
        self.generation = 0;
    }

    /// Marks the start of a new search: older entries become preferred victims.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    fn bucket(&self, key: u64) -> usize {
        let buckets = (self.entries.len() / 2) as u128;
        (((key as u128) * buckets) >> 64) as usize * 2
    }

    /// The entry for `key`, if any. Keys are Zobrist hashes, never 0 (the empty slot's key).
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        self.entries[b..b + 2].iter().find(|e| e.key == key).copied()
    }

    pub fn store(&mut self, key: u64, depth: u8, score: Score, ply: usize, bound: Bound, mv: u32) {
        let b = self.bucket(key);
        let generation = self.generation;
        let slot = if self.entries[b].key == key {
            b
        } else if self.entries[b + 1].key == key {
            b + 1
        } else {
            // Victim: an entry from an older search first, then the shallower one.
            let rank = |e: &Entry| ((e.generation == generation) as u32) << 8 | e.depth as u32;
            if rank(&self.entries[b]) <= rank(&self.entries[b + 1]) {
                b
            } else {
                b + 1
            }
        };
        let old = self.entries[slot];
        // Keep a deeper result for the same position unless the new one is exact or proved.
        if old.key == key
            && old.generation == generation
            && old.depth > depth
            && bound != Bound::Exact
            && depth != PROVEN
        {
            return;
        }
        let mv = if mv == NO_MOVE && old.key == key { old.mv } else { mv };
        self.entries[slot] = Entry { key, mv, score: to_tt(score, ply), depth, bound, generation };
    }
}

/// Win/loss scores are stored relative to the node, not the root.
fn to_tt(score: Score, ply: usize) -> Score {
    if score >= WIN_BOUND {
        score + ply as Score
    } else if score <= -WIN_BOUND {
        score - ply as Score
    } else {
        score
    }
}

fn from_tt(score: Score, ply: usize) -> Score {
    if score >= WIN_BOUND {
        score - ply as Score
    } else if score <= -WIN_BOUND {
        score + ply as Score
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::WIN;

    #[test]
    fn stores_and_finds_with_mate_scores_relative_to_the_node() {
        let mut tt = Tt::new(1);
        tt.store(42, 5, WIN - 7, 3, Bound::Exact, 9);
        let e = tt.probe(42).expect("stored");
        assert_eq!((e.mv, e.depth, e.bound), (9, 5, Bound::Exact));
        // Seen from a node 2 plies deeper the same win is 2 plies nearer.
        assert_eq!(e.score(1), WIN - 5);
        assert!(tt.probe(43).is_none());
    }

    #[test]
    fn size_is_bounded_by_the_request() {
        let tt = Tt::new(8);
        assert!(tt.bytes() <= 8 * 1024 * 1024);
        assert!(tt.bytes() > 7 * 1024 * 1024);
    }
}
