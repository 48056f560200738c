//! Kalah(P, S): two rows of P pits holding S seeds each at the start, and one store per player
//! at the right-hand end of its row (as the player sees it). `kalah 6 3` is Bantumi, `kalah 6 4`
//! the classic Kalah.
//!
//! # Rules
//!
//! - A move takes every seed of one of the mover's non-empty pits and sows them one by one
//!   counter-clockwise into the following pits and the mover's own store, skipping the
//!   opponent's store. A pit may hold more seeds than a lap has slots (2P + 1): the sowing then
//!   goes round again, and the emptied pit itself receives seeds on later laps.
//! - The last seed in the mover's own store: the mover moves again (an extra turn).
//! - The last seed in a pit of the mover's own row that was empty (it now holds only that
//!   seed): a capture. [`Capture::Empty`] (Bantumi, and the rule of the published solved
//!   values): the seed and the opposite pit's seeds go to the mover's store, even when the
//!   opposite pit is empty (the one seed is then taken alone). [`Capture::Standard`]: only when
//!   the opposite pit holds seeds; otherwise the seed stays.
//! - When after a move all the pits of one row are empty, the game ends and each player adds
//!   the seeds left in its own row to its store. This happens even when the move earned an
//!   extra turn. The result is the difference of the stores, [`Kalah::store_difference`]: the
//!   first player's margin (positive: the first player wins; 0: a draw).
//! - Pie rule (a flag of the game, off by default): the first player's first move never earns
//!   an extra turn, and the second player may, as its first move, play `swap`: it takes over the
//!   first player's row, store and position, and the other player (the first player, now on the
//!   other row) moves next. As in the Manchester referee (7 pits of 7 seeds, South starts, SWAP
//!   only as North's first reply).
//!
//! The default capture rule is [`Capture::Empty`]: it is the rule under which Kalah(6,4) +10,
//! Kalah(6,5) +12 (Irving, Donkers and Uiterwijk 2000) and Kalah(6,6) +2 (Rawlings 2015) were
//! computed. The solver reproduces the first with `empty` captures and the published `standard`
//! value, +8, with `standard` ones (docs/results/kalah.md); (6,5) and (6,6) were not reproduced
//! (too slow).
//!
//! # Board layout
//!
//! `board` holds 2P + 2 counts: the first player's pits, its store, the second player's pits,
//! its store. Each row is stored from its owner's left to its owner's right, so sowing is a walk
//! up the indices (wrapping round), and pit `i` (counted from 0 at its owner's left) of either
//! side faces pit `2P - index` on the board. For P = 6:
//!
//! ```text
//!                 second player's row (it sees 7 as its pit 1, on its left)
//!              +----+----+----+----+----+----+
//!              | 12 | 11 | 10 |  9 |  8 |  7 |
//!      +----+  +----+----+----+----+----+----+  +----+
//!      | 13 |     <- sowing runs this way <-     |  6 |
//!      +----+  +----+----+----+----+----+----+  +----+
//!  second's    |  0 |  1 |  2 |  3 |  4 |  5 |   first's
//!    store     +----+----+----+----+----+----+    store
//!                 first player's row (it sees 0 as its pit 1, on its left)
//! ```
//!
//! Sowing from the first player's pits runs 0 -> 5 -> 6 (its store) -> 7 -> 12 -> 0, skipping
//! 13; the second player's runs 7 -> 12 -> 13 -> 0 -> 5 -> 7, skipping 6. Pit 2 faces pit 10.
//!
//! # Invariants
//!
//! - The row of [`Side::First`] is always `board[0..P]`, whoever sits there: a swap exchanges
//!   the two rows' contents (pits and stores), not the players' rows. So the first player's
//!   margin is always `board[P] - board[2P + 1]`, and after a swap the first player owns what was
//!   the second player's row.
//! - The side to move is stored (`side`), never inferred from the move count (extra turns).
//! - The game is over exactly when every pit is empty (the end sweep empties both rows; before
//!   the end no row is empty).
//! - `hash` is the Zobrist hash of the board, the side to move and the pie-rule state (first
//!   move to come; swap available), recomputed after every move.
//! - A move text is a pit number 1..=P counted from the mover's left as it sees its own row, or
//!   `swap`; [`KalahMove::Pit`] holds that number minus one.
//!
//! # Knowledge
//!
//! - [`knowledge`]: the evaluation (100 units a seed), the move order, the "more than half of
//!   all the seeds" bound ([`knowledge::decided`]), the greedy reference player and a plain
//!   depth-limited alpha-beta;
//! - [`solver`]: the exact solver (MTD(f), its own transposition table, enhanced transposition
//!   cutoffs, endgame databases by retrograde analysis);
//! - `solver_in_play.rs`: [`KalahKnowledge`], the knowledge the search uses (the evaluation,
//!   the endgame database at the leaves, the solver at the root);
//! - [`exhaustive`]: a tiny exhaustive negamax with memo, the yardstick of the tests.
//!
//! The description, the registry entry, the pictures and `boardbot solve`: `description.rs`,
//! `entry.rs`, `picture.rs`, `solve.rs`.
//!
//! Measurements: docs/results/kalah.md.

