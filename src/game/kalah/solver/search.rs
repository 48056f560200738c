//! The exact search: fail-soft negamax with alpha-beta over [`board`] positions, driven by
//! MTD(f) (a series of null-window tests) at the root.
//!
//! A node's value is its remaining margin for the mover; its `n` seeds in the pits bound it to
//! [-n, n] (a player whose store holds more than half of all the seeds has won: that bound is
//! this one, the window being the store difference the root still needs). A move's value is its
//! gain plus the child's value, negated when the opponent moves next. Every value has the parity
//! of `n` (the seeds split between the players), so the tests step by 2.
//!
//! At a node, in order: the endgame database when `n` is small enough; the bound [-n, n]; the
//! table's bounds; the children, with the moves that end the game valued at once and, with
//! [`Options::etc`], if a child's table bound or database value already proves a cutoff, a cutoff
//! (enhanced transposition cutoffs; the children's table buckets and database bytes are all
//! loaded first, so that those memory accesses overlap); then the children searched in order,
//! except those whose known upper bound already fails low: the table's best move, extra turns (the rightmost
//! pit first: it leaves the other extra turns in place), moves putting 3 seeds or more in the
//! store (captures), moves putting some, the others; the rightmost pit first within each group.
//! That order was chosen by node counts (docs/results/kalah.md). By default
//! ([`Options::db_cutoffs`]) the children that the endgame database values are read before any
//! child is searched: one of them may cut off, and none of them is searched; and a node starts
//! loading its children's table buckets and database bytes ([`Options::prefetch`]) as soon as it
//! has made them.

use super::board::{self, byte, Child, Geometry, Kind, MAX_PITS};
use super::db::Database;
use super::table::{Entry, Table};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Instant;

/// How often (in nodes) the clock and the stop flag are looked at.
const CHECK_EVERY: u64 = 1 << 12;

/// Switches of the search, for measurements; all off (None) by default.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Enhanced transposition cutoffs: probe the children before searching any. Off by default:
    /// they save nodes (Kalah(6,4) over the 14-seed database: 34.9 M instead of 62.8 M) but each
    /// probe is a cache miss, and on the machine of docs/results/kalah.md the solves were 10 to
    /// 25% faster without them.
    pub etc: bool,
    /// Print each MTD(f) test, and the nodes by seeds in the pits, to stderr (off by default).
    pub trace: bool,
    /// Nodes with at most this many seeds more than the endgame database's neither read nor
    /// write the table: they are many, rarely met twice, and each probe is a cache miss. None
    /// (the default): 0. It was 4 over a database of 20 seeds or more before the database
    /// cutoffs ([`Options::db_cutoffs`]), with which 0 takes the fewest nodes and time
    /// (docs/results/kalah.md).
    pub table_above_db: Option<i32>,
    /// What a node starts loading for its children before searching them: 0 nothing, 1 their
    /// table buckets, 2 also their database bytes (measurements in docs/results/kalah.md).
    pub prefetch: u8,
    /// Cutoffs by the children the endgame database values (enhanced transposition cutoffs
    /// restricted to them, whose bytes are prefetched): a node reads every such child's exact
    /// value before searching any child, and searches none of them.
    pub db_cutoffs: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options { etc: false, trace: false, table_above_db: None, prefetch: 2, db_cutoffs: true }
    }
}

/// One solve's search state.
pub(super) struct Search<'a> {
    pub geometry: &'a Geometry,
    pub table: &'a Table,
    pub db: Option<&'a Database>,
    pub options: Options,
    pub nodes: u64,
    pub deadline: Option<Instant>,
    pub stop: Option<&'a AtomicBool>,
    /// Set once a limit is reached: the search then unwinds, storing nothing.
    pub aborted: bool,
    /// Nodes with at most this many seeds neither read nor write the table.
    pub table_floor: i32,
    /// Statistics kept when tracing: cutoffs by the rank of the move that made them (at all
    /// nodes, and at nodes of 30 seeds or more), nodes by seeds in the pits.
    pub cuts: [u64; MAX_PITS],
    pub cuts_high: [u64; MAX_PITS],
    pub by_seeds: Vec<u64>,
}

/// A child of a node, in the node's move order.
#[derive(Copy, Clone)]
struct Kid {
    child: Child,
    pit: u8,
    score: i32,
    /// An upper bound of the move's value for the mover (i32::MAX if none is known).
    upper: i32,
}

