//! `boardbot selfplay`: the engine plays itself and writes the positions of its games, each with
//! the game's result and the search's score, for tuning an evaluation (`boardbot tune`).
//!
//! The file is text, one position a line after `#` header lines that say how the games were
//! played (the game, the search's limit, the seed, the openings, the hash, the weights):
//!
//! ```text
//! GAME <tab> K/N <tab> RESULT <tab> SCORE <tab> POSITION
//! ```
//!
//! GAME numbers the game from 1; K/N: the K-th of its N positions; RESULT: the game's result from
//! the first player's view (`1-0`, `0-1`, `1/2-1/2`); SCORE: the search's score from the side to
//! move's view, in the evaluation's units (`-` when the move needed no search); POSITION: `fen
//! FEN` for the games that have a FEN (checkers), else `moves M1 M2 ...`, the moves from the start
//! in move text (`ROW,COL` for m,n,k cells). A position is recorded before each turn the engine
//! plays after the opening.
//!
//! **Reproducible.** Game i (from 1) starts from the given opening i - 1 (cycling through them),
//! then `--opening` random plies drawn from seed SEED + i. With `--nodes` every search stops after
//! that many nodes, on one thread, from an empty table for each game, the endgame tables ready
//! first: the games, and so the file, depend on the settings alone, not on the machine, the
//! number of jobs or interruptions. With `--time` they do not.
//!
//! **Sharded.** `--shard I/N` plays only the games g with (g - 1) mod N = I - 1 of the run's
//! `--games` (the same games, numbers and seeds); its header says `# shard I/N`, and `boardbot
//! merge` puts the shards' files together as the file one run writes.
//!
//! **Binary.** With `--format bin` the same header and records go to a binary file, the
//! positions packed (checkers: 29 bytes a position; [`binary`] gives the layout), for training
//! on millions of positions; `boardbot train-net` reads both forms.
//!
//! **Deeper labels for the endgame.** With `--deep-nodes N --deep-pieces P` the positions with P
//! pieces or fewer are searched with N nodes (the move played and its score): their searches
//! reach the endgame databases.
//!
//! **Resumable.** Games are written whole, in order. Run again with the same settings and `--out`,
//! it keeps the complete games already there, drops a game cut off part-way, and plays on.

pub mod binary;

use crate::game::any::{AnyGame, Request, MAX_LEVEL};
use crate::game::registry::{opening_set, GameSpec, Resources};
use crate::game::render::Packed;
use crate::game::{Outcome, Side};
use crate::referee::game::Opening;
use crate::referee::progress::Progress;
use crate::referee::report::moves_text;
use crate::referee::shard::Shard;
use crate::search::weights::WeightFile;
use crate::search::{Limits, Searcher};
use anyhow::{anyhow, bail, Context, Result};
use binary::BinRecord;
use clap::{ArgGroup, Args, ValueEnum};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The engine plays itself; the positions of its games go to a file.
#[derive(Args, Clone, Debug)]
#[command(group(ArgGroup::new("limit").required(true).args(["time", "nodes"])))]
pub struct SelfplayArgs {
    /// The game, as `init` describes it: `checkers english`, `cx 6 7 4`, `mnk 7 7 5`, `kalah 6 4`.
    #[arg(value_name = "GAME", num_args = 1.., required = true)]
    game: Vec<String>,
    /// Games to have in the file (those already there count).
    #[arg(long)]
    games: usize,
    /// Seconds per move (games then depend on the machine's speed).
    #[arg(long, value_name = "SECS")]
    time: Option<f64>,
    /// Nodes per move: reproducible games.
    #[arg(long)]
    nodes: Option<u64>,
    /// Openings: a file (one a line, move text, '#' comments) or a built-in set of the game
    /// (acf3: checkers' 156 three-move ballots); game i starts from opening i - 1, cycling.
    #[arg(long, value_name = "FILE|SET")]
    openings: Option<PathBuf>,
    /// Random plies after the opening (from SEED + i in game i), so that games differ.
    #[arg(long, value_name = "PLIES", default_value_t = 4)]
    opening: usize,
    /// The file of positions (continued if it holds games of the same settings).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Games played at the same time (a job loads about one core).
    #[arg(long, short, default_value_t = 1)]
    jobs: usize,
    /// Memory for the tables in MiB, per job for the search's table (half), shared for the
    /// games' tables (half).
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// The evaluation's weights (a file from `boardbot tune`); the compiled-in ones otherwise.
    #[arg(long, value_name = "FILE")]
    weights: Option<PathBuf>,
    /// Plays shard I of N (1 <= I <= N): only the games g (from 1) of the run with (g - 1) mod N
    /// = I - 1, the same games as in the whole run; `boardbot merge` joins the shards' files.
    #[arg(long, value_name = "I/N")]
    shard: Option<Shard>,
    /// The file's form: text lines, or binary records (packed positions; checkers only).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Nodes per move in the positions with `--deep-pieces` pieces or fewer (with `--nodes`).
    #[arg(long, value_name = "NODES", requires = "deep_pieces")]
    deep_nodes: Option<u64>,
    /// The most pieces a position has for `--deep-nodes` to apply (games with packed positions).
    #[arg(long, value_name = "PIECES", requires = "deep_nodes")]
    deep_pieces: Option<u8>,
    /// A game ends at the first search that proves its result (a database's or a solver's value,
    /// or a search that saw every line to the end), with that result: no endgame played out.
    #[arg(long)]
    adjudicate: bool,
    /// No progress on stderr.
    #[arg(long, short)]
    quiet: bool,
}

