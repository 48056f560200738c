//! The solver against the known values of small boards and against a plain minimax.

use super::pairing;
use super::*;
use crate::game::mnk::Mnk;
use crate::game::solver::testing::random_moves;
use crate::game::{Game, Outcome};
use ahash::AHashMap;

fn solve(rows: usize, cols: usize, k: usize, cells: &[(usize, usize)]) -> i32 {
    let board = Board::new(rows, cols, k).unwrap();
    let table = BoundTable::new(16);
    let p = Stones::from_cells(&board, cells).unwrap();
    AlphaBeta::new(&board, &table).solve(&p).unwrap()
}

#[test]
fn known_values_of_empty_boards() {
    // ../shared/README.md: 3x3x3 draw; 3x4x3 and 4x4x3 first-player wins; 4x4x4 draw.
    assert_eq!(solve(3, 3, 3, &[]), 0);
    assert_eq!(solve(3, 4, 3, &[]), 1);
    assert_eq!(solve(4, 3, 3, &[]), 1);
    assert_eq!(solve(4, 4, 3, &[]), 1);
    assert_eq!(solve(4, 4, 4, &[]), 0);
    // K = 1 and 2 win wherever a line fits; no line fits: a draw.
    assert_eq!(solve(1, 1, 1, &[]), 1);
    assert_eq!(solve(1, 3, 2, &[]), 1);
    assert_eq!(solve(2, 2, 3, &[]), 0);
    assert_eq!(solve(1, 2, 2, &[]), 0, "the second player blocks the only line");
}

#[test]
fn known_values_of_k4_boards() {
    // 5x5x4 draw, 6x5x4 first-player win (a few seconds in release mode).
    assert_eq!(solve(5, 5, 4, &[]), 0);
    assert_eq!(solve(6, 5, 4, &[]), 1);
}

#[test]
fn finished_and_won_positions() {
    // The first player has three in a row: the side to move (second) has lost.
    assert_eq!(solve(3, 3, 3, &[(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)]), -1);
    // The first player to move completes its row.
    assert_eq!(solve(3, 3, 3, &[(0, 0), (1, 0), (0, 1), (1, 1)]), 1);
    // Tic-tac-toe: after a corner and the centre, a draw; after the centre and an edge, a win.
    assert_eq!(solve(3, 3, 3, &[(0, 0), (1, 1)]), 0);
    assert_eq!(solve(3, 3, 3, &[(1, 1), (0, 1)]), 1);
}

/// A game of `prefix` random moves (fewer if one would end it) on the empty board, with its
/// cells as (row, col).
fn random_position(rows: usize, cols: usize, k: usize, prefix: usize, seed: &mut u64) -> (Mnk, Vec<(usize, usize)>) {
    let mut g = Mnk::new(rows, cols, k, &[]).unwrap();
    let cells =
        random_moves(&mut g, prefix, seed).into_iter().map(|mv| (mv as usize / cols, mv as usize % cols)).collect();
    (g, cells)
}

/// The value of the position for the side to move by plain minimax over the game's rules (no
/// bitboards, no pruning), memoized by the rules' hash.
fn plain_value(g: &mut Mnk, memo: &mut AHashMap<u64, i32>) -> i32 {
    if let Some(&v) = memo.get(&g.hash()) {
        return v;
    }
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let mut best = -1;
    for mv in moves {
        g.play(mv);
        let v = match g.outcome() {
            Some(Outcome::Win(_)) => 1,
            Some(Outcome::Draw) => 0,
            None => -plain_value(g, memo),
        };
        g.undo();
        best = best.max(v);
        if best == 1 {
            break;
        }
    }
    memo.insert(g.hash(), best);
    best
}

/// The value for the side to move at `g` of its move to the solver's cell `mv`, by plain minimax.
fn value_after(g: &Mnk, board: &Board, mv: u32) -> i32 {
    let mut g = g.clone();
    let (r, c) = board.cell(mv);
    g.play((r * board.cols() + c) as u32);
    match g.outcome() {
        Some(Outcome::Win(_)) => 1,
        Some(Outcome::Draw) => 0,
        None => -plain_value(&mut g, &mut AHashMap::new()),
    }
}

