use super::*;
use crate::game::kinarow::tests::{play_random_game, random_cells};
use crate::game::kinarow::{Lines, BLOCKED};
use crate::game::zobrist::SplitMix64;
use crate::game::Side;

/// The recursive definition of the module's table, literally: the pattern of `line` (0 empty,
/// OWN, STOP) with the side's stone on the centre.
fn reference(line: &[u8], k: usize) -> Pattern {
    let n = 2 * k - 1;
    let centre = k - 1;
    let mut l = line.to_vec();
    l[centre] = OWN;
    // The run of cells free of stops through the centre.
    let mut start = centre;
    while start > 0 && l[start - 1] != STOP {
        start -= 1;
    }
    let mut end = centre;
    while end + 1 < n && l[end + 1] != STOP {
        end += 1;
    }
    let mut run = 1;
    let mut i = centre;
    while i > 0 && l[i - 1] == OWN {
        run += 1;
        i -= 1;
    }
    let mut i = centre;
    while i + 1 < n && l[i + 1] == OWN {
        run += 1;
        i += 1;
    }
    if run >= k {
        return F5;
    }
    if end + 1 - start < k {
        return DEAD;
    }
    let mut cnt = [0usize; PATTERNS];
    for e in (start..=end).filter(|&e| l[e] == EMPTY) {
        // The line re-centred on e: cells beyond the original line stop.
        let shifted: Vec<u8> = (0..n)
            .map(|j| {
                let src = j as isize + e as isize - centre as isize;
                if src < 0 || src >= n as isize {
                    STOP
                } else {
                    l[src as usize]
                }
            })
            .collect();
        cnt[reference(&shifted, k) as usize] += 1;
    }
    let c = |p: Pattern| cnt[p as usize];
    if c(F5) >= 2 {
        F4
    } else if c(F5) == 1 {
        B4
    } else if c(F4) >= 2 {
        F3S
    } else if c(F4) == 1 {
        F3
    } else if c(B4) > 0 {
        B3
    } else if c(F3) + c(F3S) >= 4 {
        F2B
    } else if c(F3) + c(F3S) == 3 {
        F2A
    } else if c(F3) + c(F3S) > 0 {
        F2
    } else if c(B3) > 0 {
        B2
    } else if c(F2) + c(F2A) + c(F2B) > 0 {
        F1
    } else if c(B2) > 0 {
        B1
    } else {
        DEAD
    }
}

fn line_of(code: usize, k: usize) -> Vec<u8> {
    let n = 2 * k - 1;
    let mut code = code;
    (0..n)
        .map(|i| {
            if i == k - 1 {
                return EMPTY;
            }
            let c = (code % 3) as u8;
            code /= 3;
            c
        })
        .collect()
}

#[test]
fn classify_is_the_recursive_definition() {
    for k in 1..=5 {
        let lines = 3usize.pow(2 * k as u32 - 2);
        for code in 0..lines {
            let line = line_of(code, k);
            assert_eq!(classify(&line, k), reference(&line, k), "K = {k}, line {line:?}");
        }
    }
    let mut rng = SplitMix64::new(5);
    for k in 6..=8 {
        for _ in 0..4000 {
            // Lines with few stops, so that their patterns are not all dead.
            let line: Vec<u8> = (0..2 * k - 1)
                .map(|i| match rng.next_u64() % 8 {
                    _ if i == k - 1 => EMPTY,
                    0 => STOP,
                    1..=4 => OWN,
                    _ => EMPTY,
                })
                .collect();
            assert_eq!(classify(&line, k), reference(&line, k), "K = {k}, line {line:?}");
        }
    }
}

