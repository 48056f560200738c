//! Line patterns, for any K: for each empty cell, each of the four directions and each side,
//! what a stone of that side on the cell would make along that line (a five, an open four, a
//! four, an open three ...), and for each empty cell and side a threat class from its four
//! directions together (a five, an open four, a four-three, a double three ...).
//!
//! The line of a cell in a direction is the 2K - 1 cells centred on it: every window of K cells
//! through the cell lies inside it, and a pattern looks at nothing else. So a stone changes the
//! patterns of the empty cells within K - 1 steps of it along its four lines only (at most
//! 8 (K - 1) of them), and [`Patterns`] keeps them incrementally inside [`super::Lines`].
//!
//! The patterns, from a side's view with its stone on the centre (a window is *alive* if it
//! holds no enemy stone and no blocked or off-board cell; every window here holds the centre):
//!
//! | pattern | the line |
//! |---|---|
//! | `F5` | an alive window is full: a five |
//! | `F4` / `B4` | two or more empty cells / one complete a five (open four / four) |
//! | `F3S` / `F3` | two or more / one cell make an `F4` (open three) |
//! | `B3` | no cell makes an `F4`, one makes a `B4` (three) |
//! | `F2B` / `F2A` / `F2` | four or more / three / fewer cells make an open three (open two) |
//! | `B2` | a cell makes a `B3` (two) |
//! | `F1` / `B1` | a cell makes an open two / a two |
//! | `DEAD` | no alive window, or more than four stones short of one |
//!
//! where "a cell makes" means: one more stone of the side on an empty cell of an alive window,
//! the line then seen from that stone, within the same 2K - 1 cells (the standard recursive
//! definition of gomoku engines, for any K). [`classify`] computes it directly from the alive
//! windows: a line `s` stones short of its fullest alive window is open (`F`) exactly when two
//! alive windows `a < b` have one empty cell each outside the other and `s - 1` in common (the
//! common ones filled, each window misses a different cell); the counts of `F3S` and `F2A`/`F2B`
//! are the distinct common cells of such pairs. The tests check it against the recursion.
//!
//! A cell's threat class for a side combines its four patterns ([`Class`]): `Five`; `Flex4` (an
//! open four, or two fours: two cells to complete); `Block4Flex3` (four-three) ... down to
//! `Flex2`.
//!
//! Layout: for K <= [`TABLE_K`], each cell keeps per direction a key of its 2K - 2 neighbours
//! along the line (2 bits a cell: 0 empty, 1 first player, 2 second player, 3 blocked or off the
//! board; the cell at offset `o` in bits `2 * slot(o)`, slots counted from the far end behind),
//! and a table built once per K maps a key to both sides' patterns. For larger K the line is
//! read from the board and classified directly. A cell's class comes from a second table, over
//! the 13^4 combinations of its four patterns, by an index kept per cell and side: a pattern
//! changed moves it, so no class is computed in play.

use super::CellSet;
use super::{BLOCKED, DIRS, EMPTY};
use std::sync::OnceLock;

/// A line pattern (see the module's table), weakest first.
pub type Pattern = u8;
pub const DEAD: Pattern = 0;
pub const B1: Pattern = 1;
pub const F1: Pattern = 2;
pub const B2: Pattern = 3;
pub const F2: Pattern = 4;
pub const F2A: Pattern = 5;
pub const F2B: Pattern = 6;
pub const B3: Pattern = 7;
pub const F3: Pattern = 8;
pub const F3S: Pattern = 9;
pub const B4: Pattern = 10;
pub const F4: Pattern = 11;
pub const F5: Pattern = 12;
pub const PATTERNS: usize = 13;

/// A cell's threat class for a side, from its four patterns, weakest first.
pub type Class = u8;
pub const NONE: Class = 0;
/// An open two (and nothing better).
pub const FLEX2: Class = 1;
/// A three (closed).
pub const BLOCK3: Class = 2;
/// Two open twos.
pub const FLEX2X2: Class = 3;
/// Two threes, or a three and an open two.
pub const BLOCK3_PLUS: Class = 4;
/// An open three.
pub const FLEX3: Class = 5;
/// An open three and a three or an open two.
pub const FLEX3_PLUS: Class = 6;
/// Two open threes (a double three).
pub const FLEX3X2: Class = 7;
/// A four (closed).
pub const BLOCK4: Class = 8;
/// A four and a three or an open two.
pub const BLOCK4_PLUS: Class = 9;
/// A four and an open three (a four-three).
pub const BLOCK4_FLEX3: Class = 10;
/// An open four or two fours: two cells complete a five, one stone cannot stop both.
pub const FLEX4: Class = 11;
/// A five.
pub const FIVE: Class = 12;
pub const CLASSES: usize = 13;

