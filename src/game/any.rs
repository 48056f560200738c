//! A game in progress of any kind, seen through text: [`AnyGame`] is what the protocol, the
//! referee and the user interfaces hold. They never learn which game it is; each game gives its
//! rules ([`Game`]), its pictures ([`Render`]) and its knowledge ([`Knowledge`]), and
//! [`Playing`] joins them into one object.

use super::registry::GameSpec;
use crate::search::{
    score_text, Candidate, Game, Knowledge, Limits, Outcome, Score, SearchInfo, Searcher, Side, WeightFile, Weights,
    MAX_PLY, WIN_BOUND,
};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use serde::Serialize;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How a game shows itself to people: as text, and as a view for a web page.
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
    fn parse_human(&self, text: &str) -> Result<Self::Move, String> {
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
    /// The players as the game's pictures and texts name them, the first player's first.
    fn side_names(&self) -> [&'static str; 2] {
        ["X", "O"]
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
    /// Whether the engine's exact solvers take this position's move from an opening book.
    fn in_book(&self) -> bool {
        false
    }
    /// The evaluations a person may choose for the textbook algorithms of `play` and the page
    /// (the choice of seed 003's program): (name, what it counts), the engine's own first.
    /// The engine's search always uses its [`Knowledge`].
    fn evaluations(&self) -> &'static [(&'static str, &'static str)] {
        &[("standard", "the engine's evaluation")]
    }
    /// The value of the position for the side to move by the evaluation called `name` in
    /// [`Render::evaluations`]; None for the engine's own (its [`Knowledge::evaluate`]).
    fn evaluate_as(&self, name: &str) -> Option<Score> {
        let _ = name;
        None
    }
}

/// A position as a tuner sees it: its static evaluation, from the first player's view, for any
/// weights of the game's evaluation.
pub trait TunedPosition: Send {
    fn evaluate(&self, weights: &Weights) -> Score;
}

/// Which evaluation of a position a tuner fits.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Leaf {
    /// The static evaluation, of a position whose side to move is quiet (none otherwise).
    Static,
    /// The static evaluation at the end of the line of forcing moves (captures) a quiescence
    /// search expects, found with the game's own weights.
    Quiescence,
}

/// Plies of forcing moves [`quiet_leaf`] looks through at most.
const LEAF_PLIES: u32 = 16;

/// A negamax of the forcing moves from `g` (those the knowledge searches past the horizon,
/// where the side to move is not quiet; standing pat where some legal move is not one of them),
/// as a quiescence search sees it: the score from the side to move's view and the quiet position
/// at the end of the expected line (None when the line ends the game). At most `plies` deep.
fn quiet_leaf<G: Game, K: Knowledge<G>>(know: &K, g: &mut G, plies: u32) -> (Score, Option<G>) {
    match g.outcome() {
        Some(Outcome::Draw) => return (0, None),
        Some(Outcome::Win(side)) => return (if side == g.to_move() { WIN_BOUND } else { -WIN_BOUND }, None),
        None => {}
    }
    if plies == 0 || know.quiet(g) {
        return (know.evaluate(g), Some(g.clone()));
    }
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let forcing: Vec<G::Move> = moves.iter().copied().filter(|&mv| know.searched_past_horizon(g, mv)).collect();
    let mut best: (Score, Option<G>) =
        if forcing.len() < moves.len() { (know.evaluate(g), Some(g.clone())) } else { (-WIN_BOUND - 1, None) };
    let me = g.to_move();
    for mv in forcing {
        g.play(mv);
        let (score, leaf) = quiet_leaf(know, g, plies - 1);
        let score = if g.to_move() == me { score } else { -score };
        g.undo();
        if score > best.0 {
            best = (score, leaf);
        }
    }
    best
}

/// A position with its knowledge, evaluated from the first player's view.
struct Tuned<G, K> {
    game: G,
    know: Arc<K>,
}

impl<G: Game + Send, K: Knowledge<G> + Send> TunedPosition for Tuned<G, K> {
    fn evaluate(&self, weights: &Weights) -> Score {
        let e = self.know.evaluate_with(&self.game, weights);
        match self.game.to_move() {
            Side::First => e,
            Side::Second => -e,
        }
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
    /// A search score as an opinion: wins and losses by the distance to the end (a win `p`
    /// plies away is `(p + 1) / 2` of the winner's moves in a game of alternate moves), an
    /// evaluation in units of `unit`.
    pub fn of_score(score: Score, proved: bool, unit: Score) -> Opinion {
        use crate::search::WIN;
        if score >= WIN_BOUND {
            Opinion::Win { moves: Some(((WIN - score) as u32).div_ceil(2).max(1)), margin: None }
        } else if score <= -WIN_BOUND {
            Opinion::Loss { moves: Some(((WIN + score) as u32 / 2).max(1)), margin: None }
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

/// How the engine picks its moves.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Player {
    /// The search (the engine itself).
    Search,
    /// A uniformly random legal move.
    Random,
    /// The game's reference player of the courses (m,n,k and Connect-X: L1, an immediate win,
    /// else a move that hands the opponent none; other games: greedy).
    Reference,
    /// The courses' kind of bot: a fixed-depth alpha-beta to this many moves with the game's
    /// evaluation and move order, nothing else ([`crate::search::plain`]).
    AlphaBeta(u32),
}

impl FromStr for Player {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "search" | "bot" | "boardbot" => Ok(Player::Search),
            "random" => Ok(Player::Random),
            "l1" | "greedy" | "reference" => Ok(Player::Reference),
            p => p
                .strip_prefix("alphabeta")
                .or_else(|| p.strip_prefix("ab"))
                .and_then(|d| d.parse::<u32>().ok())
                .filter(|d| (1..=64).contains(d))
                .map(Player::AlphaBeta)
                .ok_or_else(|| {
                    format!("unknown player '{s}' (search, random, l1, greedy or abN: alpha-beta to N moves)")
                }),
        }
    }
}

/// A search algorithm `boardbot analyze` compares (src/search/plain.rs for the textbook ones),
/// and the ones a person may have the engine play with (`play --algorithm`, the page).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// Negamax over every move, no pruning.
    Minimax,
    /// Minimax with a table keyed so that positions equal up to the board's symmetries share
    /// an entry (seed 003's "minimax with symmetries").
    MinimaxSymmetric,
    /// Alpha-beta, moves in the order the rules generate them.
    AlphaBeta,
    /// Alpha-beta with the game's move order.
    Ordered,
    /// Ordered alpha-beta with a transposition table.
    Table,
    /// As `Table`, keyed so that positions equal up to the board's symmetries share an entry.
    Symmetric,
    /// boardbot's search: iterative deepening, PVS, aspiration, history, reductions, the
    /// game's solvers.
    Full,
}

