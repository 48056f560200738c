//! `boardbot solve` for Kalah: the exact solver over positions read a line at a time.

use super::description::read;
use super::solver::{self, cache, Database, Solver};
use crate::game::any::{GameSpec, SolveRequest};
use crate::game::solve::{checked, deadline, drive, Solved as SolvedLine};
use crate::game::{Game, Side};
use anyhow::{anyhow, Result};
use std::sync::Arc;
use std::time::Instant;

/// `boardbot solve --game kalah P S [capture empty|standard] [pie]`: one position a line, the
/// moves from the start as they are written in play (pit numbers 1..P from the mover's left,
/// `swap`; `.` for the start), optionally followed by the expected first player's final margin,
/// which is then checked. Prints that margin and the moves that keep it; with `analyze`, the
/// first player's final margin after each legal move.
pub(super) fn solve(spec: &GameSpec, request: &SolveRequest) -> Result<()> {
    let words: Vec<&str> = spec.words().iter().map(String::as_str).collect();
    let d = read(&words)?;
    let start = d.game()?;
    let (pits, capture) = (d.pits, d.capture);
    if request.method.is_some() || request.threads > 1 || request.weak {
        anyhow::bail!("the Kalah solver takes none of --dfpn, --pn, --threads, --weak");
    }
    // The table and the database sized by the seeds in the pits, each within --hash (see
    // `solver::table_bytes_for` and `solver::database_seeds_for`).
    let seeds = start.seeds_in_pits() as u32;
    let budget = request.hash_mib.max(1) << 20;
    let mut solver = Solver::with_table_bytes(solver::table_bytes_for(seeds).min(budget));
    let fit = Database::max_seeds_within(pits, budget).unwrap_or(0).min(seeds);
    let want = request.db_seeds.unwrap_or_else(|| solver::database_seeds_for(seeds)).min(fit);
    if want > 0 && Solver::supports(&start) {
        let most = if request.db_seeds.is_some() { want } else { fit };
        solver.set_database(Arc::new(cache::load_or_build(pits, capture, want, most)));
    }
    drive(request, |line| {
        let mut words: Vec<&str> = line.split_whitespace().collect();
        if words.is_empty() {
            return Ok(None);
        }
        let expected = words.last().and_then(|w| w.strip_prefix('=')).map(|w| w.parse::<i32>()).transpose()?;
        if expected.is_some() {
            words.pop();
        }
        let mut k = start.clone();
        for (i, w) in words.iter().filter(|&&w| w != ".").enumerate() {
            let mv = k.parse_move(w).map_err(|e| anyhow!("move {}: {e}", i + 1))?;
            if !k.is_legal(mv) {
                anyhow::bail!("move {} '{w}' is not legal there", i + 1);
            }
            k.play(mv);
        }
        if request.fresh {
            solver.clear();
        }
        let begin = Instant::now();
        let shown = words.join(" ");
        // A line without a value to check.
        let line = |text: String, nodes: u64| SolvedLine { text, nodes, time: begin.elapsed(), wrong: false };
        let to_first = |value: i32| k.store_difference() + if k.to_move() == Side::First { value } else { -value };
        if request.analyze {
            let Some(a) = solver.analyze(&k, deadline(request), None) else {
                return Ok(Some(line(format!("{shown} unknown"), 0)));
            };
            let values: Vec<String> =
                a.moves.iter().map(|&(mv, v)| format!("{}:{:+}", k.format_move(mv), to_first(v))).collect();
            return Ok(Some(line(format!("{shown} {}", values.join(" ")), a.nodes)));
        }
        let Some(solved) = solver.solve(&k, deadline(request), None) else {
            return Ok(Some(line(format!("{shown} unknown"), 0)));
        };
        let (text, wrong) = checked(to_first(solved.value), expected);
        let best: Vec<String> = solved.best.iter().map(|&mv| k.format_move(mv)).collect();
        Ok(Some(SolvedLine {
            text: format!("{shown} {text} best {}", if best.is_empty() { "-".into() } else { best.join(",") }),
            nodes: solved.nodes,
            time: begin.elapsed(),
            wrong,
        }))
    })
}
