//! Checkers' pictures: the board as text (squares numbered 1..=32) and as the page's view.

use super::{fen, notation, packing, Checkers, Move, Rules, QUIET_PLIES_DRAW};
use crate::game::render::{Packed, Render, View, ViewCell, ViewMove, ViewPlayer};
use crate::game::{Game, Outcome, Side};
use anyhow::Result;

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

    /// 13 bytes: Black's pieces, White's pieces and the kings as u32 little-endian bitboards
    /// (bit s - 1 for square s), then the side to move (0 Black, 1 White).
    fn packed(&self) -> Option<Packed> {
        Some(packing::pack(self))
    }

    fn notation_help(&self) -> String {
        "squares 1 to 32 as numbered on the board: a step 11-15, a capture 22x15 (or 22-15), a multiple jump 22x15x6"
            .to_string()
    }

    /// The move text, and a capture written as a step (`12-19` for `12x19`, `22-6` for the
    /// double jump `22x15x6`) where it names one legal move.
    /// A move written with '-' that is not a legal step is read again as the jumps it names
    /// ("14-23" for "14x23"; a path "14-23-32", which no step is, for "14x23x32").
    fn parse_human(&self, text: &str) -> Result<Move> {
        let as_jumps = || notation::parse(self, &text.trim().replace('-', "x"));
        let mv = match notation::parse(self, text) {
            Ok(mv) => mv,
            Err(e) if text.matches('-').count() > 1 => {
                return as_jumps().ok().filter(|&capture| self.is_legal(capture)).ok_or(e)
            }
            Err(e) => return Err(e),
        };
        if self.is_legal(mv) || !text.contains('-') {
            return Ok(mv);
        }
        match as_jumps() {
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
