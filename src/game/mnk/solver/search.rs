//! The weak solver: negamax with alpha-beta over values -1 (loss), 0 (draw), 1 (win), searched
//! with null windows: first whether the side to move wins, then whether it loses.
//!
//! At every node, before any move is searched:
//! - the opponent's immediate wins: two distinct cells lose, one must be blocked (the only move);
//! - one scan of the board's K-cell windows gives, for each side, whether it can still complete
//!   one (a window free of the other side's stones, with no more stones missing than the side
//!   has moves left: if neither can, the node is a draw), the cells that make a K - 1 with one
//!   completion (a "four" for K = 5), the cells that make two at once (a win: one reply blocks
//!   only one) and a move-ordering score for every empty cell;
//! - cells in no window free of either side's stones are never played (such a move is a pass,
//!   and a stone never hurts its owner in an m,n,k-game);
//! - when the opponent has a cell that makes two completions at once, only the moves that take
//!   a cell of its windows, or make a completion of our own, are searched: any other move loses;
//! - the table's proved bounds, shared by the position's images under the board's symmetries;
//! - where the null window asks whether one side wins and the counting of its moves left does
//!   not rule it out, a pairing strategy of the other side (see [`super::pairing`]): found, it
//!   proves that the side does not win (the bound is stored in the table). It is not looked
//!   for against the side that just moved when the parent looked for one against it and found
//!   none. One may exist there all the same (the side has a move fewer, so fewer of its windows
//!   count), but skipping those searches saves more time than the extra nodes cost (measured:
//!   docs/results/mnk-exact.md).
//!
//! Moves are tried the table's move first, then by the ordering score: for every window free of
//! the opponent's stones through the cell, a weight growing fourfold with the stones it holds, and
//! the same for the opponent's windows; own windows weigh 3/2 as much when the node tries to win
//! (beta > 0), the same when it only tries not to lose (measured:
//! docs/results/mnk-exact.md); then nearer the centre.
//!
//! No enhanced transposition cutoffs (looking every child up in the table before searching
//! any): they save nodes, but their keys and lookups cost more time than those nodes
//! (measured: docs/results/mnk-exact.md).

use super::bitboard::{from_image, to_image, Board, Stones};
use super::pairing;
use crate::game::solver::table::{BoundTable, Bounds};
use crate::game::solver::{narrow, Aborted, Budget, CHECK_EVERY};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

pub struct AlphaBeta<'a> {
    board: &'a Board,
    table: &'a BoundTable,
    pub nodes: u64,
    budget: Budget<'a>,
    /// Scratch of [`AlphaBeta::scan`], per side (0: the side to move): for each cell that makes a
    /// completion, the cells that then win (`targets`) and the empty cells of the windows
    /// involved (`zone`). All zero between scans (a scan clears what it set).
    targets: [[u64; 64]; 2],
    zone: [[u64; 64]; 2],
    /// Scratch of [`AlphaBeta::pairs_against`]: the attacker's windows, with their lines.
    live: Vec<(u64, u64)>,
    /// The pairings' search steps since the limits were last looked at.
    pairing_steps: u64,
}

/// What one scan of the windows tells about a node (see the module's documentation).
struct Scan {
    /// Per side (0: the side to move): whether it can still complete a window.
    can_win: [bool; 2],
    /// Per side: the cells where it makes a completion (a cell that then wins).
    fours: [u64; 2],
    /// Empty cells of windows free of one side's stones.
    relevant: u64,
    /// Cells where the side to move makes two completions at once.
    own_doubles: u64,
    /// The moves that stop every opponent's double (all cells if it has none).
    stops_doubles: u64,
    /// Move-ordering score of every cell.
    score: [u32; 64],
}

/// The most steps of one search for a pairing; running out counts as no pairing, so a proof
/// is never wrong (measured: docs/results/mnk-exact.md).
const PAIRING_BUDGET: u32 = 256;

/// Ordering weight of a window by the stones it holds: fourfold each.
const WEIGHT: [u32; 9] = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536];

