//! Victory by continuous threats (VCT) for m,n,k-games, any K >= 3, proved by df-pn
//! ([`crate::search::dfpn`]).
//!
//! The attacker plays only threats: a "four" (a stone that leaves one of its windows one short of
//! K: the defender must take the missing cell) or a "three" (a stone after which it has a
//! "double maker": a cell where its next stone would make two threats with different missing
//! cells, which one stone cannot both stop). The defender's replies are exactly the moves that
//! might not lose:
//! - against a four, its missing cell (against two, none: lost);
//! - against a three, the cells that spoil every double maker (the maker itself, or the missing
//!   cell of one of its windows), and any stone that makes a four of its own (the attacker must
//!   answer it first).
//!
//! Any other reply leaves a double maker and no four of the defender's: the attacker plays the
//! maker, and the defender can stop only one of the two threats. So the restriction is exact and
//! every win proved is a forced win, whatever the defender plays. The converse does not hold: a
//! win that needs a quiet move somewhere is not found.

use super::threats::ForcedWin;
use super::{Cell, Mnk};
use crate::game::{Game, Side};
use crate::search::dfpn::{AndOrTree, Dfpn, Expansion, Numbers, Verdict};
use std::sync::Mutex;
use std::time::Instant;

/// Table entries of a threat search in play, at most.
const TABLE_ENTRIES: usize = 1 << 16;
/// Nodes a check of one move against the opponent's threats gets, beyond four times the
/// nodes of its proof.
const CHECK_NODES: u64 = 10_000;
/// Positions of an opponent's proof walked at most to find the cells it depends on.
const ZONE_NODES: usize = 20_000;

/// Hash salts: who attacks, and who is to move (the stones alone do not say: the attacker may
/// start a search as if it were to move when it is not).
const ATTACKER_KEY: [u64; 2] = [0x2545_F491_4F6C_DD1D, 0x9E6C_63D0_676A_9A99];
const DEFENDER_TO_MOVE_KEY: u64 = 0x6A09_E667_F3BC_C909;
/// And which tree (a position's moves differ in the two, so do its numbers).
const FULL_KEY: u64 = 0xBB67_AE85_84CA_A73B;

/// The df-pn table of the threat searches in play, kept from search to search (a search often
/// goes on where the last one stopped): the engine's, not the rules', so it lives with the
/// knowledge ([`super::MnkKnowledge`]). At most [`TABLE_ENTRIES`] entries.
#[derive(Debug, Default)]
pub struct ThreatMemo(Mutex<Option<Numbers>>);

impl ThreatMemo {
    /// A df-pn search on the kept table (a new one if another search holds it).
    fn search(&self, deadline: Instant, max_nodes: u64) -> Dfpn<'static> {
        let table = self.0.try_lock().ok().and_then(|mut t| t.take());
        Dfpn::with_table(table.unwrap_or_else(|| Numbers::new(TABLE_ENTRIES)), max_nodes).with_deadline(deadline)
    }

    /// Keeps the search's table for the next search.
    fn keep(&self, dfpn: Dfpn) {
        if let Ok(mut t) = self.0.try_lock() {
            *t = Some(dfpn.into_table());
        }
    }
}

/// The threat tree from a position, `attacker` playing first.
pub struct ThreatTree {
    game: Mnk,
    attacker: Side,
    to_move: Side,
    /// Every move, not only threats (see [`ThreatTree::full`]).
    full: bool,
    scratch: Vec<u32>,
}

impl ThreatTree {
    /// The tree of threats, `attacker` moving first.
    pub fn new(game: &Mnk, attacker: Side) -> ThreatTree {
        ThreatTree { game: game.without_patterns(), attacker, to_move: attacker, full: false, scratch: Vec::new() }
    }

    /// The whole game tree from the position, the side to move first: `attacker` tries to win,
    /// the other side to draw or win. Both sides may play any cell of a window still free of
    /// one side's stones (any other cell is a pass, which never helps in these games); the
    /// forced moves (fives, blocks, the answers to a double maker) are as in the tree of
    /// threats. The attacker fails when it has no such window left, or no cell.
    pub fn full(game: &Mnk, attacker: Side) -> ThreatTree {
        ThreatTree { game: game.clone(), attacker, to_move: game.to_move(), full: true, scratch: Vec::new() }
    }

