//! The games boardbot plays, by name. Adding a game is one folder under `src/game/` and one
//! line in [`GAMES`]: everything above (the protocol, the referee, `solve`, the user
//! interfaces) takes games from here and never names one.
//!
//! A game's description is text: its name, its size words (`mnk 7 7 5`, `cx 6 7 4`), then its
//! options (`blocked 0,0 1,1`). [`GameSpec`] holds a description checked and in canonical form,
//! and builds the game.

use super::any::AnyGame;
use crate::search::Side;
use std::any::Any;
use std::fmt;
use std::sync::{Arc, Mutex};

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
    pub solve: Option<fn(&GameSpec, &SolveRequest) -> anyhow::Result<()>>,
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
}

impl GameType {
    /// Every optional field empty, for an entry's `..GameType::DEFAULTS`; the fields a game must
    /// give are placeholders here (an empty name, a builder that builds nothing), and the
    /// registry's tests check that no entry of [`GAMES`] keeps them.
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
        build: |_, _| Err("this game type has no builder".to_string()),
        solve: None,
        book: None,
        prepare: None,
        perft: None,
        record: None,
    };
}

/// Builds a game from the words after its name (see [`GameType::build`]).
pub type Builder = fn(&[&str], &Resources) -> Result<Box<dyn AnyGame>, String>;

/// Counts leaf positions: (spec, depth) -> the count (see [`GameType::perft`]).
pub type Perft = fn(&GameSpec, u32) -> Result<u64, String>;

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
}

/// Makes an opening book: (spec, plies, threads, hash MiB, output file).
pub type BookMaker = fn(&GameSpec, u32, usize, usize, &std::path::Path) -> anyhow::Result<()>;

/// Every game, in the order `help` lists them.
pub static GAMES: &[&GameType] =
    &[&super::mnk::GAME_TYPE, &super::connectx::GAME_TYPE, &super::kalah::GAME_TYPE, &super::checkers::GAME_TYPE];

/// Each game's hash salt, mixed into every key of its positions' hashes (see
/// [`crate::search::Game::hash`]), so that a table shared across games never takes one game's
/// position for another's. One table, so that no two games take the same salt: a new game adds
/// its line here (the registry's tests check that they differ).
pub mod salt {
    pub const MNK: u64 = 1;
    pub const CONNECTX: u64 = 2;
    pub const KALAH: u64 = 3;
    pub const CHECKERS: u64 = 4;
    /// Every salt above, to check that they differ.
    pub const ALL: &[u64] = &[MNK, CONNECTX, KALAH, CHECKERS];
}

/// Built-in opening sets: (game, set name, the openings one a line in the game's move text, `#`
/// starting a comment), for `match --openings NAME` and `selfplay --openings NAME`.
pub static OPENING_SETS: &[(&str, &str, &str)] = &[("checkers", "acf3", super::checkers::openings::ACF3)];

/// The built-in opening set `name` of the game called `game`, as text.
pub fn opening_set(game: &str, name: &str) -> Option<&'static str> {
    OPENING_SETS.iter().find(|(g, n, _)| *g == game && n.eq_ignore_ascii_case(name)).map(|(_, _, text)| *text)
}

/// The game type called `name` (or an alias, or the name of one of its boards: `gomoku`), in
/// any case.
pub fn game_type(name: &str) -> Option<&'static GameType> {
    let name = name.to_ascii_lowercase();
    GAMES.iter().copied().find(|t| t.name == name || t.aliases.contains(&name.as_str())).or_else(|| {
        let (kind, _) = named_board(&name)?;
        Some(kind)
    })
}

/// The board people call `name` (`tic-tac-toe`, `connect4`; in any case, hyphens and
/// underscores left out): its game type and description.
pub fn named_board(name: &str) -> Option<(&'static GameType, &'static str)> {
    let plain = |s: &str| s.to_ascii_lowercase().replace(['-', '_'], "");
    let name = plain(name);
    GAMES.iter().find_map(|&t| t.names.iter().find(|(n, _)| plain(n) == name).map(|&(_, desc)| (t, desc)))
}

/// A game's description, checked and canonical: the type, its size words and its options.
#[derive(Clone)]
pub struct GameSpec {
    kind: &'static GameType,
    words: Vec<String>,
}

