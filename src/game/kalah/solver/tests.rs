use super::*;
use crate::game::kalah::reference::Reference;
use crate::game::kalah::tests::SMALL_BOARD_VALUES;
use crate::game::kalah::Capture;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn small_solver() -> Solver {
    Solver::new(4)
}

#[test]
fn the_solver_finds_the_small_board_values() {
    let mut solver = small_solver();
    for (p, row) in SMALL_BOARD_VALUES.iter().enumerate() {
        for (s, &(empty, standard)) in row.iter().enumerate() {
            for (capture, expected) in [(Capture::Empty, empty), (Capture::Standard, standard)] {
                let k = Kalah::with_rules(p + 1, s + 1, capture, false).unwrap();
                let solved = solver.solve(&k, None, None).unwrap();
                let name = format!("kalah {} {} {}", p + 1, s + 1, capture.name());
                assert_eq!(solved.value, expected, "{name}");
                assert_eq!(solved.first_margin, expected, "{name}");
            }
        }
    }
}

/// Positions from random games on small boards (random sizes, rules and lengths): the solver's
/// value, first-player margin, best moves and move values against the plain minimax's.
#[test]
fn the_solver_agrees_with_plain_minimax_in_the_middle_of_random_games() {
    let mut rng = SmallRng::seed_from_u64(11);
    let mut solver = small_solver();
    for game in 0..120 {
        let (p, s) = (rng.gen_range(1..=4), rng.gen_range(1..=3));
        let capture = if game % 2 == 0 { Capture::Empty } else { Capture::Standard };
        let pie = game % 5 == 0;
        let mut k = Kalah::with_rules(p, s, capture, pie).unwrap();
        let plies = rng.gen_range(0..12);
        let mut moves = Vec::new();
        for _ in 0..plies {
            moves.clear();
            k.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            k.play(moves[rng.gen_range(0..moves.len())]);
        }
        let mut reference = Reference::new();
        let name = format!("kalah {p} {s} {} pie {pie} after {:?}", capture.name(), k.history().collect::<Vec<_>>());
        let solved = solver.solve(&k, None, None).unwrap();
        assert_eq!(solved.value, reference.remaining(&k), "{name}");
        assert_eq!(solved.first_margin, reference.first_margin(&k), "{name}");
        let values = reference.move_values(&k);
        let mut best: Vec<KalahMove> = values.iter().filter(|&&(_, v)| v == solved.value).map(|&(m, _)| m).collect();
        let mut found = solved.best.clone();
        best.sort_by_key(|m| format!("{m:?}"));
        found.sort_by_key(|m| format!("{m:?}"));
        assert_eq!(found, best, "{name}");
        assert_eq!(solver.analyze(&k, None, None).unwrap().moves, values, "{name}");
    }
}

#[test]
fn values_are_remaining_margins_and_first_margins_add_the_stores() {
    // The second player to move, 6 seeds behind: its remaining margin, and the first player's
    // final margin 6 minus it.
    let k = Kalah::from_rows(Capture::Empty, &[2, 0, 1, 3], 10, &[1, 2, 0, 2], 4, Side::Second).unwrap();
    let solved = small_solver().solve(&k, None, None).unwrap();
    assert_eq!(solved.value, Reference::new().remaining(&k));
    assert_eq!(solved.first_margin, 6 - solved.value);
    // The same pits with the first player to move (its rows swapped) have the same value.
    let mirrored = Kalah::from_rows(Capture::Empty, &[1, 2, 0, 2], 0, &[2, 0, 1, 3], 0, Side::First).unwrap();
    let again = small_solver().solve(&mirrored, None, None).unwrap();
    assert_eq!((again.value, again.first_margin), (solved.value, solved.value));
    // A finished game: nothing remains.
    let over = Kalah::from_rows(Capture::Empty, &[0, 0], 5, &[0, 0], 3, Side::First).unwrap();
    let done = small_solver().solve(&over, None, None).unwrap();
    assert_eq!((done.value, done.first_margin, done.best.len()), (0, 2, 0));
}

#[test]
#[ignore = "about 20 s until the endgame databases"]
fn kalah_6_4_is_a_first_player_win_by_10_with_empty_captures_and_8_with_standard() {
    let mut solver = Solver::new(64);
    for (capture, expected) in [(Capture::Empty, 10), (Capture::Standard, 8)] {
        let k = Kalah::with_rules(6, 4, capture, false).unwrap();
        let solved = solver.solve(&k, None, None).unwrap();
        assert_eq!(solved.first_margin, expected, "{}", capture.name());
    }
}

#[test]
fn a_stopped_solve_returns_none_and_an_unsupported_board_is_refused() {
    let k = Kalah::new(6, 6).unwrap();
    let stop = AtomicBool::new(true);
    assert_eq!(Solver::new(1).solve(&k, None, Some(&stop)), None);
    assert_eq!(Solver::new(1).solve(&k, Some(Instant::now()), None), None);
    assert!(!Solver::supports(&Kalah::new(7, 1).unwrap()));
    assert!(!Solver::supports(&Kalah::new(6, 22).unwrap()));
    assert!(Solver::supports(&Kalah::new(6, 21).unwrap()));
    assert_eq!(Solver::new(1).solve(&Kalah::new(7, 1).unwrap(), None, None), None);
}
