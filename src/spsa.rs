//! `boardbot spsa`: tunes numeric options of the engine (the search's selectivity: `reduction`,
//! `static-margin`, ...; any [`Kind::Number`] option of [`crate::bot::OPTIONS`]) by simultaneous
//! perturbation stochastic approximation, as fishtest and OpenBench run it.
//!
//! **The schedule** ([`Schedule`]). N iterations; for each parameter a start, a range, c_end (its
//! perturbation at the last iteration) and r_end (the learning rate there). With gamma = 0.101,
//! alpha = 0.602 and A = 0.1 N: c_k = c / k^gamma and a_k = a / (A + k)^alpha, where
//! c = c_end N^gamma and a = r_end c_end^2 (A + N)^alpha (so c_N = c_end, a_N = r_end c_end^2).
//!
//! **An iteration** k (from 1) draws a vector delta of +-1 from the seed and k alone, and plays a
//! game pair from one opening, each engine both colours, between the engine with theta + c_k
//! delta and the one with theta - c_k delta (each value rounded and clamped to its range); then
//! theta += a_k / c_k x (plus's score - minus's score over the pair) x delta, clamped to the
//! ranges. With `--jobs J`, J pairs are played at once, each perturbing the theta of its start and
//! updating the theta of its end (asynchronous updates, as fishtest's workers).
//!
//! **The games** are played by the referee (src/referee/): each engine is this binary run as a
//! process (`self --nodes N --reduction R ...`, the engine specs of `boardbot match`), and
//! [`crate::referee::play_game`] plays them, so a late reply, an illegal move or a crash forfeits
//! the game exactly as in `boardbot match`. In-process games would save the processes' start (a
//! few milliseconds a game beside the search's time) but would need a second game runner with
//! its own rules for faults: the referee's is the one that `match` and its SPRT trust.
//!
//! **The state file** (`--out`) is text: `#` lines with the settings, then one line an iteration
//! in the order they finished: `ITERATION <tab> SCORE <tab> THETA...` (SCORE: plus's score less
//! minus's over the pair, from -2 to 2; THETA: every parameter's value after the update, in the
//! order of `--param`, each written so that it reads back exactly). Run again with the same
//! settings and `--out`, it keeps the iterations there (a line cut off is dropped), takes the
//! last line's theta and plays the iterations missing. With `--nodes` and `--jobs 1` a run
//! depends on its settings alone: the same file on any machine, interrupted or not.

use crate::bot::{option, Kind, OptionSpec, OPTIONS};
use crate::game::registry::{opening_set, GameSpec, Resources};
use crate::referee::game::{check_opening, play_game, Opening, Terms};
use crate::referee::progress::Progress;
use crate::referee::score::game_score;
use crate::referee::spec::engine_config;
use crate::referee::{EngineAdapter, ProcessEngine};
use anyhow::{anyhow, bail, Context, Result};
use clap::{ArgAction, ArgGroup, Args};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

/// fishtest's exponents and the share of the iterations that is A.
pub const GAMMA: f64 = 0.101;
pub const ALPHA: f64 = 0.602;
pub const A_SHARE: f64 = 0.1;
/// The learning rate at the end, by default (fishtest's).
pub const R_END: f64 = 0.002;
/// A parameter's perturbation at the end, by default: this share of its range (at least 1).
pub const C_END_SHARE: f64 = 1.0 / 20.0;

