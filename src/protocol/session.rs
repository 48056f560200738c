//! The session loop. A reader thread takes each line off the input with the instant it was read
//! (a move's time budget counts from then) and raises the stop flag on `quit` or end of input, so
//! that a running search ends at once. The Gomocup session ([`super::gomocup`]) shares the reader.

use super::command::{parse_within, Command};
use crate::bot::{Engine, NAME, VERSION};
use crate::game::{Outcome, Side};
use anyhow::Result;
use std::io::{BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Instant;

pub(super) enum Input {
    Line(String, Instant),
    /// A line that cannot be a command: answered with this error.
    Bad(&'static str),
    /// The quit command or end of input.
    End,
}

/// The input side of a session, read by its own thread.
pub(super) struct Reader {
    pub lines: mpsc::Receiver<Input>,
    /// Raised on the quit command or at end of input: a running search stops at once.
    pub stop: Arc<AtomicBool>,
    /// Raised on the quit command (not at end of input), before `stop`.
    pub quit: Arc<AtomicBool>,
}

impl Reader {
    /// Starts the reader thread; `is_quit` tells the quit command (which is not passed on).
    pub fn spawn<R: BufRead + Send + 'static>(input: R, is_quit: fn(&str) -> bool) -> Reader {
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, lines) = mpsc::channel();
        let quit = Arc::new(AtomicBool::new(false));
        let (reader_stop, reader_quit) = (stop.clone(), quit.clone());
        std::thread::spawn(move || {
            let mut input = input;
            while let Some(line) = read_line(&mut input) {
                let item = match line {
                    Ok(line) if is_quit(&line) => {
                        reader_quit.store(true, Ordering::SeqCst);
                        break;
                    }
                    Ok(line) => Input::Line(line, Instant::now()),
                    Err(reason) => Input::Bad(reason),
                };
                if tx.send(item).is_err() {
                    return;
                }
            }
            reader_stop.store(true, Ordering::SeqCst);
            let _ = tx.send(Input::End);
        });
        Reader { lines, stop, quit }
    }
}

/// Longest line read; the rest of a longer one is skipped.
const MAX_LINE: usize = 1 << 20;

/// Reads one line of at most MAX_LINE bytes (without its newline); `None` at end of input.
fn read_line(input: &mut impl BufRead) -> Option<Result<String, &'static str>> {
    let mut bytes = Vec::new();
    let mut too_long = false;
    loop {
        let buf = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return None,
        };
        if buf.is_empty() {
            if bytes.is_empty() && !too_long {
                return None;
            }
            break;
        }
        let (chunk, found) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        if bytes.len() + chunk.len() > MAX_LINE {
            too_long = true;
        } else {
            bytes.extend_from_slice(chunk);
        }
        let used = found.unwrap_or(buf.len());
        input.consume(used);
        if found.is_some() {
            break;
        }
    }
    if too_long {
        return Some(Err("line too long"));
    }
    Some(String::from_utf8(bytes).map_err(|_| "line is not valid UTF-8"))
}

/// Serves the protocol on `input`/`output` until `quit` or end of input.
pub fn serve<R, W>(input: R, mut output: W, mut engine: Engine) -> Result<()>
where
    R: BufRead + Send + 'static,
    W: Write,
{
    // The tables are made before the first line is read: no `init` pays for them.
    engine.prepare();
    let Reader { lines: rx, stop, .. } = Reader::spawn(input, |line| line.trim().eq_ignore_ascii_case("quit"));
    loop {
        let (line, start) = match rx.recv() {
            Ok(Input::Line(line, start)) => (line, start),
            Ok(Input::Bad(reason)) => {
                writeln!(output, "error {reason}")?;
                output.flush()?;
                continue;
            }
            Ok(Input::End) | Err(_) => break,
        };
        log::debug!("<< {line}");
        let reply = match catch_unwind(AssertUnwindSafe(|| handle(&mut engine, &line, start, &stop))) {
            Ok(Ok(Some(reply))) => reply,
            Ok(Ok(None)) => continue,
            Ok(Err(e)) => format!("error {}", shortened(&e.to_string())),
            Err(_) => "error internal error (see stderr); the game is unchanged".to_string(),
        };
        writeln!(output, "{reply}")?;
        output.flush()?;
        engine.reply_written();
        // When the reply left, from the instant its line was read: beside the search's own
        // `time` in the log, what ran between the stop and the reply (docs/results/stalls.md).
        log::debug!(">> {reply} ({:.1} ms after the line was read)", start.elapsed().as_secs_f64() * 1e3);
    }
    Ok(())
}

fn handle(engine: &mut Engine, line: &str, start: Instant, stop: &Arc<AtomicBool>) -> Result<Option<String>> {
    let Some(cmd) = parse_within(line, engine.board_limit_mib())? else { return Ok(None) };
    let reply = match cmd {
        Command::Init { spec, first, timeout } => {
            engine.new_game(&spec, first, timeout)?;
            "ok".to_string()
        }
        Command::Go => engine.think(start, stop.clone())?.moves.join(" "),
        Command::Move(mv) => {
            engine.opponent_move(&mv)?;
            match engine.outcome() {
                Some(outcome) => end_text(outcome),
                None if engine.is_engine_turn() => engine.think(start, stop.clone())?.moves.join(" "),
                None => "ok".to_string(),
            }
        }
        Command::Help => help(),
        Command::Position(words) => {
            let words: Vec<&str> = words.iter().map(|s| s.as_str()).collect();
            engine.set_position(&words)?;
            "ok".to_string()
        }
        Command::Set { key, value } => {
            engine.set_option(&key, &value)?;
            "ok".to_string()
        }
        Command::Name => format!("name {NAME} {VERSION}"),
        Command::About => format!(
            "about {NAME} {VERSION}: {} by iterative-deepening alpha-beta and exact solvers ({})",
            crate::game::registry::GAMES.iter().map(|t| t.name).collect::<Vec<_>>().join(", "),
            env!("CARGO_PKG_LICENSE")
        ),
        Command::Quit => unreachable!("the reader ends the session on quit"),
    };
    Ok(Some(reply))
}

/// The reply to `help`: the commands and every game of the registry, on one line (every command
/// gets one reply line).
fn help() -> String {
    format!(
        "help: init [GAME] SIZE... FIRST TIMEOUT [OPTIONS] | go | move MV | position [MV ...] | \
set KEY VALUE ({}) | name | about | help | quit; games: {}; see protocol.md",
        crate::bot::option_names(),
        crate::game::registry::usages()
    )
}

/// Longest reason in an `error` reply, in characters: a reply never echoes a long line whole.
const MAX_REASON: usize = 200;

/// `reason`, cut to MAX_REASON characters.
fn shortened(reason: &str) -> String {
    match reason.char_indices().nth(MAX_REASON) {
        Some((i, _)) => format!("{}...", &reason[..i]),
        None => reason.to_string(),
    }
}

fn end_text(outcome: Outcome) -> String {
    match outcome {
        Outcome::Win(Side::First) => "end first wins".into(),
        Outcome::Win(Side::Second) => "end second wins".into(),
        Outcome::Draw => "end draw".into(),
    }
}
