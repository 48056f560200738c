//! A playing engine: one game in progress, of any kind ([`AnyGame`]), plus the options, the
//! search and the memory that pick its moves. The protocols drive an [`Engine`] through move
//! text; they know nothing of game types or search internals.

use crate::game::any::AnyGame;
use crate::game::players::{Request, Turn};
use crate::game::registry::{GameSpec, Resources};
use crate::search::clock::ReplyClock;
use crate::search::{Limits, Outcome, Searcher, Side, WeightFile};
use anyhow::{anyhow, bail, Result};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

mod options;
pub use options::{
    names as option_names, option, parse_level, whole_number, Kind, NetSetting, OptionSpec, Options, Value,
    DEFAULT_HASH_MB, DEFAULT_MARGIN_MS, GAME_VALUE, LEVELS, MAX_DEPTH, MAX_HASH_MB, OPTIONS,
};

/// Reads a weights file for a game of the registry.
pub fn read_weights(path: &std::path::Path) -> Result<WeightFile> {
    let file = WeightFile::read(path)?;
    if crate::game::registry::game_type(&file.game).is_none() {
        bail!("{}: unknown game '{}' ({})", path.display(), file.game, crate::game::registry::names());
    }
    Ok(file)
}

/// Reads a net file and checks that a game of the registry reads it (each game's boards of
/// [`crate::game::any::GameType::examples`] are asked): its bytes, or why not.
pub fn check_net(path: &std::path::Path) -> Result<Vec<u8>> {
    let bytes = std::fs::read(path).map_err(|e| anyhow!("cannot read the net {}: {e}", path.display()))?;
    for kind in crate::game::registry::GAMES {
        for example in kind.examples {
            let Ok(spec) = GameSpec::parse(example) else { continue };
            let Ok(mut game) = spec.new_game(&Resources::none()) else { continue };
            match game.set_net(Some(&bytes)) {
                Ok(true) => return Ok(bytes),
                Ok(false) => {}
                Err(e) => bail!("net {}: {e}", path.display()),
            }
        }
    }
    Err(anyhow!("{}: not the evaluation network of any game", path.display()))
}

/// A helper thread of the search copies the game, in the move's time (one copy after another),
/// and keeps the copy for the move: the copies may take at most 1/COPY_SHARE of the move's time,
/// at COPY_RATE (the rate the m,n,k threat searches assume for their copies too), and they count
/// in the board's share of `hash` (see [`Memory`]) beside the game's own two copies.
const COPY_SHARE: u32 = 20;
const COPY_RATE: f64 = 1e9;

/// The engine's memory: the search's transposition table and the games' tables, half of the
/// `hash` cap each. An engine that plays by the clock has every page mapped when they are made
/// (not inside a move's time: [`crate::memory::mapped_at_once`]); a server's sessions map them as
/// their searches use them ([`Engine::mapping_tables_as_used`]). A game's board (the game's and
/// its start position's copies) may take up to the whole `hash` besides, checked before it is
/// made.
struct Memory {
    searcher: Searcher,
    /// The table's size, in MiB.
    search_mb: usize,
    resources: Resources,
    /// Whether its tables are mapped when made (see [`Memory`]).
    at_once: bool,
}

impl Memory {
    fn new(hash_mb: usize, at_once: bool) -> Memory {
        let search_mb = (hash_mb / 2).max(1);
        made(at_once, || Memory {
            searcher: Searcher::new(search_mb),
            search_mb,
            // With `hash 1` the games' share is 0 MiB: no tables, but the boards' limit holds.
            resources: Resources::prepare(hash_mb.saturating_sub(search_mb)).with_board_limit(hash_mb),
            at_once,
        })
    }

    /// An empty search table in place of the one there.
    fn new_searcher(&mut self) {
        let mb = self.search_mb;
        self.searcher = made(self.at_once, || Searcher::new(mb));
    }
}

/// What `make` makes, its tables mapped at once if `at_once` (see [`Memory`]).
fn made<T>(at_once: bool, make: impl FnOnce() -> T) -> T {
    if at_once {
        crate::memory::mapped_at_once(make)
    } else {
        make()
    }
}

