//! The endgame database: the value (win, loss or draw for the side to move, with best play and
//! without the draw rules' counts) of every position of at most [`MAX_PIECES`] pieces, by
//! retrograde analysis, for one set of rules; and, for the positions whose win takes long to
//! convert, the distance to the conversion (see [`Endgame::conversion`]).
//!
//! # Layout
//!
//! Only positions with Black to move are stored: a position with White to move is the same, for
//! the values, as the one with Black to move on the board turned half round with the colours
//! swapped ([`flip`]: square `i` to `31 - i`). Positions are grouped in classes by their
//! material: (Black men, Black kings, White men, White kings), each side with at least one
//! piece. A class's index of a position is
//!
//! ```text
//! index = ((rank(black men) * C(28, wm) + rank(white men)) * C(32 - men, bk) + rank'(black kings))
//!         * C(32 - men - bk, wk) + rank'(white kings)
//! ```
//!
//! where `rank` is the colex rank of a set of squares (sum of C(square, i + 1) over its squares in
//! increasing order, i from 0); men are counted among the 28 squares a man of their side may
//! stand on (Black's bits 0..28, White's bits 4..32 less 4), so a black man and a white man may
//! share a square in an index (such indices are unused); `rank'` ranks the kings among the
//! squares left free by the men (then by the black kings), so they never overlap. Values are
//! packed five to a byte in base 3 (draw 0, win 1, loss 2): 1.6 bits a position. For up to five
//! pieces, 151,386,376 positions in 30,277,285 bytes.
//!
//! # Build
//!
//! A class is solved together with its mirror (the colours swapped), whose positions are its
//! positions with White to move. Classes are solved in an order where every move out of a class
//! (a capture: fewer pieces; a man crowned: one man fewer, one king more) leads to a class solved
//! before: by pieces, then by men. Within a pair: each position's moves are counted; moves out of
//! the pair are looked up (one to a position lost for the opponent wins; one to a draw rules out
//! a loss); a position with no move, or only moves to won positions, is lost. Then the won and
//! lost positions are propagated back through the steps that lead to them (un-moves within the
//! class, checked to be legal: in English rules a step is illegal where a capture exists), in
//! order of their distance to the conversion (the plies to a move out of the class with best
//! play: the winner the fewest, the loser the most). What is left is drawn.

use super::movegen::{forward, Board, Capturing, Move, CROWN_ROW, NEIGHBOUR, NONE};
use crate::game::Side;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Positions of at most this many pieces can be in the database.
pub const MAX_PIECES: u32 = 5;

/// The value of a position for the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Win,
    Loss,
    Draw,
}

/// Stored values (base-3 digits).
const DRAW: u8 = 0;
const WIN: u8 = 1;
const LOSS: u8 = 2;
/// During a build: not decided yet.
const UNKNOWN: u8 = 3;
/// In the move counts of a build: a move to a drawn position exists.
const DRAW_EXIT: u8 = 0x80;

/// Wins whose conversion takes more than this many plies keep their distance (see
/// [`Endgame::conversion`]); shorter ones the search finds by itself.
pub const LONG_CONVERSION: u8 = 16;

/// C(n, k) for n <= 32, k <= 5.
const fn binomials() -> [[u32; 6]; 33] {
    let mut c = [[0u32; 6]; 33];
    let mut n = 0;
    while n <= 32 {
        c[n][0] = 1;
        let mut k = 1;
        while k <= 5 {
            c[n][k] = if n == 0 { 0 } else { c[n - 1][k - 1] + c[n - 1][k] };
            k += 1;
        }
        n += 1;
    }
    c
}
static C: [[u32; 6]; 33] = binomials();

/// The material of a class: Black men, Black kings, White men, White kings.
type Material = [usize; 4];

fn material(b: &Board) -> Material {
    [
        (b.pieces[0] & !b.kings).count_ones() as usize,
        (b.pieces[0] & b.kings).count_ones() as usize,
        (b.pieces[1] & !b.kings).count_ones() as usize,
        (b.pieces[1] & b.kings).count_ones() as usize,
    ]
}

/// The colours swapped.
fn mirror(m: &Material) -> Material {
    [m[2], m[3], m[0], m[1]]
}

/// The board turned half round with the colours swapped: White to move on `b` is Black to move
/// on `flip(b)`, with the same value.
pub fn flip(b: &Board) -> Board {
    Board { pieces: [b.pieces[1].reverse_bits(), b.pieces[0].reverse_bits()], kings: b.kings.reverse_bits() }
}

fn slot(m: &Material) -> usize {
    ((m[0] * 6 + m[1]) * 6 + m[2]) * 6 + m[3]
}

