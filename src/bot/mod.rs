//! A playing engine: one game in progress plus the player that picks its moves (the search, or
//! a built-in reference player), behind an interface that speaks move text only. The protocol
//! drives an [`Engine`] and knows nothing of game types or search internals.

pub mod players;

use crate::game::connectx::solver::Table as SolverTable;
use crate::game::connectx::ConnectX;
use crate::game::mnk::Mnk;
use crate::game::{Game, Outcome, Side};
use crate::search::{Limits, Searchable, Searcher};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::fmt;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Which game, and its board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameSpec {
    /// M rows, N columns, K in a row, blocked cells (row, col).
    Mnk { rows: usize, cols: usize, k: usize, blocked: Vec<(usize, usize)> },
    /// M rows, N columns, X in a row, with gravity.
    ConnectX { rows: usize, cols: usize, x: usize },
}

impl fmt::Display for GameSpec {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            GameSpec::Mnk { rows, cols, k, .. } => write!(f, "mnk {rows} {cols} {k}"),
            GameSpec::ConnectX { rows, cols, x } => write!(f, "cx {rows} {cols} {x}"),
        }
    }
}

/// How the engine picks its moves.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PlayerKind {
    Search,
    Random,
    L1,
}

impl FromStr for PlayerKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "search" | "bot" | "boardbot" => Ok(PlayerKind::Search),
            "random" => Ok(PlayerKind::Random),
            "l1" => Ok(PlayerKind::L1),
            _ => Err(format!("unknown player '{s}' (search, random, l1)")),
        }
    }
}

/// Engine options, settable from the command line and with `set KEY VALUE`.
#[derive(Clone, Debug)]
pub struct Options {
    /// Kept free of each move's time budget for I/O, scheduling and the referee's own overhead.
    pub margin: Duration,
    pub hash_mb: usize,
    pub threads: usize,
    /// 1..=10; 10 is full strength, below that the search depth is capped at `level` plies.
    pub level: u32,
    pub seed: u64,
    pub player: PlayerKind,
}

/// Default safety margin: protocol.md ("Time") gives the measurements behind it.
pub const DEFAULT_MARGIN_MS: u64 = 300;
pub const DEFAULT_HASH_MB: usize = 64;
pub const MAX_HASH_MB: usize = 16 * 1024;

impl Default for Options {
    fn default() -> Self {
        Options {
            margin: Duration::from_millis(DEFAULT_MARGIN_MS),
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
            level: 10,
            seed: 0,
            player: PlayerKind::Search,
        }
    }
}

impl Options {
    /// Sets one option by name; the value text is checked first, nothing changes on error.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        let num = |v: &str| v.parse::<u64>().map_err(|_| format!("'{v}' is not a whole number"));
        match key.to_ascii_lowercase().as_str() {
            "margin" | "margin_ms" => self.margin = Duration::from_millis(num(value)?),
            "hash" | "hash_mb" => {
                let mb = num(value)? as usize;
                if !(1..=MAX_HASH_MB).contains(&mb) {
                    return Err(format!("hash must be 1..={MAX_HASH_MB} MB"));
                }
                self.hash_mb = mb;
            }
            "threads" => {
                let t = num(value)? as usize;
                if !(1..=256).contains(&t) {
                    return Err("threads must be 1..=256".into());
                }
                self.threads = t;
            }
            "level" => {
                let l = num(value)? as u32;
                if !(1..=10).contains(&l) {
                    return Err("level must be 1..=10".into());
                }
                self.level = l;
            }
            "seed" => self.seed = num(value)?,
            "player" => self.player = value.parse()?,
            _ => return Err(format!("unknown option '{key}' (margin, hash, threads, level, seed, player)")),
        }
        Ok(())
    }
}

