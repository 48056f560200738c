//! A learned evaluation of English checkers: a small network over the pieces (NNUE-like),
//! trained on the engine's self-play (`boardbot train-net`, [`crate::net_train`]).
//!
//! # Layout
//!
//! - Inputs: for a view `v` (0: Black's, 1: White's), the 128 inputs `kind * 32 + square`, kind
//!   0 an own man, 1 an own king, 2 an opponent's man, 3 an opponent's king (own: of colour
//!   `v`), the square the bit index of [`super::movegen`] in Black's view and `31 - bit` in
//!   White's (the board turned half round, as [`super::endgame::flip`] turns it).
//! - First layer, shared by both views: `acc[v] = b1 + sum of w1[input]` over the inputs of view
//!   `v` ([`HIDDEN`] values). This is the accumulator: a move changes 2 to 4 inputs plus those of
//!   the captured pieces, and [`Accumulator::update`] applies only the changed ones.
//! - Then `h = crelu(acc[side to move]) ++ crelu(acc[opponent])` (crelu: clamped to [0, 1]),
//!   `a2 = crelu(b2 + w2 h)` ([`DENSE`] values), and the output `y = b3 + w3 . a2`, in men: the
//!   evaluation for the side to move is `100 y` (a man is 100).
//! - The layers after the accumulator come in buckets by the pieces on the board (as the
//!   output buckets of NNUE engines): a net of [`BUCKETS`] reads `w2, b2, w3, b3` of bucket
//!   [`bucket`] (at most 8 pieces, 9 to 12, 13 to 18, more); a net of one bucket reads its only
//!   one.
//!
//! # Integer inference
//!
//! The file holds the float weights; reading it quantises them: `w1`, `b1` to i16 in units of
//! 1/[`QA`] (an activation of 1 is [`QA`]), `w2` to i16 in units of 1/[`QB`], `b2` to i32 in
//! units of 1/(QA QB), `w3` to i64 in units of 1/[`QO`], `b3` in units of 1/(QA QB QO). The
//! accumulator is i16 (the file's bounds, [`W1_LIMIT`], keep any board of at most 32 pieces in
//! range), the dense part i32, the output i64. The rounding error is bounded by the test
//! `quantised_matches_float`.
//!
//! # File (version 2; version 1 is read as a net of one bucket)
//!
//! Little-endian: the 8 bytes `BBCKNET\0`, u32 version, u32 HIDDEN, u32 DENSE, u32 buckets (1
//! or [`BUCKETS`]; version 1 has no such word and one bucket), then the f32 values of w1
//! (input-major: `w1[input * HIDDEN + h]`), b1, w2 (`w2[(bucket * DENSE + j) * 2 HIDDEN + i]`),
//! b2 (`b2[bucket * DENSE + j]`), w3 (the same), b3 (one a bucket), then the u64 FNV-1a hash of
//! every byte before it.

use super::movegen::Board;
use super::Checkers;
use crate::game::Game;
use anyhow::{anyhow, bail, Result};
use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

pub const INPUTS: usize = 128;
pub const HIDDEN: usize = 64;
pub const DENSE: usize = 16;
/// Activation scale of the first layer's integers.
pub const QA: i32 = 255;
/// Weight scale of the dense layer.
pub const QB: i32 = 256;
/// Weight scale of the output.
pub const QO: i64 = 1024;
/// The largest magnitude of a first-layer weight or bias in a file (33 x 3 x 255 < 32767).
pub const W1_LIMIT: f32 = 3.0;
/// The largest magnitude of a dense weight (127 x 256 < 32767).
pub const W2_LIMIT: f32 = 127.0;
/// The largest magnitude of the other values.
pub const OTHER_LIMIT: f32 = 1.0e4;

/// The buckets of a bucketed net (see [`bucket`]).
pub const BUCKETS: usize = 4;

/// The bucket of a position with `pieces` pieces in a net of `buckets` buckets (1 or
/// [`BUCKETS`]).
#[inline(always)]
pub fn bucket(buckets: usize, pieces: u32) -> usize {
    match (buckets, pieces) {
        (1, _) => 0,
        (_, 0..=8) => 0,
        (_, 9..=12) => 1,
        (_, 13..=18) => 2,
        _ => 3,
    }
}

