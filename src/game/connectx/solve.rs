//! `boardbot solve` for Connect-X: the bitboard solver over positions read a line at a time.

use super::solver::{solve_parallel, BoundTable, Geometry, Position, Shape, Solver};
use crate::game::any::{GameSpec, SolveRequest};
use crate::game::solve::{checked, deadline, drive, Solved};
use anyhow::{anyhow, bail, Result};
use std::time::Instant;

use super::description::read;
/// `boardbot solve --game cx M N X`: one position a line, the moves from the empty board as
/// 1-based column digits (the format of Pons' benchmark sets), optionally followed by an
/// expected score, which is then checked; `.` is the empty board. `weak` gives only the sign (1
/// win, 0 draw, -1 loss); `analyze` gives the score of every column instead.
pub(super) fn solve(spec: &GameSpec, request: &SolveRequest) -> Result<()> {
    let shape = shape_of(spec)?;
    if shape.cols() > 35 {
        bail!("positions name columns by one digit or letter: at most 35 columns");
    }
    if let Some(method) = &request.method {
        bail!("--{method} is for m,n,k games (Connect-X has one solver)");
    }
    if request.threads == 0 || (request.threads > 1 && request.analyze) {
        bail!("--threads must be at least 1, and 1 with --analyze");
    }
    // Every page mapped now, so that no position's time includes mapping the table's memory (a
    // table mapped as used made the mean time on Test_L3_R1 20 times longer; mapping it is half
    // as costly as writing it: docs/results/connect4-solver.md).
    let table = crate::memory::mapped_at_once(|| BoundTable::new(request.hash_mib));
    drive(request, |line| {
        let mut words = line.split_whitespace();
        let Some(moves) = words.next() else { return Ok(None) };
        // `.` stands for the empty board (no moves).
        let played = if moves == "." { "" } else { moves };
        let expected = words.next().map(str::parse::<i32>).transpose().ok().flatten();
        let p = Position::from_moves(shape, &parse_moves(played, shape.cols())?)?;
        if request.fresh {
            table.clear();
        }
        let mut solver = Solver::new(&table).with_deadline(deadline(request));
        let start = Instant::now();
        let (result, wrong) = if request.analyze {
            let scores = solver.analyze(&p, request.weak);
            let text = scores
                .map(|s| s.iter().map(|s| s.map_or("-".to_string(), |v| v.to_string())).collect::<Vec<_>>().join(" "));
            (text.unwrap_or_else(|_| "unknown".into()), false)
        } else {
            let score = if request.threads > 1 {
                let (score, nodes) = solve_parallel(&table, &p, request.weak, request.threads, deadline(request));
                solver.nodes = nodes;
                score
            } else {
                solver.solve(&p, request.weak)
            };
            let expected = expected.map(|e| if request.weak { e.signum() } else { e });
            score.map_or(("unknown".into(), false), |s| checked(s, expected))
        };
        let time = start.elapsed();
        Ok(Some(Solved { text: format!("{moves} {result}"), nodes: solver.nodes, time, wrong }))
    })
}

/// The solver's shape of a `cx M N X` spec.
pub(super) fn shape_of(spec: &GameSpec) -> Result<Shape> {
    let words: Vec<&str> = spec.words().iter().map(String::as_str).collect();
    let (rows, cols, x) = read(&words)?;
    Shape::new(rows, cols, x)
}

/// Parses `4453` into 0-based columns.
fn parse_moves(text: &str, cols: usize) -> Result<Vec<usize>> {
    text.chars()
        .map(|c| match c.to_digit(36) {
            Some(d) if (1..=cols as u32).contains(&d) => Ok(d as usize - 1),
            _ => Err(anyhow!("'{c}' is not a column (1..{cols})")),
        })
        .collect()
}
