//! The value of a position in the tables, one byte: draw, or a win or loss for the side to move
//! with the number of plies to the next removal (distance to conversion) under best play.
//!
//! | byte | value |
//! |---|---|
//! | `0` | draw |
//! | `1..=127` | win, the removal that keeps the win comes in `byte` plies (`1`: this move) |
//! | `128..=255` | loss in `byte - 128` plies (`0`: blocked now; the loser delays the removal) |
//!
//! Distances saturate at [`MAX_DISTANCE`] (127 means "127 or more"). The winner's distance is the
//! least over its winning moves, the loser's the greatest over all its moves; a removal made by
//! the loser counts 1, as any removal ends the count (it resets the 100-ply counter). The tables
//! ignore the 100-ply rule: a win in more plies than the counter leaves is the search's to judge.

/// Largest distance a byte holds; larger distances are stored as this.
pub const MAX_DISTANCE: u32 = 127;

/// The byte of a draw.
pub const DRAW: u8 = 0;

/// A value as the tables store it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// Neither side can force a win.
    Draw,
    /// The side to move wins; its next removal comes in this many plies (at most 127).
    Win(u32),
    /// The side to move loses; the opponent's next removal comes in this many plies at most.
    Loss(u32),
}

impl Value {
    /// The stored byte (distances saturate at [`MAX_DISTANCE`]; a win is at least 1 ply away).
    #[inline(always)]
    pub const fn encode(self) -> u8 {
        match self {
            Value::Draw => DRAW,
            Value::Win(d) => {
                let d = if d > MAX_DISTANCE { MAX_DISTANCE } else { d };
                if d == 0 { 1 } else { d as u8 }
            }
            Value::Loss(d) => 128 + if d > MAX_DISTANCE { MAX_DISTANCE } else { d } as u8,
        }
    }

    /// The value of a stored byte.
    #[inline(always)]
    pub const fn decode(b: u8) -> Value {
        match b {
            0 => Value::Draw,
            1..=127 => Value::Win(b as u32),
            _ => Value::Loss(b as u32 - 128),
        }
    }

    /// Whether the side to move wins.
    pub const fn is_win(self) -> bool {
        matches!(self, Value::Win(_))
    }

    /// Whether the side to move loses.
    pub const fn is_loss(self) -> bool {
        matches!(self, Value::Loss(_))
    }
}

/// Whether a stored byte is a win.
#[inline(always)]
pub const fn is_win(b: u8) -> bool {
    b != 0 && b < 128
}

/// Whether a stored byte is a loss.
#[inline(always)]
pub const fn is_loss(b: u8) -> bool {
    b >= 128
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_round_trip() {
        for b in 0..=255u8 {
            assert_eq!(Value::decode(b).encode(), b);
        }
        assert_eq!(Value::Win(500).encode(), 127);
        assert_eq!(Value::Loss(500).encode(), 255);
        assert!(is_win(Value::Win(1).encode()) && is_loss(Value::Loss(0).encode()));
        assert!(!is_win(DRAW) && !is_loss(DRAW));
    }
}
