//! What search needs to know about m,n,k-games: the window evaluation, immediate wins, forced
//! blocks, and candidate moves near the stones, ordered by how much they change the evaluation.

use super::book::{self, BookMap};
use super::policy::{self, Policy};
use super::vct::ThreatMemo;
use super::{eval, solver, Cell, Mnk};
use crate::game::kinarow::patterns::{Patterns, BLOCK4, BLOCK4_FLEX3, BLOCK4_PLUS, F3, FLEX3X2, FLEX4};
use crate::game::kinarow::BLOCKED;
use crate::game::{Game, Side};
use crate::search::{Candidate, Knowledge, Proof, RootKnowledge, Score, Selectivity, Weights, WIN};
use anyhow::{bail, Result};
use std::sync::atomic::{AtomicBool, AtomicUsize};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Boards up to this many cells consider every empty cell, so that their search is exact.
pub(super) const SMALL_BOARD: usize = 64;
/// The df-pn table of the exact solver's proofs in play takes at most this many MiB.
const PN_MAX_MIB: usize = 256;
/// Node budget of one threat-space search (VCF) in play.
const VCF_NODES: u64 = 100_000;
/// Node budget of a df-pn proof of our own win in play (see [`super::vct`]).
const PROOF_NODES: u64 = 100_000;
/// Node budget of the proof of the opponent's win by threats, before the checks.
const THREAT_PROOF_NODES: u64 = 20_000;
/// Node budget of that proof and all the checks of the moves that might stop it (the clock
/// usually ends them first).
const ANSWER_NODES: u64 = 2_000_000;
/// Node budget of the VCF at each quiet leaf (see [`Knowledge::horizon_win`]).
pub(super) const HORIZON_VCF_NODES: u64 = 200;

/// Whether the VCF at the horizon runs: off by default until an SPRT on 15x15x5 shows it does
/// not lose (docs/results/gomoku.md); `BOARDBOT_HORIZON_VCF=1` switches it on, read once.
fn horizon_vcf_on() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("BOARDBOT_HORIZON_VCF").is_ok_and(|v| v == "1"))
}

/// Whether the move picker stages mnk's moves by threats ([`threat_stage`]): off by default
/// until an SPRT on 15x15x5 shows it does not lose (docs/results/gomoku.md);
/// `BOARDBOT_MNK_STAGES=1` switches it on, read once.
fn threat_stages_on() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("BOARDBOT_MNK_STAGES").is_ok_and(|v| v == "1"))
}

/// The picker's game stage of a stone of `side` at `cell` by its pattern class: 0 for a winning
/// threat (an open four or a double four), 1 for a four-three, 2 for another four or a double
/// three; `None` (a quiet move, ordered by its score and history) otherwise.
pub(super) fn threat_stage(p: &Patterns, cell: usize, side: usize) -> Option<u8> {
    match p.class(cell, side) {
        FLEX4 => Some(0),
        BLOCK4_FLEX3 => Some(1),
        BLOCK4 | BLOCK4_PLUS | FLEX3X2 => Some(2),
        _ => None,
    }
}

/// Reverse futility margin a ply, in evaluation units, on the boards that keep patterns.
pub(super) const STATIC_MARGIN: Score = 100;

/// What the engine knows of m,n,k-games beyond the rules, and the state it keeps from move to
/// move: the threat searches' table, and on the boards in its range the exact solver's.
#[derive(Debug)]
pub struct MnkKnowledge {
    pub(super) solver: Option<InPlay>,
    threats: ThreatMemo,
    /// The opening book play asks (the built-in one; none to make one, see
    /// [`super::book_maker`]).
    book: Option<&'static BookMap>,
    /// The evaluation's weights, by name (see [`eval::names`]) and as the evaluation reads them
    /// (on the boards that keep patterns; the window sums have none).
    weights: Weights,
    eval: eval::EvalWeights,
    /// The move policy of free-style gomoku (compiled in).
    policy: &'static Policy,
    /// Whether `eval` is the compiled-in set, whose sums the board keeps (else the evaluation
    /// sums the cells itself).
    summed: bool,
}

