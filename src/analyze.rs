//! `boardbot analyze`: the search algorithms compared on one position of any game, depth by
//! depth, as the course reports compare them: nodes, time, score, best move and principal
//! variation; a table of nodes with their ratio to plain minimax; an SVG chart for reports. The
//! games' exact solvers and endgame databases are left out, so that the node counts are the same
//! on every run.

use crate::game::any::AnyGame;
use crate::game::players::{Algorithm, Analysis};
use crate::game::registry::{GameSpec, Resources};
use anyhow::{anyhow, bail, Result};
use std::fmt::Write as _;
use std::time::Duration;

/// `boardbot analyze GAME [--position MOVES | --fen FEN] [--depth D] [--algorithm A ...]`.
#[derive(clap::Args, Clone, Debug)]
pub struct AnalyzeArgs {
    /// The game as the registry writes it (`mnk 3 3 3`, `kalah 6 3`, `checkers english`).
    #[arg(value_name = "GAME", required = true)]
    pub game: Vec<String>,
    /// The moves from the start to the position analysed, in move text, separated by spaces.
    #[arg(long, value_name = "MOVES")]
    pub position: Option<String>,
    /// The position as the game's FEN (games with a `fen` option: checkers).
    #[arg(long, value_name = "FEN")]
    pub fen: Option<String>,
    /// Every depth from 1 to this, in plies (an extra turn is a ply of the same side).
    #[arg(long, default_value_t = 6)]
    pub depth: u32,
    /// The algorithms, in the order of the columns (repeat the flag or separate by commas):
    /// minimax, alphabeta, ordered, table, symmetric, full. All by default.
    #[arg(long = "algorithm", value_delimiter = ',')]
    pub algorithms: Vec<Algorithm>,
    /// An algorithm stops before a depth whose search it estimates would take longer than this
    /// many seconds (the last time times the last growth of the node count), and says so.
    #[arg(long, default_value_t = 10.0)]
    pub max_time: f64,
    /// Writes the nodes and the time against the depth as an SVG chart (log scales) to FILE.
    #[arg(long, value_name = "FILE")]
    pub plot: Option<std::path::PathBuf>,
    /// Transposition table of the full search, in MiB.
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
}

/// One algorithm's results, by depth from 1 (None: skipped, too slow).
pub struct Column {
    pub algorithm: Algorithm,
    pub rows: Vec<Option<Analysis>>,
    /// Why the deeper depths were skipped.
    pub skipped: Option<String>,
}

/// `boardbot analyze`, the games' networks set by `net`.
pub fn run(args: AnalyzeArgs, net: &crate::bot::NetSetting) -> Result<()> {
    let mut words = args.game.clone();
    if let Some(fen) = &args.fen {
        words.extend(["fen".to_string(), fen.clone()]);
    }
    let spec = GameSpec::from_words(&words.iter().map(String::as_str).collect::<Vec<_>>())?;
    // No exact solvers and no endgame databases (nothing read from the cache, nothing built on a
    // thread meanwhile): the algorithms are compared as searches, and the counts are the same on
    // every run and machine.
    let resources = Resources::none();
    let mut game = spec.new_game(&resources)?;
    net.apply(game.as_mut())?;
    if let Some(moves) = &args.position {
        let words: Vec<&str> = moves.split_whitespace().collect();
        let moves = game.split_moves(&words).map_err(|e| anyhow!("--position: {e}"))?;
        game.set_moves(&moves).map_err(|e| anyhow!("--position: {e}"))?;
    }
    if game.outcome().is_some() {
        bail!("the game is over: nothing to analyse");
    }
    if args.depth == 0 || args.depth > 64 {
        bail!("--depth must be 1..=64");
    }
    let algorithms = if args.algorithms.is_empty() { Algorithm::ALL.to_vec() } else { args.algorithms.clone() };
    println!("analyze {spec}{}", args.position.as_ref().map(|p| format!(" after {p}")).unwrap_or_default());
    println!("{}", game.board_text());
    let max_time = Duration::from_secs_f64(args.max_time);
    let columns: Vec<Column> = algorithms
        .iter()
        .map(|&a| {
            analyse(game.as_ref(), a, args.depth, max_time, args.hash, |d, r| {
                println!(
                    "{:<9} depth {d:>2}: {}, best {}, {} nodes, {:.3} ms; pv {}",
                    a.name(),
                    r.words,
                    r.best.as_deref().unwrap_or("-"),
                    r.nodes,
                    r.elapsed.as_secs_f64() * 1000.0,
                    r.pv.join(" ")
                )
            })
        })
        .collect();
    for c in &columns {
        if let Some(why) = &c.skipped {
            println!("{}: {why}", c.algorithm.name());
        }
    }
    println!();
    print!("{}", table(&columns, args.depth));
    if let Some(path) = &args.plot {
        let title = format!("{spec}{}", args.position.as_ref().map(|p| format!(" after {p}")).unwrap_or_default());
        std::fs::write(path, svg(&columns, args.depth, &title))?;
        println!("chart: {}", path.display());
    }
    Ok(())
}

