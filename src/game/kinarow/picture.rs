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
                if !moves.iter().any(|m| &m.text == k) {
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
    let side = match lines.winner() {
        Some(side) => side,
        None => return (lines.empty_cells() == 0).then(|| "the board is full".to_string()),
    };
    let cells: Vec<String> = lines
        .winning_line()
        .unwrap_or_default()
        .iter()
        .map(|c| format!("{},{}", c / lines.cols(), c % lines.cols()))
        .collect();
    let who = if side.index() == 0 { "first" } else { "second" };
    Some(format!("{who} player has {} in a row: {}", lines.k(), cells.join(" ")))
}
