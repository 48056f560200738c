//! What search needs to know about Connect-X: the window evaluation, playable immediate wins,
//! forced blocks, and never dropping a piece right under an enemy threat (it lets the enemy win
//! on the next move).

use super::{solver, Column, ConnectX};
use crate::game::{Game, Side};
use crate::search::{Candidate, ExactMove, Knowledge, Proof, RootKnowledge, Score};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

/// What the engine knows of Connect-X beyond the rules; with the exact solver's table (kept
/// across moves and games) on the boards in its range.
#[derive(Clone, Debug, Default)]
pub struct CxKnowledge {
    pub(super) solver: Option<Arc<solver::BoundTable>>,
}

impl CxKnowledge {
    /// The evaluation and tactics only.
    pub fn new() -> CxKnowledge {
        CxKnowledge::default()
    }

    /// With the exact solver on `table`, if `game`'s board is in its range.
    pub fn with_solver(game: &ConnectX, table: Arc<solver::BoundTable>) -> CxKnowledge {
        CxKnowledge { solver: game.solver_fits().then_some(table) }
    }
}

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

impl Knowledge<ConnectX> for CxKnowledge {
    fn evaluate(&self, g: &ConnectX) -> Score {
        g.lines.evaluation(g.to_move())
    }

    fn winning_move(&self, g: &ConnectX) -> Option<Column> {
        g.playable_threats(g.to_move()).next().map(|cell| (cell % g.cols()) as Column)
    }

    fn quiet(&self, g: &ConnectX) -> bool {
        g.playable_threats(g.to_move().other()).next().is_none()
    }

    fn candidates(&self, g: &ConnectX, out: &mut Vec<Candidate<Column>>) -> bool {
        let me = g.to_move();
        let enemy = me.other();
        let mut forced = g.playable_threats(enemy).map(|cell| (cell % g.cols()) as Column).peekable();
        if forced.peek().is_some() {
            out.extend(forced.map(|mv| Candidate { mv, score: 0 }));
            return true;
        }
        let centre = (g.cols() as i64 - 1) as f64 / 2.0;
        let start = out.len();
        for col in 0..g.cols() {
            if let Some(cell) = g.landing_cell(col) {
                if g.feeds_threat(col, enemy) {
                    continue;
                }
                let off_centre = (col as f64 - centre).abs() as i64;
                let score = g.lines.move_gain(cell, me) * 4 - off_centre;
                out.push(Candidate { mv: col as Column, score });
            }
        }
        if out.len() == start {
            // Every move feeds a threat: the game is lost; any legal move will do.
            let mut all = Vec::new();
            g.legal_moves(&mut all);
            out.extend(all.into_iter().map(|mv| Candidate { mv, score: 0 }));
        }
        true
    }

    fn can_win(&self, g: &ConnectX, side: Side) -> bool {
        g.lines.can_win(side)
    }
}

impl RootKnowledge<ConnectX> for CxKnowledge {
    fn solve_exactly(&self, g: &ConnectX, deadline: Instant, stop: Option<&AtomicBool>) -> Option<Proof<Column>> {
        self.exact_proof(g, deadline, stop)
    }

    fn wins_exactly(&self, g: &ConnectX, deadline: Instant, stop: Option<&AtomicBool>) -> Option<bool> {
        self.exact_wins(g, deadline, stop)
    }

    fn exact_move_values(
        &self,
        g: &ConnectX,
        deadline: Instant,
        stop: Option<&AtomicBool>,
    ) -> Option<Vec<ExactMove<Column>>> {
        self.exact_columns(g, deadline, stop)
    }
}
