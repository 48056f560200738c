//! What search needs to know about m,n,k-games: the window evaluation, immediate wins, forced
//! blocks, and candidate moves near the stones, ordered by how much they change the evaluation.

use super::{Cell, Mnk};
use crate::game::{Game, Side};
use crate::search::{Candidate, Proof, Score, Searchable, WIN};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Boards up to this many cells consider every empty cell, so that their search is exact.
const SMALL_BOARD: usize = 64;
/// Node budget of one threat-space search (VCF) in play.
const VCF_NODES: u64 = 100_000;
/// Node budget of a df-pn proof of our own win in play (see [`super::vct`]).
const PROOF_NODES: u64 = 100_000;
/// Node budget of the proof of the opponent's win by threats, before the checks.
const THREAT_PROOF_NODES: u64 = 20_000;
/// Node budget of that proof and all the checks of the moves that might stop it (the clock
/// usually ends them first).
const ANSWER_NODES: u64 = 2_000_000;

impl Mnk {
    fn is_small(&self) -> bool {
        self.lines.cell_count() <= SMALL_BOARD
    }

    /// The empty cell closest to the centre (for the first stone of a large board).
    fn central_cell(&self) -> Cell {
        let (rows, cols) = (self.lines.rows() as i64, self.lines.cols() as i64);
        (0..self.lines.cell_count())
            .filter(|&c| self.lines.is_empty_cell(c))
            .min_by_key(|&c| {
                let (r, col) = ((c as i64) / cols, (c as i64) % cols);
                (2 * r - (rows - 1)).pow(2) + (2 * col - (cols - 1)).pow(2)
            })
            .expect("a game in progress has an empty cell") as Cell
    }
}

impl Searchable for Mnk {
    fn evaluate(&self) -> Score {
        self.lines.evaluation(self.to_move())
    }

    fn winning_move(&self) -> Option<Cell> {
        // In free placement every threat cell is playable.
        self.lines.threats(self.to_move()).first().copied()
    }

    fn quiet(&self) -> bool {
        self.lines.threats(self.to_move().other()).is_empty()
    }

    fn candidates(&self, out: &mut Vec<Candidate<Cell>>) -> bool {
        let me = self.to_move();
        let against = self.lines.threats(me.other());
        if !against.is_empty() {
            // Every other move loses at once (our own wins were taken before).
            out.extend(against.iter().map(|&mv| Candidate { mv, score: 0 }));
            return true;
        }
        let small = self.is_small();
        if !small && !self.lines.makers(me.other()).is_empty() {
            // The opponent threatens two threats at once with its next stone (an open four or a
            // double four for K = 5): only a stone that spoils every such cell, or a four of
            // ours (the opponent must answer it first), can save the game.
            let mut defences = self.lines.maker_spoilers(me.other());
            defences.extend(self.near_empty.as_slice().iter().filter(|&&c| self.lines.fours_at(me, c as usize) > 0));
            defences.sort_unstable();
            defences.dedup();
            if !defences.is_empty() {
                out.extend(
                    defences.iter().map(|&c| Candidate { mv: c as Cell, score: self.lines.move_gain(c as usize, me) }),
                );
                return false;
            }
        }
        if self.near_empty.is_empty() && !small {
            // The first stone, or blocked cells wall the stones off from every free cell.
            out.push(Candidate { mv: self.central_cell(), score: 0 });
            return false;
        }
        let push = |out: &mut Vec<Candidate<Cell>>, cell: usize| {
            out.push(Candidate { mv: cell as Cell, score: self.lines.move_gain(cell, me) });
        };
        if small {
            for cell in (0..self.lines.cell_count()).filter(|&c| self.lines.is_empty_cell(c)) {
                push(out, cell);
            }
        } else {
            for &cell in self.near_empty.as_slice() {
                push(out, cell as usize);
            }
        }
        small
    }

    /// A cell where our stone makes two threats with different missing cells: the opponent,
    /// with no threat of its own (the node is quiet), stops one and we complete the other.
    fn quiet_win(&self) -> Option<u32> {
        self.lines.double_maker(self.to_move(), None).map(|_| 3)
    }

    fn can_win(&self, side: Side) -> bool {
        self.lines.can_win(side)
    }

    /// A forced win by continuous fours (see [`super::threats`]); then, where the exact solver
    /// is in play and not waiting after a failure, its verdict (see [`Mnk::exact_proof`]) with
    /// all the time left: it proves wins as well, so a df-pn proof of one first would only take
    /// its time. Otherwise a win proved by df-pn (see [`super::vct`]: over every move on boards
    /// of at most [`SMALL_BOARD`] cells, by threats elsewhere) within an eighth of the time left,
    /// then the exact solver's verdict if it is in play.
    fn solve_exactly(&self, deadline: Instant, stop: Option<&AtomicBool>) -> Option<Proof<Cell>> {
        if let Some(win) = self.vcf(self.to_move(), deadline, VCF_NODES) {
            return Some(Proof { score: WIN - win.plies as Score, moves: vec![win.first] });
        }
        if self.exact_ready() {
            return self.exact_proof(deadline, stop);
        }
        let now = Instant::now();
        // An eighth of the exact answers' 80% of the move: the tenth of the move df-pn had when
        // they had 40% (the boards out of the solver's range play as they did).
        let proof_deadline = now + deadline.saturating_duration_since(now) / 8;
        let (_, win) = if self.is_small() {
            self.win_dfpn(proof_deadline, PROOF_NODES)
        } else {
            self.vct_dfpn(self.to_move(), proof_deadline, PROOF_NODES)
        };
        if let Some(win) = win {
            return Some(Proof { score: WIN - win.plies as Score, moves: vec![win.first] });
        }
        self.exact_proof(deadline, stop)
    }

    fn wins_exactly(&self, deadline: Instant, stop: Option<&AtomicBool>) -> Option<bool> {
        if self.winning_move().is_some() {
            return Some(true);
        }
        self.exact_wins(deadline, stop)
    }

    fn refuted_moves(&self, moves: &[Cell]) -> Vec<Cell> {
        self.exact_refuted(moves)
    }

    /// The moves that stop the opponent's VCF, else its VCT (see [`Mnk::vcf_answers`],
    /// [`Mnk::vct_answers`]).
    fn threat_answers(&self, moves: &[Cell], deadline: Instant) -> Option<Vec<Cell>> {
        self.vcf_answers(moves, deadline, VCF_NODES)
            .or_else(|| self.vct_answers(moves, deadline, THREAT_PROOF_NODES, ANSWER_NODES))
    }
}
