//! The root policy: what the search decides once a move, around the node search and never inside
//! it. Its contract:
//! - phase 1 ([`Run::root_moves`]): a move decided before any search (an immediate win, the
//!   book under a clock, a forced move under a clock, no time left, the exact solver's proof of
//!   a win or of a single move), or the root's moves to search: after the exact solver (which
//!   may settle the value: a draw or a loss that several moves keep), without the moves it
//!   refuted, and only the threat answers when the opponent threatens a forced win;
//! - phase 2 (src/search/deepen.rs): iterative deepening over those moves, until a proof (or,
//!   where the exact solver proved the root lost, until the search sees the loss too); when every
//!   move left is proved lost, the refuted moves are searched too (a lost position is played to
//!   lose as late as possible);
//! - phase 3 ([`Run::play_for_errors`]): with the value settled, a trap; proved drawn or lost, a
//!   swindle: the move that gives an opponent that errs the most chances to.
//!
//! The solvers, threat searches, book and traps are asked only here (through
//! [`RootKnowledge`]); the node search (node.rs, moves.rs, quiescence.rs) knows nothing of them:
//! it is given the root's moves and a deadline, and asked for scores and proofs.

use super::clock::{
    DEFENCE_SHARE, SEARCH_RESERVE, SOLVER_SHARE, SWINDLE_MAX, SWINDLE_SHARE, TRAP_END, TRAP_QUERY_SHARE,
};
use super::searcher::{score_text, Run, SearchResult, Source};
use super::{Candidate, Game, Proof, RootKnowledge, Score, Side, MAX_PLY, WIN, WIN_BOUND};
use std::time::{Duration, Instant};

/// The opponent's likeliest replies looked at when setting traps (see [`TRAP_END`]).
const TRAP_REPLIES: usize = 8;

/// The root's moves to search (phase 1 of `Run::iterate`), best-ordered: `exhaustive` if they
/// are every move that matters; `settled` if the exact solver proved the value that every one of
/// them keeps (a draw or a loss: the search only orders them for the traps); `refuted`: the moves
/// the solver refuted, left out unless every move searched loses.
/// What a swindle has computed, for the positions its levels meet again: the chances of an
/// opponent error by (position, levels), and the proofs by (position, threshold).
#[derive(Default)]
struct SwindleMemo {
    chances: ahash::AHashMap<(u64, u32), Option<f64>>,
    proofs: ahash::AHashMap<(u64, Score), bool>,
}

pub(super) struct RootMoves<M> {
    moves: Vec<M>,
    exhaustive: bool,
    settled: bool,
    /// The exact solver proved the root lost.
    lost: bool,
    refuted: Vec<M>,
}