impl Algorithm {
    /// The algorithms `boardbot analyze` compares by default.
    pub const ALL: [Algorithm; 6] = [
        Algorithm::Minimax,
        Algorithm::AlphaBeta,
        Algorithm::Ordered,
        Algorithm::Table,
        Algorithm::Symmetric,
        Algorithm::Full,
    ];
    /// The algorithms the engine may play with, the usual one first.
    pub const PLAY: [Algorithm; 7] = [
        Algorithm::Full,
        Algorithm::Minimax,
        Algorithm::MinimaxSymmetric,
        Algorithm::AlphaBeta,
        Algorithm::Ordered,
        Algorithm::Table,
        Algorithm::Symmetric,
    ];
    /// The name the command line takes.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Minimax => "minimax",
            Algorithm::MinimaxSymmetric => "minimax-symmetric",
            Algorithm::AlphaBeta => "alphabeta",
            Algorithm::Ordered => "ordered",
            Algorithm::Table => "table",
            Algorithm::Symmetric => "symmetric",
            Algorithm::Full => "full",
        }
    }
    /// What it is, in a few words for people.
    pub fn about(self) -> &'static str {
        match self {
            Algorithm::Minimax => "minimax: every move to the depth",
            Algorithm::MinimaxSymmetric => "minimax with the board's symmetries (a table of positions)",
            Algorithm::AlphaBeta => "alpha-beta pruning",
            Algorithm::Ordered => "alpha-beta, best-looking moves first",
            Algorithm::Table => "alpha-beta with move order and a table of positions",
            Algorithm::Symmetric => "alpha-beta with the board's symmetries (move order, a table)",
            Algorithm::Full => "boardbot's own search (iterative deepening, solvers)",
        }
    }
    fn variant(self) -> Option<crate::search::plain::Variant> {
        use crate::search::plain::Variant;
        match self {
            Algorithm::Minimax => Some(Variant::MINIMAX),
            Algorithm::MinimaxSymmetric => Some(Variant { table: true, symmetric: true, ..Variant::MINIMAX }),
            Algorithm::AlphaBeta => Some(Variant::ALPHA_BETA),
            Algorithm::Ordered => Some(Variant::ORDERED),
            Algorithm::Table => Some(Variant::TABLE),
            Algorithm::Symmetric => Some(Variant::SYMMETRIC),
            Algorithm::Full => None,
        }
    }
}

impl FromStr for Algorithm {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let t = s.to_ascii_lowercase().replace('_', "-");
        let alias = match t.as_str() {
            "minimax-sym" | "minimax-symmetries" => Some(Algorithm::MinimaxSymmetric),
            "alpha-beta" | "ab" => Some(Algorithm::AlphaBeta),
            "alphabeta-sym" | "alphabeta-symmetric" | "alpha-beta-symmetric" | "alphabeta-symmetries" => {
                Some(Algorithm::Symmetric)
            }
            "search" | "boardbot" => Some(Algorithm::Full),
            _ => None,
        };
        let names: Vec<&str> = Algorithm::PLAY.iter().map(|a| a.name()).collect();
        alias
            .or_else(|| Algorithm::PLAY.into_iter().find(|a| a.name() == t))
            .ok_or_else(|| format!("unknown algorithm '{s}' ({})", names.join(", ")))
    }
}

/// The moves of a line from `start`, each written by `write` in the position it is played in
/// (a move's text may depend on the position: a checkers path); the line stops at a move that
/// is not legal there.
fn line_text<G: Game>(start: &G, moves: &[G::Move], write: impl Fn(&G, G::Move) -> String) -> Vec<String> {
    let mut g = start.clone();
    let mut text = Vec::with_capacity(moves.len());
    for &mv in moves {
        if !g.is_legal(mv) {
            break;
        }
        text.push(write(&g, mv));
        g.play(mv);
    }
    text
}

/// What one algorithm found at one depth.
#[derive(Clone, Debug)]
pub struct Analysis {
    pub score: Score,
    /// The score in the game's words.
    pub words: String,
    pub best: Option<String>,
    /// The principal variation, in move text.
    pub pv: Vec<String>,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// Where the engine's move came from.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// A search ([`Thought::depth`] deep; with a textbook algorithm if [`Thought::algorithm`]).
    #[default]
    Search,
    /// The only move (or the only one that does not lose at once), played without a search.
    OnlyMove,
    /// The opening book.
    Book,
    /// The game's exact solver, before any search.
    Solver,
    /// A move that wins at once.
    WinsAtOnce,
}

/// What the engine's search settled on, for people and logs.
#[derive(Clone, Debug, Default)]
pub struct Thought {
    pub depth: u32,
    pub score: Score,
    pub nodes: u64,
    pub elapsed: Duration,
    pub proved: bool,
    /// The score in the game's words ([`Render::score_words`]).
    pub words: String,
    /// Every completed iteration of the search, in order.
    pub iterations: Vec<SearchInfo>,
    pub source: Source,
    /// The score for people, from the view of the side that moved ([`Render::opinion`]); None
    /// where the move says nothing of the position (an only move, a search stopped in its
    /// first iteration).
    pub opinion: Option<Opinion>,
    /// The textbook algorithm that chose the move; None: the engine's own search.
    pub algorithm: Option<Algorithm>,
}

impl fmt::Display for Thought {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "depth {} score {}{} nodes {} time {} ms",
            self.depth,
            score_text(self.score),
            if self.proved { " proved" } else { "" },
            self.nodes,
            self.elapsed.as_millis()
        )
    }
}

/// What a move request asks for: the player, its level (see [`MAX_LEVEL`]), the search's depth
/// cap (`u32::MAX`: none) and its threads, the clock, and the algorithm (with, for the textbook
/// ones, the evaluation by its name in [`Render::evaluations`]; None: the engine's own).
#[derive(Clone, Debug)]
pub struct Request {
    pub player: Player,
    pub level: u32,
    pub max_depth: u32,
    pub threads: usize,
    pub limits: Limits,
    pub algorithm: Algorithm,
    pub evaluation: Option<String>,
}

