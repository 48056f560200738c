//! Kalah solver benchmark: see docs/results/kalah.md.

use boardbot::game::kalah::solver::{Database, Solver};
use boardbot::game::kalah::{Capture, Kalah};
use std::sync::Arc;
use std::time::Instant;

fn env<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name).ok().map_or(default, |v| v.parse().ok().unwrap_or_else(|| panic!("bad {name}")))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let boards: Vec<(usize, usize)> = if args.is_empty() {
        vec![(6, 3), (6, 4)]
    } else {
        args.iter()
            .map(|a| {
                let (p, s) = a.split_once(',').expect("P,S");
                (p.parse().unwrap(), s.parse().unwrap())
            })
            .collect()
    };
    let mib: usize = env("TABLE_MIB", 256);
    let db_seeds: u32 = env("DB_SEEDS", 0);
    let capture = Capture::parse(&env("CAPTURE", "empty".to_string())).unwrap();
    for (p, s) in boards {
        let k = Kalah::with_rules(p, s, capture, false).unwrap();
        let t = Instant::now();
        let mut solver = Solver::new(mib);
        // Touch the whole table now, so that the solve's time does not include the system's
        // first mapping of its pages (slow on the virtual machine of the figures).
        solver.clear();
        println!("table {mib} MiB allocated and touched: {:.3} s", t.elapsed().as_secs_f64());
        let t = Instant::now();
        solver.options.etc = env("ETC", 1) != 0;
        solver.options.trace = env("TRACE", 0) != 0;
        if db_seeds > 0 {
            let file = std::env::temp_dir().join(format!("kalah-bench-db-{p}-{}-{db_seeds}.bin", capture.name()));
            let db = Database::load(&file, p, capture).unwrap_or_else(|_| {
                let db = Database::build(p, capture, db_seeds);
                db.save(&file).unwrap();
                db
            });
            println!(
                "database {p} pits {} {db_seeds} seeds: {} bytes, {:.3} s",
                capture.name(),
                db.bytes(),
                t.elapsed().as_secs_f64()
            );
            solver.set_database(Arc::new(db));
        }
        let t = Instant::now();
        let solved = solver.solve(&k, None, None).unwrap();
        let secs = t.elapsed().as_secs_f64();
        println!(
            "kalah {p} {s} {}: first margin {:+}, best {:?}, nodes {}, {:.3} s",
            capture.name(),
            solved.first_margin,
            solved.best,
            solved.nodes,
            secs
        );
    }
}
