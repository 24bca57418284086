//! Pattern evaluation: the men and the kings of overlapping windows of the board, each
//! configuration scored by a learned weight, in two phases.
//!
//! **Windows.** A window is 4 files by `R` rows ([`Shape`]: `R` = 4, 5 or 6), so its `2R` dark
//! squares (8, 10 or 12), two in each row. Windows start on every even file and every row
//! ([`Windows`]): with 4x4 windows, 4 x 7 = 28 windows on 10x10 and 3 x 5 = 15 on 8x8; with 4x5,
//! 24 and 12; with 4x6, 20 and 9. So every square lies in several windows and each window sees
//! the men around it. A window's **configuration** is the state of its squares, each empty, a
//! White man or a Black man (kings count as empty), read as a base-3 number: square `i` (in
//! square-number order within the window) is digit `i`, 0 empty, 1 White, 2 Black. So a window
//! has 3^8 = 6561 configurations (3^10 = 59049, 3^12 = 531441), each one weight per phase.
//!
//! **Layers.** The windows are read three times, each reading ([`layer_pieces`]) with its own
//! table and its own shape: for the men ([`MEN`]); for the kings ([`KINGS`], each square empty,
//! a White king or a Black king, men counting as empty); and, in positions with kings, for every
//! piece ([`MIXED`], each square empty, White or Black whether man or king: how the men stand
//! against the kings around them, which the two separate layers, added, cannot see). In a
//! position without kings the second and third layers read empty windows, which add nothing
//! (their empty configuration's weights cancel, below), so they are skipped there, and a layer
//! that is all zero is skipped always. A layer's shape is data: a weight file says it (format
//! version 4), the engine reads it once when it loads the weights.
//!
//! **Indices from bitboards.** A window's men of one colour are extracted as up to 12 bits by a
//! parallel bit extract (`pext`, one instruction with BMI2; a loop elsewhere), and the base-3
//! index is `TERNARY[white bits] + 2 * TERNARY[black bits]`: no loop over squares.
//!
//! **Phases.** Every weight has an opening/middlegame and an endgame value; the score is their
//! interpolation by the pieces on the board ([`phase`]: from the start's count down to none).
//!
//! **Colour symmetry.** The board turned by 180 degrees with the colours swapped is the same
//! position for the other side. Window `w` turned is window `partner(w)` (of the same shape), its
//! square `i` is the partner's square `2R - 1 - i`; the trainer ties the weights of a
//! configuration and its turned, colour-swapped image (one is the negation of the other), so the
//! evaluation of a position and of its mirror agree exactly. A self-turned window's empty
//! configuration (its own image) has no weight.
//!
//! **Material table.** The windows are local: none sees the material as a whole, whose worth
//! depends on all of it (a man up wins far more often without kings than with a king each). So
//! a weight file may also hold a table of one weight per **material signature** `(White men,
//! White kings, Black men, Black kings)`, men clamped to `0..=`[`start_men`] (20 on 10x10, 12
//! on 8x8), kings to `0..=`[`MATERIAL_KINGS`] (3 meaning 3 or more): entry `side(White) *
//! sides + side(Black)` with `side = men * 4 + kings` ([`material_of`], four popcounts; 7056
//! entries on 10x10, 2704 on 8x8). One weight for both phases (the material fixes the phase),
//! in the windows' units, added to their interpolated sum. Colour symmetry: a signature's
//! colour-swapped image ([`material_turned`]) has the negated weight, so a signature that is its
//! own image (equal material) has none. A table that is all zero is not read.
//!
//! **Growing windows.** Weights of smaller windows read through larger ones
//! ([`PatternWeights::lifted`]: each larger window's weight is the sum of the smaller windows it
//! holds, shared among their holders) evaluate every position as before, so a fit of larger
//! windows can start warm from smaller ones.
//!
//! **Weights in the binary.** Each family's trained table is a file in `weights/`, embedded with
//! `include_bytes!`, with a header (magic, format version, family, window count, checksum): a
//! file of another family, version or shape, or cut short, is refused with a clear error
//! ([`PatternWeights::parse`]). Weights are stored in 1/[`UNITS`] of a centi-man. A file of
//! version 1 to 3 holds its first 1 to 3 layers, all 4x4, the whole table; version 4 records
//! each layer's shape and stores one window of each turned pair (the other's weights follow from
//! the colour symmetry), its zero spans run-length coded when that is smaller, or, for a fit
//! that started from smaller windows, as its differences from their read-through
//! ([`ENCODING_READ_THROUGH`]: the smaller windows' weights stored before them). Version 5
//! ([`VERSION`]) is version 4 followed by the material table: a head of its bounds, then the
//! tied half of its entries in zero spans ([`MATERIAL_HEAD_BYTES`]); weights whose table is all
//! zero are written as version 4, and a file of version 1 to 4 reads with a zero table.

use crate::draughts::board::Geometry;
use crate::draughts::eval::weights::Family;
use crate::draughts::rules::Rules;
use crate::game::rng::fnv1a;
use std::fmt;
use std::marker::PhantomData;
use std::sync::OnceLock;

/// Files of every window.
pub const WINDOW_FILES: u32 = 4;
/// Configurations of a 4x4 window (the only shape of format versions 1 to 3): 3^8.
pub const CONFIGS: usize = Shape::Rows4.configs();
/// Most squares of a window (4x6).
pub const MAX_WINDOW_SQUARES: usize = 12;
/// Most windows of any board and shape (4x4 on 10x10).
pub const MAX_WINDOWS: usize = 28;
/// Weights are stored in 1/UNITS of a centi-man.
pub const UNITS: i32 = 16;
/// Phases of a weight: opening/middlegame, endgame.
pub const PHASES: usize = 2;
/// Layers of windows: the men's, the kings' and the mixed.
pub const LAYERS: usize = 3;
/// The men's layer.
pub const MEN: usize = 0;
/// The kings' layer.
pub const KINGS: usize = 1;
/// The mixed layer: every piece, man or king, by colour; empty in a position without kings.
pub const MIXED: usize = 2;
/// The layers' names, as `tiao tune --shape` and the errors spell them.
pub const LAYER_NAMES: [&str; LAYERS] = ["men", "kings", "mixed"];

/// A window's shape: [`WINDOW_FILES`] files by 4, 5 or 6 rows, so 8, 10 or 12 dark squares.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// 4x4: 8 squares, 6561 configurations.
    Rows4,
    /// 4x5: 10 squares, 59049 configurations.
    Rows5,
    /// 4x6: 12 squares, 531441 configurations.
    Rows6,
}

impl Shape {
    /// Every shape, smallest first.
    pub const ALL: [Shape; 3] = [Shape::Rows4, Shape::Rows5, Shape::Rows6];

    /// Rows of the window.
    pub const fn rows(self) -> u32 {
        match self {
            Shape::Rows4 => 4,
            Shape::Rows5 => 5,
            Shape::Rows6 => 6,
        }
    }

    /// The shape of `rows` rows, if there is one.
    pub const fn from_rows(rows: u32) -> Option<Shape> {
        match rows {
            4 => Some(Shape::Rows4),
            5 => Some(Shape::Rows5),
            6 => Some(Shape::Rows6),
            _ => None,
        }
    }

    /// Dark squares of the window: two a row.
    pub const fn squares(self) -> usize {
        2 * self.rows() as usize
    }

    /// Configurations of the window: 3 to the squares.
    pub const fn configs(self) -> usize {
        3usize.pow(self.squares() as u32)
    }

    /// `turned[b] = TERNARY[b with its squares() bits in reverse order]`: the turned window's
    /// digits.
    pub const fn turned_table(self) -> &'static [u32] {
        match self {
            Shape::Rows4 => &TERNARY_TURNED_8,
            Shape::Rows5 => &TERNARY_TURNED_10,
            Shape::Rows6 => &TERNARY_TURNED_12,
        }
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{WINDOW_FILES}x{}", self.rows())
    }
}

impl std::str::FromStr for Shape {
    type Err = String;

    /// `4x4`, `4x5` or `4x6` (files x rows).
    fn from_str(s: &str) -> Result<Shape, String> {
        Shape::ALL
            .into_iter()
            .find(|shape| shape.to_string() == s)
            .ok_or_else(|| format!("window shape {s}: one of 4x4, 4x5, 4x6 (files x rows)"))
    }
}

/// The shape of each layer's windows.
pub type Shapes = [Shape; LAYERS];
/// 4x4 windows in every layer: the shapes of format versions 1 to 3 and the default.
pub const SHAPES_4X4: Shapes = [Shape::Rows4; LAYERS];

/// The shapes as people read them: `men 4x5, kings 4x4, mixed 4x4`.
pub fn shapes_name(shapes: &Shapes) -> String {
    let names: Vec<String> = LAYER_NAMES
        .iter()
        .zip(shapes)
        .map(|(l, s)| format!("{l} {s}"))
        .collect();
    names.join(", ")
}

/// Each layer's `(White, Black)` pieces of a position with White's pieces `white` and Black's
/// `black`, of which `kings` are kings: the one definition of the layers, for the engine and the
/// trainer alike.
#[inline(always)]
pub const fn layer_pieces(white: u64, black: u64, kings: u64) -> [(u64, u64); LAYERS] {
    let mut out = [(0, 0); LAYERS];
    out[MEN] = (white & !kings, black & !kings);
    out[KINGS] = (white & kings, black & kings);
    out[MIXED] = if kings != 0 { (white, black) } else { (0, 0) };
    out
}

/// `TERNARY[b]`: the 12 bits of `b` read as base-3 digits (bit `i` is `3^i`).
pub const TERNARY: [u32; 1 << MAX_WINDOW_SQUARES] = {
    let mut t = [0u32; 1 << MAX_WINDOW_SQUARES];
    let mut b = 0;
    while b < t.len() {
        let mut v = 0u32;
        let mut p = 1u32;
        let mut i = 0;
        while i < MAX_WINDOW_SQUARES {
            if b & (1 << i) != 0 {
                v += p;
            }
            p *= 3;
            i += 1;
        }
        t[b] = v;
        b += 1;
    }
    t
};

/// `out[b] = TERNARY[b with its `squares` bits in reverse order]` for `b < 2^squares`.
const fn turned_ternary<const N: usize>(squares: usize) -> [u32; N] {
    assert!(N == 1 << squares);
    let mut t = [0u32; N];
    let mut b = 0;
    while b < N {
        let mut r = 0usize;
        let mut i = 0;
        while i < squares {
            if b & (1 << i) != 0 {
                r |= 1 << (squares - 1 - i);
            }
            i += 1;
        }
        t[b] = TERNARY[r];
        b += 1;
    }
    t
}

/// The turned digits of an 8-square window ([`Shape::turned_table`]).
pub const TERNARY_TURNED_8: [u32; 1 << 8] = turned_ternary(8);
/// The turned digits of a 10-square window.
pub const TERNARY_TURNED_10: [u32; 1 << 10] = turned_ternary(10);
/// The turned digits of a 12-square window.
pub const TERNARY_TURNED_12: [u32; 1 << 12] = turned_ternary(12);

/// The windows of one shape on a board: their square masks (in the board's bit layout) and
/// their partners under the half turn, in the engine's order: first `pairs` windows, then their
/// partners in the same order (window `pairs + i` is the turned window `i`), then the windows
/// that are their own turned image.
#[derive(Clone, Debug)]
pub struct Windows {
    /// Bits of each window's squares.
    pub masks: [u64; MAX_WINDOWS],
    /// Windows in use.
    pub count: usize,
    /// Pairs of distinct partner windows (the first `2 * pairs` windows).
    pub pairs: usize,
    /// The windows' shape.
    pub shape: Shape,
}

