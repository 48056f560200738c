//! The shared core of the K-in-a-row games (m,n,k-games and Connect-X): a board of M x N cells,
//! some of them blocked, and every "window" (K cells in a line that could still hold a win).
//!
//! Placing or removing a stone touches only the at most 4K windows through its cell, so it costs
//! O(K). Each window keeps how many stones each side has in it; from those counts the board keeps,
//! incrementally:
//! - the evaluation sums: for each side, the summed weight of the windows only it occupies;
//! - the live windows of each side (no enemy stone yet): a side with none can no longer win;
//! - the threat cells of each side: empty cells that would complete one of its windows.

mod cellset;
pub mod patterns;
mod picture;

pub use cellset::CellSet;
pub use patterns::Patterns;
pub use picture::{
    board_picture, column_letters, end_reason, end_reason_in, grid_view, human_picture, letters_column, open_windows,
    piece_names, GridLook, EVALUATIONS,
};

use super::zobrist;
use super::{Outcome, Side};
use crate::search::{Score, EVAL_LIMIT};
use anyhow::{anyhow, bail, Result};

/// Cell contents.
pub const EMPTY: u8 = 0;
pub const BLOCKED: u8 = 3;

/// The bytes a new board takes a cell (its tables, [`Lines::heap_bytes`], are per cell and per
/// window): what 1000 x 1000 costs before it is made (77 MB; a game keeps it twice, see
/// [`check_memory`]). The cell sets' lists, empty on a new board, grow by up to 24 more in play.
pub const BYTES_PER_CELL: usize = 77;

/// Refuses a board whose tables, kept twice (the game and its start position), would take more
/// than `limit_mib` MiB (0: no limit), before it is made: the engine's memory follows its `hash`
/// setting (issue 39: 1000 x 1000 took 322-370 MiB whatever `hash` said).
pub fn check_memory(rows: usize, cols: usize, limit_mib: usize) -> Result<()> {
    let needed = 2 * rows * cols * BYTES_PER_CELL;
    if limit_mib == 0 || needed <= limit_mib << 20 {
        return Ok(());
    }
    let largest = (limit_mib << 20) / (2 * BYTES_PER_CELL);
    Err(anyhow!(
        "a {rows}x{cols} board takes {} MiB, more than the hash allows ({limit_mib} MiB): set hash to {} or more, or play a board of at most {largest} cells",
        needed.div_ceil(1 << 20),
        needed.div_ceil(1 << 20)
    ))
}

