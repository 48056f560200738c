//! `boardbot train-net`: fits the checkers network ([`crate::game::checkers::net`]) to self-play
//! positions (`boardbot selfplay checkers english ...`) and writes it in the engine's net format.
//!
//! Each position where the side to move has no capture (the positions the search evaluates) and
//! more pieces than the endgame databases hold is a sample. Its target, for the side to move, is
//! `lambda * result + (1 - lambda) * sigmoid(score / S)` (the game's result and the search's
//! score blended), and the prediction `sigmoid(E / S)` of the net's evaluation E; the loss is the
//! mean squared difference. The scale S is fitted first to the tuned features' evaluation
//! against the results (a golden-section search), so that the net keeps the engine's units (a
//! man is about 100). The games that [`crate::tune::validates`] picks are held
//! out. Adam with mini-batches, the order and the initial weights drawn from `--seed`: a run is
//! reproducible. The net of the best held-out loss is written.

use crate::game::checkers::endgame::MAX_PIECES;
use crate::game::checkers::eval;
use crate::game::checkers::net::{self, FloatNet, DENSE, HIDDEN};
use crate::game::checkers::{fen, packing, Board, Checkers, Rules};
use crate::game::{Game, Side};
use crate::selfplay::{self, binary};
use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Instant;

/// Trains the checkers evaluation network on self-play positions.
#[derive(Args, Clone, Debug)]
pub struct TrainNetArgs {
    /// Self-play files of English checkers (`boardbot selfplay checkers english --out`), text or
    /// binary (`--format bin`), one or more (a run's shards, or several runs).
    #[arg(long, value_name = "FILE", num_args = 1.., required = true)]
    pub data: Vec<PathBuf>,
    /// The net file to write.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Seed of the initial weights and of the batches' order.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 30)]
    pub epochs: usize,
    /// Weight of the game's result in the target (the rest: the search's score).
    #[arg(long, default_value_t = 0.5)]
    pub lambda: f64,
    /// Adam's step size (halved at 50% and at 75% of the epochs).
    #[arg(long, default_value_t = 0.002)]
    pub lr: f64,
    /// Output buckets by the pieces on the board: 1, or 4 (see the net's `bucket`).
    #[arg(long, default_value_t = net::BUCKETS)]
    pub buckets: usize,
    /// Positions a batch.
    #[arg(long, default_value_t = 512)]
    pub batch: usize,
    /// Percent of the games held out to validate.
    #[arg(long, default_value_t = 10)]
    pub validation: u32,
    /// No progress on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

/// A position as the trainer sees it: the inputs in the side to move's view and the opponent's,
/// its target, and the tuned features' evaluation (for comparison).
#[derive(Clone)]
pub struct Sample {
    pub xs: [[u8; 32]; 2],
    pub n: u8,
    pub target: f32,
    pub features_eval: f32,
}

/// A position of the data: its game (the file's number), board and side to move, the result
/// for the side to move (1, 1/2, 0) and the search's score (side to move's view).
struct Read {
    game: usize,
    board: Board,
    side: Side,
    result: f64,
    score: Option<i32>,
}

/// The positions of one self-play file's bytes (text or binary), checked to be of English
/// checkers; `name` names the file in errors.
fn read_positions(name: &str, bytes: &[u8], out: &mut Vec<Read>) -> Result<()> {
    let of_english = |header: &str| match selfplay::header_value(header, "game") {
        Some(g) if g != "checkers english" => bail!("{name}: the data is not of English checkers but {g}"),
        _ => Ok(()),
    };
    let result_for = |first: f64, side: Side| if side == Side::First { first } else { 1.0 - first };
    if let Ok((header, size, at)) = binary::split(bytes) {
        of_english(&header)?;
        if size != binary::FIXED + packing::BYTES {
            bail!("{name}: records of {size} bytes, not checkers' {}", binary::FIXED + packing::BYTES);
        }
        for r in binary::records(&bytes[at..], size).map_err(|e| anyhow!("{name}: {e}"))? {
            let (board, side) =
                packing::unpack_board(&r.position).map_err(|e| anyhow!("{name}: game {}: {e}", r.game))?;
            let result = result_for(r.first_player_score(), side);
            out.push(Read { game: r.game as usize, board, side, result, score: r.score });
        }
        return Ok(());
    }
    let text = std::str::from_utf8(bytes).map_err(|_| anyhow!("{name}: neither a text nor a binary self-play file"))?;
    let (header, records) = selfplay::read(text).map_err(|e| anyhow!("{name}: {e}"))?;
    of_english(&header)?;
    for r in &records {
        let Some(fen_text) = r.position.strip_prefix("fen ") else {
            bail!("{name}: game {}: positions must be FENs", r.game);
        };
        let g = fen::parse(Rules::English, fen_text).map_err(|e| anyhow!("{name}: game {}: {e}", r.game))?;
        let (board, side) = (*g.board(), g.to_move());
        out.push(Read { game: r.game, board, side, result: result_for(r.result, side), score: r.score });
    }
    Ok(())
}

/// What [`samples`] made of the data.
pub struct Samples {
    pub train: Vec<Sample>,
    pub valid: Vec<Sample>,
    /// The scale S of the targets' sigmoid.
    pub s: f64,
    /// Positions read, and skipped (a capture to make, the databases' range, or over).
    pub read: usize,
    pub skipped: usize,
    /// The positions kept that repeat one kept before (each merged into it: its target the mean).
    pub repeats: usize,
}

/// The samples of self-play files, given as (name, bytes).
///
/// A position found more than once (the same pieces and side to move, in any game or file) is
/// one sample whose target is the mean of its targets, held out if its first occurrence's game
/// is: no position is on both sides, and the openings' positions weigh as one each.
pub fn samples(files: &[(String, Vec<u8>)], lambda: f64, validation: u32) -> Result<Samples> {
    let mut all = Vec::new();
    for (name, bytes) in files {
        read_positions(name, bytes, &mut all)?;
    }
    let read = all.len();
    let position = |r: &Read| Checkers::from_board(Rules::English, r.board, r.side);
    all.retain(|r| {
        let g = position(r);
        !(g.can_capture()
            || (r.board.pieces[0] | r.board.pieces[1]).count_ones() <= MAX_PIECES
            || g.outcome().is_some())
    });
    let skipped = read - all.len();
    // The scale of the tuned features (a man is 100), so that the net learns the same units: fitted
    // on at most a million positions spread over the data.
    let step = all.len().div_ceil(1_000_000).max(1);
    let pairs: Vec<(f64, f64)> =
        all.iter().step_by(step).map(|r| (eval::evaluate(&position(r)) as f64, r.result)).collect();
    let s = fit_scale(&pairs);
    // Repeats merged: (first occurrence, sum of targets, count) by position.
    let mut index: HashMap<(u32, u32, u32, Side), usize> = HashMap::with_capacity(all.len());
    let mut merged: Vec<(usize, f64, u32)> = Vec::new();
    for (i, r) in all.iter().enumerate() {
        let target = match r.score {
            Some(sc) => lambda * r.result + (1.0 - lambda) * sigmoid(sc as f64 / s),
            None => r.result,
        };
        let key = (r.board.pieces[0], r.board.pieces[1], r.board.kings, r.side);
        match index.get(&key) {
            Some(&m) => {
                merged[m].1 += target;
                merged[m].2 += 1;
            }
            None => {
                index.insert(key, merged.len());
                merged.push((i, target, 1));
            }
        }
    }
    drop(index);
    let repeats = all.len() - merged.len();
    let (mut train, mut valid) = (Vec::new(), Vec::new());
    for (i, sum, count) in merged {
        let r = &all[i];
        let mut xs = [[0u8; 32]; 2];
        let n = net::inputs(&r.board, &mut xs);
        let xs = if r.side == Side::First { xs } else { [xs[1], xs[0]] };
        let features_eval = eval::evaluate(&position(r)) as f32;
        let sample = Sample { xs, n: n as u8, target: (sum / count as f64) as f32, features_eval };
        if crate::tune::validates(r.game, validation) {
            valid.push(sample);
        } else {
            train.push(sample);
        }
    }
    Ok(Samples { train, valid, s, read, skipped, repeats })
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The scale S minimising the mean of (result - sigmoid(score / S))^2 (golden section on log S).
fn fit_scale(pairs: &[(f64, f64)]) -> f64 {
    let err = |ls: f64| {
        let s = ls.exp();
        pairs.iter().map(|&(sc, r)| (r - sigmoid(sc.clamp(-3000.0, 3000.0) / s)).powi(2)).sum::<f64>()
    };
    if pairs.is_empty() {
        return 150.0;
    }
    let (mut a, mut b) = (10f64.ln(), 3000f64.ln());
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let (c, d) = (b - phi * (b - a), a + phi * (b - a));
        if err(c) < err(d) {
            b = d;
        } else {
            a = c;
        }
    }
    ((a + b) / 2.0).exp()
}

/// The loss of predictions `e` (hundredths of a man) against the samples' targets at scale S.
pub fn loss_of(samples: &[Sample], s: f64, e: impl Fn(&Sample) -> f32) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    samples.iter().map(|x| (x.target as f64 - sigmoid(e(x) as f64 / s)).powi(2)).sum::<f64>() / samples.len() as f64
}