/// A level below the maximum takes at most LEVEL_TIME times its level over [`MAX_LEVEL`],
/// whatever the time per move: under a second at every level.
pub const LEVEL_TIME: Duration = Duration::from_millis(800);

/// The share of a level's time (see [`LEVEL_TIME`]) that its move may take, given the move's
/// budget `hard` (None: no clock).
pub fn level_budget(level: u32, hard: Option<Duration>) -> Duration {
    hard.unwrap_or(LEVEL_TIME).min(LEVEL_TIME).mul_f64(level.min(MAX_LEVEL) as f64 / MAX_LEVEL as f64)
}

/// The engine at full strength. Below it (levels 1 to 9) the search is made beatable and varied:
/// no exact solver or threat proof; every candidate is scored by a search LEVEL - 1 plies deep
/// (within LEVEL tenths of the time), and the move is drawn at random among those scoring within
/// [`level_slack`] of the best.
pub const MAX_LEVEL: u32 = 10;

/// How far below the best score a move may score and still be drawn at a level, given the
/// game's [`Knowledge::level_step`] in evaluation units.
pub fn level_slack(level: u32, step: Score) -> Score {
    MAX_LEVEL.saturating_sub(level) as Score * step
}

/// The knowledge of a level below the maximum: the node-level knowledge of `K` (evaluation,
/// ordering, tactics), without its exact solvers and threat searches.
struct Shallow<'a, K>(&'a K);

impl<G: Game, K: Knowledge<G>> Knowledge<G> for Shallow<'_, K> {
    fn evaluate(&self, g: &G) -> Score {
        self.0.evaluate(g)
    }
    fn winning_move(&self, g: &G) -> Option<G::Move> {
        self.0.winning_move(g)
    }
    fn quiet(&self, g: &G) -> bool {
        self.0.quiet(g)
    }
    fn candidates(&self, g: &G, out: &mut Vec<Candidate<G::Move>>) -> bool {
        self.0.candidates(g, out)
    }
    fn quiet_win(&self, g: &G) -> Option<u32> {
        self.0.quiet_win(g)
    }
    fn can_win(&self, g: &G, side: Side) -> bool {
        self.0.can_win(g, side)
    }
    fn level_step(&self) -> Score {
        self.0.level_step()
    }
    fn searched_past_horizon(&self, g: &G, mv: G::Move) -> bool {
        self.0.searched_past_horizon(g, mv)
    }
    fn known_value(&self, g: &G) -> Option<Score> {
        self.0.known_value(g)
    }
    fn selectivity(&self) -> crate::search::Selectivity {
        self.0.selectivity()
    }
    fn tactical(&self, g: &G, mv: G::Move) -> bool {
        self.0.tactical(g, mv)
    }
    fn null_move(&self, g: &G) -> Option<G::Move> {
        self.0.null_move(g)
    }
}

/// A whole turn the engine played: its moves (more than one where the game gives extra
/// turns) and, from the search, what it thought.
#[derive(Clone, Debug, Default)]
pub struct Turn {
    pub moves: Vec<String>,
    pub thought: Option<Thought>,
}

/// Why a move was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not a move of this game at all, or off the board.
    Unreadable(String),
    /// A move, but not a legal one now (or the game is over).
    Illegal(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            MoveError::Unreadable(e) | MoveError::Illegal(e) => f.write_str(e),
        }
    }
}

/// A game in progress of any kind, through move text.
pub trait AnyGame: Send {
    /// The game and board, as the registry reads them.
    fn spec(&self) -> &GameSpec;
    fn to_move(&self) -> Side;
    fn outcome(&self) -> Option<Outcome>;
    /// Why the game ended, in words, once it is over.
    fn end_reason(&self) -> Option<String>;
    /// Not over, but only a draw can come of it whatever is played.
    fn is_dead_draw(&self) -> bool;
    /// The moves played since the start, in move text.
    fn history(&self) -> Vec<String>;
    /// The legal moves now, in move text.
    fn legal_moves(&self) -> Vec<String>;
    /// Plays one move of the side to move; on error nothing changes.
    fn play(&mut self, text: &str) -> Result<(), MoveError>;
    /// Takes back the last move; false at the start.
    fn undo(&mut self) -> bool;
    /// Goes back to the start and plays `moves`; all or nothing.
    fn set_moves(&mut self, moves: &[String]) -> Result<(), String>;
    /// Splits the words of a move list into moves (a move may take two words, as `ROW COL`).
    fn split_moves(&self, words: &[&str]) -> Result<Vec<String>, String>;
    /// The board as plain text (see [`Render::board_text`]).
    fn board_text(&self) -> String;
    /// The view (see [`Render::view`]), each move also as people write it.
    fn view(&self) -> View;
    /// The view after the first `ply` moves of the game (a past position, for review); None
    /// past the moves played.
    fn view_at(&self, ply: usize) -> Option<View>;
    /// The side that played each move since the start (a game with extra turns has runs of
    /// moves by one side).
    fn movers(&self) -> Vec<Side>;
    /// The board for people, `bottom`'s side nearest (see [`Render::board_picture`]).
    fn board_picture(&self, colour: bool, bottom: Side) -> String;
    /// The players' names (see [`Render::side_names`]).
    fn side_names(&self) -> [&'static str; 2];
    /// The evaluations a person may choose (see [`Render::evaluations`]).
    fn evaluations(&self) -> &'static [(&'static str, &'static str)];
    /// How people write moves (see [`Render::notation_help`]).
    fn notation_help(&self) -> String;
    /// Reads a move as people write it (see [`Render::parse_human`]) and returns its move text
    /// if it is legal now.
    fn parse_human(&self, text: &str) -> Result<String, MoveError>;
    /// A legal move's text (as [`AnyGame::legal_moves`] writes it) as people write it.
    fn human_move(&self, text: &str) -> String;
    /// The moves played since the start, as people write them.
    fn human_history(&self) -> Vec<String>;
    /// Why the game ended, in people's notation, once it is over.
    fn human_end_reason(&self) -> Option<String>;
    /// Plays `plies` random moves that neither end the game nor leave it a dead draw (fewer
    /// if there is none), from `seed`, and returns them.
    fn random_opening(&mut self, plies: usize, seed: u64) -> Vec<String>;
    /// Picks and plays the side to move's whole turn as `request` says; `searcher` is the
    /// search with its table, kept from move to move. The game must not be over.
    fn think(&mut self, searcher: &mut Searcher, rng: &mut SmallRng, request: &Request) -> Turn;
    fn clone_box(&self) -> Box<dyn AnyGame>;
    /// The position's hash (the search's: it includes whatever decides who moves).
    fn hash(&self) -> u64;
    /// Checks the rules' contract ([`super::contract`]) by `playouts` random games from this
    /// position, seeded by `seed`.
    fn check_rules(&self, seed: u64, playouts: usize) -> Result<super::contract::RulesReport, String>;
    /// Searches the position (not over) to `depth` moves with `algorithm`, from scratch (a
    /// fresh table of `hash_mb` MiB for the full search); the game is left as it was.
    fn analyze(&self, algorithm: Algorithm, depth: u32, hash_mb: usize) -> Analysis;
    /// The evaluation's weights by name (None: the game's evaluation has none).
    fn weights(&self) -> Option<Weights>;
    /// Sets the evaluation's weights `file` names (the others keep theirs); all or nothing. On a
    /// game just made, before it is copied (copies share its knowledge).
    fn set_weights(&mut self, file: &WeightFile) -> Result<(), String>;
    /// The position for a tuner (see [`Leaf`]); None when the game is over, or there is no
    /// quiet position to evaluate.
    fn tuning_position(&self, leaf: Leaf) -> Option<Box<dyn TunedPosition>>;
    /// Returns once the knowledge's background tables are ready ([`Knowledge::wait_until_ready`]).
    fn wait_until_ready(&self);
    /// The position in the game's FEN, for the games that have one ([`Render::fen`]).
    fn fen(&self) -> Option<String>;
}

impl Clone for Box<dyn AnyGame> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// The game of record, searched in place: if the search panics midway (the protocols catch the
/// panic and go on), it is rebuilt from its start and the moves played, as it was before.
struct Restore<'a, G: Game> {
    game: &'a mut G,
    start: &'a G,
    played: &'a [G::Move],
}

