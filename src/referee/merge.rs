//! The files of a match's shards (`match --shard I/N --results FILE`) put back together as one
//! run's (for `boardbot merge`: src/merge.rs).
//!
//! The files must be of the same match (their headers equal but for the
//! shard). Games are taken by number; a game found twice counts once if both records are the
//! same and is an error otherwise. The games counted are those of whole pairs (a game whose
//! partner is missing, from a shard cut off part-way, is left out), and for an SPRT only the
//! pairs up to the first whose LLR reaches a bound, in pair order, as one run stops there
//! ([`super::results::sprt_course`]). The report is one run's: the same table (reply times
//! included, kept per game in the files), score and error bars, pentanomial, LLR and verdict.
//! `--json` prints the figures as one JSON object instead (for drivers); `--out FILE` writes the
//! counted games as one results file, the same as one run's when every pair is there.

use super::cli::{print_results, sprt_report};
use super::results::{self, sprt_course, GameResult, Line, MatchHeader};
use super::score::Tally;
use super::spec::parse_board;
use super::sprt::{Pentanomial, Verdict};
use super::MatchResult;
use anyhow::{anyhow, bail, Context, Result};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::time::Duration;

/// The merged shards of a match.
#[derive(Clone, Debug)]
pub struct MergedMatch {
    /// The match's header, without a shard.
    pub header: MatchHeader,
    /// The shards of the files (`whole` for a file of the whole match).
    pub shards: Vec<String>,
    /// The games counted, in order.
    pub games: Vec<GameResult>,
    /// Game records found again in another file (the same record: counted once).
    pub duplicates: usize,
    /// Games read but not counted: without their partner, or after the SPRT's verdict.
    pub left_out: usize,
    /// The SPRT's course over the counted pairs: counts, LLR, verdict.
    pub sprt: Option<(Pentanomial, f64, Option<Verdict>)>,
    /// The match's games (all boards, all rounds).
    pub match_games: usize,
}

/// Merges results files, given as (name, text).
pub fn merge_results(files: &[(String, String)]) -> Result<MergedMatch> {
    let mut header: Option<MatchHeader> = None;
    let mut shards = Vec::new();
    let mut games: BTreeMap<usize, (GameResult, &str)> = BTreeMap::new();
    let mut duplicates = 0;
    for (name, text) in files {
        let (mut h, file_games) = results::read(text).map_err(|e| anyhow!("{name}: {e}"))?;
        shards.push(h.shard.take().unwrap_or_else(|| "whole".to_string()));
        match &header {
            None => header = Some(h),
            Some(first) if *first != h => {
                bail!("{name}: another match than {}'s (the headers differ)", files[0].0)
            }
            Some(_) => {}
        }
        let h = header.as_ref().expect("set above");
        let per_board = 2 * h.rounds;
        for g in file_games {
            let board = (g.game >= 1).then(|| h.boards.get((g.game - 1) / per_board)).flatten();
            if board.map(|b| b.as_str()) != Some(g.board.as_str()) || g.round != (g.game - 1) % per_board / 2 + 1 {
                bail!("{name}: game {} (board '{}', round {}) is not in the match", g.game, g.board, g.round);
            }
            match games.get(&g.game) {
                Some((seen, _)) if *seen == g => duplicates += 1,
                Some((_, other)) => bail!("game {} differs between {other} and {name}", g.game),
                None => {
                    games.insert(g.game, (g, name));
                }
            }
        }
    }
    let header = header.ok_or_else(|| anyhow!("no files"))?;
    let read: Vec<GameResult> = games.into_values().map(|(g, _)| g).collect();
    let mut pairs: Vec<(&GameResult, &GameResult)> = results::pairs(&read);
    let sprt = header.sprt.map(|sprt| {
        let course = sprt_course(&sprt, &read);
        pairs.truncate(course.0.pairs() as usize);
        course
    });
    let counted: Vec<GameResult> = pairs.iter().flat_map(|(a, b)| [(*a).clone(), (*b).clone()]).collect();
    Ok(MergedMatch {
        match_games: header.boards.len() * 2 * header.rounds,
        left_out: read.len() - counted.len(),
        header,
        shards,
        games: counted,
        duplicates,
        sprt,
    })
}

