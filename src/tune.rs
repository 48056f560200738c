//! `boardbot tune`: fits a game's evaluation weights to the results of games (self-play files,
//! or match logs of games between any engines) by Texel's method (Peter Österlund's tuning of
//! his chess engine Texel).
//!
//! Each position p of a game with result y (the first player's score: 1, 1/2, 0) is predicted
//! by the logistic of its evaluation E(p) (from the first player's view):
//! sigma(E) = 1 / (1 + 10^(-K E / 400)). The error is the mean of (y - sigma(E(p)))^2 over the
//! positions. First the scale K is fitted to the starting weights (a golden-section search on
//! the error, which is unimodal in K). Then, in rounds: all the weights and K are fitted at once
//! on the evaluation linearised around the current weights (each weight's effect on each
//! position measured by a step of it; Levenberg-Marquardt), rounded; then Texel's local search
//! polishes them on the evaluation itself: each weight in turn moves by a step up or down while
//! that lowers the error, K fitted again after each pass, the step halving to 1 when a pass
//! finds no gain. (The local search alone stalls where weights are correlated, as a runaway's
//! bonus and its cost a row are: moving one at a time cannot follow the valley.) The
//! evaluation's unit (a checkers man) stays fixed, so the weights keep their scale and K
//! measures it.
//!
//! The evaluation is the static one, at the positions where the side to move is quiet (the
//! others are skipped), or with `--eval quiescence` the static one at the end of the line of
//! forcing moves (captures) a quiescence search expects from each position, found once with the
//! starting weights. A share of the games (`--validation`, by game, so that positions of one
//! game do not fall on both sides) is kept out of the fit and its error reported before and
//! after.
//!
//! With `--policy` the tuner fits a game's move order to the moves played instead
//! (src/tune/policy.rs).

mod policy;

use crate::game::registry::{GameSpec, Resources};
use crate::game::tuned::{Leaf, TunedPosition};
use crate::game::{Outcome, Side};
use crate::referee::replay::{parse_log_line, LoggedEnd};
use crate::referee::report::LOG_HEADER;
use crate::search::weights::{WeightFile, Weights, MAX_WEIGHT};
use crate::selfplay::{self, Record};
use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use std::path::PathBuf;

/// Fits a game's evaluation weights to games' results (Texel's method).
#[derive(Args, Clone, Debug)]
pub struct TuneArgs {
    /// The game, as `init` describes it (the data's game).
    #[arg(value_name = "GAME", num_args = 1.., required = true)]
    game: Vec<String>,
    /// The games to fit to: a self-play file (`boardbot selfplay --out`) or a match's game log
    /// (`boardbot match --log`, e.g. games between other engines); repeat for several files.
    #[arg(long, value_name = "FILE", required = true)]
    data: Vec<PathBuf>,
    /// The weights file to write.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// The evaluation fitted: static (quiet positions only) or quiescence (the static
    /// evaluation at the end of the expected line of captures).
    #[arg(long, value_enum, default_value_t = EvalKind::Static)]
    eval: EvalKind,
    /// Percent of the games kept out of the fit to validate it (drawn by game number).
    #[arg(long, value_name = "PERCENT", default_value_t = 10)]
    validation: u32,
    /// Starting weights (a weights file); the compiled-in ones otherwise.
    #[arg(long, value_name = "FILE")]
    weights: Option<PathBuf>,
    /// Weights left as they start, besides the evaluation's unit (comma-separated names).
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    fix: Vec<String>,
    /// The most passes over the weights.
    #[arg(long, default_value_t = 200)]
    passes: usize,
    /// How much of a position's target is its search score's prediction (the logistic of the
    /// score at the K of the starting weights) rather than its game's result, where the data
    /// has a score: 0 (the result alone) to 1.
    #[arg(long, value_name = "SHARE", default_value_t = 0.0)]
    score_share: f64,
    /// Fits the game's move policy (its order of the moves) to the moves played in match logs
    /// instead of its evaluation to the results: a softmax over each position's candidates,
    /// from all weights 0, `--passes` passes of Adam (600 fit the gomoku policy).
    #[arg(long)]
    policy: bool,
}

/// The evaluation fitted.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EvalKind {
    Static,
    Quiescence,
}

/// A position with the result of its game (the first player's score).
pub struct Sample {
    pub position: Box<dyn TunedPosition>,
    pub target: f64,
    /// The search's score of the position in its game, from the first player's view, if the
    /// data has one (self-play files do, match logs do not).
    pub score: Option<f64>,
}