/// 0-based row (0 = the top row) and file (0 = file a) of 0-based square `s`, `w` squares a row.
const fn row_file(w: u32, s: u32) -> (u32, u32) {
    let row = s / w;
    let col = s % w;
    (
        row,
        if row.is_multiple_of(2) {
            2 * col + 1
        } else {
            2 * col
        },
    )
}

const fn bit_of(w: u32, s: u32) -> u32 {
    s + s / (2 * w)
}

/// The mask of the window of 4 files and `rows` rows whose top row is `r0` and left file `f0`.
const fn window_mask(w: u32, r0: u32, f0: u32, rows: u32) -> u64 {
    let mut mask = 0u64;
    let mut s = 0;
    while s < 2 * w * w {
        let (r, f) = row_file(w, s);
        if r >= r0 && r < r0 + rows && f >= f0 && f < f0 + WINDOW_FILES {
            mask |= 1u64 << bit_of(w, s);
        }
        s += 1;
    }
    mask
}

/// Windows of `shape` on the board of `w` dark squares a row: one on every even file and every
/// row where it fits.
pub const fn window_count(w: u32, shape: Shape) -> usize {
    let n = 2 * w;
    ((n - shape.rows() + 1) * ((n - WINDOW_FILES) / 2 + 1)) as usize
}

impl Windows {
    /// The windows of `shape` on the board with `w` dark squares a row: a window on every even
    /// file and every row; the turned window of the one at (row `r0`, file `f0`) is at
    /// (`n - rows - r0`, `n - 4 - f0`).
    pub const fn new(w: u32, shape: Shape) -> Windows {
        let n = 2 * w;
        let rows = shape.rows();
        let mut out = Windows {
            masks: [0; MAX_WINDOWS],
            count: 0,
            pairs: 0,
            shape,
        };
        // The first of each pair: windows above the middle, or on the middle row band and left
        // of the middle file; beside each, its turned window.
        let mut turned = [0u64; MAX_WINDOWS];
        let mut selfs = [0u64; MAX_WINDOWS];
        let mut nselfs = 0;
        let mut r0 = 0;
        while r0 + rows <= n {
            let mut f0 = 0;
            while f0 + WINDOW_FILES <= n {
                let (tr, tf) = (n - rows - r0, n - WINDOW_FILES - f0);
                if r0 == tr && f0 == tf {
                    selfs[nselfs] = window_mask(w, r0, f0, rows);
                    nselfs += 1;
                } else if r0 < tr || (r0 == tr && f0 < tf) {
                    out.masks[out.pairs] = window_mask(w, r0, f0, rows);
                    turned[out.pairs] = window_mask(w, tr, tf, rows);
                    out.pairs += 1;
                }
                f0 += 2;
            }
            r0 += 1;
        }
        // Their partners, in the same order, then the self-turned windows.
        let mut i = 0;
        while i < out.pairs {
            out.masks[out.pairs + i] = turned[i];
            i += 1;
        }
        out.count = 2 * out.pairs;
        let mut k = 0;
        while k < nselfs {
            out.masks[out.count] = selfs[k];
            out.count += 1;
            k += 1;
        }
        out
    }

    /// The window that is window `w` turned by 180 degrees (from the order: `w < pairs` pairs
    /// with `pairs + w`, the windows past `2 * pairs` with themselves).
    #[inline(always)]
    pub const fn partner(&self, w: usize) -> usize {
        if w < self.pairs {
            w + self.pairs
        } else if w < 2 * self.pairs {
            w - self.pairs
        } else {
            w
        }
    }

    /// The windows whose tables a file and the engine keep: the first of each pair and the
    /// self-turned ones (a partner's weights follow from the colour symmetry).
    pub fn kept(&self) -> impl Iterator<Item = usize> + use<> {
        (0..self.pairs).chain(2 * self.pairs..self.count)
    }
}

/// The windows of `ROWS` rows on board `G`, built at compile time (`ROWS` 4, 5 or 6).
pub struct ShapedWindows<G, const ROWS: u32>(PhantomData<G>);

impl<G: Geometry, const ROWS: u32> ShapedWindows<G, ROWS> {
    /// The shape.
    pub const SHAPE: Shape = match Shape::from_rows(ROWS) {
        Some(s) => s,
        None => panic!("windows of 4, 5 or 6 rows"),
    };
    /// The windows.
    pub const WINDOWS: Windows = Windows::new(G::W, Self::SHAPE);
}

/// The windows of `shape` on board `G`.
pub fn windows_of<G: Geometry>(shape: Shape) -> &'static Windows {
    match shape {
        Shape::Rows4 => &ShapedWindows::<G, 4>::WINDOWS,
        Shape::Rows5 => &ShapedWindows::<G, 5>::WINDOWS,
        Shape::Rows6 => &ShapedWindows::<G, 6>::WINDOWS,
    }
}

/// The bits of `x` under `mask`, packed to the low bits in order.
#[inline(always)]
pub fn extract(x: u64, mask: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: the `bmi2` target feature is enabled for this build (checked by the cfg), so
        // the instruction exists on the machine the binary is built for.
        unsafe { std::arch::x86_64::_pext_u64(x, mask) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        let (mut m, mut out, mut k) = (mask, 0u64, 0);
        while m != 0 {
            let b = m & m.wrapping_neg();
            if x & b != 0 {
                out |= 1 << k;
            }
            k += 1;
            m &= m - 1;
        }
        out
    }
}

/// The configuration index of window `mask` (at most [`MAX_WINDOW_SQUARES`] squares) for White
/// men `white` and Black men `black`.
#[inline(always)]
pub fn config(white: u64, black: u64, mask: u64) -> usize {
    TERNARY[extract(white, mask) as usize] as usize
        + 2 * TERNARY[extract(black, mask) as usize] as usize
}

/// The configuration of the turned window for configuration `c` of a window of `squares`
/// squares: digit `i` becomes digit `squares - 1 - i`, and White and Black swap.
pub const fn turned_config(c: usize, squares: usize) -> usize {
    let mut x = c;
    let mut out = 0;
    let mut i = 0;
    // Old digit i, swapped, is new digit squares - 1 - i: read from the bottom, build from the
    // top.
    while i < squares {
        let swapped = match x % 3 {
            1 => 2,
            2 => 1,
            _ => 0,
        };
        out = out * 3 + swapped;
        x /= 3;
        i += 1;
    }
    out
}

/// The greatest common divisor of two positive numbers.
fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// Calls `f(white, black)` for every configuration of a window of `shape`, as its White and
/// Black squares (bit `i` is the window's square `i`): the White squares run over every
/// subset, the Black ones over every subset of the rest, so 3^squares calls.
fn for_each_pieces(shape: Shape, mut f: impl FnMut(u32, u32)) {
    let full = (1u32 << shape.squares()) - 1;
    for white in 0..=full {
        let free = full & !white;
        let mut black = free;
        loop {
            f(white, black);
            if black == 0 {
                break;
            }
            black = (black - 1) & free;
        }
    }
}

/// Calls `f(c, t)` for every configuration `c` of a window of `shape` and its turned
/// configuration `t` ([`turned_config`]), from the digit tables (`for_each_pieces`), with no
/// loop over digits (loading a 4x6 table turns 10 windows of 531441 configurations).
pub fn for_each_config(shape: Shape, mut f: impl FnMut(usize, usize)) {
    let turned = shape.turned_table();
    for_each_pieces(shape, |white, black| {
        let c = TERNARY[white as usize] + 2 * TERNARY[black as usize];
        let t = turned[black as usize] + 2 * turned[white as usize];
        f(c as usize, t as usize);
    });
}

/// Pieces on the board at the start, for the phase: 40 on 10x10, 24 on 8x8.
pub const fn start_pieces<G: Geometry>() -> u32 {
    (G::SIZE - 2) * G::W
}

/// The opening weight of a position with `pieces` on the board, out of `start_pieces`: the
/// endgame weight is `start_pieces - phase`.
#[inline(always)]
pub fn phase<G: Geometry>(pieces: u32) -> u32 {
    pieces.min(start_pieces::<G>())
}

/// Kings a side counts in the material signature at most: [`MATERIAL_KINGS`] stands for that
/// many or more.
pub const MATERIAL_KINGS: u32 = 3;

/// Men a side has at the start on the board of `board` dark squares a row (20 on 10x10, 12 on
/// 8x8): the most men a material signature counts (half of [`start_pieces`]).
pub const fn start_men(board: u32) -> u32 {
    (2 * board - 2) * board / 2
}

/// One side's material in a signature, `men * (MATERIAL_KINGS + 1) + kings`: its men clamped to
/// `0..=start_men(board)`, its kings to `0..=MATERIAL_KINGS`.
#[inline(always)]
pub const fn material_side(board: u32, men: u32, kings: u32) -> usize {
    let men = if men < start_men(board) {
        men
    } else {
        start_men(board)
    };
    let kings = if kings < MATERIAL_KINGS {
        kings
    } else {
        MATERIAL_KINGS
    };
    (men * (MATERIAL_KINGS + 1) + kings) as usize
}

/// The material of one side a signature tells apart on the board of `board` dark squares a row:
/// 84 on 10x10, 52 on 8x8.
pub const fn material_sides(board: u32) -> usize {
    ((start_men(board) + 1) * (MATERIAL_KINGS + 1)) as usize
}

/// Entries of the material table on the board of `board` dark squares a row: a White side
/// against a Black side, 7056 on 10x10, 2704 on 8x8.
pub const fn material_len(board: u32) -> usize {
    material_sides(board) * material_sides(board)
}

/// The material table's entry of a position of board `G` with White's pieces `white` and
/// Black's `black`, of which `kings` are kings: `white side * material_sides + black side`
/// ([`material_side`]), four popcounts.
#[inline(always)]
pub fn material_of<G: Geometry>(white: u64, black: u64, kings: u64) -> usize {
    let side = |pieces: u64| {
        material_side(
            G::W,
            (pieces & !kings).count_ones(),
            (pieces & kings).count_ones(),
        )
    };
    side(white) * material_sides(G::W) + side(black)
}

/// The entry of the colour-swapped signature of entry `i` (Black's material White's and the
/// other way round): its weight is the negation of entry `i`'s.
pub const fn material_turned(board: u32, i: usize) -> usize {
    let sides = material_sides(board);
    (i % sides) * sides + i / sides
}

/// A material signature: each side's men and kings (kings [`MATERIAL_KINGS`] meaning that many
/// or more), as the material table's entries are indexed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Signature {
    /// White's men.
    pub white_men: u32,
    /// White's kings.
    pub white_kings: u32,
    /// Black's men.
    pub black_men: u32,
    /// Black's kings.
    pub black_kings: u32,
}

impl Signature {
    /// The signature of entry `i` of the material table of the board of `board` dark squares a
    /// row.
    pub const fn of_entry(board: u32, i: usize) -> Signature {
        let sides = material_sides(board);
        let (w, b) = ((i / sides) as u32, (i % sides) as u32);
        Signature {
            white_men: w / (MATERIAL_KINGS + 1),
            white_kings: w % (MATERIAL_KINGS + 1),
            black_men: b / (MATERIAL_KINGS + 1),
            black_kings: b % (MATERIAL_KINGS + 1),
        }
    }

    /// Its entry in the material table of the board of `board` dark squares a row (the counts
    /// clamped as [`material_side`] clamps them).
    pub const fn entry(self, board: u32) -> usize {
        material_side(board, self.white_men, self.white_kings) * material_sides(board)
            + material_side(board, self.black_men, self.black_kings)
    }
}

