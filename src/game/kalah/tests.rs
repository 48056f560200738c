use super::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn pos(first: &[u16], first_store: u16, second: &[u16], second_store: u16, to_move: Side) -> Kalah {
    Kalah::from_rows(Capture::Empty, first, first_store, second, second_store, to_move).unwrap()
}

fn with_capture(mut k: Kalah, capture: Capture) -> Kalah {
    k.capture = capture;
    k
}

/// (first row, first store, second row, second store, side to move).
fn state(k: &Kalah) -> (Vec<u16>, usize, Vec<u16>, usize, Side) {
    (
        k.row(Side::First).to_vec(),
        k.store(Side::First),
        k.row(Side::Second).to_vec(),
        k.store(Side::Second),
        k.to_move(),
    )
}

fn pit(n: u8) -> KalahMove {
    KalahMove::Pit(n - 1)
}

#[test]
fn the_start_of_bantumi() {
    let k = Kalah::new(6, 3).unwrap();
    assert_eq!(state(&k), (vec![3; 6], 0, vec![3; 6], 0, Side::First));
    assert_eq!(k.total_seeds(), 36);
    assert_eq!(k.capture(), Capture::Empty, "the default capture rule");
    let mut moves = Vec::new();
    k.legal_moves(&mut moves);
    assert_eq!(moves, (0..6).map(KalahMove::Pit).collect::<Vec<_>>());
    assert_eq!(k.outcome(), None);
    assert!(Kalah::new(0, 3).is_err() && Kalah::new(3, 0).is_err() && Kalah::new(MAX_PITS + 1, 1).is_err());
    assert!(Kalah::new(12, 12).is_ok());
}

#[test]
fn the_fourth_pit_of_kalah_6_4_gives_an_extra_turn() {
    // Pit 3 (from the left) holds 4 seeds: 3 pits and the store.
    let mut k = Kalah::new(6, 4).unwrap();
    k.play(pit(3));
    assert_eq!(state(&k), (vec![4, 4, 0, 5, 5, 5], 1, vec![4; 6], 0, Side::First));
    k.play(pit(1));
    assert_eq!(state(&k), (vec![0, 5, 1, 6, 6, 5], 1, vec![4; 6], 0, Side::Second));
}

#[test]
fn a_lap_skips_the_opponents_store() {
    // 3 pits: a lap is 7 slots. 10 seeds from the first pit: pits 2, 3, the store, the
    // opponent's 3 pits, (not its store), pits 1, 2, 3 and the store again: an extra turn.
    let mut k = pos(&[10, 0, 0], 0, &[1, 1, 1], 0, Side::First);
    k.play(pit(1));
    assert_eq!(state(&k), (vec![1, 2, 2], 2, vec![2, 2, 2], 0, Side::First));
    // The second player's lap skips the first player's store.
    let mut k = pos(&[1, 1, 1], 0, &[0, 9, 0], 0, Side::Second);
    k.play(pit(2));
    assert_eq!(state(&k), (vec![2, 2, 2], 0, vec![1, 1, 2], 2, Side::Second));
}

#[test]
fn the_last_seed_of_a_lap_captures_in_the_emptied_pit() {
    // 7 seeds from the middle pit go once round and end in the emptied pit itself, which then
    // holds one seed: it takes the 2 seeds of the opposite (middle) pit.
    let mut k = pos(&[0, 7, 0], 0, &[1, 1, 1], 0, Side::First);
    assert_eq!(k.effect(1), Effect { store_gain: 4, captured: 3, extra_turn: false, ends_game: false });
    k.play(pit(2));
    assert_eq!(state(&k), (vec![1, 0, 1], 4, vec![2, 0, 2], 0, Side::Second));
}

#[test]
fn the_two_capture_rules_differ_only_when_the_opposite_pit_is_empty() {
    // The last seed lands in the empty third pit, facing the second player's empty first pit.
    let start = pos(&[1, 1, 0], 0, &[0, 2, 2], 0, Side::First);
    let mut empty = start.clone();
    empty.play(pit(2));
    assert_eq!(state(&empty), (vec![1, 0, 0], 1, vec![0, 2, 2], 0, Side::Second), "takes the one seed");
    let mut standard = with_capture(start, Capture::Standard);
    standard.play(pit(2));
    assert_eq!(state(&standard), (vec![1, 0, 1], 0, vec![0, 2, 2], 0, Side::Second), "the seed stays");
    // With seeds opposite, both rules capture.
    for capture in [Capture::Empty, Capture::Standard] {
        let mut k = with_capture(pos(&[1, 1, 0], 0, &[3, 2, 2], 0, Side::First), capture);
        k.play(pit(2));
        assert_eq!(state(&k), (vec![1, 0, 0], 4, vec![0, 2, 2], 0, Side::Second), "{capture:?}");
    }
}

