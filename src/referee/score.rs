//! Scores as the courses count them, and the running totals of a match.
//!
//! Connect-X: win 3, draw 1, loss 0. m,n,k-games: a win as first player 2, as second player 3,
//! draw 1, loss 0. A forfeit is a loss, and gives the opponent the points of a win.

use super::game::{GameEnd, GameRecord};
use crate::game::registry::GameSpec;
use crate::game::Outcome;
use std::time::Duration;

/// Points of each side (indexed by [`crate::game::Side::index`]), as the game's registry entry
/// counts them.
pub fn points(spec: &GameSpec, end: &GameEnd) -> [u32; 2] {
    let mut p = [0, 0];
    match end {
        GameEnd::Played(Outcome::Draw) | GameEnd::DeadDraw => p = [spec.draw_points(), spec.draw_points()],
        GameEnd::BothForfeit { .. } => {}
        _ => {
            let winner = end.winner().expect("a win or a forfeit has a winner");
            p[winner.index()] = spec.win_points(winner);
        }
    }
    p
}

/// Reply times of one engine.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ReplyStats {
    pub count: u64,
    pub total: Duration,
    pub max: Duration,
}

impl ReplyStats {
    pub fn add(&mut self, d: Duration) {
        self.count += 1;
        self.total += d;
        self.max = self.max.max(d);
    }

    pub fn merge(&mut self, other: &ReplyStats) {
        self.count += other.count;
        self.total += other.total;
        self.max = self.max.max(other.max);
    }

    pub fn mean(&self) -> Option<Duration> {
        (self.count > 0).then(|| Duration::from_nanos((self.total.as_nanos() / self.count as u128) as u64))
    }
}

/// Results from engine1's point of view. `wins + draws + losses + forfeits == games`: `wins`
/// counts the games engine2 forfeited (also in `opp_forfeits`), `losses` only the games lost on
/// the board; a game both engines forfeited counts in `forfeits` and `opp_forfeits`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub forfeits: u32,
    pub opp_forfeits: u32,
    /// Points of engine1 and engine2.
    pub score: [u32; 2],
    /// Reply times of engine1 and engine2.
    pub replies: [ReplyStats; 2],
}

impl Tally {
    pub fn add(&mut self, record: &GameRecord) {
        let me = record.side_of(0);
        self.games += 1;
        match &record.end {
            GameEnd::Played(Outcome::Draw) | GameEnd::DeadDraw => self.draws += 1,
            GameEnd::Played(Outcome::Win(side)) if *side == me => self.wins += 1,
            GameEnd::Played(Outcome::Win(_)) => self.losses += 1,
            GameEnd::Forfeit { loser, .. } if *loser == me => self.forfeits += 1,
            GameEnd::Forfeit { .. } => {
                self.wins += 1;
                self.opp_forfeits += 1;
            }
            GameEnd::BothForfeit { .. } => {
                self.forfeits += 1;
                self.opp_forfeits += 1;
            }
        }
        let p = points(&record.spec, &record.end);
        for e in 0..2 {
            self.score[e] += p[record.side_of(e).index()];
            for &d in &record.replies[e] {
                self.replies[e].add(d);
            }
        }
    }

    pub fn merge(&mut self, other: &Tally) {
        self.games += other.games;
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
        self.forfeits += other.forfeits;
        self.opp_forfeits += other.opp_forfeits;
        for e in 0..2 {
            self.score[e] += other.score[e];
            self.replies[e].merge(&other.replies[e]);
        }
    }
}

/// Engine1's score of a game: 1 for a win (engine2's forfeit too), 1/2 for a draw or a game
/// both forfeited, 0 for a loss.
pub fn game_score(record: &GameRecord) -> f64 {
    match record.end.winner() {
        Some(side) if side == record.side_of(0) => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    }
}

/// The mean of `samples` and its 95% error bar (1.96 standard errors of the mean); None for
/// fewer than two samples.
pub fn mean_and_error(samples: &[f64]) -> Option<(f64, f64)> {
    let n = samples.len();
    if n < 2 {
        return None;
    }
    let mean = samples.iter().sum::<f64>() / n as f64;
    let variance = samples.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n as f64;
    Some((mean, 1.96 * (variance / n as f64).sqrt()))
}