const MAGIC: &[u8; 8] = b"BBCKNET\0";
pub const VERSION: u32 = 2;
/// The values of a net of `buckets` buckets.
const fn params(buckets: usize) -> usize {
    INPUTS * HIDDEN + HIDDEN + buckets * (DENSE * 2 * HIDDEN + DENSE + DENSE + 1)
}
/// The size of a file of version 2 with `buckets` buckets.
pub const fn file_bytes(buckets: usize) -> usize {
    8 + 16 + 4 * params(buckets) + 8
}
/// The size of a file of version 1 (one bucket).
const V1_FILE_BYTES: usize = 8 + 12 + 4 * params(1) + 8;

/// The input of a piece of colour `colour` (0 Black), king or man, on bit `sq`, in view `v`.
#[inline(always)]
pub fn input(v: usize, colour: usize, king: bool, sq: u32) -> usize {
    let kind = 2 * (colour != v) as usize + king as usize;
    kind * 32 + if v == 0 { sq as usize } else { 31 - sq as usize }
}

/// The inputs of `b` in both views: `out[v][..n]`, and n.
pub fn inputs(b: &Board, out: &mut [[u8; 32]; 2]) -> usize {
    let mut n = 0;
    for colour in 0..2 {
        let mut p = b.pieces[colour];
        while p != 0 {
            let sq = p.trailing_zeros();
            p &= p - 1;
            if n < 32 {
                let king = b.kings & (1 << sq) != 0;
                out[0][n] = input(0, colour, king, sq) as u8;
                out[1][n] = input(1, colour, king, sq) as u8;
                n += 1;
            }
        }
    }
    n
}

/// The float network (what the trainer fits and the file holds).
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    pub buckets: usize,
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    pub w2: Vec<f32>,
    pub b2: Vec<f32>,
    pub w3: Vec<f32>,
    pub b3: Vec<f32>,
}

#[inline(always)]
pub fn crelu(x: f32) -> f32 {
    x.clamp(0.0, 1.0)
}

impl FloatNet {
    /// A net of `buckets` buckets (1 or [`BUCKETS`]), every value 0.
    pub fn zeros(buckets: usize) -> FloatNet {
        FloatNet {
            buckets,
            w1: vec![0.0; INPUTS * HIDDEN],
            b1: vec![0.0; HIDDEN],
            w2: vec![0.0; buckets * DENSE * 2 * HIDDEN],
            b2: vec![0.0; buckets * DENSE],
            w3: vec![0.0; buckets * DENSE],
            b3: vec![0.0; buckets],
        }
    }

