//! The sequential probability ratio test of `boardbot match --sprt`: game pairs until the
//! evidence decides between two hypotheses about the Elo difference, as the chess engines'
//! testing frameworks run it (fishtest's generalised SPRT on pentanomial pair outcomes; the
//! theory is Michel Van den Bergh's, "support_MLE_multinomial.pdf" and
//! "normalized_elo_practical.pdf" at hardy.uhasselt.be/Fishtest).
//!
//! **Pairs.** The two games of a round start from the same opening, each engine playing each side
//! once. Engine1's points in the pair (0, 1/2, 1, 3/2 or 2) are one of five outcomes; their counts
//! are the [`Pentanomial`]. Pairs, not games, are the samples: from an unbalanced opening the two
//! games are not independent.
//!
//! **The test.** H0: engine1 is `elo0` stronger than engine2; H1: `elo1` stronger (`elo0 <
//! elo1`). After each pair the log-likelihood ratio of H1 against H0 (LLR) is compared with
//! Wald's bounds: H1 is accepted once LLR >= ln((1 - beta) / alpha), H0 once
//! LLR <= ln(beta / (1 - alpha)); alpha is the chance of accepting H1 when H0 holds, beta of
//! accepting H0 when H1 holds.
//!
//! **The generalised LLR.** Let a_i = i / 4 be the outcomes as a score per game (i = 0..4) and
//! p_i their observed frequencies over N pairs. Among the distributions q of outcomes whose
//! expected score is s, the most likely to give the observed counts is
//! q_i = p_i / (1 + x (a_i - s)), x the root of sum_i p_i (a_i - s) / (1 + x (a_i - s)) = 0 on
//! the interval where every 1 + x (a_i - s) > 0 (a Lagrange multiplier; the root is unique, the
//! sum falls from +inf to -inf there). With q0 and q1 those of the hypotheses' scores s0 and s1,
//! LLR = N sum_i p_i ln(q1_i / q0_i). In logistic Elo a difference e means the expected score
//! 1 / (1 + 10^(-e / 400)). In normalized Elo (`EloModel::Normalized`) the hypotheses fix the
//! t-value (mu - 1/2) / sigma of the pair score instead, and the most likely q is found by the
//! fixed-point iteration of "normalized_elo_practical.pdf", section 4.1. As fishtest does, an
//! outcome never seen is counted 0.001 times, so that every p_i > 0.

use anyhow::{bail, Result};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The pair outcomes as engine1's score per game.
const A: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// The count given to an outcome never seen (fishtest's regularisation).
const UNSEEN: f64 = 1e-3;

/// Normalized Elo per unit of t-value: 800 / ln 10.
const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// Counts of game pairs by engine1's points in the pair: index i holds the pairs where it
/// scored i / 2 points (0: lost both games; 1: a loss and a draw; 2: two draws, or a win and a
/// loss; 3: a win and a draw; 4: won both). Counts of separate runs add up ([`Pentanomial::merge`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    /// Adds a pair whose games engine1 scored `a` and `b` (each 0, 1/2 or 1).
    pub fn add(&mut self, a: f64, b: f64) {
        let i = ((a + b) * 2.0).round().clamp(0.0, 4.0) as usize;
        self.0[i] += 1;
    }

    /// Adds the counts of another run.
    pub fn merge(&mut self, other: &Pentanomial) {
        for (c, o) in self.0.iter_mut().zip(other.0) {
            *c += o;
        }
    }

    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Engine1's mean score per game and its 95% error bar (1.96 standard errors, the pairs
    /// as samples); None without pairs.
    pub fn score(&self) -> Option<(f64, f64)> {
        let n = self.pairs();
        if n == 0 {
            return None;
        }
        let p: Vec<f64> = self.0.iter().map(|&c| c as f64 / n as f64).collect();
        let mean: f64 = p.iter().zip(A).map(|(p, a)| p * a).sum();
        let var: f64 = p.iter().zip(A).map(|(p, a)| p * (a - mean).powi(2)).sum();
        Some((mean, 1.96 * (var / n as f64).sqrt()))
    }

    /// The Elo difference of engine1 over engine2 the mean score gives, and the interval its
    /// 95% error bar gives (scores are kept within [0.001, 0.999], as fishtest does).
    pub fn elo(&self) -> Option<(f64, f64, f64)> {
        let (mean, error) = self.score()?;
        Some((elo_of_score(mean), elo_of_score(mean - error), elo_of_score(mean + error)))
    }

    /// The number of pairs and the outcomes' frequencies, an outcome never seen counted
    /// [`UNSEEN`] times.
    fn frequencies(&self) -> (f64, [f64; 5]) {
        let counts = self.0.map(|c| if c == 0 { UNSEEN } else { c as f64 });
        let n: f64 = counts.iter().sum();
        (n, counts.map(|c| c / n))
    }
}

