//! Transposition table: a fixed-size array of two-slot buckets, allocated once. Of the two slots
//! the one from an older search, then the shallower one, is replaced first. Memory is the size
//! asked for (rounded down to whole buckets) plus the struct.
//!
//! The table is shared by the search threads without locks: each slot is three atomic words
//! written and read with relaxed ordering, and the first word holds the key XOR the other two, so
//! a slot torn by a concurrent write fails the key check and reads as a miss.
//!
//! Entries stay valid across games: they are keyed by position, and the games' hashes tell apart
//! boards, game kinds and blocked cells. So a new game does not clear the table.

use super::{Score, WIN_BOUND};
use crate::memory::{zeroed_words, Words};
use std::sync::atomic::Ordering::Relaxed;

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

/// What a probe finds.
#[derive(Copy, Clone, Debug)]
pub struct Probe {
    pub mv: u32,
    score: Score,
    pub depth: u8,
    pub bound: Bound,
}

impl Probe {
    /// The score, seen from a node `ply` plies from the root.
    pub fn score(&self, ply: usize) -> Score {
        from_tt(self.score, ply)
    }
}

/// A slot of the table, packed in three words: the key (XOR the other two); the move key plus one
/// (0: no move) and the score; the depth, the bound (0 empty, 1 exact, 2 lower, 3 upper) and the
/// generation. An all-zero slot is empty, so a new table is a zeroed allocation of plain words,
/// which the operating system hands over lazily: a large table costs nothing up front.
type Slot = [u64; 3];

fn slot(key: u64, mv1: u32, score: Score, depth: u8, bound: u8, generation: u8) -> Slot {
    [key, mv1 as u64 | (score as u32 as u64) << 32, depth as u64 | (bound as u64) << 8 | (generation as u64) << 16]
}
fn mv1(s: &Slot) -> u32 {
    s[1] as u32
}
fn score_of(s: &Slot) -> Score {
    (s[1] >> 32) as u32 as i32
}
fn depth_of(s: &Slot) -> u8 {
    s[2] as u8
}
fn bound_of(s: &Slot) -> u8 {
    (s[2] >> 8) as u8
}
fn generation_of(s: &Slot) -> u8 {
    (s[2] >> 16) as u8
}

pub struct Tt {
    words: Words,
    generation: u8,
}

impl Tt {
    /// A table of about `mb` mebibytes (at least one bucket).
    pub fn new(mb: usize) -> Tt {
        let buckets = (mb * 1024 * 1024 / (2 * std::mem::size_of::<Slot>())).max(1);
        Tt { words: zeroed_words(buckets * 2 * 3), generation: 0 }
    }

    pub fn bytes(&self) -> usize {
        self.words.len() * std::mem::size_of::<u64>()
    }

    fn load(&self, i: usize) -> Slot {
        let w = &self.words[i * 3..i * 3 + 3];
        let (a, b, c) = (w[0].load(Relaxed), w[1].load(Relaxed), w[2].load(Relaxed));
        [a ^ b ^ c, b, c]
    }

    fn save(&self, i: usize, s: Slot) {
        let w = &self.words[i * 3..i * 3 + 3];
        w[0].store(s[0] ^ s[1] ^ s[2], Relaxed);
        w[1].store(s[1], Relaxed);
        w[2].store(s[2], Relaxed);
    }

    /// Marks the start of a new search: older entries become preferred victims.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    fn bucket(&self, key: u64) -> usize {
        let buckets = (self.words.len() / 6) as u128;
        (((key as u128) * buckets) >> 64) as usize * 2
    }

    /// The entry for `key` (a Zobrist hash), if any.
    pub fn probe(&self, key: u64) -> Option<Probe> {
        let b = self.bucket(key);
        let (s0, s1) = (self.load(b), self.load(b + 1));
        let s = [s0, s1].into_iter().find(|s| s[0] == key && bound_of(s) != 0)?;
        let s = &s;
        let bound = match bound_of(s) {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(Probe { mv: mv1(s).wrapping_sub(1), score: score_of(s), depth: depth_of(s), bound })
    }

    pub fn store(&self, key: u64, depth: u8, score: Score, ply: usize, bound: Bound, mv: u32) {
        let b = self.bucket(key);
        let generation = self.generation;
        let (s0, s1) = (self.load(b), self.load(b + 1));
        let (i, old) = if s0[0] == key {
            (b, s0)
        } else if s1[0] == key {
            (b + 1, s1)
        } else {
            let rank = |s: &Slot| ((generation_of(s) == generation) as u32) << 8 | depth_of(s) as u32;
            if rank(&s0) <= rank(&s1) {
                (b, s0)
            } else {
                (b + 1, s1)
            }
        };
        let same = old[0] == key && bound_of(&old) != 0;
        // Keep a deeper result for the same position unless the new one is exact or proved.
        if same
            && generation_of(&old) == generation
            && depth_of(&old) > depth
            && bound != Bound::Exact
            && depth != PROVEN
        {
            return;
        }
        let mv1 = if mv == NO_MOVE && same { mv1(&old) } else { mv.wrapping_add(1) };
        let bound = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        self.save(i, slot(key, mv1, to_tt(score, ply), depth, bound, generation));
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
    fn stores_and_finds_with_win_scores_relative_to_the_node() {
        let tt = Tt::new(1);
        tt.store(42, 5, WIN - 7, 3, Bound::Exact, 9);
        let e = tt.probe(42).expect("stored");
        assert_eq!((e.mv, e.depth, e.bound), (9, 5, Bound::Exact));
        // Seen from a node 2 plies nearer the root the same win is 2 plies further.
        assert_eq!(e.score(1), WIN - 5);
        assert!(tt.probe(43).is_none());
        tt.store(44, 1, 0, 0, Bound::Upper, NO_MOVE);
        assert_eq!(tt.probe(44).unwrap().mv, NO_MOVE);
    }

    #[test]
    fn size_is_bounded_by_the_request() {
        let tt = Tt::new(8);
        assert!(tt.bytes() <= 8 * 1024 * 1024);
        assert!(tt.bytes() > 7 * 1024 * 1024);
    }

    #[test]
    fn a_new_table_is_empty_even_for_key_zero() {
        let tt = Tt::new(1);
        assert!(tt.probe(0).is_none());
    }
}