impl MergedMatch {
    /// The counted games as a match's result (tables by board).
    pub fn result(&self) -> Result<MatchResult> {
        let mut boards = Vec::new();
        for text in &self.header.boards {
            boards.push((parse_board(&text.split_whitespace().collect::<Vec<_>>())?, Tally::default()));
        }
        let mut total = Tally::default();
        let mut records = Vec::new();
        for g in &self.games {
            let record = g.record()?;
            boards[record.number / (2 * self.header.rounds)].1.add(&record);
            total.add(&record);
            records.push(record);
        }
        Ok(MatchResult { boards, total, games: records })
    }

    /// The report: what was merged, then the match's results as one run prints them.
    pub fn report(&self, out: &mut impl Write) -> Result<()> {
        let h = &self.header;
        writeln!(
            out,
            "merged {} results file(s) (shards: {}): {} games counted of the match's {}; {} duplicate record(s) counted once; {} game(s) left out{}",
            self.shards.len(),
            self.shards.join(", "),
            self.games.len(),
            self.match_games,
            self.duplicates,
            self.left_out,
            if h.sprt.is_some() { " (no partner, or after the SPRT's verdict)" } else { " (no partner)" }
        )?;
        writeln!(out, "engine1: {}\nengine2: {}", h.engine1, h.engine2)?;
        let default_names = [h.engine1.clone(), h.engine2.clone()];
        let names = h.names.as_ref().unwrap_or(&default_names);
        let result = self.result()?;
        let sprt = h.sprt.as_ref().zip(self.sprt.as_ref()).map(|(s, (c, llr, v))| sprt_report(s, c, *llr, *v));
        print_results(out, &result, [&names[0], &names[1]], Duration::from_secs_f64(h.timeout), sprt)
    }

    /// The figures as one JSON object.
    pub fn json(&self) -> serde_json::Value {
        let mut counts = Pentanomial::default();
        for (a, b) in results::pairs(&self.games) {
            counts.add(a.score, b.score);
        }
        let (score, error) = counts.score().map_or((None, None), |(s, e)| (Some(s), Some(e)));
        let sprt = self.header.sprt.as_ref().zip(self.sprt.as_ref());
        serde_json::json!({
            "files": self.shards.len(),
            "shards": self.shards,
            "games": self.games.len(),
            "numbers": self.games.iter().map(|g| g.game).collect::<Vec<_>>(),
            "match_games": self.match_games,
            "duplicates": self.duplicates,
            "left_out": self.left_out,
            "pairs": counts.pairs(),
            "pentanomial": counts.0,
            "score": score,
            "error": error,
            "llr": sprt.map(|(_, (_, llr, _))| *llr),
            "lower": sprt.map(|(s, _)| s.bounds().0),
            "upper": sprt.map(|(s, _)| s.bounds().1),
            "verdict": sprt.and_then(|(_, (_, _, v))| v.map(|v| format!("{v:?}"))),
        })
    }

    /// The counted games as one results file.
    pub fn file_text(&self) -> String {
        let mut text = Line::Match(self.header.clone()).text() + "\n";
        for g in &self.games {
            text += &(Line::Game(g.clone()).text() + "\n");
        }
        text
    }
}

/// Merges the results files `files` (name, text): writes the counted games to `out` if given,
/// and prints the report (or with `json` its figures as one JSON object).
pub fn run(files: &[(String, String)], out: Option<&Path>, json: bool) -> Result<()> {
    let merged = merge_results(files)?;
    if let Some(path) = out {
        std::fs::write(path, merged.file_text()).with_context(|| format!("writing {}", path.display()))?;
    }
    let mut stdout = std::io::stdout();
    if json {
        writeln!(stdout, "{}", merged.json())?;
    } else {
        merged.report(&mut stdout)?;
    }
    Ok(())
}
