//! The exact solver in play: when the board is in its range and it finishes within its share of
//! the move's time, the search plays by its verdict (see [`Knowledge::solve_exactly`]).

use super::book::Book;
use super::solver::{BoundTable, Geometry, Position, Shape, Solver};
use super::{Column, ConnectX, CxKnowledge};
use crate::search::{ExactMove, Proof, Score, WIN};
#[cfg(doc)]
use crate::search::{Knowledge, RootKnowledge};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

impl CxKnowledge {
    /// See [`Knowledge::solve_exactly`].
    ///
    /// Only with a table given ([`CxKnowledge::with_solver`]). In order: the opening book; then a weak solve (win, draw or loss: the cheapest proof),
    /// which for a draw already tells the moves that keep it; for a win, a winning move, and
    /// then, if time allows, the fastest win (a strong solve); for a loss, the strong solve (the
    /// move that loses slowest), or nothing if it does not finish. With a draw or a loss, the
    /// moves that reach the score are those proved before the deadline (none: nothing).
    pub(super) fn exact_proof(
        &self,
        g: &ConnectX,
        deadline: Instant,
        stop: Option<&AtomicBool>,
    ) -> Option<Proof<Column>> {
        let (shape, p, table) = self.solver_position(g)?;
        if let Some((col, score)) = Book::built_in(&shape).and_then(|b| b.lookup(&p)) {
            return Some(Proof { score: search_score(score, &p), moves: vec![col as Column], from_book: true });
        }
        let mut solver = Solver::new(table).with_deadline(Some(deadline));
        if let Some(stop) = stop {
            solver = solver.with_stop(stop);
        }
        let value = solver.solve(&p, true).ok()?;
        let mut order: Vec<usize> = (0..g.cols()).filter(|&c| p.can_play(c)).collect();
        order.sort_by_key(|&c| (2 * c).abs_diff(g.cols() - 1));
        if value > 0 {
            let mut winning = None;
            for &col in &order {
                if solver.reaches(&p, col, 1).ok()? {
                    winning = Some(col);
                    break;
                }
            }
            let winning = winning.expect("a won position has a winning move");
            return Some(match solver.best_move(&p) {
                Ok((best, score)) => {
                    Proof { score: search_score(score, &p), moves: vec![best as Column], from_book: false }
                }
                // A win at the latest with the last cell: the search still plays it at once.
                Err(_) => Proof { score: search_score(1, &p), moves: vec![winning as Column], from_book: false },
            });
        }
        let (best, score) =
            if value == 0 { (None, 0) } else { solver.best_move(&p).ok().map(|(b, s)| (Some(b), s))? };
        // Every move that reaches the score, the best one first.
        let mut moves: Vec<Column> = best.iter().map(|&b| b as Column).collect();
        for col in order.into_iter().filter(|&c| Some(c) != best) {
            match solver.reaches(&p, col, score) {
                Ok(true) => moves.push(col as Column),
                Ok(false) => {}
                // Out of time: the moves proved so far keep the score.
                Err(_) => break,
            }
        }
        (!moves.is_empty()).then(|| Proof { score: search_score(score, &p), moves, from_book: false })
    }
}

impl CxKnowledge {
    /// Whether the side to move wins (a weak solve), with the table given by
    /// [`CxKnowledge::with_solver`], if the solver settles it before `deadline` (or `stop`).
    pub(super) fn exact_wins(&self, g: &ConnectX, deadline: Instant, stop: Option<&AtomicBool>) -> Option<bool> {
        let (_, p, table) = self.solver_position(g)?;
        let mut solver = Solver::new(table).with_deadline(Some(deadline));
        if let Some(stop) = stop {
            solver = solver.with_stop(stop);
        }
        solver.solve(&p, true).ok().map(|v| v > 0)
    }

    /// Every column's exact value (see [`RootKnowledge::exact_move_values`]): the solver's
    /// analysis of the position (Pons' scores, as `boardbot solve --analyze` prints them), with
    /// the table given by [`CxKnowledge::with_solver`], if it finishes before `deadline`.
    pub(super) fn exact_columns(
        &self,
        g: &ConnectX,
        deadline: Instant,
        stop: Option<&AtomicBool>,
    ) -> Option<Vec<ExactMove<Column>>> {
        let (_, p, table) = self.solver_position(g)?;
        let mut solver = Solver::new(table).with_deadline(Some(deadline));
        if let Some(stop) = stop {
            solver = solver.with_stop(stop);
        }
        let scores = solver.analyze(&p, false).ok()?;
        let moves = scores.iter().enumerate().filter_map(|(col, score)| {
            score.map(|s| ExactMove { mv: col as Column, score: search_score(s, &p), solver_value: Some(s) })
        });
        Some(moves.collect())
    }