/// Runs `algorithm` at depths 1..=`depth`, reporting each; stops before a depth estimated to
/// take more than `max_time`.
pub fn analyse(
    game: &dyn AnyGame,
    algorithm: Algorithm,
    depth: u32,
    max_time: Duration,
    hash_mb: usize,
    mut report: impl FnMut(u32, &Analysis),
) -> Column {
    let mut rows: Vec<Option<Analysis>> = Vec::new();
    let mut skipped = None;
    for d in 1..=depth {
        if let Some(estimate) = estimate(&rows) {
            if estimate > max_time {
                skipped = Some(format!(
                    "depths from {d} skipped: estimated {:.1} s > --max-time {:.1} s",
                    estimate.as_secs_f64(),
                    max_time.as_secs_f64()
                ));
                break;
            }
        }
        let r = game.analyze(algorithm, d, hash_mb);
        report(d, &r);
        rows.push(Some(r));
    }
    rows.resize(depth as usize, None);
    Column { algorithm, rows, skipped }
}

/// The next depth's time: the last time times the last growth of the node count.
fn estimate(rows: &[Option<Analysis>]) -> Option<Duration> {
    let last = rows.last()?.as_ref()?;
    let growth = match rows.len() {
        1 => last.nodes as f64,
        n => last.nodes as f64 / rows[n - 2].as_ref()?.nodes.max(1) as f64,
    };
    Some(last.elapsed.mul_f64(growth.max(1.0)))
}

/// Nodes by depth and algorithm, with the ratio to minimax where it ran; then the times.
pub fn table(columns: &[Column], depth: u32) -> String {
    let minimax = columns.iter().find(|c| c.algorithm == Algorithm::Minimax);
    let nodes = grid(columns, depth, "nodes", |c, d, r| match minimax.and_then(|m| m.rows[d].as_ref()) {
        Some(m) if c.algorithm != Algorithm::Minimax => {
            format!("{} ({:.3})", r.nodes, r.nodes as f64 / m.nodes.max(1) as f64)
        }
        _ => r.nodes.to_string(),
    });
    let ms = grid(columns, depth, "ms", |_, _, r| format!("{:.3}", r.elapsed.as_secs_f64() * 1e3));
    format!("{nodes}\n{ms}")
}

/// A row per depth, a column per algorithm: `cell` of each result ("-" where none ran).
fn grid(columns: &[Column], depth: u32, title: &str, cell: impl Fn(&Column, usize, &Analysis) -> String) -> String {
    const WIDTH: usize = 22;
    let mut out = format!("{title:<6}");
    for c in columns {
        let _ = write!(out, "{:>WIDTH$}", c.algorithm.name());
    }
    out.push('\n');
    for d in 0..depth as usize {
        let _ = write!(out, "{:<6}", d + 1);
        for c in columns {
            let text = c.rows[d].as_ref().map_or("-".to_string(), |r| cell(c, d, r));
            let _ = write!(out, "{text:>WIDTH$}");
        }
        out.push('\n');
    }
    out
}

