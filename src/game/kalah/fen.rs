//! A Kalah position as one word of text (a FEN, as checkers has one), for the description's `fen`
//! option: `kalah 7 7 capture standard pie fen 0,8,8,8,8,8,8,1,7,7,7,7,7,7,7,0/second/swap`. The
//! Manchester referee's agent resets the engine's game with it to the board the referee sends.
//!
//! `COUNTS/SIDE[/PIE]`:
//! - COUNTS: the 2P + 2 counts of the board in its layout's order (the first player's pits from
//!   its left, its store, the second player's pits from its left, its store), separated by
//!   commas;
//! - SIDE: `first` or `second`, the side to move;
//! - PIE, under the pie rule only: `start` (the first player's first move is still to come) or
//!   `swap` (the second player's first move, which may be the swap, is to come). Without it the
//!   pie rule no longer matters in the position.

use super::{Game, Kalah, Side};
use anyhow::{anyhow, bail, Result};

/// The position `text` describes, with the rules (pits, capture rule, pie rule, seeds of the
/// description) of `rules`.
pub fn parse(rules: &Kalah, text: &str) -> Result<Kalah> {
    let p = rules.pits();
    let mut parts = text.trim().split('/');
    let counts = parts.next().unwrap_or_default();
    let side = parts.next().ok_or_else(|| anyhow!("a Kalah fen is COUNTS/SIDE[/PIE], e.g. 3,3,0,3,3,0/first"))?;
    let pie = parts.next();
    if parts.next().is_some() {
        bail!("a Kalah fen has at most 3 parts: '{text}'");
    }
    let counts: Vec<u16> = counts
        .split(',')
        .map(|c| c.parse::<u16>().map_err(|_| anyhow!("not a seed count: '{c}'")))
        .collect::<Result<_, _>>()?;
    if counts.len() != 2 * p + 2 {
        bail!("a fen of {p} pits a side has {} counts, not {}", 2 * p + 2, counts.len());
    }
    let to_move = match side {
        "first" => Side::First,
        "second" => Side::Second,
        s => bail!("the side to move is first or second, not '{s}'"),
    };
    let mut k = Kalah::from_rows(
        rules.capture(),
        &counts[..p],
        counts[p],
        &counts[p + 1..2 * p + 1],
        counts[2 * p + 1],
        to_move,
    )?;
    k.start_seeds = rules.start_seeds();
    k.pie = rules.pie();
    k.opening = match (pie, to_move) {
        (None, _) => 2,
        (Some("start"), Side::First) if k.pie => 0,
        (Some("swap"), Side::Second) if k.pie && !k.is_over() => 1,
        (Some(s), _) => {
            bail!("'{s}' does not fit: start (the first player to move) or swap (the second) under the pie rule")
        }
    };
    k.hash = k.compute_hash();
    Ok(k)
}

/// The position of `k` as [`parse`] reads it.
pub fn write(k: &Kalah) -> String {
    let p = k.pits();
    let counts: Vec<String> = k.board[..2 * p + 2].iter().map(u16::to_string).collect();
    let side = match k.to_move() {
        Side::First => "first",
        Side::Second => "second",
    };
    let pie = if k.pie_first_move() {
        "/start"
    } else if k.can_swap() {
        "/swap"
    } else {
        ""
    };
    format!("{}/{side}{pie}", counts.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::kalah::{Capture, KalahMove};

    #[test]
    fn a_position_round_trips_with_its_pie_state() {
        let mut k = Kalah::with_rules(7, 7, Capture::Standard, true).unwrap();
        assert_eq!(write(&k), "7,7,7,7,7,7,7,0,7,7,7,7,7,7,7,0/first/start");
        k.play(KalahMove::Pit(0));
        let text = write(&k);
        assert_eq!(text, "0,8,8,8,8,8,8,1,7,7,7,7,7,7,7,0/second/swap");
        let mut again = parse(&k, &text).unwrap();
        assert_eq!((again.hash(), again.can_swap(), again.to_move()), (k.hash(), true, Side::Second));
        // The swap is a move of the position read back, and after it the pie rule is over.
        again.play(KalahMove::Swap);
        k.play(KalahMove::Swap);
        assert_eq!((write(&again), again.hash()), (write(&k), k.hash()));
        assert!(!write(&k).contains("swap"));
        // Without the pie state the swap is no move.
        let late = parse(&k, "0,8,8,8,8,8,8,1,7,7,7,7,7,7,7,0/second").unwrap();
        assert!(!late.can_swap() && !late.pie_first_move());
    }

    #[test]
    fn bad_positions_are_refused() {
        let rules = Kalah::with_rules(2, 2, Capture::Empty, true).unwrap();
        for bad in [
            "2,2,0,2,2/first",
            "2,2,0,2,2,0",
            "2,2,0,2,2,0/north",
            "2,2,0,2,x,0/first",
            "2,2,0,2,2,0/second/start",
            "2,2,0,2,2,0/first/swap",
            "2,2,0,2,2,0/first/start/x",
            "0,0,4,2,2,0/first",
        ] {
            assert!(parse(&rules, bad).is_err(), "{bad}");
        }
        let plain = Kalah::new(2, 2).unwrap();
        assert!(parse(&plain, "2,2,0,2,2,0/first/start").is_err(), "no pie rule");
        assert!(parse(&plain, "2,2,0,2,2,0/first").is_ok());
    }
}
