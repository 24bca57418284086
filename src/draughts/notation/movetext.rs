//! Draughts moves in text: PDN (`32-28`, `28x19`, `c3:e5`, `a3b4`, long form `47x38x24x13x36`)
//! and the Hub capture form (`from x to x captured x captured ...`, captured in any order).
//!
//! Reading always matches the text against the legal moves of the position, so a parsed move is
//! legal by construction. Separators `-`, `x`, `X` and `:` are accepted on every board, and
//! trailing PDN strength marks (`!`, `?`) are ignored.
//!
//! - [`parse_pdn`]: two squares give from and to; more give the landing squares in order.
//! - [`parse_hub`]: two squares give from and to; more give from, to and the captured squares.
//! - [`parse`]: either (Hub reading first when more than two squares are given and it matches).
//!
//! Writing: [`write_pdn`] uses the short form unless another legal capture shares from and to, then
//! the long form with every landing square; [`write_hub`] lists captured squares ascending.

use super::path::{Via, find_path, find_path_as};
use super::square;
use crate::draughts::board::{Bits, Geometry};
use crate::draughts::movegen::legal_moves;
use crate::draughts::moves::Move;
use crate::draughts::position::Position;
use crate::draughts::rules::{Rules, SquareNotation};
use crate::game::MoveError;

/// The squares of a move text, as bits.
fn squares<G: Geometry>(text: &str) -> Result<Vec<u8>, MoveError> {
    let t = text.trim().trim_end_matches(['!', '?']);
    if t.is_empty() {
        return Err(MoveError::Empty);
    }
    let parts: Vec<&str> = if t.contains(['-', 'x', 'X', ':']) {
        t.split(['-', 'x', 'X', ':']).collect()
    } else {
        // Algebraic squares may be written without separator: `a3b4`.
        let mut parts = Vec::new();
        let mut start = 0;
        for (i, c) in t.char_indices() {
            if i > 0 && c.is_ascii_alphabetic() {
                parts.push(&t[start..i]);
                start = i;
            }
        }
        parts.push(&t[start..]);
        parts
    };
    if parts.len() < 2 || parts.len() > 64 {
        return Err(MoveError::Syntax(t.to_string()));
    }
    parts
        .iter()
        .map(|p| {
            if p.trim().is_empty() {
                return Err(MoveError::Syntax(t.to_string()));
            }
            square::parse::<G>(p).map_err(|reason| MoveError::Square {
                token: t.to_string(),
                reason,
            })
        })
        .collect()
}

/// Picks the single move among `found`, or explains why there is none or more than one.
fn single<R: Rules>(
    pos: &Position<R>,
    text: &str,
    found: Vec<Move>,
    legal: &[Move],
) -> Result<Move, MoveError> {
    match found.len() {
        0 => Err(MoveError::Illegal(text.trim().to_string())),
        1 => Ok(found[0]),
        _ => Err(MoveError::Ambiguous {
            text: text.trim().to_string(),
            candidates: found.iter().map(|m| write_pdn_in(pos, m, legal)).collect(),
        }),
    }
}

/// Reads a move in PDN notation.
pub fn parse_pdn<R: Rules>(pos: &Position<R>, text: &str) -> Result<Move, MoveError> {
    let sq = squares::<R::Board>(text)?;
    let legal = legal_moves(pos);
    single(pos, text, match_pdn(pos, &sq, &legal), &legal)
}

/// Reads a move in the Hub form.
pub fn parse_hub<R: Rules>(pos: &Position<R>, text: &str) -> Result<Move, MoveError> {
    let sq = squares::<R::Board>(text)?;
    let legal = legal_moves(pos);
    let found = if sq.len() == 2 {
        match_pdn(pos, &sq, &legal)
    } else {
        match_hub(&sq, &legal)
    };
    single(pos, text, found, &legal)
}

/// Reads a move in PDN or Hub form: with more than two squares, the Hub reading (from, to,
/// captured) is tried first, then PDN's long form (landing squares).
pub fn parse<R: Rules>(pos: &Position<R>, text: &str) -> Result<Move, MoveError> {
    let sq = squares::<R::Board>(text)?;
    let legal = legal_moves(pos);
    if sq.len() > 2 {
        let hub = match_hub(&sq, &legal);
        if !hub.is_empty() {
            return single(pos, text, hub, &legal);
        }
    }
    single(pos, text, match_pdn(pos, &sq, &legal), &legal)
}