#[test]
fn an_extra_turn_on_the_last_move_ends_the_game() {
    let mut k = pos(&[0, 0, 1], 4, &[1, 1, 1], 2, Side::First);
    assert_eq!(k.effect(2), Effect { store_gain: 1, captured: 0, extra_turn: true, ends_game: true });
    k.play(pit(3));
    assert!(k.is_over());
    // The second player's seeds go to its store.
    assert_eq!(state(&k).0, vec![0, 0, 0]);
    assert_eq!((k.store(Side::First), k.store(Side::Second)), (5, 5));
    assert_eq!(k.outcome(), Some(Outcome::Draw));
    let mut moves = Vec::new();
    k.legal_moves(&mut moves);
    assert!(moves.is_empty());
    assert!(!k.is_legal(pit(1)));
}

#[test]
fn a_capture_emptying_the_opponents_row_sweeps_the_movers_row() {
    let mut k = pos(&[2, 1, 0], 5, &[3, 0, 0], 7, Side::First);
    k.play(pit(2));
    assert!(k.is_over());
    assert_eq!((k.store(Side::First), k.store(Side::Second)), (5 + 4 + 2, 7));
    assert_eq!(k.store_difference(), 4);
    assert_eq!(k.outcome(), Some(Outcome::Win(Side::First)));
}

#[test]
fn the_second_players_move_crosses_over_captures_and_ends_the_game() {
    // Its third pit's 5 seeds: its store, the first player's 3 pits, (not its store), its own
    // empty first pit, which captures the first player's third pit. Its row is then empty.
    let mut k = pos(&[1, 1, 1], 0, &[0, 0, 5], 0, Side::Second);
    assert_eq!(k.effect(2), Effect { store_gain: 4, captured: 3, extra_turn: false, ends_game: true });
    k.play(pit(3));
    assert_eq!((k.store(Side::First), k.store(Side::Second)), (4, 4));
    assert_eq!(k.outcome(), Some(Outcome::Draw));
}

#[test]
fn pie_rule_first_move_earns_no_extra_turn_and_swap_exchanges_the_rows() {
    let mut k = Kalah::with_rules(3, 3, Capture::Empty, true).unwrap();
    assert!(k.pie_first_move() && !k.can_swap());
    assert!(!k.is_legal(KalahMove::Swap));
    assert_eq!(k.move_key_space(), 4);
    let start_hash = k.hash();
    // 3 seeds from the first pit end in the store, but the second player moves.
    k.play(pit(1));
    assert_eq!(state(&k), (vec![0, 4, 4], 1, vec![3, 3, 3], 0, Side::Second));
    assert!(k.can_swap());
    let mut moves = Vec::new();
    k.legal_moves(&mut moves);
    assert_eq!(moves, vec![pit(1), pit(2), pit(3), KalahMove::Swap]);
    let before_swap = (state(&k), k.hash());
    k.play(KalahMove::Swap);
    // The second player now owns the first player's row and store; the first player moves.
    assert_eq!(state(&k), (vec![3, 3, 3], 0, vec![0, 4, 4], 1, Side::First));
    assert_eq!(k.store_difference(), -1);
    assert!(!k.can_swap() && !k.is_legal(KalahMove::Swap));
    // From here on, extra turns count again: 3 seeds from the first pit reach the store.
    k.play(pit(1));
    assert_eq!(k.to_move(), Side::First);
    k.undo();
    k.undo();
    assert_eq!((state(&k), k.hash()), before_swap);
    k.undo();
    assert_eq!(k.hash(), start_hash);
    // Without the pie rule the same first move earns an extra turn, and swap is no move.
    let mut plain = Kalah::new(3, 3).unwrap();
    plain.play(pit(1));
    assert_eq!(plain.to_move(), Side::First);
    assert!(!plain.is_legal(KalahMove::Swap));
    assert!(plain.parse_move("swap").is_err());
    assert_eq!(plain.move_key_space(), 3);
}

