//! What the engine knows of checkers beyond the rules: the evaluation, the move order, when a
//! position is quiet (no capture to make), the greedy reference player, and the endgame
//! database's verdicts at the root and at the leaves.
//!
//! Evaluations are in hundredths of a man, from the side to move's view.

use super::book::Book;
use super::database::{self, Databases};
use super::endgame::{self, Endgame, Value, MAX_PIECES};
use super::eval::{self, EvalWeights};
use super::movegen::{forward, Board, CROWN_ROW, NEIGHBOUR, NONE};
use super::net::{self, Net};
use super::{reference, Checkers, Move, Rules};
use crate::game::any::Resources;
use crate::game::{Game, Side};
use crate::search::{Candidate, Knowledge, Proof, RootKnowledge, Score, Selectivity, Weights, EVAL_LIMIT, WIN_BOUND};
use anyhow::{anyhow, bail, Result};
use rand::RngCore;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

/// The back rank of each side: Black's 1..=4, White's 29..=32.
const BACK: [u32; 2] = [CROWN_ROW[1], CROWN_ROW[0]];
/// Squares 10, 11, 14, 15, 18, 19, 22, 23.
const CENTRE_SQUARES: u32 =
    (1 << 9) | (1 << 10) | (1 << 13) | (1 << 14) | (1 << 17) | (1 << 18) | (1 << 21) | (1 << 22);

/// The rows a man of `side` on bit `sq` has still to go to crown.
fn rows_to_go(side: Side, sq: u32) -> i32 {
    let row = (sq / 4) as i32;
    match side {
        Side::First => 7 - row,
        Side::Second => row,
    }
}

/// The static evaluation of `g` for the side to move with the weights `w` (see
/// [`eval`](super::eval): the features a checkers player would name, with phase-dependent
/// weights).
pub fn evaluate(g: &Checkers, w: &EvalWeights) -> i32 {
    eval::evaluate_with(g, w)
}

/// The evaluation's weights by name ([`eval::NAMES`]), their defaults compiled in; the tuner
/// keeps the unit, a man in the opening.
pub fn default_weights() -> Weights {
    Weights::new(&eval::NAMES, &eval::DEFAULTS, eval::FIXED)
}

/// Whether the piece on `sq` (bit index) could be taken at once by `by` on board `b`.
pub fn attacked(b: &Board, sq: u8, by: Side) -> bool {
    let attackers = b.pieces[by.index()];
    let empty = b.empty();
    for d in 0..4 {
        // An attacker behind `sq` (opposite to d) jumping over it in direction d.
        let from = NEIGHBOUR[sq as usize][3 - d];
        let land = NEIGHBOUR[sq as usize][d];
        if from == NONE || land == NONE || attackers & (1 << from) == 0 || empty & (1 << land) == 0 {
            continue;
        }
        if b.kings & (1 << from) != 0 || forward(by).contains(&d) {
            return true;
        }
    }
    false
}

/// The move-order key of a legal move of `g` (higher first): captures by the pieces (and
/// kings) taken, crowning, then steps that keep the piece safe, toward the centre, not off the
/// back rank.
pub fn order_key(g: &Checkers, mv: Move) -> i64 {
    let b = g.board();
    let me = g.to_move();
    let s = me.index();
    let from = 1u32 << mv.from;
    let man = b.kings & from == 0;
    let mut key = 0i64;
    if mv.captured != 0 {
        key += 10_000 * mv.captured.count_ones() as i64 + 2_000 * (mv.captured & b.kings).count_ones() as i64;
    }
    if man && CROWN_ROW[s] & (1 << mv.to) != 0 {
        key += 5_000;
    }
    let after = g.board_after(mv);
    if attacked(&after, mv.to, me.other()) {
        key -= 3_000;
    }
    if man && BACK[s] & from != 0 {
        key -= 40;
    }
    if CENTRE_SQUARES & (1 << mv.to) != 0 {
        key += 20;
    }
    if man {
        key += rows_to_go(me, mv.from as u32) as i64 - rows_to_go(me, mv.to as u32) as i64;
    }
    key
}

