//! One frame per ply of the search (Stockfish's `Stack`, viridithas' `ss[height]`): what a node
//! keeps for itself and what its neighbours on the path read.

use super::tt::NO_MOVE;
use super::{Candidate, Score};

/// The key [`Frame::current`] holds while a node searches a null move (a pass): no game's key
/// (keys are below the game's `move_key_space`).
pub(super) const NULL_MOVE: u32 = u32::MAX - 1;

/// The search's state at one ply. `Run::stack[ply]` belongs to the node at `ply` (the root is
/// ply 0): its move list, killers and static evaluation; the node below reads its `current`
/// move (a null move's child makes none).
pub(super) struct Frame<M> {
    /// The node's move list (reused from node to node at this ply, so that it is not allocated
    /// again).
    pub(super) moves: Vec<Candidate<M>>,
    /// The quiet moves the node searched before a cutoff (their history is lowered: the history
    /// malus).
    pub(super) quiets_tried: Vec<u32>,
    /// The two latest moves that made a cutoff at this ply, newest first (killers), for the
    /// whole search (they are kept from node to node at the ply).
    pub(super) killers: [u32; 2],
    /// The node's static evaluation, once asked (it is asked at most once a node).
    pub(super) static_eval: Option<Score>,
    /// The key of the move being searched from this node ([`NULL_MOVE`]: a pass; [`NO_MOVE`]:
    /// none yet).
    pub(super) current: u32,
    /// The key of a move left out of the node's search ([`NO_MOVE`]: none): a singular
    /// extension's search of the other moves sets it (`Run::singular`); the moves leave it out.
    pub(super) excluded: u32,
    /// The node's table move is singular (see `Selectivity::singular_depth`): it is searched a
    /// ply deeper.
    pub(super) extend_table: bool,
}

impl<M> Frame<M> {
    pub(super) fn new() -> Frame<M> {
        Frame {
            moves: Vec::new(),
            quiets_tried: Vec::new(),
            killers: [NO_MOVE; 2],
            static_eval: None,
            current: NO_MOVE,
            excluded: NO_MOVE,
            extend_table: false,
        }
    }

    /// A new node at this ply: what belonged to the last one is forgotten (not the killers).
    pub(super) fn enter(&mut self) {
        self.static_eval = None;
        self.current = NO_MOVE;
        self.extend_table = false;
    }

    pub(super) fn is_killer(&self, key: u32) -> bool {
        self.killers.contains(&key)
    }

    /// `key` made a cutoff here: the newest killer.
    pub(super) fn add_killer(&mut self, key: u32) {
        if self.killers[0] != key {
            self.killers[1] = self.killers[0];
            self.killers[0] = key;
        }
    }
}
