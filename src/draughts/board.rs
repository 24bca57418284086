//! Board geometry of the draughts boards: square numbering, algebraic names, and the bitboard
//! layout in which every diagonal step is one plain shift.
//!
//! # Layout
//!
//! The dark squares are numbered as RULES.md fixes them: seen from White's side, row by row from
//! the **top** row down, left to right. With `W` dark squares per row (5 on 10x10, 4 on 8x8), the
//! 0-based square `s` (square number `s + 1`) sits on bit
//!
//! ```text
//! bit(s) = s + s / (2 * W)
//! ```
//!
//! i.e. every pair of rows takes `2W + 1` bits, the last of which is a *ghost* bit that is never a
//! square. With that padding a step down-left is `+W`, down-right `+(W+1)`, up-right `-W` and
//! up-left `-(W+1)` from every square, and a step off the left or right edge lands on a ghost bit
//! (or off the 64-bit word), never on a real square. Hence no wrap-around masks are needed: a
//! destination is legal exactly when it is in `Geometry::ALL` (in practice, when it is in the
//! empty-squares set, which is a subset of `ALL`).
//!
//! 10x10 (`Board10`), square number → bit:
//!
//! ```text
//!  row 0 (rank 10):   1..5  → 0..4          row 1 (rank 9):  6..10 → 5..9     ghost 10
//!  row 2 (rank 8):  11..15 → 11..15         row 3 (rank 7): 16..20 → 16..20   ghost 21
//!  row 4 (rank 6):  21..25 → 22..26         row 5 (rank 5): 26..30 → 27..31   ghost 32
//!  row 6 (rank 4):  31..35 → 33..37         row 7 (rank 3): 36..40 → 38..42   ghost 43
//!  row 8 (rank 2):  41..45 → 44..48         row 9 (rank 1): 46..50 → 49..53
//! ```
//!
//! 8x8 (`Board8`): 1..4 → 0..3, 5..8 → 4..7, ghost 8, 9..12 → 9..12, 13..16 → 13..16, ghost 17,
//! 17..20 → 18..21, 21..24 → 22..25, ghost 26, 25..28 → 27..30, 29..32 → 31..34.
//!
//! Helpers on that layout: [`step`] (one diagonal step of a whole bitboard), [`first`] and
//! [`free_part`] (along a ray), and `each_direction!`, which writes a loop over the four
//! directions out per direction so that each step is a constant shift.
//!
//! Invariants: `ALL` holds exactly `SQUARES` bits; `BIT_TO_SQ` and `SQ_TO_BIT` are inverse on them;
//! `RAYS[d][b]` is the set of squares reached from bit `b` by repeated steps in direction `d`,
//! excluding `b` itself.

use std::fmt::Debug;

/// Direction indices. Up = toward the top row (White's forward direction).
pub const UP_LEFT: usize = 0;
/// Up and to the right, seen from White.
pub const UP_RIGHT: usize = 1;
/// Down and to the left, seen from White.
pub const DOWN_LEFT: usize = 2;
/// Down and to the right, seen from White.
pub const DOWN_RIGHT: usize = 3;

/// The direction opposite to `d` (`UP_LEFT` <-> `DOWN_RIGHT`, `UP_RIGHT` <-> `DOWN_LEFT`).
#[inline(always)]
pub const fn reverse(d: usize) -> usize {
    3 - d
}

/// Marks a bit that is not a square in `BIT_TO_SQ`.
pub const NO_SQUARE: u8 = u8::MAX;

