use super::*;
use crate::search::{Candidate, Knowledge, Score};

fn play_all(g: &mut Mnk, cells: &[(usize, usize)]) {
    for &(r, c) in cells {
        let mv = g.parse_move(&format!("{r} {c}")).unwrap();
        assert!(g.is_legal(mv));
        g.play(mv);
    }
}

#[test]
fn wins_in_every_direction() {
    // (first player's cells, second player's cells) on 5x5x3.
    let lines: [&[(usize, usize)]; 4] =
        [&[(2, 0), (2, 1), (2, 2)], &[(0, 4), (1, 4), (2, 4)], &[(1, 1), (2, 2), (3, 3)], &[(0, 3), (1, 2), (2, 1)]];
    for line in lines {
        let mut g = Mnk::new(5, 5, 3, &[]).unwrap();
        let filler = [(4, 0), (4, 2), (4, 4)];
        for i in 0..3 {
            assert_eq!(g.outcome(), None);
            play_all(&mut g, &[line[i]]);
            if i < 2 {
                play_all(&mut g, &[filler[i]]);
            }
        }
        assert_eq!(g.outcome(), Some(Outcome::Win(Side::First)), "{line:?}");
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        assert!(moves.is_empty(), "no moves after a win");
        assert!(!g.is_legal(0));
    }
}

#[test]
fn full_board_without_line_is_a_draw_and_undo_restores() {
    let mut g = Mnk::new(3, 3, 3, &[]).unwrap();
    let h0 = g.hash();
    // X O X / X O O / O X X
    play_all(&mut g, &[(0, 0), (0, 1), (0, 2), (1, 1), (1, 0), (1, 2), (2, 1), (2, 0), (2, 2)]);
    assert_eq!(g.outcome(), Some(Outcome::Draw));
    for _ in 0..9 {
        g.undo();
    }
    assert_eq!(g.hash(), h0);
    assert_eq!(g.moves_played(), 0);
    assert_eq!(g.to_move(), Side::First);
}

#[test]
fn move_text_and_board_limits() {
    let g = Mnk::new(4, 6, 3, &[(1, 1)]).unwrap();
    assert_eq!(g.parse_move("1 2").unwrap(), 8);
    assert_eq!(g.parse_move("1,2").unwrap(), 8);
    assert_eq!(g.parse_move(" 3 , 5 ").unwrap(), 23);
    assert_eq!(g.format_move(23), "3 5");
    for bad in ["4 0", "0 6", "-1 0", "a b", "1", "1 2 3", ""] {
        assert!(g.parse_move(bad).is_err(), "{bad}");
    }
    assert!(!g.is_legal(7), "a blocked cell is not playable");
    assert!(Mnk::new(3, 3, 3, &[(3, 0)]).is_err());
    assert!(Mnk::new(0, 3, 3, &[]).is_err());
}

#[test]
fn candidates_are_forced_blocks_when_the_opponent_threatens() {
    let mut g = Mnk::new(9, 9, 4, &[]).unwrap();
    // First: (4,2) (4,3) (4,4); second: (0,0) (8,8). First threatens (4,1) and (4,5).
    play_all(&mut g, &[(4, 2), (0, 0), (4, 3), (8, 8), (4, 4)]);
    let mut c: Vec<Candidate<Cell>> = Vec::new();
    assert!(MnkKnowledge::new().candidates(&g, &mut c));
    let mut cells: Vec<String> = c.iter().map(|c| g.format_move(c.mv)).collect();
    cells.sort();
    assert_eq!(cells, vec!["4 1", "4 5"]);
    assert!(!MnkKnowledge::new().quiet(&g));
}

#[test]
fn near_set_follows_play_and_undo() {
    let mut g = Mnk::new(20, 20, 5, &[]).unwrap();
    play_all(&mut g, &[(10, 10)]);
    assert_eq!(g.near_empty.len(), 24);
    play_all(&mut g, &[(0, 0)]);
    assert_eq!(g.near_empty.len(), 24 + 8);
    g.undo();
    assert_eq!(g.near_empty.len(), 24);
    g.undo();
    assert_eq!(g.near_empty.len(), 0);
}