/// The largest K whose patterns come from a table (4^(2K - 2) entries: 65,536 for K = 5).
pub const TABLE_K: usize = 5;

/// Cell codes in a line, from one side's view.
const OWN: u8 = 1;
const STOP: u8 = 2;

/// The pattern of a line of 2K - 1 cells seen from one side with its stone on the centre:
/// `line[i]` is 0 for an empty cell, [`OWN`] (1) for the side's stone, anything else for a cell
/// that stops a window (the enemy's stone, a blocked or off-board cell); the centre's entry is
/// not read. Any K from 1 to 255.
pub fn classify(line: &[u8], k: usize) -> Pattern {
    let n = 2 * k - 1;
    debug_assert_eq!(line.len(), n);
    let centre = k - 1;
    // Prefix counts: empty cells (the centre is the side's stone) and stopping cells.
    let mut empties = [0u16; 512];
    let mut stops = [0u16; 512];
    for i in 0..n {
        let c = if i == centre { OWN } else { line[i] };
        empties[i + 1] = empties[i] + (c == EMPTY) as u16;
        stops[i + 1] = stops[i] + (c != EMPTY && c != OWN) as u16;
    }
    let empty_in = |a: usize, b: usize| (empties[b] - empties[a]) as usize;
    let alive = |j: usize| stops[j + k] == stops[j];
    let Some(short) = (0..k).filter(|&j| alive(j)).map(|j| empty_in(j, j + k)).min() else {
        return DEAD;
    };
    match short {
        0 => return F5,
        5.. => return DEAD,
        _ => {}
    }
    // Pairs of alive windows a < b: one empty cell in [a, b), one in [a + K, b + K), and
    // short - 1 in their common part [b, a + K). `common`: the distinct empty cells of those
    // common parts (counted up to 4).
    let mut open = false;
    let mut common: [usize; 4] = [usize::MAX; 4];
    let mut distinct = 0;
    for a in (0..k).filter(|&a| alive(a)) {
        for b in (a + 1..k).filter(|&b| alive(b)) {
            if empty_in(a, b) != 1 || empty_in(a + k, b + k) != 1 || empty_in(b, a + k) != short - 1 {
                continue;
            }
            open = true;
            if short == 2 || short == 3 {
                for e in (b..a + k).filter(|&e| e != centre && line[e] == EMPTY) {
                    if distinct < 4 && !common[..distinct].contains(&e) {
                        common[distinct] = e;
                        distinct += 1;
                    }
                }
            }
        }
    }
    match (short, open) {
        (1, true) => F4,
        (1, false) => B4,
        (2, true) if distinct >= 2 => F3S,
        (2, true) => F3,
        (2, false) => B3,
        (3, true) if distinct >= 4 => F2B,
        (3, true) if distinct == 3 => F2A,
        (3, true) => F2,
        (3, false) => B2,
        (4, true) => F1,
        _ => B1,
    }
}

/// The threat class of a cell for a side from its four patterns (see [`Class`]'s values: a five;
/// an open four or two fours; a four with an open three, with a three or open two, alone; two
/// open threes; an open three with a three or open two, alone; two threes or a three and an
/// open two; two open twos; a three; an open two; nothing of these).
pub fn combine(p: [Pattern; 4]) -> Class {
    class_of(p.iter().map(|&x| TALLY[x as usize]).sum())
}

/// A cell's four patterns for one side as the counts [`combine`] reads, packed 3 bits each:
/// fives, open fours, fours, open threes (F3, F3S), threes, open twos (F2, F2A, F2B). Kept per
/// cell and side, moved by [`TALLY`] when a pattern changes; [`class_of`] reads the class.
type Tally = u32;