/// The prediction of an evaluation `e` (first player's view) at scale `k`.
pub fn sigmoid(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * e / 400.0))
}

/// Every sample's evaluation with `weights`.
fn evaluations(samples: &[Sample], weights: &Weights) -> Vec<f64> {
    samples.iter().map(|s| s.position.evaluate(weights) as f64).collect()
}

/// The mean squared error of the predictions at scale `k` (0 without samples).
pub fn error(evals: &[f64], samples: &[Sample], k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    evals.iter().zip(samples).map(|(&e, s)| (s.target - sigmoid(k, e)).powi(2)).sum::<f64>() / samples.len() as f64
}

/// The scale K in (0, 10] with the least error for these evaluations: golden-section search.
pub fn fit_k(evals: &[f64], samples: &[Sample]) -> f64 {
    let r = (5f64.sqrt() - 1.0) / 2.0;
    let (mut lo, mut hi) = (0.0, 10.0);
    let mut x1 = hi - r * (hi - lo);
    let mut x2 = lo + r * (hi - lo);
    let (mut f1, mut f2) = (error(evals, samples, x1), error(evals, samples, x2));
    for _ in 0..80 {
        if f1 <= f2 {
            (hi, x2, f2) = (x2, x1, f1);
            x1 = hi - r * (hi - lo);
            f1 = error(evals, samples, x1);
        } else {
            (lo, x1, f1) = (x1, x2, f2);
            x2 = lo + r * (hi - lo);
            f2 = error(evals, samples, x2);
        }
    }
    (lo + hi) / 2.0
}

/// What a fit found.
#[derive(Clone, Debug)]
pub struct Fit {
    pub weights: Weights,
    pub k: f64,
    /// The training error at the start (K fitted to the starting weights) and at the end.
    pub before: f64,
    pub after: f64,
    pub passes: usize,
}

/// The most rounds of the linearised fit and the local search (each round starts from what the
/// last one found; they stop when a round changes nothing).
const ROUNDS: usize = 4;

/// Fits the weights not fixed (by the evaluation, or in `fix`) and K to `samples`, from
/// `start`: rounds of [`linear_fit`] (all the weights at once, on the evaluation linearised
/// around the current weights) then [`local_search`] (Texel's: one weight at a time by whole
/// steps, on the evaluation itself), until a round changes nothing. `on_pass(pass, step, error,
/// k)` is told of each pass of the local search (step 0: a linearised fit).
pub fn tune(
    samples: &[Sample],
    valid: &[Sample],
    start: &Weights,
    fix: &[usize],
    max_passes: usize,
    mut on_pass: impl FnMut(usize, i32, f64, f64),
) -> Fit {
    let free: Vec<usize> = (0..start.names().len()).filter(|&i| !start.is_fixed(i) && !fix.contains(&i)).collect();
    let mut w = start.clone();
    let mut k = fit_k(&evaluations(samples, &w), samples);
    let before = error(&evaluations(samples, &w), samples, k);
    if free.len() > DENSE_WEIGHTS {
        let features = |set: &[Sample]| set.iter().map(|s| s.position.features()).collect::<Option<Vec<_>>>();
        if let (Some(train_f), Some(valid_f)) = (features(samples), features(valid)) {
            let (w, epochs) =
                gradient_fit((samples, &train_f), (valid, &valid_f), start, &free, k, max_passes, |epoch, e| {
                    on_pass(epoch, 0, e, k)
                });
            let evals = evaluations(samples, &w);
            let k = fit_k(&evals, samples);
            let after = error(&evals, samples, k);
            return Fit { weights: w, k, before, after, passes: epochs };
        }
    }
    let mut err = before;
    let mut passes = 0;
    for _ in 0..ROUNDS {
        let round_start = w.clone();
        // K again by its own search: the linearised fit's K is for the linearised evaluation.
        let (linear, _) = linear_fit(samples, &w, &free, k);
        let linear_evals = evaluations(samples, &linear);
        let linear_k = fit_k(&linear_evals, samples);
        let linear_err = error(&linear_evals, samples, linear_k);
        if linear_err < err {
            (w, k, err) = (linear, linear_k, linear_err);
        }
        passes += 1;
        on_pass(passes, 0, err, k);
        let first_step = if passes == 1 { 8 } else { 2 };
        (w, k, err) = local_search(samples, &w, &free, k, first_step, max_passes, |step, e, k| {
            passes += 1;
            on_pass(passes, step, e, k);
        });
        if w == round_start || passes >= max_passes {
            break;
        }
    }
    Fit { weights: w, k, before, after: err, passes }
}

