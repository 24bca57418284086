//! Indexing the positions of a sector: one slot per class of the board's 16 symmetries, found by
//! a table lookup and a few bit operations.
//!
//! # Sectors
//!
//! A [`Sector`] is every moving-phase position with `stm` pieces of the side to move and `opp`
//! pieces of the other side on the board, none in hand (`3 <= stm, opp <= 9`). Colours do not
//! matter: a position with Black to move is indexed as the same position with the colours
//! swapped, so the tables hold sector `(a, b)` and sector `(b, a)` and never a colour.
//!
//! # The index
//!
//! A position is the pair (`opp` set, `stm` set) of point sets. The **row** is the symmetry class
//! of the `opp` set (the side that just moved): every set of `opp` points has a representative,
//! the least of its 16 images as a `u32`, and the classes of `k`-point sets are numbered in the
//! order of their representatives ([`SetClasses`], built once). Inside the row, the `stm` set,
//! carried by the symmetry that takes the `opp` set to its representative, is ranked among the
//! `C(24 - opp, stm)` subsets of the points the representative leaves empty (colex order). So
//!
//! ```text
//! index = row * C(24 - opp, stm) + rank(g(stm set) among the points empty of the representative)
//! ```
//!
//! When the representative is fixed by some symmetries besides the identity (its stabiliser), the
//! `stm` set is also carried by each of them and the least rank is taken: every class of positions
//! has exactly one index. The other slots of such rows are **holes**: never the index of a
//! position, skipped by the solver and the verifier, stored as draws: about a fifth of the slots in
//! sectors whose other side has 3 pieces (58 of the 158 classes of 3-point sets are symmetric),
//! 4 to 7% from 10 pieces on the board (measured, `docs/egdb.md`).
//!
//! This layout keeps a position's predecessors (the moves of the side not to move, undone) in one
//! row: they share its `stm` set, which is their `opp` set. The solver walks predecessors far more
//! often than successors.
//!
//! Colex order: the rank of `{p0 < p1 < ... < pk-1}` is `sum C(p_j, j + 1)`, which orders the sets
//! as their bit masks compare, so consecutive ranks are consecutive masks (Gosper's next
//! combination).

use super::symmetry::{SYMMETRIES, apply};
use crate::morris::board::{ALL, POINTS, points};
use std::sync::OnceLock;

/// Most pieces of one side on the board in the moving phase.
pub const MAX_PIECES: u8 = 9;
/// Fewest pieces of a side in the moving phase (with fewer it has lost).
pub const MIN_PIECES: u8 = 3;