const SLOTS: usize = 6 * 6 * 6 * 6;

/// The sizes of the four factors of a class's index.
fn factors(m: &Material) -> [usize; 4] {
    let men = m[0] + m[2];
    [C[28][m[0]] as usize, C[28][m[2]] as usize, C[32 - men][m[1]] as usize, C[32 - men - m[1]][m[3]] as usize]
}

fn class_size(m: &Material) -> usize {
    factors(m).iter().product()
}

/// Colex rank of the set bits of `set`.
#[inline]
fn rank(mut set: u32) -> usize {
    let (mut r, mut i) = (0, 1);
    while set != 0 {
        let sq = set.trailing_zeros() as usize;
        set &= set - 1;
        r += C[sq][i] as usize;
        i += 1;
    }
    r
}

/// Colex rank of the set bits of `set` among the squares not in `taken` (disjoint from it).
#[inline]
fn rank_among(mut set: u32, taken: u32) -> usize {
    let (mut r, mut i) = (0, 1);
    while set != 0 {
        let sq = set.trailing_zeros();
        set &= set - 1;
        let below = (taken & ((1u32 << sq) - 1)).count_ones();
        r += C[(sq - below) as usize][i] as usize;
        i += 1;
    }
    r
}

/// The set of `k` squares (of `n`) with colex rank `r`.
fn unrank(mut r: usize, k: usize, n: usize) -> u32 {
    let mut set = 0;
    let mut top = n;
    for i in (1..=k).rev() {
        let mut sq = top - 1;
        while C[sq][i] as usize > r {
            sq -= 1;
        }
        r -= C[sq][i] as usize;
        set |= 1 << sq;
        top = sq;
    }
    set
}

/// The squares of `free` whose ranks among `free` are the set bits of `compact`.
fn expand(mut compact: u32, free: u32) -> u32 {
    let (mut out, mut f, mut at) = (0, free, 0);
    while compact != 0 {
        let want = compact.trailing_zeros();
        compact &= compact - 1;
        while at < want {
            f &= f - 1;
            at += 1;
        }
        out |= f & f.wrapping_neg();
    }
    out
}

/// The index of a position with Black to move in its class's table.
#[inline]
fn index(b: &Board, m: &Material) -> usize {
    let f = factors(m);
    let men = (b.pieces[0] | b.pieces[1]) & !b.kings;
    let (bk, wk) = (b.pieces[0] & b.kings, b.pieces[1] & b.kings);
    let i = rank(b.pieces[0] & !b.kings) * f[1] + rank((b.pieces[1] & !b.kings) >> 4);
    let i = i * f[2] + rank_among(bk, men);
    i * f[3] + rank_among(wk, men | bk)
}

/// The position (Black to move) at `index` of the class, or None where two men would share a
/// square.
fn position(index: usize, m: &Material) -> Option<Board> {
    let f = factors(m);
    let (rest, wk) = (index / f[3], index % f[3]);
    let (rest, bk) = (rest / f[2], rest % f[2]);
    let (bm, wm) = (rest / f[1], rest % f[1]);
    let bm = unrank(bm, m[0], 28);
    let wm = unrank(wm, m[2], 28) << 4;
    if bm & wm != 0 {
        return None;
    }
    let men = m[0] + m[2];
    let bk = expand(unrank(bk, m[1], 32 - men), !(bm | wm));
    let wk = expand(unrank(wk, m[3], 32 - men - m[1]), !(bm | wm | bk));
    Some(Board { pieces: [bm | bk, wm | wk], kings: bk | wk })
}

/// Base-3 packing, five values to a byte.
const POW3: [u8; 5] = [1, 3, 9, 27, 81];

fn packed_len(n: usize) -> usize {
    n.div_ceil(5)
}

fn pack(values: &[u8]) -> Vec<u8> {
    values.chunks(5).map(|c| c.iter().zip(POW3).map(|(&v, p)| v * p).sum()).collect()
}

#[inline]
fn unpack(table: &[u8], i: usize) -> u8 {
    table[i / 5] / POW3[i % 5] % 3
}

/// Where a class's long conversions are kept (the lost positions' only: a winner's move is
/// chosen by its children's distances).
enum Long {
    /// Not kept.
    Dropped,
    /// In memory: (index, plies) by index.
    Memory(Vec<(u32, u8)>),
    /// In the distances file: `count` records of 5 bytes (index, plies) from `offset`, by index.
    File { offset: u64, count: u64 },
}

/// What a class holds once built: its values, and its long conversions.
struct Class {
    values: Vec<u8>,
    long: Long,
}