/// Tunes engine options by SPSA on game pairs.
#[derive(Args, Clone, Debug)]
#[command(group(ArgGroup::new("limit").required(true).args(["time", "nodes"])))]
pub struct SpsaArgs {
    /// The game, as `init` describes it: `checkers english`, `cx 6 7 4`, `mnk 7 7 5`.
    #[arg(value_name = "GAME", num_args = 1.., required = true)]
    game: Vec<String>,
    /// A parameter: a numeric engine option, optionally its start, range, c_end and r_end:
    /// NAME[=START[,MIN,MAX[,C_END[,R_END]]]] (default start: the game's own value; range: the
    /// option's; c_end: a twentieth of the range; r_end: --r-end). Repeat for several.
    #[arg(long = "param", value_name = "NAME[=START,...]", required = true, action = ArgAction::Append)]
    params: Vec<String>,
    /// Iterations (game pairs) of the whole run (those already in --out count).
    #[arg(long)]
    iterations: usize,
    /// Nodes per move: reproducible games (the referee's timeout per move is --timeout).
    #[arg(long)]
    nodes: Option<u64>,
    /// Seconds per move, measured by the referee (games then depend on the machine's speed).
    #[arg(long, value_name = "SECS")]
    time: Option<f64>,
    /// With --nodes: the referee's time per move, in seconds (a later reply forfeits).
    #[arg(long, value_name = "SECS", default_value_t = 10.0)]
    timeout: f64,
    /// Openings: a file (one a line, move text, '#' comments) or a built-in set of the game
    /// (acf3: checkers' 156 three-move ballots), taken in an order drawn from the seed; none:
    /// the start position (then --opening random plies).
    #[arg(long, value_name = "FILE|SET")]
    openings: Option<PathBuf>,
    /// Random plies after the opening, drawn from the seed and the iteration.
    #[arg(long, value_name = "PLIES", default_value_t = 0)]
    opening: usize,
    /// The learning rate at the end, for the parameters that do not give theirs.
    #[arg(long, default_value_t = R_END)]
    r_end: f64,
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Game pairs played at the same time (a job loads about one core; above 1 the run depends
    /// on the order the pairs finish in).
    #[arg(long, short, default_value_t = 1)]
    jobs: usize,
    /// Each engine's hash, in MiB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// The state file: settings and one line an iteration; continued if it holds a run of the
    /// same settings.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// No progress on stderr.
    #[arg(long, short)]
    quiet: bool,
}

/// One tuned parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: &'static str,
    pub start: f64,
    pub min: f64,
    pub max: f64,
    pub c_end: f64,
    pub r_end: f64,
}

impl Param {
    /// `text` (NAME[=START[,MIN,MAX[,C_END[,R_END]]]]) for `game`, or why not.
    pub fn parse(text: &str, game: &GameSpec, r_end: f64) -> Result<Param> {
        let (name, rest) = text.split_once('=').unwrap_or((text, ""));
        let spec = option(name.trim())?;
        let Kind::Number { min, max, .. } = spec.kind else {
            bail!("{}: not a numeric option (the numeric ones: {})", spec.name, numeric_names());
        };
        if ["seed", "nodes"].contains(&spec.name) {
            bail!("{}: the run's own (--{}), not a parameter", spec.name, spec.name);
        }
        let number = |what: &str, v: &str| -> Result<f64> {
            match v.trim().parse::<f64>() {
                Ok(x) if x.is_finite() => Ok(x),
                _ => Err(anyhow!("{}: the {what} '{v}' is not a number", spec.name)),
            }
        };
        let fields: Vec<&str> = if rest.is_empty() { vec![] } else { rest.split(',').collect() };
        if fields.len() > 5 || fields.len() == 2 {
            bail!("{}: expected NAME[=START[,MIN,MAX[,C_END[,R_END]]]], got '{text}'", spec.name);
        }
        let (low, high) = (min as f64, max as f64);
        let (pmin, pmax) = match fields.get(1..3) {
            Some([a, b]) => (number("minimum", a)?, number("maximum", b)?),
            _ => (low, high.min(low + 1e6)),
        };
        if !(low <= pmin && pmin < pmax && pmax <= high) {
            bail!("{}: the range {pmin}..{pmax} is not a range within the option's {low}..={high}", spec.name);
        }
        let start = match fields.first() {
            Some(v) => number("start", v)?,
            None => own_value(spec, game)?,
        };
        if !(pmin..=pmax).contains(&start) {
            bail!("{}: the start {start} is outside the range {pmin}..={pmax}", spec.name);
        }
        let c_end = match fields.get(3) {
            Some(v) => number("c_end", v)?,
            None => ((pmax - pmin) * C_END_SHARE).max(1.0),
        };
        let r_end = match fields.get(4) {
            Some(v) => number("r_end", v)?,
            None => r_end,
        };
        if c_end <= 0.0 || r_end <= 0.0 {
            bail!("{}: c_end and r_end must be above 0", spec.name);
        }
        Ok(Param { name: spec.name, start, min: pmin, max: pmax, c_end, r_end })
    }

    /// The value an engine plays with for `theta` moved by `shift`: rounded, in the range.
    pub fn value(&self, theta: f64, shift: f64) -> i64 {
        (theta + shift).clamp(self.min, self.max).round() as i64
    }
}

/// The options a parameter may be, comma-separated.
fn numeric_names() -> String {
    let tunable = |o: &&OptionSpec| matches!(o.kind, Kind::Number { .. }) && !["seed", "nodes"].contains(&o.name);
    OPTIONS.iter().filter(tunable).map(|o| o.name).collect::<Vec<_>>().join(", ")
}

