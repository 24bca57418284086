//! A fixed-capacity list of moves, for the moves of any game.

use std::fmt;

/// Capacity of a [`MoveList`]. The most moves known in a legal international position is well
/// under 128, and a Nine Men's Morris position (where a mill-closing move times its removal
/// choices counts as several moves) stays under 400. Pushing beyond it is ignored (and caught by
/// a debug assertion), never undefined behaviour.
pub const MAX_MOVES: usize = 512;

/// A fixed-capacity list of moves (of any game: `M` is the game's move).
/// Callers on hot paths allocate one per ply once and reuse it.
#[derive(Clone)]
pub struct MoveList<M: Copy + Default> {
    moves: [M; MAX_MOVES],
    len: usize,
}

impl<M: Copy + Default> Default for MoveList<M> {
    fn default() -> Self {
        MoveList {
            moves: [M::default(); MAX_MOVES],
            len: 0,
        }
    }
}

impl<M: Copy + Default> MoveList<M> {
    /// An empty list.
    #[inline(always)]
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends a move (ignored when full).
    #[inline(always)]
    pub fn push(&mut self, m: M) {
        debug_assert!(self.len < MAX_MOVES, "move list overflow");
        if self.len < MAX_MOVES {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }

    /// Number of moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list is empty.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Removes every move.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The moves as a slice.
    #[inline(always)]
    pub fn as_slice(&self) -> &[M] {
        &self.moves[..self.len]
    }

    /// The moves as a mutable slice (for ordering).
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [M] {
        &mut self.moves[..self.len]
    }

    /// Iterator over the moves.
    pub fn iter(&self) -> std::slice::Iter<'_, M> {
        self.as_slice().iter()
    }

    /// Mutable access to element `i`; used by the generator to upgrade a duplicate.
    #[inline(always)]
    pub fn get_mut(&mut self, i: usize) -> &mut M {
        &mut self.moves[..self.len][i]
    }

    /// Shortens the list to `len` moves.
    #[inline(always)]
    pub fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    /// Swaps two moves (for move ordering).
    #[inline(always)]
    pub fn swap(&mut self, i: usize, j: usize) {
        self.as_mut_slice().swap(i, j);
    }
}

impl<M: Copy + Default> std::ops::Index<usize> for MoveList<M> {
    type Output = M;
    fn index(&self, i: usize) -> &M {
        &self.as_slice()[i]
    }
}

impl<'a, M: Copy + Default> IntoIterator for &'a MoveList<M> {
    type Item = &'a M;
    type IntoIter = std::slice::Iter<'a, M>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<M: Copy + Default + fmt::Debug> fmt::Debug for MoveList<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}