impl fmt::Display for Signature {
    /// `5m 1k v 6m 1k`: White's men and kings against Black's, `3+k` for three kings or more.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = |men: u32, kings: u32| {
            let more = if kings >= MATERIAL_KINGS { "+" } else { "" };
            format!("{men}m {kings}{more}k")
        };
        write!(
            f,
            "{} v {}",
            side(self.white_men, self.white_kings),
            side(self.black_men, self.black_kings)
        )
    }
}

/// A family's pattern weights: per layer, window and configuration, `[opening, endgame]` in
/// 1/[`UNITS`] centi-men from White's view; and the material table, one weight per material
/// signature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternWeights {
    /// The family (as [`family_name`] names it).
    pub family: String,
    /// Dark squares a row of the family's board (5 on 10x10, 4 on 8x8).
    pub board: u32,
    /// Each layer's window shape.
    pub shapes: Shapes,
    /// `table[index(layer, window, config) + phase]`: layer after layer, each its windows'
    /// configurations in turn.
    pub table: Vec<i16>,
    /// `material[entry]` ([`material_of`], [`Signature::entry`]): the weight of a material
    /// signature, one for both phases; colour-symmetric, `material[material_turned(i)] =
    /// -material[i]`, so zero where a signature is its own image. [`material_len`] entries;
    /// all zero in a file of version 1 to 4.
    pub material: Vec<i16>,
}

/// The first bytes of a weight file.
pub const MAGIC: [u8; 8] = *b"TIAOPAT\0";
/// The newest weight-file format version, which this build writes for weights with a material
/// table: [`VERSION_SHAPED`]'s layers, then the material table ([`MATERIAL_HEAD_BYTES`]). Weights
/// whose material table is all zero are written as version 4, byte for byte as the builds
/// before the table wrote them. Versions 1 to 3 (4x4 windows, the whole table) hold their first
/// 1 to 3 layers, so this build reads every version from 1 (the men's layer alone, written
/// before the kings' layer) and 2 (men and kings, before the mixed layer) up: the layers a file
/// lacks read as zero, and the material table of a file of version 1 to 4 as zero.
pub const VERSION: u16 = 5;
/// The format version of each layer's shape in the header and one window of each turned pair
/// stored, without a material table.
pub const VERSION_SHAPED: u16 = 4;
/// The last version of 4x4 windows and whole tables, all [`LAYERS`] layers.
pub const VERSION_WHOLE: u16 = LAYERS as u16;
/// The version of the files of the men's layer alone.
pub const VERSION_MEN_ONLY: u16 = 1;
/// Bytes of the header: magic 8, version 2, window count 2 (of every layer from version 4),
/// family name 16, checksum 8 (FNV-1a of everything after the header).
pub const HEADER_BYTES: usize = 36;
/// Bytes of version 4's table head, after the header: each layer's rows, and the encoding.
pub const SHAPE_BYTES: usize = LAYERS + 1;
/// Bytes of version 5's material head, after the layers' weights: the most men and the most
/// kings a side counts ([`start_men`], [`MATERIAL_KINGS`]), one byte each. After it the tied
/// half of the table: the entries of White side `w` against Black side `b` for `w < b`
/// ([`material_side`]), `w` then `b` increasing, in zero spans ([`ENCODING_ZERO_RUNS`]); the
/// other half is their negation, the diagonal (a signature its own image) zero.
pub const MATERIAL_HEAD_BYTES: usize = 2;
/// Version 4's encodings of the kept weights: little-endian int16, one after the other ...
pub const ENCODING_PLAIN: u8 = 0;
/// ... or in spans: a LEB128 count of zeros, a LEB128 count of weights that are not, those
/// weights (little-endian int16), again to the end ...
pub const ENCODING_ZERO_RUNS: u8 = 1;
/// ... or read through a file of smaller windows ([`PatternWeights::lifted`]): that file's
/// shapes (one byte of rows a layer), the LEB128 byte length of its kept weights in zero spans,
/// those spans, then each kept weight's difference (modulo 2^16) from the read-through value, in
/// zero spans. A fit that starts from smaller windows leaves untouched every configuration its
/// data never shows, so most differences are zero and the file stays near the smaller one's size.
pub const ENCODING_READ_THROUGH: u8 = 2;

/// Why a weight file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WeightsError {
    /// Not a weight file.
    NotWeights,
    /// A format version this build does not read.
    Version(u16),
    /// The weights of another family than expected.
    Family { expected: String, found: String },
    /// Window count, shape or length that do not fit the family.
    Shape(String),
    /// A material table (version 5) of another size than the board's, or of the wrong length.
    Material(String),
    /// The file ends before its table does.
    Truncated,
    /// The data does not match the checksum.
    Checksum,
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightsError::NotWeights => write!(f, "not a tiao pattern-weight file (no 'TIAOPAT')"),
            WeightsError::Version(v) => {
                write!(
                    f,
                    "pattern weights of format version {v}; this build reads {VERSION_MEN_ONLY} to {VERSION}"
                )
            }
            WeightsError::Family { expected, found } => {
                write!(
                    f,
                    "pattern weights of family {found}, where {expected} is needed"
                )
            }
            WeightsError::Shape(s) => write!(f, "pattern weights of the wrong shape: {s}"),
            WeightsError::Material(s) => write!(f, "pattern weights' material table: {s}"),
            WeightsError::Truncated => {
                write!(
                    f,
                    "pattern weights cut short: the file ends inside its table"
                )
            }
            WeightsError::Checksum => write!(f, "pattern weights do not match their checksum"),
        }
    }
}

impl std::error::Error for WeightsError {}

/// The family name of a variant's weights (the same families as the hand-made weights).
pub const fn family_name<R: Rules>() -> &'static str {
    Family::of::<R>().name()
}

/// Appends `v` as LEB128.
fn push_varint(out: &mut Vec<u8>, mut v: usize) {
    while v >= 0x80 {
        out.push((v as u8 & 0x7f) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Reads a LEB128 number at `*at`, moving past it.
fn read_varint(bytes: &[u8], at: &mut usize) -> Result<usize, WeightsError> {
    let mut v = 0usize;
    for shift in (0..64).step_by(7) {
        let b = *bytes.get(*at).ok_or(WeightsError::Truncated)?;
        *at += 1;
        v |= ((b & 0x7f) as usize) << shift;
        if b & 0x80 == 0 {
            return Ok(v);
        }
    }
    Err(WeightsError::Shape(
        "a run length of more than 64 bits".into(),
    ))
}

/// `values` in zero spans ([`ENCODING_ZERO_RUNS`]).
fn zero_runs(values: &[i16]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < values.len() {
        let zeros = values[i..].iter().take_while(|&&v| v == 0).count();
        i += zeros;
        let rest = values[i..].iter().take_while(|&&v| v != 0).count();
        push_varint(&mut out, zeros);
        push_varint(&mut out, rest);
        for v in &values[i..i + rest] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        i += rest;
    }
    out
}

/// The `n` values of `bytes` in zero spans; every byte must be used.
fn from_zero_runs(bytes: &[u8], n: usize) -> Result<Vec<i16>, WeightsError> {
    let mut at = 0;
    let out = read_zero_runs(bytes, &mut at, n)?;
    all_read(bytes, at)?;
    Ok(out)
}

/// The `n` values in zero spans at `*at` of `bytes`, moving past them.
fn read_zero_runs(bytes: &[u8], at: &mut usize, n: usize) -> Result<Vec<i16>, WeightsError> {
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let zeros = read_varint(bytes, at)?;
        let rest = read_varint(bytes, at)?;
        if zeros.saturating_add(rest) > n - out.len() {
            return Err(WeightsError::Shape(format!(
                "zero spans of more than the table's {n} weights"
            )));
        }
        out.resize(out.len() + zeros, 0);
        let end = at.saturating_add(2 * rest);
        let literal = bytes.get(*at..end).ok_or(WeightsError::Truncated)?;
        out.extend(
            literal
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]])),
        );
        *at = end;
    }
    Ok(out)
}

/// Whether `bytes` end at `at`: the bytes past a table are refused.
fn all_read(bytes: &[u8], at: usize) -> Result<(), WeightsError> {
    if at == bytes.len() {
        Ok(())
    } else {
        Err(WeightsError::Shape(format!(
            "{} bytes past the table",
            bytes.len() - at
        )))
    }
}

/// The entries of the material table's tied half on the board of `board` dark squares a row
/// ([`MATERIAL_HEAD_BYTES`]): White side `w` against Black side `b` for `w < b`, in order.
fn material_kept(board: u32) -> impl Iterator<Item = usize> {
    let sides = material_sides(board);
    (0..sides).flat_map(move |w| (w + 1..sides).map(move |b| w * sides + b))
}

/// The material table of `board` whose tied half ([`material_kept`]) is `kept`: the other half
/// their negation, the diagonal zero.
fn material_from_kept(board: u32, kept: &[i16]) -> Vec<i16> {
    let mut out = vec![0; material_len(board)];
    for (i, &v) in material_kept(board).zip(kept) {
        out[i] = v;
        out[material_turned(board, i)] = v.saturating_neg();
    }
    out
}

/// The material part of a version-5 file (after the layers' weights): its head, then the tied
/// half in zero spans ([`MATERIAL_HEAD_BYTES`]).
fn material_bytes(board: u32, material: &[i16]) -> Vec<u8> {
    let kept: Vec<i16> = material_kept(board).map(|i| material[i]).collect();
    let mut out = vec![start_men(board) as u8, MATERIAL_KINGS as u8];
    out.extend_from_slice(&zero_runs(&kept));
    out
}

/// The material table of a version-5 file's material part `bytes` (the rest of the file after
/// the layers' weights), for the board of `board` dark squares a row.
fn parse_material(bytes: &[u8], board: u32) -> Result<Vec<i16>, WeightsError> {
    let head = bytes
        .get(..MATERIAL_HEAD_BYTES)
        .ok_or(WeightsError::Truncated)?;
    let (men, kings) = (start_men(board), MATERIAL_KINGS);
    if head != [men as u8, kings as u8] {
        return Err(WeightsError::Material(format!(
            "signatures of 0 to {} men and 0 to {} kings a side, where this board's count 0 to \
             {men} men and 0 to {kings} kings",
            head[0], head[1]
        )));
    }
    let n = material_kept(board).count();
    let kept = from_zero_runs(&bytes[MATERIAL_HEAD_BYTES..], n).map_err(|e| match e {
        WeightsError::Shape(s) => WeightsError::Material(s),
        e => e,
    })?;
    Ok(material_from_kept(board, &kept))
}

/// The layers' shapes of a version-4 file's `rows` (one byte a layer).
fn shapes_of(rows: &[u8]) -> Result<Shapes, WeightsError> {
    let mut shapes = SHAPES_4X4;
    for (layer, (shape, &rows)) in shapes.iter_mut().zip(rows).enumerate() {
        *shape = Shape::from_rows(rows as u32).ok_or_else(|| {
            WeightsError::Shape(format!(
                "{} windows of {WINDOW_FILES}x{rows}; this build reads 4x4, 4x5 and 4x6",
                LAYER_NAMES[layer]
            ))
        })?;
    }
    Ok(shapes)
}

/// How many weights a version-4 file keeps for windows of `shapes` on a board of `board` dark
/// squares a row ([`PatternWeights::kept_values`]).
fn kept_len(board: u32, shapes: &Shapes) -> usize {
    shapes
        .iter()
        .map(|&s| Windows::new(board, s).kept().count() * s.configs() * PHASES)
        .sum()
}

