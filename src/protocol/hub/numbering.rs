//! The square numbering of 8x8 boards in Hub messages: ours (RULES.md) or pydraughts'.
//!
//! The Hub protocol only defines 10x10. We number 8x8 boards as RULES.md does (square 1 = b8,
//! White's men on 21-32, English Black's on 1-12) in positions and moves alike. pydraughts (and so
//! lidraughts-bot) is not self-consistent on 8x8 (checked by running pydraughts 0.6.7):
//!
//! - russian and brazilian: its `pos=` string is in our order, but its moves, and the moves it
//!   expects back, number the rows from the other side (1 = a1, 4 = g1, 5 = b2, ..., 32 = h8);
//! - english: its moves are in the official numbering (ours), but its `pos=` string is turned
//!   half a turn with the colours swapped (the side that moves first is written `W`, its men on
//!   21-32).
//!
//! [`Numbering::Pydraughts`] (Hub parameter `numbering-8x8=pydraughts`) translates both ways so
//! that pydraughts' `HubEngine` can play these variants. Duoyibu, which pydraughts does not know,
//! is treated like russian. 10x10 and Morris are never translated.

use crate::game::Variant;
use std::fmt;
use std::str::FromStr;

/// How 8x8 squares are numbered in Hub positions and moves.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Numbering {
    /// RULES.md's numbering everywhere (square 1 = b8).
    #[default]
    Tiao,
    /// What pydraughts sends and expects (see the module documentation).
    Pydraughts,
}

impl Numbering {
    /// Every value, as the Hub parameter declares them.
    pub const ALL: [Numbering; 2] = [Numbering::Tiao, Numbering::Pydraughts];

    /// The parameter value.
    pub const fn name(self) -> &'static str {
        match self {
            Numbering::Tiao => "tiao",
            Numbering::Pydraughts => "pydraughts",
        }
    }

    /// Whether moves of `variant` have their rows renumbered.
    fn flips_moves(self, variant: Variant) -> bool {
        self == Numbering::Pydraughts
            && matches!(
                variant,
                Variant::Russian | Variant::Brazilian | Variant::Duoyibu
            )
    }

    /// Whether `pos=` strings of `variant` are turned and recoloured.
    fn turns_positions(self, variant: Variant) -> bool {
        self == Numbering::Pydraughts && variant == Variant::English
    }

    /// A `pos=` string as received, in our order.
    pub fn position_in(self, variant: Variant, s: &str) -> String {
        let s = s.trim();
        if !self.turns_positions(variant) || s.chars().count() != 33 {
            return s.to_string();
        }
        let mut chars = s.chars();
        let side = chars.next().map(swap_colour);
        side.into_iter()
            .chain(chars.rev().map(swap_colour))
            .collect()
    }

    /// A move as received (Hub or PDN text), in our numbering.
    pub fn move_in(self, variant: Variant, m: &str) -> String {
        self.translate(variant, m)
    }

    /// A move of ours (Hub form), as the client numbers it.
    pub fn move_out(self, variant: Variant, m: &str) -> String {
        self.translate(variant, m)
    }

    /// Renumbers the squares of a numeric move; anything else is returned as is. The renumbering
    /// is its own inverse.
    fn translate(self, variant: Variant, m: &str) -> String {
        let numeric = m
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '-' | 'x' | 'X' | ':'));
        if !self.flips_moves(variant) || !numeric {
            return m.to_string();
        }
        let mut out = String::with_capacity(m.len());
        let mut number = String::new();
        let flush = |number: &mut String, out: &mut String| {
            if !number.is_empty() {
                match number.parse::<u32>() {
                    Ok(n) if (1..=32).contains(&n) => out.push_str(&flip_rows(n).to_string()),
                    _ => out.push_str(number),
                }
                number.clear();
            }
        };
        for c in m.chars() {
            if c.is_ascii_digit() {
                number.push(c);
            } else {
                flush(&mut number, &mut out);
                out.push(c);
            }
        }
        flush(&mut number, &mut out);
        out
    }
}

/// Square `n` (1..=32) of one 8x8 numbering in the numbering that counts the rows from the other
/// side, each row still left to right.
fn flip_rows(n: u32) -> u32 {
    let (row, col) = ((n - 1) / 4, (n - 1) % 4);
    (7 - row) * 4 + col + 1
}

fn swap_colour(c: char) -> char {
    match c {
        'w' => 'b',
        'b' => 'w',
        'W' => 'B',
        'B' => 'W',
        other => other,
    }
}

impl fmt::Display for Numbering {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Numbering {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "tiao" | "rules" | "standard" => Ok(Numbering::Tiao),
            "pydraughts" => Ok(Numbering::Pydraughts),
            other => Err(format!(
                "unknown numbering '{other}' (expected tiao or pydraughts)"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn russian_moves_flip_rows() {
        let p = Numbering::Pydraughts;
        // pydraughts' 10-14 is c3-d4, our 22-18.
        assert_eq!(p.move_in(Variant::Russian, "10-14"), "22-18");
        assert_eq!(p.move_out(Variant::Russian, "22-18"), "10-14");
        assert_eq!(p.move_in(Variant::Brazilian, "1x10x5"), "29x22x25");
        assert_eq!(p.move_in(Variant::Russian, "c3-d4"), "c3-d4");
        assert_eq!(p.move_in(Variant::International, "10-14"), "10-14");
        assert_eq!(p.move_in(Variant::English, "11-15"), "11-15");
        assert_eq!(Numbering::Tiao.move_in(Variant::Russian, "10-14"), "10-14");
        for n in 1..=32 {
            assert_eq!(flip_rows(flip_rows(n)), n);
        }
    }

    #[test]
    fn english_positions_turn_and_recolour() {
        let p = Numbering::Pydraughts;
        // pydraughts' English start: the first mover written W, its men on 21-32.
        assert_eq!(
            p.position_in(Variant::English, "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"),
            "Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"
        );
        assert_eq!(
            p.position_in(Variant::English, &format!("BW{}b", "e".repeat(30))),
            format!("Ww{}B", "e".repeat(30))
        );
        assert_eq!(
            p.position_in(Variant::Russian, "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"),
            "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"
        );
    }
}