/// The database of one set of rules.
pub struct Endgame {
    capturing: Capturing,
    pieces: u32,
    /// By [`slot`] of the material: the class, if it is in the database.
    classes: Vec<Option<Class>>,
    /// The memory the values and the long conversions in memory take.
    bytes: usize,
    /// The largest distance to a conversion of a decided position, in plies.
    longest: u8,
    /// The long conversions kept, in all.
    long_count: u64,
    /// The distances file, where the classes' long conversions are there.
    distances: Option<std::fs::File>,
}

/// Where a build puts the long conversions.
pub enum Keep<'a> {
    Dropped,
    Memory,
    /// Written to a distances file as the build goes (see [`DistanceWriter`]).
    File(&'a mut DistanceWriter),
}

/// The pair of classes being solved: positions `0..n0` are the class `m[0]`'s, `n0..` its
/// mirror's (none if the class is its own mirror).
struct Pair {
    m: [Material; 2],
    n0: usize,
    n: usize,
}

impl Pair {
    fn new(m: Material) -> Pair {
        let n0 = class_size(&m);
        let own = mirror(&m) == m;
        Pair { m: [m, mirror(&m)], n0, n: if own { n0 } else { 2 * n0 } }
    }

    /// The working index of a position with Black to move of material `m[t]`.
    fn at(&self, b: &Board, t: usize) -> usize {
        if t == 0 || self.n == self.n0 {
            index(b, &self.m[0])
        } else {
            self.n0 + index(b, &self.m[1])
        }
    }

    fn board(&self, i: usize) -> Option<(Board, usize)> {
        if i < self.n0 {
            position(i, &self.m[0]).map(|b| (b, 0))
        } else {
            position(i - self.n0, &self.m[1]).map(|b| (b, 1))
        }
    }
}

impl Endgame {
    /// The bytes the values of up to `pieces` pieces take.
    pub fn bytes_for(pieces: u32) -> usize {
        classes(pieces).iter().map(|m| packed_len(class_size(m))).sum()
    }

    /// Builds the database of every position of up to `pieces` (<= [`MAX_PIECES`]) pieces,
    /// with its long conversions in memory.
    pub fn build(capturing: Capturing, pieces: u32) -> Endgame {
        Endgame::build_keeping(capturing, pieces, Keep::Memory).expect("no file to write")
    }

    /// As [`Endgame::build`], the long conversions kept as `keep` says.
    pub fn build_keeping(capturing: Capturing, pieces: u32, mut keep: Keep) -> io::Result<Endgame> {
        let pieces = pieces.min(MAX_PIECES);
        let mut db = Endgame {
            capturing,
            // Probes during the build reach the classes solved so far (and a crowning keeps
            // the number of pieces).
            pieces,
            classes: Vec::new(),
            bytes: 0,
            longest: 0,
            long_count: 0,
            distances: None,
        };
        db.classes.resize_with(SLOTS, || None);
        for m in classes(pieces) {
            if db.classes[slot(&m)].is_some() {
                continue;
            }
            let pair = Pair::new(m);
            let (values, plies) = db.solve(&pair);
            for t in 0..if pair.n == pair.n0 { 1 } else { 2 } {
                let range = t * pair.n0..(t + 1) * pair.n0;
                let longest = range.clone().map(|i| if values[i] == DRAW { 0 } else { plies[i] }).max();
                db.longest = db.longest.max(longest.unwrap_or(0));
                let records: Vec<(u32, u8)> = range
                    .clone()
                    .filter(|&i| values[i] == LOSS && plies[i] > LONG_CONVERSION)
                    .map(|i| ((i - range.start) as u32, plies[i]))
                    .collect();
                db.long_count += records.len() as u64;
                let long = match &mut keep {
                    Keep::Dropped => Long::Dropped,
                    Keep::Memory => {
                        db.bytes += records.len() * std::mem::size_of::<(u32, u8)>();
                        Long::Memory(records)
                    }
                    Keep::File(w) => w.class(&pair.m[t], &records)?,
                };
                let class = Class { values: pack(&values[range]), long };
                db.bytes += class.values.len();
                db.classes[slot(&pair.m[t])] = Some(class);
            }
        }
        Ok(db)
    }

    /// The memory the database takes, in bytes.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// Positions of up to this many pieces are in the database.
    pub fn pieces(&self) -> u32 {
        self.pieces
    }

    pub fn capturing(&self) -> Capturing {
        self.capturing
    }

    /// The largest distance to a conversion of a won or lost position, in plies.
    pub fn longest_conversion(&self) -> u8 {
        self.longest
    }

    /// The long conversions (of lost positions, longer than [`LONG_CONVERSION`]) found by the
    /// build, in all.
    pub fn long_conversions(&self) -> u64 {
        self.long_count
    }

