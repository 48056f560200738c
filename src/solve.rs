//! `boardbot solve`: exact values of positions, by the game's own solver (see each game's entry
//! in the registry for its positions' format); `boardbot book`: opening books.

use crate::game::registry::{GameSpec, SolveRequest};
use anyhow::{bail, Result};
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Clone, Debug)]
pub struct SolveArgs {
    /// The game, as `init` and `match` write it. `cx M N X` (Connect-X, (M + 1) x N <= 64):
    /// positions are 1-based column digits (`4453`, Pons' format), scores exact. `mnk M N K`
    /// (M x (N + 1) <= 64, or any size with --dfpn): positions are 0-based `ROW,COL` cells
    /// separated by spaces (`1,1 0,0`), values weak (1 win, 0 draw, -1 loss for the side to
    /// move) followed by the first player's result in words. `.` is the start; a position may be
    /// followed by its expected value, which is then checked.
    #[arg(long, num_args = 1.., value_name = "GAME", default_values = ["cx", "6", "7", "4"])]
    game: Vec<String>,
    /// Only win, draw or loss (1, 0, -1).
    #[arg(long)]
    weak: bool,
    /// The value of every move instead of the position's (Connect-X).
    #[arg(long)]
    analyze: bool,
    /// Transposition table size in MiB (Kalah: the most the table and the endgame database each
    /// take; both are sized by the board's seeds within it).
    #[arg(long, default_value_t = 256)]
    hash: usize,
    /// Solver threads sharing the table (Lazy SMP; Connect-X only, not with --analyze).
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
    /// Kalah: the endgame database's seeds (by default the seeds in the pits less 26 within
    /// --hash, or a larger one in the cache folder: BOARDBOT_CACHE, else ~/.cache/boardbot); a
    /// database built is cached there. Kalah(6,4)'s 25 seeds: a 1.85 GB file, about 19 min of
    /// CPU and 3.1 GB with --hash 3000 (docs/results/kalah.md).
    #[arg(long, value_name = "SEEDS")]
    db: Option<u32>,
    /// Positions file ('-' or nothing: standard input).
    file: Option<PathBuf>,
}

/// The game of `--game` (its words may come as one argument or several).
fn spec_of(words: &[String]) -> Result<GameSpec> {
    GameSpec::parse(&words.join(" "))
}

pub fn run(args: SolveArgs) -> Result<()> {
    let spec = spec_of(&args.game)?;
    let Some(solve) = spec.kind().solve else { bail!("{} has no exact solver", spec.name()) };
    let method = if args.dfpn {
        Some("dfpn".to_string())
    } else if args.pn {
        Some("pn".to_string())
    } else {
        None
    };
    let request = SolveRequest {
        file: args.file,
        weak: args.weak,
        analyze: args.analyze,
        hash_mib: args.hash,
        threads: args.threads,
        fresh: args.fresh,
        limit: args.limit,
        method,
        db_seeds: args.db,
    };
    solve(&spec, &request)
}

#[derive(Args, Clone, Debug)]
pub struct BookArgs {
    /// The game: Connect-X (`cx M N X`, (M + 1) x N <= 64: the first player's moves, by the exact
    /// solver), English checkers (`checkers english`: searches from the start and the ACF
    /// ballots, BOOK_SECONDS each) or free-style gomoku (`mnk 15 15 5`: both colours, searches of
    /// BOOK_SECONDS against the opponent's BOOK_WIDTH strongest moves).
    #[arg(long, num_args = 1.., value_name = "GAME", default_values = ["cx", "6", "7", "4"])]
    game: Vec<String>,
    /// How deep the book goes: Connect-X, the most stones of a book position (even: the book
    /// is the first player's); checkers, plies from each start; gomoku, the book's positions
    /// have fewer stones.
    #[arg(long, default_value_t = 10)]
    plies: u32,
    /// Threads (Connect-X: each solves its own positions; they share the table).
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 4096)]
    hash: usize,
    /// Where to write the book.
    #[arg(long)]
    out: PathBuf,
}

/// Generates an opening book with the game's book maker.
pub fn run_book(args: BookArgs) -> Result<()> {
    let spec = spec_of(&args.game)?;
    let Some(make) = spec.kind().book else { bail!("{} has no opening books", spec.name()) };
    make(&spec, args.plies, args.threads, args.hash, &args.out)
}

#[derive(Args, Clone, Debug)]
pub struct PerftArgs {
    /// The game and the depth: `--game checkers english 8` (the depth may also come after the
    /// other options).
    #[arg(long, num_args = 1.., value_name = "GAME")]
    game: Vec<String>,
    /// The position to count from, as the game's `fen` option takes it.
    #[arg(long)]
    fen: Option<String>,
    /// Every depth from 1 to DEPTH, one line each.
    #[arg(long)]
    all: bool,
    /// Moves deep.
    depth: Option<u32>,
}

/// `boardbot perft`: leaf positions DEPTH moves deep, the time and the rate, by the game's
/// `perft` in the registry.
pub fn run_perft(args: PerftArgs) -> Result<()> {
    let mut words = args.game.clone();
    let depth = match args.depth {
        Some(d) => d,
        None => match words.last().map(|w| w.parse::<u32>()) {
            Some(Ok(d)) => {
                words.pop();
                d
            }
            _ => bail!("perft needs a depth: boardbot perft --game GAME... DEPTH"),
        },
    };
    if let Some(fen) = &args.fen {
        words.extend(["fen".to_string(), fen.clone()]);
    }
    let spec = spec_of(&words)?;
    let Some(perft) = spec.kind().perft else { bail!("{} has no perft", spec.name()) };
    let first = if args.all { 1 } else { depth };
    for d in first..=depth {
        let begin = std::time::Instant::now();
        let n = perft(&spec, d)?;
        let secs = begin.elapsed().as_secs_f64();
        println!("perft {d} {n} time {secs:.3} s rate {:.1} M/s", n as f64 / secs.max(1e-9) / 1e6);
    }
    Ok(())
}
