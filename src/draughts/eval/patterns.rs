//! Pattern evaluation: the men and the kings of overlapping 4x4 windows of the board, each
//! configuration scored by a learned weight, in two phases.
//!
//! **Windows.** A window is 4 files by 4 rows: its 8 dark squares, two in each row. Windows
//! start on every even file and every row ([`Windows`]): 4 x 7 = 28 windows on 10x10, 3 x 5 = 15
//! on 8x8, so that every square lies in several windows and each window sees the men around it.
//! A window's **configuration** is the state of its 8 squares, each empty, a White man or a
//! Black man (kings count as empty), read as a base-3 number: square `i` (in square-number order
//! within the window) is digit `i`, 0 empty, 1 White, 2 Black. So a window has 3^8 = 6561
//! configurations, each one weight per phase.
//!
//! **Layers.** The windows are read three times, each reading ([`layer_pieces`]) with its own
//! table: for the men ([`MEN`]); for the kings ([`KINGS`], each square empty, a White king or a
//! Black king, men counting as empty); and, in positions with kings, for every piece
//! ([`MIXED`], each square empty, White or Black whether man or king: how the men stand
//! against the kings around them, which the two separate layers, added, cannot see). In a
//! position without kings the second and third layers read empty windows, which add nothing
//! (their empty configuration's weights cancel, below), so they are skipped there, and a layer
//! that is all zero is skipped always.
//!
//! **Indices from bitboards.** A window's men of one colour are extracted as 8 bits by a parallel
//! bit extract (`pext`, one instruction with BMI2; a loop elsewhere), and the base-3 index is
//! `TERNARY[white bits] + 2 * TERNARY[black bits]`: no loop over squares.
//!
//! **Phases.** Every weight has an opening/middlegame and an endgame value; the score is their
//! interpolation by the pieces on the board ([`phase`]: from the start's count down to none).
//!
//! **Colour symmetry.** The board turned by 180 degrees with the colours swapped is the same
//! position for the other side. Window `w` turned is window `partner(w)`, its square `i` is the
//! partner's square `7 - i`; the trainer ties the weights of a configuration and its turned,
//! colour-swapped image (one is the negation of the other), so the evaluation of a position and
//! of its mirror agree exactly.
//!
//! **Weights in the binary.** Each family's trained table is a file in `weights/`, embedded with
//! `include_bytes!`, with a header (magic, format version, family, window count, checksum): a
//! file of another family or version is refused with a clear error ([`PatternWeights::parse`]).
//! Weights are stored in 1/[`UNITS`] of a centi-man. Format version 2 holds both layers; a
//! version-1 file (men only, before the king layer) reads with a zero king layer.

use crate::draughts::board::Geometry;
use crate::draughts::eval::weights::Family;
use crate::draughts::rules::Rules;
use crate::game::rng::fnv1a;
use std::fmt;
use std::sync::OnceLock;

/// Squares of a window.
pub const WINDOW_SQUARES: usize = 8;
/// Configurations of a window: 3^8.
pub const CONFIGS: usize = 6561;
/// Most windows of any board.
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

/// `TERNARY[b]`: the 8 bits of `b` read as base-3 digits (bit `i` is `3^i`).
pub const TERNARY: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        let mut v = 0u16;
        let mut p = 1u16;
        let mut i = 0;
        while i < 8 {
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

/// `TERNARY_TURNED[b] = TERNARY[b with its 8 bits in reverse order]`: the turned window's digits.
pub const TERNARY_TURNED: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        let mut r = 0usize;
        let mut i = 0;
        while i < 8 {
            if b & (1 << i) != 0 {
                r |= 1 << (7 - i);
            }
            i += 1;
        }
        t[b] = TERNARY[r];
        b += 1;
    }
    t
};