/// The float net's evaluation of a sample (hundredths of a man).
pub fn predict(n: &FloatNet, x: &Sample) -> f32 {
    let (mut a, mut b) = ([0.0; HIDDEN], [0.0; HIDDEN]);
    n.accumulate(&x.xs[0][..x.n as usize], &mut a);
    n.accumulate(&x.xs[1][..x.n as usize], &mut b);
    100.0 * n.output(&a, &b, net::bucket(n.buckets, x.n as u32))
}

/// A net of small random weights from `seed`.
pub fn initial(seed: u64, buckets: usize) -> FloatNet {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut n = FloatNet::zeros(buckets);
    let mut fill = |v: &mut [f32], r: f32, c: f32| v.iter_mut().for_each(|w| *w = c + rng.gen_range(-r..r));
    fill(&mut n.w1, 0.1, 0.0);
    fill(&mut n.b1, 0.1, 0.3);
    fill(&mut n.w2, 1.0 / (2.0 * HIDDEN as f32).sqrt(), 0.0);
    fill(&mut n.b2, 0.1, 0.2);
    fill(&mut n.w3, 1.0 / (DENSE as f32).sqrt(), 0.0);
    n
}

/// Adam's state over the values of a net (in the order of [`FloatNet`]'s fields).
struct Adam {
    m: FloatNet,
    v: FloatNet,
    t: i32,
}

