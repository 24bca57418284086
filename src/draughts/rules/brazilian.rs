//! Brazilian draughts: the international rules on the 8x8 board (RULES.md "The variants"), with
//! the FMJD-64 draw rules.

use super::{MidCapturePromotion, Rules, SquareNotation, Variant};
use crate::draughts::board::Board8;
use crate::draughts::draw::{DrawRules, FMJD64};
use crate::game::color::Color;

/// Brazilian draughts.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Brazilian;

impl Rules for Brazilian {
    /// 8x8 board.
    type Board = Board8;
    const VARIANT: Variant = Variant::Brazilian;
    /// White moves first.
    const FIRST: Color = Color::White;
    /// White men on a1-h2-g3 (21-32), Black men on b6-h8 (1-12).
    const START_FEN: &'static str = "W:W21-32:B1-12";
    /// Men capture backward.
    const MEN_CAPTURE_BACKWARD: bool = true;
    /// Flying kings.
    const FLYING_KINGS: bool = true;
    /// Majority capture, as international.
    const MAJORITY: bool = true;
    /// As international: a man passing the last row mid-capture stays a man.
    const MID_CAPTURE: MidCapturePromotion = MidCapturePromotion::StaysMan;
    const KING_OPPOSITION: bool = false;
    /// Algebraic squares (PDN GameType 26 separates captures with `x`; we accept `:` too).
    const NOTATION: SquareNotation = SquareNotation::Algebraic;
    /// The official FMJD-64 draw rules.
    const DRAW: DrawRules = FMJD64;
}
