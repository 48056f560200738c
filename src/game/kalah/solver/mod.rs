//! The exact Kalah solver, for boards of at most 7 pits a row and 255 seeds in the pits (127 on
//! 7 pits; [`Solver::supports`]), either capture rule, with or without the pie rule.
//!
//! - [`board`]: the seeds in the pits seen from the side to move, packed in a `u128`.
//! - [`table`]: a transposition table of proved bounds, of a size fixed by the caller.
//! - [`search`]: fail-soft alpha-beta under MTD(f); enhanced transposition cutoffs (an option,
//!   off by default: slower on the measured machine, see [`search::Options::etc`]).
//! - [`db`]: endgame databases by retrograde analysis: every position with at most N seeds in
//!   the pits, ranked combinatorially, one byte each. Built on a solver's first solve within the
//!   memory budget its caller gives ([`Solver::set_database_budget`]), or given ready-made and
//!   shared ([`Solver::set_database`]); [`cache`] keeps them as files across runs.
//!
//! # Values
//!
//! [`Solved::value`] is the **remaining margin** for the side to move: what its store lead (its
//! store minus the opponent's) gains from now to the end of the game with perfect play, i.e. its
//! final store difference minus its current one. It depends only on the seeds in the pits.
//! [`Solved::first_margin`] is the **final margin** of the first player (its final store minus
//! the second player's): the current [`Kalah::store_difference`] plus the remaining margin,
//! negated when the second player is to move. At the start of a game both are the same number
//! for the first player; `kalah 6 4` solves to +10.
//!
//! Under the pie rule, the first two moves (the first move, which earns no extra turn, and the
//! reply that may be `swap`) are searched through the [`Kalah`] rules at the root, each of their
//! children by the search; `swap` gains its mover the difference of the exchanged stores twice.

pub mod board;
pub mod cache;
pub mod db;
pub mod search;
pub mod table;

use super::{Kalah, KalahMove};
use crate::game::{Game, Side};
use board::Geometry;
pub use db::Database;
use search::{Options, Search};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;
pub use table::Table;

/// A solved position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved {
    /// The remaining margin for the side to move (see the module's documentation).
    pub value: i32,
    /// The first player's final margin with perfect play.
    pub first_margin: i32,
    /// Every legal move keeping the value, the table's best first; empty once the game is over.
    pub best: Vec<KalahMove>,
    /// Nodes searched (calls of the search, the null-window tests for the best moves included).
    pub nodes: u64,
}

/// The exact value of each legal move ([`Solver::analyze`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// (move, remaining margin for the side to move if it plays the move), in the order of
    /// [`Game::legal_moves`].
    pub moves: Vec<(KalahMove, i32)>,
    pub nodes: u64,
}

/// The solver: its transposition table (kept from solve to solve while the rules stay the same),
/// its endgame database and its options.
pub struct Solver {
    table: Table,
    geometry: Option<Geometry>,
    /// The endgame database in use, if any (of the rules of `geometry`).
    db: Option<Arc<Database>>,
    /// The bytes an endgame database built on first use may take (0: none is built).
    db_budget: usize,
    pub options: Options,
}

impl Solver {
    /// A solver with a transposition table of `table_mib` MiB, allocated now (zeroed memory that
    /// the system maps on first touch).
    pub fn new(table_mib: usize) -> Solver {
        Solver::with_table_bytes(table_mib << 20)
    }

    /// A solver with a transposition table of `bytes` bytes (at least one bucket of 64).
    pub fn with_table_bytes(bytes: usize) -> Solver {
        Solver { table: Table::new(bytes), geometry: None, db: None, db_budget: 0, options: Options::default() }
    }

    /// Lets the solver build, on its first solve of a board width and capture rule, the endgame
    /// database of the most seeds that fits in `bytes` (one byte a position; see [`db`]), but
    /// never of more seeds than that solve's position has in its pits. 0: no database.
    pub fn set_database_budget(&mut self, bytes: usize) {
        self.db_budget = bytes;
    }

    /// Uses `db` (shared, e.g. by several solvers) for the positions of its rules.
    pub fn set_database(&mut self, db: Arc<Database>) {
        self.db = Some(db);
    }

