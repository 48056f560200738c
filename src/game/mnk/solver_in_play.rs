//! The exact solver in play: on the boards it covers, when it proves the position within its
//! share of the move's time, the search plays by its verdict (see
//! [`Knowledge::solve_exactly`](crate::search::Knowledge::solve_exactly)).

use super::knowledge::InPlay;
use super::solver::pn::{self, PnSolver};
use super::solver::{Board, Stones};
use super::{Cell, Mnk, MnkKnowledge};
use crate::game::Game;
use crate::search::{Proof, Score, WIN};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Instant;

/// After the solver fails to prove a position in time, it is tried again only once this many
/// more cells are filled (our next move): a failed try costs the search its share of the move's
/// time, but proofs get much cheaper as the board fills (measured: docs/results/mnk-exact.md).
const RETRY_AFTER: usize = 2;

impl MnkKnowledge {
    /// The solver's verdict on the position, with the table given by [`MnkKnowledge::with_solver`]:
    /// - a win: a winning move (the table's move of the proof, else the first child proved lost
    ///   for the opponent in the order of the evaluation's move gain), scored as a win at the
    ///   latest with the last empty cell (the solver proves wins, not their length);
    /// - a draw: the moves that keep it, the move of the proof that the side to move does not
    ///   lose first, then by the move gain; if `deadline` comes before every move is settled,
    ///   those proved so far (never a move that was not proved);
    /// - a draw at least, when the proof that the side to move does not lose came in time but
    ///   the one that it does not win did not: the move of the first proof, scored 0;
    /// - a loss, or no proof before `deadline` (or `stop`): nothing; the search plays on.
    ///
    /// After a failure, it is not tried again until [`RETRY_AFTER`] more cells are filled.
    pub(super) fn exact_proof(&self, g: &Mnk, deadline: Instant, stop: Option<&AtomicBool>) -> Option<Proof<Cell>> {
        if !self.exact_ready(g) {
            return None;
        }
        let in_play = self.solver.as_ref()?;
        let empty = g.lines.empty_cells();
        let proof = Self::prove(g, in_play, deadline, stop);
        if proof.is_none() {
            in_play.failed_at.store(empty, Relaxed);
        }
        proof
    }

    /// Whether the solver is in play and not waiting after a failure (see [`MnkKnowledge::exact_proof`]).
    pub(super) fn exact_ready(&self, g: &Mnk) -> bool {
        self.solver.as_ref().is_some_and(|s| g.lines.empty_cells() + RETRY_AFTER <= s.failed_at.load(Relaxed))
    }

    /// Whether the side to move wins, by the solver (see [`MnkKnowledge::with_solver`]), if it settles it
    /// before `deadline` (or `stop`); `None` too where the solver is not used.
    pub(super) fn exact_wins(&self, g: &Mnk, deadline: Instant, stop: Option<&AtomicBool>) -> Option<bool> {
        let in_play = self.solver.as_ref()?;
        let p = Self::solver_position(g, in_play)?;
        in_play.with_pn(Some(deadline), stop, |pn| pn.wins(&p).ok())
    }

    /// The moves among `moves` after which the solver's table (see [`MnkKnowledge::with_solver`]) has
    /// proved that the opponent wins, or it wins at once; no search. A proof that the side to
    /// move holds the draw that runs out of time leaves there the moves it refuted before it
    /// stopped.
    pub(super) fn exact_refuted(&self, g: &Mnk, moves: &[Cell]) -> Vec<Cell> {
        let Some(in_play) = self.solver.as_ref() else {
            return Vec::new();
        };
        let Some(p) = Self::solver_position(g, in_play) else {
            return Vec::new();
        };
        in_play.with_pn(None, None, |pn| {
            let lost = |&mv: &Cell| pn.known_win(&Self::solver_child(g, &in_play.board, &p, mv));
            moves.iter().copied().filter(lost).collect()
        })
    }

