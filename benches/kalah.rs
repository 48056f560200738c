//! The Kalah solver's benchmark (one thread): solves boards from the start and prints, for each,
//! the first player's margin, the best first moves, the nodes and the times; optionally the
//! course's depth-limited alpha-beta on Bantumi. Exits with status 1 if a published value is
//! not reproduced. Commands and figures: docs/results/kalah.md; scripts/kalah-bench.sh.
//!
//! Arguments: boards as `P,S` (default `6,3 6,4`). Environment:
//! - `CAPTURE`: `empty` (default) or `standard`;
//! - `PIE=1`: the pie rule;
//! - `TABLE_MIB`: the transposition table's size in MiB (default 64);
//! - `DB_SEEDS`: the endgame database's seeds (default 0: none); `DB_DIR`: a folder where the
//!   database is cached as a file (mapped into memory if there, else built and saved;
//!   `DB_READ=1`: read into memory instead of mapped);
//! - `ETC=1`: enhanced transposition cutoffs (off by default); `TABLE_ABOVE_DB`: see
//!   `Options::table_above_db`; `PREFETCH`: `Options::prefetch`; `DB_CUTOFFS`: `Options::db_cutoffs` (0 or 1); `TRACE=1`: each MTD(f) test on stderr;
//! - `ALPHABETA=D`: first the plain alpha-beta of `knowledge` on Kalah(6,3) to D plies, with and
//!   without move ordering, and plain minimax.

use boardbot::game::kalah::knowledge::{alpha_beta, AlphaBetaOptions};
use boardbot::game::kalah::solver::{Database, Solver};
use boardbot::game::kalah::{Capture, Kalah};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

fn env<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name).ok().map_or(default, |v| v.parse().ok().unwrap_or_else(|| panic!("bad {name}: {v}")))
}

/// The published first-player margins: (pits, seeds, capture, margin).
const PUBLISHED: [(usize, usize, Capture, i32); 5] = [
    (6, 4, Capture::Empty, 10),
    (6, 4, Capture::Standard, 8),
    (6, 5, Capture::Empty, 12),
    (6, 5, Capture::Standard, 10),
    (6, 6, Capture::Empty, 2),
];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let boards: Vec<(usize, usize)> = if args.is_empty() {
        vec![(6, 3), (6, 4)]
    } else {
        args.iter()
            .map(|a| {
                let (p, s) = a.split_once(',').expect("boards as P,S");
                (p.parse().expect("P"), s.parse().expect("S"))
            })
            .collect()
    };
    let capture = Capture::parse(&env("CAPTURE", "empty".to_string())).unwrap();
    let pie = env("PIE", 0) != 0;
    let mib: usize = env("TABLE_MIB", 64);
    let db_seeds: u32 = env("DB_SEEDS", 0);
    let db_dir: Option<PathBuf> = std::env::var_os("DB_DIR").map(PathBuf::from);

    let depth: u32 = env("ALPHABETA", 0);
    if depth > 0 {
        let k = Kalah::new(6, 3).unwrap();
        for extra_turn_is_ply in [true, false] {
            for (name, prune, ordered) in [
                ("minimax", false, false),
                ("alpha-beta, pits in order", true, false),
                ("alpha-beta, ordered", true, true),
            ] {
                let t = Instant::now();
                let r = alpha_beta(&k, depth, AlphaBetaOptions { prune, ordered, extra_turn_is_ply });
                println!(
                    "kalah 6 3 {name} to {depth} {}: value {}, best {:?}, nodes {}, {:.3} s",
                    if extra_turn_is_ply { "plies (an extra turn is a ply)" } else { "turns" },
                    r.value,
                    r.best,
                    r.nodes,
                    t.elapsed().as_secs_f64()
                );
            }
        }
    }

    let mut failed = false;
    for (p, s) in boards {
        let k = Kalah::with_rules(p, s, capture, pie).unwrap();
        let t = Instant::now();
        let mut solver = Solver::new(mib);
        solver.options.etc = env("ETC", 0) != 0;
        solver.options.trace = env("TRACE", 0) != 0;
        solver.options.prefetch = env("PREFETCH", solver.options.prefetch);
        solver.options.db_cutoffs = env("DB_CUTOFFS", solver.options.db_cutoffs as u8) != 0;
        if let Ok(v) = std::env::var("TABLE_ABOVE_DB") {
            solver.options.table_above_db = Some(v.parse().expect("TABLE_ABOVE_DB"));
        }
        // Touch the whole table now, so that the solve's time does not include the system's
        // first mapping of its pages (slow on the virtual machine of the figures).
        solver.clear();
        println!("table {mib} MiB: allocated and touched in {:.3} s", t.elapsed().as_secs_f64());
        if db_seeds > 0 {
            let t = Instant::now();
            let file = db_dir.as_ref().map(|d| d.join(format!("kalah-db-{p}-{}-{db_seeds}.bin", capture.name())));
            let read = env("DB_READ", 0) != 0;
            let loaded = file
                .as_ref()
                .and_then(|f| if read { Database::read(f, p, capture) } else { Database::load(f, p, capture) }.ok());
            let how = match (&loaded, read) {
                (None, _) => "built",
                (Some(_), true) => "read into memory",
                (Some(_), false) => "mapped from its file",
            };
            let db = loaded.unwrap_or_else(|| {
                let db = Database::build(p, capture, db_seeds);
                if let Some(f) = &file {
                    db.save(f).expect("save the database");
                }
                db
            });
            println!(
                "database {p} pits {} {db_seeds} seeds: {} bytes, {how} in {:.3} s",
                capture.name(),
                db.bytes(),
                t.elapsed().as_secs_f64()
            );
            solver.set_database(Arc::new(db));
        }
        let t = Instant::now();
        let solved = solver.solve(&k, None, None).expect("solved");
        let secs = t.elapsed().as_secs_f64();
        let best: Vec<String> = solved.best.iter().map(|&m| boardbot::game::Game::format_move(&k, m)).collect();
        println!(
            "kalah {p} {s} {}{}: first player's margin {:+}, best first moves {}, nodes {}, solved in {:.3} s",
            capture.name(),
            if pie { " pie" } else { "" },
            solved.first_margin,
            best.join(" "),
            solved.nodes,
            secs
        );
        if let Some(&(.., want)) = PUBLISHED.iter().find(|&&(pp, ss, c, _)| (pp, ss, c) == (p, s, capture)) {
            if !pie && solved.first_margin != want {
                println!("MISMATCH: the published value is {want:+}");
                failed = true;
            }
        }
    }
    if failed {
        std::process::exit(1);
    }
}
