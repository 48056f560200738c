//! Kalah's description: `kalah P S [capture empty|standard] [pie] [fen COUNTS/SIDE[/PIE]]`, read.

use super::{Capture, Kalah};
use anyhow::{anyhow, bail, Result};

/// A description read: the board size, the rules and the position given by `fen`, if any.
pub(super) struct Description {
    pub(super) pits: usize,
    pub(super) seeds: usize,
    pub(super) capture: Capture,
    pub(super) pie: bool,
    pub(super) fen: Option<String>,
}

/// Reads `P S [capture empty|standard] [pie] [fen FEN]`.
pub(super) fn read(words: &[&str]) -> Result<Description> {
    let number = |s: &str, what: &str| {
        s.bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| s.parse::<usize>().ok())
            .flatten()
            .filter(|&v| v >= 1)
            .ok_or_else(|| anyhow!("{what} must be a whole number >= 1, got '{s}'"))
    };
    let [p, s, rest @ ..] = words else { bail!("expected P S (pits a side, seeds a pit)") };
    let (pits, seeds) = (number(p, "P")?, number(s, "S")?);
    let (mut capture, mut pie, mut fen) = (Capture::Empty, false, None);
    let mut rest = rest.iter();
    while let Some(&word) = rest.next() {
        match word.to_ascii_lowercase().as_str() {
            "capture" => {
                capture = Capture::parse(rest.next().ok_or_else(|| anyhow!("capture needs empty or standard"))?)?
            }
            "pie" => pie = true,
            "fen" if fen.is_none() => {
                fen = Some(rest.next().ok_or_else(|| anyhow!("fen needs a position (COUNTS/SIDE[/PIE])"))?.to_string())
            }
            _ => bail!("unexpected '{word}' (options: capture empty|standard, pie, fen FEN)"),
        }
    }
    Ok(Description { pits, seeds, capture, pie, fen })
}

impl Description {
    /// The game described: its start, or the position of `fen`.
    pub(super) fn game(&self) -> Result<Kalah> {
        let start = Kalah::with_rules(self.pits, self.seeds, self.capture, self.pie)?;
        match &self.fen {
            Some(text) => super::fen::parse(&start, text),
            None => Ok(start),
        }
    }
}