#[test]
fn the_second_players_normal_reply_under_the_pie_rule_may_earn_an_extra_turn() {
    let mut k = Kalah::with_rules(3, 3, Capture::Empty, true).unwrap();
    k.play(pit(1));
    assert_eq!(k.to_move(), Side::Second);
    k.play(pit(1));
    assert_eq!(k.to_move(), Side::Second, "3 seeds from its first pit reach its store");
    assert!(!k.can_swap());
}

#[test]
fn move_text_and_keys_round_trip() {
    let mut k = Kalah::with_rules(6, 4, Capture::Empty, true).unwrap();
    k.play(pit(6));
    let mut moves = Vec::new();
    k.legal_moves(&mut moves);
    assert_eq!(moves.len(), 7);
    for &mv in &moves {
        assert_eq!(k.parse_move(&k.format_move(mv)).unwrap(), mv);
        assert_eq!(k.move_for_key(k.move_key(mv)), Some(mv));
        assert!((k.move_key(mv) as usize) < k.move_key_space());
    }
    assert_eq!(k.format_move(pit(1)), "1");
    assert_eq!(k.format_move(KalahMove::Swap), "swap");
    assert_eq!(k.parse_move(" 6 ").unwrap(), pit(6));
    assert_eq!(k.parse_move("SWAP").unwrap(), KalahMove::Swap);
    for bad in ["0", "7", "-1", "x", ""] {
        assert!(k.parse_move(bad).is_err(), "{bad}");
    }
    // An empty pit parses (it is on the board) but is not legal.
    let k = pos(&[0, 1, 1], 0, &[1, 1, 1], 0, Side::First);
    assert!(!k.is_legal(pit(1)) && k.move_for_key(0).is_none() && k.move_for_key(3).is_none());
    assert_eq!(k.parse_move("1").unwrap(), pit(1));
}

/// Random games on many board sizes: seeds are conserved, `undo` restores the board, the side to
/// move and the hash, the hash depends only on the position, and the game ends when a row is
/// empty with the right outcome.
#[test]
fn random_games_keep_the_invariants_and_undo_restores_everything() {
    let mut rng = SmallRng::seed_from_u64(7);
    for game in 0..300 {
        let (p, s) = (rng.gen_range(1..=8), rng.gen_range(1..=8));
        let capture = if game % 2 == 0 { Capture::Empty } else { Capture::Standard };
        let mut k = Kalah::with_rules(p, s, capture, game % 3 == 0).unwrap();
        let mut seen = Vec::new();
        let mut moves = Vec::new();
        while !k.is_over() {
            seen.push((state(&k), k.hash()));
            moves.clear();
            k.legal_moves(&mut moves);
            assert!(!moves.is_empty());
            let mv = moves[rng.gen_range(0..moves.len())];
            k.play(mv);
            let board_seeds: usize = k.row_seeds(Side::First) + k.row_seeds(Side::Second);
            assert_eq!(board_seeds + k.store(Side::First) + k.store(Side::Second), 2 * p * s);
            if !k.is_over() {
                assert!(k.row_seeds(Side::First) > 0 && k.row_seeds(Side::Second) > 0);
                if k.moves_played() >= 2 || !k.pie() {
                    let (a, a_store, b, b_store, side) = state(&k);
                    let same = with_capture(pos(&a, a_store as u16, &b, b_store as u16, side), capture);
                    assert_eq!(same.hash(), k.hash(), "the hash is a function of the position");
                }
            }
        }
        let d = k.store_difference();
        let expected = if d > 0 {
            Outcome::Win(Side::First)
        } else if d < 0 {
            Outcome::Win(Side::Second)
        } else {
            Outcome::Draw
        };
        assert_eq!(k.outcome(), Some(expected));
        while let Some(before) = seen.pop() {
            k.undo();
            assert_eq!((state(&k), k.hash()), before);
        }
        assert_eq!(k.moves_played(), 0);
    }
}