/// The self-play file's form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Bin,
}

/// How long the engine thinks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Limit {
    Nodes(u64),
    Time(Duration),
}

/// Everything a game depends on.
#[derive(Clone, Debug)]
pub struct Settings {
    pub spec: GameSpec,
    pub limit: Limit,
    pub seed: u64,
    /// The openings, and how the header names them.
    pub openings: Vec<Vec<String>>,
    pub openings_name: String,
    pub opening_plies: usize,
    pub hash_mb: usize,
    pub weights: Option<WeightFile>,
    /// The evaluation network (the `net` option).
    pub net: crate::bot::NetSetting,
    /// The games of the run this file holds.
    pub shard: Shard,
    pub format: Format,
    /// (pieces, nodes): positions with that many pieces or fewer are searched with those nodes.
    pub deep: Option<(u8, u64)>,
    /// A proved result ends the game.
    pub adjudicate: bool,
}

impl Settings {
    /// The file's header: what the games depend on, one `#` line each.
    pub fn header(&self, weights_text: &str) -> String {
        let limit = match self.limit {
            Limit::Nodes(n) => format!("nodes {n}"),
            Limit::Time(d) => format!("time {}", d.as_secs_f64()),
        };
        format!(
            "# boardbot selfplay: GAME, K/N (its K-th of N positions), RESULT (first player's view), \
             SCORE (search, side to move's view), POSITION\n\
             # game {}\n# limit {limit}\n# seed {}\n# openings {} then {} random plies\n# hash {}\n# weights {weights_text}\n{}{}",
            self.spec,
            self.seed,
            self.openings_name,
            self.opening_plies,
            self.hash_mb,
            match (self.deep, self.adjudicate) {
                (Some((pieces, nodes)), a) => format!(
                    "# deep nodes {nodes} at {pieces} pieces or fewer\n{}",
                    if a { "# adjudicated at a proved result\n" } else { "" }
                ),
                (None, true) => "# adjudicated at a proved result\n".to_string(),
                (None, false) => String::new(),
            },
            match self.shard.is_whole() {
                true => String::new(),
                false => format!("# shard {}\n", self.shard),
            }
        )
    }

    /// The opening of game `number` (from 1).
    fn opening(&self, number: usize) -> Opening {
        let seed = self.seed.wrapping_add(number as u64);
        match self.openings.len() {
            0 => Opening::Random { plies: self.opening_plies, seed },
            n => Opening::MovesThenRandom {
                moves: self.openings[(number - 1) % n].clone(),
                plies: self.opening_plies,
                seed,
            },
        }
    }
}

/// A new game of the settings, its weights set and its background tables ready.
fn new_game(settings: &Settings, resources: &Resources) -> Result<Box<dyn AnyGame>> {
    let mut game = settings.spec.new_game(resources)?;
    if let Some(file) = &settings.weights {
        game.set_weights(file)?;
    }
    settings.net.apply(game.as_mut())?;
    game.wait_until_ready();
    Ok(game)
}

/// The position's text in the file: `fen FEN` or `moves ...`.
pub fn position_text(game: &dyn AnyGame) -> String {
    match game.fen() {
        Some(fen) => format!("fen {fen}"),
        None => format!("moves {}", moves_text(&game.history())).trim_end().to_string(),
    }
}

/// A position of a played game as recorded.
pub struct Recorded {
    pub text: String,
    pub packed: Option<Packed>,
    pub score: Option<i32>,
}

/// A game played: its number, result and positions.
pub struct PlayedGame {
    pub number: usize,
    pub outcome: Option<Outcome>,
    pub positions: Vec<Recorded>,
}

