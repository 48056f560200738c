//! Running a match, on one or more jobs. A job is a pair of engines (engine1, engine2) that plays
//! games one after another; jobs take the next game from a shared queue, so they run in parallel.
//! Nothing about a game depends on the job that plays it: game `i` has seed `SEED + i`, the same
//! colours and the same opening whatever the number of jobs ([`schedule`] is a function of the
//! plan alone), and the results are collected in game order. A match may stop early (an SPRT's
//! verdict): the games counted are then those passed on in order until the stop, whatever the
//! jobs, and the games still being played are abandoned.

use super::adapter::EngineAdapter;
use super::game::{play_game, GameRecord, Opening, Terms};
use super::score::Tally;
use super::{MatchPlan, MatchResult};
use anyhow::{anyhow, Result};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::Arc;

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
    /// The given opening the round starts from (an index into the plan's openings), if any.
    pub opening: Option<usize>,
}

/// Every game of `plan`, in order: each board `rounds` times two games, engine1 first in game
/// `2r` of the board and engine2 in game `2r + 1`, so the colours are balanced exactly (unless
/// the plan fixes who moves first). Round `r` of a board starts from the given opening `r mod
/// n` (n openings), or with `shuffle_openings` from the openings in an order drawn from the seed
/// afresh for every n rounds (each opening once in every n rounds).
pub fn schedule(plan: &MatchPlan) -> Vec<Scheduled> {
    let per_board = 2 * plan.rounds;
    let order = opening_order(plan);
    (0..plan.boards.len() * per_board)
        .map(|number| {
            let round = number % per_board / 2;
            Scheduled {
                number,
                board: number / per_board,
                first: plan.first.unwrap_or(number % 2),
                seed: plan.seed.wrapping_add(number as u64),
                round,
                opening_seed: plan.seed.wrapping_add((number / 2) as u64),
                opening: (!order.is_empty()).then(|| order[round % order.len()]),
            }
        })
        .collect()
}

/// The games of `plan` its shard plays, in order: the pairs `p` (games `2p` and `2p + 1` of
/// [`schedule`]) that [`super::shard::Shard::holds`], the same games as in the whole match.
pub fn shard_schedule(plan: &MatchPlan) -> Vec<Scheduled> {
    schedule(plan).into_iter().filter(|g| plan.shard.holds(g.number / 2)).collect()
}

/// The given openings of the rounds of a board, in order, repeating after as many rounds as
/// there are entries: `0, 1, ..., n - 1`, or shuffled blocks of them (enough for every round).
fn opening_order(plan: &MatchPlan) -> Vec<usize> {
    let n = plan.openings.len();
    if n == 0 || !plan.shuffle_openings {
        return (0..n).collect();
    }
    let mut rng = SmallRng::seed_from_u64(plan.seed);
    let mut order = Vec::with_capacity(plan.rounds.div_ceil(n) * n);
    while order.len() < plan.rounds {
        let mut block: Vec<usize> = (0..n).collect();
        block.shuffle(&mut rng);
        order.extend(block);
    }
    order
}

