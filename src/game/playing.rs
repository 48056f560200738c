//! [`Playing`]: the one implementation of [`AnyGame`], for a game of type `G` with its knowledge
//! `K`. It keeps the game of record (its start and the moves played, so that any past position can
//! be rebuilt), reads and writes moves as text, and hands a move request to the engine
//! ([`Chooser`], src/game/players.rs). The contract it keeps is the interface's
//! (src/game/any.rs): a refused move changes nothing, a search leaves the game as it was.

use super::any::{AnyGame, AnyNotation, AnyRules, AnyThinking, AnyTuning, GameSpec, MoveError, MoveValue};
use super::contract::RulesReport;
use super::players::{Algorithm, Analysis, Chooser, Request, Turn};
use super::render::{with_human_moves, Render, View};
use super::tuned::{quiet_leaf, Leaf, PolicySample, Tuned, TunedPosition, LEAF_PLIES};
use crate::search::{
    Game, Limits, Outcome, RootKnowledge, Score, Searcher, Side, Source, WeightFile, Weights, WIN, WIN_BOUND,
};
use anyhow::{anyhow, bail, Result};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The moves of a line from `start`, each written by `write` in the position it is played in
/// (a move's text may depend on the position: a checkers path); the line stops at a move that
/// is not legal there.
fn line_text<G: Game>(start: &G, moves: &[G::Move], write: impl Fn(&G, G::Move) -> String) -> Vec<String> {
    let mut g = start.clone();
    let mut text = Vec::with_capacity(moves.len());
    for &mv in moves {
        if !g.is_legal(mv) {
            break;
        }
        text.push(write(&g, mv));
        g.play(mv);
    }
    text
}

/// A game of type `G` with its knowledge `K`, as an [`AnyGame`]. The knowledge is shared by
/// the clones (it holds tables kept from move to move).
pub struct Playing<G: Game, K> {
    spec: GameSpec,
    start: G,
    game: G,
    /// The moves from `start` to `game`.
    played: Vec<G::Move>,
    know: Arc<K>,
}

impl<G: Game, K> Clone for Playing<G, K> {
    fn clone(&self) -> Self {
        Playing {
            spec: self.spec.clone(),
            start: self.start.clone(),
            game: self.game.clone(),
            played: self.played.clone(),
            know: self.know.clone(),
        }
    }
}

impl<G, K> Playing<G, K>
where
    G: Render + Send + 'static,
    K: RootKnowledge<G> + Send + 'static,
{
    /// `game` (at its start) with `know`, described by `spec`.
    pub fn new(spec: GameSpec, game: G, know: K) -> Playing<G, K> {
        Playing { spec, start: game.clone(), game, played: Vec::new(), know: Arc::new(know) }
    }

    fn parse_legal(game: &G, text: &str) -> Result<G::Move, MoveError> {
        if game.outcome().is_some() {
            return Err(MoveError::Illegal("the game is over".into()));
        }
        let mv = game.parse_move(text).map_err(|e| MoveError::Unreadable(e.to_string()))?;
        if !game.is_legal(mv) {
            return Err(MoveError::Illegal(format!("illegal move '{}'", text.trim())));
        }
        Ok(mv)
    }
}

