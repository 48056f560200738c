//! The m,n,k description: `mnk M N K [blocked ROW,COL ...]`, read.

use crate::game::kinarow::parse_index;
use anyhow::{anyhow, bail, Result};

/// An m,n,k board: rows, columns, K, and the blocked cells (row, column).
pub type Board = (usize, usize, usize, Vec<(usize, usize)>);

/// Reads `M N K [blocked ROW,COL ...]` (whole numbers, digits only).
pub fn read(words: &[&str]) -> Result<Board> {
    let [m, n, k, rest @ ..] = words else { bail!("expected M N K") };
    let size = |s: &str, what: &str| {
        parse_index(s).filter(|&v| v >= 1).ok_or_else(|| anyhow!("{what} must be a whole number >= 1, got '{s}'"))
    };
    let (rows, cols, k) = (size(m, "M")?, size(n, "N")?, size(k, "K")?);
    let mut blocked = Vec::new();
    if let Some((&word, cells)) = rest.split_first() {
        if !word.eq_ignore_ascii_case("blocked") {
            bail!("unexpected '{word}' (blocked cells come as 'blocked ROW,COL ...')");
        }
        for c in cells {
            let (r, col) = c.split_once(',').ok_or_else(|| anyhow!("blocked cell must be ROW,COL, got '{c}'"))?;
            let num = |s: &str| parse_index(s).ok_or_else(|| anyhow!("bad blocked cell '{c}'"));
            blocked.push((num(r)?, num(col)?));
        }
    }
    Ok((rows, cols, k, blocked))
}
