//! The 16 symmetries of the Nine Men's Morris board, as fast maps of point sets.
//!
//! The board (see [`board`](crate::morris::board)) keeps each square in one byte of the set,
//! point `i` of a square on bit `i` of its byte, clockwise from the top-left corner. Every
//! symmetry is a composition of three independent parts, applied in this order:
//! - an optional **reflection** through the vertical axis (`i -> (10 - i) mod 8` in every byte:
//!   `a7 <-> g7`, `d7` fixed), a 256-entry byte table;
//! - a **rotation** by a quarter turn `r` times (`i -> i + 2r mod 8`: a rotation of each byte);
//! - an optional **exchange of the inner and outer squares** (bytes 0 and 2 swapped; the lines
//!   across the squares keep their middles, so adjacency and mills are preserved).
//!
//! Symmetry number `s` in `0..16` has rotation `s & 3`, reflection `s & 4`, exchange `s & 8`;
//! `0` is the identity. The tests check that each of the 16 maps preserves adjacency and the
//! mills, and that the 16 are distinct.

use crate::morris::board::ALL;

/// Number of symmetries of the board.
pub const SYMMETRIES: usize = 16;

/// `i -> (10 - i) mod 8` on the bits of one byte.
const REFLECT_BYTE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut v = 0;
    while v < 256 {
        let mut out = 0u8;
        let mut i = 0;
        while i < 8 {
            if v & (1 << i) != 0 {
                out |= 1 << ((10 - i) % 8);
            }
            i += 1;
        }
        t[v] = out;
        v += 1;
    }
    t
};

/// Bit `i` of each byte moves to bit `i + n mod 8` (`n` in `0..8`).
#[inline(always)]
const fn rotate_bytes(x: u32, n: u32) -> u32 {
    if n == 0 {
        return x;
    }
    let keep = ((0xFFu32 << n) & 0xFF) * 0x01_0101;
    ((x << n) & keep) | ((x >> (8 - n)) & !keep & ALL)
}

/// The image of the point set `x` under symmetry `s` (`s < 16`).
#[inline(always)]
pub const fn apply(s: usize, x: u32) -> u32 {
    let mut y = x;
    if s & 4 != 0 {
        y = REFLECT_BYTE[(y & 0xFF) as usize] as u32
            | (REFLECT_BYTE[((y >> 8) & 0xFF) as usize] as u32) << 8
            | (REFLECT_BYTE[((y >> 16) & 0xFF) as usize] as u32) << 16;
    }
    y = rotate_bytes(y, 2 * (s as u32 & 3));
    if s & 8 != 0 {
        y = (y & 0xFF00) | (y >> 16) | ((y & 0xFF) << 16);
    }
    y
}

/// The image of point `p` under symmetry `s`.
#[inline(always)]
pub const fn apply_point(s: usize, p: u8) -> u8 {
    apply(s, 1 << p).trailing_zeros() as u8
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::morris::board::{ADJACENT, MILLS, POINTS, points};

    fn map_set(s: usize, x: u32) -> u32 {
        points(x).fold(0, |a, p| a | 1 << apply_point(s, p))
    }

    #[test]
    fn symmetries_preserve_lines_and_mills() {
        let mut images = Vec::new();
        for s in 0..SYMMETRIES {
            let perm: Vec<u8> = (0..POINTS as u8).map(|p| apply_point(s, p)).collect();
            let mut seen = 0u32;
            for &q in &perm {
                seen |= 1 << q;
            }
            assert_eq!(seen, ALL, "symmetry {s} is a permutation");
            for p in 0..POINTS {
                assert_eq!(
                    map_set(s, ADJACENT[p]),
                    ADJACENT[perm[p] as usize],
                    "symmetry {s} keeps the lines at {p}"
                );
            }
            for m in MILLS {
                assert!(MILLS.contains(&apply(s, m)), "symmetry {s} keeps the mills");
            }
            // The bit-parallel map agrees with the point map on arbitrary sets.
            for x in [0x12_3456u32, 0xFF_00FF, 0xA5_5AA5, 0x80_0001] {
                assert_eq!(apply(s, x), map_set(s, x));
            }
            images.push(perm);
        }
        images.sort();
        images.dedup();
        assert_eq!(images.len(), SYMMETRIES, "16 distinct symmetries");
        assert!((0..POINTS as u8).all(|p| apply_point(0, p) == p));
    }
}
