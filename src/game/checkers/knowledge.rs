//! What the engine knows of checkers beyond the rules: the evaluation, the move order, when a
//! position is quiet (no capture to make), the greedy reference player, and the endgame
//! database's verdicts at the root and at the leaves.
//!
//! Evaluations are in hundredths of a man, from the side to move's view. The evaluation's
//! weights have names ([`WEIGHT_NAMES`]), their defaults compiled in ([`DEFAULT_WEIGHTS`]); a
//! weights file may set them (`--weights`, `boardbot tune`).

use super::endgame::{Endgame, Value, MAX_PIECES};
use super::movegen::{forward, step, Board, Capturing, CROWN_ROW, DL, DR, NEIGHBOUR, NONE, UL, UR};
use super::{reference, Checkers, Move, Rules};
use crate::game::registry::Resources;
use crate::game::{Game, Side};
use crate::search::{Candidate, Knowledge, Proof, Score, Weights, EVAL_LIMIT};
use rand::RngCore;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

/// The evaluation's weights by name, in the order of [`DEFAULT_WEIGHTS`] (and of the indices
/// below, which [`evaluate`] reads them by).
pub const WEIGHT_NAMES: &[&str] =
    &["man", "king", "back_rank", "advance", "centre", "runaway", "runaway_row", "mobility", "exchange"];
/// The compiled-in weights.
pub const DEFAULT_WEIGHTS: [i32; WEIGHTS] = [100, 130, 8, 2, 6, 60, 7, 2, 3];
const WEIGHTS: usize = 9;
/// A man (the unit: a tuner keeps it), and a king (worth more: it moves both ways).
const MAN: usize = 0;
const KING: usize = 1;
/// A man on its own back rank while the opponent still has men to crown (it guards the
/// crowning squares).
const BACK_RANK: usize = 2;
/// A man's advance, a row (more as the board empties: see [`evaluate`]).
const ADVANCE: usize = 3;
/// A piece on one of the eight central squares.
const CENTRE: usize = 4;
/// A man no enemy piece can reach before it crowns (a "runaway"): this, less `RUNAWAY_ROW` per
/// row it has still to go.
const RUNAWAY: usize = 5;
const RUNAWAY_ROW: usize = 6;
/// A step the side could make (mobility).
const MOBILITY: usize = 7;
/// A side ahead gains from exchanges: its material lead times this, over the pieces left.
const EXCHANGE: usize = 8;

/// The weights of the evaluation, as [`evaluate`] reads them.
type EvalWeights = [i32; WEIGHTS];

/// The compiled-in weights by name; the tuner keeps the unit, a man.
pub fn default_weights() -> Weights {
    Weights::new(WEIGHT_NAMES, &DEFAULT_WEIGHTS, &["man"])
}

/// The back rank of each side: Black's 1..=4, White's 29..=32.
const BACK: [u32; 2] = [CROWN_ROW[1], CROWN_ROW[0]];
/// Squares 10, 11, 14, 15, 18, 19, 22, 23.
const CENTRE_SQUARES: u32 =
    (1 << 9) | (1 << 10) | (1 << 13) | (1 << 14) | (1 << 17) | (1 << 18) | (1 << 21) | (1 << 22);

/// `CONES[side][sq]`: the squares in front of a man of `side` on `sq` that it could reach on
/// its way to the crowning row (the triangle widening one square each way a row).
static CONES: [[u32; 32]; 2] = cones();

const fn cones() -> [[u32; 32]; 2] {
    let mut t = [[0; 32]; 2];
    let dirs = [[DL, DR], [UL, UR]];
    let mut s = 0;
    while s < 2 {
        let mut sq = 0;
        while sq < 32 {
            let (mut cone, mut front) = (0u32, 1u32 << sq);
            let mut i = 0;
            while i < 8 {
                front = step(front, dirs[s][0]) | step(front, dirs[s][1]);
                cone |= front;
                i += 1;
            }
            t[s][sq] = cone;
            sq += 1;
        }
        s += 1;
    }
    t
}

