//! The endings net: a small network that has learned a variant's endgame tables (win, draw or
//! loss of quiet positions of a few pieces), so that the evaluation knows, without the tables on
//! disk, which endings of that many pieces are drawn however many men up a side is.
//!
//! Why: in russian the points left on the board are won endings drawn. The engine scores itself
//! a man or two up in endings of 5 and 6 pieces with a king each that the tables call drawn, and
//! trades into them (docs/strength.md); the 5- and 6-piece tables in play gain 20 and 40 Elo,
//! but they are a build of minutes and tens or hundreds of MB that most users do not have. The
//! net (`weights/<variant>-endings.ten`, tens of KB, embedded) is trained on positions drawn from
//! those tables (`tiao egdb sample`, then `docs/scripts/endings_net.py`: eval.md).
//!
//! The net reads a position of at most [`EndingsNet::max_pieces`] pieces from the side to move's
//! view (White to move: a Black-to-move position is turned round, as the tables store it), one
//! input per square and kind of piece (own man, own king, other man, other king), two hidden
//! layers with ReLU, and gives the probabilities of loss, draw and win. The evaluation then is
//! `e * (1 - draw) + (win - loss) * ENDINGS_MARGIN` ([`EndingsNet::adjust`]).
//!
//! Invariants: a file is read and checked whole (magic, version, variant, sizes, checksum) before
//! it is used; an embedded file that does not parse leaves the variant without a net (a test
//! parses every embedded file). Which variants have a net is a fact of the rules value
//! ([`crate::draughts::rules::Rules::ENDINGS_NET`]), never a test in the evaluation.

use crate::draughts::board::Geometry;
use crate::draughts::position::Position;
use crate::draughts::rules::Rules;
use crate::game::color::Color;
use crate::game::rng::fnv1a;
use std::fmt;
use std::sync::OnceLock;

/// What a sure win or loss adds to the evaluation, in centi-men (a man is 100): the net's
/// `win - loss` times this. 0: the net only scales the evaluation toward a draw (a margin of 100
/// lost, docs/strength.md).
pub const ENDINGS_MARGIN: f32 = 0.0;

/// The file's magic bytes.
pub const MAGIC: &[u8; 8] = b"TIAOENN\0";
/// The format version this build reads.
pub const VERSION: u32 = 1;
/// Header bytes: magic, version, variant name (16 bytes, zero padded), max pieces, squares, the
/// two hidden sizes (u32 each).
pub const HEADER_BYTES: usize = 8 + 4 + 16 + 4 * 4;
/// The largest hidden layer read.
pub const MAX_HIDDEN: usize = 256;

/// Why a net file was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetError {
    /// Shorter than its header, or not an endings net.
    NotNet,
    /// A format version this build does not read.
    Version(u32),
    /// A net of another variant.
    Variant { found: String, needed: String },
    /// Sizes that do not fit the board or this build (squares, hidden layers, pieces).
    Shape(String),
    /// The payload is not as long as the header says.
    Length { found: usize, expected: usize },
    /// The checksum does not match: damaged.
    Checksum,
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::NotNet => write!(f, "not an endings net (bad magic or too short)"),
            NetError::Version(v) => write!(
                f,
                "endings net format version {v}, this build reads {VERSION}"
            ),
            NetError::Variant { found, needed } => {
                write!(f, "an endings net of {found}, not of {needed}")
            }
            NetError::Shape(s) => write!(f, "endings net: {s}"),
            NetError::Length { found, expected } => write!(
                f,
                "endings net truncated or too long: {found} bytes, {expected} expected"
            ),
            NetError::Checksum => write!(f, "endings net damaged: checksum mismatch"),
        }
    }
}

impl std::error::Error for NetError {}

/// A decoded net.
#[derive(Clone, Debug)]
pub struct EndingsNet {
    max_pieces: u32,
    squares: usize,
    h1: usize,
    h2: usize,
    /// `[input][h1]`, input = square * 4 + kind.
    w1: Vec<f32>,
    b1: Vec<f32>,
    /// `[h1][h2]`.
    w2: Vec<f32>,
    b2: Vec<f32>,
    /// `[h2][3]`.
    w3: Vec<f32>,
    b3: [f32; 3],
}

fn u32_at(b: &[u8], o: usize) -> u32 {
    u32::from_le_bytes(b[o..o + 4].try_into().expect("4 bytes"))
}

