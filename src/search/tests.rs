//! The search on toy games built for it, checked against plain minimax: one where a side may
//! move several times in a row, one whose moves are paths with the same start and end. Search
//! on the real games is tested with them (`src/game/search_tests.rs`).

use super::*;
use anyhow::{anyhow, Result};

/// What every toy game's knowledge is: no evaluation beyond the game's own score, every legal
/// move a candidate, nothing forced.
struct Plain;

/// A toy game's running score, from the side to move's view (for the evaluation).
trait Scored: Game {
    fn lead(&self) -> Score;
}

impl<G: Scored + Sync> Knowledge<G> for Plain {
    fn evaluate(&self, g: &G) -> Score {
        g.lead()
    }

    fn winning_move(&self, _g: &G) -> Option<G::Move> {
        None
    }

    fn quiet(&self, _g: &G) -> bool {
        true
    }

    fn candidates(&self, g: &G, out: &mut Vec<Candidate<G::Move>>) -> bool {
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        out.extend(moves.into_iter().map(|mv| Candidate { mv, score: 0 }));
        true
    }
}

impl<G: Scored + Sync> RootKnowledge<G> for Plain {}

/// Plain minimax: 1 if the side to move wins, 0 draw, -1 loss, for any game (the same side
/// may move again: its value is then taken as it is, not negated).
fn minimax<G: Game>(g: &mut G) -> i32 {
    if let Some(outcome) = g.outcome() {
        return match outcome {
            Outcome::Draw => 0,
            Outcome::Win(side) if side == g.to_move() => 1,
            Outcome::Win(_) => -1,
        };
    }
    let me = g.to_move();
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let mut best = -1;
    for mv in moves {
        g.play(mv);
        let v = if g.to_move() == me { minimax(g) } else { -minimax(g) };
        g.undo();
        best = best.max(v);
    }
    best
}

fn solve<G: Scored + Sync>(g: &mut G) -> SearchResult<G::Move> {
    let r = Searcher::new(1).search(g, &Plain, &Limits::infinite());
    assert!(r.proved, "an unlimited search of a finite game ends in a proof");
    r
}

/// Counters in a pile; a move takes 1, 2 or 3 of them, and who takes exactly 2 (leaving some)
/// moves again. Who takes the last counter wins.
#[derive(Clone, Debug)]
struct Bonus {
    pile: u32,
    to_move: Side,
    /// Each move: how many it took and who moved.
    history: Vec<(u32, Side)>,
}

impl Bonus {
    fn new(pile: u32) -> Bonus {
        Bonus { pile, to_move: Side::First, history: Vec::new() }
    }
}

impl Game for Bonus {
    type Move = u32;
    fn to_move(&self) -> Side {
        self.to_move
    }
    fn legal_moves(&self, out: &mut Vec<u32>) {
        out.extend((1..=3).filter(|&t| t <= self.pile));
    }
    fn is_legal(&self, mv: u32) -> bool {
        (1..=3).contains(&mv) && mv <= self.pile
    }
    fn play(&mut self, mv: u32) {
        self.pile -= mv;
        self.history.push((mv, self.to_move));
        if !(mv == 2 && self.pile > 0) {
            self.to_move = self.to_move.other();
        }
    }
    fn undo(&mut self) {
        let (mv, side) = self.history.pop().expect("a move to undo");
        self.pile += mv;
        self.to_move = side;
    }
    fn moves_played(&self) -> usize {
        self.history.len()
    }
    fn hash(&self) -> u64 {
        (self.pile as u64) << 1 | self.to_move.index() as u64
    }
    fn outcome(&self) -> Option<Outcome> {
        (self.pile == 0).then(|| Outcome::Win(self.history.last().expect("the last taker").1))
    }
    fn move_key(&self, mv: u32) -> u32 {
        mv
    }
    fn move_key_space(&self) -> usize {
        4
    }
    fn move_for_key(&self, key: u32) -> Option<u32> {
        self.is_legal(key).then_some(key)
    }
    fn parse_move(&self, text: &str) -> Result<u32> {
        text.parse().map_err(|_| anyhow!("not a count: {text}"))
    }
    fn format_move(&self, mv: u32) -> String {
        mv.to_string()
    }
}

impl Scored for Bonus {
    fn lead(&self) -> Score {
        0
    }
}

