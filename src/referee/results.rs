//! A match's games as records that merge: `match --results FILE` writes one JSON object a line,
//! first the match (engines, time, seed, the test), then one per game counted, in game order:
//! its number, board, round, opening (which given opening, the seed of the random plies), seed,
//! who moved first, the result, engine1's score, how it ended and the moves. The games of
//! several runs of the same match (the same schedule: engines, boards, rounds, seed, openings)
//! put together by game number give the totals, the pair outcomes ([`pentanomial`]) and the
//! SPRT's course ([`sprt_course`]) of one run that played them all. Each game keeps every reply
//! time (in nanoseconds), so that its [`GameRecord`] comes back whole ([`GameResult::record`])
//! and a merge prints the very table of one run ([`super::merge`]).

use super::adapter::{Fault, FaultKind};
use super::game::{GameEnd, GameRecord};
use super::report::{log_line, DEAD_DRAW_REASON};
use super::runner::Scheduled;
use super::score::game_score;
use super::sprt::{Pentanomial, Sprt, Verdict};
use crate::game::registry::GameSpec;
use crate::game::{Outcome, Side};
use anyhow::{anyhow, bail, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::time::Duration;

/// The first line of a results file: what was played.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchHeader {
    pub engine1: String,
    pub engine2: String,
    /// Seconds per move.
    pub timeout: f64,
    pub seed: u64,
    pub rounds: usize,
    pub boards: Vec<String>,
    /// The given openings (a file or a built-in set), if any.
    pub openings: Option<String>,
    /// Random plies after the given opening (or from the start without one).
    pub opening_plies: usize,
    pub sprt: Option<Sprt>,
    /// The engines' names in the tables and logs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub names: Option<[String; 2]>,
    /// The shard played (`I/N`, see [`super::shard`]); absent for the whole match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
}

/// One game counted in a match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameResult {
    /// The game's number in the match, from 1.
    pub game: usize,
    pub board: String,
    /// The round on its board, from 1: both of its games start from the same opening.
    pub round: usize,
    /// The given opening of the round (its number among the openings, from 1), if any.
    pub opening: Option<usize>,
    /// The seed of the opening's random plies.
    pub opening_seed: u64,
    /// The seed given to the engines.
    pub seed: u64,
    /// The engine that moved first: 1 or 2.
    pub first: usize,
    /// From the first player's view: `1-0`, `0-1`, `1/2-1/2`, or `0-0` when both forfeited.
    pub result: String,
    /// Engine1's score: 1, 1/2 or 0.
    pub score: f64,
    pub reason: String,
    pub moves: Vec<String>,
    /// Every reply time of engine1 and engine2, in nanoseconds.
    #[serde(default)]
    pub replies: [Vec<u64>; 2],
}

impl GameResult {
    /// The record of game `record`, scheduled as `scheduled`; `names` are the engines' names.
    pub fn new(record: &GameRecord, scheduled: &Scheduled, names: [&str; 2]) -> GameResult {
        let line = log_line(record, names);
        let fields: Vec<&str> = line.split('\t').collect();
        GameResult {
            game: record.number + 1,
            board: record.spec.to_string(),
            round: scheduled.round + 1,
            opening: scheduled.opening.map(|i| i + 1),
            opening_seed: scheduled.opening_seed,
            seed: scheduled.seed,
            first: record.first + 1,
            result: fields.get(4).unwrap_or(&"").to_string(),
            score: game_score(record),
            reason: fields.get(5).unwrap_or(&"").to_string(),
            moves: record.moves.clone(),
            replies: record.replies.clone().map(|r| r.iter().map(|d| d.as_nanos() as u64).collect()),
        }
    }

