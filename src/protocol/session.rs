//! The session loop. A reader thread takes each line off the input with the instant it was read
//! (a move's time budget counts from then) and raises the stop flag on `quit` or end of input, so
//! that a running search ends at once.

use super::command::{parse, Command};
use crate::bot::{Engine, NAME, VERSION};
use crate::game::{Outcome, Side};
use std::io::{BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Instant;

enum Input {
    Line(String, Instant),
    /// `quit` or end of input.
    End,
}

/// Serves the protocol on `input`/`output` until `quit` or end of input.
pub fn serve<R, W>(input: R, mut output: W, mut engine: Engine) -> anyhow::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write,
{
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel();
    let reader_stop = stop.clone();
    std::thread::spawn(move || {
        for line in input.lines() {
            let Ok(line) = line else { break };
            if line.trim().eq_ignore_ascii_case("quit") {
                break;
            }
            if tx.send(Input::Line(line, Instant::now())).is_err() {
                return;
            }
        }
        reader_stop.store(true, Ordering::SeqCst);
        let _ = tx.send(Input::End);
    });
    while let Ok(Input::Line(line, start)) = rx.recv() {
        log::debug!("<< {line}");
        let reply = match catch_unwind(AssertUnwindSafe(|| handle(&mut engine, &line, start, &stop))) {
            Ok(Ok(Some(reply))) => reply,
            Ok(Ok(None)) => continue,
            Ok(Err(e)) => format!("error {e}"),
            Err(_) => "error internal error (see stderr); the game is unchanged".to_string(),
        };
        log::debug!(">> {reply}");
        writeln!(output, "{reply}")?;
        output.flush()?;
    }
    Ok(())
}

fn handle(engine: &mut Engine, line: &str, start: Instant, stop: &Arc<AtomicBool>) -> Result<Option<String>, String> {
    let Some(cmd) = parse(line)? else { return Ok(None) };
    let reply = match cmd {
        Command::Init { spec, first, timeout } => {
            engine.new_game(spec, first, timeout)?;
            "ok".to_string()
        }
        Command::Go => engine.think(start, stop.clone())?,
        Command::Move(mv) => {
            engine.opponent_move(&mv)?;
            match engine.outcome() {
                Some(outcome) => end_text(outcome),
                None if engine.is_engine_turn() => engine.think(start, stop.clone())?,
                None => "ok".to_string(),
            }
        }
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
            "about {NAME} {VERSION}: m,n,k-games and Connect-X by iterative-deepening alpha-beta ({})",
            env!("CARGO_PKG_LICENSE")
        ),
        Command::Quit => unreachable!("the reader ends the session on quit"),
    };
    Ok(Some(reply))
}

fn end_text(outcome: Outcome) -> String {
    match outcome {
        Outcome::Win(Side::First) => "end first wins".into(),
        Outcome::Win(Side::Second) => "end second wins".into(),
        Outcome::Draw => "end draw".into(),
    }
}
