//! m,n,k-games in the registry: the description `mnk M N K [blocked ROW,COL ...]`, the game
//! built with its knowledge, its pictures, and `boardbot solve --game mnk M N K`.

use super::solver as bits;
use super::{Mnk, MnkKnowledge};
use crate::game::any::{AnyGame, GameSpec, GameType, Resources, SolveRequest};
use crate::game::kinarow;
use crate::game::kinarow::parse_index;
use crate::game::playing::Playing;
use crate::game::render::{Render, View};
use crate::game::solving::{checked, deadline, drive, Solved};
use crate::game::{proof, Game, Side};
use crate::search::dfpn;
use crate::search::Score;
use anyhow::{anyhow, bail, Result};
use std::time::Instant;

pub static GAME_TYPE: GameType = GameType {
    name: "mnk",
    size_words: 3,
    usage: "mnk M N K [blocked ROW,COL ...]",
    about: "m,n,k-games: K or more in a row on M rows and N columns (tic-tac-toe: mnk 3 3 3, gomoku: mnk 15 15 5)",
    title: "m,n,k-games",
    names: &[("tic-tac-toe", "mnk 3 3 3"), ("gomoku", "mnk 15 15 5")],
    examples: &["mnk 3 3 3", "mnk 15 15 5"],
    blocked: true,
    // The courses' m,n,k tournament: a win as second player is worth more.
    points: [2, 3, 1],
    build,
    solve: Some(solve),
    prepare: Some(prepare),
    ..GameType::DEFAULTS
};

/// An m,n,k board: rows, columns, K, and the blocked cells (row, column).
pub type Board = (usize, usize, usize, Vec<(usize, usize)>);

/// Reads `M N K [blocked ROW,COL ...]` (whole numbers, digits only).
pub fn read(words: &[&str]) -> Result<Board, String> {
    let [m, n, k, rest @ ..] = words else { return Err("expected M N K".into()) };
    let size = |s: &str, what: &str| {
        parse_index(s).filter(|&v| v >= 1).ok_or_else(|| format!("{what} must be a whole number >= 1, got '{s}'"))
    };
    let (rows, cols, k) = (size(m, "M")?, size(n, "N")?, size(k, "K")?);
    let mut blocked = Vec::new();
    if let Some((&word, cells)) = rest.split_first() {
        if !word.eq_ignore_ascii_case("blocked") {
            return Err(format!("unexpected '{word}' (blocked cells come as 'blocked ROW,COL ...')"));
        }
        for c in cells {
            let (r, col) = c.split_once(',').ok_or_else(|| format!("blocked cell must be ROW,COL, got '{c}'"))?;
            let num = |s: &str| parse_index(s).ok_or_else(|| format!("bad blocked cell '{c}'"));
            blocked.push((num(r)?, num(col)?));
        }
    }
    Ok((rows, cols, k, blocked))
}

/// The exact solver's table, shared with the other K-in-a-row games.
fn prepare(resources: &Resources) {
    proof::shared_table(resources);
}

fn build(words: &[&str], resources: &Resources) -> Result<Box<dyn AnyGame>, String> {
    let (rows, cols, k, blocked) = read(words)?;
    // Within the engine's memory (its hash, twice the games' share), before the board is made.
    kinarow::check_memory(rows, cols, 2 * resources.budget_mib())?;
    let game = Mnk::new(rows, cols, k, &blocked)?;
    let mut canonical = vec![rows.to_string(), cols.to_string(), k.to_string()];
    if !blocked.is_empty() {
        canonical.push("blocked".into());
        canonical.extend(blocked.iter().map(|(r, c)| format!("{r},{c}")));
    }
    let spec = GameSpec::new(&GAME_TYPE, canonical);
    let know = match proof::shared_table(resources) {
        Some(table) if MnkKnowledge::solver_fits(&game) => MnkKnowledge::with_solver(&game, table),
        _ => MnkKnowledge::new(),
    };
    Ok(Box::new(Playing::new(spec, game, know)))
}

impl Render for Mnk {
    fn board_text(&self) -> String {
        kinarow::board_picture(&self.lines)
    }

    /// Stones on the lines' crossings on gomoku-sized boards (K >= 5, at least 9 x 9), squares
    /// otherwise; column letters and row numbers on the edges.
    fn view(&self) -> View {
        let last = self.history.last().map(|&c| c as usize);
        let placed: Vec<usize> = self.history.iter().map(|&c| c as usize).collect();
        let (rows, cols) = (self.lines.rows(), self.lines.cols());
        let look = kinarow::GridLook {
            style: if self.lines.k() >= 5 && rows >= 9 && cols >= 9 { "stones" } else { "grid" },
            col_labels: (0..cols).map(kinarow::column_letters).collect(),
            row_labels: (1..=rows).map(|r| r.to_string()).collect(),
        };
        kinarow::grid_view(&self.lines, last, &placed, look, |cell| {
            self.is_legal(cell as u32).then(|| self.format_move(cell as u32))
        })
    }

