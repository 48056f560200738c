//! `boardbot solve`: exact values of Connect-X and m,n,k positions; `boardbot book`: opening
//! books.
//!
//! Connect-X (`--game cx M N X`): one position a line, the moves from the empty board as 1-based
//! column digits (the format of Pons' benchmark sets and of `shared/connect4/`), optionally
//! followed by an expected score, which is then checked; `.` is the empty board. `--weak` gives
//! only the sign (1 win, 0 draw, -1 loss); `--analyze` gives the score of every column instead.
//!
//! m,n,k (`--game mnk M N K`): one position a line, the cells played from the empty board as
//! 0-based `ROW,COL` pairs separated by spaces (`1,1 0,0 2,2`), `.` for the empty board,
//! optionally followed by an expected value (1, 0 or -1), which is then checked. The value is
//! always weak: 1 the side to move wins, 0 draw, -1 it loses; the line also says the first
//! player's result in words.
//!
//! Output: per line the position, its value, the nodes searched and the time; at the end the
//! means.

use crate::game::connectx::book::Book;
use crate::game::connectx::solver::{solve_parallel, Geometry, Position, Shape, Solver, Table};
use crate::game::mnk::solver as mnk;
use crate::game::mnk::Mnk;
use crate::game::Game as _;
use crate::search::dfpn;
use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(Args, Clone, Debug)]
pub struct SolveArgs {
    /// The game: `cx M N X` (Connect-X: M rows, N columns, X in a row; (M + 1) x N <= 64) or
    /// `mnk M N K` (m,n,k: M rows, N columns, K or more in a row; M x (N + 1) <= 64). Connect-X
    /// positions are 1-based column digits (`4453`); m,n,k positions are 0-based `ROW,COL` cells
    /// separated by spaces (`1,1 0,0`); `.` is the empty board. A position may be followed by its
    /// expected value, which is then checked. m,n,k values are weak (1 win, 0 draw, -1 loss for
    /// the side to move), followed by the first player's result in words.
    #[arg(long, num_args = 4, value_names = ["KIND", "M", "N", "X"], default_values = ["cx", "6", "7", "4"])]
    game: Vec<String>,
    /// Only win, draw or loss (1, 0, -1); m,n,k values always are.
    #[arg(long)]
    weak: bool,
    /// The score of every column (`-` for a full one) instead of the position's (Connect-X only).
    #[arg(long)]
    analyze: bool,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 256)]
    hash: usize,
    /// Solver threads sharing the table (Lazy SMP); Connect-X only, not with --analyze.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Empties the table before each position (each is timed as if solved alone).
    #[arg(long)]
    fresh: bool,
    /// Gives up on a position after this many seconds and prints `unknown` as its value.
    #[arg(long, value_name = "SECONDS")]
    limit: Option<f64>,
    /// m,n,k: prove with df-pn (proof numbers over the rules' board: any board size) instead of
    /// the bitboard alpha-beta solver.
    #[arg(long)]
    dfpn: bool,
    /// m,n,k: search the bitboard solver's rules by df-pn (proof numbers; its table of --hash
    /// MiB) instead of alpha-beta.
    #[arg(long, conflicts_with = "dfpn")]
    pn: bool,
    /// Positions file ('-' or nothing: standard input).
    file: Option<PathBuf>,
}

/// The board of `--game`.
enum Game {
    Cx(Shape),
    /// Boxed: a board's symmetry tables are a few KiB.
    Mnk(Box<mnk::Board>),
}

fn game_of(words: &[String]) -> Result<Game> {
    let num = |s: &String| s.parse::<usize>().with_context(|| format!("bad size '{s}'"));
    match words {
        [kind, m, n, x] if kind == "cx" => {
            Ok(Game::Cx(Shape::new(num(m)?, num(n)?, num(x)?).map_err(anyhow::Error::msg)?))
        }
        [kind, m, n, k] if kind == "mnk" => {
            Ok(Game::Mnk(Box::new(mnk::Board::new(num(m)?, num(n)?, num(k)?).map_err(anyhow::Error::msg)?)))
        }
        _ => bail!("--game takes cx M N X or mnk M N K"),
    }
}

