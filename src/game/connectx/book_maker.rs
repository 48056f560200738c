//! `boardbot book --game cx M N X`: the opening book's maker (the book: [`super::book`]).

use super::book::Book;
use super::solve::shape_of;
use super::solver::BoundTable;
use crate::game::any::GameSpec;
use anyhow::{bail, Context, Result};
use std::io::IsTerminal;
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
    // A bar for the level being solved, on a terminal only (stderr; stdout keeps the levels).
    let bar: std::sync::Mutex<Option<(u32, indicatif::ProgressBar)>> = std::sync::Mutex::new(None);
    let solved = |stones: u32, done: usize, total: usize| {
        if !std::io::stderr().is_terminal() {
            return;
        }
        let mut bar = bar.lock().unwrap_or_else(|e| e.into_inner());
        if bar.as_ref().is_none_or(|(s, _)| *s != stones) {
            let b = indicatif::ProgressBar::new(total as u64);
            let style = indicatif::ProgressStyle::with_template(
                "stones {prefix:>2} [{bar:40}] {pos}/{len} positions, {elapsed_precise} (ETA {eta})",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
            b.set_style(style);
            b.set_prefix(stones.to_string());
            // Redrawn every second, so that the clock runs during a long solve.
            b.enable_steady_tick(std::time::Duration::from_secs(1));
            *bar = Some((stones, b));
        }
        if let Some((_, b)) = bar.as_ref() {
            b.set_position(done as u64);
            if done == total {
                b.finish_and_clear();
            }
        }
    };
    let book = Book::generate_with(
        shape,
        plies,
        &table,
        threads,
        |l| {
            println!(
                "stones {:2} positions {:6} nodes {:12} max nodes {:10} time {:9.1} s",
                l.stones,
                l.positions,
                l.nodes,
                l.max_nodes,
                l.time.as_secs_f64()
            );
        },
        &solved,
    );
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
