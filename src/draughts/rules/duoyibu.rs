//! Duoyibu (多依布, Kazakh *doiby*), seed 003: russian-like captures plus the king rule.

use super::{MidCapturePromotion, Rules, SquareNotation, Variant};
use crate::draughts::board::Board8;
use crate::draughts::draw::{DrawRules, REPETITION_ONLY};
use crate::game::color::Color;

/// Duoyibu.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Duoyibu;

impl Rules for Duoyibu {
    /// 8x8 board.
    type Board = Board8;
    const VARIANT: Variant = Variant::Duoyibu;
    /// 第一条 2: "对局首步永远由执白棋的一方走出" (White always moves first).
    const FIRST: Color = Color::White;
    const START_FEN: &'static str = "W:W21-32:B1-12";
    /// 第二条 3: men capture forward and backward.
    const MEN_CAPTURE_BACKWARD: bool = true;
    /// 第一条 5: kings move any number of squares.
    const FLYING_KINGS: bool = true;
    /// 第二条 8-9: free choice of capture line, kings have no privilege.
    const MAJORITY: bool = false;
    /// 第一条 4.2: passing the last row mid-capture, the man continues with a king's powers.
    const MID_CAPTURE: MidCapturePromotion = MidCapturePromotion::BecomesKing;
    /// 第一条 6: kings facing on a free diagonal may not move toward each other.
    const KING_OPPOSITION: bool = true;
    /// Algebraic squares.
    const NOTATION: SquareNotation = SquareNotation::Algebraic;
    /// 第三条 2: no counter, repetition only.
    const DRAW: DrawRules = REPETITION_ONLY;
}