fn fields(n: &mut FloatNet) -> [&mut [f32]; 6] {
    [&mut n.w1, &mut n.b1, &mut n.w2, &mut n.b2, &mut n.w3, &mut n.b3]
}

impl Adam {
    fn step(&mut self, net: &mut FloatNet, grad: &mut FloatNet, lr: f64) {
        self.t += 1;
        let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
        let c1 = 1.0 - b1.powi(self.t);
        let c2 = 1.0 - b2.powi(self.t);
        let lr = lr as f32;
        for (((w, g), m), v) in
            fields(net).into_iter().zip(fields(grad)).zip(fields(&mut self.m)).zip(fields(&mut self.v))
        {
            for i in 0..w.len() {
                m[i] = b1 * m[i] + (1.0 - b1) * g[i];
                v[i] = b2 * v[i] + (1.0 - b2) * g[i] * g[i];
                w[i] -= lr * (m[i] / c1) / ((v[i] / c2).sqrt() + eps);
                g[i] = 0.0;
            }
        }
        net.clamp_to_limits();
    }
}

/// Adds the gradient of one sample's loss to `g`; returns its loss.
// Index loops: the layers' arrays are walked in step.
#[allow(clippy::needless_range_loop)]
fn backprop(n: &FloatNet, x: &Sample, s: f32, g: &mut FloatNet) -> f32 {
    let xs = [&x.xs[0][..x.n as usize], &x.xs[1][..x.n as usize]];
    let mut acc = [[0.0f32; HIDDEN]; 2];
    n.accumulate(xs[0], &mut acc[0]);
    n.accumulate(xs[1], &mut acc[1]);
    let h: Vec<f32> = acc[0].iter().chain(&acc[1]).map(|&a| net::crelu(a)).collect();
    // The rows of the position's bucket: j runs over them.
    let bucket = net::bucket(n.buckets, x.n as u32);
    let rows = bucket * DENSE..(bucket + 1) * DENSE;
    let mut z2 = [0.0f32; DENSE];
    let mut y = n.b3[bucket];
    for (k, j) in rows.clone().enumerate() {
        let row = &n.w2[j * 2 * HIDDEN..][..2 * HIDDEN];
        z2[k] = n.b2[j] + row.iter().zip(&h).map(|(w, v)| w * v).sum::<f32>();
        y += n.w3[j] * net::crelu(z2[k]);
    }
    let p = 1.0 / (1.0 + (-100.0 * y / s).exp());
    let d = p - x.target;
    let dy = 2.0 * d * p * (1.0 - p) * 100.0 / s;
    g.b3[bucket] += dy;
    let mut dh = [0.0f32; 2 * HIDDEN];
    for (k, j) in rows.enumerate() {
        let a2 = net::crelu(z2[k]);
        g.w3[j] += dy * a2;
        if z2[k] <= 0.0 || z2[k] >= 1.0 {
            continue;
        }
        let dz = dy * n.w3[j];
        g.b2[j] += dz;
        let row = &n.w2[j * 2 * HIDDEN..][..2 * HIDDEN];
        let grow = &mut g.w2[j * 2 * HIDDEN..][..2 * HIDDEN];
        for i in 0..2 * HIDDEN {
            grow[i] += dz * h[i];
            dh[i] += dz * row[i];
        }
    }
    for v in 0..2 {
        let mut da = [0.0f32; HIDDEN];
        for k in 0..HIDDEN {
            let a = acc[v][k];
            if a > 0.0 && a < 1.0 {
                da[k] = dh[v * HIDDEN + k];
            }
        }
        for k in 0..HIDDEN {
            g.b1[k] += da[k];
        }
        for &f in xs[v] {
            let row = &mut g.w1[f as usize * HIDDEN..][..HIDDEN];
            for k in 0..HIDDEN {
                row[k] += da[k];
            }
        }
    }
    d * d
}