/// Beyond this many free weights, an evaluation that gives its features is fitted by
/// [`gradient_fit`]: [`linear_fit`]'s normal equations grow as the square of the weights, and
/// the local search moves one weight a pass.
const DENSE_WEIGHTS: usize = 200;

/// The ridge: how much a squared step of one weight away from its start costs beside the
/// mean squared error (a weight seen in few positions stays near where it started).
const RIDGE: f64 = 1e-6;

/// Adam's step (in evaluation units) and moment decays.
const ADAM_STEP: f64 = 0.3;
const ADAM_BETAS: (f64, f64) = (0.9, 0.999);

/// The fit of the free weights of a linear evaluation by its features (`train.1[p]`: sample
/// p's (weight, count) pairs, first player's view): the mean squared error at the fixed scale
/// `k` plus [`RIDGE`] times the squared distance from `start`, minimised by full-batch Adam for
/// at most `epochs` epochs. Every tenth epoch the error on `valid` (none: the training error) is
/// measured, and the weights where it was least are kept (early stopping), the fit ending when
/// it has not fallen for [`PATIENCE`] epochs. `on_epoch(epoch, training error)` is told every
/// tenth epoch. Returns the weights, rounded, and the epochs run.
fn gradient_fit(
    train: Featured<'_>,
    valid: Featured<'_>,
    start: &Weights,
    free: &[usize],
    k: f64,
    epochs: usize,
    mut on_epoch: impl FnMut(usize, f64),
) -> (Weights, usize) {
    let c = k * std::f64::consts::LN_10 / 400.0;
    let predict = |w: &[f64], f: &[(u32, f32)]| {
        let e: f64 = f.iter().map(|&(i, x)| w[i as usize] * x as f64).sum();
        1.0 / (1.0 + (-c * e).exp())
    };
    let mse = |w: &[f64], (samples, features): Featured<'_>| {
        samples.iter().zip(features).map(|(s, f)| (s.target - predict(w, f)).powi(2)).sum::<f64>()
            / samples.len().max(1) as f64
    };
    let n = train.0.len() as f64;
    let w0: Vec<f64> = start.values().iter().map(|&v| v as f64).collect();
    let mut w = w0.clone();
    let mut is_free = vec![false; w.len()];
    free.iter().for_each(|&i| is_free[i] = true);
    let (mut m1, mut m2) = (vec![0.0; w.len()], vec![0.0; w.len()]);
    let watched = if valid.0.is_empty() { train } else { valid };
    let (mut best, mut best_err, mut best_epoch) = (w.clone(), mse(&w, watched), 0);
    let mut run = 0;
    for epoch in 1..=epochs {
        run = epoch;
        let mut grad: Vec<f64> = w.iter().zip(&w0).map(|(x, x0)| 2.0 * RIDGE * (x - x0)).collect();
        let mut err = 0.0;
        for (s, f) in train.0.iter().zip(train.1) {
            let sig = predict(&w, f);
            let r = s.target - sig;
            err += r * r;
            let g = -2.0 * r * sig * (1.0 - sig) * c / n;
            for &(i, x) in f {
                grad[i as usize] += g * x as f64;
            }
        }
        let (b1, b2) = ADAM_BETAS;
        for i in (0..w.len()).filter(|&i| is_free[i]) {
            m1[i] = b1 * m1[i] + (1.0 - b1) * grad[i];
            m2[i] = b2 * m2[i] + (1.0 - b2) * grad[i] * grad[i];
            let (h1, h2) = (m1[i] / (1.0 - b1.powi(epoch as i32)), m2[i] / (1.0 - b2.powi(epoch as i32)));
            w[i] = (w[i] - ADAM_STEP * h1 / (h2.sqrt() + 1e-12)).clamp(-(MAX_WEIGHT as f64), MAX_WEIGHT as f64);
        }
        if epoch % 10 == 0 {
            on_epoch(epoch, err / n);
            let e = mse(&w, watched);
            if e < best_err {
                (best, best_err, best_epoch) = (w.clone(), e, epoch);
            } else if epoch - best_epoch >= PATIENCE {
                break;
            }
        }
    }
    round_greedily(train, &mut best, free, c);
    let mut fitted = start.clone();
    for &i in free {
        fitted.values_mut()[i] = best[i] as i32;
    }
    (fitted, run)
}