const fn binomials() -> [[u64; POINTS + 1]; POINTS + 1] {
    let mut t = [[0u64; POINTS + 1]; POINTS + 1];
    let mut n = 0;
    while n <= POINTS {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
}

/// `BINOM[n][k]`: the number of `k`-point subsets of `n` points (0 when `k > n`).
pub const BINOM: [[u64; POINTS + 1]; POINTS + 1] = binomials();

/// Most points a set may have for [`rank`] (bits counted before a byte, plus the byte's own).
const RANK_BEFORE: usize = MAX_PIECES as usize + 1;

/// `RANK_BYTE[b][c][v]`: the colex rank contribution of byte `b` holding `v` when `c` points of
/// the set lie in the lower bytes.
static RANK_BYTE: [[[u32; 256]; RANK_BEFORE]; 3] = {
    let mut t = [[[0u32; 256]; RANK_BEFORE]; 3];
    let mut b = 0;
    while b < 3 {
        let mut c = 0;
        while c < RANK_BEFORE {
            let mut v = 0;
            while v < 256 {
                let mut sum = 0u64;
                let mut j = c;
                let mut q = 0;
                while q < 8 {
                    if v & (1 << q) != 0 {
                        j += 1;
                        if j <= POINTS {
                            sum += BINOM[8 * b + q][j];
                        }
                    }
                    q += 1;
                }
                t[b][c][v] = sum as u32;
                v += 1;
            }
            c += 1;
        }
        b += 1;
    }
    t
};

/// The colex rank of a set of at most 9 points among the sets of as many points.
#[inline(always)]
pub fn rank(set: u32) -> u64 {
    debug_assert!(set.count_ones() <= MAX_PIECES as u32 && set & !ALL == 0);
    let b0 = set & 0xFF;
    let b1 = (set >> 8) & 0xFF;
    let b2 = (set >> 16) & 0xFF;
    let c1 = b0.count_ones() as usize;
    let c2 = c1 + b1.count_ones() as usize;
    (RANK_BYTE[0][0][b0 as usize] as u64)
        + RANK_BYTE[1][c1.min(RANK_BEFORE - 1)][b1 as usize] as u64
        + RANK_BYTE[2][c2.min(RANK_BEFORE - 1)][b2 as usize] as u64
}

/// The colex rank of `set` among the subsets of as many points of the points outside `taken`
/// (`set & taken == 0`), numbered from the lowest.
#[inline(always)]
pub fn rank_among_free(set: u32, taken: u32) -> u64 {
    debug_assert_eq!(set & taken, 0);
    let mut r = 0;
    for (j, p) in points(set).enumerate() {
        let q = p as u32 - (taken & ((1u32 << p) - 1)).count_ones();
        r += BINOM[q as usize][j + 1];
    }
    r
}

/// The `k`-subset of `0..n` with colex rank `r` (`r < C(n, k)`), as a mask.
#[inline]
pub fn unrank(mut r: u64, n: usize, k: usize) -> u32 {
    let mut set = 0;
    let mut q = n;
    for j in (1..=k).rev() {
        q -= 1;
        while BINOM[q][j] > r {
            q -= 1;
        }
        set |= 1 << q;
        r -= BINOM[q][j];
    }
    set
}

/// The bits of `x` placed, lowest first, on the set bits of `mask` (a software `pdep`).
#[inline(always)]
pub fn deposit(mut x: u32, mut mask: u32) -> u32 {
    let mut out = 0;
    while x != 0 && mask != 0 {
        let low = mask & mask.wrapping_neg();
        if x & 1 != 0 {
            out |= low;
        }
        x >>= 1;
        mask ^= low;
    }
    out
}

/// The next mask with as many bits (Gosper's hack): the next set in colex order. `x != 0`.
#[inline(always)]
pub const fn next_combination(x: u32) -> u32 {
    let c = x & x.wrapping_neg();
    let r = x + c;
    (((r ^ x) >> 2) / c) | r
}

/// The symmetry classes of the sets of `k` points.
pub struct SetClasses {
    /// Points in each set.
    pub k: u8,
    /// By colex rank of a set: its class `<< 4`, or'ed with a symmetry taking it to the class's
    /// representative.
    entry: Vec<u32>,
    /// By class: the representative (the least image as a `u32`).
    reps: Vec<u32>,
    /// By class: the symmetries other than the identity that fix the representative (bit `s`).
    stabilisers: Vec<u16>,
}

impl SetClasses {
    fn build(k: u8) -> SetClasses {
        let n = BINOM[POINTS][k as usize] as usize;
        let mut entry = Vec::with_capacity(n);
        let mut reps = Vec::new();
        let mut stabilisers = Vec::new();
        let mut set: u32 = (1u32 << k) - 1;
        for r in 0..n {
            debug_assert_eq!(rank(set) as usize, r);
            let (mut least, mut sym) = (set, 0);
            for s in 1..SYMMETRIES {
                let image = apply(s, set);
                if image < least {
                    least = image;
                    sym = s;
                }
            }
            if least == set {
                let stab = (1..SYMMETRIES)
                    .filter(|&s| apply(s, set) == set)
                    .fold(0u16, |m, s| m | 1 << s);
                entry.push((reps.len() as u32) << 4);
                reps.push(set);
                stabilisers.push(stab);
            } else {
                // The representative is a smaller mask, so it came first.
                let class = entry[rank(least) as usize] >> 4;
                entry.push(class << 4 | sym as u32);
            }
            if r + 1 < n {
                set = next_combination(set);
            }
        }
        SetClasses {
            k,
            entry,
            reps,
            stabilisers,
        }
    }

    /// The classes of `k`-point sets (`k <= 9`), built on first use.
    pub fn of(k: u8) -> &'static SetClasses {
        static TABLES: [OnceLock<SetClasses>; MAX_PIECES as usize + 1] =
            [const { OnceLock::new() }; MAX_PIECES as usize + 1];
        TABLES[k as usize].get_or_init(|| SetClasses::build(k))
    }

    /// Number of classes.
    pub fn len(&self) -> usize {
        self.reps.len()
    }

    /// Whether there is no class (never: the empty set is one).
    pub fn is_empty(&self) -> bool {
        self.reps.is_empty()
    }

    /// The class of `set` and a symmetry taking `set` to its representative.
    #[inline(always)]
    pub fn class_of(&self, set: u32) -> (usize, usize) {
        let e = self.entry[rank(set) as usize];
        ((e >> 4) as usize, (e & 15) as usize)
    }

    /// The representative of class `c`.
    #[inline(always)]
    pub fn rep(&self, c: usize) -> u32 {
        self.reps[c]
    }

    /// The symmetries other than the identity that fix the representative of class `c`.
    #[inline(always)]
    pub fn stabiliser(&self, c: usize) -> u16 {
        self.stabilisers[c]
    }
}