/// A new game of `spec` with the games' tables of `resources`, its evaluation's weights set from
/// `options`' weights if they are for its game, and its network from `options`' net.
fn make_game(spec: &GameSpec, resources: &Resources, options: &Options) -> Result<Box<dyn AnyGame>> {
    let mut game = spec.new_game(resources)?;
    if let Some(file) = options.weights.as_deref().filter(|f| f.game == spec.name()) {
        game.set_weights(file).map_err(|e| anyhow!("weights: {e}"))?;
    }
    options.net.apply(game.as_mut())?;
    Ok(game)
}

/// The engine behind the protocols: options, memory (kept across games), and the game.
pub struct Engine {
    options: Options,
    /// Made by [`Engine::prepare`] or at the first game (a Gomocup manager sends `INFO
    /// max_memory` before it), kept across games.
    memory: Option<Memory>,
    rng: SmallRng,
    game: Option<Box<dyn AnyGame>>,
    timeout: Duration,
    /// `timeout` is a share of a game clock, not a time per move (see [`Engine::set_clock_budget`]).
    from_clock: bool,
    /// The side the engine plays.
    side: Side,
    /// An upper bound on the bytes of a copy of the game in progress (see [`copy_bytes`]).
    copy_bytes: usize,
    /// The threads used last and the number asked for, when fewer (to say it once).
    capped: Option<(usize, usize)>,
    /// The replies' delays measured in this game, and the margin's widening they call for.
    reply_clock: ReplyClock,
    /// Whether the tables are mapped when made (see [`Memory`]).
    map_at_once: bool,
}

/// An upper bound on the bytes of a copy of `game`: [`kinarow::BYTES_PER_CELL`], the largest
/// cost of a board's cell among the games, for every character of its board's text (at least a
/// character a cell).
fn copy_bytes(game: &dyn AnyGame) -> usize {
    game.board_text().len() * crate::game::kinarow::BYTES_PER_CELL
}

/// The random choices' generator: from `seed`, or from the operating system.
fn rng_of(seed: Option<u64>) -> SmallRng {
    seed.map_or_else(SmallRng::from_entropy, SmallRng::seed_from_u64)
}

pub const NAME: &str = "boardbot";
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

impl Engine {
    pub fn new(options: Options) -> Engine {
        Engine {
            memory: None,
            rng: rng_of(options.seed),
            options,
            game: None,
            timeout: Duration::from_secs(10),
            from_clock: false,
            side: Side::First,
            copy_bytes: 0,
            capped: None,
            reply_clock: ReplyClock::default(),
            map_at_once: true,
        }
    }

    /// This engine with its tables mapped as its searches use them, not when they are made: for
    /// a server's sessions, whose searches have a few MiB of `hash` each and whose new games must
    /// not wait for memory they may never use (docs/results/serve-load.md).
    pub fn mapping_tables_as_used(self) -> Engine {
        Engine { map_at_once: false, ..self }
    }

