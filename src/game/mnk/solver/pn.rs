//! The solver's rules searched by df-pn ([`crate::search::dfpn`]) instead of alpha-beta: the
//! same pruning at every node (forced blocks, doubles, the windows' counting, pairings, the
//! moves that stop a double), with the goal of one side (the prover) winning.
//!
//! Alpha-beta proves a win through the first winning move its ordering finds, however large
//! that move's proof; df-pn turns to whichever move looks cheapest to prove (measured:
//! docs/results/mnk-exact.md).
//!
//! BoundTable entries are from the view of the side to move, and its goal depends on whether it is
//! the prover, so a node's key holds that too: one table serves the searches of both sides
//! (whether the side to move wins, whether it holds the draw) and of nearby positions.

use super::bitboard::{Board, Stones};
use super::search::AlphaBeta;
use super::BoundTable;
use crate::game::solver::Aborted;
use crate::search::dfpn::{self, AndOrTree, Dfpn, Expansion, Verdict};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Mixed into a node's key when the side to move is the prover.
const PROVER_KEY: u64 = 0x6A09_E667_F3BC_C908;

/// What the proofs on one board keep from search to search (see [`PnSolver::into_table`]): the
/// df-pn table, and the cache of expansions (true of the board whatever the search, so kept
/// too: made anew for each of the many short searches of play, its 10 MiB would cost more to
/// fill than some of them take).
pub struct PnTable {
    proofs: dfpn::Numbers,
    expansions: Vec<Expanded>,
}

impl std::fmt::Debug for PnTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PnTable").field("expansion_slots", &self.expansions.len()).finish_non_exhaustive()
    }
}

impl PnTable {
    /// A table of about `mib` MiB for the proofs (an entry takes about 48 bytes with the
    /// map's overhead), and the expansions' cache, made at the first proof.
    pub fn of_mib(mib: usize) -> PnTable {
        PnTable { proofs: dfpn::Numbers::new(mib.saturating_mul(1 << 20) / 48), expansions: Vec::new() }
    }

    /// As [`PnTable::of_mib`], with all its memory taken now (for play: no allocation or
    /// growth inside a move's time).
    pub fn reserved(mib: usize) -> PnTable {
        let proofs = dfpn::Numbers::reserved(mib.saturating_mul(1 << 20) / 48);
        PnTable { proofs, expansions: vec![Expanded { key: 0, len: 0, moves: [0; 64] }; CACHE_SLOTS] }
    }
}

/// The key of `p` in the table, `prover`: whether the side to move is the prover.
fn key(board: &Board, p: &Stones, prover: bool) -> u64 {
    p.canonical_key(board).0 ^ if prover { PROVER_KEY } else { 0 }
}

/// The moves of a node in their order, kept for the next time df-pn expands it (it expands a
/// node again each time it goes back into it). Keyed by the position as it is, not by its
/// table key, which its images share: their moves are other cells.
#[derive(Clone, Copy)]
struct Expanded {
    key: u64,
    len: u8,
    moves: [u8; 64],
}

/// Initial proof numbers by the move order (df-pn+, Nagai and Kishimoto): a move not yet
/// searched looks `step` times its rank harder to reach its mover's goal by than the first, so
/// that df-pn follows the order down a line instead of opening every sibling before going one
/// ply deeper (all alike, it expands each of a node's 40 children once before the best one's
/// grandchildren). The steps are those of the prover's moves and of the other side's; the
/// children's other number stays 1 (a node's disproof is still the count of its moves). The
/// steps were chosen by measurement (docs/results/mnk-exact.md).
const PROVER_STEP: u32 = 16;
const DEFENDER_STEP: u32 = 4;

/// Slots of the expansions' cache (direct-mapped by key) (measured:
/// docs/results/mnk-exact.md).
const CACHE_SLOTS: usize = 1 << 17;

/// The tree below a position, for df-pn.
struct WinTree<'s, 'a> {
    /// The alpha-beta solver, for its scan of the windows and its pairings (not its table).
    solver: &'s mut AlphaBeta<'a>,
    cache: &'s mut [Expanded],
    board: &'a Board,
    stack: Vec<Stones>,
    /// Whether the side to move at the root is the prover.
    root_proves: bool,
}

