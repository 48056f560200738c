//! The textbook searches, to a fixed depth with the game's evaluation and nothing else of the
//! real search (no iterative deepening, no extensions, no reductions): plain minimax, alpha-beta,
//! alpha-beta with the game's move order, with a transposition table, with keys shared by
//! symmetric positions. `boardbot analyze` compares them with the real search; the courses'
//! kind of bot (`abN`) is [`alpha_beta`].
//!
//! Depth counts moves, the extra turns of games such as Kalah included: a move that leaves the
//! same side to move keeps the window and the sign, one that passes the turn negates both.
//! Every variant returns the fixed-depth minimax score exactly: a table entry is used only at
//! the same remaining depth (a deeper result would change the score, not just the work).

use super::{Game, Knowledge, Limits, Outcome, Score, WIN, WIN_BOUND};
use std::collections::HashMap;

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plain<M> {
    /// The value for the side to move (a win in `p` plies: `WIN - p`).
    pub score: Score,
    /// The first best move in the order searched; None if the game is over or `depth` is 0.
    pub best: Option<M>,
    /// The principal variation from the root (cut short where a table entry answered).
    pub pv: Vec<M>,
    /// Positions visited, the root and the leaves included (table hits included).
    pub nodes: u64,
    /// The depth searched to the end (below the depth asked for when the limits stopped it).
    pub depth: u32,
}

/// The order moves are searched in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Order {
    /// As the rules generate them.
    Generated,
    /// By the game's ordering scores ([`Knowledge::candidates`]; moves it omits come last).
    Knowledge,
}

/// Which textbook search.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Variant {
    /// Alpha-beta pruning (false: minimax, every move of every node).
    pub prune: bool,
    pub order: Order,
    /// A transposition table (exact remaining depth only).
    pub table: bool,
    /// The table keyed by [`Game::symmetric_hash`]: positions equal up to the board's symmetries
    /// share an entry.
    pub symmetric: bool,
}

impl Variant {
    pub const MINIMAX: Variant = Variant { prune: false, order: Order::Generated, table: false, symmetric: false };
    pub const ALPHA_BETA: Variant = Variant { prune: true, ..Variant::MINIMAX };
    pub const ORDERED: Variant = Variant { order: Order::Knowledge, ..Variant::ALPHA_BETA };
    pub const TABLE: Variant = Variant { table: true, ..Variant::ORDERED };
    pub const SYMMETRIC: Variant = Variant { symmetric: true, ..Variant::TABLE };
}

/// The courses' bot: alpha-beta to `depth` moves in `order`.
pub fn alpha_beta<G: Game, K: Knowledge<G> + ?Sized>(
    game: &mut G,
    know: &K,
    depth: u32,
    order: Order,
) -> Plain<G::Move> {
    search(game, know, depth, Variant { order, ..Variant::ALPHA_BETA })
}

/// The courses' bot under a clock (`abN` in play): alpha-beta to 1, 2, ... `depth` moves, each
/// depth from scratch, until `depth` is done or `limits` end it (the hard deadline and the stop
/// flag at once, no new depth after the soft deadline). The answer is the deepest finished
/// depth's, so a finished `depth` answers as [`alpha_beta`] does; if not even depth 1 finished,
/// the first move in `order`, scored 0. Time is looked at every [`CHECK_EVERY`] nodes and
/// before each node's move ordering (which may cost as much on a huge board).
pub fn alpha_beta_within<G: Game, K: Knowledge<G> + ?Sized>(
    game: &mut G,
    know: &K,
    depth: u32,
    order: Order,
    limits: &Limits,
) -> Plain<G::Move> {
    let variant = Variant { order, ..Variant::ALPHA_BETA };
    let mut s = Search {
        know,
        variant,
        nodes: 0,
        table: HashMap::new(),
        history_draws: 0,
        limits: Some(limits),
        stopped: false,
    };
    let first = s.moves(game).first().copied();
    let mut done = Plain { score: 0, best: first, pv: first.into_iter().collect(), nodes: 0, depth: 0 };
    for d in 1..=depth.max(1) {
        if d > 1 && limits.past_soft() {
            break;
        }
        let (score, pv) = s.node(game, d, 0, -WIN, WIN);
        if s.stopped {
            break;
        }
        done = Plain { score, best: pv.first().copied().or(first), pv, nodes: 0, depth: d };
    }
    done.nodes = s.nodes;
    done
}

