use super::*;
use crate::game::kalah::exhaustive::Negamax;
use crate::game::kalah::solver::board;
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
    for game in 0..80 {
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
        let mut exhaustive = Negamax::new();
        solver.options.etc = game % 3 != 0;
        let name = format!("kalah {p} {s} {} pie {pie} after {:?}", capture.name(), k.history().collect::<Vec<_>>());
        let solved = solver.solve(&k, None, None).unwrap();
        assert_eq!(solved.value, exhaustive.remaining(&k), "{name}");
        assert_eq!(solved.first_margin, exhaustive.first_margin(&k), "{name}");
        let values = exhaustive.move_values(&k);
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
    assert_eq!(solved.value, Negamax::new().remaining(&k));
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

/// Bantumi, Kalah(6,3): the same value with and without the search's enhancements (no
/// published figure to compare with; docs/results/kalah.md).
#[test]
fn bantumi_solves_to_the_same_value_with_and_without_enhancements() {
    let k = Kalah::new(6, 3).unwrap();
    let mut full = Solver::new(16);
    full.options.etc = true;
    full.set_database_budget(1 << 20);
    let a = full.solve(&k, None, None).unwrap();
    let mut plain = Solver::new(16);
    plain.options.etc = false;
    plain.options.prefetch = 0;
    plain.options.db_cutoffs = false;
    let b = plain.solve(&k, None, None).unwrap();
    assert_eq!((a.first_margin, &a.best), (b.first_margin, &b.best));
    assert_eq!(a.first_margin, 2);
}

/// The published values (Irving, Donkers and Uiterwijk 2000). Too slow for the unit tests
/// (tens of seconds): `cargo test --release --lib game::kalah -- --ignored`.
#[test]
#[ignore = "tens of seconds"]
fn kalah_6_4_is_a_first_player_win_by_10_with_empty_captures_and_8_with_standard() {
    let mut solver = Solver::new(256);
    solver.set_database_budget(16 << 20);
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
    assert!(!Solver::supports(&Kalah::new(8, 1).unwrap()));
    assert!(!Solver::supports(&Kalah::new(6, 22).unwrap()));
    assert!(Solver::supports(&Kalah::new(6, 21).unwrap()));
    assert!(Solver::supports(&Kalah::new(7, 9).unwrap()));
    assert!(!Solver::supports(&Kalah::new(7, 10).unwrap()), "127 seeds at most on 7 pits");
    assert_eq!(Solver::new(1).solve(&Kalah::new(8, 1).unwrap(), None, None), None);
}

#[test]
fn the_database_knows_the_exhaustive_values_of_small_positions() {
    for (pits, capture) in [(2, Capture::Empty), (3, Capture::Standard), (4, Capture::Empty)] {
        let db = Database::build(pits, capture, 8);
        assert_eq!(db.bytes() as u64, Database::size(pits, 8).unwrap());
        let mut exhaustive = Negamax::new();
        let mut rng = SmallRng::seed_from_u64(pits as u64);
        for _ in 0..300 {
            // Random rows of at most 8 seeds in all, neither empty.
            let n = rng.gen_range(2..=8);
            let mut rows = vec![0u16; 2 * pits];
            for _ in 0..n {
                rows[rng.gen_range(0..2 * pits)] += 1;
            }
            let (mine, theirs) = rows.split_at(pits);
            if mine.iter().all(|&c| c == 0) || theirs.iter().all(|&c| c == 0) {
                continue;
            }
            let k = Kalah::from_rows(capture, mine, 0, theirs, 0, Side::First).unwrap();
            let pos = board::pack(mine, theirs);
            assert_eq!(db.value(pos, n), exhaustive.remaining(&k), "{mine:?} {theirs:?}");
        }
    }
}

#[test]
fn a_database_file_round_trips() {
    let db = Database::build(3, Capture::Standard, 6);
    let path = std::env::temp_dir().join(format!("kalah-db-test-{}.bin", std::process::id()));
    db.save(&path).unwrap();
    assert!(Database::load(&path, 3, Capture::Empty).is_err());
    assert!(Database::load(&path, 2, Capture::Standard).is_err());
    let again = Database::load(&path, 3, Capture::Standard).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(again.max_seeds(), 6);
    let pos = board::pack(&[1, 0, 2], &[0, 3, 0]);
    assert_eq!(again.value(pos, 6), db.value(pos, 6));
}

#[test]
fn solves_with_a_database_agree_with_plain_minimax() {
    let mut rng = SmallRng::seed_from_u64(5);
    for (p, s, capture) in [(2, 3, Capture::Empty), (3, 3, Capture::Standard), (4, 2, Capture::Empty)] {
        let mut solver = small_solver();
        solver.options.etc = capture == Capture::Empty;
        // Cutoffs by the database's children and prefetching on and off.
        solver.options.db_cutoffs = p != 4;
        solver.options.prefetch = (p % 3) as u8;
        solver.set_database_budget(64 << 10);
        for _ in 0..12 {
            let mut k = Kalah::with_rules(p, s, capture, false).unwrap();
            let mut moves = Vec::new();
            for _ in 0..rng.gen_range(0..8) {
                moves.clear();
                k.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                k.play(moves[rng.gen_range(0..moves.len())]);
            }
            let solved = solver.solve(&k, None, None).unwrap();
            assert!(solver.database().is_some_and(|db| db.max_seeds() > 0));
            let name = format!("kalah {p} {s} {:?}", k.history().collect::<Vec<_>>());
            assert_eq!(solved.value, Negamax::new().remaining(&k), "{name}");
        }
    }
}

/// Seven pits a row (the Manchester referee's board; the table keys a row in 7 bits a pit):
/// values, best moves and every move's value against plain minimax in the middle of random games
/// of few seeds, with and without a database, both capture rules, some under the pie rule.
#[test]
fn seven_pits_agree_with_plain_minimax() {
    let mut rng = SmallRng::seed_from_u64(7);
    let mut solver = small_solver();
    let mut with_db = small_solver();
    with_db.set_database_budget(1 << 20);
    for game in 0..30 {
        let capture = if game % 2 == 0 { Capture::Standard } else { Capture::Empty };
        // Kalah(7,1) after a few moves, or random rows of 8 seeds (neither row empty).
        let mut k = if game < 15 {
            let mut k = Kalah::with_rules(7, 1, capture, game % 3 == 0).unwrap();
            let mut moves = Vec::new();
            for _ in 0..6 {
                moves.clear();
                k.legal_moves(&mut moves);
                if let Some(&mv) = moves.get(rng.gen_range(0..moves.len().max(1))) {
                    k.play(mv);
                }
            }
            k
        } else {
            let mut rows = [0u16; 14];
            while rows[..7].iter().all(|&c| c == 0) || rows[7..].iter().all(|&c| c == 0) {
                rows = [0; 14];
                for _ in 0..8 {
                    rows[rng.gen_range(0..14)] += 1;
                }
            }
            Kalah::from_rows(capture, &rows[..7], 0, &rows[7..], 0, Side::First).unwrap()
        };
        let mut moves = Vec::new();
        for _ in 0..rng.gen_range(0..4) {
            moves.clear();
            k.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            k.play(moves[rng.gen_range(0..moves.len())]);
        }
        let name = format!("kalah 7 {} after {:?}", capture.name(), k.history().collect::<Vec<_>>());
        let mut exhaustive = Negamax::new();
        let values = exhaustive.move_values(&k);
        for s in [&mut solver, &mut with_db] {
            let solved = s.solve(&k, None, None).unwrap();
            assert_eq!(solved.value, exhaustive.remaining(&k), "{name}");
            let mut best: Vec<KalahMove> =
                values.iter().filter(|&&(_, v)| v == solved.value).map(|&(m, _)| m).collect();
            let mut found = solved.best.clone();
            best.sort_by_key(|m| format!("{m:?}"));
            found.sort_by_key(|m| format!("{m:?}"));
            assert_eq!(found, best, "{name}");
            assert_eq!(s.analyze(&k, None, None).unwrap().moves, values, "{name}");
        }
    }
}

/// A database saved in the cache's way and read back is the same.
#[test]
fn a_cached_database_is_found_and_read_back() {
    let dir = std::env::temp_dir().join(format!("kalah-cache-test-{}", std::process::id()));
    let db = Database::build(7, Capture::Standard, 5);
    cache::save(&db, &dir).unwrap();
    let file = cache::file(&dir, 7, Capture::Standard, 5);
    let again = Database::load(&file, 7, Capture::Standard).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let pos = board::pack(&[1, 0, 2, 0, 0, 0, 1], &[0, 0, 0, 1, 0, 0, 0]);
    assert_eq!(again.value(pos, 5), db.value(pos, 5));
    assert_eq!(again.bytes(), db.bytes());
}