    /// The class and the index of a position, with Black to move after [`flip`] if need be;
    /// None if a side has no piece or the class is not in the database.
    fn locate(&self, b: &Board, side: Side) -> Option<(&Class, usize)> {
        let b = if side == Side::Second { flip(b) } else { *b };
        let m = material(&b);
        let class = self.classes.get(slot(&m))?.as_ref()?;
        Some((class, index(&b, &m)))
    }

    /// The value of a position for `side` to move, if its material is in the database.
    pub fn probe(&self, b: &Board, side: Side) -> Option<Value> {
        if b.pieces[side.index()] == 0 {
            return Some(Value::Loss);
        }
        if b.pieces[1 - side.index()] == 0 {
            return Some(Value::Win);
        }
        if (b.pieces[0] | b.pieces[1]).count_ones() > self.pieces {
            return None;
        }
        let (class, i) = self.locate(b, side)?;
        Some(match unpack(&class.values, i) {
            WIN => Value::Win,
            LOSS => Value::Loss,
            _ => Value::Draw,
        })
    }

    /// For a lost position: the plies to its conversion (a capture or a man crowned, the winner
    /// hastening it, the loser delaying it) if it is longer than [`LONG_CONVERSION`] and the
    /// database keeps it; `Some(0)` if it is shorter or not kept (see
    /// [`Endgame::keeps_distances`]); None if `b` is not a lost position of the database.
    pub fn conversion(&self, b: &Board, side: Side) -> Option<u8> {
        if self.probe(b, side)? != Value::Loss {
            return None;
        }
        let Some((class, i)) = self.locate(b, side) else { return Some(0) };
        let i = i as u32;
        Some(match &class.long {
            Long::Dropped => 0,
            Long::Memory(records) => records.binary_search_by_key(&i, |&(j, _)| j).map_or(0, |k| records[k].1),
            Long::File { offset, count } => self.read_distance(*offset, *count, i).unwrap_or(0),
        })
    }

    /// Whether the long conversions are kept (in memory or in the distances file).
    pub fn keeps_distances(&self) -> bool {
        self.classes.iter().flatten().all(|c| !matches!(c.long, Long::Dropped))
    }

    /// The plies of record `i` among `count` of the distances file from `offset`, by a binary
    /// search of the file.
    fn read_distance(&self, offset: u64, count: u64, i: u32) -> Option<u8> {
        use std::os::unix::fs::FileExt;
        let file = self.distances.as_ref()?;
        let (mut lo, mut hi) = (0u64, count);
        let mut record = [0u8; 5];
        while lo < hi {
            let mid = (lo + hi) / 2;
            file.read_exact_at(&mut record, offset + mid * 5).ok()?;
            let j = u32::from_le_bytes(record[..4].try_into().expect("4 bytes"));
            match j.cmp(&i) {
                std::cmp::Ordering::Equal => return Some(record[4]),
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
            }
        }
        None
    }

    /// The moves of `side` on `b` that keep its win (to a position lost for the opponent), each
    /// with the plies in which it forces a conversion at the soonest (a capture or a man
    /// crowned, by either side) against any defence, if at most `max` (checked up to `budget`
    /// nodes); None if `b` is not a won position of the database, or if `deadline` passed
    /// before the search was done.
    pub fn conversions(
        &self,
        b: &Board,
        side: Side,
        max: u8,
        budget: u64,
        deadline: Instant,
    ) -> Option<Vec<(Move, Option<u8>)>> {
        if self.probe(b, side)? != Value::Win || Instant::now() >= deadline {
            return None;
        }
        let mut search = Conversion { db: self, memo: Default::default(), nodes: 0, budget, deadline, late: false };
        let mut moves = Vec::new();
        b.generate(side, self.capturing, &mut moves);
        let mut out = Vec::new();
        for mv in moves {
            let mut after = *b;
            super::apply(&mut after, side, mv);
            if self.probe(&after, side.other()) != Some(Value::Loss) {
                continue;
            }
            let plies = if converts(b, side, mv) {
                Some(1)
            } else {
                (2..=max.max(1)).find(|&d| search.loser_within(&after, side.other(), d - 1))
            };
            out.push((mv, plies));
        }
        (!search.late).then_some(out)
    }

