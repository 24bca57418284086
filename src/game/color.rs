//! The two sides of a board game.
//!
//! White moves "up" the board (toward square 1 / the top row as White sees it), Black moves
//! "down". Which side moves first is a rule fact of each variant, not of this type.

use std::fmt;
use std::ops::Not;

/// A side. `White as usize == 0`, `Black as usize == 1`: positions index their per-side arrays
/// with it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Color {
    #[default]
    White = 0,
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const BOTH: [Color; 2] = [Color::White, Color::Black];

    /// Index for per-side arrays.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The FEN letter (`W` or `B`).
    pub const fn letter(self) -> char {
        match self {
            Color::White => 'W',
            Color::Black => 'B',
        }
    }

    /// Parses a FEN/Hub side letter (`W`/`w` or `B`/`b`).
    pub fn from_letter(c: char) -> Option<Color> {
        match c {
            'W' | 'w' => Some(Color::White),
            'B' | 'b' => Some(Color::Black),
            _ => None,
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}
