//! How a game shows itself to people. The contract a game's pictures keep: [`Render`] gives the
//! board as plain text (one line a row, top row first: `replay`, logs) and as a [`View`] for the
//! web page (a grid of cells, each with what it holds and the key a click on it sends, and every
//! legal move as the keys to click); moves in people's notation, which must read back to the same
//! move ([`Render::parse_human`] of [`Render::human_move`]); scores in people's words and as an
//! [`Opinion`]. A view and a picture depend on the position only: play then undo gives them back
//! unchanged (the contract test, src/game/contract.rs, checks it for every game).
//!
//! It needs the rules ([`Game`]) and the search's scores, nothing else: it neither plays nor
//! searches.

use crate::search::{Game, Score, Side, WIN_BOUND};
use anyhow::Result;
use serde::Serialize;

/// How a game shows itself to people: as text, and as a view for a web page.
/// A position packed for training data: the bytes (the same length for every position of a
/// game) and the number of pieces on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Packed {
    pub bytes: Vec<u8>,
    pub pieces: u8,
}

pub trait Render: Game {
    /// The board as plain text, a line per row, top row first (as `boardbot replay` prints it).
    fn board_text(&self) -> String;
    /// The position for a web page: its cells and what a click on each means.
    fn view(&self) -> View;
    /// Why the game ended, in words (e.g. the cells of the winning line), once it is over.
    fn end_reason(&self) -> Option<String> {
        None
    }
    /// A move as people write it (`c3` for a cell, `4` for a column); by default the move text.
    fn human_move(&self, mv: Self::Move) -> String {
        self.format_move(mv)
    }
    /// Reads a move as people write it (see [`Render::human_move`]); games whose notation for
    /// people differs from their move text may accept the move text too, if it cannot be taken
    /// for the other. By default the move text.
    fn parse_human(&self, text: &str) -> Result<Self::Move> {
        self.parse_move(text)
    }
    /// How people write moves, in one sentence, for `help` and error messages.
    fn notation_help(&self) -> String {
        "a move as the protocol writes it".to_string()
    }
    /// The board for people: with coordinates in the notation of [`Render::human_move`], the
    /// last move and the winning line marked; with ANSI colours if `colour`. Games whose board
    /// has a near side for each player (checkers, Kalah) draw `bottom`'s side nearest the
    /// reader; the others ignore it. By default the board text.
    fn board_picture(&self, colour: bool, bottom: Side) -> String {
        let _ = (colour, bottom);
        self.board_text()
    }
    /// As [`Render::end_reason`], in people's notation.
    fn human_end_reason(&self) -> Option<String> {
        self.end_reason()
    }
    /// A search score from the side to move's view, in words ("wins in 7", "draw",
    /// "evaluation +12"); games whose proofs score something other than the distance to the
    /// end (a Kalah margin) say it their way.
    fn score_words(&self, score: Score, proved: bool) -> String {
        score_words(score, proved)
    }
    /// The position in the game's FEN, for the games that have one (the description's `fen`
    /// option reads it back); None by default.
    fn fen(&self) -> Option<String> {
        None
    }
    /// The position packed in a fixed number of bytes for training data (`boardbot selfplay
    /// --format bin`), with the pieces on the board (the game's phase); None for the games that
    /// have no packed form. Each game documents its layout beside its implementation.
    fn packed(&self) -> Option<Packed> {
        None
    }
    /// The players as the game's pictures and texts name them, the first player's first.
    fn side_names(&self) -> [&'static str; 2] {
        ["X", "O"]
    }
    /// The marks the text board ([`Render::board_picture`]) draws for the players, where they
    /// are not the players' names (gomoku's Black and White stones drawn X and O); None where
    /// the names are the marks or the board draws no marks.
    fn side_marks(&self) -> Option<[&'static str; 2]> {
        None
    }
    /// A search score from the side to move's view as an [`Opinion`] for people. By default a
    /// proof is a win or loss in so many moves, and an evaluation counts in hundreds (a man in
    /// checkers, a seed in Kalah).
    fn opinion(&self, score: Score, proved: bool) -> Opinion {
        Opinion::of_score(score, proved, 100)
    }
    /// Whether the game's proofs score a margin (Kalah's seeds) rather than the distance to the
    /// end: a proof the search made by the distance is then asked of the game's solver again,
    /// for the margin ([`Render::opinion`] reads it).
    fn scores_margins(&self) -> bool {
        false
    }
    /// In a finished game scored by margins (see [`Render::scores_margins`]), `side`'s margin
    /// (its seeds over the other's); None in other games.
    fn margin(&self, side: Side) -> Option<i32> {
        let _ = side;
        None
    }
    /// The evaluations a person may choose for the textbook algorithms of `play` and the page
    /// (the choice of seed 003's program): (name, what it counts), the engine's own first.
    /// The engine's search always uses its [`crate::search::Knowledge`].
    fn evaluations(&self) -> &'static [(&'static str, &'static str)] {
        &[("standard", "the engine's evaluation")]
    }
    /// The value of the position for the side to move by the evaluation called `name` in
    /// [`Render::evaluations`]; None for the engine's own (its [`crate::search::Knowledge::evaluate`]).
    fn evaluate_as(&self, name: &str) -> Option<Score> {
        let _ = name;
        None
    }
}

