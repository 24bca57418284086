//! The evaluation weights of the draughts variants, as data: one [`Weights`] value per family of
//! variants, all in this file, so that a tuner can rewrite them.
//!
//! Units: centi-men (a man is 100). Families: [`INTERNATIONAL`] (10x10, flying kings, majority
//! capture), [`FLYING_8X8`] (brazilian, russian, duoyibu: 8x8 with flying kings) and [`ENGLISH`]
//! (8x8 short kings, men capture forward only). [`for_rules`] picks a family from the rule facts
//! (board size, flying kings), which are compile-time constants.

use crate::board::Geometry;
use crate::rules::Rules;

/// Longest board side any weight table covers.
pub const MAX_ROWS: usize = 10;

/// The weights of one family of variants.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Value of a man.
    pub man: i32,
    /// Value of a king.
    pub king: i32,
    /// Bonus of a man by rows advanced from its own back row (index 0 = back row).
    pub advance: [i32; MAX_ROWS],
    /// Bonus of a man on a centre square (the two middle rows, files c to the third-last).
    pub centre: i32,
    /// Bonus (negative: a penalty) of a man on the left or right edge file.
    pub edge: i32,
    /// Bonus of a man on its own back row while the opponent has men: it guards promotion.
    pub back_guard: i32,
    /// Penalty per man of difference between a side's men on the left and right halves.
    pub balance: i32,
    /// Bonus of a runaway man (nothing in its widened forward cone, no enemy king) ...
    pub runaway: i32,
    /// ... less this per row it still has to go ...
    pub runaway_per_row: i32,
    /// ... counted only for men at most this many rows from promotion.
    pub runaway_max_rows: usize,
    /// Bonus per step a man can make (a forward diagonal neighbour that is empty): mobility, so
    /// that a side whose men are blocked, and which may run out of moves, is seen to be worse.
    pub man_mobility: i32,
    /// Bonus per empty square a king can move to.
    pub king_mobility: i32,
    /// Bonus of a king on the long diagonal (a1 to the far corner).
    pub king_long_diagonal: i32,
    /// Bonus of a king on one of the two double-corner diagonals.
    pub king_double_diagonal: i32,
    /// A side with at most this many pieces cannot beat a lone king: the score is divided by
    /// `drawish_divisor`.
    pub lone_king_draw: u32,
    /// The same limit when the lone king stands on the long diagonal.
    pub lone_king_draw_on_long_diagonal: u32,
    /// Divisor of the score in drawish material.
    pub drawish_divisor: i32,
}

/// International draughts (10x10).
pub const INTERNATIONAL: Weights = Weights {
    man: 100,
    king: 300,
    advance: [0, 1, 2, 4, 6, 8, 10, 13, 16, 0],
    centre: 6,
    edge: -4,
    back_guard: 5,
    balance: 2,
    runaway: 200,
    runaway_per_row: 20,
    runaway_max_rows: 5,
    man_mobility: 2,
    king_mobility: 2,
    king_long_diagonal: 25,
    king_double_diagonal: 10,
    lone_king_draw: 3,
    lone_king_draw_on_long_diagonal: 3,
    drawish_divisor: 16,
};

/// 8x8 with flying kings: brazilian, russian, duoyibu.
pub const FLYING_8X8: Weights = Weights {
    man: 100,
    king: 250,
    advance: [0, 2, 4, 6, 9, 12, 16, 0, 0, 0],
    centre: 8,
    edge: -4,
    back_guard: 8,
    balance: 0,
    runaway: 180,
    runaway_per_row: 20,
    runaway_max_rows: 4,
    man_mobility: 2,
    king_mobility: 3,
    king_long_diagonal: 30,
    king_double_diagonal: 10,
    lone_king_draw: 2,
    lone_king_draw_on_long_diagonal: 3,
    drawish_divisor: 16,
};

/// English draughts (8x8, short kings).
pub const ENGLISH: Weights = Weights {
    man: 100,
    king: 140,
    advance: [0, 1, 2, 3, 5, 7, 9, 0, 0, 0],
    centre: 6,
    edge: -3,
    back_guard: 10,
    balance: 0,
    runaway: 100,
    runaway_per_row: 10,
    runaway_max_rows: 4,
    man_mobility: 2,
    king_mobility: 3,
    king_long_diagonal: 0,
    king_double_diagonal: 0,
    lone_king_draw: 1,
    lone_king_draw_on_long_diagonal: 1,
    drawish_divisor: 16,
};

/// The weights of a variant's family (chosen from compile-time rule facts).
#[inline(always)]
pub const fn for_rules<R: Rules>() -> &'static Weights {
    if !R::FLYING_KINGS {
        &ENGLISH
    } else if R::Board::SIZE == 10 {
        &INTERNATIONAL
    } else {
        &FLYING_8X8
    }
}