/// The option's effective default in `game`: the game's own value, or the option's default.
fn own_value(spec: &OptionSpec, game: &GameSpec) -> Result<f64> {
    if let Some(own) = spec.own {
        let rules = game.new_game(&Resources::none())?;
        if let Some(v) = own(&rules.selectivity()) {
            return Ok(v as f64);
        }
    } else if let Ok(v) = spec.default.parse::<u64>() {
        return Ok(v as f64);
    }
    bail!("{}: '{}' has no value of its own for it; give a start: --param {}=START", spec.name, game, spec.name)
}

/// The gains of every iteration of a run of `iterations` (see the module's text).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    pub iterations: usize,
    pub big_a: f64,
}

impl Schedule {
    pub fn new(iterations: usize) -> Schedule {
        Schedule { iterations, big_a: A_SHARE * iterations as f64 }
    }

    /// c_k of `param` at iteration `k` (from 1).
    pub fn c(&self, param: &Param, k: usize) -> f64 {
        let c = param.c_end * (self.iterations as f64).powf(GAMMA);
        c / (k as f64).powf(GAMMA)
    }

    /// a_k of `param` at iteration `k` (from 1).
    pub fn a(&self, param: &Param, k: usize) -> f64 {
        let a = param.r_end * param.c_end * param.c_end * (self.big_a + self.iterations as f64).powf(ALPHA);
        a / (self.big_a + k as f64).powf(ALPHA)
    }
}

/// The +-1 perturbation of iteration `k` for `n` parameters: from the seed and `k` alone.
pub fn delta(seed: u64, k: usize, n: usize) -> Vec<f64> {
    let mut rng = SmallRng::seed_from_u64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ k as u64);
    (0..n).map(|_| if rng.gen_bool(0.5) { 1.0 } else { -1.0 }).collect()
}

/// The settings a run's iterations depend on.
struct Settings {
    spec: GameSpec,
    params: Vec<Param>,
    iterations: usize,
    nodes: Option<u64>,
    /// The referee's time per move.
    timeout: Duration,
    openings: Vec<Vec<String>>,
    openings_name: String,
    opening_plies: usize,
    seed: u64,
    hash: usize,
}

impl Settings {
    /// The state file's header.
    fn header(&self) -> String {
        let limit = match self.nodes {
            Some(n) => format!("nodes {n} (timeout {} s)", self.timeout.as_secs_f64()),
            None => format!("time {} s", self.timeout.as_secs_f64()),
        };
        let mut text = format!(
            "# boardbot spsa: ITERATION, SCORE (plus's less minus's over the game pair), THETA ({})\n\
             # game {}\n# limit {limit}\n# hash {}\n# openings {} then {} random plies\n# seed {}\n\
             # iterations {} (gamma {GAMMA}, alpha {ALPHA}, A {})\n",
            self.params.iter().map(|p| p.name).collect::<Vec<_>>().join(", "),
            self.spec,
            self.hash,
            self.openings_name,
            self.opening_plies,
            self.seed,
            self.iterations,
            Schedule::new(self.iterations).big_a,
        );
        for p in &self.params {
            text.push_str(&format!(
                "# param {} start {} min {} max {} c_end {} r_end {}\n",
                p.name, p.start, p.min, p.max, p.c_end, p.r_end
            ));
        }
        text
    }

    /// The engine spec of the engine playing `values` (one a parameter).
    fn engine(&self, values: &[i64]) -> String {
        let mut text = format!("self --hash {}", self.hash);
        if let Some(n) = self.nodes {
            text.push_str(&format!(" --nodes {n}"));
        }
        for (p, v) in self.params.iter().zip(values) {
            text.push_str(&format!(" --{} {v}", p.name));
        }
        text
    }

    /// The opening of iteration `k`: the given openings in an order drawn from the seed, each
    /// once in every round of them, then the random plies.
    fn opening(&self, k: usize) -> Opening {
        let plies_seed = self.seed.wrapping_add(k as u64);
        if self.openings.is_empty() {
            return Opening::Random { plies: self.opening_plies, seed: plies_seed };
        }
        let n = self.openings.len();
        let round = (k - 1) / n;
        let mut order: Vec<usize> = (0..n).collect();
        order.shuffle(&mut SmallRng::seed_from_u64(self.seed.wrapping_add(round as u64)));
        let moves = self.openings[order[(k - 1) % n]].clone();
        match self.opening_plies {
            0 => Opening::Moves(moves),
            plies => Opening::MovesThenRandom { moves, plies, seed: plies_seed },
        }
    }
}