/// Rounds the free weights `w` to whole numbers, each up or down as the training error (at the
/// scale `c` of the logistic's exponent) is less, the weights counted most often first, each
/// rounded with those before it: rounding each to the nearest alone would shift the evaluation
/// by up to half a unit times a count (a cell combination seen 50 times in a position moves it
/// by 25), more than the fit gained.
fn round_greedily(train: Featured<'_>, w: &mut [f64], free: &[usize], c: f64) {
    let (samples, features) = train;
    let mut evals: Vec<f64> = features.iter().map(|f| f.iter().map(|&(i, x)| w[i as usize] * x as f64).sum()).collect();
    // By weight: the samples where it counts, and how much.
    let mut by_weight: Vec<Vec<(u32, f32)>> = vec![Vec::new(); w.len()];
    for (p, f) in features.iter().enumerate() {
        for &(i, x) in f {
            by_weight[i as usize].push((p as u32, x));
        }
    }
    let mut order: Vec<usize> = free.to_vec();
    let weight = |i: usize| by_weight[i].iter().map(|&(_, x)| (x as f64).abs()).sum::<f64>();
    order.sort_by(|&a, &b| weight(b).total_cmp(&weight(a)));
    let loss = |e: f64, target: f64| (target - 1.0 / (1.0 + (-c * e).exp())).powi(2);
    for i in order {
        let (down, up) = (w[i].floor(), w[i].ceil());
        let cost = |to: f64| -> f64 {
            by_weight[i]
                .iter()
                .map(|&(p, x)| loss(evals[p as usize] + (to - w[i]) * x as f64, samples[p as usize].target))
                .sum()
        };
        let to = if up > down && cost(up) < cost(down) { up } else { down };
        for &(p, x) in &by_weight[i] {
            evals[p as usize] += (to - w[i]) * x as f64;
        }
        w[i] = to;
    }
}

/// Samples with their features (see [`TunedPosition::features`]), in the same order.
type Featured<'a> = (&'a [Sample], &'a [Vec<(u32, f32)>]);

/// Epochs without a better validation error after which [`gradient_fit`] stops.
const PATIENCE: usize = 50;

/// Texel's local search from `start` at scale `k`: each free weight in turn moves by `step` up or
/// down if that lowers the error; K is fitted again after each pass; the step halves when a pass
/// finds no gain, and the search ends after a pass at step 1 without one (or `max_passes`).
/// Returns the weights, K and the error.
fn local_search(
    samples: &[Sample],
    start: &Weights,
    free: &[usize],
    k: f64,
    first_step: i32,
    max_passes: usize,
    mut on_pass: impl FnMut(i32, f64, f64),
) -> (Weights, f64, f64) {
    let (mut w, mut k) = (start.clone(), k);
    let mut evals = evaluations(samples, &w);
    let mut err = error(&evals, samples, k);
    let mut step = first_step;
    let mut passes = 0;
    while passes < max_passes {
        passes += 1;
        let mut improved = false;
        for &i in free {
            for delta in [step, -step] {
                if (w.values()[i] + delta).abs() > MAX_WEIGHT {
                    continue;
                }
                let mut trial = w.clone();
                trial.values_mut()[i] += delta;
                let trial_evals = evaluations(samples, &trial);
                let trial_err = error(&trial_evals, samples, k);
                if trial_err < err {
                    (w, evals, err, improved) = (trial, trial_evals, trial_err, true);
                    break;
                }
            }
        }
        k = fit_k(&evals, samples);
        err = error(&evals, samples, k);
        on_pass(step, err, k);
        if !improved {
            if step == 1 {
                break;
            }
            step /= 2;
        }
    }
    (w, k, err)
}

