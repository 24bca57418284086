//! Russian draughts (seed 004): flying kings, free choice of capture, a man reaching the last row
//! mid-capture becomes a king at once and continues capturing as a king.

use super::{MidCapturePromotion, Rules, SquareNotation, Variant};
use crate::draughts::board::Board8;
use crate::draughts::draw::{DrawRules, FMJD64, RUSSIAN};
use crate::game::color::Color;

/// Russian draughts with the draw rules of seed 004.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Russian;

impl Rules for Russian {
    /// 8x8 board.
    type Board = Board8;
    const VARIANT: Variant = Variant::Russian;
    /// "White moves first" (seed 004, 行棋规则).
    const FIRST: Color = Color::White;
    const START_FEN: &'static str = "W:W21-32:B1-12";
    /// "兵可以向前方也可以向后方吃掉对方的棋子": men capture backward.
    const MEN_CAPTURE_BACKWARD: bool = true;
    /// Kings move any distance (王可以...移动任意格数).
    const FLYING_KINGS: bool = true;
    /// 自选规则: free choice among captures.
    const MAJORITY: bool = false;
    /// 升变规则: a man passing the promotion row mid-capture becomes a king and continues as one.
    const MID_CAPTURE: MidCapturePromotion = MidCapturePromotion::BecomesKing;
    const KING_OPPOSITION: bool = false;
    /// Algebraic squares, `:` captures (PDN GameType 25).
    const NOTATION: SquareNotation = SquareNotation::Algebraic;
    /// 30 rounds without capture; 3 kings against a lone king within 18 moves.
    const DRAW: DrawRules = RUSSIAN;
}

/// Russian draughts played under the official FMJD-64 draw rules (Hub `draw-rules=fmjd`).
/// Identical to [`Russian`] in every other fact.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct RussianFmjd;

impl Rules for RussianFmjd {
    type Board = Board8;
    const VARIANT: Variant = Variant::Russian;
    const FIRST: Color = Russian::FIRST;
    const START_FEN: &'static str = Russian::START_FEN;
    const MEN_CAPTURE_BACKWARD: bool = Russian::MEN_CAPTURE_BACKWARD;
    const FLYING_KINGS: bool = Russian::FLYING_KINGS;
    const MAJORITY: bool = Russian::MAJORITY;
    const MID_CAPTURE: MidCapturePromotion = Russian::MID_CAPTURE;
    const KING_OPPOSITION: bool = Russian::KING_OPPOSITION;
    const NOTATION: SquareNotation = Russian::NOTATION;
    /// The FMJD-64 set.
    const DRAW: DrawRules = FMJD64;
}
