//! The crate's one small pseudo-random generator: xorshift64*, fixed and the same on every
//! machine, for what must be reproducible from a seed (match openings: random walks and the
//! shuffled ballot deck; Morris sample games for tests, benches and tuning). Not for anything
//! that needs good or secret randomness.
//!
//! Also the Zobrist keys ([`zobrist`]) of both games, fixed at compile time, and the FNV-1a
//! checksum of the data files ([`fnv1a`]).
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

/// FNV-1a, 64 bits: the checksum of the training-data chunks and the pattern-weight files (it
/// detects corruption, not tampering).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Zobrist keys: `PIECE[color][is_king][bit]`, and `SIDE` for Black to move (the draughts
/// position's keys; Nine Men's Morris takes its own from the same table).
pub mod zobrist {
    const fn splitmix(mut x: u64) -> u64 {
        x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
        x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        x ^ (x >> 31)
    }

    const fn table() -> [[[u64; 64]; 2]; 2] {
        let mut t = [[[0u64; 64]; 2]; 2];
        let mut seed = 0x7469_616F_u64; // "tiao"
        let mut c = 0;
        while c < 2 {
            let mut k = 0;
            while k < 2 {
                let mut b = 0;
                while b < 64 {
                    seed = splitmix(seed);
                    t[c][k][b] = seed;
                    b += 1;
                }
                k += 1;
            }
            c += 1;
        }
        t
    }

    /// Keys of a piece of colour `c` (0 White, 1 Black), kind `k` (0 man, 1 king), on bit `b`.
    pub const PIECE: [[[u64; 64]; 2]; 2] = table();
    /// Xored in when Black is to move.
    pub const SIDE: u64 = splitmix(0x5349_4445);
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