/// What the engine thinks of a position, for people, from the view of the side to move there.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Opinion {
    /// Proved: the side to move wins; in so many of its own moves if known, or by a margin (a
    /// Kalah win in seeds).
    Win { moves: Option<u32>, margin: Option<u32> },
    /// Proved: the side to move loses; in so many of the opponent's moves, or by a margin.
    Loss { moves: Option<u32>, margin: Option<u32> },
    /// Proved: a draw with best play.
    Draw,
    /// Not proved: the evaluation, in the game's units of a clear advantage (see
    /// [`Render::opinion`]); positive when the side to move stands better.
    Estimate { advantage: f64 },
}

impl Opinion {
    /// A search score as an opinion: proved wins and losses by the distance to the end (a win
    /// `p` plies away is `(p + 1) / 2` of the winner's moves in a game of alternate moves), or
    /// with no distance where the score is exactly [`WIN_BOUND`] (a value known without one, as
    /// an endgame database's); an evaluation in units of `unit` otherwise. A win or loss the
    /// search saw but did not prove is an evaluation: an estimate never carries a mate's words.
    pub fn of_score(score: Score, proved: bool, unit: Score) -> Opinion {
        use crate::search::WIN;
        let known = score.abs() > WIN_BOUND;
        if proved && score >= WIN_BOUND {
            Opinion::Win { moves: known.then(|| ((WIN - score) as u32).div_ceil(2).max(1)), margin: None }
        } else if proved && score <= -WIN_BOUND {
            Opinion::Loss { moves: known.then(|| ((WIN + score) as u32 / 2).max(1)), margin: None }
        } else if proved && score == 0 {
            Opinion::Draw
        } else {
            Opinion::Estimate { advantage: score as f64 / unit.max(1) as f64 }
        }
    }

    /// The same opinion from the other side's view.
    pub fn flipped(&self) -> Opinion {
        match *self {
            Opinion::Win { moves, margin } => Opinion::Loss { moves, margin },
            Opinion::Loss { moves, margin } => Opinion::Win { moves, margin },
            Opinion::Draw => Opinion::Draw,
            Opinion::Estimate { advantage } => Opinion::Estimate { advantage: -advantage },
        }
    }

    /// For an evaluation bar: -1 (the side to move loses) to 1 (it wins).
    pub fn bar(&self) -> f64 {
        match *self {
            Opinion::Win { .. } => 1.0,
            Opinion::Loss { .. } => -1.0,
            Opinion::Draw => 0.0,
            Opinion::Estimate { advantage } => (advantage / 3.0).tanh() * 0.95,
        }
    }
}

/// A game-neutral picture of a position for a web page: a grid of cells, each with what it
/// holds and the key a click on it sends, and how to draw it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct View {
    pub rows: usize,
    pub cols: usize,
    /// Row-major, `rows * cols` cells.
    pub cells: Vec<ViewCell>,
    /// For each legal move, its text and the keys of the cells a person clicks to make it, in
    /// order (one key for a stone or a column; several for a path; none for a move no cell
    /// stands for, as Kalah's swap: the page gives it a button).
    pub moves: Vec<ViewMove>,
    /// How a page draws the board: `grid` (squares holding X and O), `stones` (stones on the
    /// crossings of the lines, as gomoku boards), `columns` (discs dropped in columns),
    /// `checkers` (a checkerboard: the light squares out of play), `mancala` (two rows of pits;
    /// the stores are the cells of column 0 and the last column, a store a row).
    pub style: &'static str,
    /// Coordinates for the edges, in the notation of the moves for people: a label per column
    /// (left to right) and per row (top to bottom); empty where the game has none.
    pub col_labels: Vec<String>,
    pub row_labels: Vec<String>,
    /// The side whose pieces stand at the bottom, for games whose board a page turns to put the
    /// person's side there (a half turn); None: the board never turns.
    pub bottom: Option<&'static str>,
    /// The two players as the game names them, the first player's first.
    pub players: [ViewPlayer; 2],
    /// What the last move did, in words ("extra turn", "captured 5 seeds").
    pub notes: Vec<String>,
}

