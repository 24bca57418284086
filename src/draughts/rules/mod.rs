//! The draughts variants as values of rule facts.
//!
//! Each variant is a zero-sized type implementing [`Rules`]; its facts are associated constants,
//! each commented with the rule it implements (RULES.md, and the seed text it comes from). The
//! move generator, `make` and the notation are generic over `R: Rules`, so the compiler
//! specialises every fact away: there is no run-time `if variant == ...` in hot code. The run-time
//! choice is [`Variant`], resolved once at the engine's edge (see [`crate::variant`]).
//!
//! Adding a variant: a new file here with its rules value, a perft file in `tests/data/`, and a
//! rules test file in `tests/`.

use crate::draughts::board::Geometry;
use crate::draughts::draw::DrawRules;
pub use crate::game::Variant;
use crate::game::color::Color;
use std::fmt;

mod brazilian;
mod duoyibu;
mod english;
mod international;
mod russian;

pub use brazilian::Brazilian;
pub use duoyibu::Duoyibu;
pub use english::English;
pub use international::International;
pub use russian::{Russian, RussianFmjd};

/// What happens to a man that reaches the last row in the middle of a capture.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MidCapturePromotion {
    /// It stays a man and keeps capturing as a man; it promotes only if the move ends on the last
    /// row (international, brazilian).
    StaysMan,
    /// It becomes a king at once and continues capturing as a king (russian, duoyibu).
    BecomesKing,
    /// It is crowned and the move ends there (english).
    EndsMove,
}

/// How squares are written by default.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SquareNotation {
    /// Square numbers 1..N, captures written with `x`.
    Numeric,
    /// Algebraic `a1`..`h8`, captures written with `:`.
    Algebraic,
}

/// The rule facts of one draughts variant.
pub trait Rules: Copy + Clone + Default + fmt::Debug + Send + Sync + 'static {
    /// The board.
    type Board: Geometry;
    /// The run-time name of the variant.
    const VARIANT: Variant;
    /// The side that moves first from the start position.
    const FIRST: Color;
    /// The start position as a PDN FEN.
    const START_FEN: &'static str;
    /// Whether men capture backward as well as forward.
    const MEN_CAPTURE_BACKWARD: bool;
    /// Flying kings (any distance) or short kings (one square, like a man but backward too).
    const FLYING_KINGS: bool;
    /// Majority rule: the capture that takes the most pieces is compulsory (kings and men count the
    /// same). Otherwise free choice among captures.
    const MAJORITY: bool;
    /// A man crossing the last row during a capture.
    const MID_CAPTURE: MidCapturePromotion;
    /// The duoyibu king rule (seed 003, rule 1.6): two kings facing each other on a free diagonal
    /// may not make a non-capturing move toward each other along it.
    const KING_OPPOSITION: bool;
    /// How squares are written.
    const NOTATION: SquareNotation;
    /// The draw counters (repetition is checked by the search for every variant).
    const DRAW: DrawRules;
}
