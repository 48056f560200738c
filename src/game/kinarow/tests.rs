use super::*;
use crate::game::zobrist::SplitMix64;

/// Everything the board keeps incrementally, recomputed from the cells alone.
struct Recomputed {
    count: Vec<[u8; 2]>,
    value: [i64; 2],
    live: [u32; 2],
    threat: [Vec<u16>; 2],
    three: [Vec<u16>; 2],
    winner: Option<Side>,
}

fn recomputed(l: &Lines) -> Recomputed {
    let n = l.cells.len();
    let mut count = vec![[0u8; 2]; n * 4];
    let (mut value, mut live) = ([0i64; 2], [0u32; 2]);
    let mut threat = [vec![0u16; n], vec![0u16; n]];
    let mut three = [vec![0u16; n], vec![0u16; n]];
    let mut winner = None;
    for (w, _) in l.valid.iter().enumerate().filter(|(_, v)| **v) {
        let (start, d) = (w / 4, w % 4);
        let cells: Vec<usize> = (0..l.k).map(|t| (start as isize + t as isize * l.step[d]) as usize).collect();
        for &c in &cells {
            if l.cells[c] == 1 || l.cells[c] == 2 {
                count[w][(l.cells[c] - 1) as usize] += 1;
            }
        }
        for p in 0..2 {
            let (a, b) = (count[w][p] as usize, count[w][1 - p] as usize);
            if b == 0 {
                live[p] += 1;
                value[p] += l.weight[a];
                if a == l.k {
                    winner = Some(if p == 0 { Side::First } else { Side::Second });
                }
                if a + 1 == l.k {
                    let e = *cells.iter().find(|&&c| l.cells[c] == EMPTY).unwrap();
                    threat[p][e] += 1;
                }
                if l.k >= 3 && a + 2 == l.k {
                    for &c in &cells {
                        three[p][c] += 1;
                    }
                }
            }
        }
    }
    Recomputed { count, value, live, threat, three, winner }
}

/// A window is valid exactly when it fits on the board and holds no blocked cell.
fn assert_windows_valid(l: &Lines) {
    for r in 0..l.rows {
        for c in 0..l.cols {
            for (d, &(dr, dc)) in DIRS.iter().enumerate() {
                let cells: Option<Vec<usize>> = (0..l.k as isize)
                    .map(|t| {
                        let (rr, cc) = (r as isize + t * dr, c as isize + t * dc);
                        (rr >= 0 && rr < l.rows as isize && cc >= 0 && cc < l.cols as isize)
                            .then(|| rr as usize * l.cols + cc as usize)
                    })
                    .collect();
                let expect = cells.is_some_and(|cs| cs.iter().all(|&x| l.cells[x] != BLOCKED)) && (l.k > 1 || d == 0);
                assert_eq!(l.valid[(r * l.cols + c) * 4 + d], expect, "window at {r},{c} direction {d}");
            }
        }
    }
}

fn assert_consistent(l: &Lines) {
    let Recomputed { count, value, live, threat, three, winner } = recomputed(l);
    for (w, _) in l.valid.iter().enumerate().filter(|(_, v)| **v) {
        assert_eq!(l.count[w], count[w], "window {w}");
    }
    assert_eq!(l.value, value);
    assert_eq!(l.live, live);
    assert_eq!(l.threat_count, threat);
    assert_eq!(l.winner, winner);
    for (set, counts) in l.threats.iter().zip(&threat) {
        let mut listed = set.as_slice().to_vec();
        listed.sort();
        let expect: Vec<u32> = (0..counts.len()).filter(|&c| counts[c] > 0).map(|c| c as u32).collect();
        assert_eq!(listed, expect);
    }
    assert_eq!(l.three_count, three);
    for (p, side) in [Side::First, Side::Second].into_iter().enumerate() {
        let mut listed = l.makers(side).to_vec();
        listed.sort();
        // A maker is an empty cell where the side's stone brings two windows to K - 1.
        let expect: Vec<u32> =
            (0..l.cells.len()).filter(|&c| l.cells[c] == EMPTY && three[p][c] >= 2).map(|c| c as u32).collect();
        assert_eq!(listed, expect);
        for &c in &expect {
            assert!(l.fours_made(c as usize, side) >= 2);
        }
        let mut listed = l.four_cells(side).to_vec();
        listed.sort();
        let expect: Vec<u32> =
            (0..l.cells.len()).filter(|&c| l.cells[c] == EMPTY && three[p][c] >= 1).map(|c| c as u32).collect();
        assert_eq!(listed, expect);
        for c in (0..l.cells.len()).filter(|&c| l.cells[c] == EMPTY) {
            assert_eq!(l.move_gain(c, side), l.move_gain_scan(c, side), "gain of cell {c}");
        }
    }
}

