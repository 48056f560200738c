//! The progress of a match, on stderr: a bar with an estimate of the time left when stderr is a
//! terminal, else one plain line per finished game (readable in a log file); nothing when quiet.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressFinish, ProgressStyle};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// The bar: elapsed time, the bar, games done, and indicatif's estimate of the time left.
const BAR_TEMPLATE: &str = "[{elapsed_precise}] {wide_bar} {pos}/{len} games, about {eta} left";
/// The bar before the first game has finished, when there is no pace to estimate from yet.
const FIRST_BAR_TEMPLATE: &str = "[{elapsed_precise}] {wide_bar} {pos}/{len} games";

/// How the progress is shown.
pub enum Progress {
    /// Nothing.
    Quiet,
    /// One line per game: `[done/total elapsed, about X left] game line`.
    Lines { started: Instant, total: usize },
    /// A bar kept at the bottom of the terminal, with each game's line printed above it.
    Bar(ProgressBar),
}

impl Progress {
    /// The display for a match of `total` games: none if `quiet`, the bar if `bar_allowed` and
    /// stderr is a terminal, else plain lines.
    pub fn new(total: usize, quiet: bool, bar_allowed: bool) -> Progress {
        if quiet {
            Progress::Quiet
        } else if bar_allowed && std::io::stderr().is_terminal() {
            Progress::Bar(bar(total))
        } else {
            Progress::Lines { started: Instant::now(), total }
        }
    }

    /// A game finished (the `done`-th); `line` describes it.
    pub fn game(&self, done: usize, line: &str) {
        match self {
            Progress::Quiet => {}
            Progress::Lines { started, total } => eprintln!("{}", plain_line(done, *total, started.elapsed(), line)),
            Progress::Bar(bar) => {
                bar.println(line);
                if done == 1 {
                    bar.set_style(style(BAR_TEMPLATE));
                }
                bar.set_position(done as u64);
            }
        }
    }

    /// Takes the bar off the terminal, before the results are printed.
    pub fn finish(&self) {
        if let Progress::Bar(bar) = self {
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
    }
}
