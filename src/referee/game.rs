//! One refereed game. The referee keeps its own copy of the rules (the game as the registry
//! builds it, without the engine's tables): it checks every reply against them and decides the
//! outcome itself.

use super::adapter::{EngineAdapter, Fault, FaultKind, GameSetup};
use crate::game::any::{AnyGame, MoveError};
use crate::game::registry::{GameSpec, Resources};
use crate::game::{Outcome, Side};
use anyhow::{anyhow, bail, Result};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// How a refereed game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// Played to the end on the board.
    Played(Outcome),
    /// Stopped as a draw when neither side could still win (for the K-in-a-row games: no window
    /// was left free of either side's stones): every way to go on ends in a draw.
    DeadDraw,
    /// `loser` forfeited; the other side wins.
    Forfeit { loser: Side, fault: Fault },
    /// Both engines failed before the first move (neither could set up the game).
    BothForfeit { first: Fault, second: Fault },
}

impl GameEnd {
    /// The side that won, if one did.
    pub fn winner(&self) -> Option<Side> {
        match self {
            GameEnd::Played(Outcome::Win(side)) => Some(*side),
            GameEnd::Forfeit { loser, .. } => Some(loser.other()),
            _ => None,
        }
    }

    /// The fault of `side`, if it forfeited.
    pub fn fault_of(&self, side: Side) -> Option<&Fault> {
        match self {
            GameEnd::Forfeit { loser, fault } if *loser == side => Some(fault),
            GameEnd::BothForfeit { first, .. } if side == Side::First => Some(first),
            GameEnd::BothForfeit { second, .. } if side == Side::Second => Some(second),
            _ => None,
        }
    }
}

/// A finished game. Engines are numbered 0 (engine1) and 1 (engine2).
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Number of the game in the match, from 0.
    pub number: usize,
    pub spec: GameSpec,
    /// The engine that moved first.
    pub first: usize,
    /// The moves played, in the protocol's text, one a move (a turn with extra moves gives
    /// several in a row).
    pub moves: Vec<String>,
    pub end: GameEnd,
    /// Every reply time of each engine (a timeout counts with the time waited).
    pub replies: [Vec<Duration>; 2],
}

impl GameRecord {
    /// The engine playing `side`.
    pub fn engine_of(&self, side: Side) -> usize {
        match side {
            Side::First => self.first,
            Side::Second => 1 - self.first,
        }
    }

    /// The side `engine` played.
    pub fn side_of(&self, engine: usize) -> Side {
        if engine == self.first {
            Side::First
        } else {
            Side::Second
        }
    }
}

/// The referee's copy of the rules of `spec`, at the start.
pub fn rules_of(spec: &GameSpec) -> Result<Box<dyn AnyGame>> {
    spec.new_game(&Resources::none())
}

/// How a game is played: the time per move, the seed given to the engines, whether a game
/// that can only be drawn stops there ([`GameEnd::DeadDraw`]), the opening the referee plays
/// before the engines take over, and a flag that abandons the game (checked before each move).
#[derive(Clone, Debug)]
pub struct Terms {
    pub timeout: Duration,
    pub seed: u64,
    pub dead_draws: bool,
    pub opening: Opening,
    pub abort: Option<Arc<AtomicBool>>,
}

/// Why [`play_game`] returns no record when its game was abandoned.
pub const ABANDONED: &str = "the game was abandoned";

/// The moves the referee plays before the engines take over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Opening {
    /// `plies` random quiet moves from `seed` (see [`AnyGame::random_opening`]; 0 plies: the
    /// empty board).
    Random { plies: usize, seed: u64 },
    /// These moves, in the game's move text (as a log or `position` writes them).
    Moves(Vec<String>),
    /// These moves, then `plies` random quiet moves from `seed`.
    MovesThenRandom { moves: Vec<String>, plies: usize, seed: u64 },
}

impl Opening {
    /// The empty board.
    pub const NONE: Opening = Opening::Random { plies: 0, seed: 0 };