/// How often (in nodes) [`alpha_beta_within`] looks at its limits.
const CHECK_EVERY: u64 = 16;

/// Searches `game` to `depth` moves with `variant`; the game is left as it was.
pub fn search<G: Game, K: Knowledge<G> + ?Sized>(
    game: &mut G,
    know: &K,
    depth: u32,
    variant: Variant,
) -> Plain<G::Move> {
    let mut s =
        Search { know, variant, nodes: 0, table: HashMap::new(), history_draws: 0, limits: None, stopped: false };
    let (score, pv) = s.node(game, depth, 0, -WIN, WIN);
    Plain { score, best: pv.first().copied(), pv, nodes: s.nodes, depth }
}

#[derive(Copy, Clone, PartialEq, Eq)]
enum Bound {
    Exact,
    /// The score is at least this.
    Lower,
    /// The score is at most this.
    Upper,
}

#[derive(Copy, Clone)]
struct Stored<M> {
    depth: u32,
    /// Wins and losses relative to this node (see [`to_table`]).
    score: Score,
    bound: Bound,
    /// Not kept with symmetric keys: the move would belong to another orientation.
    best: Option<M>,
}

struct Search<'k, G: Game, K: ?Sized> {
    know: &'k K,
    variant: Variant,
    nodes: u64,
    table: HashMap<u64, Stored<G::Move>>,
    /// Positions scored as draws by how they were reached ([`Game::drawn_by_history`]): a
    /// subtree that met one stores nothing (its score depends on the path).
    history_draws: u64,
    /// The clock of [`alpha_beta_within`]; once it ran out, `stopped`, and every node returns
    /// at once (the unfinished depth's result is thrown away).
    limits: Option<&'k Limits>,
    stopped: bool,
}

/// A score as the table keeps it: a win `p` plies from the root, found at `ply`, is a win
/// `p - ply` plies from this node.
fn to_table(score: Score, ply: u32) -> Score {
    match score {
        s if s > WIN_BOUND => s + ply as Score,
        s if s < -WIN_BOUND => s - ply as Score,
        s => s,
    }
}

fn from_table(score: Score, ply: u32) -> Score {
    match score {
        s if s > WIN_BOUND => s - ply as Score,
        s if s < -WIN_BOUND => s + ply as Score,
        s => s,
    }
}