    /// The solver's position `p` (this game's) after our cell `mv`.
    fn solver_child(g: &Mnk, board: &Board, p: &Stones, mv: Cell) -> Stones {
        let cols = g.lines.cols();
        let mut child = *p;
        child.play(board, board.index(mv as usize / cols, mv as usize % cols));
        child
    }

    /// The game's position on the solver's board.
    fn solver_position(g: &Mnk, in_play: &InPlay) -> Option<Stones> {
        let cols = g.lines.cols();
        let cells: Vec<(usize, usize)> = g.history.iter().map(|&c| (c as usize / cols, c as usize % cols)).collect();
        Stones::from_cells(&in_play.board, &cells).ok()
    }

    fn prove(g: &Mnk, in_play: &InPlay, deadline: Instant, stop: Option<&AtomicBool>) -> Option<Proof<Cell>> {
        let p = Self::solver_position(g, in_play)?;
        in_play.with_pn(Some(deadline), stop, |pn| Self::prove_with(g, pn, &in_play.board, &p))
    }

    fn prove_with(g: &Mnk, pn: &mut PnSolver, board: &Board, p: &Stones) -> Option<Proof<Cell>> {
        // Not losing first, then winning: of the two proofs, the first settles the draw a move
        // needs to keep, and gives a move that keeps it, often sooner than the whole value
        // (measured: "Safety first", docs/results/mnk-7x7x5.md).
        if !pn.holds(p).ok()? {
            return None;
        }
        let cols = g.lines.cols();
        let to_move = |i: u32| {
            let (r, c) = board.cell(i);
            (r * cols + c) as Cell
        };
        let safe = pn.proved_move(p, false).map(to_move);
        match pn.wins(p) {
            Ok(true) => {
                let score = WIN - g.lines.empty_cells() as Score;
                return pn.proved_move(p, true).map(|mv| Proof { score, moves: vec![to_move(mv)], from_book: false });
            }
            Ok(false) => {}
            // At least a draw, the win not settled: the move that keeps the draw.
            Err(_) => return safe.map(|mv| Proof { score: 0, moves: vec![mv], from_book: false }),
        }
        // A draw: the moves that keep it, the proof's first, then the others proved in the
        // order of the move gain until the deadline.
        let me = g.to_move();
        let mut order: Vec<Cell> = Vec::new();
        g.legal_moves(&mut order);
        order.sort_by_key(|&c| std::cmp::Reverse(g.lines.move_gain(c as usize, me)));
        let mut keeping: Vec<Cell> = safe.into_iter().collect();
        for mv in order.into_iter().filter(|&mv| Some(mv) != safe) {
            // The child's value is the opponent's: the move keeps the draw if it does not win.
            match pn.wins(&Self::solver_child(g, board, p, mv)) {
                Ok(true) => {}
                Ok(false) => keeping.push(mv),
                // Out of time: the moves proved so far keep the value (the search plays one).
                Err(_) => break,
            }
        }
        (!keeping.is_empty()).then_some(Proof { score: 0, moves: keeping, from_book: false })
    }
}

