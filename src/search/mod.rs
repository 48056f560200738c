//! Game-agnostic search: iterative deepening, PVS negamax alpha-beta with a transposition table,
//! aspiration windows, killer and history ordering, late-move reductions, and a clock; and
//! df-pn ([`dfpn`]) for proofs over AND/OR trees. It knows games only through the contracts it
//! defines: [`Game`] (the rules) and [`Knowledge`] (what is not the rules: evaluation, move
//! ordering, tactics, exact solvers); it never names a game. It is the bottom layer: games
//! implement its traits, it imports nothing of theirs.

pub mod clock;
mod deepen;
pub mod dfpn;
mod frame;
pub mod game;
mod moves;
mod node;
mod ordering;
mod picker;
pub mod plain;
mod quiescence;
mod root;
mod searcher;
pub mod tt;
pub mod weights;
pub mod zobrist;

pub use clock::Limits;
pub use game::{Alternating, Game, Outcome, Side};
pub use picker::Stage;
pub use searcher::{score_text, SearchInfo, SearchResult, Searcher, Source};
pub use weights::{WeightFile, Weights};

use anyhow::{anyhow, Result};
use rand::seq::SliceRandom;
use rand::RngCore;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Scores are from the view of the side to move. A win `p` plies from the root scores
/// `WIN - p`, so faster wins score higher and slower losses lose less.
pub type Score = i32;
pub const WIN: Score = 1_000_000;
pub const MAX_PLY: usize = 256;
/// Scores beyond this are wins or losses found by search, never evaluations.
pub const WIN_BOUND: Score = WIN - MAX_PLY as Score;
/// Evaluations are clamped into +-EVAL_LIMIT.
pub const EVAL_LIMIT: Score = WIN_BOUND / 2;

/// A candidate move with the game's estimate of how promising it is (higher first).
#[derive(Copy, Clone, Debug)]
pub struct Candidate<M> {
    pub mv: M,
    pub score: i64,
}

/// What an exact solver proved about a position: its value (in search units: a win in `p`
/// plies scores `WIN - p`) and the moves that keep it, best first. For a win, one winning move
/// is enough, and the score may be a lower bound (a win proved, its distance not; or a draw
/// at least, the win not settled).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof<M> {
    pub score: Score,
    pub moves: Vec<M>,
    /// The value was read from the game's opening book (proved values stored ahead of play)
    /// rather than solved now.
    pub from_book: bool,
}

/// The exact value of one legal move ([`RootKnowledge::exact_move_values`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExactMove<M> {
    pub mv: M,
    /// The value after the move, from the view of the side to move before it, in a
    /// [`Proof`]'s units; a win or loss whose distance is not known scores exactly
    /// `WIN_BOUND` or `-WIN_BOUND`.
    pub score: Score,
    /// The value as the game's own solver writes it in `boardbot solve --analyze` (Connect-X:
    /// Pons' score of the column; Kalah: the first player's final margin), if it writes one.
    pub solver_value: Option<i32>,
}