const COLOURS: [&str; 6] = ["#c0392b", "#2e86c1", "#27ae60", "#8e44ad", "#d68910", "#212f3d"];

/// Two log-scale charts side by side, nodes and milliseconds against depth, a line per
/// algorithm.
pub fn svg(columns: &[Column], depth: u32, title: &str) -> String {
    let (w, h, pad) = (440.0, 320.0, 56.0);
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<text x=\"{}\" y=\"20\" font-size=\"15\" text-anchor=\"middle\">{}</text>\n",
        2.0 * w,
        h + 60.0,
        w,
        escape(title)
    );
    type Measure = fn(&Analysis) -> f64;
    let panels: [(&str, Measure); 2] =
        [("nodes", |r| r.nodes as f64), ("time (ms)", |r| r.elapsed.as_secs_f64() * 1e3)];
    for (p, (label, value)) in panels.iter().enumerate() {
        let x0 = p as f64 * w;
        let values: Vec<f64> =
            columns.iter().flat_map(|c| c.rows.iter().flatten().map(value)).filter(|v| *v > 0.0).collect();
        let lo = values.iter().cloned().fold(f64::INFINITY, f64::min).max(1e-3).log10().floor();
        let hi = values.iter().cloned().fold(0.0, f64::max).max(1e-3).log10().ceil().max(lo + 1.0);
        let x = |d: f64| x0 + pad + (d - 1.0) / (depth.max(2) as f64 - 1.0) * (w - 1.5 * pad);
        let y = |v: f64| 30.0 + (hi - v.max(1e-3).log10()) / (hi - lo) * (h - pad);
        let _ = writeln!(
            out,
            "<rect x=\"{}\" y=\"30\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#999\"/>",
            x0 + pad,
            w - 1.5 * pad,
            h - pad
        );
        for e in lo as i32..=hi as i32 {
            let yy = y(10f64.powi(e));
            let _ = writeln!(
                out,
                "<line x1=\"{}\" x2=\"{}\" y1=\"{yy}\" y2=\"{yy}\" stroke=\"#eee\"/><text x=\"{}\" y=\"{}\" text-anchor=\"end\">1e{e}</text>",
                x0 + pad,
                x0 + w - 0.5 * pad,
                x0 + pad - 4.0,
                yy + 4.0
            );
        }
        for d in 1..=depth {
            let _ = writeln!(out, "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{d}</text>", x(d as f64), h - 10.0);
        }
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">depth (plies)</text><text x=\"{}\" y=\"44\">{label}</text>",
            x0 + w / 2.0,
            h + 8.0,
            x0 + pad + 6.0
        );
        for (i, c) in columns.iter().enumerate() {
            let points: Vec<String> = c
                .rows
                .iter()
                .enumerate()
                .filter_map(|(d, r)| r.as_ref().map(|r| format!("{:.1},{:.1}", x(d as f64 + 1.0), y(value(r)))))
                .collect();
            let colour = COLOURS[i % COLOURS.len()];
            let _ = writeln!(
                out,
                "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" points=\"{}\"/>",
                points.join(" ")
            );
        }
    }
    for (i, c) in columns.iter().enumerate() {
        let (lx, ly) = (pad + i as f64 * 130.0, h + 40.0);
        let _ = writeln!(
            out,
            "<rect x=\"{lx}\" y=\"{}\" width=\"14\" height=\"4\" fill=\"{}\"/><text x=\"{}\" y=\"{}\">{}</text>",
            ly - 4.0,
            COLOURS[i % COLOURS.len()],
            lx + 18.0,
            ly,
            c.algorithm.name()
        );
    }
    out.push_str("</svg>\n");
    out
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(spec: &str) -> Box<dyn AnyGame> {
        GameSpec::parse(spec).unwrap().new_game(&Resources::none()).unwrap()
    }

    #[test]
    fn every_algorithm_finds_the_minimax_score_at_every_depth() {
        for (spec, moves, depth) in
            [("mnk 3 3 3", "", 6), ("mnk 3 4 3", "1 1", 5), ("cx 4 5 3", "2 2", 6), ("kalah 3 3", "", 7)]
        {
            let mut g = game(spec);
            let words: Vec<&str> = moves.split_whitespace().collect();
            let moves = g.split_moves(&words).unwrap();
            g.set_moves(&moves).unwrap();
            for d in 1..=depth {
                let minimax = g.analyze(Algorithm::Minimax, d, 1);
                for a in [Algorithm::AlphaBeta, Algorithm::Ordered, Algorithm::Table, Algorithm::Symmetric] {
                    let r = g.analyze(a, d, 1);
                    assert_eq!(r.score, minimax.score, "{spec} {a:?} depth {d}");
                    assert!(r.nodes <= minimax.nodes, "{spec} {a:?} depth {d}");
                    assert!(!r.pv.is_empty() && r.pv.len() <= d as usize, "{spec} {a:?} depth {d}: {:?}", r.pv);
                }
            }
        }
    }

    #[test]
    fn the_full_search_agrees_where_it_reaches_the_end() {
        // Tic-tac-toe is a draw, seen by every algorithm at full depth.
        let g = game("mnk 3 3 3");
        assert_eq!(g.analyze(Algorithm::Minimax, 9, 1).score, 0);
        assert_eq!(g.analyze(Algorithm::Full, 9, 1).score, 0);
        // After a blunder the win is found by all, at the same distance.
        let mut g = game("mnk 3 3 3");
        g.set_moves(&["0 0".into(), "0 1".into()]).unwrap();
        let minimax = g.analyze(Algorithm::Minimax, 7, 1);
        assert!(minimax.score > crate::search::WIN_BOUND, "{minimax:?}");
        assert_eq!(g.analyze(Algorithm::Full, 7, 1).score, minimax.score);
        assert_eq!(g.analyze(Algorithm::Symmetric, 7, 1).score, minimax.score);
    }

    #[test]
    fn plain_minimax_visits_the_perft_counts() {
        // Nodes to depth d are the positions of every depth up to d: 1 + perft(1) + ... + perft(d).
        let english = game("checkers english");
        assert_eq!(english.analyze(Algorithm::Minimax, 5, 1).nodes, 1 + 7 + 49 + 302 + 1469 + 7361);
        let house = game("checkers house");
        assert_eq!(house.analyze(Algorithm::Minimax, 4, 1).nodes, 1 + 7 + 49 + 379 + 2872);
        let score = english.analyze(Algorithm::Minimax, 5, 1).score;
        for a in [Algorithm::AlphaBeta, Algorithm::Ordered, Algorithm::Table] {
            assert_eq!(english.analyze(a, 5, 1).score, score, "{a:?}");
        }
    }

    #[test]
    fn symmetric_keys_share_entries_on_tic_tac_toe() {
        let g = game("mnk 3 3 3");
        let table = g.analyze(Algorithm::Table, 9, 1);
        let symmetric = g.analyze(Algorithm::Symmetric, 9, 1);
        assert_eq!(table.score, symmetric.score);
        assert!(symmetric.nodes < table.nodes, "{} vs {}", symmetric.nodes, table.nodes);
    }

    #[test]
    fn too_slow_depths_are_skipped_and_said() {
        let g = game("mnk 4 4 4");
        let c = analyse(g.as_ref(), Algorithm::Minimax, 12, Duration::from_millis(1), 1, |_, _| {});
        assert!(c.skipped.as_deref().is_some_and(|s| s.contains("skipped")), "{:?}", c.skipped);
        assert!(c.rows.iter().any(Option::is_none));
        let text = table(&[c], 12);
        assert!(text.lines().nth(12).unwrap().trim_end().ends_with('-'), "{text}");
        let chart = svg(&[analyse(g.as_ref(), Algorithm::AlphaBeta, 3, Duration::from_secs(5), 1, |_, _| {})], 3, "t");
        assert!(chart.starts_with("<svg") && chart.contains("<polyline"), "{chart}");
    }
}
