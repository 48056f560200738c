//! Connect-4 solver benchmark (issue 4): boardbot's exact solver beside the crate
//! `connect-four-ai` (Pons' method in Rust, opening book off) in the same run, and beside Pons'
//! own reference figures, on the shared position sets.
//!
//! Run with `scripts/solver-bench.sh` (or `cargo bench --bench solver`). Environment:
//! - `CONNECT4_DIR`: the folder of the sets (default `../shared/connect4` from the crate root);
//! - `SETS`: comma list of set names (default all six; `none` for no set);
//! - `LIMIT`: positions per set (default 500, but 50 for Test_L1_R3 as in Pons' figure);
//! - `MODES`: comma list of `strong`, `weak` (default both);
//! - `HASH_MB`: boardbot's table size in MiB (default 64, the size of connect-four-ai's table
//!   and of Pons' "64 MiB-class" one);
//! - `REPEAT`: passes over each set and mode per solver (default 1), alternating the solvers;
//!   the table shows the pass with the median time (the machine's speed drifts by tens of
//!   percent from one second to the next);
//! - `CFA=0`: boardbot only (connect-four-ai's columns then read n/a);
//! - `EMPTY=1`: also solve the empty board with boardbot's solver (weak and strong as in
//!   `MODES`; many minutes on 6x7), `EMPTY_SHAPE=rows,cols,x` (default 6,7,4) for another board.
//!
//! Each solver keeps its table across the positions of one set and mode, as `boardbot solve`
//! does by default; both tables are emptied before each set and mode, and the processor's caches
//! flushed after that. Only the solve call is timed. A wrong score (weak: a wrong sign) makes
//! the bench exit with status 1.

use boardbot::game::connectx::solver::{BoundTable, Position, Shape, Solver};
use connect_four_ai as cfa;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::{Duration, Instant};

const ALL_SETS: [&str; 6] = ["Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2", "Test_L1_R3"];

/// Pons' final C++ solver (no opening book, 64 MiB-class table, one thread), mean per position:
/// the table "Reference timings of Pons' final C++ solver" of shared/README.md (over the full
/// 1000-line sets; Test_L1_R3 over its first 50 positions).
/// (set, strong mean time in seconds, strong mean nodes, weak mean time in seconds)
const PONS: [(&str, f64, f64, f64); 6] = [
    ("Test_L3_R1", 4.7e-6, 51.0, 3.4e-6),
    ("Test_L2_R1", 42e-6, 450.0, 61e-6),
    ("Test_L2_R2", 4.5e-3, 39_900.0, 2.4e-3),
    ("Test_L1_R1", 0.30e-3, 3_300.0, 2.8e-3),
    ("Test_L1_R2", 161e-3, 1_200_000.0, 84e-3),
    ("Test_L1_R3", 7.0, 48_700_000.0, 3.6),
];

/// Pons' weak solve of the empty 6x7 board (shared/README.md): 4 min 42 s, about 2.0e9 nodes.
const PONS_EMPTY_WEAK: (f64, f64) = (282.0, 2.0e9);

struct Config {
    dir: PathBuf,
    sets: Vec<String>,
    limit: Option<usize>,
    /// false: strong, true: weak.
    modes: Vec<bool>,
    hash_mb: usize,
    repeat: usize,
    /// Whether connect-four-ai runs too.
    cfa: bool,
    empty: bool,
    empty_shape: (usize, usize, usize),
}

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().map(|v| v.trim().to_string()).filter(|v| !v.is_empty())
}

