//! The draughts position: a small `Copy` value, made by copy ("copy-make"), with an incrementally
//! updated Zobrist key and the variant's draw counters.
//!
//! Invariants (checked by [`Position::check`] in debug builds after every `make`):
//! - `pieces[White] & pieces[Black] == 0`, both inside `Board::ALL`;
//! - `kings` is a subset of `pieces[White] | pieces[Black]`;
//! - no man stands on its own promotion row (White's is the top row, Black's the bottom row);
//! - `key == compute_key()`.
//!
//! The start position and the text forms (`Debug`, `Display`: FEN and diagram) are written by
//! [`notation::fen`](super::notation::fen), the floor above, which implements them for
//! [`Position`]; the position itself imports no notation.

use crate::draughts::board::{Bits, Geometry};
use crate::draughts::draw::{Counters, DrawRule, Ply};
use crate::draughts::moves::Move;
use crate::draughts::rules::Rules;
use crate::game::color::Color;
use crate::game::rng::zobrist;
use std::fmt;
use std::marker::PhantomData;

/// A position that is not valid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// A square holds pieces of both colours.
    Overlap(u32),
    /// A man stands on its own promotion row.
    ManOnPromotionRow { color: Color, square: u32 },
    /// More pieces than the rules allow.
    TooManyPieces { color: Color, count: u32, max: u32 },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Overlap(s) => write!(f, "square {s} is given to both sides"),
            PositionError::ManOnPromotionRow { color, square } => {
                write!(f, "{color} man on square {square}, its own promotion row")
            }
            PositionError::TooManyPieces { color, count, max } => {
                write!(f, "{color} has {count} pieces, at most {max} are allowed")
            }
        }
    }
}

impl std::error::Error for PositionError {}

/// A draughts position under rules `R`.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Position<R: Rules> {
    pieces: [u64; 2],
    kings: u64,
    key: u64,
    counters: Counters,
    side: Color,
    _rules: PhantomData<R>,
}

impl<R: Rules> Position<R> {
    /// A position from its bitboards. Rejects overlapping colours, men on their own promotion row,
    /// and more pieces a side than the start position has.
    pub fn from_parts(
        white: u64,
        black: u64,
        kings: u64,
        side: Color,
    ) -> Result<Self, PositionError> {
        let all = <R::Board as Geometry>::ALL;
        debug_assert!((white | black) & !all == 0, "pieces on ghost bits");
        let (white, black) = (white & all, black & all);
        if white & black != 0 {
            let b = (white & black).trailing_zeros() as u8;
            return Err(PositionError::Overlap(R::Board::number_of_bit(b)));
        }
        let kings = kings & (white | black);
        let max = (R::Board::SIZE - 2) / 2 * R::Board::W; // 20 on 10x10, 12 on 8x8
        for (c, bb) in [(Color::White, white), (Color::Black, black)] {
            let men = bb & !kings;
            let row = if c == Color::White {
                R::Board::TOP
            } else {
                R::Board::BOTTOM
            };
            if men & row != 0 {
                let b = (men & row).trailing_zeros() as u8;
                return Err(PositionError::ManOnPromotionRow {
                    color: c,
                    square: R::Board::number_of_bit(b),
                });
            }
            let count = bb.count_ones();
            if count > max {
                return Err(PositionError::TooManyPieces {
                    color: c,
                    count,
                    max,
                });
            }
        }
        let mut p = Position {
            pieces: [white, black],
            kings,
            key: 0,
            counters: R::DRAW.fresh(),
            side,
            _rules: PhantomData,
        };
        p.key = p.compute_key();
        Ok(p)
    }

    /// The pieces of one side.
    #[inline(always)]
    pub fn pieces(&self, c: Color) -> u64 {
        self.pieces[c.index()]
    }

    /// White's pieces.
    #[inline(always)]
    pub fn white(&self) -> u64 {
        self.pieces[0]
    }

    /// Black's pieces.
    #[inline(always)]
    pub fn black(&self) -> u64 {
        self.pieces[1]
    }

    /// Every king.
    #[inline(always)]
    pub fn kings(&self) -> u64 {
        self.kings
    }

    /// Every man.
    #[inline(always)]
    pub fn men(&self) -> u64 {
        (self.pieces[0] | self.pieces[1]) & !self.kings
    }

    /// Occupied squares.
    #[inline(always)]
    pub fn occupied(&self) -> u64 {
        self.pieces[0] | self.pieces[1]
    }