    /// The game as the match recorded it (the inverse of [`GameResult::new`]: the same end, a
    /// fault with the same kind and words).
    pub fn record(&self) -> Result<GameRecord> {
        let spec =
            GameSpec::parse(&self.board).map_err(|e| anyhow!("game {}: board '{}': {e}", self.game, self.board))?;
        let bad = || anyhow!("game {}: result '{}' with reason '{}'", self.game, self.result, self.reason);
        let fault = |text: &str| -> Result<Fault> {
            let (kind, detail) = text.split_once(": ").ok_or_else(bad)?;
            let kind = [FaultKind::Timeout, FaultKind::Illegal, FaultKind::Garbled, FaultKind::Crash]
                .into_iter()
                .find(|k| k.as_str() == kind)
                .ok_or_else(bad)?;
            Ok(Fault::new(kind, detail))
        };
        let end = match (self.result.as_str(), self.reason.as_str()) {
            ("1-0", "win") => GameEnd::Played(Outcome::Win(Side::First)),
            ("0-1", "win") => GameEnd::Played(Outcome::Win(Side::Second)),
            ("1/2-1/2", "draw") => GameEnd::Played(Outcome::Draw),
            ("1/2-1/2", DEAD_DRAW_REASON) => GameEnd::DeadDraw,
            ("0-1", reason) if reason.starts_with("forfeit by first ") => {
                GameEnd::Forfeit { loser: Side::First, fault: fault(&reason["forfeit by first ".len()..])? }
            }
            ("1-0", reason) if reason.starts_with("forfeit by second ") => {
                GameEnd::Forfeit { loser: Side::Second, fault: fault(&reason["forfeit by second ".len()..])? }
            }
            ("0-0", reason) => {
                let (first, second) = reason
                    .strip_prefix("both forfeit: first ")
                    .and_then(|r| r.split_once("; second "))
                    .ok_or_else(bad)?;
                GameEnd::BothForfeit { first: fault(first)?, second: fault(second)? }
            }
            _ => return Err(bad()),
        };
        if !(1..=2).contains(&self.first) || self.game == 0 {
            return Err(bad());
        }
        Ok(GameRecord {
            number: self.game - 1,
            spec,
            first: self.first - 1,
            moves: self.moves.clone(),
            end,
            replies: self.replies.clone().map(|r| r.into_iter().map(Duration::from_nanos).collect()),
        })
    }
}

/// A line of a results file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Line {
    Match(MatchHeader),
    Game(GameResult),
}

impl Line {
    /// The line as the file holds it (one JSON object, no line break).
    pub fn text(&self) -> String {
        serde_json::to_string(self).expect("results serialise")
    }

    pub fn parse(text: &str) -> Result<Line> {
        Ok(serde_json::from_str(text)?)
    }
}

/// The header and the games of a results file's text (blank lines skipped).
pub fn read(text: &str) -> Result<(MatchHeader, Vec<GameResult>)> {
    let mut header = None;
    let mut games = Vec::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        match Line::parse(line).map_err(|e| anyhow!("line {}: {e}", i + 1))? {
            Line::Match(h) if header.is_none() && games.is_empty() => header = Some(h),
            Line::Match(_) => bail!("line {}: a second match header", i + 1),
            Line::Game(g) => games.push(g),
        }
    }
    Ok((header.ok_or_else(|| anyhow!("no match header"))?, games))
}

/// The pair outcomes of `games`: the games of a round (same board, same round) that are both
/// there make a pair; a game without its partner is left out.
pub fn pentanomial(games: &[GameResult]) -> Pentanomial {
    let mut counts = Pentanomial::default();
    for (a, b) in pairs(games) {
        counts.add(a.score, b.score);
    }
    counts
}

/// The pairs of `games` in the order of their first game's number.
pub fn pairs(games: &[GameResult]) -> Vec<(&GameResult, &GameResult)> {
    let mut rounds: BTreeMap<(&str, usize), Vec<&GameResult>> = BTreeMap::new();
    for g in games {
        rounds.entry((g.board.as_str(), g.round)).or_default().push(g);
    }
    let mut pairs: Vec<(&GameResult, &GameResult)> = rounds
        .into_values()
        .filter(|games| games.len() == 2)
        .map(|mut games| {
            games.sort_by_key(|g| g.game);
            (games[0], games[1])
        })
        .collect();
    pairs.sort_by_key(|(a, _)| a.game);
    pairs
}