/// Each pattern's share of a [`Tally`].
const TALLY: [Tally; PATTERNS] = {
    let mut t = [0; PATTERNS];
    t[F5 as usize] = 1;
    t[F4 as usize] = 1 << 3;
    t[B4 as usize] = 1 << 6;
    t[F3 as usize] = 1 << 9;
    t[F3S as usize] = 1 << 9;
    t[B3 as usize] = 1 << 12;
    t[F2 as usize] = 1 << 15;
    t[F2A as usize] = 1 << 15;
    t[F2B as usize] = 1 << 15;
    t
};

/// [`combine`] from a [`Tally`].
#[inline]
fn class_of(t: Tally) -> Class {
    let n = |i: u32| (t >> (3 * i)) & 7;
    let (five, flex4, b4, flex3, b3, flex2) = (n(0), n(1), n(2), n(3), n(4), n(5));
    if five > 0 {
        FIVE
    } else if flex4 > 0 || b4 >= 2 {
        FLEX4
    } else if b4 > 0 {
        if flex3 > 0 {
            BLOCK4_FLEX3
        } else if b3 + flex2 > 0 {
            BLOCK4_PLUS
        } else {
            BLOCK4
        }
    } else if flex3 > 0 {
        if flex3 >= 2 {
            FLEX3X2
        } else if b3 + flex2 > 0 {
            FLEX3_PLUS
        } else {
            FLEX3
        }
    } else if b3 >= 2 || (b3 > 0 && flex2 > 0) {
        BLOCK3_PLUS
    } else if flex2 >= 2 {
        FLEX2X2
    } else if b3 > 0 {
        BLOCK3
    } else if flex2 > 0 {
        FLEX2
    } else {
        NONE
    }
}

/// The key slot of the neighbour at offset `o` (nonzero, |o| < K) along the line.
#[inline]
fn slot(o: isize, k: usize) -> usize {
    if o < 0 {
        (o + k as isize - 1) as usize
    } else {
        (o + k as isize - 2) as usize
    }
}

/// Both sides' patterns (first player's in the low nibble) of every key, for K <= [`TABLE_K`].
fn pattern_table(k: usize) -> &'static [u8] {
    static TABLES: [OnceLock<Vec<u8>>; TABLE_K + 1] = [const { OnceLock::new() }; TABLE_K + 1];
    assert!((1..=TABLE_K).contains(&k));
    TABLES[k].get_or_init(|| {
        let n = 2 * k - 1;
        let keys = 1usize << (4 * (k - 1));
        let mut line = vec![0u8; n];
        (0..keys)
            .map(|key| {
                let mut both = 0u8;
                for side in 0..2u8 {
                    for i in (0..n).filter(|&i| i != k - 1) {
                        let code = (key >> (2 * slot(i as isize - (k as isize - 1), k))) & 3;
                        line[i] = match code as u8 {
                            0 => EMPTY,
                            c if c == side + 1 => OWN,
                            _ => STOP,
                        };
                    }
                    both |= classify(&line, k) << (4 * side);
                }
                both
            })
            .collect()
    })
}

/// Both sides' classes of every combination of four patterns, for one side: indexed by
/// [`class_index`] of the cell's four patterns (13^4 = 28,561 entries).
fn class_table() -> &'static [Class] {
    static TABLE: OnceLock<Vec<Class>> = OnceLock::new();
    TABLE.get_or_init(|| (0..CLASS_INDICES).map(|i| combine(index_patterns(i))).collect())
}

/// What pattern `p` in direction `d` adds to a cell's class index: p x 13^d.
#[inline]
fn class_index(p: Pattern, d: usize) -> u16 {
    const POWERS: [u16; 4] = [1, 13, 169, 2197];
    p as u16 * POWERS[d]
}

/// The weights read from the patterns: the ordering score `score` / `class_score` of a stone on
/// an empty cell by its pattern in each direction and by its class, read when asked (the move
/// gains, [`super::Lines::move_gain`]); and, if not empty, `values`: what an empty cell is worth
/// to a side by its class index (see [`class_index`]: its four patterns), under two weightings
/// (the game's evaluation says what they mean), summed over the empty cells as the patterns
/// change ([`Patterns::value_sums`]).
#[derive(Clone, Debug)]
pub struct Weights {
    pub score: [i32; PATTERNS],
    pub class_score: [i32; CLASSES],
    /// Empty, or one entry per class index (13^4).
    pub values: Vec<[i32; 2]>,
}

