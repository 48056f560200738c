//! Connect-X in the registry: the description `cx M N X` and the game built with its knowledge.

use super::description::read;
use super::{ConnectX, CxKnowledge};
use crate::game::any::{AnyGame, GameSpec, GameType, Resources};
use crate::game::kinarow;
use crate::game::playing::Playing;
use anyhow::Result;

pub static GAME_TYPE: GameType = GameType {
    name: "cx",
    aliases: &["connectx"],
    size_words: 3,
    usage: "cx M N X",
    about: "Connect-X: pieces drop down N columns of M rows, X in a row wins (Connect-4: cx 6 7 4)",
    title: "Connect-X",
    names: &[("connect4", "cx 6 7 4")],
    examples: &["cx 6 7 4"],
    build,
    solve: Some(super::solve::solve),
    book: Some(super::book_maker::make_book),
    prepare: Some(prepare),
    format: Some(&super::columns::FORMAT),
    ..GameType::DEFAULTS
};

/// The exact solver's table, shared with the other K-in-a-row games.
fn prepare(resources: &Resources) {
    crate::game::solver::shared_table(resources);
}

fn build(words: &[&str], resources: &Resources) -> Result<Box<dyn AnyGame>> {
    let (rows, cols, x) = read(words)?;
    // Within the engine's memory (its board limit), before the board is made.
    kinarow::check_memory(rows, cols, resources.board_limit_mib())?;
    let game = ConnectX::new(rows, cols, x)?;
    let spec = GameSpec::new(&GAME_TYPE, vec![rows.to_string(), cols.to_string(), x.to_string()]);
    let know = match crate::game::solver::shared_table(resources) {
        Some(table) if game.solver_fits() => CxKnowledge::with_solver(&game, table),
        _ => CxKnowledge::new(),
    };
    Ok(Box::new(Playing::new(spec, game, know)))
}