/// Static facts of one board size. Implemented by [`Board10`] and [`Board8`]; every draughts
/// rules value names one of them, so all geometry constant-folds in the generator.
pub trait Geometry: Copy + Clone + Default + Debug + Send + Sync + 'static {
    /// Files (= ranks) on the board: 10 or 8.
    const SIZE: u32;
    /// Dark squares per row.
    const W: u32 = Self::SIZE / 2;
    /// Number of playable squares (50 or 32).
    const SQUARES: usize = (Self::SIZE * Self::SIZE / 2) as usize;
    /// Bit offsets of the four directions, indexed by `UP_LEFT`..`DOWN_RIGHT`.
    const OFFSETS: [i32; 4] = [
        -(Self::W as i32 + 1),
        -(Self::W as i32),
        Self::W as i32,
        Self::W as i32 + 1,
    ];
    /// Every square's bit.
    const ALL: u64 = all_bits(Self::W);
    /// Row 0 (the top row): White's promotion row.
    const TOP: u64 = row_bits(Self::W, 0);
    /// The last row: Black's promotion row.
    const BOTTOM: u64 = row_bits(Self::W, Self::SIZE - 1);
    /// Bit of each 0-based square.
    const SQ_TO_BIT: [u8; 64] = sq_to_bit(Self::W);
    /// 0-based square of each bit, or [`NO_SQUARE`].
    const BIT_TO_SQ: [u8; 64] = bit_to_sq(Self::W);
    /// Rays: `RAYS[dir][bit]`.
    const RAYS: [[u64; 64]; 4] = rays(Self::W);
    /// Human name of the board.
    const NAME: &'static str;

    /// The bit of square number `n` (1-based), if it is on the board.
    #[inline]
    fn bit_of_number(n: u32) -> Option<u8> {
        if n >= 1 && (n as usize) <= Self::SQUARES {
            Some(Self::SQ_TO_BIT[n as usize - 1])
        } else {
            None
        }
    }

    /// The square number (1-based) of a bit. Panics in debug builds on a ghost bit.
    #[inline]
    fn number_of_bit(bit: u8) -> u32 {
        let s = Self::BIT_TO_SQ[bit as usize];
        debug_assert!(s != NO_SQUARE, "bit {bit} is not a square");
        s as u32 + 1
    }

    /// Row of a bit, 0 = top row (as White sees the board).
    #[inline]
    fn row_of_bit(bit: u8) -> u32 {
        Self::BIT_TO_SQ[bit as usize] as u32 / Self::W
    }

    /// Algebraic coordinates `(file, rank)` of a bit, 0-based (`a1` = `(0, 0)`).
    fn coords_of_bit(bit: u8) -> (u32, u32) {
        let s = Self::BIT_TO_SQ[bit as usize] as u32;
        let row = s / Self::W;
        let col = s % Self::W;
        let file = if row.is_multiple_of(2) {
            2 * col + 1
        } else {
            2 * col
        };
        (file, Self::SIZE - 1 - row)
    }

    /// The bit of the dark square at 0-based `(file, rank)`, if it is a dark square on the board.
    fn bit_of_coords(file: u32, rank: u32) -> Option<u8> {
        if file >= Self::SIZE || rank >= Self::SIZE {
            return None;
        }
        let row = Self::SIZE - 1 - rank;
        // Dark squares: odd files on even rows, even files on odd rows.
        if row.is_multiple_of(2) == file.is_multiple_of(2) {
            return None;
        }
        let s = row * Self::W + file / 2;
        Some(Self::SQ_TO_BIT[s as usize])
    }

    /// Algebraic name of a bit, e.g. `c3`.
    fn algebraic(bit: u8) -> String {
        let (f, r) = Self::coords_of_bit(bit);
        format!("{}{}", (b'a' + f as u8) as char, r + 1)
    }
}

/// The international 10x10 board: squares 1-50.
#[derive(Copy, Clone, Default, Debug, PartialEq, Eq)]
pub struct Board10;

impl Geometry for Board10 {
    const SIZE: u32 = 10;
    const NAME: &'static str = "10x10";
}

/// The 8x8 board: squares 1-32.
#[derive(Copy, Clone, Default, Debug, PartialEq, Eq)]
pub struct Board8;

impl Geometry for Board8 {
    const SIZE: u32 = 8;
    const NAME: &'static str = "8x8";
}

/// One diagonal step of every bit in `b` in direction `dir`.
#[inline(always)]
pub fn step<G: Geometry>(b: u64, dir: usize) -> u64 {
    let o = G::OFFSETS[dir];
    if o > 0 { b << o } else { b >> (-o) }
}

/// The first set bit of `b` walking from the origin in direction `d` (b != 0).
#[inline(always)]
pub fn first<G: Geometry>(b: u64, d: usize) -> u8 {
    debug_assert!(b != 0);
    if G::OFFSETS[d] > 0 {
        b.trailing_zeros() as u8
    } else {
        63 - b.leading_zeros() as u8
    }
}

/// The squares of `ray` (a ray in direction `d`) before its first square in `occupied`.
#[inline(always)]
pub fn free_part<G: Geometry>(ray: u64, d: usize, occupied: u64) -> u64 {
    let o = ray & occupied;
    if o == 0 {
        ray
    } else {
        let n = first::<G>(o, d);
        ray & !(G::RAYS[d][n as usize] | (1u64 << n))
    }
}

/// Runs `$body` once for each direction `UP_LEFT..=DOWN_RIGHT`, with `$d` bound to it, written
/// out four times: in each copy the direction is a constant, so `step` by it is one shift and
/// the direction tests fold. (A `for d in 0..4` loop with a large body is not unrolled by the
/// compiler, and then every step loads its offset and branches on its sign.) Leave a copy early
/// with `break '$label` from a block labelled `'$label`.
macro_rules! each_direction {
    (|$d:ident| $body:block) => {{
        {
            let $d: usize = 0;
            $body
        }
        {
            let $d: usize = 1;
            $body
        }
        {
            let $d: usize = 2;
            $body
        }
        {
            let $d: usize = 3;
            $body
        }
    }};
}
pub(crate) use each_direction;

/// The set-bit iterator, shared with Nine Men's Morris (whose points are bits too).
pub use crate::game::Bits;

