//! The referee's side of the Gomocup (pbrain) protocol, for engines given as `pbrain:CMD ARGS`:
//! the lines sent (START or RECTSTART, INFO, BEGIN, TURN, END) and the reading of the replies.
//! Such an engine plays free-style gomoku only: m,n,k boards with K = 5 and no blocked cells.
//! A move is `x,y` (column, row) in the protocol and `ROW COL` for the referee.

use super::adapter::{Fault, FaultKind};
use crate::game::registry::GameSpec;
use anyhow::{anyhow, Result};
use std::time::Duration;

/// The prefix of a pbrain engine spec.
pub const PREFIX: &str = "pbrain:";

/// The board (rows, columns) of `spec` if a pbrain engine can play it: free-style gomoku, the
/// m,n,k game with K = 5 and no blocked cells.
pub fn gomoku_board(spec: &GameSpec) -> Result<(usize, usize)> {
    let size: Vec<usize> = spec.size().iter().filter_map(|w| w.parse().ok()).collect();
    match size[..] {
        [rows, cols, 5] if spec.name() == "mnk" && spec.options().is_empty() => Ok((rows, cols)),
        _ => Err(anyhow!(
            "a pbrain (Gomocup) engine plays only m,n,k boards with K = 5 and no blocked cells, not '{spec}'"
        )),
    }
}

/// Whether a pbrain engine can play `spec`.
pub fn check_board(spec: &GameSpec) -> Result<()> {
    gomoku_board(spec).map(|_| ())
}

/// The lines that set up a game: START (square board) or RECTSTART (width, height), whose
/// answer is OK, then INFO lines, which get none. The referee keeps no match clock: the match
/// time is unlimited (`timeout_match 0`, and `time_left` as Piskvork sends it then).
pub fn setup_lines(spec: &GameSpec, timeout: Duration) -> Result<(String, Vec<String>), Fault> {
    let (rows, cols) = gomoku_board(spec).map_err(|e| Fault::new(FaultKind::Crash, e.to_string()))?;
    let start = if rows == cols { format!("START {rows}") } else { format!("RECTSTART {cols},{rows}") };
    let info = [
        format!("timeout_turn {}", timeout.as_millis()),
        "timeout_match 0".into(),
        "time_left 2147483647".into(),
        "game_type 1".into(),
        "rule 0".into(),
    ];
    Ok((start, info.iter().map(|i| format!("INFO {i}")).collect()))
}

/// The request for a move: BEGIN for the first move of the game, else TURN with the opponent's
/// move (`ROW COL` as the referee writes it).
pub fn move_request(opponent_move: Option<&str>) -> Result<String, Fault> {
    let Some(mv) = opponent_move else { return Ok("BEGIN".into()) };
    match mv.split_whitespace().collect::<Vec<_>>()[..] {
        [row, col] => Ok(format!("TURN {col},{row}")),
        _ => Err(Fault::new(FaultKind::Crash, format!("the referee's move '{mv}' is not a cell"))),
    }
}

/// A stone of a BOARD command, `x,y,f`, from the referee's `ROW COL`: f = 1 the engine's own,
/// 2 the opponent's.
pub fn stone_line(mv: &str, own: bool) -> Result<String, Fault> {
    match mv.split_whitespace().collect::<Vec<_>>()[..] {
        [row, col] => Ok(format!("{col},{row},{}", if own { 1 } else { 2 })),
        _ => Err(Fault::new(FaultKind::Crash, format!("the referee's move '{mv}' is not a cell"))),
    }
}

/// The stones of an opening (moves from the first player's, alternating) as BOARD lines, for
/// the engine that plays first (`first`) or second.
pub fn board_lines(opening: &[String], first: bool) -> Result<Vec<String>, Fault> {
    opening.iter().enumerate().map(|(i, mv)| stone_line(mv, (i % 2 == 0) == first)).collect()
}

/// Lines an engine may write at any time, which are not replies: MESSAGE and DEBUG.
pub fn is_chatter(line: &str) -> bool {
    let head = line.split_whitespace().next().unwrap_or("");
    head.eq_ignore_ascii_case("MESSAGE") || head.eq_ignore_ascii_case("DEBUG")
}

/// Reads a move reply `x,y` as the referee's `ROW COL` (`y x`). Two whole numbers give a move,
/// which the referee then checks (off the board is an illegal move); anything else is garbled.
pub fn move_reply(text: &str) -> Result<String, Fault> {
    let t = text.trim();
    let number = |s: &str| {
        let digits = s.strip_prefix('-').unwrap_or(s);
        !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
    };
    match t.split(',').map(str::trim).collect::<Vec<_>>()[..] {
        [x, y] if number(x) && number(y) => Ok(format!("{y} {x}")),
        _ => Err(Fault::new(FaultKind::Garbled, format!("not a move x,y: '{t}'"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mnk(rows: usize, cols: usize, k: usize) -> GameSpec {
        GameSpec::parse(&format!("mnk {rows} {cols} {k}")).unwrap()
    }

    #[test]
    fn boards() {
        assert!(check_board(&mnk(15, 15, 5)).is_ok());
        assert!(check_board(&mnk(7, 9, 5)).is_ok());
        for bad in [mnk(7, 7, 4), GameSpec::parse("cx 6 7 5").unwrap()] {
            assert!(check_board(&bad).unwrap_err().to_string().contains("K = 5"), "{bad}");
        }
        let blocked = GameSpec::parse("mnk 9 9 5 blocked 0,0").unwrap();
        assert!(check_board(&blocked).unwrap_err().to_string().contains("blocked 0,0"));
        let t = Duration::from_millis(1500);
        let (start, info) = setup_lines(&mnk(15, 15, 5), t).unwrap();
        assert_eq!(start, "START 15");
        assert_eq!(info[0], "INFO timeout_turn 1500");
        assert_eq!(setup_lines(&mnk(7, 9, 5), t).unwrap().0, "RECTSTART 9,7", "width (columns), height (rows)");
        assert!(setup_lines(&mnk(7, 9, 4), t).is_err());
    }

    #[test]
    fn moves_both_ways() {
        assert_eq!(move_request(None).unwrap(), "BEGIN");
        assert_eq!(move_request(Some("3 10")).unwrap(), "TURN 10,3");
        assert_eq!(move_reply(" 10,3 ").unwrap(), "3 10");
        assert_eq!(move_reply("99,-1").unwrap(), "-1 99", "numbers: the referee finds it illegal");
        for bad in ["", "10 3", "10,3,1", "ERROR no", "UNKNOWN x", "OK", "a,b", "10,"] {
            assert_eq!(move_reply(bad).unwrap_err().kind, FaultKind::Garbled, "{bad}");
        }
        assert!(is_chatter("MESSAGE depth 5") && is_chatter("debug x") && is_chatter("DEBUG"));
        assert!(!is_chatter("10,3") && !is_chatter("MESSAGES"));
    }

    #[test]
    fn opening_stones() {
        let opening = ["7 7".to_string(), "6 8".to_string(), "8 9".to_string()];
        assert_eq!(board_lines(&opening, true).unwrap(), ["7,7,1", "8,6,2", "9,8,1"]);
        assert_eq!(board_lines(&opening, false).unwrap(), ["7,7,2", "8,6,1", "9,8,2"]);
        assert_eq!(stone_line("3 10", false).unwrap(), "10,3,2");
        assert!(stone_line("3", true).is_err());
    }
}