/// The SPRT over the pairs of `games` taken in game order, as a match plays them: the pairs
/// counted (up to and including the one whose LLR reached a bound, if one did), their counts,
/// the LLR and the verdict.
pub fn sprt_course(sprt: &Sprt, games: &[GameResult]) -> (Pentanomial, f64, Option<Verdict>) {
    let mut counts = Pentanomial::default();
    let mut llr = 0.0;
    for (a, b) in pairs(games) {
        counts.add(a.score, b.score);
        llr = sprt.llr(&counts);
        if let Some(verdict) = sprt.verdict(llr) {
            return (counts, llr, Some(verdict));
        }
    }
    (counts, llr, None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::sprt::EloModel;

    fn game(number: usize, round: usize, score: f64) -> GameResult {
        GameResult {
            game: number,
            board: "checkers english".into(),
            round,
            opening: Some(round),
            opening_seed: round as u64,
            seed: number as u64,
            first: 2 - number % 2,
            result: "1-0".into(),
            score,
            reason: "win".into(),
            moves: vec!["9-13".into(), "21-17".into()],
            replies: [vec![1_000_000, 7], vec![2_500_000]],
        }
    }

    #[test]
    fn lines_round_trip_and_games_pair_up() {
        let header = MatchHeader {
            engine1: "self".into(),
            engine2: "self --nodes 100".into(),
            timeout: 0.5,
            seed: 3,
            rounds: 10,
            boards: vec!["checkers english".into()],
            openings: Some("acf3".into()),
            opening_plies: 0,
            sprt: Some(Sprt::new(0.0, 10.0, 0.05, 0.05, EloModel::Logistic).unwrap()),
            names: Some(["self".into(), "self".into()]),
            shard: None,
        };
        let games = [game(1, 1, 1.0), game(2, 1, 0.5), game(3, 2, 0.0), game(4, 2, 0.0), game(5, 3, 1.0)];
        let mut text = Line::Match(header.clone()).text() + "\n";
        for g in &games {
            text += &(Line::Game(g.clone()).text() + "\n");
        }
        assert_eq!(text.lines().count(), 6);
        let (h, read_games) = read(&text).unwrap();
        assert_eq!((h, read_games.as_slice()), (header, &games[..]));
        // Two pairs (game 5 has no partner), in any order of the records.
        let mut shuffled = games.to_vec();
        shuffled.reverse();
        assert_eq!(pentanomial(&shuffled), Pentanomial([1, 0, 0, 1, 0]));
        assert!(read("").is_err());
        assert!(read(&Line::Game(games[0].clone()).text()).is_err(), "no header");
        // An older file, without reply times or shard, still reads.
        let old = Line::Game(games[0].clone()).text().replace(r#","replies":[[1000000,7],[2500000]]"#, "");
        assert_ne!(old, Line::Game(games[0].clone()).text());
        assert!(matches!(Line::parse(&old), Ok(Line::Game(g)) if g.replies.iter().all(Vec::is_empty)));
    }

    #[test]
    fn a_result_gives_back_its_game_record() {
        use crate::referee::spec::board_text;
        let spec = GameSpec::parse("mnk 3 3 3").unwrap();
        let ends = [
            GameEnd::Played(Outcome::Win(Side::First)),
            GameEnd::Played(Outcome::Win(Side::Second)),
            GameEnd::Played(Outcome::Draw),
            GameEnd::DeadDraw,
            GameEnd::Forfeit { loser: Side::First, fault: Fault::new(FaultKind::Timeout, "no reply: after 3 ms") },
            GameEnd::Forfeit { loser: Side::Second, fault: Fault::new(FaultKind::Illegal, "'9 9'") },
            GameEnd::BothForfeit {
                first: Fault::new(FaultKind::Crash, "exit 3"),
                second: Fault::new(FaultKind::Garbled, "hello"),
            },
        ];
        for (number, end) in ends.into_iter().enumerate() {
            let record = GameRecord {
                number,
                spec: spec.clone(),
                first: number % 2,
                moves: vec!["1 1".into(), "0 0".into()],
                end,
                replies: [vec![Duration::from_nanos(123_456_789)], vec![Duration::from_millis(2), Duration::ZERO]],
            };
            let scheduled = Scheduled {
                number,
                board: 0,
                first: number % 2,
                seed: 0,
                round: number / 2,
                opening_seed: 0,
                opening: None,
            };
            let result = GameResult::new(&record, &scheduled, ["a", "b"]);
            let back = GameResult::record(
                &Line::parse(&Line::Game(result).text())
                    .map(|l| match l {
                        Line::Game(g) => g,
                        Line::Match(_) => unreachable!(),
                    })
                    .unwrap(),
            )
            .unwrap();
            assert_eq!(
                (back.number, back.first, &back.moves, &back.end, &back.replies),
                (record.number, record.first, &record.moves, &record.end, &record.replies),
                "{}",
                board_text(&record.spec)
            );
            assert_eq!(back.spec.to_string(), record.spec.to_string());
        }
    }

    #[test]
    fn the_sprt_stops_at_the_first_pair_past_a_bound() {
        let sprt = Sprt::new(0.0, 400.0, 0.05, 0.05, EloModel::Logistic).unwrap();
        // Engine1 wins every pair: H1 (+400) is accepted after a few pairs, and the pairs
        // after that are not counted.
        let games: Vec<GameResult> = (1..=40).map(|n| game(n, n.div_ceil(2), 1.0)).collect();
        let (counts, llr, verdict) = sprt_course(&sprt, &games);
        assert_eq!(verdict, Some(Verdict::H1));
        assert!(llr >= sprt.bounds().1);
        let n = counts.pairs();
        assert!(n > 1 && n < 20, "{n}");
        let (before, _, none) = sprt_course(&sprt, &games[..2 * n as usize - 2]);
        assert_eq!((before.pairs(), none), (n - 1, None));
    }
}
