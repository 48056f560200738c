//! The exact solver: negamax with alpha-beta over bitboards, narrowed by null-window searches.
//!
//! - Moves that let the opponent win at once are never searched ([`Position::non_losing_moves`]).
//! - Scores are bounded before searching by how soon either side can still win, and by the
//!   table's proved bounds.
//! - A position and its mirror image share a table entry; before searching its moves, a node
//!   looks its children up in the table (enhanced transposition cutoffs).
//! - Moves are tried: the table's best move, then by the number of winning cells they create,
//!   then centre first.
//! - A node starts loading its children's table entries (prefetch) before it reads its own,
//!   so that the memory latency of the children's probes overlaps the node's own work.
//! - On Connect-4's board the search runs with the board's size a compile-time constant
//!   ([`Connect4`]).
//! - The root narrows the score range with null-window searches (Pons' scheme), which also gives
//!   the weak solve (win, draw or loss) as the window [-1, 1].

use super::bitboard::{Connect4, Geometry, Position};
use crate::game::solver::table::{BoundTable, Bounds};
use crate::game::solver::{narrow, Aborted, Budget};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Instant;

pub struct Solver<'a> {
    table: &'a BoundTable,
    pub nodes: u64,
    budget: Budget<'a>,
    /// 0, or the state of a random generator that perturbs move ordering near the root (the
    /// helper threads of [`solve_parallel`], so that they do not all search the same tree).
    noise: u64,
}

