//! The command line: protocol mode by default (`--protocol gomocup`: the Gomocup protocol;
//! `--protocol mkagent`: the Manchester Kalah referee's);
//! `boardbot match ...` referees a match;
//! `boardbot replay LOG` checks a match's game log; `boardbot bench` measures search speed;
//! `boardbot play` lets a person play the engine in a terminal.

use anyhow::{Context, Result};
use boardbot::bot::{parse_level, Engine, Options, DEFAULT_HASH_MB, DEFAULT_MARGIN_MS};
use boardbot::game::any::Player;
use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use std::io::BufReader;
use std::time::Duration;

#[derive(Parser)]
// `about` and the games' lists in the help come from the registry (see `command`).
#[command(name = "boardbot", version)]
struct Cli {
    #[command(subcommand)]
    command: Option<Mode>,
    #[command(flatten)]
    engine: EngineArgs,
    /// The protocol spoken on stdin/stdout: boardbot (protocol.md) or gomocup, also called pbrain
    /// (the protocol of gomoku managers such as Piskvork: free-style gomoku, five or more in a
    /// row wins).
    #[arg(long, value_enum, default_value_t = Protocol::Boardbot)]
    protocol: Protocol,
    /// Each side's thinking time for the whole game, in seconds, where the protocol has a game
    /// clock (mkagent).
    #[arg(long, default_value_t = 3600.0, value_parser = seconds)]
    clock: f64,
    /// Writes the log (diagnostics; the level from RUST_LOG, warn by default) to FILE instead of
    /// stderr. With `--protocol mkagent` the log goes nowhere without it: that referee never
    /// reads stderr.
    #[arg(long, value_name = "FILE")]
    log: Option<std::path::PathBuf>,
}

/// A positive number of seconds.
fn seconds(v: &str) -> Result<f64, String> {
    match v.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s < 1e9 => Ok(s),
        _ => Err(format!("expected a positive number of seconds, got '{v}'")),
    }
}

#[derive(Copy, Clone, PartialEq, Eq, clap::ValueEnum)]
enum Protocol {
    Boardbot,
    #[value(alias = "pbrain")]
    Gomocup,
    /// The Manchester Kalah referee's agent protocol (kalah 7 7, pie rule, a game clock).
    Mkagent,
}

#[derive(Subcommand)]
enum Mode {
    /// Referees a match between two engines (processes speaking the protocol) and prints the results.
    Match(boardbot::referee::MatchArgs),
    /// Play against the engine in the terminal (or watch it play itself): `boardbot play cx 6 7 4`.
    Play {
        #[command(flatten)]
        args: boardbot::ui::play::PlayArgs,
        /// The evaluation's weights (a file from `boardbot tune`) instead of the compiled-in ones.
        #[arg(long, value_name = "FILE")]
        weights: Option<std::path::PathBuf>,
    },
    /// Puts the files of a match's or a self-play run's shards (`--shard I/N`) together as one run's:
    /// `boardbot merge shard1.jsonl shard2.jsonl` (results of `match --results`; `--json` for drivers).
    Merge(boardbot::merge::MergeArgs),
    /// Replays a match's game log (`match --log`) with the rules: checks every move and result, prints the boards.
    Replay(boardbot::referee::ReplayArgs),
    /// Exact values of positions, one a line, by the game's exact solver (Connect-X: Pons' format,
    /// 1-based column digits; m,n,k: ROW,COL cells).
    Solve(boardbot::solve::SolveArgs),
    /// Generates an opening book (Connect-X, checkers, free-style gomoku): `boardbot book --game mnk
    /// 15 15 5 --plies 5 --out book/gomoku-15x15.txt`.
    Book(boardbot::solve::BookArgs),
    /// Compares search algorithms on a position, depth by depth (minimax, alpha-beta, ordered,
    /// table, symmetric, full): nodes, time, score, principal variation; a table and an SVG chart.
    Analyze(boardbot::analyze::AnalyzeArgs),
    /// Serves a web page to play against the engine in a browser, and its JSON API (docs/api.md).
    Serve {
        #[command(flatten)]
        args: boardbot::ui::serve::ServeArgs,
        /// The evaluation's weights (a file from `boardbot tune`) instead of the compiled-in ones.
        #[arg(long, value_name = "FILE")]
        weights: Option<std::path::PathBuf>,
    },
    /// The engine plays itself and writes its games' positions with their results and the
    /// search's scores (for `boardbot tune`): `boardbot selfplay checkers english --games 100
    /// --nodes 20000 --out data.txt`.
    Selfplay(boardbot::selfplay::SelfplayArgs),
    /// Fits a game's evaluation weights to self-play results (Texel's method) and writes them
    /// as a weights file: `boardbot tune checkers english --data data.txt --out weights.txt`.
    Tune(boardbot::tune::TuneArgs),
    /// Counts the leaf positions DEPTH moves deep (the move generator's check): `boardbot perft
    /// --game checkers english 8`, optionally from `--fen FEN`.
    Perft(boardbot::solve::PerftArgs),
    /// Search speed: time and nodes to each depth on fixed positions of several sizes.
    Bench {
        /// Search time per position, in milliseconds.
        #[arg(long, default_value_t = 2000)]
        ms: u64,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = DEFAULT_HASH_MB)]
        hash: usize,
        /// Search threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Searches every position to this depth instead of for a time (`--ms` is ignored): the
        /// node counts then show whether a change alters the search.
        #[arg(long)]
        depth: Option<u32>,
        /// Only the positions whose name contains this text (e.g. `checkers`).
        #[arg(long, default_value = "")]
        only: String,
    },
}