#[test]
fn extra_turns_are_searched_as_the_same_sides_moves() {
    let mut extra_turns = 0;
    for pile in 1..=24 {
        let mut g = Bonus::new(pile);
        let r = solve(&mut g);
        assert_eq!(r.score.signum(), minimax(&mut g), "pile {pile}");
        assert_eq!(g.pile, pile, "the game is left as it was");
        // The move played keeps the value.
        g.play(r.best);
        let after = if g.outcome().is_some() {
            1
        } else if g.to_move() == Side::First {
            minimax(&mut g)
        } else {
            -minimax(&mut g)
        };
        assert_eq!(after, r.score.signum(), "pile {pile}: {}", r.best);
        extra_turns += (r.best == 2 && g.to_move() == Side::First) as u32;
    }
    assert!(extra_turns > 0, "some best moves take the extra turn");
}

#[test]
fn a_win_through_extra_turns_counts_every_ply() {
    // Pile 4: take 2 (and move again), then 2: a win in two plies of the same side.
    let mut g = Bonus::new(4);
    assert_eq!(solve(&mut g).score, WIN - 2);
}

/// A token walks a line of `len` segments; each segment has two roads between the same two
/// points, a left one and a right one, each worth points to whoever takes it. A move is a road
/// from the token's point to the next: two moves with the same start and end. The sides
/// alternate; the higher score at the end wins.
#[derive(Clone, Debug)]
struct Roads {
    /// Points of the left and right road of each segment.
    values: Vec<[i32; 2]>,
    score: [i32; 2],
    /// Roads taken (0 left, 1 right), in order.
    taken: Vec<u32>,
}

/// A road: segment * 2 + side (0 left, 1 right).
type Road = u32;

impl Roads {
    fn new(values: &[[i32; 2]]) -> Roads {
        Roads { values: values.to_vec(), score: [0, 0], taken: Vec::new() }
    }
    fn segment(&self) -> usize {
        self.taken.len()
    }
}

impl Game for Roads {
    type Move = Road;
    fn to_move(&self) -> Side {
        Side::after_moves(self.taken.len())
    }
    fn legal_moves(&self, out: &mut Vec<Road>) {
        let s = self.segment() as u32;
        if (s as usize) < self.values.len() {
            out.extend([2 * s, 2 * s + 1]);
        }
    }
    fn is_legal(&self, mv: Road) -> bool {
        mv / 2 == self.segment() as u32 && self.segment() < self.values.len()
    }
    fn play(&mut self, mv: Road) {
        let me = self.to_move().index();
        self.score[me] += self.values[self.segment()][(mv % 2) as usize];
        self.taken.push(mv % 2);
    }
    fn undo(&mut self) {
        let side = self.taken.pop().expect("a road to undo");
        let me = self.to_move().index();
        self.score[me] -= self.values[self.segment()][side as usize];
    }
    fn moves_played(&self) -> usize {
        self.taken.len()
    }
    fn hash(&self) -> u64 {
        // The roads taken, as bits, above the count: different paths, different positions.
        self.taken.iter().fold(self.taken.len() as u64, |h, &s| h.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (s as u64 + 1))
    }
    fn outcome(&self) -> Option<Outcome> {
        if self.segment() < self.values.len() {
            return None;
        }
        Some(match self.score[0].cmp(&self.score[1]) {
            std::cmp::Ordering::Greater => Outcome::Win(Side::First),
            std::cmp::Ordering::Less => Outcome::Win(Side::Second),
            std::cmp::Ordering::Equal => Outcome::Draw,
        })
    }
    fn move_key(&self, mv: Road) -> u32 {
        mv
    }
    fn move_key_space(&self) -> usize {
        2 * self.values.len()
    }
    fn move_for_key(&self, key: u32) -> Option<Road> {
        self.is_legal(key).then_some(key)
    }
    fn parse_move(&self, text: &str) -> Result<Road> {
        text.parse().map_err(|_| anyhow!("not a road: {text}"))
    }
    fn format_move(&self, mv: Road) -> String {
        mv.to_string()
    }
}

impl Alternating for Roads {}

impl Scored for Roads {
    fn lead(&self) -> Score {
        let me = self.to_move().index();
        self.score[me] - self.score[1 - me]
    }
}

#[test]
fn moves_with_the_same_start_and_end_are_told_apart() {
    // The right road of the first segment wins; the left one, the same two points, loses.
    let mut g = Roads::new(&[[1, 5], [3, 0], [0, 2]]);
    let r = solve(&mut g);
    assert_eq!(r.score.signum(), minimax(&mut g));
    assert_eq!((r.score.signum(), r.best), (1, 1), "{r:?}");
    // Many lines, each checked against plain minimax.
    let mut seed = 7u64;
    for _ in 0..200 {
        let values: Vec<[i32; 2]> = (0..6)
            .map(|_| {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                [(seed >> 33) as i32 % 5, (seed >> 45) as i32 % 5]
            })
            .collect();
        let mut g = Roads::new(&values);
        let r = solve(&mut g);
        assert_eq!(r.score.signum(), minimax(&mut g), "{values:?}");
        g.play(r.best);
        assert_eq!(-minimax(&mut g), r.score.signum(), "{values:?}: road {}", r.best);
    }
}

