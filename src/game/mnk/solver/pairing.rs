//! Pairing strategies: a proof that one side (the attacker) cannot complete any window.
//!
//! The defender has a pairing when it can choose disjoint pairs of empty cells such that every
//! window the attacker can still complete holds both cells of some pair. Whenever the attacker
//! takes a cell of a pair, the defender takes the other one (any other move of the attacker the
//! defender answers anywhere: a stone never hurts its owner in an m,n,k-game), so every such
//! window ends with a defender's stone in it. The attacker then wins no game from the position,
//! whoever is to move; when the defender is to move, its move first blocks the attacker's
//! completion if it has one.
//!
//! A pair holds in a window only if both cells lie on the window's line, and two lines share at
//! most one cell, so every line with a live window needs a pair of its own: with fewer than two
//! empty cells per such line there is no pairing (the quick test that rejects most of the
//! opening). Otherwise a depth-first search picks, for the window with the fewest cells still
//! free of pairs, each pair of those cells in turn (the pairs held by the most other windows
//! first), within a budget of steps; running out of it counts as no pairing, so the answer is
//! always sound.

use super::Board;

/// The most windows a pairing is looked for among (a 64-bit board has at most 4 x 64 windows).
const MAX_WINDOWS: usize = 256;

/// A pairing: disjoint pairs of empty cells, each a bitboard of two cells.
#[derive(Clone, Debug)]
pub struct Pairing {
    pairs: [u64; 32],
    len: usize,
}

impl Pairing {
    pub fn pairs(&self) -> &[u64] {
        &self.pairs[..self.len]
    }
}

/// A pairing of the defender against the attacker on `board`, with `left` moves left to the
/// attacker, if one is found within the steps left in `budget` ([`defender_pairing`] of the
/// attacker's windows free of `defender`'s stones and short of at most `left` stones). `live`
/// is scratch.
pub fn against(
    board: &Board,
    [attacker, defender]: [u64; 2],
    left: u32,
    block: u64,
    budget: &mut u32,
    live: &mut Vec<(u64, u64)>,
) -> Option<Pairing> {
    let empty = board.cells() & !(attacker | defender);
    let k = board.k() as u32;
    live.clear();
    for (&w, &line) in board.windows().iter().zip(board.lines()) {
        if w & defender == 0 && k - (w & attacker).count_ones() <= left {
            live.push((w & empty, line));
        }
    }
    defender_pairing(live, block, budget)
}

/// Whether the defender has a pairing against the attacker's windows `live` (each given with
/// its line, as `(empty cells of the window, line)`): the windows free of the defender's stones
/// that the attacker can still complete. `block` is a cell the defender plays first (the
/// attacker's only completion, when the defender is to move; 0 if none). Each search step takes
/// one from `budget`; when none are left, the answer is none.
pub fn defender_pairing(live: &[(u64, u64)], block: u64, budget: &mut u32) -> Option<Pairing> {
    let mut windows = [0u64; MAX_WINDOWS];
    let mut lines = [0u64; MAX_WINDOWS];
    let (mut n, mut line_count, mut cells) = (0, 0, 0u64);
    for &(free, line) in live {
        if free & block != 0 {
            continue;
        }
        if free.count_ones() < 2 || n == MAX_WINDOWS {
            return None;
        }
        windows[n] = free;
        n += 1;
        cells |= free;
        if !lines[..line_count].contains(&line) {
            lines[line_count] = line;
            line_count += 1;
        }
    }
    if 2 * line_count > cells.count_ones() as usize {
        return None;
    }
    let n = drop_supersets(&mut windows[..n]);
    let mut pairing = Pairing { pairs: [0; 32], len: 0 };
    cover(&mut windows[..n], 0, budget, &mut pairing).then_some(pairing)
}

/// Drops every window whose cells include all of another's (the pair held by the smaller one is
/// held by it too); the windows kept come first, their count returned.
fn drop_supersets(windows: &mut [u64]) -> usize {
    windows.sort_unstable_by_key(|w| w.count_ones());
    let mut kept = 0;
    for i in 0..windows.len() {
        let w = windows[i];
        if !windows[..kept].iter().any(|&smaller| smaller & !w == 0) {
            windows[kept] = w;
            kept += 1;
        }
    }
    kept
}