impl<G: Game> Drop for Restore<'_, G> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let mut game = self.start.clone();
            for &mv in self.played {
                game.play(mv);
            }
            *self.game = game;
        }
    }
}

/// A game of type `G` with its knowledge `K`, as an [`AnyGame`]. The knowledge is shared by
/// the clones (it holds tables kept from move to move).
pub struct Playing<G: Game, K> {
    spec: GameSpec,
    start: G,
    game: G,
    /// The moves from `start` to `game`.
    played: Vec<G::Move>,
    know: Arc<K>,
}

impl<G: Game, K> Clone for Playing<G, K> {
    fn clone(&self) -> Self {
        Playing {
            spec: self.spec.clone(),
            start: self.start.clone(),
            game: self.game.clone(),
            played: self.played.clone(),
            know: self.know.clone(),
        }
    }
}

impl<G, K> Playing<G, K>
where
    G: Render + Send + 'static,
    K: Knowledge<G> + Send + 'static,
{
    /// `game` (at its start) with `know`, described by `spec`.
    pub fn new(spec: GameSpec, game: G, know: K) -> Playing<G, K> {
        Playing { spec, start: game.clone(), game, played: Vec::new(), know: Arc::new(know) }
    }

    fn parse_legal(game: &G, text: &str) -> Result<G::Move, MoveError> {
        if game.outcome().is_some() {
            return Err(MoveError::Illegal("the game is over".into()));
        }
        let mv = game.parse_move(text).map_err(MoveError::Unreadable)?;
        if !game.is_legal(mv) {
            return Err(MoveError::Illegal(format!("illegal move '{}'", text.trim())));
        }
        Ok(mv)
    }

    /// One move for the side to move, the search's account of it, and the principal variation
    /// it found from that move (empty where there is no search).
    fn choose(
        &mut self,
        searcher: &mut Searcher,
        rng: &mut SmallRng,
        request: &Request,
    ) -> (G::Move, Option<Thought>, Vec<G::Move>) {
        let game = &mut self.game;
        let random = |game: &G, rng: &mut SmallRng| {
            let mut moves = Vec::new();
            game.legal_moves(&mut moves);
            *moves.choose(rng).expect("a game in progress has a legal move")
        };
        match request.player {
            Player::Random => (random(game, rng), None, Vec::new()),
            Player::Reference => {
                (self.know.reference_move(game, rng).unwrap_or_else(|| random(game, rng)), None, Vec::new())
            }
            Player::AlphaBeta(depth) => {
                let start = std::time::Instant::now();
                // Under the move's clock: the deepest depth finished in time (issue 39).
                let r = crate::search::plain::alpha_beta_within(
                    game,
                    self.know.as_ref(),
                    depth,
                    crate::search::plain::Order::Knowledge,
                    &request.limits,
                );
                let thought = Thought {
                    depth: r.depth,
                    score: r.score,
                    nodes: r.nodes,
                    elapsed: start.elapsed(),
                    proved: false,
                    words: game.score_words(r.score, false),
                    opinion: Some(game.opinion(r.score, false)),
                    algorithm: Some(Algorithm::AlphaBeta),
                    ..Thought::default()
                };
                (r.best.unwrap_or_else(|| random(game, rng)), Some(thought), Vec::new())
            }
            Player::Search if request.algorithm != Algorithm::Full => {
                let (mv, thought) = self.choose_textbook(rng, request);
                (mv, thought, Vec::new())
            }
            Player::Search if request.level < MAX_LEVEL => {
                let (mv, thought) = self.choose_at_level(searcher, rng, request);
                (mv, thought, Vec::new())
            }
            Player::Search => {
                let limits = Limits { max_depth: request.max_depth, ..request.limits.clone() };
                // The search plays and takes back its moves on the game of record itself: a copy
                // costs O(cells) a move (about 200 ms on 1000 x 1000, whatever the budget). If
                // the search panics midway, the guard puts the game back as it was.
                let guard = Restore { game: &mut self.game, start: &self.start, played: &self.played };
                let r = searcher.search_parallel(guard.game, self.know.as_ref(), &limits, request.threads);
                drop(guard);
                let game = &mut self.game;
                let source = match (r.depth, r.proved) {
                    (0, true) if r.score == crate::search::WIN - 1 => Source::WinsAtOnce,
                    (0, true) if game.in_book() => Source::Book,
                    (0, true) => Source::Solver,
                    (0, false) if r.nodes == 0 => Source::OnlyMove,
                    _ => Source::Search,
                };
                let mut score = r.score;
                if r.proved && r.depth > 0 && score.abs() >= WIN_BOUND && game.scores_margins() {
                    // The search proved the result by the distance to the end: the game's solver
                    // says it as a margin. The position is near its end (the search saw every
                    // line to it), so the solver is quick; it gets the move's time, and at least
                    // MARGIN_TIME on a machine so loaded that the time is gone.
                    let end = limits.hard.map_or(Instant::now() + MARGIN_TIME, |h| limits.start + h);
                    let deadline = end.max(Instant::now() + MARGIN_TIME);
                    match self.know.solve_exactly(game, deadline, limits.stop.as_deref()) {
                        Some(proof) => score = proof.score,
                        None => log::info!("the margin of a proved result is unknown: the solver did not finish"),
                    }
                }
                // Only the search's own statements: an only move or a first iteration cut
                // short says nothing of the position.
                let opinion = (r.depth > 0 || r.proved).then(|| game.opinion(score, r.proved));
                let thought = Thought {
                    depth: r.depth,
                    score,
                    nodes: r.nodes,
                    elapsed: r.elapsed,
                    proved: r.proved,
                    words: game.score_words(score, r.proved),
                    iterations: r.iterations,
                    source,
                    opinion,
                    algorithm: None,
                };
                let best = Self::equal_by_symmetry(game, r.best, rng);
                // The principal variation (the rest of a turn's moves) goes with the move searched.
                let pv = if best == r.best { r.pv } else { Vec::new() };
                (best, Some(thought), pv)
            }
        }
    }

    /// A move drawn at random among `best` and the moves equal to it by the board's symmetries
    /// (they lead to the same position up to a symmetry: their values are equal). A symmetric
    /// hash costs O(cells): with more than SYMMETRY_MOVES moves, or once SYMMETRY_TIME is spent
    /// (a huge board), `best` itself.
    fn equal_by_symmetry(game: &mut G, best: G::Move, rng: &mut SmallRng) -> G::Move {
        const SYMMETRY_MOVES: usize = 256;
        const SYMMETRY_TIME: Duration = Duration::from_millis(10);
        let begin = Instant::now();
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        if moves.len() > SYMMETRY_MOVES {
            return best;
        }
        let key = |game: &mut G, mv: G::Move| {
            game.play(mv);
            let key = (game.symmetric_hash(), game.to_move());
            game.undo();
            key
        };
        let target = key(game, best);
        let mut equal = Vec::new();
        for mv in moves {
            if begin.elapsed() > SYMMETRY_TIME {
                return best;
            }
            if mv == best || key(game, mv) == target {
                equal.push(mv);
            }
        }
        equal.choose(rng).copied().unwrap_or(best)
    }

    /// A move by a textbook algorithm (see [`Algorithm`]) with the evaluation asked for: depth
    /// by depth up to the request's cap, stopping before a depth whose search would likely end
    /// past the move's time (the last search's time times the last growth of its nodes).
    fn choose_textbook(&mut self, rng: &mut SmallRng, request: &Request) -> (G::Move, Option<Thought>) {
        let variant = request.algorithm.variant().expect("a textbook algorithm");
        let know = Evaluated { know: self.know.as_ref(), name: request.evaluation.as_deref() };
        let limits = &request.limits;
        let mut copy = self.game.clone();
        let mut done: Option<(crate::search::plain::Plain<G::Move>, u32)> = None;
        // Before the first depth's growth is known, the moves at the root stand for it.
        let mut root_moves = Vec::new();
        self.game.legal_moves(&mut root_moves);
        let mut last: Option<(u64, Duration, f64)> = None;
        for depth in 1..=request.max_depth.min(MAX_PLY as u32 - 1) {
            if let (Some(hard), Some((_, time, growth))) = (limits.hard, last) {
                if limits.elapsed() + time.mul_f64(growth.max(1.0)) > hard {
                    break;
                }
            }
            if limits.stop_requested() {
                break;
            }
            let begin = Instant::now();
            let r = crate::search::plain::search(&mut copy, &know, depth, variant);
            let time = begin.elapsed();
            let growth = last.map_or(root_moves.len() as f64, |(nodes, _, _)| r.nodes as f64 / nodes.max(1) as f64);
            last = Some((r.nodes, time, growth));
            let over = r.best.is_none() || r.score.abs() >= WIN_BOUND;
            done = Some((r, depth));
            if over {
                break;
            }
        }
        let game = &self.game;
        let Some((r, depth)) = done.filter(|(r, _)| r.best.is_some()) else {
            let mut moves = Vec::new();
            game.legal_moves(&mut moves);
            return (*moves.choose(rng).expect("a game in progress has a legal move"), None);
        };
        let thought = Thought {
            depth,
            score: r.score,
            nodes: r.nodes,
            elapsed: limits.elapsed(),
            proved: false,
            words: game.score_words(r.score, false),
            iterations: Vec::new(),
            source: Source::Search,
            opinion: Some(game.opinion(r.score, false)),
            algorithm: Some(request.algorithm),
        };
        (r.best.expect("checked"), Some(thought))
    }
}