impl InPlay {
    /// Runs `f` with a df-pn solver on the table kept from the last proofs (a fresh one if
    /// another copy of the game holds it), within `deadline` and `stop`, and keeps the table.
    fn with_pn<T>(
        &self,
        deadline: Option<Instant>,
        stop: Option<&AtomicBool>,
        f: impl FnOnce(&mut PnSolver) -> T,
    ) -> T {
        let mut kept = self.pn_table.try_lock().ok();
        let table = kept.as_mut().and_then(|t| t.take()).unwrap_or_else(|| pn::PnTable::of_mib(self.table.megabytes()));
        let mut pn = PnSolver::new(&self.board, &self.table, table).with_limits(deadline, stop);
        let out = f(&mut pn);
        if let Some(t) = kept.as_mut() {
            **t = Some(pn.into_table());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::mnk::solver::{AlphaBeta, Board, BoundTable};
    use crate::search::{RootKnowledge, WIN_BOUND};
    use std::sync::Arc;
    use std::time::Duration;

    /// A game and its knowledge, kept together as play keeps them (copies share the knowledge).
    #[derive(Clone)]
    struct T {
        g: Mnk,
        k: Arc<MnkKnowledge>,
    }

    impl T {
        fn play(&mut self, mv: Cell) {
            self.g.play(mv)
        }
        fn legal_moves(&self, out: &mut Vec<Cell>) {
            self.g.legal_moves(out)
        }
        fn exact_proof(&self, deadline: Instant, stop: Option<&AtomicBool>) -> Option<Proof<Cell>> {
            self.k.exact_proof(&self.g, deadline, stop)
        }
        fn exact_ready(&self) -> bool {
            self.k.exact_ready(&self.g)
        }
        fn exact_wins(&self, deadline: Instant, stop: Option<&AtomicBool>) -> Option<bool> {
            self.k.exact_wins(&self.g, deadline, stop)
        }
        fn exact_refuted(&self, moves: &[Cell]) -> Vec<Cell> {
            self.k.exact_refuted(&self.g, moves)
        }
        fn solve_exactly(&self, deadline: Instant, stop: Option<&AtomicBool>) -> Option<Proof<Cell>> {
            self.k.solve_exactly(&self.g, deadline, stop)
        }
    }

    fn game(rows: usize, cols: usize, k: usize, cells: &[(u32, u32)]) -> T {
        let g = Mnk::new(rows, cols, k, &[]).unwrap();
        let mut t = T { k: Arc::new(MnkKnowledge::with_solver(&g, Arc::new(BoundTable::new(16)))), g };
        for &(r, c) in cells {
            t.play(r * cols as u32 + c);
        }
        t
    }

    /// Without the solver.
    fn plain(rows: usize, cols: usize, k: usize) -> T {
        T { g: Mnk::new(rows, cols, k, &[]).unwrap(), k: Arc::new(MnkKnowledge::new()) }
    }

    fn soon() -> Instant {
        Instant::now() + Duration::from_secs(60)
    }

    #[test]
    fn after_a_centre_opening_only_the_corners_keep_the_draw() {
        let g = game(3, 3, 3, &[(1, 1)]);
        let proof = g.exact_proof(soon(), None).unwrap();
        let mut moves = proof.moves.clone();
        moves.sort_unstable();
        assert_eq!((proof.score, moves), (0, vec![0, 2, 6, 8]));
        // The search plays by it: a corner.
        assert_eq!(g.solve_exactly(soon(), None), Some(proof));
    }

    #[test]
    fn a_won_position_gives_a_winning_move_and_a_lost_one_nothing() {
        // 4x4x3 is a first-player win; the move given must keep it (the reply is lost).
        let g = game(4, 4, 3, &[]);
        let proof = g.exact_proof(soon(), None).unwrap();
        assert!(proof.score >= WIN_BOUND && proof.moves.len() == 1, "{proof:?}");
        let mut after = g.clone();
        after.play(proof.moves[0]);
        assert_eq!(after.exact_proof(soon(), None), None, "the opponent is lost: no proof to play by");
        // Without a table, or past the deadline, there is no verdict.
        assert_eq!(plain(4, 4, 3).exact_proof(soon(), None), None);
        let past = Instant::now() - Duration::from_millis(1);
        let big = game(7, 7, 5, &[]);
        assert_eq!(big.exact_proof(past, None), None);
    }

    #[test]
    fn a_draw_proved_in_time_gives_the_moves_proved_even_if_some_are_not_settled() {
        // 7x7x5 after 7 stones: a draw proved in about 11K nodes, but the second player's
        // 3,6 loses and takes the solver more than 20 s to settle (47 s to prove lost), so
        // the moves cannot all be settled within the deadline.
        let g = game(7, 7, 5, &[(5, 4), (6, 4), (2, 0), (3, 5), (2, 4), (2, 6), (4, 4)]);
        let proof = g.exact_proof(Instant::now() + Duration::from_secs(2), None).expect("the draw is proved");
        assert_eq!(proof.score, 0);
        assert!(!proof.moves.is_empty() && !proof.moves.contains(&(3 * 7 + 6)), "{proof:?}");
        // Each move given keeps the draw (checked with a table of its own).
        let table = BoundTable::new(16);
        let board = Board::new(7, 7, 5).unwrap();
        let mut cells: Vec<(usize, usize)> = g.g.history.iter().map(|&c| (c as usize / 7, c as usize % 7)).collect();
        for &mv in &proof.moves {
            cells.push((mv as usize / 7, mv as usize % 7));
            let p = Stones::from_cells(&board, &cells).unwrap();
            let mut solver = AlphaBeta::new(&board, &table).with_deadline(Some(soon()));
            assert_eq!(solver.solve(&p), Ok(0), "after {cells:?}");
            cells.pop();
        }
    }

    #[test]
    fn a_draw_held_before_the_win_is_settled_gives_the_move_that_holds_it() {
        // 7x7x5 after 7 stones, a draw: that the side to move does not lose takes df-pn about
        // 0.001 s, that it does not win about 16 s. With 2 s, the verdict is the one move of
        // the first search, and it keeps the draw.
        let cells = [(6, 3), (1, 3), (5, 6), (0, 2), (3, 0), (3, 4), (6, 4)];
        let g = game(7, 7, 5, &cells);
        let proof = g.exact_proof(Instant::now() + Duration::from_secs(2), None).expect("the draw is held");
        assert_eq!((proof.score, proof.moves.len()), (0, 1), "{proof:?}");
        let table = BoundTable::new(16);
        let board = Board::new(7, 7, 5).unwrap();
        let mut after: Vec<(usize, usize)> = cells.iter().map(|&(r, c)| (r as usize, c as usize)).collect();
        after.push((proof.moves[0] as usize / 7, proof.moves[0] as usize % 7));
        let p = Stones::from_cells(&board, &after).unwrap();
        let mut solver = AlphaBeta::new(&board, &table).with_deadline(Some(soon()));
        assert_eq!(solver.wins(&p), Ok(false), "the opponent does not win after {after:?}");
        // Not a failure: the solver is tried again at the next move.
        assert!(g.exact_ready());
    }

    #[test]
    fn where_the_solver_is_ready_it_proves_wins_without_df_pn_first() {
        // 4x4x3 is a first-player win that df-pn also proves: its proof would give the win's
        // length in plies, the solver's is scored as a win with the last empty cell.
        let g = game(4, 4, 3, &[]);
        assert!(g.exact_ready());
        let proof = g.solve_exactly(soon(), None).unwrap();
        assert_eq!(proof.score, WIN - 16, "{proof:?}");
        // Waiting after a failure (as if one had come with all 16 cells empty), df-pn proves it
        // and tells how long the win is.
        let waiting = game(4, 4, 3, &[]);
        waiting.k.solver.as_ref().unwrap().failed_at.store(16, Relaxed);
        assert!(!waiting.exact_ready());
        let proof = waiting.solve_exactly(soon(), None).unwrap();
        assert!(proof.score > WIN - 16, "{proof:?}");
    }

    #[test]
    fn the_solver_tells_whether_the_side_to_move_wins() {
        // Tic-tac-toe: after X's centre, O's edge loses and O's corner holds.
        assert_eq!(game(3, 3, 3, &[(1, 1), (0, 1)]).exact_wins(soon(), None), Some(true));
        assert_eq!(game(3, 3, 3, &[(1, 1), (0, 0)]).exact_wins(soon(), None), Some(false));
        // O to move after X's edge: O does not win.
        assert_eq!(game(3, 3, 3, &[(0, 1)]).exact_wins(soon(), None), Some(false));
        // No table, or past the deadline: no verdict.
        assert_eq!(plain(3, 3, 3).exact_wins(soon(), None), None);
        let past = Instant::now() - Duration::from_millis(1);
        assert_eq!(game(7, 7, 5, &[]).exact_wins(past, None), None);
    }

    #[test]
    fn after_a_failure_the_solver_waits_for_two_more_stones() {
        // 7x7x5 after 7 stones and after 9: draws, proved within the minute.
        let mut g = game(7, 7, 5, &[(3, 6), (5, 0), (5, 4), (6, 1), (2, 2), (2, 4), (3, 3)]);
        let past = Instant::now() - Duration::from_millis(1);
        assert_eq!(g.exact_proof(past, None), None, "it takes more than one check interval");
        let moves = [4 * 7 + 4, 3 * 7 + 2];
        for (i, &mv) in moves.iter().enumerate() {
            g.play(mv);
            let proof = g.exact_proof(soon(), None);
            assert_eq!(proof.is_some(), i + 1 == moves.len(), "after {} stones: {proof:?}", i + 1);
        }
    }

    #[test]
    fn the_moves_the_solver_refuted_are_known_without_a_search() {
        // Tic-tac-toe, O to move after X's centre: nothing is known before a solve; after it,
        // the four edges (the moves that lose) are.
        let g = game(3, 3, 3, &[(1, 1)]);
        let mut all = Vec::new();
        g.legal_moves(&mut all);
        assert_eq!(g.exact_refuted(&all), Vec::<Cell>::new());
        g.exact_proof(soon(), None).unwrap();
        assert_eq!(g.exact_refuted(&all), vec![1, 3, 5, 7]);
        // O to move against X's two in a row: every move but the block lets X complete at once.
        let g = game(3, 3, 3, &[(0, 0), (1, 1), (0, 1)]);
        all.clear();
        g.legal_moves(&mut all);
        assert_eq!(g.exact_refuted(&all), vec![3, 5, 6, 7, 8]);
        // No table: nothing.
        assert_eq!(plain(3, 3, 3).exact_refuted(&[0, 4]), Vec::<Cell>::new());
    }

    #[test]
    fn a_solve_out_of_time_leaves_the_moves_it_refuted() {
        // 7x7x5 after 7 stones, a draw whose first proof (that the side to move holds it) takes
        // about 3 s. With 0.5 s the proof fails, and the moves it refuted by then are each lost
        // (checked by the alpha-beta solver).
        let cells = [(3, 1), (6, 1), (4, 4), (1, 4), (2, 2), (5, 6), (3, 3)];
        let g = game(7, 7, 5, &cells);
        assert_eq!(g.exact_proof(Instant::now() + Duration::from_millis(500), None), None);
        let mut all = Vec::new();
        g.legal_moves(&mut all);
        let refuted = g.exact_refuted(&all);
        assert!(!refuted.is_empty());
        let table = BoundTable::new(16);
        let board = Board::new(7, 7, 5).unwrap();
        let mut after: Vec<(usize, usize)> = cells.iter().map(|&(r, c)| (r as usize, c as usize)).collect();
        for &mv in &refuted {
            after.push((mv as usize / 7, mv as usize % 7));
            let p = Stones::from_cells(&board, &after).unwrap();
            let mut solver = AlphaBeta::new(&board, &table).with_deadline(Some(soon()));
            assert_eq!(solver.wins(&p), Ok(true), "the opponent wins after {after:?}");
            after.pop();
        }
    }

    #[test]
    fn boards_out_of_the_solvers_range_take_no_table() {
        let g = Mnk::new(8, 8, 4, &[]).unwrap();
        assert!(!MnkKnowledge::solver_fits(&g));
        assert!(MnkKnowledge::with_solver(&g, Arc::new(BoundTable::new(16))).solver.is_none());
        let g = Mnk::new(4, 4, 3, &[(0, 0)]).unwrap();
        assert!(!MnkKnowledge::solver_fits(&g), "blocked cells");
        assert!(MnkKnowledge::solver_fits(&Mnk::new(7, 7, 5, &[]).unwrap()));
    }
}