fn shape_of(words: &[String]) -> Result<Shape> {
    match game_of(words)? {
        Game::Cx(shape) => Ok(shape),
        Game::Mnk(_) => bail!("opening books are for Connect-X only (--game cx M N X)"),
    }
}

/// Parses `4453` into 0-based columns.
fn parse_moves(text: &str, cols: usize) -> Result<Vec<usize>, String> {
    text.chars()
        .map(|c| match c.to_digit(36) {
            Some(d) if (1..=cols as u32).contains(&d) => Ok(d as usize - 1),
            _ => Err(format!("'{c}' is not a column (1..{cols})")),
        })
        .collect()
}

/// One position's line of output: its text up to the nodes, the nodes, the solve's time, and
/// whether it disagreed with its expected value.
struct Solved {
    text: String,
    nodes: u64,
    time: Duration,
    wrong: bool,
}

/// The value's text, checked against `expected`.
fn checked(value: i32, expected: Option<i32>) -> (String, bool) {
    match expected {
        Some(e) if e != value => (format!("{value} WRONG (expected {e})"), true),
        _ => (value.to_string(), false),
    }
}

pub fn run(args: SolveArgs) -> Result<()> {
    if args.dfpn {
        return run_dfpn(&args);
    }
    let game = game_of(&args.game)?;
    if args.threads == 0 || (args.threads > 1 && args.analyze) {
        bail!("--threads must be at least 1, and 1 with --analyze");
    }
    let table = Table::new(args.hash);
    // Touch every page now, so that no position's time includes mapping the table's memory.
    table.clear();
    let deadline = || args.limit.map(|s| Instant::now() + Duration::from_secs_f64(s));
    match game {
        Game::Cx(shape) => {
            if shape.cols() > 35 {
                bail!("positions name columns by one digit or letter: at most 35 columns");
            }
            drive(&args, |line| {
                let mut words = line.split_whitespace();
                let Some(moves) = words.next() else { return Ok(None) };
                // `.` stands for the empty board (no moves).
                let played = if moves == "." { "" } else { moves };
                let expected = words.next().map(str::parse::<i32>).transpose().ok().flatten();
                let p = Position::from_moves(shape, &parse_moves(played, shape.cols()).map_err(|e| anyhow!(e))?)
                    .map_err(|e| anyhow!(e))?;
                if args.fresh {
                    table.clear();
                }
                let mut solver = Solver::new(&table).with_deadline(deadline());
                let start = Instant::now();
                let (result, wrong) = if args.analyze {
                    let scores = solver.analyze(&p, args.weak);
                    let text = scores.map(|s| {
                        s.iter().map(|s| s.map_or("-".to_string(), |v| v.to_string())).collect::<Vec<_>>().join(" ")
                    });
                    (text.unwrap_or_else(|_| "unknown".into()), false)
                } else {
                    let score = if args.threads > 1 {
                        let (score, nodes) = solve_parallel(&table, &p, args.weak, args.threads, deadline());
                        solver.nodes = nodes;
                        score
                    } else {
                        solver.solve(&p, args.weak)
                    };
                    let expected = expected.map(|e| if args.weak { e.signum() } else { e });
                    score.map_or(("unknown".into(), false), |s| checked(s, expected))
                };
                let time = start.elapsed();
                Ok(Some(Solved { text: format!("{moves} {result}"), nodes: solver.nodes, time, wrong }))
            })
        }
        Game::Mnk(board) => {
            if args.threads > 1 || args.analyze {
                bail!("m,n,k proofs take neither --threads nor --analyze");
            }
            // With --pn: the df-pn table, kept from position to position unless --fresh (the
            // alpha-beta table is then left unused).
            let mut pn_table = None;
            drive(&args, |line| {
                let (cells, expected) = parse_cells(line)?;
                let Some(cells) = cells else { return Ok(None) };
                let p = mnk::Position::from_cells(&board, &cells).map_err(|e| anyhow!(e))?;
                if args.fresh && !args.pn {
                    table.clear();
                }
                let start = Instant::now();
                let (value, nodes) = if args.pn {
                    let kept = if args.fresh { None } else { pn_table.take() };
                    let pn = kept.unwrap_or_else(|| mnk::pn::PnTable::of_mib(args.hash));
                    let mut solver = mnk::pn::PnSolver::new(&board, &table, pn).with_limits(deadline(), None);
                    let value = solver.solve(&p);
                    let nodes = solver.nodes();
                    pn_table = Some(solver.into_table());
                    (value, nodes)
                } else {
                    let mut solver = mnk::Solver::new(&board, &table).with_deadline(deadline());
                    (solver.solve(&p), solver.nodes)
                };
                let time = start.elapsed();
                let (text, wrong) = mnk_result(&cells, value.ok(), expected);
                Ok(Some(Solved { text, nodes, time, wrong }))
            })
        }
    }
}