impl PlayedGame {
    fn result_text(&self) -> &'static str {
        match self.outcome {
            Some(Outcome::Win(Side::First)) => "1-0",
            Some(Outcome::Win(Side::Second)) => "0-1",
            _ => "1/2-1/2",
        }
    }

    /// The game's lines of a text file.
    pub fn text(&self) -> String {
        let n = self.positions.len();
        let mut text = String::new();
        for (k, p) in self.positions.iter().enumerate() {
            let score = p.score.map_or("-".to_string(), |s| s.to_string());
            text.push_str(&format!("{}\t{}/{n}\t{}\t{score}\t{}\n", self.number, k + 1, self.result_text(), p.text));
        }
        text
    }

    /// The game's records of a binary file.
    pub fn binary(&self) -> Result<Vec<u8>> {
        let n = u16::try_from(self.positions.len()).map_err(|_| anyhow!("game {}: too long", self.number))?;
        let result = match self.outcome {
            Some(Outcome::Win(Side::First)) => 1,
            Some(Outcome::Win(Side::Second)) => -1,
            _ => 0,
        };
        let mut out = Vec::new();
        for (k, p) in self.positions.iter().enumerate() {
            let packed =
                p.packed.as_ref().ok_or_else(|| anyhow!("game {}: a position without a packed form", self.number))?;
            BinRecord {
                game: self.number as u32,
                index: k as u16 + 1,
                count: n,
                result,
                pieces: packed.pieces,
                score: p.score,
                position: packed.bytes.clone(),
            }
            .write(&mut out);
        }
        Ok(out)
    }

    /// The game as the file's format writes it.
    pub fn bytes(&self, format: Format) -> Result<Vec<u8>> {
        match format {
            Format::Text => Ok(self.text().into_bytes()),
            Format::Bin => self.binary(),
        }
    }
}

/// Plays game `number` (from 1).
pub fn play_game(settings: &Settings, resources: &Resources, number: usize) -> Result<PlayedGame> {
    let mut game = new_game(settings, resources)?;
    settings.opening(number).play(game.as_mut()).map_err(|e| anyhow!("game {number}: opening: {e}"))?;
    let mut searcher = Searcher::new((settings.hash_mb / 2).max(1));
    let mut rng = SmallRng::seed_from_u64(settings.seed.wrapping_add(number as u64));
    let mut positions: Vec<Recorded> = Vec::new();
    let mut adjudicated = None;
    // Every game ends by its rules; the cap only guards against a game that would not.
    const MAX_TURNS: usize = 2000;
    while game.outcome().is_none() && !game.is_dead_draw() && positions.len() < MAX_TURNS {
        let packed = game.packed();
        let deep = match (settings.deep, &packed) {
            (Some((pieces, nodes)), Some(p)) if p.pieces <= pieces => Some(nodes),
            _ => None,
        };
        let limits = match settings.limit {
            Limit::Nodes(n) => Limits { max_nodes: Some(deep.unwrap_or(n)), ..Limits::infinite() },
            Limit::Time(t) => Limits::per_move(Instant::now(), t, Duration::ZERO),
        };
        let request = Request {
            player: crate::game::any::Player::Search,
            level: MAX_LEVEL,
            max_depth: u32::MAX,
            threads: 1,
            limits,
            algorithm: crate::game::any::Algorithm::Full,
            evaluation: None,
        };
        let text = position_text(game.as_ref());
        let mover = game.to_move();
        let turn = game.think(&mut searcher, &mut rng, &request);
        let score = turn.thought.as_ref().filter(|t| t.depth > 0 || t.proved).map(|t| t.score);
        positions.push(Recorded { text, packed, score });
        if let Some(t) = turn.thought.as_ref().filter(|t| settings.adjudicate && t.proved) {
            adjudicated = Some(match t.score {
                0 => Outcome::Draw,
                s if s > 0 => Outcome::Win(mover),
                _ => Outcome::Win(mover.other()),
            });
            break;
        }
    }
    Ok(PlayedGame { number, outcome: adjudicated.or(game.outcome()), positions })
}

/// One line of a self-play file.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub game: usize,
    pub index: usize,
    pub count: usize,
    /// The first player's score: 1, 1/2 or 0.
    pub result: f64,
    pub score: Option<i32>,
    pub position: String,
}

