//! Connect-X in the registry: the description `cx M N X`, the game built with its knowledge, its
//! pictures, `boardbot solve --game cx M N X` and `boardbot book`.

use super::book::Book;
use super::solver::{solve_parallel, BoundTable, Geometry, Position, Shape, Solver};
use super::{ConnectX, CxKnowledge};
use crate::game::any::{AnyGame, GameSpec, GameType, Resources, SolveRequest};
use crate::game::kinarow;
use crate::game::kinarow::parse_index;
use crate::game::playing::Playing;
use crate::game::render::{Render, View};
use crate::game::solving::{checked, deadline, drive, Solved};
use crate::game::{proof, Game, Side};
use crate::search::Score;
use anyhow::{anyhow, bail, Context, Result};
use std::path::Path;
use std::time::Instant;

pub static GAME_TYPE: GameType = GameType {
    name: "cx",
    aliases: &["connectx"],
    size_words: 3,
    usage: "cx M N X",
    about: "Connect-X: pieces drop down N columns of M rows, X in a row wins (Connect-4: cx 6 7 4)",
    title: "Connect-X",
    names: &[("connect4", "cx 6 7 4")],
    examples: &["cx 6 7 4"],
    build,
    solve: Some(solve),
    book: Some(make_book),
    prepare: Some(prepare),
    ..GameType::DEFAULTS
};

/// Reads `M N X` (whole numbers, digits only).
fn read(words: &[&str]) -> Result<(usize, usize, usize), String> {
    let size = |s: &str, what: &str| {
        parse_index(s).filter(|&v| v >= 1).ok_or_else(|| format!("{what} must be a whole number >= 1, got '{s}'"))
    };
    match words {
        [m, n, x] => Ok((size(m, "M")?, size(n, "N")?, size(x, "X")?)),
        [_, _, _, w, ..] if w.eq_ignore_ascii_case("blocked") => Err("blocked cells exist only in m,n,k-games".into()),
        [_, _, _, w, ..] => Err(format!("unexpected '{w}' after M N X")),
        _ => Err("expected M N X".into()),
    }
}

/// The exact solver's table, shared with the other K-in-a-row games.
fn prepare(resources: &Resources) {
    proof::shared_table(resources);
}

fn build(words: &[&str], resources: &Resources) -> Result<Box<dyn AnyGame>, String> {
    let (rows, cols, x) = read(words)?;
    // Within the engine's memory (its hash, twice the games' share), before the board is made.
    kinarow::check_memory(rows, cols, 2 * resources.budget_mib())?;
    let game = ConnectX::new(rows, cols, x)?;
    let spec = GameSpec::new(&GAME_TYPE, vec![rows.to_string(), cols.to_string(), x.to_string()]);
    let know = match proof::shared_table(resources) {
        Some(table) if game.solver_fits() => CxKnowledge::with_solver(&game, table),
        _ => CxKnowledge::new(),
    };
    Ok(Box::new(Playing::new(spec, game, know)))
}

impl Render for ConnectX {
    fn board_text(&self) -> String {
        kinarow::board_picture(&self.lines)
    }

    /// A click anywhere in a column plays it; the column numbers above.
    fn view(&self) -> View {
        // The last piece is the top one of its column.
        let last = self.history.last().map(|&c| (self.rows() - self.height(c as usize)) * self.cols() + c as usize);
        let mut heights = vec![0; self.cols()];
        let placed: Vec<usize> = self
            .history
            .iter()
            .map(|&c| {
                let c = c as usize;
                heights[c] += 1;
                (self.rows() - heights[c]) * self.cols() + c
            })
            .collect();
        let look = kinarow::GridLook {
            style: "columns",
            col_labels: (1..=self.cols()).map(|c| c.to_string()).collect(),
            row_labels: Vec::new(),
        };
        kinarow::grid_view(&self.lines, last, &placed, look, |cell| {
            let col = (cell % self.cols()) as u32;
            self.is_legal(col).then(|| self.format_move(col))
        })
    }

    fn end_reason(&self) -> Option<String> {
        kinarow::end_reason(&self.lines)
    }

    /// Column numbers from 1, left to right.
    fn human_move(&self, mv: u32) -> String {
        (mv + 1).to_string()
    }