/// One finished iteration.
#[derive(Clone, Debug, PartialEq)]
pub struct Done {
    pub k: usize,
    pub score: f64,
    pub theta: Vec<f64>,
}

impl Done {
    fn line(&self) -> String {
        let theta: Vec<String> = self.theta.iter().map(|t| t.to_string()).collect();
        format!("{}\t{:+}\t{}\n", self.k, self.score, theta.join("\t"))
    }

    fn parse(line: &str, n: usize) -> Option<Done> {
        let mut words = line.split('\t');
        let k = words.next()?.parse().ok()?;
        let score = words.next()?.parse().ok()?;
        let theta: Vec<f64> = words.map(|w| w.parse().ok()).collect::<Option<_>>()?;
        (theta.len() == n && k > 0).then_some(Done { k, score, theta })
    }
}

/// The iterations already in the state file at `path` (none if there is no file), checked to
/// be of the same settings; a line cut off at the end is dropped from the file.
fn resume(path: &Path, header: &str, settings: &Settings) -> Result<Vec<Done>> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(vec![]),
        Err(e) => return Err(anyhow!("cannot read {}: {e}", path.display())),
    };
    if text.is_empty() {
        return Ok(vec![]);
    }
    let Some(body) = text.strip_prefix(header) else {
        bail!(
            "{} holds a run of other settings (its header differs from this run's); give another --out",
            path.display()
        );
    };
    let mut done = Vec::new();
    let mut kept = header.len();
    for line in body.split_inclusive('\n') {
        let whole = line.ends_with('\n');
        match Done::parse(line.trim_end_matches('\n'), settings.params.len()) {
            Some(d) if whole && d.k <= settings.iterations && !done.iter().any(|o: &Done| o.k == d.k) => {
                done.push(d);
                kept += line.len();
            }
            _ if !whole => break,
            _ => bail!("{}: a line that is not an iteration of this run: '{}'", path.display(), line.trim_end()),
        }
    }
    if kept < text.len() {
        // The last line was cut off by an interruption.
        let file = OpenOptions::new().write(true).open(path).with_context(|| format!("writing {}", path.display()))?;
        file.set_len(kept as u64)?;
    }
    Ok(done)
}

/// What the jobs share: theta, the iterations to play and those done.
struct State {
    theta: Vec<f64>,
    todo: std::collections::VecDeque<usize>,
    done: usize,
    file: std::fs::File,
    error: Option<anyhow::Error>,
}