impl<G, K> AnyRules for Playing<G, K>
where
    G: Render + Send + 'static,
    K: RootKnowledge<G> + Send + 'static,
{
    fn spec(&self) -> &GameSpec {
        &self.spec
    }

    fn to_move(&self) -> Side {
        self.game.to_move()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }

    fn end_reason(&self) -> Option<String> {
        self.game.outcome().and(self.game.end_reason())
    }

    fn is_dead_draw(&self) -> bool {
        self.game.is_dead_draw()
    }

    fn history(&self) -> Vec<String> {
        line_text(&self.start, &self.played, G::format_move)
    }

    fn legal_moves(&self) -> Vec<String> {
        let mut moves = Vec::new();
        self.game.legal_moves(&mut moves);
        moves.into_iter().map(|m| self.game.format_move(m)).collect()
    }

    fn play(&mut self, text: &str) -> Result<(), MoveError> {
        let mv = Self::parse_legal(&self.game, text)?;
        self.game.play(mv);
        self.played.push(mv);
        Ok(())
    }

    fn undo(&mut self) -> bool {
        if self.played.pop().is_none() {
            return false;
        }
        self.game.undo();
        true
    }

    fn set_moves(&mut self, moves: &[String]) -> Result<()> {
        let mut game = self.start.clone();
        let mut played = Vec::with_capacity(moves.len());
        for (i, text) in moves.iter().enumerate() {
            let mv = Self::parse_legal(&game, text).map_err(|e| anyhow!("move {}: {e}", i + 1))?;
            game.play(mv);
            played.push(mv);
        }
        self.game = game;
        self.played = played;
        Ok(())
    }

    fn split_moves(&self, words: &[&str]) -> Result<Vec<String>> {
        let mut out = Vec::new();
        let mut i = 0;
        // A move of two words is two words without commas (`16 5` or `16 05`, not `16, 5`): as
        // `move` reads it otherwise.
        let written = |pair: &String| !pair.contains(',') && self.game.parse_move(pair).is_ok();
        while i < words.len() {
            let pair = words.get(i + 1).map(|next| format!("{} {next}", words[i]));
            if self.game.parse_move(words[i]).is_ok() {
                out.push(words[i].to_string());
                i += 1;
            } else if let Some(pair) = pair.filter(written) {
                out.push(pair);
                i += 2;
            } else {
                bail!("cannot read a move at '{}'", words[i..].join(" "));
            }
        }
        Ok(out)
    }

    fn movers(&self) -> Vec<Side> {
        let mut g = self.start.clone();
        let mut sides = Vec::with_capacity(self.played.len());
        for &mv in &self.played {
            sides.push(g.to_move());
            g.play(mv);
        }
        sides
    }

    fn hash(&self) -> u64 {
        self.game.hash()
    }

    fn random_opening(&mut self, plies: usize, seed: u64) -> Vec<String> {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut opening = Vec::with_capacity(plies);
        let mut moves = Vec::new();
        let game = &mut self.game;
        while opening.len() < plies {
            moves.clear();
            game.legal_moves(&mut moves);
            moves.shuffle(&mut rng);
            let quiet = moves.iter().copied().find(|&mv| {
                game.play(mv);
                let quiet = game.outcome().is_none() && !game.is_dead_draw();
                game.undo();
                quiet
            });
            let Some(mv) = quiet else { break };
            opening.push(game.format_move(mv));
            game.play(mv);
            self.played.push(mv);
        }
        opening
    }

    fn clone_box(&self) -> Box<dyn AnyGame> {
        Box::new(self.clone())
    }
}

impl<G, K> AnyNotation for Playing<G, K>
where
    G: Render + Send + 'static,
    K: RootKnowledge<G> + Send + 'static,
{
    fn board_text(&self) -> String {
        self.game.board_text()
    }

    fn view(&self) -> View {
        with_human_moves(&self.game, self.game.view())
    }

    fn view_at(&self, ply: usize) -> Option<View> {
        if ply > self.played.len() {
            return None;
        }
        let mut g = self.start.clone();
        for &mv in &self.played[..ply] {
            g.play(mv);
        }
        Some(with_human_moves(&g, g.view()))
    }

    fn board_picture(&self, colour: bool, bottom: Side) -> String {
        self.game.board_picture(colour, bottom)
    }

    fn side_names(&self) -> [&'static str; 2] {
        self.game.side_names()
    }

    fn side_marks(&self) -> Option<[&'static str; 2]> {
        self.game.side_marks()
    }

    fn notation_help(&self) -> String {
        self.game.notation_help()
    }

    fn parse_human(&self, text: &str) -> Result<String, MoveError> {
        if self.game.outcome().is_some() {
            return Err(MoveError::Illegal("the game is over".into()));
        }
        let text = text.trim();
        let mv = self.game.parse_human(text).map_err(|e| MoveError::Unreadable(e.to_string()))?;
        if !self.game.is_legal(mv) {
            return Err(MoveError::Illegal(format!("'{text}' cannot be played now")));
        }
        Ok(self.game.format_move(mv))
    }

    fn human_move(&self, text: &str) -> String {
        match self.game.parse_move(text) {
            Ok(mv) => self.game.human_move(mv),
            Err(_) => text.to_string(),
        }
    }

    fn human_history(&self) -> Vec<String> {
        line_text(&self.start, &self.played, G::human_move)
    }

    fn human_end_reason(&self) -> Option<String> {
        self.game.outcome().and(self.game.human_end_reason())
    }

    fn fen(&self) -> Option<String> {
        self.game.fen()
    }

    fn packed(&self) -> Option<crate::game::render::Packed> {
        self.game.packed()
    }
}