/// What a training run did, epoch by epoch.
pub struct Trained {
    pub net: FloatNet,
    /// (epoch, training loss, held-out loss) of each epoch.
    pub epochs: Vec<(usize, f64, f64)>,
    pub best_epoch: usize,
}

/// Trains a net on `train`, keeping the one of the best loss on `valid` (the last one if `valid`
/// is empty).
pub fn train(
    train: &[Sample],
    valid: &[Sample],
    s: f64,
    args: &TrainNetArgs,
    mut report: impl FnMut(usize, f64, f64),
) -> Trained {
    let mut net = initial(args.seed, args.buckets);
    let mut rng = StdRng::seed_from_u64(args.seed ^ 0x5EED);
    let zeros = || FloatNet::zeros(args.buckets);
    let mut adam = Adam { m: zeros(), v: zeros(), t: 0 };
    let mut grad = zeros();
    let mut order: Vec<usize> = (0..train.len()).collect();
    let (mut best, mut best_loss, mut best_epoch) = (net.clone(), f64::INFINITY, 0);
    let mut epochs = Vec::new();
    for epoch in 1..=args.epochs {
        order.shuffle(&mut rng);
        let lr = args.lr
            * if epoch * 4 > args.epochs * 3 {
                0.25
            } else if epoch * 2 > args.epochs {
                0.5
            } else {
                1.0
            };
        let mut total = 0.0;
        for chunk in order.chunks(args.batch.max(1)) {
            for &i in chunk {
                total += backprop(&net, &train[i], s as f32, &mut grad) as f64;
            }
            let scale = 1.0 / chunk.len() as f32;
            for w in fields(&mut grad) {
                w.iter_mut().for_each(|x| *x *= scale);
            }
            adam.step(&mut net, &mut grad, lr);
        }
        let train_loss = total / train.len().max(1) as f64;
        let valid_loss = loss_of(valid, s, |x| predict(&net, x));
        report(epoch, train_loss, valid_loss);
        epochs.push((epoch, train_loss, valid_loss));
        if valid.is_empty() || valid_loss < best_loss {
            (best, best_loss, best_epoch) = (net.clone(), valid_loss, epoch);
        }
    }
    Trained { net: best, epochs, best_epoch }
}

