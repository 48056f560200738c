//! The contract every game keeps, checked by random playouts: what the search, the tables, the
//! protocol and the page rely on and no compiler checks. [`check_rules`] runs it on any game of
//! the registry (`AnyGame::check_rules`), so a new game gets these checks for free; the
//! registry's contract test (tests/contract.rs) runs them over every entry of `GAMES`.
//!
//! At every position of every playout:
//! - the game is over exactly when there is no legal move, and `is_legal` agrees with the list;
//! - move keys are distinct, below `move_key_space`, and `move_for_key` gives the move back;
//! - move text round-trips (`parse_move(format_move(m)) == m`), and so does people's notation;
//! - play then undo restores the position exactly (hash, symmetric hash, side to move, moves
//!   played, outcome, board text and view), for the move played next and up to 11 others;
//! - a move changes the hash, and the side to move after it is what the hash says: two positions
//!   reached in the same playouts with one hash have the same board text and side to move.

use super::render::Render;
use anyhow::{anyhow, bail, Result};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::collections::HashMap;

/// What the playouts saw: positions checked, games played out, how they ended.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RulesReport {
    pub positions: usize,
    pub playouts: usize,
    /// Playouts that ended in a win of the first player, of the second, in a draw.
    pub results: [usize; 3],
    /// Playouts cut at the length limit before the game ended.
    pub unfinished: usize,
}

/// A playout stops after this many moves (a game with repetitions need not end at random).
const MAX_PLAYOUT: usize = 400;

/// Play then undo is checked for at most this many legal moves of a position (chosen at random,
/// the move played next among them): on a 15x15 board every move of every position made the
/// registry's contract test take a minute.
const PLAY_UNDO_PER_POSITION: usize = 12;

/// Plays `playouts` random games from `start` (seeded by `seed`) and checks the contract above
/// at every position; the first breach is the error, in words, with the moves that led to it.
pub fn check_rules<G: Render>(start: &G, seed: u64, playouts: usize) -> Result<RulesReport> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut report = RulesReport::default();
    // Each hash seen, with the position it stood for (board text and side to move).
    let mut seen: HashMap<u64, (String, crate::search::Side)> = HashMap::new();
    for _ in 0..playouts {
        let mut game = start.clone();
        // The moves played so far, as text (for the error message).
        let mut line: Vec<String> = Vec::new();
        let mut moves = Vec::new();
        loop {
            let here = |line: &[String], what: &dyn std::fmt::Display| anyhow!("after [{}]: {what}", line.join(" "));
            report.positions += 1;
            check_position(&game, &mut moves).map_err(|e| here(&line, &e))?;
            let key = (game.board_text(), game.to_move());
            if let Some(before) = seen.insert(game.hash(), key.clone()) {
                if before != key {
                    return Err(here(&line, &format!("two positions share hash {:#x}", game.hash())));
                }
            }
            if game.outcome().is_some() {
                let index = match game.outcome() {
                    Some(crate::search::Outcome::Win(side)) => side.index(),
                    _ => 2,
                };
                report.results[index] += 1;
                break;
            }
            if line.len() == MAX_PLAYOUT {
                report.unfinished += 1;
                break;
            }
            let mv = *moves.choose(&mut rng).expect("a game in progress has a legal move");
            check_play_undo(&mut game, mv).map_err(|e| here(&line, &e))?;
            for &other in moves.choose_multiple(&mut rng, PLAY_UNDO_PER_POSITION - 1) {
                check_play_undo(&mut game, other).map_err(|e| here(&line, &e))?;
            }
            line.push(game.format_move(mv));
            game.play(mv);
        }
        report.playouts += 1;
    }
    Ok(report)
}

/// The checks of one position (the legal moves are left in `moves`).
fn check_position<G: Render>(game: &G, moves: &mut Vec<G::Move>) -> Result<()> {
    moves.clear();
    game.legal_moves(moves);
    match (game.outcome(), moves.is_empty()) {
        (Some(outcome), false) => bail!("over ({outcome:?}) but {} legal moves", moves.len()),
        (None, true) => bail!("not over but no legal move"),
        _ => {}
    }
    let space = game.move_key_space();
    let mut keys = HashMap::new();
    for &mv in moves.iter() {
        if !game.is_legal(mv) {
            bail!("{mv:?} is listed but is_legal says no");
        }
        let key = game.move_key(mv);
        if key as usize >= space {
            bail!("{mv:?}'s key {key} is not below the key space {space}");
        }
        if let Some(other) = keys.insert(key, mv) {
            bail!("{other:?} and {mv:?} share the key {key}");
        }
        if game.move_for_key(key) != Some(mv) {
            bail!("move_for_key({key}) is {:?}, not {mv:?}", game.move_for_key(key));
        }
        let text = game.format_move(mv);
        match game.parse_move(&text) {
            Ok(back) if back == mv => {}
            other => bail!("{mv:?} is written '{text}', which reads back as {other:?}"),
        }
        let human = game.human_move(mv);
        match game.parse_human(&human) {
            Ok(back) if back == mv => {}
            other => bail!("{mv:?} is written '{human}' for people, which reads back as {other:?}"),
        }
    }
    Ok(())
}

/// Everything a position shows, to compare before a move and after its undo.
#[derive(Debug, PartialEq)]
struct Snapshot {
    hash: u64,
    symmetric: u64,
    to_move: crate::search::Side,
    played: usize,
    outcome: Option<crate::search::Outcome>,
    text: String,
    view: super::render::View,
}