    /// Writes the database's values to `path` (its long conversions are in the distances file
    /// that [`DistanceWriter`] wrote), through a file beside it renamed at the end, so that a
    /// reader never sees half of one.
    pub fn save(&self, path: &Path) -> io::Result<()> {
        let mut bytes = Vec::with_capacity(self.bytes + 64);
        bytes.extend_from_slice(VALUES_MAGIC);
        bytes.extend_from_slice(&[capturing_byte(self.capturing), self.pieces as u8, LONG_CONVERSION, self.longest]);
        bytes.extend_from_slice(&self.long_count.to_le_bytes());
        for m in classes(self.pieces) {
            bytes.extend_from_slice(&self.classes[slot(&m)].as_ref().expect("a class of the database").values);
        }
        bytes.extend_from_slice(&checksum(0, &bytes).to_le_bytes());
        write_whole(path, &bytes)
    }

    /// Reads the values that [`Endgame::save`] wrote for these rules and pieces, and the long
    /// conversions from the distances file `distances` if it is one of the same build (else
    /// none are kept). An error if the values' file is not one (another version, truncated,
    /// corrupted).
    pub fn load(path: &Path, distances: Option<&Path>, capturing: Capturing, pieces: u32) -> io::Result<Endgame> {
        let bad = |what: &str| io::Error::new(io::ErrorKind::InvalidData, format!("{}: {what}", path.display()));
        let mut bytes = Vec::new();
        std::fs::File::open(path)?.read_to_end(&mut bytes)?;
        let head_len = VALUES_MAGIC.len() + 12;
        if bytes.len() < head_len + 8 || &bytes[..VALUES_MAGIC.len()] != VALUES_MAGIC {
            return Err(bad("not an endgame database of this version"));
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        if checksum(0, body).to_le_bytes() != sum {
            return Err(bad("checksum mismatch"));
        }
        let head = &body[VALUES_MAGIC.len()..head_len];
        if head[..3] != [capturing_byte(capturing), pieces as u8, LONG_CONVERSION] {
            return Err(bad("other rules or pieces"));
        }
        let long_count = u64::from_le_bytes(head[4..12].try_into().expect("8 bytes"));
        let all = classes(pieces);
        if body.len() - head_len != all.iter().map(|m| packed_len(class_size(m))).sum::<usize>() {
            return Err(bad("not the size of its classes"));
        }
        let mut db =
            Endgame { capturing, pieces, classes: Vec::new(), bytes: 0, longest: head[3], long_count, distances: None };
        db.classes.resize_with(SLOTS, || None);
        let mut at = head_len;
        for m in &all {
            let len = packed_len(class_size(m));
            db.classes[slot(m)] = Some(Class { values: body[at..at + len].to_vec(), long: Long::Dropped });
            db.bytes += len;
            at += len;
        }
        if let Some(d) = distances {
            match DistanceWriter::read_table(d, capturing, pieces, long_count) {
                Ok((file, table)) => {
                    for (m, (offset, count)) in all.iter().zip(table) {
                        db.classes[slot(m)].as_mut().expect("read above").long = Long::File { offset, count };
                    }
                    db.distances = Some(file);
                }
                Err(e) => log::warn!("checkers endgame database: no distances: {e}"),
            }
        }
        Ok(db)
    }

    /// Solves a pair of classes: the values and the plies to the conversion of its positions.
    fn solve(&self, pair: &Pair) -> (Vec<u8>, Vec<u8>) {
        let n = pair.n;
        let mut value = vec![UNKNOWN; n];
        let mut count = vec![0u8; n];
        let mut plies = vec![0u8; n];
        // Decided positions in order of their distance: those lost with no move at all (0),
        // then those decided by a move out of the class (1).
        let (mut queue, mut later) = (Vec::new(), Vec::new());
        let mut moves = Vec::with_capacity(32);
        for i in 0..n {
            let Some((b, _)) = pair.board(i) else {
                value[i] = DRAW;
                continue;
            };
            moves.clear();
            b.generate(Side::First, self.capturing, &mut moves);
            let (mut inside, mut draw, mut win, mut exits) = (0u8, false, false, false);
            for &mv in &moves {
                let man = b.kings & (1 << mv.from) == 0;
                let crowns = man && CROWN_ROW[0] & (1 << mv.to) != 0;
                if mv.captured == 0 && !crowns {
                    inside += 1;
                    continue;
                }
                exits = true;
                let mut after = b;
                super::apply(&mut after, Side::First, mv);
                match self.probe(&after, Side::Second) {
                    Some(Value::Loss) => {
                        win = true;
                        break;
                    }
                    Some(Value::Draw) => draw = true,
                    Some(Value::Win) => {}
                    None => unreachable!("a class is solved after the classes its moves lead to"),
                }
            }
            if win {
                value[i] = WIN;
                plies[i] = 1;
                later.push(i as u32);
            } else if inside == 0 && !draw {
                value[i] = LOSS;
                plies[i] = exits as u8;
                if exits {
                    later.push(i as u32);
                } else {
                    queue.push(i as u32);
                }
            } else {
                count[i] = inside | if draw { DRAW_EXIT } else { 0 };
            }
        }
        queue.append(&mut later);
        // Back from each decided position through the steps that reach it: White's steps on
        // the position with Black to move, whose position before (White to move) is, flipped,
        // a position of the other class of the pair.
        let mut head = 0;
        while head < queue.len() {
            let q = queue[head] as usize;
            head += 1;
            let (b, t) = pair.board(q).expect("a decided index is a position");
            let empty = b.empty();
            let mut pieces = b.pieces[1];
            while pieces != 0 {
                let x = pieces.trailing_zeros() as usize;
                pieces &= pieces - 1;
                let king = b.kings & (1 << x) != 0;
                for (d, &y) in NEIGHBOUR[x].iter().enumerate() {
                    // The piece came to x from y, moving in direction 3 - d.
                    if y == NONE || empty & (1 << y) == 0 {
                        continue;
                    }
                    if !king && !forward(Side::Second).contains(&(3 - d)) {
                        continue;
                    }
                    let mut before = b;
                    before.pieces[1] ^= (1 << x) | (1 << y);
                    if king {
                        before.kings ^= (1 << x) | (1 << y);
                    }
                    if self.capturing == Capturing::Complete && before.jumpers(Side::Second) != 0 {
                        continue;
                    }
                    let p = pair.at(&flip(&before), 1 - t);
                    if value[p] != UNKNOWN {
                        continue;
                    }
                    if value[q] == LOSS {
                        value[p] = WIN;
                        plies[p] = plies[q].saturating_add(1);
                        queue.push(p as u32);
                    } else {
                        count[p] -= 1;
                        if count[p] == 0 {
                            value[p] = LOSS;
                            plies[p] = plies[q].saturating_add(1);
                            queue.push(p as u32);
                        }
                    }
                }
            }
        }
        for v in &mut value {
            if *v == UNKNOWN {
                *v = DRAW;
            }
        }
        (value, plies)
    }
}

/// The values' file's first bytes (its format's version).
const VALUES_MAGIC: &[u8; 8] = b"BBCKDB02";
/// The distances file's.
const DISTANCES_MAGIC: &[u8; 8] = b"BBCKDT02";

/// The file beside `path` that is written first, then renamed to it (`NAME.tmpPID`, removed
/// at exit if still there: [`crate::cache`]).
fn temporary(path: &Path) -> PathBuf {
    crate::cache::temporary(path, "tmp")
}

/// Renames the temporary file `tmp` to `path` (removing it if that fails).
fn rename_into(tmp: &Path, path: &Path) -> io::Result<()> {
    let renamed = std::fs::rename(tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(tmp);
    });
    crate::cache::release(tmp);
    renamed
}

