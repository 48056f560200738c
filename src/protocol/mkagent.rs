//! The agent protocol of the Manchester Kalah referee (`ManKalah.jar`, used in a university AI
//! course), spoken by `boardbot --protocol mkagent`. protocol.md ("The Manchester Kalah
//! protocol") is its description; in short, one message a line, fields split by `;`:
//!
//! - referee to agent: `START;South` (the agent moves first) or `START;North`; after every move,
//!   `CHANGE;<1..7|SWAP>;<state>;<YOU|OPP|END>` (the state is 16 numbers, North's holes 1..7 and
//!   store, South's holes 1..7 and store) to both agents, except after a swap, which only the
//!   other agent is told of; finally `END`.
//! - agent to referee: `MOVE;<1..7>` or `SWAP`.
//!
//! The game is `kalah 7 7 capture standard pie`: the referee's hole numbers are the engine's pit
//! numbers (each side counts from the end farthest from its own store), and its SWAP is the
//! engine's `swap`, which the search weighs like any other move: the agent swaps when taking
//! over South's position is worth more than the best reply. The players keep their identities
//! in the engine (the one that started South stays `First`, and after a swap sits North), so
//! the engine's game follows the referee's moves as they come; the seats only map the referee's
//! boards onto the engine's. Every `CHANGE` is read in full before anything changes, and its
//! board and turn are compared with the engine's after the move it reports: where they differ,
//! the log says so and the referee's board is taken.
//!
//! The clock is the whole game's (one hour by default, `--clock`): each turn gets a share of
//! what is left ([`move_budget`]), measured from the instant the referee's message was read to
//! the reply written. A turn with extra turns is planned by one search; its moves are sent one
//! at a time, each as the referee asks for it.
//!
//! The referee never reads stderr, so in this mode the log goes to `--log FILE` or nowhere
//! (main.rs).

use super::session::{Input, Reader};
use crate::bot::Engine;
use crate::game::any::AnyGame;
use crate::game::registry::{GameSpec, Resources};
use anyhow::{anyhow, bail, Result};
use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The referee's game: 7 holes of 7 seeds, captures only from a non-empty opposite hole, the
/// pie rule.
pub const SPEC: &str = "kalah 7 7 capture standard pie";
/// Each agent's thinking time for the whole game, by default.
pub const DEFAULT_CLOCK: Duration = Duration::from_secs(3600);
/// A turn may take this share (1/N) of the clock left over the reserve, N counting the turns
/// still to play: one for every SEEDS_A_TURN seeds in the pits, between the bounds. A game of
/// the referee lasts about 25 to 35 turns a side; the clock goes to the opening and the middle
/// game, where the game is decided, rather than to the endgame, where the exact solver takes over.
const SEEDS_A_TURN: u32 = 6;
const TURNS_TO_GO: (u32, u32) = (5, 14);
/// The part of the clock (1/N) never planned for: the referee's and the pipes' overheads.
const RESERVE_SHARE: u32 = 50;
/// No move plans less than this.
const MIN_MOVE: Duration = Duration::from_millis(20);

/// The time for the next search when `left` of the whole `clock` remains and `seeds` are in
/// the pits.
pub fn move_budget(clock: Duration, left: Duration, seeds: u32) -> Duration {
    let usable = left.saturating_sub(clock / RESERVE_SHARE);
    let turns = (seeds / SEEDS_A_TURN).clamp(TURNS_TO_GO.0, TURNS_TO_GO.1);
    (usable / turns).max(MIN_MOVE.min(left / 4))
}

/// Serves the protocol on `input`/`output` until `END` or end of input.
pub fn serve<R, W>(input: R, mut output: W, engine: Engine, clock: Duration) -> Result<()>
where
    R: BufRead + Send + 'static,
    W: Write,
{
    // The tables are made before the first message: the clock runs from START on.
    let mut engine = engine;
    engine.prepare();
    let reader = Reader::spawn(input, |line| line.trim() == "END");
    let mut agent = Agent::new(engine, clock);
    loop {
        match reader.lines.recv() {
            Ok(Input::Line(line, start)) => {
                log::debug!("<< {line}");
                let reply = catch_unwind(AssertUnwindSafe(|| agent.handle(&line, start, &reader.stop)))
                    .unwrap_or_else(|_| Err(anyhow!("internal error")));
                match reply {
                    Ok(Some(reply)) => {
                        log::debug!(">> {reply}");
                        writeln!(output, "{reply}")?;
                        output.flush()?;
                        agent.engine.reply_written();
                        agent.used += start.elapsed();
                    }
                    Ok(None) => {}
                    // The protocol has no error message: an agent that cannot follow the game
                    // says so in its log and waits for the next message.
                    Err(e) => log::error!("{e} (message '{line}')"),
                }
            }
            Ok(Input::Bad(reason)) => log::error!("{reason}"),
            Ok(Input::End) | Err(_) => break,
        }
    }
    if reader.quit.load(std::sync::atomic::Ordering::SeqCst) {
        log::info!("END: the referee ends the game");
    } else {
        log::warn!("the input ended without END");
    }
    log::info!("thinking time used: {:.3} s of {:.0} s", agent.used.as_secs_f64(), clock.as_secs_f64());
    Ok(())
}