    fn end_reason(&self) -> Option<String> {
        kinarow::end_reason(&self.lines)
    }

    /// Column letters and row numbers, row 1 at the top: `c3` is row 2, column 2 of the
    /// move text (`2 2`).
    fn human_move(&self, mv: u32) -> String {
        let cols = self.lines.cols();
        let cell = mv as usize;
        format!("{}{}", kinarow::column_letters(cell % cols), cell / cols + 1)
    }

    /// `c3` (see [`Render::human_move`]), or the move text `ROW COL` / `ROW,COL` from 0.
    fn parse_human(&self, text: &str) -> Result<u32, String> {
        let (rows, cols) = (self.lines.rows(), self.lines.cols());
        let t = text.trim().to_ascii_lowercase();
        let letters = t.bytes().take_while(u8::is_ascii_alphabetic).count();
        let where_ = || format!("columns a to {}, rows 1 to {rows} from the top", kinarow::column_letters(cols - 1));
        if letters == 0 {
            return self.parse_move(&t).map_err(|_| {
                format!("'{}' is not a cell: type a column letter and a row number, as b2 ({})", text.trim(), where_())
            });
        }
        let col = kinarow::letters_column(&t[..letters]);
        let row = parse_index(&t[letters..]);
        match (col, row) {
            (Some(c), Some(r)) if c < cols && (1..=rows).contains(&r) => Ok(((r - 1) * cols + c) as u32),
            (Some(_), Some(_)) => Err(format!("'{}' is off the board ({})", text.trim(), where_())),
            _ => Err(format!(
                "'{}' is not a cell: type a column letter and a row number, as b2 ({})",
                text.trim(),
                where_()
            )),
        }
    }

    fn notation_help(&self) -> String {
        format!(
            "a cell as its column letter and row number, as b2 (columns a to {} left to right, rows 1 to {} from the top); the protocol's ROW COL from 0 (1 1 or 1,1) works too",
            kinarow::column_letters(self.lines.cols() - 1),
            self.lines.rows()
        )
    }

    fn board_picture(&self, colour: bool, _bottom: Side) -> String {
        let last = self.history.last().map(|&c| c as usize);
        let row_label = |r: usize| (r + 1).to_string();
        kinarow::human_picture(&self.lines, last, kinarow::column_letters, Some(&row_label), colour)
    }

    fn human_end_reason(&self) -> Option<String> {
        kinarow::end_reason_in(&self.lines, self.side_names(), |c| self.human_move(c as u32))
    }

    fn evaluations(&self) -> &'static [(&'static str, &'static str)] {
        kinarow::EVALUATIONS
    }

    fn evaluate_as(&self, name: &str) -> Option<Score> {
        (name == "windows").then(|| kinarow::open_windows(&self.lines, self.to_move()))
    }
}

/// `boardbot solve --game mnk M N K`: one position a line, the cells played from the empty
/// board as 0-based `ROW,COL` pairs (`1,1 0,0 2,2`), `.` for the empty board, optionally followed
/// by an expected value (1, 0 or -1), which is then checked. Values are weak: 1 the side to move
/// wins, 0 draw, -1 it loses; the line also says the first player's result in words. Methods:
/// the bitboard alpha-beta solver (default), `pn` (df-pn over the same rules), `dfpn` (df-pn
/// over the rules' board, any size).
fn solve(spec: &GameSpec, request: &SolveRequest) -> Result<()> {
    let words: Vec<&str> = spec.words().iter().map(String::as_str).collect();
    let (m, n, k, blocked) = read(&words).map_err(|e| anyhow!(e))?;
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
    let board = bits::Board::new(m, n, k).map_err(|e| anyhow!(e))?;
    let table = bits::BoundTable::new(request.hash_mib);
    // Touch every page now, so that no position's time includes mapping the table's memory.
    table.clear();
    // With `pn`: the df-pn table, kept from position to position unless `fresh` (the
    // alpha-beta table is then left unused).
    let mut pn_table = None;
    drive(request, |line| {
        let (cells, expected) = parse_cells(line)?;
        let Some(cells) = cells else { return Ok(None) };
        let p = bits::Stones::from_cells(&board, &cells).map_err(|e| anyhow!(e))?;
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
    let start = Mnk::new(m, n, k, &[]).map_err(anyhow::Error::msg)?;
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
