//! How draughts positions are numbered inside a slice.
//!
//! A slice is a [`Material`]: kings and men of the side to move and of the other side. Every
//! stored position has **White to move**: a position with Black to move is turned round first
//! ([`rotate`]: the board rotated 180 degrees and the colours swapped, which is a symmetry of
//! every variant: square `s` goes to `N - 1 - s`, men keep moving "forward"). So a slice holds
//! each position once, and the positions with Black to move of material `wk, wm, bk, bm` are the
//! positions of slice `bk, bm, wk, wm`.
//!
//! The index of a position (side to move first, as "white"):
//!
//! ```text
//! index = men_index * kings + kings_index
//! men_index   = offset[rank(W men among the squares a white man may stand on)]
//!             + rank(B men among the squares a black man may stand on, less the white men's)
//! kings_index = rank(W kings among the squares no man holds) * C(free - wk, bk)
//!             + rank(B kings among those squares, less the white kings')
//! ```
//!
//! where `rank` is the combinatorial (colex) rank of a set of `k` squares given as their
//! positions `p1 < p2 < ... < pk` in a region: `C(p1, 1) + C(p2, 2) + ... + C(pk, k)`. Men never
//! stand on their own promotion row; kings anywhere. The numbering is dense: every index below
//! [`SliceIndex::positions`] is a position (legal or not: both sides' pieces placed, whoever is
//! to move), and every position of the material has one index.
//!
//! The positions with the same men form one contiguous range of `kings` indices (a *men
//! configuration*): the retrograde analysis works one configuration at a time, since only king
//! moves stay inside one.
//!
//! Squares are the board layout's bits ([`Geometry`]); a square's position in a region is the
//! number of region bits below it (a popcount), as square order and bit order agree.

use crate::draughts::board::{Bits, Geometry};
use std::fmt;
use std::marker::PhantomData;

/// Most pieces a slice may hold (two kings and two men a side below this, on either board: the
/// binomial table and the slice ids are sized for it).
pub const MAX_PIECES: u32 = 8;

