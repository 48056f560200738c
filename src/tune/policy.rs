//! `boardbot tune --policy`: fits a game's move policy (its ordering score of a move, a sum of
//! weights, one per feature of the move: [`crate::search::RootKnowledge::policy`]) to the moves
//! played in match logs.
//!
//! In each position where the policy orders the moves, the chance that candidate i is the one
//! played is the softmax of the scores: p_i = exp(s_i / U) / sum_j exp(s_j / U), U =
//! [`POLICY_UNIT`] (the weights are hundredths of a logit). The fit minimises the mean negative
//! log-likelihood of the moves played, plus a small L2 penalty that keeps rare features near 0,
//! from all weights 0, by Adam (Kingma and Ba) on the whole training set at each pass. A share of
//! the games (`--validation`, by game) is kept out and reported: the log-likelihood and how
//! often the move played was the policy's first choice or among its first three, for the
//! compiled-in policy and for the fitted one.

use super::validates;
use crate::game::registry::{GameSpec, Resources};
use crate::game::tuned::PolicySample;
use crate::referee::replay::{parse_log_line, LoggedEnd};
use crate::referee::report::LOG_HEADER;
use crate::search::weights::{WeightFile, Weights, MAX_WEIGHT};
use anyhow::{anyhow, bail, Context, Result};
use std::path::PathBuf;

/// A weight's unit: a hundredth of a logit.
pub const POLICY_UNIT: f64 = 100.0;
/// The L2 penalty on the weights (in logits), per position.
const L2: f64 = 1e-5;
/// Adam's step (in logits) and its moments' decay.
const STEP: f64 = 0.05;
const BETA1: f64 = 0.9;
const BETA2: f64 = 0.999;

/// The positions of match logs where `spec`'s policy orders the moves, each with the game's
/// number (the `i`-th file's games numbered from `i * file_games + 1`): games lost by a
/// forfeit are left out.
pub fn read_samples(spec: &GameSpec, paths: &[PathBuf], file_games: usize) -> Result<Vec<(usize, PolicySample)>> {
    let base = spec.new_game(&Resources::none())?;
    let mut out = Vec::new();
    for (f, path) in paths.iter().enumerate() {
        let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        if !text.starts_with(LOG_HEADER) {
            bail!(
                "{}: not a match's game log (`boardbot match --log`): --policy fits the moves played",
                path.display()
            );
        }
        for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty()) {
            let at = |e: anyhow::Error| anyhow!("{} line {}: {e}", path.display(), i + 1);
            let logged = parse_log_line(line).map_err(at)?;
            if logged.spec.to_string() != spec.to_string() {
                return Err(at(anyhow!("a game of {}, not {spec}", logged.spec)));
            }
            if matches!(logged.end, LoggedEnd::Forfeit(_) | LoggedEnd::BothForfeit) {
                continue;
            }
            let mut game = base.clone();
            for (m, mv) in logged.moves.iter().enumerate() {
                let sample = game.policy_sample(mv).map_err(|e| at(anyhow!("move {}: {e}", m + 1)))?;
                out.extend(sample.map(|s| (f * file_games + logged.number, s)));
                game.play(mv).map_err(|e| at(anyhow!("move {}: {e}", m + 1)))?;
            }
        }
    }
    Ok(out)
}

/// How well weights `w` (in logits) predict the moves of `samples`: the mean negative
/// log-likelihood, and the shares of positions where the move played was first and among the
/// first three (ties counted against it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fitness {
    pub nll: f64,
    pub top1: f64,
    pub top3: f64,
}

fn scores(s: &PolicySample, w: &[f64]) -> Vec<f64> {
    s.features.iter().map(|f| f.iter().map(|&i| w[i as usize]).sum()).collect()
}

/// The log of the sum of the exponentials of `x` (not empty), without overflow.
fn log_sum_exp(x: &[f64]) -> f64 {
    let top = x.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    top + x.iter().map(|v| (v - top).exp()).sum::<f64>().ln()
}

pub fn fitness(samples: &[&PolicySample], w: &[f64]) -> Fitness {
    let (mut nll, mut top1, mut top3) = (0.0, 0, 0);
    for s in samples {
        let x = scores(s, w);
        let chosen = x[s.chosen];
        nll += log_sum_exp(&x) - chosen;
        let above = x.iter().enumerate().filter(|&(i, &v)| i != s.chosen && v >= chosen).count();
        top1 += (above == 0) as usize;
        top3 += (above < 3) as usize;
    }
    let n = samples.len().max(1) as f64;
    Fitness { nll: nll / n, top1: top1 as f64 / n, top3: top3 as f64 / n }
}