impl Record {
    pub fn parse(line: &str) -> Result<Record> {
        let fields: Vec<&str> = line.splitn(5, '\t').collect();
        let [game, kn, result, score, position] = fields[..] else {
            bail!("expected 5 tab-separated fields");
        };
        let number = |t: &str| t.parse::<usize>().map_err(|_| anyhow!("'{t}' is not a number"));
        let (k, n) = kn.split_once('/').ok_or_else(|| anyhow!("'{kn}' is not K/N"))?;
        let (index, count) = (number(k)?, number(n)?);
        if index == 0 || index > count {
            bail!("position {kn}");
        }
        let result = match result {
            "1-0" => 1.0,
            "0-1" => 0.0,
            "1/2-1/2" => 0.5,
            r => bail!("'{r}' is not a result"),
        };
        let score = match score {
            "-" => None,
            s => Some(s.parse::<i32>().map_err(|_| anyhow!("'{s}' is not a score"))?),
        };
        Ok(Record { game: number(game)?, index, count, result, score, position: position.to_string() })
    }
}

/// The header of a self-play file's text (its leading `#` lines) and its records.
pub fn read(text: &str) -> Result<(String, Vec<Record>)> {
    let header: String = text.lines().take_while(|l| l.starts_with('#')).map(|l| format!("{l}\n")).collect();
    let records = text
        .lines()
        .enumerate()
        .skip_while(|(_, l)| l.starts_with('#'))
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| Record::parse(l).map_err(|e| anyhow!("line {}: {e}", i + 1)))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((header, records))
}

/// The value of the header line `# KEY VALUE`.
pub fn header_value<'a>(header: &'a str, key: &str) -> Option<&'a str> {
    header.lines().find_map(|l| l.strip_prefix("# ")?.strip_prefix(key)?.strip_prefix(' '))
}

/// Where a file's complete games end: the number of the last complete game and the byte length
/// of the text up to its last line. A game's lines are consecutive, K = 1..N; what follows the
/// last complete game (a game cut off part-way) is not kept.
pub(crate) fn complete_games(text: &str, header_len: usize) -> (usize, usize) {
    let (mut last, mut keep) = (0, header_len);
    let mut expect: Option<(usize, usize)> = None; // (game, next K) of the game in progress
    let mut offset = header_len;
    for line in text[header_len..].split_inclusive('\n') {
        offset += line.len();
        let Ok(r) = Record::parse(line.trim_end_matches('\n')) else { break };
        if !line.ends_with('\n') {
            break;
        }
        let continues = match expect {
            Some((g, k)) => r.game == g && r.index == k,
            None => r.game > last && r.index == 1,
        };
        if !continues {
            break;
        }
        if r.index == r.count {
            (last, keep, expect) = (r.game, offset, None);
        } else {
            expect = Some((r.game, r.index + 1));
        }
    }
    (last, keep)
}

/// Reads the openings: a built-in set of the game, else a file.
fn read_openings(spec: &GameSpec, source: &Path) -> Result<Vec<Vec<String>>> {
    let text = match source.to_str().and_then(|name| opening_set(spec.name(), name)) {
        Some(text) => text.to_string(),
        None => std::fs::read_to_string(source).with_context(|| format!("reading {}", source.display()))?,
    };
    let openings: Vec<Vec<String>> = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").split_whitespace().map(String::from).collect::<Vec<_>>())
        .filter(|m| !m.is_empty())
        .collect();
    if openings.is_empty() {
        bail!("{}: no openings", source.display());
    }
    for (i, moves) in openings.iter().enumerate() {
        let mut game = spec.new_game(&Resources::none())?;
        Opening::Moves(moves.clone())
            .play(game.as_mut())
            .map_err(|e| anyhow!("{}: opening {}: {e}", source.display(), i + 1))?;
    }
    Ok(openings)
}

