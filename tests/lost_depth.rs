//! After a loss the exact solver proved, the search's iterations end once it sees the loss (the
//! "depth-255-after-proved-loss" fix, search/deepen.rs): the reported depth stays far below the
//! search's ply cap, 255 before the fix.

use boardbot::bot::{Engine, Options};
use boardbot::game::registry::GameSpec;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The engine's account of its move in `spec` after `moves`, with `seconds` for it.
fn thought(spec: &str, moves: &[&str], seconds: u64) -> boardbot::game::players::Thought {
    let mut e = Engine::new(Options { hash_mb: 16, ..Options::default() });
    e.new_game(&GameSpec::parse(spec).unwrap(), moves.len().is_multiple_of(2), Duration::from_secs(seconds)).unwrap();
    e.set_position(moves).unwrap();
    e.think(Instant::now(), Arc::default()).unwrap().thought.expect("the engine searched")
}

#[test]
fn a_proved_loss_does_not_search_to_the_ply_cap() {
    // Connect-4: three in the bottom row open at both ends, the other side to move; 3 in a row on
    // 4 x 4 and 5 x 5 after the first player's move next to the centre: lost for the side to move.
    for (spec, moves) in
        [("cx 6 7 4", &["3", "3", "2", "2", "4"][..]), ("mnk 4 4 3", &["1 1"]), ("mnk 5 5 3", &["2 2"])]
    {
        let t = thought(spec, moves, 3);
        assert!(t.proved && t.score <= -boardbot::search::WIN_BOUND, "{spec} after {moves:?}: {t}");
        assert!(t.depth < 255, "{spec} after {moves:?}: {t}");
    }
}