#[test]
fn df_pn_proves_what_minimax_finds_on_an_alternating_game() {
    // df-pn takes one ply for one side's turn: it is given only games that say they alternate
    // (`Bonus`, with its extra turns, does not implement `Alternating` and cannot be given).
    let mut seed = 11u64;
    for _ in 0..100 {
        let values: Vec<[i32; 2]> = (0..5)
            .map(|_| {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                [(seed >> 33) as i32 % 4, (seed >> 45) as i32 % 4]
            })
            .collect();
        let mut g = Roads::new(&values);
        let wins = minimax(&mut g) == 1;
        let mut search = dfpn::Dfpn::new(1 << 12, u64::MAX);
        let verdict = search.prove(&mut dfpn::GameTree::new(&g, &Plain));
        assert_eq!(verdict == dfpn::Verdict::Proved, wins, "{values:?}");
        assert_ne!(verdict, dfpn::Verdict::Unknown);
    }
}

#[test]
fn plain_alpha_beta_agrees_with_minimax_and_prunes() {
    use super::plain::{alpha_beta, Order};
    for pile in 1..=16 {
        let mut g = Bonus::new(pile);
        let exact = minimax(&mut g);
        for order in [Order::Generated, Order::Knowledge] {
            let r = alpha_beta(&mut g, &Plain, 64, order);
            assert_eq!(r.score.signum(), exact, "pile {pile}");
            assert_eq!(g.pile, pile, "the game is left as it was");
            // The best move keeps the value (an extra turn keeps the sign).
            let mut after = g.clone();
            after.play(r.best.unwrap());
            let v = match after.outcome() {
                Some(_) => 1,
                None if after.to_move() == Side::First => minimax(&mut after),
                None => -minimax(&mut after),
            };
            assert_eq!(v, exact, "pile {pile}");
        }
    }
    // Pruning: fewer nodes than the whole tree, which minimax visits.
    let mut g = Bonus::new(16);
    let all = alpha_beta(&mut g, &Plain, 3, Order::Generated);
    assert!(all.nodes < 1 + 3 + 9 + 27, "{}", all.nodes);
    assert_eq!(
        alpha_beta(&mut g, &Plain, 0, Order::Generated),
        plain::Plain { score: 0, best: None, pv: vec![], nodes: 1, depth: 0 }
    );
}

/// `abN` under a clock (issue 39: `ab64` never replied and ignored `quit`): unlimited, it answers
/// as the fixed-depth search does; with the stop flag raised or no time left, it answers at once
/// with a legal move and the depth it finished (none).
#[test]
fn plain_alpha_beta_within_limits_answers_at_once_when_stopped() {
    use super::plain::{alpha_beta, alpha_beta_within, Order};
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    use std::time::{Duration, Instant};
    for pile in [5, 9, 16] {
        let mut g = Bonus::new(pile);
        for depth in [1, 3, 6] {
            let fixed = alpha_beta(&mut g, &Plain, depth, Order::Knowledge);
            let within = alpha_beta_within(&mut g, &Plain, depth, Order::Knowledge, &Limits::infinite());
            assert_eq!((within.score, within.best, within.depth), (fixed.score, fixed.best, depth), "pile {pile}");
        }
        let stopped = Limits::infinite().with_stop(Arc::new(AtomicBool::new(true)));
        let no_time =
            Limits::per_move(Instant::now() - Duration::from_secs(1), Duration::from_millis(10), Duration::ZERO);
        for limits in [stopped, no_time] {
            // 64 moves deep: a tree of about 3^64 nodes without the limits.
            let r = alpha_beta_within(&mut g, &Plain, 64, Order::Knowledge, &limits);
            assert_eq!(r.depth, 0);
            assert!(r.nodes <= 64, "{} nodes after the stop", r.nodes);
            assert!(g.is_legal(r.best.unwrap()));
            assert_eq!(g.pile, pile, "the game is left as it was");
        }
    }
}

/// A token on a small directed graph, moved by the players in turn. Node `WON` wins for the
/// side that moves the token there, node `LOST` loses for it; a position (node, side to move)
/// that occurred earlier in the game is drawn by history ([`Game::drawn_by_history`]), so the
/// value of a position depends on the path to it.
#[derive(Clone, Debug)]
struct Walk {
    edges: Vec<Vec<u8>>,
    node: u8,
    to_move: Side,
    /// The positions before each move.
    history: Vec<(u8, Side)>,
}