    /// The board's shape and the game's position in the solver's terms, and the solver's
    /// table, if it is used.
    fn solver_position(&self, g: &ConnectX) -> Option<(Shape, Position, &BoundTable)> {
        let shape = Shape::new(g.rows(), g.cols(), g.lines.k()).ok()?;
        let cols: Vec<usize> = g.history.iter().map(|&c| c as usize).collect();
        let p = Position::from_moves(shape, &cols).ok()?;
        Some((shape, p, self.solver.as_ref()?))
    }
}

/// A solver score (Pons' convention) in search units: a win with the stone played after `m`
/// stones in all is `m - moves + 1` plies away and scores `WIN - plies`; a loss the negative.
fn search_score(score: i32, p: &Position) -> Score {
    if score == 0 {
        return 0;
    }
    let cells = p.shape().cells() as i32;
    let moves = p.moves() as i32;
    // The winner moves at ply m with m of its parity: the side to move's if it wins.
    let parity = if score > 0 { moves % 2 } else { (moves + 1) % 2 };
    let s = score.abs();
    let m = [cells + 1 - 2 * s, cells - 2 * s].into_iter().find(|m| m.rem_euclid(2) == parity).expect("one fits");
    let plies = m - moves + 1;
    if score > 0 {
        WIN - plies
    } else {
        -(WIN - plies)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::search::RootKnowledge;
    use std::sync::Arc;
    use std::time::Duration;

    fn game(moves: &str) -> ConnectX {
        let mut g = ConnectX::new(6, 7, 4).unwrap();
        for c in moves.bytes() {
            g.play((c - b'1') as Column);
        }
        g
    }

    #[test]
    fn scores_convert_to_plies() {
        let shape = Shape::new(6, 7, 4).unwrap();
        // First player to move after 6 stones wins with its 4th stone (ply 7): 22 - 4 = 18.
        let p = Position::from_moves(shape, &[0, 1, 0, 1, 0, 1]).unwrap();
        assert_eq!(search_score(18, &p), WIN - 1);
        // Second player to move after 1 stone, losing to the first player's 4th stone at ply 7.
        let p = Position::from_moves(shape, &[3]).unwrap();
        assert_eq!(search_score(-18, &p), -(WIN - 6));
    }

    #[test]
    fn the_search_plays_the_solvers_verdict() {
        // Test_L2_R1's first line, score 4 for the side to move; and a drawn end position.
        let table = Arc::new(super::super::solver::BoundTable::new(16));
        let deadline = Instant::now() + Duration::from_secs(60);
        let g = game("5554224333234511764415115");
        assert_eq!(CxKnowledge::new().solve_exactly(&g, deadline, None), None, "no table given");
        let proof = CxKnowledge::with_solver(&g, table.clone()).solve_exactly(&g, deadline, None).unwrap();
        assert!(proof.score >= crate::search::WIN_BOUND);
        let p = Position::from_moves(
            Shape::new(6, 7, 4).unwrap(),
            &g.history.iter().map(|&c| c as usize).collect::<Vec<_>>(),
        )
        .unwrap();
        let scores = Solver::new(&table).analyze(&p, false).unwrap();
        assert_eq!(proof.moves.len(), 1);
        assert_eq!(scores[proof.moves[0] as usize], Some(4), "the fastest win: {scores:?}");
        // A drawn position: every move that keeps the draw, and only those.
        let g = game("52677675164321472411331752454");
        let proof = CxKnowledge::with_solver(&g, table.clone()).solve_exactly(&g, deadline, None).unwrap();
        assert_eq!(proof.score, 0);
        let p = Position::from_moves(
            Shape::new(6, 7, 4).unwrap(),
            &g.history.iter().map(|&c| c as usize).collect::<Vec<_>>(),
        )
        .unwrap();
        let scores = Solver::new(&table).analyze(&p, false).unwrap();
        for mv in 0..7 {
            assert_eq!(proof.moves.contains(&(mv as Column)), scores[mv] == Some(0), "column {mv}: {scores:?}");
        }
        let past = Instant::now();
        let g = game("4");
        let k = CxKnowledge::with_solver(&g, table.clone());
        assert_eq!(k.solve_exactly(&g, past, None), None, "the second move is not solved in no time");
        // The opening book answers at once.
        let g = game("");
        assert_eq!(CxKnowledge::new().solve_exactly(&g, past, None), None, "no table given");
        let proof = k.solve_exactly(&g, past, None).unwrap();
        assert_eq!(proof.moves, [3]);
        assert_eq!(proof.score, WIN - 41);
    }
}