    /// Empty squares (never includes ghost bits).
    #[inline(always)]
    pub fn empty(&self) -> u64 {
        <R::Board as Geometry>::ALL & !self.occupied()
    }

    /// The side to move.
    #[inline(always)]
    pub fn side(&self) -> Color {
        self.side
    }

    /// The Zobrist key (pieces and side to move; not the counters).
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The draw counters.
    #[inline(always)]
    pub fn counters(&self) -> &Counters {
        &self.counters
    }

    /// Sets the draw counters (for tests and for positions set up with a known history).
    pub fn set_counters(&mut self, c: Counters) {
        self.counters = c;
    }

    /// The draw rule under which this position is a draw, if any (repetition aside).
    pub fn draw_by_rule(&self) -> Option<&'static DrawRule> {
        R::DRAW.is_draw(&self.counters)
    }

    /// The same position with the other side to move (for null-move style probes and tests).
    pub fn with_side(&self, side: Color) -> Self {
        let mut p = *self;
        if side != self.side {
            p.side = side;
            p.key ^= zobrist::SIDE;
        }
        p
    }

    /// The Zobrist key computed from scratch.
    pub fn compute_key(&self) -> u64 {
        let mut k = if self.side == Color::Black {
            zobrist::SIDE
        } else {
            0
        };
        for c in Color::BOTH {
            for b in Bits(self.pieces[c.index()]) {
                let is_king = (self.kings >> b) & 1;
                k ^= zobrist::PIECE[c.index()][is_king as usize][b as usize];
            }
        }
        k
    }

    /// The position after `m`, which must be a legal move of this position (copy-make).
    ///
    /// The new value is built from locals and written once (copying `self` and then updating a
    /// field in memory stalls on store forwarding).
    #[inline(always)]
    pub fn make(&self, m: &Move) -> Self {
        let white = self.side == Color::White;
        let us = self.side.index();
        let them = 1 - us;
        let from = 1u64 << (m.from & 63);
        let to = 1u64 << (m.to & 63);
        let (own, opp) = if white {
            (self.pieces[0], self.pieces[1])
        } else {
            (self.pieces[1], self.pieces[0])
        };
        debug_assert!(
            own & from != 0,
            "no piece of the side to move on bit {}",
            m.from
        );
        let was_king = self.kings & from != 0;
        let own = own ^ from ^ to;
        let opp = opp & !m.captured;
        let mut kings = self.kings & !m.captured;
        let z = &zobrist::PIECE;
        let mut key = self.key ^ zobrist::SIDE ^ z[us][was_king as usize][(m.from & 63) as usize];
        if was_king {
            kings ^= from ^ to;
            key ^= z[us][1][(m.to & 63) as usize];
        } else if m.promotes() {
            kings |= to;
            key ^= z[us][1][(m.to & 63) as usize];
        } else {
            key ^= z[us][0][(m.to & 63) as usize];
        }
        for b in Bits(m.captured) {
            let k = (self.kings >> b) & 1;
            key ^= z[them][k as usize][(b & 63) as usize];
        }
        let pieces = if white { [own, opp] } else { [opp, own] };
        let ply = Ply {
            capture: m.captured != 0,
            man_move: !was_king,
            promotion: m.promotes(),
        };
        let next = Position {
            pieces,
            kings,
            key,
            counters: R::DRAW.advance::<R::Board>(&self.counters, ply, pieces, kings),
            side: !self.side,
            _rules: PhantomData,
        };
        debug_assert!(next.check().is_ok(), "{:?}", next.check());
        next
    }

    /// Checks the invariants listed in the module documentation.
    pub fn check(&self) -> Result<(), String> {
        let all = <R::Board as Geometry>::ALL;
        if self.pieces[0] & self.pieces[1] != 0 {
            return Err("colours overlap".into());
        }
        if (self.pieces[0] | self.pieces[1]) & !all != 0 {
            return Err("piece on a ghost bit".into());
        }
        if self.kings & !self.occupied() != 0 {
            return Err("king without a piece".into());
        }
        if self.pieces[0] & !self.kings & R::Board::TOP != 0 {
            return Err("white man on the top row".into());
        }
        if self.pieces[1] & !self.kings & R::Board::BOTTOM != 0 {
            return Err("black man on the bottom row".into());
        }
        if self.key != self.compute_key() {
            return Err("incremental key differs from the computed key".into());
        }
        Ok(())
    }
}