impl fmt::Display for Pentanomial {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let c = self.0;
        write!(f, "[{}, {}, {}, {}, {}]", c[0], c[1], c[2], c[3], c[4])
    }
}

/// Logistic Elo of an expected score.
pub fn elo_of_score(score: f64) -> f64 {
    let s = score.clamp(1e-3, 1.0 - 1e-3);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The expected score of a logistic Elo difference.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// How ELO0 and ELO1 are measured.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum EloModel {
    /// Logistic Elo: a difference e means an expected score of 1 / (1 + 10^(-e/400)).
    Logistic,
    /// Normalized Elo: the expected score's distance from 1/2 in standard deviations of a
    /// game pair's score, times 800 / ln 10 / sqrt 2 (fishtest's nElo).
    Normalized,
}

impl fmt::Display for EloModel {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(match self {
            EloModel::Logistic => "logistic",
            EloModel::Normalized => "normalized",
        })
    }
}

/// Which hypothesis the test accepted.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// H0: engine1 is ELO0 stronger (in practice: not ELO1 stronger).
    H0,
    /// H1: engine1 is ELO1 stronger.
    H1,
}

/// The test's settings: the hypotheses, the error rates and the Elo model.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: EloModel,
}

impl Sprt {
    /// A test of H0: `elo0` against H1: `elo1`; alpha and beta in (0, 1/2], elo0 < elo1, both
    /// within +-1000.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64, model: EloModel) -> Result<Sprt> {
        if !(elo0.is_finite() && elo1.is_finite() && elo0.abs() <= 1000.0 && elo1.abs() <= 1000.0) {
            bail!("ELO0 and ELO1 must be numbers within +-1000, got {elo0} and {elo1}");
        }
        if elo0 >= elo1 {
            bail!("ELO0 must be below ELO1, got {elo0} and {elo1}");
        }
        for (name, v) in [("alpha", alpha), ("beta", beta)] {
            if !(v > 0.0 && v <= 0.5) {
                bail!("{name} must be in (0, 0.5], got {v}");
            }
        }
        Ok(Sprt { elo0, elo1, alpha, beta, model })
    }

    /// Wald's bounds on the LLR: (accept H0 at or below, accept H1 at or above).
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The generalised log-likelihood ratio of H1 against H0 for these pairs (0 without pairs).
    pub fn llr(&self, counts: &Pentanomial) -> f64 {
        if counts.pairs() == 0 {
            return 0.0;
        }
        let (n, p) = counts.frequencies();
        let fitted = |h: f64| match self.model {
            EloModel::Logistic => most_likely_with_mean(&p, score_of_elo(h)),
            EloModel::Normalized => most_likely_with_t(&p, 0.5, h / NELO_PER_T * std::f64::consts::SQRT_2),
        };
        match (fitted(self.elo0), fitted(self.elo1)) {
            (Some(q0), Some(q1)) => n * (0..5).map(|i| p[i] * (q1[i].ln() - q0[i].ln())).sum::<f64>(),
            // Only a distribution far outside both hypotheses leaves no fit (a t-value beyond
            // what five outcomes allow): no verdict from it.
            _ => 0.0,
        }
    }

    /// The verdict for this LLR, if it reached a bound.
    pub fn verdict(&self, llr: f64) -> Option<Verdict> {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(Verdict::H1)
        } else if llr <= lower {
            Some(Verdict::H0)
        } else {
            None
        }
    }

    /// The hypotheses in words: `[0, 10] logistic Elo, alpha 0.05, beta 0.05`.
    pub fn describe(&self) -> String {
        format!("[{}, {}] {} Elo, alpha {}, beta {}", self.elo0, self.elo1, self.model, self.alpha, self.beta)
    }

    /// The LLR with its bounds, as the progress shows it: `LLR 1.23 (-2.94, 2.94)`.
    pub fn status(&self, llr: f64) -> String {
        let (lower, upper) = self.bounds();
        format!("LLR {llr:.2} ({lower:.2}, {upper:.2})")
    }
}