impl<'a> AlphaBeta<'a> {
    pub fn new(board: &'a Board, table: &'a BoundTable) -> AlphaBeta<'a> {
        AlphaBeta {
            board,
            table,
            nodes: 0,
            budget: Budget::default(),
            targets: [[0; 64]; 2],
            zone: [[0; 64]; 2],
            live: Vec::new(),
            pairing_steps: 0,
        }
    }

    /// Gives up when `stop` is set (the solve then returns [`Aborted`]).
    pub fn with_stop(mut self, stop: &'a AtomicBool) -> Self {
        self.budget.stop = Some(stop);
        self
    }

    /// Gives up at `deadline` (the solve then returns [`Aborted`]).
    pub fn with_deadline(mut self, deadline: Option<Instant>) -> Self {
        self.budget.deadline = deadline;
        self
    }

    /// The value of `p` for the side to move: 1 win, 0 draw, -1 loss (also when the game is
    /// already over: the side that just moved made K in a row).
    pub fn solve(&mut self, p: &Stones) -> Result<i32, Aborted> {
        if let Some(v) = self.begin(p) {
            return Ok(v);
        }
        // Does the side to move win? If not, does it lose?
        let v = if self.negamax(p, 0, 1, false) >= 1 {
            1
        } else if self.negamax(p, -1, 0, false) >= 0 {
            0
        } else {
            -1
        };
        if self.budget.aborted {
            return Err(Aborted);
        }
        Ok(v)
    }

    /// Whether the side to move wins `p`: the first of [`AlphaBeta::solve`]'s two searches only.
    pub fn wins(&mut self, p: &Stones) -> Result<bool, Aborted> {
        if let Some(v) = self.begin(p) {
            return Ok(v > 0);
        }
        let won = self.negamax(p, 0, 1, false) >= 1;
        if self.budget.aborted {
            return Err(Aborted);
        }
        Ok(won)
    }

    /// Whether the side to move does not lose `p` (a draw at least): the second of
    /// [`AlphaBeta::solve`]'s two searches only. When it holds, [`AlphaBeta::table_move`] gives a move
    /// that keeps at least the draw.
    pub fn holds(&mut self, p: &Stones) -> Result<bool, Aborted> {
        if let Some(v) = self.begin(p) {
            return Ok(v >= 0);
        }
        let held = self.negamax(p, -1, 0, false) >= 0;
        if self.budget.aborted {
            return Err(Aborted);
        }
        Ok(held)
    }

    /// Makes the table ready for a solve of `p`; `p`'s value if it needs no search (the game is
    /// over, the side to move wins at once, or the board is full).
    fn begin(&mut self, p: &Stones) -> Option<i32> {
        self.table.prepare(self.board.id());
        self.table.new_solve();
        self.value_at_once(p)
    }

    /// `p`'s value if it needs no search: the game is over, the side to move wins at once, or
    /// the board is full.
    fn value_at_once(&self, p: &Stones) -> Option<i32> {
        let b = self.board;
        let empty = p.empty(b);
        if p.is_over(b) {
            Some(-1)
        } else if b.completions(p.own()) & empty != 0 {
            Some(1)
        } else if empty == 0 {
            Some(0)
        } else {
            None
        }
    }

    /// What is proved of `p`'s value for the side to move without a search (lower, upper): its
    /// value if it needs none, else the table's bounds; (-1, 1) when nothing is known.
    pub fn known(&self, p: &Stones) -> (i32, i32) {
        self.table.prepare(self.board.id());
        match self.value_at_once(p) {
            Some(v) => (v, v),
            None => self.probe(p).0.map_or((-1, 1), |e| (e.lower, e.upper)),
        }
    }

    /// The move the table holds for `p` (the one that settled its last search there), as a
    /// cell index of the board.
    pub fn table_move(&self, p: &Stones) -> Option<u32> {
        self.probe(p).0.and_then(|e| e.best).map(|i| i as u32)
    }

    /// The table's entry for `p`, with its best move in `p`'s orientation, and `p`'s key and
    /// symmetry.
    fn probe(&self, p: &Stones) -> (Option<Bounds>, u64, usize) {
        let (key, sym) = p.canonical_key(self.board);
        let entry = self.table.get(key).map(|mut e| {
            e.best = e.best.map(|i| from_image(self.board, sym, i as u32) as usize);
            e
        });
        (entry, key, sym)
    }

    fn store(&self, key: u64, sym: usize, p: &Stones, mut e: Bounds) {
        e.best = e.best.map(|i| to_image(self.board, sym, i as u32) as usize);
        self.table.put(key, e, p.moves());
    }

    /// Negamax with alpha-beta (fail-hard) on a position where the side to move cannot win at
    /// once and the game is not over. `skip_opponent`: the parent looked for a pairing against
    /// the side that just moved and found none, so none is looked for here.
    fn negamax(&mut self, p: &Stones, mut alpha: i32, mut beta: i32, skip_opponent: bool) -> i32 {
        self.nodes += 1;
        if self.budget.reached(self.nodes) {
            return alpha;
        }
        let b = self.board;
        let empty = p.empty(b);
        let empties = empty.count_ones();
        let threats = b.completions(p.opponent()) & empty;
        if threats & (threats.wrapping_sub(1)) != 0 {
            // Two cells win for the opponent: we block one.
            return -1;
        }
        if empties <= 1 {
            // We fill the last cell (blocking if need be) without winning.
            return 0;
        }
        let (entry, key, sym) = self.probe(p);
        if let Some(e) = entry {
            if let Some(v) = narrow(&mut alpha, &mut beta, e.lower, e.upper) {
                return v;
            }
        }
        let scan = self.scan(p, empty, beta > 0);
        let (mut min, mut max) = (-(scan.can_win[1] as i32), scan.can_win[0] as i32);
        if let Some(v) = narrow(&mut alpha, &mut beta, min, max) {
            return v;
        }
        // A pairing against the side that must win for the search to go on here ends it. If one
        // against the side to move is looked for and the search goes on, none was found, and the
        // children skip theirs against the same side (`skip_opponent`).
        let tried_mover = max > 0 && alpha >= 0;
        let paired = if tried_mover && self.pairs_against(p, 0, empty, 0) {
            max = 0;
            true
        } else if !skip_opponent && min < 0 && beta <= 0 && self.pairs_against(p, 1, empty, threats) {
            min = 0;
            true
        } else {
            false
        };
        if self.budget.aborted {
            return alpha;
        }
        if paired {
            self.store(key, sym, p, Bounds { lower: min, upper: max, best: None });
            return 0;
        }
        let mut moves = if threats != 0 { threats } else { scan.relevant & scan.stops_doubles };
        let doubles = moves & scan.own_doubles;
        if doubles != 0 {
            let cell = doubles.trailing_zeros() as usize;
            self.store(key, sym, p, Bounds { lower: 1, upper: 1, best: Some(cell) });
            return 1;
        }
        if threats == 0 {
            moves |= scan.fours[0] & scan.relevant;
        }
        if moves == 0 {
            // Every move lets the opponent make two completions at once.
            self.store(key, sym, p, Bounds { lower: -1, upper: -1, best: None });
            return -1;
        }

        let mut ordered = order(b, moves, &scan.score, entry.and_then(|e| e.best));
        let alpha0 = alpha;
        let mut best = None;
        while let Some(cell) = ordered.next_best() {
            let mut child = *p;
            child.play(b, cell);
            let v = -self.negamax(&child, -beta, -alpha, tried_mover);
            if self.budget.aborted {
                return alpha;
            }
            if v >= beta {
                self.store(key, sym, p, Bounds { lower: v, upper: max, best: Some(cell as usize) });
                return v;
            }
            if v > alpha {
                alpha = v;
                best = Some(cell as usize);
            }
        }
        // Every move failed low: alpha is an upper bound; if one rose above alpha0 it is exact.
        let lower = if alpha > alpha0 { alpha } else { min };
        self.store(key, sym, p, Bounds { lower, upper: alpha, best });
        alpha
    }

    /// For df-pn ([`super::pn`]): the moves worth searching at `p` (neither side wins at once;
    /// `threats`: the opponent's one completion, or 0), their ordering scores, and whether each
    /// side can still complete a window; or `p`'s value when the scan settles it (1: the side to
    /// move makes two completions at once; -1: no move stops the opponent's doing so).
    pub(super) fn moves_of(
        &mut self,
        p: &Stones,
        empty: u64,
        threats: u64,
        attack: bool,
    ) -> Result<(u64, [u32; 64], [bool; 2]), i32> {
        let scan = self.scan(p, empty, attack);
        let mut moves = if threats != 0 { threats } else { scan.relevant & scan.stops_doubles };
        if moves & scan.own_doubles != 0 {
            return Err(1);
        }
        if threats == 0 {
            moves |= scan.fours[0] & scan.relevant;
        }
        if moves == 0 {
            return Err(-1);
        }
        Ok((moves, scan.score, scan.can_win))
    }

    /// Whether the defender has a pairing (see [`pairing`]) against `side` (0: the side to
    /// move), which must first block `block` if not 0.
    pub(super) fn pairs_against(&mut self, p: &Stones, side: usize, empty: u64, block: u64) -> bool {
        let empties = empty.count_ones();
        let stones = if side == 0 { [p.own(), p.opponent()] } else { [p.opponent(), p.own()] };
        // The side's moves left: the side to move has the odd one.
        let left = if side == 0 { empties.div_ceil(2) } else { empties / 2 };
        let mut budget = PAIRING_BUDGET;
        let found = pairing::against(self.board, stones, left, block, &mut budget, &mut self.live).is_some();
        // The limits are looked at every CHECK_EVERY steps as every CHECK_EVERY nodes.
        self.pairing_steps += u64::from(PAIRING_BUDGET - budget);
        if self.pairing_steps >= CHECK_EVERY {
            self.pairing_steps = 0;
            self.budget.reached_now();
        }
        found
    }

    /// One pass over the windows (see [`Scan`]); `attack`: the node tries to win.
    fn scan(&mut self, p: &Stones, empty: u64, attack: bool) -> Scan {
        let b = self.board;
        let k = b.k() as u32;
        let (own, opp) = (p.own(), p.opponent());
        // Moves left: the side to move has the odd one.
        let empties = empty.count_ones();
        let left = [empties.div_ceil(2), empties / 2];
        let mut s = Scan {
            can_win: [false; 2],
            fours: [0; 2],
            relevant: 0,
            own_doubles: 0,
            stops_doubles: u64::MAX,
            score: [0; 64],
        };
        for &w in b.windows() {
            let counts = [(w & own).count_ones(), (w & opp).count_ones()];
            if counts[0] > 0 && counts[1] > 0 {
                continue;
            }
            let free = w & empty;
            s.relevant |= free;
            for side in 0..2 {
                let n = counts[side];
                if counts[1 - side] > 0 {
                    continue;
                }
                s.can_win[side] |= k - n <= left[side];
                // Own windows weigh more when trying to win.
                let weight = if side == 0 && attack { 3 } else { 2 } * WEIGHT[n.min(8) as usize];
                let mut f = free;
                while f != 0 {
                    s.score[f.trailing_zeros() as usize] += weight;
                    f &= f - 1;
                }
                if n + 2 == k {
                    // Either empty cell makes the other a completion.
                    let (a, c) = (free.trailing_zeros() as usize, 63 - free.leading_zeros() as usize);
                    self.targets[side][a] |= 1 << c;
                    self.targets[side][c] |= 1 << a;
                    self.zone[side][a] |= free;
                    self.zone[side][c] |= free;
                    s.fours[side] |= free;
                }
            }
        }
        for side in 0..2 {
            let mut f = s.fours[side];
            while f != 0 {
                let i = f.trailing_zeros() as usize;
                f &= f - 1;
                if self.targets[side][i].count_ones() >= 2 {
                    if side == 0 {
                        s.own_doubles |= 1 << i;
                    } else {
                        s.stops_doubles &= self.zone[side][i];
                    }
                }
                self.targets[side][i] = 0;
                self.zone[side][i] = 0;
            }
        }
        s
    }
}