/// The windows of a board: their square masks (in the board's bit layout) and their partners
/// under the half turn, in the engine's order: first `pairs` windows, then their partners in the
/// same order (window `pairs + i` is the turned window `i`), then the windows that are their own
/// turned image.
#[derive(Clone, Debug)]
pub struct Windows {
    /// Bits of the window's 8 squares.
    pub masks: [u64; MAX_WINDOWS],
    /// Windows in use.
    pub count: usize,
    /// Pairs of distinct partner windows (the first `2 * pairs` windows).
    pub pairs: usize,
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

/// The mask of the 4x4 window whose top row is `r0` and left file `f0`.
const fn window_mask(w: u32, r0: u32, f0: u32) -> u64 {
    let mut mask = 0u64;
    let mut s = 0;
    while s < 2 * w * w {
        let (r, f) = row_file(w, s);
        if r >= r0 && r < r0 + 4 && f >= f0 && f < f0 + 4 {
            mask |= 1u64 << bit_of(w, s);
        }
        s += 1;
    }
    mask
}

impl Windows {
    /// The windows of the board with `w` dark squares a row: a window on every even file and
    /// every row; the turned window of the one at (row `r0`, file `f0`) is at (`n - 4 - r0`,
    /// `n - 4 - f0`).
    pub const fn new(w: u32) -> Windows {
        let n = 2 * w;
        let mut out = Windows {
            masks: [0; MAX_WINDOWS],
            count: 0,
            pairs: 0,
        };
        // The first of each pair: windows above the middle, or on the middle row band and left
        // of the middle file; beside each, its turned window.
        let mut turned = [0u64; MAX_WINDOWS];
        let mut selfs = [0u64; MAX_WINDOWS];
        let mut nselfs = 0;
        let mut r0 = 0;
        while r0 + 4 <= n {
            let mut f0 = 0;
            while f0 + 4 <= n {
                let (tr, tf) = (n - 4 - r0, n - 4 - f0);
                if r0 == tr && f0 == tf {
                    selfs[nselfs] = window_mask(w, r0, f0);
                    nselfs += 1;
                } else if r0 < tr || (r0 == tr && f0 < tf) {
                    out.masks[out.pairs] = window_mask(w, r0, f0);
                    turned[out.pairs] = window_mask(w, tr, tf);
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
}

/// The windows of every board, built at compile time.
pub trait BoardWindows: Geometry {
    /// This board's windows.
    const WINDOWS: Windows = Windows::new(Self::W);
}

impl<G: Geometry> BoardWindows for G {}

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

/// The configuration index of window `mask` for White men `white` and Black men `black`.
#[inline(always)]
pub fn config(white: u64, black: u64, mask: u64) -> usize {
    TERNARY[extract(white, mask) as usize] as usize
        + 2 * TERNARY[extract(black, mask) as usize] as usize
}

/// The configuration of the turned window for configuration `c` of a window: digit `i` becomes
/// digit `7 - i`, and White and Black swap.
pub const fn turned_config(c: usize) -> usize {
    let mut digits = [0usize; WINDOW_SQUARES];
    let mut x = c;
    let mut i = 0;
    while i < WINDOW_SQUARES {
        digits[i] = x % 3;
        x /= 3;
        i += 1;
    }
    let mut out = 0;
    let mut i = WINDOW_SQUARES;
    while i > 0 {
        i -= 1;
        // New digit at position 7 - i is the swapped old digit i: build from the top.
        let d = digits[WINDOW_SQUARES - 1 - i];
        let swapped = match d {
            1 => 2,
            2 => 1,
            _ => 0,
        };
        out = out * 3 + swapped;
    }
    out
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

/// A family's pattern weights: per layer, window and configuration, `[opening, endgame]` in
/// 1/[`UNITS`] centi-men from White's view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternWeights {
    /// The family (as [`family_name`] names it).
    pub family: String,
    /// Windows of the board (of each layer).
    pub windows: usize,
    /// `table[((layer * windows + window) * CONFIGS + config) * PHASES + phase]`.
    pub table: Vec<i16>,
}

/// The first bytes of a weight file.
pub const MAGIC: [u8; 8] = *b"TIAOPAT\0";
/// The weight-file format version this build writes: all [`LAYERS`]. A file of version `v`
/// holds the first `v` layers, so this build reads every version from 1 (the men's layer alone,
/// written before the kings' layer) and 2 (men and kings, before the mixed layer) up: the
/// layers a file lacks read as zero.
pub const VERSION: u16 = LAYERS as u16;
/// The version of the files of the men's layer alone.
pub const VERSION_MEN_ONLY: u16 = 1;
/// Bytes of the header: magic 8, version 2, window count 2, family name 16, checksum 8.
pub const HEADER_BYTES: usize = 36;

/// Why a weight file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WeightsError {
    /// Not a weight file.
    NotWeights,
    /// A format version this build does not read.
    Version(u16),
    /// The weights of another family than expected.
    Family { expected: String, found: String },
    /// Window count or length that do not fit the family.
    Shape(String),
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
            WeightsError::Checksum => write!(f, "pattern weights do not match their checksum"),
        }
    }
}

impl std::error::Error for WeightsError {}

/// The family name of a variant's weights (the same families as the hand-made weights).
pub const fn family_name<R: Rules>() -> &'static str {
    Family::of::<R>().name()
}

impl PatternWeights {
    /// All-zero weights for `windows` windows of `family`.
    pub fn zero(family: &str, windows: usize) -> PatternWeights {
        PatternWeights {
            family: family.to_string(),
            windows,
            table: vec![0; LAYERS * windows * CONFIGS * PHASES],
        }
    }

