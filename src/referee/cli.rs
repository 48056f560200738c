//! `boardbot match`: the command line of the referee.

use super::game::{check_opening, GameEnd, GameRecord, Opening};
use super::pbrain;
use super::process::{ProcessConfig, ProcessEngine, Protocol};
use super::progress::Progress;
use super::report::{game_line, legend, log_line, moves_text, record_text, result_text, table, LOG_HEADER};
use super::results::{self, GameResult, MatchHeader};
use super::runner::{collect, run_match, schedule, shard_schedule, EnginePair, Scheduled};
use super::score::{game_score, score_line};
use super::shard::Shard;
use super::spec::{board_text, builtin_boards, engine_config, parse_board, parse_boards};
use super::sprt::{EloModel, Pentanomial, Sprt, Verdict};
use super::{MatchPlan, MatchResult};
use crate::game::registry::{game_type, opening_set, GameSpec};
use crate::game::Side;
use anyhow::{anyhow, bail, Context, Result};
use clap::{ArgAction, Args};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Plays a match between two engines and prints the results.
#[derive(Args, Clone, Debug)]
pub struct MatchArgs {
    /// A board: a game's description, as `init` takes it (the games are listed in the help,
    /// from the registry). Repeat for several boards.
    #[arg(long, num_args = 1.., value_name = "GAME", action = ArgAction::Append)]
    game: Vec<String>,
    /// A file of boards, one game description a line ('#' starts a comment), or a
    /// built-in set: `mnk-tournament` (the 25 m,n,k course boards) or `cx-tournament` (the
    /// Connect-X course boards); played after the --game boards.
    #[arg(long, value_name = "FILE|SET")]
    boards: Option<PathBuf>,
    /// Time per move, in seconds, measured by the referee (a late reply forfeits the game).
    #[arg(long, value_name = "SECS", default_value_t = 10.0)]
    timeout: f64,
    /// Rounds per board; a round is two games, one with each engine moving first. With --sprt,
    /// the most rounds (game pairs) the test may take (default 20000).
    #[arg(long)]
    rounds: Option<usize>,
    /// A sequential probability ratio test: plays game pairs (rounds) until the evidence accepts
    /// H0 (engine1 is ELO0 Elo stronger than engine2) or H1 (ELO1 stronger), as fishtest does
    /// (the generalised SPRT on the pairs' five outcomes); shows its log-likelihood ratio (LLR)
    /// and bounds. One board; the given openings are taken in an order drawn from the seed.
    #[arg(long, num_args = 2, value_names = ["ELO0", "ELO1"], allow_negative_numbers = true)]
    sprt: Option<Vec<f64>>,
    /// The SPRT's chance of accepting H1 when H0 holds.
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,
    /// The SPRT's chance of accepting H0 when H1 holds.
    #[arg(long, default_value_t = 0.05)]
    beta: f64,
    /// The unit of ELO0 and ELO1: logistic (a difference e gives the expected score
    /// 1 / (1 + 10^(-e/400))) or normalized (fishtest's nElo: in standard deviations of a game
    /// pair's score).
    #[arg(long, value_enum, default_value_t = EloModel::Logistic)]
    elo_model: EloModel,
    /// Who moves first: `alternate` (each engine once per round), `1` (engine 1 in every game)
    /// or `2` (engine 2 in every game).
    #[arg(long, default_value = "alternate", value_parser = ["alternate", "1", "2"])]
    first: String,
    /// Engine 1: self (this binary, full strength), l1, random, levelN, any of these followed
    /// by engine flags, or a command line (quoted as in a shell) of an engine speaking boardbot's
    /// protocol; or pbrain:CMD ARGS, an engine speaking the Gomocup (pbrain) protocol (free-style
    /// gomoku: m,n,k boards with K = 5 only), e.g. 'pbrain:pbrain-figrid' or
    /// 'pbrain:boardbot --protocol gomocup'.
    #[arg(long, value_name = "ENGINE", default_value = "self", allow_hyphen_values = true)]
    engine1: String,
    /// Engine 2, as engine 1.
    #[arg(long, value_name = "ENGINE", default_value = "l1", allow_hyphen_values = true)]
    engine2: String,
    /// Seed of the built-in players' random choices; game i of the match uses SEED + i.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Plies the referee plays at random (legal moves that neither end the game nor leave it a
    /// dead draw) before the engines take over; both games of a round start from the same
    /// opening, each engine playing each side once. The engines get it with `position` (pbrain
    /// engines: BOARD with their first move). Round r of the match uses opening seed SEED + r.
    /// With --openings: the random plies played after the given opening.
    #[arg(long, value_name = "PLIES", default_value_t = 0)]
    opening: usize,
    /// A file of openings, instead of random ones: one a line, its moves in the protocol's move
    /// text separated by spaces (m,n,k: ROW,COL; Connect-X: COL; checkers: 11-15); '#' starts a
    /// comment. Or a built-in set of the board's game: acf3 (checkers: the 156 ballots of the
    /// ACF three-move deck). Round r of each board starts from line r (from the first again
    /// when the rounds outnumber the lines), each engine playing each side once. Every opening
    /// must be legal on every board and leave the game open.
    #[arg(long, value_name = "FILE|SET")]
    openings: Option<PathBuf>,
    /// Writes one line per game (board, players, result, reason, moves) to FILE.
    #[arg(long, value_name = "FILE")]
    log: Option<PathBuf>,
    /// Writes every game to FILE in its game's standard record format (checkers: PDN), for the
    /// games that have one.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Writes the match and every game counted to FILE, one JSON object a line (number, board,
    /// round, opening, seeds, who moved first, result, engine1's score, reason, moves): records
    /// that runs of the same match can be merged from.
    #[arg(long, value_name = "FILE")]
    results: Option<PathBuf>,
    /// Time allowed to answer `init` (`START` for pbrain engines) and start up, in seconds.
    #[arg(long, value_name = "SECS", default_value_t = 10.0)]
    setup_timeout: f64,
    /// Plays every game out to a win or a full board. Otherwise a game stops as a draw as soon as
    /// neither side can complete a line any more (no window left free of either side's stones).
    #[arg(long)]
    play_out: bool,
    /// Shows the engines' stderr (prefixed with their names).
    #[arg(long)]
    engine_stderr: bool,
    /// No progress on stderr. Otherwise a progress bar when stderr is a terminal (and the
    /// engines' stderr is not shown), else a line per game.
    #[arg(long, short)]
    quiet: bool,
    /// Plays shard I of N of the match (1 <= I <= N): the same games as the whole match (numbers,
    /// seeds, colours, openings), only the game pairs p (from 0) with p mod N = I - 1. The shards'
    /// --results files put together by `boardbot merge` give the whole match's results. With
    /// --sprt a shard does not stop on its own pairs' LLR: the merged one decides.
    #[arg(long, value_name = "I/N")]
    shard: Option<Shard>,
    /// Games played at the same time. Each job runs its own pair of engines, which think one
    /// after the other, so a job loads about one core. The results do not depend on N.
    #[arg(long, short, value_name = "N", default_value_t = 1)]
    jobs: usize,
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn seconds(value: f64, what: &str) -> Result<Duration> {
    if !(value.is_finite() && value > 0.0 && value <= 86_400.0) {
        bail!("{what} must be a number of seconds in (0, 86400], got {value}");
    }
    Ok(Duration::from_secs_f64(value))
}

/// Runs `boardbot match`; `self_exe` is the binary the built-in players run.
pub fn run(args: MatchArgs, self_exe: &Path) -> Result<()> {
    let boards = boards_of(&args)?;
    let sprt = match &args.sprt {
        Some(elos) => Some(
            Sprt::new(elos[0], elos[1], args.alpha, args.beta, args.elo_model).map_err(|e| anyhow!("--sprt: {e}"))?,
        ),
        None => None,
    };
    if sprt.is_some() && (boards.len() != 1 || args.first != "alternate") {
        bail!("--sprt plays one board, each engine moving first once a round (no --first)");
    }
    let rounds = args.rounds.unwrap_or(if sprt.is_some() { SPRT_ROUNDS } else { 1 });
    if rounds == 0 {
        bail!("--rounds must be at least 1");
    }
    let openings = openings_of(&args, &boards)?;
    let first = match args.first.as_str() {
        "1" => Some(0),
        "2" => Some(1),
        _ => None,
    };
    let plan = MatchPlan {
        boards,
        rounds,
        timeout: seconds(args.timeout, "--timeout")?,
        seed: args.seed,
        first,
        dead_draws: !args.play_out,
        opening: args.opening,
        openings,
        shuffle_openings: sprt.is_some(),
        shard: args.shard.unwrap_or_default(),
    };
    let configs = engines_of(&args, self_exe, &plan)?;
    let names = [configs[0].name.as_str(), configs[1].name.as_str()];
    let total_games = shard_schedule(&plan).len();
    if total_games == 0 {
        bail!(
            "shard {}: no game pairs in this shard (the match has {} pairs)",
            plan.shard,
            plan.boards.len() * plan.rounds
        );
    }
    let jobs = jobs(args.jobs, total_games)?;
    let outputs =
        Arc::new(Mutex::new(Written { outputs: Outputs::open(&args, &plan, names, sprt)?, games: Vec::new() }));
    let scheduled = schedule(&plan);
    let (finished, interrupted) = report_on_ctrl_c(&plan, names, total_games, &outputs, &scheduled);
    // Not locked for the whole match: Ctrl-C's handler writes the results.
    let mut out = std::io::stdout();
    print_plan(&mut out, &plan, &configs, jobs, total_games, sprt.as_ref())?;

    // The engines' stderr, when shown, would tear through a bar: plain lines then.
    let progress = match &sprt {
        Some(sprt) => Progress::sprt(&sprt_status(sprt, 0.0, 0), args.quiet, !args.engine_stderr),
        None => Progress::new(total_games, args.quiet, !args.engine_stderr),
    };
    // The SPRT's course: the pairs' counts, engine1's score in the first game of the pair in
    // play, the LLR, the verdict.
    let mut counts = Pentanomial::default();
    let mut pair_first: Option<f64> = None;
    let mut llr = 0.0;
    let mut verdict: Option<Verdict> = None;
    let on_finished = |record: &GameRecord, done: usize| {
        // A game that ended after Ctrl-C (its engines too, at a terminal) is not a game of the match.
        if !interrupted.load(Ordering::SeqCst) {
            finished.lock().unwrap_or_else(|e| e.into_inner()).push(record.clone());
        }
        progress.game(done, &game_line(record, names))
    };
    let on_game = |record: &GameRecord| {
        let mut written = outputs.lock().unwrap_or_else(|e| e.into_inner());
        if interrupted.load(Ordering::SeqCst) {
            // Ctrl-C's handler writes the games finished, in order or not.
            return false;
        }
        written.outputs.write(record, &scheduled[record.number], names);
        written.games.push(record.number);
        drop(written);
        let Some(sprt) = &sprt else { return true };
        // One board: the games of round r are 2r and 2r + 1.
        let score = game_score(record);
        match pair_first.take() {
            None => pair_first = Some(score),
            Some(first) => {
                counts.add(first, score);
                llr = sprt.llr(&counts);
                let (lower, upper) = sprt.bounds();
                progress.status(&sprt_status(sprt, llr, counts.pairs()), (llr - lower) / (upper - lower));
                verdict = sprt.verdict(llr);
            }
        }
        // A shard plays on: the verdict is the merged shards' (see `boardbot merge`).
        verdict.is_none() || !plan.shard.is_whole()
    };
    let result = run_match(&plan, engine_pairs(&configs, jobs), on_finished, on_game);
    progress.finish();
    let result = result?;
    if let Some(e) = &outputs.lock().unwrap_or_else(|e| e.into_inner()).outputs.error {
        eprintln!("warning: writing the game log or results failed: {e}");
    }

    if interrupted.load(Ordering::SeqCst) {
        // Ctrl-C's handler prints the results and ends the process.
        loop {
            std::thread::park();
        }
    }
    let sprt_text = sprt.as_ref().map(|sprt| match plan.shard.is_whole() {
        true => sprt_report(sprt, &counts, llr, verdict),
        false => format!(
            "shard {} alone (the test's verdict is the merged shards'): {}",
            plan.shard,
            sprt_report(sprt, &counts, llr, verdict)
        ),
    });
    print_results(&mut out, &result, names, plan.timeout, sprt_text)?;
    Ok(())
}

/// The boards of `--game` (its words split where a game's name starts a description) and of
/// `--boards` (a built-in set or a file); at least one.
fn boards_of(args: &MatchArgs) -> Result<Vec<GameSpec>> {
    let mut boards = Vec::new();
    let mut descriptions: Vec<Vec<&str>> = Vec::new();
    for word in &args.game {
        match descriptions.last_mut() {
            Some(words) if game_type(word).is_none() => words.push(word),
            _ => descriptions.push(vec![word]),
        }
    }
    for words in descriptions {
        boards.push(parse_board(&words)?);
    }
    if let Some(path) = &args.boards {
        if let Some(set) = path.to_str().and_then(builtin_boards) {
            boards.extend(set);
        } else {
            let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
            boards.extend(parse_boards(&text).map_err(|e| anyhow!("{}: {e}", path.display()))?);
        }
    }
    if boards.is_empty() {
        bail!("no boards: give --game GAME (e.g. --game mnk 7 7 5) or --boards FILE");
    }
    Ok(boards)
}

/// The openings of `--openings` (a built-in set of the boards' game, else a file), each one's
/// moves, checked on every board; none without the option.
fn openings_of(args: &MatchArgs, boards: &[GameSpec]) -> Result<Vec<Vec<String>>> {
    let Some(path) = &args.openings else { return Ok(vec![]) };
    let set = path.to_str().and_then(|name| {
        let games: Vec<&str> = boards.iter().map(|b| b.name()).collect();
        games.iter().all(|g| *g == games[0]).then(|| opening_set(games[0], name)).flatten()
    });
    let text = match set {
        Some(text) => text.to_string(),
        None => std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?,
    };
    let openings = parse_openings(&text);
    if openings.is_empty() {
        bail!("{}: no openings in the file", path.display());
    }
    for (line, moves) in &openings {
        for board in boards {
            check_opening(board, &Opening::Moves(moves.clone())).map_err(|e| {
                anyhow!("{} line {line}: not an opening on '{}': {e}", path.display(), board_text(board))
            })?;
        }
    }
    Ok(openings.into_iter().map(|(_, moves)| moves).collect())
}

/// The two engines' settings; a pbrain engine must take every board of the plan.
fn engines_of(args: &MatchArgs, self_exe: &Path, plan: &MatchPlan) -> Result<[ProcessConfig; 2]> {
    let setup_timeout = seconds(args.setup_timeout, "--setup-timeout")?;
    let config = |text: &str| {
        engine_config(text, self_exe, args.seed, setup_timeout, args.engine_stderr)
            .map_err(|e| anyhow!("engine '{text}': {e}"))
    };
    let configs = [config(&args.engine1)?, config(&args.engine2)?];
    for (c, text) in configs.iter().zip([&args.engine1, &args.engine2]) {
        if c.protocol == Protocol::Pbrain {
            for board in &plan.boards {
                pbrain::check_board(board).map_err(|e| anyhow!("engine '{text}': {e}"))?;
            }
        }
    }
    Ok(configs)
}

/// The files a match writes as its games finish (`--log`, `--record`, `--results`), and the
/// first error writing them (the match goes on; the error is reported at its end).
struct Outputs {
    log: Option<BufWriter<File>>,
    records: Option<BufWriter<File>>,
    results: Option<BufWriter<File>>,
    error: Option<std::io::Error>,
}

impl Outputs {
    /// Creates the files asked for and writes their headers. `--record` says at the start if
    /// some board has no record format (nothing is written for its games; no file at all if no
    /// board has one).
    fn open(args: &MatchArgs, plan: &MatchPlan, names: [&str; 2], sprt: Option<Sprt>) -> Result<Outputs> {
        let create = |path: &Path| {
            File::create(path).map(BufWriter::new).with_context(|| format!("creating {}", path.display()))
        };
        let log = match &args.log {
            Some(path) => {
                let mut f = create(path)?;
                writeln!(f, "{LOG_HEADER}")?;
                f.flush()?;
                Some(f)
            }
            None => None,
        };
        let records = match &args.record {
            Some(path) => {
                let without: Vec<String> =
                    plan.boards.iter().filter(|b| b.kind().record.is_none()).map(board_text).collect();
                if !without.is_empty() {
                    eprintln!(
                        "warning: --record {}: no record format for {}: {}",
                        path.display(),
                        without.join(", "),
                        if without.len() == plan.boards.len() {
                            "nothing is written"
                        } else {
                            "their games are not written"
                        }
                    );
                }
                if without.len() < plan.boards.len() {
                    Some(create(path)?)
                } else {
                    None
                }
            }
            None => None,
        };
        let results = match &args.results {
            Some(path) => {
                let mut f = create(path)?;
                let header = MatchHeader {
                    engine1: args.engine1.clone(),
                    engine2: args.engine2.clone(),
                    timeout: plan.timeout.as_secs_f64(),
                    seed: plan.seed,
                    rounds: plan.rounds,
                    boards: plan.boards.iter().map(board_text).collect(),
                    openings: args.openings.as_ref().map(|p| p.display().to_string()),
                    opening_plies: plan.opening,
                    sprt,
                    names: Some([names[0].to_string(), names[1].to_string()]),
                    shard: (!plan.shard.is_whole()).then(|| plan.shard.to_string()),
                };
                writeln!(f, "{}", results::Line::Match(header).text())?;
                f.flush()?;
                Some(f)
            }
            None => None,
        };
        Ok(Outputs { log, records, results, error: None })
    }