/// Writes `bytes` to `path` through a file beside it renamed at the end.
fn write_whole(path: &Path, bytes: &[u8]) -> io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = temporary(path);
    let mut f = std::fs::File::create(&tmp)?;
    f.write_all(bytes)?;
    f.sync_all()?;
    drop(f);
    rename_into(&tmp, path)
}

/// Writes the long conversions of a build to a distances file as the classes are solved:
/// `DISTANCES_MAGIC`, the rules, pieces and threshold (4 bytes), then each class's records
/// (index as 4 bytes little-endian, plies), then a table of (offset, count) for each class in
/// the order of [`classes`], the table's offset, and the checksum of everything before it.
pub struct DistanceWriter {
    file: io::BufWriter<std::fs::File>,
    tmp: PathBuf,
    path: PathBuf,
    at: u64,
    sum: u64,
    /// (slot, offset, count) of each class written.
    table: Vec<(usize, u64, u64)>,
    pieces: u32,
}

impl DistanceWriter {
    /// Starts the distances file `path` of a build (written beside it, renamed by
    /// [`DistanceWriter::finish`]).
    pub fn create(path: &Path, capturing: Capturing, pieces: u32) -> io::Result<DistanceWriter> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let tmp = temporary(path);
        let file = io::BufWriter::new(std::fs::File::create(&tmp)?);
        let mut w = DistanceWriter { file, tmp, path: path.to_path_buf(), at: 0, sum: 0, table: Vec::new(), pieces };
        w.write(DISTANCES_MAGIC)?;
        w.write(&[capturing_byte(capturing), pieces as u8, LONG_CONVERSION, 0])?;
        Ok(w)
    }

    fn write(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.file.write_all(bytes)?;
        self.sum = checksum(self.sum, bytes);
        self.at += bytes.len() as u64;
        Ok(())
    }

    fn class(&mut self, m: &Material, records: &[(u32, u8)]) -> io::Result<Long> {
        let offset = self.at;
        for &(i, p) in records {
            let mut r = [0u8; 5];
            r[..4].copy_from_slice(&i.to_le_bytes());
            r[4] = p;
            self.write(&r)?;
        }
        self.table.push((slot(m), offset, records.len() as u64));
        Ok(Long::File { offset, count: records.len() as u64 })
    }

    /// Ends the file and gives the database (built with [`Keep::File`] of this writer) its
    /// distances.
    pub fn finish(mut self, db: &mut Endgame) -> io::Result<()> {
        let table_at = self.at;
        let table = std::mem::take(&mut self.table);
        for m in classes(self.pieces) {
            let &(_, offset, count) = table.iter().find(|e| e.0 == slot(&m)).ok_or_else(|| {
                io::Error::new(io::ErrorKind::InvalidInput, "a distances file of a database not built whole")
            })?;
            self.write(&offset.to_le_bytes())?;
            self.write(&count.to_le_bytes())?;
        }
        self.write(&table_at.to_le_bytes())?;
        let sum = self.sum;
        self.file.write_all(&sum.to_le_bytes())?;
        let file = self.file.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        drop(file);
        rename_into(&self.tmp, &self.path)?;
        db.distances = Some(std::fs::File::open(&self.path)?);
        Ok(())
    }

    /// Opens a distances file and reads its table (checked against the rules, the pieces, the
    /// number of records and the checksum).
    fn read_table(
        path: &Path,
        capturing: Capturing,
        pieces: u32,
        records: u64,
    ) -> io::Result<(std::fs::File, Vec<(u64, u64)>)> {
        let bad = |what: &str| io::Error::new(io::ErrorKind::InvalidData, format!("{}: {what}", path.display()));
        let mut bytes = Vec::new();
        let mut file = std::fs::File::open(path)?;
        file.read_to_end(&mut bytes)?;
        let n = classes(pieces).len();
        let head = DISTANCES_MAGIC.len() + 4;
        if bytes.len() < head + 16 * n + 16 || &bytes[..DISTANCES_MAGIC.len()] != DISTANCES_MAGIC {
            return Err(bad("not a distances file of this version"));
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        if checksum(0, body).to_le_bytes() != sum {
            return Err(bad("checksum mismatch"));
        }
        if body[DISTANCES_MAGIC.len()..head - 1] != [capturing_byte(capturing), pieces as u8, LONG_CONVERSION] {
            return Err(bad("other rules or pieces"));
        }
        let word = |at: usize| u64::from_le_bytes(body[at..at + 8].try_into().expect("8 bytes"));
        let table_at = word(body.len() - 8) as usize;
        if table_at + 16 * n + 8 != body.len() {
            return Err(bad("a table of the wrong size"));
        }
        let table: Vec<(u64, u64)> = (0..n).map(|k| (word(table_at + 16 * k), word(table_at + 16 * k + 8))).collect();
        if table.iter().map(|&(_, c)| c).sum::<u64>() != records
            || table.iter().any(|&(o, c)| o < head as u64 || o + 5 * c > table_at as u64)
        {
            return Err(bad("not the distances of these values"));
        }
        Ok((file, table))
    }
}

