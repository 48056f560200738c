//! m,n,k-games in the registry: the description `mnk M N K [blocked ROW,COL ...]` and the game
//! built with its knowledge.

use super::description::read;
use super::{Mnk, MnkKnowledge};
use crate::game::any::{AnyGame, GameSpec, GameType, Resources};
use crate::game::kinarow;
use crate::game::playing::Playing;
use anyhow::Result;

pub static GAME_TYPE: GameType = GameType {
    name: "mnk",
    size_words: 3,
    usage: "mnk M N K [blocked ROW,COL ...]",
    about: "m,n,k-games: K or more in a row on M rows and N columns (tic-tac-toe: mnk 3 3 3, gomoku: mnk 15 15 5)",
    title: "m,n,k-games",
    names: &[("tic-tac-toe", "mnk 3 3 3"), ("gomoku", "mnk 15 15 5")],
    examples: &["mnk 3 3 3", "mnk 15 15 5"],
    blocked: true,
    // The courses' m,n,k tournament: a win as second player is worth more.
    points: [2, 3, 1],
    build,
    solve: Some(super::solve::solve),
    prepare: Some(prepare),
    book: Some(super::book_maker::make_book),
    format: Some(&super::psq::FORMAT),
    ..GameType::DEFAULTS
};

/// The exact solver's table, shared with the other K-in-a-row games.
fn prepare(resources: &Resources) {
    crate::game::solver::shared_table(resources);
}

fn build(words: &[&str], resources: &Resources) -> Result<Box<dyn AnyGame>> {
    let (rows, cols, k, blocked) = read(words)?;
    // Within the engine's memory (its board limit), before the board is made.
    kinarow::check_memory(rows, cols, resources.board_limit_mib())?;
    let game = Mnk::new(rows, cols, k, &blocked)?;
    let mut canonical = vec![rows.to_string(), cols.to_string(), k.to_string()];
    if !blocked.is_empty() {
        canonical.push("blocked".into());
        canonical.extend(blocked.iter().map(|(r, c)| format!("{r},{c}")));
    }
    let spec = GameSpec::new(&GAME_TYPE, canonical);
    let know = match crate::game::solver::shared_table(resources) {
        Some(table) if MnkKnowledge::solver_fits(&game) => MnkKnowledge::with_solver(&game, table),
        _ => MnkKnowledge::new(),
    };
    Ok(Box::new(Playing::new(spec, game, know)))
}