/// The smaller windows of `base_shapes` whose kept weights are `base_kept`, as a file gives
/// them back, and their kept weights read through windows of `shapes`: what a read-through
/// file's differences are taken from ([`ENCODING_READ_THROUGH`]), the same on writing and on
/// reading.
fn read_through(
    family: &str,
    board: u32,
    base_shapes: Shapes,
    base_kept: &[i16],
    shapes: Shapes,
) -> Result<(PatternWeights, Vec<i16>), WeightsError> {
    let base = PatternWeights::from_kept(family, board, base_shapes, base_kept);
    let through = base.lifted(shapes)?.kept_values();
    Ok((base, through))
}

impl PatternWeights {
    /// All-zero weights of `family` for the board of `board` dark squares a row, with windows of
    /// `shapes`.
    pub fn zero(family: &str, board: u32, shapes: Shapes) -> PatternWeights {
        let len: usize = shapes
            .iter()
            .map(|&s| window_count(board, s) * s.configs() * PHASES)
            .sum();
        PatternWeights {
            family: family.to_string(),
            board,
            shapes,
            table: vec![0; len],
            material: vec![0; material_len(board)],
        }
    }

    /// Layer `layer`'s windows.
    pub fn windows(&self, layer: usize) -> Windows {
        Windows::new(self.board, self.shapes[layer])
    }

    /// The index in [`PatternWeights::table`] of the opening weight of `config` in `window` of
    /// `layer` (`layer` may be [`LAYERS`]: the end of the table).
    pub fn index(&self, layer: usize, window: usize, config: usize) -> usize {
        let start: usize = self.shapes[..layer]
            .iter()
            .map(|&s| window_count(self.board, s) * s.configs())
            .sum();
        let configs = self.shapes.get(layer).map_or(0, |s| s.configs());
        (start + window * configs + config) * PHASES
    }

    /// Whether some weight of `layer` is not zero.
    pub fn uses(&self, layer: usize) -> bool {
        let start = self.index(layer, 0, 0);
        let end = self.index(layer + 1, 0, 0);
        self.table[start..end].iter().any(|&v| v != 0)
    }

    /// Whether some weight of the material table is not zero (a file of them is of version 5).
    pub fn uses_material(&self) -> bool {
        self.material.iter().any(|&v| v != 0)
    }

    /// The weights a version-4 file keeps: for each layer, its kept windows' ([`Windows::kept`])
    /// configurations and phases in order.
    fn kept_values(&self) -> Vec<i16> {
        let mut out = Vec::new();
        for layer in 0..LAYERS {
            let win = self.windows(layer);
            for w in win.kept() {
                let i = self.index(layer, w, 0);
                out.extend_from_slice(&self.table[i..i + self.shapes[layer].configs() * PHASES]);
            }
        }
        out
    }

    /// The weights of the kept windows `kept` ([`PatternWeights::kept_values`]), with each
    /// partner's weights the negated weights of its turned configurations.
    fn from_kept(family: &str, board: u32, shapes: Shapes, kept: &[i16]) -> PatternWeights {
        let mut out = PatternWeights::zero(family, board, shapes);
        let mut at = 0;
        for (layer, shape) in shapes.into_iter().enumerate() {
            let win = out.windows(layer);
            let n = shape.configs() * PHASES;
            for w in win.kept() {
                let i = out.index(layer, w, 0);
                out.table[i..i + n].copy_from_slice(&kept[at..at + n]);
                at += n;
                if w < win.pairs {
                    let j = out.index(layer, win.partner(w), 0);
                    for_each_config(shape, |c, t| {
                        for ph in 0..PHASES {
                            out.table[j + t * PHASES + ph] =
                                out.table[i + c * PHASES + ph].saturating_neg();
                        }
                    });
                }
            }
        }
        out
    }

    /// These weights read through windows of `shapes`, each layer's as tall as its own or taller
    /// (a warm start for larger windows, `tiao tune --init` with another `--shape`): a larger
    /// window's weight of a configuration is the sum of the weights of the smaller windows it
    /// holds, each smaller window's weight shared equally among the larger windows that hold it,
    /// so that the evaluation is the same (to within a rounding of half a unit a window).
    /// Every smaller window lies in one larger one at least (same files, rows within), and the
    /// sums are taken in integers and rounded half away from zero, so colour-symmetric weights
    /// stay exactly symmetric. A layer whose shape is unchanged is copied, and so is the material
    /// table.
    pub fn lifted(&self, shapes: Shapes) -> Result<PatternWeights, WeightsError> {
        let mut out = PatternWeights::zero(&self.family, self.board, shapes);
        out.material.clone_from(&self.material);
        for layer in 0..LAYERS {
            let (small, large) = (self.shapes[layer], shapes[layer]);
            if large.rows() < small.rows() {
                return Err(WeightsError::Shape(format!(
                    "{} windows of {small} cannot be read through smaller ones of {large}",
                    LAYER_NAMES[layer]
                )));
            }
            let (from, to) = (self.index(layer, 0, 0), self.index(layer + 1, 0, 0));
            if large == small {
                let at = out.index(layer, 0, 0);
                out.table[at..at + (to - from)].copy_from_slice(&self.table[from..to]);
                continue;
            }
            let (sw, lw) = (self.windows(layer), out.windows(layer));
            let holders = |m: u64| lw.masks[..lw.count].iter().filter(|&&b| m & b == m).count();
            // Each smaller window's share is `scale / holders`, in whole numbers.
            let scale = (0..sw.count).fold(1i64, |l, v| {
                let n = holders(sw.masks[v]) as i64;
                l * n / gcd(l, n)
            });
            for w in 0..lw.count {
                let big = lw.masks[w];
                // The smaller windows inside, each with its share and its squares as bits of the
                // larger window's, so that `config` reads its configuration from the larger one's.
                let inside: Vec<(usize, i64, u64)> = (0..sw.count)
                    .filter(|&v| sw.masks[v] & big == sw.masks[v])
                    .map(|v| {
                        let m = sw.masks[v];
                        let share = scale / holders(m) as i64;
                        (self.index(layer, v, 0), share, extract(m, big))
                    })
                    .collect();
                let at = out.index(layer, w, 0);
                for_each_pieces(large, |white, black| {
                    let c = (TERNARY[white as usize] + 2 * TERNARY[black as usize]) as usize;
                    let mut sums = [0i64; PHASES];
                    for &(base, share, within) in &inside {
                        let sub = config(white as u64, black as u64, within);
                        for (ph, sum) in sums.iter_mut().enumerate() {
                            *sum += share * self.table[base + sub * PHASES + ph] as i64;
                        }
                    }
                    for (ph, sum) in sums.into_iter().enumerate() {
                        let rounded = (sum.abs() + scale / 2) / scale * sum.signum();
                        out.table[at + c * PHASES + ph] =
                            rounded.clamp(i16::MIN as i64 + 1, i16::MAX as i64) as i16;
                    }
                });
            }
        }
        Ok(out)
    }

    /// Whether the table is colour-symmetric: every partner window's weights are the negated
    /// weights of the turned configurations, and a self-turned window's configuration that is
    /// its own image has no weight (what the trainer's tying gives, and what a version-4 file
    /// can hold); and the material table's entry of a signature is the negated entry of its
    /// colour-swapped one.
    pub fn is_symmetric(&self) -> bool {
        (0..LAYERS).all(|layer| {
            let win = self.windows(layer);
            let shape = self.shapes[layer];
            (0..win.count).all(|w| {
                let (i, j) = (
                    self.index(layer, w, 0),
                    self.index(layer, win.partner(w), 0),
                );
                let mut symmetric = true;
                for_each_config(shape, |c, t| {
                    for ph in 0..PHASES {
                        symmetric &= self.table[i + c * PHASES + ph]
                            == self.table[j + t * PHASES + ph].saturating_neg();
                    }
                });
                symmetric
            })
        }) && (0..self.material.len()).all(|i| {
            self.material[i] == self.material[material_turned(self.board, i)].saturating_neg()
        })
    }

    /// The file form (format [`VERSION_SHAPED`], or [`VERSION`] when the material table is not
    /// all zero): header, shapes, and the kept windows' weights in the smaller encoding, then the
    /// material table's tied half if it is written. The weights must be colour-symmetric
    /// ([`PatternWeights::is_symmetric`]): a partner window's weights, and the material table's
    /// other half, are not written.
    pub fn to_bytes(&self) -> Vec<u8> {
        debug_assert!(
            self.is_symmetric(),
            "a version-4 or 5 file holds symmetric weights"
        );
        self.file_of(&self.plain_body(&self.kept_values()))
    }

    /// The body of [`PatternWeights::to_bytes`]'s file: shapes, then `kept` (these weights'
    /// [`PatternWeights::kept_values`]) in the smaller of the plain and zero-run encodings.
    fn plain_body(&self, kept: &[i16]) -> Vec<u8> {
        let runs = zero_runs(kept);
        let mut body = Vec::with_capacity(SHAPE_BYTES + runs.len().min(2 * kept.len()));
        body.extend(self.shapes.iter().map(|s| s.rows() as u8));
        if runs.len() < 2 * kept.len() {
            body.push(ENCODING_ZERO_RUNS);
            body.extend_from_slice(&runs);
        } else {
            body.push(ENCODING_PLAIN);
            for v in kept {
                body.extend_from_slice(&v.to_le_bytes());
            }
        }
        body
    }

    /// The file form as [`PatternWeights::to_bytes`], read through `base` (the smaller windows
    /// a fit started from, [`ENCODING_READ_THROUGH`]) when that is smaller. `base` must be of
    /// the same family and board, and no layer's windows larger than these. The differences are
    /// taken from `base` as the file gives it back (its kept windows, the partners' weights
    /// following from them), so that reading the file gives these weights exactly.
    pub fn to_bytes_over(&self, base: &PatternWeights) -> Result<Vec<u8>, WeightsError> {
        if base.family != self.family || base.board != self.board {
            return Err(WeightsError::Family {
                expected: self.family.clone(),
                found: base.family.clone(),
            });
        }
        let kept = self.kept_values();
        let plain = self.plain_body(&kept);
        let base_kept = base.kept_values();
        let (base, through) = read_through(
            &base.family,
            base.board,
            base.shapes,
            &base_kept,
            self.shapes,
        )?;
        let diff: Vec<i16> = kept
            .iter()
            .zip(&through)
            .map(|(&v, &l)| v.wrapping_sub(l))
            .collect();
        let base_runs = zero_runs(&base_kept);
        let mut body = Vec::new();
        body.extend(self.shapes.iter().map(|s| s.rows() as u8));
        body.push(ENCODING_READ_THROUGH);
        body.extend(base.shapes.iter().map(|s| s.rows() as u8));
        push_varint(&mut body, base_runs.len());
        body.extend_from_slice(&base_runs);
        body.extend_from_slice(&zero_runs(&diff));
        Ok(self.file_of(if body.len() < plain.len() {
            &body
        } else {
            &plain
        }))
    }

    /// Whether a weight file's weights are stored read through smaller windows
    /// ([`ENCODING_READ_THROUGH`], as [`PatternWeights::to_bytes_over`] writes them when that is
    /// smaller). False for a file too short to say.
    pub fn is_read_through(bytes: &[u8]) -> bool {
        bytes.get(HEADER_BYTES + LAYERS) == Some(&ENCODING_READ_THROUGH)
    }

