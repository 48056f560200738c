//! A checkers position packed in 13 bytes for training data (`boardbot selfplay --format bin`):
//!
//! ```text
//! bytes 0..4    Black's pieces   u32 little-endian, bit s - 1 for square s (1..=32)
//! bytes 4..8    White's pieces   the same
//! bytes 8..12   the kings        the same (a subset of the two above)
//! byte  12      the side to move 0 Black, 1 White
//! ```
//!
//! The rules and the plies since the last capture or man move are not packed (the data file's
//! header names the game).

use super::movegen::Board;
use super::{Checkers, Rules};
use crate::game::render::Packed;
use crate::game::{Game, Side};
use anyhow::{bail, Result};

/// The packed length in bytes.
pub const BYTES: usize = 13;

pub fn pack(g: &Checkers) -> Packed {
    let b = g.board();
    let mut bytes = Vec::with_capacity(BYTES);
    for word in [b.pieces[0], b.pieces[1], b.kings] {
        bytes.extend_from_slice(&word.to_le_bytes());
    }
    bytes.push(g.to_move().index() as u8);
    Packed { bytes, pieces: (b.pieces[0] | b.pieces[1]).count_ones() as u8 }
}

/// The board and side to move of packed bytes; an error if they are not a packed position
/// (the length, overlapping sides, a king on an empty square, a side byte other than 0 or 1).
pub fn unpack_board(bytes: &[u8]) -> Result<(Board, Side)> {
    if bytes.len() != BYTES {
        bail!("a packed checkers position has {BYTES} bytes, not {}", bytes.len());
    }
    let word = |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
    let board = Board { pieces: [word(0), word(4)], kings: word(8) };
    if board.pieces[0] & board.pieces[1] != 0 || board.kings & !(board.pieces[0] | board.pieces[1]) != 0 {
        bail!("a packed checkers position with a square taken twice or an empty king");
    }
    let side = match bytes[12] {
        0 => Side::First,
        1 => Side::Second,
        b => bail!("a packed checkers position with side byte {b}"),
    };
    Ok((board, side))
}

/// The position of packed bytes under `rules`.
pub fn unpack(rules: Rules, bytes: &[u8]) -> Result<Checkers> {
    let (board, side) = unpack_board(bytes)?;
    Ok(Checkers::from_board(rules, board, side))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::render::Render;
    use rand::rngs::SmallRng;
    use rand::seq::SliceRandom;
    use rand::SeedableRng;

    #[test]
    fn positions_of_random_games_unpack_to_themselves() {
        let mut rng = SmallRng::seed_from_u64(7);
        for _ in 0..20 {
            let mut g = Checkers::new(Rules::English);
            while g.outcome().is_none() {
                let p = g.packed().expect("checkers packs");
                assert_eq!(p.bytes.len(), BYTES);
                let back = unpack(Rules::English, &p.bytes).unwrap();
                assert_eq!((back.board(), back.to_move(), back.hash()), (g.board(), g.to_move(), g.hash()));
                assert_eq!(p.pieces as u32, (g.board().pieces[0] | g.board().pieces[1]).count_ones());
                let mut moves = Vec::new();
                g.legal_moves(&mut moves);
                g.play(*moves.choose(&mut rng).unwrap());
            }
        }
    }

    #[test]
    fn bytes_that_are_no_position_are_refused() {
        let mut bytes = pack(&Checkers::new(Rules::English)).bytes;
        assert!(unpack_board(&bytes[..12]).is_err());
        bytes[12] = 2;
        assert!(unpack_board(&bytes).unwrap_err().to_string().contains("side byte 2"));
        bytes[12] = 0;
        bytes[4] |= 1; // square 1 (Black's) taken by White too
        assert!(unpack_board(&bytes).is_err());
    }
}