#[test]
fn the_shapes_of_gomoku() {
    // K = 5, from the centre's view; '.' empty, 'x' own, 'o' stop; the centre is '_'.
    let p = |s: &str| {
        let line: Vec<u8> = s
            .chars()
            .map(|c| match c {
                'x' => OWN,
                'o' => STOP,
                _ => EMPTY,
            })
            .collect();
        classify(&line, 5)
    };
    assert_eq!(p("..xx_xx.."), F5);
    assert_eq!(p("...x_xx.."), F4);
    assert_eq!(p("..ox_xx.."), B4);
    assert_eq!(p("...x_x.x."), B4);
    assert_eq!(p("...._xx.."), F3S);
    assert_eq!(p("...x_.x.."), F3);
    assert_eq!(p("...o_xx.."), B3);
    assert_eq!(p("...._x..."), F2B);
    assert_eq!(p("...o_x..."), B2);
    assert_eq!(p("...._...."), F1);
    assert_eq!(p("...o_o..."), DEAD);
    assert_eq!(p("..o._...o"), B1);
    assert_eq!(combine([B4, F3, DEAD, DEAD]), BLOCK4_FLEX3);
    assert_eq!(combine([B4, B4, DEAD, DEAD]), FLEX4);
    assert_eq!(combine([F3, F3S, B1, DEAD]), FLEX3X2);
    assert_eq!(combine([B3, F2, DEAD, DEAD]), BLOCK3_PLUS);
}

/// The patterns of every empty cell recomputed from the cells alone, with the class counts,
/// cell sets and sums.
fn assert_matches_recomputation(l: &Lines) {
    let p = l.patterns().expect("patterns kept");
    let fresh = Patterns::new(&l.cells, l.rows, l.cols, l.k, p.weights);
    let k = l.k as isize;
    for cell in (0..l.cells.len()).filter(|&c| l.cells[c] == EMPTY) {
        for d in 0..4 {
            for side in 0..2 {
                // Straight from the board, not through the keys or tables.
                let line: Vec<u8> = (1 - k..k)
                    .map(|o| match (o, p.neighbour(cell, d, o)) {
                        (0, _) => EMPTY,
                        (_, None) => STOP,
                        (_, Some(x)) if l.cells[x] == EMPTY => EMPTY,
                        (_, Some(x)) if l.cells[x] == side as u8 + 1 => OWN,
                        _ => STOP,
                    })
                    .collect();
                assert_eq!(p.pattern(cell, side, d), classify(&line, l.k), "cell {cell} direction {d} side {side}");
            }
        }
        for side in 0..2 {
            assert_eq!(p.class(cell, side), fresh.class(cell, side));
            assert_eq!(p.score(cell, side), fresh.score(cell, side));
        }
    }
    for side in 0..2 {
        assert_eq!(p.count[side], fresh.count[side]);
        assert_eq!(p.value_sums(side), fresh.value_sums(side));
        for (kept, new) in [(&p.fours[side], &fresh.fours[side]), (&p.threes[side], &fresh.threes[side])] {
            let (mut a, mut b) = (kept.as_slice().to_vec(), new.as_slice().to_vec());
            a.sort();
            b.sort();
            assert_eq!(a, b);
        }
    }
}

/// Weights with every entry distinct, so that a wrong sum shows (the values drawn by a hash of
/// the class index).
pub(crate) fn test_weights() -> &'static Weights {
    static WEIGHTS: std::sync::OnceLock<Weights> = std::sync::OnceLock::new();
    WEIGHTS.get_or_init(|| Weights {
        score: [0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048],
        class_score: [0, 5, 10, 20, 40, 80, 160, 320, 640, 1280, 2560, 5120, 10240],
        values: (0..CLASS_INDICES as u64)
            .map(|i| {
                let h = i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40;
                [(h % 1001) as i32 - 500, (h / 1001 % 1001) as i32 - 500]
            })
            .collect(),
    })
}

/// Random games on many shapes, K from 1 to 8 (tables up to 5, direct beyond), with blocked
/// cells: after every stone placed and every stone taken back, the kept patterns equal a
/// recomputation.
#[test]
fn incremental_patterns_match_recomputation() {
    let mut rng = SplitMix64::new(11);
    for &(rows, cols, k, nblocked, games) in &[
        (3, 3, 3, 0, 10),
        (4, 5, 3, 2, 10),
        (6, 7, 4, 0, 10),
        (7, 7, 5, 3, 10),
        (11, 9, 5, 6, 6),
        (15, 15, 5, 0, 3),
        (7, 3, 2, 1, 10),
        (1, 9, 4, 0, 10),
        (4, 4, 1, 2, 5),
        (9, 9, 6, 4, 4),
        (12, 10, 7, 5, 3),
        (13, 13, 8, 3, 2),
    ] {
        for _ in 0..games {
            let blocked = random_cells(&mut rng, rows * cols, nblocked);
            let mut l = Lines::new(rows, cols, k, &blocked, 0);
            l.enable_patterns(test_weights());
            assert!(blocked.iter().all(|&b| l.cell(b) == BLOCKED));
            assert_matches_recomputation(&l);
            play_random_game(&mut l, &mut rng, assert_matches_recomputation);
        }
    }
}

