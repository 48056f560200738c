//! The engine's options, each declared once in [`OPTIONS`] with its name, default, kind (and
//! so its range), help and effect. The command line (one `--NAME VALUE` flag each), the
//! protocol's `set NAME VALUE`, `serve`'s form and JSON API all set options through this table:
//! [`Options::set`] from text, [`Options::set_value`] from a value already typed.

use crate::game::players::{Algorithm, Player, MAX_LEVEL};
use crate::search::{Selectivity, SelectivityOverride, WeightFile};
use anyhow::{anyhow, bail, Result};
use std::sync::Arc;
use std::time::Duration;

/// Engine options, settable from the command line and with `set KEY VALUE`; made with
/// [`Options::default`], every field at its [`OPTIONS`] default.
#[derive(Clone, Debug)]
pub struct Options {
    /// Kept free of each move's time budget for I/O, scheduling and the referee's own overhead
    /// (at most [`crate::search::clock::MARGIN_SHARE`] of the budget).
    pub margin: Duration,
    /// The memory cap of the engine's tables together, in MiB.
    pub hash_mb: usize,
    pub threads: usize,
    /// 1..=10; 10 is full strength, below that the engine is beatable and varied (see
    /// [`crate::game::players::MAX_LEVEL`]).
    pub level: u32,
    /// The seed of the random choices (the levels', the random and l1 players'); None: drawn
    /// from the operating system, so that every process plays its own games.
    pub seed: Option<u64>,
    pub player: Player,
    /// The search algorithm: the engine's own, or a textbook one (see [`Algorithm`]).
    pub algorithm: Algorithm,
    /// The search's depth cap, in plies; None: the clock decides.
    pub max_depth: Option<u32>,
    /// The evaluation of the textbook algorithms, by its name in the game's list
    /// (`Render::evaluations`); None: the engine's own.
    pub evaluation: Option<String>,
    /// The most nodes a search may take (0: no cap), besides the time: a search capped so
    /// plays the same moves however fast the machine is (within the time).
    pub nodes: u64,
    /// The evaluation's weights from a weights file (`boardbot tune`), for the games of its
    /// game; None: the compiled-in ones.
    pub weights: Option<Arc<WeightFile>>,
    /// The evaluation network of the games that have one.
    pub net: NetSetting,
    /// The values that take the place of the game's own selectivity (`reduction`,
    /// `pruning-depth`, ...; none by default).
    pub selectivity: SelectivityOverride,
    /// The share of a move's time after which no new iteration starts, in place of the clock's
    /// own ([`crate::search::clock::SOFT_SHARE`]); None: the clock's.
    pub soft_share: Option<f64>,
}

/// Which evaluation network the games that have one play with (see
/// [`crate::search::RootKnowledge::set_net`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum NetSetting {
    /// Each game's own choice (English checkers: the net built in).
    #[default]
    Default,
    /// No network: the games' hand-made evaluations.
    Off,
    /// A net file, read once (checked by [`super::check_net`] when set).
    File { path: String, bytes: Arc<[u8]> },
}

impl NetSetting {
    /// Sets the network of `game`, just made, as this setting says; a game that has no network,
    /// or of another kind than the file's, is left as it is.
    pub fn apply(&self, game: &mut dyn crate::game::any::AnyGame) -> Result<()> {
        let applied = match self {
            NetSetting::Default => return Ok(()),
            NetSetting::Off => game.set_net(None),
            NetSetting::File { bytes, .. } => game.set_net(Some(bytes)),
        };
        applied.map(|_| ()).map_err(|e| anyhow!("net: {e}"))
    }
}

/// What an option's value text may be; the text is read into a [`Value`] by [`Kind::parse`].
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// A whole number in `min..=max`; with `off`, also that word (or 0 when `min` is above 0)
    /// for "none".
    Number { min: u64, max: u64, off: Option<&'static str> },
    /// A level: 1..=10 or one of [`LEVELS`]' names.
    Level,
    /// A word, checked by the option's effect (a player, an algorithm, an evaluation).
    Word,
    /// A file's path, read by the option's effect; the word `default`: no file.
    File,
}