#[test]
fn agrees_with_plain_minimax() {
    // Whole tiny boards, then random positions of larger ones.
    let mut seed = 11u64;
    for &(rows, cols, k, prefix, count) in &[
        (3, 3, 3, 0, 1),
        (3, 4, 3, 0, 1),
        (4, 3, 3, 0, 1),
        (2, 5, 2, 0, 1),
        (2, 4, 3, 0, 1),
        (3, 3, 2, 0, 1),
        (3, 3, 3, 2, 20),
        (3, 4, 3, 3, 20),
        (4, 4, 3, 5, 20),
        (4, 4, 4, 6, 25),
        (4, 5, 4, 8, 20),
        (3, 5, 3, 4, 20),
        (5, 4, 5, 8, 10),
        (2, 6, 2, 3, 10),
    ] {
        let board = Board::new(rows, cols, k).unwrap();
        let table = BoundTable::new(16);
        for _ in 0..count {
            let (mut g, cells) = random_position(rows, cols, k, prefix, &mut seed);
            let expected = plain_value(&mut g, &mut AHashMap::new());
            let p = Stones::from_cells(&board, &cells).unwrap();
            let got = AlphaBeta::new(&board, &table).solve(&p).unwrap();
            assert_eq!(got, expected, "{rows}x{cols}x{k} after {cells:?}");
            // Each of its two searches alone, from an empty table.
            let fresh = BoundTable::new(1);
            assert_eq!(AlphaBeta::new(&board, &fresh).wins(&p), Ok(expected > 0), "{cells:?}");
            fresh.clear();
            let mut solver = AlphaBeta::new(&board, &fresh);
            assert_eq!(solver.holds(&p), Ok(expected >= 0), "{cells:?}");
            // Where it holds, the table's move keeps the draw at least.
            if let Some(mv) = solver.table_move(&p).filter(|_| expected >= 0) {
                let after = value_after(&g, &board, mv);
                assert!(after >= 0, "{cells:?} then {:?}", board.cell(mv));
            }
        }
    }
}

/// The value of `cells` by df-pn ([`pn`]) with `table`, and the move it proves, if any, that
/// keeps a win (or a draw when the side to move does not win).
fn pn_value(board: &Board, table: pn::PnTable, cells: &[(usize, usize)]) -> (i32, Option<u32>, pn::PnTable) {
    let scratch = BoundTable::new(1);
    let p = Stones::from_cells(board, cells).unwrap();
    let mut solver = pn::PnSolver::new(board, &scratch, table);
    let value = solver.solve(&p).unwrap();
    let mv = if value >= 0 { solver.proved_move(&p, value > 0) } else { None };
    (value, mv, solver.into_table())
}

#[test]
fn proof_numbers_give_the_known_values() {
    for &(rows, cols, k, value) in &[(3, 3, 3, 0), (3, 4, 3, 1), (4, 4, 3, 1), (4, 4, 4, 0), (5, 5, 4, 0), (6, 5, 4, 1)]
    {
        let board = Board::new(rows, cols, k).unwrap();
        let (got, mv, _) = pn_value(&board, pn::PnTable::of_mib(64), &[]);
        assert_eq!(got, value, "{rows}x{cols}x{k}");
        assert!(mv.is_some(), "{rows}x{cols}x{k}: a move that keeps the value");
    }
}

