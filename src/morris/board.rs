//! The Nine Men's Morris board: the 24 points, their names, adjacency and the 16 mills, as const
//! tables, plus bit-parallel mill arithmetic on sets of points.
//!
//! # Layout
//!
//! A set of points is a `u32` whose low 24 bits are the points; bits 24..32 are always 0. Point
//! `p` sits on bit `8 * ring + i`: `ring` 0 is the outer square, 1 the middle, 2 the inner one, and
//! `i` runs clockwise round a square from its top-left corner, so even `i` are corners and odd `i`
//! the middles of the sides (the points joined to the neighbouring squares).
//!
//! ```text
//!  7   a7(0)----------d7(1)----------g7(2)
//!      |              |              |
//!  6   |   b6(8)------d6(9)-----f6(10)   |
//!      |   |          |          |   |
//!  5   |   |   c5(16)-d5(17)-e5(18)  |   |
//!      |   |   |             |   |   |
//!  4   a4(7)-b4(15)-c4(23)   e4(19)-f4(11)-g4(3)
//!      |   |   |             |   |   |
//!  3   |   |   c3(22)-d3(21)-e3(20)  |   |
//!      |   |          |          |   |
//!  2   |   b2(14)-----d2(13)----f2(12)   |
//!      |              |              |
//!  1   a1(6)----------d1(5)----------g1(4)
//!      a   b   c      d      e   f   g
//! ```
//!
//! | bit | 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12 | 13 | 14 | 15 | 16 | 17 | 18 | 19 | 20 | 21 | 22 | 23 |
//! |---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|
//! | point | a7 | d7 | g7 | g4 | g1 | d1 | a1 | a4 | b6 | d6 | f6 | f4 | f2 | d2 | b2 | b4 | c5 | d5 | e5 | e4 | e3 | d3 | c3 | c4 |
//!
//! With this layout each square is one byte, a step round a square is a rotation of that byte by
//! one, and a step between squares (odd `i` only) is a shift by 8. The 16 mills are the 12 sides of
//! the three squares (`i`, `i+1`, `i+2` for even `i`, mod 8) and the 4 lines across them (odd `i`
//! on all three rings).
//!
//! Invariants (checked by the tests): `ADJACENT` is symmetric and irreflexive with 32 lines;
//! every point is on exactly two mills, listed in `MILLS_OF`; the bit-parallel [`in_mills`] and
//! [`completing`] agree with the tables.

use crate::game::Bits;

/// Number of points.
pub const POINTS: usize = 24;

/// Every point.
pub const ALL: u32 = (1 << POINTS) - 1;

/// Marks "no point" in a move (a placement has no origin, a quiet move no removal).
pub const NO_POINT: u8 = u8::MAX;

/// The names of the points, by bit (RULES.md's 7x7 grid names).
pub const NAMES: [&str; POINTS] = [
    "a7", "d7", "g7", "g4", "g1", "d1", "a1", "a4", // outer square
    "b6", "d6", "f6", "f4", "f2", "d2", "b2", "b4", // middle square
    "c5", "d5", "e5", "e4", "e3", "d3", "c3", "c4", // inner square
];

/// The point named `name` (lower-case `a1`..`g7`), if it is one.
pub fn point_of_name(name: &str) -> Option<u8> {
    NAMES.iter().position(|&n| n == name).map(|p| p as u8)
}

/// The set holding point `p` alone.
#[inline(always)]
pub const fn bit(p: u8) -> u32 {
    1 << (p as u32 & 31)
}

const fn adjacency() -> [u32; POINTS] {
    let mut t = [0u32; POINTS];
    let mut p = 0;
    while p < POINTS {
        let ring = p / 8;
        let i = p % 8;
        // Round the square.
        t[p] |= 1 << (ring * 8 + (i + 1) % 8);
        t[p] |= 1 << (ring * 8 + (i + 7) % 8);
        // Across the squares, from the middles of the sides.
        if i % 2 == 1 {
            if ring > 0 {
                t[p] |= 1 << (p - 8);
            }
            if ring < 2 {
                t[p] |= 1 << (p + 8);
            }
        }
        p += 1;
    }
    t
}

/// `ADJACENT[p]`: the points joined to `p` by a line.
pub const ADJACENT: [u32; POINTS] = adjacency();

const fn mills() -> [u32; 16] {
    let mut t = [0u32; 16];
    let mut n = 0;
    let mut ring = 0;
    while ring < 3 {
        let mut i = 0;
        while i < 8 {
            t[n] =
                (1 << (ring * 8 + i)) | (1 << (ring * 8 + i + 1)) | (1 << (ring * 8 + (i + 2) % 8));
            n += 1;
            i += 2;
        }
        ring += 1;
    }
    let mut i = 1;
    while i < 8 {
        t[n] = (1 << i) | (1 << (8 + i)) | (1 << (16 + i));
        n += 1;
        i += 2;
    }
    t
}

/// The 16 mills: the sides of the three squares (outer, middle, inner; clockwise from the top),
/// then the four lines across them (top, right, bottom, left).
pub const MILLS: [u32; 16] = mills();