#[test]
fn fours_and_threes_agree_with_the_windows() {
    // The cells where a stone makes a four are the windows' four cells, and a five the threats.
    let mut rng = SplitMix64::new(3);
    for _ in 0..20 {
        let mut l = Lines::new(15, 15, 5, &[], 0);
        l.enable_patterns(test_weights());
        let mut side = Side::First;
        for _ in 0..60 {
            if l.winner().is_some() {
                break;
            }
            let free: Vec<usize> = (0..225).filter(|&c| l.is_empty_cell(c)).collect();
            l.place(free[(rng.next_u64() % free.len() as u64) as usize], side);
            side = side.other();
            let p = l.patterns().unwrap();
            for (s, who) in [Side::First, Side::Second].into_iter().enumerate() {
                for c in (0..225).filter(|&c| l.is_empty_cell(c)) {
                    let pats: Vec<Pattern> = (0..4).map(|d| p.pattern(c, s, d)).collect();
                    assert_eq!(pats.contains(&F5), l.is_threat(who, c));
                    let four = pats.iter().any(|&x| x == B4 || x == F4);
                    assert!(!four || l.fours_at(who, c) > 0);
                    assert!(four || pats.contains(&F5) || l.fours_at(who, c) == 0);
                }
            }
        }
    }
}

/// A stone taken back out of order (not the last one placed) drops the saved frames: the
/// patterns follow by their upkeep, and stay equal to a recomputation from then on.
#[test]
fn stones_taken_back_out_of_order() {
    let mut rng = SplitMix64::new(17);
    for _ in 0..10 {
        let mut l = Lines::new(15, 15, 5, &[], 0);
        l.enable_patterns(test_weights());
        let mut played: Vec<(usize, Side)> = Vec::new();
        let mut side = Side::First;
        for step in 0..40 {
            if l.winner().is_some() {
                break;
            }
            if step % 7 == 6 && played.len() > 2 {
                // A stone from the middle of the game.
                let (cell, who) = played.remove(played.len() / 2);
                l.remove(cell, who);
                assert_matches_recomputation(&l);
                continue;
            }
            let free: Vec<usize> = (0..225).filter(|&c| l.is_empty_cell(c)).collect();
            let cell = free[(rng.next_u64() % free.len() as u64) as usize];
            l.place(cell, side);
            played.push((cell, side));
            side = side.other();
            assert_matches_recomputation(&l);
        }
        while let Some((cell, who)) = played.pop() {
            l.remove(cell, who);
            assert_matches_recomputation(&l);
        }
    }
}

/// The threat searches' copy of a board that keeps patterns keeps none, and its move gains are
/// those of the windows.
#[test]
fn a_copy_without_patterns_has_the_windows_gains() {
    let mut rng = SplitMix64::new(23);
    let mut l = Lines::new(15, 15, 5, &[3, 100], 0);
    l.enable_patterns(test_weights());
    let mut side = Side::First;
    for _ in 0..30 {
        let free: Vec<usize> = (0..225).filter(|&c| l.is_empty_cell(c)).collect();
        l.place(free[(rng.next_u64() % free.len() as u64) as usize], side);
        side = side.other();
    }
    let copy = l.without_patterns();
    assert!(copy.patterns().is_none() && l.patterns().is_some());
    for c in (0..225).filter(|&c| copy.is_empty_cell(c)) {
        for who in [Side::First, Side::Second] {
            assert_eq!(copy.move_gain(c, who), copy.move_gain_scan(c, who), "cell {c}");
        }
    }
    assert_ne!((0..225).map(|c| copy.move_gain(c, Side::First)).max(), Some(0));
}