/// Runs `boardbot selfplay`.
pub fn run(args: SelfplayArgs, net: &crate::bot::NetSetting) -> Result<()> {
    let words: Vec<&str> = args.game.iter().map(String::as_str).collect();
    let spec = GameSpec::from_words(&words)?;
    let limit = match (args.nodes, args.time) {
        (Some(0), _) => bail!("--nodes must be at least 1"),
        (Some(n), _) => Limit::Nodes(n),
        (None, Some(t)) if t.is_finite() && t > 0.0 && t <= 86_400.0 => Limit::Time(Duration::from_secs_f64(t)),
        (None, t) => bail!("--time must be a number of seconds in (0, 86400], got {t:?}"),
    };
    if args.jobs == 0 || args.hash == 0 {
        bail!("--jobs and --hash must be at least 1");
    }
    let openings = match &args.openings {
        Some(source) => read_openings(&spec, source)?,
        None => Vec::new(),
    };
    let weights = match &args.weights {
        Some(path) => {
            let file = WeightFile::read(path)?;
            if file.game != spec.name() {
                bail!("{}: weights for {}, not {}", path.display(), file.game, spec.name());
            }
            Some(file)
        }
        None => None,
    };
    let settings = Settings {
        spec,
        limit,
        seed: args.seed,
        openings,
        openings_name: args.openings.as_ref().map_or("none".to_string(), |p| p.display().to_string()),
        opening_plies: args.opening,
        hash_mb: args.hash,
        weights,
        net: net.clone(),
        shard: args.shard.unwrap_or_default(),
        format: args.format,
        deep: match (args.deep_pieces, args.deep_nodes, limit) {
            (Some(_), Some(0), _) => bail!("--deep-nodes must be at least 1"),
            (Some(pieces), Some(nodes), Limit::Nodes(_)) => Some((pieces, nodes)),
            (Some(_), Some(_), Limit::Time(_)) => bail!("--deep-nodes goes with --nodes, not --time"),
            _ => None,
        },
        adjudicate: args.adjudicate,
    };
    let resources = Resources::new(args.hash - args.hash / 2);
    let probe = new_game(&settings, &resources)?;
    let weights_text = match probe.weights() {
        Some(w) => w.names().iter().zip(w.values()).map(|(n, v)| format!("{n}={v}")).collect::<Vec<_>>().join(" "),
        None => "none".to_string(),
    };
    let mut header = settings.header(&weights_text);
    if settings.format == Format::Bin {
        let Some(packed) = probe.packed() else {
            bail!("{} has no packed positions: use --format text", settings.spec);
        };
        header.push_str(&format!("{}{}\n", binary::RECORDS_LINE, binary::FIXED + packed.bytes.len()));
    }
    let done = prepare_file(&args.out, &header, settings.format)?;
    // This shard's games still to play, in order (the file holds its games up to `done`).
    let todo: Vec<usize> = (done + 1..=args.games).filter(|g| settings.shard.holds(g - 1)).collect();
    if todo.is_empty() {
        eprintln!("{}: complete up to game {done}, --games {}", args.out.display(), args.games);
        return Ok(());
    }
    let mut out =
        OpenOptions::new().append(true).open(&args.out).with_context(|| format!("opening {}", args.out.display()))?;
    let progress = Progress::new(todo.len(), args.quiet, true);
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(usize, Result<(usize, Vec<u8>)>)>();
    let mut failure: Option<anyhow::Error> = None;
    std::thread::scope(|scope| {
        for _ in 0..args.jobs.min(todo.len()) {
            let (tx, next, stop, settings, resources, todo) = (tx.clone(), &next, &stop, &settings, &resources, &todo);
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let Some(&number) = todo.get(next.fetch_add(1, Ordering::Relaxed)) else { break };
                    let played = play_game(settings, resources, number)
                        .and_then(|g| Ok((g.positions.len(), g.bytes(settings.format)?)));
                    if tx.send((number, played)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        // Games are written in order, each whole.
        let mut waiting = BTreeMap::new();
        let (mut written, mut finished) = (0, 0);
        for (number, text) in rx {
            match text {
                Ok((positions, bytes)) => {
                    finished += 1;
                    progress.game(finished, &format!("game {number}: {positions} positions"));
                    waiting.insert(number, bytes);
                }
                Err(e) => {
                    stop.store(true, Ordering::Relaxed);
                    failure.get_or_insert(anyhow!(e));
                }
            }
            while let Some(bytes) = todo.get(written).and_then(|n| waiting.remove(n)) {
                if let Err(e) = out.write_all(&bytes).and_then(|_| out.flush()) {
                    stop.store(true, Ordering::Relaxed);
                    failure.get_or_insert(anyhow!("writing {}: {e}", args.out.display()));
                    break;
                }
                written += 1;
            }
        }
    });
    progress.finish();
    if let Some(e) = failure {
        return Err(e);
    }
    match settings.shard.is_whole() {
        true => eprintln!("{}: {} games", args.out.display(), args.games),
        false => eprintln!("{}: shard {} of {} games", args.out.display(), settings.shard, args.games),
    }
    Ok(())
}

/// Makes `path` ready for games after those it holds: a new file with `header`, or an existing
/// one with the same header cut after its last complete game. Returns the games it holds.
fn prepare_file(path: &Path, header: &str, format: Format) -> Result<usize> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => bail!("reading {}: {e}", path.display()),
    };
    if bytes.is_empty() {
        std::fs::write(path, header).with_context(|| format!("writing {}", path.display()))?;
        return Ok(0);
    }
    if !bytes.starts_with(header.as_bytes()) {
        bail!(
            "{} holds games of other settings (its header differs from:\n{header}); delete it or choose another --out",
            path.display()
        );
    }
    let (games, keep) = match format {
        Format::Text => {
            let text = std::str::from_utf8(&bytes).map_err(|_| anyhow!("{}: not a text file", path.display()))?;
            complete_games(text, header.len())
        }
        Format::Bin => {
            let size = binary::split(header.as_bytes())?.1;
            let (games, keep) = binary::complete_games(&bytes[header.len()..], size);
            (games, header.len() + keep)
        }
    };
    if keep < bytes.len() {
        let f = File::options().write(true).open(path).with_context(|| format!("opening {}", path.display()))?;
        f.set_len(keep as u64).with_context(|| format!("cutting {}", path.display()))?;
    }
    Ok(games)
}