/// The least-squares fit of the free weights and K on the evaluation linearised around `w`: each
/// position's evaluation as E0 + sum_j g_j (w_j - w0_j), g_j measured by a step of each weight,
/// fitted by Levenberg-Marquardt (the Gauss-Newton steps of the logistic's residuals, damped by
/// Marquardt's scaling); the weights rounded to whole numbers. Returns the weights and K.
#[allow(clippy::needless_range_loop)] // the matrices read better by index
fn linear_fit(samples: &[Sample], w: &Weights, free: &[usize], k: f64) -> (Weights, f64) {
    let n = samples.len();
    if n == 0 || free.is_empty() {
        return (w.clone(), k);
    }
    let base = evaluations(samples, w);
    // The slope of each position's evaluation in each free weight, over a step of 8 (integer
    // divisions in an evaluation make a single unit's slope lumpy).
    const STEP: i32 = 8;
    let slopes: Vec<Vec<f64>> = free
        .iter()
        .map(|&i| {
            let mut up = w.clone();
            up.values_mut()[i] += STEP;
            evaluations(samples, &up).iter().zip(&base).map(|(e, b)| (e - b) / STEP as f64).collect()
        })
        .collect();
    let m = free.len() + 1;
    let c = std::f64::consts::LN_10 / 400.0;
    // Parameters: the free weights' changes, then K.
    let mut theta = vec![0.0; m];
    theta[m - 1] = k;
    let eval_at = |theta: &[f64], p: usize| base[p] + (0..m - 1).map(|j| slopes[j][p] * theta[j]).sum::<f64>();
    let cost = |theta: &[f64]| -> f64 {
        (0..n).map(|p| (samples[p].target - 1.0 / (1.0 + (-c * theta[m - 1] * eval_at(theta, p)).exp())).powi(2)).sum()
    };
    let mut current = cost(&theta);
    let mut lambda = 1e-3;
    for _ in 0..200 {
        // Normal equations of the Gauss-Newton step: A = J'J, b = -J'r, r = target - sigma.
        let mut a = vec![vec![0.0; m]; m];
        let mut b = vec![0.0; m];
        for p in 0..n {
            let e = eval_at(&theta, p);
            let s = 1.0 / (1.0 + (-c * theta[m - 1] * e).exp());
            let r = samples[p].target - s;
            let ds = s * (1.0 - s) * c;
            let mut grad = vec![0.0; m];
            for j in 0..m - 1 {
                grad[j] = ds * theta[m - 1] * slopes[j][p];
            }
            grad[m - 1] = ds * e;
            for x in 0..m {
                b[x] += grad[x] * r;
                for y in x..m {
                    a[x][y] += grad[x] * grad[y];
                }
            }
        }
        let mut accepted = false;
        while lambda < 1e12 {
            let mut damped = a.clone();
            for x in 0..m {
                for y in 0..x {
                    damped[x][y] = damped[y][x];
                }
                damped[x][x] += lambda * a[x][x].max(1e-12);
            }
            let Some(delta) = solve(damped, b.clone()) else {
                lambda *= 10.0;
                continue;
            };
            let trial: Vec<f64> = theta.iter().zip(&delta).map(|(t, d)| t + d).collect();
            let trial_cost = cost(&trial);
            if trial_cost < current {
                let gain = current - trial_cost;
                (theta, current, accepted) = (trial, trial_cost, true);
                lambda = (lambda / 3.0).max(1e-9);
                if gain < 1e-14 * current.max(1e-300) {
                    accepted = false;
                }
                break;
            }
            lambda *= 4.0;
        }
        if !accepted {
            break;
        }
    }
    let mut fitted = w.clone();
    for (j, &i) in free.iter().enumerate() {
        let value = (w.values()[i] as f64 + theta[j]).round();
        fitted.values_mut()[i] = value.clamp(-(MAX_WEIGHT as f64), MAX_WEIGHT as f64) as i32;
    }
    (fitted, theta[m - 1])
}

/// The solution of the linear system `a x = b` by Gaussian elimination with partial pivoting;
/// None when `a` is singular.
#[allow(clippy::needless_range_loop)]
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-300 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        for row in col + 1..n {
            let f = a[row][col] / a[col][col];
            for x in col..n {
                a[row][x] -= f * a[col][x];
            }
            b[row] -= f * b[col];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let sum: f64 = (row + 1..n).map(|c| a[row][c] * x[c]).sum();
        x[row] = (b[row] - sum) / a[row][row];
    }
    x.iter().all(|v| v.is_finite()).then_some(x)
}