    /// Writes a finished game to each file (`scheduled`: how the match planned it).
    fn write(&mut self, record: &GameRecord, scheduled: &Scheduled, names: [&str; 2]) {
        if let Some(f) = self.log.as_mut() {
            if let Err(e) = writeln!(f, "{}", log_line(record, names)).and_then(|_| f.flush()) {
                self.error.get_or_insert(e);
            }
        }
        if let (Some(f), Some(write)) = (self.records.as_mut(), record.spec.kind().record) {
            let text = write(&record.spec, &record_text(record, names));
            if let Err(e) = f.write_all(text.as_bytes()).and_then(|_| f.flush()) {
                self.error.get_or_insert(e);
            }
        }
        if let Some(f) = self.results.as_mut() {
            let line = results::Line::Game(GameResult::new(record, scheduled, names)).text();
            if let Err(e) = writeln!(f, "{line}").and_then(|_| f.flush()) {
                self.error.get_or_insert(e);
            }
        }
    }
}

/// The files of a match and the numbers of the games written to them.
struct Written {
    outputs: Outputs,
    games: Vec<usize>,
}

/// Ctrl-C or SIGTERM: the games finished so far (the list returned, which the match fills as
/// they finish, in any order) are written to the files (those not written yet: the games that
/// finished after one still in play) and reported as at the end (the table, the summaries), then
/// the process ends (the games in progress are not counted). The flag returned is set once that
/// has begun.
fn report_on_ctrl_c(
    plan: &MatchPlan,
    names: [&str; 2],
    total_games: usize,
    outputs: &Arc<Mutex<Written>>,
    scheduled: &[Scheduled],
) -> (Arc<Mutex<Vec<GameRecord>>>, Arc<AtomicBool>) {
    let finished: Arc<Mutex<Vec<GameRecord>>> = Arc::default();
    let interrupted = Arc::new(AtomicBool::new(false));
    let (games, flag, plan, outputs) = (finished.clone(), interrupted.clone(), plan.clone(), outputs.clone());
    let scheduled = scheduled.to_vec();
    let names = [names[0].to_string(), names[1].to_string()];
    let handler = ctrlc::set_handler(move || {
        // The files' lock first: a game being written is written whole before the flag is up.
        let mut written = outputs.lock().unwrap_or_else(|e| e.into_inner());
        if flag.swap(true, Ordering::SeqCst) {
            return;
        }
        let mut games = games.lock().unwrap_or_else(|e| e.into_inner()).clone();
        games.sort_by_key(|g| g.number);
        let names = [names[0].as_str(), names[1].as_str()];
        let Written { outputs, games: done } = &mut *written;
        for g in games.iter().filter(|g| !done.contains(&g.number)) {
            outputs.write(g, &scheduled[g.number], names);
        }
        if let Some(e) = &outputs.error {
            eprintln!("warning: writing the game log or results failed: {e}");
        }
        eprintln!("\ninterrupted: {} of {total_games} games finished", games.len());
        let result = collect(&plan, games);
        let _ = print_results(&mut std::io::stdout(), &result, names, plan.timeout, None);
        std::process::exit(130);
    });
    if let Err(e) = handler {
        eprintln!("warning: Ctrl-C will not print the results: {e}");
    }
    (finished, interrupted)
}

/// The match's first lines: the engines, the plan (time, boards, rounds, openings, jobs), the
/// shard and the SPRT's bounds.
fn print_plan(
    out: &mut impl Write,
    plan: &MatchPlan,
    configs: &[ProcessConfig; 2],
    jobs: usize,
    total_games: usize,
    sprt: Option<&Sprt>,
) -> Result<()> {
    let games_per_board = 2 * plan.rounds;
    writeln!(out, "engine1: {} [{}]", configs[0].name, configs[0].argv.join(" "))?;
    writeln!(out, "engine2: {} [{}]", configs[1].name, configs[1].argv.join(" "))?;
    let given = plan.openings.len();
    writeln!(
        out,
        "timeout {} s per move; {} board(s), {} round(s) = {} games per board; seed {}; {} job(s){}{}{}",
        plan.timeout.as_secs_f64(),
        plan.boards.len(),
        plan.rounds,
        games_per_board,
        plan.seed,
        jobs,
        plan.first.map_or(String::new(), |e| format!("; engine{} moves first in every game", e + 1)),
        match (given, plan.opening) {
            (0, 0) => String::new(),
            (0, n) => format!("; random openings of {n} plies, one a round"),
            (n, _) if plan.shuffle_openings => format!("; {n} given openings, one a round, in shuffled rounds of {n}"),
            (n, _) if n < plan.rounds => format!("; {n} given openings, one a round, repeated"),
            (n, _) if n == plan.rounds => format!("; {n} given openings, one a round"),
            (n, _) => format!("; the first {} of {n} given openings, one a round", plan.rounds),
        },
        match (given, plan.opening) {
            (0, _) | (_, 0) => String::new(),
            (_, n) => format!(", each followed by {n} random plies"),
        }
    )?;
    if !plan.shard.is_whole() {
        writeln!(
            out,
            "shard {}: {total_games} of the match's {} games (the game pairs p with p mod {} = {})",
            plan.shard,
            plan.boards.len() * games_per_board,
            plan.shard.count,
            plan.shard.index
        )?;
    }
    if let Some(sprt) = sprt {
        let (lower, upper) = sprt.bounds();
        writeln!(
            out,
            "SPRT {}: H0 accepted at LLR <= {lower:.3}, H1 at LLR >= {upper:.3}; at most {} pairs",
            sprt.describe(),
            plan.rounds
        )?;
    }
    out.flush()?;
    Ok(())
}

/// The match's results: the table by board, the score line (or the SPRT's report), and each
/// engine's losses.
pub(super) fn print_results(
    out: &mut impl Write,
    result: &MatchResult,
    names: [&str; 2],
    timeout: Duration,
    sprt: Option<String>,
) -> Result<()> {
    let mut text = String::new();
    let rows: Vec<(String, _)> = result.boards.iter().map(|(spec, t)| (board_text(spec), t.clone())).collect();
    text.push('\n');
    text.push_str(&table(&rows, &result.total));
    text.push_str(&format!("{}\n", legend()));
    if let Some(line) = score_line(&result.games) {
        text.push_str(&format!("\n{line}\n"));
    }
    if let Some(sprt) = &sprt {
        text.push_str(&format!("\n{sprt}\n"));
    }
    for e in 0..2 {
        text.push_str(&format!("\n{}", summary(&result.games, e, names, timeout, sprt.is_none())));
    }
    // One write: the results are not torn by another thread's output.
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}

/// The game pairs an SPRT plays at most unless `--rounds` says otherwise.
const SPRT_ROUNDS: usize = 20_000;

/// The SPRT's state for the progress: `LLR 1.23 (-2.94, 2.94) [0, 10], 120 pairs`.
fn sprt_status(sprt: &Sprt, llr: f64, pairs: u64) -> String {
    format!("{} [{}, {}], {pairs} pairs", sprt.status(llr), sprt.elo0, sprt.elo1)
}

/// The SPRT's result: the verdict (or none), the LLR and bounds, the pairs' counts, the Elo.
pub(super) fn sprt_report(sprt: &Sprt, counts: &Pentanomial, llr: f64, verdict: Option<Verdict>) -> String {
    let (lower, upper) = sprt.bounds();
    let pairs = counts.pairs();
    let mut text = match verdict {
        Some(Verdict::H1) => format!(
            "SPRT {}: H1 accepted (engine1 is {} Elo stronger): LLR {llr:.3} >= {upper:.3} after {pairs} pairs ({} games)",
            sprt.describe(),
            sprt.elo1,
            2 * pairs
        ),
        Some(Verdict::H0) => format!(
            "SPRT {}: H0 accepted (engine1 is not {} Elo stronger): LLR {llr:.3} <= {lower:.3} after {pairs} pairs ({} games)",
            sprt.describe(),
            sprt.elo1,
            2 * pairs
        ),
        None => format!(
            "SPRT {}: no verdict after {pairs} pairs ({} games): LLR {llr:.3}, bounds ({lower:.3}, {upper:.3})",
            sprt.describe(),
            2 * pairs
        ),
    };
    text.push_str(&format!("\npentanomial (pairs where engine1 scored 0, 1/2, 1, 3/2, 2 points): {counts}"));
    if let Some((elo, low, high)) = counts.elo() {
        text.push_str(&format!(
            "\nElo of engine1 over engine2: {elo:+.1}, 95% [{low:+.1}, {high:+.1}] (the pairs as samples)"
        ));
    }
    text
}

/// The openings of a file, with their line numbers: one a line, moves separated by spaces;
/// '#' starts a comment, and lines with no moves are skipped.
fn parse_openings(text: &str) -> Vec<(usize, Vec<String>)> {
    text.lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.split('#').next().unwrap_or("").split_whitespace().map(String::from).collect()))
        .filter(|(_, moves): &(usize, Vec<String>)| !moves.is_empty())
        .collect()
}