/// The referee's holes a side, and its seeds.
const HOLES: usize = 7;
const SEEDS: u32 = 98;

/// A move the referee reports: a hole 1..=7 of the side that moved, or the swap.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Reported {
    Hole(usize),
    Swap,
}

impl Reported {
    /// The engine's move text.
    fn text(self) -> String {
        match self {
            Reported::Hole(h) => h.to_string(),
            Reported::Swap => "swap".to_string(),
        }
    }
}

/// Who moves after a reported move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Next {
    You,
    Opp,
    End,
}

/// A `CHANGE` message, read in full before anything changes: a message with any field wrong is
/// refused whole.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Change {
    mv: Reported,
    /// North's holes 1..7, North's store, South's holes 1..7, South's store.
    state: [u32; 16],
    next: Next,
}

impl Change {
    fn parse(mv: &str, state: &str, next: &str) -> Result<Change> {
        let digits = |t: &str| !t.is_empty() && t.len() <= 3 && t.bytes().all(|b| b.is_ascii_digit());
        let mv = match mv {
            "SWAP" => Reported::Swap,
            h if digits(h) && (1..=HOLES).contains(&h.parse::<usize>().unwrap_or(0)) => {
                Reported::Hole(h.parse().expect("digits"))
            }
            _ => bail!("not a hole 1..{HOLES} or SWAP: '{mv}'"),
        };
        let counts: Vec<u32> = state.split(',').filter(|c| digits(c)).map(|c| c.parse().expect("digits")).collect();
        let state: [u32; 16] = counts
            .try_into()
            .ok()
            .filter(|c: &[u32; 16]| c.iter().sum::<u32>() == SEEDS)
            .ok_or_else(|| anyhow!("not a state of 16 counts of {SEEDS} seeds: '{state}'"))?;
        let next = match next {
            "YOU" => Next::You,
            "OPP" => Next::Opp,
            "END" => Next::End,
            _ => bail!("not YOU, OPP or END: '{next}'"),
        };
        let rows_empty = [&state[..HOLES], &state[8..8 + HOLES]].map(|row| row.iter().all(|&c| c == 0));
        let over = rows_empty[0] && rows_empty[1];
        if (next == Next::End) != over || (!over && (rows_empty[0] || rows_empty[1])) {
            bail!("the rows and the turn do not agree (a row is empty only when the game ends)");
        }
        Ok(Change { mv, state, next })
    }
}

/// One game as an agent. The engine's game is kept at the position the referee has confirmed;
/// the moves of our turn that are planned or sent but not yet confirmed are kept apart.
struct Agent {
    engine: Engine,
    spec: GameSpec,
    clock: Duration,
    /// Thinking time spent this game.
    used: Duration,
    /// Whether a game is on, and whether we started South (the engine's first player).
    first: Option<bool>,
    /// Moves the referee has made this game (the swap included).
    plies: usize,
    /// Whether the players have exchanged their sides (the pie rule's swap): the engine's first
    /// player then sits North.
    swapped: bool,
    /// The moves of the engine's game since its start (the start of the game, or the referee's
    /// board at the last disagreement).
    moves: Vec<String>,
    /// Our move sent and not yet confirmed by a `CHANGE`.
    awaiting: Option<String>,
    /// The rest of a turn the engine planned (extra turns), not yet sent.
    planned: VecDeque<String>,
    /// Seeds in the pits on the referee's last board.
    seeds: u32,
}