const fn bit_index(w: u32, s: u32) -> u32 {
    s + s / (2 * w)
}

const fn all_bits(w: u32) -> u64 {
    let n = 2 * w * w;
    let mut b = 0u64;
    let mut s = 0;
    while s < n {
        b |= 1u64 << bit_index(w, s);
        s += 1;
    }
    b
}

const fn row_bits(w: u32, row: u32) -> u64 {
    let mut b = 0u64;
    let mut c = 0;
    while c < w {
        b |= 1u64 << bit_index(w, row * w + c);
        c += 1;
    }
    b
}

const fn sq_to_bit(w: u32) -> [u8; 64] {
    let mut t = [NO_SQUARE; 64];
    let n = 2 * w * w;
    let mut s = 0;
    while s < n {
        t[s as usize] = bit_index(w, s) as u8;
        s += 1;
    }
    t
}

const fn bit_to_sq(w: u32) -> [u8; 64] {
    let mut t = [NO_SQUARE; 64];
    let n = 2 * w * w;
    let mut s = 0;
    while s < n {
        t[bit_index(w, s) as usize] = s as u8;
        s += 1;
    }
    t
}

const fn rays(w: u32) -> [[u64; 64]; 4] {
    let all = all_bits(w);
    let offsets = [-(w as i32 + 1), -(w as i32), w as i32, w as i32 + 1];
    let mut t = [[0u64; 64]; 4];
    let mut d = 0;
    while d < 4 {
        let mut b = 0;
        while b < 64 {
            if all & (1u64 << b) != 0 {
                let mut ray = 0u64;
                let mut cur = b as i32;
                loop {
                    cur += offsets[d];
                    if cur < 0 || cur >= 64 || all & (1u64 << cur) == 0 {
                        break;
                    }
                    ray |= 1u64 << cur;
                }
                t[d][b] = ray;
            }
            b += 1;
        }
        d += 1;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_geometry<G: Geometry>() {
        assert_eq!(G::ALL.count_ones() as usize, G::SQUARES);
        for s in 0..G::SQUARES {
            let b = G::SQ_TO_BIT[s];
            assert_eq!(G::BIT_TO_SQ[b as usize] as usize, s);
            assert_ne!(G::ALL & (1 << b), 0);
        }
        // Every step from a square lands either on a square that is one file and one rank away
        // or off the board (ghost bit / outside the word): no wrap-around.
        for b in Bits(G::ALL) {
            let (f, r) = G::coords_of_bit(b);
            for d in 0..4 {
                let t = step::<G>(1u64 << b, d) & G::ALL;
                let (df, dr): (i32, i32) = match d {
                    UP_LEFT => (-1, 1),
                    UP_RIGHT => (1, 1),
                    DOWN_LEFT => (-1, -1),
                    _ => (1, -1),
                };
                let (nf, nr) = (f as i32 + df, r as i32 + dr);
                let inside = nf >= 0 && nr >= 0 && nf < G::SIZE as i32 && nr < G::SIZE as i32;
                if inside {
                    let expect = G::bit_of_coords(nf as u32, nr as u32).unwrap();
                    assert_eq!(t, 1u64 << expect, "bit {b} dir {d}");
                } else {
                    assert_eq!(t, 0, "bit {b} dir {d} wraps");
                }
            }
        }
    }

    #[test]
    fn geometry_is_consistent() {
        check_geometry::<Board10>();
        check_geometry::<Board8>();
    }

    #[test]
    fn numbering_matches_rules_md() {
        let name = |n| Board10::algebraic(Board10::bit_of_number(n).unwrap());
        assert_eq!(name(1), "b10");
        assert_eq!(name(5), "j10");
        assert_eq!(name(6), "a9");
        assert_eq!(name(46), "a1");
        assert_eq!(name(50), "i1");
        let name8 = |n| Board8::algebraic(Board8::bit_of_number(n).unwrap());
        assert_eq!(name8(1), "b8");
        assert_eq!(name8(4), "h8");
        assert_eq!(name8(5), "a7");
        assert_eq!(name8(29), "a1");
        assert_eq!(name8(32), "g1");
        // The English long diagonal 4-8-11-15-18-22-25-29 is a1-h8.
        let diag: Vec<String> = [4, 8, 11, 15, 18, 22, 25, 29]
            .iter()
            .map(|&n| name8(n))
            .collect();
        assert_eq!(diag, ["h8", "g7", "f6", "e5", "d4", "c3", "b2", "a1"]);
    }

    #[test]
    fn rays_are_steps() {
        for b in Bits(Board10::ALL) {
            for d in 0..4 {
                let mut ray = 0;
                let mut cur = step::<Board10>(1u64 << b, d) & Board10::ALL;
                while cur != 0 {
                    ray |= cur;
                    cur = step::<Board10>(cur, d) & Board10::ALL;
                }
                assert_eq!(Board10::RAYS[d][b as usize], ray);
            }
        }
    }
}