/// The rows a man of `side` on bit `sq` has still to go to crown.
fn rows_to_go(side: Side, sq: u32) -> i32 {
    let row = (sq / 4) as i32;
    match side {
        Side::First => 7 - row,
        Side::Second => row,
    }
}

/// One side's score (not counting the other's): material and position.
fn side_score(b: &Board, side: Side, total: i32, w: &EvalWeights) -> i32 {
    let s = side.index();
    let own = b.pieces[s];
    let opp = b.pieces[1 - s];
    let men = own & !b.kings;
    let kings = own & b.kings;
    let mut score = w[MAN] * men.count_ones() as i32 + w[KING] * kings.count_ones() as i32;
    if opp & !b.kings != 0 {
        score += w[BACK_RANK] * (men & BACK[s]).count_ones() as i32;
    }
    score += w[CENTRE] * (own & CENTRE_SQUARES).count_ones() as i32;
    // Advance matters more as pieces come off.
    let advance = w[ADVANCE] + (24 - total).max(0) / 6;
    let mut m = men;
    while m != 0 {
        let sq = m.trailing_zeros();
        m &= m - 1;
        let to_go = rows_to_go(side, sq);
        score += advance * (7 - to_go);
        // A runaway: no enemy piece in the cone in front of it.
        if CONES[s][sq as usize] & opp == 0 {
            score += w[RUNAWAY] - w[RUNAWAY_ROW] * to_go;
        }
    }
    score
}

