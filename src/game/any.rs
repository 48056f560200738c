//! A game in progress of any kind, seen through text: [`AnyGame`] is what the protocol, the
//! referee and the user interfaces hold. They never learn which game it is; each game gives its
//! rules ([`Game`]), its pictures ([`Render`]) and its knowledge ([`Knowledge`]), and
//! [`Playing`] joins them into one object.

use super::registry::GameSpec;
use crate::search::{
    score_text, Candidate, Game, Knowledge, Limits, Outcome, Score, SearchInfo, Searcher, Side, WIN_BOUND,
};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use serde::Serialize;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

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
    /// last move and the winning line marked; with ANSI colours if `colour`. By default the
    /// board text.
    fn board_picture(&self, colour: bool) -> String {
        let _ = colour;
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
}

/// A game-neutral picture of a position for a web page: a grid of cells, each with what it
/// holds and the key a click on it sends.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct View {
    pub rows: usize,
    pub cols: usize,
    /// Row-major, `rows * cols` cells.
    pub cells: Vec<ViewCell>,
    /// For each legal move, its text and the keys of the cells a person clicks to make it, in
    /// order (one key for a stone or a column; several for a path; none for a move no cell
    /// stands for, as Kalah's swap: the page gives it a button).
    pub moves: Vec<ViewMove>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ViewCell {
    /// What the cell holds: "" empty, "X"/"O" the first/second player's piece (games may use
    /// other short words, e.g. a count of seeds), "#" a cell out of play.
    pub content: String,
    /// The key a click on the cell sends (cells of one Connect-X column share one), if any.
    pub key: Option<String>,
    /// Part of the last move or of the winning line.
    pub marked: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ViewMove {
    pub text: String,
    pub keys: Vec<String>,
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

/// A search algorithm `boardbot analyze` compares (src/search/plain.rs for the textbook ones).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// Negamax over every move, no pruning.
    Minimax,
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
    pub const ALL: [Algorithm; 6] = [
        Algorithm::Minimax,
        Algorithm::AlphaBeta,
        Algorithm::Ordered,
        Algorithm::Table,
        Algorithm::Symmetric,
        Algorithm::Full,
    ];
    /// The name the command line takes.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Minimax => "minimax",
            Algorithm::AlphaBeta => "alphabeta",
            Algorithm::Ordered => "ordered",
            Algorithm::Table => "table",
            Algorithm::Symmetric => "symmetric",
            Algorithm::Full => "full",
        }
    }
    fn variant(self) -> Option<crate::search::plain::Variant> {
        use crate::search::plain::Variant;
        match self {
            Algorithm::Minimax => Some(Variant::MINIMAX),
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
        let names: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
        Algorithm::ALL
            .into_iter()
            .find(|a| a.name().eq_ignore_ascii_case(s))
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
/// cap (`u32::MAX`: none) and its threads, and the clock.
#[derive(Clone, Debug)]
pub struct Request {
    pub player: Player,
    pub level: u32,
    pub max_depth: u32,
    pub threads: usize,
    pub limits: Limits,
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
    fn view(&self) -> View;
    /// The board for people (see [`Render::board_picture`]).
    fn board_picture(&self, colour: bool) -> String;
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

    /// One move for the side to move, and the search's account of it.
    fn choose(&mut self, searcher: &mut Searcher, rng: &mut SmallRng, request: &Request) -> (G::Move, Option<Thought>) {
        let game = &mut self.game;
        let random = |game: &G, rng: &mut SmallRng| {
            let mut moves = Vec::new();
            game.legal_moves(&mut moves);
            *moves.choose(rng).expect("a game in progress has a legal move")
        };
        match request.player {
            Player::Random => (random(game, rng), None),
            Player::Reference => (self.know.reference_move(game, rng).unwrap_or_else(|| random(game, rng)), None),
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
                    iterations: Vec::new(),
                };
                (r.best.unwrap_or_else(|| random(game, rng)), Some(thought))
            }
            Player::Search if request.level < MAX_LEVEL => self.choose_at_level(searcher, rng, request),
            Player::Search => {
                let limits = Limits { max_depth: request.max_depth, ..request.limits.clone() };
                // The search plays and takes back its moves on the game of record itself: a copy
                // costs O(cells) a move (about 200 ms on 1000 x 1000, whatever the budget). If
                // the search panics midway, the guard puts the game back as it was.
                let guard = Restore { game: &mut self.game, start: &self.start, played: &self.played };
                let r = searcher.search_parallel(guard.game, self.know.as_ref(), &limits, request.threads);
                let game = &*guard.game;
                let thought = Thought {
                    depth: r.depth,
                    score: r.score,
                    nodes: r.nodes,
                    elapsed: r.elapsed,
                    proved: r.proved,
                    words: game.score_words(r.score, r.proved),
                    iterations: r.iterations,
                };
                (r.best, Some(thought))
            }
        }
    }
}