/// The score of a position of the endgame database of value `v` for the side to move: a draw
/// is 0, a win [`KNOWN_WIN`] plus the evaluation and [`closing_in`] (a loss the negation of the
/// winner's).
fn known_score(g: &Checkers, v: Value, w: &EvalWeights) -> Score {
    let me = g.to_move();
    let score = match v {
        Value::Draw => 0,
        Value::Win => KNOWN_WIN + evaluate(g, w).max(0) + closing_in(g.board(), me),
        Value::Loss => -KNOWN_WIN + evaluate(g, w).min(0) - closing_in(g.board(), me.other()),
    };
    score.clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

/// The nodes the search for the soonest conversion may take at the root (a few milliseconds).
const CONVERSION_NODES: u64 = 200_000;

/// Scores of positions the endgame database knows to be won (lost: the negation), plus the
/// evaluation, which then measures progress.
pub const KNOWN_WIN: i32 = 10_000;

/// The diagonal-grid distance between two squares (bit indices): king steps on an empty board.
fn distance(a: u32, b: u32) -> i32 {
    let (ra, rb) = ((a / 4) as i32, (b / 4) as i32);
    let col = |sq: u32, row: i32| 2 * (sq % 4) as i32 + (row % 2 == 0) as i32;
    let (ca, cb) = (col(a, ra), col(b, rb));
    (ra - rb).abs().max((ca - cb).abs())
}

/// In a won ending: the winner's kings close in on the loser's pieces (fewer steps between
/// them, more points), so that the search makes progress.
fn closing_in(b: &Board, winner: Side) -> i32 {
    let mut kings = b.pieces[winner.index()] & b.kings;
    let targets = b.pieces[1 - winner.index()];
    let mut score = 0;
    while kings != 0 {
        let k = kings.trailing_zeros();
        kings &= kings - 1;
        let mut t = targets;
        let mut nearest = 8;
        while t != 0 {
            let sq = t.trailing_zeros();
            t &= t - 1;
            nearest = nearest.min(distance(k, sq));
        }
        score += 4 * (8 - nearest);
    }
    score
}

/// What the engine knows of checkers: [`evaluate`], [`order_key`], and the endgame database
/// (see [`database`](super::database): up to five pieces when the games' memory budget holds
/// them).
pub struct CheckersKnowledge {
    rules: Rules,
    db: Option<Arc<Databases>>,
    /// The opening book (English rules).
    book: Option<&'static Book>,
    /// The weights by name, and as [`evaluate`] reads them.
    weights: Weights,
    eval_weights: EvalWeights,
    /// The network evaluation (English rules, see [`net`]); the tuned features without it.
    net: Option<Arc<Net>>,
}

impl CheckersKnowledge {
    /// The knowledge for `rules`, with the endgame database of these rules that `resources`
    /// allow (made on a thread of its own: the knowledge uses it from the moment it is there).
    /// With the resources of play (a memory budget), the opening book of English checkers
    /// too; without (`Resources::none()`: a bench, a description's check) neither.
    pub fn new(rules: Rules, resources: &Resources) -> CheckersKnowledge {
        let book = (rules == Rules::English && resources.budget_mib() > 0).then(Book::english);
        CheckersKnowledge {
            db: database::databases(rules.capturing(), resources),
            book,
            ..CheckersKnowledge::bare(rules)
        }
    }

    /// The knowledge for `rules` with the endgame database `db` (no opening book).
    pub fn with_database(rules: Rules, db: Endgame) -> CheckersKnowledge {
        CheckersKnowledge { db: Some(Arc::new(Databases::of(db))), ..CheckersKnowledge::bare(rules) }
    }

    /// The knowledge with the compiled-in weights, no endgame database and no book.
    fn bare(rules: Rules) -> CheckersKnowledge {
        let net = (rules == Rules::English && net::DEFAULT_NET).then(net::english);
        CheckersKnowledge { rules, db: None, book: None, weights: default_weights(), eval_weights: eval::DEFAULTS, net }
    }

    /// This knowledge evaluating with `net` (None: the tuned features).
    pub fn with_net(self, net: Option<Arc<Net>>) -> CheckersKnowledge {
        CheckersKnowledge { net, ..self }
    }

    /// The network it evaluates with, if any.
    pub fn net(&self) -> Option<&Arc<Net>> {
        self.net.as_ref()
    }

    /// The static evaluation (the net's, else the tuned features'), before the database.
    fn static_eval(&self, g: &Checkers) -> i32 {
        match &self.net {
            Some(n) => n.evaluate(g),
            None => evaluate(g, &self.eval_weights),
        }
    }

    /// This knowledge without its opening book (to make one).
    pub fn without_book(self) -> CheckersKnowledge {
        CheckersKnowledge { book: None, ..self }
    }

    /// Waits until the endgame database (if there is one) is read or built; for tests and
    /// measurements.
    pub fn wait_for_database(&self) -> bool {
        self.db.as_ref().is_some_and(|db| db.wait())
    }

    pub fn database(&self) -> Option<&Endgame> {
        self.db.as_ref()?.get()
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The database's value of `g`, if it covers it.
    pub fn probe(&self, g: &Checkers) -> Option<Value> {
        let b = g.board();
        if (b.pieces[0] | b.pieces[1]).count_ones() > MAX_PIECES {
            return None;
        }
        self.database()?.probe(b, g.to_move())
    }

    /// In a won position of the database, the winning move that forces a conversion (a capture
    /// or a man crowned) soonest against any defence: by the distances the database keeps for
    /// the long ones, else by a search of at most [`endgame::LONG_CONVERSION`] plies (ties to
    /// the evaluation). Following it, every conversion leads to a won position of fewer pieces
    /// or men, and the win ends in a bounded number of moves; within the 40-move rule where the
    /// distances allow (4 pieces: at most 73 plies without a conversion). None if the search
    /// runs out of nodes or goes past `deadline`.
    pub fn converting_move(&self, g: &Checkers, deadline: Instant) -> Option<Move> {
        let db = self.database()?;
        let (b, me) = (g.board(), g.to_move());
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        // The winning moves with their children's stored distances (0: short, not stored).
        let winning: Vec<(Move, u8)> = moves
            .iter()
            .filter_map(|&mv| {
                let after = g.board_after(mv);
                (db.probe(&after, me.other()) == Some(Value::Loss))
                    .then(|| (mv, db.conversion(&after, me.other()).unwrap_or(0)))
            })
            .collect();
        let tie = |mv: Move| {
            let mut child = g.clone();
            child.play(mv);
            -evaluate(&child, &self.eval_weights)
        };
        if winning.iter().all(|&(_, d)| d > 0) {
            // Only long conversions: the shortest of them.
            return winning.iter().min_by_key(|&&(mv, d)| (d, -tie(mv))).map(|&(mv, _)| mv);
        }
        let plies = db.conversions(b, me, endgame::LONG_CONVERSION + 1, CONVERSION_NODES, deadline)?;
        plies.iter().filter_map(|&(mv, p)| p.map(|p| (mv, p))).min_by_key(|&(mv, p)| (p, -tie(mv))).map(|(mv, _)| mv)
    }

    /// The database's value of the position after each of `moves` for the side to move there.
    fn after(&self, g: &Checkers, moves: &[Move]) -> Option<Vec<(Move, Value)>> {
        let db = self.database()?;
        moves
            .iter()
            .map(|&mv| {
                let b = g.board_after(mv);
                db.probe(&b, g.to_move().other()).map(|v| (mv, v))
            })
            .collect()
    }
}

impl Knowledge<Checkers> for CheckersKnowledge {
    /// [`evaluate`]; in a position of the endgame database, a draw is 0, and a win
    /// [`KNOWN_WIN`] plus the evaluation and [`closing_in`] (a loss the negation of the winner's).
    fn evaluate(&self, g: &Checkers) -> Score {
        match self.probe(g) {
            None => self.static_eval(g).clamp(-EVAL_LIMIT, EVAL_LIMIT),
            Some(v) => known_score(g, v, &self.eval_weights),
        }
    }

    /// Right after a capture or a man's move (the quiet count is 0), a position of the endgame
    /// database scores as [`Knowledge::evaluate`] scores it, without search below it. (Not
    /// elsewhere: a won ending is still played by the search, which makes progress.)
    fn known_value(&self, g: &Checkers) -> Option<Score> {
        if g.quiet_plies() != 0 {
            return None;
        }
        self.probe(g).map(|v| known_score(g, v, &self.eval_weights))
    }

    fn winning_move(&self, _g: &Checkers) -> Option<Move> {
        None
    }

    /// Quiet: the side to move has no capture (past the horizon, captures are searched on).
    fn quiet(&self, g: &Checkers) -> bool {
        !g.can_capture()
    }

    /// Past the horizon only captures are searched (in English rules they are every move
    /// there; in house rules the side may also stand pat).
    fn searched_past_horizon(&self, _g: &Checkers, mv: Move) -> bool {
        mv.is_capture()
    }

    fn candidates(&self, g: &Checkers, out: &mut Vec<Candidate<Move>>) -> bool {
        // The search asks at positions not over (no allocation here: a buffer per thread).
        thread_local!(static MOVES: std::cell::RefCell<Vec<Move>> = const { std::cell::RefCell::new(Vec::new()) });
        MOVES.with_borrow_mut(|moves| {
            moves.clear();
            if g.outcome().is_none() {
                g.generate(moves);
            }
            out.extend(moves.iter().map(|&mv| Candidate { mv, score: order_key(g, mv) }));
        });
        true
    }

    /// Bolder than the search's default since the network judges positions (the same set with
    /// the tuned features had failed: docs/results/checkers.md): reductions by ln(depth) x
    /// ln(move number), late-move pruning to depth 3, futility and reverse futility, a history
    /// malus and singular extensions from depth 6 (docs/results/checkers-net.md).
    fn selectivity(&self, _g: &Checkers) -> Selectivity {
        SELECTIVITY
    }

    /// A pass, while each side has at least [`NULL_MOVE_PIECES`] pieces (zugzwang, common in
    /// checkers endings, is rarer then; and every null move's cutoff is verified).
    fn null_move(&self, g: &Checkers) -> Option<Move> {
        let b = g.board();
        let enough = b.pieces.iter().all(|p| p.count_ones() >= NULL_MOVE_PIECES);
        enough.then_some(Move::PASS)
    }

    /// Captures, and the steps that crown a man: never reduced or pruned.
    fn tactical(&self, g: &Checkers, mv: Move) -> bool {
        let man = g.board().kings & (1 << mv.from) == 0;
        mv.is_capture() || man && CROWN_ROW[g.to_move().index()] & (1 << mv.to) != 0
    }
}

impl RootKnowledge<Checkers> for CheckersKnowledge {
    fn weights(&self) -> Option<&Weights> {
        Some(&self.weights)
    }

    fn set_weights(&mut self, weights: &Weights) -> Result<()> {
        let values: EvalWeights = weights.values().try_into().map_err(|_| anyhow!("not checkers' weights"))?;
        if weights.names() != eval::NAMES {
            bail!("not checkers' weights");
        }
        (self.weights, self.eval_weights) = (weights.clone(), values);
        Ok(())
    }

    /// English rules only (the house rules keep the tuned features): a checkers net file
    /// ([`net`]'s format), or None for the tuned features.
    fn set_net(&mut self, bytes: Option<&[u8]>) -> Result<bool> {
        if self.rules != Rules::English || bytes.is_some_and(|b| !net::is_net_file(b)) {
            return Ok(false);
        }
        self.net = match bytes {
            None => None,
            Some(b) => Some(Arc::new(Net::from_bytes(b)?)),
        };
        Ok(true)
    }

    fn evaluate_with(&self, g: &Checkers, weights: &Weights) -> Score {
        let Ok(w) = <EvalWeights>::try_from(weights.values()) else { return self.evaluate(g) };
        match self.probe(g) {
            None => evaluate(g, &w).clamp(-EVAL_LIMIT, EVAL_LIMIT),
            Some(v) => known_score(g, v, &w),
        }
    }

    fn wait_until_ready(&self) {
        self.wait_for_database();
    }

    /// A drawn position of the database: the moves that keep the draw (the search orders them,
    /// the traps pick among them). A won one: the move that converts the win soonest (see
    /// [`CheckersKnowledge::converting_move`]). Lost ones are left to the search, whose
    /// evaluation knows them.
    fn solve_exactly(&self, g: &Checkers, deadline: Instant, _stop: Option<&AtomicBool>) -> Option<Proof<Move>> {
        match self.probe(g)? {
            Value::Loss => return None,
            Value::Win => {
                let mv = self.converting_move(g, deadline)?;
                return Some(Proof { score: WIN_BOUND, moves: vec![mv], from_book: false });
            }
            Value::Draw => {}
        }
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let keep: Vec<Move> =
            self.after(g, &moves)?.into_iter().filter(|&(_, v)| v == Value::Draw).map(|(m, _)| m).collect();
        (!keep.is_empty()).then_some(Proof { score: 0, moves: keep, from_book: false })
    }

    /// The database's value of the position after each move (win, draw or loss; no distance),
    /// when every one is in it.
    fn exact_move_values(
        &self,
        g: &Checkers,
        _deadline: Instant,
        _stop: Option<&AtomicBool>,
    ) -> Option<Vec<crate::search::ExactMove<Move>>> {
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let after = self.after(g, &moves)?;
        let value = |v: Value| match v {
            Value::Win => -WIN_BOUND,
            Value::Loss => WIN_BOUND,
            Value::Draw => 0,
        };
        Some(
            after
                .into_iter()
                .map(|(mv, v)| crate::search::ExactMove { mv, score: value(v), solver_value: None })
                .collect(),
        )
    }

    fn wins_exactly(&self, g: &Checkers, _deadline: Instant, _stop: Option<&AtomicBool>) -> Option<bool> {
        self.probe(g).map(|v| v == Value::Win)
    }

    /// The moves after which the database says the opponent wins.
    fn refuted_moves(&self, g: &Checkers, moves: &[Move]) -> Vec<Move> {
        if self.probe(g).is_none() {
            return Vec::new();
        }
        self.after(g, moves)
            .map(|a| a.into_iter().filter(|&(_, v)| v == Value::Win).map(|(m, _)| m).collect())
            .unwrap_or_default()
    }

    fn book_move(&self, g: &Checkers) -> Option<Move> {
        self.book?.lookup(g)
    }

    /// A man is 100: the weaker levels give away an eighth of a man a level (easy, level 2:
    /// under a man).
    fn level_step(&self) -> Score {
        12
    }

    fn reference_move(&self, g: &mut Checkers, rng: &mut dyn RngCore) -> Option<Move> {
        reference::greedy_move(g, rng)
    }
}

/// The fewest pieces each side must have for the search to try a null move.
const NULL_MOVE_PIECES: u32 = 6;

/// The search's selectivity in checkers (see [`Selectivity`] for each field's meaning).
const SELECTIVITY: Selectivity = Selectivity {
    reduction: Some(0.75),
    pruning_depth: 3,
    static_margin: Some(60),
    futility_margin: Some(100),
    null_reduction: 0,
    null_verify: true,
    history_malus: true,
    extend_unquiet: false,
    singular_depth: 6,
    singular_margin: 2,
    quiet_wins_inside: false,
};
