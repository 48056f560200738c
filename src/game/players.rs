//! How the engine picks a move: what is an engine decision, not the game's interface. The
//! players ([`Player`]: the search, random, the courses' reference player, a fixed-depth
//! alpha-beta), the textbook [`Algorithm`]s a person may choose, the levels below full strength
//! ([`MAX_LEVEL`]), a move [`Request`], and the account of the move for people and logs
//! ([`Thought`], [`Turn`]). [`Chooser`] carries out a request on a game of record with its
//! knowledge.
//!
//! The contract: a request is answered with a legal move of a game not over, within the
//! request's clock (a level below the maximum within [`level_budget`]); the game of record is
//! left as it was, even if the search panics midway ([`Restore`]). It needs the rules, the
//! pictures ([`Render`]: scores in words, margins) and the search; it knows nothing of the
//! object-safe interface above it.

use super::render::{Opinion, Render};
use crate::search::{
    score_text, Candidate, Game, Knowledge, Limits, Outcome, RootKnowledge, Score, SearchInfo, Searcher, Side, MAX_PLY,
    WIN_BOUND,
};
use anyhow::{anyhow, Result};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

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
    type Err = anyhow::Error;
    fn from_str(s: &str) -> Result<Self> {
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
                    anyhow!("unknown player '{s}' (search, random, l1, greedy or abN: alpha-beta to N moves)")
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
    pub(super) fn variant(self) -> Option<crate::search::plain::Variant> {
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
    type Err = anyhow::Error;
    fn from_str(s: &str) -> Result<Self> {
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
            .ok_or_else(|| anyhow!("unknown algorithm '{s}' ({})", names.join(", ")))
    }
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

/// Where the engine's move came from (decided by the search's root policy).
pub use crate::search::Source;

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

/// A move chosen for the side to move and why: the account of it ([`Thought`]: its score,
/// whether the score is proved, its [`Source`]: a search, the book, the solver, a win at once, the
/// only move) and the principal variation from it. The page, the terminal and the logs read the
/// account as it comes with the move.
#[derive(Clone, Debug)]
pub struct Choice<M> {
    pub mv: M,
    /// None where no search chose the move (the random and reference players).
    pub thought: Option<Thought>,
    /// The principal variation from `mv` (empty where there is none).
    pub pv: Vec<M>,
}

impl<M> Choice<M> {
    /// A move with no account: a random or reference player's.
    pub fn bare(mv: M) -> Choice<M> {
        Choice { mv, thought: None, pv: Vec::new() }
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

impl Request {
    /// The engine at full strength (the search, every level and depth, one thread, the game's
    /// own evaluation) under `limits`.
    pub fn full_strength(limits: Limits) -> Request {
        Request {
            player: Player::Search,
            level: MAX_LEVEL,
            max_depth: u32::MAX,
            threads: 1,
            limits,
            algorithm: Algorithm::Full,
            evaluation: None,
        }
    }
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
/// ordering, tactics: its [`Knowledge`]) without its quiescence threats, and none of its
/// [`RootKnowledge`] (exact solvers, threat searches, book).
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
    fn searched_past_horizon(&self, g: &G, mv: G::Move) -> bool {
        self.0.searched_past_horizon(g, mv)
    }
    fn known_value(&self, g: &G) -> Option<Score> {
        self.0.known_value(g)
    }
    fn selectivity(&self, g: &G) -> crate::search::Selectivity {
        self.0.selectivity(g)
    }
    fn tactical(&self, g: &G, mv: G::Move) -> bool {
        self.0.tactical(g, mv)
    }
    fn null_move(&self, g: &G) -> Option<G::Move> {
        self.0.null_move(g)
    }
}

/// No exact solver, book or threat search: every default of [`RootKnowledge`].
impl<G: Game, K: Knowledge<G>> RootKnowledge<G> for Shallow<'_, K> {}

/// A whole turn the engine played: its moves (more than one where the game gives extra
/// turns) and, from the search, what it thought.
#[derive(Clone, Debug, Default)]
pub struct Turn {
    pub moves: Vec<String>,
    pub thought: Option<Thought>,
}

/// The game of record, searched in place: if the search panics midway (the protocols catch the
/// panic and go on), it is rebuilt from its start and the moves played, as it was before.
pub(super) struct Restore<'a, G: Game> {
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

/// A request carried out on a game of record (`game`, reached from `start` by `played`) with its
/// knowledge: the search plays and takes back its moves on `game` itself.
pub struct Chooser<'a, G: Game, K> {
    pub game: &'a mut G,
    pub start: &'a G,
    pub played: &'a [G::Move],
    pub know: &'a K,
}

impl<G, K> Chooser<'_, G, K>
where
    G: Render + Send + 'static,
    K: RootKnowledge<G> + Send + 'static,
{
    /// One move for the side to move, with why it was chosen (see [`Choice`]).
    pub fn choose(&mut self, searcher: &mut Searcher, rng: &mut SmallRng, request: &Request) -> Choice<G::Move> {
        let game = &mut *self.game;
        let random = |game: &G, rng: &mut SmallRng| {
            let mut moves = Vec::new();
            game.legal_moves(&mut moves);
            *moves.choose(rng).expect("a game in progress has a legal move")
        };
        match request.player {
            Player::Random => Choice::bare(random(game, rng)),
            Player::Reference => Choice::bare(self.know.reference_move(game, rng).unwrap_or_else(|| random(game, rng))),
            Player::AlphaBeta(depth) => {
                let start = std::time::Instant::now();
                // Under the move's clock: the deepest depth finished in time (issue 39).
                let r = crate::search::plain::alpha_beta_within(
                    game,
                    self.know,
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
                    // A win or loss a full-width search found is proved.
                    opinion: Some(game.opinion(r.score, r.score.abs() > WIN_BOUND)),
                    algorithm: Some(Algorithm::AlphaBeta),
                    ..Thought::default()
                };
                Choice { mv: r.best.unwrap_or_else(|| random(game, rng)), thought: Some(thought), pv: Vec::new() }
            }
            Player::Search if request.algorithm != Algorithm::Full => {
                let (mv, thought) = self.choose_textbook(rng, request);
                Choice { mv, thought, pv: Vec::new() }
            }
            Player::Search if request.level < MAX_LEVEL => {
                let (mv, thought) = self.choose_at_level(searcher, rng, request);
                Choice { mv, thought, pv: Vec::new() }
            }
            Player::Search => {
                let limits = Limits { max_depth: request.max_depth, ..request.limits.clone() };
                // The search plays and takes back its moves on the game of record itself: a copy
                // costs O(cells) a move (about 200 ms on 1000 x 1000, whatever the budget). If
                // the search panics midway, the guard puts the game back as it was.
                let guard = Restore { game: &mut *self.game, start: self.start, played: self.played };
                let r = searcher.search_parallel(guard.game, self.know, &limits, request.threads);
                drop(guard);
                let game = &mut *self.game;
                let source = r.source;
                let mut score = r.score;
                let mut searched = r.best;
                if r.proved && r.depth > 0 && score.abs() >= WIN_BOUND && game.scores_margins() {
                    // The search proved the result by the distance to the end: the game's solver
                    // says it as a margin. The position is near its end (the search saw every
                    // line to it), so the solver is quick; it gets the move's time, and at least
                    // MARGIN_TIME on a machine so loaded that the time is gone.
                    let end = limits.hard.map_or(Instant::now() + MARGIN_TIME, |h| limits.start + h);
                    let deadline = end.max(Instant::now() + MARGIN_TIME);
                    match self.know.solve_exactly(game, deadline, limits.stop.as_deref()) {
                        Some(proof) => {
                            score = proof.score;
                            // The game scores the margin: the search's proof is by the distance
                            // to the end, so its move may give seeds away; the solver's keep the
                            // best margin (the smallest loss, the largest win).
                            if !proof.moves.is_empty() && !proof.moves.contains(&searched) {
                                log::info!(
                                    "the search's {} does not keep the margin: {} does",
                                    game.format_move(searched),
                                    game.format_move(proof.moves[0])
                                );
                                searched = proof.moves[0];
                            }
                        }
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
                let best = Self::equal_by_symmetry(game, searched, rng);
                // The principal variation (the rest of a turn's moves) goes with the move searched.
                let pv = if best == r.best { r.pv } else { Vec::new() };
                Choice { mv: best, thought: Some(thought), pv }
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
        let know = Evaluated { know: self.know, name: request.evaluation.as_deref() };
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
        let game = &*self.game;
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
            // A win or loss a full-width search found is proved.
            opinion: Some(game.opinion(r.score, r.score.abs() > WIN_BOUND)),
            algorithm: Some(request.algorithm),
        };
        (r.best.expect("checked"), Some(thought))
    }

    /// A move at a level below the maximum (see [`MAX_LEVEL`]), within [`level_budget`].
    fn choose_at_level(
        &mut self,
        searcher: &mut Searcher,
        rng: &mut SmallRng,
        request: &Request,
    ) -> (G::Move, Option<Thought>) {
        let know = Shallow(self.know);
        let game = &mut *self.game;
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
        let slack = level_slack(request.level, self.know.level_step());
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