/// An option's value, typed: what [`Kind::parse`] makes of a text, or what a caller that holds
/// a number already (clap, serde) passes to [`Options::set_value`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Number(u64),
    /// None: the `off` word of a [`Kind::Number`], a [`Kind::File`]'s `default`.
    Off,
    Text(String),
}

/// One engine option.
pub struct OptionSpec {
    pub name: &'static str,
    /// Other names `set` accepts.
    pub aliases: &'static [&'static str],
    /// The value of [`Options::default`], as text (the help shows it).
    pub default: &'static str,
    /// For an option whose default is a game's own value (the search's selectivity): that value,
    /// given the game's [`Selectivity`], where the game has one (`boardbot spsa` starts there).
    pub own: Option<fn(&Selectivity) -> Option<u64>>,
    pub kind: Kind,
    /// The command line's help (the protocol's `help` lists the names).
    pub help: &'static str,
    /// Sets the option in `options` from a value of its kind (checked by [`OptionSpec::check`]
    /// first); an error leaves the caller's options untouched (the callers set a copy).
    apply: fn(&mut Options, Value) -> Result<()>,
}

/// Named levels and their numbers.
pub const LEVELS: [(&str, u32); 4] = [("easy", 2), ("medium", 4), ("hard", 7), ("max", 10)];
/// Default safety margin: protocol.md ("Time") gives the measurements behind it.
pub const DEFAULT_MARGIN_MS: u64 = 100;
pub const DEFAULT_HASH_MB: usize = 64;
pub const MAX_HASH_MB: usize = 16 * 1024;
/// The word of the search's options (`reduction`, ...) for "the game's own value".
pub const GAME_VALUE: &str = "default";
/// The deepest depth cap, in plies.
pub const MAX_DEPTH: u64 = 64;
pub const MAX_THREADS: u64 = 256;
/// The widest safety margin, in milliseconds (an hour).
pub const MAX_MARGIN_MS: u64 = 3_600_000;

fn number(v: Value) -> u64 {
    match v {
        Value::Number(n) => n,
        _ => 0,
    }
}

fn text(v: Value) -> Option<String> {
    match v {
        Value::Text(t) => Some(t),
        _ => None,
    }
}

