//! A game of any kind, seen through text: the object-safe interface [`AnyGame`] that the
//! protocol, the referee and the user interfaces hold, and what describes and builds one (a
//! [`GameType`] is a game's entry in the registry, a [`GameSpec`] a checked description, the
//! [`Resources`] its knowledge's tables). The contract: moves go in and out as move text; a move
//! that is unreadable or illegal is refused with a [`MoveError`] and changes nothing; a game's
//! [`AnyGame::spec`] builds the same game again; the users never learn which game it is.
//!
//! [`super::playing::Playing`] implements the interface for every game (its rules, pictures and
//! knowledge); [`super::registry`] lists the games by name.

use super::contract::RulesReport;
use super::players::{Analysis, Turn};
use super::render::Opinion;
use super::render::View;
use super::tuned::{Leaf, PolicySample, TunedPosition};
use crate::search::{Outcome, Score, Searcher, Side, WeightFile, Weights};
use anyhow::{anyhow, Result};
use rand::rngs::SmallRng;
use std::any::Any;
use std::fmt;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The players and requests kept at their old path for the callers other branches are editing
/// now (src/referee/, src/selfplay.rs, src/main.rs); new code names src/game/players.rs.
pub use super::players::{Algorithm, Player, Request, MAX_LEVEL};

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

impl std::error::Error for MoveError {}

/// The rules through move text: whose turn, the legal moves, play and undo, the result.
pub trait AnyRules: Send {
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
    fn set_moves(&mut self, moves: &[String]) -> Result<()>;
    /// Splits the words of a move list into moves (a move may take two words, as `ROW COL`).
    fn split_moves(&self, words: &[&str]) -> Result<Vec<String>>;
    /// The side that played each move since the start (a game with extra turns has runs of
    /// moves by one side).
    fn movers(&self) -> Vec<Side>;
    /// The position's hash (the search's: it includes whatever decides who moves).
    fn hash(&self) -> u64;
    /// Plays `plies` random moves that neither end the game nor leave it a dead draw (fewer
    /// if there is none), from `seed`, and returns them.
    fn random_opening(&mut self, plies: usize, seed: u64) -> Vec<String>;
    fn clone_box(&self) -> Box<dyn AnyGame>;
}