    /// The first layer's sums of the inputs `xs`.
    pub fn accumulate(&self, xs: &[u8], acc: &mut [f32; HIDDEN]) {
        acc.copy_from_slice(&self.b1);
        for &x in xs {
            let row = &self.w1[x as usize * HIDDEN..][..HIDDEN];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
    }

    /// The output (men, for the side to move) from the accumulators of the side to move and of
    /// the opponent, with the layers of bucket `b`.
    pub fn output(&self, mine: &[f32; HIDDEN], theirs: &[f32; HIDDEN], b: usize) -> f32 {
        let h: Vec<f32> = mine.iter().chain(theirs).map(|&a| crelu(a)).collect();
        let mut y = self.b3[b];
        for j in b * DENSE..(b + 1) * DENSE {
            let row = &self.w2[j * 2 * HIDDEN..][..2 * HIDDEN];
            let z = self.b2[j] + row.iter().zip(&h).map(|(w, x)| w * x).sum::<f32>();
            y += self.w3[j] * crelu(z);
        }
        y
    }

    /// The evaluation of `b` with `side` (0 Black) to move, in hundredths of a man.
    pub fn evaluate(&self, b: &Board, side: usize) -> f32 {
        let mut xs = [[0u8; 32]; 2];
        let n = inputs(b, &mut xs);
        let (mut a0, mut a1) = ([0.0; HIDDEN], [0.0; HIDDEN]);
        self.accumulate(&xs[side][..n], &mut a0);
        self.accumulate(&xs[1 - side][..n], &mut a1);
        100.0 * self.output(&a0, &a1, bucket(self.buckets, n as u32))
    }

    fn values(&self) -> impl Iterator<Item = &f32> {
        self.w1.iter().chain(&self.b1).chain(&self.w2).chain(&self.b2).chain(&self.w3).chain(&self.b3)
    }

    /// Clamps every value into the file's bounds (the trainer calls it after each step).
    pub fn clamp_to_limits(&mut self) {
        for w in self.w1.iter_mut().chain(self.b1.iter_mut()) {
            *w = w.clamp(-W1_LIMIT, W1_LIMIT);
        }
        for w in self.w2.iter_mut() {
            *w = w.clamp(-W2_LIMIT, W2_LIMIT);
        }
        for w in self.b2.iter_mut().chain(self.w3.iter_mut()).chain(self.b3.iter_mut()) {
            *w = w.clamp(-OTHER_LIMIT, OTHER_LIMIT);
        }
    }

    /// The file's bytes (see the module's text).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(file_bytes(self.buckets));
        out.extend_from_slice(MAGIC);
        for v in [VERSION, HIDDEN as u32, DENSE as u32, self.buckets as u32] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for v in self.values() {
            out.extend_from_slice(&v.to_le_bytes());
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a file's bytes; errors say what is wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<FloatNet> {
        if bytes.len() < 20 || &bytes[..8] != MAGIC {
            bail!("not a boardbot checkers net (bad header)");
        }
        let word = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes"));
        let (version, hidden, dense) = (word(8), word(12), word(16));
        let (buckets, header, expected) = match version {
            1 => (1, 20, V1_FILE_BYTES),
            2 if bytes.len() >= 24 => match word(20) as usize {
                b @ (1 | BUCKETS) => (b, 24, file_bytes(b)),
                b => bail!("net of {b} buckets, this build reads 1 or {BUCKETS}"),
            },
            2 => bail!("net file of {} bytes (truncated?)", bytes.len()),
            _ => bail!("net file version {version}, this build reads versions 1 and {VERSION}"),
        };
        if (hidden as usize, dense as usize) != (HIDDEN, DENSE) {
            bail!("net of {hidden} x {dense} units, this build's is {HIDDEN} x {DENSE}");
        }
        if bytes.len() != expected {
            bail!("net file of {} bytes, expected {expected} (truncated?)", bytes.len());
        }
        let body = &bytes[..expected - 8];
        let sum = u64::from_le_bytes(bytes[expected - 8..].try_into().expect("8 bytes"));
        if fnv1a(body) != sum {
            bail!("net file checksum mismatch (damaged file)");
        }
        let mut vals = body[header..].chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")));
        let mut take = |n: usize| -> Vec<f32> { vals.by_ref().take(n).collect() };
        let net = FloatNet {
            buckets,
            w1: take(INPUTS * HIDDEN),
            b1: take(HIDDEN),
            w2: take(buckets * DENSE * 2 * HIDDEN),
            b2: take(buckets * DENSE),
            w3: take(buckets * DENSE),
            b3: take(buckets),
        };
        let ok = |v: &[f32], limit: f32| v.iter().all(|x| x.is_finite() && x.abs() <= limit);
        if !(ok(&net.w1, W1_LIMIT)
            && ok(&net.b1, W1_LIMIT)
            && ok(&net.w2, W2_LIMIT)
            && ok(&net.b2, OTHER_LIMIT)
            && ok(&net.w3, OTHER_LIMIT)
            && ok(&net.b3, OTHER_LIMIT))
        {
            bail!("net file has a value out of range");
        }
        Ok(net)
    }
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3))
}