fn capturing_byte(c: Capturing) -> u8 {
    match c {
        Capturing::Complete => 0,
        Capturing::Optional => 1,
    }
}

/// FNV-1a over the bytes, continued from `h` (0: from the start): the cache files' check.
fn checksum(h: u64, bytes: &[u8]) -> u64 {
    let h = if h == 0 { 0xcbf2_9ce4_8422_2325 } else { h };
    bytes.iter().fold(h, |h, &b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}

/// Where the values of the database of `capturing` with up to `pieces` pieces are kept between
/// runs (the distances beside them, with the extension `dtc`):
/// the engine's cache folder ([`crate::cache::dir`]; None without one: `BOARDBOT_CACHE=off`).
pub fn cache_path(capturing: Capturing, pieces: u32) -> Option<PathBuf> {
    let dir = crate::cache::dir()?;
    let rules = match capturing {
        Capturing::Complete => "english",
        Capturing::Optional => "house",
    };
    Some(dir.join(format!("checkers-{rules}-{pieces}.db")))
}

/// Whether `mv` of `side` on `b` leaves its class: a capture, or a man crowned.
fn converts(b: &Board, side: Side, mv: Move) -> bool {
    mv.captured != 0 || (b.kings & (1 << mv.from) == 0 && CROWN_ROW[side.index()] & (1 << mv.to) != 0)
}

/// The search for the soonest conversion of a won position (see [`Endgame::conversions`]).
struct Conversion<'a> {
    db: &'a Endgame,
    /// (position, side to move, plies): whether the winner converts within them.
    memo: ahash::AHashMap<(Board, bool, u8), bool>,
    nodes: u64,
    budget: u64,
    /// The search gives up at this time (the clock is read every [`CLOCK_EVERY`] nodes).
    deadline: Instant,
    /// The deadline passed: the search gave up.
    late: bool,
}