/// A sector: `stm` pieces of the side to move against `opp`, on the board, none in hand.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sector {
    /// Pieces of the side to move.
    pub stm: u8,
    /// Pieces of the other side.
    pub opp: u8,
}

impl Sector {
    /// The sector with `stm` pieces to move against `opp` (both in `3..=9`).
    pub const fn new(stm: u8, opp: u8) -> Sector {
        assert!(stm >= MIN_PIECES && stm <= MAX_PIECES && opp >= MIN_PIECES && opp <= MAX_PIECES);
        Sector { stm, opp }
    }

    /// The sector of the positions after a move that removes nothing: the other side to move.
    pub const fn mirror(self) -> Sector {
        Sector {
            stm: self.opp,
            opp: self.stm,
        }
    }

    /// Pieces on the board.
    pub const fn pieces(self) -> u8 {
        self.stm + self.opp
    }

    /// The row length: subsets of `stm` points among the points the `opp` set leaves.
    #[inline(always)]
    pub fn row_len(self) -> u64 {
        BINOM[POINTS - self.opp as usize][self.stm as usize]
    }

    /// The classes that number the rows.
    #[inline(always)]
    pub fn rows(self) -> &'static SetClasses {
        SetClasses::of(self.opp)
    }

    /// Slots in the sector (holes included).
    pub fn size(self) -> u64 {
        self.rows().len() as u64 * self.row_len()
    }

    /// The index of the position (`stm` set to move, `opp` set) in this sector, the same for all
    /// 16 symmetric images.
    #[inline]
    pub fn index(self, stm: u32, opp: u32) -> u64 {
        debug_assert_eq!(stm.count_ones(), self.stm as u32);
        debug_assert_eq!(opp.count_ones(), self.opp as u32);
        debug_assert_eq!(stm & opp, 0);
        let rows = self.rows();
        let (row, g) = rows.class_of(opp);
        let rep = rows.rep(row);
        let x = apply(g, stm);
        let mut r = rank_among_free(x, rep);
        let stab = rows.stabiliser(row);
        if stab != 0 {
            r = least_rank(x, rep, stab, r);
        }
        row as u64 * self.row_len() + r
    }

    /// The position of slot `index`: (`stm` set, `opp` set), the opp set a representative.
    #[inline]
    pub fn position(self, index: u64) -> (u32, u32) {
        let len = self.row_len();
        let row = (index / len) as usize;
        let rep = self.rows().rep(row);
        let inner = unrank(index % len, POINTS - self.opp as usize, self.stm as usize);
        (deposit(inner, ALL & !rep), rep)
    }

    /// Whether slot `index` is a hole (not the index of its own position).
    pub fn is_hole(self, index: u64) -> bool {
        let (stm, opp) = self.position(index);
        self.index(stm, opp) != index
    }

    /// The row of the positions whose other side holds `opp`, for [`index_in`](Self::index_in):
    /// the lookup shared by every position with that `opp` set.
    #[inline(always)]
    pub fn row_of(self, opp: u32) -> Row {
        let rows = self.rows();
        let (row, g) = rows.class_of(opp);
        Row {
            base: row as u64 * self.row_len(),
            g,
            rep: rows.rep(row),
            stab: rows.stabiliser(row),
        }
    }

    /// The index of the position with `stm` to move against the `opp` set of `row`
    /// (`self.index(stm, opp)`).
    #[inline(always)]
    pub fn index_in(self, row: &Row, stm: u32) -> u64 {
        let x = apply(row.g, stm);
        let mut r = rank_among_free(x, row.rep);
        if row.stab != 0 {
            r = least_rank(x, row.rep, row.stab, r);
        }
        row.base + r
    }
}