/// `boardbot solve --game mnk M N K --dfpn`: values by df-pn over the rules' board.
fn run_dfpn(args: &SolveArgs) -> Result<()> {
    let num = |s: &String| s.parse::<usize>().with_context(|| format!("bad size '{s}'"));
    let start = match &args.game[..] {
        [kind, m, n, k] if kind == "mnk" => Mnk::new(num(m)?, num(n)?, num(k)?, &[]).map_err(anyhow::Error::msg)?,
        _ => bail!("--dfpn is for m,n,k games (--game mnk M N K)"),
    };
    if args.threads > 1 || args.analyze {
        bail!("m,n,k proofs take neither --threads nor --analyze");
    }
    let deadline = || args.limit.map(|s| Instant::now() + Duration::from_secs_f64(s));
    let (m, n) = (start.lines().rows(), start.lines().cols());
    // About 48 bytes an entry, with the map's overhead.
    let entries = args.hash.saturating_mul(1 << 20) / 48;
    let mut search = dfpn::Dfpn::new(entries, u64::MAX);
    drive(args, |line| {
        let (cells, expected) = parse_cells(line)?;
        let Some(cells) = cells else { return Ok(None) };
        let mut g = start.clone();
        for (i, &(r, c)) in cells.iter().enumerate() {
            if r >= m || c >= n {
                bail!("move {}: cell {r},{c} is off the {m}x{n} board", i + 1);
            }
            let mv = (r * n + c) as u32;
            if !g.is_legal(mv) {
                bail!("move {}: cell {r},{c} is taken, or the game is over", i + 1);
            }
            g.play(mv);
        }
        if args.fresh {
            search = dfpn::Dfpn::new(entries, u64::MAX);
        }
        search.restart(deadline());
        let begin = Instant::now();
        let value = g.prove_value(&mut search);
        let (time, nodes) = (begin.elapsed(), search.nodes);
        let (text, wrong) = mnk_result(&cells, value, expected);
        Ok(Some(Solved { text, nodes, time, wrong }))
    })
}

/// An m,n,k line's text (the position, its value and the first player's result in words) and
/// whether the value disagrees with the expected one.
fn mnk_result(cells: &[(usize, usize)], value: Option<i32>, expected: Option<i32>) -> (String, bool) {
    let shown = if cells.is_empty() {
        ".".to_string()
    } else {
        cells.iter().map(|(r, c)| format!("{r},{c}")).collect::<Vec<_>>().join(" ")
    };
    let (result, wrong) = match value {
        Some(v) => {
            // The first player's result: the side to move is the first after an even number
            // of stones.
            let first = if cells.len().is_multiple_of(2) { v } else { -v };
            let words = ["second player wins", "draw", "first player wins"][(first + 1) as usize];
            let (text, wrong) = checked(v, expected);
            (format!("{text} {words}"), wrong)
        }
        None => ("unknown".to_string(), false),
    };
    (format!("{shown} {result}"), wrong)
}

/// An m,n,k line: its cells (None for a blank line) and its expected value.
type MnkLine = (Option<Vec<(usize, usize)>>, Option<i32>);

