//! The agent protocol of the Manchester Kalah referee (`ManKalah.jar`, used in a university AI
//! course), spoken by `boardbot --protocol mkagent`. protocol.md ("The Manchester Kalah
//! protocol") is its description; in short, one message a line, fields split by `;`:
//!
//! - referee to agent: `START;South` (the agent moves first) or `START;North`; after every move,
//!   to both agents, `CHANGE;<1..7|SWAP>;<state>;<YOU|OPP|END>` (the state is 16 numbers, North's
//!   holes 1..7 and store, South's holes 1..7 and store); finally `END`.
//! - agent to referee: `MOVE;<1..7>` or `SWAP`.
//!
//! The game is `kalah 7 7 capture standard pie`: the referee's hole numbers are the engine's pit
//! numbers (each side counts from the end farthest from its own store), and its SWAP is the
//! engine's `swap`, which the search weighs like any other move: the agent swaps when taking
//! over South's position is worth more than the best reply. The players keep their identities
//! in the engine (the one that started South stays `First`), so the engine's game follows the
//! referee's moves as they come and needs no seats.
//!
//! The clock is the whole game's (one hour by default, `--clock`): each move gets a share of
//! what is left ([`move_budget`]), measured from the instant the referee's message was read to
//! the reply written. The extra turns the engine planned in one search are sent one message at a
//! time, at once.
//!
//! The referee never reads stderr, so in this mode the log goes to `--log FILE` or nowhere
//! (main.rs).

use super::session::{Input, Reader};
use crate::bot::Engine;
use crate::game::registry::GameSpec;
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
/// A move may take this share (1/N) of the clock left over the reserve.
const MOVES_TO_GO: u32 = 16;
/// The part of the clock (1/N) never planned for: the referee's and the pipes' overheads.
const RESERVE_SHARE: u32 = 50;
/// No move plans less than this.
const MIN_MOVE: Duration = Duration::from_millis(20);

/// The time for the next search when `left` of the whole `clock` remains.
pub fn move_budget(clock: Duration, left: Duration) -> Duration {
    let usable = left.saturating_sub(clock / RESERVE_SHARE);
    (usable / MOVES_TO_GO).max(MIN_MOVE.min(left / 4))
}