/// How selective the search is with a game whose move lists are exhaustive (see
/// [`Knowledge::selectivity`]). The default is the search's own mild setting, which keeps every
/// game's search as it was before games could choose.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Selectivity {
    /// Late-move reductions in an exhaustive list: `None`, one ply for the fourth move on at
    /// depth 3 and more (two from the ninth at depth 6); `Some(f)`, `f` x ln(depth) x ln(move
    /// number) plies (at least one), one less at a principal-variation node.
    pub reduction: Option<f32>,
    /// Late-move pruning in an exhaustive list at non-PV nodes up to this depth (the moves
    /// beyond the first 3 + depth^2 are not searched once one does not lose; the result is then
    /// no proof). 0: none.
    pub pruning_depth: i32,
    /// Reverse futility pruning: at a quiet non-PV node up to depth 3 whose static evaluation
    /// is at least beta + this x depth, the evaluation is the score. `None`: none.
    pub static_margin: Option<Score>,
    /// Futility pruning: at a quiet non-PV node up to depth 3 whose static evaluation plus this
    /// x depth cannot reach alpha, only moves the game calls tactical are searched after the
    /// first. `None`: none.
    pub futility_margin: Option<Score>,
    /// Null-move pruning (where [`Knowledge::null_move`] gives a pass): at a quiet non-PV node
    /// of depth 2 and more whose evaluation is at least beta, the side to move passes and a
    /// null-window search this many plies shallower (and one more every 6 plies of depth)
    /// that still fails high ends the node. 0: none.
    pub null_reduction: i32,
    /// A null move's cutoff is trusted only if a normal search of the node, shallower by the
    /// same reduction and without a null move, fails high too (zugzwang).
    pub null_verify: bool,
    /// On a cutoff, the quiet moves searched before the one that cut lose history.
    pub history_malus: bool,
    /// The moves of a node that is not quiet (see [`Knowledge::quiet`]: checkers' captures) do
    /// not use up depth, as a forced move does not.
    pub extend_unquiet: bool,
    /// Singular extensions at nodes of this depth and more (0: none): where the table holds a
    /// lower bound (or an exact score) for its move from a search at most 3 plies shallower, the
    /// other moves are searched to half the depth against that score less
    /// [`Selectivity::singular_margin`] x depth; if none reaches it, the table's move is searched
    /// a ply deeper. If one does and that lowered score is still at least beta, the node fails
    /// high on it (several moves do: multi-cut).
    pub singular_depth: i32,
    /// The singular search's margin below the table's score, per ply of depth.
    pub singular_margin: Score,
    /// [`Knowledge::quiet_win`] is asked at every quiet node, not only past the horizon: a win
    /// it sees ends the node as a proof before its moves are searched (as Rapfi's quick win
    /// check at every node).
    pub quiet_wins_inside: bool,
}

impl Default for Selectivity {
    fn default() -> Selectivity {
        Selectivity {
            reduction: None,
            pruning_depth: 0,
            static_margin: None,
            futility_margin: None,
            null_reduction: 0,
            null_verify: true,
            history_malus: false,
            extend_unquiet: false,
            singular_depth: 0,
            singular_margin: 0,
            quiet_wins_inside: false,
        }
    }
}

/// Values that take the place of some of a game's own [`Selectivity`] (the engine's options
/// `reduction`, `pruning-depth`, ...: src/bot/options.rs), for tuning the search of any game;
/// `None` keeps the game's own value. Given to the search with its [`Limits`].
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct SelectivityOverride {
    /// Takes the place of [`Selectivity::reduction`] (always `Some`: the factor).
    pub reduction: Option<f32>,
    pub pruning_depth: Option<i32>,
    /// Takes the place of [`Selectivity::static_margin`] (always `Some`: the margin).
    pub static_margin: Option<Score>,
    /// Takes the place of [`Selectivity::futility_margin`] (always `Some`: the margin).
    pub futility_margin: Option<Score>,
    pub null_reduction: Option<i32>,
    pub singular_depth: Option<i32>,
    pub singular_margin: Option<Score>,
}

impl SelectivityOverride {
    /// `own` (a game's selectivity) with the values this override sets in place of its own.
    pub fn apply(&self, own: Selectivity) -> Selectivity {
        Selectivity {
            reduction: self.reduction.or(own.reduction),
            pruning_depth: self.pruning_depth.unwrap_or(own.pruning_depth),
            static_margin: self.static_margin.or(own.static_margin),
            futility_margin: self.futility_margin.or(own.futility_margin),
            null_reduction: self.null_reduction.unwrap_or(own.null_reduction),
            singular_depth: self.singular_depth.unwrap_or(own.singular_depth),
            singular_margin: self.singular_margin.unwrap_or(own.singular_margin),
            ..own
        }
    }
}