/// Merged self-play files.
#[derive(Clone, Debug)]
pub struct MergedSelfplay {
    /// The whole run's header (no shard line).
    pub header: String,
    /// Each game's lines, by game number.
    pub games: BTreeMap<usize, String>,
    pub duplicates: usize,
    /// Games cut off part-way (dropped).
    pub cut: usize,
}

/// Merges the files of a self-play run's shards (`selfplay --shard I/N`), given as (name, text).
///
/// Their headers must be equal but for the `# shard I/N` line; each file's complete games are
/// kept (a game cut off part-way is dropped, as a resumed run drops it), a game found twice
/// counts once if the same (an error otherwise), and the games are written in the order of
/// their numbers under the whole run's header: the file one run would have written.
pub fn merge_selfplay(files: &[(String, String)]) -> Result<MergedSelfplay> {
    let mut header: Option<String> = None;
    let mut games: BTreeMap<usize, (String, &str)> = BTreeMap::new();
    let (mut duplicates, mut cut) = (0, 0);
    for (name, text) in files {
        let header_len: usize = text.lines().take_while(|l| l.starts_with('#')).map(|l| l.len() + 1).sum();
        let header_len = header_len.min(text.len());
        let whole_header: String =
            text[..header_len].lines().filter(|l| !l.starts_with("# shard ")).map(|l| format!("{l}\n")).collect();
        match &header {
            None => header = Some(whole_header),
            Some(first) if *first != whole_header => {
                bail!("{name}: another run than {}'s (the headers differ)", files[0].0)
            }
            Some(_) => {}
        }
        let (_, keep) = complete_games(text, header_len);
        let (_, records) = read(&text[..keep]).map_err(|e| anyhow!("{name}: {e}"))?;
        let rest = text[keep..].trim();
        if !rest.is_empty() {
            cut += 1;
        }
        // The complete games, each its lines (consecutive, K = 1..N).
        let lines: Vec<&str> = text[header_len..keep].lines().filter(|l| !l.trim().is_empty()).collect();
        let mut at = 0;
        for r in records.iter().filter(|r| r.index == 1) {
            let game: String = lines[at..at + r.count].iter().map(|l| format!("{l}\n")).collect();
            at += r.count;
            match games.get(&r.game) {
                Some((seen, _)) if *seen == game => duplicates += 1,
                Some((_, other)) => bail!("game {} differs between {other} and {name}", r.game),
                None => {
                    games.insert(r.game, (game, name));
                }
            }
        }
    }
    Ok(MergedSelfplay {
        header: header.ok_or_else(|| anyhow!("no files"))?,
        games: games.into_iter().map(|(n, (text, _))| (n, text)).collect(),
        duplicates,
        cut,
    })
}

impl MergedSelfplay {
    /// The file one run would have written.
    pub fn text(&self) -> String {
        let mut text = self.header.clone();
        self.games.values().for_each(|g| text.push_str(g));
        text
    }