/// Runs `boardbot spsa`; `self_exe` is the binary the engines run.
pub fn run(args: SpsaArgs, self_exe: &Path) -> Result<()> {
    let spec = GameSpec::from_words(&args.game.iter().map(String::as_str).collect::<Vec<_>>())?;
    if args.iterations == 0 {
        bail!("--iterations must be at least 1");
    }
    if args.jobs == 0 {
        bail!("--jobs must be at least 1");
    }
    if !(args.r_end.is_finite() && args.r_end > 0.0) {
        bail!("--r-end must be above 0, got {}", args.r_end);
    }
    let mut params = Vec::new();
    for text in &args.params {
        let p = Param::parse(text, &spec, args.r_end).map_err(|e| anyhow!("--param {e}"))?;
        if params.iter().any(|q: &Param| q.name == p.name) {
            bail!("--param {}: given twice", p.name);
        }
        params.push(p);
    }
    let seconds = |v: f64, what: &str| -> Result<Duration> {
        if !(v.is_finite() && v > 0.0 && v <= 86_400.0) {
            bail!("{what} must be a number of seconds in (0, 86400], got {v}");
        }
        Ok(Duration::from_secs_f64(v))
    };
    let timeout = match args.time {
        Some(t) => seconds(t, "--time")?,
        None => seconds(args.timeout, "--timeout")?,
    };
    let (openings, openings_name) = match &args.openings {
        None => (vec![], "none".to_string()),
        Some(path) => {
            let name = path.to_string_lossy().into_owned();
            let text = match opening_set(spec.name(), &name) {
                Some(text) => text.to_string(),
                None => std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?,
            };
            let openings: Vec<Vec<String>> = text
                .lines()
                .map(|l| l.split('#').next().unwrap_or("").split_whitespace().map(String::from).collect())
                .filter(|m: &Vec<String>| !m.is_empty())
                .collect();
            if openings.is_empty() {
                bail!("{name}: no openings");
            }
            for moves in &openings {
                check_opening(&spec, &Opening::Moves(moves.clone()))
                    .map_err(|e| anyhow!("{name}: not an opening of '{spec}': {e}"))?;
            }
            (openings, name)
        }
    };
    let settings = Settings {
        spec,
        params,
        iterations: args.iterations,
        nodes: args.nodes,
        timeout,
        openings,
        openings_name,
        opening_plies: args.opening,
        seed: args.seed,
        hash: args.hash,
    };
    // Each engine spec is read once here: a bad value stops the run before any game.
    let starts: Vec<i64> = settings.params.iter().map(|p| p.value(p.start, 0.0)).collect();
    engine_config(&settings.engine(&starts), self_exe, 0, timeout, false)?;

    let header = settings.header();
    let done = resume(&args.out, &header, &settings)?;
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args.out)
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    if done.is_empty() && file.metadata()?.len() == 0 {
        file.write_all(header.as_bytes())?;
    }
    let theta = done.last().map_or_else(|| settings.params.iter().map(|p| p.start).collect(), |d| d.theta.clone());
    let todo: std::collections::VecDeque<usize> =
        (1..=settings.iterations).filter(|k| !done.iter().any(|d| d.k == *k)).collect();
    let progress = Progress::new(settings.iterations, args.quiet, true);
    let state = Mutex::new(State { theta, todo, done: done.len(), file, error: None });
    let schedule = Schedule::new(settings.iterations);
    std::thread::scope(|scope| {
        for _ in 0..args.jobs {
            scope.spawn(|| work(&settings, &schedule, &state, &progress, self_exe));
        }
    });
    progress.finish();
    let state = state.into_inner().unwrap_or_else(|e| e.into_inner());
    if let Some(e) = state.error {
        return Err(e);
    }
    let values: Vec<String> =
        settings.params.iter().zip(&state.theta).map(|(p, t)| format!("{} {t:.2}", p.name)).collect();
    println!("theta after {} iterations: {}", settings.iterations, values.join(", "));
    Ok(())
}

/// One job: takes the next iteration, plays its pair, updates theta and writes the line, until
/// none is left (or a job failed).
fn work(settings: &Settings, schedule: &Schedule, state: &Mutex<State>, progress: &Progress, self_exe: &Path) {
    let lock = || state.lock().unwrap_or_else(|e| e.into_inner());
    loop {
        let (k, theta) = {
            let mut s = lock();
            if s.error.is_some() {
                return;
            }
            let Some(k) = s.todo.pop_front() else { return };
            (k, s.theta.clone())
        };
        let result = iteration(settings, schedule, k, &theta, self_exe);
        let mut s = lock();
        let score = match result {
            Ok(score) => score,
            Err(e) => {
                s.error.get_or_insert(e.context(format!("iteration {k}")));
                return;
            }
        };
        let d = delta(settings.seed, k, settings.params.len());
        let moved: Vec<f64> = settings
            .params
            .iter()
            .zip(&s.theta)
            .zip(&d)
            .map(|((p, t), d)| (t + schedule.a(p, k) / schedule.c(p, k) * score * d).clamp(p.min, p.max))
            .collect();
        s.theta = moved;
        s.done += 1;
        let line = Done { k, score, theta: s.theta.clone() }.line();
        if let Err(e) = s.file.write_all(line.as_bytes()) {
            s.error.get_or_insert(anyhow!("writing the state file: {e}"));
            return;
        }
        let values: Vec<String> =
            settings.params.iter().zip(&s.theta).map(|(p, t)| format!("{} {t:.2}", p.name)).collect();
        progress.game(s.done, &format!("iteration {k}: {score:+} | {}", values.join(", ")));
    }
}

/// Plays iteration `k`'s game pair from `theta`: plus's score less minus's (-2 to 2).
fn iteration(settings: &Settings, schedule: &Schedule, k: usize, theta: &[f64], self_exe: &Path) -> Result<f64> {
    let d = delta(settings.seed, k, settings.params.len());
    let side = |sign: f64| -> Vec<i64> {
        settings.params.iter().zip(theta).zip(&d).map(|((p, t), d)| p.value(*t, sign * schedule.c(p, k) * d)).collect()
    };
    let game_seed = settings.seed.wrapping_add(2 * k as u64);
    let engine = |values: &[i64]| -> Result<ProcessEngine> {
        let config = engine_config(&settings.engine(values), self_exe, game_seed, settings.timeout.max(SETUP), false)?;
        Ok(ProcessEngine::new(config))
    };
    let mut plus = engine(&side(1.0))?;
    let mut minus = engine(&side(-1.0))?;
    let mut score = 0.0;
    for first in [0, 1] {
        let terms = Terms {
            timeout: settings.timeout,
            seed: game_seed + first as u64,
            dead_draws: true,
            opening: settings.opening(k),
            abort: None,
        };
        let record = play_game(2 * k + first, &settings.spec, [&mut plus, &mut minus], first, &terms)?;
        score += 2.0 * game_score(&record) - 1.0;
    }
    plus.quit();
    minus.quit();
    Ok(score)
}