/// What every node of a search needs to know about a game beyond its rules: the evaluation,
/// candidate moves with their order, tactics (immediate wins, forced replies, whether a side can
/// still win), what is searched past the horizon, and how selective the search may be. It is kept
/// apart from the game's struct, which holds the rules only: one value serves every copy of a
/// game (the search's threads share it), and holds whatever state the knowledge keeps from move to
/// move (a solver's tables). What is asked once a move, not at every node, is [`RootKnowledge`].
pub trait Knowledge<G: Game>: Sync {
    /// Static evaluation from the view of the side to move, in +-EVAL_LIMIT.
    fn evaluate(&self, g: &G) -> Score;

    /// A move that wins at once for the side to move, if there is one.
    fn winning_move(&self, g: &G) -> Option<G::Move>;

    /// Whether the side to move can be evaluated statically: no immediate threat against it
    /// that the evaluation would not see. Non-quiet nodes are searched past the horizon.
    fn quiet(&self, g: &G) -> bool;

    /// Candidate moves for search, appended to `out` in any order with ordering scores. When the
    /// side to move is forced (e.g. it must block a threat) only the forced replies are given.
    /// Returns whether the list is exhaustive, i.e. every omitted legal move is provably no
    /// better than the ones given; only then may search treat its result as a proof.
    fn candidates(&self, g: &G, out: &mut Vec<Candidate<G::Move>>) -> bool;

    /// Past the horizon (depth 0 or below) at a position that is not quiet: whether `mv` is
    /// searched there. Where some moves are left out, the side to move may instead stand pat on
    /// the evaluation: a game that searches only its captures there gets a quiescence search.
    /// By default every move is searched (and no standing pat).
    fn searched_past_horizon(&self, _g: &G, _mv: G::Move) -> bool {
        true
    }

    /// Past the horizon at a quiet node: the moves searched besides standing pat on the
    /// evaluation, appended to `out` with ordering scores; each must force the reply (a threat
    /// the opponent must answer at once, e.g. a four in gomoku), so that the search past the
    /// horizon stays a narrow threat sequence. `continuing`: the side to move has already
    /// played such a move past the horizon (a game may then list only the moves that follow
    /// up its last one). By default none: a quiet leaf is evaluated.
    fn quiescence_moves(&self, _g: &G, _continuing: bool, _out: &mut Vec<Candidate<G::Move>>) {}

    /// At a quiet node (see [`Knowledge::quiet`]): a win the side to move forces in this many
    /// plies that the static evaluation does not see (e.g. a stone that makes two threats at
    /// once). Search scores such a leaf as the win instead of evaluating it.
    fn quiet_win(&self, _g: &G) -> Option<u32> {
        None
    }

    /// At a quiet node past the horizon, after [`Knowledge::quiet_win`]: a forced win of the
    /// side to move found by a bounded search of its own (e.g. a VCF in gomoku, run to the end
    /// of the forcing line within a node budget), in this many plies. Search scores such a
    /// leaf as the win. Must be sound: a None proves nothing, a Some is a forced win. By
    /// default none, and nothing is searched.
    fn horizon_win(&self, _g: &G) -> Option<u32> {
        None
    }

    /// Whether `side` can still win at all (false lets search bound the score by a draw).
    fn can_win(&self, _g: &G, _side: Side) -> bool {
        true
    }

    /// How selective the search may be with this game's moves (by default not more than the
    /// search's own mild late-move reductions); asked once a search, of its root position.
    fn selectivity(&self, _g: &G) -> Selectivity {
        Selectivity::default()
    }

    /// The value of a position that the game knows without searching it (e.g. from an endgame
    /// database), asked at every node below the root before its table probe: the search takes
    /// it as a leaf's score (a heuristic score: no proof). None by default.
    fn known_value(&self, _g: &G) -> Option<Score> {
        None
    }

    /// A move that passes the turn, where the game allows the search to try one in `g` (for
    /// null-move pruning, see [`Selectivity::null_reduction`]); never a legal move. None by
    /// default.
    fn null_move(&self, _g: &G) -> Option<G::Move> {
        None
    }

    /// Whether `mv` (legal in `g`) changes the position so much that pruning must not skip it
    /// (a promotion, a sacrifice); only asked where [`Selectivity`] prunes.
    fn tactical(&self, _g: &G, _mv: G::Move) -> bool {
        false
    }