    /// Game numbers from 1 to the last one that no file holds.
    pub fn missing(&self) -> Vec<usize> {
        let last = self.games.keys().last().copied().unwrap_or(0);
        (1..=last).filter(|n| !self.games.contains_key(n)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(spec: &str, nodes: u64) -> Settings {
        Settings {
            spec: GameSpec::parse(spec).unwrap(),
            limit: Limit::Nodes(nodes),
            seed: 7,
            openings: Vec::new(),
            openings_name: "none".into(),
            opening_plies: 4,
            hash_mb: 16,
            weights: None,
            net: crate::bot::NetSetting::Default,
            shard: Shard::WHOLE,
            format: Format::Text,
            deep: None,
            adjudicate: false,
        }
    }

    fn temp(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("boardbot-selfplay-{}-{name}", std::process::id()))
    }

    fn selfplay(spec: &str, games: usize, out: &Path, nodes: u64, jobs: usize) {
        selfplay_with(spec, games, out, nodes, jobs, &[]).unwrap();
    }

    fn selfplay_with(spec: &str, games: usize, out: &Path, nodes: u64, jobs: usize, more: &[&str]) -> Result<()> {
        let mut words: Vec<String> = spec.split_whitespace().map(String::from).collect();
        words.extend(
            [
                "--games",
                &games.to_string(),
                "--nodes",
                &nodes.to_string(),
                "--out",
                out.to_str().unwrap(),
                "--seed",
                "7",
            ]
            .map(String::from),
        );
        words.extend(["--hash", "16", "--jobs", &jobs.to_string(), "--quiet"].map(String::from));
        words.extend(more.iter().map(|w| w.to_string()));
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            args: SelfplayArgs,
        }
        let cli = <Cli as clap::Parser>::try_parse_from(std::iter::once("selfplay".to_string()).chain(words))?;
        run(cli.args, &crate::bot::NetSetting::Default)
    }

    #[test]
    fn the_binary_file_holds_the_text_files_positions_and_resumes() {
        let (text, bin, deep) = (temp("t.txt"), temp("b.bin"), temp("d.bin"));
        for f in [&text, &bin, &deep] {
            let _ = std::fs::remove_file(f);
        }
        selfplay("checkers english", 3, &text, 300, 1);
        selfplay_with("checkers english", 3, &bin, 300, 2, &["--format", "bin"]).unwrap();
        let (_, lines) = read(&std::fs::read_to_string(&text).unwrap()).unwrap();
        let bytes = std::fs::read(&bin).unwrap();
        let (header, size, at) = binary::split(&bytes).unwrap();
        assert_eq!(header_value(&header, "records"), Some("29"));
        let records = binary::records(&bytes[at..], size).unwrap();
        assert_eq!(records.len(), lines.len());
        for (r, l) in records.iter().zip(&lines) {
            let g = crate::game::checkers::packing::unpack(crate::game::checkers::Rules::English, &r.position).unwrap();
            let fen = crate::game::checkers::fen::write(&g);
            assert_eq!((r.game as usize, r.index as usize, r.count as usize), (l.game, l.index, l.count));
            assert_eq!(
                (r.first_player_score(), r.score, format!("fen {fen}")),
                (l.result, l.score, l.position.clone())
            );
        }
        // Cut inside game 3's records: resumed, the same file.
        std::fs::write(&bin, &bytes[..bytes.len() - size - 7]).unwrap();
        selfplay_with("checkers english", 3, &bin, 300, 1, &["--format", "bin"]).unwrap();
        assert_eq!(std::fs::read(&bin).unwrap(), bytes);
        // A text file is not continued as binary.
        assert!(selfplay_with("checkers english", 4, &text, 300, 1, &["--format", "bin"]).is_err());
        // Deeper searches at few pieces change the games once they are reached, and say so.
        selfplay_with(
            "checkers english",
            3,
            &deep,
            300,
            1,
            &["--format", "bin", "--deep-nodes", "600", "--deep-pieces", "20"],
        )
        .unwrap();
        let deep_bytes = std::fs::read(&deep).unwrap();
        let deep_header = binary::split(&deep_bytes).unwrap().0;
        assert_eq!(header_value(&deep_header, "deep"), Some("nodes 600 at 20 pieces or fewer"));
        assert_ne!(deep_bytes[deep_header.len()..], bytes[at..]);
        // Adjudicated at the first proved result: shorter games, the header says so.
        let _ = std::fs::remove_file(&deep);
        selfplay_with("checkers english", 3, &deep, 300, 1, &["--format", "bin", "--adjudicate"]).unwrap();
        let short = std::fs::read(&deep).unwrap();
        let short_header = binary::split(&short).unwrap().0;
        assert_eq!(header_value(&short_header, "adjudicated"), Some("at a proved result"));
        let short_records = binary::records(&short[short_header.len()..], size).unwrap();
        assert!(short_records.len() < records.len(), "{} then {}", records.len(), short_records.len());
        assert_eq!(short_records.last().unwrap().game, 3);
        // A game without a packed form has no binary file.
        let _ = std::fs::remove_file(&deep);
        let e = selfplay_with("cx 4 4 3", 1, &deep, 100, 1, &["--format", "bin"]).unwrap_err();
        assert!(e.to_string().contains("--format text"), "{e}");
        for f in [&text, &bin, &deep] {
            let _ = std::fs::remove_file(f);
        }
    }

