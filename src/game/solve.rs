//! What the games' `boardbot solve` share: reading positions a line at a time, printing each
//! one's result with its nodes and time, and the means at the end.

use super::any::SolveRequest;
use anyhow::{anyhow, bail, Context, Result};
use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

/// One position's line of output: its text up to the nodes, the nodes, the solve's time, and
/// whether it disagreed with its expected value.
pub struct Solved {
    pub text: String,
    pub nodes: u64,
    pub time: Duration,
    pub wrong: bool,
}

/// The value's text, checked against `expected`.
pub fn checked(value: i32, expected: Option<i32>) -> (String, bool) {
    match expected {
        Some(e) if e != value => (format!("{value} WRONG (expected {e})"), true),
        _ => (value.to_string(), false),
    }
}

/// The deadline of one position's solve, from `request.limit`.
pub fn deadline(request: &SolveRequest) -> Option<Instant> {
    request.limit.map(|s| Instant::now() + Duration::from_secs_f64(s))
}

/// `secs` in the unit that suits it: `53.3 us`, `12.5 ms`, `7.94 s`.
pub fn duration_text(secs: f64) -> String {
    if secs < 1e-3 {
        format!("{:.1} us", secs * 1e6)
    } else if secs < 1.0 {
        format!("{:.1} ms", secs * 1e3)
    } else {
        format!("{secs:.2} s")
    }
}

/// Reads the positions of `request.file` (or stdin) a line at a time, prints each one's result
/// from `solve_line` (None: a blank line, skipped) and at the end the means; fails if any
/// disagreed with its expected value.
pub fn drive(request: &SolveRequest, mut solve_line: impl FnMut(&str) -> Result<Option<Solved>>) -> Result<()> {
    let input: Box<dyn BufRead> = match &request.file {
        Some(p) if p.as_os_str() != "-" => Box::new(std::io::BufReader::new(
            std::fs::File::open(p).with_context(|| format!("opening {}", p.display()))?,
        )),
        _ => Box::new(std::io::stdin().lock()),
    };
    let mut out = std::io::stdout().lock();
    let (mut count, mut total_nodes, mut total_time, mut wrong) = (0u64, 0u64, Duration::ZERO, 0u64);
    for (n, line) in input.lines().enumerate() {
        let line = line?;
        let Some(solved) = solve_line(&line).map_err(|e| anyhow!("line {}: {e}", n + 1))? else { continue };
        writeln!(out, "{} nodes {} time {}", solved.text, solved.nodes, duration_text(solved.time.as_secs_f64()))?;
        out.flush()?;
        count += 1;
        total_nodes += solved.nodes;
        total_time += solved.time;
        wrong += solved.wrong as u64;
    }
    if count > 0 {
        writeln!(
            out,
            "positions {count} mean time {} mean nodes {:.0} wrong {wrong}",
            duration_text(total_time.as_secs_f64() / count as f64),
            total_nodes as f64 / count as f64
        )?;
    }
    if wrong > 0 {
        bail!("{wrong} position(s) disagree with their expected score");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn durations_in_the_unit_that_suits_them() {
        assert_eq!(super::duration_text(53.3e-6), "53.3 us");
        assert_eq!(super::duration_text(0.0125), "12.5 ms");
        assert_eq!(super::duration_text(7.9444005), "7.94 s");
    }
}