    /// The index in [`PatternWeights::table`] of the opening weight of `config` in `window` of
    /// `layer`.
    pub fn index(&self, layer: usize, window: usize, config: usize) -> usize {
        ((layer * self.windows + window) * CONFIGS + config) * PHASES
    }

    /// Whether some weight of `layer` is not zero.
    pub fn uses(&self, layer: usize) -> bool {
        let start = self.index(layer, 0, 0);
        let end = self.index(layer + 1, 0, 0);
        self.table[start..end].iter().any(|&v| v != 0)
    }

    /// The file form: header and table.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut body = Vec::with_capacity(self.table.len() * 2);
        for v in &self.table {
            body.extend_from_slice(&v.to_le_bytes());
        }
        let mut out = Vec::with_capacity(HEADER_BYTES + body.len());
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(self.windows as u16).to_le_bytes());
        let mut name = [0u8; 16];
        let n = self.family.len().min(16);
        name[..n].copy_from_slice(&self.family.as_bytes()[..n]);
        out.extend_from_slice(&name);
        out.extend_from_slice(&fnv1a(&body).to_le_bytes());
        out.extend_from_slice(&body);
        out
    }

    /// Reads a weight file, which must be of `family` with `windows` windows.
    pub fn parse(
        bytes: &[u8],
        family: &str,
        windows: usize,
    ) -> Result<PatternWeights, WeightsError> {
        if bytes.len() < HEADER_BYTES || bytes[..8] != MAGIC {
            return Err(WeightsError::NotWeights);
        }
        let version = u16::from_le_bytes([bytes[8], bytes[9]]);
        if !(VERSION_MEN_ONLY..=VERSION).contains(&version) {
            return Err(WeightsError::Version(version));
        }
        let layers = version as usize;
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
        if found_windows != windows {
            return Err(WeightsError::Shape(format!(
                "{found_windows} windows where the board has {windows}"
            )));
        }
        let body = &bytes[HEADER_BYTES..];
        let want = layers * windows * CONFIGS * PHASES * 2;
        if body.len() != want {
            return Err(WeightsError::Shape(format!(
                "{} bytes of weights where {want} are needed",
                body.len()
            )));
        }
        let sum = u64::from_le_bytes(bytes[28..36].try_into().expect("8 bytes"));
        if fnv1a(body) != sum {
            return Err(WeightsError::Checksum);
        }
        let mut out = PatternWeights::zero(&found, windows);
        for (v, c) in out.table.iter_mut().zip(body.chunks_exact(2)) {
            *v = i16::from_le_bytes([c[0], c[1]]);
        }
        Ok(out)
    }
}

