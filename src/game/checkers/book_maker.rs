//! `boardbot book --game checkers english`: the opening book's maker (the book: [`super::book`]).

use super::description::read;
use super::knowledge::CheckersKnowledge as Know;
use super::{Checkers, Rules};
use crate::game::any::{GameSpec, Resources};
use crate::game::Game;
use anyhow::Result;

/// `boardbot book --game checkers english --plies LEVELS --out FILE`: the opening book (see
/// [`book`](super::book)): every position [`book::positions`] gives from the start and from
/// each ACF ballot, `LEVELS` plies deep, searched for `BOOK_SECONDS` seconds (default 10) with
/// `threads` threads and `hash_mb` MiB of table. It resumes: the positions `out` already
/// holds are not searched again, and each new one is written as soon as it is searched.
pub(super) fn make_book(
    spec: &GameSpec,
    levels: u32,
    threads: usize,
    hash_mb: usize,
    out: &std::path::Path,
) -> Result<()> {
    use super::book::{self, Book};
    use crate::search::{Limits, Searcher};
    use anyhow::{bail, Context};
    use std::io::Write;
    let start = read(&spec.words().iter().map(String::as_str).collect::<Vec<_>>())?;
    if start.rules() != Rules::English {
        bail!("the opening book is of English checkers");
    }
    let seconds: f64 = std::env::var("BOOK_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(10.0);
    let mut roots = vec![start.clone()];
    for ballot in super::book::ballots() {
        let mut g = start.clone();
        for mv in ballot.split_whitespace() {
            let mv = g.parse_move(mv)?;
            g.play(mv);
        }
        roots.push(Checkers::from_board(Rules::English, *g.board(), g.to_move()));
    }
    let old = std::fs::read_to_string(out).unwrap_or_default();
    let known = Book::parse(&old, Rules::English).context("the book to resume")?;
    let mut file = std::fs::OpenOptions::new().create(true).append(true).open(out)?;
    if old.is_empty() {
        writeln!(file, "# The opening book of English checkers: FEN MOVE SCORE DEPTH (src/game/checkers/book.rs).")?;
        writeln!(file, "# boardbot book --game checkers english --plies {levels}, {seconds} s a position.")?;
    }
    let resources = Resources::new(hash_mb / 2);
    let know = Know::new(Rules::English, &resources).without_book();
    know.wait_for_database();
    let mut searcher = Searcher::new((hash_mb / 2).max(1));
    let (mut searched, begin) = (0, std::time::Instant::now());
    let mut failed = None;
    let positions = book::positions(&roots, levels, |g| {
        if let Some(mv) = known.lookup(g) {
            return Some(mv);
        }
        let limits = Limits::per_move(
            std::time::Instant::now(),
            std::time::Duration::from_secs_f64(seconds),
            std::time::Duration::ZERO,
        );
        let mut copy = g.clone();
        let r = searcher.search_parallel(&mut copy, &know, &limits, threads);
        searched += 1;
        let text = book::line(g, r.best, r.score.clamp(-crate::search::WIN, crate::search::WIN), r.depth);
        eprintln!("{searched:5} {:8.1}s {text}", begin.elapsed().as_secs_f64());
        if let Err(e) = writeln!(file, "{text}").and_then(|_| file.flush()) {
            failed.get_or_insert(e);
        }
        Some(r.best)
    });
    if let Some(e) = failed {
        return Err(e.into());
    }
    eprintln!("{} positions in the book, {searched} searched now", positions.len());
    Ok(())
}