    /// The endgame database in use, if any.
    pub fn database(&self) -> Option<&Arc<Database>> {
        self.db.as_ref()
    }

    /// Whether the solver takes `k`: at most 7 pits a row, and 255 seeds in the pits (127 on 7
    /// pits).
    pub fn supports(k: &Kalah) -> bool {
        k.pits() <= board::MAX_PITS && k.seeds_in_pits() <= board::max_seeds(k.pits())
    }

    /// The transposition table's size in bytes.
    pub fn table_bytes(&self) -> usize {
        self.table.bytes()
    }

    /// Forgets what the table learnt.
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Solves `k`: its value and every move keeping it. None if the solve was stopped (at
    /// `deadline`, or when `stop` is set) or if the solver does not take `k`
    /// ([`Solver::supports`]).
    pub fn solve(&mut self, k: &Kalah, deadline: Option<Instant>, stop: Option<&AtomicBool>) -> Option<Solved> {
        if !Solver::supports(k) {
            return None;
        }
        self.prepare(k);
        let mut s = self.search(deadline, stop);
        let value;
        let mut best = Vec::new();
        if k.is_over() {
            value = 0;
        } else if is_pie_root(k) {
            let values = analyze_pie_root(&mut s, k)?;
            value = values.iter().map(|&(_, v)| v).max().expect("moves");
            best.extend(values.iter().filter(|&&(_, v)| v == value).map(|&(m, _)| m));
        } else {
            let pos = root(k);
            value = s.value(pos, 0)?;
            if s.options.trace {
                eprintln!("nodes by seeds: {:?}", s.by_seeds);
            }
            let n = board::seeds(pos) as i32;
            let first = s.table.probe(pos).and_then(|e| e.best);
            let mut pits: Vec<usize> = (0..k.pits()).filter(|&i| board::byte(pos, i) > 0).collect();
            if let Some(f) = first {
                pits.sort_by_key(|&i| i != f);
            }
            for i in pits {
                if s.move_reaches(s.geometry.play(pos, i), n, value)? {
                    best.push(KalahMove::Pit(i as u8));
                }
            }
        }
        let first_margin = k.store_difference() + if k.to_move() == Side::First { value } else { -value };
        Some(Solved { value, first_margin, best, nodes: s.nodes })
    }

    /// The exact value of every legal move of `k` (remaining margins for the side to move); None
    /// if stopped or if the solver does not take `k`.
    pub fn analyze(&mut self, k: &Kalah, deadline: Option<Instant>, stop: Option<&AtomicBool>) -> Option<Analysis> {
        if !Solver::supports(k) {
            return None;
        }
        self.prepare(k);
        let mut s = self.search(deadline, stop);
        let moves = if is_pie_root(k) {
            analyze_pie_root(&mut s, k)?
        } else {
            let mut out = Vec::new();
            if !k.is_over() {
                let pos = root(k);
                for i in (0..k.pits()).filter(|&i| board::byte(pos, i) > 0) {
                    out.push((KalahMove::Pit(i as u8), s.move_value(s.geometry.play(pos, i))?));
                }
            }
            out
        };
        Some(Analysis { moves, nodes: s.nodes })
    }

    /// Keeps the table if the rules are those of the last solve; otherwise empties it. Builds or
    /// loads the endgame database if there is a budget and none of these rules yet.
    fn prepare(&mut self, k: &Kalah) {
        let same = self.geometry.as_ref().is_some_and(|g| g.pits() == k.pits() && g.capture() == k.capture());
        if !same {
            if self.geometry.is_some() {
                self.table.clear();
            }
            self.geometry = Some(Geometry::new(k.pits(), k.capture()));
            self.table.set_pits(k.pits());
        }
        if self.db.as_ref().is_some_and(|db| db.pits() != k.pits() || db.capture() != k.capture()) {
            self.db = None;
        }
        if self.db.is_none() && self.db_budget > 0 {
            let Some(n) = Database::max_seeds_within(k.pits(), self.db_budget) else { return };
            let n = n.min(k.seeds_in_pits() as u32);
            self.db = Some(Arc::new(Database::build(k.pits(), k.capture(), n)));
        }
    }

    fn search<'a>(&'a self, deadline: Option<Instant>, stop: Option<&'a AtomicBool>) -> Search<'a> {
        Search {
            geometry: self.geometry.as_ref().expect("prepared"),
            table: &self.table,
            db: self.db.as_deref(),
            options: self.options,
            nodes: 0,
            deadline,
            stop,
            aborted: false,
            table_floor: self.db.as_ref().map_or(0, |db| {
                let n = db.max_seeds() as i32;
                n + self.options.table_above_db.unwrap_or(0)
            }),
            cuts: [0; board::MAX_PITS],
            by_seeds: vec![0; 256],
            cuts_high: [0; board::MAX_PITS],
        }
    }
}

/// The transposition table a solve of a position with `seeds` in its pits is given: 1 MiB up to
/// 24 seeds, twice as much every 2 seeds more up to 64 MiB (36 seeds, Bantumi; Kalah(6,4) too),
/// then twice as much every 2 seeds from 50 seeds on (60, Kalah(6,5): 4 GiB), which the caller
/// caps by its memory budget. The nodes of a solve grow about as fast, and a table is touched
/// whole when made (256 MiB took 0.4 to 3 s here): a small board must not pay for a large one.
/// Over the 20-seed database, Kalah(6,4) takes 10,778,902 nodes with 64 MiB and 10,596,057
/// with 256 MiB (docs/results/kalah.md).
pub fn table_bytes_for(seeds: u32) -> usize {
    let doublings = (seeds.saturating_sub(24) / 2).min(6) + (seeds.saturating_sub(48) / 2);
    1usize << (20 + doublings.min(20))
}

/// The endgame database a solve of a position with `seeds` in its pits asks for when none is
/// cached: 26 seeds fewer (Bantumi 10, Kalah(6,4) 22, none up to 26 seeds), within the caller's
/// budget, which on 6 pits holds 20 seeds from 216 MiB (225,792,840 bytes), 22 from 523 MiB
/// (548,354,040 bytes), 23 from 796 MiB: `boardbot solve` (default `--hash 256`) gives
/// Kalah(6,4) 20 seeds, and 22 from `--hash 523` on. The database is cached as a file
/// ([`cache`]), built from the largest one cached (22 from 20: 170.90 s of CPU here, once), mapped
/// at once by later solves. Kalah(6,4) takes 10,778,902 nodes over 20 seeds, 5,203,043 over 22
/// (docs/results/kalah.md). A larger database already in the cache is used instead.
pub fn database_seeds_for(seeds: u32) -> u32 {
    seeds.saturating_sub(26)
}

/// The solver's position of `k` (not over): its pits seen from the side to move.
fn root(k: &Kalah) -> u128 {
    let me = k.to_move();
    board::pack(k.row(me), k.row(me.other()))
}

/// Whether the pie rule still matters at `k` (its first move, or the reply that may swap).
fn is_pie_root(k: &Kalah) -> bool {
    k.pie_first_move() || k.can_swap()
}

/// The exact remaining margin of `k` for the side to move, through the rules while the pie rule
/// matters, then by the search.
fn remaining(s: &mut Search, k: &Kalah) -> Option<i32> {
    if k.is_over() {
        Some(0)
    } else if is_pie_root(k) {
        Some(analyze_pie_root(s, k)?.into_iter().map(|(_, v)| v).max().expect("moves"))
    } else {
        s.value(root(k), 0)
    }
}

/// The exact value of every legal move of `k` (remaining margins for the side to move), each
/// played by the rules.
fn analyze_pie_root(s: &mut Search, k: &Kalah) -> Option<Vec<(KalahMove, i32)>> {
    let me = k.to_move();
    let mut moves = Vec::new();
    k.legal_moves(&mut moves);
    let mut out = Vec::with_capacity(moves.len());
    for mv in moves {
        let mut child = k.clone();
        child.play(mv);
        let gained = child.store_lead(me) - k.store_lead(me);
        let rest = remaining(s, &child)?;
        out.push((mv, gained + if child.to_move() == me { rest } else { -rest }));
    }
    Some(out)
}

#[cfg(test)]
mod tests;
