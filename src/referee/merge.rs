//! `boardbot merge FILES...`: the files of a match's shards (`match --shard I/N --results FILE`)
//! or of a self-play run's shards (`selfplay --shard I/N`) put back together as one run's.
//!
//! **Match results.** The files must be of the same match (their headers equal but for the
//! shard). Games are taken by number; a game found twice counts once if both records are the
//! same and is an error otherwise. The games counted are those of whole pairs (a game whose
//! partner is missing, from a shard cut off part-way, is left out), and for an SPRT only the
//! pairs up to the first whose LLR reaches a bound, in pair order, as one run stops there
//! ([`super::results::sprt_course`]). The report is one run's: the same table (reply times
//! included, kept per game in the files), score and error bars, pentanomial, LLR and verdict.
//! `--json` prints the figures as one JSON object instead (for drivers); `--out FILE` writes the
//! counted games as one results file, the same as one run's when every pair is there.
//!
//! **Self-play files.** Their headers must be equal but for the `# shard I/N` line; each file's
//! complete games are kept (a game cut off part-way is dropped, as a resumed run drops it), a game
//! found twice counts once if the same (an error otherwise), and the games are written in the
//! order of their numbers under the whole run's header: the file one run would have written.

use super::cli::{print_results, sprt_report};
use super::results::{self, sprt_course, GameResult, Line, MatchHeader};
use super::score::Tally;
use super::spec::parse_board;
use super::sprt::{Pentanomial, Verdict};
use super::MatchResult;
use crate::selfplay;
use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// Puts the files of a match's or a self-play run's shards together.
#[derive(Args, Clone, Debug)]
pub struct MergeArgs {
    /// Results files of one match (`match --results`), or self-play files of one run.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Writes the merged file: the counted games as one results file, or the self-play file.
    /// Self-play files are merged to stdout without it.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Match results: prints the merged figures as one JSON object (games, pairs, pentanomial,
    /// score and error bar, LLR, bounds, verdict) instead of the report.
    #[arg(long)]
    json: bool,
}

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
pub fn merge_results(files: &[(String, String)]) -> Result<MergedMatch, String> {
    let mut header: Option<MatchHeader> = None;
    let mut shards = Vec::new();
    let mut games: BTreeMap<usize, (GameResult, &str)> = BTreeMap::new();
    let mut duplicates = 0;
    for (name, text) in files {
        let (mut h, file_games) = results::read(text).map_err(|e| format!("{name}: {e}"))?;
        shards.push(h.shard.take().unwrap_or_else(|| "whole".to_string()));
        match &header {
            None => header = Some(h),
            Some(first) if *first != h => {
                return Err(format!("{name}: another match than {}'s (the headers differ)", files[0].0))
            }
            Some(_) => {}
        }
        let h = header.as_ref().expect("set above");
        let per_board = 2 * h.rounds;
        for g in file_games {
            let board = (g.game >= 1).then(|| h.boards.get((g.game - 1) / per_board)).flatten();
            if board.map(|b| b.as_str()) != Some(g.board.as_str()) || g.round != (g.game - 1) % per_board / 2 + 1 {
                return Err(format!(
                    "{name}: game {} (board '{}', round {}) is not in the match",
                    g.game, g.board, g.round
                ));
            }
            match games.get(&g.game) {
                Some((seen, _)) if *seen == g => duplicates += 1,
                Some((_, other)) => return Err(format!("game {} differs between {other} and {name}", g.game)),
                None => {
                    games.insert(g.game, (g, name));
                }
            }
        }
    }
    let header = header.ok_or("no files")?;
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
    pub fn result(&self) -> Result<MatchResult, String> {
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
        let result = self.result().map_err(|e| anyhow!(e))?;
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

/// Merged self-play files.
#[derive(Clone, Debug)]
pub struct MergedSelfplay {
    /// The whole run's header (no shard line).
    pub header: String,
    /// Each game's lines, by game number.
    pub games: BTreeMap<usize, String>,
    pub duplicates: usize,
    /// Games cut off part-way (dropped).
    pub cut: usize,
}

/// Merges self-play files, given as (name, text).
pub fn merge_selfplay(files: &[(String, String)]) -> Result<MergedSelfplay, String> {
    let mut header: Option<String> = None;
    let mut games: BTreeMap<usize, (String, &str)> = BTreeMap::new();
    let (mut duplicates, mut cut) = (0, 0);
    for (name, text) in files {
        let header_len: usize = text.lines().take_while(|l| l.starts_with('#')).map(|l| l.len() + 1).sum();
        let header_len = header_len.min(text.len());
        let whole_header: String =
            text[..header_len].lines().filter(|l| !l.starts_with("# shard ")).map(|l| format!("{l}\n")).collect();
        match &header {
            None => header = Some(whole_header),
            Some(first) if *first != whole_header => {
                return Err(format!("{name}: another run than {}'s (the headers differ)", files[0].0))
            }
            Some(_) => {}
        }
        let (_, keep) = selfplay::complete_games(text, header_len);
        let (_, records) = selfplay::read(&text[..keep]).map_err(|e| format!("{name}: {e}"))?;
        let rest = text[keep..].trim();
        if !rest.is_empty() {
            cut += 1;
        }
        // The complete games, each its lines (consecutive, K = 1..N).
        let lines: Vec<&str> = text[header_len..keep].lines().filter(|l| !l.trim().is_empty()).collect();
        let mut at = 0;
        for r in records.iter().filter(|r| r.index == 1) {
            let game: String = lines[at..at + r.count].iter().map(|l| format!("{l}\n")).collect();
            at += r.count;
            match games.get(&r.game) {
                Some((seen, _)) if *seen == game => duplicates += 1,
                Some((_, other)) => return Err(format!("game {} differs between {other} and {name}", r.game)),
                None => {
                    games.insert(r.game, (game, name));
                }
            }
        }
    }
    Ok(MergedSelfplay {
        header: header.ok_or("no files")?,
        games: games.into_iter().map(|(n, (text, _))| (n, text)).collect(),
        duplicates,
        cut,
    })
}

impl MergedSelfplay {
    /// The file one run would have written.
    pub fn text(&self) -> String {
        let mut text = self.header.clone();
        self.games.values().for_each(|g| text.push_str(g));
        text
    }

    /// Game numbers from 1 to the last one that no file holds.
    pub fn missing(&self) -> Vec<usize> {
        let last = self.games.keys().last().copied().unwrap_or(0);
        (1..=last).filter(|n| !self.games.contains_key(n)).collect()
    }
}

/// Runs `boardbot merge`.
pub fn run(args: MergeArgs) -> Result<()> {
    let mut files = Vec::new();
    for path in &args.files {
        let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        files.push((path.display().to_string(), text));
    }
    let selfplay = files.iter().all(|(_, text)| text.starts_with('#'));
    if !selfplay && files.iter().any(|(_, text)| text.starts_with('#')) {
        bail!("give either results files (match --results) or self-play files, not both");
    }
    let mut stdout = std::io::stdout();
    if selfplay {
        if args.json {
            bail!("--json is for results files");
        }
        let merged = merge_selfplay(&files).map_err(|e| anyhow!(e))?;
        match &args.out {
            Some(path) => std::fs::write(path, merged.text()).with_context(|| format!("writing {}", path.display()))?,
            None => stdout.write_all(merged.text().as_bytes())?,
        }
        let missing = merged.missing();
        eprintln!(
            "merged {} self-play file(s): {} games; {} duplicate game(s) counted once; {} file(s) ending in a game cut off (dropped){}",
            files.len(),
            merged.games.len(),
            merged.duplicates,
            merged.cut,
            match missing.len() {
                0 => String::new(),
                n => format!("; {n} game number(s) missing: {missing:?}"),
            }
        );
        return Ok(());
    }
    let merged = merge_results(&files).map_err(|e| anyhow!(e))?;
    if let Some(path) = &args.out {
        std::fs::write(path, merged.file_text()).with_context(|| format!("writing {}", path.display()))?;
    }
    if args.json {
        writeln!(stdout, "{}", merged.json())?;
    } else {
        merged.report(&mut stdout)?;
    }
    Ok(())
}
