//! The crate's one small pseudo-random generator: xorshift64*, fixed and the same on every
//! machine, for what must be reproducible from a seed (match openings: random walks and the
//! shuffled ballot deck; Morris sample games for tests, benches and tuning). Not for anything
//! that needs good or secret randomness.
//!
//! Invariant: a seed's sequence never changes: the openings of `tiao match --seed N` and the test
//! positions depend on it.

/// xorshift64* (Vigna), the state never zero.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed` (any value, 0 included).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next 64 bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n > 0`; the slight bias of a modulo is of no concern here).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequences_are_fixed() {
        let mut r = Rng::new(1);
        let a: Vec<u64> = (0..3).map(|_| r.next_u64()).collect();
        let mut r = Rng::new(1);
        assert_eq!(a, (0..3).map(|_| r.next_u64()).collect::<Vec<_>>());
        let mut z = Rng::new(0);
        assert_ne!(z.next_u64(), 0);
        assert!((0..100).all(|_| z.below(7) < 7));
    }
}