/// The exact solver as play uses it (see [`MnkKnowledge::with_solver`]).
#[derive(Debug)]
pub(super) struct InPlay {
    pub(super) board: solver::Board,
    pub(super) table: Arc<solver::BoundTable>,
    /// The empty cells of the last position it failed to prove in time (`usize::MAX` before).
    pub(super) failed_at: AtomicUsize,
    /// The df-pn table of its proofs in play (see [`solver::pn`]), kept from move to move: of
    /// the size in MiB of `table`, which the proofs in play do not fill (it is only the
    /// alpha-beta solver's, which they no longer use).
    pub(super) pn_table: Mutex<Option<solver::pn::PnTable>>,
}

impl Default for MnkKnowledge {
    fn default() -> Self {
        MnkKnowledge::new()
    }
}

impl MnkKnowledge {
    /// The evaluation, tactics and threat searches, without the exact solver.
    pub fn new() -> MnkKnowledge {
        MnkKnowledge {
            solver: None,
            threats: ThreatMemo::default(),
            book: Some(book::built_in()),
            weights: default_weights(),
            eval: eval::default().clone(),
            summed: true,
            policy: Policy::built_in(),
        }
    }

    /// With the exact solver on `table` (kept across moves and games) at the root of each move,
    /// if `game`'s board is in its range: no blocked cell, and M x (N + 1) <= 64.
    /// The tables are made ready now, not inside a move's time: `table` is cleared if it held
    /// another board's positions, and the df-pn table of the proofs in play (as large as
    /// `table`, at most [`PN_MAX_MIB`]) takes its memory.
    pub fn with_solver(game: &Mnk, table: Arc<solver::BoundTable>) -> MnkKnowledge {
        let solver = solver_board(game).map(|board| {
            table.prepare(board.id());
            let pn = solver::pn::PnTable::reserved(table.megabytes().min(PN_MAX_MIB));
            InPlay { board, table, failed_at: AtomicUsize::new(usize::MAX), pn_table: Mutex::new(Some(pn)) }
        });
        MnkKnowledge { solver, ..MnkKnowledge::new() }
    }

    /// This knowledge without its opening book (to make one).
    pub fn without_book(self) -> MnkKnowledge {
        MnkKnowledge { book: None, ..self }
    }

    /// This knowledge with `book` instead of the built-in one.
    #[cfg(test)]
    pub(super) fn with_book(self, book: &'static BookMap) -> MnkKnowledge {
        MnkKnowledge { book: Some(book), ..self }
    }

    /// Whether the exact solver covers `game`'s board (see [`MnkKnowledge::with_solver`]).
    pub fn solver_fits(game: &Mnk) -> bool {
        solver_board(game).is_some()
    }
}

/// The evaluation's weights compiled in, by name.
fn default_weights() -> Weights {
    Weights::new(eval::names(), &eval::default().to_values(), eval::fixed())
}

/// The exact solver's board, if it covers this game: no blocked cell, and M x (N + 1) <= 64.
fn solver_board(game: &Mnk) -> Option<solver::Board> {
    let l = &game.lines;
    let plain = (0..l.cell_count()).all(|c| l.cell(c) != BLOCKED);
    plain.then(|| solver::Board::new(l.rows(), l.cols(), l.k()).ok()).flatten()
}

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