/// The least time the game's solver gets to say a proved result as a margin (see
/// [`Render::scores_margins`]).
const MARGIN_TIME: Duration = Duration::from_millis(50);

/// A game's knowledge with the evaluation a person chose (by its name in
/// [`Render::evaluations`]), for the textbook algorithms (they use only the evaluation and the
/// move order).
struct Evaluated<'a, K> {
    know: &'a K,
    name: Option<&'a str>,
}

impl<G: Render, K: Knowledge<G>> Knowledge<G> for Evaluated<'_, K> {
    fn evaluate(&self, g: &G) -> Score {
        self.name.and_then(|name| g.evaluate_as(name)).unwrap_or_else(|| self.know.evaluate(g))
    }
    fn winning_move(&self, g: &G) -> Option<G::Move> {
        self.know.winning_move(g)
    }
    fn quiet(&self, g: &G) -> bool {
        self.know.quiet(g)
    }
    fn candidates(&self, g: &G, out: &mut Vec<Candidate<G::Move>>) -> bool {
        self.know.candidates(g, out)
    }
}

impl<G, K> Playing<G, K>
where
    G: Render + Send + 'static,
    K: Knowledge<G> + Send + 'static,
{
    /// A move at a level below the maximum (see [`MAX_LEVEL`]), within [`level_budget`].
    fn choose_at_level(
        &mut self,
        searcher: &mut Searcher,
        rng: &mut SmallRng,
        request: &Request,
    ) -> (G::Move, Option<Thought>) {
        let know = Shallow(self.know.as_ref());
        let game = &mut self.game;
        let me = game.to_move();
        let start = request.limits.start;
        if let Some(mv) = know.winning_move(game) {
            game.play(mv);
            let score = match game.outcome() {
                Some(Outcome::Win(side)) if side == me && game.scores_margins() => Self::final_margin(game, me),
                _ => crate::search::WIN - 1,
            };
            game.undo();
            let thought = Thought {
                score,
                elapsed: start.elapsed(),
                proved: true,
                words: game.score_words(score, true),
                source: Source::WinsAtOnce,
                opinion: Some(game.opinion(score, true)),
                ..Thought::default()
            };
            return (mv, Some(thought));
        }
        let mut candidates = Vec::new();
        know.candidates(game, &mut candidates);
        candidates.sort_by_key(|c| std::cmp::Reverse(c.score));
        let budget = level_budget(request.level, request.limits.hard);
        let depth = request.level.saturating_sub(1).min(request.max_depth);
        let (mut scored, mut nodes) = (Vec::new(), 0);
        for c in &candidates {
            if start.elapsed() >= budget && !scored.is_empty() {
                break;
            }
            game.play(c.mv);
            // Forced replies (a single legal move) are played out first: the search answers a
            // single move at once, without a score, and the score is what is wanted here.
            let mut forced = 0;
            let mut replies = Vec::new();
            while depth > 0 && forced < 8 && game.outcome().is_none() {
                replies.clear();
                game.legal_moves(&mut replies);
                if replies.len() != 1 {
                    break;
                }
                game.play(replies[0]);
                forced += 1;
            }
            let score = if game.outcome().is_some() || depth == 0 {
                match game.outcome() {
                    Some(Outcome::Win(_)) | Some(Outcome::Draw) if game.scores_margins() => {
                        Self::final_margin(game, me)
                    }
                    Some(Outcome::Win(side)) if side == me => crate::search::WIN - 1,
                    Some(Outcome::Win(_)) => -(crate::search::WIN - 1),
                    Some(Outcome::Draw) => 0,
                    None if game.to_move() == me => know.evaluate(game),
                    None => -know.evaluate(game),
                }
            } else {
                let limits =
                    Limits { max_depth: depth, hard: Some(budget), soft: None, start, ..request.limits.clone() };
                let r = searcher.search(game, &know, &limits);
                nodes += r.nodes;
                if game.to_move() == me {
                    r.score
                } else {
                    -r.score
                }
            };
            for _ in 0..=forced {
                game.undo();
            }
            scored.push((c.mv, score));
        }
        let best = scored.iter().map(|&(_, s)| s).max().expect("a game in progress has a candidate");
        let slack = level_slack(request.level, know.level_step());
        let near: Vec<G::Move> = scored
            .iter()
            .filter(|&&(_, s)| s >= best.saturating_sub(slack) && (s > -WIN_BOUND || best <= -WIN_BOUND))
            .map(|&(m, _)| m)
            .collect();
        let mv = *near.choose(rng).expect("the best move is near the best");
        // A win or a loss seen by so shallow a search is no proof of the game's value.
        let thought = Thought {
            depth,
            score: best,
            nodes,
            elapsed: start.elapsed(),
            proved: false,
            words: self.game.score_words(best, false),
            opinion: (depth > 0).then(|| self.game.opinion(best, false)),
            ..Thought::default()
        };
        (mv, Some(thought))
    }

    /// The score of a finished game for `side`, where the game scores margins (see
    /// [`Render::scores_margins`]): a proof's score for that margin.
    fn final_margin(game: &G, side: Side) -> Score {
        let margin = game.margin(side).unwrap_or(0);
        match margin {
            0 => 0,
            m if m > 0 => WIN_BOUND + m.min(200),
            m => -(WIN_BOUND + (-m).min(200)),
        }
    }
}