/// Whether disjoint pairs of cells outside `used` can be chosen, each window of `windows`
/// holding one, added to `chosen`. Reorders `windows`.
fn cover(windows: &mut [u64], used: u64, budget: &mut u32, chosen: &mut Pairing) -> bool {
    if windows.is_empty() {
        return true;
    }
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    let mut fewest = (u32::MAX, 0);
    for &w in windows.iter() {
        let free = (w & !used).count_ones();
        if free < 2 {
            return false;
        }
        if free < fewest.0 {
            fewest = (free, w & !used);
        }
    }
    // Its pairs, each with the number of windows holding it, most first.
    let mut pairs = [(0usize, 0u64); 64];
    let mut count = 0;
    let mut a_cells = fewest.1;
    while a_cells != 0 {
        let a = a_cells & a_cells.wrapping_neg();
        a_cells ^= a;
        let mut b_cells = a_cells;
        while b_cells != 0 {
            let b = b_cells & b_cells.wrapping_neg();
            b_cells ^= b;
            let pair = a | b;
            if count < pairs.len() {
                pairs[count] = (windows.iter().filter(|&&w| w & pair == pair).count(), pair);
                count += 1;
            }
        }
    }
    pairs[..count].sort_unstable_by_key(|&(n, _)| std::cmp::Reverse(n));
    for &(_, pair) in &pairs[..count] {
        // The windows the pair does not hold go first; only they are left to cover.
        let mut open = 0;
        for i in 0..windows.len() {
            if windows[i] & pair != pair {
                windows.swap(open, i);
                open += 1;
            }
        }
        chosen.pairs[chosen.len] = pair;
        chosen.len += 1;
        if cover(&mut windows[..open], used | pair, budget, chosen) {
            return true;
        }
        chosen.len -= 1;
        if *budget == 0 {
            return false;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::mnk::solver::Board;

    /// The attacker's windows on `board` free of `defender`'s stones, with their lines.
    fn live(board: &Board, defender: u64, occupied: u64) -> Vec<(u64, u64)> {
        let empty = board.cells() & !occupied;
        board
            .windows()
            .iter()
            .zip(board.lines())
            .filter(|&(&w, _)| w & defender == 0)
            .map(|(&w, &l)| (w & empty, l))
            .collect()
    }

    fn cells(board: &Board, list: &[(usize, usize)]) -> u64 {
        list.iter().fold(0, |m, &(r, c)| m | 1 << board.index(r, c))
    }

    #[test]
    fn a_single_line_is_paired_in_its_middle() {
        // 1x7, K = 5: the windows 0-4, 1-5 and 2-6 all hold cells 2 to 4.
        let b = Board::new(1, 7, 5).unwrap();
        assert!(defender_pairing(&live(&b, 0, 0), 0, &mut 100).is_some());
        // With an attacker's stone on 3, a pair must still sit in 2..=4: 2,4.
        let x = cells(&b, &[(0, 3)]);
        assert!(defender_pairing(&live(&b, 0, x), 0, &mut 100).is_some());
        // Stones on 2 and 4 as well: the windows' free cells are {0,1}, {1,5} and {5,6}, and the
        // first and last pairs leave none for the middle window (the attacker wins at 1 or 5).
        let x = cells(&b, &[(0, 2), (0, 3), (0, 4)]);
        assert!(defender_pairing(&live(&b, 0, x), 0, &mut 100).is_none());
        // Unless the defender is to move and blocks: its stone on 1 kills 0-4 and 1-5.
        let one = cells(&b, &[(0, 1)]);
        assert!(defender_pairing(&live(&b, 0, x), one, &mut 100).is_some());
    }

    #[test]
    fn no_pairing_where_lines_outnumber_the_cells() {
        // K = 2 on 2x2: six windows (2 rows, 2 columns, 2 diagonals), each its own line, on 4
        // cells; tic-tac-toe: 8 lines on 9 cells.
        let b = Board::new(2, 2, 2).unwrap();
        assert!(defender_pairing(&live(&b, 0, 0), 0, &mut 100).is_none());
        let t = Board::new(3, 3, 3).unwrap();
        assert!(defender_pairing(&live(&t, 0, 0), 0, &mut 1000).is_none());
        // The defender on the centre, the attacker on a corner: its row and column need the
        // pairs of their two free cells, and then the far row and column both need the far
        // corner. (The position is a draw all the same: a pairing is enough, not necessary.)
        let d = cells(&t, &[(1, 1)]);
        let x = cells(&t, &[(0, 0)]);
        assert!(defender_pairing(&live(&t, d, d | x), 0, &mut 1000).is_none());
    }

    #[test]
    fn two_lines_paired_apart_within_the_budget() {
        // Tic-tac-toe, the defender on the centre and a corner: the attacker's windows left are
        // the far row and the far column, which share the far corner; a pair each beside it.
        let t = Board::new(3, 3, 3).unwrap();
        let d = cells(&t, &[(1, 1), (0, 0)]);
        let x = cells(&t, &[(2, 2)]);
        assert!(defender_pairing(&live(&t, d, d | x), 0, &mut 1000).is_some());
        // Two pairs take two steps: with one the search gives up.
        assert!(defender_pairing(&live(&t, d, d | x), 0, &mut 1).is_none());
    }
}
