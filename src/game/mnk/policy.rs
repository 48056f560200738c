//! The move policy of free-style gomoku: the order of the quiet moves of a 15x15 (or larger)
//! K = 5 board, learned from the moves a strong engine chose.
//!
//! A stone's policy score is a value for the cell's combination for the side to move (what its
//! stone there makes; see [`combo_name`]) plus a value for the cell's combination for the
//! opponent (what the stone spoils): 2 x [`COMBOS`] weights, `own.COMBO` and `opp.COMBO`, in
//! hundredths of a logit. `boardbot tune mnk 15 15 5 --policy --data LOG` fits them to the
//! moves of match logs as a softmax over the candidates (the chosen move against the others);
//! the compiled-in ones are read from `policy.txt` beside this file. It orders the moves of a
//! quiet node where every empty cell near the stones is a candidate; where the opponent
//! threatens, the threat answers keep their own order ([`eval::move_score`]).

use super::eval::{combo_name, combo_of, COMBOS};
use super::Mnk;
use crate::game::kinarow::patterns::{Patterns, BLOCK4_FLEX3, FLEX4};
use crate::search::{Game, WeightFile, Weights};
use std::sync::OnceLock;

const POLICY_FILE: &str = include_str!("policy.txt");

/// The policy's weight names, `own.COMBO` then `opp.COMBO`, each in combination order.
pub fn names() -> &'static [&'static str] {
    static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
    NAMES.get_or_init(|| {
        let mut v = Vec::with_capacity(2 * COMBOS);
        for who in ["own", "opp"] {
            v.extend((0..COMBOS).map(|c| &*Box::leak(format!("{who}.{}", combo_name(c)).into_boxed_str())));
        }
        v
    })
}

/// The compiled-in weights (those `policy.txt` does not name are 0).
pub fn default_weights() -> &'static Weights {
    static DEFAULT: OnceLock<Weights> = OnceLock::new();
    DEFAULT.get_or_init(|| {
        let mut w = Weights::new(names(), &vec![0; 2 * COMBOS], &[]);
        w.apply(&WeightFile::parse(POLICY_FILE).expect("policy.txt reads")).expect("policy.txt names policy weights");
        w
    })
}

/// The policy as play reads it: per combination, the value of a stone for the side to move
/// (`[0]`) and for the opponent (`[1]`). (Made from the file without [`names`]: a process
/// that only plays keeps 14 KiB for it, within gomocup's `INFO max_memory`.)
#[derive(Debug)]
pub struct Policy {
    by_combo: Vec<[i32; 2]>,
}

impl Policy {
    /// The compiled-in policy.
    pub fn built_in() -> &'static Policy {
        static BUILT_IN: OnceLock<Policy> = OnceLock::new();
        BUILT_IN.get_or_init(|| {
            let file = WeightFile::parse(POLICY_FILE).expect("policy.txt reads");
            let combos: std::collections::HashMap<String, usize> = (0..COMBOS).map(|c| (combo_name(c), c)).collect();
            let mut by_combo = vec![[0; 2]; COMBOS];
            for (name, value) in &file.values {
                let (side, combo) = match name.split_once('.') {
                    Some(("own", combo)) => (0, combo),
                    Some(("opp", combo)) => (1, combo),
                    _ => panic!("policy.txt: {name}?"),
                };
                by_combo[*combos.get(combo).unwrap_or_else(|| panic!("policy.txt: {name}?"))][side] = *value;
            }
            Policy { by_combo }
        })
    }

    /// The score of a stone of `me` (0 or 1) on the empty `cell`.
    #[inline]
    pub fn score(&self, p: &Patterns, cell: usize, me: usize) -> i64 {
        let own = self.by_combo[combo_of(p.class_index(cell, me))][0];
        let opp = self.by_combo[combo_of(p.class_index(cell, 1 - me))][1];
        (own + opp) as i64
    }
}

/// Whether the policy orders `g`'s moves: a board that keeps patterns, K = 5, at least 15 x 15
/// (free-style gomoku, the boards its games were played on and larger).
pub fn applies(g: &Mnk) -> bool {
    let l = &g.lines;
    l.patterns().is_some() && l.k() == 5 && l.rows() >= 15 && l.cols() >= 15
}

/// Whether the policy orders the moves of this position of `g` (it [`applies`]): no threat to
/// answer (no five, open four, four or four-three cell of the opponent's), and every empty cell
/// near the stones is a candidate.
pub fn orders(g: &Mnk, p: &Patterns) -> bool {
    let o = g.to_move().other();
    g.lines.threats(o).is_empty()
        && p.count(o.index(), FLEX4) == 0
        && p.count(o.index(), BLOCK4_FLEX3) == 0
        && !g.near_empty.is_empty()
}

/// For the tuner: where the policy orders the position, every candidate (the empty cells near
/// the stones) with its two features, the indices of its `own.` and `opp.` weights.
pub fn features(g: &Mnk) -> Option<Vec<(u32, Vec<u32>)>> {
    let p = g.lines.patterns().filter(|p| applies(g) && orders(g, p))?;
    let (m, o) = (g.to_move().index(), g.to_move().other().index());
    let feature = |c: u32| {
        let (own, opp) = (combo_of(p.class_index(c as usize, m)), combo_of(p.class_index(c as usize, o)));
        vec![own as u32, (COMBOS + opp) as u32]
    };
    Some(g.near_empty.as_slice().iter().map(|&c| (c, feature(c))).collect())
}
