//! A fixed-capacity move list that lives on the stack.
//!
//! This module opts in to `unsafe`: the list keeps its moves in uninitialised storage
//! (no zeroing of 128 entries at every node of the search) and hands out slices of the
//! first `len` entries, which are always initialised. SAFETY comments at each block.
#![allow(unsafe_code)]

use std::mem::MaybeUninit;

use crate::board::Move;

/// Room for every legal move of any legal position (at most 48 quiet moves; capture
/// lists are far shorter after the priority rules).
pub const MAX_MOVES: usize = 128;

/// The legal moves of a position, with the number of capture paths behind each move.
///
/// The arrays are left uninitialised past `len` (the list is made at every node of a
/// search or perft, and clearing 1.5 KiB each time cost a fifth of perft's time).
/// Invariant: entries `0..len` of both arrays are initialised.
pub struct MoveList {
    moves: [MaybeUninit<Move>; MAX_MOVES],
    paths: [MaybeUninit<u32>; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list.
    #[inline(always)]
    pub fn new() -> Self {
        MoveList {
            moves: [const { MaybeUninit::uninit() }; MAX_MOVES],
            paths: [const { MaybeUninit::uninit() }; MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move reached by one path. Ignored if the list is full (cannot happen for
    /// legal positions).
    #[inline(always)]
    pub(crate) fn push(&mut self, mv: Move) {
        if self.len < MAX_MOVES {
            self.moves[self.len].write(mv);
            self.paths[self.len].write(1);
            self.len += 1;
        }
    }

    /// Adds a capture path: a new move, or one more path to a move already listed.
    #[inline]
    pub(crate) fn push_path(&mut self, mv: Move) {
        match self.as_slice().iter().position(|&m| m == mv) {
            Some(i) => {
                let n = self.path_slice()[i] + 1;
                self.paths[i].write(n);
            }
            None => self.push(mv),
        }
    }

    #[inline(always)]
    fn path_slice(&self) -> &[u32] {
        // SAFETY: entries 0..len are initialised (struct invariant) and MaybeUninit<u32>
        // has the layout of u32.
        unsafe { std::slice::from_raw_parts(self.paths.as_ptr().cast::<u32>(), self.len) }
    }

    /// Removes every move.
    #[inline(always)]
    pub fn clear(&mut self) {
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
        // SAFETY: entries 0..len are initialised (struct invariant) and MaybeUninit<Move>
        // has the layout of Move.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr().cast::<Move>(), self.len) }
    }

    /// The moves as a mutable slice (for ordering in the search).
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        // SAFETY: as in `as_slice`; the slice cannot grow past `len`.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr().cast::<Move>(), self.len) }
    }

    /// How many capture paths lead to move `i` (1 for quiet moves).
    #[inline(always)]
    pub fn paths(&self, i: usize) -> u32 {
        self.path_slice().get(i).copied().unwrap_or(0)
    }

    /// Total number of capture paths over all moves.
    pub fn total_paths(&self) -> u64 {
        self.path_slice().iter().map(|&p| p as u64).sum()
    }
}

impl Clone for MoveList {
    fn clone(&self) -> Self {
        let mut copy = MoveList::new();
        for (i, &mv) in self.as_slice().iter().enumerate() {
            copy.push(mv);
            copy.paths[i].write(self.path_slice()[i]);
        }
        copy
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
