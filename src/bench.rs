//! `boardbot bench`: search speed on fixed positions of several sizes. For each position it
//! searches with a fixed time cap and prints the time and nodes at which every depth completed,
//! and the overall nodes per second. Positions are given as protocol move lists.
//!
//! Searched to a fixed depth with one thread (`boardbot bench --depth 7`), the node counts do
//! not depend on the machine: their total, the last line ([`signature_line`]), is the search's
//! signature, as Stockfish's bench prints one. tests/bench_signature.rs compares it with the one
//! committed in tests/data/bench-signature.txt; a change that alters the search's nodes updates
//! that file in the same commit (with its match), and a refactor leaves it as it is.

use crate::bot::NetSetting;
use crate::game::players::{Player, Request};
use crate::game::registry::{GameSpec, Resources};
use crate::search::{Limits, Searcher};
use anyhow::{anyhow, Result};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::time::{Duration, Instant};

/// (name, game, moves from the start)
pub const POSITIONS: &[(&str, &str, &str)] = &[
    ("mnk 3x3x3 empty", "mnk 3 3 3", ""),
    ("mnk 4x4x4 empty", "mnk 4 4 4", ""),
    ("mnk 7x7x5 opening", "mnk 7 7 5", "3,3 2,3 2,2 4,4 3,2"),
    ("mnk 15x15x5 middle", "mnk 15 15 5", "7,7 7,8 8,8 6,6 8,7 8,6 9,7 6,7 6,8 10,6"),
    ("mnk 50x50x10 middle", "mnk 50 50 10", "25,25 24,24 25,26 26,27 25,27 20,20 25,28 21,21 24,26 23,25"),
    ("mnk 70x70x10 opening", "mnk 70 70 10", "35,35 34,34 35,36 36,37"),
    ("cx 6x7x4 empty", "cx 6 7 4", ""),
    ("cx 6x7x4 middle", "cx 6 7 4", "3 3 2 4 4 2 3 3 5 1"),
    ("cx 7x7x5 opening", "cx 7 7 5", "3 3 2 4"),
    ("cx 25x25x10 opening", "cx 25 25 10", "12 12 11 13 12 10"),
    ("cx 100x100x30 opening", "cx 100 100 30", "50 49 50 50 51 50 52 48"),
    ("checkers english start", "checkers english", ""),
    ("checkers english middle", "checkers english", "11-15 23-19 8-11 22-17 9-13 17-14 10x17 21x14 15-18 24-20"),
];

/// One benchmark line: depth reached, nodes, time, nodes per second, and time to each depth.
pub struct BenchLine {
    pub name: String,
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub proved: bool,
    pub per_depth: Vec<(u32, Duration, u64)>,
}

/// Searches the position after `moves` (protocol move text) on `spec` within `limits`, with a
/// fresh table and without the games' exact solvers (search alone is measured).
fn run_one(
    spec: &GameSpec,
    moves: &str,
    name: &str,
    limits: &Limits,
    hash_mb: usize,
    threads: usize,
    net: &NetSetting,
) -> Result<BenchLine> {
    let mut game = spec.new_game(&Resources::none())?;
    net.apply(game.as_mut())?;
    let words: Vec<&str> = moves.split_whitespace().collect();
    let moves = game.split_moves(&words)?;
    game.set_moves(&moves).map_err(|e| anyhow!("{name}: {e}"))?;
    let mut searcher = Searcher::new(hash_mb);
    let request = Request {
        player: Player::Search,
        level: crate::game::players::MAX_LEVEL,
        max_depth: limits.max_depth,
        threads,
        limits: Limits { start: Instant::now(), ..limits.clone() },
        algorithm: crate::game::players::Algorithm::Full,
        evaluation: None,
    };
    let turn = game.think(&mut searcher, &mut SmallRng::seed_from_u64(0), &request);
    let info = turn.thought.ok_or_else(|| anyhow!("no search"))?;
    Ok(BenchLine {
        name: name.to_string(),
        depth: info.depth,
        nodes: info.nodes,
        elapsed: info.elapsed,
        proved: info.proved,
        per_depth: info.iterations.iter().map(|i| (i.depth, i.elapsed, i.nodes)).collect(),
    })
}

/// Runs every position with `limits` (a time cap, or a fixed depth) and `threads` search threads.
pub fn run(limits: &Limits, hash_mb: usize, threads: usize, report: impl FnMut(&BenchLine)) -> Result<Vec<BenchLine>> {
    run_matching(limits, hash_mb, threads, "", &NetSetting::Default, report)
}

/// As [`run`], for the positions whose name contains `only` (every one if it is empty), the
/// games' networks set by `net`.
pub fn run_matching(
    limits: &Limits,
    hash_mb: usize,
    threads: usize,
    only: &str,
    net: &NetSetting,
    mut report: impl FnMut(&BenchLine),
) -> Result<Vec<BenchLine>> {
    let mut lines = Vec::new();
    for &(name, game, moves) in POSITIONS.iter().filter(|(name, _, _)| name.contains(only)) {
        let line = run_one(&GameSpec::parse(game)?, moves, name, limits, hash_mb, threads, net)?;
        report(&line);
        lines.push(line);
    }
    Ok(lines)
}

/// The total of the lines' nodes: at a fixed depth with one thread, the search's signature.
pub fn signature(lines: &[BenchLine]) -> u64 {
    lines.iter().map(|l| l.nodes).sum()
}

/// The last line of `boardbot bench`: `nodes searched N`, the total of every position's nodes
/// (see [`signature`]).
pub fn signature_line(lines: &[BenchLine]) -> String {
    format!("nodes searched {}", signature(lines))
}

/// The table row of a benchmark line.
pub fn format_line(l: &BenchLine) -> String {
    let nps = l.nodes as f64 / l.elapsed.as_secs_f64().max(1e-9);
    let depths: Vec<String> =
        l.per_depth.iter().map(|(d, t, _)| format!("d{d}:{:.1}ms", t.as_secs_f64() * 1000.0)).collect();
    format!(
        "{:<24} depth {:>3}{} nodes {:>10} time {:>7.3}s nps {:>9.0}  {}",
        l.name,
        l.depth,
        if l.proved { " (proved)" } else { "" },
        l.nodes,
        l.elapsed.as_secs_f64(),
        nps,
        depths.join(" ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bench_position_is_legal_and_searchable() {
        let lines = run(&Limits::depth(2), 1, 1, |_| {}).unwrap();
        assert_eq!(lines.len(), POSITIONS.len());
        assert!(
            lines.iter().all(|l| l.depth >= 1 && l.nodes > 0),
            "{:?}",
            lines.iter().map(|l| l.depth).collect::<Vec<_>>()
        );
    }
}
