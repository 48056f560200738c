//! `boardbot book --game mnk 15 15 5`: the opening book's maker (the book: [`super::book`]).

use super::book::{self, parse, BookMap, SIZE};
use super::{Cell, Mnk, MnkKnowledge};
use crate::game::any::GameSpec;
use crate::game::kinarow::EMPTY;
use crate::game::Game;
use crate::search::{Candidate, Knowledge, Limits, SearchResult, Searcher, WIN};
use anyhow::{bail, Context, Result};
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

/// `boardbot book --game mnk 15 15 5 --plies PLIES --out FILE`: a book for both colours, made by
/// the engine's own searches. For each colour, from the empty board: where that colour is to
/// move, the move a search of `BOOK_SECONDS` seconds (default 30) chooses; where the other is,
/// its `BOOK_WIDTH` (default 3) strongest moves next to a stone (one of each symmetric kind, by
/// searches of `BOOK_REPLY_SECONDS`, default 2, where there are more); in positions of fewer
/// than `plies` stones. A search that proves a result ends its line
/// (the engine's own search plays on from there). It resumes: positions `out` already holds
/// are not searched again, and each new one is appended as soon as it is searched.
pub fn make_book(spec: &GameSpec, plies: u32, threads: usize, hash_mib: usize, out: &Path) -> Result<()> {
    if spec.words() != ["15", "15", "5"] {
        bail!("the opening book is of free-style gomoku: mnk 15 15 5");
    }
    let env = |key: &str, default: f64| std::env::var(key).ok().and_then(|s| s.parse().ok()).unwrap_or(default);
    let seconds = env("BOOK_SECONDS", 30.0);
    let width = env("BOOK_WIDTH", 3.0) as usize;
    let reply_seconds = env("BOOK_REPLY_SECONDS", 2.0);
    let old = std::fs::read_to_string(out).unwrap_or_default();
    let known = parse(&old).context("the book to resume")?;
    let mut file = std::fs::OpenOptions::new().create(true).append(true).open(out)?;
    if old.is_empty() {
        writeln!(file, "# Opening book of free-style gomoku on 15 x 15 (mnk 15 15 5), read by src/game/mnk/book.rs.")?;
        writeln!(file, "# One position a line: its moves from the empty board (ROW,COL, the first player's first),")?;
        writeln!(file, "# '=>', the move to play; a comment gives the search's score and depth. A position is found")?;
        writeln!(file, "# in any order of its stones and in any of the board's 8 symmetric images.")?;
        writeln!(file, "# boardbot book --game mnk 15 15 5 --plies {plies}, BOOK_SECONDS={seconds} BOOK_WIDTH={width} BOOK_REPLY_SECONDS={reply_seconds}.")?;
    }
    let mut maker = Maker {
        searcher: Searcher::new(hash_mib.max(1)),
        know: MnkKnowledge::new().without_book(),
        threads: threads.max(1),
        seconds,
        width,
        reply_seconds,
        plies: plies as usize,
        known,
        begin: Instant::now(),
        searched: 0,
    };
    let empty = Mnk::new(SIZE, SIZE, 5, &[])?;
    for side in 0..2 {
        maker.expand(&mut empty.clone(), side, &mut file)?;
    }
    eprintln!("{} positions searched now, {:.1} s", maker.searched, maker.begin.elapsed().as_secs_f64());
    Ok(())
}

struct Maker {
    searcher: Searcher,
    know: MnkKnowledge,
    threads: usize,
    seconds: f64,
    width: usize,
    reply_seconds: f64,
    plies: usize,
    /// The book's positions so far (by the key their symmetric images share) and their moves.
    known: BookMap,
    begin: Instant,
    searched: usize,
}

