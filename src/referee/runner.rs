//! Running a match, on one or more jobs. A job is a pair of engines (engine1, engine2) that plays
//! games one after another; jobs take the next game from a shared queue, so they run in parallel.
//! Nothing about a game depends on the job that plays it: game `i` has seed `SEED + i` and the
//! same colours whatever the number of jobs, and the results are collected in game order.

use super::adapter::EngineAdapter;
use super::game::{play_game, GameRecord, Opening, Terms};
use super::score::Tally;
use super::{MatchPlan, MatchResult};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Sender};

/// One job's engines: engine1 and engine2.
pub type EnginePair = [Box<dyn EngineAdapter>; 2];

/// A game of the match before it is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scheduled {
    /// Number of the game in the match, from 0.
    pub number: usize,
    /// Index of the board in the plan.
    pub board: usize,
    /// The engine that moves first (0: engine1).
    pub first: usize,
    pub seed: u64,
    /// The round on its board, from 0: both of its games start from the same opening.
    pub round: usize,
    /// Seed of the random opening: the same for both games of a round.
    pub opening_seed: u64,
}

/// Every game of `plan`, in order: each board `rounds` times two games, engine1 first in game
/// `2r` of the board and engine2 in game `2r + 1`, so the colours are balanced exactly (unless
/// the plan fixes who moves first).
pub fn schedule(plan: &MatchPlan) -> Vec<Scheduled> {
    let per_board = 2 * plan.rounds;
    (0..plan.boards.len() * per_board)
        .map(|number| Scheduled {
            number,
            board: number / per_board,
            first: plan.first.unwrap_or(number % 2),
            seed: plan.seed.wrapping_add(number as u64),
            round: number % per_board / 2,
            opening_seed: plan.seed.wrapping_add((number / 2) as u64),
        })
        .collect()
}

/// Plays `plan`, one job per engine pair in `jobs`. Every engine must start; after that, every
/// failure of an engine only forfeits a game (the engine is started again for the next one).
///
/// `on_finished(record, done)` is called as each game finishes (in any order when there are
/// several jobs; `done` games are finished so far); `on_game(record)` is called in the order of
/// the game numbers, as soon as every earlier game has finished.
pub fn run_match(
    plan: &MatchPlan,
    mut jobs: Vec<EnginePair>,
    mut on_finished: impl FnMut(&GameRecord, usize),
    mut on_game: impl FnMut(&GameRecord),
) -> anyhow::Result<MatchResult> {
    if jobs.is_empty() {
        anyhow::bail!("a match needs at least one job");
    }
    for e in jobs.iter_mut().flat_map(|pair| pair.iter_mut()) {
        e.start().map_err(|f| anyhow::anyhow!("engine {}: {f}", e.name()))?;
    }
    let games = schedule(plan);
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel();
    let mut in_order = InOrder::default();
    let mut error = None;
    std::thread::scope(|scope| {
        for pair in jobs.iter_mut() {
            let (tx, games, next, stop) = (tx.clone(), &games, &next, &stop);
            scope.spawn(move || work(plan, games, next, stop, pair, tx));
        }
        drop(tx);
        let mut done = 0;
        for message in rx {
            match message {
                Ok(record) => {
                    done += 1;
                    on_finished(&record, done);
                    in_order.add(record, &mut on_game);
                }
                Err(e) => {
                    stop.store(true, Ordering::Relaxed);
                    error.get_or_insert(e);
                }
            }
        }
    });
    if let Some(e) = error {
        anyhow::bail!(e);
    }
    Ok(collect(plan, in_order.records))
}

/// One job: plays the next game of the queue until there is none (or the match stops), then
/// quits its engines.
fn work(
    plan: &MatchPlan,
    games: &[Scheduled],
    next: &AtomicUsize,
    stop: &AtomicBool,
    pair: &mut EnginePair,
    tx: Sender<Result<GameRecord, String>>,
) {
    while !stop.load(Ordering::Relaxed) {
        let Some(g) = games.get(next.fetch_add(1, Ordering::Relaxed)) else { break };
        let spec = &plan.boards[g.board];
        let [e1, e2] = pair;
        let opening = match plan.openings.len() {
            0 => Opening::Random { plies: plan.opening, seed: g.opening_seed },
            n => Opening::Moves(plan.openings[g.round % n].clone()),
        };
        let terms = Terms { timeout: plan.timeout, seed: g.seed, dead_draws: plan.dead_draws, opening };
        let result = play_game(g.number, spec, [e1.as_mut(), e2.as_mut()], g.first, &terms)
            .map_err(|e| format!("board '{spec}': {e}"));
        if tx.send(result).is_err() {
            break;
        }
    }
    for e in pair.iter_mut() {
        e.quit();
    }
}

