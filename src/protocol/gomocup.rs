//! The Gomocup (pbrain) protocol of gomoku managers and GUIs (Piskvork, the Gomocup tournament),
//! spoken by `boardbot --protocol gomocup`. The game is free-style gomoku on the m,n,k rules: a
//! W x H board, five or more in a row wins. Coordinates are `x,y`: x the column, y the row, both
//! from 0. protocol.md ("The Gomocup protocol") lists the commands and replies.

use super::session::{Input, Reader};
use crate::bot::{Engine, NAME, VERSION};
use crate::game::registry::GameSpec;
use crate::game::registry::Resources;
use crate::game::Outcome;
use anyhow::{anyhow, bail, Result};
use std::collections::HashSet;
use std::io::{BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Stones in a row that win (free-style: five or more).
pub const K: usize = 5;
/// Board sides played: from 5 (room for a five) to 1000 (the m,n,k limit).
const MIN_SIDE: usize = 5;
const MAX_SIDE: usize = 1000;
/// Time per move when the manager sends no `INFO timeout_turn`.
pub const DEFAULT_TURN_MS: u64 = 5000;
/// Search time for `INFO timeout_turn 0` ("play as fast as possible").
const FAST_MS: u64 = 100;
/// A move may take this share (1/N) of the match time left.
const MOVES_TO_GO: u64 = 20;
/// `INFO time_left` at or above this means the match time is unlimited (Piskvork sends 2^31 - 1).
const UNLIMITED_MS: i64 = i32::MAX as i64;
/// Of `INFO max_memory`, what the process takes besides the engine's memory (its code, stacks,
/// buffers), in MiB (8 left the test of `INFO max_memory` 40 KiB over its 80 MiB under a loaded suite).
const PROCESS_MIB: u64 = 9;

/// The bits of `INFO rule`; none is supported (rule 0: free-style).
const RULE_BITS: [(u32, &str); 4] = [(1, "exactly five"), (2, "continuous game"), (4, "renju"), (8, "caro")];

/// A cell as (x, y): column, row.
type Xy = (usize, usize);
/// A line of a BOARD block: x, y and the field (1 own stone, 2 the opponent's, 3 out of play).
type Stone = (usize, usize, u8);

/// Serves the Gomocup protocol on `input`/`output` until `END` or end of input.
pub fn serve<R, W>(input: R, mut output: W, engine: Engine) -> Result<()>
where
    R: BufRead + Send + 'static,
    W: Write,
{
    let reader = Reader::spawn(input, |line| line.trim().eq_ignore_ascii_case("END"));
    let mut session = Session::new(engine);
    loop {
        let reply = match reader.lines.recv() {
            Ok(Input::Line(line, start)) => {
                log::debug!("<< {line}");
                catch_unwind(AssertUnwindSafe(|| session.handle(&line, start, &reader.stop)))
                    .unwrap_or_else(|_| Some("ERROR internal error (see stderr)".to_string()))
            }
            Ok(Input::Bad(reason)) => session.bad_line(reason),
            Ok(Input::End) | Err(_) => break,
        };
        if let Some(reply) = reply {
            let reply = reply.replace(['\r', '\n'], " ");
            log::debug!(">> {reply}");
            writeln!(output, "{reply}")?;
            output.flush()?;
            session.engine.reply_written();
        }
    }
    Ok(())
}

struct Session {
    engine: Engine,
    /// The board of the last START or RECTSTART: (width, height).
    size: Option<(usize, usize)>,
    /// The stones of the game in the order played (the first player's first).
    moves: Vec<Xy>,
    /// From INFO, in milliseconds.
    timeout_turn: Option<u64>,
    timeout_match: Option<u64>,
    time_left: Option<i64>,
    rule: u32,
    /// The hash size the engine started with; `INFO max_memory` may only lower it.
    hash_mb: usize,
    /// Inside a BOARD block: the stones (x, y, field) read so far, or its first error.
    board: Option<Result<Vec<Stone>>>,
}

impl Session {
    fn new(engine: Engine) -> Session {
        let hash_mb = engine.options().hash_mb;
        Session {
            engine,
            size: None,
            moves: Vec::new(),
            timeout_turn: None,
            timeout_match: None,
            time_left: None,
            rule: 0,
            hash_mb,
            board: None,
        }
    }

    /// The reply to one line: none (INFO, blank lines, the lines of a BOARD block), a move, OK,
    /// `ERROR ...` or `UNKNOWN ...`.
    fn handle(&mut self, line: &str, start: Instant, stop: &Arc<AtomicBool>) -> Option<String> {
        let line = line.trim();
        if let Some(block) = self.board.as_mut() {
            if line.eq_ignore_ascii_case("DONE") {
                let block = self.board.take().expect("inside a block");
                return Some(reply(block.and_then(|stones| self.board_move(&stones, start, stop))));
            }
            if let (Ok(stones), false) = (&mut *block, line.is_empty()) {
                match parse_stone(line) {
                    Ok(stone) => stones.push(stone),
                    Err(e) => *block = Err(e),
                }
            }
            return None;
        }
        if line.is_empty() {
            return None;
        }
        let (word, arg) = line.split_once(char::is_whitespace).map_or((line, ""), |(w, a)| (w, a.trim()));
        let command = word.to_ascii_uppercase();
        let no_arg = || if arg.is_empty() { Ok(()) } else { Err(anyhow!("{command} takes no arguments")) };
        let result = match command.as_str() {
            "START" => {
                let n = arg.parse::<usize>().map_err(|_| anyhow!("START needs a board size, got '{arg}'"));
                n.and_then(|n| self.new_game(n, n)).map(|_| Some("OK".into()))
            }
            "RECTSTART" => parse_xy(arg).and_then(|(w, h)| self.new_game(w, h)).map(|_| Some("OK".into())),
            "RESTART" => no_arg().and_then(|_| self.restart()).map(|_| Some("OK".into())),
            "BEGIN" => no_arg().and_then(|_| self.begin(start, stop)).map(Some),
            "TURN" => self.turn(arg, start, stop).map(Some),
            "BOARD" => no_arg().map(|_| {
                self.board = Some(self.size.map(|_| Vec::new()).ok_or_else(|| anyhow!("no game: send START first")));
                None
            }),
            "TAKEBACK" => self.takeback(arg).map(|_| Some("OK".into())),
            "INFO" => self.info(arg).map(|_| None),
            "ABOUT" => no_arg().map(|_| {
                Some(format!(
                    r#"name="{NAME}", version="{VERSION}", author="the boardbot maintainers", country="unknown""#
                ))
            }),
            _ => return Some(format!("UNKNOWN command '{word}'")),
        };
        result.unwrap_or_else(|e| Some(format!("ERROR {e}")))
    }

    /// An unreadable line (not UTF-8, too long): an error, for the whole block inside BOARD.
    fn bad_line(&mut self, reason: &str) -> Option<String> {
        match self.board.as_mut() {
            Some(block) => {
                if block.is_ok() {
                    *block = Err(anyhow!("BOARD: {reason}"));
                }
                None
            }
            None => Some(format!("ERROR {reason}")),
        }
    }

    fn new_game(&mut self, width: usize, height: usize) -> Result<()> {
        if !(MIN_SIDE..=MAX_SIDE).contains(&width) || !(MIN_SIDE..=MAX_SIDE).contains(&height) {
            bail!("unsupported board {width}x{height}: each side must be {MIN_SIDE} to {MAX_SIDE}");
        }
        let spec = spec(width, height, Vec::new(), self.engine.board_limit_mib())?;
        self.engine.new_game(&spec, false, self.move_timeout())?;
        self.size = Some((width, height));
        self.moves.clear();
        Ok(())
    }

    fn restart(&mut self) -> Result<()> {
        let (w, h) = self.size.ok_or_else(|| anyhow!("no game: send START first"))?;
        self.new_game(w, h)
    }

    /// The board, if a game may be played on it now.
    fn playable(&self) -> Result<(usize, usize)> {
        let size = self.size.ok_or_else(|| anyhow!("no game: send START first"))?;
        match rule_error(self.rule) {
            Some(e) => Err(anyhow!(e)),
            None => Ok(size),
        }
    }

    fn begin(&mut self, start: Instant, stop: &Arc<AtomicBool>) -> Result<String> {
        self.playable()?;
        if !self.moves.is_empty() {
            bail!("BEGIN opens a game, but the board has {} stones (send BOARD)", self.moves.len());
        }
        self.our_move(start, stop)
    }

    fn turn(&mut self, arg: &str, start: Instant, stop: &Arc<AtomicBool>) -> Result<String> {
        let (w, h) = self.playable()?;
        let (x, y) = parse_xy(arg)?;
        if x >= w || y >= h {
            bail!("{x},{y} is off the {w}x{h} board");
        }
        if self.engine.outcome().is_none() && self.engine.is_engine_turn() {
            bail!("it is our turn, not the opponent's");
        }
        self.engine.opponent_move(&cell_text((x, y)))?;
        self.moves.push((x, y));
        // The move is kept (a TAKEBACK may follow), but there is nothing to answer.
        match self.engine.outcome() {
            Some(Outcome::Draw) => Err(anyhow!("the game is over: {x},{y} filled the board")),
            Some(Outcome::Win(_)) => Err(anyhow!("the game is over: {x},{y} made five")),
            None => self.our_move(start, stop),
        }
    }

    /// Sets up the position of a BOARD block (the stones of each side in a legal order) and moves.
    fn board_move(&mut self, stones: &[Stone], start: Instant, stop: &Arc<AtomicBool>) -> Result<String> {
        let (w, h) = self.playable()?;
        let mut seen = HashSet::new();
        let (mut own, mut theirs, mut blocked) = (Vec::new(), Vec::new(), Vec::new());
        for &(x, y, field) in stones {
            if x >= w || y >= h {
                bail!("BOARD: {x},{y} is off the {w}x{h} board");
            }
            if !seen.insert((x, y)) {
                bail!("BOARD: {x},{y} is given twice");
            }
            match field {
                1 => own.push((x, y)),
                2 => theirs.push((x, y)),
                _ => blocked.push((y, x)),
            }
        }
        // We are to move: first with as many stones as the opponent, second with one fewer.
        let first = match theirs.len().checked_sub(own.len()) {
            Some(0) => true,
            Some(1) => false,
            _ => {
                bail!(
                    "BOARD: {} own and {} opponent stones is not a position with us to move (equal counts, or one more of the opponent's)",
                    own.len(),
                    theirs.len()
                )
            }
        };
        let order = if first { interleave(own, theirs) } else { interleave(theirs, own) };
        // Checked on a copy of the rules first: the engine's game changes only if all is well.
        let spec = spec(w, h, blocked, self.engine.board_limit_mib())?;
        let mut game = spec.new_game(&Resources::none())?;
        for &(x, y) in &order {
            if game.play(&cell_text((x, y))).is_err() {
                bail!("BOARD: the game is already over (five in a row)");
            }
        }
        if game.outcome().is_some() {
            bail!("BOARD: the game is already over (five in a row, or a full board)");
        }
        // The copy goes before the engine's game is made: two boards at most at once.
        drop(game);
        let words: Vec<String> = order.iter().map(|&c| cell_text(c)).collect();
        self.engine.new_game(&spec, first, self.move_timeout())?;
        self.engine.set_position(&words.iter().map(String::as_str).collect::<Vec<_>>())?;
        self.moves = order;
        self.our_move(start, stop)
    }

    fn takeback(&mut self, arg: &str) -> Result<()> {
        self.size.ok_or_else(|| anyhow!("no game: send START first"))?;
        let (x, y) = parse_xy(arg)?;
        match self.moves.last() {
            Some(&last) if last == (x, y) => {}
            Some(&(lx, ly)) => bail!("TAKEBACK {x},{y}: the last stone is {lx},{ly}"),
            None => bail!("TAKEBACK: the board is empty"),
        }
        let words: Vec<String> = self.moves[..self.moves.len() - 1].iter().map(|&c| cell_text(c)).collect();
        self.engine.set_position(&words.iter().map(String::as_str).collect::<Vec<_>>())?;
        self.moves.pop();
        Ok(())
    }

    /// `INFO KEY VALUE`: no reply, except an error for a bad value or a rule not supported (the
    /// rule is kept, and every move is refused until a supported one comes).
    fn info(&mut self, arg: &str) -> Result<()> {
        let (key, value) = arg.split_once(char::is_whitespace).map_or((arg, ""), |(k, v)| (k, v.trim()));
        let number = |v: &str| v.parse::<u64>().map_err(|_| anyhow!("INFO {key}: '{v}' is not a whole number"));
        match key.to_ascii_lowercase().as_str() {
            "timeout_turn" => self.timeout_turn = Some(number(value)?),
            "timeout_match" => self.timeout_match = Some(number(value)?),
            "time_left" => {
                self.time_left = Some(value.parse().map_err(|_| anyhow!("INFO time_left: '{value}' is not a number"))?)
            }
            "max_memory" => {
                let bytes = number(value)?;
                // The engine takes up to three times its hash: the tables (the hash), a board
                // (up to the hash, two copies) and a second board while one replaces the other
                // or a move's copies of it; the process the rest. 0: no limit.
                let mb = match bytes {
                    0 => self.hash_mb,
                    _ => self.hash_mb.min(((bytes >> 20).saturating_sub(PROCESS_MIB) / 3).max(1) as usize),
                };
                if mb != self.engine.options().hash_mb {
                    self.engine.set_value("hash", crate::bot::Value::Number(mb as u64))?;
                }
            }
            "rule" => {
                self.rule = u32::try_from(number(value)?).map_err(|_| anyhow!("INFO rule: '{value}' is too large"))?;
                if let Some(e) = rule_error(self.rule) {
                    bail!(e);
                }
            }
            // game_type, folder, evaluate, and keys not known: ignored.
            _ => {}
        }
        Ok(())
    }

    /// The time this move may take: `timeout_turn`, and at most 1/MOVES_TO_GO of the match time
    /// left when that is limited. The engine keeps its safety margin free of it.
    fn move_timeout(&self) -> Duration {
        self.move_time().0
    }

    /// [`Session::move_timeout`], and whether the match time (a clock) limits it.
    fn move_time(&self) -> (Duration, bool) {
        let margin = self.engine.options().margin.as_millis() as u64;
        let turn = match self.timeout_turn.unwrap_or(DEFAULT_TURN_MS) {
            0 => margin + FAST_MS,
            t => t,
        };
        let share = match (self.timeout_match, self.time_left) {
            (Some(0), _) | (_, None) => u64::MAX,
            (_, Some(left)) if left >= UNLIMITED_MS => u64::MAX,
            (_, Some(left)) => left.max(0) as u64 / MOVES_TO_GO,
        };
        (Duration::from_millis(turn.min(share)), share < turn)
    }

    fn our_move(&mut self, start: Instant, stop: &Arc<AtomicBool>) -> Result<String> {
        match self.move_time() {
            (budget, true) => self.engine.set_clock_budget(budget),
            (timeout, false) => self.engine.set_timeout(timeout),
        }
        let text = self.engine.think(start, stop.clone())?.moves.join(" ");
        let (x, y) = match text.split_whitespace().map(str::parse::<usize>).collect::<Vec<_>>()[..] {
            [Ok(row), Ok(col)] => (col, row),
            _ => bail!("internal error: the engine's move '{text}' is not a cell"),
        };
        self.moves.push((x, y));
        Ok(format!("{x},{y}"))
    }
}

fn reply(result: Result<String>) -> String {
    result.unwrap_or_else(|e| format!("ERROR {e}"))
}

/// Free-style gomoku on a `width` x `height` board with `blocked` cells (row, col): the m,n,k
/// game with K = 5, as the registry reads it.
/// A board taking more than `board_limit_mib` MiB (0: no limit) is refused before it is made.
fn spec(width: usize, height: usize, blocked: Vec<(usize, usize)>, board_limit_mib: usize) -> Result<GameSpec> {
    let mut text = format!("mnk {height} {width} {K}");
    if !blocked.is_empty() {
        text.push_str(" blocked");
        for (r, c) in blocked {
            text.push_str(&format!(" {r},{c}"));
        }
    }
    GameSpec::from_words_within(&text.split_whitespace().collect::<Vec<_>>(), board_limit_mib)
}

/// The engine's text of a cell: `ROW COL`.
fn cell_text((x, y): Xy) -> String {
    format!("{y} {x}")
}

/// Why `rule` cannot be played, if it cannot: every rule but free-style (0). Exactly five is
/// among them: in the m,n,k rules a line longer than five wins too.
fn rule_error(rule: u32) -> Option<String> {
    if rule == 0 {
        return None;
    }
    let mut names: Vec<String> =
        RULE_BITS.iter().filter(|(bit, _)| rule & bit != 0).map(|(_, name)| name.to_string()).collect();
    if rule & !15 != 0 {
        names.push(format!("unknown bits {}", rule & !15));
    }
    Some(format!(
        "rule {rule} ({}) is not supported: boardbot plays free-style gomoku only (rule 0, five or more in a row wins)",
        names.join(", ")
    ))
}

/// A 0-based number: digits only.
fn index(text: &str) -> Option<usize> {
    let t = text.trim();
    (!t.is_empty() && t.bytes().all(|b| b.is_ascii_digit())).then(|| t.parse().ok()).flatten()
}

/// `X,Y`.
fn parse_xy(text: &str) -> Result<Xy> {
    match text.split(',').map(index).collect::<Vec<_>>()[..] {
        [Some(x), Some(y)] => Ok((x, y)),
        _ => Err(anyhow!("expected X,Y (two numbers from 0), got '{text}'")),
    }
}

/// A line `X,Y,FIELD` of a BOARD block: FIELD 1 is our stone, 2 the opponent's, 3 a cell out of
/// play (continuous games), played as a blocked cell.
fn parse_stone(line: &str) -> Result<Stone> {
    match line.split(',').map(index).collect::<Vec<_>>()[..] {
        [Some(x), Some(y), Some(f @ 1..=3)] => Ok((x, y, f as u8)),
        _ => Err(anyhow!("BOARD: expected X,Y,FIELD with FIELD 1, 2 or 3, got '{line}'")),
    }
}

/// a[0], b[0], a[1], b[1], ...: the moves of the side that moved first, `a`, and of the other.
fn interleave(a: Vec<Xy>, b: Vec<Xy>) -> Vec<Xy> {
    let mut b = b.into_iter();
    let mut out = Vec::new();
    for cell in a {
        out.push(cell);
        out.extend(b.next());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_and_stones() {
        assert_eq!(parse_xy("3,4").unwrap(), (3, 4));
        assert_eq!(parse_xy(" 10 , 0 ").unwrap(), (10, 0));
        for bad in ["", "3", "3,4,5", "-1,2", "a,b", "3 4", "+3,4"] {
            assert!(parse_xy(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_stone("1,2,3").unwrap(), (1, 2, 3));
        for bad in ["1,2", "1,2,0", "1,2,4", "x,2,1", "1,2,1,1"] {
            assert!(parse_stone(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn stones_are_interleaved_from_the_first_player() {
        assert_eq!(
            interleave(vec![(0, 0), (1, 1), (2, 2)], vec![(5, 5), (6, 6)]),
            [(0, 0), (5, 5), (1, 1), (6, 6), (2, 2)]
        );
        assert_eq!(interleave(vec![], vec![]), []);
    }

    #[test]
    fn only_free_style_is_played() {
        assert_eq!(rule_error(0), None);
        for (rule, name) in [(1, "exactly five"), (2, "continuous"), (4, "renju"), (8, "caro"), (16, "unknown bits 16")]
        {
            assert!(rule_error(rule).unwrap().contains(name), "{rule}");
        }
    }

    #[test]
    fn move_time_from_info() {
        let mut s = Session::new(Engine::new(Default::default()));
        let ms = |s: &Session| s.move_timeout().as_millis() as u64;
        assert_eq!(ms(&s), DEFAULT_TURN_MS);
        s.timeout_turn = Some(2000);
        s.time_left = Some(100_000);
        assert_eq!(ms(&s), 2000);
        s.time_left = Some(20_000);
        assert_eq!(ms(&s), 1000, "1/20 of the match time left");
        s.time_left = Some(-5);
        assert_eq!(ms(&s), 0);
        s.time_left = Some(UNLIMITED_MS);
        assert_eq!(ms(&s), 2000);
        s.time_left = Some(1000);
        s.timeout_match = Some(0);
        assert_eq!(ms(&s), 2000, "timeout_match 0: no match limit");
        s.timeout_turn = Some(0);
        assert_eq!(ms(&s), 100 + FAST_MS, "as fast as possible: the margin and a short search");
    }

    #[test]
    fn max_memory_only_lowers_the_table() {
        let mut s = Session::new(Engine::new(Default::default()));
        let hash = |s: &Session| s.engine.options().hash_mb;
        assert_eq!(hash(&s), 64);
        s.info("max_memory 83886080").unwrap();
        assert_eq!(hash(&s), 23, "a third of 80 MiB less the process's 9");
        s.info("max_memory 1000").unwrap();
        assert_eq!(hash(&s), 1);
        s.info("max_memory 0").unwrap();
        assert_eq!(hash(&s), 64, "no limit: the size the engine started with");
        s.info("max_memory 1073741824").unwrap();
        assert_eq!(hash(&s), 64);
        assert!(s.info("max_memory lots").is_err());
        s.info("folder /tmp/some folder").unwrap();
        s.info("whatever 1").unwrap();
    }
}