/// How many class indices there are: 13^4, the four patterns of a cell in order.
pub const CLASS_INDICES: usize = PATTERNS * PATTERNS * PATTERNS * PATTERNS;

/// The four patterns of class index `i`, by direction.
pub fn index_patterns(i: usize) -> [Pattern; 4] {
    std::array::from_fn(|d| (i / PATTERNS.pow(d as u32) % PATTERNS) as Pattern)
}

/// One cell's lines. For an empty cell every field is kept; for an occupied one only `keys`
/// (the rest is recomputed when it is emptied).
#[derive(Clone, Copy, Debug, Default)]
struct CellLines {
    /// Per direction, the key of its line's neighbours (K <= TABLE_K; else unused).
    keys: [u32; 4],
    /// Per direction: the first player's pattern | the second player's << 4.
    pat: [u8; 4],
    /// By side: the class index of its four patterns (see [`class_index`]) and its class.
    index: [u16; 2],
    class: [Class; 2],
}

/// The patterns of every cell, kept incrementally (see the module's notes).
#[derive(Clone, Debug)]
pub struct Patterns {
    k: usize,
    rows: usize,
    cols: usize,
    step: [isize; 4],
    table: Option<&'static [u8]>,
    classes: &'static [Class],
    weights: &'static Weights,
    lines: Vec<CellLines>,
    /// By side and class: how many empty cells have it.
    count: [[u32; CLASSES]; 2],
    /// By side: the empty cells where its stone makes a four or better (class >= BLOCK4).
    fours: [CellSet; 2],
    /// By side: the empty cells where its stone makes an open three or better short of a four
    /// (FLEX3 ..= FLEX3X2).
    threes: [CellSet; 2],
    /// By side and weighting: the sum of `weights.values` over the empty cells (0 without them).
    value_sum: [[i32; 2]; 2],
    /// One frame per stone placed and not yet taken back, newest last: what taking it back
    /// restores (see [`Patterns::removed`]).
    frames: Vec<Frame>,
    /// The frames' saved cells, in the order of the frames: (cell, its lines before the stone).
    saved: Vec<(u32, CellLines)>,
}

/// What a stone placed changed, to be restored when it is taken back: its cell, where its saved
/// cells start in [`Patterns::saved`], and the sums before it.
#[derive(Clone, Debug)]
struct Frame {
    cell: u32,
    start: usize,
    count: [[u32; CLASSES]; 2],
    value_sum: [[i32; 2]; 2],
}

/// Which of a side's cell sets a class puts a cell in: none, the threes, the fours.
#[inline]
fn group(c: Class) -> u8 {
    (c >= FLEX3) as u8 + (c >= BLOCK4) as u8
}

impl Patterns {
    /// The patterns of the board `cells` (contents as in [`super::Lines`]), rows x cols, K in a
    /// row, scored for ordering with `weights`.
    pub fn new(cells: &[u8], rows: usize, cols: usize, k: usize, weights: &'static Weights) -> Patterns {
        let n = rows * cols;
        let table = (k <= TABLE_K).then(|| pattern_table(k));
        let mut p = Patterns {
            k,
            rows,
            cols,
            step: DIRS.map(|(dr, dc)| dr * cols as isize + dc),
            table,
            classes: class_table(),
            weights,
            lines: vec![CellLines::default(); n],
            count: [[0; CLASSES]; 2],
            fours: [CellSet::new(n), CellSet::new(n)],
            threes: [CellSet::new(n), CellSet::new(n)],
            value_sum: [[0; 2]; 2],
            frames: Vec::new(),
            saved: Vec::new(),
        };
        if table.is_some() {
            for cell in 0..n {
                for d in 0..4 {
                    p.lines[cell].keys[d] = p.key_scan(cells, cell, d);
                }
            }
        }
        for cell in (0..n).filter(|&c| cells[c] == EMPTY) {
            p.enter(cells, cell);
        }
        p
    }