/// Whether game `number` is among the `percent` of the games kept to validate a fit: drawn from
/// the number by a multiplicative hash, so that any run of games splits about evenly.
pub fn validates(number: usize, percent: u32) -> bool {
    ((number as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) % 100 < percent as u64
}

/// The samples of a self-play file's records for `spec`: (training, validation, skipped), the
/// games [`validates`] picks going to the validation set.
pub fn samples(
    spec: &GameSpec,
    records: &[Record],
    leaf: Leaf,
    weights: Option<&WeightFile>,
    validation: u32,
) -> Result<(Vec<Sample>, Vec<Sample>, usize)> {
    let base = spec.new_game(&Resources::none())?;
    let (mut train, mut valid, mut skipped) = (Vec::new(), Vec::new(), 0);
    for r in records {
        let mut game = match r.position.split_once(' ').unwrap_or((r.position.as_str(), "")) {
            ("fen", fen) => {
                let mut words: Vec<&str> = vec![spec.name()];
                words.extend(spec.words().iter().map(String::as_str));
                words.extend(["fen", fen.trim()]);
                GameSpec::from_words(&words)
                    .and_then(|s| s.new_game(&Resources::none()))
                    .map_err(|e| anyhow!("game {} position {}: {e}", r.game, r.index))?
            }
            ("moves", moves) => {
                let mut game = base.clone();
                let words: Vec<&str> = moves.split_whitespace().collect();
                let moves = game.split_moves(&words).map_err(|e| anyhow!("game {}: {e}", r.game))?;
                game.set_moves(&moves).map_err(|e| anyhow!("game {} position {}: {e}", r.game, r.index))?;
                game
            }
            _ => bail!("game {} position {}: not 'fen FEN' or 'moves ...'", r.game, r.index),
        };
        if let Some(file) = weights {
            game.set_weights(file)?;
        }
        match game.tuning_position(leaf) {
            Some(position) => {
                let score = r.score.map(|s| if game.to_move() == Side::First { s as f64 } else { -(s as f64) });
                let sample = Sample { position, target: r.result, score };
                if validates(r.game, validation) {
                    valid.push(sample);
                } else {
                    train.push(sample);
                }
            }
            None => skipped += 1,
        }
    }
    Ok((train, valid, skipped))
}

/// Game numbers of the `i`-th data file (from 0) start after `i * FILE_GAMES`, so that games of
/// different files never share a number (the validation games are drawn by number).
pub(crate) const FILE_GAMES: usize = 100_000_000;

/// The records of the data files for `spec`, each file a self-play file or a match's game log
/// ([`log_records`]), the games of file i numbered from `i * FILE_GAMES + 1`.
pub fn read_data(spec: &GameSpec, paths: &[PathBuf]) -> Result<Vec<Record>> {
    let mut all = Vec::new();
    for (i, path) in paths.iter().enumerate() {
        let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        let records = if text.starts_with(LOG_HEADER) {
            log_records(spec, &text)
        } else {
            selfplay::read(&text).and_then(|(header, records)| match selfplay::header_value(&header, "game") {
                Some(game) if game.split_whitespace().next() != Some(spec.name()) => {
                    bail!("it holds {game} games, not {}", spec.name())
                }
                _ => Ok(records),
            })
        }
        .map_err(|e| anyhow!("{}: {e}", path.display()))?;
        let offset = i * FILE_GAMES;
        all.extend(records.into_iter().map(|r| Record { game: r.game + offset, ..r }));
    }
    Ok(all)
}

/// The positions of a match's game log (`boardbot match --log`) as self-play records: every
/// position of a game before one of its moves, with the game's result and no search score. The
/// log's games must all be of `spec`'s game and board; games lost by a forfeit are left out (the
/// result says nothing of the position), a game stopped as a dead draw counts as a draw.
pub fn log_records(spec: &GameSpec, text: &str) -> Result<Vec<Record>> {
    let mut records = Vec::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty()) {
        let logged = parse_log_line(line).map_err(|e| anyhow!("line {}: {e}", i + 1))?;
        if logged.spec.to_string() != spec.to_string() {
            bail!("line {}: a game of {}, not {spec}", i + 1, logged.spec);
        }
        let result = match logged.end {
            LoggedEnd::Played(Outcome::Win(Side::First)) => 1.0,
            LoggedEnd::Played(Outcome::Win(Side::Second)) => 0.0,
            LoggedEnd::Played(Outcome::Draw) | LoggedEnd::DeadDraw => 0.5,
            LoggedEnd::Forfeit(_) | LoggedEnd::BothForfeit => continue,
        };
        let count = logged.moves.len();
        for index in 0..count {
            let position = format!("moves {}", logged.moves[..index].join(" ")).trim_end().to_string();
            records.push(Record { game: logged.number, index: index + 1, count, result, score: None, position });
        }
    }
    Ok(records)
}

/// Each sample's target becomes `share` of its search score's prediction at scale `k` and the
/// rest its game's result; samples without a score keep the result.
pub fn blend_scores(samples: &mut [Sample], share: f64, k: f64) {
    for s in samples.iter_mut() {
        if let Some(score) = s.score {
            s.target = (1.0 - share) * s.target + share * sigmoid(k, score);
        }
    }
}