impl WinTree<'_, '_> {
    fn top(&self) -> &Stones {
        self.stack.last().unwrap()
    }
    fn prover_to_move(&self) -> bool {
        self.root_proves == (self.stack.len() % 2 == 1)
    }

    fn expand_cached(&mut self, out: &mut Vec<u32>) -> Expansion {
        // Keyed by the position as it is: its images share its table entry, not its cells.
        let key = self.top().plain_key() ^ if self.prover_to_move() { PROVER_KEY } else { 0 };
        let slot = key as usize % CACHE_SLOTS;
        let cached = &self.cache[slot];
        if cached.key == key && cached.len > 0 {
            out.extend(cached.moves[..cached.len as usize].iter().map(|&m| u32::from(m)));
            return Expansion::Moves;
        }
        let found = self.expand_anew(out);
        if found == Expansion::Moves {
            let mut e = Expanded { key, len: out.len() as u8, moves: [0; 64] };
            for (m, &mv) in e.moves.iter_mut().zip(out.iter()) {
                *m = mv as u8;
            }
            self.cache[slot] = e;
        }
        found
    }

    fn expand_anew(&mut self, out: &mut Vec<u32>) -> Expansion {
        let p = *self.top();
        let prover = self.prover_to_move();
        let b = self.board;
        // The side to move's goal: the prover's is to win, the other's not to lose.
        let (won, lost) = (Expansion::Reached(0), Expansion::Failed(0));
        let drawn = if prover { lost } else { won };
        if p.is_over(b) {
            return lost;
        }
        let empty = p.empty(b);
        if b.completions(p.own()) & empty != 0 {
            return won;
        }
        if empty.count_ones() <= 1 {
            return drawn;
        }
        let threats = b.completions(p.opponent()) & empty;
        if threats & (threats.wrapping_sub(1)) != 0 {
            return lost;
        }
        let (moves, scores, can_win) = match self.solver.moves_of(&p, empty, threats, prover) {
            Ok(m) => m,
            Err(v) => return if v > 0 { won } else { lost },
        };
        // No window left to the prover: a draw.
        if !can_win[if prover { 0 } else { 1 }] {
            return drawn;
        }
        // A pairing against the prover, at every node: unlike alpha-beta's (see
        // [`super::search`]), df-pn's searches are not skipped one ply below a failed one
        // (skipping them costs df-pn more nodes; measured: docs/results/mnk-exact.md).
        if prover && self.solver.pairs_against(&p, 0, empty, 0) {
            return drawn;
        }
        if !prover && self.solver.pairs_against(&p, 1, empty, threats) {
            return drawn;
        }
        // Best first: by the scan's score, then nearer the centre, then the higher cell. Each
        // move's rank is packed above its cell and the packed keys sorted, so that the sort
        // compares plain integers, which is cheaper than sorting by a key (measured:
        // docs/results/mnk-exact.md).
        let mut ranked = [0u64; 64];
        let mut len = 0;
        let mut f = moves;
        while f != 0 {
            let i = f.trailing_zeros();
            f &= f - 1;
            let near = 255 - b.centre_distance(i).min(255);
            ranked[len] = u64::from(scores[i as usize]) << 16 | u64::from(near) << 8 | u64::from(i);
            len += 1;
        }
        ranked[..len].sort_unstable_by(|a, b| b.cmp(a));
        out.extend(ranked[..len].iter().map(|&r| (r & 0xFF) as u32));
        Expansion::Moves
    }
}

impl AndOrTree for WinTree<'_, '_> {
    type Move = u32;

    fn expand(&mut self, out: &mut Vec<u32>) -> Expansion {
        self.expand_cached(out)
    }

    fn play(&mut self, mv: u32) {
        let mut p = *self.top();
        p.play(self.board, mv);
        self.stack.push(p);
    }

    fn undo(&mut self, _mv: u32) {
        self.stack.pop();
    }

    fn hash(&self) -> u64 {
        key(self.board, self.top(), self.prover_to_move())
    }

