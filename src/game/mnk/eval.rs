//! The evaluation and move order of m,n,k-games read from the line patterns (see
//! [`crate::game::kinarow::patterns`]), where the board keeps them: K = 5 on boards beyond the
//! exact solvers' range (see [`super::Mnk::new`]). Elsewhere the window sums serve.
//!
//! An empty cell scores for a side by what its stone there would make: a value per direction
//! by the line pattern, and one by the cell's threat class, under two weightings, one for the
//! side to move and one for the side that is not. The board counts, per side, the (cell,
//! direction) pairs of each pattern and the cells of each class; the evaluation is the side to
//! move's counts times its weights less the other's, plus a term for each threat class a side
//! has at least one cell of (the first such cell is what counts: a second four-three cell wins
//! no more than the first). It is linear in the weights, which `boardbot tune` fits by name
//! ([`names`]).

use crate::game::kinarow::patterns::{Patterns, Weights, CLASSES, PATTERNS};
use crate::search::{Score, EVAL_LIMIT};

/// The patterns' names, in their order.
pub const PATTERN_NAMES: [&str; PATTERNS] =
    ["DEAD", "B1", "F1", "B2", "F2", "F2A", "F2B", "B3", "F3", "F3S", "B4", "F4", "F5"];
/// The classes' names, in their order.
pub const CLASS_NAMES: [&str; CLASSES] = [
    "NONE",
    "FLEX2",
    "BLOCK3",
    "FLEX2X2",
    "BLOCK3_PLUS",
    "FLEX3",
    "FLEX3_PLUS",
    "FLEX3X2",
    "BLOCK4",
    "BLOCK4_PLUS",
    "BLOCK4_FLEX3",
    "FLEX4",
    "FIVE",
];

/// The evaluation's weights: `value[w][p]` what an empty cell scores for a side by its pattern
/// `p` in one direction, `class_value[w][c]` by its class `c`, under the weighting `w` (0: the
/// side is to move, 1: it is not); `threat[s][c]` the term for having at least one cell of
/// class `c` (s 0: the side to move, 1: the other).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalWeights {
    pub value: [[i32; PATTERNS]; 2],
    pub class_value: [[i32; CLASSES]; 2],
    pub threat: [[i32; CLASSES]; 2],
}

/// The weights compiled in: fitted by `boardbot tune` to 1,500 self-play games at 5,000 nodes a
/// move from the balanced openings (docs/results/tuning.md, section 4; they replaced issue 42's
/// after an SPRT at 0.1 s: +148 Elo). `value.move.F4` and `class.move.FLEX4` nearly cancel: an
/// open four of the side to move is a won position the search takes before it evaluates.
pub const DEFAULT: EvalWeights = EvalWeights {
    value: [[0, 0, 0, 0, 3, 2, 3, 5, 53, 52, 21, -2941, 100], [0, 0, 0, 0, 2, 2, 3, 3, -2, -5, -60, -111, 80]],
    class_value: [
        [0, -3, -4, -4, -6, -49, -48, -113, -12, -1, 478, 2949, 500],
        [0, -3, -2, -4, -4, 6, 7, 4, 69, 80, 158, 140, 300],
    ],
    threat: [[0, 12, 4, 17, 4, 0, 34, 37, -2, -1, -359, 1179, 0], [0, -4, 3, -18, -2, -5, -33, -19, 3, 10, 35, -22, 0]],
};

/// The ordering weights (pattern order as [`PATTERN_NAMES`], class order as [`CLASS_NAMES`]).
pub static WEIGHTS: Weights = Weights {
    score: [0, 1, 2, 2, 5, 6, 7, 6, 20, 22, 15, 200, 5000],
    class_score: [0, 3, 3, 15, 15, 40, 80, 300, 10, 100, 1500, 3000, 50000],
};

/// A stone's ordering score for the side to move: its own score plus this share (in 1/8) of
/// what the same cell is worth to the opponent (a defence).
pub const DEFENCE_EIGHTHS: i64 = 7;

