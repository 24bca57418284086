//! Nine Men's Morris notation: points, moves and the position string.
//!
//! - Points: RULES.md's names on the 7x7 grid, `a1`..`g7` (24 of them; see
//!   [`board`]). Read case-insensitively, written in lower case.
//! - Moves: a placement `d6`, a slide or flight `a1-a4`, and either followed by the removal of a
//!   mill, `d6xa4`, `a1-a4xd7`. Readers also accept the removal as a separate token (`a1-a4 xd7`),
//!   an upper-case `X`, a slide without the dash (`a1a4`), trailing `!`/`?` marks, and a
//!   mill-closing move without its removal when only one enemy piece can be removed. A move text
//!   is matched against the legal moves, so a parsed move is legal by construction.
//! - Position string: `W:Wa1,a4,d7:Bg7,d6:H6,6:R0` — the side to move, then `:`-separated fields,
//!   each opened by a tag letter: `W` and `B` list the points of each side (comma-separated, any
//!   order, possibly empty), `H` the pieces in hand (White's, then Black's), `R` the no-removal
//!   counter (plies since the last removal or placement). The fields may come in any order; a
//!   missing `W`/`B` is an empty side, a missing `H` is `H0,0` and a missing `R` is `R0`. The start
//!   position is `W:W:B:H9,9:R0`. A surrounding pair of quotes and a trailing `.` are ignored.
//!   The writer gives every field, points in name order (`a1`, `a4`, `a7`, `b2`, ...).
//!
//! Every reader returns a typed error whose message names the offending token; none panics on
//! any input.

use super::board::{self, NAMES, points};
use super::movegen::generate;
use super::moves::Move;
use super::position::{MorrisPosition, PIECES_PER_SIDE, PositionError};
use crate::game::MoveError;
use crate::game::MoveList;
use crate::game::SquareError;
use crate::game::color::Color;
use std::fmt;

/// Reads a point name (`a1`..`g7`, any case).
pub fn parse_point(token: &str) -> Result<u8, SquareError> {
    let t = token.trim();
    match board::point_of_name(&t.to_ascii_lowercase()) {
        Some(p) => Ok(p),
        None => Err(SquareError::Syntax(t.to_string())),
    }
}

/// The name of a point.
pub fn point_name(p: u8) -> &'static str {
    NAMES.get(p as usize).copied().unwrap_or("?")
}

/// Writes a move: `d6`, `d6xa4`, `a1-a4`, `a1-a4xd7` (a bare removal, a perft-only ply: `xa4`).
pub fn write_move(m: &Move) -> String {
    let mut s = String::with_capacity(8);
    if let Some(from) = m.from() {
        s.push_str(point_name(from));
        s.push('-');
    }
    if (m.to() as usize) < board::POINTS {
        s.push_str(point_name(m.to()));
    }
    if let Some(r) = m.removal() {
        s.push('x');
        s.push_str(point_name(r));
    }
    s
}

/// A move text taken apart: origin, destination and removal, before matching.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Parts {
    from: Option<u8>,
    to: u8,
    removal: Option<u8>,
}

fn syntax(text: &str) -> MoveError {
    MoveError::Syntax(text.to_string())
}

fn point_in(text: &str, token: &str) -> Result<u8, MoveError> {
    if token.trim().is_empty() {
        return Err(syntax(text));
    }
    parse_point(token).map_err(|reason| MoveError::Square {
        token: text.to_string(),
        reason,
    })
}

fn split_move(text: &str) -> Result<Parts, MoveError> {
    let t = text.trim().trim_end_matches(['!', '?']).trim_end();
    if t.is_empty() {
        return Err(MoveError::Empty);
    }
    // The removal may stand as a token of its own after the move: `a1-a4 xd7`.
    let tokens: Vec<&str> = t.split_whitespace().collect();
    let (action, removal) = match tokens.as_slice() {
        [one] => match one.find(['x', 'X']) {
            Some(i) => (&one[..i], Some(&one[i + 1..])),
            None => (*one, None),
        },
        [first, second] if second.starts_with(['x', 'X']) && !first.contains(['x', 'X']) => {
            (*first, Some(&second[1..]))
        }
        _ => return Err(syntax(t)),
    };
    let removal = match removal {
        Some(r) => Some(point_in(t, r)?),
        None => None,
    };
    let (from, to) = if let Some((a, b)) = action.split_once('-') {
        (Some(point_in(t, a)?), point_in(t, b)?)
    } else if action.len() == 4 && action.is_ascii() {
        (Some(point_in(t, &action[..2])?), point_in(t, &action[2..])?)
    } else {
        (None, point_in(t, action)?)
    };
    Ok(Parts { from, to, removal })
}

