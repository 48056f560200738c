//! The games boardbot plays, by name. Adding a game is one folder under `src/game/` and one
//! line in [`GAMES`]: everything above (the protocol, the referee, `solve`, the user
//! interfaces) takes games from here and never names one.
//!
//! A game's description is text: its name, its size words (`mnk 7 7 5`, `cx 6 7 4`), then its
//! options (`blocked 0,0 1,1`). [`GameSpec`] holds a description checked and in canonical form,
//! and builds the game.
//!
//! What an entry is ([`GameType`]) and a description ([`GameSpec`]) are defined beside the
//! interface they build (src/game/any.rs), below the games; this file lists the games and reads
//! names, so that the arrows run one way: registry -> games' entries -> any.

use anyhow::{anyhow, bail, Result};

pub use super::any::{
    BookMaker, Builder, GameRecordText, GameSpec, GameType, Perft, RecordWriter, Resources, SolveRequest,
};

/// Every game, in the order `help` lists them.
pub static GAMES: &[&GameType] =
    &[&super::mnk::GAME_TYPE, &super::connectx::GAME_TYPE, &super::kalah::GAME_TYPE, &super::checkers::GAME_TYPE];

/// Built-in opening sets: (game, set name, the openings one a line in the game's move text, `#`
/// starting a comment), for `match --openings NAME` and `selfplay --openings NAME`.
pub static OPENING_SETS: &[(&str, &str, &str)] = &[("checkers", "acf3", super::checkers::openings::ACF3)];

/// The built-in opening set `name` of the game called `game`, as text.
pub fn opening_set(game: &str, name: &str) -> Option<&'static str> {
    OPENING_SETS.iter().find(|(g, n, _)| *g == game && n.eq_ignore_ascii_case(name)).map(|(_, _, text)| *text)
}

/// The game type called `name` (or an alias, or the name of one of its boards: `gomoku`), in
/// any case.
pub fn game_type(name: &str) -> Option<&'static GameType> {
    let name = name.to_ascii_lowercase();
    GAMES.iter().copied().find(|t| t.name == name || t.aliases.contains(&name.as_str())).or_else(|| {
        let (kind, _) = named_board(&name)?;
        Some(kind)
    })
}

/// The board people call `name` (`tic-tac-toe`, `connect4`; in any case, hyphens and
/// underscores left out): its game type and description.
pub fn named_board(name: &str) -> Option<(&'static GameType, &'static str)> {
    let plain = |s: &str| s.to_ascii_lowercase().replace(['-', '_'], "");
    let name = plain(name);
    GAMES.iter().find_map(|&t| t.names.iter().find(|(n, _)| plain(n) == name).map(|&(_, desc)| (t, desc)))
}

/// Reading a description needs the list of games: these constructors live with it.
impl GameSpec {
    /// Reads a description (`mnk 7 7 5 blocked 0,0`), checking it by building the game once.
    pub fn parse(text: &str) -> Result<GameSpec> {
        let words: Vec<&str> = text.split_whitespace().collect();
        GameSpec::from_words(&words)
    }

    /// As [`GameSpec::parse`], from words. A board's name ([`GameType::names`]) stands for its
    /// description, options may follow it; a game's own name does so only where its size words
    /// are missing (`kalah` alone is `kalah 6 4`, `kalah pie` is `kalah 6 4 pie`).
    pub fn from_words(words: &[&str]) -> Result<GameSpec> {
        GameSpec::from_words_within(words, 0)
    }