/// Fits `size` weights (in logits, from 0) to `train` by `passes` passes of Adam.
pub fn fit(train: &[&PolicySample], size: usize, passes: usize) -> Vec<f64> {
    let mut w = vec![0.0; size];
    let (mut m, mut v) = (vec![0.0; size], vec![0.0; size]);
    let n = train.len().max(1) as f64;
    for pass in 1..=passes {
        let mut grad: Vec<f64> = w.iter().map(|x| L2 * x).collect();
        for s in train {
            let x = scores(s, &w);
            let z = log_sum_exp(&x);
            for (i, f) in s.features.iter().enumerate() {
                let g = ((x[i] - z).exp() - (i == s.chosen) as u8 as f64) / n;
                for &k in f {
                    grad[k as usize] += g;
                }
            }
        }
        let (c1, c2) = (1.0 - BETA1.powi(pass as i32), 1.0 - BETA2.powi(pass as i32));
        for k in 0..size {
            m[k] = BETA1 * m[k] + (1.0 - BETA1) * grad[k];
            v[k] = BETA2 * v[k] + (1.0 - BETA2) * grad[k] * grad[k];
            w[k] -= STEP * (m[k] / c1) / ((v[k] / c2).sqrt() + 1e-8);
        }
    }
    w
}

/// Runs `boardbot tune --policy`: fits, reports, writes the weights file.
pub fn run(spec: &GameSpec, data: &[PathBuf], out: &PathBuf, validation: u32, passes: usize) -> Result<()> {
    let start = spec
        .new_game(&Resources::none())?
        .policy()
        .ok_or_else(|| anyhow!("{} orders its moves by no policy to fit", spec.name()))?;
    let samples = read_samples(spec, data, super::FILE_GAMES)?;
    let (mut train, mut valid) = (Vec::new(), Vec::new());
    for (game, s) in &samples {
        if validates(*game, validation) {
            valid.push(s)
        } else {
            train.push(s)
        }
    }
    let data_names = data.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(" --data ");
    if train.is_empty() {
        bail!("{data_names}: no positions where the policy orders the moves");
    }
    let candidates = samples.iter().map(|(_, s)| s.features.len()).sum::<usize>() as f64 / samples.len() as f64;
    println!(
        "{data_names}: {} positions the policy orders ({candidates:.1} candidates each): {} to fit, {} to validate ({validation}% of the games)",
        samples.len(),
        train.len(),
        valid.len()
    );
    let logits = |w: &Weights| w.values().iter().map(|&v| v as f64 / POLICY_UNIT).collect::<Vec<_>>();
    let before = (fitness(&train, &logits(&start)), fitness(&valid, &logits(&start)));
    let fitted = fit(&train, start.names().len(), passes);
    let mut weights = start.clone();
    for (value, x) in weights.values_mut().iter_mut().zip(&fitted) {
        *value = ((x * POLICY_UNIT).round() as i32).clamp(-MAX_WEIGHT, MAX_WEIGHT);
    }
    let after = (fitness(&train, &logits(&weights)), fitness(&valid, &logits(&weights)));
    let line = |name: &str, (t, v): (Fitness, Fitness)| {
        format!(
            "{name}: training: log-loss {:.4}, first {:.3}, first three {:.3}; validation: log-loss {:.4}, first {:.3}, first three {:.3}",
            t.nll, t.top1, t.top3, v.nll, v.top1, v.top3
        )
    };
    let summary = format!("{}\n{}", line("compiled-in", before), line("fitted", after));
    println!("{summary}");
    let comment = format!(
        "fitted by boardbot tune {spec} --policy --data {data_names} --validation {validation} --passes {passes}\n{} positions fitted, {} validated\n{summary}",
        train.len(),
        valid.len()
    );
    let text = WeightFile::of(spec.name(), &weights).text(&comment);
    std::fs::write(out, text).with_context(|| format!("writing {}", out.display()))?;
    println!("wrote {}", out.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fit_recovers_the_order_of_planted_weights() {
        // Five features, true weights 2, 1, 0, -1, -2 logits; positions of four candidates with
        // one feature each, the move played drawn from the softmax of the true weights. The
        // fitted weights keep their order and the move predicted first is right as often as
        // the true weights' first.
        let truth = [2.0, 1.0, 0.0, -1.0, -2.0];
        let mut seed = 12345_u64;
        let mut next = |n: u64| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        let samples: Vec<PolicySample> = (0..3000)
            .map(|_| {
                let features: Vec<Vec<u32>> = (0..4).map(|_| vec![next(5) as u32]).collect();
                let x: Vec<f64> = features.iter().map(|f| truth[f[0] as usize]).collect();
                let z: f64 = x.iter().map(|v| v.exp()).sum();
                let mut u = next(1_000_000) as f64 / 1e6 * z;
                let chosen = x.iter().position(|v| {
                    u -= v.exp();
                    u <= 0.0
                });
                PolicySample { chosen: chosen.unwrap_or(3), features }
            })
            .collect();
        let refs: Vec<&PolicySample> = samples.iter().collect();
        let w = fit(&refs, 5, 300);
        assert!(w.windows(2).all(|p| p[0] > p[1]), "{w:?}");
        let (got, best) = (fitness(&refs, &w), fitness(&refs, &truth));
        assert!(got.nll <= best.nll + 1e-3 && got.top1 >= best.top1 - 0.01, "{got:?} against {best:?}");
        assert!(((w[0] - w[4]) - 4.0).abs() < 0.5, "the spread of the weights: {w:?}");
    }
}
