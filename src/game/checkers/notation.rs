//! Move text in the standard notation: `11-15` a step, `22x15` a capture, `22x15x6` a multiple
//! jump written with its whole path (as the engine writes it). Reading, the short form `22x6`
//! (start and end only) names a multiple jump where exactly one legal path has those ends.
//! Squares are numbered 1..=32 (see [`super::movegen`]).

use super::{Checkers, Move};
use anyhow::{anyhow, bail, Result};

/// The text of a move: squares 1..=32 joined by `-` (a step) or `x` (every landing of a path).
pub fn format(mv: Move) -> String {
    let mut s = (mv.from + 1).to_string();
    if mv.jumps == 0 {
        s.push('-');
        s.push_str(&(mv.to + 1).to_string());
    } else {
        for land in mv.landings() {
            s.push('x');
            s.push_str(&(land + 1).to_string());
        }
    }
    s
}

/// The squares (bit indices) of move text, and whether it was written as a capture.
fn squares(text: &str) -> Result<(Vec<u8>, bool)> {
    let text = text.trim();
    let capture = text.contains(['x', 'X', ':']);
    let parts: Vec<&str> = text.split(['-', 'x', 'X', ':']).collect();
    if parts.len() < 2 || (!capture && parts.len() != 2) || (capture && text.contains('-')) {
        bail!("cannot read move '{text}' (a step 11-15, a capture 22x15 or 22x15x6)");
    }
    let mut out = Vec::with_capacity(parts.len());
    for p in parts {
        let n: u8 = p
            .parse()
            .ok()
            .filter(|n| (1..=32).contains(n) && p.bytes().all(|b| b.is_ascii_digit()))
            .ok_or_else(|| anyhow!("'{p}' in move '{text}' is not a square from 1 to 32"))?;
        out.push(n - 1);
    }
    Ok((out, capture))
}

/// Reads move text in position `g`: the legal move it names, or, for text that is well formed
/// but names none, a move no position has (so that legality is refused later, as the protocol
/// expects). An ambiguous short form is an error.
pub fn parse(g: &Checkers, text: &str) -> Result<Move> {
    let (sq, capture) = squares(text)?;
    let mut legal = Vec::new();
    g.generate(&mut legal);
    let path_of = |m: &Move| -> Vec<u8> { std::iter::once(m.from).chain(m.landings()).collect() };
    if let Some(m) = legal.iter().find(|m| m.is_capture() == capture && path_of(m) == sq) {
        return Ok(*m);
    }
    if capture && sq.len() == 2 {
        let ends: Vec<&Move> = legal.iter().filter(|m| m.is_capture() && m.from == sq[0] && m.to == sq[1]).collect();
        match ends.len() {
            0 => {}
            1 => return Ok(*ends[0]),
            _ => {
                let paths: Vec<String> = ends.iter().map(|&&m| format(m)).collect();
                bail!("'{}' is ambiguous: write the whole path ({})", text.trim(), paths.join(" or "));
            }
        }
    }
    Ok(Move::NULL)
}