fn config() -> Result<Config, String> {
    let dir = env("CONNECT4_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/connect4"));
    let sets = match env("SETS") {
        None => ALL_SETS.iter().map(|s| s.to_string()).collect(),
        Some(s) if s == "none" => Vec::new(),
        Some(s) => s.split(',').map(|w| w.trim().to_string()).filter(|w| !w.is_empty()).collect(),
    };
    let limit = env("LIMIT").map(|l| l.parse::<usize>().map_err(|e| format!("LIMIT={l}: {e}"))).transpose()?;
    let modes = env("MODES")
        .unwrap_or_else(|| "strong,weak".into())
        .split(',')
        .map(|m| match m.trim() {
            "strong" => Ok(false),
            "weak" => Ok(true),
            other => Err(format!("MODES: '{other}' is neither strong nor weak")),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let hash_mb = env("HASH_MB").map(|h| h.parse().map_err(|e| format!("HASH_MB={h}: {e}"))).transpose()?.unwrap_or(64);
    let repeat = match env("REPEAT") {
        None => 1,
        Some(r) => {
            r.parse::<usize>().ok().filter(|&r| r > 0).ok_or(format!("REPEAT={r}: want a count of at least 1"))?
        }
    };
    let cfa = env("CFA").is_none_or(|c| c != "0");
    let empty = env("EMPTY").is_some_and(|e| e != "0");
    let empty_shape = match env("EMPTY_SHAPE") {
        None => (6, 7, 4),
        Some(s) => match s.split(',').map(|w| w.trim().parse::<usize>()).collect::<Result<Vec<_>, _>>() {
            Ok(v) if v.len() == 3 => (v[0], v[1], v[2]),
            _ => return Err(format!("EMPTY_SHAPE={s}: want rows,cols,x")),
        },
    };
    Ok(Config { dir, sets, limit, modes, hash_mb, repeat, cfa, empty, empty_shape })
}

struct Case {
    moves: String,
    /// 0-based columns.
    cols: Vec<usize>,
    expected: i32,
}

fn load(path: &std::path::Path, limit: usize) -> Result<Vec<Case>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut cases = Vec::new();
    for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()).take(limit) {
        let bad = |what: &str| format!("{}:{}: {what}", path.display(), n + 1);
        let mut words = line.split_whitespace();
        let moves = words.next().ok_or_else(|| bad("no moves"))?.to_string();
        let expected = words.next().and_then(|s| s.parse().ok()).ok_or_else(|| bad("no score"))?;
        let cols = moves
            .chars()
            .map(|c| match c.to_digit(10) {
                Some(d @ 1..=7) => Ok(d as usize - 1),
                _ => Err(bad(&format!("'{c}' is not a column 1..7"))),
            })
            .collect::<Result<Vec<_>, _>>()?;
        cases.push(Case { moves, cols, expected });
    }
    Ok(cases)
}

/// What one solver did on one set and mode.
#[derive(Default)]
struct Run {
    count: usize,
    time: Duration,
    nodes: u64,
    wrong: Vec<String>,
}

impl Run {
    fn mean_time(&self) -> f64 {
        self.time.as_secs_f64() / self.count.max(1) as f64
    }
    fn mean_nodes(&self) -> f64 {
        self.nodes as f64 / self.count.max(1) as f64
    }
    fn check(&mut self, case: &Case, weak: bool, score: i32) {
        let expected = if weak { case.expected.signum() } else { case.expected };
        if score != expected {
            self.wrong.push(format!("{} got {score} expected {expected}", case.moves));
        }
    }
}

/// Progress on stderr when it is a terminal: `label i/n`.
struct Progress {
    on: bool,
}

impl Progress {
    fn show(&self, label: &str, i: usize, n: usize) {
        if self.on {
            eprint!("\r\x1b[K{label} {i}/{n}");
        }
    }
    fn done(&self) {
        if self.on {
            eprint!("\r\x1b[K");
        }
    }
}

/// Evicts the processor's caches (32 MiB of L3 here) by writing a buffer twice that size, so that
/// a pass does not start with part of its freshly emptied table in the cache.
fn evict_caches() {
    static SCRATCH: std::sync::Mutex<Vec<u64>> = std::sync::Mutex::new(Vec::new());
    let mut buf = SCRATCH.lock().expect("one thread");
    buf.resize(64 << 17, 0);
    for w in buf.iter_mut() {
        *w = w.wrapping_add(1);
    }
    std::hint::black_box(&*buf);
}

fn run_boardbot(table: &BoundTable, shape: Shape, cases: &[Case], weak: bool, progress: &Progress, label: &str) -> Run {
    table.clear();
    evict_caches();
    let mut run = Run::default();
    for (i, case) in cases.iter().enumerate() {
        progress.show(label, i, cases.len());
        let p = Position::from_moves(shape, &case.cols).unwrap_or_else(|e| panic!("{}: {e}", case.moves));
        let mut solver = Solver::new(table);
        let start = Instant::now();
        let score = solver.solve(&p, weak).expect("no deadline, no stop");
        run.time += start.elapsed();
        run.nodes += solver.nodes;
        run.count += 1;
        run.check(case, weak, score);
    }
    progress.done();
    run
}

/// The run with the median time (of an even count, the faster of the middle two); every run's
/// wrong scores are kept.
fn median(mut runs: Vec<Run>) -> Run {
    runs.sort_by_key(|r| r.time);
    let wrong: Vec<String> = runs.iter().flat_map(|r| r.wrong.iter().cloned()).collect();
    let mut run = runs.swap_remove((runs.len() - 1) / 2);
    run.wrong = wrong;
    run
}