/// Every engine option, in the order the help lists them.
pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "player",
        aliases: &[],
        default: "search",
        own: None,
        kind: Kind::Word,
        help: "Strategy: search (the engine), random, l1 / greedy (the game's reference player of the \
               courses), or abN (alpha-beta to N moves with the game's evaluation, no table)",
        apply: |o, v| {
            o.player = text(v).unwrap_or_default().parse()?;
            Ok(())
        },
    },
    OptionSpec {
        name: "margin",
        aliases: &["margin_ms"],
        default: "100",
        own: None,
        kind: Kind::Number { min: 0, max: MAX_MARGIN_MS, off: None },
        help: "Safety margin kept free of each move's time budget, in milliseconds",
        apply: |o, v| {
            o.margin = Duration::from_millis(number(v));
            Ok(())
        },
    },
    OptionSpec {
        name: "hash",
        aliases: &["hash_mb"],
        default: "64",
        own: None,
        kind: Kind::Number { min: 1, max: MAX_HASH_MB as u64, off: None },
        help: "Memory for all the engine's tables together, in MiB: half for the search's \
               transposition table, half for the exact solvers' tables and endgame databases",
        apply: |o, v| {
            o.hash_mb = number(v) as usize;
            Ok(())
        },
    },
    OptionSpec {
        name: "threads",
        aliases: &[],
        default: "1",
        own: None,
        kind: Kind::Number { min: 1, max: MAX_THREADS, off: None },
        help: "Search threads",
        apply: |o, v| {
            o.threads = number(v) as usize;
            Ok(())
        },
    },
    OptionSpec {
        name: "level",
        aliases: &[],
        default: "max",
        own: None,
        kind: Kind::Level,
        help: "Strength: easy, medium, hard, max, or 1..=10 (10 = max: full strength; below it the \
               engine is beatable and varied: a shallow search and a move drawn among the near-best)",
        apply: |o, v| {
            o.level = number(v) as u32;
            Ok(())
        },
    },
    OptionSpec {
        name: "seed",
        aliases: &[],
        default: "none",
        own: None,
        kind: Kind::Number { min: 0, max: u64::MAX, off: Some("none") },
        help: "Seed of the random choices (random and l1 players, the levels); none: drawn from the \
               operating system",
        apply: |o, v| {
            o.seed = matches!(v, Value::Number(_)).then(|| number(v));
            Ok(())
        },
    },
    OptionSpec {
        name: "nodes",
        aliases: &[],
        default: "0",
        own: None,
        kind: Kind::Number { min: 0, max: u64::MAX, off: None },
        help: "The most nodes a search may take (0: no cap), besides the time per move",
        apply: |o, v| {
            o.nodes = number(v);
            Ok(())
        },
    },
    OptionSpec {
        name: "weights",
        aliases: &[],
        default: "default",
        own: None,
        kind: Kind::File,
        help: "The evaluation's weights (a file from `boardbot tune`) for the games of its game; \
               default: the compiled-in ones",
        apply: |o, v| {
            o.weights = match text(v) {
                None => None,
                Some(path) => Some(Arc::new(super::read_weights(std::path::Path::new(&path))?)),
            };
            Ok(())
        },
    },
    OptionSpec {
        name: "net",
        aliases: &[],
        default: "default",
        own: None,
        kind: Kind::File,
        help: "The evaluation network of the games that have one (English checkers): a net file \
               (`boardbot train-net`), off (the hand-made evaluation), or default (the net built in)",
        apply: |o, v| {
            o.net = match text(v) {
                None => NetSetting::Default,
                Some(word) if ["off", "none", "features"].contains(&word.to_ascii_lowercase().as_str()) => {
                    NetSetting::Off
                }
                Some(path) => NetSetting::File { bytes: super::check_net(std::path::Path::new(&path))?.into(), path },
            };
            Ok(())
        },
    },
    OptionSpec {
        name: "algorithm",
        aliases: &[],
        default: "full",
        own: None,
        kind: Kind::Word,
        help: "The search algorithm: full (the engine's own) or a textbook one (minimax, alphabeta, ...)",
        apply: |o, v| {
            o.algorithm = text(v).unwrap_or_default().parse()?;
            Ok(())
        },
    },
    OptionSpec {
        name: "depth",
        aliases: &[],
        default: "none",
        own: None,
        kind: Kind::Number { min: 1, max: MAX_DEPTH, off: Some("none") },
        help: "The search's depth cap, in plies; none: the clock decides",
        apply: |o, v| {
            o.max_depth = matches!(v, Value::Number(_)).then(|| number(v) as u32);
            Ok(())
        },
    },
    OptionSpec {
        name: "evaluation",
        aliases: &["eval"],
        default: "standard",
        own: None,
        kind: Kind::Word,
        help: "The evaluation of the textbook algorithms, by its name in the game's list; standard: the \
               engine's own",
        apply: |o, v| {
            let e = text(v).unwrap_or_default().to_ascii_lowercase();
            o.evaluation = (!e.is_empty() && e != "standard").then_some(e);
            Ok(())
        },
    },
    OptionSpec {
        name: "reduction",
        aliases: &[],
        default: GAME_VALUE,
        own: Some(|s| s.reduction.map(|f| (f * 100.0).round() as u64)),
        kind: Kind::Number { min: 0, max: 300, off: Some(GAME_VALUE) },
        help: "Late-move reductions: the factor f of f x ln(depth) x ln(move number) plies, in \
               hundredths; default: the game's own (a game without the factor: the search's mild \
               reductions)",
        apply: |o, v| {
            o.selectivity.reduction = matches!(v, Value::Number(_)).then(|| number(v) as f32 / 100.0);
            Ok(())
        },
    },
    OptionSpec {
        name: "pruning-depth",
        aliases: &["pruning_depth"],
        default: GAME_VALUE,
        own: Some(|s| Some(s.pruning_depth as u64)),
        kind: Kind::Number { min: 0, max: 20, off: Some(GAME_VALUE) },
        help: "Late-move pruning at non-PV nodes up to this depth, in plies (0: none); default: the \
               game's own",
        apply: |o, v| {
            o.selectivity.pruning_depth = matches!(v, Value::Number(_)).then(|| number(v) as i32);
            Ok(())
        },
    },
    OptionSpec {
        name: "static-margin",
        aliases: &["static_margin"],
        default: GAME_VALUE,
        own: Some(|s| s.static_margin.map(|m| m as u64)),
        kind: Kind::Number { min: 0, max: 2000, off: Some(GAME_VALUE) },
        help: "Reverse futility pruning's margin a ply of depth, in the evaluation's units; default: \
               the game's own (none in some games)",
        apply: |o, v| {
            o.selectivity.static_margin = matches!(v, Value::Number(_)).then(|| number(v) as i32);
            Ok(())
        },
    },
    OptionSpec {
        name: "futility-margin",
        aliases: &["futility_margin"],
        default: GAME_VALUE,
        own: Some(|s| s.futility_margin.map(|m| m as u64)),
        kind: Kind::Number { min: 0, max: 2000, off: Some(GAME_VALUE) },
        help: "Futility pruning's margin a ply of depth, in the evaluation's units; default: the \
               game's own (none in some games)",
        apply: |o, v| {
            o.selectivity.futility_margin = matches!(v, Value::Number(_)).then(|| number(v) as i32);
            Ok(())
        },
    },
    OptionSpec {
        name: "null-reduction",
        aliases: &["null_reduction"],
        default: GAME_VALUE,
        own: Some(|s| Some(s.null_reduction as u64)),
        kind: Kind::Number { min: 0, max: 8, off: Some(GAME_VALUE) },
        help: "Null-move pruning's reduction, in plies, where the game allows a pass (0: none); \
               default: the game's own",
        apply: |o, v| {
            o.selectivity.null_reduction = matches!(v, Value::Number(_)).then(|| number(v) as i32);
            Ok(())
        },
    },
    OptionSpec {
        name: "singular-depth",
        aliases: &["singular_depth"],
        default: GAME_VALUE,
        own: Some(|s| Some(s.singular_depth as u64)),
        kind: Kind::Number { min: 0, max: MAX_DEPTH, off: Some(GAME_VALUE) },
        help: "Singular extensions at nodes of this depth and more, in plies (0: none); default: the \
               game's own",
        apply: |o, v| {
            o.selectivity.singular_depth = matches!(v, Value::Number(_)).then(|| number(v) as i32);
            Ok(())
        },
    },
    OptionSpec {
        name: "singular-margin",
        aliases: &["singular_margin"],
        default: GAME_VALUE,
        own: Some(|s| Some(s.singular_margin as u64)),
        kind: Kind::Number { min: 0, max: 200, off: Some(GAME_VALUE) },
        help: "The singular search's margin below the table's score a ply of depth, in the \
               evaluation's units; default: the game's own",
        apply: |o, v| {
            o.selectivity.singular_margin = matches!(v, Value::Number(_)).then(|| number(v) as i32);
            Ok(())
        },
    },
    OptionSpec {
        name: "soft-share",
        aliases: &["soft_share"],
        default: GAME_VALUE,
        own: Some(|_| Some((crate::search::clock::SOFT_SHARE * 100.0).round() as u64)),
        kind: Kind::Number { min: 1, max: 100, off: Some(GAME_VALUE) },
        help: "The percentage of a move's time after which no new iteration of the search starts; \
               default: the clock's own (85 a move, 50 of a move's share of a game clock)",
        apply: |o, v| {
            o.soft_share = matches!(v, Value::Number(_)).then(|| number(v) as f64 / 100.0);
            Ok(())
        },
    },
];

