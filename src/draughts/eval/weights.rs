//! The evaluation weights of the draughts variants, as data: one [`Weights`] value per family of
//! variants, all in this file, so that a tuner can rewrite them.
//!
//! Units: centi-men (a man is 100). Families: [`INTERNATIONAL`] (10x10, flying kings, majority
//! capture), [`FLYING_8X8`] (brazilian, russian, duoyibu: 8x8 with flying kings) and [`ENGLISH`]
//! (8x8 short kings, men capture forward only). [`for_rules`] picks a family from the rule facts
//! (board size, flying kings), which are compile-time constants.
//!
//! The evaluation is, but for drawish material, a weighted sum of counts: each weight multiplies
//! the count of one [`Term`] (men, kings, men on a row, steps, ...). `Term` names them for the
//! tuner ([`training::texel`](crate::training::texel)), which reads and writes a `Weights` through [`Weights::get`] and
//! [`Weights::set`]; the fields that are not such a weight (`runaway_max_rows`, the drawish
//! limits and divisor) are structure, and the tuner leaves them alone.

use crate::draughts::board::Geometry;
use crate::draughts::rules::Rules;

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

/// A linear term of the evaluation: a count that one weight multiplies.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Term {
    /// Men (material).
    Man,
    /// Kings (material).
    King,
    /// Men on the row this many rows from their own back row.
    Advance(usize),
    /// Men on centre squares.
    Centre,
    /// Men on the edge files.
    Edge,
    /// Men guarding their back row.
    BackGuard,
    /// The difference between a side's men on the two halves (counted negatively).
    Balance,
    /// Runaway men.
    Runaway,
    /// Rows the runaway men still have to go (counted negatively).
    RunawayPerRow,
    /// Men's steps to empty squares.
    ManMobility,
    /// Kings' moves to empty squares.
    KingMobility,
    /// Kings on the long diagonal.
    KingLongDiagonal,
    /// Kings on the double-corner diagonals.
    KingDoubleDiagonal,
}

/// Number of [`Term`]s.
pub const TERMS: usize = 12 + MAX_ROWS;

impl Term {
    /// Every term, in [`Term::index`] order.
    pub const ALL: [Term; TERMS] = {
        let mut all = [Term::Man; TERMS];
        let mut i = 0;
        while i < TERMS {
            all[i] = Term::from_index(i);
            i += 1;
        }
        all
    };

    /// The term's position in [`Term::ALL`] (and in a count vector).
    pub const fn index(self) -> usize {
        match self {
            Term::Man => 0,
            Term::King => 1,
            Term::Advance(r) => 2 + r,
            Term::Centre => 2 + MAX_ROWS,
            Term::Edge => 3 + MAX_ROWS,
            Term::BackGuard => 4 + MAX_ROWS,
            Term::Balance => 5 + MAX_ROWS,
            Term::Runaway => 6 + MAX_ROWS,
            Term::RunawayPerRow => 7 + MAX_ROWS,
            Term::ManMobility => 8 + MAX_ROWS,
            Term::KingMobility => 9 + MAX_ROWS,
            Term::KingLongDiagonal => 10 + MAX_ROWS,
            Term::KingDoubleDiagonal => 11 + MAX_ROWS,
        }
    }

    const fn from_index(i: usize) -> Term {
        match i {
            0 => Term::Man,
            1 => Term::King,
            i if i < 2 + MAX_ROWS => Term::Advance(i - 2),
            i => match i - 2 - MAX_ROWS {
                0 => Term::Centre,
                1 => Term::Edge,
                2 => Term::BackGuard,
                3 => Term::Balance,
                4 => Term::Runaway,
                5 => Term::RunawayPerRow,
                6 => Term::ManMobility,
                7 => Term::KingMobility,
                8 => Term::KingLongDiagonal,
                _ => Term::KingDoubleDiagonal,
            },
        }
    }

    /// The weight's name as [`Weights`] spells it (`advance[3]` for a row).
    pub fn name(self) -> String {
        match self {
            Term::Man => "man".into(),
            Term::King => "king".into(),
            Term::Advance(r) => format!("advance[{r}]"),
            Term::Centre => "centre".into(),
            Term::Edge => "edge".into(),
            Term::BackGuard => "back_guard".into(),
            Term::Balance => "balance".into(),
            Term::Runaway => "runaway".into(),
            Term::RunawayPerRow => "runaway_per_row".into(),
            Term::ManMobility => "man_mobility".into(),
            Term::KingMobility => "king_mobility".into(),
            Term::KingLongDiagonal => "king_long_diagonal".into(),
            Term::KingDoubleDiagonal => "king_double_diagonal".into(),
        }
    }
}

impl Weights {
    /// The weight of a term. A term whose count is negative for the side that has it
    /// ([`Term::Balance`], [`Term::RunawayPerRow`]) keeps its weight positive, as written below.
    #[inline(always)]
    pub const fn get(&self, t: Term) -> i32 {
        match t {
            Term::Man => self.man,
            Term::King => self.king,
            Term::Advance(r) => self.advance[r],
            Term::Centre => self.centre,
            Term::Edge => self.edge,
            Term::BackGuard => self.back_guard,
            Term::Balance => self.balance,
            Term::Runaway => self.runaway,
            Term::RunawayPerRow => self.runaway_per_row,
            Term::ManMobility => self.man_mobility,
            Term::KingMobility => self.king_mobility,
            Term::KingLongDiagonal => self.king_long_diagonal,
            Term::KingDoubleDiagonal => self.king_double_diagonal,
        }
    }