    /// The bytes its tables take (per cell: about 60 on a large board).
    pub fn heap_bytes(&self) -> usize {
        std::mem::size_of_val(self.lines.as_slice())
            + self.frames.capacity() * std::mem::size_of::<Frame>()
            + self.saved.capacity() * std::mem::size_of::<(u32, CellLines)>()
            + self.fours.iter().chain(&self.threes).map(CellSet::heap_bytes).sum::<usize>()
    }

    /// The key of `cell`'s line in direction `d`, read from the board.
    fn key_scan(&self, cells: &[u8], cell: usize, d: usize) -> u32 {
        let k = self.k as isize;
        let mut key = 0u32;
        for o in (1 - k..k).filter(|&o| o != 0) {
            let c = self.neighbour(cell, d, o).map_or(BLOCKED as u32, |x| cells[x] as u32);
            key |= c << (2 * slot(o, self.k));
        }
        key
    }

    /// The cell `o` steps from `cell` along direction `d` (0 right, 1 down, 2 down-right, 3
    /// down-left), if on the board.
    #[inline]
    pub fn neighbour(&self, cell: usize, d: usize, o: isize) -> Option<usize> {
        let (r, c) = ((cell / self.cols) as isize, (cell % self.cols) as isize);
        let (dr, dc) = DIRS[d];
        let (rr, cc) = (r + o * dr, c + o * dc);
        (rr >= 0 && rr < self.rows as isize && cc >= 0 && cc < self.cols as isize)
            .then(|| (cell as isize + o * self.step[d]) as usize)
    }

    /// Both sides' patterns of the empty `cell` in direction `d`, from the key or the board.
    fn pattern_now(&self, cells: &[u8], cell: usize, d: usize) -> u8 {
        if let Some(table) = self.table {
            return table[self.lines[cell].keys[d] as usize];
        }
        let k = self.k as isize;
        let mut line = [0u8; 512];
        let mut both = 0u8;
        for side in 0..2u8 {
            for o in (1 - k..k).filter(|&o| o != 0) {
                let content = self.neighbour(cell, d, o).map_or(BLOCKED, |x| cells[x]);
                line[(o + k - 1) as usize] = match content {
                    EMPTY => EMPTY,
                    c if c == side + 1 => OWN,
                    _ => STOP,
                };
            }
            both |= classify(&line[..2 * self.k - 1], self.k) << (4 * side);
        }
        both
    }

    /// The empty `cell` joins the counts: its patterns recomputed, its class.
    fn enter(&mut self, cells: &[u8], cell: usize) {
        let pat: [u8; 4] = std::array::from_fn(|d| self.pattern_now(cells, cell, d));
        self.lines[cell].pat = pat;
        for side in 0..2 {
            let pats = pat.map(|b| (b >> (4 * side)) & 15);
            let index = (0..4).map(|d| class_index(pats[d], d)).sum();
            let class = self.classes[index as usize];
            self.lines[cell].index[side] = index;
            self.lines[cell].class[side] = class;
            self.add_value(side, index, 1);
            self.add_class(side, cell, class, 1);
        }
    }

    /// The `cell`, now occupied, leaves the counts.
    fn leave(&mut self, cell: usize) {
        for side in 0..2 {
            let class = self.lines[cell].class[side];
            self.add_value(side, self.lines[cell].index[side], -1);
            self.add_class(side, cell, class, -1);
        }
    }

    /// Adds (`sign` 1) or takes away (-1) the values of class index `index` to `side`'s sums.
    #[inline]
    fn add_value(&mut self, side: usize, index: u16, sign: i32) {
        if let Some(v) = self.weights.values.get(index as usize) {
            self.value_sum[side][0] += sign * v[0];
            self.value_sum[side][1] += sign * v[1];
        }
    }

    /// Counts `cell` (empty) in or out (`sign` 1 or -1) of `side`'s class `class`: its count and
    /// the cell sets.
    #[inline]
    fn add_class(&mut self, side: usize, cell: usize, class: Class, sign: i32) {
        self.count[side][class as usize] = (self.count[side][class as usize] as i32 + sign) as u32;
        let set = if class >= BLOCK4 {
            &mut self.fours[side]
        } else if class >= FLEX3 {
            &mut self.threes[side]
        } else {
            return;
        };
        if sign > 0 {
            set.insert(cell as u32);
        } else {
            set.remove(cell as u32);
        }
    }

