//! The evaluation and move order of m,n,k-games read from the line patterns (see
//! [`crate::game::kinarow::patterns`]), where the board keeps them: K = 5 on boards beyond the
//! exact solvers' range (see [`super::Mnk::new`]). Elsewhere the window sums serve.
//!
//! An empty cell scores for a side by what its stone there would make: a value per direction
//! by the line pattern, and one by the cell's threat class; the board keeps each side's sums
//! under two weightings, one for the side to move and one for the side that is not. The
//! evaluation is the side to move's sum less the other's, plus a term for each threat class
//! a side has at least one cell of (the first such cell is what counts: a second four-three
//! cell wins no more than the first).

use crate::game::kinarow::patterns::{Patterns, Weights, CLASSES};
use crate::search::{Score, EVAL_LIMIT};

/// The patterns' weights (pattern order: DEAD B1 F1 B2 F2 F2A F2B B3 F3 F3S B4 F4 F5; class
/// order: NONE FLEX2 BLOCK3 FLEX2X2 BLOCK3_PLUS FLEX3 FLEX3_PLUS FLEX3X2 BLOCK4 BLOCK4_PLUS
/// BLOCK4_FLEX3 FLEX4 FIVE).
pub static WEIGHTS: Weights = Weights {
    value: [[0, -1, 1, -1, 11, -1, 23, -10, 5, 6, 35, 0, 100], [0, 0, 1, -1, 16, 3, 24, -13, -1, -7, 6, 79, 80]],
    class_value: [
        [0, -17, 7, -25, 6, -2, 42, -52, -43, 132, 752, 0, 500],
        [0, -21, 8, -37, 7, 5, 23, -67, 12, 128, 135, 200, 300],
    ],
    score: [0, 1, 2, 2, 5, 6, 7, 6, 20, 22, 15, 200, 5000],
    class_score: [0, 3, 3, 15, 15, 40, 80, 300, 10, 100, 1500, 3000, 50000],
};

/// Terms for having at least one cell of a class: [the side to move, the other side][class].
pub static THREAT: [[i32; CLASSES]; 2] =
    [[0, 11, 30, 25, 57, 8, 78, 406, 52, -65, 495, 0, 0], [0, 0, 2, 5, -37, -46, -85, -214, -38, 87, -100, 119, 0]];

/// A stone's ordering score for the side to move: its own score plus this share (in 1/8) of
/// what the same cell is worth to the opponent (a defence).
pub const DEFENCE_EIGHTHS: i64 = 7;

/// The evaluation from the view of `me` (0 first player, 1 second), to move.
pub fn evaluate(p: &Patterns, me: usize) -> Score {
    let other = 1 - me;
    let mut v = p.value(me, 0) - p.value(other, 1);
    for (class, (&mine, &theirs)) in THREAT[0].iter().zip(&THREAT[1]).enumerate().skip(1) {
        if p.count(me, class as u8) > 0 {
            v += mine as i64;
        }
        if p.count(other, class as u8) > 0 {
            v += theirs as i64;
        }
    }
    v.clamp(-(EVAL_LIMIT as i64), EVAL_LIMIT as i64) as Score
}

/// The ordering score of a stone of `me` on the empty `cell`.
#[inline]
pub fn move_score(p: &Patterns, cell: usize, me: usize) -> i64 {
    p.score(cell, me) as i64 + p.score(cell, 1 - me) as i64 * DEFENCE_EIGHTHS / 8
}
