//! What players and searches know of Kalah beyond the rules: an evaluation, a move order, the
//! "more than half of all the seeds" bound, the greedy reference player and a plain
//! depth-limited alpha-beta. Plain functions on [`Kalah`]; nothing here depends on the search
//! framework's traits.
//!
//! Evaluations are in units of [`SEED`] per seed, from the side to move's view.

use super::{Kalah, KalahMove};
use crate::game::{Game, Side};
use rand::Rng;

/// Evaluation units of one seed.
pub const SEED: i32 = 100;
/// Units of a seed lying in the side's own row (it goes to that side if the game ends now; the
/// weight is a guess, not tuned).
pub const ROW_SEED: i32 = 25;
/// Units of a non-empty pit (a move the side can still make; a guess, not tuned).
pub const MOBILITY: i32 = 10;

/// The static evaluation of `k` for the side to move: `SEED` a seed of store lead, plus
/// `ROW_SEED` a seed of lead in the rows and `MOBILITY` a non-empty pit of lead; once the game is
/// over, `SEED` times the final margin.
pub fn evaluate(k: &Kalah) -> i32 {
    let me = k.to_move();
    let lead = SEED * k.store_lead(me);
    if k.is_over() {
        return lead;
    }
    let rows = k.row_seeds(me) as i32 - k.row_seeds(me.other()) as i32;
    let pits = |side: Side| k.row(side).iter().filter(|&&s| s > 0).count() as i32;
    lead + ROW_SEED * rows + MOBILITY * (pits(me) - pits(me.other()))
}

/// A game already decided: a side's store holds more than half of all the seeds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Decided {
    /// The side that has won, whatever is played.
    pub winner: Side,
    /// Its final margin is at least this (>= 1): its store lead minus the seeds in the pits.
    pub min_margin: i32,
}

/// Whether `k` is decided (a store holds more than half of all the seeds), and the bound.
pub fn decided(k: &Kalah) -> Option<Decided> {
    [Side::First, Side::Second]
        .into_iter()
        .find(|&s| 2 * k.store(s) > k.total_seeds())
        .map(|winner| Decided { winner, min_margin: k.store_lead(winner) - k.seeds_in_pits() as i32 })
}

/// The first player's final margin lies in this range (the store difference, give or take every
/// seed still in the pits).
pub fn first_margin_bounds(k: &Kalah) -> (i32, i32) {
    let (d, n) = (k.store_difference(), k.seeds_in_pits() as i32);
    (d - n, d + n)
}

/// What a move does at once: the mover's store gain (sown, captured, swept if it ends the game;
/// for `swap`, the opponent's store minus its own) and whether the mover moves again.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Immediate {
    pub store_gain: i32,
    pub extra_turn: bool,
}

/// What the legal move `mv` does at once.
pub fn immediate(k: &Kalah, mv: KalahMove) -> Immediate {
    match mv {
        KalahMove::Pit(i) => {
            let e = k.effect(i as usize);
            Immediate {
                store_gain: e.store_gain as i32,
                extra_turn: e.extra_turn && !e.ends_game && !k.pie_first_move(),
            }
        }
        KalahMove::Swap => Immediate { store_gain: -k.store_lead(k.to_move()), extra_turn: false },
    }
}

/// The move-order key of `mv` (higher first): extra turns first, the rightmost pit first (it
/// leaves the other extra turns in place); then moves by store gain (captures), the rightmost
/// first among equals.
pub fn order_key(k: &Kalah, mv: KalahMove) -> i32 {
    let im = immediate(k, mv);
    let pit = match mv {
        KalahMove::Pit(i) => i as i32,
        KalahMove::Swap => -1,
    };
    if im.extra_turn {
        (1 << 24) + pit
    } else {
        (im.store_gain << 8) + pit
    }
}

/// Sorts `moves` (legal in `k`) best first by [`order_key`].
pub fn order_moves(k: &Kalah, moves: &mut [KalahMove]) {
    moves.sort_by_cached_key(|&mv| std::cmp::Reverse(order_key(k, mv)));
}