    /// In the whole tree: the empty cells in a window free of one side's stones, not yet in
    /// `out`, by the move gain of `side`, appended to `out`.
    fn quiet_moves(&self, side: Side, out: &mut Vec<Cell>) {
        let lines = &self.game.lines;
        let mut rest: Vec<(i64, Cell)> = (0..lines.cell_count())
            .filter(|&c| lines.is_empty_cell(c) && lines.is_live_cell(c) && !out.contains(&(c as Cell)))
            .map(|c| (lines.move_gain(c, side), c as Cell))
            .collect();
        rest.sort_unstable_by_key(|&(gain, c)| (std::cmp::Reverse(gain), c));
        out.extend(rest.into_iter().map(|(_, c)| c));
    }

    /// The attacker to move: a win now, else its fours, then its threes.
    fn attack(&mut self, out: &mut Vec<Cell>) -> Expansion {
        let (a, d) = (self.attacker, self.attacker.other());
        let lines = &mut self.game.lines;
        // A five, a forced block, or a double threat: one move (listed rather than decided
        // here, so that the proof names it; the least cell, so that it does not depend on the
        // order of the sets).
        if let Some(&win) = lines.threats(a).iter().min() {
            out.push(win);
            return Expansion::Moves;
        }
        match lines.threats(d) {
            [] => {}
            [block] => {
                out.push(*block);
                return Expansion::Moves;
            }
            _ => return Expansion::Failed(2),
        }
        if let Some(m) = lines.double_maker(a, None) {
            out.push(m as Cell);
            return Expansion::Moves;
        }
        let mut fours: Vec<(usize, Cell)> = Vec::new();
        let mut threes: Vec<Cell> = Vec::new();
        for &c in self.game.near_empty.as_slice() {
            let cell = c as usize;
            let n = lines.fours_at(a, cell);
            if n > 0 {
                fours.push((n, c));
            } else if lines.threes_made(cell, a) > 0 {
                lines.place(cell, a);
                if lines.double_maker(a, Some(cell)).is_some() {
                    threes.push(c);
                }
                lines.remove(cell, a);
            }
        }
        fours.sort_unstable_by_key(|&(n, c)| (std::cmp::Reverse(n), c));
        threes.sort_unstable();
        out.extend(fours.iter().map(|&(_, c)| c));
        out.extend(threes);
        if self.full {
            if !self.game.lines.can_win(a) {
                return Expansion::Failed(0);
            }
            self.quiet_moves(a, out);
        }
        if out.is_empty() {
            Expansion::Failed(0)
        } else {
            Expansion::Moves
        }
    }

    /// The defender to move: the replies that might not lose (see the module's text).
    fn defend(&mut self, out: &mut Vec<Cell>) -> Expansion {
        let (a, d) = (self.attacker, self.attacker.other());
        let lines = &self.game.lines;
        if !lines.threats(d).is_empty() {
            return Expansion::Reached(1);
        }
        match lines.threats(a) {
            [] => {}
            [block] => {
                out.push(*block);
                return Expansion::Moves;
            }
            _ => return Expansion::Failed(2),
        }
        // The cells that spoil every double maker: for each, itself and its missing cells.
        let mut spoilers: Option<Vec<Cell>> = None;
        for &m in lines.makers(a) {
            self.scratch.clear();
            lines.threats_after(a, m as usize, &mut self.scratch);
            if self.scratch.len() < 2 {
                continue;
            }
            self.scratch.push(m);
            match &mut spoilers {
                None => spoilers = Some(self.scratch.clone()),
                Some(s) => s.retain(|c| self.scratch.contains(c)),
            }
        }
        let Some(mut replies) = spoilers else {
            if self.full && lines.can_win(a) {
                // No threat to answer: any move.
                self.quiet_moves(d, out);
                return if out.is_empty() { Expansion::Reached(0) } else { Expansion::Moves };
            }
            // No threat left to answer: the attack has run out.
            return Expansion::Reached(0);
        };
        for &c in self.game.near_empty.as_slice() {
            if lines.fours_at(d, c as usize) > 0 && !replies.contains(&c) {
                replies.push(c);
            }
        }
        if replies.is_empty() {
            // Whatever it plays, the attacker's maker makes two threats, and one of them wins.
            return Expansion::Failed(4);
        }
        out.extend(replies);
        Expansion::Moves
    }