    fn initial(&self, rank: usize) -> (u32, u32) {
        let step = if self.prover_to_move() { PROVER_STEP } else { DEFENDER_STEP };
        (1, 1 + step.saturating_mul(rank as u32))
    }

    fn hash_after(&self, mv: u32) -> u64 {
        let mut p = *self.top();
        p.play(self.board, mv);
        key(self.board, &p, !self.prover_to_move())
    }
}

/// Proofs by df-pn with the solver's rules, within limits, sharing one df-pn table.
pub struct PnSolver<'a> {
    board: &'a Board,
    solver: AlphaBeta<'a>,
    search: Dfpn<'a>,
    cache: Vec<Expanded>,
}

impl<'a> PnSolver<'a> {
    /// A solver with `table` (kept from earlier searches, see [`PnSolver::into_table`]);
    /// `scratch`: an alpha-beta table, which the scan and pairings do not use (only the
    /// alpha-beta solver needs one).
    pub fn new(board: &'a Board, scratch: &'a BoundTable, table: PnTable) -> PnSolver<'a> {
        PnSolver {
            board,
            solver: AlphaBeta::new(board, scratch),
            search: Dfpn::with_table(table.proofs, u64::MAX),
            cache: table.expansions,
        }
    }

    /// Gives up at `deadline` or when `stop` is set.
    pub fn with_limits(mut self, deadline: Option<Instant>, stop: Option<&'a AtomicBool>) -> Self {
        self.search.restart(deadline);
        self.search = self.search.with_stop(stop);
        self
    }

    /// Nodes expanded so far.
    pub fn nodes(&self) -> u64 {
        self.search.nodes
    }

    pub fn into_table(self) -> PnTable {
        PnTable { proofs: self.search.into_table(), expansions: self.cache }
    }

    /// Whether the side to move at `p` wins.
    pub fn wins(&mut self, p: &Stones) -> Result<bool, Aborted> {
        self.prove(p, true)
    }

    /// Whether the side to move at `p` does not lose.
    pub fn holds(&mut self, p: &Stones) -> Result<bool, Aborted> {
        self.prove(p, false)
    }

    /// The value of `p` for the side to move (1 win, 0 draw, -1 loss).
    pub fn solve(&mut self, p: &Stones) -> Result<i32, Aborted> {
        Ok(if self.wins(p)? {
            1
        } else if self.holds(p)? {
            0
        } else {
            -1
        })
    }

    fn prove(&mut self, p: &Stones, prover: bool) -> Result<bool, Aborted> {
        if self.cache.is_empty() {
            self.cache = vec![Expanded { key: 0, len: 0, moves: [0; 64] }; CACHE_SLOTS];
        }
        let (search, mut tree) = self.tree(p, prover);
        match search.prove(&mut tree) {
            Verdict::Proved => Ok(true),
            Verdict::Disproved => Ok(false),
            Verdict::Unknown => Err(Aborted),
        }
    }

    /// After [`PnSolver::wins`] (`prover`) or [`PnSolver::holds`] proved `p`: a move that keeps
    /// what was proved (a win, or at least a draw), the first in the search's order.
    pub fn proved_move(&mut self, p: &Stones, prover: bool) -> Option<u32> {
        if self.cache.is_empty() {
            return None;
        }
        let (search, mut tree) = self.tree(p, prover);
        search.proved_move(&mut tree)
    }

    /// The search and the tree below `p` (`prover`: whether its side to move is the prover).
    fn tree(&mut self, p: &Stones, prover: bool) -> (&mut Dfpn<'a>, WinTree<'_, 'a>) {
        let tree = WinTree {
            solver: &mut self.solver,
            cache: &mut self.cache,
            board: self.board,
            stack: vec![*p],
            root_proves: prover,
        };
        (&mut self.search, tree)
    }

    /// Whether the side to move at `p` wins at once, or the table knows it wins (no search).
    pub fn known_win(&self, p: &Stones) -> bool {
        let b = self.board;
        if !p.is_over(b) && b.completions(p.own()) & p.empty(b) != 0 {
            return true;
        }
        self.search.known(key(self.board, p, true)).is_some_and(|(phi, _)| phi == 0)
    }
}