/// `count` random cells of `0..n`, sorted, without repeats (so maybe fewer).
pub(super) fn random_cells(rng: &mut SplitMix64, n: usize, count: usize) -> Vec<usize> {
    let mut cells: Vec<usize> = (0..count).map(|_| (rng.next_u64() % n as u64) as usize).collect();
    cells.sort();
    cells.dedup();
    cells
}

/// Plays random moves on `l` until a side wins or the board is full, then takes them all back
/// in reverse order, calling `check` after each change.
pub(super) fn play_random_game(l: &mut Lines, rng: &mut SplitMix64, check: impl Fn(&Lines)) {
    let mut played = Vec::new();
    let mut side = Side::First;
    while l.winner().is_none() && l.empty_cells() > 0 {
        let free: Vec<usize> = (0..l.cells.len()).filter(|&c| l.is_empty_cell(c)).collect();
        let cell = free[(rng.next_u64() % free.len() as u64) as usize];
        l.place(cell, side);
        played.push((cell, side));
        check(l);
        side = side.other();
    }
    while let Some((cell, side)) = played.pop() {
        l.remove(cell, side);
        check(l);
    }
}

/// Random games on many shapes: after every place and every remove the incremental state equals
/// the recomputed one, and removing everything restores the empty board exactly.
#[test]
fn incremental_state_matches_recomputation() {
    let mut rng = SplitMix64::new(7);
    for &(rows, cols, k, nblocked) in &[
        (3, 3, 3, 0),
        (4, 5, 3, 2),
        (6, 7, 4, 0),
        (5, 5, 5, 3),
        (7, 3, 2, 1),
        (1, 9, 4, 0),
        (4, 4, 1, 2),
        (8, 8, 6, 4),
    ] {
        for _game in 0..20 {
            let n = rows * cols;
            let blocked = random_cells(&mut rng, n, nblocked);
            let mut l = Lines::new(rows, cols, k, &blocked, 0);
            let empty_hash = l.hash();
            assert_windows_valid(&l);
            assert_consistent(&l);
            play_random_game(&mut l, &mut rng, assert_consistent);
            assert_eq!(l.hash(), empty_hash);
            assert_eq!(l.empty_cells(), n - blocked.len());
        }
    }
}

#[test]
fn blocked_cells_kill_the_windows_through_them() {
    // 1 x 5 board, K = 3: windows start at columns 0, 1, 2. Blocking column 2 kills all three.
    let l = Lines::new(1, 5, 3, &[2], 0);
    assert!(!l.can_win(Side::First) && !l.can_win(Side::Second));
    let l = Lines::new(1, 5, 3, &[0], 0);
    assert!(l.can_win(Side::First));
}

#[test]
fn move_gain_prefers_completing_and_blocking_lines() {
    let mut l = Lines::new(1, 7, 4, &[], 0);
    l.place(1, Side::First);
    l.place(2, Side::First);
    // For the first player, extending to 3 beats a far cell; for the second, blocking does too.
    assert!(l.move_gain(3, Side::First) > l.move_gain(6, Side::First));
    assert!(l.move_gain(3, Side::Second) > l.move_gain(6, Side::Second));
}

#[test]
fn weights_grow_with_the_stones_in_a_window() {
    for k in 1..=40 {
        let w = window_weights(k);
        assert_eq!(w[0], 0);
        assert!(w.windows(2).all(|p| p[1] > p[0]), "k = {k}: {w:?}");
    }
}