/// Engine options; the same names work in the protocol as `set KEY VALUE`.
#[derive(Args, Clone)]
struct EngineArgs {
    /// Strategy: search (the engine), random, l1 / greedy (the game's reference player of the
    /// courses), or abN (alpha-beta to N moves with the game's evaluation, no table).
    #[arg(long, default_value = "search")]
    player: Player,
    /// Safety margin kept free of each move's time budget, in milliseconds.
    #[arg(long = "margin", default_value_t = DEFAULT_MARGIN_MS)]
    margin_ms: u64,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = DEFAULT_HASH_MB)]
    hash: usize,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Strength: easy, medium, hard, max, or 1..=10 (10 = max: full strength; below it the engine
    /// is beatable and varied: a shallow search and a move drawn among the near-best).
    #[arg(long, default_value = "max", value_parser = parse_level)]
    level: u32,
    /// Seed of the random choices (random and l1 players, the levels); without it, drawn from
    /// the operating system.
    #[arg(long)]
    seed: Option<u64>,
    /// The most nodes a search may take (0: no cap), besides the time per move.
    #[arg(long, default_value_t = 0)]
    nodes: u64,
    /// The evaluation's weights (a file from `boardbot tune`) for the games of its game.
    #[arg(long, value_name = "FILE")]
    weights: Option<std::path::PathBuf>,
}

impl EngineArgs {
    fn options(&self) -> Result<Options> {
        let mut o =
            Options { player: self.player, margin: Duration::from_millis(self.margin_ms), ..Options::default() };
        for (k, v) in [("hash", self.hash), ("threads", self.threads), ("level", self.level as usize)] {
            o.set(k, &v.to_string()).map_err(anyhow::Error::msg)?;
        }
        o.seed = self.seed;
        o.nodes = self.nodes;
        if let Some(path) = &self.weights {
            o.weights = Some(std::sync::Arc::new(boardbot::bot::read_weights(path).map_err(anyhow::Error::msg)?));
        }
        Ok(o)
    }
}

/// Makes the weights file at `path`, if any, the weights of every engine of the process.
fn process_weights(path: Option<&std::path::Path>) -> Result<()> {
    if let Some(path) = path {
        boardbot::bot::set_process_weights(boardbot::bot::read_weights(path).map_err(anyhow::Error::msg)?)
            .map_err(anyhow::Error::msg)?;
    }
    Ok(())
}