/// A family's weights as the engine reads them: per layer, one table per pair of partner
/// windows (the partner's weight is the negated weight of its turned configuration, which the
/// trainer's tying guarantees) and one per self-turned window, so half the memory of the file's
/// table.
#[derive(Clone, Debug)]
pub struct EnginePatterns {
    /// `table[(layer * slots + slot) * CONFIGS + config]`: `[opening, endgame]`, 1/UNITS
    /// centi-men, White's view.
    table: Vec<[i16; PHASES]>,
    /// Tables of a layer: the pairs and the self-turned windows.
    slots: usize,
    /// Whether each layer has a weight that is not zero.
    used: [bool; LAYERS],
}

impl EnginePatterns {
    /// The engine's table of `w`, whose windows are those of `G`.
    pub fn new<G: Geometry>(w: &PatternWeights) -> EnginePatterns {
        let win = &<G as BoardWindows>::WINDOWS;
        assert_eq!(w.windows, win.count, "weights of the board's windows");
        let slots: Vec<usize> = (0..win.pairs).chain(2 * win.pairs..win.count).collect();
        let mut table = Vec::with_capacity(LAYERS * slots.len() * CONFIGS);
        for layer in 0..LAYERS {
            for &window in &slots {
                for c in 0..CONFIGS {
                    let i = w.index(layer, window, c);
                    table.push([w.table[i], w.table[i + 1]]);
                }
            }
        }
        EnginePatterns {
            table,
            slots: slots.len(),
            used: std::array::from_fn(|layer| w.uses(layer)),
        }
    }

    /// The sums `(opening, endgame)` of one layer's windows for that layer's White and Black
    /// pieces ([`layer_pieces`]).
    #[inline(always)]
    fn layer<G: Geometry>(&self, layer: usize, (white, black): (u64, u64)) -> (i32, i32) {
        let win = &<G as BoardWindows>::WINDOWS;
        let table = &self.table[layer * self.slots * CONFIGS..(layer + 1) * self.slots * CONFIGS];
        let (mut open, mut end) = (0i32, 0i32);
        for i in 0..win.pairs {
            let (m, pm) = (win.masks[i], win.masks[win.pairs + i]);
            let a = config(white, black, m);
            // The partner's configuration, turned into window i's.
            let t = TERNARY_TURNED[extract(black, pm) as usize] as usize
                + 2 * TERNARY_TURNED[extract(white, pm) as usize] as usize;
            let (x, y) = (table[i * CONFIGS + a], table[i * CONFIGS + t]);
            open += x[0] as i32 - y[0] as i32;
            end += x[1] as i32 - y[1] as i32;
        }
        for (k, w) in (2 * win.pairs..win.count).enumerate() {
            let x = table[(win.pairs + k) * CONFIGS + config(white, black, win.masks[w])];
            open += x[0] as i32;
            end += x[1] as i32;
        }
        (open, end)
    }

