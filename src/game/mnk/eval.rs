//! The evaluation and move order of m,n,k-games read from the line patterns (see
//! [`crate::game::kinarow::patterns`]), where the board keeps them: K = 5 on boards beyond the
//! exact solvers' range (see [`super::Mnk::new`]). Elsewhere the window sums serve.
//!
//! An empty cell is worth to a side what its stone there would make: a value by the cell's
//! *combination*, its four line patterns taken together regardless of direction (one of
//! [`COMBOS`] multisets: an open three beside a three is worth more than either alone), under two
//! weightings, one for the side to move and one for the side that is not. The board keeps the
//! sums of these values over its empty cells as the patterns change
//! ([`Patterns::value_sums`]); the evaluation is the side to move's sum less the other's, plus
//! a term for each threat class a side has at least one cell of (the first such cell is what
//! counts: a second four-three cell wins no more than the first). It is linear in the weights,
//! which `boardbot tune` fits by name ([`names`]), the compiled-in ones read from
//! `weights.txt` beside this file.

use crate::game::kinarow::patterns::{
    index_patterns, Pattern, Patterns, Weights, CLASSES, CLASS_INDICES, F5, PATTERNS,
};
use crate::game::kinarow::Lines;
use crate::search::{Score, EVAL_LIMIT};
use std::sync::OnceLock;

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

/// How many combinations of four patterns there are (multisets of 4 of the 13): C(16, 4).
pub const COMBOS: usize = 1820;

/// The combinations: each as its patterns strongest first, in lexicographic order of that;
/// and the combination of each class index (the four patterns by direction).
struct Combos {
    list: Vec<[Pattern; 4]>,
    of_index: Vec<u16>,
}

fn combos() -> &'static Combos {
    static COMBOS_: OnceLock<Combos> = OnceLock::new();
    COMBOS_.get_or_init(|| {
        let mut list = Vec::with_capacity(COMBOS);
        let top = PATTERNS as Pattern;
        for a in 0..top {
            for b in 0..=a {
                for c in 0..=b {
                    for d in 0..=c {
                        list.push([a, b, c, d]);
                    }
                }
            }
        }
        assert_eq!(list.len(), COMBOS);
        let of_index = (0..CLASS_INDICES)
            .map(|i| {
                let mut p = index_patterns(i);
                p.sort_unstable_by(|x, y| y.cmp(x));
                list.binary_search(&p).expect("every sorted four is listed") as u16
            })
            .collect();
        Combos { list, of_index }
    })
}

/// The combination of class index `index` (see [`Patterns::class_index`]).
#[inline]
pub fn combo_of(index: u16) -> usize {
    combos().of_index[index as usize] as usize
}

/// A combination's name: its patterns strongest first, joined by `+` (`F3+B3+F1+DEAD`).
pub fn combo_name(combo: usize) -> String {
    combos().list[combo].map(|p| PATTERN_NAMES[p as usize]).join("+")
}

/// The evaluation's weights: `cell[c][w]` what an empty cell of combination `c` is worth to a
/// side under the weighting `w` (0: the side is to move, 1: it is not); `threat[s][c]` the term
/// for having at least one cell of class `c` (s 0: the side to move, 1: the other).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalWeights {
    pub cell: Vec<[i32; 2]>,
    pub threat: [[i32; CLASSES]; 2],
}

/// The weights compiled in (see [`default`]): `weights.txt`, written by `boardbot tune`.
const WEIGHTS_FILE: &str = include_str!("weights.txt");

/// The weights compiled in.
pub fn default() -> &'static EvalWeights {
    static DEFAULT: OnceLock<EvalWeights> = OnceLock::new();
    DEFAULT.get_or_init(|| {
        let file = crate::search::WeightFile::parse(WEIGHTS_FILE).expect("weights.txt reads");
        let mut w = EvalWeights { cell: vec![[0; 2]; COMBOS], threat: [[0; CLASSES]; 2] };
        let mut values = w.to_values();
        for (name, value) in &file.values {
            let i = names().iter().position(|n| n == name).unwrap_or_else(|| panic!("weights.txt: {name}?"));
            values[i] = *value;
        }
        w = EvalWeights::from_values(&values).expect("counted");
        w
    })
}

/// The ordering weights (pattern order as [`PATTERN_NAMES`], class order as [`CLASS_NAMES`])
/// and the compiled-in cell values by class index, which the board sums.
pub fn pattern_weights() -> &'static Weights {
    static WEIGHTS: OnceLock<Weights> = OnceLock::new();
    WEIGHTS.get_or_init(|| Weights {
        score: [0, 1, 2, 2, 5, 6, 7, 6, 20, 22, 15, 200, 5000],
        class_score: [0, 3, 3, 15, 15, 40, 80, 300, 10, 100, 1500, 3000, 50000],
        values: (0..CLASS_INDICES).map(|i| default().cell[combo_of(i as u16)]).collect(),
    })
}

/// A stone's ordering score for the side to move: its own score plus this share (in 1/8) of
/// what the same cell is worth to the opponent (a defence).
pub const DEFENCE_EIGHTHS: i64 = 7;

