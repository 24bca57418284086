//! PDN 3.0 FEN for draughts positions.
//!
//! Read: `W:W31,32,K40:B1,2,3` — side to move first, then one `:W`/`:B` section per colour, `K`
//! marking a king, numeric ranges `31-50` (kings too: `K5-9`), algebraic squares on any 8x8 board,
//! empty sections (`W:W:B1`), one section left out (`W:B1-20`: White has no piece), lower-case
//! letters (`w:w31-50:b1-20`), a trailing `.`, surrounding quotes, and the move counters that
//! lidraughts appends (`:H0:F1`, ignored). Anything else is a [`FenError`] naming the token: an
//! unknown field (`X31-50`), a section given twice, a FEN with no section at all (`W`).
//!
//! Write: the side to move, then White's and Black's pieces in square order, as plain lists
//! (`W:W31,32,...:B1,2,...`), squares numeric or algebraic as the variant writes them.

use super::square;
use crate::draughts::board::{Bits, Geometry};
use crate::draughts::position::{Position, PositionError};
use crate::draughts::rules::Rules;
use crate::game::SquareError;
use crate::game::color::Color;
use std::fmt;

/// Why a FEN was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Nothing but blanks.
    Empty,
    /// The first field is not `W` or `B`.
    BadSideToMove(String),
    /// A piece token that is not a square, a `K` square, or a range.
    BadSquare { token: String, reason: SquareError },
    /// A range whose ends are not ascending numbers.
    BadRange(String),
    /// A square given twice.
    Duplicate(String),
    /// A `:` field that is neither a colour's pieces nor a move counter.
    UnknownField(String),
    /// A colour's pieces given in two fields.
    DuplicateField(String),
    /// No `:W` or `:B` field: the side to move alone.
    MissingPieces(String),
    /// The pieces do not make a valid position.
    Position(PositionError),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "empty FEN"),
            FenError::BadSideToMove(t) => {
                write!(
                    f,
                    "bad side to move '{t}' (expected W or B before the first ':')"
                )
            }
            FenError::BadSquare { token, reason } => write!(f, "bad piece '{token}': {reason}"),
            FenError::BadRange(t) => {
                write!(f, "bad range '{t}' (expected ascending squares like 31-50)")
            }
            FenError::Duplicate(t) => write!(f, "square '{t}' is listed twice"),
            FenError::UnknownField(t) => write!(
                f,
                "unknown field '{t}' (expected W or B followed by squares, or a move counter \
                 H<n> or F<n>)"
            ),
            FenError::DuplicateField(t) => {
                write!(f, "field '{t}': that colour's pieces are already given")
            }
            FenError::MissingPieces(t) => write!(
                f,
                "'{t}' gives no pieces (expected the side to move, then :W and :B fields, e.g. \
                 W:W31-50:B1-20)"
            ),
            FenError::Position(e) => write!(f, "invalid position: {e}"),
        }
    }
}

impl std::error::Error for FenError {}

impl From<PositionError> for FenError {
    fn from(e: PositionError) -> Self {
        FenError::Position(e)
    }
}

