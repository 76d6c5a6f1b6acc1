//! A fixed-capacity move list that lives on the stack.

use crate::board::Move;

/// Room for every legal move of any legal position (at most 48 quiet moves; capture
/// lists are far shorter after the priority rules).
pub const MAX_MOVES: usize = 128;

/// The legal moves of a position, with the number of capture paths behind each move.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    paths: [u32; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list.
    #[inline(always)]
    pub fn new() -> Self {
        MoveList { moves: [Move::NONE; MAX_MOVES], paths: [0; MAX_MOVES], len: 0 }
    }

    /// Appends a move reached by one path. Ignored if the list is full (cannot happen for
    /// legal positions).
    #[inline(always)]
    pub(crate) fn push(&mut self, mv: Move) {
        if self.len < MAX_MOVES {
            self.moves[self.len] = mv;
            self.paths[self.len] = 1;
            self.len += 1;
        }
    }

    /// Adds a capture path: a new move, or one more path to a move already listed.
    #[inline]
    pub(crate) fn push_path(&mut self, mv: Move) {
        match self.moves[..self.len].iter().position(|&m| m == mv) {
            Some(i) => self.paths[i] += 1,
            None => self.push(mv),
        }
    }

    /// Removes every move.
    #[inline(always)]
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }

    /// Number of distinct moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there is no move.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves as a slice.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The moves as a mutable slice (for ordering in the search).
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    /// How many capture paths lead to move `i` (1 for quiet moves).
    #[inline(always)]
    pub fn paths(&self, i: usize) -> u32 {
        self.paths[..self.len].get(i).copied().unwrap_or(0)
    }

    /// Total number of capture paths over all moves.
    pub fn total_paths(&self) -> u64 {
        self.paths[..self.len].iter().map(|&p| p as u64).sum()
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl std::ops::DerefMut for MoveList {
    fn deref_mut(&mut self) -> &mut [Move] {
        self.as_mut_slice()
    }
}