    /// The pattern score from White's view, in 1/[`UNITS`] centi-men, of White's pieces
    /// `white` and Black's `black` of which `kings` are kings.
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
        (open * p + end * (total - p)) / total
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
/// the file's checksum), as `id` and `tiao analyze` name the weights in use.
pub fn identity(family: &str) -> String {
    let sum = embedded_file(family)
        .filter(|b| b.len() >= HEADER_BYTES)
        .map_or(0, |b| {
            u64::from_le_bytes(b[28..36].try_into().expect("8 bytes"))
        });
    format!("{family}:{:08x}", sum >> 32)
}

/// What evaluates `R`'s positions, for people: the hand-made terms and the family's patterns.
pub fn describe<R: Rules>() -> String {
    let family = family_name::<R>();
    format!(
        "hand-made terms + patterns {} ({} windows)",
        identity(family),
        <R::Board as BoardWindows>::WINDOWS.count
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
        let windows = <R::Board as BoardWindows>::WINDOWS.count;
        let w = embedded_file(family)
            .ok_or(WeightsError::NotWeights)
            .and_then(|b| PatternWeights::parse(b, family, windows))
            .unwrap_or_else(|_| PatternWeights::zero(family, windows));
        EnginePatterns::new::<R::Board>(&w)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::board::{Board8, Board10};
    use crate::draughts::rules::{English, International, Russian};

    #[test]
    fn windows_cover_the_board_and_pair_up() {
        for (win, all, count) in [
            (&<Board10 as BoardWindows>::WINDOWS, Board10::ALL, 28),
            (&<Board8 as BoardWindows>::WINDOWS, Board8::ALL, 15),
        ] {
            assert_eq!(win.count, count);
            assert_eq!(win.pairs, count / 2);
            let mut covered = 0;
            for w in 0..win.count {
                assert_eq!(win.masks[w].count_ones(), 8);
                covered |= win.masks[w];
                let p = win.partner(w);
                assert_eq!(win.partner(p), w);
                assert_eq!(win.masks[p].count_ones(), 8);
            }
            assert_eq!(covered, all);
        }
    }

    #[test]
    fn configurations_are_base_three_and_turn_back() {
        assert_eq!(config(0b1, 0b10, 0b11), 1 + 2 * 3);
        assert_eq!(config(0, 0, u64::MAX), 0);
        for c in [0, 1, 2, 3, 100, 6560, 4321] {
            assert_eq!(turned_config(turned_config(c)), c);
        }
        // White on digit 0 becomes Black on digit 7.
        assert_eq!(turned_config(1), 2 * 3usize.pow(7));
        assert_eq!(extract(0b1011_0000, 0b1111_0000), 0b1011);
        // The turned configuration from the bits of the window.
        for (w, b) in [(0b1u64, 0b1000_0000u64), (0b0110, 0b1001), (0, 0xff)] {
            let c = config(w, b, 0xff);
            let t = TERNARY_TURNED[b as usize] as usize + 2 * TERNARY_TURNED[w as usize] as usize;
            assert_eq!(t, turned_config(c));
        }
    }

    #[test]
    fn weight_files_round_trip_and_refuse_the_wrong_one() {
        let mut w = PatternWeights::zero("international", 28);
        w.table[5] = -7;
        w.table[1000] = 300;
        let bytes = w.to_bytes();
        assert_eq!(PatternWeights::parse(&bytes, "international", 28), Ok(w));
        assert!(matches!(
            PatternWeights::parse(&bytes, "english", 15),
            Err(WeightsError::Family { .. })
        ));
        assert!(matches!(
            PatternWeights::parse(&bytes[..bytes.len() - 2], "international", 28),
            Err(WeightsError::Shape(_))
        ));
        let mut bad = bytes.clone();
        bad[HEADER_BYTES + 10] ^= 1;
        assert_eq!(
            PatternWeights::parse(&bad, "international", 28),
            Err(WeightsError::Checksum)
        );
        let mut v2 = bytes.clone();
        v2[8] = 9;
        assert_eq!(
            PatternWeights::parse(&v2, "international", 28),
            Err(WeightsError::Version(9))
        );
        assert_eq!(
            PatternWeights::parse(b"[Event]", "international", 28),
            Err(WeightsError::NotWeights)
        );
    }

    #[test]
    fn older_files_read_with_their_missing_layers_zero() {
        // Version 1 holds the men's layer alone (the files before the kings' layer), version 2
        // the men's and the kings' (before the mixed layer).
        for version in VERSION_MEN_ONLY..VERSION {
            let layers = version as usize;
            let mut w = PatternWeights::zero("english", 15);
            for layer in 0..layers {
                let i = w.index(layer, 0, 7);
                w.table[i] = 12 + layer as i16;
            }
            let mut old = w.to_bytes();
            old[8..10].copy_from_slice(&version.to_le_bytes());
            old.truncate(HEADER_BYTES + 2 * w.index(layers, 0, 0));
            let sum = fnv1a(&old[HEADER_BYTES..]);
            old[28..36].copy_from_slice(&sum.to_le_bytes());
            let back = PatternWeights::parse(&old, "english", 15).unwrap();
            assert_eq!(back, w, "version {version}");
            for layer in 0..LAYERS {
                assert_eq!(back.uses(layer), layer < layers, "version {version}");
            }
            // A file of this build's version and an older one's length is short.
            let mut short = old.clone();
            short[8..10].copy_from_slice(&VERSION.to_le_bytes());
            assert!(matches!(
                PatternWeights::parse(&short, "english", 15),
                Err(WeightsError::Shape(_))
            ));
        }
    }

    /// Engine patterns of one weight of `layer` (16 centi-men): a White piece alone on the
    /// first square of window 0 (digit 0, configuration 1), tied to a Black piece on the last
    /// square of its partner. With it that square and a square outside both windows.
    fn one_weight(layer: usize) -> (EnginePatterns, u64, u64) {
        let win = &<Board8 as BoardWindows>::WINDOWS;
        let mut w = PatternWeights::zero("flying-8x8", win.count);
        let i = w.index(layer, 0, 1);
        w.table[i] = 16 * UNITS as i16;
        w.table[i + 1] = 16 * UNITS as i16;
        let j = w.index(layer, win.partner(0), turned_config(1));
        w.table[j] = -16 * UNITS as i16;
        w.table[j + 1] = -16 * UNITS as i16;
        let sq = win.masks[0] & win.masks[0].wrapping_neg();
        let rest = Board8::ALL & !win.masks[0] & !win.masks[win.partner(0)];
        let far = rest & rest.wrapping_neg();
        (EnginePatterns::new::<Board8>(&w), sq, far)
    }

    #[test]
    fn the_kings_layer_scores_kings_only() {
        // White's piece on the weight's square, Black's outside.
        let (e, sq, far) = one_weight(KINGS);
        // A White king there scores, a White man there does not.
        assert_eq!(e.score::<Board8>(sq, far, sq), 16 * UNITS);
        assert_eq!(e.score::<Board8>(sq, far, 0), 0);
        assert_eq!(e.score::<Board8>(sq, far, far), 0);
    }

    #[test]
    fn the_mixed_layer_reads_men_and_kings_in_positions_with_kings() {
        let (e, sq, far) = one_weight(MIXED);
        // With a king on the board, a White man or a White king there scores.
        assert_eq!(e.score::<Board8>(sq, far, far), 16 * UNITS);
        assert_eq!(e.score::<Board8>(sq, far, sq), 16 * UNITS);
        // Without kings the layer is not read (the men's layer is).
        assert_eq!(e.score::<Board8>(sq, far, 0), 0);
        assert_eq!(layer_pieces(sq, far, 0)[MIXED], (0, 0));
    }

    #[test]
    fn the_embedded_weights_load_for_every_family() {
        for (family, windows) in [("international", 28), ("flying-8x8", 15), ("english", 15)] {
            let bytes = embedded_file(family).unwrap();
            PatternWeights::parse(bytes, family, windows)
                .unwrap_or_else(|e| panic!("{family}: {e}"));
        }
        assert_eq!(
            embedded::<International>().table.len(),
            LAYERS * 14 * CONFIGS
        );
        assert_eq!(embedded::<Russian>().table.len(), LAYERS * 8 * CONFIGS);
        assert_eq!(embedded::<English>().table.len(), LAYERS * 8 * CONFIGS);
    }
}