    /// Marks the cells a node of a proof depends on (see [`Mnk::vct_answers`]), counting in
    /// `zone` the nodes that depend on each: the move that led to it, and when the defender is to
    /// move, the attacker's threats and every cell that spoils one of its double makers.
    fn mark_zone(&mut self, last: Option<Cell>, zone: &mut [u32]) {
        if let Some(mv) = last {
            zone[mv as usize] += 1;
        }
        let a = self.attacker;
        if self.to_move == a {
            return;
        }
        let lines = &self.game.lines;
        for &t in lines.threats(a) {
            zone[t as usize] += 1;
        }
        for &m in lines.makers(a) {
            self.scratch.clear();
            lines.threats_after(a, m as usize, &mut self.scratch);
            if self.scratch.len() >= 2 {
                zone[m as usize] += 1;
                for &t in &self.scratch {
                    zone[t as usize] += 1;
                }
            }
        }
    }

    fn salt(&self, to_move: Side) -> u64 {
        let width = if self.full { FULL_KEY } else { 0 };
        ATTACKER_KEY[self.attacker.index()] ^ width ^ if to_move == self.attacker { 0 } else { DEFENDER_TO_MOVE_KEY }
    }
}

impl AndOrTree for ThreatTree {
    type Move = Cell;

    fn expand(&mut self, out: &mut Vec<Cell>) -> Expansion {
        if self.game.lines.winner().is_some() {
            return Expansion::Failed(0);
        }
        if self.to_move == self.attacker {
            self.attack(out)
        } else {
            self.defend(out)
        }
    }

    fn play(&mut self, mv: Cell) {
        self.game.put(mv, self.to_move);
        self.to_move = self.to_move.other();
    }

    fn undo(&mut self, mv: Cell) {
        self.to_move = self.to_move.other();
        self.game.take(mv, self.to_move);
    }

    fn hash(&self) -> u64 {
        self.game.lines.hash() ^ self.salt(self.to_move)
    }

    fn hash_after(&self, mv: Cell) -> u64 {
        self.game.lines.hash_after(mv as usize, self.to_move) ^ self.salt(self.to_move.other())
    }
}

impl Mnk {
    /// Whether `attacker`, playing first from this position as if it were to move, wins by
    /// continuous threats (see the module's text), searched for at most `max_nodes` nodes and
    /// until `deadline`; with a proved win, its first move and the plies to the win along the
    /// proof (an upper bound on the win's length when the table lost part of the proof).
    pub fn vct_dfpn(
        &self,
        memo: &ThreatMemo,
        attacker: Side,
        deadline: Instant,
        max_nodes: u64,
    ) -> (Verdict, Option<ForcedWin>) {
        if self.lines.k() < 3 || !self.copy_fits(deadline) {
            return (Verdict::Unknown, None);
        }
        self.proved_win(memo, ThreatTree::new(self, attacker), deadline, max_nodes)
    }

    /// Whether the side to move wins, by df-pn over the whole tree ([`ThreatTree::full`]);
    /// as [`Mnk::vct_dfpn`] otherwise.
    pub fn win_dfpn(&self, memo: &ThreatMemo, deadline: Instant, max_nodes: u64) -> (Verdict, Option<ForcedWin>) {
        if !self.copy_fits(deadline) {
            return (Verdict::Unknown, None);
        }
        self.proved_win(memo, ThreatTree::full(self, self.to_move()), deadline, max_nodes)
    }

