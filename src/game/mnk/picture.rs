//! The m,n,k board's pictures: the board as text and as the page's view.

use super::Mnk;
use crate::game::kinarow;
use crate::game::kinarow::parse_index;
use crate::game::render::{Render, View};
use crate::game::{Game, Side};
use crate::search::Score;
use anyhow::{anyhow, Result};

impl Mnk {
    /// How the board is drawn for people: `stones` on gomoku-sized boards (K >= 5, at least
    /// 9 x 9), `grid` otherwise (see [`View::style`]).
    fn style(&self) -> &'static str {
        if self.lines.k() >= 5 && self.lines.rows() >= 9 && self.lines.cols() >= 9 {
            "stones"
        } else {
            "grid"
        }
    }
}

impl Render for Mnk {
    /// Black and White on gomoku-sized boards, X and O on the others (as the page draws them).
    fn side_names(&self) -> [&'static str; 2] {
        kinarow::piece_names(self.style())
    }

    /// The text board's X and O, where the players are Black and White.
    fn side_marks(&self) -> Option<[&'static str; 2]> {
        (self.style() != "grid").then_some(["X", "O"])
    }

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
            style: self.style(),
            col_labels: (0..cols).map(kinarow::column_letters).collect(),
            // Row 1 at the bottom, as renju and playok number them.
            row_labels: (0..rows).map(|r| (rows - r).to_string()).collect(),
        };
        kinarow::grid_view(&self.lines, last, &placed, look, |cell| {
            self.is_legal(cell as u32).then(|| self.format_move(cell as u32))
        })
    }

    fn end_reason(&self) -> Option<String> {
        kinarow::end_reason(&self.lines)
    }

    /// Column letters and row numbers, row 1 at the bottom as renju and playok write them
    /// (`a1` is the bottom-left cell): on a 15 x 15 board `c3` is row 12, column 2 of the move
    /// text (`12 2`, rows from 0 at the top), and `h8` the centre (`7 7`).
    fn human_move(&self, mv: u32) -> String {
        let (rows, cols) = (self.lines.rows(), self.lines.cols());
        let cell = mv as usize;
        format!("{}{}", kinarow::column_letters(cell % cols), rows - cell / cols)
    }

    /// `c3` (see [`Render::human_move`]), or the move text `ROW COL` / `ROW,COL` from 0.
    fn parse_human(&self, text: &str) -> Result<u32> {
        let (rows, cols) = (self.lines.rows(), self.lines.cols());
        let t = text.trim().to_ascii_lowercase();
        let letters = t.bytes().take_while(u8::is_ascii_alphabetic).count();
        let where_ = || format!("columns a to {}, rows 1 to {rows} from the bottom", kinarow::column_letters(cols - 1));
        if letters == 0 {
            return self.parse_move(&t).map_err(|_| {
                anyhow!("'{}' is not a cell: type a column letter and a row number, as b2 ({})", text.trim(), where_())
            });
        }
        let col = kinarow::letters_column(&t[..letters]);
        let row = parse_index(&t[letters..]);
        match (col, row) {
            (Some(c), Some(r)) if c < cols && (1..=rows).contains(&r) => Ok(((rows - r) * cols + c) as u32),
            (Some(_), Some(_)) => Err(anyhow!("'{}' is off the board ({})", text.trim(), where_())),
            _ => Err(anyhow!(
                "'{}' is not a cell: type a column letter and a row number, as b2 ({})",
                text.trim(),
                where_()
            )),
        }
    }

    fn notation_help(&self) -> String {
        format!(
            "a cell as its column letter and row number, as b2 (columns a to {} left to right, rows 1 to {} from the bottom); the protocol's ROW COL from 0 (1 1 or 1,1) works too",
            kinarow::column_letters(self.lines.cols() - 1),
            self.lines.rows()
        )
    }

    fn board_picture(&self, colour: bool, _bottom: Side) -> String {
        let last = self.history.last().map(|&c| c as usize);
        let rows = self.lines.rows();
        let row_label = |r: usize| (rows - r).to_string();
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