/// The game shown to people: boards as text, pictures and views, moves and results as people
/// write them.
pub trait AnyNotation: AnyRules {
    /// The board as plain text (see [`Render::board_text`]).
    fn board_text(&self) -> String;
    /// The view (see [`Render::view`]), each move also as people write it.
    fn view(&self) -> View;
    /// The view after the first `ply` moves of the game (a past position, for review); None
    /// past the moves played.
    fn view_at(&self, ply: usize) -> Option<View>;
    /// The board for people, `bottom`'s side nearest (see [`Render::board_picture`]).
    fn board_picture(&self, colour: bool, bottom: Side) -> String;
    /// The players' names (see [`Render::side_names`]).
    fn side_names(&self) -> [&'static str; 2];
    /// The marks the text board draws for the players (see [`Render::side_marks`]).
    fn side_marks(&self) -> Option<[&'static str; 2]>;
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
    /// The position in the game's FEN, for the games that have one ([`Render::fen`]).
    fn fen(&self) -> Option<String>;
    /// The position packed for training data ([`Render::packed`]), for the games that pack.
    fn packed(&self) -> Option<crate::game::render::Packed>;
}

/// The engine: a turn chosen and played, a position analysed.
pub trait AnyThinking: AnyRules {
    /// Picks and plays the side to move's whole turn as `request` says; `searcher` is the
    /// search with its table, kept from move to move. The game must not be over.
    fn think(&mut self, searcher: &mut Searcher, rng: &mut SmallRng, request: &Request) -> Turn;
    /// The evaluations a person may choose (see [`Render::evaluations`]).
    fn evaluations(&self) -> &'static [(&'static str, &'static str)];
    /// The search's selectivity in this position, as the game's knowledge sets it
    /// ([`crate::search::Knowledge::selectivity`]), before the engine's options override it.
    fn selectivity(&self) -> crate::search::Selectivity;
    /// Returns once the knowledge's background tables are ready ([`Knowledge::wait_until_ready`]).
    fn wait_until_ready(&self);
    /// Searches the position (not over) to `depth` moves with `algorithm`, from scratch (a
    /// fresh table of `hash_mb` MiB for the full search); the game is left as it was.
    fn analyze(&self, algorithm: Algorithm, depth: u32, hash_mb: usize) -> Analysis;
    /// Every legal move of the position (not over) with its value, best first, for an analysis
    /// board: exact where the game's exact solver or endgame database settles every move within
    /// half of `budget` ([`crate::search::RootKnowledge::exact_move_values`]); otherwise the
    /// position after each move searched for an equal share of what is left (a search of
    /// `hash_mb` MiB), an estimate with its depth unless the search proves it. `stop` ends it
    /// early; the game is left as it was.
    fn analyze_moves(&self, budget: Duration, stop: &Arc<AtomicBool>, hash_mb: usize) -> Vec<MoveValue>;
}

/// A legal move's value on an analysis board ([`AnyThinking::analyze_moves`]).
#[derive(Clone, Debug, serde::Serialize)]
pub struct MoveValue {
    /// The move, in move text and as people write it.
    pub text: String,
    pub human: String,
    /// The value after the move from the view of the side to move before it, in search units.
    pub score: Score,
    /// The same for people ([`super::render::Render::opinion`]).
    pub opinion: Opinion,
    /// The value is the game's with best play: by the exact solver or database, by a search
    /// that saw every line to the end, or the move ends the game.
    pub proved: bool,
    /// What gave it: "solver" (the game's exact solver or endgame database), "search", "end"
    /// (the move ends the game).
    pub source: &'static str,
    /// The depth of the search that gave it (0 for the others).
    pub depth: u32,
    /// The value as the game's own solver writes it ([`crate::search::ExactMove::solver_value`]).
    pub solver_value: Option<i32>,
}

/// What the tuner and the rules' checker need: the evaluation's weights, quiet positions.
pub trait AnyTuning: AnyRules {
    /// The evaluation's weights by name (None: the game's evaluation has none).
    fn weights(&self) -> Option<Weights>;
    /// Sets the evaluation's weights `file` names (the others keep theirs); all or nothing. On a
    /// game just made, before it is copied (copies share its knowledge).
    fn set_weights(&mut self, file: &WeightFile) -> Result<()>;
    /// Sets the evaluation's network from a net file's bytes (None: no network), as
    /// [`crate::search::RootKnowledge::set_net`] says; on a game just made, before it is copied.
    fn set_net(&mut self, net: Option<&[u8]>) -> Result<bool>;
    /// The position for a tuner (see [`Leaf`]); None when the game is over, or there is no
    /// quiet position to evaluate.
    fn tuning_position(&self, leaf: Leaf) -> Option<Box<dyn TunedPosition>>;
    /// The move policy's weights by name (None: the game orders its moves by no fitted policy;
    /// see [`crate::search::RootKnowledge::policy`]).
    fn policy(&self) -> Option<Weights>;
    /// For a policy's tuner: the candidates the policy orders in this position, with their
    /// features, and which of them is the move `mv` (move text). None where the policy orders
    /// no move here, or `mv` is not among its candidates; an error if `mv` is no legal move.
    fn policy_sample(&self, mv: &str) -> Result<Option<PolicySample>>;
    /// Checks the rules' contract ([`super::contract`]) by `playouts` random games from this
    /// position, seeded by `seed`.
    fn check_rules(&self, seed: u64, playouts: usize) -> Result<RulesReport>;
}

/// A game in progress of any kind, through move text: the union of the four parts above, which
/// the one implementation ([`super::playing::Playing`]) provides for every game from its rules
/// ([`super::Game`]), its pictures ([`super::render::Render`]) and its knowledge. A game never
/// implements these itself (docs/adding-a-game.md); callers hold a `Box<dyn AnyGame>`.
pub trait AnyGame: AnyRules + AnyNotation + AnyThinking + AnyTuning {}

impl<T: AnyRules + AnyNotation + AnyThinking + AnyTuning + ?Sized> AnyGame for T {}

impl Clone for Box<dyn AnyGame> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// One kind of game: how to read its description and build it.
pub struct GameType {
    /// The name that starts its description.
    pub name: &'static str,
    /// Other names accepted for it.
    pub aliases: &'static [&'static str],
    /// How many words after the name give its size (in `init`, they come before FIRST and
    /// TIMEOUT; options come after).
    pub size_words: usize,
    /// The description's grammar, for error messages and help.
    pub usage: &'static str,
    /// One line on what the game is.
    pub about: &'static str,
    /// What the game is called in a list of games (`Connect-X`), for help texts.
    pub title: &'static str,
    /// Boards people know by a name, as (name, description): the name typed alone stands for the
    /// description (`connect4`: `cx 6 7 4`), options may follow it (`gomoku blocked 7,7`).
    pub names: &'static [(&'static str, &'static str)],
    /// Descriptions of the boards people play, for menus and help (the page's game list):
    /// each must read as a description of this game.
    pub examples: &'static [&'static str],
    /// Whether the description takes cells out of play (`blocked ROW,COL ...`): the terminal
    /// and the page offer to place them.
    pub blocked: bool,
    /// Points as the courses count them: a win by the first player, by the second, a draw.
    pub points: [u32; 3],
    /// Builds the game from the words after its name; the built game's [`AnyGame::spec`] is its
    /// description in canonical form.
    pub build: Builder,
    /// `boardbot solve` for this game, if it has an exact solver (see [`SolveRequest`]).
    pub solve: Option<fn(&GameSpec, &SolveRequest) -> Result<()>>,
    /// `boardbot book` for this game, if it has opening books: (spec, plies, threads, hash MiB,
    /// output file).
    pub book: Option<BookMaker>,
    /// Makes the tables the game's knowledge keeps in `Resources` (see [`Resources::prepare`]).
    pub prepare: Option<fn(&Resources)>,
    /// `boardbot perft` for this game, if it has one: the number of leaf positions this many
    /// moves deep from the description's position (every distinct move counted apart).
    pub perft: Option<Perft>,
    /// A finished game in the game's standard record format, if it has one (checkers: PDN),
    /// for `boardbot match --record`.
    pub record: Option<RecordWriter>,
    /// The file format players keep this game's records in, if it has one besides boardbot's
    /// own (checkers: PDN; gomoku: Piskvork's psq; Connect-4: a column string): see
    /// [`crate::game::record`].
    pub format: Option<&'static RecordFormat>,
}