/// Reads a move in any accepted form and matches it against the legal moves of `pos`.
pub fn parse_move(pos: &MorrisPosition, text: &str) -> Result<Move, MoveError> {
    let parts = split_move(text)?;
    let t = text.trim();
    let mut legal = MoveList::default();
    generate(pos, &mut legal);
    let same_action = |m: &&Move| m.from() == parts.from && m.to() == parts.to;
    let found: Vec<Move> = match parts.removal {
        Some(r) => legal
            .iter()
            .filter(same_action)
            .filter(|m| m.removal() == Some(r))
            .copied()
            .collect(),
        None => legal.iter().filter(same_action).copied().collect(),
    };
    match found.as_slice() {
        [] => Err(MoveError::Illegal(t.to_string())),
        [m] => Ok(*m),
        _ => Err(MoveError::Ambiguous {
            text: t.to_string(),
            candidates: found.iter().map(write_move).collect(),
        }),
    }
}

/// Why a position string was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Nothing but blanks.
    Empty,
    /// The first field is not `W` or `B`.
    BadSideToMove(String),
    /// A field whose tag is not `W`, `B`, `H` or `R` (or an empty field).
    UnknownField(String),
    /// A field given twice.
    DuplicateField(String),
    /// A piece that is not a point.
    BadPoint { token: String, reason: SquareError },
    /// A point listed twice (for one side or for both).
    DuplicatePoint(String),
    /// An `H` field that is not two counts `0`..`9` separated by a comma.
    BadHand(String),
    /// An `R` field that is not a count of plies (`0`..`65535`).
    BadCounter(String),
    /// The parts do not make a valid position.
    Position(PositionError),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "empty position string"),
            FenError::BadSideToMove(t) => {
                write!(
                    f,
                    "bad side to move '{t}' (expected W or B before the first ':')"
                )
            }
            FenError::UnknownField(t) => write!(
                f,
                "unknown field '{t}' (expected W<points>, B<points>, H<white>,<black> or R<plies>)"
            ),
            FenError::DuplicateField(t) => write!(f, "field '{t}' is given twice"),
            FenError::BadPoint { token, reason } => write!(f, "bad point '{token}': {reason}"),
            FenError::DuplicatePoint(t) => write!(f, "point '{t}' is listed twice"),
            FenError::BadHand(t) => write!(
                f,
                "bad pieces in hand '{t}' (expected H<white>,<black>, each 0-{PIECES_PER_SIDE})"
            ),
            FenError::BadCounter(t) => {
                write!(
                    f,
                    "bad no-removal counter '{t}' (expected R<plies>, 0-65535)"
                )
            }
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

/// A decimal count of at most 5 digits.
fn count(text: &str) -> Option<u32> {
    let t = text.trim();
    if t.is_empty() || t.len() > 5 || !t.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    t.parse().ok()
}

/// Reads a position string (see the module documentation).
pub fn parse_fen(text: &str) -> Result<MorrisPosition, FenError> {
    // Quotes and a final `.`, in either order.
    let unwrap = |s: &str| -> String {
        let s = s.trim().trim_end_matches('.').trim_end();
        let s = s
            .strip_prefix('"')
            .and_then(|s| s.strip_suffix('"'))
            .unwrap_or(s);
        s.trim().trim_end_matches('.').trim_end().to_string()
    };
    let s = unwrap(text);
    if s.is_empty() {
        return Err(FenError::Empty);
    }
    let mut fields = s.split(':');
    let side_field = fields.next().unwrap_or("").trim();
    let mut letters = side_field.chars();
    let side = match (letters.next().and_then(Color::from_letter), letters.next()) {
        (Some(c), None) => c,
        _ => return Err(FenError::BadSideToMove(side_field.to_string())),
    };
    let mut pieces = [0u32; 2];
    let mut seen_side = [false; 2];
    let mut hand: Option<[u8; 2]> = None;
    let mut counter: Option<u16> = None;
    for field in fields {
        let field = field.trim();
        let mut chars = field.chars();
        let tag = chars.next().map(|c| c.to_ascii_uppercase());
        let body = chars.as_str();
        match tag {
            Some(c @ ('W' | 'B')) => {
                let color = if c == 'W' { Color::White } else { Color::Black };
                if std::mem::replace(&mut seen_side[color.index()], true) {
                    return Err(FenError::DuplicateField(field.to_string()));
                }
                if body.trim().is_empty() {
                    continue;
                }
                for token in body.split(',') {
                    let p = parse_point(token).map_err(|reason| FenError::BadPoint {
                        token: token.trim().to_string(),
                        reason,
                    })?;
                    if (pieces[0] | pieces[1]) & board::bit(p) != 0 {
                        return Err(FenError::DuplicatePoint(point_name(p).to_string()));
                    }
                    pieces[color.index()] |= board::bit(p);
                }
            }
            Some('H') => {
                if hand.is_some() {
                    return Err(FenError::DuplicateField(field.to_string()));
                }
                let bad = || FenError::BadHand(field.to_string());
                let (w, b) = body.split_once(',').ok_or_else(bad)?;
                let (w, b) = (count(w).ok_or_else(bad)?, count(b).ok_or_else(bad)?);
                if w > PIECES_PER_SIDE as u32 || b > PIECES_PER_SIDE as u32 {
                    return Err(bad());
                }
                hand = Some([w as u8, b as u8]);
            }
            Some('R') => {
                if counter.is_some() {
                    return Err(FenError::DuplicateField(field.to_string()));
                }
                let n = count(body)
                    .and_then(|n| u16::try_from(n).ok())
                    .ok_or_else(|| FenError::BadCounter(field.to_string()))?;
                counter = Some(n);
            }
            _ => return Err(FenError::UnknownField(field.to_string())),
        }
    }
    Ok(MorrisPosition::new(
        pieces[0],
        pieces[1],
        hand.unwrap_or([0, 0]),
        side,
        counter.unwrap_or(0),
    )?)
}