/// Moves from the first to the last square. When several share them, the squares are read as a
/// complete path first (a single jump `d4:f2` is its own complete path), then as some of the
/// landing squares in order.
fn match_pdn<R: Rules>(pos: &Position<R>, sq: &[u8], legal: &[Move]) -> Vec<Move> {
    let (from, to) = (sq[0], sq[sq.len() - 1]);
    let via = &sq[1..sq.len() - 1];
    let candidates = legal.iter().filter(|m| m.from == from && m.to == to);
    if via.is_empty() && candidates.clone().count() <= 1 {
        return candidates.copied().collect();
    }
    for how in [Via::Exact, Via::Subsequence] {
        let found: Vec<Move> = candidates
            .clone()
            .filter(|m| find_path_as(pos, m, via, how).is_some())
            .copied()
            .collect();
        if !found.is_empty() {
            return found;
        }
    }
    Vec::new()
}

fn match_hub(sq: &[u8], legal: &[Move]) -> Vec<Move> {
    let captured = sq[2..].iter().fold(0u64, |acc, &b| acc | (1u64 << b));
    if captured.count_ones() as usize != sq.len() - 2 {
        return Vec::new(); // a captured square listed twice
    }
    legal
        .iter()
        .filter(|m| m.from == sq[0] && m.to == sq[1] && m.captured == captured)
        .copied()
        .collect()
}

/// Writes a move in PDN notation (long form only when needed to tell it apart).
pub fn write_pdn<R: Rules>(pos: &Position<R>, m: &Move) -> String {
    write_pdn_in(pos, m, &legal_moves(pos))
}

/// As [`write_pdn`], given the legal moves of the position.
pub fn write_pdn_in<R: Rules>(pos: &Position<R>, m: &Move, legal: &[Move]) -> String {
    let sq = |b: u8| square::write::<R::Board>(b, R::NOTATION);
    if !m.is_capture() {
        return format!("{}-{}", sq(m.from), sq(m.to));
    }
    let sep = if R::NOTATION == SquareNotation::Algebraic {
        ":"
    } else {
        "x"
    };
    let ambiguous = legal
        .iter()
        .any(|o| o.from == m.from && o.to == m.to && o.captured != m.captured);
    if ambiguous && let Some(path) = find_path(pos, m, &[]) {
        let mut s = sq(m.from);
        for b in path {
            s.push_str(sep);
            s.push_str(&sq(b));
        }
        return s;
    }
    format!("{}{sep}{}", sq(m.from), sq(m.to))
}

/// Writes a move in the Hub form with square numbers (`32-28`, `28x19x23`, captured ascending).
pub fn write_hub<R: Rules>(m: &Move) -> String {
    write_hub_as::<R>(m, SquareNotation::Numeric)
}

/// Writes a move in the Hub form with squares in the given notation.
pub fn write_hub_as<R: Rules>(m: &Move, notation: SquareNotation) -> String {
    let sq = |b: u8| square::write::<R::Board>(b, notation);
    if !m.is_capture() {
        return format!("{}-{}", sq(m.from), sq(m.to));
    }
    let mut s = format!("{}x{}", sq(m.from), sq(m.to));
    for b in Bits(m.captured) {
        s.push('x');
        s.push_str(&sq(b));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::notation::fen;
    use crate::draughts::rules::{International, Russian};

    #[test]
    fn quiet_and_capture() {
        let p = Position::<International>::start();
        let m = parse_pdn(&p, "32-28").unwrap();
        assert_eq!(write_pdn(&p, &m), "32-28");
        let p = p.make(&m);
        let p = p.make(&parse(&p, "19-23").unwrap());
        let m = parse(&p, "28x19").unwrap();
        assert_eq!(write_hub::<International>(&m), "28x19x23");
        assert_eq!(parse_hub(&p, "28x19x23").unwrap(), m);
        assert!(matches!(parse(&p, "28-22"), Err(MoveError::Illegal(_))));
        assert!(matches!(parse(&p, "28x19x24"), Err(MoveError::Illegal(_))));
    }

    #[test]
    fn algebraic_forms() {
        let p = Position::<Russian>::start();
        let m = parse(&p, "c3-d4").unwrap();
        assert_eq!(parse(&p, "22-18").unwrap(), m);
        assert_eq!(parse(&p, "c3d4").unwrap(), m);
        assert_eq!(write_pdn(&p, &m), "c3-d4");
        let p = fen::parse::<Russian>("W:Wc3:Bd4").unwrap();
        let m = parse(&p, "c3:e5").unwrap();
        assert_eq!(write_pdn(&p, &m), "c3:e5");
        assert_eq!(parse(&p, "c3xe5").unwrap(), m);
    }

    #[test]
    fn syntax_errors() {
        let p = Position::<International>::start();
        for bad in [
            "", "32", "32-", "-28", "32--28", "32-99", "hello", "32-28-", "é-28", "32 28",
        ] {
            assert!(parse(&p, bad).is_err(), "{bad}");
        }
        let e = parse(&p, "32-99").unwrap_err().to_string();
        assert!(e.contains("99"), "{e}");
    }
}
