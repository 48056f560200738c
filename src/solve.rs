//! `boardbot solve`: exact scores of Connect-X positions; `boardbot book`: opening books.
//!
//! Input: one position a line, the moves from the empty board as 1-based column digits (the
//! format of Pons' benchmark sets and of `shared/connect4/`), optionally followed by an expected
//! score, which is then checked; `.` is the empty board. Output: per line the position, its score, the nodes searched and
//! the time; at the end the means. `--weak` gives only the sign (1 win, 0 draw, -1 loss);
//! `--analyze` gives the score of every column instead.

use crate::game::connectx::book::Book;
use crate::game::connectx::solver::{solve_parallel, Position, Shape, Solver, Table};
use anyhow::{bail, Context, Result};
use clap::Args;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(Args, Clone, Debug)]
pub struct SolveArgs {
    /// The game: `cx M N X` (M rows, N columns, X in a row; (M + 1) x N <= 64).
    #[arg(long, num_args = 4, value_names = ["KIND", "M", "N", "X"], default_values = ["cx", "6", "7", "4"])]
    game: Vec<String>,
    /// Only win, draw or loss (1, 0, -1).
    #[arg(long)]
    weak: bool,
    /// The score of every column (`-` for a full one) instead of the position's.
    #[arg(long)]
    analyze: bool,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 256)]
    hash: usize,
    /// Solver threads sharing the table (Lazy SMP); not with --analyze.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Empties the table before each position (each is timed as if solved alone).
    #[arg(long)]
    fresh: bool,
    /// Positions file ('-' or nothing: standard input).
    file: Option<PathBuf>,
}

fn shape_of(words: &[String]) -> Result<Shape> {
    let num = |s: &String| s.parse::<usize>().with_context(|| format!("bad size '{s}'"));
    match words {
        [kind, m, n, x] if kind == "cx" => Shape::new(num(m)?, num(n)?, num(x)?).map_err(anyhow::Error::msg),
        _ => bail!("--game takes cx M N X (m,n,k proofs are not available yet)"),
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

pub fn run(args: SolveArgs) -> Result<()> {
    let shape = shape_of(&args.game)?;
    if args.threads == 0 || (args.threads > 1 && args.analyze) {
        bail!("--threads must be at least 1, and 1 with --analyze");
    }
    if shape.cols() > 35 {
        bail!("positions name columns by one digit or letter: at most 35 columns");
    }
    let input: Box<dyn BufRead> = match &args.file {
        Some(p) if p.as_os_str() != "-" => Box::new(std::io::BufReader::new(
            std::fs::File::open(p).with_context(|| format!("opening {}", p.display()))?,
        )),
        _ => Box::new(std::io::stdin().lock()),
    };
    let table = Table::new(args.hash);
    // Touch every page now, so that no position's time includes mapping the table's memory.
    table.clear();
    let mut out = std::io::stdout().lock();
    let (mut count, mut total_nodes, mut total_time, mut wrong) = (0u64, 0u64, Duration::ZERO, 0u64);
    for (n, line) in input.lines().enumerate() {
        let line = line?;
        let mut words = line.split_whitespace();
        let Some(moves) = words.next() else { continue };
        // `.` stands for the empty board (no moves).
        let played = if moves == "." { "" } else { moves };
        let expected = words.next().map(str::parse::<i32>).transpose().ok().flatten();
        let cols = parse_moves(played, shape.cols()).map_err(|e| anyhow::anyhow!("line {}: {e}", n + 1))?;
        let p = Position::from_moves(shape, &cols).map_err(|e| anyhow::anyhow!("line {}: {e}", n + 1))?;
        if args.fresh {
            table.clear();
        }
        let mut solver = Solver::new(&table);
        let start = Instant::now();
        let result = if args.analyze {
            let scores = solver.analyze(&p, args.weak).expect("no deadline");
            scores.iter().map(|s| s.map_or("-".to_string(), |v| v.to_string())).collect::<Vec<_>>().join(" ")
        } else {
            let score = if args.threads > 1 {
                let (score, nodes) = solve_parallel(&table, &p, args.weak, args.threads, None);
                solver.nodes = nodes;
                score.expect("no deadline")
            } else {
                solver.solve(&p, args.weak).expect("no deadline")
            };
            let expected = expected.map(|e| if args.weak { e.signum() } else { e });
            match expected {
                Some(e) if e != score => {
                    wrong += 1;
                    format!("{score} WRONG (expected {e})")
                }
                _ => score.to_string(),
            }
        };
        let elapsed = start.elapsed();
        writeln!(out, "{moves} {result} nodes {} time {:.1} us", solver.nodes, elapsed.as_secs_f64() * 1e6)?;
        count += 1;
        total_nodes += solver.nodes;
        total_time += elapsed;
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