impl GameSpec {
    /// Reads a description (`mnk 7 7 5 blocked 0,0`), checking it by building the game once.
    pub fn parse(text: &str) -> Result<GameSpec, String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        GameSpec::from_words(&words)
    }

    /// As [`GameSpec::parse`], from words. A board's name ([`GameType::names`]) stands for its
    /// description, options may follow it; a game's own name does so only where its size words
    /// are missing (`kalah` alone is `kalah 6 4`, `kalah pie` is `kalah 6 4 pie`).
    pub fn from_words(words: &[&str]) -> Result<GameSpec, String> {
        let Some((name, rest)) = words.split_first() else { return Err(no_game()) };
        let kind = game_type(name).ok_or_else(|| format!("unknown game '{name}' ({})", names()))?;
        let lower = name.to_ascii_lowercase();
        let own = kind.name == lower || kind.aliases.contains(&lower.as_str());
        let build = |words: &[&str]| (kind.build)(words, &Resources::none());
        let named = named_board(name)
            .filter(|_| !own || !rest.first().is_some_and(|w| w.starts_with(|c: char| c.is_ascii_digit())));
        let game = match (own.then(|| build(rest)), named) {
            (Some(Ok(game)), _) => game,
            (first, Some((_, description))) => {
                let mut words: Vec<&str> = description.split_whitespace().skip(1).collect();
                words.extend_from_slice(rest);
                match (build(&words), first) {
                    (Ok(game), _) => game,
                    (Err(_), Some(Err(own_error))) => return Err(format!("{own_error} (usage: {})", kind.usage)),
                    (Err(e), _) => return Err(format!("{e} ('{name}' is {description}; usage: {})", kind.usage)),
                }
            }
            (Some(Err(e)), None) => return Err(format!("{e} (usage: {})", kind.usage)),
            (None, None) => return Err(format!("unknown game '{name}' ({})", names())),
        };
        Ok(game.spec().clone())
    }

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
    pub fn new_game(&self, resources: &Resources) -> Result<Box<dyn AnyGame>, String> {
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

fn no_game() -> String {
    format!("no game given ({})", names())
}

/// The games' usages and the boards' names, for error messages.
pub fn names() -> String {
    let boards: Vec<&str> = GAMES.iter().flat_map(|t| t.names.iter().map(|(n, _)| *n)).collect();
    format!("games: {}; or by name: {}", usages(), boards.join(", "))
}

/// Every game's description grammar, in [`GAMES`]' order: `mnk M N K [blocked ROW,COL ...] | cx
/// M N X | ...`.
pub fn usages() -> String {
    GAMES.iter().map(|t| t.usage).collect::<Vec<_>>().join(" | ")
}

/// The games in words, for help texts: `m,n,k-games, Connect-X, Kalah and checkers`.
pub fn titles() -> String {
    match GAMES.iter().map(|t| t.title).collect::<Vec<_>>().as_slice() {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Every game's points as the courses count them, for a match's legend: `mnk: win 2 as first,
/// 3 as second, draw 1; cx: win 3, draw 1; ...`.
pub fn points_legend() -> String {
    let one = |t: &GameType| match t.points {
        [first, second, draw] if first == second => format!("{}: win {first}, draw {draw}", t.name),
        [first, second, draw] => format!("{}: win {first} as first, {second} as second, draw {draw}", t.name),
    };
    GAMES.iter().map(|&t| one(t)).collect::<Vec<_>>().join("; ")
}

/// What a game's knowledge keeps across moves and games (an exact solver's tables), within the
/// engine's memory budget: shared values by name, each made once at the first game that asks.
pub struct Resources {
    budget_mib: usize,
    shared: Mutex<Vec<(&'static str, Arc<dyn Any + Send + Sync>)>>,
}

impl Resources {
    /// Resources within `budget_mib` MiB for all the games' tables together.
    pub fn new(budget_mib: usize) -> Resources {
        Resources { budget_mib, shared: Mutex::new(Vec::new()) }
    }

    /// No tables at all: knowledge without exact solvers (to check a description, or for a
    /// referee's copy of the rules).
    pub fn none() -> Resources {
        Resources::new(0)
    }

    /// Resources within `budget_mib` MiB with every game's tables made now, so that no `init`
    /// (and no move) pays for making them.
    pub fn prepare(budget_mib: usize) -> Resources {
        let resources = Resources::new(budget_mib);
        for kind in GAMES {
            if let Some(prepare) = kind.prepare {
                prepare(&resources);
            }
        }
        resources
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn salts_differ_and_the_games_texts_name_every_game() {
        let mut salts = salt::ALL.to_vec();
        salts.sort_unstable();
        salts.dedup();
        assert_eq!(salts.len(), salt::ALL.len(), "two games share a salt");
        assert!(salt::ALL.len() >= GAMES.len());
        for t in GAMES {
            assert!(usages().contains(t.usage), "{}", t.name);
            assert!(titles().contains(t.title), "{}", t.name);
            assert!(points_legend().contains(&format!("{}: win", t.name)), "{}", t.name);
        }
        assert_eq!(points_legend().split("; ").count(), GAMES.len());
        for t in GAMES {
            assert!(!t.name.is_empty() && !t.usage.is_empty() && !t.about.is_empty() && !t.title.is_empty());
            assert!(t.usage.starts_with(t.name), "{}'s usage starts with its name", t.name);
            assert!((t.build)(&[], &Resources::none()).err() != Some("this game type has no builder".into()));
            // `blocked` says whether the description takes blocked cells.
            let first = t.examples.first().unwrap_or_else(|| panic!("{} gives no example", t.name));
            let with_blocked = GameSpec::parse(&format!("{first} blocked 0,0"));
            assert_eq!(with_blocked.is_ok(), t.blocked, "{}: {with_blocked:?}", t.name);
        }
    }
}