impl<G, K> AnyThinking for Playing<G, K>
where
    G: Render + Send + 'static,
    K: RootKnowledge<G> + Send + 'static,
{
    /// A turn is one decision: where the same side moves again (an extra turn), the moves after
    /// the first come from the search's principal variation while that side stays to move; only
    /// where the variation ends first is the rest searched, in the time left.
    fn think(&mut self, searcher: &mut Searcher, rng: &mut SmallRng, request: &Request) -> Turn {
        let me = self.game.to_move();
        let mut turn = Turn::default();
        let mut planned = Vec::new().into_iter();
        loop {
            let mv = match planned.next().filter(|&m| self.game.is_legal(m)) {
                Some(mv) => mv,
                None => {
                    let super::players::Choice { mv, thought, pv } = Chooser {
                        game: &mut self.game,
                        start: &self.start,
                        played: &self.played,
                        know: self.know.as_ref(),
                    }
                    .choose(searcher, rng, request);
                    let rest = if pv.first() == Some(&mv) { pv[1..].to_vec() } else { Vec::new() };
                    planned = rest.into_iter();
                    if turn.thought.is_none() {
                        turn.thought = thought;
                    }
                    mv
                }
            };
            turn.moves.push(self.game.format_move(mv));
            self.game.play(mv);
            self.played.push(mv);
            if self.game.outcome().is_some() || self.game.to_move() != me {
                return turn;
            }
        }
    }

    fn evaluations(&self) -> &'static [(&'static str, &'static str)] {
        self.game.evaluations()
    }

    fn selectivity(&self) -> crate::search::Selectivity {
        self.know.selectivity(&self.game)
    }

    fn wait_until_ready(&self) {
        self.know.wait_until_ready();
    }

    fn analyze(&self, algorithm: Algorithm, depth: u32, hash_mb: usize) -> Analysis {
        let mut copy = self.game.clone();
        let (score, pv, nodes, proved, elapsed) = match algorithm.variant() {
            Some(variant) => {
                let start = std::time::Instant::now();
                let r = crate::search::plain::search(&mut copy, self.know.as_ref(), depth, variant);
                (r.score, r.pv, r.nodes, false, start.elapsed())
            }
            None => {
                // The search's own time: the table's allocation is left out.
                let mut searcher = Searcher::new(hash_mb);
                let r = searcher.search(&mut copy, self.know.as_ref(), &Limits::depth(depth));
                (r.score, r.pv, r.nodes, r.proved, r.elapsed)
            }
        };
        let text = line_text(&self.game, &pv, G::format_move);
        Analysis {
            score,
            words: self.game.score_words(score, proved),
            best: text.first().cloned(),
            pv: text,
            nodes,
            elapsed,
        }
    }

    fn analyze_moves(&self, budget: Duration, stop: &Arc<AtomicBool>, hash_mb: usize) -> Vec<MoveValue> {
        let start = Instant::now();
        let me = self.game.to_move();
        let margins = self.game.scores_margins();
        let mut legal = Vec::new();
        self.game.legal_moves(&mut legal);
        let exact = self.know.exact_move_values(&self.game, start + budget / 2, Some(stop.as_ref()));
        let mut searcher = None;
        let mut out = Vec::with_capacity(legal.len());
        for (i, &mv) in legal.iter().enumerate() {
            let mut after = self.game.clone();
            after.play(mv);
            // The solver's value, unless it knows no distance (a database's win, exactly
            // WIN_BOUND) where the move ends the game: the end says "in 1 move".
            let exact_value = exact
                .as_ref()
                .and_then(|e| e.iter().find(|e| e.mv == mv))
                .filter(|e| e.score.abs() != WIN_BOUND || after.outcome().is_none());
            let (score, proved, source, depth, solver_value) = if let Some(e) = exact_value {
                (e.score, true, "solver", 0, e.solver_value)
            } else if after.outcome().is_some() {
                (end_score(&after, me), true, "end", 0, None)
            } else {
                // An equal share of the time left; a forced reply (an only move, answered at
                // once under a clock) is played and the position after it searched instead.
                // `sides`: the side to move in each position from the one after `mv` on.
                let share = (start + budget).saturating_duration_since(Instant::now()) / (legal.len() - i) as u32;
                let searcher = searcher.get_or_insert_with(|| Searcher::new(hash_mb));
                let mut sides = vec![after.to_move()];
                let mut found = None;
                for _ in 0..8 {
                    let limits = Limits::per_move(Instant::now(), share, Duration::ZERO).with_stop(stop.clone());
                    let r = searcher.search(&mut after, self.know.as_ref(), &limits);
                    if r.source != Source::OnlyMove {
                        found = Some(r);
                        break;
                    }
                    after.play(r.best);
                    sides.push(after.to_move());
                    if after.outcome().is_some() {
                        break;
                    }
                }
                let last = *sides.last().expect("a position");
                let (mut score, proved, depth, source) = match &found {
                    // No iteration finished (no time left, a loaded machine) and nothing
                    // proved, or a book move: the static evaluation, at depth 0.
                    Some(r) if r.depth == 0 && !r.proved => (self.know.evaluate(&after), false, 0, "search"),
                    Some(r) => {
                        (r.score, r.proved, r.depth, if r.source == Source::Solver { "solver" } else { "search" })
                    }
                    None if after.outcome().is_some() => (end_score(&after, last), true, 0, "search"),
                    // Forced replies all along, beyond what was followed: the static evaluation.
                    None => (self.know.evaluate(&after), false, 0, "search"),
                };
                // Back to the side to move now, a position at a time.
                for k in (0..sides.len()).rev() {
                    let before = if k == 0 { me } else { sides[k - 1] };
                    score = one_ply_back(score, before == sides[k], margins);
                }
                (score, proved, source, depth, None)
            };
            out.push(MoveValue {
                text: self.game.format_move(mv),
                human: self.game.human_move(mv),
                score,
                opinion: self.game.opinion(score, proved),
                proved,
                source,
                depth,
                solver_value,
            });
        }
        // By value, the proved first among equals.
        out.sort_by_key(|m| (std::cmp::Reverse(m.score), !m.proved));
        out
    }
}