const fn mills_of() -> [[u32; 2]; POINTS] {
    let mut t = [[0u32; 2]; POINTS];
    let mut p = 0;
    while p < POINTS {
        let mut k = 0;
        let mut m = 0;
        while m < 16 {
            if MILLS[m] & (1 << p) != 0 && k < 2 {
                t[p][k] = MILLS[m];
                k += 1;
            }
            m += 1;
        }
        p += 1;
    }
    t
}

/// `MILLS_OF[p]`: the two mills through point `p`.
pub const MILLS_OF: [[u32; 2]; POINTS] = mills_of();

/// `MILLS_OF` padded to 32 rows with masks no set of points contains, for an index `& 31`.
const MILLS_OF_32: [[u32; 2]; 32] = {
    let mut t = [[u32::MAX; 2]; 32];
    let mut p = 0;
    while p < POINTS {
        t[p] = MILLS_OF[p];
        p += 1;
    }
    t
};

/// Corners (even `i`) of the three squares.
const CORNERS: u32 = 0x55_5555;
/// Middles of the sides (odd `i`) of the three squares.
const MIDDLES: u32 = 0xAA_AAAA;
/// Middles of the outer square's sides.
const OUTER_MIDDLES: u32 = 0xAA;

/// Bit `i` of each square gets bit `i + n` of the same square (rotation toward lower indices).
#[inline(always)]
const fn down(x: u32, n: u32) -> u32 {
    let keep = (0xFFu32 >> n) * 0x01_0101; // bits that stay in their byte
    ((x >> n) & keep) | ((x << (8 - n)) & !keep & ALL)
}

/// Bit `i` of each square gets bit `i - n` of the same square (rotation toward higher indices).
#[inline(always)]
const fn up(x: u32, n: u32) -> u32 {
    let keep = ((0xFFu32 << n) & 0xFF) * 0x01_0101;
    ((x << n) & keep) | ((x >> (8 - n)) & !keep & ALL)
}

/// Directions of a step along a line: round a square toward higher `i` (clockwise), toward lower
/// `i`, across the squares inward (outer to middle to inner) and outward. `d ^ 1` is the reverse
/// of `d`.
pub const DIRECTIONS: usize = 4;

/// The points reached by one step in direction `d` from the points of `set` (taken or not).
#[inline(always)]
pub const fn step(set: u32, d: usize) -> u32 {
    match d {
        0 => up(set, 1),
        1 => down(set, 1),
        2 => (set & MIDDLES & 0xFFFF) << 8,
        _ => (set & MIDDLES & 0xFF_FF00) >> 8,
    }
}

const fn step_from() -> [[u8; 32]; DIRECTIONS] {
    let mut t = [[NO_POINT; 32]; DIRECTIONS];
    let mut d = 0;
    while d < DIRECTIONS {
        let mut p = 0;
        while p < POINTS {
            let back = step(1 << p, d ^ 1);
            if back != 0 {
                t[d][p] = back.trailing_zeros() as u8;
            }
            p += 1;
        }
        d += 1;
    }
    t
}

/// `STEP_FROM[d][p]`: the point from which a step in direction `d` reaches `p` ([`NO_POINT`]
/// where none does); 32 a row, for an index `& 31`.
pub const STEP_FROM: [[u8; 32]; DIRECTIONS] = step_from();

/// The points of `pieces` that stand in a complete mill of `pieces`.
#[inline]
pub const fn in_mills(pieces: u32) -> u32 {
    // Sides of the squares: a mill starts at each corner i with i+1 and i+2 also occupied.
    let starts = pieces & down(pieces, 1) & down(pieces, 2) & CORNERS;
    let sides = starts | up(starts, 1) | up(starts, 2);
    // Lines across the squares.
    let across = pieces & (pieces >> 8) & (pieces >> 16) & OUTER_MIDDLES;
    sides | across | (across << 8) | (across << 16)
}

/// The points (empty or not) that would complete a mill of `pieces` together with two of them.
#[inline]
pub const fn completing(pieces: u32) -> u32 {
    let (next1, next2) = (down(pieces, 1), down(pieces, 2));
    let (prev1, prev2) = (up(pieces, 1), up(pieces, 2));
    // A middle completes its side when both corners beside it are taken; a corner completes
    // either side it starts or ends.
    let sides = (prev1 & next1 & MIDDLES) | (((next1 & next2) | (prev1 & prev2)) & CORNERS);
    let r0 = pieces & OUTER_MIDDLES;
    let r1 = (pieces >> 8) & OUTER_MIDDLES;
    let r2 = (pieces >> 16) & OUTER_MIDDLES;
    sides | (r1 & r2) | ((r0 & r2) << 8) | ((r0 & r1) << 16)
}

/// Whether `pieces` (after a piece arrived on `to`) holds a complete mill through `to`.
#[inline(always)]
pub const fn closes_mill(pieces: u32, to: u8) -> bool {
    let [a, b] = MILLS_OF_32[to as usize & 31];
    // `|`, not `||`: no branch to mispredict.
    (pieces & a == a) | (pieces & b == b)
}

