//! Threat-space search for m,n,k-games: victory by continuous fours (VCF), for any K.
//!
//! A "four" is a stone that leaves one of the attacker's windows one stone short of K with its
//! last cell empty: the defender must take that cell or lose. A VCF is a sequence of fours, each
//! answered by the forced block, that ends in a five the defender cannot stop: a four with two
//! completion cells at once (a double four), or a threat left open. The search is sound: it
//! gives up on a line as soon as the defender has a four of its own (the attacker would have to
//! answer it), so every win it reports is a forced win.
//!
//! Candidate fours are the empty cells near the stones (a cell that makes a four lies within two
//! cells of a stone of its window), and near the stones the search itself placed. Positions
//! already refuted are remembered by hash.

use super::{Cell, Mnk};
use crate::game::kinarow::Lines;
use crate::game::{Game, Side};
use ahash::AHashSet;
use std::time::Instant;

/// Positions with more empty cells near the stones than this are not searched (each node scans
/// them all): only an immediate win is reported.
const MAX_CANDIDATES: usize = 5000;

/// What a copy of a board costs, in bytes a second, its pages' first touch included: on 1000 x
/// 1000 five copies a move (77 MB each) took 220-350 ms of CPU (issue 39), about 1 GB/s; a
/// loaded machine copies no faster.
const COPY_BYTES_PER_SECOND: f64 = 1e9;

/// A forced win found by [`Mnk::vcf`]: the attacker's first move and the plies to the win
/// (counting that move).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ForcedWin {
    pub first: Cell,
    pub plies: u32,
}

struct Vcf {
    lines: Lines,
    attacker: Side,
    /// Cells near the stones at the start.
    start_cells: Vec<u32>,
    /// Stones the search placed, both sides.
    placed: Vec<usize>,
    /// Scratch: cells already listed at the current node.
    listed: Vec<bool>,
    refuted: AHashSet<u64>,
    nodes: u64,
    max_nodes: u64,
    deadline: Instant,
    aborted: bool,
}

impl Mnk {
    /// A forced win of `attacker` by continuous fours, playing first from this position as if it
    /// were to move, searched for at most `max_nodes` nodes and until `deadline`.
    pub fn vcf(&self, attacker: Side, deadline: Instant, max_nodes: u64) -> Option<ForcedWin> {
        self.vcf_search(attacker, deadline, max_nodes).0
    }

    /// A VCF of the side to move at a leaf of the main search, on the boards that keep patterns
    /// (free-style, K = 5): run to the end of the forcing line within `max_nodes` nodes (no ply
    /// cap), with its own table of refuted positions. Only searched when the side to move has a
    /// four to start with and faces no threat (a VCF starts with a four; a threat against it
    /// must be answered first). Sound like [`Mnk::vcf`]: a Some is a forced win.
    pub fn horizon_vcf(&self, max_nodes: u64) -> Option<ForcedWin> {
        let me = self.to_move();
        if self.lines.patterns().is_none()
            || self.lines.four_cells(me).is_empty()
            || !self.lines.threats(me.other()).is_empty()
            || self.lines.winner().is_some()
            || self.near_empty.len() > MAX_CANDIDATES
        {
            return None;
        }
        let far = Instant::now() + std::time::Duration::from_secs(3600);
        self.threat_search(me, far, max_nodes).attack().map(|(line, plies)| ForcedWin { first: line[0] as Cell, plies })
    }

    /// [`Mnk::vcf`], and whether the search ran out of budget (a None then proves nothing).
    fn vcf_search(&self, attacker: Side, deadline: Instant, max_nodes: u64) -> (Option<ForcedWin>, bool) {
        if self.lines.winner().is_some() {
            return (None, false);
        }
        if self.near_empty.len() > MAX_CANDIDATES || !self.copy_fits(deadline) {
            // Only an open five-to-be is looked at: every node would scan too many cells (or the
            // search's copy of the board would take the time).
            let win = self.lines.threats(attacker).first().map(|&c| ForcedWin { first: c, plies: 1 });
            return (win, win.is_none());
        }
        let mut search = self.threat_search(attacker, deadline, max_nodes);
        let win = search.attack().map(|(line, plies)| ForcedWin { first: line[0] as Cell, plies });
        (win, search.aborted)
    }