/// A row found by [`Sector::row_of`].
#[derive(Copy, Clone, Debug)]
pub struct Row {
    /// Index of the row's first slot.
    pub base: u64,
    /// A symmetry taking the `opp` set to the representative.
    pub g: usize,
    /// The representative of the `opp` set.
    pub rep: u32,
    /// The representative's stabiliser (identity excluded), as in [`SetClasses::stabiliser`].
    pub stab: u16,
}

/// The least rank of the images of `x` under the stabiliser `stab` of `rep` (and the identity,
/// whose rank is `r`).
#[inline(never)]
pub fn least_rank(x: u32, rep: u32, stab: u16, mut r: u64) -> u64 {
    for h in points(stab as u32) {
        r = r.min(rank_among_free(apply(h as usize, x), rep));
    }
    r
}

/// Every sector, in `3..=9` against `3..=9`.
pub fn all_sectors() -> impl Iterator<Item = Sector> {
    (MIN_PIECES..=MAX_PIECES)
        .flat_map(|a| (MIN_PIECES..=MAX_PIECES).map(move |b| Sector::new(a, b)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::morris::board::bit;

    #[test]
    fn ranks_are_colex() {
        for k in 0..=4usize {
            let n = BINOM[POINTS][k as u8 as usize];
            let mut set: u32 = (1 << k) - 1;
            for r in 0..n {
                assert_eq!(rank(set), r);
                assert_eq!(unrank(r, POINTS, k), set);
                if r + 1 < n {
                    set = next_combination(set);
                }
            }
        }
        let taken = bit(0) | bit(5) | bit(6);
        let free = ALL & !taken;
        for r in 0..BINOM[21][3] {
            let x = deposit(unrank(r, 21, 3), free);
            assert_eq!(x & taken, 0);
            assert_eq!(rank_among_free(x, taken), r);
        }
    }

    #[test]
    fn classes_cover_every_set() {
        // Burnside: the number of classes is the mean over the symmetries of the fixed sets.
        for k in 0..=5u8 {
            let c = SetClasses::of(k);
            let n = BINOM[POINTS][k as usize] as usize;
            let mut fixed = 0;
            let mut set: u32 = (1u32 << k) - 1;
            for r in 0..n {
                fixed += (0..SYMMETRIES).filter(|&s| apply(s, set) == set).count();
                let (class, g) = c.class_of(set);
                assert_eq!(apply(g, set), c.rep(class));
                if r + 1 < n {
                    set = next_combination(set);
                }
            }
            assert_eq!(c.len() * SYMMETRIES, fixed, "k = {k}");
        }
    }

    #[test]
    fn index_is_a_class_function() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for sector in [
            Sector::new(3, 3),
            Sector::new(4, 3),
            Sector::new(3, 5),
            Sector::new(5, 4),
        ] {
            let mut seen = std::collections::HashSet::new();
            for _ in 0..3000 {
                // A random position of the sector.
                let mut pick = |k: u8, taken: u32| {
                    let mut s = 0u32;
                    while s.count_ones() < k as u32 {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        let p = (x % 24) as u32;
                        if (s | taken) & (1 << p) == 0 {
                            s |= 1 << p;
                        }
                    }
                    s
                };
                let opp = pick(sector.opp, 0);
                let stm = pick(sector.stm, opp);
                let i = sector.index(stm, opp);
                assert!(i < sector.size());
                assert!(!sector.is_hole(i));
                let (s2, o2) = sector.position(i);
                assert_eq!(sector.index(s2, o2), i);
                for s in 0..SYMMETRIES {
                    assert_eq!(sector.index(apply(s, stm), apply(s, opp)), i);
                }
                seen.insert(i);
            }
            assert!(seen.len() > 100);
        }
    }
}
