//! The opening book of English checkers: for the positions of the first moves from the start
//! and from each of the ACF three-move ballots, the move boardbot's own long search chose.
//!
//! # File
//!
//! `book/checkers-english.book`, compiled in: text, `#` starting a comment, one position a
//! line: its FEN (see [`fen`]), the move in move text, then the search's score (hundredths of a
//! man, for the side to move) and depth. The registry's book maker writes it (`boardbot book --game checkers
//! english`): see there for which positions it holds.

use super::{fen, notation, Checkers, Move, Rules};
use crate::game::Game;
use anyhow::{anyhow, Result};
use std::collections::HashMap;
use std::sync::OnceLock;

/// The book compiled in.
pub static ENGLISH_TEXT: &str = include_str!("../../../book/checkers-english.book");

/// Positions (by the game's hash, which includes the side to move and the rules) and the book's
/// move there (its key), with the search's score.
pub struct Book {
    moves: HashMap<u64, (u32, i32)>,
}

impl Book {
    /// Reads a book's text for `rules`; an error names the first bad line.
    pub fn parse(text: &str, rules: Rules) -> Result<Book> {
        let mut moves = HashMap::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let at = |e: &dyn std::fmt::Display| anyhow!("book line {}: {e}", i + 1);
            let words: Vec<&str> = line.split_whitespace().collect();
            let [position, mv, score, _depth] = words[..] else {
                return Err(at(&"expected FEN MOVE SCORE DEPTH"));
            };
            let g = fen::parse(rules, position).map_err(|e| at(&e))?;
            let mv = notation::parse(&g, mv).map_err(|e| at(&e))?;
            if !g.is_legal(mv) {
                return Err(at(&format!("{} is not legal there", words[1])));
            }
            let score: i32 = score.parse().map_err(|_| at(&format!("bad score '{score}'")))?;
            moves.insert(g.hash(), (mv.key(), score));
        }
        Ok(Book { moves })
    }

    /// The book of English checkers compiled in.
    pub fn english() -> &'static Book {
        static BOOK: OnceLock<Book> = OnceLock::new();
        // The test `the_book_compiled_in_reads` checks the text; a bad one would give no book.
        BOOK.get_or_init(|| Book::parse(ENGLISH_TEXT, Rules::English).unwrap_or(Book { moves: HashMap::new() }))
    }

    pub fn len(&self) -> usize {
        self.moves.len()
    }

    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The book's move in `g`, if it has one (and it is legal there).
    pub fn lookup(&self, g: &Checkers) -> Option<Move> {
        let &(key, _) = self.moves.get(&g.hash())?;
        g.move_for_key(key)
    }
}

/// Which positions a book holds, from each root (the start, then every ballot): the
/// engine may play either side, so on its turns the book holds its move and on the opponent's
/// every reply is followed, `levels` plies deep from the root. Two levels hold a ballot's
/// position (White's move, when the engine plays White) and every position after White's
/// reply (Black's, when it plays Black); three add every position after the opponent's reply
/// to the book's White move.
pub fn positions(roots: &[Checkers], levels: u32, mut choose: impl FnMut(&Checkers) -> Option<Move>) -> Vec<Checkers> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    fn expand(
        g: &mut Checkers,
        levels: u32,
        engine: bool,
        choose: &mut dyn FnMut(&Checkers) -> Option<Move>,
        seen: &mut std::collections::HashSet<(u64, bool, u32)>,
        out: &mut Vec<Checkers>,
    ) {
        if levels == 0 || g.outcome().is_some() || !seen.insert((g.hash(), engine, levels)) {
            return;
        }
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        if engine {
            let mv = if moves.len() == 1 {
                Some(moves[0])
            } else {
                if !out.iter().any(|o: &Checkers| o.hash() == g.hash()) {
                    out.push(g.clone());
                }
                choose(g)
            };
            let Some(mv) = mv else { return };
            g.play(mv);
            expand(g, levels - 1, false, choose, seen, out);
            g.undo();
        } else {
            for mv in moves {
                g.play(mv);
                expand(g, levels - 1, true, choose, seen, out);
                g.undo();
            }
        }
    }
    for root in roots {
        for engine in [true, false] {
            let mut g = root.clone();
            expand(&mut g, levels, engine, &mut choose, &mut seen, &mut out);
        }
    }
    out
}

/// The roots of the book besides the start: the ACF three-move ballots (see
/// [`openings::ACF3`](super::openings::ACF3)), one a line in move text.
pub fn ballots() -> Vec<String> {
    super::openings::ACF3
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

/// One line of a book file.
pub fn line(g: &Checkers, mv: Move, score: i32, depth: u32) -> String {
    format!("{} {} {score} {depth}", fen::write(g), notation::format(mv))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_book_compiled_in_reads() {
        Book::parse(ENGLISH_TEXT, Rules::English).unwrap();
    }

    #[test]
    fn a_book_line_round_trips_and_bad_lines_are_named() {
        let g = Checkers::new(Rules::English);
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let text = format!("# a comment\n\n{}\n", line(&g, moves[2], 12, 20));
        let book = Book::parse(&text, Rules::English).unwrap();
        assert_eq!(book.lookup(&g), Some(moves[2]));
        let mut other = g.clone();
        other.play(moves[0]);
        assert_eq!(book.lookup(&other), None);
        let bad = Book::parse("B:W21-32:B1-12 11-15 x 3\n", Rules::English).err().unwrap().to_string();
        assert!(bad.contains("book line 1: bad score 'x'"), "{bad}");
        let illegal = Book::parse("B:W21-32:B1-12 21-17 0 3\n", Rules::English).err().unwrap().to_string();
        assert!(illegal.contains("book line 1"), "{illegal}");
    }

    #[test]
    fn the_positions_cover_each_side_of_a_root() {
        let g = Checkers::new(Rules::English);
        // One level: the root, where the engine moves first; two add every reply when the
        // opponent moves first (7 first moves) and nothing more when the engine did.
        let first = |g: &Checkers| {
            let mut m = Vec::new();
            g.legal_moves(&mut m);
            m.first().copied()
        };
        assert_eq!(positions(std::slice::from_ref(&g), 1, first).len(), 1);
        assert_eq!(positions(std::slice::from_ref(&g), 2, first).len(), 1 + 7);
        let three = positions(std::slice::from_ref(&g), 3, first);
        // Three: also every reply to the engine's first move where the engine has a choice.
        let mut after = g.clone();
        after.play(first(&g).unwrap());
        let mut replies = Vec::new();
        after.legal_moves(&mut replies);
        let choices = replies
            .iter()
            .filter(|&&r| {
                let mut x = after.clone();
                x.play(r);
                let mut m = Vec::new();
                x.legal_moves(&mut m);
                m.len() > 1
            })
            .count();
        assert!(choices > 0);
        assert_eq!(three.len(), 1 + 7 + choices);
        assert!(three.iter().all(|p| {
            let mut m = Vec::new();
            p.legal_moves(&mut m);
            m.len() > 1
        }));
    }
}
