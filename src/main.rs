//! The command line: protocol mode by default (`--protocol gomocup`: the Gomocup protocol;
//! `--protocol mkagent`: the Manchester Kalah referee's);
//! `boardbot match ...` referees a match;
//! `boardbot replay LOG` checks a match's game log; `boardbot bench` measures search speed;
//! `boardbot play` lets a person play the engine in a terminal.
//!
//! The game of a subcommand may come as positional words or after `--game`, whichever the
//! subcommand declares: [`game_words`] rewrites the other form before clap reads the line.

use anyhow::{anyhow, bail, Context, Result};
use boardbot::bot::{Engine, NetSetting, Options, DEFAULT_HASH_MB};
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::ffi::OsString;
use std::io::{BufReader, IsTerminal};
use std::time::Duration;

#[derive(Parser)]
// `about` and the games' lists in the help come from the registry (see `command`).
#[command(name = "boardbot", version)]
struct Cli {
    #[command(subcommand)]
    command: Option<Mode>,
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
fn seconds(v: &str) -> Result<f64> {
    match v.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s < 1e9 => Ok(s),
        _ => Err(anyhow!("expected a positive number of seconds, got '{v}'")),
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
    /// Referees a match between two engines and prints the results.
    ///
    /// `boardbot match cx 6 7 4 --engine2 greedy --rounds 5 --timeout 1`.
    Match(boardbot::referee::MatchArgs),
    /// Plays against you in the terminal (or against itself).
    ///
    /// `boardbot play connect4`; without GAME the setup is asked step by step.
    Play {
        #[command(flatten)]
        args: boardbot::ui::play::PlayArgs,
        /// The evaluation's weights (a file from `boardbot tune`) instead of the compiled-in ones.
        #[arg(long, value_name = "FILE")]
        weights: Option<String>,
    },
    /// Merges the shards of a match or a self-play run (`--shard I/N`) into one run's results.
    ///
    /// `boardbot merge shard1.jsonl shard2.jsonl` (results of `match --results`; `--json` for drivers).
    Merge(boardbot::merge::MergeArgs),
    /// Replays a match's game log with the rules, checking every move and result.
    ///
    /// `boardbot replay games.log` (a log of `match --log`); prints the boards and a verdict a game.
    Replay(boardbot::referee::ReplayArgs),
    /// Solves positions exactly, one a line, with the game's exact solver.
    ///
    /// `printf '.\n' | boardbot solve mnk 3 3 3` (Connect-X: Pons' format, 1-based column digits;
    /// m,n,k: ROW,COL cells; Kalah: moves).
    Solve(boardbot::solve::SolveArgs),
    /// Generates an opening book (Connect-X, checkers, free-style gomoku).
    ///
    /// `boardbot book mnk 15 15 5 --plies 5 --out book/gomoku-15x15.txt`.
    Book(boardbot::solve::BookArgs),
    /// Compares search algorithms on a position, depth by depth.
    ///
    /// `boardbot analyze mnk 3 3 3 --depth 9`: minimax, alpha-beta, ordered, table, symmetric,
    /// full; nodes, time, score, principal variation; a table and an SVG chart.
    Analyze(boardbot::analyze::AnalyzeArgs),
    /// Serves a web page to play against the engine in a browser, and its JSON API.
    ///
    /// `boardbot serve`, then open http://127.0.0.1:8080/ (the API: docs/api.md).
    Serve {
        #[command(flatten)]
        args: boardbot::ui::serve::ServeArgs,
        /// The evaluation's weights (a file from `boardbot tune`) instead of the compiled-in ones.
        #[arg(long, value_name = "FILE")]
        weights: Option<String>,
    },
    /// Plays the engine against itself and writes the games' positions for `boardbot tune`.
    ///
    /// Each position with its game's result and the search's score: `boardbot selfplay checkers
    /// english --games 100 --nodes 20000 --out data.txt`.
    Selfplay(boardbot::selfplay::SelfplayArgs),
    /// Fits a game's evaluation weights to games' results (Texel's method).
    ///
    /// The games: self-play files or match logs (`--data` repeated). Writes the weights as a
    /// file: `boardbot tune checkers english --data data.txt --out weights.txt`.
    Tune(boardbot::tune::TuneArgs),
    /// Tunes numeric engine options (the search's selectivity) by SPSA on game pairs (docs/spsa.md).
    ///
    /// `boardbot spsa checkers english --param reduction --param static-margin --iterations 1000
    /// --nodes 5000 --openings acf3 --out spsa.txt`.
    Spsa(boardbot::spsa::SpsaArgs),
    /// Writes a game record back with the engine's evaluation of each move, its better moves
    /// and the marks ?!, ?, ?? (`boardbot annotate game.pdn --ms 500 -o annotated.pdn`).
    Annotate(boardbot::annotate::AnnotateArgs),
    /// Trains English checkers' evaluation network on self-play positions.
    ///
    /// Writes the engine's net file: `boardbot train-net --data data.txt --out english.net --seed 1`.
    TrainNet(boardbot::net_train::TrainNetArgs),
    /// Counts the leaf positions DEPTH moves deep (the move generator's check).
    ///
    /// `boardbot perft checkers english 8`, optionally from `--fen FEN`.
    Perft(boardbot::solve::PerftArgs),
    /// Gomoku's won and defended positions: how many the engine solves (`boardbot suite FILE --ms 100`).
    Suite(boardbot::suite::SuiteArgs),
    /// Measures the search's speed on fixed positions of several sizes.
    ///
    /// Time and nodes to each depth: `boardbot bench --depth 7` (node counts) or `--ms T`.
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

/// The engine's options from the command line: a `--NAME VALUE` flag for each option of the
/// table ([`boardbot::bot::OPTIONS`]), the same names as the protocol's `set NAME VALUE`. The
/// table reads the values (see [`engine_options`]): a bad one is one line on stderr.
fn engine_flags(mut command: clap::Command) -> clap::Command {
    for spec in boardbot::bot::OPTIONS {
        let help = match spec.kind {
            boardbot::bot::Kind::Word | boardbot::bot::Kind::File => {
                format!("{} [default: {}]", spec.help, spec.default)
            }
            kind => format!("{} ({}) [default: {}]", spec.help, kind.describe(), spec.default),
        };
        let mut arg = clap::Arg::new(spec.name).long(spec.name).value_name("VALUE").help(help);
        if GLOBAL_OPTIONS.contains(&spec.name) {
            arg = arg.global(true);
        }
        command = command.arg(arg);
    }
    command
}

/// The options that every mode takes (`boardbot bench --net off`), not only the protocol's; the
/// search's ([`SEARCH_OPTIONS`]) are taken by the protocol and `bench` only.
const GLOBAL_OPTIONS: [&str; 9] = [
    "net",
    "reduction",
    "pruning-depth",
    "static-margin",
    "futility-margin",
    "null-reduction",
    "singular-depth",
    "singular-margin",
    "soft-share",
];
/// The options of the search's selectivity and time (the global ones after `net`).
const SEARCH_OPTIONS: &[&str] = GLOBAL_OPTIONS.split_at(1).1;

/// The engine's options the command line set, the others at their defaults.
fn engine_options(matches: &clap::ArgMatches) -> Result<Options> {
    let mut options = Options::default();
    for spec in boardbot::bot::OPTIONS {
        if let Some(text) = matches.get_one::<String>(spec.name) {
            options.set(spec.name, text).map_err(|e| anyhow!("--{e}"))?;
        }
    }
    Ok(options)
}

/// The options of `play` and `serve`: `--weights FILE` and `--net`, if given.
fn weights_option(weights: Option<&str>, net: &NetSetting) -> Result<Options> {
    let mut options = Options { net: net.clone(), ..Options::default() };
    if let Some(path) = weights {
        options.set("weights", path).map_err(|e| anyhow!("--{e}"))?;
    }
    Ok(options)
}

fn main() -> std::process::ExitCode {
    let code = exit_code(run());
    // The cache's temporary and lock files of a database build still running on a thread.
    boardbot::cache::clean_up();
    code
}

fn exit_code(result: Result<()>) -> std::process::ExitCode {
    match result {
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

/// The help of `match --engine1`.
const ENGINE_HELP: &str = "Engine 1: one of this binary's players, self (full strength), l1 or \
    greedy (the courses' reference player), random, abN (alpha-beta to N moves, e.g. ab8), easy, \
    medium, hard, max or levelN (N from 1 to 10), optionally followed by engine flags ('self \
    --hash 256'); or the command line (quoted as in a shell) of an engine speaking boardbot's \
    protocol; or pbrain:CMD ARGS, an engine speaking the Gomocup (pbrain) protocol (free-style \
    gomoku: m,n,k boards with K = 5 only), e.g. 'pbrain:pbrain-figrid' or 'pbrain:boardbot \
    --protocol gomocup'";

/// The command line's grammar, with every text that lists games made from the registry.
fn command() -> clap::Command {
    use boardbot::game::registry;
    let games = format!(
        "A board: a game's description, as `init` takes it: {}. Repeat for several boards (the first may \
         also come without --game, right after `match`)",
        registry::usages()
    );
    engine_flags(Cli::command())
        .about(format!("Plays board games ({}) over a line protocol (protocol.md)", registry::titles()))
        .mut_subcommand("match", |m| {
            m.mut_arg("game", |a| a.help(games.clone()).long_help(games))
                .mut_arg("engine1", |a| a.help(ENGINE_HELP))
                .mut_arg("rounds", |a| {
                    a.help(
                        "Rounds per board; a round is two games, one with each engine moving first \
                         [default: 1; with --sprt, the most rounds (game pairs) the test may take: 20000]",
                    )
                })
        })
        .mut_subcommand("play", |m| {
            m.mut_arg("you", |a| {
                a.help(
                    "Who you play: first, second, both (two people at one keyboard) or none (the engine \
                     against itself, a demonstration) [default: first; asked in the setup without GAME]",
                )
            })
        })
        .mut_subcommand("selfplay", |m| {
            m.mut_arg("seed", |a| {
                a.help("Seed of the games' random choices: game i (from 1) draws its opening plies from SEED + i")
            })
        })
}

/// Subcommands whose game is positional words, and those whose game follows `--game`.
const POSITIONAL_GAME: [&str; 5] = ["play", "analyze", "selfplay", "tune", "spsa"];
const FLAG_GAME: [&str; 4] = ["solve", "book", "match", "perft"];

/// Top-level options that take a value (so that the value is not taken for a subcommand).
const VALUED: [&str; 12] = [
    "--player",
    "--margin",
    "--hash",
    "--threads",
    "--level",
    "--seed",
    "--nodes",
    "--weights",
    "--protocol",
    "--clock",
    "--log",
    "--net",
];

/// Whether `word` is a top-level option that takes a value: one of [`VALUED`] or a search option.
fn valued(word: &str) -> bool {
    VALUED.contains(&word) || word.strip_prefix("--").is_some_and(|name| SEARCH_OPTIONS.contains(&name))
}

/// The command line with the game in the form its subcommand declares: `--game` dropped before
/// positional words (`analyze --game mnk 3 3 3`), or added before the words of a game that
/// follow the subcommand (`solve mnk 3 3 3 FILE` becomes `solve FILE --game mnk 3 3 3`: the
/// longest run of words that is a game; the words after it stay positional).
fn game_words(args: Vec<OsString>) -> Vec<OsString> {
    let text: Vec<Option<&str>> = args.iter().map(|a| a.to_str()).collect();
    let Some(at) =
        (1..args.len()).find(|&i| text[i].is_some_and(|w| !w.starts_with('-')) && !text[i - 1].is_some_and(valued))
    else {
        return args;
    };
    let sub = text[at].unwrap_or_default();
    if POSITIONAL_GAME.contains(&sub) {
        let mut out: Vec<OsString> = args[..=at].to_vec();
        for a in &args[at + 1..] {
            match a.to_str() {
                Some("--game") => {}
                Some(w) if w.starts_with("--game=") => out.push(w["--game=".len()..].into()),
                _ => out.push(a.clone()),
            }
        }
        return out;
    }
    if !FLAG_GAME.contains(&sub) {
        return args;
    }
    let run: Vec<&str> = text[at + 1..].iter().map_while(|w| w.filter(|w| !w.starts_with('-'))).collect();
    let Some(n) = (1..=run.len()).rev().find(|&n| boardbot::game::registry::GameSpec::from_words(&run[..n]).is_ok())
    else {
        return args;
    };
    let mut out: Vec<OsString> = args[..=at].to_vec();
    out.extend(run[n..].iter().map(OsString::from));
    out.push("--game".into());
    out.extend(run[..n].iter().map(OsString::from));
    out.extend(args[at + 1 + run.len()..].iter().cloned());
    out
}

/// Said on stderr when protocol mode starts on a terminal, where silence looks like a hang.
const TERMINAL_HINT: &str = "boardbot: line protocol on stdin; type `help`, or try `boardbot play`";

fn run() -> Result<()> {
    let matches = command().get_matches_from(game_words(std::env::args_os().collect()));
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
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
    // Read (and the net file checked) before anything runs: a bad value stops every mode.
    let options = engine_options(&matches)?;
    let net = &options.net;
    let bench_or_protocol = matches!(cli.command, None | Some(Mode::Bench { .. }));
    if let Some(name) = SEARCH_OPTIONS.iter().find(|n| matches.get_one::<String>(n).is_some()) {
        if !bench_or_protocol {
            bail!("--{name} is an option of the engine's search, taken by the protocol mode and `bench` only (in a match: --engine1 'self --{name} VALUE')");
        }
    }
    if !matches!(cli.command, Some(Mode::Match(_))) {
        // Ctrl-C (a `match` prints its results instead): the cache's files of a build in
        // progress go with the process.
        let _ = ctrlc::set_handler(|| {
            boardbot::cache::clean_up();
            std::process::exit(130);
        });
    }
    match cli.command {
        Some(Mode::Match(args)) => return boardbot::referee::cli::run(args, &std::env::current_exe()?),
        Some(Mode::Replay(args)) => return boardbot::referee::replay::run(args),
        Some(Mode::Merge(args)) => return boardbot::merge::run(args),
        Some(Mode::Play { args, weights }) => {
            return boardbot::ui::play::run(args, weights_option(weights.as_deref(), net)?);
        }
        Some(Mode::Solve(args)) => return boardbot::solve::run(args),
        Some(Mode::Book(args)) => return boardbot::solve::run_book(args),
        Some(Mode::Perft(args)) => return boardbot::solve::run_perft(args),
        Some(Mode::Serve { args, weights }) => {
            return boardbot::ui::serve::run(args, weights_option(weights.as_deref(), net)?);
        }
        Some(Mode::Selfplay(args)) => return boardbot::selfplay::run(args, net),
        Some(Mode::Tune(args)) => return boardbot::tune::run(args),
        Some(Mode::Spsa(args)) => return boardbot::spsa::run(args, &std::env::current_exe()?),
        Some(Mode::Annotate(args)) => return boardbot::annotate::run(args),
        Some(Mode::TrainNet(args)) => return boardbot::net_train::run(args),
        Some(Mode::Analyze(args)) => return boardbot::analyze::run(args, net),
        Some(Mode::Suite(args)) => return boardbot::suite::run(args),
        Some(Mode::Bench { ms, hash, threads, depth, only }) => {
            let report = |l: &boardbot::bench::BenchLine| println!("{}", boardbot::bench::format_line(l));
            let limits = match depth {
                Some(d) => boardbot::search::Limits::depth(d),
                None => boardbot::search::Limits {
                    hard: Some(Duration::from_millis(ms)),
                    ..boardbot::search::Limits::infinite()
                },
            };
            let limits = boardbot::search::Limits { selectivity: options.selectivity, ..limits };
            let lines = boardbot::bench::run_matching(&limits, hash, threads, &only, net, report)?;
            println!("{}", boardbot::bench::signature_line(&lines));
            return Ok(());
        }
        None => {}
    }
    let engine = Engine::new(options);
    if cli.protocol == Protocol::Boardbot && std::io::stdin().is_terminal() {
        eprintln!("{TERMINAL_HINT}");
    }
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
