//! The Nine Men's Morris position: a small `Copy` value (24 bytes), made by copy ("copy-make"),
//! with an incrementally updated Zobrist key.
//!
//! It holds the pieces of both sides (point sets, see [`board`] for the layout), the
//! pieces each side still has in hand, the side to move, and the no-removal counter (plies since
//! the last removal or placement: RULES.md's draw by 100 plies of the moving phase without a
//! removal, and the window in which a position can repeat).
//!
//! Phases are per side, read off the position: a side with pieces in hand **places**; without, it
//! **slides** along the lines, or **flies** to any empty point when it has exactly 3 pieces on the
//! board. A side to move with no pieces in hand and fewer than 3 on the board has lost.
//!
//! Invariants (checked by [`MorrisPosition::check`] in debug builds after every `make`):
//! - `pieces[White] & pieces[Black] == 0`, both inside [`board::ALL`];
//! - each side has at most 9 pieces on the board and in hand together;
//! - `key == compute_key()`: the key covers the pieces, the side to move and both counts of pieces
//!   in hand (repetition compares all of them, RULES.md), not the no-removal counter.
//!
//! [`MorrisPosition::new`] (and so the position string) also rejects positions that cannot arise
//! in a game: pieces in hand out of turn (White places first, so while anyone has pieces in hand
//! White to move has as many as Black and Black to move one more than White), and a side not to
//! move that has already lost.

use super::board::{self, ALL, NO_POINT, bit};
use super::moves::Move;
use crate::game::color::Color;
use std::fmt;

/// Pieces each side has (RULES.md: 9).
pub const PIECES_PER_SIDE: u8 = 9;
/// A side with this many pieces on the board and none in hand flies; with fewer it has lost.
pub const FLYING_PIECES: u32 = 3;
/// The draw by plies of the moving phase without a removal (RULES.md: 50 moves each).
pub const DRAW_PLIES: u16 = 100;

/// Zobrist keys: `PIECE[color][point]`, `HAND[color][count in hand]`, and `SIDE` for Black to
/// move. They are the draughts tables' random numbers (men's keys for pieces, kings' keys for
/// counts in hand), 64 a row, so that indexing with `& 63` needs no bounds check.
pub mod zobrist {
    use crate::game::rng::zobrist as draughts;

    /// Key of a piece of colour `c` (0 White, 1 Black) on point `p` (`PIECE[c][p]`, `p < 24`).
    pub const PIECE: [[u64; 64]; 2] = [draughts::PIECE[0][0], draughts::PIECE[1][0]];
    /// Key of colour `c` having `n` pieces in hand (`HAND[c][n]`, `n <= 9`).
    pub const HAND: [[u64; 64]; 2] = [draughts::PIECE[0][1], draughts::PIECE[1][1]];
    /// Xored in when Black is to move.
    pub const SIDE: u64 = draughts::SIDE;
}

/// A position that is not valid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// Bits outside the 24 points.
    OffBoard(u32),
    /// A point holds pieces of both colours (its name).
    Overlap(&'static str),
    /// More than 9 pieces on the board and in hand together.
    TooManyPieces {
        color: Color,
        on_board: u32,
        in_hand: u32,
    },
    /// Pieces in hand that do not fit the side to move (White places first).
    HandsOutOfTurn { side: Color, white: u8, black: u8 },
    /// The side that just moved has fewer than 3 pieces and none in hand: the game was over.
    AlreadyLost(Color),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::OffBoard(bits) => write!(f, "bits {bits:#x} are not points"),
            PositionError::Overlap(p) => write!(f, "point {p} is given to both sides"),
            PositionError::TooManyPieces {
                color,
                on_board,
                in_hand,
            } => write!(
                f,
                "{color} has {on_board} pieces on the board and {in_hand} in hand, more than {PIECES_PER_SIDE}"
            ),
            PositionError::HandsOutOfTurn { side, white, black } => write!(
                f,
                "{side} to move with {white} white and {black} black pieces in hand: while pieces \
                 are in hand, White to move has as many as Black, Black to move one more"
            ),
            PositionError::AlreadyLost(c) => write!(
                f,
                "{c} is not to move and has fewer than {FLYING_PIECES} pieces and none in hand: \
                 the game is already over"
            ),
        }
    }
}

impl std::error::Error for PositionError {}

