//! The solver against Pons' exact scores and against a plain minimax on small boards.

use super::*;
use crate::game::connectx::ConnectX;
use crate::game::solver::testing::random_moves;
use crate::game::{Game, Outcome};
use ahash::AHashMap;

fn columns(text: &str) -> Vec<usize> {
    text.bytes().map(|b| (b - b'1') as usize).collect()
}

fn check_set(text: &str, weak: bool) {
    let shape = Shape::new(6, 7, 4).unwrap();
    let table = BoundTable::new(64);
    for line in text.lines() {
        let (moves, score) = line.split_once(' ').unwrap();
        let expected: i32 = score.parse().unwrap();
        let p = Position::from_moves(shape, &columns(moves)).unwrap();
        let got = Solver::new(&table).solve(&p, weak).unwrap();
        let expected = if weak { expected.signum() } else { expected };
        assert_eq!(got, expected, "{moves} (weak: {weak})");
    }
}

#[test]
fn pons_positions_strong_and_weak() {
    for set in [
        include_str!("../../../../tests/data/connect4/Test_L3_R1.head60"),
        include_str!("../../../../tests/data/connect4/Test_L2_R1.head30"),
        include_str!("../../../../tests/data/connect4/Test_L2_R2.head12"),
        include_str!("../../../../tests/data/connect4/Test_L1_R1.head12"),
        include_str!("../../../../tests/data/connect4/Test_L1_R2.head12"),
        include_str!("../../../../tests/data/connect4/Test_L1_R3.lines2-3"),
    ] {
        check_set(set, false);
        check_set(set, true);
    }
}

/// Exact score by plain minimax over the game's rules (no bitboards, no pruning), memoized.
fn plain_score(g: &mut ConnectX, memo: &mut AHashMap<u64, i32>) -> i32 {
    if let Some(&s) = memo.get(&g.hash()) {
        return s;
    }
    let cells = (g.rows() * g.cols()) as i32;
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let mut best = i32::MIN;
    for mv in moves {
        let before = g.moves_played() as i32;
        g.play(mv);
        let s = match g.outcome() {
            Some(Outcome::Win(_)) => (cells + 1 - before) / 2,
            Some(Outcome::Draw) => 0,
            None => -plain_score(g, memo),
        };
        g.undo();
        best = best.max(s);
    }
    memo.insert(g.hash(), best);
    best
}

#[test]
fn agrees_with_plain_minimax_on_small_boards() {
    // Whole small boards, then random positions of larger ones, with every move analysed.
    let mut seed = 7u64;
    for &(rows, cols, x, prefix) in &[
        (4, 4, 4, 0),
        (4, 4, 3, 0),
        (4, 5, 3, 0),
        (5, 4, 3, 0),
        (3, 5, 3, 0),
        (4, 5, 4, 6),
        (5, 5, 4, 12),
        (5, 6, 5, 16),
        (3, 7, 2, 4),
    ] {
        let shape = Shape::new(rows, cols, x).unwrap();
        let table = BoundTable::new(16);
        for _ in 0..if prefix == 0 { 1 } else { 6 } {
            let mut g = ConnectX::new(rows, cols, x).unwrap();
            let played: Vec<usize> =
                random_moves(&mut g, prefix, &mut seed).into_iter().map(|mv| mv as usize).collect();
            let mut memo = AHashMap::new();
            let expected = plain_score(&mut g, &mut memo);
            let p = Position::from_moves(shape, &played).unwrap();
            let mut solver = Solver::new(&table);
            assert_eq!(solver.solve(&p, false).unwrap(), expected, "{rows}x{cols}x{x} after {played:?}");
            assert_eq!(solver.solve(&p, true).unwrap(), expected.signum());
            let analysis = solver.analyze(&p, false).unwrap();
            assert_eq!(analysis.iter().flatten().max().copied(), Some(expected));
            let (col, score) = solver.best_move(&p).unwrap();
            assert_eq!((score, analysis[col]), (expected, Some(expected)));
        }
    }
}

#[test]
fn known_values_of_empty_boards() {
    // 4x4x4 is a draw; X = 1 and X = 2 are wins for the first player; X = 3 on 4x5 too.
    let table = BoundTable::new(16);
    let solve = |r, c, x| Solver::new(&table).solve(&Position::new(Shape::new(r, c, x).unwrap()), true).unwrap();
    assert_eq!(solve(4, 4, 4), 0);
    assert_eq!(solve(3, 3, 1), 1);
    assert_eq!(solve(2, 2, 2), 1);
    assert_eq!(solve(4, 5, 3), 1);
    assert_eq!(solve(2, 2, 3), 0, "no line fits");
    assert!(Shape::new(8, 8, 4).is_err(), "9 x 8 bits do not fit");
}

#[test]
fn aborts_at_a_deadline() {
    let table = BoundTable::new(16);
    let p = Position::new(Shape::new(6, 7, 4).unwrap());
    let past = std::time::Instant::now();
    assert_eq!(Solver::new(&table).with_deadline(Some(past)).solve(&p, false), Err(Aborted));
}

#[test]
fn parallel_solves_agree() {
    let shape = Shape::new(6, 7, 4).unwrap();
    let table = BoundTable::new(64);
    for line in include_str!("../../../../tests/data/connect4/Test_L1_R2.head12").lines().take(6) {
        let (moves, score) = line.split_once(' ').unwrap();
        let p = Position::from_moves(shape, &columns(moves)).unwrap();
        let (got, nodes) = solve_parallel(&table, &p, false, 2, None);
        assert_eq!(got, Ok(score.parse().unwrap()), "{moves}");
        assert!(nodes > 0);
    }
}
