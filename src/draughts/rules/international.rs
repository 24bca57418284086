//! International draughts (10x10), FMJD rules; seeds 001/002, RULES.md "The variants".

use super::{MidCapturePromotion, Rules, SquareNotation, Variant};
use crate::draughts::board::Board10;
use crate::draughts::draw::{DrawRules, INTERNATIONAL};
use crate::game::color::Color;

/// International draughts.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct International;

impl Rules for International {
    /// 10x10 board, squares 1-50.
    type Board = Board10;
    const VARIANT: Variant = Variant::International;
    /// White moves first.
    const FIRST: Color = Color::White;
    /// Black men on 1-20, White men on 31-50.
    const START_FEN: &'static str = "W:W31-50:B1-20";
    /// Men capture backward.
    const MEN_CAPTURE_BACKWARD: bool = true;
    /// Flying kings.
    const FLYING_KINGS: bool = true;
    /// Majority capture; kings and men count the same.
    const MAJORITY: bool = true;
    /// A man passing the last row mid-capture stays a man.
    const MID_CAPTURE: MidCapturePromotion = MidCapturePromotion::StaysMan;
    const KING_OPPOSITION: bool = false;
    /// Numeric squares, `x` captures.
    const NOTATION: SquareNotation = SquareNotation::Numeric;
    /// 25-move king rule, 16-move and 5-move endgame rules.
    const DRAW: DrawRules = INTERNATIONAL;
}
