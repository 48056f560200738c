//! The K-in-a-row boards drawn for people: as text, as a web page's view, and the winning line
//! in words.

use super::{Lines, BLOCKED, EMPTY};
use crate::game::any::{View, ViewCell, ViewMove};

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

/// The board as a web page's view: each cell's stone, the key a click on it sends (`key_of`:
/// the move it stands for, if that move is legal now), the last move and the winning line marked.
pub fn grid_view(lines: &Lines, last: Option<usize>, key_of: impl Fn(usize) -> Option<String>) -> View {
    let won = lines.winning_line().unwrap_or_default();
    let mut moves: Vec<ViewMove> = Vec::new();
    // The move texts already listed (a set: a scan of `moves` per cell was quadratic, 0.78 s
    // for a 100 x 100 board's state).
    let mut listed = ahash::AHashSet::new();
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
                    moves.push(ViewMove { text: k.clone(), keys: vec![k.clone()] });
                }
            }
            ViewCell { content: content.to_string(), key, marked: Some(cell) == last || won.contains(&cell) }
        })
        .collect();
    View { rows: lines.rows(), cols: lines.cols(), cells, moves }
}

/// Why the game ended: the winner's line (0-based `ROW,COL` cells), or a full board.
pub fn end_reason(lines: &Lines) -> Option<String> {
    end_reason_in(lines, |c| format!("{},{}", c / lines.cols(), c % lines.cols()))
}

/// As [`end_reason`], the cells of the winning line named by `name`.
pub fn end_reason_in(lines: &Lines, name: impl Fn(usize) -> String) -> Option<String> {
    let side = match lines.winner() {
        Some(side) => side,
        None => return (lines.empty_cells() == 0).then(|| "the board is full".to_string()),
    };
    let cells: Vec<String> = lines.winning_line().unwrap_or_default().iter().map(|&c| name(c)).collect();
    let who = if side.index() == 0 { "first" } else { "second" };
    Some(format!("{who} player has {} in a row: {}", lines.k(), cells.join(" ")))
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