impl Agent {
    fn new(engine: Engine, clock: Duration) -> Agent {
        let spec = GameSpec::parse(SPEC).expect("the referee's game is a registered game");
        Agent {
            engine,
            spec,
            clock,
            used: Duration::ZERO,
            first: None,
            plies: 0,
            swapped: false,
            moves: Vec::new(),
            awaiting: None,
            planned: VecDeque::new(),
            seeds: SEEDS,
        }
    }

    /// Our reply to one message, if it needs one. A message the agent cannot follow changes
    /// nothing (an error, logged by the caller).
    fn handle(&mut self, line: &str, start: Instant, stop: &Arc<AtomicBool>) -> Result<Option<String>> {
        let fields: Vec<&str> = line.trim_end_matches(['\r', '\n']).split(';').collect();
        match fields.as_slice() {
            ["START", seat] => {
                let south = match *seat {
                    "South" => true,
                    "North" => false,
                    _ => bail!("unknown seat '{seat}'"),
                };
                // The referee plays one game an agent and never sends START again: one in the
                // middle of a game is not the referee's, and the game goes on.
                if self.first.is_some() && self.engine.outcome().is_none() {
                    bail!("START in the middle of a game ({} moves played): ignored, the game goes on", self.plies);
                }
                log::info!("START: a game as {seat}");
                self.engine.new_game(&self.spec, south, MIN_MOVE)?;
                self.first = Some(south);
                (self.used, self.plies, self.swapped) = (Duration::ZERO, 0, false);
                (self.moves, self.awaiting, self.seeds) = (Vec::new(), None, SEEDS);
                self.planned.clear();
                if south {
                    return self.our_move(start, stop).map(Some);
                }
                Ok(None)
            }
            ["CHANGE", mv, state, next] => {
                let change = Change::parse(mv, state, next)?;
                let first = self.first.ok_or_else(|| anyhow!("no game: START first"))?;
                if !self.follow(&change, first)? {
                    return Ok(None);
                }
                match change.next {
                    Next::You => self.our_move(start, stop).map(Some),
                    Next::Opp | Next::End => {
                        if !self.planned.is_empty() {
                            log::warn!("the referee ended our turn before its planned moves {:?}", self.planned);
                            self.planned.clear();
                        }
                        Ok(None)
                    }
                }
            }
            _ => Err(anyhow!("unknown message")),
        }
    }

    /// Brings the engine's game to the referee's after `change`: the move reported (ours
    /// confirmed, or the opponent's) is played, and the board and turn compared with the
    /// referee's; where they differ, the referee's board is taken (and the log says so). A
    /// repeat of the last message (the same board again, or the referee confirming our swap)
    /// changes nothing: false then.
    fn follow(&mut self, change: &Change, first: bool) -> Result<bool> {
        let referee = self.referee_game(change, first)?;
        let same = |game: &dyn AnyGame| {
            game.board_text() == referee.board_text()
                && match change.next {
                    Next::End => game.outcome().is_some(),
                    _ => game.outcome().is_none() && game.to_move() == referee.to_move(),
                }
        };
        let now = self.engine.game().ok_or_else(|| anyhow!("no game"))?;
        let repeat = now.board_text() == referee.board_text() && (change.mv != Reported::Swap || self.swapped);
        if repeat {
            log::warn!("the referee repeats a board we have: nothing to do");
            return Ok(false);
        }
        let reported = change.mv.text();
        if let Some(ours) = self.awaiting.take() {
            if ours != reported {
                log::warn!("we played {ours}, the referee says {reported}");
                self.planned.clear();
            }
        }
        let mut moves = self.moves.clone();
        moves.push(reported.clone());
        let words: Vec<&str> = moves.iter().map(String::as_str).collect();
        let played = self.engine.set_position(&words);
        if played.is_ok() && same(self.engine.game().ok_or_else(|| anyhow!("no game"))?) {
            self.moves = moves;
        } else {
            let ours = self.engine.game().map(|g| g.board_text()).unwrap_or_default();
            log::warn!(
                "the referee's board after {reported} differs from ours ({}): we take the referee's\nours:\n{ours}referee's:\n{}",
                played.err().map_or_else(|| "another board or turn".to_string(), |e| e.to_string()),
                referee.board_text()
            );
            self.engine.set_position(&["fen", &self.fen(change, first)])?;
            self.moves.clear();
            self.planned.clear();
        }
        self.plies += 1;
        self.swapped |= change.mv == Reported::Swap;
        self.seeds = change.state[..HOLES].iter().chain(&change.state[8..8 + HOLES]).sum();
        Ok(true)
    }