/// The weights' names, in the order of [`EvalWeights::to_values`]: `cell.move.COMBO`,
/// `cell.wait.COMBO` (see [`combo_name`]), `threat.mine.CLASS`, `threat.theirs.CLASS`.
pub fn names() -> &'static [&'static str] {
    static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
    NAMES.get_or_init(|| {
        let mut v = Vec::new();
        for who in ["move", "wait"] {
            v.extend((0..COMBOS).map(|c| format!("cell.{who}.{}", combo_name(c))));
        }
        for who in ["mine", "theirs"] {
            v.extend(CLASS_NAMES.iter().map(|n| format!("threat.{who}.{n}")));
        }
        v.into_iter().map(|s| &*Box::leak(s.into_boxed_str())).collect()
    })
}

/// The weights a tuner leaves alone: a cell dead in every direction (they only shift the
/// score), a cell that makes a five (a position with one is never evaluated for the side to
/// move: the win is taken first; for the other it is a four to answer, searched, not
/// evaluated), and the threat terms of no class and of a five.
pub fn fixed() -> &'static [&'static str] {
    static FIXED: OnceLock<Vec<&'static str>> = OnceLock::new();
    FIXED.get_or_init(|| {
        let dead = combo_name(0);
        let five = PATTERN_NAMES[F5 as usize];
        names()
            .iter()
            .copied()
            .filter(|n| {
                n.ends_with(&format!(".{dead}"))
                    || n.split(['.', '+']).any(|part| part == five)
                    || n.ends_with(".NONE")
                    || n.ends_with(".FIVE")
            })
            .collect()
    })
}

impl EvalWeights {
    /// The values in the order of [`names`].
    pub fn to_values(&self) -> Vec<i32> {
        let mut v = Vec::with_capacity(names().len());
        for w in 0..2 {
            v.extend(self.cell.iter().map(|c| c[w]));
        }
        v.extend(self.threat.iter().flatten());
        v
    }

    /// From values in the order of [`names`] (None if there are not as many).
    pub fn from_values(v: &[i32]) -> Option<EvalWeights> {
        if v.len() != 2 * COMBOS + 2 * CLASSES {
            return None;
        }
        let mut w = EvalWeights { cell: vec![[0; 2]; COMBOS], threat: [[0; CLASSES]; 2] };
        for (i, &x) in v[..2 * COMBOS].iter().enumerate() {
            w.cell[i % COMBOS][i / COMBOS] = x;
        }
        for (i, &x) in v[2 * COMBOS..].iter().enumerate() {
            w.threat[i / CLASSES][i % CLASSES] = x;
        }
        Some(w)
    }
}

/// The evaluation from the view of `me` (0 first player, 1 second), to move, with weights `w`.
/// With `summed` the board's sums of the compiled-in values serve (`w` must be those); otherwise
/// the cells are summed here (any weights: the tuner's, a weights file's).
pub fn evaluate(lines: &Lines, p: &Patterns, me: usize, w: &EvalWeights, summed: bool) -> Score {
    let other = 1 - me;
    let mut v = if summed {
        p.value_sums(me)[0] as i64 - p.value_sums(other)[1] as i64
    } else {
        (0..lines.cell_count())
            .filter(|&c| lines.is_empty_cell(c))
            .map(|c| {
                let (mine, theirs) = (combo_of(p.class_index(c, me)), combo_of(p.class_index(c, other)));
                w.cell[mine][0] as i64 - w.cell[theirs][1] as i64
            })
            .sum()
    };
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

/// The evaluation's features, the counts its weights are multiplied by (see [`evaluate`]):
/// (index in [`names`], count), from the view of `me`, to move, before the clamp.
pub fn features(lines: &Lines, p: &Patterns, me: usize) -> Vec<(u32, f32)> {
    let other = 1 - me;
    let mut count = vec![0i32; 2 * COMBOS];
    for c in (0..lines.cell_count()).filter(|&c| lines.is_empty_cell(c)) {
        count[combo_of(p.class_index(c, me))] += 1;
        count[COMBOS + combo_of(p.class_index(c, other))] -= 1;
    }
    let mut out: Vec<(u32, f32)> =
        count.iter().enumerate().filter(|(_, &n)| n != 0).map(|(i, &n)| (i as u32, n as f32)).collect();
    let (mine, theirs) = (p.class_counts(me), p.class_counts(other));
    for class in 1..CLASSES {
        if mine[class] > 0 {
            out.push(((2 * COMBOS + class) as u32, 1.0));
        }
        if theirs[class] > 0 {
            out.push(((2 * COMBOS + CLASSES + class) as u32, 1.0));
        }
    }
    out
}

/// The ordering score of a stone of `me` on the empty `cell`.
#[inline]
pub fn move_score(p: &Patterns, cell: usize, me: usize) -> i64 {
    p.score(cell, me) as i64 + p.score(cell, 1 - me) as i64 * DEFENCE_EIGHTHS / 8
}