mod description;
mod entry;
pub mod exhaustive;
pub mod fen;
pub mod knowledge;
mod picture;
mod solve;
pub mod solver;
mod solver_in_play;

pub use entry::GAME_TYPE;
pub use solver_in_play::KalahKnowledge;

use super::zobrist::SplitMix64;
use super::{Game, Outcome, Side};
use anyhow::{anyhow, bail, Result};

/// The most pits a row may have.
pub const MAX_PITS: usize = 16;
/// The most seeds a pit may hold at the start.
pub const MAX_START_SEEDS: usize = 64;
/// Slots of the largest board: 2 rows of pits and 2 stores.
const SLOTS: usize = 2 * MAX_PITS + 2;

/// Salt of this game's hashes (one table for every game: [`crate::game::salt`]).
const GAME_ID: u64 = crate::game::salt::KALAH;

/// What the last seed does in an empty pit of the mover's row.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Capture {
    /// It and the opposite pit's seeds go to the mover's store, even if the opposite pit is
    /// empty (Bantumi; the rule of the published solved values).
    #[default]
    Empty,
    /// Only when the opposite pit has seeds; otherwise the seed stays.
    Standard,
}

impl Capture {
    pub fn name(self) -> &'static str {
        match self {
            Capture::Empty => "empty",
            Capture::Standard => "standard",
        }
    }
    pub fn parse(text: &str) -> Result<Capture> {
        match text.trim() {
            "empty" => Ok(Capture::Empty),
            "standard" => Ok(Capture::Standard),
            t => Err(anyhow!("unknown capture rule '{t}' (empty or standard)")),
        }
    }
}

/// A move: a pit of the mover's row, 0 at the mover's left (text: the pit number 1..=P), or the
/// pie rule's swap (text `swap`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum KalahMove {
    Pit(u8),
    Swap,
}

/// What a pit move does to the board, as seen by the mover ([`Kalah::effect`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct Effect {
    /// Seeds added to the mover's store: sown there, captured, and swept from its own row if the
    /// move ends the game.
    pub store_gain: u32,
    /// Seeds taken by a capture (the last seed included), 0 if none.
    pub captured: u32,
    /// The last seed fell in the mover's store (an extra turn, unless the move ends the game or
    /// is the first move under the pie rule).
    pub extra_turn: bool,
    /// The move ends the game (a row is empty afterwards).
    pub ends_game: bool,
}

/// What [`Kalah::undo`] restores.
#[derive(Clone, Debug)]
struct Undo {
    mv: KalahMove,
    board: [u16; SLOTS],
    side: Side,
    hash: u64,
}

#[derive(Clone, Debug)]
pub struct Kalah {
    /// P: pits in a row.
    pits: usize,
    /// S: seeds a pit held at the start (0 for a position given by [`Kalah::from_rows`]).
    start_seeds: usize,
    /// Seeds on the board, stores included (constant).
    total: usize,
    capture: Capture,
    pie: bool,
    /// Plies played before `history` began: 0 for a game from the start; for a position given
    /// by [`fen`](mod@fen), 0 if the pie rule's first move is still to come, 1 if the swap is,
    /// 2 if the pie rule no longer matters.
    opening: usize,
    /// See the module's board layout; slots from 2P + 2 on stay 0.
    board: [u16; SLOTS],
    side: Side,
    hash: u64,
    history: Vec<Undo>,
}