    /// The search threads for a move of `budget`: the `threads` option, at most one a core, and
    /// only as many helpers as the game's copies allow (see [`COPY_SHARE`]); said in the log
    /// when fewer.
    fn threads_for(&mut self, budget: Duration) -> usize {
        let asked = self.options.threads;
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let copy = self.copy_bytes.max(1) as f64;
        let by_time = (budget.as_secs_f64() / COPY_SHARE as f64 * COPY_RATE / copy) as usize;
        let board_share = (self.board_limit_mib() << 20).saturating_sub(2 * self.copy_bytes);
        let by_memory = (board_share as f64 / copy) as usize;
        let threads = asked.min(cores).min(1 + by_time.min(by_memory));
        if threads < asked && self.capped != Some((threads, asked)) {
            log::warn!(
                "threads: {threads} of the {asked} asked (cores: {cores}; a helper thread copies the game, about {} MiB, and may take {by_time} such copies in 1/{COPY_SHARE} of the move's time, {by_memory} in the hash's share of the board)",
                self.copy_bytes >> 20
            );
        }
        self.capped = (threads < asked).then_some((threads, asked));
        threads
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The most a game's board may take, in MiB: the `hash` (see [`Memory`]).
    pub fn board_limit_mib(&self) -> usize {
        self.options.hash_mb
    }

    /// Makes the engine's tables now, if they are not yet, rather than at the first game (the
    /// line protocol and the Kalah agent call it at start: no game pays for them; a Gomocup
    /// session waits for `INFO max_memory`).
    pub fn prepare(&mut self) {
        self.memory();
    }

    /// The engine's memory, made now if it is not yet.
    fn memory(&mut self) -> &mut Memory {
        let (hash_mb, at_once) = (self.options.hash_mb, self.map_at_once);
        self.memory.get_or_insert_with(|| Memory::new(hash_mb, at_once))
    }

    /// Sets one option from its value's text (see [`Options::set`]); nothing changes on error.
    pub fn set_option(&mut self, key: &str, value: &str) -> Result<()> {
        let mut options = self.options.clone();
        options.set(key, value)?;
        self.set_options(options)
    }

    /// Sets one option from a typed value (see [`Options::set_value`]); nothing changes on error.
    pub fn set_value(&mut self, key: &str, value: Value) -> Result<()> {
        let mut options = self.options.clone();
        options.set_value(key, value)?;
        self.set_options(options)
    }

    /// Takes `options` in place of the engine's: new tables for a new `hash`, the game in
    /// progress remade for new `hash`, `weights` or `net`; nothing changes on error.
    pub fn set_options(&mut self, options: Options) -> Result<()> {
        if options.hash_mb != self.options.hash_mb && (self.memory.is_some() || self.game.is_some()) {
            // The old tables go first, so that the two never take memory together.
            self.memory = None;
            let memory = self.memory.insert(Memory::new(options.hash_mb, self.map_at_once));
            if let Some(game) = &self.game {
                // The game's knowledge takes its tables from the new memory.
                let mut fresh = make_game(game.spec(), &memory.resources, &options)?;
                fresh.set_moves(&game.history())?;
                self.game = Some(fresh);
            }
        } else if options.weights != self.options.weights || options.net != self.options.net {
            if let Some(game) = &self.game {
                // The game in progress goes on with the new weights or net.
                let resources =
                    &self.memory.get_or_insert_with(|| Memory::new(options.hash_mb, self.map_at_once)).resources;
                let mut fresh = make_game(game.spec(), resources, &options)?;
                fresh.set_moves(&game.history())?;
                self.game = Some(fresh);
            }
        }
        if options.seed != self.options.seed {
            self.rng = rng_of(options.seed);
        }
        self.options = options;
        Ok(())
    }

    /// Starts a new game; the engine plays first if `first`.
    pub fn new_game(&mut self, spec: &GameSpec, first: bool, timeout: Duration) -> Result<()> {
        let options = self.options.clone();
        let game = make_game(spec, &self.memory().resources, &options)?;
        self.copy_bytes = copy_bytes(game.as_ref());
        self.game = Some(game);
        self.reply_clock.new_game();
        self.timeout = timeout;
        self.from_clock = false;
        self.side = if first { Side::First } else { Side::Second };
        if self.options.nodes > 0 {
            // Capped by nodes, a game depends on nothing but its own moves: from an empty table
            // (the old one would steer the search by the games before), so that a match plays the
            // same games whatever the jobs or shards that share out its games.
            self.memory().new_searcher();
        }
        self.memory().searcher.new_game();
        Ok(())
    }

    /// Sets the time allowed per move from now on (the Gomocup protocol sets it before each move).
    pub fn set_timeout(&mut self, timeout: Duration) {
        self.timeout = timeout;
        self.from_clock = false;
    }

    /// The next moves' time is `budget`, a share of a game clock (see [`Limits::from_clock`]).
    pub fn set_clock_budget(&mut self, budget: Duration) {
        self.timeout = budget;
        self.from_clock = true;
    }

    /// The game in progress.
    pub fn game(&self) -> Option<&dyn AnyGame> {
        self.game.as_deref()
    }

    fn game_mut(&mut self) -> Result<&mut Box<dyn AnyGame>> {
        self.game.as_mut().ok_or_else(|| anyhow!("no game: send init first"))
    }

    pub fn is_engine_turn(&self) -> bool {
        self.game.as_ref().is_some_and(|g| g.outcome().is_none() && g.to_move() == self.side)
    }

    /// The opponent played `text`.
    pub fn opponent_move(&mut self, text: &str) -> Result<()> {
        let side = self.side;
        let game = self.game_mut()?;
        if game.outcome().is_none() && game.to_move() == side {
            bail!("it is the engine's turn (send go)");
        }
        Ok(game.play(text)?)
    }

    /// Sets the game to the position after `words` (move text) from the start; all or nothing.
    /// `fen FEN [MV ...]`: the start becomes FEN first (the game's description with its `fen`
    /// option set to FEN, for the games that take one).
    pub fn set_position(&mut self, words: &[&str]) -> Result<()> {
        if let [key, fen, rest @ ..] = words {
            if key.eq_ignore_ascii_case("fen") {
                let spec = self.game_mut()?.spec().clone();
                let mut description: Vec<&str> = vec![spec.name()];
                description.extend(spec.size().iter().map(String::as_str));
                let options = spec.options();
                let mut i = 0;
                while i < options.len() {
                    if options[i].eq_ignore_ascii_case("fen") {
                        i += 2;
                    } else {
                        description.push(&options[i]);
                        i += 1;
                    }
                }
                description.extend(["fen", fen]);
                let spec = GameSpec::from_words(&description)?;
                let options = self.options.clone();
                let mut fresh = make_game(&spec, &self.memory().resources, &options)?;
                let moves = fresh.split_moves(rest)?;
                fresh.set_moves(&moves)?;
                self.copy_bytes = copy_bytes(fresh.as_ref());
                self.game = Some(fresh);
                return Ok(());
            }
        }
        let game = self.game_mut()?;
        let moves = game.split_moves(words)?;
        game.set_moves(&moves)
    }

    /// Picks and plays the engine's whole turn for the side to move, within the time budget
    /// counted from `start`. The engine plays that side from now on.
    pub fn think(&mut self, start: Instant, stop: Arc<AtomicBool>) -> Result<Turn> {
        let limits = if self.from_clock {
            Limits::from_clock(start, self.timeout, self.options.margin)
        } else {
            Limits::per_move(start, self.timeout, self.options.margin)
        }
        .with_soft_share(self.options.soft_share)
        .with_stop(stop)
        .widened(self.timeout, self.reply_clock.widen());
        let limits = Limits {
            max_nodes: (self.options.nodes > 0).then_some(self.options.nodes),
            selectivity: self.options.selectivity,
            ..limits
        };
        let threads = self.threads_for(limits.hard.unwrap_or(self.timeout));
        let request = Request {
            player: self.options.player,
            level: self.options.level,
            max_depth: self.options.max_depth.unwrap_or(u32::MAX),
            threads,
            limits,
            algorithm: self.options.algorithm,
            evaluation: self.options.evaluation.clone(),
        };
        self.memory();
        let game = self.game.as_mut().ok_or_else(|| anyhow!("no game: send init first"))?;
        if game.outcome().is_some() {
            bail!("the game is over");
        }
        if let Some(name) = &request.evaluation {
            let known = game.evaluations();
            if !known.iter().any(|(n, _)| n == name) {
                let names: Vec<&str> = known.iter().map(|(n, _)| *n).collect();
                bail!("this game has no evaluation '{name}' ({})", names.join(", "));
            }
        }
        self.side = game.to_move();
        let searcher = &mut self.memory.as_mut().expect("made above").searcher;
        let turn = game.think(searcher, &mut self.rng, &request);
        self.reply_clock.searched(&request.limits, self.timeout);
        Ok(turn)
    }

    /// The reply to the move searched last has been written (the protocols call this after
    /// each reply): its time is measured and logged, and a reply later than the search planned
    /// widens the margin for the rest of the game (see [`ReplyClock`]).
    pub fn reply_written(&mut self) {
        let Some(r) = self.reply_clock.written() else { return };
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        log::info!(
            "reply: {:.1} ms of {:.1} ms ({:.1} ms from the search's stop to the write, {:.1} ms past its plan)",
            ms(r.elapsed),
            ms(r.timeout),
            ms(r.after_stop),
            ms(r.late)
        );
        if r.widened {
            // A few milliseconds are the usual noise of a busy machine: said at info level.
            let level = if r.late >= Duration::from_millis(10) { log::Level::Warn } else { log::Level::Info };
            log::log!(
                level,
                "a reply came {:.1} ms past the search's plan ({:.1} ms of {:.1} ms): the margin is widened by {:.1} ms for the rest of the game",
                ms(r.late),
                ms(r.elapsed),
                ms(r.timeout),
                ms(self.reply_clock.widen())
            );
        }
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.game.as_ref().and_then(|g| g.outcome())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The engine's reply at `level` with `seed`, after `moves` of `spec`.
    fn reply(spec: &str, moves: &[&str], level: &str, seed: u64) -> String {
        let mut e = Engine::new(Options { seed: Some(seed), ..Options::default() });
        e.set_option("level", level).unwrap();
        e.new_game(&GameSpec::parse(spec).unwrap(), false, Duration::from_millis(200)).unwrap();
        e.set_position(moves).unwrap();
        e.think(Instant::now(), Arc::default()).unwrap().moves.join(" ")
    }

    #[test]
    fn levels_below_max_vary_their_moves_but_take_a_win() {
        let opening = ["3 3", "3 4", "4 4"];
        let easy: std::collections::HashSet<String> =
            (0..12).map(|seed| reply("mnk 7 7 5", &opening, "easy", seed)).collect();
        assert!(easy.len() > 1, "easy always plays {easy:?}");
        // Both sides have four in a row, the first to move: every level completes its five.
        let fours = ["0 0", "6 0", "0 1", "6 1", "0 2", "6 2", "0 3", "6 3"];
        for level in ["easy", "medium", "hard"] {
            for seed in 0..4 {
                assert_eq!(reply("mnk 7 7 5", &fours, level, seed), "0 4", "{level} seed {seed}");
            }
        }
    }

    #[test]
    fn a_node_cap_ends_the_search_within_it_and_repeats_its_moves() {
        let think = |nodes: &str| {
            let mut e = Engine::new(Options::default());
            e.set_option("nodes", nodes).unwrap();
            e.new_game(&GameSpec::parse("checkers english").unwrap(), true, Duration::from_secs(100)).unwrap();
            let turn = e.think(Instant::now(), Arc::default()).unwrap();
            (turn.moves, turn.thought.unwrap().nodes)
        };
        let (moves, nodes) = think("3000");
        // The cap is checked every few nodes.
        assert!((3000..3010).contains(&nodes), "{nodes}");
        assert_eq!(think("3000"), (moves, nodes), "the same search again");
        assert!(think("30000").1 >= 30000, "a higher cap, more nodes");
        assert!(Options::default().set("nodes", "-1").is_err());
    }

    #[test]
    fn weights_files_set_the_evaluation_in_a_game_and_across_games() {
        let dir = std::env::temp_dir();
        let path = |name: &str| dir.join(format!("boardbot-bot-{}-{name}", std::process::id()));
        let (heavy, bad) = (path("heavy.txt"), path("bad.txt"));
        std::fs::write(&heavy, "game checkers\nking_open 400\n").unwrap();
        std::fs::write(&bad, "game checkers\nqueen 9\n").unwrap();
        let mut e = Engine::new(Options::default());
        let checkers = GameSpec::parse("checkers english").unwrap();
        e.new_game(&checkers, true, Duration::from_secs(1)).unwrap();
        // The compiled-in value first (king_open is the second of checkers' weights).
        let compiled = crate::game::checkers::eval::DEFAULTS[1];
        assert_eq!(crate::game::checkers::eval::NAMES[1], "king_open");
        assert_eq!(e.game().unwrap().weights().unwrap().get("king_open"), Some(compiled));
        e.set_option("weights", heavy.to_str().unwrap()).unwrap();
        assert_eq!(e.game().unwrap().weights().unwrap().get("king_open"), Some(400), "the game in progress");
        e.new_game(&checkers, true, Duration::from_secs(1)).unwrap();
        assert_eq!(e.game().unwrap().weights().unwrap().get("king_open"), Some(400), "the next game");
        // Another game's weights do not touch a game of Connect-4, which has none.
        e.new_game(&GameSpec::parse("cx 6 7 4").unwrap(), true, Duration::from_secs(1)).unwrap();
        assert!(e.game().unwrap().weights().is_none());
        // A weight checkers does not have: refused when the game is made, nothing changed.
        e.new_game(&checkers, false, Duration::from_secs(1)).unwrap();
        e.opponent_move("11-15").unwrap();
        let err = e.set_option("weights", bad.to_str().unwrap()).unwrap_err().to_string();
        assert!(err.contains("unknown weight 'queen'"), "{err}");
        assert_eq!(e.options().weights.as_ref().unwrap().values, [("king_open".to_string(), 400)]);
        assert_eq!(e.game().unwrap().weights().unwrap().get("king_open"), Some(400));
        assert!(e.set_option("weights", path("missing.txt").to_str().unwrap()).is_err());
        e.set_option("weights", "default").unwrap();
        assert_eq!(e.game().unwrap().weights().unwrap().get("king_open"), Some(compiled));
        assert_eq!(e.game().unwrap().history(), ["11-15"], "the game goes on");
        for f in [heavy, bad] {
            let _ = std::fs::remove_file(f);
        }
    }

    /// `set net` (the options' `net`) sets the network of the game in progress and the next
    /// games: the search's node count at a fixed depth tells the evaluations apart.
    #[test]
    fn the_net_option_sets_the_evaluation_in_a_game_and_across_games() {
        let checkers = GameSpec::parse("checkers english").unwrap();
        let nodes = |e: &Engine| {
            let mut copy = Engine::new(e.options().clone());
            copy.new_game(e.game().unwrap().spec(), true, Duration::from_secs(100)).unwrap();
            copy.set_position(&["11-15"]).unwrap();
            copy.think(Instant::now(), Arc::default()).unwrap().thought.unwrap().nodes
        };
        let mut e = Engine::new(Options::default());
        e.set_option("depth", "6").unwrap();
        e.new_game(&checkers, false, Duration::from_secs(100)).unwrap();
        e.opponent_move("11-15").unwrap();
        let with_net = nodes(&e);
        e.set_option("net", "off").unwrap();
        assert_eq!(e.options().net, NetSetting::Off);
        assert_eq!(e.game().unwrap().history(), ["11-15"], "the game goes on");
        let features = nodes(&e);
        assert_ne!(with_net, features);
        // A file of the shipped net is the default; a damaged one changes nothing.
        let shipped = concat!(env!("CARGO_MANIFEST_DIR"), "/src/game/checkers/net/english.net");
        e.set_option("net", shipped).unwrap();
        assert_eq!(nodes(&e), with_net);
        let truncated = std::env::temp_dir().join(format!("boardbot-bot-{}-truncated.net", std::process::id()));
        std::fs::write(&truncated, &std::fs::read(shipped).unwrap()[..1000]).unwrap();
        let err = e.set_option("net", truncated.to_str().unwrap()).unwrap_err().to_string();
        assert!(err.starts_with("net: net ") && err.contains("truncated"), "{err}");
        assert!(matches!(&e.options().net, NetSetting::File { path, .. } if path == shipped));
        let _ = std::fs::remove_file(&truncated);
        let err = e.set_option("net", "Cargo.toml").unwrap_err().to_string();
        assert!(err.contains("not the evaluation network of any game"), "{err}");
        // Games without a network take any setting.
        e.new_game(&GameSpec::parse("cx 6 7 4").unwrap(), true, Duration::from_secs(1)).unwrap();
        e.set_option("net", "off").unwrap();
        e.set_option("net", "default").unwrap();
        assert_eq!(e.options().net, NetSetting::Default);
    }

    #[test]
    fn the_hash_caps_every_table_together() {
        for hash in [2, 64, 256] {
            let mut e = Engine::new(Options { hash_mb: hash, ..Options::default() });
            // A game of each kind that keeps tables in play.
            for spec in ["mnk 7 7 5", "cx 6 7 4"] {
                e.new_game(&GameSpec::parse(spec).unwrap(), true, Duration::from_secs(1)).unwrap();
            }
            let memory = e.memory.as_ref().unwrap();
            let tt = memory.searcher.table_bytes();
            let games = memory.resources.budget_mib() << 20;
            assert!(tt + games <= hash << 20, "hash {hash}: {tt} + {games} bytes");
        }
    }
}