/// The points of a side that the opponent may remove: those not in a mill, or all of them when
/// every one stands in a mill (RULES.md).
#[inline]
pub const fn removable(pieces: u32) -> u32 {
    let free = pieces & !in_mills(pieces);
    if free == 0 { pieces } else { free }
}

/// The points of a set, lowest bit first.
#[inline(always)]
pub const fn points(set: u32) -> Bits {
    Bits(set as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator for random point sets.
    fn sets() -> impl Iterator<Item = u32> {
        let mut x = 0x1234_5678_9abc_def0u64;
        (0..20_000).map(move |_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Mix dense and sparse sets.
            let a = x as u32 & ALL;
            let b = (x >> 32) as u32 & ALL;
            if x & 1 == 0 { a & b } else { a | b }
        })
    }

    #[test]
    fn names_and_geometry() {
        assert_eq!(point_of_name("a7"), Some(0));
        assert_eq!(point_of_name("c4"), Some(23));
        assert_eq!(point_of_name("a2"), None);
        for (p, n) in NAMES.iter().enumerate() {
            assert_eq!(point_of_name(n), Some(p as u8));
        }
        let lines: u32 = ADJACENT.iter().map(|a| a.count_ones()).sum();
        assert_eq!(lines, 64, "32 lines, each counted from both ends");
        for p in 0..POINTS {
            assert_eq!(ADJACENT[p] & (1 << p), 0);
            for q in points(ADJACENT[p]) {
                assert_ne!(
                    ADJACENT[q as usize] & (1 << p),
                    0,
                    "{} {}",
                    NAMES[p],
                    NAMES[q as usize]
                );
            }
            assert_eq!(ADJACENT[p] & !ALL, 0);
        }
        // Spot checks against the drawing.
        let set = |names: &[&str]| {
            names
                .iter()
                .fold(0, |s, n| s | bit(point_of_name(n).unwrap()))
        };
        assert_eq!(
            ADJACENT[point_of_name("d6").unwrap() as usize],
            set(&["b6", "f6", "d7", "d5"])
        );
        assert_eq!(
            ADJACENT[point_of_name("a1").unwrap() as usize],
            set(&["a4", "d1"])
        );
        assert_eq!(
            ADJACENT[point_of_name("c4").unwrap() as usize],
            set(&["c5", "c3", "b4"])
        );
        assert!(MILLS.contains(&set(&["a7", "a4", "a1"])));
        assert!(MILLS.contains(&set(&["d7", "d6", "d5"])));
        assert!(MILLS.contains(&set(&["c3", "d3", "e3"])));
        assert!(MILLS.contains(&set(&["e4", "f4", "g4"])));
        assert_eq!(point_of_name("d4"), None, "the centre is not a point");
    }

    #[test]
    fn steps_are_the_lines() {
        for p in 0..POINTS as u8 {
            let reached = (0..DIRECTIONS).fold(0, |a, d| a | step(bit(p), d));
            assert_eq!(reached, ADJACENT[p as usize], "{}", NAMES[p as usize]);
            for (d, from) in STEP_FROM.iter().enumerate() {
                for q in points(step(bit(p), d)) {
                    assert_eq!(from[q as usize], p);
                }
            }
        }
    }

    #[test]
    fn mills_are_lines() {
        let mut seen = 0u32;
        for (k, &m) in MILLS.iter().enumerate() {
            assert_eq!(m.count_ones(), 3);
            assert!(MILLS[..k].iter().all(|&o| o != m));
            // Three points in a row: the middle one is joined to the other two.
            let middle = points(m).find(|&p| (ADJACENT[p as usize] & m).count_ones() == 2);
            assert!(middle.is_some(), "mill {m:#x} is not a line");
            seen |= m;
        }
        assert_eq!(seen, ALL);
        for (p, &[a, b]) in MILLS_OF.iter().enumerate() {
            assert_ne!(a, b);
            assert!(a & b == 1 << p);
            assert_eq!(MILLS.iter().filter(|&&m| m & (1 << p) != 0).count(), 2);
        }
    }

    #[test]
    fn bit_parallel_matches_tables() {
        for s in sets() {
            let slow_in: u32 = MILLS.iter().filter(|&&m| s & m == m).fold(0, |a, &m| a | m);
            assert_eq!(in_mills(s), slow_in, "in_mills {s:#x}");
            let slow_completing: u32 = MILLS
                .iter()
                .filter(|&&m| (s & m).count_ones() >= 2)
                .fold(0, |a, &m| a | if s & m == m { m } else { m & !s });
            assert_eq!(completing(s), slow_completing, "completing {s:#x}");
            for p in points(ALL & !s) {
                let closes = MILLS_OF[p as usize].iter().any(|&m| (s | bit(p)) & m == m);
                assert_eq!(completing(s) & bit(p) != 0, closes);
                assert_eq!(closes_mill(s | bit(p), p), closes);
            }
            let r = removable(s);
            assert_eq!(r & !s, 0);
            if s & !slow_in != 0 {
                assert_eq!(r, s & !slow_in);
            } else {
                assert_eq!(r, s);
            }
        }
    }
}