    /// Plays the opening on `game` (a new game) and returns its moves. Given moves must be legal
    /// and must not end the game.
    pub fn play(&self, game: &mut dyn AnyGame) -> Result<Vec<String>> {
        match self {
            Opening::Random { plies, seed } => Ok(game.random_opening(*plies, *seed)),
            Opening::Moves(texts) => {
                play_given(game, texts)?;
                Ok(game.history())
            }
            Opening::MovesThenRandom { moves, plies, seed } => {
                play_given(game, moves)?;
                game.random_opening(*plies, *seed);
                Ok(game.history())
            }
        }
    }
}

/// Plays the given opening moves `texts`: each must be legal, none may end the game.
fn play_given(game: &mut dyn AnyGame, texts: &[String]) -> Result<()> {
    for (i, text) in texts.iter().enumerate() {
        game.play(text).map_err(|e| match e {
            MoveError::Unreadable(e) => anyhow!("move {} '{text}': {e}", i + 1),
            MoveError::Illegal(_) => anyhow!("move {} '{text}' is not legal there", i + 1),
        })?;
        if game.outcome().is_some() {
            bail!("move {} '{text}' ends the game", i + 1);
        }
    }
    Ok(())
}

/// Whether `opening` can start a game on `spec`: its moves legal, the game not over after them.
pub fn check_opening(spec: &GameSpec, opening: &Opening) -> Result<()> {
    opening.play(rules_of(spec)?.as_mut()).map(|_| ())
}

/// Plays one game between `engines` (engine1, engine2); `first` (0 or 1) moves first. Engines
/// that are not running are started. An engine that faults loses the game and is left stopped
/// (the caller restarts it, or [`EngineAdapter::new_game`] does on the next game). A game the
/// terms' abort flag stops returns the error [`ABANDONED`].
pub fn play_game(
    number: usize,
    spec: &GameSpec,
    mut engines: [&mut dyn EngineAdapter; 2],
    first: usize,
    terms: &Terms,
) -> Result<GameRecord> {
    let Terms { timeout, seed, dead_draws, ref opening, ref abort } = *terms;
    assert!(first < 2, "engine index");
    let mut game = rules_of(spec)?;
    let opening = opening.play(game.as_mut()).map_err(|e| anyhow!("opening: {e}"))?;
    let mut record = GameRecord {
        number,
        spec: spec.clone(),
        first,
        moves: opening.clone(),
        end: GameEnd::Played(Outcome::Draw),
        replies: [vec![], vec![]],
    };

    // Set up the game on both engines.
    let mut faults: [Option<Fault>; 2] = [None, None];
    for (e, engine) in engines.iter_mut().enumerate() {
        let setup = GameSetup { spec, first: e == first, timeout, seed, opening: &opening };
        if let Err(fault) = engine.new_game(&setup) {
            engine.kill();
            faults[e] = Some(fault);
        }
    }
    match faults {
        [Some(a), Some(b)] => {
            let (first_fault, second_fault) = if first == 0 { (a, b) } else { (b, a) };
            record.end = GameEnd::BothForfeit { first: first_fault, second: second_fault };
            return Ok(record);
        }
        [Some(fault), None] => {
            record.end = GameEnd::Forfeit { loser: record.side_of(0), fault };
            return Ok(record);
        }
        [None, Some(fault)] => {
            record.end = GameEnd::Forfeit { loser: record.side_of(1), fault };
            return Ok(record);
        }
        [None, None] => {}
    }

    // The last turn played: the moves the next engine is told of.
    let mut last: Vec<String> = Vec::new();
    let end = loop {
        if let Some(outcome) = game.outcome() {
            break GameEnd::Played(outcome);
        }
        if dead_draws && game.is_dead_draw() {
            break GameEnd::DeadDraw;
        }
        if abort.as_ref().is_some_and(|a| a.load(Ordering::Relaxed)) {
            bail!(ABANDONED);
        }
        let side = game.to_move();
        let e = record.engine_of(side);
        let fault = match engines[e].ask_move(&last, timeout) {
            Ok(reply) => {
                record.replies[e].push(reply.elapsed);
                let played = game.history().len();
                match read_turn(game.as_mut(), &reply.text) {
                    Ok(turn) => {
                        record.moves.extend(turn.iter().cloned());
                        last = turn;
                        continue;
                    }
                    Err(fault) => {
                        // The moves of the turn that were legal stay in the record.
                        record.moves.extend(game.history().into_iter().skip(played));
                        fault
                    }
                }
            }
            Err(fault) => {
                if let Some(waited) = fault.elapsed {
                    record.replies[e].push(waited);
                }
                fault
            }
        };
        engines[e].kill();
        break GameEnd::Forfeit { loser: side, fault };
    };
    record.end = end;
    Ok(record)
}