/// A game in progress, of any type, seen through move text.
trait Table {
    fn play_text(&mut self, text: &str) -> Result<(), String>;
    fn replace_with(&mut self, moves: &[String]) -> Result<(), String>;
    fn choose(&mut self, searcher: &mut Searcher, rng: &mut SmallRng, options: &Options, limits: Limits) -> String;
    fn to_move(&self) -> Side;
    fn outcome(&self) -> Option<Outcome>;
    /// Splits the text of a move list into moves.
    fn split_moves(&self, words: &[&str]) -> Result<Vec<String>, String>;
}

struct TableOf<G: Searchable> {
    start: G,
    game: G,
}

impl<G: Searchable> TableOf<G> {
    fn parse_legal(&self, game: &G, text: &str) -> Result<G::Move, String> {
        if game.outcome().is_some() {
            return Err("the game is over".into());
        }
        let mv = game.parse_move(text)?;
        if !game.is_legal(mv) {
            return Err(format!("illegal move '{}'", text.trim()));
        }
        Ok(mv)
    }
}

impl<G: Searchable + Send> Table for TableOf<G> {
    fn play_text(&mut self, text: &str) -> Result<(), String> {
        let mv = self.parse_legal(&self.game, text)?;
        self.game.play(mv);
        Ok(())
    }

    fn replace_with(&mut self, moves: &[String]) -> Result<(), String> {
        let mut game = self.start.clone();
        for (i, text) in moves.iter().enumerate() {
            let mv = self.parse_legal(&game, text).map_err(|e| format!("move {}: {e}", i + 1))?;
            game.play(mv);
        }
        self.game = game;
        Ok(())
    }

    fn choose(&mut self, searcher: &mut Searcher, rng: &mut SmallRng, options: &Options, limits: Limits) -> String {
        // Search a copy: whatever happens inside, the game of record stays as it was.
        let mut game = self.game.clone();
        let mv = match options.player {
            PlayerKind::Random => players::random_move(&game, rng),
            PlayerKind::L1 => players::l1_move(&mut game, rng),
            PlayerKind::Search => {
                let limits = Limits { max_depth: if options.level >= 10 { u32::MAX } else { options.level }, ..limits };
                Some(searcher.search_parallel(&mut game, &limits, options.threads).best)
            }
        }
        .expect("a game in progress has a legal move");
        let text = self.game.format_move(mv);
        self.game.play(mv);
        text
    }

    fn to_move(&self) -> Side {
        self.game.to_move()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }

    fn split_moves(&self, words: &[&str]) -> Result<Vec<String>, String> {
        split_move_words::<G>(&self.game, words)
    }
}

/// Move lists: a Connect-X move is one word; an m,n,k move is `ROW,COL` or two words `ROW COL`.
fn split_move_words<G: Game>(game: &G, words: &[&str]) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        if game.parse_move(words[i]).is_ok() {
            out.push(words[i].to_string());
            i += 1;
        } else if i + 1 < words.len() && game.parse_move(&format!("{} {}", words[i], words[i + 1])).is_ok() {
            out.push(format!("{} {}", words[i], words[i + 1]));
            i += 2;
        } else {
            return Err(format!("cannot read a move at '{}'", words[i..].join(" ")));
        }
    }
    Ok(out)
}

/// The game of `spec`, with `solver` (called only if needed) as the exact solver's table for
/// the boards in its range (Connect-X and m,n,k).
fn new_table(spec: &GameSpec, solver: impl FnOnce() -> Arc<SolverTable>) -> Result<Box<dyn Table>, String> {
    Ok(match spec {
        GameSpec::Mnk { rows, cols, k, blocked } => {
            let mut g = Mnk::new(*rows, *cols, *k, blocked)?;
            if g.solver_fits() {
                g.use_solver(solver());
            }
            Box::new(TableOf { start: g.clone(), game: g })
        }
        GameSpec::ConnectX { rows, cols, x } => {
            let mut g = ConnectX::new(*rows, *cols, *x)?;
            if g.solver_fits() {
                g.use_solver(solver());
            }
            Box::new(TableOf { start: g.clone(), game: g })
        }
    })
}