/// Serves the protocol on `input`/`output` until `END` or end of input.
pub fn serve<R, W>(input: R, mut output: W, engine: Engine, clock: Duration) -> anyhow::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write,
{
    let reader = Reader::spawn(input, |line| line.trim() == "END");
    let mut agent = Agent::new(engine, clock);
    loop {
        match reader.lines.recv() {
            Ok(Input::Line(line, start)) => {
                log::debug!("<< {line}");
                let reply = catch_unwind(AssertUnwindSafe(|| agent.handle(&line, start, &reader.stop)))
                    .unwrap_or_else(|_| Err("internal error".to_string()));
                match reply {
                    Ok(Some(reply)) => {
                        log::debug!(">> {reply}");
                        writeln!(output, "{reply}")?;
                        output.flush()?;
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
    log::info!("thinking time used: {:.3} s of {:.0} s", agent.used.as_secs_f64(), clock.as_secs_f64());
    Ok(())
}

/// One game as an agent.
struct Agent {
    engine: Engine,
    spec: GameSpec,
    clock: Duration,
    /// Thinking time spent this game.
    used: Duration,
    /// Our move sent and not yet confirmed by a `CHANGE`.
    awaiting: Option<String>,
    /// The rest of a turn the engine planned (extra turns), played in the engine's game already.
    planned: VecDeque<String>,
}

impl Agent {
    fn new(engine: Engine, clock: Duration) -> Agent {
        let spec = GameSpec::parse(SPEC).expect("the referee's game is a registered game");
        Agent { engine, spec, clock, used: Duration::ZERO, awaiting: None, planned: VecDeque::new() }
    }

    /// Our reply to one message, if it needs one.
    fn handle(&mut self, line: &str, start: Instant, stop: &Arc<AtomicBool>) -> Result<Option<String>, String> {
        let fields: Vec<&str> = line.trim().split(';').collect();
        match fields.as_slice() {
            ["START", seat] => {
                let south = match *seat {
                    "South" => true,
                    "North" => false,
                    _ => return Err(format!("unknown seat '{seat}'")),
                };
                self.engine.new_game(&self.spec, south, MIN_MOVE)?;
                (self.used, self.awaiting) = (Duration::ZERO, None);
                self.planned.clear();
                if south {
                    return self.our_move(start, stop).map(Some);
                }
                Ok(None)
            }
            ["CHANGE", mv, state, next] => {
                let text = if mv.eq_ignore_ascii_case("swap") { "swap".to_string() } else { mv.to_string() };
                check_state(state)?;
                match self.awaiting.take() {
                    Some(ours) if ours == text => {}
                    Some(ours) => return Err(format!("we played {ours}, the referee says {text}")),
                    None => self.engine.opponent_move(&text)?,
                }
                match *next {
                    "YOU" => self.our_move(start, stop).map(Some),
                    "OPP" | "END" => {
                        if !self.planned.is_empty() {
                            self.planned.clear();
                            return Err("the referee ended our turn early".to_string());
                        }
                        Ok(None)
                    }
                    _ => Err(format!("unknown turn '{next}'")),
                }
            }
            _ => Err("unknown message".to_string()),
        }
    }

    /// The next move of our turn: planned already, or searched within this move's share of
    /// the clock.
    fn our_move(&mut self, start: Instant, stop: &Arc<AtomicBool>) -> Result<String, String> {
        let mv = match self.planned.pop_front() {
            Some(mv) => mv,
            None => {
                if !self.engine.is_engine_turn() {
                    return Err("the referee says we move; the engine's game says the opponent does".to_string());
                }
                let left = self.clock.saturating_sub(self.used);
                self.engine.set_clock_budget(move_budget(self.clock, left));
                let turn = self.engine.think(start, stop.clone())?;
                if let Some(t) = &turn.thought {
                    log::info!("{} ({t})", turn.moves.join(" "));
                }
                let mut moves = turn.moves.into_iter();
                let first = moves.next().ok_or("the engine found no move")?;
                self.planned.extend(moves);
                first
            }
        };
        let reply = if mv == "swap" { "SWAP".to_string() } else { format!("MOVE;{mv}") };
        self.awaiting = Some(mv);
        Ok(reply)
    }
}

/// The state must be 16 counts of the referee's 98 seeds.
fn check_state(state: &str) -> Result<(), String> {
    let counts: Result<Vec<u32>, _> = state.split(',').map(|c| c.trim().parse::<u32>()).collect();
    match counts {
        Ok(c) if c.len() == 16 && c.iter().sum::<u32>() == 98 => Ok(()),
        _ => Err(format!("not a state of 16 counts of 98 seeds: '{state}'")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::Options;

    fn agent() -> Agent {
        Agent::new(Engine::new(Options { hash_mb: 16, ..Options::default() }), Duration::from_secs(2))
    }

    fn say(a: &mut Agent, line: &str) -> Result<Option<String>, String> {
        a.handle(line, Instant::now(), &Arc::new(AtomicBool::new(false)))
    }

    const START: &str = "7,7,7,7,7,7,7,0,7,7,7,7,7,7,7,0";

    #[test]
    fn the_budget_shares_the_clock_and_never_runs_it_out() {
        let hour = DEFAULT_CLOCK;
        assert_eq!(move_budget(hour, hour), (hour - hour / 50) / 16);
        let mut left = hour;
        for _ in 0..500 {
            let b = move_budget(hour, left);
            assert!(b < left, "{b:?} of {left:?}");
            left -= b;
        }
        assert!(left >= hour / 60, "{left:?}");
        assert_eq!(move_budget(hour, Duration::from_millis(40)), Duration::from_millis(10));
    }

    #[test]
    fn south_moves_first_and_follows_the_referee() {
        let mut a = agent();
        let reply = say(&mut a, "START;South").unwrap().unwrap();
        let pit: usize = reply.strip_prefix("MOVE;").unwrap().parse().unwrap();
        assert!((1..=7).contains(&pit));
        // The referee confirms our move (no extra turn on South's first move) ...
        assert_eq!(say(&mut a, &format!("CHANGE;{pit};{START};OPP")), Ok(None));
        // ... and an unknown message or a bad state changes nothing.
        assert!(say(&mut a, "HELLO").is_err());
        assert!(say(&mut a, "CHANGE;1;1,2,3;YOU").is_err());
        assert_eq!(a.engine.game().unwrap().history(), [pit.to_string()]);
    }

    #[test]
    fn north_may_swap_and_a_swap_by_the_opponent_is_followed() {
        let mut a = agent();
        assert_eq!(say(&mut a, "START;North"), Ok(None));
        let reply = say(&mut a, &format!("CHANGE;1;{START};YOU")).unwrap().unwrap();
        assert!(reply == "SWAP" || reply.starts_with("MOVE;"), "{reply}");

        let mut b = agent();
        let reply = say(&mut b, "START;South").unwrap().unwrap();
        let pit = reply.strip_prefix("MOVE;").unwrap().to_string();
        assert_eq!(say(&mut b, &format!("CHANGE;{pit};{START};OPP")), Ok(None));
        let reply = say(&mut b, &format!("CHANGE;SWAP;{START};YOU")).unwrap().unwrap();
        assert!(reply.starts_with("MOVE;"), "{reply}");
        assert_eq!(b.engine.game().unwrap().history()[1], "swap");
    }
}
