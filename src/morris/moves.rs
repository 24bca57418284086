//! The Nine Men's Morris move value: three points, where the piece comes from (none for a
//! placement), where it goes, and the enemy piece it removes (none unless the move closes a mill).
//! An absent part is [`NO_POINT`].

use super::board::{self, NO_POINT};
use std::fmt;

/// A move: `from` (or none: a placement), `to`, and the removed point (or none).
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Move {
    from: u8,
    to: u8,
    removal: u8,
}

impl Default for Move {
    /// The null move (no part set); never legal.
    fn default() -> Self {
        Move {
            from: NO_POINT,
            to: NO_POINT,
            removal: NO_POINT,
        }
    }
}

impl Move {
    /// Placing a piece from hand on `to`.
    #[inline(always)]
    pub const fn place(to: u8) -> Move {
        Move {
            from: NO_POINT,
            to,
            removal: NO_POINT,
        }
    }

    /// Moving a piece from `from` to `to` (sliding or flying).
    #[inline(always)]
    pub const fn step(from: u8, to: u8) -> Move {
        Move {
            from,
            to,
            removal: NO_POINT,
        }
    }

    /// The same move removing the enemy piece on `point`.
    #[inline(always)]
    pub const fn removing(self, point: u8) -> Move {
        Move {
            removal: point,
            ..self
        }
    }

    /// A removal alone: a ply of its own in Sanmill's perft convention (see `morris::perft`).
    #[inline(always)]
    pub const fn bare_removal(point: u8) -> Move {
        Move {
            from: NO_POINT,
            to: NO_POINT,
            removal: point,
        }
    }

    /// Origin point; `None` for a placement.
    #[inline(always)]
    pub const fn from(&self) -> Option<u8> {
        some_point(self.from)
    }

    /// Destination point ([`NO_POINT`] only for a bare removal or the null move).
    #[inline(always)]
    pub const fn to(&self) -> u8 {
        self.to
    }

    /// Removed point, if the move closes a mill.
    #[inline(always)]
    pub const fn removal(&self) -> Option<u8> {
        some_point(self.removal)
    }

    /// Whether the move places a piece from hand.
    #[inline(always)]
    pub const fn is_placement(&self) -> bool {
        self.from == NO_POINT && self.to != NO_POINT
    }

    /// Whether the move removes an enemy piece.
    #[inline(always)]
    pub const fn is_removal(&self) -> bool {
        self.removal != NO_POINT
    }

    /// The move without its removal.
    #[inline(always)]
    pub const fn action(&self) -> Move {
        Move {
            removal: NO_POINT,
            ..*self
        }
    }
}

/// `None` for [`NO_POINT`].
#[inline(always)]
const fn some_point(p: u8) -> Option<u8> {
    if p == NO_POINT { None } else { Some(p) }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = |p: u8| board::NAMES.get(p as usize).copied().unwrap_or("-");
        write!(f, "Move(")?;
        if let Some(from) = self.from() {
            write!(f, "{}-", name(from))?;
        }
        write!(f, "{}", name(self.to))?;
        if let Some(r) = self.removal() {
            write!(f, "x{}", name(r))?;
        }
        write!(f, ")")
    }
}