impl Search<'_> {
    fn limits_reached(&mut self) -> bool {
        if !self.aborted && self.nodes.is_multiple_of(CHECK_EVERY) {
            self.aborted =
                self.stop.is_some_and(|s| s.load(Relaxed)) || self.deadline.is_some_and(|d| Instant::now() >= d);
        }
        self.aborted
    }

    /// The exact remaining margin of `pos` (not over) for the mover, or None if aborted. MTD(f):
    /// null-window tests from `guess` until the bounds meet.
    pub fn value(&mut self, pos: u128, guess: i32) -> Option<i32> {
        let n = board::seeds(pos) as i32;
        let (mut lo, mut hi) = (-n, n);
        // Values have the parity of n.
        let round_down = |v: i32| v - (v - n).rem_euclid(2);
        let mut g = round_down(guess.clamp(lo, hi));
        while lo < hi {
            let t = if g <= lo { lo + 2 } else { g };
            let before = self.nodes;
            let r = self.search(pos, n, t - 1, t);
            if self.aborted {
                return None;
            }
            if self.options.trace {
                eprintln!(
                    "kalah solver: test value >= {t}: {r} in {} nodes; cuts by move rank {:?} ({:?} with 30 seeds or more)",
                    self.nodes - before,
                    self.cuts,
                    self.cuts_high
                );
            }
            if r >= t {
                lo = r + (r - n).rem_euclid(2);
                g = lo;
            } else {
                hi = round_down(r);
                g = hi;
            }
        }
        Some(lo)
    }

    /// Whether the move to `child` is worth at least `v` to the mover (None if aborted).
    pub fn move_reaches(&mut self, child: Child, n: i32, v: i32) -> Option<bool> {
        let value = match child.kind {
            Kind::End => child.gain,
            Kind::Extra => child.gain + self.search(child.pos, n - child.gain, v - 1 - child.gain, v - child.gain),
            Kind::Normal => child.gain - self.search(child.pos, n - child.gain, child.gain - v, child.gain - v + 1),
        };
        (!self.aborted).then_some(value >= v)
    }

    /// The exact value of the move to `child` for the mover (None if aborted).
    pub fn move_value(&mut self, child: Child) -> Option<i32> {
        Some(match child.kind {
            Kind::End => child.gain,
            Kind::Extra => child.gain + self.value(child.pos, 0)?,
            Kind::Normal => child.gain - self.value(child.pos, 0)?,
        })
    }

    /// A bound on `pos`'s value known without searching it: exact from the database, or the
    /// table's (lower, upper).
    #[inline(always)]
    fn known(&self, pos: u128, n: i32) -> Option<(i32, i32)> {
        if let Some(db) = self.db {
            if n <= db.max_seeds() as i32 {
                let v = db.value(pos, n as u32);
                return Some((v, v));
            }
        }
        if n <= self.table_floor {
            return None;
        }
        self.table.probe(pos).map(|e| (e.lower, e.upper))
    }

    /// Starts loading what [`Search::known`] will read of `pos`.
    #[inline(always)]
    fn touch(&self, pos: u128, n: i32) -> u64 {
        if let Some(db) = self.db {
            if n <= db.max_seeds() as i32 {
                return db.touch(pos, n as u32) as u64;
            }
        }
        if n <= self.table_floor {
            return 0;
        }
        self.table.touch(pos)
    }

    /// The value of `pos` (mover to move, `n` seeds in the pits, not over), fail-soft: a value
    /// <= alpha is an upper bound, >= beta a lower bound, in between exact.
    pub fn search(&mut self, pos: u128, n: i32, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if self.options.trace {
            self.by_seeds[n as usize] += 1;
        }
        if self.limits_reached() {
            return 0;
        }
        if let Some(db) = self.db {
            if n <= db.max_seeds() as i32 {
                return db.value(pos, n as u32);
            }
        }
        let (mut lo, mut hi) = (-n, n);
        if lo >= beta {
            return lo;
        }
        if hi <= alpha {
            return hi;
        }
        let mut tt_best = None;
        let use_table = n > self.table_floor;
        if let Some(e) = if use_table { self.table.probe(pos) } else { None } {
            lo = lo.max(e.lower);
            hi = hi.min(e.upper);
            if lo >= beta || lo == hi {
                return lo;
            }
            if hi <= alpha {
                return hi;
            }
            tt_best = e.best;
        }
        let nodes_before = self.nodes;
        let alpha_before = alpha;
        let etc = self.options.etc;

        // The children: those ending the game are valued at once; the others are sorted by
        // score (insertion sort; at most MAX_PITS), each with the upper bound of its value that
        // the table or the database gives (i32::MAX if none).
        let mut kids =
            [Kid { child: Child { pos: 0, gain: 0, kind: Kind::End }, pit: 0, score: 0, upper: 0 }; MAX_PITS];
        let mut count = 0;
        let mut best = i32::MIN;
        let mut best_pit = 0usize;
        // The largest upper bound of the children's values (i32::MAX once one is unknown).
        let mut known_hi = i32::MIN;
        // First every child, and a load of each one's table bucket or database byte, so that
        // those memory accesses overlap.
        let mut children = [Child { pos: 0, gain: 0, kind: Kind::End }; MAX_PITS];
        let mut touched = 0u64;
        // The database index of each child the database values (usize::MAX for the others),
        // computed once, for the prefetch and the read.
        let mut at = [usize::MAX; MAX_PITS];
        for (i, child) in children.iter_mut().enumerate().take(self.geometry.pits()) {
            if byte(pos, i) == 0 {
                continue;
            }
            *child = self.geometry.play(pos, i);
            if child.kind != Kind::End {
                if etc {
                    touched ^= self.touch(child.pos, n - child.gain);
                } else if let Some(db) = self.db.filter(|db| n - child.gain <= db.max_seeds() as i32) {
                    at[i] = db.index(child.pos, (n - child.gain) as u32);
                    if self.options.prefetch >= 2 {
                        db.prefetch_at(at[i]);
                    }
                } else if self.options.prefetch >= 1 && n - child.gain > self.table_floor {
                    self.table.prefetch(child.pos);
                }
            }
        }
        std::hint::black_box(touched);
        for (i, &c) in children.iter().enumerate().take(self.geometry.pits()) {
            if byte(pos, i) == 0 {
                continue;
            }
            let score = match c.kind {
                Kind::End => {
                    known_hi = known_hi.max(c.gain);
                    if c.gain > best {
                        best = c.gain;
                        best_pit = i;
                    }
                    continue;
                }
                _ if tt_best == Some(i) => i32::MAX,
                Kind::Extra => (1 << 30) + i as i32,
                Kind::Normal => ((c.gain > 2) as i32) * 256 + ((c.gain > 0) as i32) * 16 + i as i32,
            };
            let mut upper = i32::MAX;
            let in_db = self.db.is_some_and(|db| n - c.gain <= db.max_seeds() as i32);
            if etc || (in_db && self.options.db_cutoffs) {
                let known = match (at[i], self.db) {
                    (index, Some(db)) if index != usize::MAX => {
                        let v = db.value_at(index);
                        Some((v, v))
                    }
                    _ => self.known(c.pos, n - c.gain),
                };
                if let Some((clo, chi)) = known {
                    let vlo;
                    (vlo, upper) = match c.kind {
                        Kind::Extra => (c.gain + clo, c.gain + chi),
                        _ => (c.gain - chi, c.gain - clo),
                    };
                    if vlo > best {
                        best = vlo;
                        best_pit = i;
                    }
                    if vlo >= beta {
                        break;
                    }
                    if vlo == upper {
                        // Exact: nothing to search.
                        known_hi = known_hi.max(upper);
                        continue;
                    }
                }
            }
            known_hi = known_hi.max(upper);
            let mut j = count;
            while j > 0 && kids[j - 1].score < score {
                kids[j] = kids[j - 1];
                j -= 1;
            }
            kids[j] = Kid { child: c, pit: i as u8, score, upper };
            count += 1;
        }
        if best >= beta {
            if use_table {
                self.table.store(pos, Entry { lower: best, upper: hi, best: Some(best_pit) }, 1);
            }
            return best;
        }
        if known_hi <= alpha {
            if use_table {
                self.table.store(pos, Entry { lower: lo, upper: known_hi, best: None }, 1);
            }
            return known_hi;
        }
        if best > alpha {
            alpha = best;
        }
        for (rank, kid) in kids[..count].iter().enumerate() {
            let c = kid.child;
            // A move known to be worth at most alpha cannot raise the value above alpha: its
            // bound stands for it.
            let v = if kid.upper <= alpha {
                kid.upper
            } else if c.kind == Kind::Extra {
                c.gain + self.search(c.pos, n - c.gain, alpha - c.gain, beta - c.gain)
            } else {
                c.gain - self.search(c.pos, n - c.gain, c.gain - beta, c.gain - alpha)
            };
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_pit = kid.pit as usize;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        if self.options.trace {
                            self.cuts[rank] += 1;
                            if n >= 30 {
                                self.cuts_high[rank] += 1;
                            }
                        }
                        break;
                    }
                }
            }
        }
        let entry = if best >= beta {
            Entry { lower: best, upper: hi, best: Some(best_pit) }
        } else if best <= alpha_before {
            Entry { lower: lo, upper: best, best: None }
        } else {
            Entry { lower: best, upper: best, best: Some(best_pit) }
        };
        if use_table {
            self.table.store(pos, entry, self.nodes - nodes_before + 1);
        }
        best
    }
}