/// The root x of sum_i p_i b_i / (1 + x b_i) = 0 on the interval where every 1 + x b_i > 0
/// (the b_i of both signs, the p_i positive), by bisection to the precision of f64; None if the
/// b_i do not take both signs. The sum falls strictly over the interval, from +inf to -inf.
fn secular(p: &[f64; 5], b: &[f64; 5]) -> Option<f64> {
    let (low, high) = b.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &v| (l.min(v), h.max(v)));
    if !(low < 0.0 && high > 0.0) {
        return None;
    }
    let f = |x: f64| (0..5).map(|i| p[i] * b[i] / (1.0 + x * b[i])).sum::<f64>();
    let (mut lo, mut hi) = (-1.0 / high, -1.0 / low);
    loop {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            return Some(mid);
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
}

/// The distribution of outcomes with expected score `s` most likely to give the frequencies
/// `p` (Proposition 1.1 of "support_MLE_multinomial.pdf").
fn most_likely_with_mean(p: &[f64; 5], s: f64) -> Option<[f64; 5]> {
    let b = A.map(|a| a - s);
    let x = secular(p, &b)?;
    Some(std::array::from_fn(|i| p[i] / (1.0 + x * b[i])))
}

/// The mean and variance of a distribution of outcomes.
fn moments(q: &[f64; 5]) -> (f64, f64) {
    let mean: f64 = (0..5).map(|i| q[i] * A[i]).sum();
    (mean, (0..5).map(|i| q[i] * (A[i] - mean).powi(2)).sum())
}