/// A Nine Men's Morris position.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct MorrisPosition {
    pieces: [u32; 2],
    key: u64,
    hand: [u8; 2],
    no_removal: u16,
    side: Color,
}

impl MorrisPosition {
    /// The start position: an empty board, 9 pieces in hand each, White to move.
    pub fn start() -> Self {
        let mut p = MorrisPosition {
            pieces: [0, 0],
            key: 0,
            hand: [PIECES_PER_SIDE; 2],
            no_removal: 0,
            side: Color::White,
        };
        p.key = p.compute_key();
        p
    }

    /// A position from its parts, validated as the module documentation says.
    pub fn new(
        white: u32,
        black: u32,
        in_hand: [u8; 2],
        side: Color,
        no_removal: u16,
    ) -> Result<Self, PositionError> {
        if (white | black) & !ALL != 0 {
            return Err(PositionError::OffBoard((white | black) & !ALL));
        }
        if white & black != 0 {
            let p = (white & black).trailing_zeros() as usize;
            return Err(PositionError::Overlap(board::NAMES[p]));
        }
        let pieces = [white, black];
        for c in Color::BOTH {
            let (on_board, in_hand) = (pieces[c.index()].count_ones(), in_hand[c.index()] as u32);
            if on_board + in_hand > PIECES_PER_SIDE as u32 {
                return Err(PositionError::TooManyPieces {
                    color: c,
                    on_board,
                    in_hand,
                });
            }
        }
        let [w, b] = in_hand;
        let in_turn = (w == 0 && b == 0)
            || match side {
                Color::White => w == b,
                Color::Black => b == w + 1,
            };
        if !in_turn {
            return Err(PositionError::HandsOutOfTurn {
                side,
                white: w,
                black: b,
            });
        }
        let mover = !side;
        if in_hand[mover.index()] == 0 && pieces[mover.index()].count_ones() < FLYING_PIECES {
            return Err(PositionError::AlreadyLost(mover));
        }
        let mut p = MorrisPosition {
            pieces,
            key: 0,
            hand: in_hand,
            no_removal,
            side,
        };
        p.key = p.compute_key();
        Ok(p)
    }

    /// The pieces of one side.
    #[inline(always)]
    pub fn pieces(&self, c: Color) -> u32 {
        self.pieces[c.index()]
    }

    /// Occupied points.
    #[inline(always)]
    pub fn occupied(&self) -> u32 {
        self.pieces[0] | self.pieces[1]
    }

    /// Empty points.
    #[inline(always)]
    pub fn empty(&self) -> u32 {
        ALL & !self.occupied()
    }

    /// Pieces of one side still in hand.
    #[inline(always)]
    pub fn in_hand(&self, c: Color) -> u8 {
        self.hand[c.index()]
    }

    /// Pieces of one side on the board.
    #[inline(always)]
    pub fn on_board(&self, c: Color) -> u32 {
        self.pieces[c.index()].count_ones()
    }

    /// The side to move.
    #[inline(always)]
    pub fn side(&self) -> Color {
        self.side
    }

    /// The Zobrist key (pieces, pieces in hand, side to move; not the no-removal counter).
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Plies since the last removal or placement.
    #[inline(always)]
    pub fn no_removal(&self) -> u16 {
        self.no_removal
    }

    /// Whether side `c` places a piece when it is to move (it has pieces in hand).
    #[inline(always)]
    pub fn places(&self, c: Color) -> bool {
        self.hand[c.index()] > 0
    }

    /// Whether side `c` flies when it is to move: no pieces in hand, exactly 3 on the board.
    #[inline(always)]
    pub fn flies(&self, c: Color) -> bool {
        self.hand[c.index()] == 0 && self.on_board(c) == FLYING_PIECES
    }

    /// Whether side `c` has lost by material: no pieces in hand and fewer than 3 on the board.
    /// (A side to move that is blocked has lost too; that takes move generation.)
    #[inline(always)]
    pub fn lost_by_material(&self, c: Color) -> bool {
        self.hand[c.index()] == 0 && self.on_board(c) < FLYING_PIECES
    }

    /// A draw by RULES.md's counter: 100 plies of the moving phase without a removal.
    #[inline(always)]
    pub fn draw_by_rule(&self) -> bool {
        self.no_removal >= DRAW_PLIES
    }