/// The weights' names, in the order of [`EvalWeights::to_values`]: `value.move.P`,
/// `value.wait.P`, `class.move.C`, `class.wait.C`, `threat.mine.C`, `threat.theirs.C`.
pub fn names() -> &'static [&'static str] {
    static NAMES: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| {
        let mut v = Vec::new();
        for (group, list) in [("value", &PATTERN_NAMES[..]), ("class", &CLASS_NAMES[..])] {
            for who in ["move", "wait"] {
                v.extend(list.iter().map(|n| format!("{group}.{who}.{n}")));
            }
        }
        for who in ["mine", "theirs"] {
            v.extend(CLASS_NAMES.iter().map(|n| format!("threat.{who}.{n}")));
        }
        v.into_iter().map(|s| &*Box::leak(s.into_boxed_str())).collect()
    })
}

/// The weights a tuner leaves alone: a dead line, no class (every empty cell has some pattern
/// and class, so these only shift the score), and a five (a position with one is never
/// evaluated: the win is taken first).
pub fn fixed() -> &'static [&'static str] {
    static FIXED: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    FIXED.get_or_init(|| {
        names()
            .iter()
            .copied()
            .filter(|n| n.ends_with(".DEAD") || n.ends_with(".NONE") || n.ends_with(".F5") || n.ends_with(".FIVE"))
            .collect()
    })
}

impl EvalWeights {
    /// The values in the order of [`names`].
    pub fn to_values(&self) -> Vec<i32> {
        let mut v = Vec::with_capacity(names().len());
        v.extend(self.value.iter().flatten());
        v.extend(self.class_value.iter().flatten());
        v.extend(self.threat.iter().flatten());
        v
    }

    /// From values in the order of [`names`] (None if there are not as many).
    pub fn from_values(v: &[i32]) -> Option<EvalWeights> {
        if v.len() != 2 * PATTERNS + 4 * CLASSES {
            return None;
        }
        let mut w =
            EvalWeights { value: [[0; PATTERNS]; 2], class_value: [[0; CLASSES]; 2], threat: [[0; CLASSES]; 2] };
        let mut it = v.iter().copied();
        for row in w.value.iter_mut() {
            row.iter_mut().for_each(|x| *x = it.next().expect("counted"));
        }
        for row in w.class_value.iter_mut().chain(w.threat.iter_mut()) {
            row.iter_mut().for_each(|x| *x = it.next().expect("counted"));
        }
        Some(w)
    }
}

/// What `side`'s empty cells are worth under weighting `weighting`.
#[inline]
fn value(p: &Patterns, w: &EvalWeights, side: usize, weighting: usize) -> i64 {
    let pats = p.pattern_counts(side).iter().zip(&w.value[weighting]).map(|(&n, &x)| n as i64 * x as i64);
    let classes = p.class_counts(side).iter().zip(&w.class_value[weighting]).map(|(&n, &x)| n as i64 * x as i64);
    pats.sum::<i64>() + classes.sum::<i64>()
}

/// The evaluation from the view of `me` (0 first player, 1 second), to move, with weights `w`.
pub fn evaluate(p: &Patterns, me: usize, w: &EvalWeights) -> Score {
    let other = 1 - me;
    let mut v = value(p, w, me, 0) - value(p, w, other, 1);
    let (mine, theirs) = (p.class_counts(me), p.class_counts(other));
    for class in 1..CLASSES {
        if mine[class] > 0 {
            v += w.threat[0][class] as i64;
        }
        if theirs[class] > 0 {
            v += w.threat[1][class] as i64;
        }
    }
    v.clamp(-(EVAL_LIMIT as i64), EVAL_LIMIT as i64) as Score
}

/// The ordering score of a stone of `me` on the empty `cell`.
#[inline]
pub fn move_score(p: &Patterns, cell: usize, me: usize) -> i64 {
    p.score(cell, me) as i64 + p.score(cell, 1 - me) as i64 * DEFENCE_EIGHTHS / 8
}