    /// Sets the weight of a term.
    pub fn set(&mut self, t: Term, v: i32) {
        let w = match t {
            Term::Man => &mut self.man,
            Term::King => &mut self.king,
            Term::Advance(r) => &mut self.advance[r],
            Term::Centre => &mut self.centre,
            Term::Edge => &mut self.edge,
            Term::BackGuard => &mut self.back_guard,
            Term::Balance => &mut self.balance,
            Term::Runaway => &mut self.runaway,
            Term::RunawayPerRow => &mut self.runaway_per_row,
            Term::ManMobility => &mut self.man_mobility,
            Term::KingMobility => &mut self.king_mobility,
            Term::KingLongDiagonal => &mut self.king_long_diagonal,
            Term::KingDoubleDiagonal => &mut self.king_double_diagonal,
        };
        *w = v;
    }
}

/// International draughts (10x10). Fitted by `tiao tune` (2026-11-22) to 716,182 positions of
/// 8,296 games the engine played against itself at 4,000 nodes/move from 8-ply random
/// openings; `runaway_max_rows` and the drawish fields set by hand.
pub const INTERNATIONAL: Weights = Weights {
    man: 100,
    king: 294,
    advance: [0, 17, 18, 14, 11, 21, 21, 33, 67, 0],
    centre: 7,
    edge: -6,
    back_guard: 22,
    balance: 6,
    runaway: 210,
    runaway_per_row: 46,
    runaway_max_rows: 5,
    man_mobility: -1,
    king_mobility: 1,
    king_long_diagonal: 13,
    king_double_diagonal: -11,
    lone_king_draw: 3,
    lone_king_draw_on_long_diagonal: 3,
    drawish_divisor: 16,
};

/// 8x8 with flying kings: brazilian, russian, duoyibu. Fitted by `tiao tune` (2026-11-22) to
/// 358,210 positions of 7,459 russian games the engine played against itself at 4,000
/// nodes/move from 4-ply random openings; `runaway_max_rows` and the drawish fields set by hand.
pub const FLYING_8X8: Weights = Weights {
    man: 100,
    king: 270,
    advance: [0, 14, 9, 9, 11, 53, 64, 0, 0, 0],
    centre: 0,
    edge: -4,
    back_guard: 34,
    balance: 8,
    runaway: 165,
    runaway_per_row: 40,
    runaway_max_rows: 4,
    man_mobility: 6,
    king_mobility: 2,
    king_long_diagonal: 10,
    king_double_diagonal: -4,
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

/// A family of variants that share their evaluation weights (hand-made terms and patterns).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Family {
    /// 10x10, flying kings.
    International,
    /// 8x8 with flying kings: brazilian, russian, duoyibu.
    Flying8x8,
    /// 8x8 with short kings.
    English,
}

impl Family {
    /// Every family, in the order of their index (`family as usize`).
    pub const ALL: [Family; 3] = [Family::International, Family::Flying8x8, Family::English];

    /// A variant's family, from its compile-time rule facts (board size, flying kings).
    #[inline(always)]
    pub const fn of<R: Rules>() -> Family {
        if !R::FLYING_KINGS {
            Family::English
        } else if R::Board::SIZE == 10 {
            Family::International
        } else {
            Family::Flying8x8
        }
    }

    /// The family's name in weight files, `id` and the docs.
    pub const fn name(self) -> &'static str {
        match self {
            Family::International => "international",
            Family::Flying8x8 => "flying-8x8",
            Family::English => "english",
        }
    }

    /// The name of its hand-made weights' constant in this file, and the weights.
    #[inline(always)]
    pub const fn hand_made(self) -> (&'static str, &'static Weights) {
        match self {
            Family::International => ("INTERNATIONAL", &INTERNATIONAL),
            Family::Flying8x8 => ("FLYING_8X8", &FLYING_8X8),
            Family::English => ("ENGLISH", &ENGLISH),
        }
    }
}

/// The weights of a variant's family (chosen from compile-time rule facts).
#[inline(always)]
pub const fn for_rules<R: Rules>() -> &'static Weights {
    family::<R>().1
}

/// A variant's family: the name of its constant in this file, and its weights.
#[inline(always)]
pub const fn family<R: Rules>() -> (&'static str, &'static Weights) {
    Family::of::<R>().hand_made()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_index_name_get_set() {
        for (i, t) in Term::ALL.iter().enumerate() {
            assert_eq!(t.index(), i, "{t:?}");
        }
        assert_eq!(Term::ALL[2 + 3], Term::Advance(3));
        assert_eq!(Term::Advance(3).name(), "advance[3]");
        let mut w = INTERNATIONAL.clone();
        for (i, t) in Term::ALL.iter().enumerate() {
            w.set(*t, 1000 + i as i32);
        }
        for (i, t) in Term::ALL.iter().enumerate() {
            assert_eq!(w.get(*t), 1000 + i as i32, "{t:?}");
        }
        assert_eq!(w.advance[3], 1005);
        assert_eq!(w.runaway_max_rows, INTERNATIONAL.runaway_max_rows);
    }
}