/// Parses an m,n,k line: `ROW,COL` cells or `.`, then optionally the expected value.
fn parse_cells(line: &str) -> Result<MnkLine> {
    let mut cells = Vec::new();
    let mut expected = None;
    let mut any = false;
    for word in line.split_whitespace() {
        if expected.is_some() {
            bail!("'{word}' after the expected value");
        }
        let any_position = any;
        any = true;
        if word == "." {
            continue;
        }
        match word.split_once(',') {
            Some((r, c)) => {
                let num =
                    |s: &str| crate::game::mnk::parse_index(s).ok_or_else(|| anyhow!("'{word}' is not a cell ROW,COL"));
                cells.push((num(r)?, num(c)?));
            }
            None => {
                // A value follows a position (`.` at least).
                let v = word.parse::<i32>().ok().filter(|v| (-1..=1).contains(v) && any_position);
                expected = Some(v.ok_or_else(|| anyhow!("'{word}' is neither a cell ROW,COL nor a value (1, 0, -1)"))?);
            }
        }
    }
    Ok((any.then_some(cells), expected))
}

/// Reads the positions of `args.file` (or stdin) a line at a time, prints each one's result from
/// `solve_line` (None: a blank line, skipped) and at the end the means; fails if any disagreed
/// with its expected value.
fn drive(args: &SolveArgs, mut solve_line: impl FnMut(&str) -> Result<Option<Solved>>) -> Result<()> {
    let input: Box<dyn BufRead> = match &args.file {
        Some(p) if p.as_os_str() != "-" => Box::new(std::io::BufReader::new(
            std::fs::File::open(p).with_context(|| format!("opening {}", p.display()))?,
        )),
        _ => Box::new(std::io::stdin().lock()),
    };
    let mut out = std::io::stdout().lock();
    let (mut count, mut total_nodes, mut total_time, mut wrong) = (0u64, 0u64, Duration::ZERO, 0u64);
    for (n, line) in input.lines().enumerate() {
        let line = line?;
        let Some(solved) = solve_line(&line).map_err(|e| anyhow!("line {}: {e}", n + 1))? else { continue };
        writeln!(out, "{} nodes {} time {:.1} us", solved.text, solved.nodes, solved.time.as_secs_f64() * 1e6)?;
        out.flush()?;
        count += 1;
        total_nodes += solved.nodes;
        total_time += solved.time;
        wrong += solved.wrong as u64;
    }
    if count > 0 {
        writeln!(
            out,
            "positions {count} mean time {:.1} us mean nodes {:.0} wrong {wrong}",
            total_time.as_secs_f64() * 1e6 / count as f64,
            total_nodes as f64 / count as f64
        )?;
    }
    if wrong > 0 {
        bail!("{wrong} position(s) disagree with their expected score");
    }
    Ok(())
}

#[derive(Args, Clone, Debug)]
pub struct BookArgs {
    /// The game: `cx M N X` (M rows, N columns, X in a row; (M + 1) x N <= 64).
    #[arg(long, num_args = 4, value_names = ["KIND", "M", "N", "X"], default_values = ["cx", "6", "7", "4"])]
    game: Vec<String>,
    /// The most stones of a book position (even: the book is the first player's).
    #[arg(long, default_value_t = 10)]
    plies: u32,
    /// Solver threads (each solves its own positions; they share the table).
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 4096)]
    hash: usize,
    /// Where to write the book.
    #[arg(long)]
    out: PathBuf,
}

/// Generates an opening book (see [`Book`]) and reports each level's positions, nodes and time.
pub fn run_book(args: BookArgs) -> Result<()> {
    let shape = shape_of(&args.game)?;
    if args.threads == 0 {
        bail!("--threads must be at least 1");
    }
    let table = Table::new(args.hash);
    table.clear();
    let start = Instant::now();
    let book = Book::generate(shape, args.plies, &table, args.threads, |l| {
        println!(
            "stones {:2} positions {:6} nodes {:12} max nodes {:10} time {:9.1} s",
            l.stones,
            l.positions,
            l.nodes,
            l.max_nodes,
            l.time.as_secs_f64()
        );
    });
    let bytes = book.to_bytes();
    std::fs::write(&args.out, &bytes).with_context(|| format!("writing {}", args.out.display()))?;
    println!(
        "book {} positions {} bytes {} plies {} time {:.1} s",
        args.out.display(),
        book.len(),
        bytes.len(),
        book.plies(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