#[test]
fn against_an_open_three_only_the_blocks_and_our_fours_are_searched() {
    // 15x15x5: X (first) has an open three on row 7, columns 6 to 8; O has three in a row on
    // row 2 with both ends open. O, to move, must stop the open four (at 7,5 or 7,9) or make a
    // four of its own (one of the four cells that bring its three to four in a window).
    let mut g = Mnk::new(15, 15, 5, &[]).unwrap();
    play_all(&mut g, &[(7, 6), (2, 5), (7, 7), (2, 6), (7, 8), (2, 7), (12, 12), (12, 0), (12, 2)]);
    assert_eq!(g.to_move(), Side::Second);
    let mut out: Vec<Candidate<Cell>> = Vec::new();
    assert!(!MnkKnowledge::new().candidates(&g, &mut out), "a heuristic selection, not a proof");
    let mut cells: Vec<(usize, usize)> = out.iter().map(|c| (c.mv as usize / 15, c.mv as usize % 15)).collect();
    cells.sort();
    assert_eq!(cells, vec![(2, 3), (2, 4), (2, 8), (2, 9), (7, 5), (7, 9)]);
}

#[test]
fn only_the_boards_with_patterns_prune_by_the_static_evaluation() {
    let know = MnkKnowledge::new();
    let sel = |m, n, k| know.selectivity(&Mnk::new(m, n, k, &[]).unwrap());
    assert_eq!(sel(15, 15, 5).static_margin, Some(knowledge::STATIC_MARGIN));
    assert_eq!(sel(10, 10, 5).static_margin, Some(knowledge::STATIC_MARGIN));
    for (m, n, k) in [(7, 7, 5), (8, 8, 5), (15, 15, 4), (33, 33, 5), (50, 50, 10)] {
        assert_eq!(sel(m, n, k), crate::search::Selectivity::default(), "{m}x{n}x{k}");
    }
}

#[test]
fn threat_stages_put_our_threats_first_and_leave_quiet_moves_alone() {
    // 15x15x5: X (first, to move) has an open three on row 7, columns 6 to 8, and two on row 2.
    let mut g = Mnk::new(15, 15, 5, &[]).unwrap();
    play_all(&mut g, &[(7, 6), (12, 0), (7, 7), (12, 2), (7, 8), (12, 4), (2, 5), (12, 6), (2, 6), (12, 8)]);
    assert_eq!(g.to_move(), Side::First);
    let p = g.lines.patterns().unwrap();
    let me = g.to_move().index();
    let at = |r: usize, c: usize| knowledge::threat_stage(p, r * 15 + c, me);
    assert_eq!(at(7, 5), Some(0), "an open four");
    assert_eq!(at(7, 9), Some(0), "an open four");
    assert_eq!(at(0, 14), None, "far from every stone");
    assert_eq!(at(2, 7), None, "an open three is quiet");
}

/// The pattern evaluation's weights by name: the defaults evaluate as the compiled-in
/// evaluation (the board's sums and the cells summed afresh agree), another set changes the
/// evaluation where its combinations occur, as the features say; a file's names that are not
/// these weights are refused and leave the set as it was.
#[test]
fn the_pattern_weights_are_named_settable_and_read_by_the_evaluation() {
    use crate::search::RootKnowledge;
    let mut g = Mnk::new(15, 15, 5, &[]).unwrap();
    play_all(&mut g, &[(7, 7), (7, 8), (8, 8), (6, 6), (8, 7), (8, 6), (9, 7), (6, 7)]);
    let mut know = knowledge::MnkKnowledge::new();
    let defaults = know.weights().unwrap().clone();
    assert_eq!(defaults.names().len(), 2 * eval::COMBOS + 2 * 13);
    assert_eq!(defaults.get("threat.theirs.FLEX4"), Some(eval::default().threat[1][11]));
    assert!(defaults.is_fixed(defaults.index("cell.wait.DEAD+DEAD+DEAD+DEAD").unwrap()));
    assert!(defaults.is_fixed(defaults.index("cell.move.F5+F3+DEAD+DEAD").unwrap()));
    assert!(!defaults.is_fixed(defaults.index("cell.move.F3+B3+DEAD+DEAD").unwrap()));
    let before = know.evaluate(&g);
    assert_eq!(know.evaluate_with(&g, &defaults), before);

    // The features give the evaluation: the weights times the counts.
    let features = know.features(&g).unwrap();
    let sum: f32 = features.iter().map(|&(i, n)| defaults.values()[i as usize] as f32 * n).sum();
    assert_eq!(sum as Score, before);

    // The side to move's most frequent combination: its weight moves the evaluation by its count.
    let &(i, n) = features.iter().filter(|&&(i, _)| (i as usize) < eval::COMBOS).max_by_key(|f| f.1 as i32).unwrap();
    assert!(n >= 2.0);
    let name = defaults.names()[i as usize];
    let mut changed = defaults.clone();
    changed.set(name, defaults.get(name).unwrap() + 10).unwrap();
    let expected = before + 10 * n as Score;
    assert_eq!(know.evaluate_with(&g, &changed), expected);
    know.set_weights(&changed).unwrap();
    assert_eq!(know.evaluate(&g), expected);

    // A set of another game's names is refused, and the knowledge keeps its weights.
    let other = crate::search::Weights::new(&["man", "king"], &[100, 130], &[]);
    assert!(know.set_weights(&other).is_err());
    assert_eq!(know.evaluate(&g), expected);
    // Back to the defaults: the board's sums serve again.
    know.set_weights(&defaults).unwrap();
    assert_eq!(know.evaluate(&g), before);
}