/// The option named `key` (or one of its aliases), any case.
pub fn option(key: &str) -> Result<&'static OptionSpec> {
    OPTIONS
        .iter()
        .find(|o| o.name.eq_ignore_ascii_case(key) || o.aliases.iter().any(|a| a.eq_ignore_ascii_case(key)))
        .ok_or_else(|| anyhow!("unknown option '{key}' ({})", names()))
}

/// The options' names, comma-separated.
pub fn names() -> String {
    OPTIONS.iter().map(|o| o.name).collect::<Vec<_>>().join(", ")
}

/// A whole number written with ASCII digits only (no sign, no blanks).
pub fn whole_number(v: &str) -> Result<u64> {
    if v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) {
        bail!("'{v}' is not a whole number");
    }
    v.parse::<u64>().map_err(|_| anyhow!("'{v}' is too large"))
}

/// A level: 1..=10 or a name (easy, medium, hard, max).
pub fn parse_level(v: &str) -> Result<u32> {
    match Kind::Level.parse("level", v)? {
        Value::Number(n) => Ok(n as u32),
        _ => unreachable!("a level is a number"),
    }
}

impl Kind {
    /// The value `text` stands for, in range, or why not (the message names the option).
    pub fn parse(self, name: &str, text: &str) -> Result<Value> {
        let value = match self {
            Kind::Number { min, off: Some(word), .. }
                if text.eq_ignore_ascii_case(word) || (min > 0 && text == "0") =>
            {
                Value::Off
            }
            Kind::Number { .. } => match whole_number(text) {
                Ok(n) => Value::Number(n),
                Err(_) => return Err(self.wrong(name, text)),
            },
            Kind::Level => match LEVELS.iter().find(|(l, _)| l.eq_ignore_ascii_case(text)) {
                Some(&(_, n)) => Value::Number(n as u64),
                None => Value::Number(whole_number(text).map_err(|_| self.wrong(name, text))?),
            },
            Kind::File if text == "default" => Value::Off,
            Kind::Word | Kind::File => Value::Text(text.to_string()),
        };
        self.check(name, &value).map_err(|_| self.wrong(name, text))?;
        Ok(value)
    }

