//! Move-ordering memory that search keeps between searches: a history score per (side, move
//! key), indexed by the game's move keys. (The killers are per ply: src/search/frame.rs.)

pub struct MoveOrder {
    history: Vec<i64>,
    key_space: usize,
}

impl MoveOrder {
    pub fn new() -> MoveOrder {
        MoveOrder { history: Vec::new(), key_space: 0 }
    }

    /// Prepares for a search of a game whose move keys are below `key_space`: history is kept
    /// (halved) if the game is the same size.
    pub fn new_search(&mut self, key_space: usize) {
        if self.key_space != key_space {
            self.key_space = key_space;
            self.history = vec![0; 2 * key_space];
        } else {
            self.history.iter_mut().for_each(|h| *h /= 2);
        }
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

    /// A move caused a beta cutoff with `depth` left: its history increases.
    pub fn reward(&mut self, side: usize, key: u32, depth: i32) {
        let d = depth.max(1) as i64;
        let h = &mut self.history[side * self.key_space + key as usize];
        *h = (*h + d * d).min(1 << 40);
    }
}