/// The quantised network the search evaluates with.
#[derive(Debug)]
pub struct Net {
    /// Tells nets apart in the accumulators' cache (unique in the process).
    id: u64,
    w1: Vec<[i16; HIDDEN]>,
    b1: [i16; HIDDEN],
    buckets: usize,
    /// Bucket-major: row `bucket * DENSE + j`.
    w2: Vec<[i16; 2 * HIDDEN]>,
    b2: Vec<[i32; DENSE]>,
    w3: Vec<[i64; DENSE]>,
    b3: Vec<i64>,
    float: FloatNet,
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

impl Net {
    pub fn from_float(f: FloatNet) -> Net {
        let q = |x: f32, s: f64| (x as f64 * s).round();
        let qa = QA as f64;
        let qb = QB as f64;
        let qo = QO as f64;
        let w1 = (0..INPUTS).map(|i| std::array::from_fn(|h| q(f.w1[i * HIDDEN + h], qa) as i16)).collect();
        let b1 = std::array::from_fn(|h| q(f.b1[h], qa) as i16);
        let rows = f.buckets * DENSE;
        let w2 = (0..rows).map(|j| std::array::from_fn(|i| q(f.w2[j * 2 * HIDDEN + i], qb) as i16)).collect();
        let b2 = (0..f.buckets).map(|b| std::array::from_fn(|j| q(f.b2[b * DENSE + j], qa * qb) as i32)).collect();
        let w3 = (0..f.buckets).map(|b| std::array::from_fn(|j| q(f.w3[b * DENSE + j], qo) as i64)).collect();
        let b3 = f.b3.iter().map(|&x| q(x, qa * qb * qo) as i64).collect();
        Net { id: NEXT_ID.fetch_add(1, Ordering::Relaxed), w1, b1, buckets: f.buckets, w2, b2, w3, b3, float: f }
    }

    /// A net from a file's bytes (see the module's text).
    pub fn from_bytes(bytes: &[u8]) -> Result<Net> {
        FloatNet::from_bytes(bytes).map(Net::from_float)
    }

    /// A net from the file at `path`.
    pub fn read(path: &std::path::Path) -> Result<Net> {
        let bytes = std::fs::read(path).map_err(|e| anyhow!("cannot read the net {}: {e}", path.display()))?;
        Net::from_bytes(&bytes).map_err(|e| anyhow!("net {}: {e}", path.display()))
    }

    pub fn float(&self) -> &FloatNet {
        &self.float
    }

    /// The output for the side to move from the accumulators (mine, theirs) of a position of
    /// `pieces` pieces, in hundredths of a man.
    pub fn output(&self, mine: &[i16; HIDDEN], theirs: &[i16; HIDDEN], pieces: u32) -> i32 {
        let b = bucket(self.buckets, pieces);
        let (w2, b2, w3) = (&self.w2[b * DENSE..(b + 1) * DENSE], &self.b2[b], &self.w3[b]);
        let mut h = [0i16; 2 * HIDDEN];
        // Two loops over fixed lengths (a chained iterator is not vectorised).
        let (h0, h1) = h.split_at_mut(HIDDEN);
        for (x, &a) in h0.iter_mut().zip(mine) {
            *x = a.clamp(0, QA as i16);
        }
        for (x, &a) in h1.iter_mut().zip(theirs) {
            *x = a.clamp(0, QA as i16);
        }
        let mut out = self.b3[b];
        for j in 0..DENSE {
            let z = b2[j] + w2[j].iter().zip(&h).map(|(&w, &x)| w as i32 * x as i32).sum::<i32>();
            out += z.clamp(0, QA * QB) as i64 * w3[j];
        }
        (out * 100 / (QA as i64 * QB as i64 * QO)) as i32
    }

    /// The evaluation of `g` for the side to move, from this thread's accumulators (updated by
    /// the inputs changed since the position it last evaluated).
    pub fn evaluate(&self, g: &Checkers) -> i32 {
        ACCUMULATOR.with_borrow_mut(|acc| {
            acc.update(self, g.board());
            let s = g.to_move().index();
            let b = g.board();
            self.output(&acc.acc[s], &acc.acc[1 - s], (b.pieces[0] | b.pieces[1]).count_ones())
        })
    }

