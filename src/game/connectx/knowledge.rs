//! What search needs to know about Connect-X: the window evaluation, playable immediate wins,
//! forced blocks, and never dropping a piece right under an enemy threat (it lets the enemy win
//! on the next move).

use super::{Column, ConnectX};
use crate::game::{Game, Side};
use crate::search::{Candidate, Proof, Score, Searchable};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

impl ConnectX {
    /// Playable threat cells of `side`.
    fn playable_threats(&self, side: Side) -> impl Iterator<Item = usize> + '_ {
        self.lines.threats(side).iter().map(|&c| c as usize).filter(move |&c| self.is_playable_cell(c))
    }

    /// Whether dropping in `col` gives the cell above it to the enemy as an immediate win.
    fn feeds_threat(&self, col: usize, enemy: Side) -> bool {
        match self.landing_cell(col) {
            Some(cell) if cell >= self.cols() => self.lines.is_threat(enemy, cell - self.cols()),
            _ => false,
        }
    }
}

impl Searchable for ConnectX {
    fn evaluate(&self) -> Score {
        self.lines.evaluation(self.to_move())
    }

    fn winning_move(&self) -> Option<Column> {
        self.playable_threats(self.to_move()).next().map(|cell| (cell % self.cols()) as Column)
    }

    fn quiet(&self) -> bool {
        self.playable_threats(self.to_move().other()).next().is_none()
    }

    fn candidates(&self, out: &mut Vec<Candidate<Column>>) -> bool {
        let me = self.to_move();
        let enemy = me.other();
        let mut forced = self.playable_threats(enemy).map(|cell| (cell % self.cols()) as Column).peekable();
        if forced.peek().is_some() {
            out.extend(forced.map(|mv| Candidate { mv, score: 0 }));
            return true;
        }
        let centre = (self.cols() as i64 - 1) as f64 / 2.0;
        let start = out.len();
        for col in 0..self.cols() {
            if let Some(cell) = self.landing_cell(col) {
                if self.feeds_threat(col, enemy) {
                    continue;
                }
                let off_centre = (col as f64 - centre).abs() as i64;
                let score = self.lines.move_gain(cell, me) * 4 - off_centre;
                out.push(Candidate { mv: col as Column, score });
            }
        }
        if out.len() == start {
            // Every move feeds a threat: the game is lost; any legal move will do.
            let mut all = Vec::new();
            self.legal_moves(&mut all);
            out.extend(all.into_iter().map(|mv| Candidate { mv, score: 0 }));
        }
        true
    }

    fn can_win(&self, side: Side) -> bool {
        self.lines.can_win(side)
    }

    fn solve_exactly(&self, deadline: Instant, stop: Option<&AtomicBool>) -> Option<Proof<Column>> {
        self.exact_proof(deadline, stop)
    }

    fn wins_exactly(&self, deadline: Instant, stop: Option<&AtomicBool>) -> Option<bool> {
        self.exact_wins(deadline, stop)
    }
}
