//! The staged move picker: the order in which a node's moves are searched, as stages (Stockfish's
//! movepick.cpp, viridithas' movepicker.rs), with [`MovePicker::next`] handing out one move at a
//! time.
//!
//! The stages, in order ([`Stage`]):
//! 1. the table's move: in a quiet node, searched before any other move is generated (when it
//!    refutes the position, generating and scoring the others is saved); in a node that is not
//!    quiet, first of the list;
//! 2. the list is generated (the game's candidates, by `Run::generate`);
//! 3. the game's own stages, `Game(0)` first: the moves the game's knowledge puts there
//!    ([`Knowledge::move_stage`]: none by default), each stage by the game's move score;
//! 4. the killers (the moves that made a cutoff at this ply), by the game's move score;
//! 5. the rest, by the game's move score plus the history.
//!
//! At the root the picker hands out the root policy's moves in its order (`Stage::Root`).
//! A game may leave a stage out in a node ([`Knowledge::skip_stage`]): its moves are not
//! searched, and the node's score is then no proof.
//!
//! Within the list, the first [`PICKED_ONE_BY_ONE`] moves are picked one by one when their turn
//! comes (most cutoffs come that early, and spare sorting the rest), then the rest are sorted:
//! the stages are bands of one ordering key ([`Stage::of_key`]), so that the order is the same
//! as one sort of the whole list by that key.

use super::{Candidate, Game, Knowledge};

/// A stage of a node's moves (see the module's text): what a handed-out move is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The table's move.
    TableMove,
    /// The game's own stage `n` (0..=15, 0 first), from [`Knowledge::move_stage`].
    Game(u8),
    /// The moves that made a cutoff at this ply in this search.
    Killers,
    /// Every other move, by its score plus the history.
    Rest,
    /// The root's moves, in the root policy's order.
    Root,
}

/// Where the picker is: before the table's move, waiting for the list to be generated, in the
/// list, in the root's moves, done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Step {
    Table,
    Generate,
    List,
    Root,
    Done,
}

/// The ordering key's bands: a killer's key is `KILLER_BASE` plus its score (at most 2^40), the
/// game's stage `n`'s `GAME_BASE + (15 - n) x 2^42` plus its score (within +-2^40), the table's
/// move's `i64::MAX`. The rest's is the score plus the history (each at most 2^40 in size).
const KILLER_BASE: i64 = i64::MAX / 2;
const GAME_BASE: i64 = KILLER_BASE + (1 << 44);
const SCORE_BOUND: i64 = 1 << 40;

impl Stage {
    /// The stage of a move in the list by its ordering key.
    pub(super) fn of_key(key: i64) -> Stage {
        if key == i64::MAX {
            Stage::TableMove
        } else if key >= GAME_BASE - 2 * SCORE_BOUND {
            Stage::Game(15 - ((key - GAME_BASE + 2 * SCORE_BOUND) >> 42).min(15) as u8)
        } else if key >= KILLER_BASE - 2 * SCORE_BOUND {
            Stage::Killers
        } else {
            Stage::Rest
        }
    }
}

/// The ordering key of a move of `stage` with the game's score `score` (`history`: its history,
/// for the rest).
pub(super) fn ordering_key(stage: Stage, score: i64, history: i64) -> i64 {
    match stage {
        Stage::TableMove => i64::MAX,
        Stage::Game(n) => GAME_BASE + ((15 - n.min(15) as i64) << 42) + score.clamp(-SCORE_BOUND, SCORE_BOUND),
        Stage::Killers => KILLER_BASE + score.min(SCORE_BOUND),
        _ => score + history,
    }
}

/// A move handed out by the picker.
pub(super) struct Picked<M> {
    pub(super) mv: M,
    /// Its key ([`Game::move_key`]).
    pub(super) key: u32,
    pub(super) stage: Stage,
    /// Its number in the node, from 0 (the moves a pruning skipped count too).
    pub(super) number: usize,
    /// A quiet move: reduced, pruned and punished by the history malus where the game allows
    /// (a list move whose key is below the killers' base: the rest, and a killer whose own score
    /// is negative, as the order has always had it).
    pub(super) quiet: bool,
}

/// A node's moves in stages (see the module's text). The list is the frame's, lent to the
/// picker for the node's time.
pub(super) struct MovePicker<M> {
    pub(super) step: Step,
    /// The table's move to search before generating, in a quiet node.
    table: Option<(M, u32)>,
    pub(super) list: Vec<Candidate<M>>,
    /// The next move of the list to hand out.
    next: usize,
    /// How many moves were handed out before the list (the table's move).
    before_list: usize,
    /// The stage of the last move handed out of the list, and whether the game skips it.
    stage: Option<(Stage, bool)>,
}

/// How many of a node's moves are picked one by one before the rest are sorted.
const PICKED_ONE_BY_ONE: usize = 4;