impl Kalah {
    /// Kalah(pits, seeds) with the default capture rule ([`Capture::Empty`]) and no pie rule.
    pub fn new(pits: usize, seeds: usize) -> Result<Kalah> {
        Kalah::with_rules(pits, seeds, Capture::default(), false)
    }

    pub fn with_rules(pits: usize, seeds: usize, capture: Capture, pie: bool) -> Result<Kalah> {
        if !(1..=MAX_PITS).contains(&pits) {
            bail!("Kalah needs 1..={MAX_PITS} pits a row, not {pits}");
        }
        if !(1..=MAX_START_SEEDS).contains(&seeds) {
            bail!("Kalah needs 1..={MAX_START_SEEDS} seeds a pit, not {seeds}");
        }
        let row = vec![seeds as u16; pits];
        let mut k = Kalah::from_rows(capture, &row, 0, &row, 0, Side::First)?;
        k.start_seeds = seeds;
        k.pie = pie;
        k.opening = 0;
        k.hash = k.compute_hash();
        Ok(k)
    }

    /// A position given by its rows, each from its owner's left to its owner's right, and its
    /// stores; no pie rule. The rows must have the same length (1..=MAX_PITS) and neither may be
    /// empty unless both are (a finished game).
    pub fn from_rows(
        capture: Capture,
        first: &[u16],
        first_store: u16,
        second: &[u16],
        second_store: u16,
        to_move: Side,
    ) -> Result<Kalah> {
        let pits = first.len();
        if !(1..=MAX_PITS).contains(&pits) || second.len() != pits {
            bail!("rows of 1..={MAX_PITS} pits and the same length, not {} and {}", pits, second.len());
        }
        let (a, b): (usize, usize) =
            (first.iter().map(|&s| s as usize).sum(), second.iter().map(|&s| s as usize).sum());
        if (a == 0) != (b == 0) {
            bail!("a row is empty but the game is not over");
        }
        let total = a + b + first_store as usize + second_store as usize;
        if total > u16::MAX as usize {
            bail!("{total} seeds is too many");
        }
        let mut board = [0u16; SLOTS];
        board[..pits].copy_from_slice(first);
        board[pits] = first_store;
        board[pits + 1..2 * pits + 1].copy_from_slice(second);
        board[2 * pits + 1] = second_store;
        let mut k = Kalah {
            pits,
            start_seeds: 0,
            total,
            capture,
            pie: false,
            opening: 2,
            board,
            side: to_move,
            hash: 0,
            history: Vec::new(),
        };
        k.hash = k.compute_hash();
        Ok(k)
    }

