//! Square names: numbers in RULES.md's order, and algebraic names on any board.
//!
//! Readers accept both forms on every board (numeric `1`..`N`, leading zeros allowed as PDN's
//! grammar allows them; algebraic `a1`.., dark squares only). Writers use the variant's
//! [`SquareNotation`].

use crate::draughts::board::Geometry;
use crate::draughts::rules::SquareNotation;
use crate::game::SquareError;

/// Parses a square token into its bit.
pub fn parse<G: Geometry>(token: &str) -> Result<u8, SquareError> {
    let t = token.trim();
    let bytes = t.as_bytes();
    if !bytes.is_empty() && bytes.iter().all(u8::is_ascii_digit) {
        if bytes.len() > 3 {
            return Err(SquareError::OutOfRange {
                token: t.to_string(),
                squares: G::SQUARES,
            });
        }
        let n: u32 = t.parse().map_err(|_| SquareError::Syntax(t.to_string()))?;
        return G::bit_of_number(n).ok_or_else(|| SquareError::OutOfRange {
            token: t.to_string(),
            squares: G::SQUARES,
        });
    }
    if bytes.len() >= 2
        && bytes.len() <= 3
        && bytes[0].is_ascii_alphabetic()
        && bytes[1..].iter().all(u8::is_ascii_digit)
    {
        let file = (bytes[0].to_ascii_lowercase() - b'a') as u32;
        let rank: u32 = t[1..]
            .parse()
            .map_err(|_| SquareError::Syntax(t.to_string()))?;
        if rank == 0 {
            return Err(SquareError::NotDark(t.to_string()));
        }
        return G::bit_of_coords(file, rank - 1).ok_or_else(|| SquareError::NotDark(t.to_string()));
    }
    Err(SquareError::Syntax(t.to_string()))
}

/// Writes a square in the given notation.
pub fn write<G: Geometry>(bit: u8, notation: SquareNotation) -> String {
    match notation {
        SquareNotation::Numeric => G::number_of_bit(bit).to_string(),
        SquareNotation::Algebraic => G::algebraic(bit),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::board::{Board8, Board10};

    #[test]
    fn both_forms() {
        assert_eq!(parse::<Board8>("29"), parse::<Board8>("a1"));
        assert_eq!(
            parse::<Board8>("c3"),
            Ok(Board8::bit_of_number(22).unwrap())
        );
        assert_eq!(
            parse::<Board10>("046"),
            Ok(Board10::bit_of_number(46).unwrap())
        );
        assert!(matches!(
            parse::<Board8>("33"),
            Err(SquareError::OutOfRange { .. })
        ));
        assert!(matches!(
            parse::<Board8>("0"),
            Err(SquareError::OutOfRange { .. })
        ));
        assert!(matches!(
            parse::<Board8>("a2"),
            Err(SquareError::NotDark(_))
        ));
        assert!(matches!(
            parse::<Board8>("i1"),
            Err(SquareError::NotDark(_))
        ));
        assert!(matches!(parse::<Board8>("x"), Err(SquareError::Syntax(_))));
        assert!(matches!(parse::<Board8>(""), Err(SquareError::Syntax(_))));
        assert!(matches!(
            parse::<Board10>("99999999999999999999"),
            Err(SquareError::OutOfRange { .. })
        ));
        for n in 1..=32 {
            let b = Board8::bit_of_number(n).unwrap();
            assert_eq!(
                parse::<Board8>(&write::<Board8>(b, SquareNotation::Algebraic)),
                Ok(b)
            );
            assert_eq!(
                parse::<Board8>(&write::<Board8>(b, SquareNotation::Numeric)),
                Ok(b)
            );
        }
    }
}
