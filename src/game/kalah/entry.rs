//! Kalah in the registry: the description `kalah P S [capture empty|standard] [pie]` and the
//! game built with its knowledge ([`super::solver_in_play`]).

use super::description::read;
use super::solver_in_play::KalahKnowledge;
use super::Capture;
use crate::game::any::{AnyGame, GameSpec, GameType, Resources};
use crate::game::playing::Playing;
use anyhow::Result;

pub static GAME_TYPE: GameType = GameType {
    name: "kalah",
    aliases: &["bantumi"],
    size_words: 2,
    usage: "kalah P S [capture empty|standard] [pie] [fen COUNTS/SIDE[/PIE]]",
    about: "Kalah: P pits of S seeds a side, sow and capture, the most seeds in the store wins (kalah 6 4, \
            kalah 6 6; the Manchester referee's kalah 7 7 pie; Bantumi: kalah 6 3)",
    title: "Kalah",
    names: &[("kalah", "kalah 6 4"), ("bantumi", "kalah 6 3")],
    examples: &["kalah 6 4", "kalah 6 6", "kalah 7 7 pie", "kalah 6 3"],
    build,
    solve: Some(super::solve::solve),
    prepare: Some(super::solver_in_play::prepare),
    ..GameType::DEFAULTS
};

fn build(words: &[&str], resources: &Resources) -> Result<Box<dyn AnyGame>> {
    let d = read(words)?;
    let game = d.game()?;
    let mut canonical = vec![d.pits.to_string(), d.seeds.to_string()];
    if d.capture != Capture::Empty {
        canonical.extend(["capture".to_string(), d.capture.name().to_string()]);
    }
    if d.pie {
        canonical.push("pie".into());
    }
    if d.fen.is_some() {
        canonical.extend(["fen".to_string(), super::fen::write(&game)]);
    }
    let spec = GameSpec::new(&GAME_TYPE, canonical);
    Ok(Box::new(Playing::new(spec, game.clone(), KalahKnowledge::new(&game, resources))))
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn descriptions_are_read_and_written_back() {
        assert_eq!(GameSpec::parse("kalah 6 4").unwrap().to_string(), "kalah 6 4");
        assert_eq!(
            GameSpec::parse("kalah 6 3 capture standard pie").unwrap().to_string(),
            "kalah 6 3 capture standard pie"
        );
        assert_eq!(GameSpec::parse("bantumi 6 3 capture empty").unwrap().to_string(), "kalah 6 3");
        for bad in
            ["kalah 6", "kalah 0 4", "kalah +6 4", "kalah 6 4 capture", "kalah 6 4 capture all", "kalah 6 4 swap"]
        {
            assert!(GameSpec::parse(bad).is_err(), "{bad}");
        }
    }
}
