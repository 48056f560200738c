//! `boardbot annotate FILE --ms N`: a game record (any format [`crate::game::record`] reads)
//! written back with the engine's view of each move, as CheckerBoard and lichess annotate: the
//! evaluation after the move (from the mover's view, or the proved result), the engine's move
//! where it differs, and the marks of the page's evaluation graph: `?!`, `?`, `??` where the
//! evaluation bar (-1 to 1, [`Opinion::bar`]) fell by 0.15, 0.3, 0.5 or more, or a proved result
//! was lost (`??`). Checkers comes back as PDN with the notes as comments and the marks glued
//! to the moves; the other games in boardbot's own format with `#` note lines (psq and column
//! strings carry no notes). Either loads in the page and in `boardbot play`.
//!
//! Each position is searched afresh for `--ms` milliseconds by the full engine (solvers and
//! endgame databases included, so their values are proofs), at one thread.

use crate::bot::{Engine, Options};
use crate::game::any::GameRecordText;
use crate::game::render::Opinion;
use crate::game::{Outcome, Side};
use crate::referee::progress::Progress;
use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Writes a game back with the engine's evaluation and marks for each move.
#[derive(Args, Clone, Debug)]
pub struct AnnotateArgs {
    /// The game record: PDN, psq, a Connect-4 column string or boardbot's own text.
    #[arg(value_name = "GAME_FILE")]
    file: PathBuf,
    /// Milliseconds of search for each position.
    #[arg(long, default_value_t = 1000)]
    ms: u64,
    /// Where to write the annotated game (standard output by default).
    #[arg(long, short, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Memory for the engine's tables, MiB.
    #[arg(long, default_value_t = 256)]
    hash: usize,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

/// The marks by how far the bar fell (the page's graph's thresholds).
const MARKS: [(f64, &str); 3] = [(0.5, "??"), (0.3, "?"), (0.15, "?!")];

/// The mark of a move after which the mover's bar went from `before` to `after`.
pub fn mark(before: f64, after: f64) -> Option<&'static str> {
    let proven_lost = (before >= 1.0 && after < 1.0) || (after <= -1.0 && before > -1.0);
    if proven_lost {
        return Some("??");
    }
    MARKS.iter().find(|(t, _)| before - after >= *t).map(|m| m.1)
}

/// An opinion in a note's words, from the mover's view.
fn opinion_words(op: &Opinion) -> String {
    match op {
        Opinion::Win { moves: Some(n), .. } => format!("wins in {n}, proven"),
        Opinion::Win { .. } => "wins, proven".into(),
        Opinion::Loss { moves: Some(n), .. } => format!("loses in {n}, proven"),
        Opinion::Loss { .. } => "loses, proven".into(),
        Opinion::Draw => "draw, proven".into(),
        Opinion::Estimate { advantage } => format!("{advantage:+.2}"),
    }
}

pub fn run(args: AnnotateArgs) -> Result<()> {
    if !(10..=3_600_000).contains(&args.ms) {
        bail!("--ms must be 10 to 3600000");
    }
    let bytes = std::fs::read(&args.file).with_context(|| format!("cannot read {}", args.file.display()))?;
    let text = String::from_utf8(bytes).map_err(|_| anyhow!("{}: not a text file", args.file.display()))?;
    let (spec, moves) = crate::game::record::import(&text).map_err(|e| anyhow!("{}: {e}", args.file.display()))?;
    let options = Options { hash_mb: args.hash, threads: 1, ..Options::default() };
    let mut engine = Engine::new(options);
    let timeout = Duration::from_millis(args.ms);
    // The opinion of each position from its side to move's view, and the engine's move there.
    let mut seen: Vec<(Side, Option<Opinion>, Option<String>)> = Vec::with_capacity(moves.len() + 1);
    let progress = Progress::new(moves.len() + 1, args.quiet, true);
    for ply in 0..=moves.len() {
        engine.new_game(&spec, true, timeout)?;
        let words: Vec<&str> = moves[..ply].iter().flat_map(|m| m.split_whitespace()).collect();
        engine.set_position(&words)?;
        let game = engine.game().ok_or_else(|| anyhow!("no game"))?;
        let mover = game.to_move();
        if game.outcome().is_some() {
            let op = match game.outcome() {
                Some(Outcome::Win(s)) if s == mover => Opinion::Win { moves: None, margin: None },
                Some(Outcome::Win(_)) => Opinion::Loss { moves: None, margin: None },
                _ => Opinion::Draw,
            };
            seen.push((mover, Some(op), None));
            continue;
        }
        let turn = engine.think(Instant::now(), Arc::new(AtomicBool::new(false)))?;
        let best = engine.game().map(|g| g.human_history()[ply..].join(" "));
        seen.push((mover, turn.thought.and_then(|t| t.opinion), best));
        progress.game(ply + 1, &format!("position {} of {}", ply + 1, moves.len() + 1));
    }
    progress.finish();
    // The played moves as people write them.
    engine.new_game(&spec, true, timeout)?;
    let words: Vec<&str> = moves.iter().flat_map(|m| m.split_whitespace()).collect();
    engine.set_position(&words)?;
    let game = engine.game().ok_or_else(|| anyhow!("no game"))?;
    let human = game.human_history();
    let mut noted = moves.clone();
    let mut notes = Vec::with_capacity(moves.len());
    let mut marked = 0;
    for (i, played) in human.iter().enumerate() {
        let (mover, before, best) = &seen[i];
        // The position after the move from the mover's view: the next opinion said (a forced
        // reply is played without a search, and says none).
        let after = seen[i + 1..]
            .iter()
            .find_map(|(side, op, _)| op.as_ref().map(|op| if side == mover { op.clone() } else { op.flipped() }));
        let mut note = after.as_ref().map(opinion_words).unwrap_or_default();
        if let Some(best) = best.as_ref().filter(|b| !b.is_empty() && *b != played) {
            note = match note.is_empty() {
                true => format!("best {best}"),
                false => format!("{note}; best {best}"),
            };
        }
        if let (Some(b), Some(a)) = (before, &after) {
            if let Some(m) = mark(b.bar(), a.bar()) {
                marked += 1;
                note = format!("{m} {note}");
                if spec.kind().format.is_some_and(|f| f.notes) {
                    noted[i] = format!("{}{m}", moves[i]);
                }
            }
        }
        notes.push(note);
    }
    let result = crate::game::record::result_text(game.outcome());
    let record = GameRecordText {
        event: format!("boardbot annotate, {} ms a position", args.ms),
        number: 1,
        players: game.side_names().map(str::to_string),
        moves: noted,
        result: result.into(),
        reason: game.human_end_reason().unwrap_or_default(),
        notes,
    };
    let (_, text) = crate::game::record::export(game, &record);
    match &args.out {
        Some(path) => std::fs::write(path, &text).with_context(|| format!("cannot write {}", path.display()))?,
        None => print!("{text}"),
    }
    eprintln!("{} moves annotated, {marked} marked ?!, ? or ??", moves.len());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_follow_the_pages_thresholds() {
        assert_eq!(mark(0.2, 0.1), None);
        assert_eq!(mark(0.2, 0.05), Some("?!"));
        assert_eq!(mark(0.2, -0.1), Some("?"));
        assert_eq!(mark(0.2, -0.3), Some("??"));
        assert_eq!(mark(1.0, 0.9), Some("??"), "a proven win lost");
        assert_eq!(mark(0.0, -1.0), Some("??"), "into a proven loss");
        assert_eq!(mark(-1.0, -1.0), None);
    }
}