#[test]
fn makers_and_their_spoilers_for_open_and_broken_threes() {
    let at = |c: usize| (7 * 15 + c) as u32;
    let sorted = |mut v: Vec<u32>| {
        v.sort();
        v
    };
    // An open three: . . X X X . . on row 7. A stone on either side makes an open four; only
    // those two cells stop both (a stone two cells off leaves the other side's open four).
    let mut l = Lines::new(15, 15, 5, &[], 0);
    for c in [6, 7, 8] {
        l.place(at(c) as usize, Side::First);
    }
    l.place(0, Side::Second);
    assert_eq!(sorted(l.makers(Side::First).to_vec()), vec![at(5), at(9)]);
    assert_eq!(l.maker_spoilers(Side::First), vec![at(5), at(9)]);
    assert!(l.makers(Side::Second).is_empty() && l.maker_spoilers(Side::Second).is_empty());
    // A broken three: X X . X. The gap makes the open four; the gap and both ends stop it.
    let mut l = Lines::new(15, 15, 5, &[], 0);
    for c in [6, 7, 9] {
        l.place(at(c) as usize, Side::First);
    }
    assert_eq!(l.makers(Side::First), &[at(8)]);
    assert_eq!(l.maker_spoilers(Side::First), vec![at(5), at(8), at(10)]);
    // Closed on one side: O X X X . . : no open four can be made.
    l.place(at(8) as usize, Side::Second);
    assert!(l.makers(Side::First).is_empty());
    // Two makers in different lines that no single stone stops: no spoiler.
    let mut l = Lines::new(15, 15, 5, &[], 0);
    for c in [6, 7, 8] {
        l.place(at(c) as usize, Side::First);
        l.place(2 * 15 + c + 3, Side::First);
    }
    assert_eq!(l.makers(Side::First).len(), 4);
    assert!(l.maker_spoilers(Side::First).is_empty());
}

#[test]
fn a_maker_whose_windows_miss_the_same_cell_needs_no_defence() {
    // Column 6, rows 4 to 10: X . X . X X O. A stone on (5,6) or (7,6) brings two windows to
    // four, but both miss the other of those cells: one threat, no double. No spoiler, so the
    // defence is not narrowed to one.
    let at = |r: usize| r * 15 + 6;
    let mut l = Lines::new(15, 15, 5, &[], 0);
    for r in [4, 6, 8, 9] {
        l.place(at(r), Side::First);
    }
    l.place(at(10), Side::Second);
    let mut makers = l.makers(Side::First).to_vec();
    makers.sort();
    assert_eq!(makers, vec![at(5) as u32, at(7) as u32]);
    assert_eq!(l.double_maker(Side::First, None), None);
    assert!(l.maker_spoilers(Side::First).is_empty());
    // With (3,6) X too, (5,6) also completes the window of rows 2 to 6 but one: a true maker,
    // and (5,6) and (7,6) the cells that stop it.
    l.place(at(3), Side::First);
    assert_eq!(l.double_maker(Side::First, None), Some(at(5)));
    assert_eq!(l.maker_spoilers(Side::First), vec![at(2) as u32, at(5) as u32, at(7) as u32]);
}

/// The memory check's figure is what a new board takes (issue 39: boards are refused before
/// they are made when they would not fit the engine's hash).
#[test]
fn a_new_board_takes_its_bytes_per_cell() {
    for (rows, cols, k) in [(1, 1, 1), (15, 15, 5), (100, 70, 10), (6, 7, 255)] {
        let bytes = Lines::new(rows, cols, k, &[], 0).heap_bytes();
        let per_cell = rows * cols * BYTES_PER_CELL;
        assert!(bytes >= per_cell && bytes <= per_cell + 64 * (k + 1) * (k + 1), "{rows}x{cols}x{k}: {bytes} bytes");
    }
    assert!(check_memory(1000, 1000, 0).is_ok(), "no limit");
    assert!(check_memory(1000, 1000, 147).is_ok());
    let e = check_memory(1000, 1000, 64).unwrap_err().to_string();
    assert!(e.contains("147 MiB") && e.contains("at most 435771 cells"), "{e}");
}
