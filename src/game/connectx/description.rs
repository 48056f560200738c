//! Connect-X's description: `cx M N X`, read.

use crate::game::kinarow::parse_index;
use anyhow::{anyhow, Result};

/// Reads `M N X` (whole numbers, digits only).
pub(super) fn read(words: &[&str]) -> Result<(usize, usize, usize)> {
    let size = |s: &str, what: &str| {
        parse_index(s).filter(|&v| v >= 1).ok_or_else(|| anyhow!("{what} must be a whole number >= 1, got '{s}'"))
    };
    match words {
        [m, n, x] => Ok((size(m, "M")?, size(n, "N")?, size(x, "X")?)),
        [_, _, _, w, ..] if w.eq_ignore_ascii_case("blocked") => {
            Err(anyhow!("blocked cells exist only in m,n,k-games"))
        }
        [_, _, _, w, ..] => Err(anyhow!("unexpected '{w}' after M N X")),
        _ => Err(anyhow!("expected M N X")),
    }
}