impl<G, K> Playing<G, K>
where
    G: Render + Send + 'static,
    K: Knowledge<G> + Send + 'static,
{
    /// A move at a level below the maximum (see [`MAX_LEVEL`]).
    fn choose_at_level(
        &mut self,
        searcher: &mut Searcher,
        rng: &mut SmallRng,
        request: &Request,
    ) -> (G::Move, Option<Thought>) {
        let know = Shallow(self.know.as_ref());
        let game = &mut self.game;
        let me = game.to_move();
        if let Some(mv) = know.winning_move(game) {
            return (mv, None);
        }
        let mut candidates = Vec::new();
        know.candidates(game, &mut candidates);
        candidates.sort_by_key(|c| std::cmp::Reverse(c.score));
        let start = request.limits.start;
        let budget = request.limits.hard.map(|h| h.mul_f64(request.level as f64 / MAX_LEVEL as f64));
        let depth = request.level.saturating_sub(1).min(request.max_depth);
        let (mut scored, mut nodes) = (Vec::new(), 0);
        for c in &candidates {
            if budget.is_some_and(|b| start.elapsed() >= b) && !scored.is_empty() {
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
                    Some(Outcome::Win(side)) if side == me => crate::search::WIN - 1,
                    Some(Outcome::Win(_)) => -(crate::search::WIN - 1),
                    Some(Outcome::Draw) => 0,
                    None if game.to_move() == me => know.evaluate(game),
                    None => -know.evaluate(game),
                }
            } else {
                let limits = Limits { max_depth: depth, hard: budget, soft: None, start, ..request.limits.clone() };
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
        let thought = Thought {
            depth,
            score: best,
            nodes,
            elapsed: start.elapsed(),
            proved: false,
            words: self.game.score_words(best, false),
            iterations: Vec::new(),
        };
        (mv, Some(thought))
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
        self.game.view()
    }

    fn board_picture(&self, colour: bool) -> String {
        self.game.board_picture(colour)
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

    fn think(&mut self, searcher: &mut Searcher, rng: &mut SmallRng, request: &Request) -> Turn {
        let me = self.game.to_move();
        let mut turn = Turn::default();
        loop {
            let (mv, thought) = self.choose(searcher, rng, request);
            turn.moves.push(self.game.format_move(mv));
            self.game.play(mv);
            self.played.push(mv);
            if turn.thought.is_none() {
                turn.thought = thought;
            }
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
        assert!(g.board_picture(false).starts_with("   a  b  c  d\n1  .  .  .  .\n2  .  . [X] .\n"));
        assert!(g.board_picture(true).contains('\x1b'));
        for mv in ["0 0", "1 1", "0 1", "1 3"] {
            g.play(mv).unwrap();
        }
        let reason = g.human_end_reason().unwrap();
        assert!(reason.starts_with("first player has 3 in a row: "), "{reason}");
        assert!(["b2", "c2", "d2"].iter().all(|c| reason.contains(c)), "{reason}");

        let mut g = game("cx 6 7 4");
        assert_eq!(g.parse_human("4"), Ok("3".to_string()));
        assert!(g.parse_human("0").is_err() && g.parse_human("8").is_err() && g.parse_human("a").is_err());
        for mv in ["0", "6", "1", "6", "2", "6", "3"] {
            g.play(mv).unwrap();
        }
        assert_eq!(g.human_history().join(" "), "1 7 2 7 3 7 4");
        assert_eq!(g.human_end_reason().as_deref(), Some("first player has 4 in a row: 1/1 2/1 3/1 4/1"));
    }
}
