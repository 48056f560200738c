//! Fixed-depth alpha-beta with the game's evaluation and nothing else: no transposition table,
//! no iterative deepening, no extensions. It is the kind of bot the courses wrote (and the
//! opponent `boardbot match` calls `abN`), and the baseline that shows what the real search adds.
//!
//! Depth counts moves, the extra turns of games such as Kalah included. A move that leaves the
//! same side to move keeps the window and the sign; one that passes the turn negates both.

use super::{Game, Knowledge, Outcome, Score, WIN};

/// What [`alpha_beta`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plain<M> {
    /// The value for the side to move (a win in `p` plies: `WIN - p`).
    pub score: Score,
    /// The first best move in the order searched; None if the game is over or `depth` is 0.
    pub best: Option<M>,
    /// Positions visited, the root and the leaves included.
    pub nodes: u64,
}

/// The order moves are searched in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Order {
    /// As the rules generate them.
    Generated,
    /// By the game's ordering scores ([`Knowledge::candidates`], the moves it omits last).
    Knowledge,
}

/// Searches `game` to `depth` moves with the alpha-beta window `(alpha, beta)`; with
/// `(-WIN, WIN)` the score is exact (minimax's) to that depth.
pub fn alpha_beta<G: Game, K: Knowledge<G> + ?Sized>(
    game: &mut G,
    know: &K,
    depth: u32,
    order: Order,
) -> Plain<G::Move> {
    let mut nodes = 0;
    let mut best = None;
    let score = search(game, know, depth, 0, -WIN, WIN, order, &mut nodes, &mut best);
    Plain { score, best, nodes }
}

#[allow(clippy::too_many_arguments)]
fn search<G: Game, K: Knowledge<G> + ?Sized>(
    game: &mut G,
    know: &K,
    depth: u32,
    ply: u32,
    mut alpha: Score,
    beta: Score,
    order: Order,
    nodes: &mut u64,
    best_out: &mut Option<G::Move>,
) -> Score {
    *nodes += 1;
    let me = game.to_move();
    match game.outcome() {
        Some(Outcome::Win(side)) => return if side == me { WIN - ply as Score } else { ply as Score - WIN },
        Some(Outcome::Draw) => return 0,
        None if depth == 0 => return know.evaluate(game),
        None => {}
    }
    let moves = ordered_moves(game, know, order);
    let mut best = -WIN;
    for mv in moves {
        game.play(mv);
        let same = game.to_move() == me;
        let mut unused = None;
        let v = if same {
            search(game, know, depth - 1, ply + 1, alpha, beta, order, nodes, &mut unused)
        } else {
            -search(game, know, depth - 1, ply + 1, -beta, -alpha, order, nodes, &mut unused)
        };
        game.undo();
        if v > best {
            best = v;
            if ply == 0 {
                *best_out = Some(mv);
            }
        }
        alpha = alpha.max(v);
        if alpha >= beta {
            break;
        }
    }
    best
}

fn ordered_moves<G: Game, K: Knowledge<G> + ?Sized>(game: &G, know: &K, order: Order) -> Vec<G::Move> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    if order == Order::Knowledge {
        let mut scored = Vec::new();
        know.candidates(game, &mut scored);
        let score = |mv: &G::Move| scored.iter().find(|c| c.mv == *mv).map_or(i64::MIN, |c| c.score);
        // A stable sort: equal scores keep the generated order.
        moves.sort_by_key(|mv| std::cmp::Reverse(score(mv)));
    }
    moves
}