/// [`Knowledge::candidates`] where the board keeps its line patterns (a large board, no threat
/// against the side to move that wins at once): selective by the opponent's threat classes.
/// - The opponent has a cell where its stone makes an open four or two fours (it has an open
///   three, or two threes ...): only the stones that spoil every such cell, and our fours (the
///   opponent must answer those first). Any other move loses: the open four follows, and our
///   fours no longer help (its five comes first). If no move spoils them and we have no four,
///   the opponent's cells themselves (the game is lost; the search sees how soon).
/// - The opponent has a four-three cell: that cell, the empty cells within K - 1 of it along
///   its four and its open three, and our fours (a heuristic selection, as in strong engines).
/// - Otherwise every empty cell near the stones.
///
/// Each is scored by its patterns for both sides ([`eval::move_score`]), or, in the last case,
/// by `policy` where it is given (free-style gomoku: [`policy::applies`]). Never exhaustive.
fn pattern_candidates(g: &Mnk, p: &Patterns, policy: Option<&Policy>, out: &mut Vec<Candidate<Cell>>) -> bool {
    let me = g.to_move();
    let (m, o) = (me.index(), me.other().index());
    let push = |out: &mut Vec<Candidate<Cell>>, c: u32| {
        out.push(Candidate { mv: c, score: eval::move_score(p, c as usize, m) });
    };
    if p.count(o, FLEX4) > 0 {
        let mut defences = g.lines.maker_spoilers(me.other());
        defences.extend(p.fours(m));
        if defences.is_empty() {
            defences.extend(p.fours(o).iter().filter(|&&c| p.class(c as usize, o) == FLEX4));
        }
        defences.sort_unstable();
        defences.dedup();
        for c in defences {
            push(out, c);
        }
        return false;
    }
    if p.count(o, BLOCK4_FLEX3) > 0 {
        let k = p.k() as isize;
        let mut defences: Vec<u32> = p.fours(m).to_vec();
        for &c in p.fours(o).iter().filter(|&&c| p.class(c as usize, o) == BLOCK4_FLEX3) {
            defences.push(c);
            for d in (0..4).filter(|&d| p.pattern(c as usize, o, d) >= F3) {
                for off in (1 - k..k).filter(|&off| off != 0) {
                    if let Some(x) = p.neighbour(c as usize, d, off).filter(|&x| g.lines.is_empty_cell(x)) {
                        defences.push(x as u32);
                    }
                }
            }
        }
        defences.sort_unstable();
        defences.dedup();
        for c in defences {
            push(out, c);
        }
        return false;
    }
    if g.near_empty.is_empty() {
        // The first stone, or blocked cells wall the stones off from every free cell.
        push(out, g.central_cell());
        return false;
    }
    match policy {
        Some(policy) => {
            debug_assert!(policy::orders(g, p));
            out.extend(
                g.near_empty.as_slice().iter().map(|&c| Candidate { mv: c, score: policy.score(p, c as usize, m) }),
            );
        }
        None => {
            for &c in g.near_empty.as_slice() {
                push(out, c);
            }
        }
    }
    false
}

impl Knowledge<Mnk> for MnkKnowledge {
    fn evaluate(&self, g: &Mnk) -> Score {
        match g.lines.patterns() {
            Some(p) => eval::evaluate(&g.lines, p, g.to_move().index(), &self.eval, self.summed),
            None => g.lines.evaluation(g.to_move()),
        }
    }

    fn winning_move(&self, g: &Mnk) -> Option<Cell> {
        // In free placement every threat cell is playable.
        g.lines.threats(g.to_move()).first().copied()
    }

    fn quiet(&self, g: &Mnk) -> bool {
        g.lines.threats(g.to_move().other()).is_empty()
    }

    fn candidates(&self, g: &Mnk, out: &mut Vec<Candidate<Cell>>) -> bool {
        let me = g.to_move();
        let against = g.lines.threats(me.other());
        if !against.is_empty() {
            // Every other move loses at once (our own wins were taken before).
            out.extend(against.iter().map(|&mv| Candidate { mv, score: 0 }));
            return true;
        }
        if let Some(p) = g.lines.patterns() {
            let policy = policy::applies(g).then_some(self.policy);
            return pattern_candidates(g, p, policy, out);
        }
        let small = g.is_small();
        if !small && !g.lines.makers(me.other()).is_empty() {
            // The opponent may threaten two threats at once with its next stone (an open four or
            // a double four for K = 5): then only a stone that spoils every such cell, or a four
            // of ours (the opponent must answer it first), can save the game.
            let mut defences = g.lines.maker_spoilers(me.other());
            if !defences.is_empty() {
                defences.extend(g.lines.four_cells(me));
                defences.sort_unstable();
                defences.dedup();
                out.extend(
                    defences.iter().map(|&c| Candidate { mv: c as Cell, score: g.lines.move_gain(c as usize, me) }),
                );
                return false;
            }
        }
        if g.near_empty.is_empty() && !small {
            // The first stone, or blocked cells wall the stones off from every free cell.
            out.push(Candidate { mv: g.central_cell(), score: 0 });
            return false;
        }
        let push = |out: &mut Vec<Candidate<Cell>>, cell: usize| {
            out.push(Candidate { mv: cell as Cell, score: g.lines.move_gain(cell, me) });
        };
        if small {
            for cell in (0..g.lines.cell_count()).filter(|&c| g.lines.is_empty_cell(c)) {
                push(out, cell);
            }
        } else {
            for &cell in g.near_empty.as_slice() {
                push(out, cell as usize);
            }
        }
        small
    }