/// The greedy reference player: among the moves earning an extra turn if there are any,
/// otherwise among all, a move of the largest immediate store gain; ties broken by `rng`. None
/// once the game is over.
pub fn greedy_move<R: Rng>(k: &Kalah, rng: &mut R) -> Option<KalahMove> {
    let mut moves = Vec::new();
    k.legal_moves(&mut moves);
    let scored: Vec<(KalahMove, Immediate)> = moves.into_iter().map(|mv| (mv, immediate(k, mv))).collect();
    let extra = scored.iter().any(|(_, im)| im.extra_turn);
    let pool: Vec<&(KalahMove, Immediate)> = scored.iter().filter(|(_, im)| im.extra_turn || !extra).collect();
    let top = pool.iter().map(|(_, im)| im.store_gain).max()?;
    let ties: Vec<KalahMove> = pool.iter().filter(|(_, im)| im.store_gain == top).map(|&&(mv, _)| mv).collect();
    Some(ties[rng.gen_range(0..ties.len())])
}

/// The result of [`alpha_beta`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AlphaBeta {
    /// The value for the side to move, in evaluation units.
    pub value: i32,
    /// A best move (None if the game is over or `depth` is 0).
    pub best: Option<KalahMove>,
    /// Positions visited: every call of the search, the root and the leaves included.
    pub nodes: u64,
}

/// How [`alpha_beta`] searches.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct AlphaBetaOptions {
    /// Cut off with alpha-beta (false: plain minimax, every move searched).
    pub prune: bool,
    /// Moves sorted by [`order_moves`] (false: in the order of [`Game::legal_moves`], pit 1
    /// first).
    pub ordered: bool,
    /// An extra turn is a ply of its own (true, the default of the course's bots), or the depth
    /// counts turns: the moves of one side in a row are one ply (false).
    pub extra_turn_is_ply: bool,
}

impl Default for AlphaBetaOptions {
    fn default() -> Self {
        AlphaBetaOptions { prune: true, ordered: true, extra_turn_is_ply: true }
    }
}

/// The course's kind of bot: negamax to `depth` plies with [`evaluate`] at the leaves. By
/// default every move is a ply, an extra turn too: the same side then plays the next ply, and
/// its value is not negated ([`AlphaBetaOptions::extra_turn_is_ply`]).
pub fn alpha_beta(k: &Kalah, depth: u32, options: AlphaBetaOptions) -> AlphaBeta {
    let mut k = k.clone();
    let mut nodes = 0;
    let (value, best) = negamax(&mut k, depth, -i32::MAX, i32::MAX, options, &mut nodes);
    AlphaBeta { value, best, nodes }
}