impl View {
    /// A `grid` of `rows` x `cols` cells with the legal moves; no coordinates, never turned, the
    /// players called X and O, no notes: what a new game may start from.
    pub fn grid(rows: usize, cols: usize, cells: Vec<ViewCell>, moves: Vec<ViewMove>) -> View {
        View {
            rows,
            cols,
            cells,
            moves,
            style: "grid",
            col_labels: Vec::new(),
            row_labels: Vec::new(),
            bottom: None,
            players: ViewPlayer::named(["X", "O"]),
            notes: Vec::new(),
        }
    }
}

/// A player as a view shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ViewPlayer {
    /// Its name ("Black", "X", "South").
    pub name: &'static str,
    /// What it holds off the board, in words ("2 captured", "14 in the store"), if anything.
    pub note: Option<String>,
}

impl ViewPlayer {
    pub fn named(names: [&'static str; 2]) -> [ViewPlayer; 2] {
        names.map(|name| ViewPlayer { name, note: None })
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ViewCell {
    /// What the cell holds: "" empty, "X"/"O" the first/second player's piece, "XK"/"OK" a
    /// crowned one, "#" a cell out of play (a checkers light square), or a count (seeds).
    pub content: String,
    /// The key a click on the cell sends (cells of one Connect-X column share one), if any.
    pub key: Option<String>,
    /// Part of the last move or of the winning line.
    pub marked: bool,
    /// A small label for the cell's corner (a checkers square's number, a pit's number).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// What the last move or the rules say of the cell, for drawing: `last` (the last stone),
    /// `win` (the winning line), `from` and `path` (a move's start and landings), `jumped` (a
    /// piece it took), `must` (a piece that must capture), `sown` (a pit the last sowing
    /// reached), `store` (a Kalah store).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub marks: Vec<&'static str>,
    /// The number of the move (from 1) that put the stone here, for boards whose stones stay.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub number: Option<u32>,
}

impl ViewCell {
    /// A cell with `content` and `key`, no marks.
    pub fn new(content: impl Into<String>, key: Option<String>) -> ViewCell {
        ViewCell { content: content.into(), key, marked: false, label: None, marks: Vec::new(), number: None }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ViewMove {
    pub text: String,
    pub keys: Vec<String>,
    /// The move as people write it ([`Render::human_move`]).
    pub human: String,
}

/// `view` of `game` with each move also as people write it.
pub(super) fn with_human_moves<G: Render>(game: &G, mut view: View) -> View {
    for m in &mut view.moves {
        if let Ok(mv) = game.parse_move(&m.text) {
            m.human = game.human_move(mv);
        }
    }
    view
}

/// A score in words for people: "wins in 7", "draw", "loses in 12", or an evaluation.
pub fn score_words(score: Score, proved: bool) -> String {
    use crate::search::WIN;
    if score >= WIN_BOUND {
        format!("wins in {}", WIN - score)
    } else if score <= -WIN_BOUND {
        format!("loses in {}", WIN + score)
    } else if proved && score == 0 {
        "draw".to_string()
    } else {
        format!("evaluation {score:+}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::WIN;

    #[test]
    fn a_proof_gives_a_distance_only_where_one_is_known_and_an_estimate_none() {
        let win = |moves| Opinion::Win { moves, margin: None };
        let loss = |moves| Opinion::Loss { moves, margin: None };
        // A win 3 plies away: 2 of the winner's moves; a loss 4 plies away: 2 of the opponent's.
        assert_eq!(Opinion::of_score(WIN - 3, true, 100), win(Some(2)));
        assert_eq!(Opinion::of_score(-(WIN - 4), true, 100), loss(Some(2)));
        // Exactly the bound: proved without a distance (a database's value).
        assert_eq!(Opinion::of_score(WIN_BOUND, true, 100), win(None));
        assert_eq!(Opinion::of_score(-WIN_BOUND, true, 100), loss(None));
        // Seen but not proved: an evaluation, far better for one side, without a mate's words.
        assert!(matches!(Opinion::of_score(WIN - 5, false, 100), Opinion::Estimate { advantage } if advantage > 3.0));
        assert!(
            matches!(Opinion::of_score(-WIN_BOUND, false, 100), Opinion::Estimate { advantage } if advantage < -3.0)
        );
        assert_eq!(Opinion::of_score(0, true, 100), Opinion::Draw);
        assert_eq!(Opinion::of_score(0, false, 100), Opinion::Estimate { advantage: 0.0 });
    }
}
