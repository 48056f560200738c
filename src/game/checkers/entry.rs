//! Checkers in the registry: the description `checkers english|house [fen FEN]`, the game built
//! with its knowledge, its pictures (squares numbered 1..=32) and its perft.

use super::knowledge::CheckersKnowledge as Know;
use super::{fen, notation, Checkers, Move, Rules, QUIET_PLIES_DRAW};
use crate::game::any::{AnyGame, GameRecordText, GameSpec, GameType, Resources};
use crate::game::playing::Playing;
use crate::game::render::{Render, View, ViewCell, ViewMove, ViewPlayer};
use crate::game::{Game, Outcome, Side};

pub use super::knowledge::CheckersKnowledge;

pub static GAME_TYPE: GameType = GameType {
    name: "checkers",
    aliases: &["draughts"],
    size_words: 1,
    usage: "checkers english|house [fen FEN]",
    about: "Checkers on the 32 dark squares, Black moves first (English draughts: checkers english; \
            optional captures that may stop after any jump: checkers house)",
    title: "checkers",
    names: &[("checkers", "checkers english"), ("draughts", "checkers english")],
    examples: &["checkers english", "checkers house"],
    build,
    book: Some(make_book),
    perft: Some(perft),
    record: Some(pdn),
    ..GameType::DEFAULTS
};

/// Reads `english|house [fen FEN]` into the position it starts from.
fn read(words: &[&str]) -> Result<Checkers, String> {
    let [rules, rest @ ..] = words else { return Err("expected the rules: english or house".into()) };
    let rules = Rules::parse(rules)?;
    let mut game = Checkers::new(rules);
    let mut rest = rest.iter();
    let mut fen_seen = false;
    while let Some(&word) = rest.next() {
        match word.to_ascii_lowercase().as_str() {
            "fen" if !fen_seen => {
                let text = rest.next().ok_or("fen needs a position, e.g. B:W21-32:B1-12")?;
                game = fen::parse(rules, text)?;
                fen_seen = true;
            }
            _ => return Err(format!("unexpected '{word}' (option: fen FEN)")),
        }
    }
    Ok(game)
}

fn build(words: &[&str], resources: &Resources) -> Result<Box<dyn AnyGame>, String> {
    let game = read(words)?;
    let mut canonical = vec![game.rules().name().to_string()];
    if game.board() != Checkers::new(game.rules()).board() || game.to_move() != Side::First {
        canonical.extend(["fen".to_string(), fen::write(&game)]);
    }
    let spec = GameSpec::new(&GAME_TYPE, canonical);
    let know = Know::new(game.rules(), resources);
    Ok(Box::new(Playing::new(spec, game, know)))
}