    /// Whether `value` is of this kind and in its range.
    pub fn check(self, name: &str, value: &Value) -> Result<()> {
        let ok = match (self, value) {
            (Kind::Number { min, max, .. }, Value::Number(n)) => (min..=max).contains(n),
            (Kind::Number { off, .. }, Value::Off) => off.is_some(),
            (Kind::Level, Value::Number(n)) => (1..=MAX_LEVEL as u64).contains(n),
            (Kind::Word, Value::Text(_)) | (Kind::File, Value::Text(_) | Value::Off) => true,
            _ => false,
        };
        if ok {
            return Ok(());
        }
        let shown = match value {
            Value::Number(n) => n.to_string(),
            Value::Off => "none".to_string(),
            Value::Text(t) => t.clone(),
        };
        Err(self.wrong(name, &shown))
    }

    /// What the values of this kind are, as the help and the errors say it.
    pub fn describe(self) -> String {
        match self {
            Kind::Number { min, max: u64::MAX, off } => {
                format!("a whole number from {min}{}", off.map(|w| format!(", or {w}")).unwrap_or_default())
            }
            Kind::Number { min, max, off } => {
                format!("a number from {min} to {max}{}", off.map(|w| format!(", or {w}")).unwrap_or_default())
            }
            Kind::Level => format!("easy, medium, hard, max or a number from 1 to {MAX_LEVEL}"),
            Kind::Word => "a word".to_string(),
            Kind::File => "a file's path, or default".to_string(),
        }
    }

    fn wrong(self, name: &str, text: &str) -> anyhow::Error {
        anyhow!("{name} must be {}; got '{text}'", self.describe())
    }
}

impl OptionSpec {
    /// The value `text` stands for, or why not.
    pub fn parse(&self, text: &str) -> Result<Value> {
        self.kind.parse(self.name, text)
    }
}

impl Default for Options {
    fn default() -> Self {
        let mut o = Options {
            margin: Duration::ZERO,
            hash_mb: 0,
            threads: 0,
            level: 0,
            seed: None,
            player: Player::Search,
            algorithm: Algorithm::Full,
            max_depth: None,
            evaluation: None,
            nodes: 0,
            weights: None,
            net: NetSetting::Default,
            selectivity: SelectivityOverride::default(),
            soft_share: None,
        };
        for spec in OPTIONS {
            o.set(spec.name, spec.default).expect("an option's default is a value of it");
        }
        o
    }
}

impl Options {
    /// Sets one option by name from its value's text; nothing changes on error.
    pub fn set(&mut self, key: &str, text: &str) -> Result<()> {
        let spec = option(key)?;
        let value = spec.parse(text)?;
        self.apply(spec, value)
    }

    /// Sets one option by name from a typed value, checked against the option's kind and range
    /// first; nothing changes on error.
    pub fn set_value(&mut self, key: &str, value: Value) -> Result<()> {
        let spec = option(key)?;
        spec.kind.check(spec.name, &value)?;
        self.apply(spec, value)
    }

