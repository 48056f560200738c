//! Checkers in the registry: the description `checkers english|house [fen FEN]`, the game built
//! with its knowledge, its pictures (squares numbered 1..=32) and its perft.

use super::knowledge::CheckersKnowledge as Know;
use super::{fen, notation, Checkers, Rules, QUIET_PLIES_DRAW};
use crate::game::any::{AnyGame, Playing, Render, View, ViewCell, ViewMove};
use crate::game::registry::{GameRecordText, GameSpec, GameType, Resources};
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
    points: [3, 3, 1],
    build,
    solve: None,
    book: None,
    prepare: None,
    perft: Some(perft),
    record: Some(pdn),
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

    /// Eight rows of eight cells, Black's side on top; a dark square's key is its number. A
    /// piece is `X` (Black) or `O` (White), `XK`/`OK` a king. A move is clicked as its start
    /// and then each landing square.
    fn view(&self) -> View {
        let marked = self.last_move_squares();
        let mut cells = Vec::with_capacity(64);
        for row in 0..8 {
            for col in 0..8 {
                cells.push(match square_at(row, col) {
                    // The light squares are out of play.
                    None => ViewCell { content: "#".to_string(), key: None, marked: false },
                    Some(sq) => {
                        let content = match letter(self, sq) {
                            Some('b') => "X",
                            Some('B') => "XK",
                            Some('w') => "O",
                            Some('W') => "OK",
                            _ => "",
                        };
                        ViewCell {
                            content: content.to_string(),
                            key: Some((sq + 1).to_string()),
                            marked: marked & (1 << sq) != 0,
                        }
                    }
                });
            }
        }
        let mut legal = Vec::new();
        self.legal_moves(&mut legal);
        let moves = legal
            .iter()
            .map(|&m| ViewMove {
                text: notation::format(m),
                keys: std::iter::once(m.from).chain(m.landings()).map(|s| (s + 1).to_string()).collect(),
            })
            .collect();
        View { rows: 8, cols: 8, cells, moves }
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

    fn notation_help(&self) -> String {
        "squares 1-32 as numbered on the board: a step 11-15, a capture 22x15, a multiple jump 22x15x6".to_string()
    }

    /// The board with the number of every empty dark square, the pieces as letters (`b`/`w`
    /// men, `B`/`W` kings), and every square's number in a key at its right; the last move's
    /// squares in brackets; Black in bold and White in reverse video if `colour`.
    fn board_picture(&self, colour: bool) -> String {
        let marked = self.last_move_squares();
        let mut s = String::new();
        for row in 0..8 {
            for col in 0..8 {
                let Some(sq) = square_at(row, col) else {
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
            let numbers: Vec<String> = (0..4).map(|i| format!("{:>2}", row * 4 + i + 1)).collect();
            let indent = if row % 2 == 0 { "  " } else { "" };
            s.push_str(&format!("      {indent}{}\n", numbers.join("  ")));
        }
        s.push_str(&format!("{} to move; b/w men, B/W kings\n", side_name(self.side)));
        s
    }
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::First => "Black",
        Side::Second => "White",
    }
}