    #[inline]
    fn side_patterns(&self, cell: usize, side: usize) -> [Pattern; 4] {
        self.lines[cell].pat.map(|b| (b >> (4 * side)) & 15)
    }

    /// A stone was placed on `cell` (`cells` already shows it): the patterns follow, and what
    /// they were is saved for [`Patterns::removed`].
    pub fn placed(&mut self, cells: &[u8], cell: usize) {
        let start = self.saved.len();
        self.frames.push(Frame { cell: cell as u32, start, count: self.count, value_sum: self.value_sum });
        self.changed::<true>(cells, cell);
    }

    /// The stone on `cell` was taken back (`cells` already shows it). If it is the last stone
    /// placed, what it changed is restored from its frame (a copy, far cheaper than the patterns'
    /// upkeep); otherwise the patterns follow as for any change, and the frames, no longer
    /// true, are dropped.
    pub fn removed(&mut self, cells: &[u8], cell: usize) {
        if self.frames.last().is_none_or(|f| f.cell as usize != cell) {
            self.frames.clear();
            self.saved.clear();
            self.changed::<false>(cells, cell);
            return;
        }
        let frame = self.frames.pop().expect("checked above");
        for i in frame.start..self.saved.len() {
            let (x, old) = self.saved[i];
            let x = x as usize;
            if cells[x] == EMPTY {
                for side in 0..2 {
                    let (now, then) = (group(self.lines[x].class[side]), group(old.class[side]));
                    if now != then {
                        self.regroup(side, x, now, then);
                    }
                }
            }
            self.lines[x] = old;
        }
        self.saved.truncate(frame.start);
        for side in 0..2 {
            self.regroup(side, cell, 0, group(self.lines[cell].class[side]));
        }
        self.count = frame.count;
        self.value_sum = frame.value_sum;
    }

    /// Moves the empty cell `x` from `side`'s cell set of group `from` to that of group `to`
    /// (see [`group`]).
    #[inline]
    fn regroup(&mut self, side: usize, x: usize, from: u8, to: u8) {
        match from {
            1 => self.threes[side].remove(x as u32),
            2 => self.fours[side].remove(x as u32),
            _ => {}
        }
        match to {
            1 => self.threes[side].insert(x as u32),
            2 => self.fours[side].insert(x as u32),
            _ => {}
        }
    }

    /// Calls `f(self, x, d, o)` for every cell x on the board `o` steps (0 < |o| < K) from `cell`
    /// along direction `d`.
    #[inline]
    fn each_neighbour(&mut self, cell: usize, mut f: impl FnMut(&mut Self, usize, usize, isize)) {
        let k = self.k as isize;
        let (r, col) = ((cell / self.cols) as isize, (cell % self.cols) as isize);
        let (rows, cols) = (self.rows as isize, self.cols as isize);
        for (d, &(dr, dc)) in DIRS.iter().enumerate() {
            // The offsets o (|o| < K) whose cell is on the board: o * dr in [-r, rows - 1 - r],
            // o * dc in [-col, cols - 1 - col].
            let (mut lo, mut hi) = (1 - k, k - 1);
            if dr == 1 {
                lo = lo.max(-r);
                hi = hi.min(rows - 1 - r);
            }
            match dc {
                1 => {
                    lo = lo.max(-col);
                    hi = hi.min(cols - 1 - col);
                }
                -1 => {
                    lo = lo.max(col - (cols - 1));
                    hi = hi.min(col);
                }
                _ => {}
            }
            let step = self.step[d];
            for o in (lo..0).chain(1..=hi) {
                f(self, (cell as isize + o * step) as usize, d, o);
            }
        }
    }

