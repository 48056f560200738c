//! Positions in the standard FEN of draughts (as PDN writes them): the side to move, then each
//! side's pieces, kings prefixed with `K`:
//! `B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29` (Black to move). Ranges such as `W21-32` are
//! read too; a final `.` is allowed. Squares are 1..=32 (see [`super::movegen`]).

use super::{Board, Checkers, Rules};
use crate::game::{Game, Side};
use anyhow::{anyhow, Result};

/// Reads a FEN into a position of `rules`. Errors say what is wrong; nothing panics.
pub fn parse(rules: Rules, text: &str) -> Result<Checkers> {
    let text = text.trim().trim_end_matches('.');
    let bad = |why: String| anyhow!("bad FEN '{text}': {why}");
    let mut fields = text.split(':');
    let side = match fields.next().map(|f| f.trim().to_ascii_uppercase()).as_deref() {
        Some("B") => Side::First,
        Some("W") => Side::Second,
        other => return Err(bad(format!("the side to move must be B or W, got '{}'", other.unwrap_or("")))),
    };
    let mut board = Board { pieces: [0, 0], kings: 0 };
    let mut seen = [false; 2];
    for field in fields {
        let field = field.trim();
        let (colour, list) = field.split_at(field.chars().next().map_or(0, char::len_utf8));
        let s = match colour.to_ascii_uppercase().as_str() {
            "B" => 0,
            "W" => 1,
            _ => return Err(bad(format!("a field must start with W or B, got '{field}'"))),
        };
        if std::mem::replace(&mut seen[s], true) {
            return Err(bad(format!("{colour} is given twice")));
        }
        for item in list.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            let (king, squares) = match item.strip_prefix(['K', 'k']) {
                Some(rest) => (true, rest),
                None => (false, item),
            };
            let number = |t: &str| {
                t.parse::<u32>()
                    .ok()
                    .filter(|n| (1..=32).contains(n) && t.bytes().all(|b| b.is_ascii_digit()))
                    .ok_or_else(|| bad(format!("'{t}' is not a square 1..32")))
            };
            let (lo, hi) = match squares.split_once('-') {
                Some((a, b)) => (number(a)?, number(b)?),
                None => (number(squares)?, number(squares)?),
            };
            if lo > hi {
                return Err(bad(format!("empty range '{item}'")));
            }
            for n in lo..=hi {
                let bit = 1u32 << (n - 1);
                if (board.pieces[0] | board.pieces[1]) & bit != 0 {
                    return Err(bad(format!("square {n} is given twice")));
                }
                board.pieces[s] |= bit;
                if king {
                    board.kings |= bit;
                }
            }
        }
    }
    if !seen[0] || !seen[1] {
        return Err(bad("both the W and the B fields are needed (one may be empty)".into()));
    }
    for (s, row, name) in [(0, super::movegen::CROWN_ROW[0], "Black"), (1, super::movegen::CROWN_ROW[1], "White")] {
        if board.pieces[s] & !board.kings & row != 0 {
            return Err(bad(format!("a {name} man on its crowning row")));
        }
    }
    Ok(Checkers::from_board(rules, board, side))
}

/// The FEN of a position: `B:W21,22,...:B1,2,...`, squares in increasing order, kings with `K`.
pub fn write(g: &Checkers) -> String {
    let b = g.board();
    let list = |s: usize| {
        let mut parts = Vec::new();
        let mut bits = b.pieces[s];
        while bits != 0 {
            let sq = bits.trailing_zeros();
            bits &= bits - 1;
            let k = if b.kings & (1 << sq) != 0 { "K" } else { "" };
            parts.push(format!("{k}{}", sq + 1));
        }
        parts.join(",")
    };
    let side = if g.to_move() == Side::First { "B" } else { "W" };
    format!("{side}:W{}:B{}", list(1), list(0))
}