fn negamax(
    k: &mut Kalah,
    depth: u32,
    mut alpha: i32,
    beta: i32,
    options: AlphaBetaOptions,
    nodes: &mut u64,
) -> (i32, Option<KalahMove>) {
    *nodes += 1;
    if depth == 0 || k.is_over() {
        return (evaluate(k), None);
    }
    let me = k.to_move();
    let mut moves = Vec::new();
    k.legal_moves(&mut moves);
    if options.ordered {
        order_moves(k, &mut moves);
    }
    let mut best = (-i32::MAX, None);
    for mv in moves {
        k.play(mv);
        let v = if k.to_move() == me {
            let d = if options.extra_turn_is_ply || k.is_over() { depth - 1 } else { depth };
            negamax(k, d, alpha, beta, options, nodes).0
        } else {
            -negamax(k, depth - 1, -beta, -alpha, options, nodes).0
        };
        k.undo();
        if v > best.0 {
            best = (v, Some(mv));
        }
        if options.prune {
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::kalah::Capture;
    use rand::rngs::SmallRng;
    use rand::SeedableRng;

    fn pos(first: &[u16], fs: u16, second: &[u16], ss: u16, side: Side) -> Kalah {
        Kalah::from_rows(Capture::Empty, first, fs, second, ss, side).unwrap()
    }

    #[test]
    fn evaluation_counts_stores_rows_and_moves() {
        let k = pos(&[0, 2, 3], 5, &[1, 0, 0], 2, Side::First);
        assert_eq!(evaluate(&k), 3 * SEED + 4 * ROW_SEED + MOBILITY);
        let k = pos(&[0, 2, 3], 5, &[1, 0, 0], 2, Side::Second);
        assert_eq!(evaluate(&k), -(3 * SEED + 4 * ROW_SEED + MOBILITY));
        let over = pos(&[0, 0], 5, &[0, 0], 7, Side::First);
        assert_eq!(evaluate(&over), -2 * SEED);
    }

    #[test]
    fn more_than_half_of_the_seeds_decides() {
        // 19 of 36 seeds: decided, by at least 19 - 2 - 15 = 2.
        let k = pos(&[5, 5, 4], 19, &[1, 0, 0], 2, Side::Second);
        assert_eq!(decided(&k), Some(Decided { winner: Side::First, min_margin: 19 - 2 - 15 }));
        assert_eq!(first_margin_bounds(&k), (2, 32));
        // 18 of 36 is not more than half.
        let k = pos(&[5, 5, 5], 18, &[1, 0, 0], 2, Side::First);
        assert_eq!(decided(&k), None);
    }

    #[test]
    fn extra_turns_come_first_then_captures() {
        // Pits 1 (4 seeds) and 3 (2 seeds) reach the store; pit 2 (1 seed) does nothing.
        let k = pos(&[4, 1, 2, 0], 0, &[4, 4, 2, 1], 0, Side::First);
        let mut moves = vec![KalahMove::Pit(0), KalahMove::Pit(1), KalahMove::Pit(2)];
        order_moves(&k, &mut moves);
        assert_eq!(moves, vec![KalahMove::Pit(2), KalahMove::Pit(0), KalahMove::Pit(1)]);
        // Pit 2 captures 1 + 4, pit 1 captures 1 + 1.
        let k = pos(&[3, 1, 0, 0], 0, &[1, 4, 2, 1], 0, Side::First);
        let mut moves = vec![KalahMove::Pit(0), KalahMove::Pit(1)];
        order_moves(&k, &mut moves);
        assert_eq!(moves, vec![KalahMove::Pit(1), KalahMove::Pit(0)], "the capture of 5 first");
    }

    #[test]
    fn greedy_takes_an_extra_turn_first_then_the_biggest_gain() {
        let mut rng = SmallRng::seed_from_u64(1);
        // Pit 4 reaches the store (gain 1); pit 2 would capture 1 + 4 = 5.
        let k = pos(&[0, 1, 0, 1], 0, &[4, 4, 2, 1], 0, Side::First);
        assert_eq!(greedy_move(&k, &mut rng), Some(KalahMove::Pit(3)));
        // No extra turn: the capture.
        let k = pos(&[1, 1, 0, 0], 0, &[4, 4, 2, 1], 0, Side::First);
        assert_eq!(greedy_move(&k, &mut rng), Some(KalahMove::Pit(1)));
        // Ties are broken at random: both moves come up.
        let k = pos(&[2, 2, 0, 0], 0, &[1, 1, 1, 1], 0, Side::First);
        let seen: std::collections::HashSet<_> = (0..50).map(|_| greedy_move(&k, &mut rng).unwrap()).collect();
        assert_eq!(seen.len(), 2);
        let over = pos(&[0, 0], 5, &[0, 0], 7, Side::First);
        assert_eq!(greedy_move(&over, &mut rng), None);
    }

    #[test]
    fn alpha_beta_agrees_with_minimax_and_prunes() {
        let k = Kalah::new(4, 3).unwrap();
        for depth in 1..=6 {
            for extra_turn_is_ply in [true, false] {
                let o = AlphaBetaOptions { prune: false, ordered: false, extra_turn_is_ply };
                let plain = alpha_beta(&k, depth, o);
                let pruned = alpha_beta(&k, depth, AlphaBetaOptions { prune: true, ..o });
                let ordered = alpha_beta(&k, depth, AlphaBetaOptions { prune: true, ordered: true, ..o });
                assert_eq!(pruned.value, plain.value, "depth {depth}");
                assert_eq!(ordered.value, plain.value, "depth {depth}");
                assert!(pruned.nodes <= plain.nodes);
            }
        }
        // To the end of a small game, alpha-beta's value is the exact margin in seed units.
        let k = Kalah::new(2, 2).unwrap();
        let exact = alpha_beta(&k, 100, AlphaBetaOptions::default());
        let mut exhaustive = crate::game::kalah::exhaustive::Negamax::new();
        assert_eq!(exact.value, SEED * exhaustive.first_margin(&k));
    }
}