/// The features are the evaluation: for any weights, their sum times the counts is what
/// `evaluate_with` says, in positions of random games on 15x15.
#[test]
fn the_features_sum_to_the_evaluation_for_any_weights() {
    use crate::search::RootKnowledge;
    use rand::{Rng, SeedableRng};
    let know = knowledge::MnkKnowledge::new();
    let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
    let mut weights = know.weights().unwrap().clone();
    for v in weights.values_mut() {
        *v = rng.gen_range(-1000..=1000);
    }
    for _ in 0..20 {
        let mut g = Mnk::new(15, 15, 5, &[]).unwrap();
        for _ in 0..rng.gen_range(4..40) {
            if g.outcome().is_some() {
                break;
            }
            let mut moves = Vec::new();
            g.legal_moves(&mut moves);
            let near: Vec<Cell> = moves.iter().copied().filter(|&c| g.near_empty.contains(c)).collect();
            let pick = if near.is_empty() { &moves } else { &near };
            g.play(pick[rng.gen_range(0..pick.len())]);
            if g.outcome().is_some() {
                continue;
            }
            let features = know.features(&g).unwrap();
            let sum: f64 = features.iter().map(|&(i, n)| weights.values()[i as usize] as f64 * n as f64).sum();
            assert_eq!(sum as Score, know.evaluate_with(&g, &weights));
        }
    }
}

/// A free-style 15x15 position: the centre stone, then up to `stones` stones, each on an empty
/// cell near the stones drawn by the linear congruential `seed` (advanced), until the game ends.
pub(super) fn random_15x15(seed: &mut u64, stones: usize) -> Mnk {
    let mut g = Mnk::new(15, 15, 5, &[]).unwrap();
    g.play(7 * 15 + 7);
    for _ in 0..stones {
        *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let near = g.near_empty.as_slice();
        if g.outcome().is_some() || near.is_empty() {
            break;
        }
        g.play(near[(*seed >> 33) as usize % near.len()]);
    }
    g
}

/// Whether `attacker`, to move in `g` with no threat against it, wins within 5 plies by one of
/// the stones the five-ply quiet win names (a four-three or a double three), against every
/// reply of the defender: after the reply the attacker has a five to make, or (the defender
/// having none) a cell that makes an open four or a double four.
fn wins_in_five_against_every_reply(g: &mut Mnk) -> bool {
    use crate::game::kinarow::patterns::{BLOCK4_FLEX3, FLEX3X2, FLEX4};
    let me = g.to_move();
    let p = g.lines.patterns().unwrap();
    let firsts: Vec<u32> = (0..g.lines.cell_count() as u32)
        .filter(|&c| g.lines.is_empty_cell(c as usize))
        .filter(|&c| matches!(p.class(c as usize, me.index()), BLOCK4_FLEX3 | FLEX3X2))
        .collect();
    firsts.into_iter().any(|a| {
        g.play(a);
        let mut replies = Vec::new();
        g.legal_moves(&mut replies);
        let holds = replies.iter().all(|&d| {
            g.play(d);
            let p = g.lines.patterns().unwrap();
            let ok = g.outcome().is_none()
                && (!g.lines.threats(me).is_empty()
                    || (g.lines.threats(me.other()).is_empty() && p.count(me.index(), FLEX4) > 0));
            g.undo();
            ok
        });
        g.undo();
        holds
    })
}