    /// The referee's position after `change` as a Kalah position of the engine's game (see
    /// [`crate::game::kalah::fen`]): the engine's first player is the one that started South,
    /// and its row is the row of the seat it sits at now.
    fn fen(&self, change: &Change, first: bool) -> String {
        let swapped = self.swapped || change.mv == Reported::Swap;
        let (north, south) = change.state.split_at(8);
        let (first_row, second_row) = if swapped { (north, south) } else { (south, north) };
        let counts: Vec<String> = first_row.iter().chain(second_row).map(u32::to_string).collect();
        let we_move_next = change.next == Next::You;
        let side = if we_move_next == first { "first" } else { "second" };
        let pie = if self.plies == 0 && change.next != Next::End { "/swap" } else { "" };
        format!("{}/{side}{pie}", counts.join(","))
    }

    /// The referee's position after `change`, as a game of its own (no tables).
    fn referee_game(&self, change: &Change, first: bool) -> Result<Box<dyn AnyGame>> {
        let fen = self.fen(change, first);
        let mut words: Vec<&str> = SPEC.split_whitespace().collect();
        words.extend(["fen", &fen]);
        GameSpec::from_words(&words)?.new_game(&Resources::none())
    }

    /// The next move of our turn: planned already, or searched within this move's share of
    /// the clock.
    fn our_move(&mut self, start: Instant, stop: &Arc<AtomicBool>) -> Result<String> {
        if self.awaiting.is_some() {
            bail!("the referee asks for a move before confirming ours");
        }
        let mv = match self.planned.pop_front() {
            Some(mv) if self.engine.game().is_some_and(|g| g.legal_moves().contains(&mv)) => mv,
            _ => {
                self.planned.clear();
                if self.engine.game().is_none_or(|g| g.outcome().is_some()) {
                    bail!("the referee says we move; the game is over");
                }
                let left = self.clock.saturating_sub(self.used);
                self.engine.set_clock_budget(move_budget(self.clock, left, self.seeds));
                let turn = self.engine.think(start, stop.clone())?;
                // The whole turn's time; the score in the game's words (a proved margin in seeds).
                log::info!(
                    "turn {} in {} ms ({})",
                    turn.moves.join(" "),
                    start.elapsed().as_millis(),
                    turn.thought
                        .as_ref()
                        .map(|t| format!(
                            "{}, depth {}, nodes {}{}",
                            t.words,
                            t.depth,
                            t.nodes,
                            if t.proved { ", proved" } else { "" }
                        ))
                        .unwrap_or_default()
                );
                // The engine's game stays at the referee's position: the turn is played as the
                // referee confirms it.
                let words: Vec<&str> = self.moves.iter().map(String::as_str).collect();
                self.engine.set_position(&words)?;
                let mut moves = turn.moves.into_iter();
                let first = moves.next().ok_or_else(|| anyhow!("the engine found no move"))?;
                self.planned.extend(moves);
                first
            }
        };
        if mv == "swap" {
            // The referee confirms a swap to the other agent only: the swap is ours at once.
            self.moves.push(mv);
            let words: Vec<&str> = self.moves.iter().map(String::as_str).collect();
            self.engine.set_position(&words)?;
            (self.plies, self.swapped) = (self.plies + 1, true);
            return Ok("SWAP".to_string());
        }
        let reply = format!("MOVE;{mv}");
        self.awaiting = Some(mv);
        Ok(reply)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::Options;
    use crate::game::kalah::{Capture, Kalah};
    use crate::game::{Game, Side};

    fn agent() -> Agent {
        Agent::new(Engine::new(Options { hash_mb: 16, ..Options::default() }), Duration::from_secs(2))
    }

    fn say(a: &mut Agent, line: &str) -> Result<Option<String>> {
        a.handle(line, Instant::now(), &Arc::new(AtomicBool::new(false)))
    }

    #[test]
    fn the_budget_shares_the_clock_and_never_runs_it_out() {
        let hour = DEFAULT_CLOCK;
        assert_eq!(move_budget(hour, hour, 98), (hour - hour / 50) / 14);
        assert_eq!(move_budget(hour, hour, 40), (hour - hour / 50) / 6);
        let mut left = hour;
        for turn in 0..500 {
            let b = move_budget(hour, left, 98u32.saturating_sub(2 * turn));
            assert!(b < left, "{b:?} of {left:?}");
            left -= b;
        }
        assert!(left >= hour / 60, "{left:?}");
        assert_eq!(move_budget(hour, Duration::from_millis(40), 10), Duration::from_millis(10));
    }

    /// The referee's state after `moves` (engine move text) from the start: the first player
    /// sits South until a swap.
    fn state_after(moves: &[&str]) -> String {
        let mut k = Kalah::with_rules(7, 7, Capture::Standard, true).unwrap();
        for mv in moves {
            k.play(k.parse_move(mv).unwrap());
        }
        let swapped = moves.contains(&"swap");
        let (south, north) = if swapped { (Side::Second, Side::First) } else { (Side::First, Side::Second) };
        let mut counts: Vec<String> = Vec::new();
        for side in [north, south] {
            counts.extend(k.row(side).iter().map(u16::to_string));
            counts.push(k.store(side).to_string());
        }
        counts.join(",")
    }

    fn history(a: &Agent) -> Vec<String> {
        a.engine.game().unwrap().history()
    }

    #[test]
    fn south_moves_first_and_follows_the_referee() {
        let mut a = agent();
        let reply = say(&mut a, "START;South").unwrap().unwrap();
        let pit: usize = reply.strip_prefix("MOVE;").unwrap().parse().unwrap();
        assert!((1..=7).contains(&pit));
        let pit = pit.to_string();
        // The referee confirms our move (no extra turn on South's first move) ...
        assert_eq!(say(&mut a, &format!("CHANGE;{pit};{};OPP", state_after(&[&pit]))).unwrap(), None);
        // ... and an unknown message or a bad state changes nothing.
        assert!(say(&mut a, "HELLO").is_err());
        assert!(say(&mut a, "CHANGE;1;1,2,3;YOU").is_err());
        assert_eq!(history(&a), [pit]);
    }

    #[test]
    fn north_may_swap_and_a_swap_by_the_opponent_is_followed() {
        let mut a = agent();
        assert_eq!(say(&mut a, "START;North").unwrap(), None);
        let reply = say(&mut a, &format!("CHANGE;1;{};YOU", state_after(&["1"]))).unwrap().unwrap();
        assert!(reply == "SWAP" || reply.starts_with("MOVE;"), "{reply}");

        let mut b = agent();
        let reply = say(&mut b, "START;South").unwrap().unwrap();
        let pit = reply.strip_prefix("MOVE;").unwrap().to_string();
        assert_eq!(say(&mut b, &format!("CHANGE;{pit};{};OPP", state_after(&[&pit]))).unwrap(), None);
        let reply = say(&mut b, &format!("CHANGE;SWAP;{};YOU", state_after(&[&pit, "swap"]))).unwrap().unwrap();
        assert!(reply.starts_with("MOVE;"), "{reply}");
        assert_eq!(history(&b), [pit.as_str(), "swap"]);
    }

    /// ManKalah.jar sends the swapper nothing: its next message is the other player's move,
    /// now from North. (The agent used to wait for a confirmation of its swap and stop.)
    #[test]
    fn after_our_swap_the_next_message_is_the_opponents_move() {
        let mut a = agent();
        assert_eq!(say(&mut a, "START;North").unwrap(), None);
        // The engine's turn as planned: the swap.
        a.planned.push_back("swap".to_string());
        assert_eq!(say(&mut a, &format!("CHANGE;1;{};YOU", state_after(&["1"]))).unwrap(), Some("SWAP".to_string()));
        // The other player, now North, sows its hole 1 into its store (an extra turn), then 2.
        let s = state_after(&["1", "swap", "1"]);
        assert_eq!(s, "0,8,8,8,8,8,8,1,0,8,8,8,8,8,8,1");
        assert_eq!(say(&mut a, &format!("CHANGE;1;{s};OPP")).unwrap(), None);
        let s = state_after(&["1", "swap", "1", "2"]);
        let reply = say(&mut a, &format!("CHANGE;2;{s};YOU")).unwrap().unwrap();
        assert!(reply.starts_with("MOVE;"), "{reply}");
        assert_eq!(history(&a), ["1", "swap", "1", "2"]);
        // A referee that did confirm the swap to the swapper would not disturb the agent.
        let mut b = agent();
        say(&mut b, "START;North").unwrap();
        b.planned.push_back("swap".to_string());
        say(&mut b, &format!("CHANGE;1;{};YOU", state_after(&["1"]))).unwrap();
        assert_eq!(say(&mut b, &format!("CHANGE;SWAP;{};OPP", state_after(&["1", "swap"]))).unwrap(), None);
        assert_eq!(history(&b), ["1", "swap"]);
    }

    /// Issue 39, item 5: a message the agent cannot follow changes nothing.
    #[test]
    fn a_bad_message_changes_nothing() {
        // After START;North, a bad turn field, then the right message: the agent answers it.
        let mut a = agent();
        say(&mut a, "START;North").unwrap();
        let s = state_after(&["1"]);
        assert_eq!(s, "7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1");
        assert!(say(&mut a, &format!("CHANGE;1;{s};MAYBE")).is_err());
        assert!(history(&a).is_empty());
        let reply = say(&mut a, &format!("CHANGE;1;{s};YOU")).unwrap().unwrap();
        assert!(reply == "SWAP" || reply.starts_with("MOVE;"), "{reply}");

        // A garbled confirmation of our own move, then the right one: the move is played once.
        let mut b = agent();
        let pit = say(&mut b, "START;South").unwrap().unwrap().strip_prefix("MOVE;").unwrap().to_string();
        let s = state_after(&[&pit]);
        for garbled in [
            format!("CHANGE;{pit};{s};OPX"),
            format!("CHANGE;{pit};{s}"),
            format!("CHANGE;{pit};{s};OPP;1"),
            format!("CHANGE;{pit};{};OPP", &s[2..]),
            format!("CHANGE;{pit};{},1;OPP", s),
            format!("CHANGE;{pit};{};OPP", s.replace(',', ";")),
            format!("CHANGE;9;{s};OPP"),
            format!("CHANGE;swap;{s};OPP"),
            format!("change;{pit};{s};OPP"),
            format!("CHANGE;{pit};{s};END"),
            "CHANGE;1;7,7,7,7,7,7,7,0,0,0,0,0,0,0,0,49;OPP".to_string(),
        ] {
            assert!(say(&mut b, &garbled).is_err(), "{garbled}");
            assert!(history(&b).is_empty(), "{garbled}");
        }
        assert_eq!(say(&mut b, &format!("CHANGE;{pit};{s};OPP")).unwrap(), None);
        assert_eq!(history(&b), [pit.as_str()]);
        // The opponent's reply is followed, and the agent answers.
        let reply = say(&mut b, &format!("CHANGE;7;{};YOU", state_after(&[&pit, "7"]))).unwrap().unwrap();
        assert!(reply.starts_with("MOVE;"), "{reply}");
        assert_eq!(history(&b), [pit.as_str(), "7"]);
        // The same message again is a repeat: no second reply.
        let again = say(&mut b, &format!("CHANGE;7;{};YOU", state_after(&[&pit, "7"])));
        assert_eq!(again.unwrap(), None);
    }

    /// The board of every CHANGE is compared with the agent's; where they differ, the referee's
    /// is taken.
    #[test]
    fn the_referees_board_is_trusted_over_ours() {
        let mut a = agent();
        let pit = say(&mut a, "START;South").unwrap().unwrap().strip_prefix("MOVE;").unwrap().to_string();
        say(&mut a, &format!("CHANGE;{pit};{};OPP", state_after(&[&pit]))).unwrap();
        // The referee says North played 7, but its board is that of North's hole 6.
        let theirs = state_after(&[&pit, "6"]);
        let reply = say(&mut a, &format!("CHANGE;7;{theirs};YOU")).unwrap().unwrap();
        let game = a.engine.game().unwrap();
        let referee = a.referee_game(&Change::parse("7", &theirs, "YOU").unwrap(), true).unwrap();
        assert_eq!((game.board_text(), game.to_move()), (referee.board_text(), Side::First));
        // Our reply is legal there, and confirmed on the referee's board.
        let ours = reply.strip_prefix("MOVE;").unwrap();
        assert!(game.legal_moves().contains(&ours.to_string()), "{reply} on\n{}", game.board_text());
        let after = state_after(&[&pit, "6", ours]);
        say(&mut a, &format!("CHANGE;{ours};{after};OPP")).unwrap();
        assert_eq!(history(&a), [ours]);
        let referee = a.referee_game(&Change::parse(ours, &after, "OPP").unwrap(), true).unwrap();
        assert_eq!(a.engine.game().unwrap().board_text(), referee.board_text());
    }
}