/// Puts finished games back in the order of their numbers.
#[derive(Default)]
struct InOrder {
    /// The games passed on, in order.
    records: Vec<GameRecord>,
    /// Finished games waiting for an earlier one.
    waiting: BTreeMap<usize, GameRecord>,
}

impl InOrder {
    /// Adds a finished game and passes on to `on_game` every game now in order.
    fn add(&mut self, record: GameRecord, on_game: &mut impl FnMut(&GameRecord)) {
        self.waiting.insert(record.number, record);
        while let Some(record) = self.waiting.remove(&self.records.len()) {
            on_game(&record);
            self.records.push(record);
        }
    }
}

/// The results of the games of `plan`, given in order (all of them, or the first ones of a
/// match cut short).
pub fn collect(plan: &MatchPlan, games: Vec<GameRecord>) -> MatchResult {
    let mut tallies = vec![Tally::default(); plan.boards.len()];
    for (game, scheduled) in games.iter().zip(schedule(plan)) {
        tallies[scheduled.board].add(game);
    }
    let mut total = Tally::default();
    tallies.iter().for_each(|t| total.merge(t));
    MatchResult { boards: plan.boards.iter().cloned().zip(tallies).collect(), total, games }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::registry::GameSpec;
    use std::time::Duration;

    fn plan(boards: usize, rounds: usize) -> MatchPlan {
        let spec = GameSpec::parse("cx 4 4 3").unwrap();
        MatchPlan {
            boards: vec![spec; boards],
            rounds,
            timeout: Duration::from_secs(1),
            seed: 10,
            first: None,
            dead_draws: true,
            opening: 0,
            openings: vec![],
        }
    }

    #[test]
    fn the_schedule_alternates_colours_and_numbers_seeds() {
        let s = schedule(&plan(2, 2));
        assert_eq!(s.len(), 8);
        assert_eq!(s.iter().map(|g| g.board).collect::<Vec<_>>(), [0, 0, 0, 0, 1, 1, 1, 1]);
        assert_eq!(s.iter().map(|g| g.first).collect::<Vec<_>>(), [0, 1, 0, 1, 0, 1, 0, 1]);
        assert_eq!(s[5], Scheduled { number: 5, board: 1, first: 1, seed: 15, round: 0, opening_seed: 12 });
        assert_eq!(s.iter().map(|g| g.round).collect::<Vec<_>>(), [0, 0, 1, 1, 0, 0, 1, 1]);
        let openings: Vec<u64> = s.iter().map(|g| g.opening_seed).collect();
        assert_eq!(openings, [10, 10, 11, 11, 12, 12, 13, 13], "one opening a round");
        let fixed = schedule(&MatchPlan { first: Some(1), ..plan(1, 2) });
        assert_eq!(fixed.iter().map(|g| g.first).collect::<Vec<_>>(), [1, 1, 1, 1]);
    }

    #[test]
    fn finished_games_are_passed_on_in_order() {
        let record = |number| GameRecord {
            number,
            spec: GameSpec::parse("cx 4 4 3").unwrap(),
            first: number % 2,
            moves: vec![],
            end: crate::referee::GameEnd::Played(crate::game::Outcome::Draw),
            replies: [vec![], vec![]],
        };
        let mut in_order = InOrder::default();
        let mut seen = vec![];
        for n in [2, 0, 3, 1, 4] {
            in_order.add(record(n), &mut |r: &GameRecord| seen.push(r.number));
            if n == 0 {
                assert_eq!(seen, [0], "game 2 waits for game 1");
            }
        }
        assert_eq!(seen, [0, 1, 2, 3, 4]);
        assert!(in_order.waiting.is_empty());
    }
}