/// The moves of a node, each packed as `priority << 8 | cell`; those before `next` were taken.
struct Ordered {
    packed: [u64; 64],
    len: usize,
    next: usize,
}

impl Ordered {
    /// The cell of the best move not yet taken, if any. A selection, not a sort: most nodes
    /// stop after a move or two (measured: docs/results/mnk-exact.md).
    fn next_best(&mut self) -> Option<u32> {
        let n = self.next;
        if n == self.len {
            return None;
        }
        let mut at = n;
        for j in n + 1..self.len {
            if self.packed[j] > self.packed[at] {
                at = j;
            }
        }
        self.packed.swap(n, at);
        self.next += 1;
        Some((self.packed[n] & 0xff) as u32)
    }
}

/// The cells of `moves`, to be taken the table's move first, then by score, then nearer the
/// centre.
fn order(b: &Board, moves: u64, score: &[u32; 64], tt_best: Option<usize>) -> Ordered {
    let mut o = Ordered { packed: [0; 64], len: 0, next: 0 };
    let mut f = moves;
    while f != 0 {
        let i = f.trailing_zeros();
        f &= f - 1;
        let priority = if Some(i as usize) == tt_best {
            u64::from(u32::MAX) << 8
        } else {
            (score[i as usize] as u64) << 8 | (255 - b.centre_distance(i).min(255)) as u64
        };
        o.packed[o.len] = priority << 8 | i as u64;
        o.len += 1;
    }
    o
}