    fn proved_win(
        &self,
        memo: &ThreatMemo,
        mut tree: ThreatTree,
        deadline: Instant,
        max_nodes: u64,
    ) -> (Verdict, Option<ForcedWin>) {
        if self.lines.winner().is_some() {
            return (Verdict::Unknown, None);
        }
        let start = Instant::now();
        let mut dfpn = memo.search(deadline, max_nodes);
        let verdict = dfpn.prove(&mut tree);
        log::debug!(
            "{} {:?}: {verdict:?}, {} nodes, {:.1} ms",
            if tree.full { "df-pn" } else { "vct" },
            tree.attacker,
            dfpn.nodes,
            start.elapsed().as_secs_f64() * 1e3
        );
        let win = if verdict == Verdict::Proved {
            let moves = dfpn.proved_moves(&mut tree);
            moves.first().map(|&(first, plies)| ForcedWin { first, plies: plies.unwrap_or(MAX_PLIES) })
        } else {
            None
        };
        memo.keep(dfpn);
        (verdict, win)
    }

    /// The value of the position for the side to move (1 win, 0 draw, -1 loss) by df-pn over
    /// the whole tree ([`ThreatTree::full`]): first whether it wins, then whether the opponent
    /// does. None when `dfpn`'s budget runs out first.
    pub fn prove_value(&self, dfpn: &mut Dfpn) -> Option<i32> {
        let me = self.to_move();
        match self.outcome() {
            Some(crate::game::Outcome::Win(side)) => return Some(if side == me { 1 } else { -1 }),
            Some(crate::game::Outcome::Draw) => return Some(0),
            None => {}
        }
        match dfpn.prove(&mut ThreatTree::full(self, me)) {
            Verdict::Proved => return Some(1),
            Verdict::Unknown => return None,
            Verdict::Disproved => {}
        }
        // The opponent attacks; we move first and reach our goal if we do not lose.
        match dfpn.prove(&mut ThreatTree::full(self, me.other())) {
            Verdict::Proved => Some(0),
            Verdict::Disproved => Some(-1),
            Verdict::Unknown => None,
        }
    }

    /// When the opponent of the side to move has a VCT (as if it were to move), the moves among
    /// `moves` that might stop it: those checked to leave it none, else (when no move is) those
    /// whose check ran out of budget. None when it has no VCT or the first search ran out of
    /// budget.
    ///
    /// Only the moves that could matter are checked: the cells of the opponent's proof (every
    /// move in it, and at each of our replies its threats and the cells that spoil any of its
    /// double makers), the cells the most nodes depend on first, then our stones that make a
    /// four or a three (they may win the tempo). The others are left out: by the construction of
    /// the proof, a stone elsewhere changes none of its steps but by giving us more threats,
    /// which those two kinds cover in the usual cases. If the proof is too large to walk, every
    /// move is checked. One table serves every check.
    pub fn vct_answers(
        &self,
        memo: &ThreatMemo,
        moves: &[Cell],
        deadline: Instant,
        proof_nodes: u64,
        max_nodes: u64,
    ) -> Option<Vec<Cell>> {
        let (me, opponent) = (self.to_move(), self.to_move().other());
        if self.lines.k() < 3 || self.lines.winner().is_some() || !self.copy_fits(deadline) {
            return None;
        }
        let start = Instant::now();
        let mut dfpn = memo.search(deadline, max_nodes);
        let mut tree = ThreatTree::new(self, opponent);
        if dfpn.prove_within(&mut tree, proof_nodes) != Verdict::Proved {
            memo.keep(dfpn);
            return None;
        }
        let proof_nodes = dfpn.nodes;
        let mut zone = vec![0u32; self.lines.cell_count()];
        let whole = dfpn.visit_proof(&mut tree, ZONE_NODES, &mut |t, last| t.mark_zone(last, &mut zone));
        // The cells the proof leans on most first (they are checked first if time runs short),
        // then our fours and threes.
        let mut candidates: Vec<(u32, Cell)> = moves
            .iter()
            .filter_map(|&mv| {
                let cell = mv as usize;
                let rank = if zone[cell] > 0 {
                    u32::MAX - zone[cell]
                } else if self.lines.fours_at(me, cell) > 0 {
                    u32::MAX - 1
                } else if !whole || self.lines.threes_made(cell, me) > 0 {
                    u32::MAX
                } else {
                    return None;
                };
                Some((rank, mv))
            })
            .collect();
        candidates.sort_by_key(|&(rank, _)| rank);
        // The moves after which the threat is disproved; those whose check ran out of budget
        // only when none is.
        let (mut answers, mut unknown) = (Vec::new(), Vec::new());
        // A move that does not stop the threat leaves a proof that may be longer than the first
        // (a short win stopped at its first step often leaves a long one).
        let check_nodes = 4 * proof_nodes + CHECK_NODES;
        for &(_, mv) in &candidates {
            tree.game.put(mv, me);
            let verdict = dfpn.prove_within(&mut tree, check_nodes);
            tree.game.take(mv, me);
            match verdict {
                Verdict::Disproved => answers.push(mv),
                Verdict::Unknown => unknown.push(mv),
                Verdict::Proved => {}
            }
        }
        let disproved = answers.len();
        if answers.is_empty() {
            answers = unknown;
        }
        log::debug!(
            "vct answers: {} of {} moves ({disproved} disproved, {} checked{}), proof {proof_nodes} nodes, checks {} nodes, {:.1} ms",
            answers.len(),
            moves.len(),
            candidates.len(),
            if whole { "" } else { ", proof too large to walk" },
            dfpn.nodes - proof_nodes,
            start.elapsed().as_secs_f64() * 1e3
        );
        memo.keep(dfpn);
        Some(answers)
    }
}