/// connect-four-ai solves strongly only (it has no weak solve).
fn run_cfa(solver: &mut cfa::Solver, cases: &[Case], progress: &Progress, label: &str) -> Run {
    solver.reset();
    evict_caches();
    let mut run = Run::default();
    for (i, case) in cases.iter().enumerate() {
        progress.show(label, i, cases.len());
        let p = cfa::Position::from_moves(&case.moves).unwrap_or_else(|e| panic!("{}: {e:?}", case.moves));
        let start = Instant::now();
        let score = solver.solve(&p);
        run.time += start.elapsed();
        run.nodes += solver.explored_positions as u64;
        run.count += 1;
        run.check(case, false, score as i32);
    }
    progress.done();
    run
}

/// A duration in seconds with 3 significant digits and a unit.
fn fmt_time(s: f64) -> String {
    let (v, unit) = if s >= 1.0 {
        (s, "s")
    } else if s >= 1e-3 {
        (s * 1e3, "ms")
    } else {
        (s * 1e6, "us")
    };
    let digits = if v >= 100.0 {
        0
    } else if v >= 10.0 {
        1
    } else {
        2
    };
    format!("{v:.digits$} {unit}")
}

fn fmt_nodes(n: f64) -> String {
    if n >= 1e6 {
        format!("{:.1}M", n / 1e6)
    } else if n >= 1e4 {
        format!("{:.0}k", n / 1e3)
    } else {
        format!("{n:.0}")
    }
}

fn fmt_ratio(a: f64, b: f64) -> String {
    if b > 0.0 {
        format!("{:.2}", a / b)
    } else {
        "-".into()
    }
}