/// Parses a FEN under rules `R`.
pub fn parse<R: Rules>(fen: &str) -> Result<Position<R>, FenError> {
    let mut s = fen.trim();
    if s.len() >= 2 && s.starts_with('"') && s.ends_with('"') {
        s = s[1..s.len() - 1].trim();
    }
    let s = s.strip_suffix('.').unwrap_or(s).trim();
    if s.is_empty() {
        return Err(FenError::Empty);
    }
    let mut fields = s.split(':');
    let side_field = fields.next().unwrap_or("").trim();
    let side = match side_field {
        "W" | "w" => Color::White,
        "B" | "b" => Color::Black,
        other => return Err(FenError::BadSideToMove(other.to_string())),
    };
    let mut bb = [0u64; 2];
    let mut kings = 0u64;
    let mut seen = [false; 2];
    for field in fields {
        let field = field.trim();
        let mut chars = field.chars();
        let color = match chars.next().map(|c| c.to_ascii_uppercase()) {
            Some('W') => Color::White,
            Some('B') => Color::Black,
            // A `::` or a final `:`.
            None => continue,
            // lidraughts' half-move clock and move number.
            Some('H' | 'F')
                if !chars.as_str().is_empty()
                    && chars.as_str().bytes().all(|b| b.is_ascii_digit()) =>
            {
                continue;
            }
            Some(_) => return Err(FenError::UnknownField(field.to_string())),
        };
        if std::mem::replace(&mut seen[color.index()], true) {
            return Err(FenError::DuplicateField(field.to_string()));
        }
        let body = field[1..].trim();
        if body.is_empty() {
            continue;
        }
        for token in body.split(',') {
            let token = token.trim();
            let (is_king, sq) = match token.strip_prefix(['K', 'k']) {
                Some(rest) => (true, rest.trim()),
                None => (false, token),
            };
            let bits = squares_of::<R::Board>(token, sq)?;
            if bits & (bb[0] | bb[1]) != 0 {
                let b = (bits & (bb[0] | bb[1])).trailing_zeros() as u8;
                return Err(FenError::Duplicate(square::write::<R::Board>(
                    b,
                    R::NOTATION,
                )));
            }
            bb[color.index()] |= bits;
            if is_king {
                kings |= bits;
            }
        }
    }
    if seen == [false, false] {
        return Err(FenError::MissingPieces(s.to_string()));
    }
    Ok(Position::from_parts(bb[0], bb[1], kings, side)?)
}

/// The bits named by a piece token body (`31`, `c3`, `31-35`).
fn squares_of<G: Geometry>(token: &str, body: &str) -> Result<u64, FenError> {
    let bad = |reason| FenError::BadSquare {
        token: token.to_string(),
        reason,
    };
    if let Some((a, b)) = body.split_once('-') {
        let lo = a.trim();
        let hi = b.trim();
        let is_num = |x: &str| !x.is_empty() && x.bytes().all(|c| c.is_ascii_digit());
        if !is_num(lo) || !is_num(hi) {
            return Err(FenError::BadRange(token.to_string()));
        }
        let lo_bit = square::parse::<G>(lo).map_err(bad)?;
        let hi_bit = square::parse::<G>(hi).map_err(bad)?;
        let (lo_n, hi_n) = (G::number_of_bit(lo_bit), G::number_of_bit(hi_bit));
        if lo_n > hi_n {
            return Err(FenError::BadRange(token.to_string()));
        }
        let mut bits = 0u64;
        for n in lo_n..=hi_n {
            bits |= 1u64 << G::bit_of_number(n).expect("in range");
        }
        Ok(bits)
    } else {
        Ok(1u64 << square::parse::<G>(body).map_err(bad)?)
    }
}

/// Writes the FEN of a position.
pub fn write<R: Rules>(pos: &Position<R>) -> String {
    let mut out = String::new();
    out.push(pos.side().letter());
    for c in Color::BOTH {
        out.push(':');
        out.push(c.letter());
        let mut squares: Vec<(u32, u8)> = Bits(pos.pieces(c))
            .map(|b| (R::Board::number_of_bit(b), b))
            .collect();
        squares.sort_unstable();
        for (i, (_, b)) in squares.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            if pos.kings() & (1u64 << b) != 0 {
                out.push('K');
            }
            out.push_str(&square::write::<R::Board>(*b, R::NOTATION));
        }
    }
    out
}

/// The start position and the text forms of a position, written here so that the position
/// itself needs no notation.
impl<R: Rules> Position<R> {
    /// The start position of the variant.
    pub fn start() -> Self {
        parse::<R>(R::START_FEN).expect("start FEN is valid")
    }
}

impl<R: Rules> Default for Position<R> {
    fn default() -> Self {
        Self::start()
    }
}

impl<R: Rules> fmt::Debug for Position<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", write(self))
    }
}

