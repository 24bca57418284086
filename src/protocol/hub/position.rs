//! Hub position strings: the side to move (`W`/`B`) followed by one letter per square in square
//! number order (`w` white man, `b` black man, `W` white king, `B` black king, `e` empty): 51
//! characters on 10x10, 33 on 8x8 (numbered as RULES.md fixes it, square 1 = b8).

use crate::draughts::board::{Bits, Geometry};
use crate::draughts::position::{Position, PositionError};
use crate::draughts::rules::Rules;
use crate::game::color::Color;
use std::fmt;

/// Why a Hub position string was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HubPositionError {
    /// Wrong number of characters.
    Length { expected: usize, got: usize },
    /// The first character is not `W` or `B`.
    Side(char),
    /// A square letter other than `w b W B e`.
    Square { square: usize, found: char },
    /// The pieces do not make a valid position.
    Position(PositionError),
}

impl fmt::Display for HubPositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HubPositionError::Length { expected, got } => write!(
                f,
                "bad position: {got} characters, expected {expected} (side to move and one letter per square)"
            ),
            HubPositionError::Side(c) => {
                write!(f, "bad position: side to move '{c}' (expected W or B)")
            }
            HubPositionError::Square { square, found } => {
                write!(
                    f,
                    "bad position: '{found}' on square {square} (expected w, b, W, B or e)"
                )
            }
            HubPositionError::Position(e) => write!(f, "bad position: {e}"),
        }
    }
}

impl std::error::Error for HubPositionError {}

/// Reads a Hub position string.
pub fn parse<R: Rules>(s: &str) -> Result<Position<R>, HubPositionError> {
    let chars: Vec<char> = s.trim().chars().collect();
    let n = R::Board::SQUARES;
    if chars.len() != n + 1 {
        return Err(HubPositionError::Length {
            expected: n + 1,
            got: chars.len(),
        });
    }
    let side = match chars[0] {
        'W' | 'w' => Color::White,
        'B' | 'b' => Color::Black,
        c => return Err(HubPositionError::Side(c)),
    };
    let (mut white, mut black, mut kings) = (0u64, 0u64, 0u64);
    for (i, &c) in chars[1..].iter().enumerate() {
        let bit = 1u64 << R::Board::SQ_TO_BIT[i];
        match c {
            'w' => white |= bit,
            'b' => black |= bit,
            'W' => {
                white |= bit;
                kings |= bit;
            }
            'B' => {
                black |= bit;
                kings |= bit;
            }
            'e' | '.' => {}
            found => {
                return Err(HubPositionError::Square {
                    square: i + 1,
                    found,
                });
            }
        }
    }
    Position::from_parts(white, black, kings, side).map_err(HubPositionError::Position)
}

/// Writes a Hub position string.
pub fn write<R: Rules>(pos: &Position<R>) -> String {
    let mut letters = vec!['e'; R::Board::SQUARES];
    for c in Color::BOTH {
        for b in Bits(pos.pieces(c)) {
            let king = pos.kings() & (1u64 << b) != 0;
            letters[R::Board::BIT_TO_SQ[b as usize] as usize] = match (c, king) {
                (Color::White, false) => 'w',
                (Color::White, true) => 'W',
                (Color::Black, false) => 'b',
                (Color::Black, true) => 'B',
            };
        }
    }
    std::iter::once(pos.side().letter())
        .chain(letters)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::notation::fen;
    use crate::draughts::rules::{English, International, Russian};

    #[test]
    fn start_positions() {
        let p =
            parse::<International>("Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww").unwrap();
        assert_eq!(p, Position::<International>::start());
        assert_eq!(
            write(&p),
            "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww"
        );
        let r = parse::<Russian>("Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww").unwrap();
        assert_eq!(r, Position::<Russian>::start());
        let e = parse::<English>("Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww").unwrap();
        assert_eq!(e, Position::<English>::start());
    }

    #[test]
    fn the_spec_example() {
        let p =
            parse::<International>("BeeeWWeeeeeeeeeeeeeeeeeeeweeeeeeeeewweBeeeeeeeeeBee").unwrap();
        assert_eq!(fen::write(&p), "B:WK4,K5,25,35,36:BK38,K48");
        assert_eq!(
            write(&p),
            "BeeeWWeeeeeeeeeeeeeeeeeeeweeeeeeeeewweBeeeeeeeeeBee"
        );
    }

    #[test]
    fn errors() {
        let e = |s: &str| parse::<International>(s).unwrap_err().to_string();
        assert!(e("W").contains("1 characters, expected 51"));
        assert!(e("Xbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww").contains("'X'"));
        assert!(e("Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwwx").contains("square 50"));
        assert!(e("Wwbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww").contains("promotion row"));
        assert!(parse::<Russian>("Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww").is_err());
    }
}
