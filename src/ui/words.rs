//! The engine's thinking in people's words, the same in the terminal and on the page: its
//! opinion of the position ("boardbot wins in 4 moves", "better for you") and where its move
//! came from ("only move", "book", the search's depth, nodes and time).

use crate::game::players::{Source, Thought};
use crate::game::render::Opinion;
use crate::search::MAX_PLY;

/// `base` conjugated for `who`: "you win", "boardbot wins".
fn verb(who: &str, base: &str) -> String {
    if who == "you" {
        format!("{who} {base}")
    } else {
        format!("{who} {base}s")
    }
}

fn plural(n: u32, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

/// `op` (from the view of `me`, the side that was to move; `other` its opponent) in words:
/// "boardbot wins in 4 moves", "you win by 3 seeds", "a proved draw", "even",
/// "better for you".
pub fn opinion_words(op: &Opinion, me: &str, other: &str) -> String {
    let result = |winner: &str, moves: Option<u32>, margin: Option<u32>| match (moves, margin) {
        (_, Some(m)) => format!("{} by {}", verb(winner, "win"), plural(m, "seed")),
        (Some(n), None) => format!("{} in {}", verb(winner, "win"), plural(n, "move")),
        (None, None) => format!("{}, proved", verb(winner, "win")),
    };
    match *op {
        Opinion::Win { moves, margin } => result(me, moves, margin),
        Opinion::Loss { moves, margin } => result(other, moves, margin),
        Opinion::Draw => "a proved draw".to_string(),
        Opinion::Estimate { advantage } => {
            let who = if advantage > 0.0 { me } else { other };
            match advantage.abs() {
                a if a < 0.3 => "even".to_string(),
                a if a < 1.0 => format!("slightly better for {who}"),
                a if a < 3.0 => format!("better for {who}"),
                _ => format!("much better for {who}"),
            }
        }
    }
}

/// A count with thousands separated by commas: 1,234,567.
pub fn count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// What the engine thought of the move it chose for `me` (against `other`), in one line: its
/// opinion and how it got it. Never a depth of 0 or the search's last depth (it went as far
/// as the rules allow): "only move", "book", "solved at once", the algorithm's name.
pub fn thought_line(t: &Thought, me: &str, other: &str) -> String {
    let opinion = t.opinion.as_ref().map(|op| opinion_words(op, me, other));
    let seconds = format!("{:.2} s", t.elapsed.as_secs_f64());
    match t.source {
        Source::OnlyMove => "only move".to_string(),
        Source::NoTime => "played at once: no time left to search".to_string(),
        Source::Book => match opinion {
            Some(op) => format!("book move: {op}"),
            None => "book move".to_string(),
        },
        Source::WinsAtOnce => "a winning move".to_string(),
        Source::Solver => format!("solved at once: {}", opinion.unwrap_or_else(|| "proved".to_string())),
        Source::Search => {
            let shown_depth = t.depth > 0 && t.depth < MAX_PLY as u32 - 1;
            let mut stats = Vec::new();
            if let Some(a) = t.algorithm {
                stats.push(format!("{} to depth {}", a.name(), t.depth));
            } else if shown_depth {
                stats.push(format!("depth {}", t.depth));
            }
            stats.push(format!("{} nodes", count(t.nodes)));
            stats.push(seconds);
            match opinion {
                Some(op) => format!("{op} ({})", stats.join(", ")),
                None => format!("a first look, no time for more ({})", stats.join(", ")),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::players::Algorithm;
    use std::time::Duration;

    #[test]
    fn opinions_in_words() {
        let win = Opinion::Win { moves: Some(4), margin: None };
        assert_eq!(opinion_words(&win, "boardbot", "you"), "boardbot wins in 4 moves");
        assert_eq!(opinion_words(&win.flipped(), "you", "boardbot"), "boardbot wins in 4 moves");
        let seeds = Opinion::Win { moves: None, margin: Some(8) };
        assert_eq!(opinion_words(&seeds, "boardbot", "you"), "boardbot wins by 8 seeds");
        assert_eq!(opinion_words(&seeds.flipped(), "boardbot", "you"), "you win by 8 seeds");
        assert_eq!(opinion_words(&Opinion::Draw, "boardbot", "you"), "a proved draw");
        let words = |a: f64| opinion_words(&Opinion::Estimate { advantage: a }, "boardbot", "you");
        assert_eq!(words(0.1), "even");
        assert_eq!(words(-0.5), "slightly better for you");
        assert_eq!(words(2.0), "better for boardbot");
        assert_eq!(words(-7.0), "much better for you");
        assert_eq!(count(1234567), "1,234,567");
        assert_eq!(count(12), "12");
    }

    #[test]
    fn thoughts_never_say_depth_0_or_the_last_depth() {
        let mut t = Thought { source: Source::OnlyMove, ..Thought::default() };
        assert_eq!(thought_line(&t, "boardbot", "you"), "only move");
        t.source = Source::Search;
        t.opinion = Some(Opinion::Estimate { advantage: 0.0 });
        t.nodes = 1500;
        t.elapsed = Duration::from_millis(250);
        t.depth = MAX_PLY as u32 - 1;
        assert_eq!(thought_line(&t, "boardbot", "you"), "even (1,500 nodes, 0.25 s)");
        t.depth = 9;
        assert_eq!(thought_line(&t, "boardbot", "you"), "even (depth 9, 1,500 nodes, 0.25 s)");
        t.algorithm = Some(Algorithm::Minimax);
        t.depth = 3;
        assert_eq!(thought_line(&t, "boardbot", "you"), "even (minimax to depth 3, 1,500 nodes, 0.25 s)");
        t.source = Source::Book;
        t.opinion = Some(Opinion::Win { moves: Some(20), margin: None });
        assert_eq!(thought_line(&t, "boardbot", "you"), "book move: boardbot wins in 20 moves");
    }
}