impl<'a> Solver<'a> {
    pub fn new(table: &'a BoundTable) -> Solver<'a> {
        Solver { table, nodes: 0, budget: Budget::default(), noise: 0 }
    }

    /// Gives up at `deadline` (the solve then returns [`Aborted`]).
    pub fn with_deadline(mut self, deadline: Option<Instant>) -> Self {
        self.budget.deadline = deadline;
        self
    }

    /// Gives up when `stop` is set.
    pub fn with_stop(mut self, stop: &'a AtomicBool) -> Self {
        self.budget.stop = Some(stop);
        self
    }

    /// The exact score of `p` for the side to move (strong), or only its sign (weak: 1 win, 0
    /// draw, -1 loss).
    pub fn solve(&mut self, p: &Position, weak: bool) -> Result<i32, Aborted> {
        self.table.prepare(p.shape().id());
        self.table.new_solve();
        let (lo, hi) = score_range(p);
        if !weak {
            return self.solve_within(p, lo, hi);
        }
        // A win in at most half the moves left is often far cheaper to prove than any win (a
        // search for any win can wander down slow ones): with more than a few empty cells,
        // that is tried first (measured: docs/results/connect4-solver.md).
        let quick = hi / 2;
        if p.shape().cells() - p.moves() > QUICK_WIN_MIN_EMPTY && self.solve_within(p, quick, quick + 1)? > quick {
            return Ok(1);
        }
        self.solve_within(p, -1, 1)
    }

    /// The score of `p` clamped to [lo, hi]: exact if it lies inside.
    fn solve_within(&mut self, p: &Position, lo: i32, hi: i32) -> Result<i32, Aborted> {
        if p.shape().is_connect4() {
            // The same search with the board's size a compile-time constant.
            self.narrow_down(&p.with_geometry(Connect4), lo, hi)
        } else {
            self.narrow_down(p, lo, hi)
        }
    }

    fn narrow_down<G: Geometry>(&mut self, p: &Position<G>, lo: i32, hi: i32) -> Result<i32, Aborted> {
        if let Some(s) = terminal(p) {
            return Ok(s.clamp(lo, hi));
        }
        let (mut min, mut max) = (lo, hi);
        while min < max {
            // Probe the middle, nudged towards zero: proving a small win or loss is cheaper.
            let mut med = min + (max - min) / 2;
            if med <= 0 && min / 2 < med {
                med = min / 2;
            } else if med >= 0 && max / 2 > med {
                med = max / 2;
            }
            let r = self.negamax(p, med, med + 1);
            if self.budget.aborted {
                return Err(Aborted);
            }
            if r <= med {
                max = r;
            } else {
                min = r;
            }
        }
        // The bounds are fail-soft: a score outside [lo, hi] can overshoot them.
        Ok(min.clamp(lo, hi))
    }

    /// The exact score of every column of `p` (None for a full column), from the side to move's
    /// view: the score of the position after that move, negated, or the win score if it wins.
    pub fn analyze(&mut self, p: &Position, weak: bool) -> Result<Vec<Option<i32>>, Aborted> {
        let mut scores = Vec::with_capacity(p.shape().cols());
        for col in 0..p.shape().cols() {
            scores.push(if !p.can_play(col) {
                None
            } else if p.is_winning_move(col) {
                Some(if weak { 1 } else { p.win_score() })
            } else {
                let mut child = *p;
                child.play_col(col);
                Some(-self.solve(&child, weak)?)
            });
        }
        Ok(scores)
    }

    /// A move with the best exact score of `p` and that score: the root is solved first, then
    /// the moves are tested against that score, best-ordered first (the table is warm by then).
    pub fn best_move(&mut self, p: &Position) -> Result<(usize, i32), Aborted> {
        let score = self.solve(p, false)?;
        let mut cols: Vec<usize> = (0..p.shape().cols()).filter(|&c| p.can_play(c)).collect();
        if let Some(c) = cols.iter().copied().find(|&c| p.is_winning_move(c)) {
            return Ok((c, p.win_score()));
        }
        let tt_best = self.probe(p).and_then(|e| e.best);
        cols.sort_by_key(|&c| (Some(c) != tt_best, centre_distance(c, p.shape().cols())));
        for &col in &cols {
            if self.reaches(p, col, score)? {
                return Ok((col, score));
            }
        }
        unreachable!("some move reaches the solved score")
    }

    /// Whether playing `col` in `p` reaches `score` (exactly or better) for the side to move.
    pub fn reaches(&mut self, p: &Position, col: usize, score: i32) -> Result<bool, Aborted> {
        self.table.prepare(p.shape().id());
        if p.is_winning_move(col) {
            return Ok(p.win_score() >= score);
        }
        let mut child = *p;
        child.play_col(col);
        // The move reaches `score` iff the child is worth at most -score to the opponent.
        Ok(self.solve_within(&child, -score, -score + 1)? <= -score)
    }

    /// A xorshift step of the ordering noise.
    fn next_noise(&mut self) -> u64 {
        self.noise ^= self.noise << 13;
        self.noise ^= self.noise >> 7;
        self.noise ^= self.noise << 17;
        self.noise
    }

    /// The table's entry for `p`, its best move in `p`'s orientation. A position and its mirror
    /// image have the same score and share one entry (measured: docs/results/connect4-solver.md).
    #[inline(always)]
    fn probe<G: Geometry>(&self, p: &Position<G>) -> Option<Bounds> {
        if p.shape().cells() - p.moves() <= TT_MIN_EMPTY {
            return None;
        }
        let (key, mirrored) = p.canonical_key();
        let mut e = self.table.get(key)?;
        if mirrored {
            e.best = e.best.map(|c| p.shape().cols() - 1 - c);
        }
        Some(e)
    }

    #[inline(always)]
    fn store<G: Geometry>(&self, p: &Position<G>, mut e: Bounds) {
        if p.shape().cells() - p.moves() <= TT_MIN_EMPTY {
            return;
        }
        let (key, mirrored) = p.canonical_key();
        if mirrored {
            e.best = e.best.map(|c| p.shape().cols() - 1 - c);
        }
        self.table.put(key, e, p.moves());
    }

    /// Negamax with alpha-beta (fail-soft) on a position where the side to move cannot win at
    /// once (the caller has checked it).
    fn negamax<G: Geometry>(&mut self, p: &Position<G>, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        if self.budget.reached(self.nodes) {
            return alpha;
        }
        let next = p.non_losing_moves();
        let cells = p.shape().cells() as i32;
        let moves = p.moves() as i32;
        if next == 0 {
            // Every move lets the opponent win with its next stone.
            return -(cells - moves) / 2;
        }
        if moves >= cells - 2 {
            // We cannot win now, and our move leaves the opponent no win with the last cell.
            return 0;
        }
        // The opponent cannot win with its next stone, so not before the one after.
        let min = -(cells - 2 - moves) / 2;
        // We cannot win with this stone, so not before the next one.
        let max = (cells - 1 - moves) / 2;
        if let Some(v) = narrow(&mut alpha, &mut beta, min, max) {
            return v;
        }
        // After a move that leaves the opponent a reply that does not lose at once, we cannot
        // win before our third stone from now: such a move scores at most `cap`. When alpha is
        // already there, only a move that leaves no such reply can do better (it wins with our
        // next stone but one, the best score left): look for one without searching.
        let cap = (cells - 3 - moves) / 2;
        if alpha >= cap {
            for col in 0..p.shape().cols() {
                let cell = next & p.shape().column_mask(col);
                if cell != 0 {
                    let mut child = *p;
                    child.play(col, cell);
                    if child.non_losing_moves() == 0 {
                        return max;
                    }
                }
            }
            return cap;
        }
        // The children's table buckets start loading now, to be read by the transposition
        // cutoffs below and by each child's own probe: the loads run while this node reads its
        // own entry and orders its moves.
        if cells - moves - 1 > TT_MIN_EMPTY as i32 {
            for col in 0..p.shape().cols() {
                let cell = next & p.shape().column_mask(col);
                if cell != 0 {
                    self.table.prefetch(p.child_key(col, cell));
                }
            }
        }
        let entry = self.probe(p);
        let (lower, upper) = entry.map_or((min, max), |e| (e.lower.max(min), e.upper.min(max)));
        if let Some(v) = narrow(&mut alpha, &mut beta, lower, upper) {
            return v;
        }

        let noise = if self.noise != 0 && moves < cells - NOISE_MIN_EMPTY { self.next_noise() } else { 0 };
        // The table's move is tried first; the others are ordered only if it does not cut
        // (ordering costs a line count per move), except at nodes with transposition cutoffs:
        // there ordering first gives the children's entries time to arrive from memory.
        let tt_best = entry.and_then(|e| e.best).filter(|&c| next & p.shape().column_mask(c) != 0);
        let rest = next & !tt_best.map_or(0, |c| p.shape().column_mask(c));
        let etc = moves < cells - ETC_MIN_EMPTY;
        let mut ordered = etc.then(|| order_moves(p, rest, noise));
        let alpha0 = alpha;
        let mut node = Node { alpha, beta, max, best: None, score: i32::MIN };
        // Moves whose child's entry already proves they fail low: not searched.
        let mut skip = 0;
        if etc {
            // Enhanced transposition cutoff: a child already known to be bad enough for the
            // opponent cuts here without a search; one known to be good enough for it needs no
            // search either (its bound counts towards the node's).
            for col in 0..p.shape().cols() {
                let cell = next & p.shape().column_mask(col);
                if cell != 0 {
                    if let Some(e) = self.table.get(p.child_key(col, cell)) {
                        if -e.upper >= beta {
                            self.store(p, Bounds { lower: -e.upper, upper: max, best: Some(col) });
                            return -e.upper;
                        }
                        if -e.lower <= alpha {
                            skip |= cell;
                            node.score = node.score.max(-e.lower);
                        }
                    }
                }
            }
        }
        if let Some(col) = tt_best {
            if skip & p.shape().column_mask(col) == 0 {
                if let Some(v) = self.try_move(p, next, col, &mut node) {
                    return v;
                }
            }
        }
        for col in ordered.get_or_insert_with(|| order_moves(p, rest, noise)).columns() {
            if skip & p.shape().column_mask(col) == 0 {
                if let Some(v) = self.try_move(p, next, col, &mut node) {
                    return v;
                }
            }
        }
        if node.alpha > alpha0 {
            // A move scored inside the window: its score is exact.
            self.store(p, Bounds { lower: node.alpha, upper: node.alpha, best: node.best });
            return node.alpha;
        }
        // Every move failed low: the best of their scores (each an upper bound, fail-soft) bounds
        // the node's, often below alpha, which narrows the root's window faster than alpha.
        let upper = node.score.max(min);
        self.store(p, Bounds { lower: min, upper, best: None });
        upper
    }

    /// Searches the move in `col` of a node, raising the node's alpha, best move and best score
    /// when it does better: the node's value if that ends the node (a cutoff, stored in the
    /// table, or an abort).
    #[inline(always)]
    fn try_move<G: Geometry>(&mut self, p: &Position<G>, next: u64, col: usize, node: &mut Node) -> Option<i32> {
        let mut child = *p;
        child.play(col, next & p.shape().column_mask(col));
        let score = -self.negamax(&child, -node.beta, -node.alpha);
        if self.budget.aborted {
            return Some(node.alpha);
        }
        if score >= node.beta {
            self.store(p, Bounds { lower: score, upper: node.max, best: Some(col) });
            return Some(score);
        }
        node.score = node.score.max(score);
        if score > node.alpha {
            node.alpha = score;
            node.best = Some(col);
        }
        None
    }
}

/// The state of a node's move loop: its window [alpha, beta], its upper bound, and the best
/// move and score so far.
struct Node {
    alpha: i32,
    beta: i32,
    max: i32,
    best: Option<usize>,
    score: i32,
}

/// Helper threads perturb the move order at nodes with more empty cells than this.
const NOISE_MIN_EMPTY: i32 = 12;
/// A weak solve tries to prove a quick win first at positions with more empty cells than this.
const QUICK_WIN_MIN_EMPTY: u32 = 14;
/// Positions with at most this many empty cells skip the table (no probe, store or prefetch):
/// their subtrees cost less to search again than a table access that misses the cache
/// (measured, with the other thresholds tried: docs/results/connect4-solver.md).
const TT_MIN_EMPTY: u32 = 7;
/// Enhanced transposition cutoffs are tried at nodes with more empty cells than this (the
/// threshold trades the lookups' cost against the searches they save; measured:
/// docs/results/connect4-solver.md).
const ETC_MIN_EMPTY: i32 = 18;

/// Solves `p` (as [`Solver::solve`]) with `threads` threads sharing `table` (Lazy SMP): each
/// runs the whole solve, the helpers with a perturbed move order, and the proved bounds each
/// stores cut the others' searches; the first to finish gives the answer and stops the rest.
/// Returns the score (or [`Aborted`] at `deadline`) and the nodes of all threads.
pub fn solve_parallel(
    table: &BoundTable,
    p: &Position,
    weak: bool,
    threads: usize,
    deadline: Option<Instant>,
) -> (Result<i32, Aborted>, u64) {
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..threads.max(1))
            .map(|t| {
                let done = &done;
                scope.spawn(move || {
                    let mut s = Solver::new(table).with_deadline(deadline).with_stop(done);
                    s.noise = 0x9E37_79B9_7F4A_7C15u64.wrapping_mul(t as u64) | 1;
                    let r = s.solve(p, weak);
                    if r.is_ok() {
                        done.store(true, Relaxed);
                    }
                    (r, s.nodes)
                })
            })
            .collect();
        let mut main = Solver::new(table).with_deadline(deadline).with_stop(&done);
        let mut result = main.solve(p, weak);
        done.store(true, Relaxed);
        let mut nodes = main.nodes;
        for h in helpers {
            let (r, n) = h.join().expect("a solver thread does not panic");
            nodes += n;
            if result.is_err() {
                result = r;
            }
        }
        (result, nodes)
    })
}