    /// The move picker's stage of the candidate `c` in `g` (src/search/picker.rs; docs/design.md,
    /// "The search's shape"): `Some(n)` puts it in the game's own stage `n` (0..=15), searched
    /// after the table's move and before the killers, stage 0 first, by `c.score` within a stage
    /// (such moves are never reduced or pruned as quiet moves are). `None`, the default, leaves
    /// it to the killers and the rest (by `c.score` plus the history): the order every game had
    /// before the picker.
    fn move_stage(&self, _g: &G, _c: &Candidate<G::Move>) -> Option<u8> {
        None
    }

    /// Whether the picker leaves out the moves of `stage` in `g` altogether (e.g. every move but
    /// the answers to a threat); asked when a node's list reaches the stage. A node that leaves
    /// out moves makes no proof. False by default.
    fn skip_stage(&self, _g: &G, _stage: Stage) -> bool {
        false
    }
}

/// What is asked of a game's knowledge once a move, never at a node inside the tree: at the
/// search's root, the game's exact solvers, threat searches and opening book (and so when play
/// calls them); in play, the reference player and how much a weaker level gives away; in tuning,
/// the evaluation's weights. Every method has a default (no solver, no book, L1, no weights): a
/// game without solvers implements it with an empty block. The search takes a `RootKnowledge`
/// and hands its nodes the [`Knowledge`] it extends; a level below the maximum searches with the
/// node knowledge alone (src/game/players.rs: `Shallow`).
pub trait RootKnowledge<G: Game>: Knowledge<G> {
    /// The exact value of the position and the moves that keep it, from a game's own exact
    /// solver, if it has one for this position and it finishes before `deadline` (or `stop`).
    fn solve_exactly(&self, _g: &G, _deadline: Instant, _stop: Option<&AtomicBool>) -> Option<Proof<G::Move>> {
        None
    }

    /// The exact value of every legal move of `g` (not over), by the game's exact solver or
    /// endgame database, if it settles them all before `deadline` (or `stop`): for an analysis
    /// board, not asked by the search. None by default.
    fn exact_move_values(
        &self,
        _g: &G,
        _deadline: Instant,
        _stop: Option<&AtomicBool>,
    ) -> Option<Vec<ExactMove<G::Move>>> {
        None
    }

    /// Whether the side to move wins with best play, by the game's exact solver, if it has one
    /// for this position and it settles the question before `deadline` (or `stop`).
    fn wins_exactly(&self, _g: &G, _deadline: Instant, _stop: Option<&AtomicBool>) -> Option<bool> {
        None
    }

    /// The moves among `moves` after which the game's exact solver has already proved that the
    /// opponent wins, from what its earlier searches left (no new search): e.g. those a solve
    /// refuted before it ran out of time. The search leaves them out, unless they are all.
    fn refuted_moves(&self, _g: &G, _moves: &[G::Move]) -> Vec<G::Move> {
        Vec::new()
    }

    /// When the opponent threatens a forced win (one it would have if it were to move), the
    /// moves among `moves` the game's threat search keeps as answers (possibly none): those
    /// after which it finds the win gone, among the moves it checks within its budget (a game
    /// may keep the moves it could not settle when none is found to stop the win); None when it
    /// threatens none or the game cannot tell before `deadline`. The search searches only the
    /// answers (every move if there are none).
    fn threat_answers(&self, _g: &G, _moves: &[G::Move], _deadline: Instant) -> Option<Vec<G::Move>> {
        None
    }

    /// The move of the game's opening book in `g`, if it has one: played at once under a clock
    /// (not in a search without one). None by default.
    fn book_move(&self, _g: &G) -> Option<G::Move> {
        None
    }

    /// Evaluation units a level below the maximum may give away for each level under it: a
    /// weaker level draws its move among those scoring within this times (maximum - level) of
    /// the best (see `game::players::MAX_LEVEL`). By default 40: a K-in-a-row window one stone
    /// short is worth a few hundred.
    fn level_step(&self) -> Score {
        40
    }

