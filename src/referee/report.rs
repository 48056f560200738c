//! Text output of a match: the results table, the one-line description of a game, the game log.

use super::game::{GameEnd, GameRecord};
use super::score::{ReplyStats, Tally};
use super::spec::board_text;
use crate::game::registry::GameRecordText;
use crate::game::{Outcome, Side};
use std::fmt::Write;
use std::time::Duration;

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::First => "first",
        Side::Second => "second",
    }
}

/// Moves as one word each (`ROW,COL` for m,n,k moves), separated by blanks.
pub fn moves_text(moves: &[String]) -> String {
    moves.iter().map(|m| m.split_whitespace().collect::<Vec<_>>().join(",")).collect::<Vec<_>>().join(" ")
}

/// What happened, in words, naming the engines.
pub fn result_text(record: &GameRecord, names: [&str; 2]) -> String {
    let who = |side: Side| format!("{} ({})", names[record.engine_of(side)], side_name(side));
    match &record.end {
        GameEnd::Played(Outcome::Draw) => "draw".to_string(),
        GameEnd::DeadDraw => "draw (no line left for either side)".to_string(),
        GameEnd::Played(Outcome::Win(side)) => format!("{} wins", who(*side)),
        GameEnd::Forfeit { loser, fault } => {
            format!("{} wins: {} forfeits by {}", who(loser.other()), who(*loser), fault)
        }
        GameEnd::BothForfeit { first, second } => {
            format!("no result: both forfeit ({}: {}; {}: {})", who(Side::First), first, who(Side::Second), second)
        }
    }
}

/// One line per game, for the progress display.
pub fn game_line(record: &GameRecord, names: [&str; 2]) -> String {
    let max = |e: usize| record.replies[e].iter().max().map_or("-".to_string(), |d| format!("{:.1}", ms(*d)));
    format!(
        "game {} [{}] {} vs {}: {}; {} moves; max reply ms {} {} / {} {}",
        record.number + 1,
        board_text(&record.spec),
        names[record.first],
        names[1 - record.first],
        result_text(record, names),
        record.moves.len(),
        names[0],
        max(0),
        names[1],
        max(1),
    )
}

/// The log's reason for a [`GameEnd::DeadDraw`].
pub const DEAD_DRAW_REASON: &str = "dead draw: no line left for either side";

/// The header of the game log.
pub const LOG_HEADER: &str = "# game\tboard\tfirst\tsecond\tresult\treason\tmoves";

/// One tab-separated line of the game log: game number (from 1), board, the engines that
/// played first and second (`e1:NAME`/`e2:NAME`), the result from the first player's view
/// (`1-0`, `0-1`, `1/2-1/2`, `0-0` when both forfeit), how it ended, and the moves.
pub fn log_line(record: &GameRecord, names: [&str; 2]) -> String {
    let tag = |side: Side| {
        let e = record.engine_of(side);
        format!("e{}:{}", e + 1, names[e])
    };
    let (result, reason) = match &record.end {
        GameEnd::Played(Outcome::Win(Side::First)) => ("1-0", "win".to_string()),
        GameEnd::Played(Outcome::Win(Side::Second)) => ("0-1", "win".to_string()),
        GameEnd::Played(Outcome::Draw) => ("1/2-1/2", "draw".to_string()),
        GameEnd::DeadDraw => ("1/2-1/2", DEAD_DRAW_REASON.to_string()),
        GameEnd::Forfeit { loser, fault } => {
            let result = if *loser == Side::First { "0-1" } else { "1-0" };
            (result, format!("forfeit by {} {}", side_name(*loser), fault))
        }
        GameEnd::BothForfeit { first, second } => ("0-0", format!("both forfeit: first {first}; second {second}")),
    };
    let reason = reason.replace(['\t', '\n'], " ");
    format!(
        "{}\t{}\t{}\t{}\t{}\t{}\t{}",
        record.number + 1,
        board_text(&record.spec),
        tag(Side::First),
        tag(Side::Second),
        result,
        reason,
        moves_text(&record.moves)
    )
}

