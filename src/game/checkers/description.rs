//! The checkers description: `checkers english|house [fen FEN]`, read.

use super::{fen, Checkers, Rules};
use anyhow::{anyhow, bail, Result};

/// Reads `english|house [fen FEN]` into the position it starts from.
pub(super) fn read(words: &[&str]) -> Result<Checkers> {
    let [rules, rest @ ..] = words else { bail!("expected the rules: english or house") };
    let rules = Rules::parse(rules)?;
    let mut game = Checkers::new(rules);
    let mut rest = rest.iter();
    let mut fen_seen = false;
    while let Some(&word) = rest.next() {
        match word.to_ascii_lowercase().as_str() {
            "fen" if !fen_seen => {
                let text = rest.next().ok_or_else(|| anyhow!("fen needs a position, e.g. B:W21-32:B1-12"))?;
                game = fen::parse(rules, text)?;
                fen_seen = true;
            }
            _ => bail!("unexpected '{word}' (option: fen FEN)"),
        }
    }
    Ok(game)
}
