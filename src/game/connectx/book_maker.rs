//! `boardbot book --game cx M N X`: the opening book's maker (the book: [`super::book`]).

use super::book::Book;
use super::solve::shape_of;
use super::solver::BoundTable;
use crate::game::any::GameSpec;
use anyhow::{bail, Context, Result};
use std::path::Path;
use std::time::Instant;

/// `boardbot book`: generates an opening book (see [`Book`]) of the first player's moves up to
/// `plies` stones, and reports each level's positions, nodes and time.
pub fn make_book(spec: &GameSpec, plies: u32, threads: usize, hash_mib: usize, out: &Path) -> Result<()> {
    let shape = shape_of(spec)?;
    if threads == 0 {
        bail!("--threads must be at least 1");
    }
    let table = BoundTable::new(hash_mib);
    table.clear();
    let start = Instant::now();
    let book = Book::generate(shape, plies, &table, threads, |l| {
        println!(
            "stones {:2} positions {:6} nodes {:12} max nodes {:10} time {:9.1} s",
            l.stones,
            l.positions,
            l.nodes,
            l.max_nodes,
            l.time.as_secs_f64()
        );
    });
    let bytes = book.to_bytes();
    std::fs::write(out, &bytes).with_context(|| format!("writing {}", out.display()))?;
    println!(
        "book {} positions {} bytes {} plies {} time {:.1} s",
        out.display(),
        book.len(),
        bytes.len(),
        book.plies(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
