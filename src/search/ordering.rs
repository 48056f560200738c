//! Move-ordering memory that search keeps between nodes: two killer moves per ply and a history
//! score per (side, move key), both indexed by the game's move keys.

use super::MAX_PLY;
use crate::search::tt::NO_MOVE;

pub struct MoveOrder {
    killers: Vec<[u32; 2]>,
    history: Vec<i64>,
    key_space: usize,
}

impl MoveOrder {
    pub fn new() -> MoveOrder {
        MoveOrder { killers: vec![[NO_MOVE; 2]; MAX_PLY + 2], history: Vec::new(), key_space: 0 }
    }

    /// Prepares for a search of a game whose move keys are below `key_space`: killers are
    /// forgotten, history is kept (halved) if the game is the same size.
    pub fn new_search(&mut self, key_space: usize) {
        for k in &mut self.killers {
            *k = [NO_MOVE; 2];
        }
        if self.key_space != key_space {
            self.key_space = key_space;
            self.history = vec![0; 2 * key_space];
        } else {
            self.history.iter_mut().for_each(|h| *h /= 2);
        }
    }

    pub fn is_killer(&self, ply: usize, key: u32) -> bool {
        self.killers[ply].contains(&key)
    }

    pub fn history(&self, side: usize, key: u32) -> i64 {
        self.history[side * self.key_space + key as usize]
    }

    /// A move searched before the one that caused a cutoff: its history decreases.
    pub fn punish(&mut self, side: usize, key: u32, depth: i32) {
        let d = depth.max(1) as i64;
        let h = &mut self.history[side * self.key_space + key as usize];
        *h = (*h - d * d).max(-(1 << 40));
    }

    /// A move caused a beta cutoff at `ply` with `depth` left.
    pub fn reward(&mut self, side: usize, ply: usize, key: u32, depth: i32) {
        let k = &mut self.killers[ply];
        if k[0] != key {
            k[1] = k[0];
            k[0] = key;
        }
        let d = depth.max(1) as i64;
        let h = &mut self.history[side * self.key_space + key as usize];
        *h = (*h + d * d).min(1 << 40);
    }
}