    fn apply(&mut self, spec: &OptionSpec, value: Value) -> Result<()> {
        let mut next = self.clone();
        (spec.apply)(&mut next, value).map_err(|e| anyhow!("{}: {e}", spec.name))?;
        *self = next;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_come_from_the_table() {
        let o = Options::default();
        assert_eq!((o.margin, o.hash_mb, o.threads, o.level), (Duration::from_millis(100), 64, 1, 10));
        assert_eq!((o.seed, o.max_depth, o.nodes), (None, None, 0));
        assert_eq!((o.player, o.algorithm), (Player::Search, Algorithm::Full));
        assert!(o.evaluation.is_none() && o.weights.is_none());
        assert_eq!(o.margin.as_millis() as u64, DEFAULT_MARGIN_MS);
        assert_eq!(o.hash_mb, DEFAULT_HASH_MB);
    }

    #[test]
    fn values_out_of_range_are_refused_and_change_nothing() {
        let mut o = Options::default();
        for (key, text) in [("hash", "0"), ("hash", "16385"), ("threads", "0"), ("threads", "257"), ("depth", "65")] {
            let err = o.set(key, text).unwrap_err().to_string();
            assert!(err.starts_with(&format!("{key} must be a number from ")), "{err}");
        }
        assert!(o.set("level", "11").unwrap_err().to_string().contains("level must be easy"));
        assert!(o.set("nodes", "-1").is_err());
        assert!(o.set_value("depth", Value::Number(65)).unwrap_err().to_string().contains("got '65'"));
        assert!(o.set_value("hash", Value::Off).is_err());
        assert!(o.set("player", "nobody").is_err());
        assert!(o.set("colour", "red").unwrap_err().to_string().contains("(player, margin, hash,"));
        let d = Options::default();
        assert_eq!((o.hash_mb, o.threads, o.max_depth, o.level), (d.hash_mb, d.threads, d.max_depth, d.level));
        o.set("depth", "0").unwrap();
        assert_eq!(o.max_depth, None);
        o.set("DEPTH", "64").unwrap();
        assert_eq!(o.max_depth, Some(64));
        o.set("hash_mb", "16384").unwrap();
        assert_eq!(o.hash_mb, 16384);
        o.set("level", "Hard").unwrap();
        assert_eq!(o.level, 7);
        o.set("seed", "none").unwrap();
        assert_eq!(o.seed, None);
    }

    #[test]
    fn the_search_options_default_to_the_games_own_values() {
        let mut o = Options::default();
        assert_eq!((o.selectivity, o.soft_share), (SelectivityOverride::default(), None));
        o.set("reduction", "80").unwrap();
        o.set("static_margin", "0").unwrap();
        o.set("singular-depth", "7").unwrap();
        o.set("soft-share", "60").unwrap();
        assert_eq!(o.selectivity.reduction, Some(0.8));
        assert_eq!((o.selectivity.static_margin, o.selectivity.singular_depth), (Some(0), Some(7)));
        assert_eq!(o.soft_share, Some(0.6));
        let own =
            Selectivity { reduction: Some(0.5), static_margin: Some(60), singular_margin: 3, ..Selectivity::default() };
        let sel = o.selectivity.apply(own);
        assert_eq!(
            (sel.reduction, sel.static_margin, sel.singular_depth, sel.singular_margin),
            (Some(0.8), Some(0), 7, 3)
        );
        assert_eq!(SelectivityOverride::default().apply(own), own);
        for (key, text) in [("reduction", "301"), ("reduction", "0.8"), ("null-reduction", "9"), ("soft-share", "x")] {
            let err = o.set(key, text).unwrap_err().to_string();
            assert!(
                err.starts_with(&format!("{key} must be a number from "))
                    && err.ends_with(&format!(", or default; got '{text}'")),
                "{err}"
            );
        }
        o.set("reduction", "default").unwrap();
        assert_eq!(o.selectivity.reduction, None);
        // The game's own values, as `boardbot spsa` starts from them.
        let spec = option("reduction").unwrap();
        assert_eq!(spec.own.unwrap()(&own), Some(50));
        assert_eq!(spec.own.unwrap()(&Selectivity::default()), None);
        assert_eq!(option("soft-share").unwrap().own.unwrap()(&own), Some(85));
    }
}