    /// The fours (stones that leave a window one short of K): each forces the block, so the
    /// search past the horizon follows threat sequences (VCF) instead of evaluating them. A
    /// side continuing a sequence plays only the fours in line with its last stone, less than
    /// K cells from it (a continuous attack, as in Rapfi's VCF): fours elsewhere, in any order,
    /// would multiply the tree.
    fn quiescence_moves(&self, g: &Mnk, continuing: bool, out: &mut Vec<Candidate<Cell>>) {
        let me = g.to_move();
        let cols = g.lines.cols() as i64;
        let last = g.history.len().checked_sub(2).map(|i| g.history[i] as i64).filter(|_| continuing);
        let in_line = |c: Cell| match last {
            None => true,
            Some(s) => {
                let (dr, dc) = ((c as i64) / cols - s / cols, (c as i64) % cols - s % cols);
                (dr == 0 || dc == 0 || dr.abs() == dc.abs()) && dr.abs().max(dc.abs()) < g.lines.k() as i64
            }
        };
        out.extend(
            g.lines
                .four_cells(me)
                .iter()
                .filter(|&&c| in_line(c))
                .map(|&c| Candidate { mv: c, score: g.lines.move_gain(c as usize, me) }),
        );
    }

    /// With no threat against the side to move (the node is quiet), a stone that wins by force
    /// though the evaluation does not say so:
    /// - a cell where our stone makes two threats with different missing cells (an open four or
    ///   a double four): the opponent stops one and we complete the other (3 plies);
    /// - on the boards that keep patterns, a four-three whose forced block makes no four for
    ///   the opponent (the block lies off the three's line, so the three becomes an open four;
    ///   the opponent's fours come too late), or, when the opponent has no cell that makes a
    ///   four at all, a double three (one stone spoils one of the two open threes, the other
    ///   becomes an open four): 5 plies. As Rapfi's quick win check.
    fn quiet_win(&self, g: &Mnk) -> Option<u32> {
        if let Some(p) = g.lines.patterns() {
            let (m, o) = (g.to_move().index(), g.to_move().other().index());
            if p.count(m, FLEX4) > 0 {
                return Some(3);
            }
            if p.fours(o).is_empty() {
                return (p.count(m, BLOCK4_FLEX3) > 0 || p.count(m, FLEX3X2) > 0).then_some(5);
            }
            // A four-three's block: the one missing cell of its four (Lines::threats_after).
            let mut blocks = Vec::new();
            let four_three = |&c: &u32| {
                blocks.clear();
                p.class(c as usize, m) == BLOCK4_FLEX3 && {
                    g.lines.threats_after(g.to_move(), c as usize, &mut blocks);
                    matches!(blocks[..], [y] if p.class(y as usize, o) < BLOCK4)
                }
            };
            return (p.count(m, BLOCK4_FLEX3) > 0 && p.fours(m).iter().any(four_three)).then_some(5);
        }
        g.lines.double_maker(g.to_move(), None).map(|_| 3)
    }

    /// A VCF of the side to move (see [`Mnk::horizon_vcf`]), where it is switched on.
    fn horizon_win(&self, g: &Mnk) -> Option<u32> {
        if !horizon_vcf_on() {
            return None;
        }
        g.horizon_vcf(HORIZON_VCF_NODES).map(|w| w.plies)
    }

    /// Our threats first, by [`threat_stage`], on the boards that keep patterns, where switched on.
    fn move_stage(&self, g: &Mnk, c: &Candidate<Cell>) -> Option<u8> {
        if !threat_stages_on() {
            return None;
        }
        threat_stage(g.lines.patterns()?, c.mv as usize, g.to_move().index())
    }

    fn can_win(&self, g: &Mnk, side: Side) -> bool {
        g.lines.can_win(side)
    }

    /// On the boards that keep patterns, reverse futility pruning (see
    /// [`Selectivity::static_margin`]); elsewhere the search's own.
    fn selectivity(&self, g: &Mnk) -> Selectivity {
        match g.lines.patterns() {
            Some(_) => {
                Selectivity { static_margin: Some(STATIC_MARGIN), quiet_wins_inside: true, ..Selectivity::default() }
            }
            None => Selectivity::default(),
        }
    }
}