    /// Whether a copy of the board (each threat search works on its own) costs at most a tenth
    /// of the time left until `deadline`, copying [`COPY_BYTES_PER_SECOND`]: on 1000 x 1000 (77 MB
    /// a copy) the threat searches are left out at short budgets instead of overrunning them
    /// (issue 39: 220-350 ms of CPU a move at 0.05 s, most of it in such copies), and run at long
    /// ones.
    pub(super) fn copy_fits(&self, deadline: Instant) -> bool {
        let left = deadline.saturating_duration_since(Instant::now()).as_secs_f64();
        self.lines.heap_bytes() as f64 / COPY_BYTES_PER_SECOND <= left / 10.0
    }

    fn threat_search(&self, attacker: Side, deadline: Instant, max_nodes: u64) -> Vcf {
        Vcf {
            lines: self.lines.without_patterns(),
            attacker,
            start_cells: self.near_empty.as_slice().to_vec(),
            placed: Vec::new(),
            listed: vec![false; self.lines.cell_count()],
            refuted: AHashSet::new(),
            nodes: 0,
            max_nodes,
            deadline,
            aborted: false,
        }
    }

    /// When the opponent of the side to move has a VCF (as if it were to move), the moves among
    /// `moves` after which it has none; None when it has no VCF or the budget ran out first.
    /// A move that makes a four of our own counts as an answer (the opponent must block first):
    /// the search then looks further.
    pub fn vcf_answers(&self, moves: &[Cell], deadline: Instant, max_nodes: u64) -> Option<Vec<Cell>> {
        let (me, opponent) = (self.to_move(), self.to_move().other());
        if self.lines.winner().is_some() || self.near_empty.len() > MAX_CANDIDATES || !self.copy_fits(deadline) {
            return None;
        }
        // One search for every move: its refuted positions stay true from move to move.
        let mut search = self.threat_search(opponent, deadline, max_nodes);
        search.attack()?;
        let mut answers = Vec::new();
        for &mv in moves {
            let cell = mv as usize;
            search.lines.place(cell, me);
            search.placed.push(cell);
            let win = search.attack();
            search.placed.pop();
            search.lines.remove(cell, me);
            if search.aborted {
                return None;
            }
            if win.is_none() {
                answers.push(mv);
            }
        }
        Some(answers)
    }
}

impl Vcf {
    /// The attacker to move: its moves of a forced win by fours (the defender's blocks are
    /// forced, so not listed) and the plies to the win, if it has one.
    fn attack(&mut self) -> Option<(Vec<usize>, u32)> {
        let (a, d) = (self.attacker, self.attacker.other());
        if let Some(&win) = self.lines.threats(a).first() {
            return Some((vec![win as usize], 1));
        }
        if !self.lines.threats(d).is_empty() || self.out_of_budget() {
            return None;
        }
        if self.refuted.contains(&self.lines.hash()) {
            return None;
        }
        for (cell, _) in self.fours() {
            self.lines.place(cell, a);
            let threats = self.lines.threats(a);
            let found = if threats.len() >= 2 {
                // A double four: the defender blocks one, the other wins.
                Some((vec![cell], 3))
            } else {
                let block = threats[0] as usize;
                self.lines.place(block, d);
                self.placed.extend([cell, block]);
                let rest = self.attack();
                self.placed.truncate(self.placed.len() - 2);
                self.lines.remove(block, d);
                rest.map(|(mut line, plies)| {
                    line.insert(0, cell);
                    (line, plies + 2)
                })
            };
            self.lines.remove(cell, a);
            if found.is_some() {
                return found;
            }
            if self.aborted {
                return None;
            }
        }
        self.refuted.insert(self.lines.hash());
        None
    }

    /// The attacker's moves that make a four, with how many windows they bring to K - 1, most
    /// first.
    fn fours(&mut self) -> Vec<(usize, usize)> {
        let a = self.attacker;
        self.candidates(|lines, cell| lines.fours_made(cell, a))
    }