impl GameType {
    /// Every optional field empty, for an entry's `..GameType::DEFAULTS`; the fields a game must
    /// give are placeholders here (an empty name, a builder that builds nothing), and the
    /// registry's tests check that no entry of [`super::registry::GAMES`] keeps them.
    pub const DEFAULTS: GameType = GameType {
        name: "",
        aliases: &[],
        size_words: 0,
        usage: "",
        about: "",
        title: "",
        names: &[],
        examples: &[],
        blocked: false,
        points: [3, 3, 1],
        build: |_, _| Err(anyhow!("this game type has no builder")),
        solve: None,
        book: None,
        prepare: None,
        perft: None,
        record: None,
        format: None,
    };
}

/// Builds a game from the words after its name (see [`GameType::build`]).
pub type Builder = fn(&[&str], &Resources) -> Result<Box<dyn AnyGame>>;

/// Counts leaf positions: (spec, depth) -> the count (see [`GameType::perft`]).
pub type Perft = fn(&GameSpec, u32) -> Result<u64>;

/// Writes a game record (see [`GameType::record`]).
pub type RecordWriter = fn(&GameSpec, &GameRecordText) -> String;

/// What a game record holds, in text: the game's number in its match (from 1), the players of
/// the first and the second side, the moves in move text, the result from the first player's
/// view (`1-0`, `0-1`, `1/2-1/2`, `*` for no result) and how the game ended.
#[derive(Clone, Debug)]
pub struct GameRecordText {
    pub event: String,
    pub number: usize,
    pub players: [String; 2],
    pub moves: Vec<String>,
    pub result: String,
    pub reason: String,
    /// A note after each move (empty: none), for the formats that carry notes (an annotated
    /// game: `boardbot annotate`); shorter than `moves` where the last moves have none.
    pub notes: Vec<String>,
}

/// A file format of a game's records: written for a download, read for a load.
pub struct RecordFormat {
    /// What players call it ("PDN") and its files' extension ("pdn").
    pub name: &'static str,
    pub extension: &'static str,
    /// The game in this format; None where the description does not fit it (a board size or an
    /// option the format cannot say).
    pub write: fn(&GameSpec, &GameRecordText) -> Option<String>,
    /// The game of a text: None when the text is not in this format, else the game read or why
    /// it cannot be (naming the line).
    pub read: fn(&str) -> Option<Result<LoadedRecord>>,
    /// Whether the format carries a note after a move (PDN's comments); a game with notes is
    /// written in boardbot's own format where it does not.
    pub notes: bool,
}

/// A game read from a record: its description (as `init` takes it) and its moves as written.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadedRecord {
    pub game: String,
    pub moves: Vec<RecordMove>,
    /// The players (the first's first), where the file names them.
    pub players: Option<[String; 2]>,
}

/// A move of a record: its text, the line it is on (from 1), whether the text is in people's
/// notation ([`AnyNotation::parse_human`]) or move text, and the move as written.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordMove {
    pub text: String,
    pub line: usize,
    pub human: bool,
    /// The move as the file writes it (for errors).
    pub written: String,
}

/// Makes an opening book: (spec, plies, threads, hash MiB, output file).
pub type BookMaker = fn(&GameSpec, u32, usize, usize, &std::path::Path) -> Result<()>;