const fn binomials() -> [[u64; 9]; 65] {
    let mut t = [[0u64; 9]; 65];
    let mut n = 0;
    while n <= 64 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= 8 {
            t[n][k] = if n == 0 {
                0
            } else {
                t[n - 1][k - 1] + t[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    t
}

/// `C(n, k)` for `n <= 64`, `k <= 8`.
pub const BINOM: [[u64; 9]; 65] = binomials();

/// `C(n, k)`.
#[inline(always)]
pub fn binom(n: u32, k: u32) -> u64 {
    BINOM[n as usize][k as usize]
}

/// The pieces of a slice: kings and men of the side to move (called white) and of the other
/// side.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    /// Kings of the side to move.
    pub wk: u8,
    /// Men of the side to move.
    pub wm: u8,
    /// Kings of the other side.
    pub bk: u8,
    /// Men of the other side.
    pub bm: u8,
}

impl Material {
    /// The material of the position with White's pieces `white`, Black's `black`, seen from the
    /// side to move (`white_to_move`).
    pub fn of(white: u64, black: u64, kings: u64, white_to_move: bool) -> Material {
        let (us, them) = if white_to_move {
            (white, black)
        } else {
            (black, white)
        };
        Material {
            wk: (us & kings).count_ones() as u8,
            wm: (us & !kings).count_ones() as u8,
            bk: (them & kings).count_ones() as u8,
            bm: (them & !kings).count_ones() as u8,
        }
    }

    /// Pieces on the board.
    pub const fn pieces(self) -> u32 {
        (self.wk + self.wm + self.bk + self.bm) as u32
    }

    /// Men on the board.
    pub const fn men(self) -> u32 {
        (self.wm + self.bm) as u32
    }

    /// The same pieces with the other side to move.
    pub const fn flip(self) -> Material {
        Material {
            wk: self.bk,
            wm: self.bm,
            bk: self.wk,
            bm: self.wm,
        }
    }

    /// The slice's number in the file header: `wk | wm << 8 | bk << 16 | bm << 24`.
    pub const fn id(self) -> u64 {
        self.wk as u64 | (self.wm as u64) << 8 | (self.bk as u64) << 16 | (self.bm as u64) << 24
    }

    /// A small dense number for lookup tables: each count below 9.
    pub const fn slot(self) -> usize {
        ((self.wk as usize * 9 + self.wm as usize) * 9 + self.bk as usize) * 9 + self.bm as usize
    }

    /// Lookup-table size for [`Material::slot`].
    pub const SLOTS: usize = 9 * 9 * 9 * 9;

    /// Every material of `n` pieces with pieces on both sides, in the order slices are built:
    /// fewer men first (a promotion makes a man a king, so it leads to fewer men), then by
    /// name.
    pub fn all(n: u32) -> Vec<Material> {
        let mut v = Vec::new();
        for wk in 0..=n {
            for wm in 0..=n - wk {
                for bk in 0..=n - wk - wm {
                    let bm = n - wk - wm - bk;
                    if wk + wm == 0 || bk + bm == 0 {
                        continue;
                    }
                    v.push(Material {
                        wk: wk as u8,
                        wm: wm as u8,
                        bk: bk as u8,
                        bm: bm as u8,
                    });
                }
            }
        }
        v.sort_by_key(|m| (m.men(), m.wm.max(m.bm), *m));
        v
    }

    /// Parses a slice name such as `KKMvK` (the side to move first).
    pub fn parse(s: &str) -> Option<Material> {
        let (a, b) = s.split_once(['v', 'V'])?;
        let side = |t: &str| {
            let mut k = 0u8;
            let mut m = 0u8;
            for c in t.chars() {
                match c {
                    'K' | 'k' => k += 1,
                    'M' | 'm' => m += 1,
                    _ => return None,
                }
            }
            Some((k, m))
        };
        let (wk, wm) = side(a)?;
        let (bk, bm) = side(b)?;
        let m = Material { wk, wm, bk, bm };
        (wk + wm > 0 && bk + bm > 0 && m.pieces() <= MAX_PIECES).then_some(m)
    }
}

impl fmt::Display for Material {
    /// `KKMvKM`: the side to move's kings and men, `v`, the other side's.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = |k: u8, m: u8| "K".repeat(k as usize) + &"M".repeat(m as usize);
        write!(f, "{}v{}", side(self.wk, self.wm), side(self.bk, self.bm))
    }
}

/// A bitboard turned round: the board rotated 180 degrees (square `s` to `N - 1 - s`). On the
/// layout of [`crate::draughts::board`] this is a bit reversal of the squares' span (ghost bits
/// go to ghost bits).
#[inline(always)]
pub fn rotate<G: Geometry>(b: u64) -> u64 {
    let span = 64 - G::ALL.leading_zeros();
    b.reverse_bits() >> (64 - span)
}

/// The pieces of `pos` as the tables store it, White to move: (side to move's pieces, the other
/// side's, kings), turned round ([`rotate`]) when Black is to move.
#[inline(always)]
pub fn white_to_move<R: crate::draughts::rules::Rules>(
    pos: &crate::draughts::position::Position<R>,
) -> (u64, u64, u64) {
    if pos.side() == crate::game::color::Color::White {
        (pos.white(), pos.black(), pos.kings())
    } else {
        (
            rotate::<R::Board>(pos.black()),
            rotate::<R::Board>(pos.white()),
            rotate::<R::Board>(pos.kings()),
        )
    }
}

/// The colex rank of the squares of `set` among the squares of `region` (`set` within it).
#[inline(always)]
fn rank(set: u64, region: u64) -> u64 {
    let mut r = 0;
    for (i, b) in Bits(set).enumerate() {
        let p = (region & ((1u64 << b) - 1)).count_ones();
        r += binom(p, i as u32 + 1);
    }
    r
}

/// The positions `p1 < ... < pk` (in `out[..k]`) of the `k`-set of colex rank `r` among `n`
/// positions.
#[inline(always)]
fn unrank_positions(mut r: u64, k: u32, n: u32, out: &mut [u32; 8]) {
    let mut hi = n;
    for i in (1..=k).rev() {
        // The largest p < hi with C(p, i) <= r, by bisection (C(i - 1, i) = 0 <= r).
        let (mut lo, mut top) = (i - 1, hi - 1);
        while lo < top {
            let mid = (lo + top).div_ceil(2);
            if binom(mid, i) <= r {
                lo = mid;
            } else {
                top = mid - 1;
            }
        }
        out[i as usize - 1] = lo;
        r -= binom(lo, i);
        hi = lo;
    }
}

/// The next `k`-set after `p[..k]` (positions below `n`) in colex order; `false` after the
/// last one.
#[inline(always)]
fn next_positions(p: &mut [u32; 8], k: usize, n: u32) -> bool {
    for i in 0..k {
        let limit = if i + 1 < k { p[i + 1] } else { n };
        if p[i] + 1 < limit {
            p[i] += 1;
            for (j, x) in p.iter_mut().enumerate().take(i) {
                *x = j as u32;
            }
            return true;
        }
    }
    false
}

/// The squares of `region` whose positions in it are given by `r`, the colex rank of a `k`-set.
#[inline(always)]
fn unrank(mut r: u64, k: u32, region: u64) -> u64 {
    let mut set = 0;
    let mut n = region.count_ones();
    let mut i = k;
    while i > 0 {
        // The largest p < n with C(p, i) <= r.
        let mut p = n - 1;
        while binom(p, i) > r {
            p -= 1;
        }
        r -= binom(p, i);
        set |= 1u64 << select(region, p);
        n = p;
        i -= 1;
    }
    set
}

/// The bit of the `p`-th (0-based) set bit of `region`.
#[inline(always)]
fn select(mut region: u64, p: u32) -> u32 {
    for _ in 0..p {
        region &= region - 1;
    }
    region.trailing_zeros()
}

/// The numbering of one slice on board `G`.
#[derive(Clone, Debug)]
pub struct SliceIndex<G: Geometry> {
    /// The slice.
    pub material: Material,
    /// Men configurations.
    men_count: u64,
    /// King placements of one men configuration.
    kings: u64,
    /// Black-king placements once the white kings are placed.
    bk_count: u64,
    /// First men index of each white-men rank; one more entry holding `men_count`.
    offsets: Vec<u64>,
    _board: PhantomData<G>,
}

impl<G: Geometry> SliceIndex<G> {
    /// Squares a white man may stand on (not its promotion row).
    pub const WHITE_MEN: u64 = G::ALL & !G::TOP;
    /// Squares a black man may stand on.
    pub const BLACK_MEN: u64 = G::ALL & !G::BOTTOM;

    /// The numbering of `material`'s slice.
    pub fn new(material: Material) -> Self {
        assert!(material.pieces() <= MAX_PIECES);
        let (wm, bm) = (material.wm as u32, material.bm as u32);
        let n_white = binom(Self::WHITE_MEN.count_ones(), wm);
        let mut offsets = Vec::with_capacity(n_white as usize + 1);
        let mut acc = 0u64;
        for r in 0..n_white {
            offsets.push(acc);
            let w = unrank(r, wm, Self::WHITE_MEN);
            acc += binom((Self::BLACK_MEN & !w).count_ones(), bm);
        }
        offsets.push(acc);
        let free = G::SQUARES as u32 - wm - bm;
        let bk_count = binom(free - material.wk as u32, material.bk as u32);
        SliceIndex {
            material,
            men_count: acc,
            kings: binom(free, material.wk as u32) * bk_count,
            bk_count,
            offsets,
            _board: PhantomData,
        }
    }

    /// Positions in the slice.
    pub fn positions(&self) -> u64 {
        self.men_count * self.kings
    }

    /// Men configurations.
    pub fn men_configurations(&self) -> u64 {
        self.men_count
    }

    /// King placements of one men configuration (the length of its index range).
    pub fn king_placements(&self) -> u64 {
        self.kings
    }

    /// The men index of white men `w` and black men `b`.
    #[inline(always)]
    pub fn men_index(&self, w: u64, b: u64) -> u64 {
        self.offsets[rank(w, Self::WHITE_MEN) as usize] + rank(b, Self::BLACK_MEN & !w)
    }

    /// The king index of white kings `wk` and black kings `bk` on the squares no man holds
    /// (`men`: every man).
    #[inline(always)]
    pub fn king_index(&self, men: u64, wk: u64, bk: u64) -> u64 {
        let free = G::ALL & !men;
        rank(wk, free) * self.bk_count + rank(bk, free & !wk)
    }

    /// The index of a position with White (the side to move) on `white`, Black on `black`.
    #[inline(always)]
    pub fn index(&self, white: u64, black: u64, kings: u64) -> u64 {
        let (w, b) = (white & !kings, black & !kings);
        self.men_index(w, b) * self.kings + self.king_index(w | b, white & kings, black & kings)
    }

    /// White and black men of a men index.
    pub fn men_of(&self, men_index: u64) -> (u64, u64) {
        let r = self.offsets.partition_point(|&o| o <= men_index) - 1;
        let w = unrank(r as u64, self.material.wm as u32, Self::WHITE_MEN);
        let b = unrank(
            men_index - self.offsets[r],
            self.material.bm as u32,
            Self::BLACK_MEN & !w,
        );
        (w, b)
    }

    /// White and black kings of a king index, given every man (`men`).
    #[inline(always)]
    pub fn kings_of(&self, men: u64, king_index: u64) -> (u64, u64) {
        let free = G::ALL & !men;
        let wk = unrank(king_index / self.bk_count, self.material.wk as u32, free);
        let bk = unrank(
            king_index % self.bk_count,
            self.material.bk as u32,
            free & !wk,
        );
        (wk, bk)
    }

    /// The king placements of the men `men` (every man), from king index `start` on, in index
    /// order (faster than [`kings_of`](Self::kings_of) one by one).
    pub fn king_walk(&self, men: u64, start: u64) -> KingWalk {
        let free = G::ALL & !men;
        let mut squares = [0u8; 64];
        for (i, s) in Bits(free).enumerate() {
            squares[i] = s;
        }
        let n = free.count_ones();
        let (wk, bk) = (self.material.wk as u32, self.material.bk as u32);
        let mut w = [0u32; 8];
        let mut b = [0u32; 8];
        unrank_positions(start / self.bk_count, wk, n, &mut w);
        unrank_positions(start % self.bk_count, bk, n - wk, &mut b);
        let mut walk = KingWalk {
            squares,
            n,
            wk,
            bk,
            w,
            b,
            white: 0,
            rest: [0; 64],
            left: self.kings - start,
        };
        walk.place_white();
        walk
    }

    /// White and black kings of a king index, given the squares no man holds in order
    /// (`free`, as [`KingWalk`] lists them): faster than [`kings_of`](Self::kings_of).
    #[inline(always)]
    pub fn kings_of_free(&self, free: &[u8], king_index: u64) -> (u64, u64) {
        let n = free.len() as u32;
        let (wk, bk) = (self.material.wk as u32, self.material.bk as u32);
        let mut w = [0u32; 8];
        let mut b = [0u32; 8];
        unrank_positions(king_index / self.bk_count, wk, n, &mut w);
        unrank_positions(king_index % self.bk_count, bk, n - wk, &mut b);
        let mut white = 0u64;
        for &p in &w[..wk as usize] {
            white |= 1u64 << free[p as usize];
        }
        let mut black = 0u64;
        for &q in &b[..bk as usize] {
            // The q-th free square that is not a white king's.
            let mut x = q;
            for &p in &w[..wk as usize] {
                if p <= x {
                    x += 1;
                }
            }
            black |= 1u64 << free[x as usize];
        }
        (white, black)
    }

    /// The position (white, black, kings) of an index, White to move.
    pub fn position_of(&self, index: u64) -> (u64, u64, u64) {
        let (w, b) = self.men_of(index / self.kings);
        let (wk, bk) = self.kings_of(w | b, index % self.kings);
        (w | wk, b | bk, wk | bk)
    }

    /// How far the men have advanced: the rows each man has come from its own first row,
    /// summed over both sides. A man's quiet move adds one; turning the board round keeps it.
    pub fn advancement(w: u64, b: u64) -> u32 {
        let last = G::SIZE - 1;
        Bits(w).map(|s| last - G::row_of_bit(s)).sum::<u32>()
            + Bits(b).map(|s| G::row_of_bit(s)).sum::<u32>()
    }
}

/// The king placements of one men configuration in index order ([`SliceIndex::king_walk`]).
pub struct KingWalk {
    squares: [u8; 64],
    n: u32,
    wk: u32,
    bk: u32,
    w: [u32; 8],
    b: [u32; 8],
    white: u64,
    /// The free squares less the white kings', in order.
    rest: [u8; 64],
    left: u64,
}

impl KingWalk {
    fn place_white(&mut self) {
        self.white = 0;
        for &p in &self.w[..self.wk as usize] {
            self.white |= 1u64 << self.squares[p as usize];
        }
        let mut j = 0;
        for i in 0..self.n as usize {
            if self.white & (1u64 << self.squares[i]) == 0 {
                self.rest[j] = self.squares[i];
                j += 1;
            }
        }
    }

    /// The squares no man holds, in order.
    pub fn free(&self) -> &[u8] {
        &self.squares[..self.n as usize]
    }
}

impl Iterator for KingWalk {
    /// White kings, black kings.
    type Item = (u64, u64);

    #[inline(always)]
    fn next(&mut self) -> Option<(u64, u64)> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let mut black = 0u64;
        for &q in &self.b[..self.bk as usize] {
            black |= 1u64 << self.rest[q as usize];
        }
        let item = (self.white, black);
        if !next_positions(&mut self.b, self.bk as usize, self.n - self.wk) {
            for (j, x) in self.b.iter_mut().enumerate() {
                *x = j as u32;
            }
            if next_positions(&mut self.w, self.wk as usize, self.n) {
                self.place_white();
            }
        }
        Some(item)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::board::{Board8, Board10};

    fn check<G: Geometry>(m: Material) {
        let ix = SliceIndex::<G>::new(m);
        let n = ix.positions();
        let step = (n / 5000).max(1);
        let mut i = 0;
        while i < n {
            let (w, b, k) = ix.position_of(i);
            assert_eq!(Material::of(w, b, k, true), m);
            assert_eq!(w & b, 0);
            assert_eq!(w & !k & G::TOP, 0);
            assert_eq!(b & !k & G::BOTTOM, 0);
            assert_eq!(ix.index(w, b, k), i, "{m} index {i}");
            // The turned-round position is in the flipped slice.
            let f = SliceIndex::<G>::new(m.flip());
            let (rw, rb, rk) = (rotate::<G>(b), rotate::<G>(w), rotate::<G>(k));
            assert_eq!(f.position_of(f.index(rw, rb, rk)), (rw, rb, rk));
            assert_eq!(
                SliceIndex::<G>::advancement(w & !k, b & !k),
                SliceIndex::<G>::advancement(rw & !rk, rb & !rk)
            );
            i += step;
        }
    }

    #[test]
    fn numbering_is_a_bijection() {
        for m in ["KvK", "KMvK", "MvM", "KKvKM", "MMvMK", "KMMvMM"] {
            let m = Material::parse(m).unwrap();
            check::<Board8>(m);
            check::<Board10>(m);
        }
        // Exact count of a small slice: one white man on 28 squares, a black man on the 28
        // squares below the top... less the white man's square when it is one of them.
        let ix = SliceIndex::<Board8>::new(Material::parse("MvM").unwrap());
        assert_eq!(ix.positions(), 4 * 28 + 24 * 27);
    }

    #[test]
    fn walks_follow_the_numbering() {
        for m in ["KvK", "KKvK", "KKKvKM", "MvKK", "KMvKKM", "KKvM"] {
            let m = Material::parse(m).unwrap();
            let ix = SliceIndex::<Board8>::new(m);
            let (w, b) = ix.men_of(ix.men_configurations() / 2);
            let men = w | b;
            for start in [0, 1, ix.king_placements() / 3] {
                let walk = ix.king_walk(men, start);
                let free: Vec<u8> = walk.free().to_vec();
                let mut k = start;
                for (wk, bk) in walk {
                    assert_eq!((wk, bk), ix.kings_of(men, k), "{m} at {k}");
                    assert_eq!((wk, bk), ix.kings_of_free(&free, k));
                    k += 1;
                }
                assert_eq!(k, ix.king_placements());
            }
        }
    }

    #[test]
    fn names() {
        let m = Material::parse("KKMvK").unwrap();
        assert_eq!(m.to_string(), "KKMvK");
        assert_eq!(m.flip().to_string(), "KvKKM");
        assert!(Material::parse("Kv").is_none());
        assert!(Material::parse("KXvK").is_none());
        assert_eq!(Material::all(2).len(), 4);
        assert_eq!(rotate::<Board10>(1), 1 << 53);
        assert_eq!(rotate::<Board8>(1), 1 << 34);
    }
}
