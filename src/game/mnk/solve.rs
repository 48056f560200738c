//! `boardbot solve` for m,n,k-games: the bitboard solver (alpha-beta or df-pn) or df-pn over the
//! rules' board, over positions read a line at a time.

use super::solver as bits;
use super::Mnk;
use crate::game::any::{GameSpec, SolveRequest};
use crate::game::kinarow::parse_index;
use crate::game::solve::{checked, deadline, drive, Solved};
use crate::game::Game;
use crate::search::dfpn;
use anyhow::{anyhow, bail, Result};
use std::time::Instant;

use super::description::read;
/// `boardbot solve --game mnk M N K`: one position a line, the cells played from the empty
/// board as 0-based `ROW,COL` pairs (`1,1 0,0 2,2`), `.` for the empty board, optionally followed
/// by an expected value (1, 0 or -1), which is then checked. Values are weak: 1 the side to move
/// wins, 0 draw, -1 it loses; the line also says the first player's result in words. Methods:
/// the bitboard alpha-beta solver (default), `pn` (df-pn over the same rules), `dfpn` (df-pn
/// over the rules' board, any size).
pub(super) fn solve(spec: &GameSpec, request: &SolveRequest) -> Result<()> {
    let words: Vec<&str> = spec.words().iter().map(String::as_str).collect();
    let (m, n, k, blocked) = read(&words)?;
    if !blocked.is_empty() {
        bail!("the m,n,k solvers take no blocked cells");
    }
    if request.threads > 1 || request.analyze {
        bail!("m,n,k proofs take neither --threads nor --analyze");
    }
    let method = request.method.as_deref().unwrap_or("ab");
    if method == "dfpn" {
        return solve_dfpn(m, n, k, request);
    }
    if method != "ab" && method != "pn" {
        bail!("unknown method '{method}' (ab, pn, dfpn)");
    }
    let board = bits::Board::new(m, n, k)?;
    let table = bits::BoundTable::new(request.hash_mib);
    // Touch every page now, so that no position's time includes mapping the table's memory.
    table.clear();
    // With `pn`: the df-pn table, kept from position to position unless `fresh` (the
    // alpha-beta table is then left unused).
    let mut pn_table = None;
    drive(request, |line| {
        let (cells, expected) = parse_cells(line)?;
        let Some(cells) = cells else { return Ok(None) };
        let p = bits::Stones::from_cells(&board, &cells)?;
        if request.fresh && method == "ab" {
            table.clear();
        }
        let start = Instant::now();
        let (value, nodes) = if method == "pn" {
            let kept = if request.fresh { None } else { pn_table.take() };
            let pn = kept.unwrap_or_else(|| bits::pn::PnTable::of_mib(request.hash_mib));
            let mut solver = bits::pn::PnSolver::new(&board, &table, pn).with_limits(deadline(request), None);
            let value = solver.solve(&p);
            let nodes = solver.nodes();
            pn_table = Some(solver.into_table());
            (value, nodes)
        } else {
            let mut solver = bits::AlphaBeta::new(&board, &table).with_deadline(deadline(request));
            (solver.solve(&p), solver.nodes)
        };
        let time = start.elapsed();
        let (text, wrong) = result_text(&cells, value.ok(), expected);
        Ok(Some(Solved { text, nodes, time, wrong }))
    })
}

/// Values by df-pn over the rules' board (any size).
fn solve_dfpn(m: usize, n: usize, k: usize, request: &SolveRequest) -> Result<()> {
    let start = Mnk::new(m, n, k, &[])?;
    // About 48 bytes an entry, with the map's overhead.
    let entries = request.hash_mib.saturating_mul(1 << 20) / 48;
    let mut search = dfpn::Dfpn::new(entries, u64::MAX);
    drive(request, |line| {
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
        if request.fresh {
            search = dfpn::Dfpn::new(entries, u64::MAX);
        }
        search.restart(deadline(request));
        let begin = Instant::now();
        let value = g.prove_value(&mut search);
        let (time, nodes) = (begin.elapsed(), search.nodes);
        let (text, wrong) = result_text(&cells, value, expected);
        Ok(Some(Solved { text, nodes, time, wrong }))
    })
}

/// A line's text (the position, its value and the first player's result in words) and whether
/// the value disagrees with the expected one.
fn result_text(cells: &[(usize, usize)], value: Option<i32>, expected: Option<i32>) -> (String, bool) {
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

/// A line: its cells (None for a blank line) and its expected value.
type Line = (Option<Vec<(usize, usize)>>, Option<i32>);

/// Parses a line: `ROW,COL` cells or `.`, then optionally the expected value.
fn parse_cells(line: &str) -> Result<Line> {
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
                let num = |s: &str| parse_index(s).ok_or_else(|| anyhow!("'{word}' is not a cell ROW,COL"));
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