/// The plies reported for a proved win whose proof the table no longer holds whole: a win in
/// search units all the same (see [`crate::search::WIN_BOUND`]).
const MAX_PLIES: u32 = 200;

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn later() -> Instant {
        Instant::now() + Duration::from_secs(20)
    }

    fn random_game(n: usize, k: usize, stones: usize, seed: &mut u64) -> Mnk {
        let mut g = Mnk::new(n, n, k, &[]).unwrap();
        g.play((n / 2 * n + n / 2) as Cell);
        for _ in 0..stones {
            *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let near = g.near_empty.as_slice();
            if g.outcome().is_some() || near.is_empty() {
                break;
            }
            let mv = near[(*seed >> 33) as usize % near.len()];
            g.play(mv);
        }
        g
    }

    /// Checks by brute force that `attacker` (to move) wins within `plies` against every reply:
    /// the attacker's move is the one the VCT gives; the defender tries every empty cell.
    fn check_forced(g: &mut Mnk, attacker: Side, plies: u32) -> bool {
        if g.lines.winner() == Some(attacker) {
            return true;
        }
        if plies == 0 || g.outcome().is_some() {
            return false;
        }
        let (_, win) = g.vct_dfpn(&ThreatMemo::default(), attacker, later(), 1_000_000);
        let Some(win) = win else { return false };
        g.play(win.first);
        let ok = if g.lines.winner() == Some(attacker) {
            true
        } else if g.outcome().is_some() {
            false
        } else {
            let mut replies = Vec::new();
            g.legal_moves(&mut replies);
            replies.into_iter().all(|r| {
                g.play(r);
                let ok = g.lines.winner().is_none() && check_forced(g, attacker, plies.saturating_sub(2));
                g.undo();
                ok
            })
        };
        g.undo();
        ok
    }

    #[test]
    fn every_win_proved_holds_against_every_defence() {
        // Random positions on 9x9 with K = 4 and 11x11 with K = 5: whenever the VCT proves a win
        // of up to 5 plies for the side to move, every defence loses within those plies.
        let mut seed = 0x5eed_0f7c_u64;
        let mut checked = 0;
        let mut by_threes = 0;
        for &(n, k) in &[(9usize, 4usize), (11, 5)] {
            for _ in 0..300 {
                // Both kinds' quotas of this board met: no more to check on it.
                if by_threes >= 4 * (n - 7) / 2 && checked - by_threes >= 10 * (n - 7) / 2 {
                    break;
                }
                let stones = 6 + (seed >> 61) as usize;
                let mut g = random_game(n, k, stones, &mut seed);
                if g.outcome().is_some() || !g.lines.threats(g.to_move()).is_empty() {
                    continue;
                }
                let me = g.to_move();
                let (verdict, win) = g.vct_dfpn(&ThreatMemo::default(), me, later(), 200_000);
                let Some(win) = win else {
                    assert_ne!(verdict, Verdict::Proved);
                    continue;
                };
                if win.plies > 5 {
                    continue;
                }
                // Enough of each kind (the VCF's own tests cover wins by fours alone).
                if g.vcf(me, later(), 100_000).is_none() {
                    if by_threes >= 4 * (n - 7) / 2 {
                        continue;
                    }
                    by_threes += 1;
                } else if checked - by_threes >= 10 * (n - 7) / 2 {
                    continue;
                }
                checked += 1;
                assert!(check_forced(&mut g, me, win.plies), "{:?} {:?}", g.history(), win);
            }
        }
        assert!(checked >= 20 && by_threes >= 8, "checked {checked}, {by_threes} needing threes");
    }

    #[test]
    fn the_whole_tree_agrees_with_the_exact_solver() {
        // Empty boards of known value and random positions, against the bitboard solver.
        use crate::game::mnk::solver::{AlphaBeta, Board, BoundTable as SolverTable, Stones};
        use crate::game::solver::testing::random_moves;
        let mut seed = 0x0dd_ba11_u64;
        let mut values = [0usize; 3];
        for &(rows, cols, k) in &[(3, 3, 3), (3, 4, 3), (4, 4, 3), (4, 4, 4), (3, 5, 2), (4, 5, 4), (5, 5, 4)] {
            let board = Board::new(rows, cols, k).unwrap();
            let table = SolverTable::new(16);
            for round in 0..10 {
                let mut g = Mnk::new(rows, cols, k, &[]).unwrap();
                // The empty board first (up to 16 cells: 4x4x4 takes df-pn half a million
                // nodes, 4x5x4 14.7 s), then random positions of 2 to 9 stones.
                let plies = if round == 0 && rows * cols <= 16 { 0 } else { 2 + (seed >> 61) as usize };
                let moves = random_moves(&mut g, plies, &mut seed);
                let cells: Vec<(usize, usize)> =
                    moves.iter().map(|&c| (c as usize / cols, c as usize % cols)).collect();
                let expected =
                    AlphaBeta::new(&board, &table).solve(&Stones::from_cells(&board, &cells).unwrap()).unwrap();
                let mut dfpn = Dfpn::new(1 << 20, u64::MAX);
                assert_eq!(g.prove_value(&mut dfpn), Some(expected), "{rows}x{cols}x{k} after {cells:?}");
                values[(expected + 1) as usize] += 1;
            }
        }
        assert!(values.iter().all(|&n| n >= 5), "losses, draws, wins: {values:?}");
    }

    #[test]
    fn an_open_three_wins_and_the_defence_finds_its_ends() {
        // 15x15, K = 5: X has an open three on row 7 (7,6 7,7 7,8), O scattered. X to move wins
        // by the open four; with O to move, only the stones next to the three stop it (after a
        // stone one further out, X makes an open four on the other side).
        let mut g = Mnk::new(15, 15, 5, &[]).unwrap();
        for (r, c) in [(7, 6), (0, 0), (7, 7), (0, 14), (7, 8), (14, 0)] {
            g.play(r * 15 + c);
        }
        // X to move: an open four next.
        let (verdict, win) = g.vct_dfpn(&ThreatMemo::default(), Side::First, later(), 10_000);
        assert_eq!(verdict, Verdict::Proved);
        assert!([7 * 15 + 5, 7 * 15 + 9].contains(&win.unwrap().first), "{win:?}");
        g.play(14 * 15 + 14);
        // O to move: its answers among every cell.
        let mut all = Vec::new();
        g.legal_moves(&mut all);
        let mut answers =
            g.vct_answers(&ThreatMemo::default(), &all, later(), 100_000, 1_000_000).expect("X threatens a win");
        answers.sort_unstable();
        let cell = |c: u32| (c / 15, c % 15);
        let answers: Vec<(u32, u32)> = answers.into_iter().map(cell).collect();
        assert_eq!(answers, vec![(7, 5), (7, 9)]);
    }
}