    /// The file of `layers` (shapes, encoding, the layers' weights): the header before it, and
    /// after it the material table if it is not all zero (then the file is of version 5, else of
    /// version 4).
    fn file_of(&self, layers: &[u8]) -> Vec<u8> {
        let windows: usize = self
            .shapes
            .iter()
            .map(|&s| window_count(self.board, s))
            .sum();
        let mut body = layers.to_vec();
        let version = if self.uses_material() {
            body.extend_from_slice(&material_bytes(self.board, &self.material));
            VERSION
        } else {
            VERSION_SHAPED
        };
        let mut out = Vec::with_capacity(HEADER_BYTES + body.len());
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&version.to_le_bytes());
        out.extend_from_slice(&(windows as u16).to_le_bytes());
        let mut name = [0u8; 16];
        let n = self.family.len().min(16);
        name[..n].copy_from_slice(&self.family.as_bytes()[..n]);
        out.extend_from_slice(&name);
        out.extend_from_slice(&fnv1a(&body).to_le_bytes());
        out.extend_from_slice(&body);
        out
    }

    /// Reads a weight file, which must be of `family`, whose board has `board` dark squares a
    /// row (its windows' shapes are the file's).
    pub fn parse(bytes: &[u8], family: &str, board: u32) -> Result<PatternWeights, WeightsError> {
        Self::parse_with_base(bytes, family, board).map(|(w, _)| w)
    }

    /// Reads a weight file as [`PatternWeights::parse`], with the smaller windows it is read
    /// through when it is so stored ([`ENCODING_READ_THROUGH`]), so that a fit starting from it
    /// can write its own weights over the same base.
    pub fn parse_with_base(
        bytes: &[u8],
        family: &str,
        board: u32,
    ) -> Result<(PatternWeights, Option<PatternWeights>), WeightsError> {
        if bytes.len() < HEADER_BYTES || bytes[..8] != MAGIC {
            return Err(WeightsError::NotWeights);
        }
        let version = u16::from_le_bytes([bytes[8], bytes[9]]);
        if !(VERSION_MEN_ONLY..=VERSION).contains(&version) {
            return Err(WeightsError::Version(version));
        }
        let found_windows = u16::from_le_bytes([bytes[10], bytes[11]]) as usize;
        let name = &bytes[12..28];
        let end = name.iter().position(|&b| b == 0).unwrap_or(16);
        let found = String::from_utf8_lossy(&name[..end]).into_owned();
        if found != family {
            return Err(WeightsError::Family {
                expected: family.to_string(),
                found,
            });
        }
        let sum = u64::from_le_bytes(bytes[28..36].try_into().expect("8 bytes"));
        let body = &bytes[HEADER_BYTES..];
        let out = if version >= VERSION_SHAPED {
            Self::parse_shaped(body, &found, board, found_windows, version == VERSION)?
        } else {
            let whole = Self::parse_whole(body, &found, board, found_windows, version as usize)?;
            (whole, None)
        };
        if fnv1a(body) != sum {
            return Err(WeightsError::Checksum);
        }
        Ok(out)
    }

    /// The table of a file of version 1 to 3: the first `layers` layers of 4x4 windows, whole.
    fn parse_whole(
        body: &[u8],
        family: &str,
        board: u32,
        found_windows: usize,
        layers: usize,
    ) -> Result<PatternWeights, WeightsError> {
        let windows = window_count(board, Shape::Rows4);
        if found_windows != windows {
            return Err(WeightsError::Shape(format!(
                "{found_windows} windows where the board has {windows}"
            )));
        }
        let want = layers * windows * CONFIGS * PHASES * 2;
        if body.len() != want {
            return Err(WeightsError::Shape(format!(
                "{} bytes of weights where {want} are needed",
                body.len()
            )));
        }
        let mut out = PatternWeights::zero(family, board, SHAPES_4X4);
        for (v, c) in out.table.iter_mut().zip(body.chunks_exact(2)) {
            *v = i16::from_le_bytes([c[0], c[1]]);
        }
        Ok(out)
    }

    /// The table of a version-4 file: shapes, encoding, the kept windows' weights; and the
    /// smaller windows it is read through, if it is. With `material` (a version-5 file) the
    /// material table follows the layers' weights.
    fn parse_shaped(
        body: &[u8],
        family: &str,
        board: u32,
        found_windows: usize,
        material: bool,
    ) -> Result<(PatternWeights, Option<PatternWeights>), WeightsError> {
        let head = body.get(..SHAPE_BYTES).ok_or(WeightsError::Truncated)?;
        let shapes = shapes_of(&head[..LAYERS])?;
        let windows: usize = shapes.iter().map(|&s| window_count(board, s)).sum();
        if found_windows != windows {
            return Err(WeightsError::Shape(format!(
                "{found_windows} windows where the board has {windows} of {}",
                shapes_name(&shapes)
            )));
        }
        let n = kept_len(board, &shapes);
        let data = &body[SHAPE_BYTES..];
        let mut base = None;
        // Where the layers' weights end in `data`.
        let mut at = 0;
        let kept = match head[LAYERS] {
            ENCODING_PLAIN => {
                at = 2 * n;
                data.get(..at)
                    .ok_or(WeightsError::Truncated)?
                    .chunks_exact(2)
                    .map(|c| i16::from_le_bytes([c[0], c[1]]))
                    .collect()
            }
            ENCODING_ZERO_RUNS => read_zero_runs(data, &mut at, n)?,
            ENCODING_READ_THROUGH => {
                let base_shapes = shapes_of(data.get(..LAYERS).ok_or(WeightsError::Truncated)?)?;
                at = LAYERS;
                let len = read_varint(data, &mut at)?;
                let end = at
                    .checked_add(len)
                    .filter(|&end| end <= data.len())
                    .ok_or(WeightsError::Truncated)?;
                let base_kept = from_zero_runs(&data[at..end], kept_len(board, &base_shapes))?;
                let (smaller, through) =
                    read_through(family, board, base_shapes, &base_kept, shapes)?;
                at = end;
                let diff = read_zero_runs(data, &mut at, n)?;
                base = Some(smaller);
                through
                    .iter()
                    .zip(&diff)
                    .map(|(&l, &d)| l.wrapping_add(d))
                    .collect()
            }
            e => {
                return Err(WeightsError::Shape(format!(
                    "table encoding {e}; this build reads {ENCODING_PLAIN}, {ENCODING_ZERO_RUNS} \
                     and {ENCODING_READ_THROUGH}"
                )));
            }
        };
        let mut out = PatternWeights::from_kept(family, board, shapes, &kept);
        if material {
            out.material = parse_material(&data[at..], board)?;
        } else {
            all_read(data, at)?;
        }
        Ok((out, base))
    }
}

/// A family's weights as the engine reads them: per layer, one table per pair of partner
/// windows (the partner's weight is the negated weight of its turned configuration, which the
/// trainer's tying guarantees) and one per self-turned window, so half the memory of the file's
/// table; each layer with its shape, read once when the weights are loaded; and the material
/// table, whole (14 KB on 10x10), or nothing when it is all zero.
#[derive(Clone, Debug)]
pub struct EnginePatterns {
    /// Layer after layer, from `start[layer]`: `table[start + slot * configs + config]` is
    /// `[opening, endgame]`, 1/UNITS centi-men, White's view.
    table: Vec<[i16; PHASES]>,
    /// Where each layer's tables start in `table`.
    start: [usize; LAYERS],
    /// Each layer's window shape.
    shapes: Shapes,
    /// Whether each layer has a weight that is not zero.
    used: [bool; LAYERS],
    /// The material table ([`PatternWeights::material`]), empty when it is all zero.
    material: Box<[i16]>,
}

impl EnginePatterns {
    /// The engine's table of `w`, whose board is `G`.
    pub fn new<G: Geometry>(w: &PatternWeights) -> EnginePatterns {
        assert_eq!(w.board, G::W, "weights of the board's windows");
        let mut table = Vec::new();
        let mut start = [0; LAYERS];
        for (layer, &shape) in w.shapes.iter().enumerate() {
            start[layer] = table.len();
            for window in windows_of::<G>(shape).kept() {
                let i = w.index(layer, window, 0);
                let weights = &w.table[i..i + shape.configs() * PHASES];
                table.extend(weights.chunks_exact(PHASES).map(|p| [p[0], p[1]]));
            }
        }
        let material = if w.uses_material() {
            w.material.clone().into_boxed_slice()
        } else {
            Box::default()
        };
        assert!(material.is_empty() || material.len() == material_len(G::W));
        EnginePatterns {
            table,
            start,
            shapes: w.shapes,
            used: std::array::from_fn(|layer| w.uses(layer)),
            material,
        }
    }

    /// Each layer's window shape.
    pub fn shapes(&self) -> Shapes {
        self.shapes
    }

    /// Whether the material table is read (it is not all zero).
    pub fn uses_material(&self) -> bool {
        !self.material.is_empty()
    }

    /// The sums `(opening, endgame)` of one layer's windows for that layer's White and Black
    /// pieces ([`layer_pieces`]): the layer's shape chosen here, once a layer.
    #[inline(always)]
    fn layer<G: Geometry>(&self, layer: usize, pieces: (u64, u64)) -> (i32, i32) {
        match self.shapes[layer] {
            Shape::Rows4 => self.layer_of::<G, 4>(layer, pieces),
            Shape::Rows5 => self.layer_of::<G, 5>(layer, pieces),
            Shape::Rows6 => self.layer_of::<G, 6>(layer, pieces),
        }
    }

    /// [`EnginePatterns::layer`] for windows of `ROWS` rows (constants of the build).
    #[inline(always)]
    fn layer_of<G: Geometry, const ROWS: u32>(
        &self,
        layer: usize,
        (white, black): (u64, u64),
    ) -> (i32, i32) {
        let win = &ShapedWindows::<G, ROWS>::WINDOWS;
        let shape = ShapedWindows::<G, ROWS>::SHAPE;
        let configs = shape.configs();
        let turned = shape.turned_table();
        let table = &self.table[self.start[layer]..];
        let (mut open, mut end) = (0i32, 0i32);
        for i in 0..win.pairs {
            let (m, pm) = (win.masks[i], win.masks[win.pairs + i]);
            let a = config(white, black, m);
            // The partner's configuration, turned into window i's.
            let t = turned[extract(black, pm) as usize] as usize
                + 2 * turned[extract(white, pm) as usize] as usize;
            let (x, y) = (table[i * configs + a], table[i * configs + t]);
            open += x[0] as i32 - y[0] as i32;
            end += x[1] as i32 - y[1] as i32;
        }
        for (k, w) in (2 * win.pairs..win.count).enumerate() {
            let x = table[(win.pairs + k) * configs + config(white, black, win.masks[w])];
            open += x[0] as i32;
            end += x[1] as i32;
        }
        (open, end)
    }

    /// The pattern score from White's view, in 1/[`UNITS`] centi-men, of White's pieces
    /// `white` and Black's `black` of which `kings` are kings: the windows' weights interpolated
    /// by the phase, plus the material table's entry of the position's signature (skipped when
    /// the table is all zero).
    #[inline(always)]
    pub fn score<G: Geometry>(&self, white: u64, black: u64, kings: u64) -> i32 {
        let pieces = layer_pieces(white, black, kings);
        let (mut open, mut end) = self.layer::<G>(MEN, pieces[MEN]);
        // Without kings the other layers add nothing: every pair's empty configurations
        // cancel, and a self-turned window's empty configuration has no weight.
        if kings != 0 {
            for (layer, &these) in pieces.iter().enumerate().skip(KINGS) {
                if self.used[layer] {
                    let (o, e) = self.layer::<G>(layer, these);
                    open += o;
                    end += e;
                }
            }
        }
        let total = start_pieces::<G>() as i32;
        let p = phase::<G>((white | black).count_ones()) as i32;
        let windows = (open * p + end * (total - p)) / total;
        if self.material.is_empty() {
            windows
        } else {
            windows + self.material[material_of::<G>(white, black, kings)] as i32
        }
    }
}