impl Maker {
    /// The book of the colour moving `side` (0: first, 1: second) below `g`.
    fn expand(&mut self, g: &mut Mnk, side: usize, file: &mut std::fs::File) -> Result<()> {
        if g.history().len() >= self.plies || g.outcome().is_some() {
            return Ok(());
        }
        if g.history().len() % 2 == side {
            let Some(mv) = self.book_move(g, file)? else { return Ok(()) };
            g.play(mv);
            self.expand(g, side, file)?;
            g.undo();
        } else if g.history().len() + 1 < self.plies {
            for mv in self.replies(g) {
                g.play(mv);
                self.expand(g, side, file)?;
                g.undo();
            }
        }
        Ok(())
    }

    /// The book's move in `g`: the one already there, or a search's (None when the search
    /// proved a result: the line ends).
    fn book_move(&mut self, g: &mut Mnk, file: &mut std::fs::File) -> Result<Option<Cell>> {
        if let Some(mv) = book::lookup(g, &self.known) {
            return Ok(Some(mv));
        }
        let r = self.search(g, self.seconds);
        self.searched += 1;
        let text = format!(
            "{} => {} # score {} depth {}",
            line_of(g),
            cell_text(r.best),
            crate::search::score_text(r.score.clamp(-WIN, WIN)),
            r.depth
        );
        eprintln!("{:4} {:8.1}s {text}", self.searched, self.begin.elapsed().as_secs_f64());
        writeln!(file, "{text}")?;
        file.flush()?;
        if r.proved {
            return Ok(None);
        }
        let stones = book::stones(g).expect("the book's board");
        book::insert(&mut self.known, &stones, r.best as usize);
        Ok(Some(r.best))
    }

    /// A search of `g` for `seconds`, from a fresh table.
    fn search(&mut self, g: &mut Mnk, seconds: f64) -> SearchResult<Cell> {
        let limits = Limits::per_move(Instant::now(), Duration::from_secs_f64(seconds), Duration::ZERO);
        self.searcher.new_game();
        self.searcher.search_parallel(g, &self.know, &limits, self.threads)
    }

    /// The other colour's `width` strongest moves, one of each symmetric kind: its moves next to
    /// a stone (any candidate if none is), and where there are more kinds than `width`, those
    /// after which a search of `reply_seconds` scores the book's colour lowest.
    fn replies(&mut self, g: &mut Mnk) -> Vec<Cell> {
        let mut list: Vec<Candidate<Cell>> = Vec::new();
        self.know.candidates(g, &mut list);
        list.sort_by_key(|c| std::cmp::Reverse(c.score));
        let l = g.lines();
        let touching = |cell: Cell| {
            let (r, c) = (cell as usize / SIZE, cell as usize % SIZE);
            (r.saturating_sub(1)..=(r + 1).min(SIZE - 1))
                .any(|y| (c.saturating_sub(1)..=(c + 1).min(SIZE - 1)).any(|x| l.cell(y * SIZE + x) != EMPTY))
        };
        if list.iter().any(|c| touching(c.mv)) {
            list.retain(|c| touching(c.mv));
        }
        let mut kinds = ahash::AHashSet::new();
        let mut moves = Vec::new();
        for c in list {
            g.play(c.mv);
            if kinds.insert(g.lines().symmetric_hash(false)) {
                moves.push(c.mv);
            }
            g.undo();
        }
        if moves.len() <= self.width {
            return moves;
        }
        let mut scored: Vec<(i32, Cell)> = moves
            .into_iter()
            .map(|mv| {
                g.play(mv);
                let score = self.search(g, self.reply_seconds).score;
                g.undo();
                (score, mv)
            })
            .collect();
        scored.sort();
        scored.into_iter().take(self.width).map(|(_, mv)| mv).collect()
    }
}

fn cell_text(cell: Cell) -> String {
    format!("{},{}", cell as usize / SIZE, cell as usize % SIZE)
}

fn line_of(g: &Mnk) -> String {
    g.history().iter().map(|&c| cell_text(c)).collect::<Vec<_>>().join(" ")
}
