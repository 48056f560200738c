//! The K-in-a-row boards drawn for people: as text, as a web page's view, and the winning line
//! in words.

use super::{Lines, BLOCKED, EMPTY};
use crate::game::render::{View, ViewCell, ViewMove, ViewPlayer};
use crate::search::{Score, Side};

/// The board as text, a line per row (row 0 first): `.` empty, `X` first, `O` second, `#`
/// blocked.
pub fn board_picture(lines: &Lines) -> String {
    let mut text = String::with_capacity((lines.cols() + 1) * lines.rows());
    for row in 0..lines.rows() {
        for col in 0..lines.cols() {
            text.push(match lines.cell(row * lines.cols() + col) {
                EMPTY => '.',
                BLOCKED => '#',
                1 => 'X',
                _ => 'O',
            });
        }
        text.push('\n');
    }
    text
}

/// How a page draws a K-in-a-row board, with its edges' labels.
pub struct GridLook {
    /// `grid`, `stones` or `columns` (see [`View::style`]).
    pub style: &'static str,
    pub col_labels: Vec<String>,
    pub row_labels: Vec<String>,
}

/// The players as people call them on a board drawn in `style`: Black and White stones (the
/// first player Black, as in gomoku and renju), Red and Yellow discs (Connect-4's first player
/// Red), X and O marks.
pub fn piece_names(style: &str) -> [&'static str; 2] {
    match style {
        "stones" => ["Black", "White"],
        "columns" => ["Red", "Yellow"],
        _ => ["X", "O"],
    }
}

/// The board as a web page's view: each cell's stone and the number of the move that put it
/// there (`placed`: the cell of each move, in order), the key a click on it sends (`key_of`: the
/// move it stands for, if that move is legal now), the last move and the winning line marked.
pub fn grid_view(
    lines: &Lines,
    last: Option<usize>,
    placed: &[usize],
    look: GridLook,
    key_of: impl Fn(usize) -> Option<String>,
) -> View {
    let won = lines.winning_line().unwrap_or_default();
    let mut moves: Vec<ViewMove> = Vec::new();
    // The move texts already listed (a set: a scan of `moves` per cell was quadratic, 0.78 s
    // for a 100 x 100 board's state).
    let mut listed = ahash::AHashSet::new();
    let mut numbers = vec![None; lines.cell_count()];
    for (i, &cell) in placed.iter().enumerate() {
        numbers[cell] = Some(i as u32 + 1);
    }
    let cells = (0..lines.cell_count())
        .map(|cell| {
            let content = match lines.cell(cell) {
                EMPTY => "",
                BLOCKED => "#",
                1 => "X",
                _ => "O",
            };
            let key = key_of(cell);
            if let Some(k) = &key {
                if listed.insert(k.clone()) {
                    moves.push(ViewMove { text: k.clone(), keys: vec![k.clone()], human: String::new() });
                }
            }
            let mut c = ViewCell::new(content, key);
            c.marked = Some(cell) == last || won.contains(&cell);
            if Some(cell) == last {
                c.marks.push("last");
            }
            if won.contains(&cell) {
                c.marks.push("win");
            }
            c.number = numbers[cell];
            c
        })
        .collect();
    View {
        rows: lines.rows(),
        cols: lines.cols(),
        cells,
        moves,
        style: look.style,
        col_labels: look.col_labels,
        row_labels: look.row_labels,
        bottom: None,
        players: ViewPlayer::named(piece_names(look.style)),
        notes: Vec::new(),
    }
}

/// The evaluations a person may choose for the textbook algorithms (see
/// `Render::evaluations`): the engine's, and [`open_windows`].
pub const EVALUATIONS: &[(&str, &str)] = &[
    ("threats", "the engine's: each side's windows weighted by their stones, threats counted"),
    ("windows", "the open windows counted: lines of K cells the opponent has not entered"),
];

/// Seed 003's simpler evaluation: the windows (K cells in a row, none out of play) `side` can
/// still fill, less those the opponent can; a window holding stones of both counts for neither.
pub fn open_windows(lines: &Lines, side: Side) -> Score {
    let (rows, cols, k) = (lines.rows() as isize, lines.cols() as isize, lines.k() as isize);
    let me = side.index() as u8 + 1;
    let mut score = 0;
    for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
        for r in 0..rows {
            for c in 0..cols {
                let (er, ec) = (r + dr * (k - 1), c + dc * (k - 1));
                if !(0..rows).contains(&er) || !(0..cols).contains(&ec) {
                    continue;
                }
                let (mut mine, mut theirs, mut blocked) = (false, false, false);
                for i in 0..k {
                    match lines.cell(((r + dr * i) * cols + c + dc * i) as usize) {
                        EMPTY => {}
                        BLOCKED => blocked = true,
                        s if s == me => mine = true,
                        _ => theirs = true,
                    }
                }
                if !blocked {
                    score += i32::from(!theirs) - i32::from(!mine);
                }
            }
        }
    }
    score
}