/// The widest possible score range of `p` (for the side to move).
fn score_range<G: Geometry>(p: &Position<G>) -> (i32, i32) {
    let cells = p.shape().cells() as i32;
    let moves = p.moves() as i32;
    (-(cells - moves) / 2, (cells + 1 - moves) / 2)
}

/// The score of a position decided without search: a win with the next stone, or a full board.
fn terminal<G: Geometry>(p: &Position<G>) -> Option<i32> {
    if p.can_win_next() {
        Some(p.win_score())
    } else if p.moves() >= p.shape().cells() {
        Some(0)
    } else {
        None
    }
}

/// The columns of the landing cells `next` of `p`, with each cell, left to right.
#[inline(always)]
fn cells_of<G: Geometry>(p: &Position<G>, next: u64) -> impl Iterator<Item = (usize, u64)> + '_ {
    let mut rest = next;
    std::iter::from_fn(move || {
        (rest != 0).then(|| {
            let cell = rest & rest.wrapping_neg();
            rest ^= cell;
            (p.shape().column_of(cell), cell)
        })
    })
}

fn centre_distance(col: usize, cols: usize) -> usize {
    (2 * col).abs_diff(cols - 1)
}

/// The moves of a node, best first: up to 32 columns (a 64-bit board has at most 32), each
/// packed as `priority << 8 | (255 - column)` so that sorting stays a compare of plain integers.
struct Ordered {
    packed: [u32; 32],
    len: usize,
}