impl<G, K> AnyGame for Playing<G, K>
where
    G: Render + Send + 'static,
    K: Knowledge<G> + Send + 'static,
{
    fn spec(&self) -> &GameSpec {
        &self.spec
    }

    fn weights(&self) -> Option<Weights> {
        self.know.weights().cloned()
    }

    fn set_weights(&mut self, file: &WeightFile) -> Result<(), String> {
        if file.game != self.spec.name() {
            return Err(format!("the weights are for {}, not {}", file.game, self.spec.name()));
        }
        let mut weights =
            self.know.weights().cloned().ok_or_else(|| format!("{}'s evaluation has no weights", file.game))?;
        weights.apply(file)?;
        let know = Arc::get_mut(&mut self.know).ok_or("the weights are set on a game before it is copied")?;
        know.set_weights(&weights)
    }

    fn tuning_position(&self, leaf: Leaf) -> Option<Box<dyn TunedPosition>> {
        if self.game.outcome().is_some() {
            return None;
        }
        let game = match leaf {
            Leaf::Static => Some(self.game.clone()).filter(|g| self.know.quiet(g))?,
            Leaf::Quiescence => quiet_leaf(self.know.as_ref(), &mut self.game.clone(), LEAF_PLIES).1?,
        };
        Some(Box::new(Tuned { game, know: self.know.clone() }))
    }

    fn wait_until_ready(&self) {
        self.know.wait_until_ready();
    }

    fn fen(&self) -> Option<String> {
        self.game.fen()
    }

    fn to_move(&self) -> Side {
        self.game.to_move()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }

    fn end_reason(&self) -> Option<String> {
        self.game.outcome().and(self.game.end_reason())
    }

    fn is_dead_draw(&self) -> bool {
        self.game.is_dead_draw()
    }

    fn history(&self) -> Vec<String> {
        line_text(&self.start, &self.played, G::format_move)
    }

    fn legal_moves(&self) -> Vec<String> {
        let mut moves = Vec::new();
        self.game.legal_moves(&mut moves);
        moves.into_iter().map(|m| self.game.format_move(m)).collect()
    }

    fn play(&mut self, text: &str) -> Result<(), MoveError> {
        let mv = Self::parse_legal(&self.game, text)?;
        self.game.play(mv);
        self.played.push(mv);
        Ok(())
    }

    fn undo(&mut self) -> bool {
        if self.played.pop().is_none() {
            return false;
        }
        self.game.undo();
        true
    }

    fn set_moves(&mut self, moves: &[String]) -> Result<(), String> {
        let mut game = self.start.clone();
        let mut played = Vec::with_capacity(moves.len());
        for (i, text) in moves.iter().enumerate() {
            let mv = Self::parse_legal(&game, text).map_err(|e| format!("move {}: {e}", i + 1))?;
            game.play(mv);
            played.push(mv);
        }
        self.game = game;
        self.played = played;
        Ok(())
    }

    fn split_moves(&self, words: &[&str]) -> Result<Vec<String>, String> {
        let mut out = Vec::new();
        let mut i = 0;
        // A move of two words is written as the engine writes it (`16 5`, not `16, 5`).
        let written = |pair: &String| self.game.parse_move(pair).is_ok_and(|m| self.game.format_move(m) == *pair);
        while i < words.len() {
            let pair = words.get(i + 1).map(|next| format!("{} {next}", words[i]));
            if self.game.parse_move(words[i]).is_ok() {
                out.push(words[i].to_string());
                i += 1;
            } else if let Some(pair) = pair.filter(written) {
                out.push(pair);
                i += 2;
            } else {
                return Err(format!("cannot read a move at '{}'", words[i..].join(" ")));
            }
        }
        Ok(out)
    }

    fn board_text(&self) -> String {
        self.game.board_text()
    }

    fn view(&self) -> View {
        with_human_moves(&self.game, self.game.view())
    }

    fn view_at(&self, ply: usize) -> Option<View> {
        if ply > self.played.len() {
            return None;
        }
        let mut g = self.start.clone();
        for &mv in &self.played[..ply] {
            g.play(mv);
        }
        Some(with_human_moves(&g, g.view()))
    }

    fn movers(&self) -> Vec<Side> {
        let mut g = self.start.clone();
        let mut sides = Vec::with_capacity(self.played.len());
        for &mv in &self.played {
            sides.push(g.to_move());
            g.play(mv);
        }
        sides
    }

    fn board_picture(&self, colour: bool, bottom: Side) -> String {
        self.game.board_picture(colour, bottom)
    }

    fn side_names(&self) -> [&'static str; 2] {
        self.game.side_names()
    }

    fn evaluations(&self) -> &'static [(&'static str, &'static str)] {
        self.game.evaluations()
    }

    fn notation_help(&self) -> String {
        self.game.notation_help()
    }

    fn parse_human(&self, text: &str) -> Result<String, MoveError> {
        if self.game.outcome().is_some() {
            return Err(MoveError::Illegal("the game is over".into()));
        }
        let text = text.trim();
        let mv = self.game.parse_human(text).map_err(MoveError::Unreadable)?;
        if !self.game.is_legal(mv) {
            return Err(MoveError::Illegal(format!("'{text}' cannot be played now")));
        }
        Ok(self.game.format_move(mv))
    }

    fn human_move(&self, text: &str) -> String {
        match self.game.parse_move(text) {
            Ok(mv) => self.game.human_move(mv),
            Err(_) => text.to_string(),
        }
    }

    fn human_history(&self) -> Vec<String> {
        line_text(&self.start, &self.played, G::human_move)
    }

    fn human_end_reason(&self) -> Option<String> {
        self.game.outcome().and(self.game.human_end_reason())
    }

    fn random_opening(&mut self, plies: usize, seed: u64) -> Vec<String> {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut opening = Vec::with_capacity(plies);
        let mut moves = Vec::new();
        let game = &mut self.game;
        while opening.len() < plies {
            moves.clear();
            game.legal_moves(&mut moves);
            moves.shuffle(&mut rng);
            let quiet = moves.iter().copied().find(|&mv| {
                game.play(mv);
                let quiet = game.outcome().is_none() && !game.is_dead_draw();
                game.undo();
                quiet
            });
            let Some(mv) = quiet else { break };
            opening.push(game.format_move(mv));
            game.play(mv);
            self.played.push(mv);
        }
        opening
    }

    /// A turn is one decision: where the same side moves again (an extra turn), the moves after
    /// the first come from the search's principal variation while that side stays to move; only
    /// where the variation ends first is the rest searched, in the time left.
    fn think(&mut self, searcher: &mut Searcher, rng: &mut SmallRng, request: &Request) -> Turn {
        let me = self.game.to_move();
        let mut turn = Turn::default();
        let mut planned = Vec::new().into_iter();
        loop {
            let mv = match planned.next().filter(|&m| self.game.is_legal(m)) {
                Some(mv) => mv,
                None => {
                    let (mv, thought, pv) = self.choose(searcher, rng, request);
                    let rest = if pv.first() == Some(&mv) { pv[1..].to_vec() } else { Vec::new() };
                    planned = rest.into_iter();
                    if turn.thought.is_none() {
                        turn.thought = thought;
                    }
                    mv
                }
            };
            turn.moves.push(self.game.format_move(mv));
            self.game.play(mv);
            self.played.push(mv);
            if self.game.outcome().is_some() || self.game.to_move() != me {
                return turn;
            }
        }
    }

    fn clone_box(&self) -> Box<dyn AnyGame> {
        Box::new(self.clone())
    }

    fn hash(&self) -> u64 {
        self.game.hash()
    }

    fn check_rules(&self, seed: u64, playouts: usize) -> Result<super::contract::RulesReport, String> {
        super::contract::check_rules(&self.game, seed, playouts)
    }

    fn analyze(&self, algorithm: Algorithm, depth: u32, hash_mb: usize) -> Analysis {
        let mut copy = self.game.clone();
        let (score, pv, nodes, proved, elapsed) = match algorithm.variant() {
            Some(variant) => {
                let start = std::time::Instant::now();
                let r = crate::search::plain::search(&mut copy, self.know.as_ref(), depth, variant);
                (r.score, r.pv, r.nodes, false, start.elapsed())
            }
            None => {
                // The search's own time: the table's allocation is left out.
                let mut searcher = Searcher::new(hash_mb);
                let r = searcher.search(&mut copy, self.know.as_ref(), &Limits::depth(depth));
                (r.score, r.pv, r.nodes, r.proved, r.elapsed)
            }
        };
        let text = line_text(&self.game, &pv, G::format_move);
        Analysis {
            score,
            words: self.game.score_words(score, proved),
            best: text.first().cloned(),
            pv: text,
            nodes,
            elapsed,
        }
    }
}