impl<M: Copy> MovePicker<M> {
    /// A node's picker: `table`, the table's move to search first (a quiet node's, if legal),
    /// and the frame's list to fill.
    pub(super) fn node(table: Option<(M, u32)>, list: Vec<Candidate<M>>) -> MovePicker<M> {
        MovePicker { step: Step::Table, table, list, next: 0, before_list: 0, stage: None }
    }

    /// The root's picker: `moves` in their order (in the frame's list).
    pub(super) fn root(moves: &[M], mut list: Vec<Candidate<M>>) -> MovePicker<M> {
        list.clear();
        list.extend(moves.iter().map(|&mv| Candidate { mv, score: 0 }));
        MovePicker { step: Step::Root, table: None, list, next: 0, before_list: 0, stage: None }
    }

    /// Whether the table's move was searched before the list.
    pub(super) fn table_searched(&self) -> bool {
        self.before_list > 0
    }

    /// The moves of the list handed out so far (not the table's move searched before it).
    pub(super) fn list_handed_out(&self) -> usize {
        self.next
    }

    /// The next move, or None when the moves are done or the list is to be generated first
    /// (`step` is then [`Step::Generate`]: see [`MovePicker::generated`]). `skipped` is called for
    /// each move a game's skipped stage leaves out.
    pub(super) fn next<G: Game<Move = M>, K: Knowledge<G> + ?Sized>(
        &mut self,
        know: &K,
        game: &G,
        mut skipped: impl FnMut(),
    ) -> Option<Picked<M>> {
        match self.step {
            Step::Table => {
                self.step = Step::Generate;
                let (mv, key) = self.table?;
                self.before_list = 1;
                Some(Picked { mv, key, stage: Stage::TableMove, number: 0, quiet: false })
            }
            Step::Generate | Step::Done => None,
            Step::Root => {
                let Some(&c) = self.list.get(self.next) else {
                    self.step = Step::Done;
                    return None;
                };
                self.next += 1;
                Some(Picked {
                    mv: c.mv,
                    key: game.move_key(c.mv),
                    stage: Stage::Root,
                    number: self.next - 1,
                    quiet: false,
                })
            }
            Step::List => loop {
                let picked = self.best_of_list(game)?;
                let skip = match self.stage {
                    Some((stage, skip)) if stage == picked.stage => skip,
                    _ => know.skip_stage(game, picked.stage),
                };
                self.stage = Some((picked.stage, skip));
                if !skip {
                    return Some(picked);
                }
                skipped();
            },
        }
    }

    /// The best-ordered move of the list not handed out yet.
    fn best_of_list<G: Game<Move = M>>(&mut self, game: &G) -> Option<Picked<M>> {
        let (list, j) = (&mut self.list, self.next);
        if j >= list.len() {
            self.step = Step::Done;
            return None;
        }
        if j < PICKED_ONE_BY_ONE {
            let pick = (j + 1..list.len()).fold(j, |b, x| if list[x].score > list[b].score { x } else { b });
            list.swap(j, pick);
        } else if j == PICKED_ONE_BY_ONE {
            list[j..].sort_unstable_by_key(|c| std::cmp::Reverse(c.score));
        }
        self.next += 1;
        let c = list[j];
        Some(Picked {
            mv: c.mv,
            key: game.move_key(c.mv),
            stage: Stage::of_key(c.score),
            number: self.before_list + j,
            quiet: c.score < KILLER_BASE,
        })
    }

    /// The list is generated, its scores replaced by their ordering keys ([`ordering_key`]): the
    /// moves go on from it.
    pub(super) fn generated(&mut self) {
        self.step = Step::List;
    }

    /// Gives the list back to the frame.
    pub(super) fn into_list(self) -> Vec<Candidate<M>> {
        self.list
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_stage_keeps_its_band_and_the_bands_their_order() {
        let scores = [-(1i64 << 40), -7, 0, 5, 1 << 40];
        let mut keys = Vec::new();
        for stage in [Stage::TableMove, Stage::Game(0), Stage::Game(1), Stage::Game(15), Stage::Killers] {
            for &s in &scores {
                let key = ordering_key(stage, s, 0);
                assert_eq!(Stage::of_key(key), stage, "score {s}");
                keys.push((stage, key));
            }
        }
        // Bands in the picker's order: the table's move, the game's stages from 0, the killers,
        // the rest (whose keys are the score plus the history, within 2^41).
        let band = |stage: Stage| keys.iter().filter(move |(s, _)| *s == stage).map(|&(_, k)| k);
        let order = [Stage::TableMove, Stage::Game(0), Stage::Game(1), Stage::Game(15), Stage::Killers];
        for pair in order.windows(2) {
            assert!(band(pair[0]).min() > band(pair[1]).max(), "{:?} before {:?}", pair[0], pair[1]);
        }
        assert!(band(Stage::Killers).min().unwrap() > ordering_key(Stage::Rest, 1 << 40, 1 << 40));
        assert_eq!(Stage::of_key(ordering_key(Stage::Rest, 1 << 40, 1 << 40)), Stage::Rest);
    }
}