impl EndingsNet {
    /// Parses a net file for variant `variant` on a board of `squares` squares.
    pub fn parse(bytes: &[u8], variant: &str, squares: usize) -> Result<EndingsNet, NetError> {
        if bytes.len() < HEADER_BYTES + 8 || &bytes[..8] != MAGIC {
            return Err(NetError::NotNet);
        }
        let version = u32_at(bytes, 8);
        if version != VERSION {
            return Err(NetError::Version(version));
        }
        let name = &bytes[12..28];
        let end = name.iter().position(|&c| c == 0).unwrap_or(16);
        let found = String::from_utf8_lossy(&name[..end]).into_owned();
        if found != variant {
            return Err(NetError::Variant {
                found,
                needed: variant.to_string(),
            });
        }
        let max_pieces = u32_at(bytes, 28);
        let sq = u32_at(bytes, 32) as usize;
        let h1 = u32_at(bytes, 36) as usize;
        let h2 = u32_at(bytes, 40) as usize;
        if sq != squares {
            return Err(NetError::Shape(format!(
                "{sq} squares, the board has {squares}"
            )));
        }
        if !(1..=MAX_HIDDEN).contains(&h1) || !(1..=MAX_HIDDEN).contains(&h2) {
            return Err(NetError::Shape(format!(
                "hidden layers {h1} and {h2}, at most {MAX_HIDDEN}"
            )));
        }
        if !(2..=8).contains(&max_pieces) {
            return Err(NetError::Shape(format!("{max_pieces} pieces")));
        }
        let floats = sq * 4 * h1 + h1 + h1 * h2 + h2 + h2 * 3 + 3;
        let expected = HEADER_BYTES + floats * 4 + 8;
        if bytes.len() != expected {
            return Err(NetError::Length {
                found: bytes.len(),
                expected,
            });
        }
        let body = &bytes[..expected - 8];
        let sum = u64::from_le_bytes(bytes[expected - 8..].try_into().expect("8 bytes"));
        if fnv1a(body) != sum {
            return Err(NetError::Checksum);
        }
        let mut at = HEADER_BYTES;
        let mut take = |n: usize| -> Vec<f32> {
            let v = bytes[at..at + 4 * n]
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
                .collect::<Vec<_>>();
            at += 4 * n;
            v
        };
        let w1 = take(sq * 4 * h1);
        let b1 = take(h1);
        let w2 = take(h1 * h2);
        let b2 = take(h2);
        let w3 = take(h2 * 3);
        let b3v = take(3);
        let net = EndingsNet {
            max_pieces,
            squares: sq,
            h1,
            h2,
            w1,
            b1,
            w2,
            b2,
            w3,
            b3: [b3v[0], b3v[1], b3v[2]],
        };
        if [&net.w1, &net.b1, &net.w2, &net.b2, &net.w3]
            .iter()
            .any(|v| v.iter().any(|x| !x.is_finite()))
            || net.b3.iter().any(|x| !x.is_finite())
        {
            return Err(NetError::Shape(
                "a weight that is not a finite number".into(),
            ));
        }
        Ok(net)
    }

    /// The most pieces a position the net reads has.
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// Loss, draw and win probabilities of the side to move of the position with `inputs`
    /// (`square * 4 + kind`, kind 0 own man, 1 own king, 2 other man, 3 other king; the squares
    /// numbered from 0 with the side to move as White).
    pub fn wdl(&self, inputs: &[usize]) -> [f32; 3] {
        let mut a1 = [0f32; MAX_HIDDEN];
        let a1 = &mut a1[..self.h1];
        a1.copy_from_slice(&self.b1);
        for &i in inputs {
            let row = &self.w1[i * self.h1..(i + 1) * self.h1];
            for (a, w) in a1.iter_mut().zip(row) {
                *a += w;
            }
        }
        let mut a2 = [0f32; MAX_HIDDEN];
        let a2 = &mut a2[..self.h2];
        a2.copy_from_slice(&self.b2);
        for (i, &x) in a1.iter().enumerate() {
            if x > 0.0 {
                let row = &self.w2[i * self.h2..(i + 1) * self.h2];
                for (a, w) in a2.iter_mut().zip(row) {
                    *a += x * w;
                }
            }
        }
        let mut o = self.b3;
        for (j, &x) in a2.iter().enumerate() {
            if x > 0.0 {
                for (k, oo) in o.iter_mut().enumerate() {
                    *oo += x * self.w3[j * 3 + k];
                }
            }
        }
        let m = o[0].max(o[1]).max(o[2]);
        let e = [(o[0] - m).exp(), (o[1] - m).exp(), (o[2] - m).exp()];
        let s = e[0] + e[1] + e[2];
        [e[0] / s, e[1] / s, e[2] / s]
    }

    /// The net's inputs for `pos` (at most 8 pieces): the side to move seen as White.
    pub fn inputs<R: Rules>(&self, pos: &Position<R>, out: &mut [usize; 8]) -> usize {
        let (us, them, kings) = if pos.side() == Color::White {
            (pos.white(), pos.black(), pos.kings())
        } else {
            (
                crate::egdb::draughts::index::rotate::<R::Board>(pos.black()),
                crate::egdb::draughts::index::rotate::<R::Board>(pos.white()),
                crate::egdb::draughts::index::rotate::<R::Board>(pos.kings()),
            )
        };
        let mut n = 0;
        for (side, bb) in [(0usize, us), (2usize, them)] {
            let mut b = bb;
            while b != 0 && n < out.len() {
                let bit = b.trailing_zeros() as u8;
                b &= b - 1;
                let sq = R::Board::number_of_bit(bit) as usize - 1;
                let king = (kings >> bit) & 1 == 1;
                out[n] = sq * 4 + side + king as usize;
                n += 1;
            }
        }
        debug_assert!(out[..n].iter().all(|&i| i < self.squares * 4));
        n
    }

    /// The evaluation `e` (centi-men, the side to move's view) of `pos` with the net's
    /// knowledge: `e * (1 - draw) + (win - loss) * ENDINGS_MARGIN`.
    #[inline]
    pub fn adjust<R: Rules>(&self, pos: &Position<R>, e: i32) -> i32 {
        let mut buf = [0usize; 8];
        let n = self.inputs(pos, &mut buf);
        let [l, d, w] = self.wdl(&buf[..n]);
        (e as f32 * (1.0 - d) + (w - l) * ENDINGS_MARGIN).round() as i32
    }
}

/// The embedded net of `R`, if its rules name one and it parses.
#[inline]
pub fn net<R: Rules>() -> Option<&'static EndingsNet> {
    static NETS: [OnceLock<Option<EndingsNet>>; 8] = [const { OnceLock::new() }; 8];
    let bytes = R::ENDINGS_NET?;
    NETS[R::VARIANT as usize % 8]
        .get_or_init(|| {
            EndingsNet::parse(
                bytes,
                R::VARIANT.name(),
                R::Board::ALL.count_ones() as usize,
            )
            .ok()
        })
        .as_ref()
}