/// The number of jobs to run: `asked`, at most one per game. More jobs than cores are allowed,
/// with a warning: the engines of a job may then be starved of CPU past their time limits.
fn jobs(asked: usize, games: usize) -> Result<usize> {
    if asked == 0 {
        bail!("--jobs must be at least 1");
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if asked > cores {
        eprintln!(
            "warning: --jobs {asked} is more than the {cores} core(s) available: each job loads about one core, \
             so engines may be starved past their timeouts"
        );
    }
    Ok(asked.min(games))
}

/// `jobs` pairs of engines (engine1, engine2), each pair its own processes of the same configs.
fn engine_pairs(configs: &[ProcessConfig; 2], jobs: usize) -> Vec<EnginePair> {
    let engine = |c: &ProcessConfig| Box::new(ProcessEngine::new(c.clone())) as Box<dyn super::EngineAdapter>;
    (0..jobs).map(|_| [engine(&configs[0]), engine(&configs[1])]).collect()
}

/// Engine `e`'s games lost and forfeited (board, colour, moves, reason) and its late replies;
/// with `list`, the games themselves (every loss of engine1, every forfeit of engine2).
fn summary(games: &[GameRecord], e: usize, names: [&str; 2], timeout: Duration, list: bool) -> String {
    // Lost on the board or by forfeit (a game both engines forfeited counts as lost for both).
    let lost: Vec<&GameRecord> = games
        .iter()
        .filter(|g| g.end.winner() == Some(g.side_of(e).other()) || matches!(g.end, GameEnd::BothForfeit { .. }))
        .collect();
    let forfeits = lost.iter().filter(|g| g.end.fault_of(g.side_of(e)).is_some()).count();
    let replies = games.iter().map(|g| g.replies[e].len()).sum::<usize>();
    let late = games.iter().flat_map(|g| &g.replies[e]).filter(|d| **d > timeout).count();
    let max = games.iter().flat_map(|g| &g.replies[e]).max().map_or("-".to_string(), |d| format!("{:.1}", ms(*d)));
    let mut text = format!(
        "engine{} {}: {} games lost ({} by forfeit); {} late of {} replies (max reply {max} ms, limit {:.1} ms)\n",
        e + 1,
        names[e],
        lost.len(),
        forfeits,
        late,
        replies,
        ms(timeout)
    );
    // Every loss of engine1 (the engine under test); only the forfeits of engine2.
    for g in lost.into_iter().filter(|g| list && (e == 0 || g.end.fault_of(g.side_of(e)).is_some())) {
        let side = match g.side_of(e) {
            Side::First => "first",
            Side::Second => "second",
        };
        text.push_str(&format!(
            "  game {} [{}] as {side}: {}\n    moves: {}\n",
            g.number + 1,
            board_text(&g.spec),
            result_text(g, names),
            moves_text(&g.moves)
        ));
    }
    text
}