    /// P: pits in a row.
    pub fn pits(&self) -> usize {
        self.pits
    }
    /// S: seeds a pit held at the start; 0 for a position made by [`Kalah::from_rows`].
    pub fn start_seeds(&self) -> usize {
        self.start_seeds
    }
    /// All the seeds of the game, stores included.
    pub fn total_seeds(&self) -> usize {
        self.total
    }
    pub fn capture(&self) -> Capture {
        self.capture
    }
    pub fn pie(&self) -> bool {
        self.pie
    }
    /// The moves played, in order.
    pub fn history(&self) -> impl Iterator<Item = KalahMove> + '_ {
        self.history.iter().map(|u| u.mv)
    }
    /// The pit the last move emptied, with its owner (`None` at the start or after a swap).
    pub fn last_pit(&self) -> Option<(Side, usize)> {
        match self.history.last()? {
            Undo { mv: KalahMove::Pit(i), side, .. } => Some((*side, *i as usize)),
            _ => None,
        }
    }

    /// Seeds in pit `i` (0 at the owner's left) of `side`'s row.
    pub fn pit(&self, side: Side, i: usize) -> usize {
        self.board[self.pit_index(side, i)] as usize
    }
    /// `side`'s row, from its left to its right.
    pub fn row(&self, side: Side) -> &[u16] {
        let start = side.index() * (self.pits + 1);
        &self.board[start..start + self.pits]
    }
    /// Seeds in `side`'s store.
    pub fn store(&self, side: Side) -> usize {
        self.board[self.store_index(side)] as usize
    }
    /// Seeds in `side`'s pits.
    pub fn row_seeds(&self, side: Side) -> usize {
        self.row(side).iter().map(|&s| s as usize).sum()
    }
    /// Seeds in all the pits (not yet in a store).
    pub fn seeds_in_pits(&self) -> usize {
        self.total - self.store(Side::First) - self.store(Side::Second)
    }
    /// The first player's store minus the second player's: the first player's margin, final
    /// once the game is over.
    pub fn store_difference(&self) -> i32 {
        self.store(Side::First) as i32 - self.store(Side::Second) as i32
    }
    /// `side`'s store minus its opponent's.
    pub fn store_lead(&self, side: Side) -> i32 {
        self.store(side) as i32 - self.store(side.other()) as i32
    }
    pub fn is_over(&self) -> bool {
        self.seeds_in_pits() == 0
    }
    /// Whether the next move is the first move of a game under the pie rule (no extra turn).
    pub fn pie_first_move(&self) -> bool {
        self.pie && self.opening + self.history.len() == 0
    }
    /// Whether `swap` is legal now: the second player's first move under the pie rule.
    pub fn can_swap(&self) -> bool {
        self.pie && self.opening + self.history.len() == 1 && !self.is_over()
    }

    fn pit_index(&self, side: Side, i: usize) -> usize {
        debug_assert!(i < self.pits);
        side.index() * (self.pits + 1) + i
    }
    fn store_index(&self, side: Side) -> usize {
        side.index() * (self.pits + 1) + self.pits
    }

    /// What playing pit `pit` of the side to move would do, without playing it. The pit must be
    /// legal (non-empty).
    pub fn effect(&self, pit: usize) -> Effect {
        let mut board = self.board;
        self.sow(&mut board, self.side, pit)
    }

    /// Plays pit `pit` of `mover` on `board`: sowing, capture, end sweep. Returns what it did.
    fn sow(&self, board: &mut [u16; SLOTS], mover: Side, pit: usize) -> Effect {
        let p = self.pits;
        let slots = 2 * p + 2;
        let own_store = self.store_index(mover);
        let skip = self.store_index(mover.other());
        let store_before = board[own_store];
        let mut at = self.pit_index(mover, pit);
        let mut seeds = board[at];
        debug_assert!(seeds > 0, "sowing an empty pit");
        board[at] = 0;
        while seeds > 0 {
            at += 1;
            if at == slots {
                at = 0;
            }
            if at == skip {
                continue;
            }
            board[at] += 1;
            seeds -= 1;
        }
        let mut effect = Effect { extra_turn: at == own_store, ..Effect::default() };
        let row_start = mover.index() * (p + 1);
        if (row_start..row_start + p).contains(&at) && board[at] == 1 {
            let facing = 2 * p - at;
            if self.capture == Capture::Empty || board[facing] > 0 {
                let taken = board[facing] + 1;
                board[own_store] += taken;
                board[facing] = 0;
                board[at] = 0;
                effect.captured = taken as u32;
            }
        }
        let first_row: u32 = board[..p].iter().map(|&s| s as u32).sum();
        let second_row: u32 = board[p + 1..2 * p + 1].iter().map(|&s| s as u32).sum();
        if first_row == 0 || second_row == 0 {
            effect.ends_game = true;
            board[p] += first_row as u16;
            board[2 * p + 1] += second_row as u16;
            board[..p].fill(0);
            board[p + 1..2 * p + 1].fill(0);
        }
        effect.store_gain = (board[own_store] - store_before) as u32;
        effect
    }

    fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for (slot, &count) in self.board[..2 * self.pits + 2].iter().enumerate() {
            h ^= zobrist_key(1 + slot as u64, count as u64);
        }
        if self.side == Side::Second {
            h ^= zobrist_key(0, 1);
        }
        if self.pie_first_move() {
            h ^= zobrist_key(0, 2);
        }
        if self.can_swap() {
            h ^= zobrist_key(0, 3);
        }
        h
    }
}