/// The embedded weight files, one per family.
static INTERNATIONAL: &[u8] = include_bytes!("../../../weights/international.tpw");
static FLYING_8X8: &[u8] = include_bytes!("../../../weights/flying-8x8.tpw");
static ENGLISH: &[u8] = include_bytes!("../../../weights/english.tpw");

/// The embedded weight file of a family.
pub fn embedded_file(family: &str) -> Option<&'static [u8]> {
    let family = Family::ALL.into_iter().find(|f| f.name() == family)?;
    Some(match family {
        Family::International => INTERNATIONAL,
        Family::Flying8x8 => FLYING_8X8,
        Family::English => ENGLISH,
    })
}

/// The families whose pattern weights are embedded (every [`Family`], by name).
pub const FAMILIES: [&str; 3] = [
    Family::ALL[0].name(),
    Family::ALL[1].name(),
    Family::ALL[2].name(),
];

/// The identity of a family's embedded weights: `family:checksum` (the first 8 hex digits of
/// the file's checksum); [`super::active::identity`] names the weights in use.
pub fn identity(family: &str) -> String {
    let sum = embedded_file(family)
        .filter(|b| b.len() >= HEADER_BYTES)
        .map_or(0, |b| {
            u64::from_le_bytes(b[28..36].try_into().expect("8 bytes"))
        });
    format!("{family}:{:08x}", sum >> 32)
}

/// What evaluates `R`'s positions, for people: the hand-made terms and the family's patterns
/// (the embedded ones, or the file chosen at run time: [`super::active`]).
pub fn describe<R: Rules>() -> String {
    let family = Family::of::<R>();
    let table = super::active::patterns::<R>();
    let shapes = table.shapes();
    let windows: usize = shapes.iter().map(|&s| window_count(R::Board::W, s)).sum();
    let material = if table.uses_material() {
        ", material table"
    } else {
        ""
    };
    let file = super::active::file(family)
        .map(|p| format!(" from {}", p.display()))
        .unwrap_or_default();
    format!(
        "hand-made terms + patterns {}{file} ({windows} windows: {}{material})",
        super::active::identity(family),
        shapes_name(&shapes)
    )
}

