//! `boardbot replay`: replays the games of a match's game log (`boardbot match --log`) with the
//! rules, checks that every move was legal and that each logged result is what the rules say,
//! and prints the boards.
//!
//! A result by forfeit is taken as logged (the referee saw the fault; the log only says what it
//! was), but the moves before it must be legal, the game must not have been over, and the side
//! that forfeited must have been the side to move (or no move was played: the game setup failed).

use super::game::rules_of;
use super::spec::{board_text, parse_board};
use crate::game::any::AnyGame;
use crate::game::registry::GameSpec;
use crate::game::{Outcome, Side};
use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use std::io::Write;
use std::path::PathBuf;

/// Replays a game log and checks every game against the rules.
#[derive(Args, Clone, Debug)]
pub struct ReplayArgs {
    /// The game log, as written by `boardbot match --log FILE`.
    #[arg(value_name = "LOGFILE")]
    log: PathBuf,
    /// Only game N (its number in the log, from 1).
    #[arg(long, value_name = "N")]
    game: Option<usize>,
    /// Prints the board after every move, not only the final board.
    #[arg(long)]
    each_move: bool,
}

/// The fields of a log line, as `report::log_line` writes them.
const FIELDS: &str = "game, board, first, second, result, reason, moves";

/// How a logged game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoggedEnd {
    /// Played to the end on the board.
    Played(Outcome),
    /// Stopped as a draw when neither side could win any more.
    DeadDraw,
    /// This side forfeited.
    Forfeit(Side),
    /// Both engines failed to set up the game.
    BothForfeit,
}

/// One line of the game log.
#[derive(Clone, Debug)]
pub struct LoggedGame {
    /// Number of the game in the match, from 1.
    pub number: usize,
    pub spec: GameSpec,
    /// The engines that played first and second (`e1:NAME`, `e2:NAME`).
    pub players: [String; 2],
    /// The result and reason fields, as written.
    pub result: String,
    pub reason: String,
    pub end: LoggedEnd,
    pub moves: Vec<String>,
}

/// Reads one line of the game log.
pub fn parse_log_line(line: &str) -> Result<LoggedGame> {
    let fields: Vec<&str> = line.split('\t').collect();
    let [number, board, first, second, result, reason, moves] = fields[..] else {
        bail!("expected 7 tab-separated fields ({FIELDS}), got {}", fields.len());
    };
    let number = match number.trim().parse::<usize>() {
        Ok(n) if n >= 1 => n,
        _ => bail!("game number '{number}' is not a whole number from 1"),
    };
    let words: Vec<&str> = board.split_whitespace().collect();
    let spec = parse_board(&words)?;
    let end = logged_end(result, reason)?;
    Ok(LoggedGame {
        number,
        spec,
        players: [first.to_string(), second.to_string()],
        result: result.to_string(),
        reason: reason.to_string(),
        end,
        moves: moves.split_whitespace().map(str::to_string).collect(),
    })
}

/// The end of a game from its result (`1-0`, `0-1`, `1/2-1/2`, `0-0`) and reason (`win`, `draw`,
/// `forfeit by first|second ...`, `both forfeit ...`), which must agree.
fn logged_end(result: &str, reason: &str) -> Result<LoggedEnd> {
    let end = match reason.split_whitespace().take(3).collect::<Vec<_>>()[..] {
        ["win", ..] if result == "1-0" => LoggedEnd::Played(Outcome::Win(Side::First)),
        ["win", ..] if result == "0-1" => LoggedEnd::Played(Outcome::Win(Side::Second)),
        ["draw", ..] if result == "1/2-1/2" => LoggedEnd::Played(Outcome::Draw),
        ["dead", "draw:", ..] if result == "1/2-1/2" => LoggedEnd::DeadDraw,
        ["forfeit", "by", "first"] if result == "0-1" => LoggedEnd::Forfeit(Side::First),
        ["forfeit", "by", "second"] if result == "1-0" => LoggedEnd::Forfeit(Side::Second),
        ["both", "forfeit:" | "forfeit", ..] if result == "0-0" => LoggedEnd::BothForfeit,
        _ if !matches!(result, "1-0" | "0-1" | "1/2-1/2" | "0-0") => {
            bail!("result '{result}' is none of 1-0, 0-1, 1/2-1/2, 0-0")
        }
        _ => bail!("result '{result}' does not agree with the reason '{reason}'"),
    };
    Ok(end)
}