/// The least time an engine has to start and answer `init`.
const SETUP: Duration = Duration::from_secs(10);

#[cfg(test)]
mod tests {
    use super::*;

    fn param(c_end: f64, r_end: f64) -> Param {
        Param { name: "reduction", start: 75.0, min: 0.0, max: 300.0, c_end, r_end }
    }

    #[test]
    fn the_schedule_is_fishtests() {
        let s = Schedule::new(1000);
        assert_eq!(s.big_a, 100.0);
        let p = param(10.0, 0.002);
        // At the end: c_N = c_end and a_N = r_end c_end^2.
        assert!((s.c(&p, 1000) - 10.0).abs() < 1e-9);
        assert!((s.a(&p, 1000) - 0.2).abs() < 1e-12);
        // At the start: c_1 = c_end 1000^0.101, a_1 = 0.2 (1100 / 101)^0.602.
        assert!((s.c(&p, 1) - 10.0 * 1000f64.powf(0.101)).abs() < 1e-9);
        assert!((s.c(&p, 1) - 20.091).abs() < 1e-3, "{}", s.c(&p, 1));
        assert!((s.a(&p, 1) - 0.2 * (1100.0f64 / 101.0).powf(0.602)).abs() < 1e-12);
        assert!((s.a(&p, 1) - 0.84).abs() < 1e-2, "{}", s.a(&p, 1));
        // Both fall all the way.
        assert!((2..=1000).all(|k| s.c(&p, k) < s.c(&p, k - 1) && s.a(&p, k) < s.a(&p, k - 1)));
    }

    #[test]
    fn values_are_rounded_into_the_range_and_delta_is_the_seeds() {
        let p = Param { min: 25.0, max: 150.0, ..param(6.0, 0.002) };
        assert_eq!(
            (p.value(75.4, 0.0), p.value(75.6, 0.0), p.value(149.0, 6.0), p.value(30.0, -20.0)),
            (75, 76, 150, 25)
        );
        assert_eq!(delta(1, 7, 4), delta(1, 7, 4));
        assert!(delta(1, 7, 4).iter().all(|d| d.abs() == 1.0));
        let all: Vec<Vec<f64>> = (1..=50).map(|k| delta(1, k, 4)).collect();
        assert!(all.iter().any(|d| d != &all[0]), "delta changes with the iteration");
    }

    #[test]
    fn params_are_read_with_the_games_own_values_and_checked() {
        let checkers = GameSpec::parse("checkers english").unwrap();
        let p = Param::parse("reduction", &checkers, 0.002).unwrap();
        assert_eq!((p.start, p.min, p.max, p.c_end, p.r_end), (75.0, 0.0, 300.0, 15.0, 0.002));
        let p = Param::parse("static-margin=70,0,200,8,0.01", &checkers, 0.002).unwrap();
        assert_eq!((p.start, p.min, p.max, p.c_end, p.r_end), (70.0, 0.0, 200.0, 8.0, 0.01));
        assert_eq!(Param::parse("singular_margin", &checkers, 0.002).unwrap().start, 2.0);
        let err = |t: &str| Param::parse(t, &checkers, 0.002).unwrap_err().to_string();
        assert!(err("player").contains("not a numeric option"), "{}", err("player"));
        assert!(err("colour").contains("unknown option 'colour'"));
        assert!(err("reduction=400").contains("outside the range"));
        assert!(err("reduction=50,60,100").contains("outside the range"));
        assert!(err("reduction=50,0,400").contains("not a range within"));
        assert!(err("reduction=x").contains("not a number"));
        assert!(err("seed").contains("the run's own"));
        // A game without a reduction factor needs a start.
        let cx = GameSpec::parse("cx 6 7 4").unwrap();
        assert!(Param::parse("reduction", &cx, 0.002).unwrap_err().to_string().contains("give a start"));
    }
}
