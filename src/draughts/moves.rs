//! The draughts move value: from, to, the captured set and the promotion flag.

use std::fmt;

/// A draughts move: from and to (bit indices of the board layout, see [`board`](super::board)), the
/// set of captured pieces, and whether the moving man is promoted by it.
///
/// Two capture sequences with the same from, to and captured set are one move (RULES.md), so this
/// triple identifies a move completely; a path through the landing squares, for long notation, is
/// recovered from the position when needed ([`notation::path`](super::notation::path)). `from ==
/// to` is possible (a king capturing round a circle).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Move {
    /// Captured pieces' bits; 0 for a quiet move.
    pub captured: u64,
    /// Bit of the origin square.
    pub from: u8,
    /// Bit of the destination square.
    pub to: u8,
    /// `PROMOTES` or 0.
    pub flags: u8,
}

/// The moving man becomes a king.
pub const PROMOTES: u8 = 1;

impl Move {
    /// A quiet move.
    #[inline(always)]
    pub const fn quiet(from: u8, to: u8, promotes: bool) -> Move {
        Move {
            captured: 0,
            from,
            to,
            flags: if promotes { PROMOTES } else { 0 },
        }
    }

    /// A capture.
    #[inline(always)]
    pub const fn capture(from: u8, to: u8, captured: u64, promotes: bool) -> Move {
        Move {
            captured,
            from,
            to,
            flags: if promotes { PROMOTES } else { 0 },
        }
    }

    /// Whether the move captures.
    #[inline(always)]
    pub const fn is_capture(&self) -> bool {
        self.captured != 0
    }

    /// Whether the moving man is promoted.
    #[inline(always)]
    pub const fn promotes(&self) -> bool {
        self.flags & PROMOTES != 0
    }

    /// Number of pieces captured.
    #[inline(always)]
    pub const fn capture_count(&self) -> u32 {
        self.captured.count_ones()
    }

    /// Whether two moves are the same move (same from, to and captured set).
    #[inline(always)]
    pub const fn same_as(&self, other: &Move) -> bool {
        self.from == other.from && self.to == other.to && self.captured == other.captured
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move(bit {} -> bit {}", self.from, self.to)?;
        if self.captured != 0 {
            write!(f, ", captured {:#x}", self.captured)?;
        }
        if self.promotes() {
            write!(f, ", promotes")?;
        }
        write!(f, ")")
    }
}