impl RootKnowledge<Mnk> for MnkKnowledge {
    /// A forced win by continuous fours (see [`super::threats`]); then, where the exact solver
    /// is in play and not waiting after a failure, its verdict (see [`MnkKnowledge::exact_proof`]) with
    /// all the time left: it proves wins as well, so a df-pn proof of one first would only take
    /// its time. Otherwise a win proved by df-pn (see [`super::vct`]: over every move on boards
    /// of at most [`SMALL_BOARD`] cells, by threats elsewhere) within an eighth of the time left,
    /// then the exact solver's verdict if it is in play.
    fn solve_exactly(&self, g: &Mnk, deadline: Instant, stop: Option<&AtomicBool>) -> Option<Proof<Cell>> {
        if let Some(win) = g.vcf(g.to_move(), deadline, VCF_NODES) {
            return Some(Proof { score: WIN - win.plies as Score, moves: vec![win.first], from_book: false });
        }
        if self.exact_ready(g) {
            return self.exact_proof(g, deadline, stop);
        }
        let now = Instant::now();
        // An eighth of the exact answers' 80% of the move: the tenth of the move df-pn had when
        // they had 40% (the boards out of the solver's range play as they did).
        let proof_deadline = now + deadline.saturating_duration_since(now) / 8;
        let (_, win) = if g.is_small() {
            g.win_dfpn(&self.threats, proof_deadline, PROOF_NODES)
        } else {
            g.vct_dfpn(&self.threats, g.to_move(), proof_deadline, PROOF_NODES)
        };
        if let Some(win) = win {
            return Some(Proof { score: WIN - win.plies as Score, moves: vec![win.first], from_book: false });
        }
        self.exact_proof(g, deadline, stop)
    }

    fn wins_exactly(&self, g: &Mnk, deadline: Instant, stop: Option<&AtomicBool>) -> Option<bool> {
        if self.winning_move(g).is_some() {
            return Some(true);
        }
        self.exact_wins(g, deadline, stop)
    }

    /// Free-style gomoku's opening book (see [`super::book`]).
    fn book_move(&self, g: &Mnk) -> Option<Cell> {
        book::lookup(g, self.book?)
    }

    /// The pattern evaluation's weights (read on the boards that keep patterns).
    fn weights(&self) -> Option<&Weights> {
        Some(&self.weights)
    }

    fn set_weights(&mut self, weights: &Weights) -> Result<()> {
        let eval = eval::EvalWeights::from_values(weights.values()).filter(|_| weights.names() == eval::names());
        let Some(eval) = eval else { bail!("not the m,n,k evaluation's weights") };
        self.summed = eval == *eval::default();
        (self.weights, self.eval) = (weights.clone(), eval);
        Ok(())
    }

    fn evaluate_with(&self, g: &Mnk, weights: &Weights) -> Score {
        match (g.lines.patterns(), eval::EvalWeights::from_values(weights.values())) {
            (Some(p), Some(w)) => eval::evaluate(&g.lines, p, g.to_move().index(), &w, false),
            _ => self.evaluate(g),
        }
    }

    /// The pattern evaluation's features (on the boards that keep patterns).
    fn features(&self, g: &Mnk) -> Option<Vec<(u32, f32)>> {
        g.lines.patterns().map(|p| eval::features(&g.lines, p, g.to_move().index()))
    }

    fn policy(&self) -> Option<&Weights> {
        Some(policy::default_weights())
    }

    fn policy_features(&self, g: &Mnk) -> Option<Vec<(Cell, Vec<u32>)>> {
        policy::features(g)
    }

    fn refuted_moves(&self, g: &Mnk, moves: &[Cell]) -> Vec<Cell> {
        self.exact_refuted(g, moves)
    }

    /// The moves that stop the opponent's VCF, else its VCT (see [`Mnk::vcf_answers`],
    /// [`Mnk::vct_answers`]).
    fn threat_answers(&self, g: &Mnk, moves: &[Cell], deadline: Instant) -> Option<Vec<Cell>> {
        g.vcf_answers(moves, deadline, VCF_NODES)
            .or_else(|| g.vct_answers(&self.threats, moves, deadline, THREAT_PROOF_NODES, ANSWER_NODES))
    }
}