/// How often (in nodes) the conversion search reads the clock.
const CLOCK_EVERY: u64 = 256;

impl Conversion<'_> {
    /// Counts a node; false once the node budget is spent or the deadline has passed.
    fn node(&mut self) -> bool {
        if self.nodes >= self.budget {
            return false;
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(CLOCK_EVERY) && Instant::now() >= self.deadline {
            self.late = true;
            self.nodes = self.budget;
            return false;
        }
        true
    }

    /// `side` to move wins on `b`: whether it can force a conversion within `plies`.
    fn winner_within(&mut self, b: &Board, side: Side, plies: u8) -> bool {
        self.memoized(b, side, plies, |search, moves| {
            moves.iter().any(|&mv| {
                let mut after = *b;
                super::apply(&mut after, side, mv);
                search.db.probe(&after, side.other()) == Some(Value::Loss)
                    && (converts(b, side, mv) || search.loser_within(&after, side.other(), plies - 1))
            })
        })
    }

    /// `side` to move loses on `b`: whether every defence meets a conversion within `plies`.
    fn loser_within(&mut self, b: &Board, side: Side, plies: u8) -> bool {
        self.memoized(b, side, plies, |search, moves| {
            moves.iter().all(|&mv| {
                let mut after = *b;
                super::apply(&mut after, side, mv);
                converts(b, side, mv) || search.winner_within(&after, side.other(), plies - 1)
            })
        })
    }

    /// The answer for `side` to move on `b` within `plies`: the memo's, or `answer` given the
    /// legal moves (counted as a node). Within one search a position and side to move ask only
    /// one of the two questions (the winner's or the loser's: the database's value decides), so
    /// the key needs no question. An answer cut short by the budget or the deadline is "no" and
    /// is not kept.
    fn memoized(
        &mut self,
        b: &Board,
        side: Side,
        plies: u8,
        answer: impl FnOnce(&mut Self, Vec<Move>) -> bool,
    ) -> bool {
        if plies == 0 || self.nodes >= self.budget {
            return false;
        }
        let key = (*b, side == Side::First, plies);
        if let Some(&known) = self.memo.get(&key) {
            return known;
        }
        if !self.node() {
            return false;
        }
        let mut moves = Vec::new();
        b.generate(side, self.db.capturing, &mut moves);
        let found = answer(self, moves);
        if self.nodes < self.budget {
            self.memo.insert(key, found);
        }
        found
    }
}

/// Every class of up to `pieces` pieces, each side with one at least, in the order they are
/// solved: by pieces, then by men (a crowning leads to one man fewer).
fn classes(pieces: u32) -> Vec<Material> {
    let mut out = Vec::new();
    let n = pieces as usize;
    for total in 2..=n {
        for men in 0..=total {
            for bm in 0..=men {
                let wm = men - bm;
                for bk in 0..=total - men {
                    let wk = total - men - bk;
                    if bm + bk >= 1 && wm + wk >= 1 {
                        out.push([bm, bk, wm, wk]);
                    }
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_and_position_are_inverse() {
        for m in classes(4) {
            let n = class_size(&m);
            let mut seen = 0;
            for i in (0..n).step_by(7) {
                if let Some(b) = position(i, &m) {
                    assert_eq!(material(&b), m);
                    assert_eq!(index(&b, &m), i, "{m:?} {b:?}");
                    seen += 1;
                }
            }
            assert!(seen > 0, "{m:?}");
        }
    }

    #[test]
    fn flip_is_an_involution_that_swaps_the_colours() {
        let b = Board { pieces: [0x0000_0FFF, 0xFFF0_0000], kings: 0x0000_0001 };
        let f = flip(&b);
        assert_eq!(f.pieces, [0x0000_0FFF, 0xFFF0_0000]);
        assert_eq!(f.kings, 0x8000_0000);
        assert_eq!(flip(&f), b);
    }

    #[test]
    fn packing_keeps_every_value() {
        let values: Vec<u8> = (0..23).map(|i| (i * 7 % 3) as u8).collect();
        let packed = pack(&values);
        assert_eq!(packed.len(), packed_len(values.len()));
        for (i, &v) in values.iter().enumerate() {
            assert_eq!(unpack(&packed, i), v);
        }
    }
}
