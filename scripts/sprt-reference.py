#!/usr/bin/env python3
"""Reference values of the generalised SPRT's log-likelihood ratio on pentanomial counts, for the
unit tests of src/referee/sprt.rs. Written apart from the Rust code, from the published formulas:

- the outcomes of a game pair as a score per game, a_i = i/4, their observed frequencies p_i
  over N pairs (an outcome never seen counted 0.001 times, as fishtest does);
- logistic Elo: the most likely distribution with expected score s is q_i = p_i / (1 + x (a_i - s)),
  x the Lagrange multiplier (M. Van den Bergh, "support_MLE_multinomial.pdf", Proposition 1.1);
  s = 1 / (1 + 10^(-elo/400)); LLR = N sum_i p_i ln(q1_i / q0_i);
- normalized Elo: the most likely distribution with t-value (mu - 1/2)/sigma = t, by the fixed
  point of "normalized_elo_practical.pdf", section 4.1, iterated here to convergence;
  t = nelo / (800 / ln 10) * sqrt(2) for pairs.

Pure Python, 60-digit decimals. For the logistic model each multiplier is found twice: as the root
of the secular equation sum_i p_i b_i / (1 + x b_i) = 0 (bisection), and as the maximum of the
concave dual sum_i p_i ln(1 + x b_i) (golden-section search); the two must agree.

Usage: scripts/sprt-reference.py   (prints one line per case: model elo0 elo1 counts LLR)
"""
from decimal import Decimal as D, getcontext

getcontext().prec = 60
A = [D(i) / 4 for i in range(5)]


def freqs(counts):
    c = [D(x) if x else D("0.001") for x in counts]
    n = sum(c)
    return n, [x / n for x in c]


def interval(b):
    lo, hi = min(b), max(b)
    assert lo < 0 < hi
    return -1 / hi, -1 / lo


def root(p, b):
    lo, hi = interval(b)
    for _ in range(400):
        mid = (lo + hi) / 2
        f = sum(pi * bi / (1 + mid * bi) for pi, bi in zip(p, b))
        if f > 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def dual_max(p, b):
    lo, hi = interval(b)
    eps = (hi - lo) * D("1e-40")
    lo, hi = lo + eps, hi - eps
    g = lambda x: sum(pi * (1 + x * bi).ln() for pi, bi in zip(p, b))
    r = (D(5).sqrt() - 1) / 2
    x1, x2 = hi - r * (hi - lo), lo + r * (hi - lo)
    g1, g2 = g(x1), g(x2)
    for _ in range(400):
        if g1 < g2:
            lo, x1, g1 = x1, x2, g2
            x2 = lo + r * (hi - lo)
            g2 = g(x2)
        else:
            hi, x2, g2 = x2, x1, g1
            x1 = hi - r * (hi - lo)
            g1 = g(x1)
    return (lo + hi) / 2


def mle_mean(p, s):
    b = [a - s for a in A]
    x = root(p, b)
    x2 = dual_max(p, b)
    assert abs(x - x2) < D("1e-20") * max(1, abs(x)), (x, x2)
    q = [pi / (1 + x * bi) for pi, bi in zip(p, b)]
    assert abs(sum(q) - 1) < D("1e-40") and abs(sum(qi * a for qi, a in zip(q, A)) - s) < D("1e-40")
    return q


def mle_t(p, ref, t):
    q = [D(1) / 5] * 5
    for _ in range(1000):
        mu = sum(qi * a for qi, a in zip(q, A))
        sigma = sum(qi * (a - mu) ** 2 for qi, a in zip(q, A)).sqrt()
        b = [a - ref - t * sigma * (1 + ((mu - a) / sigma) ** 2) / 2 for a in A]
        x = root(p, b)
        new = [pi / (1 + x * bi) for pi, bi in zip(p, b)]
        moved = max(abs(u - v) for u, v in zip(new, q))
        q = new
        if moved < D("1e-45"):
            break
    mu = sum(qi * a for qi, a in zip(q, A))
    sigma = sum(qi * (a - mu) ** 2 for qi, a in zip(q, A)).sqrt()
    assert abs((mu - ref) / sigma - t) < D("1e-30")
    return q


def llr(model, elo0, elo1, counts):
    n, p = freqs(counts)
    if model == "logistic":
        s = [1 / (1 + D(10) ** (-D(e) / 400)) for e in (elo0, elo1)]
        q0, q1 = [mle_mean(p, x) for x in s]
    else:
        k = 800 / D(10).ln()
        t = [D(e) / k * D(2).sqrt() for e in (elo0, elo1)]
        q0, q1 = [mle_t(p, D(1) / 2, x) for x in t]
    return n * sum(pi * (b.ln() - a.ln()) for pi, a, b in zip(p, q0, q1))


CASES = [
    ("logistic", "0", "10", [10, 30, 40, 50, 20]),
    ("logistic", "0", "10", [20, 50, 40, 30, 10]),
    ("logistic", "0", "5", [1, 2, 3, 2, 1]),
    ("logistic", "0", "10", [0, 5, 10, 7, 0]),
    ("logistic", "-3", "1", [10789, 19328, 33806, 19402, 10543]),
    ("logistic", "0.2", "0.9", [39, 2226, 31451, 2412, 40]),
    ("normalized", "0.764", "3.439", [39, 2226, 31451, 2412, 40]),
    ("normalized", "0", "5", [10, 30, 40, 50, 20]),
    ("normalized", "0", "5", [20, 50, 40, 30, 10]),
]

if __name__ == "__main__":
    for model, e0, e1, counts in CASES:
        print(model, e0, e1, counts, "%.12f" % llr(model, e0, e1, counts))