    /// A column number from 1 (the move text, from 0, would read as another column).
    fn parse_human(&self, text: &str) -> Result<u32, String> {
        let t = text.trim();
        match parse_index(t) {
            Some(c) if (1..=self.cols()).contains(&c) => Ok(c as u32 - 1),
            _ => Err(format!("'{t}' is not a column: type a column number from 1 to {}", self.cols())),
        }
    }

    fn notation_help(&self) -> String {
        format!("a column number from 1 to {}, left to right (the numbers above the board)", self.cols())
    }

    fn board_picture(&self, colour: bool, _bottom: Side) -> String {
        let last = self.history.last().map(|&c| (self.rows() - self.height(c as usize)) * self.cols() + c as usize);
        kinarow::human_picture(&self.lines, last, |c| (c + 1).to_string(), None, colour)
    }

    /// The winning line's cells as column and row from the bottom (`4/1`: column 4, the lowest
    /// row).
    fn human_end_reason(&self) -> Option<String> {
        let cols = self.cols();
        let rows = self.rows();
        kinarow::end_reason_in(&self.lines, self.side_names(), |c| format!("{}/{}", c % cols + 1, rows - c / cols))
    }

    fn evaluations(&self) -> &'static [(&'static str, &'static str)] {
        kinarow::EVALUATIONS
    }

    fn evaluate_as(&self, name: &str) -> Option<Score> {
        (name == "windows").then(|| kinarow::open_windows(&self.lines, self.to_move()))
    }

    /// The built-in opening book answers (the engine's knowledge has a solver's table in play).
    fn in_book(&self) -> bool {
        let Ok(shape) = Shape::new(self.rows(), self.cols(), self.lines.k()) else { return false };
        let moves: Vec<usize> = self.history.iter().map(|&c| c as usize).collect();
        let Ok(p) = Position::from_moves(shape, &moves) else { return false };
        Book::built_in(&shape).is_some_and(|b| b.lookup(&p).is_some())
    }
}

/// `boardbot solve --game cx M N X`: one position a line, the moves from the empty board as
/// 1-based column digits (the format of Pons' benchmark sets), optionally followed by an
/// expected score, which is then checked; `.` is the empty board. `weak` gives only the sign (1
/// win, 0 draw, -1 loss); `analyze` gives the score of every column instead.
fn solve(spec: &GameSpec, request: &SolveRequest) -> Result<()> {
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
    let table = BoundTable::new(request.hash_mib);
    // Touch every page now, so that no position's time includes mapping the table's memory.
    table.clear();
    drive(request, |line| {
        let mut words = line.split_whitespace();
        let Some(moves) = words.next() else { return Ok(None) };
        // `.` stands for the empty board (no moves).
        let played = if moves == "." { "" } else { moves };
        let expected = words.next().map(str::parse::<i32>).transpose().ok().flatten();
        let p = Position::from_moves(shape, &parse_moves(played, shape.cols()).map_err(|e| anyhow!(e))?)
            .map_err(|e| anyhow!(e))?;
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
pub fn shape_of(spec: &GameSpec) -> Result<Shape> {
    let words: Vec<&str> = spec.words().iter().map(String::as_str).collect();
    let (rows, cols, x) = read(&words).map_err(|e| anyhow!(e))?;
    Shape::new(rows, cols, x).map_err(anyhow::Error::msg)
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

/// `boardbot book`: generates an opening book (see [`Book`]) of the first player's moves up to
/// `plies` stones, and reports each level's positions, nodes and time.
pub fn make_book(spec: &GameSpec, plies: u32, threads: usize, hash_mib: usize, out: &Path) -> Result<()> {
    let shape = shape_of(spec)?;
    if threads == 0 {
        bail!("--threads must be at least 1");
    }
    let table = BoundTable::new(hash_mib);
    table.clear();
    let start = Instant::now();
    let book = Book::generate(shape, plies, &table, threads, |l| {
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
    std::fs::write(out, &bytes).with_context(|| format!("writing {}", out.display()))?;
    println!(
        "book {} positions {} bytes {} plies {} time {:.1} s",
        out.display(),
        book.len(),
        bytes.len(),
        book.plies(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