impl<G: Game, K: RootKnowledge<G>> Run<'_, G, K> {
    /// The search from the root, in three phases:
    /// 1. the root's moves: a move decided at once (a win, the book, a forced move, no time
    ///    left, the exact solver's proof), or the moves to search after the solver's refutations
    ///    and the threat defence ([`Run::root_moves`]);
    /// 2. iterative deepening over them, with aspiration windows ([`Run::search_moves_of_root`]);
    /// 3. with the value settled or lost, a move for the opponent's errors: traps and swindles
    ///    ([`Run::play_for_errors`]).
    pub(super) fn iterate(&mut self, game: &mut G) -> SearchResult<G::Move> {
        self.sel = self.limits.selectivity.apply(self.know.selectivity(game));
        let mut root = match self.root_moves(game) {
            Ok(root) => root,
            Err(decided) => return decided,
        };
        let mut moves = std::mem::take(&mut root.moves);
        let mut best = self.search_moves_of_root(game, &mut moves, &root);
        self.play_for_errors(game, &moves, root.settled, &mut best);
        best.nodes = self.nodes;
        best.elapsed = self.limits.elapsed();
        best
    }

    /// Phase 2 ([`Run::deepen`]) over `moves`; a second time over every move when the first
    /// proved a loss without the moves the solver refuted (`refuted`): those may lose later, and
    /// a lost position is played to lose as late as possible.
    fn search_moves_of_root(
        &mut self,
        game: &mut G,
        moves: &mut Vec<G::Move>,
        root: &RootMoves<G::Move>,
    ) -> SearchResult<G::Move> {
        let mut best = SearchResult {
            best: moves[0],
            score: 0,
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            proved: false,
            pv: vec![moves[0]],
            iterations: Vec::new(),
            source: Source::Search,
        };
        // The pauses are measured from here: the solvers' and threats' time before is no pause.
        self.last_look = self.limits.elapsed();
        let mut refuted = root.refuted.clone();
        loop {
            best = self.deepen(game, moves, root.exhaustive, root.lost, best);
            if best.proved && best.score <= -WIN_BOUND && !refuted.is_empty() && !self.stopped {
                log::info!("every move left loses: the refuted moves are searched too");
                moves.append(&mut refuted);
                continue;
            }
            return best;
        }
    }

    /// A move decided before any search, with its score and what decided it.
    fn decided(&self, best: G::Move, score: Score, proved: bool, source: Source) -> SearchResult<G::Move> {
        SearchResult {
            best,
            score,
            depth: 0,
            nodes: 0,
            elapsed: self.limits.elapsed(),
            proved,
            pv: vec![best],
            iterations: Vec::new(),
            source,
        }
    }

    /// Phase 1: the root's moves, best-ordered, after the exact solver and the threat defence;
    /// Err: a move decided at once.
    fn root_moves(&mut self, game: &mut G) -> Result<RootMoves<G::Move>, SearchResult<G::Move>> {
        if let Some(mv) = self.know.winning_move(game) {
            return Err(self.decided(mv, WIN - 1, true, Source::WinsAtOnce));
        }
        if self.limits.hard.is_some() {
            if let Some(mv) = self.know.book_move(game) {
                if self.thread == 0 {
                    log::info!("book: {}", game.format_move(mv));
                }
                return Err(self.decided(mv, 0, false, Source::Book));
            }
        }
        let mut root = Vec::new();
        let exhaustive = self.know.candidates(game, &mut root);
        assert!(!root.is_empty(), "search needs a game in progress");
        root.sort_by_key(|c| std::cmp::Reverse(c.score));
        if root.len() == 1 && self.limits.hard.is_some() {
            // A forced move under the clock: answer at once (its score is not needed to play).
            return Err(self.decided(root[0].mv, 0, false, Source::OnlyMove));
        }
        if self.limits.stop_requested() || self.limits.past_hard() {
            // No time left (an extra turn of the same reply after the budget ran out, or a stop):
            // the best-ordered move at once, without the solvers' and threats' set-up work.
            return Err(self.decided(root[0].mv, 0, false, Source::NoTime));
        }
        self.after_solvers(game, root, exhaustive)
    }

    /// Phase 1's second half: the root's candidates `root` (best first) narrowed by the exact
    /// solver (to the moves that keep its proved draw or loss: `settled` if several do), by its
    /// refutations (left out) and by the threat defence. Err: a move decided at once.
    fn after_solvers(
        &mut self,
        game: &mut G,
        mut root: Vec<Candidate<G::Move>>,
        exhaustive: bool,
    ) -> Result<RootMoves<G::Move>, SearchResult<G::Move>> {
        let moves_of = |root: &[Candidate<G::Move>]| root.iter().map(|c| c.mv).collect();
        if let Some(proof) = self.exact_solution(game) {
            let source = if proof.from_book { Source::Book } else { Source::Solver };
            if proof.score >= WIN_BOUND || proof.moves.len() == 1 {
                return Err(self.decided(proof.moves[0], proof.score, true, source));
            }
            // A draw or a loss: any of these moves keeps it; the search orders them, and the
            // traps (see `Run::trap`) pick the one that gives the opponent the most chances to
            // go wrong.
            root.retain(|c| proof.moves.contains(&c.mv));
            if root.is_empty() {
                return Err(self.decided(proof.moves[0], proof.score, true, source));
            }
            let settled = root.len() > 1;
            if settled {
                // The search only orders the moves for the traps: it gets a fifth of what is
                // left before them.
                let spent = self.limits.elapsed();
                let trap_end = self.limits.hard.map(|h| h.mul_f64(TRAP_END));
                self.soft = trap_end.map(|e| spent + e.saturating_sub(spent) / 5);
            }
            let lost = proof.score <= -WIN_BOUND;
            return Ok(RootMoves { moves: moves_of(&root), exhaustive, settled, lost, refuted: Vec::new() });
        }
        // What the solver refuted before it ran out of time (or at earlier moves) is not
        // searched again.
        let mut refuted_out = Vec::new();
        let moves: Vec<G::Move> = root.iter().map(|c| c.mv).collect();
        let refuted = self.know.refuted_moves(game, &moves);
        if !refuted.is_empty() && refuted.len() < root.len() {
            log::info!(
                "refuted: {} of {} moves lose by the exact solver: {}",
                refuted.len(),
                root.len(),
                refuted.iter().map(|&m| game.format_move(m)).collect::<Vec<_>>().join(", ")
            );
            root.retain(|c| !refuted.contains(&c.mv));
            refuted_out = refuted;
            if root.len() == 1 && self.limits.hard.is_some() {
                return Err(self.decided(root[0].mv, 0, false, Source::OnlyMove));
            }
        }
        if let Some(answers) = self.threat_defence(game, &root) {
            // The opponent threatens a forced win: only the moves that stop it are searched
            // (all of them if none does).
            if !answers.is_empty() {
                root.retain(|c| answers.contains(&c.mv));
            }
        }
        Ok(RootMoves { moves: moves_of(&root), exhaustive, settled: false, lost: false, refuted: refuted_out })
    }

    /// Phase 3: playing under a clock (not solving), with the value settled (a draw or a loss
    /// several moves keep: a trap) or proved lost or drawn (a swindle), the move that gives the
    /// opponent the most chances to go wrong, in place of `best`'s.
    fn play_for_errors(&mut self, game: &mut G, moves: &[G::Move], settled: bool, best: &mut SearchResult<G::Move>) {
        if settled && !self.stopped {
            if let Some(mv) = self.trap(game, moves) {
                if mv != best.best {
                    log::info!("trap: {} instead of {}", game.format_move(mv), game.format_move(best.best));
                    best.pv = vec![mv];
                    best.best = mv;
                }
            }
        } else if best.proved && best.score <= 0 && self.thread == 0 && !self.stopped && self.limits.hard.is_some() {
            if let Some(mv) = self.swindle(game, moves, best.score, best.depth as i32) {
                if mv != best.best {
                    log::info!("swindle: {} instead of {}", game.format_move(mv), game.format_move(best.best));
                    best.pv = vec![mv];
                    best.best = mv;
                }
            }
        }
    }

    /// The game's exact solver at the root, under the clock only (the main thread asks it; it
    /// gets a share of the budget, and the search the rest if it does not finish).
    fn exact_solution(&mut self, game: &G) -> Option<Proof<G::Move>> {
        let hard = self.limits.hard.filter(|_| self.thread == 0)?;
        let deadline = self.limits.start + hard.mul_f64(SOLVER_SHARE);
        let Some(proof) = self.know.solve_exactly(game, deadline, self.limits.stop.as_deref()) else {
            // The search keeps its usual share of the time that is left.
            let (spent, soft) = (self.limits.elapsed(), self.soft?);
            if spent > Duration::from_millis(1) {
                self.soft = Some(spent + hard.saturating_sub(spent).mul_f64(soft.as_secs_f64() / hard.as_secs_f64()));
            }
            return None;
        };
        log::info!(
            "solved: score {} time {:.3}s moves {}",
            score_text(proof.score),
            self.limits.elapsed().as_secs_f64(),
            proof.moves.iter().map(|&m| game.format_move(m)).collect::<Vec<_>>().join(", ")
        );
        Some(proof)
    }

    /// The root moves that stop the opponent's threatened forced win, if it has one, from the
    /// game's threat search under the clock (the main thread, within DEFENCE_SHARE of the budget).
    fn threat_defence(&mut self, game: &G, root: &[Candidate<G::Move>]) -> Option<Vec<G::Move>> {
        let hard = self.limits.hard.filter(|_| self.thread == 0)?;
        let deadline =
            (Instant::now() + hard.mul_f64(DEFENCE_SHARE)).min(self.limits.start + hard.mul_f64(1.0 - SEARCH_RESERVE));
        let moves: Vec<G::Move> = root.iter().map(|c| c.mv).collect();
        let answers = self.know.threat_answers(game, &moves, deadline)?;
        // The game's threat search checks what its budget allows and may keep moves it could
        // not settle: the log says what it kept, not that each move stops the win.
        log::info!(
            "threat: the opponent threatens a forced win; the game's threat search keeps {} of {} moves as answers{}",
            answers.len(),
            moves.len(),
            if answers.is_empty() { " (none: every move is searched)" } else { " (only those are searched)" }
        );
        Some(answers)
    }

    /// The exact solver proved the root a draw or a loss, and every move of `moves` (in the
    /// search's order) keeps it. Against an opponent that errs they are not equal: this picks
    /// the one after which the largest share of the opponent's likeliest sensible replies (its
    /// first TRAP_REPLIES candidates by the game's move ordering that do not hand us a win it
    /// would see at once) are proved lost for it by the solver, with ties to the search's
    /// order, within TRAP_END of the budget. `None` if no reply was proved lost.
    fn trap(&mut self, game: &mut G, moves: &[G::Move]) -> Option<G::Move> {
        let hard = self.limits.hard?;
        let end = self.limits.start + hard.mul_f64(TRAP_END);
        let query = hard.mul_f64(TRAP_QUERY_SHARE);
        let stop = self.limits.stop.clone();
        let me = game.to_move();
        let (mut best, mut best_share) = (None, 0.0);
        let mut replies = Vec::new();
        for &mv in moves {
            game.play(mv);
            let (mut looked, mut lost) = (0u32, 0u32);
            if game.outcome().is_none() && game.to_move() != me {
                replies.clear();
                self.know.candidates(game, &mut replies);
                replies.sort_by_key(|c| std::cmp::Reverse(c.score));
                for r in &replies {
                    let now = Instant::now();
                    if now >= end || looked as usize == TRAP_REPLIES {
                        break;
                    }
                    game.play(r.mv);
                    // A reply that hands us a win the game sees at once (a move that wins, or
                    // a stone that makes two threats) is no trap: the opponent sees it too.
                    let obvious = self.know.winning_move(game).is_some()
                        || (self.know.quiet(game) && self.know.quiet_win(game).is_some());
                    if game.outcome().is_none() && game.to_move() == me && !obvious {
                        looked += 1;
                        if self.know.wins_exactly(game, (now + query).min(end), stop.as_deref()) == Some(true) {
                            lost += 1;
                        }
                    }
                    game.undo();
                }
            }
            game.undo();
            if Instant::now() >= end {
                // This move's count is incomplete: it is left out.
                break;
            }
            let share = if looked == 0 { 0.0 } else { lost as f64 / looked as f64 };
            log::debug!("trap: {} loses {lost} of the {looked} replies looked at", game.format_move(mv));
            if share > best_share {
                (best, best_share) = (Some(mv), share);
            }
        }
        if let Some(mv) = best {
            log::info!(
                "trap: {} (share of replies proved lost {best_share:.3}) time {:.3}s",
                game.format_move(mv),
                self.limits.elapsed().as_secs_f64()
            );
        }
        best
    }

    /// The root is proved a draw or a loss (`value`): against a perfect opponent every move that
    /// keeps that value is as good as another, but an opponent that errs can still be beaten (or
    /// fail to win). So pick the move that maximises the chance that the opponent gives up its
    /// result, modelling it as a player who takes an immediate win, never hands one over, and
    /// otherwise picks among its moves at random: an expectimax over `levels` of our moves, with
    /// proofs at the leaves, deepened while time lasts. Returns `None` if nothing was decided.
    fn swindle(&mut self, game: &mut G, moves: &[G::Move], value: Score, depth: i32) -> Option<G::Move> {
        // A settled result is answered almost at once: the swindle gets a short slice of time.
        let hard = self.limits.hard?;
        let slice = (hard.mul_f64(SWINDLE_SHARE)).min(SWINDLE_MAX);
        let begin = self.limits.elapsed();
        self.deadline = Some(begin + slice);
        let mut choice = None;
        let mut last_chance = -1.0;
        let mut memo = SwindleMemo::default();
        for levels in 1..=MAX_PLY as u32 {
            // A deeper level costs several times the last: start one only early in the slice.
            if levels > 1 && self.limits.elapsed() > begin + slice / 2 {
                break;
            }
            match self.best_swindle(game, &mut memo, moves, value, depth, levels) {
                Some((chance, mv)) if !self.stopped => {
                    log::info!(
                        "swindle level {levels}: {} (opponent error chance {chance:.3}) time {:.3}s",
                        game.format_move(mv),
                        self.limits.elapsed().as_secs_f64()
                    );
                    choice = Some(mv);
                    if chance == last_chance {
                        // A level that adds nothing: every line was followed to its end.
                        break;
                    }
                    last_chance = chance;
                }
                _ => break,
            }
        }
        choice
    }

    /// Our move with the largest chance of an opponent error within `levels` of our moves.
    fn best_swindle(
        &mut self,
        game: &mut G,
        memo: &mut SwindleMemo,
        moves: &[G::Move],
        value: Score,
        depth: i32,
        levels: u32,
    ) -> Option<(f64, G::Move)> {
        let me = game.to_move();
        let mut best: Option<(f64, G::Move)> = None;
        for &mv in moves {
            game.play(mv);
            let chance = self.error_chance(game, memo, me, value, depth, levels);
            game.undo();
            if self.stopped {
                return None;
            }
            if let Some(c) = chance {
                if best.is_none_or(|(b, _)| c > b) {
                    best = Some((c, mv));
                }
            }
        }
        best
    }

    /// After our move: `None` if it is not proved to keep `value` (or hands the opponent an
    /// immediate win); else the chance that the modelled opponent errs within `levels`.
    fn error_chance(
        &mut self,
        game: &mut G,
        memo: &mut SwindleMemo,
        me: Side,
        value: Score,
        depth: i32,
        levels: u32,
    ) -> Option<f64> {
        let key = (game.hash(), levels);
        if let Some(&known) = memo.chances.get(&key) {
            return known;
        }
        let chance = self.error_chance_uncached(game, memo, me, value, depth, levels);
        if !self.stopped {
            memo.chances.insert(key, chance);
        }
        chance
    }

    fn error_chance_uncached(
        &mut self,
        game: &mut G,
        memo: &mut SwindleMemo,
        me: Side,
        value: Score,
        depth: i32,
        levels: u32,
    ) -> Option<f64> {
        let losing = value <= -WIN_BOUND;
        // Our result after a reply is better than `value` if it is at least this.
        let better = if losing { -WIN_BOUND + 1 } else { WIN_BOUND };
        if game.outcome().is_some() {
            return Some(0.0);
        }
        if game.to_move() != me && self.know.winning_move(game).is_some() {
            return None;
        }
        // The move must keep the value: a draw, or a loss no faster than the slowest one.
        if !self.proved_at_least(game, memo, me, depth, value) {
            return None;
        }
        let mut replies = Vec::new();
        game.legal_moves(&mut replies);
        let (mut total, mut chance) = (0u32, 0f64);
        for &r in &replies {
            game.play(r);
            // A sensible opponent does not hand us an immediate win.
            if !(game.outcome().is_none() && game.to_move() == me && self.know.winning_move(game).is_some()) {
                total += 1;
                if self.proved_at_least(game, memo, me, depth, better) {
                    chance += 1.0;
                } else if levels > 1 && game.outcome().is_none() && game.to_move() == me {
                    let mut ours = Vec::new();
                    game.legal_moves(&mut ours);
                    if let Some((c, _)) = self.best_swindle(game, memo, &ours, value, depth, levels - 1) {
                        chance += c;
                    }
                }
            }
            game.undo();
            if self.stopped {
                return None;
            }
        }
        // If every reply hands us a win, the opponent has to give one.
        Some(if total == 0 { 1.0 } else { chance / total as f64 })
    }

    /// Whether the position is proved worth at least `threshold` to `me` (memoized).
    fn proved_at_least(
        &mut self,
        game: &mut G,
        memo: &mut SwindleMemo,
        me: Side,
        depth: i32,
        threshold: Score,
    ) -> bool {
        let key = (game.hash(), threshold);
        if let Some(&known) = memo.proofs.get(&key) {
            return known;
        }
        let v = self.child(game, me, depth, 1, threshold - 1, threshold, false);
        let proved = v.proof && v.score >= threshold;
        if !self.stopped {
            memo.proofs.insert(key, proved);
        }
        proved
    }
}