impl<G: Game, K: Knowledge<G> + ?Sized> Search<'_, G, K> {
    /// Whether the limits (if any) end the search now, looking at them every CHECK_EVERY nodes.
    fn out_of_time(&mut self, now: bool) -> bool {
        if !self.stopped && (now || self.nodes.is_multiple_of(CHECK_EVERY)) {
            self.stopped = self.limits.is_some_and(|l| l.stop_requested() || l.past_hard());
        }
        self.stopped
    }

    /// The score of `game` for the side to move, and the principal variation.
    fn node(&mut self, game: &mut G, depth: u32, ply: u32, mut alpha: Score, beta: Score) -> (Score, Vec<G::Move>) {
        self.nodes += 1;
        if self.out_of_time(false) {
            return (0, vec![]);
        }
        if let Some(score) = self.leaf(game, depth, ply) {
            return (score, vec![]);
        }
        let me = game.to_move();
        let key = match (self.variant.table, self.variant.symmetric) {
            (false, _) => None,
            (true, false) => Some(game.hash()),
            (true, true) => Some(game.symmetric_hash()),
        };
        let first = match self.probe(key, depth, ply, alpha, beta) {
            Ok(first) => first,
            Err(answer) => return answer,
        };
        let alpha_in = alpha;
        let draws_before = self.history_draws;
        let mut moves = self.moves(game);
        if self.out_of_time(true) {
            return (0, vec![]);
        }
        if let Some(i) = first.and_then(|f| moves.iter().position(|&m| m == f)) {
            moves[..=i].rotate_right(1);
        }
        let mut best = (-WIN - 1, Vec::new());
        for mv in moves {
            game.play(mv);
            let (v, line) = if game.to_move() == me {
                self.node(game, depth - 1, ply + 1, alpha, beta)
            } else {
                let (v, line) = self.node(game, depth - 1, ply + 1, -beta, -alpha);
                (-v, line)
            };
            game.undo();
            if self.stopped {
                return (0, vec![]);
            }
            if v > best.0 {
                let mut pv = Vec::with_capacity(line.len() + 1);
                pv.push(mv);
                pv.extend(line);
                best = (v, pv);
            }
            if self.variant.prune {
                alpha = alpha.max(v);
                if alpha >= beta {
                    break;
                }
            }
        }
        if let Some(k) = key.filter(|_| self.history_draws == draws_before) {
            self.store(k, depth, ply, alpha_in, beta, &best);
        }
        best
    }

    /// The score of a position known without its moves: drawn by its history, over, or at the
    /// depth's end (the evaluation).
    fn leaf(&mut self, game: &G, depth: u32, ply: u32) -> Option<Score> {
        if ply > 0 && game.drawn_by_history() {
            self.history_draws += 1;
            return Some(0);
        }
        match game.outcome() {
            Some(Outcome::Win(side)) => {
                Some(if side == game.to_move() { WIN - ply as Score } else { ply as Score - WIN })
            }
            Some(Outcome::Draw) => Some(0),
            None if depth == 0 => Some(self.know.evaluate(game)),
            None => None,
        }
    }

    /// The table's entry for `key` at this depth: Err, the answer where it settles the window;
    /// Ok, its best move to try first (if any).
    #[allow(clippy::type_complexity)]
    fn probe(
        &self,
        key: Option<u64>,
        depth: u32,
        ply: u32,
        alpha: Score,
        beta: Score,
    ) -> Result<Option<G::Move>, (Score, Vec<G::Move>)> {
        let Some(stored) = key.and_then(|k| self.table.get(&k)).filter(|s| s.depth == depth) else {
            return Ok(None);
        };
        let score = from_table(stored.score, ply);
        let answers = match stored.bound {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        };
        if answers {
            return Err((score, stored.best.into_iter().collect()));
        }
        Ok(stored.best)
    }

    /// Stores `best` (the score and line searched in the window (`alpha_in`, `beta`)) for `key`.
    fn store(&mut self, key: u64, depth: u32, ply: u32, alpha_in: Score, beta: Score, best: &(Score, Vec<G::Move>)) {
        let bound = if !self.variant.prune {
            Bound::Exact
        } else if best.0 >= beta {
            Bound::Lower
        } else if best.0 <= alpha_in {
            Bound::Upper
        } else {
            Bound::Exact
        };
        let kept = (!self.variant.symmetric).then(|| best.1.first().copied()).flatten();
        self.table.insert(key, Stored { depth, score: to_table(best.0, ply), bound, best: kept });
    }

    fn moves(&self, game: &G) -> Vec<G::Move> {
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        if self.variant.order == Order::Knowledge {
            let mut scored = Vec::new();
            self.know.candidates(game, &mut scored);
            // By move key (one per legal move): a lookup per move, not a scan of the list (on a
            // 1000 x 1000 board that scan was 10^12 steps at the root).
            let by_key: HashMap<u32, i64> = scored.iter().map(|c| (game.move_key(c.mv), c.score)).collect();
            let score = |mv: &G::Move| by_key.get(&game.move_key(*mv)).copied().unwrap_or(i64::MIN);
            // A stable sort: equal scores keep the generated order.
            moves.sort_by_cached_key(|mv| std::cmp::Reverse(score(mv)));
        }
        moves
    }
}