/// The distribution of outcomes with t-value (mean - `reference`) / sigma = `t` most likely to
/// give the frequencies `p`: the fixed-point iteration of "normalized_elo_practical.pdf",
/// section 4.1, from the uniform distribution until no probability moves by 1e-15 (fishtest
/// stops at 1e-9 or after 10 steps: the same fixed point, to fewer digits).
fn most_likely_with_t(p: &[f64; 5], reference: f64, t: f64) -> Option<[f64; 5]> {
    let mut q = [0.2; 5];
    for _ in 0..200 {
        let (mean, var) = moments(&q);
        let sigma = var.sqrt();
        let b = A.map(|a| a - reference - t * sigma * (1.0 + ((mean - a) / sigma).powi(2)) / 2.0);
        let x = secular(p, &b)?;
        let next: [f64; 5] = std::array::from_fn(|i| p[i] / (1.0 + x * b[i]));
        let moved = (0..5).map(|i| (next[i] - q[i]).abs()).fold(0.0, f64::max);
        q = next;
        if moved < 1e-15 {
            break;
        }
    }
    Some(q)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn logistic(elo0: f64, elo1: f64) -> Sprt {
        Sprt::new(elo0, elo1, 0.05, 0.05, EloModel::Logistic).unwrap()
    }

    fn normalized(elo0: f64, elo1: f64) -> Sprt {
        Sprt::new(elo0, elo1, 0.05, 0.05, EloModel::Normalized).unwrap()
    }

    /// Known LLRs. The reference values come from `scripts/sprt-reference.py`, written apart
    /// from this code from the published formulas (fishtest's GSPRT: the constrained maximum
    /// likelihood of "support_MLE_multinomial.pdf", Proposition 1.1, and for normalized Elo
    /// "normalized_elo_practical.pdf", section 4.1), in 60-digit decimal arithmetic; for the
    /// logistic model it finds each Lagrange multiplier twice, as the root of the secular
    /// equation and as the maximum of the concave dual, and checks that they agree.
    #[test]
    fn llrs_agree_with_the_reference() {
        let cases: [(Sprt, [u64; 5], f64); 9] = [
            (logistic(0.0, 10.0), [10, 30, 40, 50, 20], 1.531_984_994_833),
            (logistic(0.0, 10.0), [20, 50, 40, 30, 10], -1.872_829_924_015),
            (logistic(0.0, 5.0), [1, 2, 3, 2, 1], -0.002_795_319_939),
            (logistic(0.0, 10.0), [0, 5, 10, 7, 0], 0.144_657_786_014),
            (logistic(-3.0, 1.0), [10789, 19328, 33806, 19402, 10543], 2.131_067_811_788),
            (logistic(0.2, 0.9), [39, 2226, 31451, 2412, 40], 2.162_542_580_047),
            (normalized(0.764, 3.439), [39, 2226, 31451, 2412, 40], 2.162_940_869_584),
            (normalized(0.0, 5.0), [10, 30, 40, 50, 20], 0.669_894_326_100),
            (normalized(0.0, 5.0), [20, 50, 40, 30, 10], -0.731_079_219_674),
        ];
        for (sprt, counts, expected) in cases {
            let llr = sprt.llr(&Pentanomial(counts));
            assert!((llr - expected).abs() < 1e-9, "{} {counts:?}: {llr} against {expected}", sprt.describe());
        }
        assert_eq!(logistic(0.0, 10.0).llr(&Pentanomial::default()), 0.0);
    }

    #[test]
    fn bounds_and_verdicts() {
        let sprt = logistic(0.0, 10.0);
        let (lower, upper) = sprt.bounds();
        assert!((lower - (0.05f64 / 0.95).ln()).abs() < 1e-15 && (upper - 19f64.ln()).abs() < 1e-15);
        assert!((upper - 2.944_438_979_166).abs() < 1e-12);
        assert_eq!(sprt.verdict(2.95), Some(Verdict::H1));
        assert_eq!(sprt.verdict(-2.95), Some(Verdict::H0));
        assert_eq!(sprt.verdict(0.0), None);
        let tight = Sprt::new(0.0, 5.0, 0.01, 0.1, EloModel::Logistic).unwrap();
        assert!((tight.bounds().1 - 90f64.ln()).abs() < 1e-12);
        assert_eq!(sprt.status(1.234), "LLR 1.23 (-2.94, 2.94)");
        for (e0, e1, a, b) in
            [(5.0, 0.0, 0.05, 0.05), (0.0, 5.0, 0.0, 0.05), (0.0, 5.0, 0.05, 0.7), (0.0, f64::NAN, 0.05, 0.05)]
        {
            assert!(Sprt::new(e0, e1, a, b, EloModel::Logistic).is_err(), "{e0} {e1} {a} {b}");
        }
    }

    #[test]
    fn the_llr_grows_with_evidence_for_h1() {
        // The same frequencies twice as often: about twice the LLR (the 0.001 counts aside).
        let sprt = logistic(0.0, 10.0);
        let once = sprt.llr(&Pentanomial([10, 30, 40, 50, 20]));
        let twice = sprt.llr(&Pentanomial([20, 60, 80, 100, 40]));
        assert!((twice - 2.0 * once).abs() < 1e-9, "{once} {twice}");
        // Scores between the hypotheses' give an LLR between 0 and ... by the side they lean.
        let even = Pentanomial([10, 20, 40, 20, 10]);
        assert!(sprt.llr(&even) < 0.0, "an even score leans to H0: elo 0");
        assert!(logistic(-10.0, 0.0).llr(&even) > 0.0);
    }

    #[test]
    fn pairs_and_scores() {
        let mut p = Pentanomial::default();
        for (a, b) in [(0.0, 0.0), (0.0, 0.5), (1.0, 0.0), (0.5, 0.5), (1.0, 0.5), (1.0, 1.0), (0.5, 1.0)] {
            p.add(a, b);
        }
        assert_eq!(p, Pentanomial([1, 1, 2, 2, 1]));
        assert_eq!(p.to_string(), "[1, 1, 2, 2, 1]");
        let mut q = p;
        q.merge(&p);
        assert_eq!(q, Pentanomial([2, 2, 4, 4, 2]));
        assert_eq!(q.pairs(), 14);
        let (mean, error) = Pentanomial([0, 0, 4, 0, 0]).score().unwrap();
        assert_eq!((mean, error), (0.5, 0.0));
        let (mean, _) = p.score().unwrap();
        assert!((mean - (0.25 + 2.0 * 0.5 + 2.0 * 0.75 + 1.0) / 7.0).abs() < 1e-12);
        assert!(Pentanomial::default().score().is_none());
        assert!((elo_of_score(0.5)).abs() < 1e-12);
        assert!((elo_of_score(score_of_elo(123.0)) - 123.0).abs() < 1e-9);
        let (elo, low, high) = Pentanomial([5, 10, 20, 30, 10]).elo().unwrap();
        assert!(low < elo && elo < high && elo > 0.0);
    }
}