/// The value of a finished game for `side`: its final margin where the game scores margins
/// (a Kalah win by so many seeds, as the solver's), otherwise a win or loss at once.
fn end_score<G: Render>(g: &G, side: Side) -> Score {
    if let Some(m) = g.margin(side).filter(|_| g.scores_margins()) {
        return match m {
            0 => 0,
            m if m > 0 => WIN_BOUND + m.min(200),
            m => -(WIN_BOUND + (-m).min(200)),
        };
    }
    match g.outcome() {
        Some(Outcome::Win(w)) if w == side => WIN - 1,
        Some(Outcome::Win(_)) => -(WIN - 1),
        _ => 0,
    }
}

/// A score of a position as the side to move in the position before it sees it (`same`: the
/// same side moved there, as after an extra turn): negated otherwise, and a win or loss by the
/// distance to the end one ply further off. Games that score margins (Kalah) keep the score,
/// and so does a result whose distance is not known (exactly `WIN_BOUND`).
fn one_ply_back(score: Score, same: bool, margins: bool) -> Score {
    let s = if same { score } else { -score };
    if margins || s.abs() <= WIN_BOUND {
        s
    } else {
        s - s.signum()
    }
}

impl<G, K> AnyTuning for Playing<G, K>
where
    G: Render + Send + 'static,
    K: RootKnowledge<G> + Send + 'static,
{
    fn weights(&self) -> Option<Weights> {
        self.know.weights().cloned()
    }

    fn set_weights(&mut self, file: &WeightFile) -> Result<()> {
        if file.game != self.spec.name() {
            bail!("the weights are for {}, not {}", file.game, self.spec.name());
        }
        let mut weights =
            self.know.weights().cloned().ok_or_else(|| anyhow!("{}'s evaluation has no weights", file.game))?;
        weights.apply(file)?;
        let know =
            Arc::get_mut(&mut self.know).ok_or_else(|| anyhow!("the weights are set on a game before it is copied"))?;
        know.set_weights(&weights)
    }

    fn set_net(&mut self, net: Option<&[u8]>) -> Result<bool> {
        let know =
            Arc::get_mut(&mut self.know).ok_or_else(|| anyhow!("the net is set on a game before it is copied"))?;
        know.set_net(net)
    }

    fn tuning_position(&self, leaf: Leaf) -> Option<Box<dyn TunedPosition>> {
        if self.game.outcome().is_some() {
            return None;
        }
        let game = match leaf {
            Leaf::Static => Some(self.game.clone()).filter(|g| self.know.quiet(g))?,
            Leaf::Quiescence => quiet_leaf(self.know.as_ref(), &mut self.game.clone(), LEAF_PLIES).1?,
        };
        Some(Box::new(Tuned { game, know: self.know.clone() }))
    }

    fn policy(&self) -> Option<Weights> {
        self.know.policy().cloned()
    }

    fn policy_sample(&self, mv: &str) -> Result<Option<PolicySample>> {
        let mv = Self::parse_legal(&self.game, mv).map_err(|e| anyhow!("{e}"))?;
        let Some(candidates) = self.know.policy_features(&self.game) else { return Ok(None) };
        let chosen = candidates.iter().position(|(m, _)| self.game.move_key(*m) == self.game.move_key(mv));
        Ok(chosen.map(|chosen| PolicySample { chosen, features: candidates.into_iter().map(|(_, f)| f).collect() }))
    }

    fn check_rules(&self, seed: u64, playouts: usize) -> Result<RulesReport> {
        super::contract::check_rules(&self.game, seed, playouts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::registry::{GameSpec, Resources};
    use std::time::{Duration, Instant};

    fn game(spec: &str) -> Box<dyn AnyGame> {
        GameSpec::parse(spec).unwrap().new_game(&Resources::none()).unwrap()
    }

    /// The analysis board's values, from the side to move's view: tic-tac-toe with X to move,
    /// two in a row on top and O threatening the middle row: the move that completes the line
    /// ends the game won at once, every move but that and the block loses (proved by search).
    #[test]
    fn every_move_is_valued_from_the_side_to_moves_view() {
        use crate::game::render::Opinion;
        let mut g = game("mnk 3 3 3");
        for m in ["0 0", "1 0", "0 1", "1 1"] {
            g.play(m).unwrap();
        }
        let stop = Arc::new(AtomicBool::new(false));
        let values = g.analyze_moves(Duration::from_millis(500), &stop, 1);
        assert_eq!(values.len(), 5);
        assert_eq!((values[0].text.as_str(), values[0].source, values[0].proved), ("0 2", "end", true));
        assert_eq!(values[0].opinion, Opinion::Win { moves: Some(1), margin: None });
        for v in values.iter().filter(|v| v.text != "0 2" && v.text != "1 2") {
            assert!(v.proved && matches!(v.opinion, Opinion::Loss { moves: Some(1), .. }), "{v:?}");
        }
        assert_eq!(g.history().len(), 4, "the game is left as it was");
    }

    /// A turn with extra turns is one decision: its moves are the search's principal variation
    /// while the same side moves (Kalah, issue 45: the later moves of a chain used to get a
    /// search of their own each, with what was left of the time). Fixed depth: no clock.
    #[test]
    fn a_turn_of_extra_turns_follows_one_search() {
        let spec = GameSpec::parse("kalah 7 7 capture standard pie").unwrap();
        let moves: Vec<String> = "7 7 3 5 7 1 7 2 2 4 3 5 6 6 5 7 6 1".split(' ').map(String::from).collect();
        let depth = 12;
        let mut g = spec.new_game(&Resources::none()).unwrap();
        g.set_moves(&moves).unwrap();
        let request = Request { max_depth: depth, ..Request::full_strength(Limits::depth(depth)) };
        let turn = g.think(&mut Searcher::new(16), &mut SmallRng::seed_from_u64(0), &request);
        // One search of the same position with a fresh table, as `think` began.
        let mut again = spec.new_game(&Resources::none()).unwrap();
        again.set_moves(&moves).unwrap();
        let pv = again.analyze(Algorithm::Full, depth, 16).pv;
        let n = turn.moves.len().min(pv.len());
        assert!(n >= 3, "a chain of extra turns: {:?}, pv {pv:?}", turn.moves);
        assert_eq!(turn.moves[..n], pv[..n], "the turn against the search's variation");
    }

    #[test]
    fn moves_as_people_write_them() {
        let mut g = game("mnk 3 4 3");
        assert_eq!(g.parse_human("c2"), Ok("1 2".to_string()));
        // Rows from the bottom (3 rows): d3 is the top row, a1 the bottom-left cell.
        assert_eq!(g.parse_human(" D3 "), Ok("0 3".to_string()));
        assert_eq!(g.parse_human("a1"), Ok("2 0".to_string()));
        assert_eq!(g.parse_human("1,2"), Ok("1 2".to_string()));
        assert_eq!(g.parse_human("1 2"), Ok("1 2".to_string()));
        for bad in ["e1", "a4", "a0", "z", "12", "b2b"] {
            assert!(matches!(g.parse_human(bad), Err(MoveError::Unreadable(_))), "{bad}");
        }
        g.play("1 2").unwrap();
        assert!(matches!(g.parse_human("c2"), Err(MoveError::Illegal(_))));
        assert_eq!(g.human_move("2 3"), "d1");
        assert_eq!(g.human_move("0 0"), "a3");
        assert_eq!(g.human_history(), ["c2"]);
        assert!(g
            .board_picture(false, Side::First)
            .starts_with("   a  b  c  d\n3  .  .  .  .\n2  .  . [X] .\n1  .  .  .  .\n"));
        assert!(g.board_picture(true, Side::First).contains('\x1b'));
        for mv in ["0 0", "1 1", "0 1", "1 3"] {
            g.play(mv).unwrap();
        }
        let reason = g.human_end_reason().unwrap();
        assert!(reason.starts_with("X has 3 in a row: "), "{reason}");
        assert!(["b2", "c2", "d2"].iter().all(|c| reason.contains(c)), "{reason}");

        let mut g = game("cx 6 7 4");
        assert_eq!(g.parse_human("4"), Ok("3".to_string()));
        assert!(g.parse_human("0").is_err() && g.parse_human("8").is_err() && g.parse_human("a").is_err());
        for mv in ["0", "6", "1", "6", "2", "6", "3"] {
            g.play(mv).unwrap();
        }
        assert_eq!(g.human_history().join(" "), "1 7 2 7 3 7 4");
        assert_eq!(
            g.human_end_reason().as_deref(),
            Some("Red has 4 in a row across columns 1 to 4 (row 1 from the bottom)")
        );
    }

    #[test]
    fn max_draws_among_the_moves_equal_by_symmetry() {
        let replies: std::collections::HashSet<String> = (0..12)
            .map(|seed| {
                let mut g = game("mnk 3 3 3");
                g.play("1 1").unwrap();
                let limits = Limits::per_move(Instant::now(), Duration::from_millis(500), Duration::ZERO);
                let request = Request::full_strength(limits);
                g.think(&mut Searcher::new(1), &mut SmallRng::seed_from_u64(seed), &request).moves[0].clone()
            })
            .collect();
        // The corners are the answers to the centre (an edge loses); any of them.
        assert!(replies.iter().all(|m| ["0 0", "0 2", "2 0", "2 2"].contains(&m.as_str())), "{replies:?}");
        assert!(replies.len() > 1, "{replies:?}");
    }
}