/// The embedded pattern weights of `R`'s family, read once, as the engine's table. A file
/// that does not read (which a test rules out for the files in the repository) leaves the
/// patterns out, all zero.
pub fn embedded<R: Rules>() -> &'static EnginePatterns {
    static TABLES: [OnceLock<EnginePatterns>; 3] =
        [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let family = family_name::<R>();
    TABLES[Family::of::<R>() as usize].get_or_init(|| {
        let board = R::Board::W;
        let w = embedded_file(family)
            .ok_or(WeightsError::NotWeights)
            .and_then(|b| PatternWeights::parse(b, family, board))
            .unwrap_or_else(|_| PatternWeights::zero(family, board, SHAPES_4X4));
        EnginePatterns::new::<R::Board>(&w)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::board::{Board8, Board10};
    use crate::draughts::rules::{English, International, Russian};
    use crate::game::rng::Rng;

    #[test]
    fn windows_cover_the_board_and_pair_up() {
        for (w, all, counts, selfs) in [
            (Board10::W, Board10::ALL, [28, 24, 20], [0, 0, 0]),
            (Board8::W, Board8::ALL, [15, 12, 9], [1, 0, 1]),
        ] {
            for (k, shape) in Shape::ALL.into_iter().enumerate() {
                let win = Windows::new(w, shape);
                assert_eq!(win.count, counts[k], "{shape}");
                assert_eq!(window_count(w, shape), counts[k]);
                assert_eq!(win.count - 2 * win.pairs, selfs[k], "{shape}");
                assert_eq!(win.kept().count(), win.pairs + selfs[k]);
                let mut covered = 0;
                for i in 0..win.count {
                    assert_eq!(win.masks[i].count_ones() as usize, shape.squares());
                    covered |= win.masks[i];
                    let p = win.partner(i);
                    assert_eq!(win.partner(p), i);
                    assert_eq!(win.masks[p].count_ones() as usize, shape.squares());
                }
                assert_eq!(covered, all, "{shape}");
            }
        }
        assert_eq!(
            windows_of::<Board10>(Shape::Rows5).masks,
            Windows::new(5, Shape::Rows5).masks
        );
        assert_eq!(
            Windows::new(4, Shape::Rows4).masks,
            windows_of::<Board8>(Shape::Rows4).masks
        );
    }

    #[test]
    fn configurations_are_base_three_and_turn_back() {
        assert_eq!(config(0b1, 0b10, 0b11), 1 + 2 * 3);
        assert_eq!(config(0, 0, u64::MAX), 0);
        assert_eq!(config(0, 0xfff, 0xfff), 531440);
        for shape in Shape::ALL {
            let (n, last) = (shape.squares(), shape.configs() - 1);
            for c in [0, 1, 2, 3, 100, last, last / 3, 4321] {
                assert_eq!(turned_config(turned_config(c, n), n), c);
            }
            // White on digit 0 becomes Black on the last digit.
            assert_eq!(turned_config(1, n), 2 * 3usize.pow(n as u32 - 1));
            // The turned configuration from the bits of the window.
            let mut rng = Rng::new(n as u64);
            let full = (1u64 << n) - 1;
            for _ in 0..200 {
                let white = rng.next_u64() & full;
                let black = rng.next_u64() & full & !white;
                let c = config(white, black, full);
                let turned = shape.turned_table();
                let t = turned[black as usize] as usize + 2 * turned[white as usize] as usize;
                assert_eq!(t, turned_config(c, n), "{shape}");
            }
        }
        // Every configuration once, with its turned one.
        for shape in Shape::ALL {
            let mut seen = vec![false; shape.configs()];
            for_each_config(shape, |c, t| {
                assert!(!seen[c], "{shape} {c}");
                seen[c] = true;
                if c % 997 == 0 {
                    assert_eq!(t, turned_config(c, shape.squares()));
                }
            });
            assert!(seen.iter().all(|&s| s), "{shape}");
        }
        assert_eq!(extract(0b1011_0000, 0b1111_0000), 0b1011);
        assert_eq!("4x5".parse::<Shape>(), Ok(Shape::Rows5));
        assert!(
            "4x7"
                .parse::<Shape>()
                .unwrap_err()
                .contains("4x4, 4x5, 4x6")
        );
    }

    /// Colour-symmetric random weights of `shapes` on the board of `board` squares a row, one
    /// in `sparseness` of them (about) not zero.
    fn random_weights(
        family: &str,
        board: u32,
        shapes: Shapes,
        seed: u64,
        sparseness: usize,
    ) -> PatternWeights {
        let mut rng = Rng::new(seed);
        let w = PatternWeights::zero(family, board, shapes);
        let kept: Vec<i16> = w
            .kept_values()
            .iter()
            .map(|_| match rng.below(sparseness) {
                0 => rng.below(2000) as i16 - 1000,
                _ => 0,
            })
            .collect();
        tied(PatternWeights::from_kept(family, board, shapes, &kept))
    }

    /// `w` with each self-turned window's weights tied as the trainer ties them: a
    /// configuration that is its own image has no weight, the image of another has its
    /// negation.
    fn tied(mut w: PatternWeights) -> PatternWeights {
        let shapes = w.shapes;
        for (layer, &shape) in shapes.iter().enumerate() {
            let win = w.windows(layer);
            for s in 2 * win.pairs..win.count {
                for c in 0..shape.configs() {
                    let t = turned_config(c, shape.squares());
                    let (i, j) = (w.index(layer, s, c), w.index(layer, s, t));
                    for ph in 0..PHASES {
                        if t == c {
                            w.table[i + ph] = 0;
                        } else if t > c {
                            w.table[j + ph] = -w.table[i + ph];
                        }
                    }
                }
            }
        }
        assert!(w.is_symmetric());
        w
    }

    #[test]
    fn lifted_weights_evaluate_as_before_and_stay_symmetric() {
        let small = [Shape::Rows4, Shape::Rows4, Shape::Rows5];
        let large = [Shape::Rows6, Shape::Rows5, Shape::Rows5];
        let w = random_weights("flying-8x8", Board8::W, small, 11, 1);
        let lifted = w.lifted(large).unwrap();
        assert_eq!(lifted.shapes, large);
        assert!(lifted.is_symmetric());
        // The unchanged layer is copied.
        let (a, b) = (w.index(MIXED, 0, 0), w.index(LAYERS, 0, 0));
        let c = lifted.index(MIXED, 0, 0);
        assert_eq!(w.table[a..b], lifted.table[c..]);
        let (before, after) = (
            EnginePatterns::new::<Board8>(&w),
            EnginePatterns::new::<Board8>(&lifted),
        );
        // Half a unit a window at most, over the men's 9 windows and the kings' 12 (the mixed
        // layer is the same): any random position, with kings and without.
        let bound = (9 + 12) / 2 + 1;
        let mut rng = Rng::new(3);
        for _ in 0..2000 {
            let (white, black, kings) = random_pieces(&mut rng, 5, 4);
            let (x, y) = (
                before.score::<Board8>(white, black, kings),
                after.score::<Board8>(white, black, kings),
            );
            assert!((x - y).abs() <= bound, "{x} against {y}");
        }
        // A layer is never read through smaller windows.
        let e = lifted.lifted(small).unwrap_err();
        assert!(e.to_string().contains("men windows of 4x6"), "{e}");
    }

    #[test]
    fn read_through_files_round_trip_small_and_refuse_damage() {
        let small = [Shape::Rows4, Shape::Rows4, Shape::Rows4];
        let large = [Shape::Rows6, Shape::Rows5, Shape::Rows4];
        let base = random_weights("flying-8x8", Board8::W, small, 21, 1);
        // A fit from the read-through that moved one weight in 40 (as data touches some
        // configurations and not others).
        let mut rng = Rng::new(5);
        let kept: Vec<i16> = base
            .lifted(large)
            .unwrap()
            .kept_values()
            .into_iter()
            .map(|v| match rng.below(40) {
                0 => v.wrapping_add(rng.below(400) as i16 - 200),
                _ => v,
            })
            .collect();
        let fit = tied(PatternWeights::from_kept(
            "flying-8x8",
            Board8::W,
            large,
            &kept,
        ));
        let plain = fit.to_bytes();
        let bytes = fit.to_bytes_over(&base).unwrap();
        assert_eq!(bytes[HEADER_BYTES + LAYERS], ENCODING_READ_THROUGH);
        assert!(PatternWeights::is_read_through(&bytes));
        assert!(!PatternWeights::is_read_through(&plain));
        assert!(!PatternWeights::is_read_through(&bytes[..HEADER_BYTES]));
        assert!(
            bytes.len() * 4 < plain.len(),
            "{} bytes read through, {} not",
            bytes.len(),
            plain.len()
        );
        let (back, through) = PatternWeights::parse_with_base(&bytes, "flying-8x8", 4).unwrap();
        assert_eq!(back, fit);
        assert_eq!(through, Some(base.clone()));
        // Written again over the base it was read with: the same file; over a base whose
        // partner windows disagree with their kept ones (which the file does not store): the
        // same file too, the differences taken from the base as it reads back.
        assert_eq!(back.to_bytes_over(&through.unwrap()).unwrap(), bytes);
        let mut lopsided = base.clone();
        let partner = lopsided.windows(MEN).partner(0);
        let i = lopsided.index(MEN, partner, 5);
        lopsided.table[i] += 7;
        assert_eq!(fit.to_bytes_over(&lopsided).unwrap(), bytes);
        // Other files have no base; weights with nothing in common with the base are written
        // in their own smaller form.
        assert_eq!(
            PatternWeights::parse_with_base(&plain, "flying-8x8", 4)
                .unwrap()
                .1,
            None
        );
        let other = random_weights("flying-8x8", Board8::W, large, 22, 1);
        assert_eq!(other.to_bytes_over(&base).unwrap(), other.to_bytes());
        // A base of larger windows, of another family, is refused.
        assert!(matches!(
            base.to_bytes_over(&fit),
            Err(WeightsError::Shape(_))
        ));
        let english = random_weights("english", Board8::W, small, 23, 1);
        assert!(matches!(
            fit.to_bytes_over(&english),
            Err(WeightsError::Family { .. })
        ));
        // Cut anywhere: refused, never a panic.
        let n = bytes.len() - HEADER_BYTES;
        for cut in [1, 2, 3, 100, n / 3, n / 2, n - SHAPE_BYTES - 2, n - 2] {
            assert!(
                PatternWeights::parse(&bytes[..bytes.len() - cut], "flying-8x8", 4).is_err(),
                "cut {cut}"
            );
        }
        // A base shape this build does not read, a base larger than the file's windows, a base
        // length past the end.
        let at = HEADER_BYTES + SHAPE_BYTES;
        let mut seven = bytes.clone();
        seven[at] = 7;
        let e = PatternWeights::parse(&seven, "flying-8x8", 4).unwrap_err();
        assert!(e.to_string().contains("men windows of 4x7"), "{e}");
        let larger_base = random_weights(
            "flying-8x8",
            Board8::W,
            [Shape::Rows4, Shape::Rows4, Shape::Rows5],
            24,
            50,
        );
        let base_runs = zero_runs(&larger_base.kept_values());
        let mut body = vec![6, 5, 4, ENCODING_READ_THROUGH, 4, 4, 5];
        push_varint(&mut body, base_runs.len());
        body.extend_from_slice(&base_runs);
        body.extend_from_slice(&zero_runs(&fit.kept_values()));
        let e = PatternWeights::parse(&fit.file_of(&body), "flying-8x8", 4).unwrap_err();
        assert!(e.to_string().contains("mixed windows of 4x5"), "{e}");
        let mut long = bytes[..at + LAYERS].to_vec();
        push_varint(&mut long, usize::MAX >> 1);
        assert_eq!(
            PatternWeights::parse(&long, "flying-8x8", 4),
            Err(WeightsError::Truncated)
        );
        // The checksum changed.
        let mut bad = bytes.clone();
        bad[HEADER_BYTES - 1] ^= 1;
        assert_eq!(
            PatternWeights::parse(&bad, "flying-8x8", 4),
            Err(WeightsError::Checksum)
        );
    }

    #[test]
    fn weight_files_round_trip_and_refuse_the_wrong_one() {
        let shapes = [Shape::Rows5, Shape::Rows4, Shape::Rows4];
        for (family, board) in [("international", Board10::W), ("english", Board8::W)] {
            let w = random_weights(family, board, shapes, 7, 4);
            let bytes = w.to_bytes();
            // No material table: version 4.
            assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), VERSION_SHAPED);
            assert_eq!(bytes[HEADER_BYTES..HEADER_BYTES + LAYERS], [5, 4, 4]);
            assert_eq!(PatternWeights::parse(&bytes, family, board), Ok(w));
        }
        let w = random_weights("international", 5, shapes, 8, 4);
        let bytes = w.to_bytes();
        assert_eq!(bytes[HEADER_BYTES + LAYERS], ENCODING_ZERO_RUNS);
        assert!(matches!(
            PatternWeights::parse(&bytes, "english", 4),
            Err(WeightsError::Family { .. })
        ));
        // Cut anywhere in the table, or in the shapes.
        for cut in [1, 2, 100, bytes.len() - HEADER_BYTES - 2] {
            assert_eq!(
                PatternWeights::parse(&bytes[..bytes.len() - cut], "international", 5),
                Err(WeightsError::Truncated),
                "cut {cut}"
            );
        }
        let mut long = bytes.clone();
        long.push(0);
        assert!(matches!(
            PatternWeights::parse(&long, "international", 5),
            Err(WeightsError::Shape(_))
        ));
        // A shape this build does not read; a shape the window count does not fit; a board of
        // other windows.
        let mut seven = bytes.clone();
        seven[HEADER_BYTES] = 7;
        let e = PatternWeights::parse(&seven, "international", 5).unwrap_err();
        assert!(e.to_string().contains("men windows of 4x7"), "{e}");
        let mut six = bytes.clone();
        six[HEADER_BYTES] = 6;
        let e = PatternWeights::parse(&six, "international", 5).unwrap_err();
        assert!(
            e.to_string()
                .contains("80 windows where the board has 76 of men 4x6, kings 4x4"),
            "{e}"
        );
        assert!(matches!(
            PatternWeights::parse(&bytes, "international", 4),
            Err(WeightsError::Shape(_))
        ));
        // A weight changed (in a plain table, where any byte is a weight's).
        let mut bad = alternating(shapes).to_bytes();
        assert_eq!(bad[HEADER_BYTES + LAYERS], ENCODING_PLAIN);
        let last = bad.len() - 1;
        bad[last] ^= 1;
        assert_eq!(
            PatternWeights::parse(&bad, "international", 5),
            Err(WeightsError::Checksum)
        );
        let mut encoding = bytes.clone();
        encoding[HEADER_BYTES + LAYERS] = 3;
        let e = PatternWeights::parse(&encoding, "international", 5).unwrap_err();
        assert!(e.to_string().contains("table encoding 3"), "{e}");
        let mut v9 = bytes.clone();
        v9[8] = 9;
        assert_eq!(
            PatternWeights::parse(&v9, "international", 5),
            Err(WeightsError::Version(9))
        );
        assert_eq!(
            PatternWeights::parse(b"[Event]", "international", 5),
            Err(WeightsError::NotWeights)
        );
    }

    /// International weights of `shapes` whose kept weights are zero and not zero in turn:
    /// zero spans as long as the plain table, so written plain.
    fn alternating(shapes: Shapes) -> PatternWeights {
        let zero = PatternWeights::zero("international", 5, shapes);
        let kept: Vec<i16> = (0..zero.kept_values().len())
            .map(|i| (i % 2) as i16 * (i % 1000) as i16)
            .collect();
        PatternWeights::from_kept("international", 5, shapes, &kept)
    }

    #[test]
    fn both_encodings_read_back() {
        // Dense weights are written plain, sparse ones in zero spans: either reads back.
        let dense = alternating([Shape::Rows4, Shape::Rows5, Shape::Rows4]);
        let mut sparse = PatternWeights::zero("english", 4, [Shape::Rows6; LAYERS]);
        let i = sparse.index(MEN, 0, 12345);
        sparse.table[i] = 5;
        // The partner's weights from the kept window's.
        let sparse = PatternWeights::from_kept("english", 4, sparse.shapes, &sparse.kept_values());
        for (w, encoding) in [(dense, ENCODING_PLAIN), (sparse, ENCODING_ZERO_RUNS)] {
            let bytes = w.to_bytes();
            assert_eq!(bytes[HEADER_BYTES + LAYERS], encoding);
            assert_eq!(PatternWeights::parse(&bytes, &w.family, w.board), Ok(w));
        }
    }

    /// The file of format version `version` (1 to 3: the first `version` layers, 4x4, whole)
    /// of `w`, as the builds before version 4 wrote it.
    fn whole_file(w: &PatternWeights, version: u16) -> Vec<u8> {
        let layers = version as usize;
        let mut body = Vec::new();
        for v in &w.table[..w.index(layers, 0, 0)] {
            body.extend_from_slice(&v.to_le_bytes());
        }
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&version.to_le_bytes());
        out.extend_from_slice(&(w.windows(MEN).count as u16).to_le_bytes());
        let mut name = [0u8; 16];
        name[..w.family.len()].copy_from_slice(w.family.as_bytes());
        out.extend_from_slice(&name);
        out.extend_from_slice(&fnv1a(&body).to_le_bytes());
        out.extend_from_slice(&body);
        out
    }

    #[test]
    fn older_files_read_with_their_missing_layers_zero() {
        // Version 1 holds the men's layer alone (the files before the kings' layer), version 2
        // the men's and the kings' (before the mixed layer), version 3 all three; all 4x4 and
        // whole, even a table that is not symmetric.
        for version in VERSION_MEN_ONLY..=VERSION_WHOLE {
            let layers = version as usize;
            let mut w = PatternWeights::zero("english", 4, SHAPES_4X4);
            for layer in 0..layers {
                let i = w.index(layer, 0, 7);
                w.table[i] = 12 + layer as i16;
            }
            let old = whole_file(&w, version);
            let back = PatternWeights::parse(&old, "english", 4).unwrap();
            assert_eq!(back, w, "version {version}");
            for layer in 0..LAYERS {
                assert_eq!(back.uses(layer), layer < layers, "version {version}");
            }
            // A file of a later version and this one's length is short.
            if version < VERSION_WHOLE {
                let mut short = old.clone();
                short[8..10].copy_from_slice(&VERSION_WHOLE.to_le_bytes());
                assert!(matches!(
                    PatternWeights::parse(&short, "english", 4),
                    Err(WeightsError::Shape(_))
                ));
            }
            // Windows of another board.
            assert!(matches!(
                PatternWeights::parse(&old, "english", 5),
                Err(WeightsError::Shape(_))
            ));
        }
    }

    /// Engine patterns of one weight of `layer` (16 centi-men): a White piece alone on the
    /// first square of window 0 (digit 0, configuration 1), tied to a Black piece on the last
    /// square of its partner. With it that square and a square outside both windows.
    fn one_weight(layer: usize, shapes: Shapes) -> (EnginePatterns, u64, u64) {
        let mut w = PatternWeights::zero("flying-8x8", Board8::W, shapes);
        let win = w.windows(layer);
        let i = w.index(layer, 0, 1);
        w.table[i] = 16 * UNITS as i16;
        w.table[i + 1] = 16 * UNITS as i16;
        let j = w.index(
            layer,
            win.partner(0),
            turned_config(1, shapes[layer].squares()),
        );
        w.table[j] = -16 * UNITS as i16;
        w.table[j + 1] = -16 * UNITS as i16;
        let sq = win.masks[0] & win.masks[0].wrapping_neg();
        let rest = Board8::ALL & !win.masks[0] & !win.masks[win.partner(0)];
        let far = rest & rest.wrapping_neg();
        (EnginePatterns::new::<Board8>(&w), sq, far)
    }

    #[test]
    fn the_kings_layer_scores_kings_only() {
        for shapes in [SHAPES_4X4, [Shape::Rows4, Shape::Rows5, Shape::Rows4]] {
            // White's piece on the weight's square, Black's outside.
            let (e, sq, far) = one_weight(KINGS, shapes);
            // A White king there scores, a White man there does not.
            assert_eq!(e.score::<Board8>(sq, far, sq), 16 * UNITS);
            assert_eq!(e.score::<Board8>(sq, far, 0), 0);
            assert_eq!(e.score::<Board8>(sq, far, far), 0);
        }
    }

    #[test]
    fn the_mixed_layer_reads_men_and_kings_in_positions_with_kings() {
        for shapes in [SHAPES_4X4, [Shape::Rows5, Shape::Rows4, Shape::Rows6]] {
            let (e, sq, far) = one_weight(MIXED, shapes);
            // With a king on the board, a White man or a White king there scores.
            assert_eq!(e.score::<Board8>(sq, far, far), 16 * UNITS);
            assert_eq!(e.score::<Board8>(sq, far, sq), 16 * UNITS);
            // Without kings the layer is not read (the men's layer is).
            assert_eq!(e.score::<Board8>(sq, far, 0), 0);
            assert_eq!(layer_pieces(sq, far, 0)[MIXED], (0, 0));
        }
    }

    #[test]
    fn the_men_layer_of_every_shape_scores_its_weight() {
        for shape in Shape::ALL {
            let (e, sq, far) = one_weight(MEN, [shape, Shape::Rows4, Shape::Rows4]);
            assert_eq!(e.score::<Board8>(sq, far, 0), 16 * UNITS, "{shape}");
            // A Black man there is another configuration.
            assert_eq!(e.score::<Board8>(far, sq, 0), 0, "{shape}");
        }
    }

    #[test]
    fn the_embedded_weights_load_for_every_family() {
        for (family, board) in [
            ("international", Board10::W),
            ("flying-8x8", Board8::W),
            ("english", Board8::W),
        ] {
            let bytes = embedded_file(family).unwrap();
            PatternWeights::parse(bytes, family, board).unwrap_or_else(|e| panic!("{family}: {e}"));
        }
        let size = |shapes: Shapes, board: u32| -> usize {
            shapes
                .iter()
                .map(|&s| Windows::new(board, s).kept().count() * s.configs())
                .sum()
        };
        let intl = embedded::<International>();
        assert_eq!(intl.table.len(), size(intl.shapes(), 5));
        let russian = embedded::<Russian>();
        assert_eq!(russian.table.len(), size(russian.shapes(), 4));
        let english = embedded::<English>();
        assert_eq!(english.table.len(), size(english.shapes(), 4));
    }

    /// Random pieces on the 8x8 board: each square White's with chance 1/`spread`, Black's
    /// with the same, and a piece a king with chance 1/`king_in`.
    fn random_pieces(rng: &mut Rng, spread: usize, king_in: usize) -> (u64, u64, u64) {
        let (mut white, mut black, mut kings) = (0u64, 0u64, 0u64);
        for bit in crate::game::bits::Bits(Board8::ALL) {
            match rng.below(spread) {
                0 => white |= 1 << bit,
                1 => black |= 1 << bit,
                _ => {}
            }
            if rng.below(king_in) == 0 {
                kings |= 1 << bit;
            }
        }
        (white, black, kings & (white | black))
    }
    /// `w` with a random colour-symmetric material table: one tied pair in `sparseness` (about)
    /// with a weight.
    fn with_material(mut w: PatternWeights, seed: u64, sparseness: usize) -> PatternWeights {
        let mut rng = Rng::new(seed);
        let kept: Vec<i16> = material_kept(w.board)
            .map(|_| match rng.below(sparseness) {
                0 => rng.below(3000) as i16 - 1500,
                _ => 0,
            })
            .collect();
        w.material = material_from_kept(w.board, &kept);
        assert!(w.uses_material() && w.is_symmetric());
        w
    }

    #[test]
    fn material_signatures_index_the_table_and_turn_back() {
        for (board, men, sides, len) in [(Board10::W, 20, 84, 7056), (Board8::W, 12, 52, 2704)] {
            assert_eq!(start_men(board), men);
            assert_eq!(material_sides(board), sides);
            assert_eq!(material_len(board), len);
            for i in 0..len {
                let sig = Signature::of_entry(board, i);
                assert_eq!(sig.entry(board), i);
                let t = material_turned(board, i);
                assert_eq!(material_turned(board, t), i);
                let swapped = Signature {
                    white_men: sig.black_men,
                    white_kings: sig.black_kings,
                    black_men: sig.white_men,
                    black_kings: sig.white_kings,
                };
                assert_eq!(Signature::of_entry(board, t), swapped);
                assert_eq!(t == i, sig == swapped);
            }
            // The tied half: one entry of each pair whose entries differ.
            assert_eq!(material_kept(board).count(), (len - sides) / 2);
        }
        assert_eq!(2 * start_men(Board10::W), start_pieces::<Board10>());
        assert_eq!(2 * start_men(Board8::W), start_pieces::<Board8>());
        // From bitboards: men and kings counted apart, kings past 3 and men past the start's
        // clamped.
        let bits = |n: u32, from: u32| ((1u64 << n) - 1) << from;
        let (white, black) = (bits(14, 0), bits(6, 20));
        let kings = bits(5, 0) | bits(2, 20);
        let sig = Signature::of_entry(Board8::W, material_of::<Board8>(white, black, kings));
        assert_eq!(
            sig,
            Signature {
                white_men: 9,
                white_kings: 3,
                black_men: 4,
                black_kings: 2
            }
        );
        assert_eq!(sig.to_string(), "9m 3+k v 4m 2k");
        let many = Signature::of_entry(Board8::W, material_of::<Board8>(bits(14, 0), 0, 0));
        assert_eq!((many.white_men, many.black_men), (12, 0));
    }

    #[test]
    fn material_files_round_trip_and_refuse_damage() {
        let small = [Shape::Rows4, Shape::Rows4, Shape::Rows4];
        for (family, board) in [("international", Board10::W), ("flying-8x8", Board8::W)] {
            let mut w = with_material(random_weights(family, board, small, 31, 4), 32, 5);
            // The last kept entry has a weight, so the file ends with it.
            let end = material_kept(board).last().unwrap();
            w.material[end] = 1234;
            w.material[material_turned(board, end)] = -1234;
            let bytes = w.to_bytes();
            assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), VERSION);
            let back = PatternWeights::parse(&bytes, family, board).unwrap();
            assert_eq!(back, w);
            // The same windows without the table: version 4, the table's bytes fewer.
            let mut plain = w.clone();
            plain.material.fill(0);
            let four = plain.to_bytes();
            assert_eq!(u16::from_le_bytes([four[8], four[9]]), VERSION_SHAPED);
            assert_eq!(
                bytes.len() - four.len(),
                material_bytes(board, &w.material).len()
            );
            assert_eq!(bytes[..8], four[..8]);
            assert_eq!(bytes[HEADER_BYTES..four.len()], four[HEADER_BYTES..]);
            // Read as another family, or with another board: refused.
            assert!(matches!(
                PatternWeights::parse(&bytes, "english", board),
                Err(WeightsError::Family { .. })
            ));
            // Cut anywhere, in the table or its head: refused, never a panic; cut inside the
            // material table, as cut short.
            for cut in 1..=30 {
                let e = PatternWeights::parse(&bytes[..bytes.len() - cut], family, board);
                assert_eq!(e, Err(WeightsError::Truncated), "cut {cut}");
            }
            // One byte more.
            let mut long = bytes.clone();
            long.push(0);
            let e = PatternWeights::parse(&long, family, board).unwrap_err();
            assert_eq!(e, WeightsError::Material("1 bytes past the table".into()));
            assert!(e.to_string().contains("material table"), "{e}");
            // A weight of the table changed (the last, 1234): the checksum.
            let mut bad = bytes.clone();
            let last = bad.len() - 1;
            assert_eq!(bad[last - 1..], 1234i16.to_le_bytes());
            bad[last] ^= 0x40;
            assert_eq!(
                PatternWeights::parse(&bad, family, board),
                Err(WeightsError::Checksum)
            );
            // A table of another size (another board's men, or more kings).
            let at = four.len();
            for (men, kings) in [
                (20 + 12 - start_men(board) as u8, 3),
                (start_men(board) as u8, 4),
            ] {
                let mut other = bytes.clone();
                other[at] = men;
                other[at + 1] = kings;
                let e = PatternWeights::parse(&other, family, board).unwrap_err();
                assert!(
                    e.to_string().contains(&format!(
                        "material table: signatures of 0 to {men} men and 0 to {kings} kings"
                    )),
                    "{e}"
                );
            }
            // Zero spans past the table's length.
            let mut spans = four.clone();
            spans[8..10].copy_from_slice(&VERSION.to_le_bytes());
            spans.extend_from_slice(&[start_men(board) as u8, MATERIAL_KINGS as u8]);
            push_varint(&mut spans, material_len(board));
            push_varint(&mut spans, 0);
            let e = PatternWeights::parse(&spans, family, board).unwrap_err();
            assert!(
                e.to_string().contains("material table: zero spans of more"),
                "{e}"
            );
            // A version-4 header on a version-5 body, and the other way round.
            let mut as_four = bytes.clone();
            as_four[8..10].copy_from_slice(&VERSION_SHAPED.to_le_bytes());
            assert!(matches!(
                PatternWeights::parse(&as_four, family, board),
                Err(WeightsError::Shape(_))
            ));
            let mut as_five = four.clone();
            as_five[8..10].copy_from_slice(&VERSION.to_le_bytes());
            assert_eq!(
                PatternWeights::parse(&as_five, family, board),
                Err(WeightsError::Truncated)
            );
        }
        // Read through smaller windows, with the table after the differences.
        let large = [Shape::Rows5, Shape::Rows4, Shape::Rows4];
        let base = random_weights("flying-8x8", Board8::W, small, 33, 1);
        let fit = with_material(base.lifted(large).unwrap(), 34, 3);
        let bytes = fit.to_bytes_over(&base).unwrap();
        assert!(PatternWeights::is_read_through(&bytes));
        assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), VERSION);
        let (back, through) = PatternWeights::parse_with_base(&bytes, "flying-8x8", 4).unwrap();
        assert_eq!(back, fit);
        assert_eq!(through, Some(base));
        assert_eq!(
            PatternWeights::parse(&bytes[..bytes.len() - 3], "flying-8x8", 4),
            Err(WeightsError::Truncated)
        );
        // Larger windows read through smaller ones keep the table.
        assert_eq!(
            fit.lifted([Shape::Rows6; LAYERS]).unwrap().material,
            fit.material
        );
    }

    #[test]
    fn version_4_files_read_with_a_zero_material_table_and_evaluate_as_before() {
        let mut rng = Rng::new(8);
        for (family, board) in [
            ("international", Board10::W),
            ("flying-8x8", Board8::W),
            ("english", Board8::W),
        ] {
            let bytes = embedded_file(family).unwrap();
            assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), VERSION_SHAPED);
            let w = PatternWeights::parse(bytes, family, board).unwrap();
            assert_eq!(w.material, vec![0; material_len(board)]);
            assert!(!w.uses_material());
            // Written again: the same version-4 file.
            if !PatternWeights::is_read_through(bytes) {
                assert_eq!(w.to_bytes(), bytes, "{family}");
            }
            // Its table on 8x8 boards: the windows' score, the table not read; with a table,
            // exactly the table's entry more.
            if board != Board8::W {
                continue;
            }
            let before = EnginePatterns::new::<Board8>(&w);
            assert!(!before.uses_material());
            let with = with_material(w.clone(), 9, 1);
            let after = EnginePatterns::new::<Board8>(&with);
            assert!(after.uses_material());
            for _ in 0..2000 {
                let (white, black, kings) = random_pieces(&mut rng, 4, 6);
                let entry = material_of::<Board8>(white, black, kings);
                assert_eq!(
                    after.score::<Board8>(white, black, kings),
                    before.score::<Board8>(white, black, kings) + with.material[entry] as i32
                );
            }
        }
    }
}