fn snapshot<G: Render>(game: &G) -> Snapshot {
    Snapshot {
        hash: game.hash(),
        symmetric: game.symmetric_hash(),
        to_move: game.to_move(),
        played: game.moves_played(),
        outcome: game.outcome(),
        text: game.board_text(),
        view: game.view(),
    }
}

/// Plays `mv` and takes it back: the position must come back exactly, and the move must have
/// changed it.
fn check_play_undo<G: Render>(game: &mut G, mv: G::Move) -> Result<()> {
    let before = snapshot(game);
    game.play(mv);
    let after_hash = game.hash();
    let after_played = game.moves_played();
    game.undo();
    let back = snapshot(game);
    if back != before {
        bail!("playing {mv:?} then undoing it changed the position: {before:?} became {back:?}");
    }
    if after_hash == before.hash {
        bail!("playing {mv:?} left the hash unchanged");
    }
    if after_played != before.played + 1 {
        bail!("playing {mv:?} counted {after_played} moves played after {}", before.played);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::registry::{GameSpec, Resources};
    use crate::game::render::{ViewCell, ViewMove};
    use crate::search::{Game, Outcome, Side};

    /// Which rule the test game breaks.
    #[derive(Clone, Copy, Debug, PartialEq)]
    enum Bug {
        None,
        /// Undo does not restore the hash.
        UndoForgetsHash,
        /// Two moves share a key.
        SharedKey,
        /// A move's text reads back as another move.
        BadText,
        /// The game says it is over while moves remain.
        OverTooSoon,
        /// The hash leaves out the side to move.
        HashWithoutSide,
    }

    /// Take-away (take 1 to 3 stones, who takes the last wins), with one rule broken.
    #[derive(Clone, Debug)]
    struct Nim {
        left: u32,
        taken: Vec<u32>,
        stale: u64,
        bug: Bug,
    }

    impl Game for Nim {
        type Move = u32;
        fn to_move(&self) -> Side {
            Side::after_moves(self.taken.len())
        }
        fn legal_moves(&self, out: &mut Vec<u32>) {
            out.extend(1..=3.min(self.left));
        }
        fn is_legal(&self, mv: u32) -> bool {
            (1..=3).contains(&mv) && mv <= self.left
        }
        fn play(&mut self, mv: u32) {
            self.left -= mv;
            self.taken.push(mv);
        }
        fn undo(&mut self) {
            self.left += self.taken.pop().unwrap();
            if self.bug == Bug::UndoForgetsHash {
                self.stale += 1;
            }
        }
        fn moves_played(&self) -> usize {
            self.taken.len()
        }
        fn hash(&self) -> u64 {
            let side = if self.bug == Bug::HashWithoutSide { 0 } else { self.to_move().index() as u64 };
            (self.left as u64) << 1 | side | self.stale << 32
        }
        fn outcome(&self) -> Option<Outcome> {
            let over = self.left == 0 || (self.bug == Bug::OverTooSoon && self.left == 1);
            over.then(|| Outcome::Win(self.to_move().other()))
        }
        fn move_key(&self, mv: u32) -> u32 {
            if self.bug == Bug::SharedKey {
                0
            } else {
                mv - 1
            }
        }
        fn move_key_space(&self) -> usize {
            3
        }
        fn move_for_key(&self, key: u32) -> Option<u32> {
            Some(key + 1).filter(|&m| self.is_legal(m))
        }
        fn parse_move(&self, text: &str) -> Result<u32> {
            text.parse().map_err(|_| anyhow::anyhow!("not a number"))
        }
        fn format_move(&self, mv: u32) -> String {
            let shown = if self.bug == Bug::BadText && mv == 2 { 1 } else { mv };
            shown.to_string()
        }
    }

    impl Render for Nim {
        fn board_text(&self) -> String {
            // The side to move is part of the text, so that a hash without it is caught.
            format!("{} left, {:?} to move", self.left, self.to_move())
        }
        fn view(&self) -> super::super::render::View {
            let cell = ViewCell::new(self.left.to_string(), None);
            let moves = vec![ViewMove { text: "1".into(), keys: vec![], human: "1".into() }];
            super::super::render::View::grid(1, 1, vec![cell], moves)
        }
    }

    #[test]
    fn each_broken_rule_is_caught_and_a_sound_game_passes() {
        let nim = |bug| Nim { left: 9, taken: Vec::new(), stale: 0, bug };
        let report = check_rules(&nim(Bug::None), 3, 30).unwrap();
        assert_eq!(report.playouts, 30);
        assert_eq!(report.results[0] + report.results[1], 30);
        for (bug, words) in [
            (Bug::UndoForgetsHash, "changed the position"),
            (Bug::SharedKey, "share the key"),
            (Bug::BadText, "reads back as"),
            (Bug::OverTooSoon, "legal moves"),
            (Bug::HashWithoutSide, "share hash"),
        ] {
            let error = check_rules(&nim(bug), 3, 30).expect_err(&format!("{bug:?} caught")).to_string();
            assert!(error.contains(words), "{bug:?}: {error}");
        }
    }

    #[test]
    fn every_game_keeps_the_contract() {
        for text in [
            "mnk 3 3 3",
            "mnk 5 6 4 blocked 0,0 2,3",
            "cx 6 7 4",
            "cx 4 5 3",
            "kalah 6 4",
            "kalah 4 3 capture standard pie",
            "checkers english",
            "checkers house",
        ] {
            let spec = GameSpec::parse(text).unwrap();
            let game = spec.new_game(&Resources::none()).unwrap();
            let report = game.check_rules(7, 50).unwrap_or_else(|e| panic!("{text}: {e}"));
            eprintln!("{text}: {report:?}");
        }
    }
}