const WON: u8 = 5;
const LOST: u8 = 6;
impl Game for Walk {
    type Move = u8;
    fn to_move(&self) -> Side {
        self.to_move
    }
    fn legal_moves(&self, out: &mut Vec<u8>) {
        if self.outcome().is_none() {
            out.extend(&self.edges[self.node as usize]);
        }
    }
    fn is_legal(&self, mv: u8) -> bool {
        self.outcome().is_none() && self.edges[self.node as usize].contains(&mv)
    }
    fn play(&mut self, mv: u8) {
        self.history.push((self.node, self.to_move));
        self.node = mv;
        self.to_move = self.to_move.other();
    }
    fn undo(&mut self) {
        let (node, side) = self.history.pop().expect("a move to take back");
        (self.node, self.to_move) = (node, side);
    }
    fn moves_played(&self) -> usize {
        self.history.len()
    }
    fn hash(&self) -> u64 {
        1 + self.node as u64 * 2 + self.to_move.index() as u64
    }
    fn outcome(&self) -> Option<Outcome> {
        match self.node {
            // The side that moved there (not the side to move) wins or loses.
            WON => Some(Outcome::Win(self.to_move.other())),
            LOST => Some(Outcome::Win(self.to_move)),
            _ => None,
        }
    }
    fn drawn_by_history(&self) -> bool {
        self.history.contains(&(self.node, self.to_move))
    }
    fn move_key(&self, mv: u8) -> u32 {
        mv as u32
    }
    fn move_key_space(&self) -> usize {
        7
    }
    fn move_for_key(&self, key: u32) -> Option<u8> {
        Some(key as u8).filter(|&m| self.is_legal(m))
    }
    fn parse_move(&self, text: &str) -> Result<u8> {
        text.parse().map_err(|_| anyhow::anyhow!("a node"))
    }
    fn format_move(&self, mv: u8) -> String {
        mv.to_string()
    }
}

impl Scored for Walk {
    fn lead(&self) -> Score {
        0
    }
}

#[test]
fn a_draw_by_history_stays_with_its_path() {
    // P = node 1, First to move. First may go to 0 (Second then wins) or 2; from 2 Second goes
    // to 3 or loses at once (6). At 3, First wins (5), unless (3, First) occurred before: then
    // Second's move to 3 draws. Reached from 3 through 4, P is a draw; reached fresh, a win.
    let edges = vec![vec![WON], vec![0, 2], vec![3, LOST], vec![WON, 4], vec![1]];
    let mut through = Walk { edges: edges.clone(), node: 3, to_move: Side::First, history: Vec::new() };
    through.play(4);
    through.play(1);
    let mut fresh = Walk { edges, node: 1, to_move: Side::First, history: Vec::new() };
    assert_eq!((minimax_with_history(&mut through.clone()), minimax_with_history(&mut fresh.clone())), (0, 1));
    for depth in [4, 12] {
        let mut searcher = Searcher::new(1);
        let r = searcher.search(&mut through, &Plain, &Limits::depth(depth));
        assert_eq!((r.score, r.best, r.proved), (0, 2, false), "P after 3, 4: a draw (no proof) by moving to 2");
        // The same table: the draw found through 3 and 4 is not taken for P reached fresh.
        let r = searcher.search(&mut fresh, &Plain, &Limits::depth(depth));
        assert!(r.score >= WIN_BOUND && r.best == 2, "P reached fresh: a win: {r:?}");
    }
    // Not guarded (as in most engines): the other way round, a proof stored by a search
    // without the history (P a win) is taken where the history would allow the draw.
}

/// Minimax where a repeated position is a draw: 1 win, 0 draw, -1 loss for the side to move.
fn minimax_with_history(g: &mut Walk) -> i32 {
    if g.drawn_by_history() {
        return 0;
    }
    match g.outcome() {
        Some(Outcome::Win(side)) => return if side == g.to_move() { 1 } else { -1 },
        Some(Outcome::Draw) => return 0,
        None => {}
    }
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let mut best = -1;
    for mv in moves {
        g.play(mv);
        best = best.max(-minimax_with_history(g));
        g.undo();
    }
    best
}