#[test]
fn the_side_to_move_and_the_pie_state_change_the_hash() {
    let a = pos(&[1, 2, 3], 0, &[3, 2, 1], 0, Side::First);
    let b = pos(&[1, 2, 3], 0, &[3, 2, 1], 0, Side::Second);
    assert_ne!(a.hash(), b.hash());
    let plain = Kalah::new(3, 3).unwrap();
    let pie = Kalah::with_rules(3, 3, Capture::Empty, true).unwrap();
    assert_ne!(plain.hash(), pie.hash());
}

/// The first player's margin with perfect play from the start of Kalah(P, S), P = 1..=3 and
/// S = 1..=6, under the empty and the standard capture rules (computed independently; see the
/// brief of the Kalah issue).
pub(crate) const SMALL_BOARD_VALUES: [[(i32, i32); 6]; 3] = [
    [(0, 0), (-2, -2), (6, 6), (-2, -2), (2, 2), (0, 0)],
    [(2, 2), (-2, -2), (-2, -2), (-12, -10), (6, 6), (8, 8)],
    [(0, 0), (4, 4), (2, 2), (2, 2), (6, 6), (-10, -8)],
];

#[test]
fn plain_minimax_finds_the_small_board_values() {
    for (p, row) in SMALL_BOARD_VALUES.iter().enumerate() {
        for (s, &(empty, standard)) in row.iter().enumerate() {
            for (capture, expected) in [(Capture::Empty, empty), (Capture::Standard, standard)] {
                let k = Kalah::with_rules(p + 1, s + 1, capture, false).unwrap();
                let mut r = exhaustive::Negamax::new();
                assert_eq!(r.first_margin(&k), expected, "kalah {} {} {}", p + 1, s + 1, capture.name());
            }
        }
    }
}

#[test]
fn plain_minimax_values_are_remaining_margins() {
    // Mid-game, the second player to move with stores 5 and 2: the first player's final margin
    // is 3 minus the second player's remaining margin.
    let k = pos(&[1, 0, 2], 5, &[2, 1, 1], 2, Side::Second);
    let mut r = exhaustive::Negamax::new();
    let rest = r.remaining(&k);
    assert_eq!(r.first_margin(&k), 3 - rest);
    let best = r.move_values(&k).into_iter().map(|(_, v)| v).max().unwrap();
    assert_eq!(best, rest);
    // Playing the game out along the values gives the promised final margin.
    let mut g = k.clone();
    while !g.is_over() {
        let values = r.move_values(&g);
        let best = values.iter().map(|&(_, v)| v).max().unwrap();
        let mv = values.iter().find(|&&(_, v)| v == best).unwrap().0;
        g.play(mv);
    }
    assert_eq!(g.store_difference(), 3 - rest);
}

#[test]
fn under_the_pie_rule_the_engine_swaps_exactly_when_swapping_is_worth_more() {
    use crate::game::players::Request;
    use crate::game::registry::{GameSpec, Resources};
    use crate::search::{Limits, Searcher};
    use std::time::{Duration, Instant};
    let (mut swapped, mut declined) = (0, 0);
    for (p, s) in [(3, 3), (3, 4)] {
        for first in 1..=p {
            let mut k = Kalah::with_rules(p, s, Capture::Standard, true).unwrap();
            k.play(pit(first as u8));
            let values = exhaustive::Negamax::new().move_values(&k);
            let swap = values.iter().find(|(mv, _)| *mv == KalahMove::Swap).unwrap().1;
            let best_pit = values.iter().filter(|(mv, _)| *mv != KalahMove::Swap).map(|&(_, v)| v).max().unwrap();
            if swap == best_pit {
                continue; // either is right
            }
            let spec = GameSpec::parse(&format!("kalah {p} {s} capture standard pie")).unwrap();
            let mut g = spec.new_game(&Resources::new(16)).unwrap();
            g.play(&first.to_string()).unwrap();
            let request =
                Request::full_strength(Limits::per_move(Instant::now(), Duration::from_secs(2), Duration::ZERO));
            let turn = g.think(&mut Searcher::new(4), &mut SmallRng::seed_from_u64(1), &request);
            let swaps = turn.moves[0] == "swap";
            assert_eq!(swaps, swap > best_pit, "kalah {p} {s} after {first}: swap {swap}, best pit {best_pit}");
            if swaps {
                swapped += 1;
            } else {
                declined += 1;
            }
        }
    }
    assert!(swapped > 0 && declined > 0, "swapped {swapped}, declined {declined}");
}