/// The engine behind the protocol: options, the search (kept across games), and the game.
pub struct Engine {
    options: Options,
    searcher: Searcher,
    rng: SmallRng,
    table: Option<Box<dyn Table>>,
    /// The exact solvers' table (half the hash size), made at the first game that uses it
    /// and kept across games.
    solver_table: Option<Arc<SolverTable>>,
    spec: Option<GameSpec>,
    timeout: Duration,
    /// The side the engine plays.
    side: Side,
}

pub const NAME: &str = "boardbot";
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

impl Engine {
    pub fn new(options: Options) -> Engine {
        Engine {
            searcher: Searcher::new(options.hash_mb),
            rng: SmallRng::seed_from_u64(options.seed),
            options,
            table: None,
            solver_table: None,
            spec: None,
            timeout: Duration::from_secs(10),
            side: Side::First,
        }
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    pub fn set_option(&mut self, key: &str, value: &str) -> Result<(), String> {
        let mut options = self.options.clone();
        options.set(key, value)?;
        if options.hash_mb != self.options.hash_mb {
            self.searcher = Searcher::new(options.hash_mb);
            self.solver_table = None;
        }
        if options.seed != self.options.seed {
            self.rng = SmallRng::seed_from_u64(options.seed);
        }
        self.options = options;
        Ok(())
    }

    /// Starts a new game; the engine plays first if `first`.
    pub fn new_game(&mut self, spec: GameSpec, first: bool, timeout: Duration) -> Result<(), String> {
        let (slot, hash_mb) = (&mut self.solver_table, self.options.hash_mb);
        let table = new_table(&spec, || slot.get_or_insert_with(|| Arc::new(SolverTable::new(hash_mb / 2))).clone())?;
        self.table = Some(table);
        self.spec = Some(spec);
        self.timeout = timeout;
        self.side = if first { Side::First } else { Side::Second };
        self.searcher.new_game();
        Ok(())
    }

    /// Sets the time allowed per move from now on (the Gomocup protocol sets it before each move).
    pub fn set_timeout(&mut self, timeout: Duration) {
        self.timeout = timeout;
    }

    pub fn spec(&self) -> Option<&GameSpec> {
        self.spec.as_ref()
    }

    fn table(&mut self) -> Result<&mut Box<dyn Table>, String> {
        self.table.as_mut().ok_or_else(|| "no game: send init first".to_string())
    }

    pub fn is_engine_turn(&self) -> bool {
        self.table.as_ref().is_some_and(|t| t.to_move() == self.side)
    }

    /// The opponent played `text`.
    pub fn opponent_move(&mut self, text: &str) -> Result<(), String> {
        let side = self.side;
        let table = self.table()?;
        if table.outcome().is_none() && table.to_move() == side {
            return Err("it is the engine's turn (send go)".into());
        }
        table.play_text(text)
    }

    /// Sets the game to the position after `words` (move text) from the start; all or nothing.
    pub fn set_position(&mut self, words: &[&str]) -> Result<(), String> {
        let table = self.table()?;
        let moves = table.split_moves(words)?;
        table.replace_with(&moves)
    }

    /// Picks, plays and returns the engine's move for the side to move, within the time budget
    /// counted from `start`. The engine plays that side from now on.
    pub fn think(&mut self, start: Instant, stop: Arc<AtomicBool>) -> Result<String, String> {
        let limits = Limits::per_move(start, self.timeout, self.options.margin).with_stop(stop);
        let table = self.table.as_mut().ok_or("no game: send init first")?;
        if table.outcome().is_some() {
            return Err("the game is over".into());
        }
        self.side = table.to_move();
        Ok(table.choose(&mut self.searcher, &mut self.rng, &self.options, limits))
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.table.as_ref().and_then(|t| t.outcome())
    }
}