/// Reads and plays an engine's whole turn on `game`: one move, or several where the game gives
/// the same side another move (each must leave that side to move but the last, which must end
/// the turn). Text that does not look like moves is garbled; moves that are not legal now (off
/// the board, an occupied cell, a full column, a turn left unfinished) are an illegal move. On
/// a fault the moves before it stay played.
pub fn read_turn(game: &mut dyn AnyGame, text: &str) -> Result<Vec<String>, Fault> {
    let t = text.trim();
    let words: Vec<&str> = t.split_whitespace().collect();
    let shaped = is_move_shaped(t);
    let moves = game.split_moves(&words).map_err(|e| {
        if shaped {
            Fault::new(FaultKind::Illegal, format!("'{t}': {e}"))
        } else {
            Fault::new(FaultKind::Garbled, format!("not a move: '{t}'"))
        }
    })?;
    if moves.is_empty() {
        return Err(Fault::new(FaultKind::Garbled, format!("not a move: '{t}'")));
    }
    let side = game.to_move();
    for (i, mv) in moves.iter().enumerate() {
        if i > 0 && (game.outcome().is_some() || game.to_move() != side) {
            return Err(Fault::new(FaultKind::Illegal, format!("'{t}': '{mv}' comes after the turn ended")));
        }
        game.play(mv).map_err(|e| match e {
            MoveError::Unreadable(e) => Fault::new(FaultKind::Illegal, format!("'{t}': {e}")),
            MoveError::Illegal(_) => Fault::new(FaultKind::Illegal, format!("'{mv}' is not a legal move now")),
        })?;
    }
    if game.outcome().is_none() && game.to_move() == side {
        return Err(Fault::new(
            FaultKind::Illegal,
            format!("'{t}': the turn is not finished (the same side moves again)"),
        ));
    }
    Ok(moves)
}