/// Plays `plan`, one job per engine pair in `jobs`. Every engine must start; after that, every
/// failure of an engine only forfeits a game (the engine is started again for the next one).
///
/// `on_finished(record, done)` is called as each game finishes (in any order when there are
/// several jobs; `done` games are finished so far); `on_game(record)` is called in the order of
/// the game numbers, as soon as every earlier game has finished, and ends the match when it
/// returns false: the games in play are abandoned, and the result holds the games passed on
/// until then (the one that stopped it included).
pub fn run_match(
    plan: &MatchPlan,
    mut jobs: Vec<EnginePair>,
    mut on_finished: impl FnMut(&GameRecord, usize),
    mut on_game: impl FnMut(&GameRecord) -> bool,
) -> Result<MatchResult> {
    if jobs.is_empty() {
        anyhow::bail!("a match needs at least one job");
    }
    for e in jobs.iter_mut().flat_map(|pair| pair.iter_mut()) {
        e.start().map_err(|f| anyhow!("engine {}: {f}", e.name()))?;
    }
    let games = shard_schedule(plan);
    let next = AtomicUsize::new(0);
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel();
    let mut in_order = InOrder::new(games.iter().map(|g| g.number).collect());
    let mut error = None;
    std::thread::scope(|scope| {
        for pair in jobs.iter_mut() {
            let (tx, games, next, stop) = (tx.clone(), &games, &next, &stop);
            scope.spawn(move || work(plan, games, next, stop, pair, tx));
        }
        drop(tx);
        let mut done = 0;
        for message in rx {
            if stop.load(Ordering::Relaxed) {
                // Stopped: the games still coming in are not counted.
                continue;
            }
            match message {
                Ok(record) => {
                    done += 1;
                    on_finished(&record, done);
                    if !in_order.add(record, &mut on_game) {
                        stop.store(true, Ordering::Relaxed);
                    }
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

/// The opening game `g` of `plan` starts from.
pub fn opening_of(plan: &MatchPlan, g: &Scheduled) -> Opening {
    match g.opening {
        None => Opening::Random { plies: plan.opening, seed: g.opening_seed },
        Some(i) => match plan.opening {
            0 => Opening::Moves(plan.openings[i].clone()),
            plies => Opening::MovesThenRandom { moves: plan.openings[i].clone(), plies, seed: g.opening_seed },
        },
    }
}

/// One job: plays the next game of the queue until there is none (or the match stops), then
/// quits its engines.
fn work(
    plan: &MatchPlan,
    games: &[Scheduled],
    next: &AtomicUsize,
    stop: &Arc<AtomicBool>,
    pair: &mut EnginePair,
    tx: Sender<Result<GameRecord>>,
) {
    while !stop.load(Ordering::Relaxed) {
        let Some(g) = games.get(next.fetch_add(1, Ordering::Relaxed)) else { break };
        let spec = &plan.boards[g.board];
        let [e1, e2] = pair;
        let terms = Terms {
            timeout: plan.timeout,
            seed: g.seed,
            dead_draws: plan.dead_draws,
            opening: opening_of(plan, g),
            abort: Some(stop.clone()),
        };
        let result = play_game(g.number, spec, [e1.as_mut(), e2.as_mut()], g.first, &terms)
            .map_err(|e| anyhow!("board '{spec}': {e}"));
        if stop.load(Ordering::Relaxed) || tx.send(result).is_err() {
            break;
        }
    }
    for e in pair.iter_mut() {
        e.quit();
    }
}

/// Puts finished games back in the order of their numbers.
struct InOrder {
    /// The numbers of the games to come, in order (a shard's games skip numbers).
    numbers: Vec<usize>,
    /// The games passed on, in order.
    records: Vec<GameRecord>,
    /// Finished games waiting for an earlier one.
    waiting: BTreeMap<usize, GameRecord>,
}

impl InOrder {
    fn new(numbers: Vec<usize>) -> InOrder {
        InOrder { numbers, records: Vec::new(), waiting: BTreeMap::new() }
    }

    /// Adds a finished game and passes on to `on_game` every game now in order, until it
    /// returns false (then returns false, and the games after that one stay waiting).
    fn add(&mut self, record: GameRecord, on_game: &mut impl FnMut(&GameRecord) -> bool) -> bool {
        self.waiting.insert(record.number, record);
        while let Some(record) = self.numbers.get(self.records.len()).and_then(|n| self.waiting.remove(n)) {
            let go_on = on_game(&record);
            self.records.push(record);
            if !go_on {
                return false;
            }
        }
        true
    }
}

/// The results of the games of `plan`, given in order (all of them, or the first ones of a
/// match cut short; a shard's, or several shards' put together).
pub fn collect(plan: &MatchPlan, games: Vec<GameRecord>) -> MatchResult {
    let mut tallies = vec![Tally::default(); plan.boards.len()];
    let per_board = 2 * plan.rounds;
    for game in &games {
        tallies[game.number / per_board].add(game);
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
            shuffle_openings: false,
            shard: crate::referee::shard::Shard::WHOLE,
        }
    }

    #[test]
    fn shards_play_whole_pairs_of_the_same_schedule_and_together_all_of_it() {
        use crate::referee::shard::Shard;
        let whole = schedule(&plan(2, 5));
        for n in 1..=4 {
            let mut all: Vec<Scheduled> = (0..n)
                .flat_map(|index| shard_schedule(&MatchPlan { shard: Shard { index, count: n }, ..plan(2, 5) }))
                .collect();
            let first = shard_schedule(&MatchPlan { shard: Shard { index: 0, count: n }, ..plan(2, 5) });
            assert!(first.chunks(2).all(|p| p[0].number / 2 == p[1].number / 2 && p[0].number % 2 == 0), "whole pairs");
            all.sort_by_key(|g| g.number);
            assert_eq!(all, whole, "{n} shards");
        }
        let second = shard_schedule(&MatchPlan { shard: Shard { index: 1, count: 3 }, ..plan(2, 5) });
        assert_eq!(second.iter().map(|g| g.number).collect::<Vec<_>>(), [2, 3, 8, 9, 14, 15]);
    }

    #[test]
    fn the_schedule_alternates_colours_and_numbers_seeds() {
        let s = schedule(&plan(2, 2));
        assert_eq!(s.len(), 8);
        assert_eq!(s.iter().map(|g| g.board).collect::<Vec<_>>(), [0, 0, 0, 0, 1, 1, 1, 1]);
        assert_eq!(s.iter().map(|g| g.first).collect::<Vec<_>>(), [0, 1, 0, 1, 0, 1, 0, 1]);
        assert_eq!(
            s[5],
            Scheduled { number: 5, board: 1, first: 1, seed: 15, round: 0, opening_seed: 12, opening: None }
        );
        assert_eq!(s.iter().map(|g| g.round).collect::<Vec<_>>(), [0, 0, 1, 1, 0, 0, 1, 1]);
        let openings: Vec<u64> = s.iter().map(|g| g.opening_seed).collect();
        assert_eq!(openings, [10, 10, 11, 11, 12, 12, 13, 13], "one opening a round");
        let fixed = schedule(&MatchPlan { first: Some(1), ..plan(1, 2) });
        assert_eq!(fixed.iter().map(|g| g.first).collect::<Vec<_>>(), [1, 1, 1, 1]);
    }

    #[test]
    fn given_openings_go_round_in_order_or_in_shuffled_blocks() {
        let openings: Vec<Vec<String>> = (0..3).map(|i| vec![i.to_string()]).collect();
        let plan = MatchPlan { openings, ..plan(1, 7) };
        let rounds =
            |plan: &MatchPlan| -> Vec<usize> { schedule(plan).iter().step_by(2).map(|g| g.opening.unwrap()).collect() };
        assert_eq!(rounds(&plan), [0, 1, 2, 0, 1, 2, 0]);
        let shuffled = MatchPlan { shuffle_openings: true, ..plan.clone() };
        let order = rounds(&shuffled);
        for block in order.chunks(3) {
            let mut sorted = block.to_vec();
            sorted.sort();
            assert_eq!(sorted, [0, 1, 2][..block.len()].to_vec(), "{order:?}: each opening once a block");
        }
        assert_eq!(rounds(&shuffled), order, "drawn from the seed");
        let other: Vec<Vec<usize>> = (0..8).map(|seed| rounds(&MatchPlan { seed, ..shuffled.clone() })).collect();
        assert!(other.iter().any(|o| *o != order), "other seeds, other orders");
        // Both games of a round share the opening.
        assert!(schedule(&shuffled).chunks(2).all(|p| p[0].opening == p[1].opening));
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
        let mut in_order = InOrder::new((0..5).collect());
        let mut seen = vec![];
        for n in [2, 0, 3, 1, 4] {
            assert!(in_order.add(record(n), &mut |r: &GameRecord| {
                seen.push(r.number);
                true
            }));
            if n == 0 {
                assert_eq!(seen, [0], "game 2 waits for game 1");
            }
        }
        assert_eq!(seen, [0, 1, 2, 3, 4]);
        assert!(in_order.waiting.is_empty());
        // A stop after game 1: games 2 and 3, finished, are not passed on.
        let mut in_order = InOrder::new((0..5).collect());
        let mut seen = vec![];
        let mut on_game = |r: &GameRecord| {
            seen.push(r.number);
            r.number != 1
        };
        assert!(in_order.add(record(2), &mut on_game));
        assert!(in_order.add(record(3), &mut on_game));
        assert!(in_order.add(record(0), &mut on_game));
        assert!(!in_order.add(record(1), &mut on_game));
        assert_eq!(seen, [0, 1]);
        assert_eq!(in_order.records.len(), 2);
        // A shard's games: 2 and 3 follow 0 and 1 directly when those are another shard's.
        let mut in_order = InOrder::new(vec![2, 3, 8, 9]);
        let mut seen = vec![];
        for n in [3, 8, 2, 9] {
            assert!(in_order.add(record(n), &mut |r: &GameRecord| {
                seen.push(r.number);
                true
            }));
        }
        assert_eq!(seen, [2, 3, 8, 9]);
    }
}