    /// The content of `cell` changed (a stone placed or removed; `cells` already shows it). With
    /// `SAVE`, every cell whose lines change is saved first (see [`Patterns::placed`]).
    fn changed<const SAVE: bool>(&mut self, cells: &[u8], cell: usize) {
        if cells[cell] != EMPTY {
            self.leave(cell);
        }
        let c = cells[cell] as u32;
        self.each_neighbour(cell, |p, x, d, o| {
            if SAVE {
                p.saved.push((x as u32, p.lines[x]));
            }
            let new = if let Some(table) = p.table {
                // `cell` is at offset -o from x.
                let s = 2 * slot(-o, p.k);
                let key = &mut p.lines[x].keys[d];
                *key = (*key & !(3 << s)) | c << s;
                if cells[x] != EMPTY {
                    return;
                }
                table[*key as usize]
            } else {
                if cells[x] != EMPTY {
                    return;
                }
                p.pattern_now(cells, x, d)
            };
            p.repattern(x, d, new);
        });
        if cells[cell] == EMPTY {
            self.enter(cells, cell);
        }
    }

    /// The empty cell `x`'s patterns in direction `d` are now `new`: its class and the counts
    /// follow.
    #[inline]
    fn repattern(&mut self, x: usize, d: usize, new: u8) {
        let old = self.lines[x].pat[d];
        if old == new {
            return;
        }
        self.lines[x].pat[d] = new;
        for side in 0..2 {
            let (po, pn) = ((old >> (4 * side)) & 15, (new >> (4 * side)) & 15);
            if po == pn {
                continue;
            }
            let before_index = self.lines[x].index[side];
            let index = before_index + class_index(pn, d) - class_index(po, d);
            self.lines[x].index[side] = index;
            self.add_value(side, before_index, -1);
            self.add_value(side, index, 1);
            let class = self.classes[index as usize];
            let before = self.lines[x].class[side];
            if class != before {
                self.reclass(side, x, before, class);
            }
        }
    }

    /// The empty cell `x`'s class for `side` goes from `before` to `class`.
    #[inline]
    fn reclass(&mut self, side: usize, x: usize, before: Class, class: Class) {
        self.lines[x].class[side] = class;
        self.count[side][before as usize] -= 1;
        self.count[side][class as usize] += 1;
        let (g0, g1) = (group(before), group(class));
        if g0 != g1 {
            self.regroup(side, x, g0, g1);
        }
    }

    /// The pattern a stone of `side` (0 first player, 1 second) on the empty `cell` makes in
    /// direction `d`.
    #[inline]
    pub fn pattern(&self, cell: usize, side: usize, d: usize) -> Pattern {
        (self.lines[cell].pat[d] >> (4 * side)) & 15
    }
    /// The threat class of the empty `cell` for `side`.
    #[inline]
    pub fn class(&self, cell: usize, side: usize) -> Class {
        self.lines[cell].class[side]
    }
    /// The ordering score of a stone of `side` on the empty `cell`: its patterns' and its
    /// class's scores.
    #[inline]
    pub fn score(&self, cell: usize, side: usize) -> i32 {
        let w = self.weights;
        let pats = self.side_patterns(cell, side);
        pats.iter().map(|&p| w.score[p as usize]).sum::<i32>() + w.class_score[self.class(cell, side) as usize]
    }
    /// The class index of the empty `cell` for `side` (see [`class_index`], [`index_patterns`]).
    #[inline]
    pub fn class_index(&self, cell: usize, side: usize) -> u16 {
        self.lines[cell].index[side]
    }
    /// By weighting: the sum over the empty cells of `side`'s values (see [`Weights::values`]).
    #[inline]
    pub fn value_sums(&self, side: usize) -> [i32; 2] {
        self.value_sum[side]
    }
    /// How many empty cells have class `class` for `side`.
    #[inline]
    pub fn count(&self, side: usize, class: Class) -> u32 {
        self.count[side][class as usize]
    }
    /// The empty cells where a stone of `side` makes a four or better.
    pub fn fours(&self, side: usize) -> &[u32] {
        self.fours[side].as_slice()
    }
    /// The empty cells where a stone of `side` makes an open three (or better, short of a four).
    pub fn threes(&self, side: usize) -> &[u32] {
        self.threes[side].as_slice()
    }
    /// By class: how many empty cells have it for `side`.
    #[inline]
    pub fn class_counts(&self, side: usize) -> &[u32; CLASSES] {
        &self.count[side]
    }
    pub fn k(&self) -> usize {
        self.k
    }
    pub fn weights(&self) -> &'static Weights {
        self.weights
    }
}

#[cfg(test)]
pub(super) mod tests;