/// Whether `text` is made of whole numbers only (separated by blanks, commas, `-` or `x`): what
/// a move of the board games looks like, even off the board.
pub fn is_move_shaped(text: &str) -> bool {
    let mut words = text.split(|c: char| c == ',' || c.is_whitespace()).filter(|w| !w.is_empty()).peekable();
    words.peek().is_some()
        && words.all(|w| {
            let digits = w.strip_prefix('-').unwrap_or(w);
            !digits.is_empty()
                && digits.split(['-', 'x']).all(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_shapes() {
        for t in ["3", "3 4", "3,4", " 10  20 ", "-1", "99 99", "0,0,0"] {
            assert!(is_move_shaped(t), "{t}");
        }
        for t in ["", " ", "abc", "3 x", "move 3 4", "3.5", "-", "error 3"] {
            assert!(!is_move_shaped(t), "{t}");
        }
    }

    fn rules(text: &str) -> Box<dyn AnyGame> {
        rules_of(&GameSpec::parse(text).unwrap()).unwrap()
    }

    /// The kind of fault `text` is on a copy of `game`, or the moves it plays.
    fn read(game: &dyn AnyGame, text: &str) -> Result<Vec<String>, FaultKind> {
        read_turn(game.clone_box().as_mut(), text).map_err(|f| f.kind)
    }

    #[test]
    fn moves_are_classified_against_the_rules() {
        let mut g = rules("mnk 3 3 3");
        assert_eq!(read(g.as_ref(), "1 1"), Ok(vec!["1 1".to_string()]));
        assert_eq!(read(g.as_ref(), "1,2"), Ok(vec!["1,2".to_string()]));
        g.play("1 1").unwrap();
        assert_eq!(read(g.as_ref(), "1 1"), Err(FaultKind::Illegal));
        assert_eq!(read(g.as_ref(), "99 99"), Err(FaultKind::Illegal));
        assert_eq!(read(g.as_ref(), "-1 0"), Err(FaultKind::Illegal));
        assert_eq!(read(g.as_ref(), "3"), Err(FaultKind::Illegal));
        assert_eq!(read(g.as_ref(), "one one"), Err(FaultKind::Garbled));
        assert_eq!(read(g.as_ref(), ""), Err(FaultKind::Garbled));
        // Two moves where the turn is one.
        assert_eq!(read(g.as_ref(), "0 0 0 1"), Err(FaultKind::Illegal));

        let mut c = rules("cx 2 3 2");
        assert_eq!(read(c.as_ref(), "2"), Ok(vec!["2".to_string()]));
        c.play("0").unwrap();
        c.play("0").unwrap();
        assert_eq!(read(c.as_ref(), "0"), Err(FaultKind::Illegal));
        assert_eq!(read(c.as_ref(), "3"), Err(FaultKind::Illegal));
        assert_eq!(read(c.as_ref(), "1 1"), Err(FaultKind::Illegal));
        assert_eq!(read(c.as_ref(), "left"), Err(FaultKind::Garbled));
    }

    #[test]
    fn winners_and_faults() {
        let f = Fault::new(FaultKind::Crash, "gone");
        let end = GameEnd::Forfeit { loser: Side::First, fault: f.clone() };
        assert_eq!(end.winner(), Some(Side::Second));
        assert_eq!(end.fault_of(Side::First), Some(&f));
        assert_eq!(end.fault_of(Side::Second), None);
        assert_eq!(GameEnd::Played(Outcome::Draw).winner(), None);
        assert_eq!(GameEnd::Played(Outcome::Win(Side::First)).winner(), Some(Side::First));
        let both = GameEnd::BothForfeit { first: f.clone(), second: f.clone() };
        assert_eq!(both.winner(), None);
        assert!(both.fault_of(Side::Second).is_some());
    }
}

/// Whole games between fake engines (shell scripts), with no engine binary needed.
#[cfg(all(test, unix))]
mod process_tests {
    use super::*;
    use crate::referee::process::{ProcessConfig, ProcessEngine, Protocol};

    fn sh(script: &str) -> ProcessEngine {
        ProcessEngine::new(ProcessConfig {
            name: "sh".into(),
            argv: vec!["sh".into(), "-c".into(), script.into()],
            protocol: Protocol::Boardbot,
            seeded: false,
            setup_timeout: Duration::from_secs(5),
            echo_stderr: false,
        })
    }

    /// Answers `ok` to init, and `reply` to anything else.
    fn always(reply: &str) -> ProcessEngine {
        sh(&format!("while read l; do case \"$l\" in init*) echo ok;; *) echo {reply};; esac; done"))
    }

    fn cx() -> GameSpec {
        GameSpec::parse("cx 6 7 4").unwrap()
    }
    /// Columns of 3: full before anyone wins in one.
    fn low_cx() -> GameSpec {
        GameSpec::parse("cx 3 7 4").unwrap()
    }

    fn play(spec: &GameSpec, a: &mut ProcessEngine, b: &mut ProcessEngine, first: usize, ms: u64) -> GameRecord {
        let terms = Terms {
            timeout: Duration::from_millis(ms),
            seed: 0,
            dead_draws: true,
            opening: Opening::NONE,
            abort: None,
        };
        play_game(0, spec, [a, b], first, &terms).unwrap()
    }

    #[test]
    fn a_game_played_to_the_end() {
        let (mut a, mut b) = (always("0"), always("1"));
        let r = play(&cx(), &mut a, &mut b, 0, 5000);
        assert_eq!(r.end, GameEnd::Played(Outcome::Win(Side::First)));
        assert_eq!(r.moves, ["0", "1", "0", "1", "0", "1", "0"]);
        assert_eq!((r.replies[0].len(), r.replies[1].len()), (4, 3));
        // The engines are reused: the same again with engine2 first.
        let r = play(&cx(), &mut a, &mut b, 1, 5000);
        assert_eq!(r.end, GameEnd::Played(Outcome::Win(Side::First)));
        assert_eq!(r.engine_of(Side::First), 1);
    }

    #[test]
    fn a_game_nobody_can_win_stops_as_a_dead_draw_unless_played_out() {
        // X O X / X O O / O X . : after the 8th stone no line is left for either side.
        let x = r#"read a; echo ok; for m in "0 0" "0 2" "1 0" "2 1" "2 2"; do read l; echo $m; done"#;
        let o = r#"read a; echo ok; for m in "0 1" "1 1" "1 2" "2 0"; do read l; echo $m; done"#;
        let spec = GameSpec::parse("mnk 3 3 3").unwrap();
        for dead_draws in [true, false] {
            let (mut a, mut b) = (sh(x), sh(o));
            let terms = Terms {
                timeout: Duration::from_millis(5000),
                seed: 0,
                dead_draws,
                opening: Opening::NONE,
                abort: None,
            };
            let r = play_game(0, &spec, [&mut a, &mut b], 0, &terms).unwrap();
            if dead_draws {
                assert_eq!((r.end, r.moves.len()), (GameEnd::DeadDraw, 8));
            } else {
                assert_eq!((r.end, r.moves.len()), (GameEnd::Played(Outcome::Draw), 9));
            }
        }
    }

    #[test]
    fn forfeits_are_classified() {
        let cases = [
            ("read a; echo ok; while read l; do sleep 5; done", FaultKind::Timeout),
            ("read a; echo ok; while read l; do echo 99 99; done", FaultKind::Illegal),
            ("read a; echo ok; while read l; do echo 0; done", FaultKind::Illegal),
            ("read a; echo ok; while read l; do echo error no; done", FaultKind::Garbled),
            ("read a; echo ok; while read l; do echo end draw; done", FaultKind::Garbled),
            ("read a; echo ok; while read l; do echo hello; done", FaultKind::Garbled),
            ("read a; echo ok; read l; exit 3", FaultKind::Crash),
            ("read a; echo nope", FaultKind::Garbled),
            ("exit 0", FaultKind::Crash),
        ];
        for (script, kind) in cases {
            // The good engine moves first and plays column 0, so a bad engine that also plays
            // column 0 finds it full at its second move.
            let (mut good, mut bad) = (always("0"), sh(script));
            // Twice: the faulty engine is stopped after its forfeit and started again.
            for _ in 0..2 {
                let r = play(&low_cx(), &mut good, &mut bad, 0, 300);
                let GameEnd::Forfeit { loser, fault } = &r.end else { panic!("{script}: {:?}", r.end) };
                assert_eq!((*loser, fault.kind), (Side::Second, kind), "{script}: {fault}");
                assert!(!bad.is_running(), "a faulty engine is stopped");
                assert!(good.is_running());
            }
        }
    }

    #[test]
    fn given_openings_are_played_if_legal_and_open() {
        let moves = |texts: &[&str]| Opening::Moves(texts.iter().map(|t| t.to_string()).collect());
        let spec = GameSpec::parse("mnk 3 3 3").unwrap();
        let mut g = rules_of(&spec).unwrap();
        assert_eq!(moves(&["1,1", "0 0"]).play(g.as_mut()).unwrap(), vec!["1 1".to_string(), "0 0".to_string()]);
        assert_eq!(g.history().len(), 2);
        assert_eq!(
            check_opening(&spec, &moves(&["1,1", "1,1"])).unwrap_err().to_string(),
            "move 2 '1,1' is not legal there"
        );
        assert!(check_opening(&spec, &moves(&["1,1", "3,0"])).unwrap_err().to_string().starts_with("move 2 '3,0': "));
        let won = moves(&["0,0", "1,0", "0,1", "1,1", "0,2"]);
        assert_eq!(check_opening(&spec, &won).unwrap_err().to_string(), "move 5 '0,2' ends the game");
        assert_eq!(check_opening(&spec, &moves(&[])).unwrap(), ());
        let then = Opening::MovesThenRandom { moves: vec!["1,1".into()], plies: 2, seed: 5 };
        let mut g = rules_of(&spec).unwrap();
        let played = then.play(g.as_mut()).unwrap();
        assert_eq!((played.len(), played[0].as_str()), (3, "1 1"));
        assert_eq!(then.play(rules_of(&spec).unwrap().as_mut()).unwrap(), played, "the same from the seed");
        let cx = GameSpec::parse("cx 2 3 3").unwrap();
        assert_eq!(check_opening(&cx, &moves(&["0", "0", "1"])).unwrap(), ());
        assert_eq!(
            check_opening(&cx, &moves(&["0", "0", "0"])).unwrap_err().to_string(),
            "move 3 '0' is not legal there"
        );
    }

    #[test]
    fn random_openings_are_quiet_and_repeatable() {
        let new = |text: &str| rules_of(&GameSpec::parse(text).unwrap()).unwrap();
        for seed in 0..20 {
            let mut g = new("mnk 3 3 3");
            let opening = g.random_opening(6, seed);
            assert_eq!(opening.len(), 6);
            assert!(g.outcome().is_none() && !g.is_dead_draw(), "seed {seed}");
            assert_eq!(new("mnk 3 3 3").random_opening(6, seed), opening);
        }
        // The 9th stone of 3x3x3 always ends the game: the opening stops when no move is quiet.
        assert!(new("mnk 3 3 3").random_opening(9, 1).len() < 9);
        let openings: std::collections::HashSet<Vec<String>> =
            (0..20).map(|seed| new("mnk 7 7 5").random_opening(4, seed)).collect();
        assert!(openings.len() > 15, "seeds give different openings");
    }

    #[test]
    fn engines_get_the_opening_and_play_on_from_it() {
        let spec = cx();
        let opening = rules_of(&spec).unwrap().random_opening(3, 42);
        let position = format!("position {}", opening.join(" "));
        // Each engine accepts only this position, then plays a column that is not full.
        let engine = || {
            sh(&format!(
                r#"while read l; do case "$l" in init*) echo ok;; position*) [ "$l" = "{position}" ] && echo ok || echo error;; *) echo 6;; esac; done"#
            ))
        };
        let (mut a, mut b) = (engine(), engine());
        let terms = Terms {
            timeout: Duration::from_millis(5000),
            seed: 0,
            dead_draws: true,
            opening: Opening::Random { plies: 3, seed: 42 },
            abort: None,
        };
        let r = play_game(0, &spec, [&mut a, &mut b], 0, &terms).unwrap();
        assert_eq!(r.moves[..3], opening[..]);
        // Both engines took the position (else the game ends at the setup) and then fill
        // column 6 until a move there is illegal.
        let GameEnd::Forfeit { fault, .. } = &r.end else { panic!("{r:?}") };
        assert_eq!(fault.kind, FaultKind::Illegal, "{fault}");
        // After 3 plies the second player (engine2) is asked first.
        let asked = r.replies[0].len() + r.replies[1].len();
        assert!(asked >= 2);
        assert_eq!(r.replies[1].len(), asked.div_ceil(2));
    }

    /// A fake pbrain engine: `script` runs on every line `$l` it reads.
    fn pbrain(script: &str) -> ProcessEngine {
        let config = sh(&format!("while read l; do {script}; done")).config().clone();
        ProcessEngine::new(ProcessConfig { protocol: Protocol::Pbrain, ..config })
    }

    #[test]
    fn a_pbrain_engine_is_driven_in_its_own_protocol() {
        let gomoku = GameSpec::parse("mnk 7 7 5").unwrap();
        // Second player: chatter, then answers TURN x,y with x,y+1 (one row down); it fails on
        // anything but START (OK), INFO (nothing) and TURN.
        let mut mirror = pbrain(
            r#"case "$l" in START\ 7) echo MESSAGE hi; echo OK;; INFO*) ;; TURN\ *) xy=${l#TURN }; echo DEBUG thinking; echo ${xy%,*},$((${xy#*,} + 1));; *) echo ERROR "$l";; esac"#,
        );
        // First player, boardbot's protocol: row 0, columns 0, 1, 2...
        let row0 =
            || sh(r#"i=0; while read l; do case "$l" in init*) echo ok;; *) echo "0 $i"; i=$((i + 1));; esac; done"#);
        let r = play(&gomoku, &mut row0(), &mut mirror, 0, 5000);
        assert_eq!(r.end, GameEnd::Played(Outcome::Win(Side::First)), "{r:?}");
        assert_eq!(r.moves, ["0 0", "1 0", "0 1", "1 1", "0 2", "1 2", "0 3", "1 3", "0 4"]);
        // First player in pbrain: BEGIN, then x,y is column x of row y.
        let mut begin = pbrain(
            r#"case "$l" in START*) echo OK;; INFO*) ;; BEGIN) i=0; echo 0,6;; TURN*) i=$((i + 1)); echo MESSAGE x; echo $i,6;; *) echo ERROR;; esac"#,
        );
        let r = play(&gomoku, &mut row0(), &mut begin, 1, 5000);
        assert_eq!(r.end, GameEnd::Played(Outcome::Win(Side::First)), "{r:?}");
        assert_eq!(r.moves[..4], ["6 0", "0 0", "6 1", "0 1"]);
        // A reply that is not x,y forfeits.
        let mut garbled = pbrain(r#"case "$l" in START*) echo OK;; INFO*) ;; *) echo 3 4;; esac"#);
        let r = play(&gomoku, &mut row0(), &mut garbled, 0, 5000);
        assert!(
            matches!(r.end, GameEnd::Forfeit { loser: Side::Second, ref fault } if fault.kind == FaultKind::Garbled),
            "{r:?}"
        );
    }

    #[test]
    fn a_pbrain_engine_gets_the_opening_as_a_board() {
        let gomoku = GameSpec::parse("mnk 7 7 5").unwrap();
        let mut rules = rules_of(&gomoku).unwrap();
        let opening = rules.random_opening(2, 9);
        // Two empty cells: the first player's move, then the pbrain engine's reply.
        let legal = rules.legal_moves();
        let mut free = (0..49u32).map(|c| (c / 7, c % 7)).filter(|(r, c)| legal.contains(&format!("{r} {c}")));
        let ((r1, c1), (r2, c2)) = (free.next().unwrap(), free.next().unwrap());
        let position =
            format!("position {}", opening.iter().map(|m| m.replace(' ', ",")).collect::<Vec<_>>().join(" "));
        let mut first = sh(&format!(
            r#"while read l; do case "$l" in init*) echo ok;; position*) [ "$l" = "{position}" ] && echo ok || echo error;; *) echo {r1} {c1};; esac; done"#
        ));
        // The stones: the opening (first player's = 2, the opponent's, for this second player),
        // then the first player's move.
        let mut stones: Vec<String> = opening
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let (r, c) = m.split_once(' ').unwrap();
                format!("{c},{r},{}", if i % 2 == 0 { 2 } else { 1 })
            })
            .collect();
        stones.push(format!("{c1},{r1},2"));
        let expected = stones.iter().map(|s| format!(" {s}")).collect::<String>();
        let mut second = pbrain(&format!(
            r#"case "$l" in START*) echo OK;; INFO*) ;; BOARD) b="";; DONE) [ "$b" = "{expected}" ] && echo {c2},{r2} || echo ERROR "$b";; TURN*) echo {c2},{r2};; *) b="$b $l";; esac"#
        ));
        let terms = Terms {
            timeout: Duration::from_millis(5000),
            seed: 0,
            dead_draws: true,
            opening: Opening::Random { plies: 2, seed: 9 },
            abort: None,
        };
        let r = play_game(0, &gomoku, [&mut first, &mut second], 0, &terms).unwrap();
        // The first player repeats its move at its second turn: illegal.
        let GameEnd::Forfeit { loser: Side::First, fault } = &r.end else { panic!("{r:?}") };
        assert_eq!(fault.kind, FaultKind::Illegal, "{fault}");
        assert_eq!(r.moves[..2], opening[..]);
        assert_eq!(r.moves[2..], [format!("{r1} {c1}"), format!("{r2} {c2}")]);
    }
}