/// The Zobrist key of `count` seeds in slot `slot` (slot 0 is the side to move and the pie-rule
/// state): a fixed pseudo-random function of the pair rather than a table, so boards of any size
/// and seed count need no storage.
fn zobrist_key(slot: u64, count: u64) -> u64 {
    SplitMix64::new((GAME_ID << 56) ^ (slot << 24) ^ count).next_u64()
}

impl Game for Kalah {
    type Move = KalahMove;

    fn to_move(&self) -> Side {
        self.side
    }

    fn legal_moves(&self, out: &mut Vec<KalahMove>) {
        if self.is_over() {
            return;
        }
        let row = self.row(self.side);
        out.extend((0..self.pits).filter(|&i| row[i] > 0).map(|i| KalahMove::Pit(i as u8)));
        if self.can_swap() {
            out.push(KalahMove::Swap);
        }
    }

    fn is_legal(&self, mv: KalahMove) -> bool {
        match mv {
            KalahMove::Pit(i) => (i as usize) < self.pits && self.pit(self.side, i as usize) > 0,
            KalahMove::Swap => self.can_swap(),
        }
    }

    fn play(&mut self, mv: KalahMove) {
        debug_assert!(self.is_legal(mv), "illegal move {mv:?}");
        let pie_first_move = self.pie_first_move();
        self.history.push(Undo { mv, board: self.board, side: self.side, hash: self.hash });
        let mover = self.side;
        match mv {
            KalahMove::Pit(i) => {
                let mut board = self.board;
                let effect = self.sow(&mut board, mover, i as usize);
                self.board = board;
                let extra = effect.extra_turn && !effect.ends_game && !pie_first_move;
                self.side = if extra { mover } else { mover.other() };
            }
            KalahMove::Swap => {
                let p = self.pits;
                let (first, second) = self.board[..2 * p + 2].split_at_mut(p + 1);
                first.swap_with_slice(second);
                self.side = mover.other();
            }
        }
        self.hash = self.compute_hash();
    }

    fn undo(&mut self) {
        if let Some(u) = self.history.pop() {
            self.board = u.board;
            self.side = u.side;
            self.hash = u.hash;
        }
    }

    fn moves_played(&self) -> usize {
        self.history.len()
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.is_over() {
            return None;
        }
        Some(match self.store_difference() {
            d if d > 0 => Outcome::Win(Side::First),
            d if d < 0 => Outcome::Win(Side::Second),
            _ => Outcome::Draw,
        })
    }

    fn move_key(&self, mv: KalahMove) -> u32 {
        match mv {
            KalahMove::Pit(i) => i as u32,
            KalahMove::Swap => self.pits as u32,
        }
    }

    fn move_key_space(&self) -> usize {
        self.pits + self.pie as usize
    }

    fn move_for_key(&self, key: u32) -> Option<KalahMove> {
        let mv = if key as usize == self.pits { KalahMove::Swap } else { KalahMove::Pit(u8::try_from(key).ok()?) };
        self.is_legal(mv).then_some(mv)
    }

    fn parse_move(&self, text: &str) -> Result<KalahMove> {
        let t = text.trim();
        if t.eq_ignore_ascii_case("swap") {
            return if self.pie { Ok(KalahMove::Swap) } else { Err(anyhow!("swap needs the pie rule")) };
        }
        // Digits only: `str::parse` takes `+1` too, which no other game reads as a move.
        match t.parse::<usize>().ok().filter(|_| t.bytes().all(|b| b.is_ascii_digit())) {
            Some(n) if (1..=self.pits).contains(&n) => Ok(KalahMove::Pit((n - 1) as u8)),
            _ => Err(anyhow!("expected a pit number 1..={} or swap, got '{t}'", self.pits)),
        }
    }

    fn format_move(&self, mv: KalahMove) -> String {
        match mv {
            KalahMove::Pit(i) => (i + 1).to_string(),
            KalahMove::Swap => "swap".to_string(),
        }
    }
}

#[cfg(test)]
mod tests;