    /// As [`GameSpec::from_words`], refusing a board that takes more than `board_limit_mib` MiB
    /// (0: no limit) before it is made (see [`Resources::board_limit_mib`]).
    pub fn from_words_within(words: &[&str], board_limit_mib: usize) -> Result<GameSpec> {
        let Some((name, rest)) = words.split_first() else { return Err(no_game()) };
        let kind = game_type(name).ok_or_else(|| anyhow!("unknown game '{name}' ({})", names()))?;
        let lower = name.to_ascii_lowercase();
        let own = kind.name == lower || kind.aliases.contains(&lower.as_str());
        let build = |words: &[&str]| (kind.build)(words, &Resources::none().with_board_limit(board_limit_mib));
        let named = named_board(name)
            .filter(|_| !own || !rest.first().is_some_and(|w| w.starts_with(|c: char| c.is_ascii_digit())));
        let game = match (own.then(|| build(rest)), named) {
            (Some(Ok(game)), _) => game,
            (first, Some((_, description))) => {
                let mut words: Vec<&str> = description.split_whitespace().skip(1).collect();
                words.extend_from_slice(rest);
                match (build(&words), first) {
                    (Ok(game), _) => game,
                    (Err(_), Some(Err(own_error))) => bail!("{own_error} (usage: {})", kind.usage),
                    (Err(e), _) => bail!("{e} ('{name}' is {description}; usage: {})", kind.usage),
                }
            }
            (Some(Err(e)), None) => bail!("{e} (usage: {})", kind.usage),
            (None, None) => bail!("unknown game '{name}' ({})", names()),
        };
        Ok(game.spec().clone())
    }
}

fn no_game() -> anyhow::Error {
    anyhow!("no game given ({})", names())
}

/// The games' usages and the boards' names, for error messages.
pub fn names() -> String {
    let boards: Vec<&str> = GAMES.iter().flat_map(|t| t.names.iter().map(|(n, _)| *n)).collect();
    format!("games: {}; or by name: {}", usages(), boards.join(", "))
}

/// Every game's description grammar, in [`GAMES`]' order: `mnk M N K [blocked ROW,COL ...] | cx
/// M N X | ...`.
pub fn usages() -> String {
    GAMES.iter().map(|t| t.usage).collect::<Vec<_>>().join(" | ")
}

/// The games in words, for help texts: `m,n,k-games, Connect-X, Kalah and checkers`.
pub fn titles() -> String {
    match GAMES.iter().map(|t| t.title).collect::<Vec<_>>().as_slice() {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Every game's points as the courses count them, for a match's legend: `mnk: win 2 as first,
/// 3 as second, draw 1; cx: win 3, draw 1; ...`.
pub fn points_legend() -> String {
    let one = |t: &GameType| match t.points {
        [first, second, draw] if first == second => format!("{}: win {first}, draw {draw}", t.name),
        [first, second, draw] => format!("{}: win {first} as first, {second} as second, draw {draw}", t.name),
    };
    GAMES.iter().map(|&t| one(t)).collect::<Vec<_>>().join("; ")
}

/// Preparing every game's tables needs the list of games.
impl Resources {
    /// Resources within `budget_mib` MiB with every game's tables made now, so that no `init`
    /// (and no move) pays for making them.
    pub fn prepare(budget_mib: usize) -> Resources {
        let resources = Resources::new(budget_mib);
        for kind in GAMES {
            if let Some(prepare) = kind.prepare {
                prepare(&resources);
            }
        }
        resources
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::salt;

    #[test]
    fn salts_differ_and_the_games_texts_name_every_game() {
        let mut salts = salt::ALL.to_vec();
        salts.sort_unstable();
        salts.dedup();
        assert_eq!(salts.len(), salt::ALL.len(), "two games share a salt");
        assert!(salt::ALL.len() >= GAMES.len());
        for t in GAMES {
            assert!(usages().contains(t.usage), "{}", t.name);
            assert!(titles().contains(t.title), "{}", t.name);
            assert!(points_legend().contains(&format!("{}: win", t.name)), "{}", t.name);
        }
        assert_eq!(points_legend().split("; ").count(), GAMES.len());
        for t in GAMES {
            assert!(!t.name.is_empty() && !t.usage.is_empty() && !t.about.is_empty() && !t.title.is_empty());
            assert!(t.usage.starts_with(t.name), "{}'s usage starts with its name", t.name);
            assert!(
                (t.build)(&[], &Resources::none()).err().map(|e| e.to_string())
                    != Some("this game type has no builder".into())
            );
            // `blocked` says whether the description takes blocked cells.
            let first = t.examples.first().unwrap_or_else(|| panic!("{} gives no example", t.name));
            let with_blocked = GameSpec::parse(&format!("{first} blocked 0,0"));
            assert_eq!(with_blocked.is_ok(), t.blocked, "{}: {with_blocked:?}", t.name);
        }
    }
}