impl Ordered {
    fn columns(&self) -> impl Iterator<Item = usize> + '_ {
        self.packed[..self.len].iter().map(|&m| 255 - (m & 0xff) as usize)
    }
}

/// The moves in `next` by the winning cells they create, then nearer the centre first.
#[inline(always)]
fn order_moves<G: Geometry>(p: &Position<G>, next: u64, mut noise: u64) -> Ordered {
    let cols = p.shape().cols();
    let mut packed = [0u32; 32];
    if next & next.wrapping_sub(1) == 0 {
        // No move or a single one (often a forced block): nothing to order.
        let len = cells_of(p, next).map(|(col, _)| packed[0] = (255 - col) as u32).count();
        return Ordered { packed, len };
    }
    let mut len = 0;
    for (col, cell) in cells_of(p, next) {
        // Priorities are positive and below 2^24: up to 64 threats, minus a centre distance
        // below 64, plus a jitter below 96.
        let mut jitter = 0;
        if noise != 0 {
            jitter = (noise % 96) as u32;
            noise = noise.rotate_right(7);
        }
        let priority = 64 + p.threats_after(cell) * 64 - centre_distance(col, cols) as u32 + jitter;
        let m = priority << 8 | (255 - col) as u32;
        // Insertion sort: the lists are short.
        let mut i = len;
        while i > 0 && packed[i - 1] < m {
            packed[i] = packed[i - 1];
            i -= 1;
        }
        packed[i] = m;
        len += 1;
    }
    Ordered { packed, len }
}