/// The static evaluation of `g` for the side to move with weights `w` (in the order of
/// [`WEIGHT_NAMES`]); a side ahead gains from exchanges: its lead counts more as the board
/// empties.
pub fn evaluate(g: &Checkers, w: &[i32]) -> i32 {
    let w: &EvalWeights = w.try_into().expect("checkers' weights");
    let b = g.board();
    let me = g.to_move();
    let total = (b.pieces[0] | b.pieces[1]).count_ones() as i32;
    let material = |s: usize| {
        w[MAN] * (b.pieces[s] & !b.kings).count_ones() as i32 + w[KING] * (b.pieces[s] & b.kings).count_ones() as i32
    };
    let lead = material(me.index()) - material(1 - me.index());
    let mobility = (b.steppers(me).count_ones() as i32 - b.steppers(me.other()).count_ones() as i32) * w[MOBILITY];
    side_score(b, me, total, w) - side_score(b, me.other(), total, w) + lead * w[EXCHANGE] / total.max(1) + mobility
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

/// An endgame database being built, or built: empty until its builder thread has set it.
type Pending = Arc<OnceLock<Endgame>>;

/// The endgame database of this process: one set of rules at a time (another replaces it).
type DbCache = Mutex<Option<(Capturing, Pending)>>;

/// What the engine knows of checkers: [`evaluate`] with its weights, [`order_key`], and the
/// endgame database of up to four pieces (when the games' memory budget holds it: see
/// [`CheckersKnowledge::new`]).
pub struct CheckersKnowledge {
    rules: Rules,
    db: Option<Pending>,
    /// The evaluation's weights by name ([`WEIGHT_NAMES`]).
    weights: Weights,
}

impl CheckersKnowledge {
    /// The knowledge for `rules`. With a memory budget for the games' tables, the endgame
    /// database of these rules is taken from `resources`; the first game that asks starts its
    /// build on a thread of its own (about 2 s of one core for four pieces), so that `init`
    /// answers at once, and the knowledge uses it from the moment it is done (the opening does
    /// not need it). Four pieces (14.2 MiB) if they take at most half the budget, else three if
    /// they fit, else none.
    pub fn new(rules: Rules, resources: &Resources) -> CheckersKnowledge {
        let budget = (resources.budget_mib() << 20) / 2;
        let Some(pieces) = (2..=MAX_PIECES).rev().find(|&p| Endgame::bytes_for(p) <= budget) else {
            return CheckersKnowledge { db: None, ..CheckersKnowledge::without_tables(rules) };
        };
        let db = resources.shared("checkers endgame", |_| DbCache::default()).map(|cache| {
            let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
            let capturing = rules.capturing();
            match cache.as_ref().filter(|(c, _)| *c == capturing) {
                Some((_, db)) => db.clone(),
                None => {
                    let db: Pending = Arc::default();
                    let building = db.clone();
                    std::thread::spawn(move || {
                        let _ = building.set(Endgame::build(capturing, pieces));
                    });
                    *cache = Some((capturing, db.clone()));
                    db
                }
            }
        });
        CheckersKnowledge { db, ..CheckersKnowledge::without_tables(rules) }
    }

    /// The knowledge with the compiled-in weights and no endgame database.
    fn without_tables(rules: Rules) -> CheckersKnowledge {
        CheckersKnowledge { rules, db: None, weights: default_weights() }
    }

    /// Waits until the endgame database (if there is one) is built; for tests and measurements.
    pub fn wait_for_database(&self) -> bool {
        let Some(db) = &self.db else { return false };
        while db.get().is_none() {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        true
    }

    fn database(&self) -> Option<&Endgame> {
        self.db.as_ref()?.get()
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// [`evaluate`] with weights `w`; in a position of the endgame database, a draw is 0, and a
    /// win [`KNOWN_WIN`] plus the evaluation and [`closing_in`] (a loss the negation of the
    /// winner's).
    fn evaluate_weighted(&self, g: &Checkers, w: &[i32]) -> Score {
        let me = g.to_move();
        let score = match self.probe(g) {
            None => evaluate(g, w),
            Some(Value::Draw) => 0,
            Some(Value::Win) => KNOWN_WIN + evaluate(g, w).max(0) + closing_in(g.board(), me),
            Some(Value::Loss) => -KNOWN_WIN + evaluate(g, w).min(0) - closing_in(g.board(), me.other()),
        };
        score.clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// The database's value of `g`, if it covers it.
    pub fn probe(&self, g: &Checkers) -> Option<Value> {
        let b = g.board();
        if (b.pieces[0] | b.pieces[1]).count_ones() > MAX_PIECES {
            return None;
        }
        self.database()?.probe(b, g.to_move())
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
        self.evaluate_weighted(g, self.weights.values())
    }

    fn weights(&self) -> Option<&Weights> {
        Some(&self.weights)
    }

    fn set_weights(&mut self, weights: &Weights) -> Result<(), String> {
        if weights.names() != self.weights.names() {
            return Err("not checkers' weights".into());
        }
        self.weights = weights.clone();
        Ok(())
    }

    fn evaluate_with(&self, g: &Checkers, weights: &Weights) -> Score {
        self.evaluate_weighted(g, weights.values())
    }

    fn wait_until_ready(&self) {
        self.wait_for_database();
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

    /// A drawn position of the database: the moves that keep the draw (the search orders them,
    /// the traps pick among them). Won and lost ones are left to the search, whose evaluation
    /// knows them: the database has no distances, and a win is made by progress.
    fn solve_exactly(&self, g: &Checkers, _deadline: Instant, _stop: Option<&AtomicBool>) -> Option<Proof<Move>> {
        if self.probe(g)? != Value::Draw {
            return None;
        }
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let keep: Vec<Move> =
            self.after(g, &moves)?.into_iter().filter(|&(_, v)| v == Value::Draw).map(|(m, _)| m).collect();
        (!keep.is_empty()).then_some(Proof { score: 0, moves: keep })
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

    /// A man is 100: the weaker levels give away an eighth of a man a level (easy, level 2:
    /// under a man).
    fn level_step(&self) -> Score {
        12
    }

    fn reference_move(&self, g: &mut Checkers, rng: &mut dyn RngCore) -> Option<Move> {
        reference::greedy_move(g, rng)
    }
}
