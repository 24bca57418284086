//! The history slot of a move: the contract between a game's moves and the search's history table.
//! [`Game::history_slot`](super::Game::history_slot) must answer below [`HISTORY_SLOTS`]; its
//! default, [`hashed_history_slot`], hashes the move value with a fast multiplicative hasher. It
//! lives here, below both the games and the search, so that neither imports the other.

use std::hash::{Hash, Hasher};

/// log2 of the history table's slots per side.
const HISTORY_BITS: u32 = 12;
/// The history table's slots per side: every [`Game::history_slot`](super::Game::history_slot) is
/// below it.
pub const HISTORY_SLOTS: usize = 1 << HISTORY_BITS;

/// A fast multiplicative hasher for move values (the standard hasher is far slower).
struct MoveHasher(u64);

const MIX: u64 = 0x9E37_79B9_7F4A_7C15;

impl Hasher for MoveHasher {
    #[inline(always)]
    fn finish(&self) -> u64 {
        self.0
    }
    #[inline(always)]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    #[inline(always)]
    fn write_u8(&mut self, x: u8) {
        self.write_u64(x as u64)
    }
    #[inline(always)]
    fn write_u16(&mut self, x: u16) {
        self.write_u64(x as u64)
    }
    #[inline(always)]
    fn write_u32(&mut self, x: u32) {
        self.write_u64(x as u64)
    }
    #[inline(always)]
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64)
    }
    #[inline(always)]
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(26) ^ x).wrapping_mul(MIX);
    }
}

/// A slot below [`HISTORY_SLOTS`] from a hash of the move value: the default
/// [`Game::history_slot`](super::Game::history_slot).
#[inline(always)]
pub fn hashed_history_slot<M: Hash>(m: &M) -> usize {
    let mut h = MoveHasher(0);
    m.hash(&mut h);
    (h.finish() >> (64 - HISTORY_BITS)) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashed_slots_are_in_range_and_tell_moves_apart() {
        assert_ne!(
            hashed_history_slot(&(1u8, 2u8)),
            hashed_history_slot(&(2u8, 1u8))
        );
        assert!((0..1000u32).all(|m| hashed_history_slot(&m) < HISTORY_SLOTS));
    }
}