/// Runs `boardbot tune`.
pub fn run(args: TuneArgs) -> Result<()> {
    let words: Vec<&str> = args.game.iter().map(String::as_str).collect();
    let spec = GameSpec::from_words(&words)?;
    if args.validation > 50 {
        bail!("--validation is a percent of the games, at most 50");
    }
    if args.policy {
        return policy::run(&spec, &args.data, &args.out, args.validation, args.passes);
    }
    let records = read_data(&spec, &args.data)?;
    let data_names = args.data.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(" --data ");
    let start_file = match &args.weights {
        Some(path) => Some(WeightFile::read(path)?),
        None => None,
    };
    let mut probe = spec.new_game(&Resources::none())?;
    if let Some(file) = &start_file {
        probe.set_weights(file)?;
    }
    let start = probe.weights().ok_or_else(|| anyhow!("{}'s evaluation has no weights to tune", spec.name()))?;
    let fix = args
        .fix
        .iter()
        .map(|name| {
            start.index(name).ok_or_else(|| anyhow!("--fix: unknown weight '{name}' ({})", start.names().join(", ")))
        })
        .collect::<Result<Vec<usize>>>()?;
    let leaf = match args.eval {
        EvalKind::Static => Leaf::Static,
        EvalKind::Quiescence => Leaf::Quiescence,
    };
    let (train, valid, skipped) = samples(&spec, &records, leaf, start_file.as_ref(), args.validation)?;
    if train.is_empty() {
        bail!("{data_names}: no positions to fit");
    }
    println!(
        "{}: {} positions: {} to fit, {} to validate ({}% of the games), {} skipped ({})",
        data_names,
        records.len(),
        train.len(),
        valid.len(),
        args.validation,
        skipped,
        match args.eval {
            EvalKind::Static => "not quiet, or the game over",
            EvalKind::Quiescence => "the game over on the expected line",
        }
    );
    if !(0.0..=1.0).contains(&args.score_share) {
        bail!("--score-share is a share, from 0 to 1");
    }
    let k_start = fit_k(&evaluations(&train, &start), &train);
    let (mut train, mut valid) = (train, valid);
    blend_scores(&mut train, args.score_share, k_start);
    blend_scores(&mut valid, args.score_share, k_start);
    let valid_before = error(&evaluations(&valid, &start), &valid, k_start);
    let fit = tune(&train, &valid, &start, &fix, args.passes, |pass, step, err, k| {
        println!("pass {pass}: step {step}, training error {err:.6}, K {k:.4}");
    });
    let valid_after = error(&evaluations(&valid, &fit.weights), &valid, fit.k);
    println!("\n{:<16} {:>8} {:>8}", "weight", "start", "tuned");
    for (i, name) in start.names().iter().enumerate() {
        let note = if start.is_fixed(i) || fix.contains(&i) { " (fixed)" } else { "" };
        println!("{name:<16} {:>8} {:>8}{note}", start.values()[i], fit.weights.values()[i]);
    }
    let summary = format!(
        "K {:.4}; mean squared error, training: {:.6} -> {:.6}; validation: {:.6} -> {:.6}",
        fit.k, fit.before, fit.after, valid_before, valid_after
    );
    println!("\n{summary}");
    let comment = format!(
        "tuned by boardbot tune {} --data {} --eval {} --validation {} --score-share {}\n{} positions fitted, {} validated, {} passes\n{summary}",
        spec,
        data_names,
        match args.eval {
            EvalKind::Static => "static",
            EvalKind::Quiescence => "quiescence",
        },
        args.validation,
        args.score_share,
        train.len(),
        valid.len(),
        fit.passes
    );
    let text = WeightFile::of(spec.name(), &fit.weights).text(&comment);
    std::fs::write(&args.out, text).with_context(|| format!("writing {}", args.out.display()))?;
    println!("wrote {}", args.out.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::any::AnyGame;
    use rand::rngs::SmallRng;
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};

    /// Positions of random checkers games: a position every few plies of each game.
    fn random_positions(games: usize, seed: u64) -> Vec<Box<dyn AnyGame>> {
        let mut rng = SmallRng::seed_from_u64(seed);
        let start = GameSpec::parse("checkers english").unwrap().new_game(&Resources::none()).unwrap();
        let mut positions = Vec::new();
        for _ in 0..games {
            let mut game = start.clone();
            let plies = rng.gen_range(20..90);
            for ply in 0..plies {
                let moves = game.legal_moves();
                let Some(mv) = moves.choose(&mut rng) else { break };
                game.play(mv).unwrap();
                if game.outcome().is_some() {
                    break;
                }
                if ply >= 10 && ply % 5 == 0 {
                    positions.push(game.clone());
                }
            }
        }
        positions
    }

    #[test]
    fn the_tuner_recovers_the_weights_the_results_were_made_with() {
        let positions = random_positions(400, 1);
        let mut truth = positions[0].weights().unwrap();
        // Some of the compiled-in weights, of features random positions show often, moved by a
        // few units each (the unit, a man, stays; a weight of a feature no sample shows could
        // not be recovered, and is left as it is).
        let defaults = truth.clone();
        let moved = [
            ("king_open", 18),
            ("back_open", 4),
            ("centre_open", -3),
            ("mobility_open", 2),
            ("advance_open", 2),
            ("king_end", -12),
            ("mobility_end", 2),
        ];
        for (name, delta) in moved {
            let value = truth.get(name).unwrap_or_else(|| panic!("no weight {name}"));
            truth.set(name, value + delta).unwrap();
        }
        assert_ne!(truth, defaults);
        let k_true = 1.2;
        let samples: Vec<Sample> = positions
            .iter()
            .filter_map(|g| g.tuning_position(Leaf::Static))
            .map(|position| {
                let target = sigmoid(k_true, position.evaluate(&truth) as f64);
                Sample { position, target, score: None }
            })
            .collect();
        assert!(samples.len() > 2000, "{}", samples.len());
        let fit = tune(&samples, &[], &defaults, &[], 500, |_, _, _, _| {});
        assert!(fit.after < fit.before / 100.0, "{} -> {}", fit.before, fit.after);
        assert!((fit.k - k_true).abs() < 0.01, "K {}", fit.k);
        for (i, name) in truth.names().iter().enumerate() {
            let (got, want) = (fit.weights.values()[i], truth.values()[i]);
            assert!((got - want).abs() <= 1, "{name}: {got}, made with {want}");
        }
    }

    #[test]
    fn a_share_of_the_games_validates() {
        let picked = (1..=1000).filter(|&g| validates(g, 10)).count();
        assert!((70..130).contains(&picked), "{picked}");
        assert_eq!((1..=1000).filter(|&g| validates(g, 0)).count(), 0);
        assert!((1..=20).any(|g| !validates(g, 10)) && (1..=40).any(|g| validates(g, 10)));
    }

    #[test]
    fn k_is_fitted_to_the_results() {
        // Evaluations -400..400 with results drawn as a logistic of scale 0.8 predicts them.
        let mut rng = SmallRng::seed_from_u64(3);
        let positions = random_positions(100, 2);
        let samples: Vec<Sample> = positions
            .iter()
            .filter_map(|g| g.tuning_position(Leaf::Static))
            .map(|position| Sample { position, target: 0.0, score: None })
            .collect();
        let w = positions[0].weights().unwrap();
        let evals = evaluations(&samples, &w);
        let samples: Vec<Sample> = samples
            .into_iter()
            .zip(&evals)
            .map(|(s, &e)| Sample { target: if rng.gen::<f64>() < sigmoid(0.8, e) { 1.0 } else { 0.0 }, ..s })
            .collect();
        let k = fit_k(&evals, &samples);
        assert!(k > 0.4 && k < 1.6, "K {k}");
        assert!(error(&evals, &samples, k) <= error(&evals, &samples, 0.8) + 1e-12);
    }

    #[test]
    fn a_share_of_the_target_is_the_search_score() {
        let positions = random_positions(4, 9);
        let mut samples: Vec<Sample> = positions
            .iter()
            .filter_map(|g| g.tuning_position(Leaf::Static))
            .take(3)
            .zip([Some(0.0), Some(400.0), None])
            .map(|(position, score)| Sample { position, target: 1.0, score })
            .collect();
        assert_eq!(samples.len(), 3);
        blend_scores(&mut samples, 0.25, 1.0);
        // 0 predicts 1/2, 400 at K 1 predicts 10/11; no score keeps the result.
        let targets: Vec<f64> = samples.iter().map(|s| s.target).collect();
        let expected = [0.75 + 0.25 * 0.5, 0.75 + 0.25 * 10.0 / 11.0, 1.0];
        assert!(targets.iter().zip(expected).all(|(t, e)| (t - e).abs() < 1e-12), "{targets:?}");
    }
}