#[test]
fn proof_numbers_agree_with_plain_minimax() {
    // One table per board for all its positions and both searches (whether the side to move
    // wins, whether it holds): entries of one must not mislead the other.
    let mut seed = 23u64;
    let mut proved_moves = 0;
    for &(rows, cols, k, prefix, count) in
        &[(3, 3, 3, 2, 20), (3, 4, 3, 3, 20), (4, 4, 3, 5, 20), (4, 4, 4, 6, 25), (4, 5, 4, 8, 20), (5, 4, 5, 8, 10)]
    {
        let board = Board::new(rows, cols, k).unwrap();
        let mut table = pn::PnTable::of_mib(16);
        for _ in 0..count {
            let (mut g, cells) = random_position(rows, cols, k, prefix, &mut seed);
            let expected = plain_value(&mut g, &mut AHashMap::new());
            let (got, mv, kept) = pn_value(&board, table, &cells);
            table = kept;
            assert_eq!(got, expected, "{rows}x{cols}x{k} after {cells:?}");
            // The move proved keeps the value.
            if let Some(mv) = mv {
                proved_moves += 1;
                assert_eq!(value_after(&g, &board, mv), expected, "{cells:?} then {:?}", board.cell(mv));
            }
        }
    }
    assert!(proved_moves >= 40, "{proved_moves} moves checked");
}

#[test]
fn aborts_at_a_deadline() {
    let board = Board::new(7, 7, 5).unwrap();
    let table = BoundTable::new(16);
    let past = std::time::Instant::now();
    let mut solver = AlphaBeta::new(&board, &table).with_deadline(Some(past));
    assert_eq!(solver.solve(&Stones::new()), Err(Aborted));
    let mut pn = pn::PnSolver::new(&board, &table, pn::PnTable::of_mib(1)).with_limits(Some(past), None);
    assert_eq!(pn.solve(&Stones::new()), Err(Aborted));
}

#[test]
fn pairings_hold_and_agree_with_plain_minimax() {
    // On random positions, every pairing found is one (disjoint pairs of empty cells, one in
    // every window the attacker can still complete), and the attacker indeed does not win.
    let mut seed = 5u64;
    let mut found = [0; 2];
    for &(rows, cols, k, prefix, count) in &[
        (3, 3, 3, 2, 40),
        (4, 4, 3, 4, 40),
        (3, 5, 3, 4, 40),
        (4, 4, 4, 5, 60),
        (4, 5, 4, 9, 60),
        (5, 4, 4, 9, 60),
        (5, 5, 4, 14, 20),
        (5, 5, 5, 14, 20),
    ] {
        let board = Board::new(rows, cols, k).unwrap();
        let mut live = Vec::new();
        for _ in 0..count {
            let (mut g, cells) = random_position(rows, cols, k, prefix, &mut seed);
            let p = Stones::from_cells(&board, &cells).unwrap();
            let empty = p.empty(&board);
            let empties = empty.count_ones();
            let value = plain_value(&mut g, &mut AHashMap::new());
            // Side 0 attacks with the move; side 1 attacks after the defender's move, which
            // blocks its completion if it has one.
            for (side, found) in found.iter_mut().enumerate() {
                let (stones, left) = if side == 0 {
                    ([p.own(), p.opponent()], empties.div_ceil(2))
                } else {
                    ([p.opponent(), p.own()], empties / 2)
                };
                let block = board.completions(stones[0]) & empty;
                if block.count_ones() > 1 || (side == 0 && block != 0) {
                    continue;
                }
                let Some(pairing) = pairing::against(&board, stones, left, block, &mut 1000, &mut live) else {
                    continue;
                };
                *found += 1;
                let mut taken = 0;
                for &pair in pairing.pairs() {
                    assert!(pair.count_ones() == 2 && pair & !empty == 0 && pair & taken == 0, "{cells:?}");
                    taken |= pair;
                }
                for &w in board.windows() {
                    let completable = w & stones[1] == 0 && k as u32 - (w & stones[0]).count_ones() <= left;
                    if completable && w & block == 0 {
                        assert!(pairing.pairs().iter().any(|&pair| pair & !w == 0), "{cells:?}: {w:#x}");
                    }
                }
                if side == 0 {
                    assert!(value <= 0, "{rows}x{cols}x{k} after {cells:?}: the side to move wins");
                } else {
                    assert!(value >= 0, "{rows}x{cols}x{k} after {cells:?}: the side to move loses");
                }
            }
        }
    }
    assert!(found[0] >= 50 && found[1] >= 50, "pairings found: {found:?}");
}