/// What a replay found: the text to print (boards) and the verdict, `Ok` with a summary or `Err`
/// with what is wrong.
pub struct Replayed {
    pub boards: String,
    pub verdict: Result<String>,
}

/// Replays `game` with the rules; `each_move` prints the board after every move, else only the
/// final board (or the last board reached before an illegal move).
pub fn replay_game(game: &LoggedGame, each_move: bool) -> Replayed {
    match rules_of(&game.spec) {
        Ok(rules) => replay_on(rules, game, each_move),
        Err(e) => Replayed { boards: String::new(), verdict: Err(anyhow!("board: {e}")) },
    }
}

fn replay_on(mut rules: Box<dyn AnyGame>, game: &LoggedGame, each_move: bool) -> Replayed {
    let mut boards = String::new();
    for (i, text) in game.moves.iter().enumerate() {
        if let Err(e) = play_logged(rules.as_mut(), i, text) {
            boards.push_str(&rules.board_text());
            return Replayed { boards, verdict: Err(e) };
        }
        if each_move {
            boards.push_str(&format!("after move {} ({text}):\n{}", i + 1, rules.board_text()));
        }
    }
    if !each_move || game.moves.is_empty() {
        boards.push_str(&rules.board_text());
    }
    Replayed { boards, verdict: check_end(rules.as_ref(), game) }
}

/// Plays the logged move `text` (move `i`, from 0) if the rules allow it.
fn play_logged(rules: &mut dyn AnyGame, i: usize, text: &str) -> Result<()> {
    let side = side_name(rules.to_move());
    if let Some(outcome) = rules.outcome() {
        bail!("move {} '{text}' was played after the game was over ({})", i + 1, outcome_text(outcome));
    }
    rules.play(text).map_err(|e| anyhow!("move {} '{text}' by {side} is illegal: {e}", i + 1))
}

/// Whether the position after the logged moves agrees with the logged end.
fn check_end(rules: &dyn AnyGame, game: &LoggedGame) -> Result<String> {
    let n = game.moves.len();
    let outcome = rules.outcome();
    match (game.end, outcome) {
        (LoggedEnd::Played(logged), Some(real)) if logged == real => {
            Ok(format!("{} after {n} moves, as the rules say", outcome_text(real)))
        }
        (LoggedEnd::Played(logged), Some(real)) => {
            Err(anyhow!("logged {}, but the rules say {} after {n} moves", outcome_text(logged), outcome_text(real)))
        }
        (LoggedEnd::Played(logged), None) => {
            Err(anyhow!("logged {}, but the game is not over after {n} moves", outcome_text(logged)))
        }
        (LoggedEnd::DeadDraw, None) if rules.is_dead_draw() => {
            Ok(format!("a dead draw (1/2-1/2) after {n} moves: neither side can win any more, as the rules say"))
        }
        (LoggedEnd::DeadDraw, None) => Err(anyhow!("logged a dead draw, but a side can still win after {n} moves")),
        (LoggedEnd::DeadDraw, Some(real)) => {
            Err(anyhow!("logged a dead draw, but the game was already over ({}) after {n} moves", outcome_text(real)))
        }
        (LoggedEnd::Forfeit(_) | LoggedEnd::BothForfeit, Some(real)) => {
            Err(anyhow!("logged a forfeit, but the game was already over ({}) after {n} moves", outcome_text(real)))
        }
        (LoggedEnd::Forfeit(loser), None) if n > 0 && rules.to_move() != loser => Err(anyhow!(
            "logged a forfeit by {}, but {} was to move after {n} moves",
            side_name(loser),
            side_name(rules.to_move())
        )),
        (LoggedEnd::Forfeit(loser), None) => {
            Ok(format!("forfeit by {} after {n} legal moves (accepted as logged)", side_name(loser)))
        }
        (LoggedEnd::BothForfeit, None) if n > 0 => Err(anyhow!("logged that both forfeit the setup, but {n} moves")),
        (LoggedEnd::BothForfeit, None) => Ok("both forfeit the setup (accepted as logged)".to_string()),
    }
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::First => "first",
        Side::Second => "second",
    }
}