/// A game for its game's record writer (see [`crate::game::registry::GameType::record`]): the
/// result and reason as [`log_line`] gives them.
pub fn record_text(record: &GameRecord, names: [&str; 2]) -> GameRecordText {
    let line = log_line(record, names);
    let fields: Vec<&str> = line.split('\t').collect();
    let tag = |side: Side| {
        let e = record.engine_of(side);
        format!("e{}:{}", e + 1, names[e])
    };
    GameRecordText {
        event: "boardbot match".to_string(),
        number: record.number + 1,
        players: [tag(Side::First), tag(Side::Second)],
        moves: record.moves.clone(),
        result: match fields.get(4).copied() {
            Some("0-0") | None => "*".to_string(),
            Some(r) => r.to_string(),
        },
        reason: fields.get(5).copied().unwrap_or_default().to_string(),
        notes: Vec::new(),
    }
}

fn stats_cells(s: &ReplyStats) -> (String, String) {
    match s.mean() {
        Some(mean) => (format!("{:.1}", ms(s.max)), format!("{:.1}", ms(mean))),
        None => ("-".into(), "-".into()),
    }
}

/// The results table: one row per board and a total, from engine1's view.
pub fn table(rows: &[(String, Tally)], total: &Tally) -> String {
    let width = rows.iter().map(|(b, _)| b.len()).max().unwrap_or(0).max("board".len()).max("TOTAL".len());
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<width$} {:>5} {:>4} {:>4} {:>4} {:>4} {:>4} {:>6} {:>6} {:>9} {:>9} {:>9} {:>9}",
        "board", "games", "W", "D", "L", "F", "oF", "pts1", "pts2", "max1 ms", "mean1 ms", "max2 ms", "mean2 ms"
    );
    let mut line = |name: &str, t: &Tally| {
        let (max1, mean1) = stats_cells(&t.replies[0]);
        let (max2, mean2) = stats_cells(&t.replies[1]);
        let _ = writeln!(
            out,
            "{:<width$} {:>5} {:>4} {:>4} {:>4} {:>4} {:>4} {:>6} {:>6} {:>9} {:>9} {:>9} {:>9}",
            name,
            t.games,
            t.wins,
            t.draws,
            t.losses,
            t.forfeits,
            t.opp_forfeits,
            t.score[0],
            t.score[1],
            max1,
            mean1,
            max2,
            mean2
        );
    };
    for (name, t) in rows {
        line(name, t);
    }
    line("TOTAL", total);
    out
}

/// What the columns mean (the points of every game of the registry).
pub fn legend() -> String {
    format!(
        "W/D/L: engine1's wins (including engine2's forfeits), draws and losses on the board; F: engine1's \
forfeits; oF: engine2's forfeits; pts: course points ({}); maxN/meanN: reply times of engineN.",
        crate::game::registry::points_legend()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::registry::GameSpec;
    use crate::referee::adapter::{Fault, FaultKind};

    fn record(end: GameEnd) -> GameRecord {
        GameRecord {
            number: 2,
            spec: GameSpec::parse("mnk 3 3 3").unwrap(),
            first: 1,
            moves: vec!["1 1".into(), "0 0".into()],
            end,
            replies: [vec![Duration::from_millis(3)], vec![]],
        }
    }

    #[test]
    fn log_lines() {
        let r = record(GameEnd::Played(Outcome::Win(Side::First)));
        assert_eq!(log_line(&r, ["self", "l1"]), "3\tmnk 3 3 3\te2:l1\te1:self\t1-0\twin\t1,1 0,0");
        let r = record(GameEnd::Forfeit { loser: Side::Second, fault: Fault::new(FaultKind::Illegal, "'9 9'\tbad") });
        let line = log_line(&r, ["self", "l1"]);
        assert_eq!(line.split('\t').count(), 7);
        assert!(line.contains("\t1-0\tforfeit by second illegal: '9 9' bad\t"), "{line}");
        assert!(result_text(&r, ["self", "l1"]).starts_with("l1 (first) wins: self (second) forfeits by illegal"));
    }

    #[test]
    fn table_has_a_total() {
        let mut t = Tally::default();
        t.add(&record(GameEnd::Played(Outcome::Draw)));
        let text = table(&[("mnk 3 3 3".into(), t.clone())], &t);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(lines[2].starts_with("TOTAL"));
        assert!(lines[1].contains("3.0"));
    }
}
