//! The opening book of free-style gomoku on 15 x 15 (`mnk 15 15 5`, no blocked cell), built into
//! the binary from `book/gomoku-15x15.txt` (made by scripts/rapfi-book.py from Rapfi's searches;
//! `boardbot book --game mnk 15 15 5`, [`super::book_maker`], makes one of the engine's own):
//! for positions of the opening, the move to play. The search plays it
//! at once under a clock (see [`crate::search::RootKnowledge::book_move`]).
//!
//! File format: text; `#` starts a comment; one position a line: its moves from the empty board
//! in the protocol's move text (`ROW,COL`, the first player's first), then `=>` and the move to
//! play. A position is found whatever the order its stones were played in, and in any of the
//! board's 8 symmetric images (the book holds one of each).

use super::{Cell, Mnk};
use crate::game::kinarow::{BLOCKED, EMPTY};
use ahash::AHashMap;
use anyhow::{anyhow, bail, Result};
use std::sync::OnceLock;

/// The book's text.
const TEXT: &str = include_str!("../../../book/gomoku-15x15.txt");

/// The board side the book is for.
pub(super) const SIZE: usize = 15;

/// The images of cell (r, c) of an n x n board under its 8 symmetries, and each one's inverse.
fn image(t: usize, r: usize, c: usize, n: usize) -> (usize, usize) {
    let m = n - 1;
    match t {
        0 => (r, c),
        1 => (r, m - c),
        2 => (m - r, c),
        3 => (m - r, m - c),
        4 => (c, r),
        5 => (c, m - r),
        6 => (m - c, r),
        _ => (m - c, m - r),
    }
}
const INVERSE: [usize; 8] = [0, 1, 2, 3, 4, 6, 5, 7];

/// SplitMix64's finaliser: a well-mixed key for (cell, content).
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The key of the stones (cell, content 1 or 2) of an n x n board shared by its 8 images, and
/// a symmetry taking the stones to the image the key stands for.
fn canonical(stones: &[(usize, u8)], n: usize) -> (u64, usize) {
    (0..8)
        .map(|t| {
            let h = stones.iter().fold(0u64, |h, &(cell, content)| {
                let (r, c) = image(t, cell / n, cell % n, n);
                h ^ mix(((r * n + c) as u64) << 2 | content as u64)
            });
            (h, t)
        })
        .min()
        .expect("8 images")
}

/// A book: canonical key -> the move, in the canonical image's orientation.
pub(super) type BookMap = AHashMap<u64, u16>;

/// The built-in book.
pub(super) fn built_in() -> &'static BookMap {
    static BOOK: OnceLock<BookMap> = OnceLock::new();
    BOOK.get_or_init(|| parse(TEXT).expect("the built-in book is well formed"))
}

/// Reads a book's text (see the module's notes).
pub(super) fn parse(text: &str) -> Result<BookMap> {
    let mut map = AHashMap::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let (moves, reply) = line.split_once("=>").ok_or_else(|| anyhow!("line {}: no '=>'", i + 1))?;
        let cell = |t: &str| -> Result<usize> {
            let (r, c) = t.split_once(',').ok_or_else(|| anyhow!("line {}: bad cell '{t}'", i + 1))?;
            let (r, c): (usize, usize) = (
                r.parse().map_err(|_| anyhow!("line {}: bad row", i + 1))?,
                c.parse().map_err(|_| anyhow!("line {}: bad column", i + 1))?,
            );
            if r >= SIZE || c >= SIZE {
                bail!("line {}: cell {t} is off the board", i + 1);
            }
            Ok(r * SIZE + c)
        };
        let mut stones: Vec<(usize, u8)> = Vec::new();
        for (ply, t) in moves.split_whitespace().enumerate() {
            let c = cell(t)?;
            if stones.iter().any(|&(s, _)| s == c) {
                bail!("line {}: cell {t} played twice", i + 1);
            }
            stones.push((c, 1 + (ply % 2) as u8));
        }
        let reply = cell(reply.trim())?;
        if stones.iter().any(|&(s, _)| s == reply) {
            bail!("line {}: the move is on a stone", i + 1);
        }
        insert(&mut map, &stones, reply);
    }
    Ok(map)
}

/// Adds `reply` as the move of the position of `stones` (a position already there keeps its
/// move).
pub(super) fn insert(map: &mut BookMap, stones: &[(usize, u8)], reply: usize) {
    let (key, t) = canonical(stones, SIZE);
    let (r, c) = image(t, reply / SIZE, reply % SIZE, SIZE);
    map.entry(key).or_insert((r * SIZE + c) as u16);
}

/// The stones of `g` (cell, content), if it is a board a book can be for: 15 x 15, K = 5, no
/// blocked cell, at most 40 stones.
pub(super) fn stones(g: &Mnk) -> Option<Vec<(usize, u8)>> {
    let l = &g.lines;
    if l.rows() != SIZE || l.cols() != SIZE || l.k() != 5 || g.history.len() > 40 {
        return None;
    }
    let mut stones = Vec::with_capacity(g.history.len());
    for cell in 0..l.cell_count() {
        match l.cell(cell) {
            EMPTY => {}
            BLOCKED => return None,
            content => stones.push((cell, content)),
        }
    }
    Some(stones)
}