fn outcome_text(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Win(Side::First) => "first wins (1-0)",
        Outcome::Win(Side::Second) => "second wins (0-1)",
        Outcome::Draw => "a draw (1/2-1/2)",
    }
}

/// What a replay of a whole log found.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games replayed (malformed lines included).
    pub checked: usize,
    /// Where each failure is: `line L (game N)` or `line L`.
    pub failed: Vec<String>,
}

/// Replays every game of the log `text` (or only game `only`), writing each game's header, boards
/// and verdict to `out`.
pub fn replay_log(text: &str, only: Option<usize>, each_move: bool, out: &mut impl Write) -> std::io::Result<Summary> {
    let mut summary = Summary::default();
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(n) = only {
            let number = line.split('\t').next().and_then(|w| w.trim().parse::<usize>().ok());
            if number.is_some_and(|number| number != n) {
                continue;
            }
        }
        summary.checked += 1;
        let game = match parse_log_line(line) {
            Ok(game) => game,
            Err(e) => {
                writeln!(out, "line {line_no}: FAILED: malformed log line: {e}\n")?;
                summary.failed.push(format!("line {line_no}"));
                continue;
            }
        };
        let [first, second] = &game.players;
        let board = board_text(&game.spec);
        writeln!(
            out,
            "game {} [{board}] {first} (first) vs {second} (second): {} {}",
            game.number, game.result, game.reason
        )?;
        let replayed = replay_game(&game, each_move);
        write!(out, "{}", replayed.boards)?;
        match replayed.verdict {
            Ok(text) => writeln!(out, "game {} (line {line_no}): ok: {text}\n", game.number)?,
            Err(text) => {
                writeln!(out, "game {} (line {line_no}): FAILED: {text}\n", game.number)?;
                summary.failed.push(format!("line {line_no} (game {})", game.number));
            }
        }
    }
    Ok(summary)
}