    /// The empty cells near the stones (those of the start, then those near the stones the
    /// search placed) with a positive `score`, highest first.
    fn candidates(&mut self, score: impl Fn(&Lines, usize) -> usize) -> Vec<(usize, usize)> {
        let (rows, cols) = (self.lines.rows(), self.lines.cols());
        let mut cells: Vec<usize> = Vec::new();
        let near_placed = self.placed.iter().flat_map(|&stone| {
            let (r, c) = (stone / cols, stone % cols);
            (r.saturating_sub(2)..=(r + 2).min(rows - 1))
                .flat_map(move |rr| (c.saturating_sub(2)..=(c + 2).min(cols - 1)).map(move |cc| rr * cols + cc))
        });
        for cell in self.start_cells.iter().map(|&c| c as usize).chain(near_placed) {
            if !self.listed[cell] && self.lines.is_empty_cell(cell) {
                self.listed[cell] = true;
                cells.push(cell);
            }
        }
        let mut out = Vec::new();
        for &cell in &cells {
            self.listed[cell] = false;
            let n = score(&self.lines, cell);
            if n > 0 {
                out.push((cell, n));
            }
        }
        out.sort_by_key(|&(cell, n)| (std::cmp::Reverse(n), cell));
        out
    }

    fn out_of_budget(&mut self) -> bool {
        self.nodes += 1;
        // A node scans the cells near the stones, which costs far more than reading the clock.
        if self.nodes > self.max_nodes || Instant::now() >= self.deadline {
            self.aborted = true;
        }
        self.aborted
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::mnk::MnkKnowledge;
    use crate::game::Game;
    use crate::search::Knowledge;
    use std::time::Duration;

    /// A game from "r c" pairs, alternating from the first player.
    fn game(rows: usize, cols: usize, k: usize, moves: &[(usize, usize)]) -> Mnk {
        let mut g = Mnk::new(rows, cols, k, &[]).unwrap();
        for &(r, c) in moves {
            g.play((r * cols + c) as Cell);
        }
        g
    }

    fn later() -> Instant {
        Instant::now() + Duration::from_secs(10)
    }

    /// Plays out a VCF against every defence the rules allow (the defender blocks the four or
    /// plays anything else) and checks that the attacker wins within the announced plies.
    fn check_forced(g: &mut Mnk, attacker: Side, plies: u32) {
        assert!(plies >= 1);
        let win = g.vcf(attacker, later(), 1_000_000).expect("a forced win");
        assert!(win.plies <= plies, "{} > {plies}", win.plies);
        g.play(win.first);
        if g.outcome().is_some() {
            assert_eq!(g.lines.winner(), Some(attacker));
            g.undo();
            return;
        }
        // The defender's every reply; after it the attacker still has a forced win, shorter.
        let mut replies = Vec::new();
        g.legal_moves(&mut replies);
        for r in replies {
            g.play(r);
            assert!(g.outcome().is_none(), "the defender cannot win at once");
            check_forced(g, attacker, win.plies - 2);
            g.undo();
        }
        g.undo();
    }

    #[test]
    fn the_horizon_vcf_agrees_with_the_vct_prover_on_15x15() {
        // A sample of the whole sweep below: its positions 12 to 134 (46 VCFs found, 35 wins
        // by threats disproved) take 4 s; its position 11 alone takes 6 s, the whole sweep 44 s.
        horizon_vcf_agrees_with_the_vct_prover(12..135, 20, 20);
    }

    #[test]
    #[ignore = "the whole sweep, about a minute: docs/testing.md"]
    fn the_horizon_vcf_agrees_with_the_vct_prover_on_400_positions() {
        horizon_vcf_agrees_with_the_vct_prover(0..400, 5, 50);
    }

    /// Random free-style 15x15 K = 5 positions (they keep patterns), those of `positions` in a
    /// seeded sequence: every VCF the horizon search finds is a win the df-pn VCT prover proves
    /// (a VCF is a VCT) and holds against every defence; where the prover disproves any win by
    /// threats, it finds none. At least `least_found` VCFs and `least_none` disproofs are met.
    fn horizon_vcf_agrees_with_the_vct_prover(
        positions: std::ops::Range<usize>,
        least_found: usize,
        least_none: usize,
    ) {
        use super::super::vct::ThreatMemo;
        use crate::search::dfpn::Verdict;
        let mut seed = 0x0bad_cafe_u64;
        let (mut found, mut none) = (0, 0);
        for i in 0..positions.end {
            let stones = 10 + (seed >> 61) as usize * 3;
            let mut g = super::super::tests::random_15x15(&mut seed, stones);
            if !positions.contains(&i) {
                continue;
            }
            assert!(g.lines.patterns().is_some());
            if g.outcome().is_some() || MnkKnowledge::new().winning_move(&g).is_some() {
                continue;
            }
            let me = g.to_move();
            let vcf = g.horizon_vcf(100_000);
            let (verdict, _) = g.vct_dfpn(&ThreatMemo::default(), me, later(), 1_000_000);
            if let Some(win) = vcf {
                assert_eq!(verdict, Verdict::Proved, "a VCF the prover does not prove");
                found += 1;
                if win.plies <= 5 {
                    check_forced(&mut g, me, win.plies);
                }
            }
            if verdict == Verdict::Disproved {
                assert_eq!(vcf, None, "a VCF where the prover disproves any threat win");
                none += 1;
            }
        }
        assert!(found >= least_found && none >= least_none, "found {found}, disproved {none}");
    }

    #[test]
    fn finds_and_proves_fours_sequences_for_several_k() {
        // K = 4 on 7x7: X has two stones on a row and two on a column sharing an empty corner.
        // X: (3,1) (3,2) (1,4) (2,4); O scattered far away. X to move.
        let mut g = game(7, 7, 4, &[(3, 1), (0, 0), (3, 2), (6, 6), (1, 4), (0, 6), (2, 4), (6, 0)]);
        assert_eq!(g.to_move(), Side::First);
        let win = g.vcf(Side::First, later(), 100_000).expect("X wins by fours");
        check_forced(&mut g, Side::First, win.plies);
        // O, to move in X's place, has nothing.
        assert_eq!(g.vcf(Side::Second, later(), 100_000), None);
    }

    #[test]
    fn every_forced_win_found_in_random_positions_holds_against_every_defence() {
        // Random positions on 8x8 with K = 4 and 9x9 with K = 5: whenever the VCF claims a win
        // within 5 plies for the side to move, every defence loses within those plies.
        let mut seed = 0x1234_5678_9abc_def1u64;
        let mut checked = [0usize; 6];
        for &(n, k) in &[(8usize, 4usize), (9, 5)] {
            for _ in 0..300 {
                let mut g = Mnk::new(n, n, k, &[]).unwrap();
                let stones = 6 + (seed >> 60) as usize;
                for _ in 0..stones {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    let mut legal = Vec::new();
                    g.legal_moves(&mut legal);
                    if legal.is_empty() {
                        break;
                    }
                    g.play(legal[(seed >> 33) as usize % legal.len()]);
                }
                if g.outcome().is_some() || MnkKnowledge::new().winning_move(&g).is_some() {
                    continue;
                }
                let me = g.to_move();
                if let Some(win) = g.vcf(me, later(), 100_000) {
                    if win.plies <= 5 {
                        checked[win.plies as usize] += 1;
                        check_forced(&mut g, me, win.plies);
                    }
                }
            }
        }
        assert!(checked[3] > 5 && checked[5] > 2, "wins checked by length: {checked:?}");
    }

    #[test]
    fn a_defenders_four_stops_the_attack() {
        // K = 4 on a 1x9 strip is too thin; use 5x9: X has an open line of two and O has three
        // in a row with an open end: X to move must block, so no VCF for X.
        let g = game(5, 9, 4, &[(2, 2), (0, 0), (2, 3), (0, 1), (4, 8), (0, 2)]);
        assert_eq!(g.to_move(), Side::First);
        assert_eq!(g.vcf(Side::First, later(), 100_000), None);
        // For O the open three is an immediate win.
        assert_eq!(g.vcf(Side::Second, later(), 100_000), Some(ForcedWin { first: 3, plies: 1 }));
    }

    #[test]
    fn budget_and_no_stones() {
        let g = game(15, 15, 5, &[]);
        assert_eq!(g.vcf(Side::First, later(), 1000), None);
        let g = game(15, 15, 5, &[(7, 7), (0, 0), (7, 8), (0, 14), (14, 0)]);
        // Two in a row: no four can be made, so no VCF.
        assert_eq!(g.vcf(Side::First, later(), 100_000), None);
        // An open three, the attacker to move: the open four is a double four (3 plies).
        let mut g = game(15, 15, 5, &[(7, 7), (0, 0), (7, 8), (0, 14), (7, 9), (14, 0)]);
        assert_eq!(g.vcf(Side::First, later(), 100_000).map(|w| w.plies), Some(3));
        g.play(7 * 15 + 10);
        assert!(g.lines.threats(Side::First).len() == 2);
        let past = Instant::now();
        let g = game(15, 15, 5, &[(7, 7), (0, 0), (7, 8), (0, 14), (7, 9), (14, 0), (7, 10), (14, 14)]);
        // An open four is an immediate win even with no time.
        assert_eq!(g.vcf(Side::First, past, 0).map(|w| w.plies), Some(1));
    }
}