#[test]
fn quiet_wins_in_five_hold_against_every_reply_on_15x15() {
    // Random free-style 15x15 positions (they keep patterns), the side to move quiet: every
    // five-ply win the quiet-win check claims (a four-three or a double three, the opponent
    // without a four to make) holds against each of the defender's replies, and the df-pn VCT
    // prover proves it.
    use super::vct::ThreatMemo;
    use crate::search::dfpn::Verdict;
    let know = MnkKnowledge::new();
    let far = std::time::Instant::now() + std::time::Duration::from_secs(3600);
    let mut seed = 0x5eed_0ff1_e000_u64;
    let (mut claimed, mut positions) = (0, 0);
    for _ in 0..3000 {
        let stones = 8 + (seed >> 60) as usize;
        let mut g = random_15x15(&mut seed, stones);
        if g.outcome().is_some() || know.winning_move(&g).is_some() || !know.quiet(&g) {
            continue;
        }
        positions += 1;
        if know.quiet_win(&g) != Some(5) {
            continue;
        }
        claimed += 1;
        assert!(wins_in_five_against_every_reply(&mut g), "a five-ply quiet win that a reply stops: {:?}", g.history);
        let (verdict, _) = g.vct_dfpn(&ThreatMemo::default(), g.to_move(), far, 1_000_000);
        assert_eq!(verdict, Verdict::Proved, "a five-ply quiet win the prover does not prove");
    }
    assert!(claimed >= 20 && positions >= 1000, "{claimed} claims in {positions} quiet positions");
}

#[test]
fn a_four_three_wins_in_five_unless_its_block_makes_a_four() {
    // X to move on 15x15 with a four-three at (7,8): the four (7,5)-(7,8) closed by O's (7,4),
    // blocked only at (7,9), and the open three (5,8)-(7,8).
    let x = [(7, 5), (7, 6), (7, 7), (5, 8), (6, 8)];
    let position = |o: [(usize, usize); 5]| {
        let mut g = Mnk::new(15, 15, 5, &[]).unwrap();
        for (a, b) in x.iter().zip(o.iter()) {
            play_all(&mut g, &[*a, *b]);
        }
        g
    };
    let know = MnkKnowledge::new();
    // O has no four to make: the four-three wins.
    let g = position([(7, 4), (0, 0), (0, 14), (14, 0), (14, 14)]);
    assert!(know.quiet(&g));
    assert_eq!(know.quiet_win(&g), Some(5));
    // O has fours to make, none at the block: they come too late.
    let g = position([(7, 4), (10, 0), (10, 1), (10, 2), (0, 14)]);
    assert_eq!(know.quiet_win(&g), Some(5));
    // O's block at (7,9) makes its own four (column 9): X must answer it, no claim.
    let g = position([(7, 4), (4, 9), (5, 9), (6, 9), (0, 0)]);
    assert!(know.quiet(&g));
    assert_eq!(know.quiet_win(&g), None);
}

#[test]
fn the_policy_orders_the_quiet_moves_of_free_style_boards_only() {
    // On 15x15x5, where the opponent threatens nothing, the candidates are the cells near the
    // stones, each scored by the policy: the sum of its two features' weights (what the tuner
    // fits). Where the opponent has an open three or a four-three, and on a course board
    // (10x10x5), the hand-made order stays.
    let know = MnkKnowledge::new();
    let weights = super::policy::default_weights().values();
    let mut seed = 0x0090_11c4_u64;
    let (mut ordered, mut threatened) = (0, 0);
    for _ in 0..300 {
        let stones = 4 + (seed >> 59) as usize;
        let g = random_15x15(&mut seed, stones);
        if g.outcome().is_some() || know.winning_move(&g).is_some() || !know.quiet(&g) {
            continue;
        }
        let mut out = Vec::new();
        know.candidates(&g, &mut out);
        let p = g.lines.patterns().unwrap();
        match super::policy::features(&g) {
            Some(features) => {
                ordered += 1;
                assert_eq!(out.iter().map(|c| c.mv).collect::<Vec<_>>(), g.near_empty.as_slice());
                for (c, (cell, f)) in out.iter().zip(&features) {
                    assert_eq!(c.mv, *cell);
                    assert_eq!(c.score, f.iter().map(|&i| weights[i as usize] as i64).sum::<i64>());
                }
            }
            None => {
                threatened += 1;
                for c in &out {
                    assert_eq!(c.score, eval::move_score(p, c.mv as usize, g.to_move().index()));
                }
            }
        }
    }
    assert!(ordered > 100 && threatened > 5, "{ordered} ordered, {threatened} threatened");
    assert!(weights.iter().filter(|&&w| w != 0).count() > 500, "the compiled-in policy is fitted");
    let mut g = Mnk::new(10, 10, 5, &[]).unwrap();
    play_all(&mut g, &[(4, 4), (4, 5), (5, 5)]);
    assert!(g.lines.patterns().is_some() && super::policy::features(&g).is_none());
    let mut out = Vec::new();
    know.candidates(&g, &mut out);
    let p = g.lines.patterns().unwrap();
    assert!(out.iter().all(|c| c.score == eval::move_score(p, c.mv as usize, g.to_move().index())));
}
