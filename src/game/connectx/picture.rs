//! The Connect-X board's pictures: the board as text and as the page's view.

use super::ConnectX;
use crate::game::kinarow;
use crate::game::kinarow::parse_index;
use crate::game::render::{Render, View};
use crate::game::{Game, Side};
use crate::search::Score;
use anyhow::{anyhow, Result};

impl Render for ConnectX {
    /// Red and Yellow discs, as the page draws them (Connect-4's first player Red).
    fn side_names(&self) -> [&'static str; 2] {
        kinarow::piece_names("columns")
    }

    /// The text board's X and O for the Red and Yellow discs.
    fn side_marks(&self) -> Option<[&'static str; 2]> {
        Some(["X", "O"])
    }

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
    fn parse_human(&self, text: &str) -> Result<u32> {
        let t = text.trim();
        match parse_index(t) {
            Some(c) if (1..=self.cols()).contains(&c) => Ok(c as u32 - 1),
            _ => Err(anyhow!("'{t}' is not a column: type a column number from 1 to {}", self.cols())),
        }
    }

    fn notation_help(&self) -> String {
        format!("a column number from 1 to {}, left to right (the numbers above the board)", self.cols())
    }

    fn board_picture(&self, colour: bool, _bottom: Side) -> String {
        let last = self.history.last().map(|&c| (self.rows() - self.height(c as usize)) * self.cols() + c as usize);
        kinarow::human_picture(&self.lines, last, |c| (c + 1).to_string(), None, colour)
    }

    /// The winning line by the columns its discs were dropped in, as the moves are written:
    /// "X has 4 in a row in column 4", "... across columns 1 to 4 (row 1 from the bottom)",
    /// "... diagonally across columns 2 to 5".
    fn human_end_reason(&self) -> Option<String> {
        let (cols, rows) = (self.cols(), self.rows());
        let Some(line) = self.lines.winning_line().filter(|l| !l.is_empty()) else {
            return kinarow::end_reason_in(&self.lines, self.side_names(), |c| (c % cols + 1).to_string());
        };
        let winner = self.lines.winner().expect("a winning line has a winner");
        let columns: Vec<usize> = line.iter().map(|&c| c % cols + 1).collect();
        let (low, high) = (*columns.iter().min().unwrap(), *columns.iter().max().unwrap());
        let row = |c: usize| rows - c / cols;
        let place = if low == high {
            format!("in column {low}")
        } else if line.iter().all(|&c| row(c) == row(line[0])) {
            format!("across columns {low} to {high} (row {} from the bottom)", row(line[0]))
        } else {
            format!("diagonally across columns {low} to {high}")
        };
        Some(format!("{} has {} in a row {place}", self.side_names()[winner.index()], self.lines.k()))
    }

    fn evaluations(&self) -> &'static [(&'static str, &'static str)] {
        kinarow::EVALUATIONS
    }

    fn evaluate_as(&self, name: &str) -> Option<Score> {
        (name == "windows").then(|| kinarow::open_windows(&self.lines, self.to_move()))
    }
}