/// `view` of `game` with each move also as people write it.
fn with_human_moves<G: Render>(game: &G, mut view: View) -> View {
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
    use crate::game::registry::Resources;

    fn game(spec: &str) -> Box<dyn AnyGame> {
        GameSpec::parse(spec).unwrap().new_game(&Resources::none()).unwrap()
    }

    /// A turn with extra turns is one decision: its moves are the search's principal variation
    /// while the same side moves (Kalah, issue 45: the later moves of a chain used to get a
    /// search of their own each, with what was left of the time). Fixed depth: no clock.
    #[test]
    fn a_turn_of_extra_turns_follows_one_search() {
        let spec = GameSpec::parse("kalah 7 7 capture standard pie").unwrap();
        let moves: Vec<String> = "7 7 3 5 7 1 7 2 2 4 3 5 6 6 5 7 6 1".split(' ').map(String::from).collect();
        let depth = 12;
        let mut g = spec.new_game(&Resources::none()).unwrap();
        g.set_moves(&moves).unwrap();
        let request = Request {
            player: Player::Search,
            level: MAX_LEVEL,
            max_depth: depth,
            threads: 1,
            limits: Limits::depth(depth),
            algorithm: Algorithm::Full,
            evaluation: None,
        };
        let turn = g.think(&mut Searcher::new(16), &mut SmallRng::seed_from_u64(0), &request);
        // One search of the same position with a fresh table, as `think` began.
        let mut again = spec.new_game(&Resources::none()).unwrap();
        again.set_moves(&moves).unwrap();
        let pv = again.analyze(Algorithm::Full, depth, 16).pv;
        let n = turn.moves.len().min(pv.len());
        assert!(n >= 3, "a chain of extra turns: {:?}, pv {pv:?}", turn.moves);
        assert_eq!(turn.moves[..n], pv[..n], "the turn against the search's variation");
    }

    #[test]
    fn moves_as_people_write_them() {
        let mut g = game("mnk 3 4 3");
        assert_eq!(g.parse_human("c2"), Ok("1 2".to_string()));
        assert_eq!(g.parse_human(" D3 "), Ok("2 3".to_string()));
        assert_eq!(g.parse_human("1,2"), Ok("1 2".to_string()));
        assert_eq!(g.parse_human("1 2"), Ok("1 2".to_string()));
        for bad in ["e1", "a4", "a0", "z", "12", "b2b"] {
            assert!(matches!(g.parse_human(bad), Err(MoveError::Unreadable(_))), "{bad}");
        }
        g.play("1 2").unwrap();
        assert!(matches!(g.parse_human("c2"), Err(MoveError::Illegal(_))));
        assert_eq!(g.human_move("2 3"), "d3");
        assert_eq!(g.human_history(), ["c2"]);
        assert!(g.board_picture(false, Side::First).starts_with("   a  b  c  d\n1  .  .  .  .\n2  .  . [X] .\n"));
        assert!(g.board_picture(true, Side::First).contains('\x1b'));
        for mv in ["0 0", "1 1", "0 1", "1 3"] {
            g.play(mv).unwrap();
        }
        let reason = g.human_end_reason().unwrap();
        assert!(reason.starts_with("X has 3 in a row: "), "{reason}");
        assert!(["b2", "c2", "d2"].iter().all(|c| reason.contains(c)), "{reason}");

        let mut g = game("cx 6 7 4");
        assert_eq!(g.parse_human("4"), Ok("3".to_string()));
        assert!(g.parse_human("0").is_err() && g.parse_human("8").is_err() && g.parse_human("a").is_err());
        for mv in ["0", "6", "1", "6", "2", "6", "3"] {
            g.play(mv).unwrap();
        }
        assert_eq!(g.human_history().join(" "), "1 7 2 7 3 7 4");
        assert_eq!(g.human_end_reason().as_deref(), Some("X has 4 in a row: 1/1 2/1 3/1 4/1"));
    }

    #[test]
    fn every_level_answers_within_a_second() {
        for level in 1..MAX_LEVEL {
            for hard in [None, Some(Duration::from_millis(100)), Some(Duration::from_secs(60))] {
                let budget = level_budget(level, hard);
                assert!(budget < Duration::from_secs(1) && budget <= hard.unwrap_or(budget), "{level} {hard:?}");
            }
        }
        assert_eq!(level_budget(7, Some(Duration::from_secs(60))), Duration::from_millis(560));
    }

    #[test]
    fn max_draws_among_the_moves_equal_by_symmetry() {
        let replies: std::collections::HashSet<String> = (0..12)
            .map(|seed| {
                let mut g = game("mnk 3 3 3");
                g.play("1 1").unwrap();
                let request = Request {
                    player: Player::Search,
                    level: MAX_LEVEL,
                    max_depth: u32::MAX,
                    threads: 1,
                    limits: Limits::per_move(Instant::now(), Duration::from_millis(500), Duration::ZERO),
                    algorithm: Algorithm::Full,
                    evaluation: None,
                };
                g.think(&mut Searcher::new(1), &mut SmallRng::seed_from_u64(seed), &request).moves[0].clone()
            })
            .collect();
        // The corners are the answers to the centre (an edge loses); any of them.
        assert!(replies.iter().all(|m| ["0 0", "0 2", "2 0", "2 2"].contains(&m.as_str())), "{replies:?}");
        assert!(replies.len() > 1, "{replies:?}");
    }
}
