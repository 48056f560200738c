//! Lines of stones on 64-bit bitboards, found by shifts. A board lays its cells out so that a
//! shift by a direction's step moves every cell to its neighbour in that direction, and so that
//! a line crossing the board's edge meets a bit that is never set (a padding row or column):
//! no line wraps around.

/// Shifts that stay defined for any amount (a shift by 64 or more gives 0), without a branch.
#[inline(always)]
pub fn shl(v: u64, n: u32) -> u64 {
    v.wrapping_shl(n) & ((n < 64) as u64).wrapping_neg()
}
#[inline(always)]
pub fn shr(v: u64, n: u32) -> u64 {
    v.wrapping_shr(n) & ((n < 64) as u64).wrapping_neg()
}

/// The cells (occupied or not, padding included) that would complete K + 1 in a row with
/// `stones` along the direction of step `s`: a cell with `a` stones in a row behind it and
/// K - a ahead of it, for some a. Unrolled for a constant K (and constant shifts if `s` is one).
#[inline(always)]
pub fn completions_along<const K: usize>(stones: u64, s: u32) -> u64 {
    // ahead[b]: cells with b stones in a row ahead of them.
    let mut ahead = [u64::MAX; 8];
    for b in 1..=K {
        ahead[b] = ahead[b - 1] & shr(stones, b as u32 * s);
    }
    // behind: cells with a stones in a row behind them, for a = 0, 1, ... K.
    let mut behind = u64::MAX;
    let mut result = 0;
    for a in 0..=K {
        if a > 0 {
            behind &= shl(stones, a as u32 * s);
        }
        result |= behind & ahead[K - a];
    }
    result
}

/// [`completions_along`] for any line length `x` (at least 1), in each direction of `steps`:
/// O(x) shifts a direction (it was O(x^2): `cx 6 7 255` spent seconds a move in here). A
/// direction along which `x` cells span 64 bits or more holds no line, and costs nothing.
pub fn completions_long(stones: u64, x: u32, steps: &[u32]) -> u64 {
    let k = x - 1;
    let mut result = 0;
    for &s in steps {
        if k.checked_mul(s).is_none_or(|span| span >= 64) {
            continue;
        }
        let k = k as usize;
        // ahead[b]: cells with b stones in a row ahead of them (k < 64: the span is below 64).
        let mut ahead = [0u64; 64];
        ahead[0] = u64::MAX;
        for b in 1..=k {
            ahead[b] = ahead[b - 1] & shr(stones, b as u32 * s);
        }
        // behind: cells with a stones in a row behind them, for a = 0, 1, ... k.
        let mut behind = u64::MAX;
        for a in 0..=k {
            if a > 0 {
                behind &= shl(stones, a as u32 * s);
                if behind == 0 {
                    break;
                }
            }
            result |= behind & ahead[k - a];
        }
    }
    result
}

/// Whether `stones` hold `x` in a row along one of `steps`.
pub fn has_line(stones: u64, x: u32, steps: &[u32]) -> bool {
    steps.iter().any(|&s| {
        let mut run = stones;
        for i in 1..x {
            run &= shr(stones, i * s);
            if run == 0 {
                return false;
            }
        }
        run != 0
    })
}