fn main() {
    let cfg = config().unwrap_or_else(|e| {
        eprintln!("solver bench: {e}");
        std::process::exit(2)
    });
    let progress = Progress { on: std::io::stderr().is_terminal() };
    let table = BoundTable::new(cfg.hash_mb);
    let cfa_bytes = std::mem::size_of::<cfa::TTEntry>() * cfa::TranspositionTable::MAX_SIZE;
    let mut failed = false;

    if !cfg.sets.is_empty() {
        // Solver::empty(): connect-four-ai without its opening book (Solver::new() loads it).
        let mut cfa_solver = cfa::Solver::empty();
        assert!(cfa_solver.opening_book.is_none(), "connect-four-ai's opening book must be off");
        // Its table comes zeroed from the allocator, its pages mapped on first touch: write every
        // entry once (depth 0, which no search reads; reset() then ages them out), as boardbot's
        // BoundTable::clear does before each set, so that neither solver pays page faults inside the
        // timings.
        for key in 0..cfa::TranspositionTable::MAX_SIZE as u64 {
            cfa_solver.transposition_table.put(key, 0, cfa::TTFlag::UpperBound, 0);
        }
        let shape = Shape::new(6, 7, 4).expect("6x7x4");
        println!("Connect-4 solver benchmark: mean time and nodes per position, one thread.");
        println!(
            "boardbot: table {} MiB ({} B slots). connect-four-ai {}: opening book off (Solver::empty()), table {:.0} MiB ({} entries of {} B, fixed), strong solve only.",
            table.megabytes(),
            16,
            cfa_version(),
            cfa_bytes as f64 / (1u64 << 20) as f64,
            cfa::TranspositionTable::MAX_SIZE,
            std::mem::size_of::<cfa::TTEntry>()
        );
        println!(
            "Each solver keeps its table across the positions of a set and mode; both are emptied before each set and mode (and pre-touched: no page faults in the timings), then the caches are flushed."
        );
        if cfg.repeat > 1 {
            println!(
                "Each set and mode ran {} times per solver, alternating, each pass with emptied tables; shown: the pass with the median time.",
                cfg.repeat
            );
        }
        println!(
            "Pons: his C++ solver as in shared/README.md (no book, 64 MiB-class table; mean over the full 1000-line sets, Test_L1_R3 its first 50)."
        );
        println!("ratios: boardbot mean time / connect-four-ai's (bb/cfa) and / Pons' (bb/Pons).");
        println!();
        let header = format!(
            "{:<11} {:<6} {:>4} | {:>9} {:>10} | {:>9} {:>10} | {:>9} {:>10} | {:>6} {:>7}",
            "set",
            "mode",
            "n",
            "bb time",
            "bb nodes",
            "cfa time",
            "cfa nodes",
            "Pons time",
            "Pons nodes",
            "bb/cfa",
            "bb/Pons"
        );
        println!("{header}");
        println!("{}", "-".repeat(header.len()));
        for set in &cfg.sets {
            let limit = cfg.limit.unwrap_or(if set == "Test_L1_R3" { 50 } else { 500 });
            let cases = match load(&cfg.dir.join(set), limit) {
                Ok(c) => c,
                Err(e) => {
                    eprintln!("solver bench: {e}");
                    std::process::exit(2)
                }
            };
            let pons = PONS.iter().find(|r| r.0 == set);
            for &weak in &cfg.modes {
                let mode = if weak { "weak" } else { "strong" };
                let (mut bbs, mut cfas) = (Vec::new(), Vec::new());
                for pass in 1..=cfg.repeat {
                    let label = |who: &str| format!("{set} {mode} {who} pass {pass}/{}", cfg.repeat);
                    bbs.push(run_boardbot(&table, shape, &cases, weak, &progress, &label("boardbot")));
                    if !weak && cfg.cfa {
                        cfas.push(run_cfa(&mut cfa_solver, &cases, &progress, &label("cfa")));
                    }
                }
                let bb = median(bbs);
                let cfa_run = (!cfas.is_empty()).then(|| median(cfas));
                let (pons_time, pons_nodes) = match pons {
                    Some(&(_, st, sn, wt)) => (Some(if weak { wt } else { st }), (!weak).then_some(sn)),
                    None => (None, None),
                };
                println!(
                    "{:<11} {:<6} {:>4} | {:>9} {:>10} | {:>9} {:>10} | {:>9} {:>10} | {:>6} {:>7}",
                    set,
                    mode,
                    bb.count,
                    fmt_time(bb.mean_time()),
                    fmt_nodes(bb.mean_nodes()),
                    cfa_run.as_ref().map_or("n/a".into(), |r| fmt_time(r.mean_time())),
                    cfa_run.as_ref().map_or("n/a".into(), |r| fmt_nodes(r.mean_nodes())),
                    pons_time.map_or("-".into(), fmt_time),
                    pons_nodes.map_or("-".into(), fmt_nodes),
                    cfa_run.as_ref().map_or("-".into(), |r| fmt_ratio(bb.mean_time(), r.mean_time())),
                    pons_time.map_or("-".into(), |p| fmt_ratio(bb.mean_time(), p)),
                );
                for (who, run) in [("boardbot", Some(&bb)), ("connect-four-ai", cfa_run.as_ref())] {
                    for w in run.map_or(&[][..], |r| &r.wrong[..]) {
                        println!("  WRONG {who} {set} {mode}: {w}");
                        failed = true;
                    }
                }
            }
        }
    }

    if cfg.empty {
        let (rows, cols, x) = cfg.empty_shape;
        let shape = Shape::new(rows, cols, x).unwrap_or_else(|e| {
            eprintln!("solver bench: EMPTY_SHAPE: {e}");
            std::process::exit(2)
        });
        println!();
        println!(
            "Empty board {rows}x{cols}, {x} in a row, boardbot (table {} MiB, emptied before each solve):",
            table.megabytes()
        );
        for &weak in &cfg.modes {
            table.clear();
            let mode = if weak { "weak" } else { "strong" };
            eprintln!("solving the empty {rows}x{cols}x{x} board ({mode})...");
            let mut solver = Solver::new(&table);
            let start = Instant::now();
            let score = solver.solve(&Position::new(shape), weak).expect("no deadline, no stop");
            let time = start.elapsed().as_secs_f64();
            let pons = if weak && (rows, cols, x) == (6, 7, 4) {
                format!("   (Pons: {} , {} nodes)", fmt_time(PONS_EMPTY_WEAK.0), fmt_nodes(PONS_EMPTY_WEAK.1))
            } else {
                String::new()
            };
            println!(
                "  {mode:<6} score {score:>3}  time {:>9}  nodes {:>8}{pons}",
                fmt_time(time),
                fmt_nodes(solver.nodes as f64)
            );
        }
    }

    if failed {
        eprintln!("solver bench: wrong scores (see the WRONG lines)");
        std::process::exit(1);
    }
}

/// connect-four-ai's version, as locked in Cargo.lock.
fn cfa_version() -> &'static str {
    let lock = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.lock"));
    let mut lines = lock.lines().skip_while(|l| *l != "name = \"connect-four-ai\"");
    lines.nth(1).and_then(|l| l.strip_prefix("version = \"")).and_then(|v| v.strip_suffix('"')).unwrap_or("?")
}