    /// The evaluation of `b` with `side` (0 Black) to move, all inputs summed afresh.
    pub fn evaluate_fresh(&self, b: &Board, side: usize) -> i32 {
        let mut acc = Accumulator::new();
        acc.refresh(self, b);
        self.output(&acc.acc[side], &acc.acc[1 - side], (b.pieces[0] | b.pieces[1]).count_ones())
    }
}

thread_local!(static ACCUMULATOR: RefCell<Accumulator> = RefCell::new(Accumulator::new()));

/// The first layer's sums of a position in both views, and the pieces they are of (by kind:
/// Black's men, Black's kings, White's men, White's kings) and the net's id.
///
/// Invariant: `acc[v]` is `b1` plus the rows of the inputs of `pieces` in view `v`, for the net
/// `net` (0: none yet).
#[derive(Clone, Debug)]
pub struct Accumulator {
    pub acc: [[i16; HIDDEN]; 2],
    pieces: [u32; 4],
    net: u64,
}

/// Changed pieces beyond which a refresh is cheaper than the changes.
const REFRESH_CHANGES: u32 = 12;

fn kinds(b: &Board) -> [u32; 4] {
    let (p, k) = (b.pieces, b.kings);
    [p[0] & !k, p[0] & k, p[1] & !k, p[1] & k]
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator::new()
    }
}

impl Accumulator {
    pub fn new() -> Accumulator {
        Accumulator { acc: [[0; HIDDEN]; 2], pieces: [0; 4], net: 0 }
    }

    /// Sums every input of `b` afresh.
    pub fn refresh(&mut self, net: &Net, b: &Board) {
        self.acc = [net.b1; 2];
        self.pieces = [0; 4];
        self.net = net.id;
        self.apply(net, kinds(b), true);
    }

    /// Brings the sums to `b` by the inputs that changed since the last position (a refresh if
    /// the net changed or many pieces did).
    pub fn update(&mut self, net: &Net, b: &Board) {
        let now = kinds(b);
        if self.net != net.id {
            return self.refresh(net, b);
        }
        let changed: u32 = (0..4).map(|k| (now[k] ^ self.pieces[k]).count_ones()).sum();
        if changed == 0 {
            return;
        }
        if changed > REFRESH_CHANGES {
            return self.refresh(net, b);
        }
        let gone: [u32; 4] = std::array::from_fn(|k| self.pieces[k] & !now[k]);
        let new: [u32; 4] = std::array::from_fn(|k| now[k] & !self.pieces[k]);
        self.apply(net, gone, false);
        self.apply(net, new, true);
    }

    /// Adds (or subtracts) the inputs of the pieces `by_kind` and records them as present (or
    /// gone).
    fn apply(&mut self, net: &Net, by_kind: [u32; 4], add: bool) {
        for (kind, &bits) in by_kind.iter().enumerate() {
            let (colour, king) = (kind / 2, kind % 2 == 1);
            let mut p = bits;
            while p != 0 {
                let sq = p.trailing_zeros();
                p &= p - 1;
                for v in 0..2 {
                    let row = &net.w1[input(v, colour, king, sq)];
                    let acc = &mut self.acc[v];
                    if add {
                        for (a, w) in acc.iter_mut().zip(row) {
                            *a = a.wrapping_add(*w);
                        }
                    } else {
                        for (a, w) in acc.iter_mut().zip(row) {
                            *a = a.wrapping_sub(*w);
                        }
                    }
                }
            }
            if add {
                self.pieces[kind] |= bits;
            } else {
                self.pieces[kind] &= !bits;
            }
        }
    }
}

/// The bytes of the net shipped with the engine (English rules).
pub static ENGLISH_NET: &[u8] = include_bytes!("net/english.net");

/// The shipped net, read once.
pub fn english() -> Arc<Net> {
    static NET: OnceLock<Arc<Net>> = OnceLock::new();
    NET.get_or_init(|| Arc::new(Net::from_bytes(ENGLISH_NET).expect("the shipped net reads"))).clone()
}

/// Whether English checkers evaluates with the shipped net unless told otherwise.
pub const DEFAULT_NET: bool = true;

