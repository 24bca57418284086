//! The draughts positions as a [`Game`] (every rules value `R`), and perft's bulk count for them
//! ([`BulkCount`]: quiet moves counted by popcount, the last plies without making children).

use super::movegen::{self};
use super::moves::Move;
use super::notation::{self, FenError};
use super::position::Position;
use super::rules::Rules;
use crate::game::Variant;
use crate::game::color::Color;
use crate::game::{BulkCount, Game, MoveError, MoveList};

impl<R: Rules> Game for Position<R> {
    type Move = Move;
    type FenError = FenError;

    fn variant(&self) -> Variant {
        R::VARIANT
    }
    fn start() -> Self {
        Position::start()
    }
    fn from_fen(fen: &str) -> Result<Self, FenError> {
        notation::fen::parse::<R>(fen)
    }
    fn fen(&self) -> String {
        notation::fen::write(self)
    }
    #[inline]
    fn generate(&self, list: &mut MoveList<Self::Move>) {
        movegen::generate(self, list)
    }
    #[inline]
    fn generate_noisy(&self, list: &mut MoveList<Self::Move>) {
        movegen::generate_captures(self, list)
    }
    #[inline]
    fn is_noisy(&self, m: &Self::Move) -> bool {
        m.is_capture()
    }
    /// Origin and destination bits (both below 64 on every board): exact for quiet moves.
    #[inline(always)]
    fn history_slot(m: &Self::Move) -> usize {
        ((m.from as usize) << 6) | m.to as usize
    }
    #[inline(always)]
    fn make(&self, m: &Self::Move) -> Self {
        Position::make(self, m)
    }
    #[inline]
    fn side(&self) -> Color {
        Position::side(self)
    }
    #[inline]
    fn key(&self) -> u64 {
        Position::key(self)
    }
    #[inline]
    fn draw_by_rule(&self) -> bool {
        self.draw_by_rule().is_some()
    }
    #[inline]
    fn reversible_plies(&self) -> u32 {
        self.counters().reversible as u32
    }
    #[inline]
    fn piece_count(&self) -> u32 {
        self.occupied().count_ones()
    }
    fn move_to_hub(&self, m: &Self::Move) -> String {
        notation::movetext::write_hub::<R>(m)
    }
    fn move_to_pdn(&self, m: &Self::Move) -> String {
        notation::movetext::write_pdn(self, m)
    }
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError> {
        notation::movetext::parse(self, text)
    }
}

impl<R: Rules> BulkCount for Position<R> {
    #[inline(always)]
    fn count_moves(&self, scratch: &mut MoveList<Self::Move>) -> u64 {
        movegen::count(self, scratch)
    }

    #[inline(always)]
    fn count_two_plies(&self, list: &mut MoveList<Move>, scratch: &mut MoveList<Move>) -> u64 {
        movegen::count_two(self, list, scratch)
    }

    #[inline(always)]
    fn count_three_plies(
        &self,
        list: &mut MoveList<Move>,
        list2: &mut MoveList<Move>,
        scratch: &mut MoveList<Move>,
    ) -> u64 {
        movegen::count_three(self, list, list2, scratch)
    }
}