/// The points of a set in name order (`a1`, `a4`, `a7`, `b2`, ...), comma-separated.
fn point_list(set: u32) -> String {
    let mut names: Vec<&str> = points(set).map(point_name).collect();
    names.sort_unstable();
    names.join(",")
}

/// Writes the position string, every field given.
pub fn write_fen(pos: &MorrisPosition) -> String {
    format!(
        "{}:W{}:B{}:H{},{}:R{}",
        pos.side().letter(),
        point_list(pos.pieces(Color::White)),
        point_list(pos.pieces(Color::Black)),
        pos.in_hand(Color::White),
        pos.in_hand(Color::Black),
        pos.no_removal()
    )
}

// The position's text forms are written here, so that the position imports no notation.

impl Default for MorrisPosition {
    fn default() -> Self {
        Self::start()
    }
}

impl fmt::Debug for MorrisPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MorrisPosition({})", write_fen(self))
    }
}

/// The drawing of [`fmt::Display`]: `*` marks a point, filled in with `W`, `B` or `.`.
const DIAGRAM: [&str; 13] = [
    "7 *-----------*-----------*",
    "  |           |           |",
    "6 |   *-------*-------*   |",
    "  |   |       |       |   |",
    "5 |   |   *---*---*   |   |",
    "  |   |   |       |   |   |",
    "4 *---*---*       *---*---*",
    "  |   |   |       |   |   |",
    "3 |   |   *---*---*   |   |",
    "  |   |       |       |   |",
    "2 |   *-------*-------*   |",
    "  |           |           |",
    "1 *-----------*-----------*",
];

impl fmt::Display for MorrisPosition {
    /// A diagram (`W`, `B`, `.` for empty points), then the position string.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (row, line) in DIAGRAM.iter().enumerate() {
            let rank = 7 - row / 2;
            let mut out = String::with_capacity(line.len());
            for (col, ch) in line.chars().enumerate() {
                if ch != '*' {
                    out.push(ch);
                    continue;
                }
                let file = (b'a' + ((col - 2) / 4) as u8) as char;
                let name = format!("{file}{rank}");
                let c = match board::point_of_name(&name) {
                    Some(p) if self.pieces(Color::White) & board::bit(p) != 0 => 'W',
                    Some(p) if self.pieces(Color::Black) & board::bit(p) != 0 => 'B',
                    _ => '.',
                };
                out.push(c);
            }
            writeln!(f, "{out}")?;
        }
        writeln!(f, "  a   b   c   d   e   f   g")?;
        write!(f, "{}", write_fen(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_texts() {
        let p = |s| split_move(s);
        let pt = |n| board::point_of_name(n).unwrap();
        assert_eq!(
            p("d6"),
            Ok(Parts {
                from: None,
                to: pt("d6"),
                removal: None
            })
        );
        let full = Parts {
            from: Some(pt("a1")),
            to: pt("a4"),
            removal: Some(pt("d7")),
        };
        for s in [
            "a1-a4xd7",
            "a1-a4 xd7",
            " A1-A4XD7 ",
            "a1a4xd7",
            "a1-a4xd7!",
            "a1-a4   Xd7?",
        ] {
            assert_eq!(p(s), Ok(full), "{s}");
        }
        assert_eq!(p(""), Err(MoveError::Empty));
        assert_eq!(p(" !? "), Err(MoveError::Empty));
        for s in [
            "a1-",
            "-a4",
            "a1-a4-d7",
            "xd7",
            "a1 a4",
            "a1-a4 d7",
            "a1xd7 xd6",
            "a1--a4",
        ] {
            assert!(p(s).is_err(), "{s}");
        }
        assert!(matches!(p("a2"), Err(MoveError::Square { .. })));
        assert!(matches!(p("d6xz9"), Err(MoveError::Square { .. })));
    }
}
