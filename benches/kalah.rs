//! Kalah solver benchmark: see docs/results/kalah.md.

use boardbot::game::kalah::solver::Solver;
use boardbot::game::kalah::{Capture, Kalah};
use std::time::Instant;

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
    let mib: usize = std::env::var("TABLE_MIB").ok().map_or(256, |v| v.parse().unwrap());
    let capture = std::env::var("CAPTURE").ok().map_or(Capture::Empty, |c| Capture::parse(&c).unwrap());
    for (p, s) in boards {
        let k = Kalah::with_rules(p, s, capture, false).unwrap();
        let t = Instant::now();
        let mut solver = Solver::new(mib);
        solver.options.etc = std::env::var("ETC").map_or(true, |v| v != "0");
        solver.options.trace = std::env::var_os("TRACE").is_some();
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