/// The move of `map` for `g`, if `g`'s position is in it.
pub(super) fn lookup(g: &Mnk, map: &BookMap) -> Option<Cell> {
    let (key, t) = canonical(&stones(g)?, SIZE);
    let m = *map.get(&key)? as usize;
    let (r, c) = image(INVERSE[t], m / SIZE, m % SIZE, SIZE);
    let cell = r * SIZE + c;
    g.lines.is_empty_cell(cell).then_some(cell as Cell)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    fn play(moves: &[(usize, usize)]) -> Mnk {
        let mut g = Mnk::new(15, 15, 5, &[]).unwrap();
        for &(r, c) in moves {
            g.play((r * 15 + c) as Cell);
        }
        g
    }

    #[test]
    fn the_inverse_undoes_each_symmetry() {
        for (t, &inverse) in INVERSE.iter().enumerate() {
            for (r, c) in [(0, 0), (3, 11), (14, 2), (7, 7)] {
                let (a, b) = image(t, r, c, 15);
                assert_eq!(image(inverse, a, b, 15), (r, c), "symmetry {t}");
            }
        }
    }

    #[test]
    fn a_position_is_found_in_any_order_and_any_image() {
        let map = parse("7,7 8,8 6,8 => 6,6\n# a comment\n\n7,7 7,8 => 8,8 # inline comment").unwrap();
        assert_eq!(map.len(), 2);
        // As written.
        assert_eq!(lookup(&play(&[(7, 7), (8, 8), (6, 8)]), &map), Some(6 * 15 + 6));
        // Mirrored left-right: (r, c) -> (r, 14 - c).
        assert_eq!(lookup(&play(&[(7, 7), (8, 6), (6, 6)]), &map), Some(6 * 15 + 8));
        // Turned a quarter: (r, c) -> (c, 14 - r); and the first player's stones in another order.
        let g = play(&[(7, 7), (8, 6), (8, 8)]);
        let want = image(5, 6, 6, 15);
        assert_eq!(lookup(&g, &map), Some((want.0 * 15 + want.1) as Cell));
        // Not in the book: other stones, or the same cells with the colours swapped.
        assert_eq!(lookup(&play(&[(7, 7), (8, 8), (6, 9)]), &map), None);
        assert_eq!(lookup(&play(&[(8, 8), (7, 7), (6, 8)]), &map), None);
        // Other boards never use it.
        let mut g = Mnk::new(15, 15, 4, &[]).unwrap();
        g.play(7 * 15 + 7);
        g.play(7 * 15 + 8);
        assert_eq!(lookup(&g, &map), None);
    }

    #[test]
    fn bad_books_are_refused() {
        assert!(parse("7,7 => 7,7").is_err());
        assert!(parse("7,7 8,8").is_err());
        assert!(parse("7,7 15,0 => 1,1").is_err());
        assert!(parse("7,7 7,7 => 1,1").is_err());
    }

    #[test]
    fn play_under_a_clock_takes_the_books_move_and_the_books_maker_does_not() {
        use crate::search::{Limits, RootKnowledge, Searcher};
        use std::time::{Duration, Instant};
        // A move the search would not choose (a corner), in an image of the book's position.
        let book: &'static BookMap = Box::leak(Box::new(parse("7,7 6,7 => 0,0").unwrap()));
        let mut g = play(&[(7, 7), (8, 7)]);
        let want = g.parse_move("14 0").unwrap();
        let know = super::super::MnkKnowledge::new().with_book(book);
        assert_eq!(know.book_move(&g), Some(want));
        let clock = || Limits::per_move(Instant::now(), Duration::from_secs(60), Duration::ZERO);
        let r = Searcher::new(1).search(&mut g, &know, &clock());
        assert_eq!((r.best, r.depth), (want, 0), "played at once");
        // Without a clock (a search to a depth), or without the book, the search chooses.
        let r = Searcher::new(1).search(&mut g, &know, &Limits::depth(2));
        assert_ne!(r.best, want);
        let know = super::super::MnkKnowledge::new().with_book(book).without_book();
        assert_eq!(know.book_move(&g), None);
        let r = Searcher::new(1).search(&mut g, &know, &Limits { max_depth: 2, ..clock() });
        assert_ne!(r.best, want);
        // The built-in book is asked by default.
        let mut empty = Mnk::new(15, 15, 5, &[]).unwrap();
        let r = Searcher::new(1).search(&mut empty, &super::super::MnkKnowledge::new(), &clock());
        assert_eq!(r.best, 7 * 15 + 7);
    }

    #[test]
    fn the_built_in_book_is_well_formed_and_legal() {
        let map = built_in();
        for line in TEXT.lines().map(|l| l.split('#').next().unwrap_or("").trim()).filter(|l| !l.is_empty()) {
            let (moves, _) = line.split_once("=>").unwrap();
            let mut g = Mnk::new(15, 15, 5, &[]).unwrap();
            for t in moves.split_whitespace() {
                let mv = g.parse_move(&t.replace(',', " ")).unwrap();
                assert!(g.is_legal(mv), "{line}");
                g.play(mv);
            }
            assert!(g.outcome().is_none(), "{line}");
            let mv = lookup(&g, map).expect("every line is found");
            assert!(g.is_legal(mv), "{line}");
        }
    }
}