/// Directions of lines: (d_row, d_col). Right, down, down-right, down-left.
const DIRS: [(isize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

/// Windows are numbered `start_cell * 4 + direction`.
#[derive(Clone, Debug)]
pub struct Lines {
    rows: usize,
    cols: usize,
    k: usize,
    cells: Vec<u8>,
    /// Stones of each side in each window.
    count: Vec<[u8; 2]>,
    /// The window fits on the board and holds no blocked cell.
    valid: Vec<bool>,
    /// Cell-index step along each direction.
    step: [isize; 4],
    /// Value of a window that holds `c` stones of one side and none of the other.
    weight: Vec<i64>,
    value: [i64; 2],
    live: [u32; 2],
    /// For each side and cell: how many of the side's windows miss only this cell.
    threat_count: [Vec<u16>; 2],
    threats: [CellSet; 2],
    /// For each side and cell: how many of the side's windows free of enemy stones, with K - 2
    /// of its stones, hold the cell (K >= 3; for smaller K these stay empty).
    three_count: [Vec<u16>; 2],
    /// For each side: the empty cells where a stone of the side would bring two windows to
    /// K - 1 (three_count >= 2): an open four or a double four, a win next move unless the
    /// opponent has a four of its own ("makers" of a double threat).
    makers: [CellSet; 2],
    /// For each side: the empty cells where a stone of the side makes a four (three_count >= 1).
    four_cells: [CellSet; 2],
    /// For each cell, by side: [`Lines::move_gain`], kept incrementally (see [`gain_parts`]).
    gain: Vec<[i64; 2]>,
    /// `gain_shift[a * (K + 1) + b]`: how a stone added to a window with `a` stones of its side
    /// and `b` of the other's moves its cells' gains, [for the side, for the other].
    gain_shift: Vec<[i64; 2]>,
    winner: Option<Side>,
    keys: [Vec<u64>; 2],
    hash: u64,
    empty: usize,
    /// The line patterns of the empty cells, if kept (see [`Lines::enable_patterns`]); then
    /// the move gains are not kept (the patterns order the moves).
    patterns: Option<Box<Patterns>>,
}

impl Lines {
    /// A board with `blocked` cells (indices `row * cols + col`) that nobody may play. `game`
    /// tells apart the games built on this board in the hash (positions of different games with
    /// the same stones must not share a transposition-table entry); so do the blocked cells.
    pub fn new(rows: usize, cols: usize, k: usize, blocked: &[usize], game: u64) -> Lines {
        assert!(rows >= 1 && cols >= 1 && (1..=255).contains(&k));
        let n = rows * cols;
        let mut cells = vec![EMPTY; n];
        for &b in blocked {
            cells[b] = BLOCKED;
        }
        // First every window that fits on the board (a 1-cell window exists once, not in four
        // directions); the blocked cells' windows are struck out below.
        let mut valid = vec![false; n * 4];
        for r in 0..rows {
            for c in 0..cols {
                for (d, &(dr, dc)) in DIRS.iter().enumerate() {
                    let er = r as isize + dr * (k as isize - 1);
                    let ec = c as isize + dc * (k as isize - 1);
                    let fits = er >= 0 && er < rows as isize && ec >= 0 && ec < cols as isize;
                    valid[(r * cols + c) * 4 + d] = fits && (k > 1 || d == 0);
                }
            }
        }
        let keys = zobrist::side_keys(n, 0x5EED_B0A2_D0B0_7001);
        let weight = window_weights(k);
        let gain_part = gain_parts(&weight, k);
        let gain_shift = (0..=k)
            .flat_map(|a| (0..=k).map(move |b| (a, b)))
            .map(|(a, b)| {
                if a + b >= k {
                    return [0, 0];
                }
                let part = &gain_part;
                [part[a + 1][b] - part[a][b], part[b][a + 1] - part[b][a]]
            })
            .collect();
        let mut lines = Lines {
            rows,
            cols,
            k,
            empty: n - blocked.len(),
            cells,
            count: vec![[0, 0]; n * 4],
            valid,
            step: DIRS.map(|(dr, dc)| dr * cols as isize + dc),
            weight,
            value: [0, 0],
            live: [0, 0],
            threat_count: [vec![0u16; n], vec![0u16; n]],
            threats: [CellSet::new(n), CellSet::new(n)],
            three_count: [vec![0u16; n], vec![0u16; n]],
            makers: [CellSet::new(n), CellSet::new(n)],
            four_cells: [CellSet::new(n), CellSet::new(n)],
            gain: vec![[0, 0]; n],
            gain_shift,
            winner: None,
            hash: start_hash(&keys, blocked, rows, cols, k, game),
            keys,
            patterns: None,
        };
        for &b in blocked {
            for (w, _, _) in lines.windows_through(b) {
                lines.valid[w] = false;
            }
        }
        let live = lines.valid.iter().filter(|&&v| v).count() as u32;
        lines.live = [live, live];
        let empty_window = gain_part[0][0];
        for w in (0..n * 4).filter(|&w| lines.valid[w]) {
            for x in lines.window_cells(w / 4, w % 4) {
                lines.gain[x][0] += empty_window;
                lines.gain[x][1] += empty_window;
            }
        }
        // With K = 1 every free cell already completes a window: it is a threat for both sides.
        if k == 1 {
            for cell in 0..n {
                if lines.valid[cell * 4] {
                    lines.add_threat(0, cell);
                    lines.add_threat(1, cell);
                }
            }
        }
        lines
    }

    /// Keeps the line patterns of every empty cell from now on, summed with `weights` (see
    /// [`patterns`]): what a stone makes along each line, the cells' threat classes. The move
    /// gains ([`Lines::move_gain`]) are no longer kept: they read the patterns.
    pub fn enable_patterns(&mut self, weights: &'static patterns::Weights) {
        self.patterns = Some(Box::new(Patterns::new(&self.cells, self.rows, self.cols, self.k, weights)));
    }

    /// A copy of the board that keeps no patterns, its move gains recomputed from the windows:
    /// for the threat searches, which play many stones and order them by the gains alone.
    pub fn without_patterns(&self) -> Lines {
        let mut copy = self.clone();
        if copy.patterns.take().is_some() {
            let part = gain_parts(&copy.weight, copy.k);
            copy.gain.fill([0, 0]);
            for w in (0..copy.valid.len()).filter(|&w| copy.valid[w]) {
                let [a, b] = copy.count[w].map(usize::from);
                for x in copy.window_cells(w / 4, w % 4) {
                    copy.gain[x][0] += part[a][b];
                    copy.gain[x][1] += part[b][a];
                }
            }
        }
        copy
    }

    /// The line patterns, if kept.
    #[inline]
    pub fn patterns(&self) -> Option<&Patterns> {
        self.patterns.as_deref()
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The bytes the board's tables hold now (their capacity: the cell sets grow in play).
    pub fn heap_bytes(&self) -> usize {
        use std::mem::size_of_val;
        let sets =
            self.threats.iter().chain(&self.makers).chain(&self.four_cells).map(CellSet::heap_bytes).sum::<usize>();
        size_of_val(self.cells.as_slice())
            + size_of_val(self.count.as_slice())
            + size_of_val(self.valid.as_slice())
            + size_of_val(self.weight.as_slice())
            + self.threat_count.iter().chain(&self.three_count).map(|v| size_of_val(v.as_slice())).sum::<usize>()
            + sets
            + size_of_val(self.gain.as_slice())
            + size_of_val(self.gain_shift.as_slice())
            + self.keys.iter().map(|v| size_of_val(v.as_slice())).sum::<usize>()
            + self.patterns.as_ref().map_or(0, |p| p.heap_bytes())
    }
    pub fn cols(&self) -> usize {
        self.cols
    }
    pub fn k(&self) -> usize {
        self.k
    }
    pub fn cell_count(&self) -> usize {
        self.cells.len()
    }
    pub fn cell(&self, cell: usize) -> u8 {
        self.cells[cell]
    }
    pub fn is_empty_cell(&self, cell: usize) -> bool {
        self.cells[cell] == EMPTY
    }
    /// Number of empty (playable in principle) cells.
    pub fn empty_cells(&self) -> usize {
        self.empty
    }
    pub fn hash(&self) -> u64 {
        self.hash
    }
    /// The smallest of the hashes of the board's images under its symmetries: the left-right
    /// mirror only if `mirror_only` (gravity: Connect-X), else the mirrors and the half turn,
    /// and on a square board the quarter turns and diagonal mirrors too. Equal for positions
    /// equal up to those symmetries (the side to move follows from the stones).
    pub fn symmetric_hash(&self, mirror_only: bool) -> u64 {
        let (rows, cols) = (self.rows, self.cols);
        let square = rows == cols;
        // (row, col, rows, cols) -> the cell's image.
        type Image = fn(usize, usize, usize, usize) -> (usize, usize);
        let images: &[Image] = &[
            |r, c, _, _| (r, c),
            |r, c, _, cols| (r, cols - 1 - c),
            |r, c, rows, _| (rows - 1 - r, c),
            |r, c, rows, cols| (rows - 1 - r, cols - 1 - c),
            |r, c, _, _| (c, r),
            |r, c, rows, _| (c, rows - 1 - r),
            |r, c, _, cols| (cols - 1 - c, r),
            |r, c, rows, cols| (cols - 1 - c, rows - 1 - r),
        ];
        let count = if mirror_only {
            2
        } else if square {
            8
        } else {
            4
        };
        // A well-mixed key for (cell, content); XOR makes the hash independent of the order
        // the cells are visited in.
        let mix = zobrist::splitmix;
        images[..count]
            .iter()
            .map(|image| {
                let mut h = 0u64;
                for (i, &content) in self.cells.iter().enumerate() {
                    if content != EMPTY {
                        let (r, c) = image(i / cols, i % cols, rows, cols);
                        h ^= mix(((r * cols + c) as u64) << 2 | content as u64);
                    }
                }
                h
            })
            .min()
            .expect("the identity is an image")
    }
    pub fn winner(&self) -> Option<Side> {
        self.winner
    }
    /// A line of K wins; a full board without one is a draw.
    pub fn outcome(&self) -> Option<Outcome> {
        match self.winner {
            Some(side) => Some(Outcome::Win(side)),
            None if self.empty == 0 => Some(Outcome::Draw),
            None => None,
        }
    }

    /// Not over, and no window is left free of either side's stones: neither side can win, so
    /// the game will end in a draw whatever is played.
    pub fn is_dead_draw(&self) -> bool {
        self.outcome().is_none() && self.live == [0, 0]
    }

    /// The window evaluation from `side`'s view: its summed window weights minus the enemy's.
    pub fn evaluation(&self, side: Side) -> Score {
        let diff = self.value[side.index()] - self.value[side.other().index()];
        diff.clamp(-(EVAL_LIMIT as i64), EVAL_LIMIT as i64) as Score
    }

    /// Whether `side` still has a window free of enemy stones.
    pub fn can_win(&self, side: Side) -> bool {
        self.live[side.index()] > 0
    }
    /// Empty cells that would complete a window of `side`.
    pub fn threats(&self, side: Side) -> &[u32] {
        self.threats[side.index()].as_slice()
    }
    pub fn is_threat(&self, side: Side, cell: usize) -> bool {
        self.threat_count[side.index()][cell] > 0
    }
    /// Empty cells where a stone of `side` would make two threats at once (an open four or a
    /// double four, for K = 5): it wins with its next stone unless the opponent can answer
    /// with a four. Two windows brought to K - 1 whose missing cell is the same count too (a
    /// K + 1 line in the making, a single threat): rare, and it only over-states the danger.
    pub fn makers(&self, side: Side) -> &[u32] {
        self.makers[side.index()].as_slice()
    }
    /// The empty cells where a stone of `side` brings one of its windows to K - 1 (makes a
    /// four, for K = 5), kept incrementally (K >= 3; empty for smaller K).
    pub fn four_cells(&self, side: Side) -> &[u32] {
        self.four_cells[side.index()].as_slice()
    }
    /// How many of `side`'s windows a stone on `cell` would bring to K - 1 (the fours it
    /// would make), read from the incremental counts (K >= 3).
    pub fn fours_at(&self, side: Side, cell: usize) -> usize {
        self.three_count[side.index()][cell] as usize
    }
    /// The empty cells where a stone of `side`'s enemy leaves `side` no true maker: no cell
    /// where its stone makes two threats with different missing cells (an open four or a
    /// double four for K = 5; see [`Lines::makers`], which also holds cells whose two windows
    /// miss the same cell). A stone there ends each such maker: it is the maker, or it lies in
    /// enough of the maker's windows of K - 2 that those left miss one cell at most. Empty when
    /// `side` has no true maker, or when no one stone stops them all.
    pub fn maker_spoilers(&self, side: Side) -> Vec<u32> {
        let (p, o) = (side.index(), side.other().index());
        // For each true maker, each of its windows of K - 2: the cell it would miss after the
        // maker's stone, and its empty cells (the maker and that cell).
        let mut makers: Vec<(u32, Vec<MakerWindow>)> = Vec::new();
        for &m in self.makers(side) {
            let mut windows = Vec::new();
            for (w, start, d) in self.windows_through(m as usize) {
                if self.valid[w] && self.count[w][o] == 0 && self.count[w][p] as usize + 2 == self.k {
                    let empty: Vec<u32> =
                        self.window_cells(start, d).filter(|&x| self.cells[x] == EMPTY).map(|x| x as u32).collect();
                    let missing = *empty.iter().find(|&&x| x != m).expect("a window two short has two empty cells");
                    windows.push((missing, empty));
                }
            }
            if distinct_missing(&windows, None) >= 2 {
                makers.push((m, windows));
            }
        }
        let mut cells: Vec<u32> =
            makers.iter().flat_map(|(_, ws)| ws.iter().flat_map(|(_, empty)| empty.iter().copied())).collect();
        cells.sort_unstable();
        cells.dedup();
        cells.retain(|&d| makers.iter().all(|(m, windows)| *m == d || distinct_missing(windows, Some(d)) < 2));
        cells
    }

    /// The cells of a window the winner has filled, in order along the line, once a side won.
    pub fn winning_line(&self) -> Option<Vec<usize>> {
        let p = self.winner?.index();
        let w = (0..self.count.len()).find(|&w| self.valid[w] && self.count[w][p] as usize == self.k)?;
        Some(self.window_cells(w / 4, w % 4).collect())
    }

    /// Whether `cell` lies in a window free of one side's stones (a stone there can still
    /// matter to some line).
    pub fn is_live_cell(&self, cell: usize) -> bool {
        self.windows_through(cell).any(|(w, _, _)| self.valid[w] && (self.count[w][0] == 0 || self.count[w][1] == 0))
    }

    /// The hash of the position after a stone of `side` on `cell` (see [`Lines::hash`]).
    pub fn hash_after(&self, cell: usize, side: Side) -> u64 {
        self.hash ^ self.keys[side.index()][cell]
    }

    /// The cells a stone of `side` on the empty cell `m` would leave one stone short of K (the
    /// missing cells of its windows through `m` with K - 2 of its stones and none of the
    /// enemy's), appended to `out`, each once.
    pub fn threats_after(&self, side: Side, m: usize, out: &mut Vec<u32>) {
        let (p, o) = (side.index(), side.other().index());
        let first = out.len();
        for (w, start, d) in self.windows_through(m) {
            if self.valid[w] && self.count[w][o] == 0 && self.count[w][p] as usize + 2 == self.k {
                let t = self.missing_cell(start, d, m) as u32;
                if !out[first..].contains(&t) {
                    out.push(t);
                }
            }
        }
    }

    /// A cell where the next stone of `side` makes two threats with different missing cells (a
    /// maker of [`Lines::makers`] that truly wins unless the enemy has a four): the least one,
    /// or one in a window through `through` if given.
    pub fn double_maker(&self, side: Side, through: Option<usize>) -> Option<usize> {
        let mut scratch = Vec::new();
        let mut is_double = |m: usize| {
            scratch.clear();
            self.threats_after(side, m, &mut scratch);
            scratch.len() >= 2
        };
        match through {
            // The least such cell, so that the answer does not depend on the set's order.
            None => self.makers(side).iter().map(|&m| m as usize).filter(|&m| is_double(m)).min(),
            Some(cell) => {
                let (p, o) = (side.index(), side.other().index());
                self.windows_through(cell)
                    .filter(|&(w, _, _)| {
                        self.valid[w] && self.count[w][o] == 0 && self.count[w][p] as usize + 2 == self.k
                    })
                    .find_map(|(_, start, d)| {
                        self.window_cells(start, d)
                            .find(|&m| self.cells[m] == EMPTY && self.three_count[p][m] >= 2 && is_double(m))
                    })
            }
        }
    }

    /// The range of offsets `i` such that the window starting `i` steps back from (r, c) along
    /// direction `d` fits on the board.
    #[inline]
    fn offsets(&self, r: usize, c: usize, d: usize) -> std::ops::Range<usize> {
        let k = self.k as isize;
        let (r, c) = (r as isize, c as isize);
        let (mut lo, mut hi) = (0isize, k - 1);
        let (dr, dc) = DIRS[d];
        if dr == 1 {
            hi = hi.min(r);
            lo = lo.max(r + k - self.rows as isize);
        }
        match dc {
            1 => {
                hi = hi.min(c);
                lo = lo.max(c + k - self.cols as isize);
            }
            -1 => {
                hi = hi.min(self.cols as isize - 1 - c);
                lo = lo.max(k - 1 - c);
            }
            _ => {}
        }
        if lo > hi {
            return 0..0;
        }
        lo as usize..hi as usize + 1
    }

    /// Every valid window through `cell`, as (window, start cell, direction). The iterator owns
    /// copies of what it needs, so the caller may update the board while walking it.
    #[inline]
    fn windows_through(&self, cell: usize) -> WindowsThrough {
        let (r, c) = (cell / self.cols, cell % self.cols);
        let dirs = if self.k == 1 { 1 } else { 4 };
        WindowsThrough {
            ranges: std::array::from_fn(|d| if d < dirs { self.offsets(r, c, d) } else { 0..0 }),
            step: self.step,
            cell,
            d: 0,
        }
    }

    /// The cells of window (start, d), in order. The iterator owns copies of what it needs.
    fn window_cells(&self, start: usize, d: usize) -> impl Iterator<Item = usize> {
        let step = self.step[d];
        (0..self.k).map(move |t| (start as isize + t as isize * step) as usize)
    }

    /// The one empty cell of window (start, d) other than `except`.
    fn missing_cell(&self, start: usize, d: usize, except: usize) -> usize {
        self.window_cells(start, d)
            .find(|&x| x != except && self.cells[x] == EMPTY)
            .expect("a window one stone short has an empty cell")
    }

    fn add_threat(&mut self, side: usize, cell: usize) {
        self.threat_count[side][cell] += 1;
        if self.threat_count[side][cell] == 1 {
            self.threats[side].insert(cell as u32);
        }
    }

    fn remove_threat(&mut self, side: usize, cell: usize) {
        self.threat_count[side][cell] -= 1;
        if self.threat_count[side][cell] == 0 {
            self.threats[side].remove(cell as u32);
        }
    }

    /// Adds `delta` to `side`'s three count of every cell of window (start, d), keeping the
    /// makers' set of its empty cells.
    fn add_three_window(&mut self, side: usize, start: usize, d: usize, delta: i16) {
        for x in self.window_cells(start, d) {
            let n = (self.three_count[side][x] as i16 + delta) as u16;
            self.three_count[side][x] = n;
            if self.cells[x] == EMPTY {
                if n >= 2 {
                    self.makers[side].insert(x as u32);
                } else {
                    self.makers[side].remove(x as u32);
                }
                if n >= 1 {
                    self.four_cells[side].insert(x as u32);
                } else {
                    self.four_cells[side].remove(x as u32);
                }
            }
        }
    }

    /// Puts a stone of `side` on the empty cell `cell`.
    pub fn place(&mut self, cell: usize, side: Side) {
        debug_assert_eq!(self.cells[cell], EMPTY);
        let (p, o) = (side.index(), side.other().index());
        let k = self.k;
        self.cells[cell] = 1 + p as u8;
        self.hash ^= self.keys[p][cell];
        self.empty -= 1;
        let threes = k >= 3;
        if threes {
            for side in 0..2 {
                self.makers[side].remove(cell as u32);
                self.four_cells[side].remove(cell as u32);
            }
        }
        for (w, start, d) in self.windows_through(cell) {
            if !self.valid[w] {
                continue;
            }
            let [a, b] = [self.count[w][p] as usize, self.count[w][o] as usize];
            if threes {
                if b == 0 && a + 3 == k {
                    self.add_three_window(p, start, d, 1);
                } else if b == 0 && a + 2 == k {
                    self.add_three_window(p, start, d, -1);
                }
                if a == 0 && b + 2 == k {
                    self.add_three_window(o, start, d, -1);
                }
            }
            if b == 0 {
                self.value[p] += self.weight[a + 1] - self.weight[a];
                if a + 1 == k {
                    self.winner = Some(side);
                    self.remove_threat(p, cell);
                } else if a + 1 == k - 1 {
                    let e = self.missing_cell(start, d, cell);
                    self.add_threat(p, e);
                }
            }
            if a == 0 {
                self.live[o] -= 1;
                self.value[o] -= self.weight[b];
                if b == k - 1 {
                    self.remove_threat(o, cell);
                }
            }
            self.count[w][p] += 1;
            self.shift_gains(p, start, d, a, b, 1);
        }
        if let Some(patterns) = &mut self.patterns {
            patterns.placed(&self.cells, cell);
        }
    }

    /// Takes back the stone of `side` on `cell` (the exact inverse of [`Lines::place`]).
    pub fn remove(&mut self, cell: usize, side: Side) {
        debug_assert_eq!(self.cells[cell], 1 + side.index() as u8);
        let (p, o) = (side.index(), side.other().index());
        let k = self.k;
        let threes = k >= 3;
        for (w, start, d) in self.windows_through(cell) {
            if !self.valid[w] {
                continue;
            }
            self.count[w][p] -= 1;
            let [a, b] = [self.count[w][p] as usize, self.count[w][o] as usize];
            self.shift_gains(p, start, d, a, b, -1);
            if threes {
                if b == 0 && a + 3 == k {
                    self.add_three_window(p, start, d, -1);
                } else if b == 0 && a + 2 == k {
                    self.add_three_window(p, start, d, 1);
                }
                if a == 0 && b + 2 == k {
                    self.add_three_window(o, start, d, 1);
                }
            }
            if b == 0 {
                self.value[p] -= self.weight[a + 1] - self.weight[a];
                if a + 1 == k {
                    self.winner = None;
                    self.add_threat(p, cell);
                } else if a + 1 == k - 1 {
                    // `cell` still holds the stone, so the scan finds the other empty cell.
                    let e = self.missing_cell(start, d, cell);
                    self.remove_threat(p, e);
                }
            }
            if a == 0 {
                self.live[o] += 1;
                self.value[o] += self.weight[b];
                if b == k - 1 {
                    self.add_threat(o, cell);
                }
            }
        }
        self.cells[cell] = EMPTY;
        self.hash ^= self.keys[p][cell];
        self.empty += 1;
        if let Some(patterns) = &mut self.patterns {
            patterns.removed(&self.cells, cell);
        }
        if threes {
            for side in 0..2 {
                if self.three_count[side][cell] >= 2 {
                    self.makers[side].insert(cell as u32);
                }
                if self.three_count[side][cell] >= 1 {
                    self.four_cells[side].insert(cell as u32);
                }
            }
        }
    }

    /// How many of `side`'s windows a stone on `cell` would bring to one stone short of K with
    /// no enemy stone: the threats ("fours" for K = 5) it would make.
    pub fn fours_made(&self, cell: usize, side: Side) -> usize {
        self.windows_brought_short(cell, side, 1)
    }

    /// How many of `side`'s windows a stone on `cell` would bring to two stones short of K with
    /// no enemy stone (the "threes" of K = 5, open or not).
    pub fn threes_made(&self, cell: usize, side: Side) -> usize {
        self.windows_brought_short(cell, side, 2)
    }

    /// How many of `side`'s windows free of enemy stones a stone on `cell` would bring to
    /// exactly `short` stones short of K.
    fn windows_brought_short(&self, cell: usize, side: Side, short: usize) -> usize {
        let (p, o) = (side.index(), side.other().index());
        let k = self.k;
        self.windows_through(cell)
            .filter(|&(w, _, _)| self.valid[w] && self.count[w][o] == 0 && self.count[w][p] as usize + 1 + short == k)
            .count()
    }

    /// How much playing `cell` would change `side`'s evaluation (own windows grown plus enemy
    /// windows killed), with extra weight for making or blocking threats: a cheap, exact-to-the-
    /// evaluation measure of a move for ordering. Where the patterns are kept (and the gains
    /// not), the cell's ordering scores from them instead: what a stone of `side` makes there
    /// plus what the other side's would (what the stone stops).
    pub fn move_gain(&self, cell: usize, side: Side) -> i64 {
        if let Some(p) = self.patterns.as_deref() {
            let s = side.index();
            return p.score(cell, s) as i64 + p.score(cell, 1 - s) as i64;
        }
        self.gain[cell][side.index()]
    }

    /// Window (start, d) gains or loses (`sign` 1 or -1) a stone of side `p`, from `a` stones
    /// of `p` and `b` of the enemy's: every cell of it has its gains moved by the change of the
    /// window's shares (a window holding both sides' stones has none, before and after).
    #[inline]
    fn shift_gains(&mut self, p: usize, start: usize, d: usize, a: usize, b: usize, sign: i64) {
        if (a > 0 && b > 0) || self.patterns.is_some() {
            return;
        }
        let [mine, theirs] = self.gain_shift[a * (self.k + 1) + b];
        let shift = if p == 0 { [sign * mine, sign * theirs] } else { [sign * theirs, sign * mine] };
        let step = self.step[d];
        for t in 0..self.k {
            let g = &mut self.gain[(start as isize + t as isize * step) as usize];
            g[0] += shift[0];
            g[1] += shift[1];
        }
    }

    /// [`Lines::move_gain`] computed from the windows, not kept (the tests check one against the
    /// other).
    #[cfg(test)]
    pub(crate) fn move_gain_scan(&self, cell: usize, side: Side) -> i64 {
        let (p, o) = (side.index(), side.other().index());
        let part = gain_parts(&self.weight, self.k);
        self.windows_through(cell)
            .filter(|&(w, _, _)| self.valid[w])
            .map(|(w, _, _)| part[self.count[w][p] as usize][self.count[w][o] as usize])
            .sum()
    }
}

/// A window of K - 2 through a maker: the cell it would miss after the maker's stone, and its
/// empty cells (the maker and that cell).
type MakerWindow = (u32, Vec<u32>);

/// How many different cells the windows (missing cell, empty cells) miss, leaving out those
/// holding `spoiled`.
fn distinct_missing(windows: &[MakerWindow], spoiled: Option<u32>) -> usize {
    let mut seen: Vec<u32> = Vec::new();
    for (missing, empty) in windows {
        if spoiled.is_none_or(|d| !empty.contains(&d)) && !seen.contains(missing) {
            seen.push(*missing);
        }
    }
    seen.len()
}

/// The hash of the empty board: it depends on the board's size, K, the game and the blocked
/// cells, so that equal stones in different settings hash apart.
fn start_hash(keys: &[Vec<u64>; 2], blocked: &[usize], rows: usize, cols: usize, k: usize, game: u64) -> u64 {
    let mut mix = zobrist::SplitMix64::new((((rows as u64) << 40) ^ ((cols as u64) << 20) ^ k as u64) ^ game << 60);
    let base = mix.next_u64() | 1;
    blocked.iter().fold(base, |h, &b| h ^ keys[0][b].rotate_left(17) ^ keys[1][b])
}

/// Iterator over the windows through one cell; see [`Lines::windows_through`]. It yields every
/// window that fits on the board; callers skip the invalid ones (holding a blocked cell).
struct WindowsThrough {
    ranges: [std::ops::Range<usize>; 4],
    step: [isize; 4],
    cell: usize,
    d: usize,
}

impl Iterator for WindowsThrough {
    type Item = (usize, usize, usize);
    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        while self.d < 4 {
            if let Some(i) = self.ranges[self.d].next() {
                let start = (self.cell as isize - i as isize * self.step[self.d]) as usize;
                return Some((start * 4 + self.d, start, self.d));
            }
            self.d += 1;
        }
        None
    }
}

/// A window's share in a side's [`Lines::move_gain`] of each of its cells, by the side's
/// stones `a` and the enemy's `b` in it: the side's own window grown (with extra weight when
/// it makes a threat or a win), or the enemy's window killed (with extra weight when it held a
/// three or more, for K >= 3); 0 for a full window and for one holding both sides' stones.
fn gain_parts(weight: &[i64], k: usize) -> Vec<Vec<i64>> {
    (0..=k)
        .map(|a| {
            (0..=k)
                .map(|b| {
                    let mut part = 0;
                    if a + b >= k {
                        return 0;
                    }
                    if b == 0 {
                        part += weight[a + 1] - weight[a];
                        if k >= 3 && a + 1 >= k - 1 {
                            part += weight[a + 1];
                        }
                    }
                    if a == 0 {
                        part += weight[b];
                        if k >= 3 && b + 2 >= k {
                            part += weight[b];
                        }
                    }
                    part
                })
                .collect()
        })
        .collect()
}

/// Weights of a window by the number of stones in it: zero for an empty window, then growing
/// geometrically so that the window one stone short of K is worth about 4096 times a lone stone
/// (the ratio per stone capped at 6, so that short lines are not all-or-nothing).
fn window_weights(k: usize) -> Vec<i64> {
    let ratio = if k <= 2 { 6.0 } else { 4096f64.powf(1.0 / (k as f64 - 2.0)).min(6.0) };
    (0..=k).map(|c| if c == 0 { 0 } else { (8.0 * ratio.powi(c as i32 - 1)).round() as i64 }).collect()
}

#[cfg(test)]
mod tests;

/// Board limits: cells are u32 and window counts are u8.
pub(crate) fn check_size(rows: usize, cols: usize, k: usize) -> Result<()> {
    if rows == 0 || cols == 0 || k == 0 {
        bail!("M, N and K must be at least 1");
    }
    if rows > 1000 || cols > 1000 {
        bail!("boards are limited to 1000 rows and 1000 columns");
    }
    if k > 255 {
        bail!("K is limited to 255");
    }
    Ok(())
}

/// A 0-based index: ASCII digits only (no sign).
pub(crate) fn parse_index(s: &str) -> Option<usize> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}