/// A game's description, checked and canonical: the type, its size words and its options.
#[derive(Clone)]
pub struct GameSpec {
    kind: &'static GameType,
    words: Vec<String>,
}

impl GameSpec {
    /// The canonical spec of a game a [`GameType::build`] makes from these words (already
    /// checked by it).
    pub fn new(kind: &'static GameType, words: Vec<String>) -> GameSpec {
        GameSpec { kind, words }
    }

    pub fn kind(&self) -> &'static GameType {
        self.kind
    }

    pub fn name(&self) -> &'static str {
        self.kind.name
    }

    /// The words after the name: size words, then options.
    pub fn words(&self) -> &[String] {
        &self.words
    }

    /// The size words (see [`GameType::size_words`]).
    pub fn size(&self) -> &[String] {
        &self.words[..self.kind.size_words.min(self.words.len())]
    }

    /// The options (the words after the size).
    pub fn options(&self) -> &[String] {
        &self.words[self.kind.size_words.min(self.words.len())..]
    }

    /// A new game at its start, with `resources` for its knowledge's tables.
    pub fn new_game(&self, resources: &Resources) -> Result<Box<dyn AnyGame>> {
        let words: Vec<&str> = self.words.iter().map(String::as_str).collect();
        (self.kind.build)(&words, resources)
    }

    /// Points of a win by `side`.
    pub fn win_points(&self, side: Side) -> u32 {
        self.kind.points[side.index()]
    }

    /// Points of a draw.
    pub fn draw_points(&self) -> u32 {
        self.kind.points[2]
    }
}

impl fmt::Display for GameSpec {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.kind.name)?;
        for w in &self.words {
            write!(f, " {w}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for GameSpec {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "GameSpec({self})")
    }
}

impl PartialEq for GameSpec {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.kind, other.kind) && self.words == other.words
    }
}

impl Eq for GameSpec {}

/// What a game's knowledge keeps across moves and games (an exact solver's tables), within the
/// engine's memory budget: shared values by name, each made once at the first game that asks.
pub struct Resources {
    budget_mib: usize,
    /// The most a board may take, in MiB (0: no limit); see [`Resources::board_limit_mib`].
    board_limit_mib: usize,
    shared: Mutex<Vec<(&'static str, Arc<dyn Any + Send + Sync>)>>,
}

impl Resources {
    /// Resources within `budget_mib` MiB for all the games' tables together.
    /// A board may take twice that (see [`Resources::board_limit_mib`]).
    pub fn new(budget_mib: usize) -> Resources {
        Resources { budget_mib, board_limit_mib: 2 * budget_mib, shared: Mutex::new(Vec::new()) }
    }

    /// These resources with boards limited to `mib` MiB (0: no limit).
    pub fn with_board_limit(mut self, mib: usize) -> Resources {
        self.board_limit_mib = mib;
        self
    }

    /// The most a game's board (its tables, the game's and its start position's copies
    /// together) may take, in MiB, checked before the board is made; 0: no limit.
    pub fn board_limit_mib(&self) -> usize {
        self.board_limit_mib
    }

    /// No tables at all: knowledge without exact solvers (to check a description, or for a
    /// referee's copy of the rules).
    pub fn none() -> Resources {
        Resources::new(0)
    }

    /// The memory the games' tables may take in all, in MiB.
    pub fn budget_mib(&self) -> usize {
        self.budget_mib
    }

    /// The shared value called `key`, made by `make` (given the budget in MiB) at the first
    /// call; None with no budget. Games that share a table agree on its key and type.
    pub fn shared<T: Any + Send + Sync>(&self, key: &'static str, make: impl FnOnce(usize) -> T) -> Option<Arc<T>> {
        if self.budget_mib == 0 {
            return None;
        }
        let mut shared = self.shared.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, v)) = shared.iter().find(|(k, _)| *k == key) {
            return v.clone().downcast::<T>().ok();
        }
        let v = Arc::new(make(self.budget_mib));
        shared.push((key, v.clone()));
        Some(v)
    }
}

/// What `boardbot solve` asks of a game's solver: the positions' file (None: standard input)
/// and the options, as the command line gave them.
#[derive(Clone, Debug, Default)]
pub struct SolveRequest {
    pub file: Option<std::path::PathBuf>,
    pub weak: bool,
    pub analyze: bool,
    pub hash_mib: usize,
    pub threads: usize,
    pub fresh: bool,
    /// Seconds per position, after which it is `unknown`.
    pub limit: Option<f64>,
    /// The solver's method, where a game has several (m,n,k: `ab`, `pn`, `dfpn`).
    pub method: Option<String>,
    /// The seeds of the endgame database (Kalah), instead of the game's own choice.
    pub db_seeds: Option<u32>,
}
