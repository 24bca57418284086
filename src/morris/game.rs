//! [`Game`] for [`MorrisPosition`]: what the search, perft and the protocols see.
//!
//! - `generate`: every legal move, a mill-closing move once per removable piece; empty when the
//!   side to move has lost (blocked, or no pieces in hand and fewer than 3 on the board);
//! - `generate_noisy` / `is_noisy`: the mill-closing moves (those with a removal);
//! - `key`: pieces, pieces in hand and side to move — what repetition compares (RULES.md);
//! - `draw_by_rule`: 100 plies of the moving phase without a removal;
//! - `reversible_plies`: plies since the last placement or removal (both irreversible), the
//!   same counter;
//! - `move_to_hub` and `move_to_pdn` both write `d6`, `d6xa4`, `a1-a4`, `a1-a4xd7`.

use super::movegen;
use super::moves::Move;
use super::notation::{self, FenError};
use super::position::MorrisPosition;
use crate::game::Game;
use crate::game::MoveError;
use crate::game::MoveList;
use crate::game::Variant;
use crate::game::color::Color;

impl Game for MorrisPosition {
    type Move = Move;
    type FenError = FenError;
    /// Late move pruning lost 58 +- 35 Elo in Morris (300 games at 20,000 nodes per move).
    const LATE_MOVE_PRUNING: bool = false;
    /// Singular extensions gain nothing in Morris: -3.5 ± 12.3 Elo on against off, 400 games at
    /// 0.1 s/move (docs/strength.md).
    const SINGULAR_EXTENSIONS: bool = false;
    const MIXED_NODES: bool = true;

    fn variant(&self) -> Variant {
        Variant::Morris
    }
    fn start() -> Self {
        MorrisPosition::start()
    }
    fn from_fen(fen: &str) -> Result<Self, FenError> {
        notation::parse_fen(fen)
    }
    fn fen(&self) -> String {
        notation::write_fen(self)
    }
    #[inline]
    fn generate(&self, list: &mut MoveList<Move>) {
        movegen::generate(self, list)
    }
    #[inline]
    fn generate_noisy(&self, list: &mut MoveList<Move>) {
        movegen::generate_noisy(self, list)
    }
    #[inline]
    fn is_noisy(&self, m: &Move) -> bool {
        m.is_removal()
    }
    #[inline(always)]
    fn make(&self, m: &Move) -> Self {
        MorrisPosition::make(self, m)
    }
    #[inline]
    fn side(&self) -> Color {
        MorrisPosition::side(self)
    }
    #[inline]
    fn key(&self) -> u64 {
        MorrisPosition::key(self)
    }
    #[inline]
    fn draw_by_rule(&self) -> bool {
        MorrisPosition::draw_by_rule(self)
    }
    #[inline]
    fn reversible_plies(&self) -> u32 {
        self.no_removal() as u32
    }
    #[inline]
    fn piece_count(&self) -> u32 {
        self.occupied().count_ones()
    }
    fn move_to_hub(&self, m: &Move) -> String {
        notation::write_move(m)
    }
    fn move_to_pdn(&self, m: &Move) -> String {
        notation::write_move(m)
    }
    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        notation::parse_move(self, text)
    }
}