/// Runs `boardbot train-net`.
pub fn run(args: TrainNetArgs) -> Result<()> {
    if args.validation > 50 {
        bail!("--validation is a percent of the games, at most 50");
    }
    if args.buckets != 1 && args.buckets != net::BUCKETS {
        bail!("--buckets is 1 or {}", net::BUCKETS);
    }
    if !(0.0..=1.0).contains(&args.lambda) {
        bail!("--lambda is between 0 and 1");
    }
    let start = Instant::now();
    let mut files = Vec::new();
    for path in &args.data {
        let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        files.push((path.display().to_string(), bytes));
    }
    let Samples { train: train_set, valid, s, read, skipped, repeats } = samples(&files, args.lambda, args.validation)?;
    drop(files);
    if train_set.is_empty() {
        bail!("no training positions in the data");
    }
    eprintln!(
        "{read} positions read: {} training and {} held-out ({skipped} skipped: a capture to make, {} pieces or fewer, or over; {repeats} repeats merged); S = {s:.1}",
        train_set.len(),
        valid.len(),
        MAX_PIECES
    );
    eprintln!(
        "tuned features: training loss {:.6}, held-out loss {:.6}",
        loss_of(&train_set, s, |x| x.features_eval),
        loss_of(&valid, s, |x| x.features_eval)
    );
    let quiet = args.quiet;
    let trained = train(&train_set, &valid, s, &args, |e, t, v| {
        if !quiet {
            eprintln!("epoch {e}: training loss {t:.6}, held-out loss {v:.6} ({:.0} s)", start.elapsed().as_secs_f64());
        }
    });
    let bytes = trained.net.to_bytes();
    std::fs::write(&args.out, &bytes).with_context(|| format!("cannot write {}", args.out.display()))?;
    let best = trained.epochs[trained.best_epoch - 1];
    println!(
        "wrote {} ({} bytes): epoch {} of {}, training loss {:.6}, held-out loss {:.6}, {:.1} s",
        args.out.display(),
        bytes.len(),
        trained.best_epoch,
        args.epochs,
        best.1,
        best.2,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(epochs: usize) -> TrainNetArgs {
        TrainNetArgs {
            data: Vec::new(),
            out: PathBuf::new(),
            seed: 7,
            epochs,
            lambda: 0.5,
            lr: 0.01,
            batch: 32,
            buckets: net::BUCKETS,
            validation: 0,
            quiet: true,
        }
    }

    /// Samples whose target is the material balance's sigmoid: the trainer must learn it.
    fn material_samples(count: usize, seed: u64) -> Vec<Sample> {
        let mut rng = StdRng::seed_from_u64(seed);
        (0..count)
            .map(|_| {
                let mut b = crate::game::checkers::Board { pieces: [0, 0], kings: 0 };
                for _ in 0..rng.gen_range(6..20) {
                    let sq = rng.gen_range(0..32);
                    let c = rng.gen_range(0..2);
                    if (b.pieces[0] | b.pieces[1]) & (1 << sq) == 0 {
                        b.pieces[c] |= 1 << sq;
                    }
                }
                let mut xs = [[0u8; 32]; 2];
                let n = net::inputs(&b, &mut xs);
                let lead = b.pieces[0].count_ones() as f64 - b.pieces[1].count_ones() as f64;
                Sample { xs, n: n as u8, target: sigmoid(100.0 * lead / 150.0) as f32, features_eval: 0.0 }
            })
            .collect()
    }

    #[test]
    fn a_tiny_run_learns_material() {
        let data = material_samples(2000, 1);
        let before = loss_of(&data, 150.0, |x| predict(&initial(7, net::BUCKETS), x));
        let trained = train(&data, &[], 150.0, &args(8), |_, _, _| {});
        let after = loss_of(&data, 150.0, |x| predict(&trained.net, x));
        assert!(after < before / 4.0, "loss {before} -> {after}");
        // Reproducible from the seed.
        assert_eq!(train(&data, &[], 150.0, &args(8), |_, _, _| {}).net, trained.net);
    }

    #[test]
    fn the_scale_is_fitted() {
        let mut rng = StdRng::seed_from_u64(3);
        let pairs: Vec<(f64, f64)> = (0..20000)
            .map(|_| {
                let sc = rng.gen_range(-600.0..600.0);
                (sc, if rng.gen::<f64>() < sigmoid(sc / 200.0) { 1.0 } else { 0.0 })
            })
            .collect();
        let s = fit_scale(&pairs);
        assert!((s - 200.0).abs() < 30.0, "S = {s}");
    }

    #[test]
    fn samples_read_a_selfplay_file() {
        let text = "# game checkers english\n1\t1/2\t1-0\t10\tfen B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12\n1\t2/2\t1-0\t-\tfen W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,16\n";
        let file = |text: &str| vec![("data".to_string(), text.as_bytes().to_vec())];
        let got = samples(&file(text), 0.5, 0).unwrap();
        assert_eq!((got.train.len(), got.valid.len(), got.skipped, got.read), (2, 0, 0, 2));
        // The second: White to move, lost: target 0 (no score).
        assert_eq!(got.train[1].target, 0.0);
        assert_eq!(got.train[0].n, 24);
        assert!(samples(&file("# game checkers house\n"), 0.5, 0).is_err());
    }

    /// A binary file reads as its text does, and a position found twice is one sample of the
    /// mean target.
    #[test]
    fn samples_read_binary_files_and_merge_repeats() {
        use crate::game::checkers::packing;
        let start = Checkers::new(Rules::English);
        let mut bytes =
            format!("# game checkers english\n{}{}\n", binary::RECORDS_LINE, binary::FIXED + packing::BYTES)
                .into_bytes();
        for (game, result) in [(1, 1), (2, -1)] {
            let position = packing::pack(&start).bytes;
            binary::BinRecord { game, index: 1, count: 1, result, pieces: 24, score: None, position }.write(&mut bytes);
        }
        let got = samples(&[("a.bin".to_string(), bytes.clone())], 0.5, 0).unwrap();
        assert_eq!((got.read, got.repeats, got.train.len()), (2, 1, 1));
        assert_eq!(got.train[0].target, 0.5);
        // The same position in a text file: merged across the files.
        let text = "# game checkers english\n3\t1/1\t1-0\t-\tfen B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12\n";
        let both = [("a.bin".to_string(), bytes), ("b.txt".to_string(), text.as_bytes().to_vec())];
        let got = samples(&both, 0.5, 0).unwrap();
        assert_eq!((got.read, got.repeats, got.train.len()), (3, 2, 1));
        assert!((got.train[0].target - 2.0 / 3.0).abs() < 1e-6);
        // Records of another size are another game's.
        let mut other = b"# game checkers english\n# records 20\n".to_vec();
        other.extend_from_slice(&[0; 20]);
        let e = samples(&[("c.bin".to_string(), other)], 0.5, 0).err().unwrap().to_string();
        assert!(e.contains("c.bin") && e.contains("20 bytes"), "{e}");
    }
}