impl<R: Rules> fmt::Display for Position<R> {
    /// A text diagram, White at the bottom, with the FEN below.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = R::Board::SIZE;
        for rank in (0..n).rev() {
            write!(f, "{:>2} ", rank + 1)?;
            for file in 0..n {
                let c = match R::Board::bit_of_coords(file, rank) {
                    None => ' ',
                    Some(b) => {
                        let bit = 1u64 << b;
                        let king = self.kings() & bit != 0;
                        if self.pieces(Color::White) & bit != 0 {
                            if king { 'W' } else { 'w' }
                        } else if self.pieces(Color::Black) & bit != 0 {
                            if king { 'B' } else { 'b' }
                        } else {
                            '.'
                        }
                    }
                };
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        write!(f, "   ")?;
        for file in 0..n {
            write!(f, " {}", (b'a' + file as u8) as char)?;
        }
        writeln!(f)?;
        write!(f, "{}", write(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::rules::{English, International, Russian};

    #[test]
    fn start_positions() {
        let p = parse::<International>("W:W31-50:B1-20").unwrap();
        assert_eq!(p.white().count_ones(), 20);
        assert_eq!(p.black().count_ones(), 20);
        assert_eq!(parse::<International>(&write(&p)).unwrap(), p);
        let e = parse::<English>("B:W21-32:B1-12").unwrap();
        assert_eq!(e.side(), Color::Black);
        let r = parse::<Russian>(
            "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
        )
        .unwrap();
        assert_eq!(r, parse::<Russian>("W:W21-32:B1-12").unwrap());
        assert!(write(&r).starts_with("W:Wa3,c3,e3,g3,b2"));
    }

    #[test]
    fn lenient_forms() {
        let p = parse::<International>("B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29").unwrap();
        assert_eq!(p.kings().count_ones(), 5);
        assert!(parse::<International>("W:W31-50:B1-20.").is_ok());
        assert!(parse::<International>("\"W:W31-50:B1-20\"").is_ok());
        assert!(parse::<International>("W:W31-50:B1-20:H0:F1").is_ok());
        assert!(parse::<International>("W:W:B1-20").is_ok());
        assert!(parse::<International>("W:B1-20").is_ok());
        assert!(
            parse::<International>("W:WK31-35:B1")
                .unwrap()
                .kings()
                .count_ones()
                == 5
        );
        assert!(parse::<International>(" W : W 31 , 32 : B 1 ").is_ok());
        assert_eq!(
            parse::<International>("w:w31-50:b1-20").unwrap(),
            parse::<International>("W:W31-50:B1-20").unwrap()
        );
        assert!(parse::<International>("W:W31-50:B1-20:").is_ok());
        assert!(parse::<International>("B:W31-50:B1-20:H12:F30").is_ok());
    }

    #[test]
    fn unknown_and_missing_fields_are_errors() {
        let e = |fen: &str| parse::<International>(fen).unwrap_err().to_string();
        assert!(
            e("W:X31-50:Y1-20").contains("'X31-50'"),
            "{}",
            e("W:X31-50:Y1-20")
        );
        assert!(e("W:W31-50:B1-20:Q5").contains("'Q5'"));
        assert!(e("W:W31-50:B1-20:Hx").contains("'Hx'"));
        assert!(e("W:W31-50:W1-20").contains("'W1-20'"));
        assert!(e("W").contains("no pieces"), "{}", e("W"));
        assert!(e("B:").contains("no pieces"));
    }

    #[test]
    fn errors_name_the_token() {
        let e = parse::<International>("X:W31:B1").unwrap_err();
        assert!(e.to_string().contains("'X'"), "{e}");
        let e = parse::<International>("W:W31,51:B1").unwrap_err();
        assert!(e.to_string().contains("51"), "{e}");
        let e = parse::<International>("W:W31,foo:B1").unwrap_err();
        assert!(e.to_string().contains("foo"), "{e}");
        let e = parse::<International>("W:W40-31:B1").unwrap_err();
        assert!(e.to_string().contains("40-31"), "{e}");
        let e = parse::<International>("W:W31,31:B1").unwrap_err();
        assert!(e.to_string().contains("31"), "{e}");
        let e = parse::<International>("W:W31:B31").unwrap_err();
        assert!(e.to_string().contains("31"), "{e}");
        let e = parse::<International>("W:W3:B1").unwrap_err();
        assert!(e.to_string().contains("promotion row"), "{e}");
        assert_eq!(parse::<International>("  "), Err(FenError::Empty));
        assert!(parse::<International>("W:W1-50:B").is_err());
        assert!(parse::<Russian>("W:Wa2:Bb8").is_err());
    }
}