/// Engine1's score over `games` (in the runner's order: the two games of a round, one with
/// each colour from the same opening, are consecutive), with two 95% error bars: taking the
/// games as independent samples, and taking each round's pair as one sample (the mean of its two
/// scores). From unbalanced openings the pair's games are not independent (the side the opening
/// favours wins both): most pairs then score 1/2 whoever plays better, and only the pairs'
/// spread measures the difference between the engines, as in chess engines' testing by game
/// pairs. None when there are fewer than two pairs.
pub fn score_line(games: &[GameRecord]) -> Option<String> {
    let scores: Vec<f64> = games.iter().map(game_score).collect();
    let pairs: Vec<f64> = scores.chunks_exact(2).map(|p| (p[0] + p[1]) / 2.0).collect();
    let (mean, by_game) = mean_and_error(&scores)?;
    let (_, by_pair) = mean_and_error(&pairs)?;
    Some(format!(
        "engine1 score {mean:.3} over {} games: +- {by_game:.3} (95%, games as independent), +- {by_pair:.3} \
         (95%, the {} rounds' game pairs as samples)",
        scores.len(),
        pairs.len()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Side;
    use crate::referee::adapter::{Fault, FaultKind};

    fn mnk() -> GameSpec {
        GameSpec::parse("mnk 3 3 3").unwrap()
    }
    fn cx() -> GameSpec {
        GameSpec::parse("cx 6 7 4").unwrap()
    }
    fn forfeit(loser: Side) -> GameEnd {
        GameEnd::Forfeit { loser, fault: Fault::new(FaultKind::Timeout, "slow") }
    }
    fn record(spec: GameSpec, first: usize, end: GameEnd) -> GameRecord {
        let ms = Duration::from_millis;
        GameRecord { number: 0, spec, first, moves: vec![], end, replies: [vec![ms(10), ms(30)], vec![ms(5)]] }
    }

    #[test]
    fn course_points() {
        let (first, second) = (Side::First, Side::Second);
        assert_eq!(points(&cx(), &GameEnd::Played(Outcome::Win(first))), [3, 0]);
        assert_eq!(points(&cx(), &GameEnd::Played(Outcome::Win(second))), [0, 3]);
        assert_eq!(points(&cx(), &GameEnd::Played(Outcome::Draw)), [1, 1]);
        assert_eq!(points(&mnk(), &GameEnd::Played(Outcome::Win(first))), [2, 0]);
        assert_eq!(points(&mnk(), &GameEnd::Played(Outcome::Win(second))), [0, 3]);
        assert_eq!(points(&mnk(), &GameEnd::Played(Outcome::Draw)), [1, 1]);
        // A forfeit is a win for the opponent, worth what a win with its colour is worth.
        assert_eq!(points(&mnk(), &forfeit(first)), [0, 3]);
        assert_eq!(points(&mnk(), &forfeit(second)), [2, 0]);
        assert_eq!(points(&cx(), &forfeit(first)), [0, 3]);
        let f = Fault::new(FaultKind::Crash, "x");
        assert_eq!(points(&mnk(), &GameEnd::BothForfeit { first: f.clone(), second: f }), [0, 0]);
    }

    #[test]
    fn scores_and_error_bars() {
        assert_eq!(mean_and_error(&[1.0]), None);
        let (mean, error) = mean_and_error(&[1.0, 0.0, 1.0, 0.0]).unwrap();
        assert_eq!(mean, 0.5);
        // Variance 1/4, so the standard error is (1/4 / 4)^(1/2) = 1/4.
        assert!((error - 1.96 / 4.0).abs() < 1e-12);
        assert_eq!(mean_and_error(&[0.5, 0.5, 0.5]), Some((0.5, 0.0)));
        // engine1 wins as first (game 0), draws, loses on the board, wins by engine2's forfeit.
        let g = [
            record(mnk(), 0, GameEnd::Played(Outcome::Win(Side::First))),
            record(mnk(), 1, GameEnd::Played(Outcome::Draw)),
            record(mnk(), 1, GameEnd::Played(Outcome::Win(Side::First))),
            record(mnk(), 1, forfeit(Side::First)),
        ];
        assert_eq!(g.iter().map(game_score).collect::<Vec<_>>(), [1.0, 0.5, 0.0, 1.0]);
        // An unbalanced opening's pair won by its favoured side each time: the pairs score 1/2
        // exactly, so their error bar is 0 while the games' is not.
        let favoured = [
            record(mnk(), 0, GameEnd::Played(Outcome::Win(Side::First))),
            record(mnk(), 1, GameEnd::Played(Outcome::Win(Side::First))),
            record(mnk(), 0, GameEnd::Played(Outcome::Win(Side::First))),
            record(mnk(), 1, GameEnd::Played(Outcome::Win(Side::First))),
        ];
        let line = score_line(&favoured).unwrap();
        assert!(line.starts_with("engine1 score 0.500 over 4 games: +- 0.490 (95%"), "{line}");
        assert!(line.contains("+- 0.000 (95%, the 2 rounds' game pairs as samples)"), "{line}");
        assert_eq!(score_line(&favoured[..3]), None, "one pair and a half");
    }

    #[test]
    fn tally_from_engine1_view() {
        let mut t = Tally::default();
        // engine1 first and wins an m,n,k game: 2 points.
        t.add(&record(mnk(), 0, GameEnd::Played(Outcome::Win(Side::First))));
        // engine1 second and wins: 3 points.
        t.add(&record(mnk(), 1, GameEnd::Played(Outcome::Win(Side::Second))));
        // engine1 second, loses on the board: engine2 (first) gets 2.
        t.add(&record(mnk(), 1, GameEnd::Played(Outcome::Win(Side::First))));
        // engine1 first, times out: engine2 (second) gets 3.
        t.add(&record(mnk(), 0, forfeit(Side::First)));
        // engine2 first, forfeits: engine1 (second) gets 3, counted as a win.
        t.add(&record(mnk(), 1, forfeit(Side::First)));
        // A draw.
        t.add(&record(cx(), 0, GameEnd::Played(Outcome::Draw)));
        assert_eq!(t.games, 6);
        assert_eq!((t.wins, t.draws, t.losses, t.forfeits, t.opp_forfeits), (3, 1, 1, 1, 1));
        assert_eq!(t.wins + t.draws + t.losses + t.forfeits, t.games);
        assert_eq!(t.score, [2 + 3 + 3 + 1, 2 + 3 + 1]);
        assert_eq!(t.replies[0].count, 12);
        assert_eq!(t.replies[0].max, Duration::from_millis(30));
        assert_eq!(t.replies[0].mean(), Some(Duration::from_millis(20)));
        assert_eq!(t.replies[1].mean(), Some(Duration::from_millis(5)));

        let mut total = Tally::default();
        total.merge(&t);
        total.merge(&t);
        assert_eq!(total.games, 12);
        assert_eq!(total.score, [18, 12]);
        assert_eq!(total.replies[0].max, Duration::from_millis(30));
        assert_eq!(total.replies[0].mean(), Some(Duration::from_millis(20)));
        assert_eq!(ReplyStats::default().mean(), None);
    }
}