/// Why the game ended: the winner's line (0-based `ROW,COL` cells), or a full board.
pub fn end_reason(lines: &Lines) -> Option<String> {
    end_reason_in(lines, ["first player", "second player"], |c| format!("{},{}", c / lines.cols(), c % lines.cols()))
}

/// As [`end_reason`], the players called `players` and the cells of the winning line named by
/// `name`.
pub fn end_reason_in(lines: &Lines, players: [&str; 2], name: impl Fn(usize) -> String) -> Option<String> {
    let side = match lines.winner() {
        Some(side) => side,
        None => return (lines.empty_cells() == 0).then(|| "the board is full".to_string()),
    };
    let cells: Vec<String> = lines.winning_line().unwrap_or_default().iter().map(|&c| name(c)).collect();
    Some(format!("{} has {} in a row: {}", players[side.index()], lines.k(), cells.join(" ")))
}

/// Column names for people, as gomoku GUIs write them: a, b, ..., z, aa, ab, ...
pub fn column_letters(mut col: usize) -> String {
    let mut name = Vec::new();
    loop {
        name.push(b'a' + (col % 26) as u8);
        if col < 26 {
            break;
        }
        col = col / 26 - 1;
    }
    name.reverse();
    String::from_utf8(name).expect("ASCII letters")
}

/// The column whose letters [`column_letters`] writes as `text` (lower case), if any.
pub fn letters_column(text: &str) -> Option<usize> {
    if text.is_empty() || text.len() > 4 || !text.bytes().all(|b| b.is_ascii_lowercase()) {
        return None;
    }
    Some(text.bytes().fold(0, |col, b| col * 26 + (b - b'a') as usize + 1) - 1)
}

/// The board for people: `col_label` above each column, `row_label` (if any) before each row,
/// the pieces as `X` and `O`, `#` out of play, `.` empty; the last move in brackets `[X]` and the
/// winning line in parentheses `(X)`; with `colour`, ANSI colours too.
pub fn human_picture(
    lines: &Lines,
    last: Option<usize>,
    col_label: impl Fn(usize) -> String,
    row_label: Option<&dyn Fn(usize) -> String>,
    colour: bool,
) -> String {
    let won = lines.winning_line().unwrap_or_default();
    let width = row_label.map_or(0, |label| (0..lines.rows()).map(|r| label(r).len()).max().unwrap_or(0) + 1);
    let mut text = format!("{:width$}", "");
    for col in 0..lines.cols() {
        text.push_str(&format!("{:^3}", col_label(col)));
    }
    while text.ends_with(' ') {
        text.pop();
    }
    text.push('\n');
    for row in 0..lines.rows() {
        match row_label {
            Some(label) => text.push_str(&format!("{:>w$} ", label(row), w = width - 1)),
            None => text.push_str(&format!("{:width$}", "")),
        }
        for col in 0..lines.cols() {
            let cell = row * lines.cols() + col;
            let (piece, paint) = match lines.cell(cell) {
                EMPTY => ('.', "2"),
                BLOCKED => ('#', "2"),
                1 => ('X', "1;31"),
                _ => ('O', "1;34"),
            };
            let (open, close) = if won.contains(&cell) {
                ('(', ')')
            } else if Some(cell) == last {
                ('[', ']')
            } else {
                (' ', ' ')
            };
            let paint = if won.contains(&cell) {
                "1;42;97".to_string()
            } else if Some(cell) == last {
                format!("{paint};7")
            } else {
                paint.to_string()
            };
            if colour {
                text.push_str(&format!("{open}\x1b[{paint}m{piece}\x1b[0m{close}"));
            } else {
                text.push_str(&format!("{open}{piece}{close}"));
            }
        }
        // No blanks at the ends of lines.
        while text.ends_with(' ') {
            text.pop();
        }
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn column_letters_go_both_ways() {
        for (col, text) in [(0, "a"), (2, "c"), (25, "z"), (26, "aa"), (51, "az"), (52, "ba")] {
            assert_eq!(column_letters(col), text);
            assert_eq!(letters_column(text), Some(col));
        }
        assert_eq!(letters_column("A"), None);
        assert_eq!(letters_column(""), None);
    }
}
