//! English draughts / American checkers (seed 000, WCDF rules).

use super::{MidCapturePromotion, Rules, SquareNotation, Variant};
use crate::draughts::board::Board8;
use crate::draughts::draw::{DrawRules, ENGLISH};
use crate::game::color::Color;

/// English draughts.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct English;

impl Rules for English {
    /// 8x8 board, squares 1-32 (the official numbering).
    type Board = Board8;
    const VARIANT: Variant = Variant::English;
    /// Black (the dark pieces, "red" in seed 000) moves first.
    const FIRST: Color = Color::Black;
    /// Black men on 1-12, White men on 21-32, Black to move.
    const START_FEN: &'static str = "B:W21-32:B1-12";
    /// Men capture forward only.
    const MEN_CAPTURE_BACKWARD: bool = false;
    /// Short kings: one square, forward or backward.
    const FLYING_KINGS: bool = false;
    /// Free choice among captures.
    const MAJORITY: bool = false;
    /// A man reaching the last row is crowned and the move ends.
    const MID_CAPTURE: MidCapturePromotion = MidCapturePromotion::EndsMove;
    const KING_OPPOSITION: bool = false;
    /// Numeric squares.
    const NOTATION: SquareNotation = SquareNotation::Numeric;
    /// 40 moves each with no man moved and no capture.
    const DRAW: DrawRules = ENGLISH;
}