    /// The move of the game's reference player of the courses, the one a bot is first measured
    /// against; by default L1 (see [`l1_move`]). Games where it means something else (greedy
    /// sowing, the largest capture) say so.
    fn reference_move(&self, g: &mut G, rng: &mut dyn RngCore) -> Option<G::Move> {
        l1_move(self, g, rng)
    }

    /// The evaluation's weights by name, if it has any a tuner can fit ([`Weights`]): their
    /// defaults compiled in, or those [`RootKnowledge::set_weights`] gave. None by default.
    fn weights(&self) -> Option<&Weights> {
        None
    }

    /// Sets the evaluation's weights (the names of [`RootKnowledge::weights`]).
    fn set_weights(&mut self, _weights: &Weights) -> Result<()> {
        Err(anyhow!("this game's evaluation has no weights"))
    }

    /// Sets the evaluation's network from a net file's bytes (`None`: evaluate without one, with
    /// the game's hand-made evaluation). `Ok(false)`: this game has no network evaluation, or
    /// the bytes are not its kind of file, and nothing changed; `Err`: a file of its kind that
    /// it cannot read (damaged, truncated, another version), and nothing changed.
    fn set_net(&mut self, _net: Option<&[u8]>) -> Result<bool> {
        Ok(false)
    }

    /// [`Knowledge::evaluate`] with `weights` in place of the knowledge's own: what a tuner fits.
    /// `weights` has the names of [`RootKnowledge::weights`] (a game may panic otherwise). By default
    /// the evaluation.
    fn evaluate_with(&self, g: &G, _weights: &Weights) -> Score {
        self.evaluate(g)
    }

    /// The evaluation as a sum of the weights times counts, where it is one (linear in the
    /// weights): (index of the weight in [`RootKnowledge::weights`], count), from the side to
    /// move's view, before any clamp, so that a tuner can fit many weights at once by their
    /// gradient. None by default (the tuner then measures each weight's effect by a step).
    fn features(&self, _g: &G) -> Option<Vec<(u32, f32)>> {
        None
    }

    /// The move policy's weights, where the game orders moves by a policy a tuner can fit: a
    /// move's ordering score is the sum of the weights of its features (see
    /// [`RootKnowledge::policy_features`]), in hundredths of a logit (`boardbot tune --policy`
    /// fits them as a softmax over the candidates). None by default.
    fn policy(&self) -> Option<&Weights> {
        None
    }

    /// Where the policy orders the moves of `g`: every candidate it orders, with the indices of
    /// its features in [`RootKnowledge::policy`] (its score: the sum of those weights). None
    /// where it orders none (by default, everywhere).
    fn policy_features(&self, _g: &G) -> Option<Vec<(G::Move, Vec<u32>)>> {
        None
    }

    /// Returns once the tables the knowledge builds in the background are ready (a
    /// reproducible run waits for them; play does not). By default there are none.
    fn wait_until_ready(&self) {}
}

/// The courses' L1 player: a move that wins at once, else a random move that hands the
/// opponent no immediate win, else any random move.
pub fn l1_move<G: Game, K: Knowledge<G> + ?Sized>(know: &K, game: &mut G, rng: &mut dyn RngCore) -> Option<G::Move> {
    if let Some(mv) = know.winning_move(game) {
        return Some(mv);
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let safe = safe_moves(know, game, &moves);
    safe.choose(rng).or(moves.choose(rng)).copied()
}

/// The moves among `moves` that do not hand the opponent an immediate win.
pub fn safe_moves<G: Game, K: Knowledge<G> + ?Sized>(know: &K, game: &mut G, moves: &[G::Move]) -> Vec<G::Move> {
    let me = game.to_move();
    moves
        .iter()
        .copied()
        .filter(|&mv| {
            game.play(mv);
            let gives_win = game.outcome().is_none() && game.to_move() != me && know.winning_move(game).is_some();
            game.undo();
            !gives_win
        })
        .collect()
}

#[cfg(test)]
mod tests;