    /// The Zobrist key computed from scratch.
    pub fn compute_key(&self) -> u64 {
        let mut k = if self.side == Color::Black {
            zobrist::SIDE
        } else {
            0
        };
        for c in Color::BOTH {
            for p in board::points(self.pieces[c.index()]) {
                k ^= zobrist::PIECE[c.index()][p as usize];
            }
            k ^= zobrist::HAND[c.index()][self.hand[c.index()] as usize & 63];
        }
        k
    }

    /// The position after `m`, which must be a legal move of this position (copy-make). A move
    /// that closes a mill carries its removal; one that closes none must carry none.
    #[inline(always)]
    pub fn make(&self, m: &Move) -> Self {
        let us = self.side.index();
        let them = us ^ 1;
        let to = m.to();
        debug_assert!(self.empty() & bit(to) != 0, "{m:?} lands on a taken point");
        let z = &zobrist::PIECE;
        let mut own = self.pieces[us] | bit(to);
        let mut key = self.key ^ zobrist::SIDE ^ z[us][to as usize & 63];
        let mut hand = self.hand;
        let mut no_removal;
        match m.from() {
            None => {
                let h = hand[us];
                debug_assert!(h > 0, "placing with no piece in hand");
                hand[us] = h.wrapping_sub(1);
                key ^= zobrist::HAND[us][h as usize & 63]
                    ^ zobrist::HAND[us][h.wrapping_sub(1) as usize & 63];
                no_removal = 0;
            }
            Some(from) => {
                debug_assert!(self.pieces[us] & bit(from) != 0, "{m:?}: no piece to move");
                own ^= bit(from);
                key ^= z[us][from as usize & 63];
                no_removal = self.no_removal.saturating_add(1);
            }
        }
        let mut opp = self.pieces[them];
        if let Some(r) = m.removal() {
            debug_assert!(opp & bit(r) != 0, "{m:?}: no piece to remove");
            opp &= !bit(r);
            key ^= z[them][r as usize & 63];
            no_removal = 0;
        }
        let pieces = if us == 0 { [own, opp] } else { [opp, own] };
        let next = MorrisPosition {
            pieces,
            key,
            hand,
            no_removal,
            side: !self.side,
        };
        debug_assert!(next.check().is_ok(), "{:?}", next.check());
        next
    }

    /// The position with piece `p` of the side to move removed (a removal played as a ply of its
    /// own, for perft in Sanmill's convention): the side to move stays, the counter resets.
    #[inline(always)]
    pub(crate) fn remove_own(&self, p: u8) -> Self {
        let us = self.side.index();
        let mut next = *self;
        debug_assert!(self.pieces[us] & bit(p) != 0);
        next.pieces[us] &= !bit(p);
        next.key ^= zobrist::PIECE[us][p as usize & 63];
        next.no_removal = 0;
        next
    }

    /// The position with every point set mapped by `f` (a symmetry of the board), for tests.
    #[cfg(test)]
    pub(crate) fn mapped(&self, f: impl Fn(u32) -> u32) -> Self {
        let mut p = *self;
        p.pieces = [f(self.pieces[0]), f(self.pieces[1])];
        p.key = p.compute_key();
        p
    }

    /// The position with the colours swapped (side to move too), for tests; the pieces in hand
    /// may then be out of turn.
    #[cfg(test)]
    pub(crate) fn swapped_colours(&self) -> Self {
        let mut p = *self;
        p.pieces = [self.pieces[1], self.pieces[0]];
        p.hand = [self.hand[1], self.hand[0]];
        p.side = !self.side;
        p.key = p.compute_key();
        p
    }

    /// Checks the invariants listed in the module documentation.
    pub fn check(&self) -> Result<(), String> {
        if self.pieces[0] & self.pieces[1] != 0 {
            return Err("colours overlap".into());
        }
        if self.occupied() & !ALL != 0 {
            return Err("piece off the board".into());
        }
        for c in Color::BOTH {
            if self.on_board(c) + self.hand[c.index()] as u32 > PIECES_PER_SIDE as u32 {
                return Err(format!("{c} has more than {PIECES_PER_SIDE} pieces"));
            }
        }
        if self.key != self.compute_key() {
            return Err("incremental key differs from the computed key".into());
        }
        Ok(())
    }
}

/// `Move`s of the board carry [`NO_POINT`] where a part is absent.
const _: () = assert!(NO_POINT as usize >= board::POINTS);
/// The position stays small enough to copy freely.
const _: () = assert!(std::mem::size_of::<MorrisPosition>() <= 24);
