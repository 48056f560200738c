//! Piskvork's `.psq`, the gomoku managers' game file: a first line `Piskvorky WxH, X:Y, N`, then
//! one move a line, `x,y,ms` (x the column and y the row, both from 1; the time the move took),
//! then lines this reader does not need (the players' names, `-1`). Free-style five in a row: a
//! W x H board is `mnk H W 5`.

use crate::game::any::{GameRecordText, GameSpec, LoadedRecord, RecordFormat, RecordMove};
use anyhow::{anyhow, bail, Result};

pub static FORMAT: RecordFormat = RecordFormat { name: "psq", extension: "psq", write, read, notes: false };

/// The game as a psq file: only five in a row without cells out of play (what Piskvork plays).
fn write(spec: &GameSpec, game: &GameRecordText) -> Option<String> {
    let w = spec.words();
    let (rows, cols) = (w[0].parse::<usize>().ok()?, w[1].parse::<usize>().ok()?);
    if w.len() != 3 || w[2] != "5" {
        return None;
    }
    let mut text = format!("Piskvorky {cols}x{rows}, 11:11, 0\n");
    for m in &game.moves {
        let (r, c) = m.split_once(' ')?;
        let (r, c) = (r.parse::<usize>().ok()?, c.parse::<usize>().ok()?);
        text.push_str(&format!("{},{},0\n", c + 1, r + 1));
    }
    for name in &game.players {
        text.push_str(&format!("{}\n", name.replace('\n', " ")));
    }
    text.push_str("-1\n");
    Some(text)
}

fn read(text: &str) -> Option<Result<LoadedRecord>> {
    let first = text.trim_start_matches('\u{feff}').lines().next()?.trim();
    let rest = first.strip_prefix("Piskvorky")?;
    Some(read_psq(rest, text))
}

fn read_psq(rest: &str, text: &str) -> Result<LoadedRecord> {
    let size = rest.trim().split([',', ' ']).next().unwrap_or("");
    let (w, h) = size.split_once(['x', 'X']).ok_or_else(|| anyhow!("line 1: '{size}' is not a board size WxH"))?;
    let number = |t: &str| t.trim().parse::<usize>().map_err(|_| anyhow!("line 1: '{size}' is not a board size WxH"));
    let (cols, rows) = (number(w)?, number(h)?);
    if !(5..=100).contains(&cols) || !(5..=100).contains(&rows) {
        bail!("line 1: a {cols}x{rows} board (5 to 100 a side)");
    }
    let mut moves = Vec::new();
    let mut names = Vec::new();
    for (i, line) in text.lines().enumerate().skip(1) {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let numbers: Option<Vec<i64>> = fields.iter().map(|f| f.parse::<i64>().ok()).collect();
        match numbers {
            Some(n) if n.len() == 3 && names.is_empty() => {
                let (x, y) = (n[0], n[1]);
                if x < 1 || y < 1 || x as usize > cols || y as usize > rows {
                    bail!("line {}: move {} ({line}) is off the {cols}x{rows} board", i + 1, moves.len() + 1);
                }
                moves.push(RecordMove {
                    text: format!("{} {}", y - 1, x - 1),
                    line: i + 1,
                    human: false,
                    written: line.to_string(),
                });
            }
            Some(n) if n == [-1] => break,
            // After the moves: the players' names and what else the manager wrote.
            _ => names.push(line.to_string()),
        }
    }
    let players = (names.len() >= 2).then(|| [names[0].clone(), names[1].clone()]);
    Ok(LoadedRecord { game: format!("mnk {rows} {cols} 5"), moves, players })
}