/// The root policy says what decided its move: a search, the only move under a clock, no time
/// left; the source travels with the move (no caller rebuilds it from depth and node counts).
#[test]
fn the_root_policy_names_its_source() {
    use std::sync::{atomic::AtomicBool, Arc};
    use std::time::{Duration, Instant};
    let far = Duration::from_secs(3600);
    let mut g = Bonus::new(9);
    let r = Searcher::new(1).search(&mut g, &Plain, &Limits::depth(3));
    assert_eq!((r.source, r.depth), (Source::Search, 3));
    // One counter left: the only move, answered at once under a clock.
    let mut g = Bonus::new(1);
    let r = Searcher::new(1).search(&mut g, &Plain, &Limits::per_move(Instant::now(), far, Duration::ZERO));
    assert_eq!((r.source, r.best, r.nodes), (Source::OnlyMove, 1, 0));
    // A stop already requested: the first move in order, without a search.
    let mut g = Bonus::new(9);
    let stop = Arc::new(AtomicBool::new(true));
    let limits = Limits::per_move(Instant::now(), far, Duration::ZERO).with_stop(stop);
    let r = Searcher::new(1).search(&mut g, &Plain, &limits);
    assert_eq!((r.source, r.nodes), (Source::NoTime, 0));
}

/// Knowledge that leaves out the game's stage 1 (and nothing else).
struct SkipsStageOne;

impl Knowledge<Bonus> for SkipsStageOne {
    fn evaluate(&self, g: &Bonus) -> Score {
        g.lead()
    }
    fn winning_move(&self, _g: &Bonus) -> Option<u32> {
        None
    }
    fn quiet(&self, _g: &Bonus) -> bool {
        true
    }
    fn candidates(&self, g: &Bonus, out: &mut Vec<Candidate<u32>>) -> bool {
        Plain.candidates(g, out)
    }
    fn skip_stage(&self, _g: &Bonus, stage: Stage) -> bool {
        stage == Stage::Game(1)
    }
}

/// The staged picker hands out every move of a node exactly once (the table's move first, then
/// the list by stage: the game's stages from 0, the killers, the rest, each by its key), or
/// reports it as left out when the game skips its stage.
#[test]
fn the_picker_gives_every_move_exactly_once() {
    use super::picker::{ordering_key, MovePicker, Step};
    use rand::{Rng, SeedableRng};
    let g = Bonus::new(9);
    let mut rng = rand::rngs::SmallRng::seed_from_u64(11);
    for round in 0..200 {
        let n = rng.gen_range(0..40u32);
        let stages = [Stage::Game(0), Stage::Game(1), Stage::Game(2), Stage::Killers, Stage::Rest];
        let list: Vec<Candidate<u32>> = (1..=n)
            .map(|mv| {
                let stage = stages[rng.gen_range(0..stages.len())];
                let key = ordering_key(stage, rng.gen_range(-1000..1000), rng.gen_range(0..1000));
                Candidate { mv, score: key }
            })
            .collect();
        let skips = round % 2 == 1;
        let table = (round % 3 == 0).then_some((100u32, 100u32));
        let mut picker = MovePicker::node(table, Vec::new());
        let mut handed = Vec::new();
        let mut stages_seen = Vec::new();
        let mut left_out = 0;
        loop {
            let picked = if skips {
                picker.next(&SkipsStageOne, &g, || left_out += 1)
            } else {
                picker.next(&Plain, &g, || left_out += 1)
            };
            match picked {
                Some(p) => {
                    assert_eq!(p.number, handed.len() + left_out, "numbered in order, skipped moves too");
                    handed.push(p.mv);
                    stages_seen.push(p.stage);
                }
                None if picker.step == Step::Generate => {
                    picker.list.extend(list.iter().copied());
                    picker.generated();
                }
                None => break,
            }
        }
        let skipped: Vec<u32> =
            list.iter().filter(|c| skips && Stage::of_key(c.score) == Stage::Game(1)).map(|c| c.mv).collect();
        assert_eq!(left_out, skipped.len(), "round {round}");
        let mut expected: Vec<u32> = table.map(|t| t.0).into_iter().chain(list.iter().map(|c| c.mv)).collect();
        expected.retain(|mv| !skipped.contains(mv));
        let mut got = handed.clone();
        got.sort_unstable();
        expected.sort_unstable();
        assert_eq!(got, expected, "round {round}: each move once");
        // The list's moves come by key, highest first: stage by stage.
        let keys: Vec<i64> = handed.iter().filter(|&&mv| mv != 100).map(|mv| list[*mv as usize - 1].score).collect();
        assert!(keys.windows(2).all(|w| w[0] >= w[1]), "round {round}: by key");
        if table.is_some() {
            assert_eq!(stages_seen.first(), Some(&Stage::TableMove));
        }
    }
}