    #[test]
    fn records_read_back() {
        let r = Record::parse("12\t3/57\t0-1\t-45\tfen B:W21-32:B1-12").unwrap();
        assert_eq!(
            r,
            Record {
                game: 12,
                index: 3,
                count: 57,
                result: 0.0,
                score: Some(-45),
                position: "fen B:W21-32:B1-12".into()
            }
        );
        assert_eq!(Record::parse("1\t1/1\t1/2-1/2\t-\tmoves 3,3 4,4").unwrap().score, None);
        for bad in [
            "1\t0/3\t1-0\t0\tfen x",
            "1\t4/3\t1-0\t0\tfen x",
            "1\t1/3\t2-0\t0\tfen x",
            "1\t1/3\t1-0\tx\tfen x",
            "1\t1/3",
        ] {
            assert!(Record::parse(bad).is_err(), "{bad}");
        }
        let s = settings("checkers english", 100);
        let header = s.header("man=100");
        assert_eq!(header_value(&header, "game"), Some("checkers english"));
        assert_eq!(header_value(&header, "limit"), Some("nodes 100"));
        let text = format!("{header}1\t1/2\t1-0\t5\tfen a\n1\t2/2\t1-0\t-\tfen b\n2\t1/3\t0-1\t0\tfen c\n");
        let (h, records) = read(&text).unwrap();
        assert_eq!((h, records.len()), (header.clone(), 3));
        // Game 2 is cut off: only game 1 is complete.
        assert_eq!(
            complete_games(&text, header.len()),
            (1, header.len() + "1\t1/2\t1-0\t5\tfen a\n1\t2/2\t1-0\t-\tfen b\n".len())
        );
        // A line cut in the middle ends the complete part too.
        let cut = format!("{header}1\t1/1\t1-0\t5\tfen a\n2\t1/1\t1-");
        assert_eq!(complete_games(&cut, header.len()).0, 1);
    }

    #[test]
    fn selfplay_is_reproducible_from_the_seed_and_resumes_after_an_interruption() {
        let (a, b, c) = (temp("a.txt"), temp("b.txt"), temp("c.txt"));
        for f in [&a, &b, &c] {
            let _ = std::fs::remove_file(f);
        }
        // Four games in one go, on one job and on two: the same file.
        selfplay("checkers english", 4, &a, 400, 1);
        selfplay("checkers english", 4, &b, 400, 2);
        let whole = std::fs::read_to_string(&a).unwrap();
        assert_eq!(whole, std::fs::read_to_string(&b).unwrap());
        let (header, records) = read(&whole).unwrap();
        assert_eq!(header_value(&header, "limit"), Some("nodes 400"));
        assert_eq!(records.last().unwrap().game, 4);
        assert!(records.iter().all(|r| r.position.starts_with("fen ")));
        assert!(records.iter().any(|r| r.score.is_some()));
        // Interrupted: two games, then the third cut off part-way; resumed to four, the same.
        selfplay("checkers english", 2, &c, 400, 1);
        let two = std::fs::read_to_string(&c).unwrap();
        assert!(whole.starts_with(&two) && two.len() < whole.len());
        let third_start = whole[two.len()..].find('\n').unwrap() + 1;
        std::fs::write(&c, &whole[..two.len() + third_start + 5]).unwrap();
        selfplay("checkers english", 4, &c, 400, 1);
        assert_eq!(std::fs::read_to_string(&c).unwrap(), whole);
        // Other settings are refused, the file left as it is.
        let mut words = vec!["selfplay".to_string()];
        words.extend(
            ["checkers", "english", "--games", "5", "--nodes", "500", "--out", c.to_str().unwrap(), "-q"]
                .map(String::from),
        );
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            args: SelfplayArgs,
        }
        let cli = <Cli as clap::Parser>::try_parse_from(words).unwrap();
        assert!(run(cli.args, &crate::bot::NetSetting::Default).unwrap_err().to_string().contains("other settings"));
        assert_eq!(std::fs::read_to_string(&c).unwrap(), whole);
        // A game of moves: Connect-4 positions as the moves from the start.
        let _ = std::fs::remove_file(&a);
        selfplay("cx 6 7 4", 2, &a, 300, 1);
        let (_, records) = read(&std::fs::read_to_string(&a).unwrap()).unwrap();
        assert!(records[0].position.starts_with("moves ") && records[0].position.split(' ').count() == 5);
        for f in [&a, &b, &c] {
            let _ = std::fs::remove_file(f);
        }
    }
}
