//! The progress of a match (or of self-play), on stderr: a bar with an estimate of the time left
//! when stderr is a terminal, else one plain line per finished game (readable in a log file);
//! nothing when quiet. An SPRT's bar shows instead where its log-likelihood ratio stands between
//! the bounds, with its value, the bounds and the pairs played.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressFinish, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The bar: elapsed time, the bar, games done, and indicatif's estimate of the time left.
const BAR_TEMPLATE: &str = "[{elapsed_precise}] {wide_bar} {pos}/{len} games, about {eta} left";
/// The bar before the first game has finished, when there is no pace to estimate from yet.
const FIRST_BAR_TEMPLATE: &str = "[{elapsed_precise}] {wide_bar} {pos}/{len} games";
/// An SPRT's bar: the LLR's place between the lower bound (H0, left) and the upper one (H1,
/// right), then the message (the LLR, its bounds and the pairs).
const SPRT_TEMPLATE: &str = "[{elapsed_precise}] H0 {bar:40} H1 {msg}";
/// Steps of an SPRT's bar.
const SPRT_STEPS: u64 = 1000;

/// How the progress is shown.
pub enum Progress {
    /// Nothing.
    Quiet,
    /// One line per game: `[done/total elapsed, about X left] game line`, then the status if
    /// there is one (` | LLR ...`); with no total (an SPRT) neither the total nor the estimate.
    Lines { started: Instant, total: Option<usize>, status: Mutex<String> },
    /// A bar kept at the bottom of the terminal, with each game's line printed above it; an
    /// SPRT's bar (`sprt`) is positioned by [`Progress::status`], not by the games.
    Bar { bar: ProgressBar, sprt: bool },
}

impl Progress {
    /// The display for a match of `total` games: none if `quiet`, the bar if `bar_allowed` and
    /// stderr is a terminal, else plain lines.
    pub fn new(total: usize, quiet: bool, bar_allowed: bool) -> Progress {
        if quiet {
            Progress::Quiet
        } else if bar_allowed && std::io::stderr().is_terminal() {
            Progress::Bar { bar: bar(total), sprt: false }
        } else {
            Progress::Lines { started: Instant::now(), total: Some(total), status: Mutex::default() }
        }
    }

    /// The display of an SPRT: its bar shows the LLR between its bounds; `status` is the first
    /// message.
    pub fn sprt(status: &str, quiet: bool, bar_allowed: bool) -> Progress {
        if quiet {
            Progress::Quiet
        } else if bar_allowed && std::io::stderr().is_terminal() {
            let bar = ProgressBar::with_draw_target(Some(SPRT_STEPS), ProgressDrawTarget::stderr())
                .with_style(style(SPRT_TEMPLATE))
                .with_finish(ProgressFinish::AndClear);
            bar.set_position(SPRT_STEPS / 2);
            bar.set_message(status.to_string());
            bar.enable_steady_tick(Duration::from_secs(1));
            Progress::Bar { bar, sprt: true }
        } else {
            Progress::Lines { started: Instant::now(), total: None, status: Mutex::new(status.to_string()) }
        }
    }

    /// A game finished (the `done`-th); `line` describes it.
    pub fn game(&self, done: usize, line: &str) {
        match self {
            Progress::Quiet => {}
            Progress::Lines { started, total, status } => {
                let status = status.lock().unwrap_or_else(|e| e.into_inner());
                let line = if status.is_empty() { line.to_string() } else { format!("{line} | {status}") };
                let elapsed = started.elapsed();
                match total {
                    Some(total) => eprintln!("{}", plain_line(done, *total, elapsed, &line)),
                    None => eprintln!("[{done} {}] {line}", clock(elapsed)),
                }
            }
            Progress::Bar { bar, sprt } => {
                bar.println(line);
                if !sprt {
                    if done == 1 {
                        bar.set_style(style(BAR_TEMPLATE));
                    }
                    bar.set_position(done as u64);
                }
            }
        }
    }

    /// The state of the test: `text`, and for an SPRT's bar the LLR's place between the bounds
    /// (0: at the lower, 1: at the upper).
    pub fn status(&self, text: &str, place: f64) {
        match self {
            Progress::Quiet => {}
            Progress::Lines { status, .. } => *status.lock().unwrap_or_else(|e| e.into_inner()) = text.to_string(),
            Progress::Bar { bar, sprt } => {
                bar.set_message(text.to_string());
                if *sprt {
                    bar.set_position((place.clamp(0.0, 1.0) * SPRT_STEPS as f64).round() as u64);
                }
            }
        }
    }

    /// Takes the bar off the terminal, before the results are printed.
    pub fn finish(&self) {
        if let Progress::Bar { bar, .. } = self {
            bar.finish_and_clear();
        }
    }
}

fn style(template: &str) -> ProgressStyle {
    ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar())
}

fn bar(total: usize) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr())
        .with_style(style(FIRST_BAR_TEMPLATE))
        .with_finish(ProgressFinish::AndClear);
    // Redraw every second, so that the clock runs during long games.
    bar.enable_steady_tick(Duration::from_secs(1));
    bar
}

/// A plain progress line: `[done/total elapsed, about X left] line`. The estimate assumes the
/// games left take as long as the games so far on average; boards differ, so it is only a guide.
pub fn plain_line(done: usize, total: usize, elapsed: Duration, line: &str) -> String {
    let left = elapsed.mul_f64(total.saturating_sub(done) as f64 / done.max(1) as f64);
    format!("[{done}/{total} {}, about {} left] {line}", clock(elapsed), clock(left))
}

/// A duration as `1h02m`, `3m05s` or `12s`.
pub fn clock(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m{:02}s", s / 60, s % 60),
        _ => format!("{}h{:02}m", s / 3600, s % 3600 / 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_text() {
        assert_eq!(clock(Duration::from_secs(12)), "12s");
        assert_eq!(clock(Duration::from_secs(185)), "3m05s");
        assert_eq!(clock(Duration::from_secs(3720)), "1h02m");
    }

    #[test]
    fn plain_lines_estimate_the_time_left_from_the_pace() {
        let line = plain_line(3, 12, Duration::from_secs(60), "game 3 ...");
        assert_eq!(line, "[3/12 1m00s, about 3m00s left] game 3 ...");
        assert_eq!(plain_line(12, 12, Duration::from_secs(5), "x"), "[12/12 5s, about 0s left] x");
    }

    #[test]
    fn the_bar_templates_are_valid() {
        assert!(ProgressStyle::with_template(BAR_TEMPLATE).is_ok());
        assert!(ProgressStyle::with_template(FIRST_BAR_TEMPLATE).is_ok());
        assert!(ProgressStyle::with_template(SPRT_TEMPLATE).is_ok());
    }
}