/// Whether `bytes` start as a checkers net file does (its header; the rest is checked by
/// [`Net::from_bytes`]).
pub fn is_net_file(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::checkers::{fen, Rules};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// A net of random weights, larger than a trainer's start so that every unit is used.
    fn random_net(seed: u64) -> FloatNet {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut n = FloatNet::zeros(BUCKETS);
        let mut fill = |v: &mut [f32], r: f32, c: f32| v.iter_mut().for_each(|w| *w = c + rng.gen_range(-r..r));
        fill(&mut n.w1, 0.3, 0.0);
        fill(&mut n.b1, 0.3, 0.4);
        fill(&mut n.w2, 0.3, 0.0);
        fill(&mut n.b2, 0.3, 0.2);
        fill(&mut n.w3, 1.0, 0.0);
        fill(&mut n.b3, 0.1, 0.0);
        n
    }

    /// Positions of random games, with play and undo mixed in (captures and crownings happen).
    fn walk(seed: u64, mut visit: impl FnMut(&Checkers)) {
        let mut rng = StdRng::seed_from_u64(seed);
        for _ in 0..30 {
            let mut g = Checkers::new(Rules::English);
            let mut moves = Vec::new();
            for _ in 0..150 {
                moves.clear();
                g.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                if g.moves_played() > 2 && rng.gen_range(0..5) == 0 {
                    g.undo();
                } else {
                    g.play(moves[rng.gen_range(0..moves.len())]);
                }
                visit(&g);
            }
        }
    }

    #[test]
    fn incremental_accumulator_equals_a_fresh_sum() {
        let net = Net::from_float(random_net(1));
        let mut acc = Accumulator::new();
        let (mut kings, mut captures, mut n) = (false, false, 0);
        let mut last = 24;
        walk(2, |g| {
            let b = g.board();
            acc.update(&net, b);
            let mut fresh = Accumulator::new();
            fresh.refresh(&net, b);
            assert_eq!(acc.acc, fresh.acc, "position {}", fen::write(g));
            let s = g.to_move().index();
            assert_eq!(net.evaluate(g), net.evaluate_fresh(b, s));
            kings |= b.kings != 0;
            let count = (b.pieces[0] | b.pieces[1]).count_ones();
            captures |= count < last;
            last = count;
            n += 1;
        });
        assert!(kings && captures && n > 1000);
    }

    /// The rounding of the integer inference stays within 8 hundredths of a man of the float
    /// model's value, for random nets and the shipped one.
    #[test]
    fn quantised_matches_float() {
        let nets = [random_net(3), random_net(4), FloatNet::from_bytes(ENGLISH_NET).unwrap()];
        for f in nets {
            let net = Net::from_float(f.clone());
            let mut worst = 0.0f32;
            walk(5, |g| {
                let s = g.to_move().index();
                let (q, x) = (net.evaluate_fresh(g.board(), s) as f32, f.evaluate(g.board(), s));
                worst = worst.max((q - x).abs());
            });
            eprintln!("worst difference {worst}");
            assert!(worst <= 8.0, "worst difference {worst}");
        }
    }

    #[test]
    fn the_file_round_trips() {
        let f = random_net(6);
        let bytes = f.to_bytes();
        assert_eq!(bytes.len(), file_bytes(BUCKETS));
        assert_eq!(FloatNet::from_bytes(&bytes).unwrap(), f);
        // A net of version 1 reads as one bucket, and writes as version 2 the same values.
        let mut v1 = random_net(6);
        (v1.buckets, v1.b3) = (1, vec![0.25]);
        v1.w2.truncate(DENSE * 2 * HIDDEN);
        v1.b2.truncate(DENSE);
        v1.w3.truncate(DENSE);
        let mut old = b"BBCKNET\0".to_vec();
        for w in [1u32, HIDDEN as u32, DENSE as u32] {
            old.extend_from_slice(&w.to_le_bytes());
        }
        v1.values().for_each(|v| old.extend_from_slice(&v.to_le_bytes()));
        old.extend_from_slice(&fnv1a(&old).to_le_bytes());
        assert_eq!(old.len(), V1_FILE_BYTES);
        assert_eq!(FloatNet::from_bytes(&old).unwrap(), v1);
        assert_eq!(FloatNet::from_bytes(&v1.to_bytes()).unwrap(), v1);
        let shipped = FloatNet::from_bytes(ENGLISH_NET).unwrap();
        assert_eq!(FloatNet::from_bytes(&shipped.to_bytes()).unwrap(), shipped);
    }

    /// Each bucket's layers serve the positions of its piece counts, and no other.
    #[test]
    fn the_bucket_follows_the_pieces() {
        let counts: Vec<usize> = (2..=24).map(|p| bucket(BUCKETS, p)).collect();
        assert!(counts.windows(2).all(|w| w[0] <= w[1]) && counts[0] == 0 && counts[22] == BUCKETS - 1);
        assert!((0..=24).all(|p| bucket(1, p) == 0));
        let g = fen::parse(Rules::English, "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29").unwrap();
        let (f, b) = (random_net(10), bucket(BUCKETS, 12));
        let before = f.evaluate(g.board(), 0);
        let mut other = f.clone();
        other.b3[(b + 1) % BUCKETS] += 1.0;
        assert_eq!(other.evaluate(g.board(), 0), before);
        other.b3[b] += 1.0;
        assert!((other.evaluate(g.board(), 0) - before - 100.0).abs() < 1e-3);
    }

    #[test]
    fn a_bad_file_is_refused_clearly() {
        let bytes = random_net(7).to_bytes();
        let err = |b: &[u8]| FloatNet::from_bytes(b).unwrap_err().to_string();
        assert!(err(&bytes[..bytes.len() - 100]).contains("truncated"));
        assert!(err(&bytes[..10]).contains("header"));
        assert!(err(b"hello world, not a net at all").contains("header"));
        let mut damaged = bytes.clone();
        damaged[500] ^= 1;
        assert!(err(&damaged).contains("checksum"));
        let mut version = bytes.clone();
        version[8] = 9;
        assert!(err(&version).contains("version"));
        let mut big = random_net(7);
        big.w1[0] = 100.0;
        assert!(err(&big.to_bytes()).contains("range"));
        // A missing file: an error naming it.
        let e = Net::read(std::path::Path::new("/nonexistent/x.net")).unwrap_err().to_string();
        assert!(e.contains("/nonexistent/x.net"), "{e}");
    }

    /// The knowledge takes a net file of its kind (English rules), leaves other files and the
    /// house rules alone, and keeps its net when a file of its kind is damaged.
    #[test]
    fn the_knowledge_sets_its_net_from_a_file() {
        use crate::game::any::Resources;
        use crate::game::checkers::CheckersKnowledge;
        use crate::search::RootKnowledge;
        let mut k = CheckersKnowledge::new(Rules::English, &Resources::none());
        assert_eq!(k.net().is_some(), DEFAULT_NET);
        let bytes = random_net(9).to_bytes();
        assert!(k.set_net(Some(&bytes)).unwrap());
        let id = k.net().unwrap().id;
        assert!(k.set_net(Some(&bytes[..bytes.len() - 1])).unwrap_err().to_string().contains("truncated"));
        assert!(!k.set_net(Some(b"game weights\n")).unwrap());
        assert_eq!(k.net().unwrap().id, id, "unchanged by a bad file or another kind of file");
        assert!(k.set_net(None).unwrap());
        assert!(k.net().is_none());
        let mut house = CheckersKnowledge::new(Rules::House, &Resources::none());
        assert!(!house.set_net(Some(&bytes)).unwrap());
        assert!(house.net().is_none());
    }

    #[test]
    fn the_knowledge_evaluates_with_the_net() {
        use crate::game::any::Resources;
        use crate::game::checkers::CheckersKnowledge;
        use crate::search::Knowledge;
        let g = fen::parse(Rules::English, "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29").unwrap();
        let net = Arc::new(Net::from_float(random_net(8)));
        let k = CheckersKnowledge::new(Rules::English, &Resources::none()).with_net(Some(net.clone()));
        assert_eq!(k.evaluate(&g), net.evaluate_fresh(g.board(), 0));
        let plain = CheckersKnowledge::new(Rules::English, &Resources::none()).with_net(None);
        assert_eq!(plain.evaluate(&g), crate::game::checkers::eval::evaluate(&g));
    }
}
