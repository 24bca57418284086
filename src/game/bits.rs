//! Iterating over the set bits of a bitboard: both games keep their pieces as bits (draughts
//! squares in a `u64`, Morris points in the low 24 bits).

/// Iterator over the bit indices of a bitboard, lowest first.
#[derive(Copy, Clone, Debug)]
pub struct Bits(pub u64);

impl Iterator for Bits {
    type Item = u8;
    #[inline(always)]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            None
        } else {
            let b = self.0.trailing_zeros() as u8;
            self.0 &= self.0 - 1;
            Some(b)
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bits {}