fn main() -> std::process::ExitCode {
    match run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        // A reader that stops early (`boardbot solve ... | head`) is not an error.
        Err(e)
            if e.chain().any(|c| {
                c.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            }) =>
        {
            std::process::ExitCode::SUCCESS
        }
        // One clear line, whatever RUST_BACKTRACE says.
        Err(e) => {
            eprintln!("boardbot: {e:#}");
            std::process::ExitCode::from(2)
        }
    }
}

/// The command line's grammar, with every text that lists games made from the registry.
fn command() -> clap::Command {
    use boardbot::game::registry;
    let games =
        format!("A board: a game's description, as `init` takes it: {}. Repeat for several boards", registry::usages());
    Cli::command()
        .about(format!("Plays board games ({}) over a line protocol (protocol.md)", registry::titles()))
        .mut_subcommand("match", |m| m.mut_arg("game", |a| a.help(games.clone()).long_help(games)))
}

fn run() -> Result<()> {
    let cli = Cli::from_arg_matches(&command().get_matches()).unwrap_or_else(|e| e.exit());
    let mut logger = env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"));
    match &cli.log {
        Some(path) => {
            let file =
                std::fs::File::create(path).with_context(|| format!("cannot write the log {}", path.display()))?;
            logger.target(env_logger::Target::Pipe(Box::new(file)));
        }
        None if cli.protocol == Protocol::Mkagent && cli.command.is_none() => {
            logger.filter_level(log::LevelFilter::Off);
        }
        None => {
            logger.target(env_logger::Target::Stderr);
        }
    }
    logger.init();
    match cli.command {
        Some(Mode::Match(args)) => return boardbot::referee::cli::run(args, &std::env::current_exe()?),
        Some(Mode::Replay(args)) => return boardbot::referee::replay::run(args),
        Some(Mode::Merge(args)) => return boardbot::merge::run(args),
        Some(Mode::Play { args, weights }) => {
            process_weights(weights.as_deref())?;
            return boardbot::ui::play::run(args);
        }
        Some(Mode::Solve(args)) => return boardbot::solve::run(args),
        Some(Mode::Book(args)) => return boardbot::solve::run_book(args),
        Some(Mode::Perft(args)) => return boardbot::solve::run_perft(args),
        Some(Mode::Serve { args, weights }) => {
            process_weights(weights.as_deref())?;
            return boardbot::ui::serve::run(args);
        }
        Some(Mode::Selfplay(args)) => return boardbot::selfplay::run(args),
        Some(Mode::Tune(args)) => return boardbot::tune::run(args),
        Some(Mode::Analyze(args)) => return boardbot::analyze::run(args),
        Some(Mode::Bench { ms, hash, threads, depth, only }) => {
            let report = |l: &boardbot::bench::BenchLine| println!("{}", boardbot::bench::format_line(l));
            let limits = match depth {
                Some(d) => boardbot::search::Limits::depth(d),
                None => boardbot::search::Limits {
                    hard: Some(Duration::from_millis(ms)),
                    ..boardbot::search::Limits::infinite()
                },
            };
            let lines =
                boardbot::bench::run_matching(&limits, hash, threads, &only, report).map_err(anyhow::Error::msg)?;
            println!("{}", boardbot::bench::signature_line(&lines));
            return Ok(());
        }
        None => {}
    }
    let engine = Engine::new(cli.engine.options()?);
    let input = BufReader::new(std::io::stdin());
    match cli.protocol {
        Protocol::Boardbot => boardbot::protocol::serve(input, std::io::stdout(), engine),
        Protocol::Gomocup => boardbot::protocol::gomocup::serve(input, std::io::stdout(), engine),
        Protocol::Mkagent => {
            let clock = Duration::from_secs_f64(cli.clock);
            boardbot::protocol::mkagent::serve(input, std::io::stdout(), engine, clock)
        }
    }
}