/// `boardbot book --game checkers english --plies LEVELS --out FILE`: the opening book (see
/// [`book`](super::book)): every position [`book::positions`] gives from the start and from
/// each ACF ballot, `LEVELS` plies deep, searched for `BOOK_SECONDS` seconds (default 10) with
/// `threads` threads and `hash_mb` MiB of table. It resumes: the positions `out` already
/// holds are not searched again, and each new one is written as soon as it is searched.
fn make_book(
    spec: &GameSpec,
    levels: u32,
    threads: usize,
    hash_mb: usize,
    out: &std::path::Path,
) -> anyhow::Result<()> {
    use super::book::{self, Book};
    use crate::search::{Limits, Searcher};
    use anyhow::{bail, Context};
    use std::io::Write;
    let start = read(&spec.words().iter().map(String::as_str).collect::<Vec<_>>()).map_err(anyhow::Error::msg)?;
    if start.rules() != Rules::English {
        bail!("the opening book is of English checkers");
    }
    let seconds: f64 = std::env::var("BOOK_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(10.0);
    let mut roots = vec![start.clone()];
    for ballot in super::book::ballots() {
        let mut g = start.clone();
        for mv in ballot.split_whitespace() {
            let mv = g.parse_move(mv).map_err(anyhow::Error::msg)?;
            g.play(mv);
        }
        roots.push(Checkers::from_board(Rules::English, *g.board(), g.to_move()));
    }
    let old = std::fs::read_to_string(out).unwrap_or_default();
    let known = Book::parse(&old, Rules::English).map_err(anyhow::Error::msg).context("the book to resume")?;
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

/// `boardbot perft`: leaf positions `depth` plies from the description's position.
fn perft(spec: &GameSpec, depth: u32) -> Result<u64, String> {
    let words: Vec<&str> = spec.words().iter().map(String::as_str).collect();
    Ok(read(&words)?.perft(depth))
}

/// A game in PDN (Portable Draughts Notation): the tags (`GameType "21"`, English draughts;
/// `FEN` when the game did not start from the usual position), then the moves numbered by
/// pairs, Black's first, and the result from Black's (the first player's) view.
fn pdn(spec: &GameSpec, game: &GameRecordText) -> String {
    let words: Vec<&str> = spec.words().iter().map(String::as_str).collect();
    let start = read(&words).unwrap_or_else(|_| Checkers::new(Rules::English));
    let quote = |t: &str| t.replace(['"', '\\'], "'");
    let mut s = String::new();
    s.push_str(&format!("[Event \"{}\"]\n", quote(&game.event)));
    s.push_str(&format!("[Round \"{}\"]\n", game.number));
    s.push_str(&format!("[Black \"{}\"]\n", quote(&game.players[0])));
    s.push_str(&format!("[White \"{}\"]\n", quote(&game.players[1])));
    s.push_str(&format!("[Result \"{}\"]\n", game.result));
    s.push_str("[GameType \"21\"]\n");
    if start.rules() == Rules::House {
        s.push_str("[Variant \"house rules: optional captures, a multiple jump may stop after any jump\"]\n");
    }
    if spec.words().len() > 1 {
        s.push_str(&format!("[FEN \"{}\"]\n", fen::write(&start)));
    }
    if !game.reason.is_empty() {
        s.push_str(&format!("[Termination \"{}\"]\n", quote(&game.reason)));
    }
    s.push('\n');
    let mut line = String::new();
    let first_ply = usize::from(start.to_move() == Side::Second);
    if first_ply == 1 && !game.moves.is_empty() {
        line.push_str("1... ");
    }
    for (ply, mv) in (first_ply..).zip(&game.moves) {
        if ply % 2 == 0 {
            line.push_str(&format!("{}. ", ply / 2 + 1));
        }
        line.push_str(mv);
        line.push(' ');
        if line.len() > 70 {
            s.push_str(line.trim_end());
            s.push('\n');
            line.clear();
        }
    }
    line.push_str(&game.result);
    s.push_str(&line);
    s.push_str("\n\n");
    s
}

/// One square of the picture: the piece on it as a letter (`b`/`w` men, `B`/`W` kings).
fn letter(g: &Checkers, sq: u32) -> Option<char> {
    let b = g.board();
    let bit = 1u32 << sq;
    let king = b.kings & bit != 0;
    if b.pieces[0] & bit != 0 {
        Some(if king { 'B' } else { 'b' })
    } else if b.pieces[1] & bit != 0 {
        Some(if king { 'W' } else { 'w' })
    } else {
        None
    }
}

/// The bit index of the dark square at (row, column) of the diagram, if it is one.
fn square_at(row: usize, col: usize) -> Option<u32> {
    ((row + col) % 2 == 1).then_some((row * 4 + col / 2) as u32)
}

impl Checkers {
    /// The squares the last move touched (its start and landings), for pictures.
    fn last_move_squares(&self) -> u32 {
        let Some(prev) = self.past.last() else { return 0 };
        let mover = prev.side.index();
        let left = prev.board.pieces[mover] & !self.board.pieces[mover];
        let arrived = self.board.pieces[mover] & !prev.board.pieces[mover];
        left | arrived
    }

    /// The last move, found again among the moves of the position before it.
    fn last_move(&self) -> Option<Move> {
        let prev = self.past.last()?;
        let before = Checkers::from_board(self.rules, prev.board, prev.side);
        let mut moves = Vec::new();
        before.generate(&mut moves);
        moves.into_iter().find(|&m| before.board_after(m) == self.board)
    }

    /// Pieces each side has lost since the position the game started from.
    fn captured(&self) -> [u32; 2] {
        let start = self.past.first().map_or(self.board, |s| s.board);
        [0, 1].map(|s| start.pieces[s].count_ones().saturating_sub(self.board.pieces[s].count_ones()))
    }
}

impl Render for Checkers {
    /// Eight rows, Black's side (squares 1..=4) on top: `b`/`w` men, `B`/`W` kings, `.` an empty
    /// dark square, a space a light one; then the side to move.
    fn board_text(&self) -> String {
        let mut s = String::new();
        for row in 0..8 {
            let line: Vec<String> = (0..8)
                .map(|col| match square_at(row, col) {
                    None => " ".to_string(),
                    Some(sq) => letter(self, sq).unwrap_or('.').to_string(),
                })
                .collect();
            s.push_str(line.join(" ").trim_end());
            s.push('\n');
        }
        s.push_str(&format!("{} to move ({})\n", side_name(self.side), fen::write(self)));
        s
    }

    /// Eight rows of eight cells as the standard diagram draws them, Black's side on top (a
    /// page turns the board to put the person's side at the bottom); a dark square's key and
    /// label are its number, a light square is out of play (`#`). A piece is `X` (Black) or `O`
    /// (White), `XK`/`OK` a king. A move is clicked as its start and then each landing square.
    /// Marks: the last move's start (`from`), landings (`path`) and the pieces it took
    /// (`jumped`); under English rules, the pieces that must capture (`must`).
    fn view(&self) -> View {
        let marked = self.last_move_squares();
        let last = self.last_move();
        let mut legal = Vec::new();
        self.legal_moves(&mut legal);
        let must = if self.rules == Rules::English && self.outcome().is_none() && legal.iter().any(|m| m.is_capture()) {
            legal.iter().fold(0u32, |acc, m| acc | 1 << m.from)
        } else {
            0
        };
        let mut cells = Vec::with_capacity(64);
        for row in 0..8 {
            for col in 0..8 {
                cells.push(match square_at(row, col) {
                    // The light squares are out of play.
                    None => ViewCell::new("#", None),
                    Some(sq) => {
                        let content = match letter(self, sq) {
                            Some('b') => "X",
                            Some('B') => "XK",
                            Some('w') => "O",
                            Some('W') => "OK",
                            _ => "",
                        };
                        let mut c = ViewCell::new(content, Some((sq + 1).to_string()));
                        c.marked = marked & (1 << sq) != 0;
                        c.label = Some((sq + 1).to_string());
                        if let Some(m) = last {
                            if m.from as u32 == sq {
                                c.marks.push("from");
                            }
                            if m.landings().any(|l| l as u32 == sq) {
                                c.marks.push("path");
                            }
                            if m.captured & (1 << sq) != 0 {
                                c.marks.push("jumped");
                            }
                        }
                        if must & (1 << sq) != 0 {
                            c.marks.push("must");
                        }
                        c
                    }
                });
            }
        }
        let moves = legal
            .iter()
            .map(|&m| ViewMove {
                text: notation::format(m),
                keys: std::iter::once(m.from).chain(m.landings()).map(|s| (s + 1).to_string()).collect(),
                human: String::new(),
            })
            .collect();
        let names = self.side_names();
        let mut players = ViewPlayer::named(names);
        let captured = self.captured();
        for side in [Side::First, Side::Second] {
            // A side's note counts the pieces it took.
            let took = captured[side.other().index()];
            players[side.index()].note = Some(format!("{took} captured"));
        }
        let mut notes = Vec::new();
        if let (Some(m), Some(prev)) = (last, self.past.last()) {
            let who = names[prev.side.index()];
            if m.jumps > 0 {
                let n = m.jumps;
                notes.push(format!("{who} took {n} piece{}.", if n == 1 { "" } else { "s" }));
            }
            if prev.board.kings & (1 << m.from) == 0 && self.board.kings & (1 << m.to) != 0 {
                notes.push(format!("{who}'s man on {} was crowned.", m.to + 1));
            }
        }
        if must != 0 {
            notes.push(format!("{} must capture.", names[self.side.index()]));
        }
        View {
            rows: 8,
            cols: 8,
            cells,
            moves,
            style: "checkers",
            col_labels: Vec::new(),
            row_labels: Vec::new(),
            bottom: Some("second"),
            players,
            notes,
        }
    }

    fn end_reason(&self) -> Option<String> {
        match self.outcome()? {
            Outcome::Win(winner) => {
                let loser = side_name(winner.other());
                Some(if self.board.pieces[winner.other().index()] == 0 {
                    format!("{loser} has no pieces left")
                } else {
                    format!("{loser} has no legal move")
                })
            }
            Outcome::Draw if self.quiet >= QUIET_PLIES_DRAW => {
                Some("40 moves by each side without a capture or a man moved".to_string())
            }
            Outcome::Draw => Some("the same position for the third time".to_string()),
        }
    }

    fn fen(&self) -> Option<String> {
        Some(fen::write(self))
    }

    fn notation_help(&self) -> String {
        "squares 1 to 32 as numbered on the board: a step 11-15, a capture 22x15 (or 22-15), a multiple jump 22x15x6"
            .to_string()
    }

    /// The move text, and a capture written as a step (`12-19` for `12x19`, `22-6` for the
    /// double jump `22x15x6`) where it names one legal move.
    fn parse_human(&self, text: &str) -> Result<Move, String> {
        let mv = notation::parse(self, text)?;
        if self.is_legal(mv) || !text.contains('-') {
            return Ok(mv);
        }
        match notation::parse(self, &text.trim().replace('-', "x")) {
            Ok(capture) if self.is_legal(capture) => Ok(capture),
            Err(e) => Err(e),
            Ok(_) => Ok(mv),
        }
    }

    fn side_names(&self) -> [&'static str; 2] {
        ["Black", "White"]
    }

    /// The board with the number of every empty dark square, the pieces as letters (`b`/`w`
    /// men, `B`/`W` kings), and every square's number in a key at its right; `bottom`'s side
    /// nearest (Black at the bottom: the diagram turned half round); the last move's squares in
    /// brackets; Black in bold and White in reverse video if `colour`.
    fn board_picture(&self, colour: bool, bottom: Side) -> String {
        let marked = self.last_move_squares();
        let turned = bottom == Side::First;
        let order = |i: usize| if turned { 7 - i } else { i };
        let mut s = String::new();
        for r in 0..8 {
            let row = order(r);
            for c in 0..8 {
                let Some(sq) = square_at(row, order(c)) else {
                    s.push_str("    ");
                    continue;
                };
                let (open, close) = if marked & (1 << sq) != 0 { ('[', ']') } else { (' ', ' ') };
                let inner = match letter(self, sq) {
                    None => format!("{:>2}", sq + 1),
                    Some(c) if colour && c.eq_ignore_ascii_case(&'b') => format!("\x1b[1m {c}\x1b[0m"),
                    Some(c) if colour => format!("\x1b[7m {c}\x1b[0m"),
                    Some(c) => format!(" {c}"),
                };
                s.push(open);
                s.push_str(&inner);
                s.push(close);
            }
            // The numbers of the row's squares, as a key beside the board.
            let numbers: Vec<String> =
                (0..4).map(|i| format!("{:>2}", row * 4 + if turned { 3 - i } else { i } + 1)).collect();
            let dark_first = square_at(row, order(0)).is_some();
            let indent = if dark_first { "" } else { "  " };
            s.push_str(&format!("      {indent}{}\n", numbers.join("  ")));
        }
        let legend = "b/w Black's and White's men, B/W kings";
        if self.outcome().is_some() {
            s.push_str(&format!("{legend}\n"));
        } else {
            s.push_str(&format!("{} to move; {legend}\n", side_name(self.side)));
        }
        s
    }
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::First => "Black",
        Side::Second => "White",
    }
}