/// Runs `boardbot replay`: the boards and verdicts go to stdout; an error (non-zero exit) if the
/// log cannot be read, has no game to replay, or any game fails the check.
pub fn run(args: ReplayArgs) -> Result<()> {
    let text = std::fs::read_to_string(&args.log).with_context(|| format!("reading {}", args.log.display()))?;
    let mut out = std::io::stdout().lock();
    let summary = replay_log(&text, args.game, args.each_move, &mut out)?;
    let log = args.log.display();
    match args.game {
        _ if summary.checked > 0 => {}
        Some(n) => bail!("no game {n} in {log}"),
        None => bail!("no games in {log}"),
    }
    let ok = summary.checked - summary.failed.len();
    writeln!(out, "replayed {} game(s) of {log}: {ok} ok, {} failed", summary.checked, summary.failed.len())?;
    out.flush()?;
    if !summary.failed.is_empty() {
        bail!(
            "{} of {} game(s) failed the check: {}",
            summary.failed.len(),
            summary.checked,
            summary.failed.join(", ")
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const TIC_TAC_TOE: &str = "3\tmnk 3 3 3\te1:self\te2:l1\t1-0\twin\t0,0 1,0 0,1 1,1 0,2";

    fn verdict(line: &str) -> Result<String> {
        replay_game(&parse_log_line(line).expect("a well-formed line"), false).verdict
    }

    #[test]
    fn log_lines_are_read() {
        let g = parse_log_line(TIC_TAC_TOE).unwrap();
        assert_eq!(g.number, 3);
        assert_eq!(g.spec, GameSpec::parse("mnk 3 3 3").unwrap());
        assert_eq!(g.players, ["e1:self", "e2:l1"]);
        assert_eq!(g.end, LoggedEnd::Played(Outcome::Win(Side::First)));
        assert_eq!(g.moves.len(), 5);
        let both = "1\tcx 6 7 4\te1:a\te2:b\t0-0\tboth forfeit: first crash: x; second crash: y\t";
        assert_eq!(parse_log_line(both).unwrap().end, LoggedEnd::BothForfeit);
        assert!(parse_log_line(both).unwrap().moves.is_empty());
        let forfeit = "2\tcx 6 7 4\te2:b\te1:a\t1-0\tforfeit by second timeout: no reply\t3";
        assert_eq!(parse_log_line(forfeit).unwrap().end, LoggedEnd::Forfeit(Side::Second));
    }

    #[test]
    fn malformed_lines_say_what_is_wrong() {
        let cases = [
            ("1\tmnk 3 3 3\te1:a", "expected 7 tab-separated fields"),
            ("x\tmnk 3 3 3\te1:a\te2:b\t1-0\twin\t", "game number 'x'"),
            ("0\tmnk 3 3 3\te1:a\te2:b\t1-0\twin\t", "game number '0'"),
            ("1\tmnk 3 3\te1:a\te2:b\t1-0\twin\t", "expected M N K"),
            ("1\tchess 8 8 1\te1:a\te2:b\t1-0\twin\t", "unknown game 'chess'"),
            ("1\tmnk 3 3 3\te1:a\te2:b\t2-0\twin\t", "result '2-0' is none of"),
            ("1\tmnk 3 3 3\te1:a\te2:b\t1-0\tdraw\t", "does not agree"),
            ("1\tmnk 3 3 3\te1:a\te2:b\t0-1\tforfeit by second crash: x\t", "does not agree"),
        ];
        for (line, expected) in cases {
            let e = parse_log_line(line).unwrap_err().to_string();
            assert!(e.contains(expected), "{line:?}: {e}");
        }
    }

    #[test]
    fn a_game_played_to_the_end_agrees_with_the_rules() {
        let g = parse_log_line(TIC_TAC_TOE).unwrap();
        let r = replay_game(&g, false);
        assert_eq!(r.boards, "XXX\nOO.\n...\n");
        assert_eq!(r.verdict.unwrap(), "first wins (1-0) after 5 moves, as the rules say".to_string());
        let r = replay_game(&g, true);
        assert!(r.boards.starts_with("after move 1 (0,0):\nX..\n...\n...\nafter move 2"), "{}", r.boards);
        assert!(r.boards.ends_with("after move 5 (0,2):\nXXX\nOO.\n...\n"), "{}", r.boards);
        assert_eq!(r.boards.matches("after move").count(), 5);
        let dead = "1\tmnk 3 3 3\te1:a\te2:b\t1/2-1/2\tdead draw: no line left for either side\t0,0 0,1 0,2 1,1 1,0 1,2 2,1 2,0";
        let r = replay_game(&parse_log_line(dead).unwrap(), false);
        assert!(
            r.verdict.as_ref().is_ok_and(|v| v.starts_with("a dead draw (1/2-1/2) after 8 moves")),
            "{:?}",
            r.verdict
        );
        let early = dead.trim_end_matches(" 2,0");
        let r = replay_game(&parse_log_line(early).unwrap(), false);
        assert_eq!(r.verdict.unwrap_err().to_string(), "logged a dead draw, but a side can still win after 7 moves");
        let draw = "1\tmnk 3 3 3\te1:a\te2:b\t1/2-1/2\tdraw\t1,1 0,0 0,1 2,1 0,2 2,0 1,0 1,2 2,2";
        let r = replay_game(&parse_log_line(draw).unwrap(), false);
        assert_eq!(r.boards, "OXX\nXXO\nOOX\n");
        assert_eq!(r.verdict.unwrap(), "a draw (1/2-1/2) after 9 moves, as the rules say".to_string());
    }

    #[test]
    fn connect_x_pieces_drop_and_blocked_cells_show() {
        let g = parse_log_line("1\tcx 3 4 3\te1:a\te2:b\t1-0\twin\t0 1 0 1 0").unwrap();
        let r = replay_game(&g, false);
        assert_eq!(r.boards, "X...\nXO..\nXO..\n");
        assert!(r.verdict.is_ok());
        let g = parse_log_line("2\tmnk 2 3 2 blocked 0,1\te1:a\te2:b\t0-1\tforfeit by first crash: x\t").unwrap();
        let r = replay_game(&g, false);
        assert_eq!(r.boards, ".#.\n...\n");
        assert_eq!(r.verdict.unwrap(), "forfeit by first after 0 legal moves (accepted as logged)".to_string());
    }

    #[test]
    fn illegal_moves_and_wrong_results_fail() {
        let occupied = TIC_TAC_TOE.replace("0,1 1,1", "0,0 1,1");
        let e = verdict(&occupied).unwrap_err().to_string();
        assert!(e.starts_with("move 3 '0,0' by first is illegal"), "{e}");
        let off = TIC_TAC_TOE.replace("1,0", "3,3");
        assert!(verdict(&off).unwrap_err().to_string().starts_with("move 2 '3,3' by second is illegal"));
        let garbled = TIC_TAC_TOE.replace("1,0", "a,b");
        assert!(verdict(&garbled).unwrap_err().to_string().starts_with("move 2 'a,b' by second is illegal"));
        let after_end = "1\tcx 3 4 3\te1:a\te2:b\t1-0\twin\t0 1 0 1 0 1";
        assert!(verdict(after_end).unwrap_err().to_string().contains("after the game was over (first wins (1-0))"));
        let wrong = TIC_TAC_TOE.replace("1-0\twin", "0-1\twin");
        assert_eq!(
            verdict(&wrong).unwrap_err().to_string(),
            "logged second wins (0-1), but the rules say first wins (1-0) after 5 moves"
        );
        let unfinished = "1\tcx 3 4 3\te1:a\te2:b\t1/2-1/2\tdraw\t0 1";
        assert!(verdict(unfinished).unwrap_err().to_string().contains("not over after 2 moves"));
    }

    #[test]
    fn forfeits_are_taken_as_logged_when_possible() {
        let ok = "1\tcx 3 4 3\te1:a\te2:b\t1-0\tforfeit by second timeout: slow\t0";
        assert!(verdict(ok).is_ok());
        let wrong_side = "1\tcx 3 4 3\te1:a\te2:b\t0-1\tforfeit by first timeout: slow\t0";
        assert_eq!(
            verdict(wrong_side).unwrap_err().to_string(),
            "logged a forfeit by first, but second was to move after 1 moves"
        );
        let over = "1\tcx 3 4 3\te1:a\te2:b\t0-1\tforfeit by second timeout: slow\t0 1 0 1 0";
        let over = over.replace("0-1", "1-0");
        assert!(verdict(&over).unwrap_err().to_string().contains("already over"));
        let both = "1\tcx 3 4 3\te1:a\te2:b\t0-0\tboth forfeit: first crash: x; second crash: y\t0";
        assert!(verdict(both).is_err());
    }

    #[test]
    fn a_log_is_replayed_line_by_line() {
        let log = format!(
            "# game\tboard\tfirst\tsecond\tresult\treason\tmoves\n{TIC_TAC_TOE}\n\nbroken line\n{}\n",
            TIC_TAC_TOE.replacen('3', "4", 1).replace("1,1 0,2", "1,1 1,1")
        );
        let mut out = Vec::new();
        let summary = replay_log(&log, None, false, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(summary, Summary { checked: 3, failed: vec!["line 4".into(), "line 5 (game 4)".into()] });
        assert!(text.contains("game 3 (line 2): ok: first wins"), "{text}");
        assert!(text.contains("line 4: FAILED: malformed log line: expected 7 tab-separated fields"), "{text}");
        assert!(text.contains("game 4 (line 5): FAILED: move 5 '1,1' by first is illegal"), "{text}");

        let mut out = Vec::new();
        let summary = replay_log(&log, Some(3), false, &mut out).unwrap();
        // Line 4 has no number: it could be game 3, so it is checked too.
        assert_eq!(summary, Summary { checked: 2, failed: vec!["line 4".into()] });
        let summary = replay_log(&log, Some(9), false, &mut Vec::new()).unwrap();
        assert_eq!(summary, Summary { checked: 1, failed: vec!["line 4".into()] });
    }
}
