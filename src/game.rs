//! The generic game interface that the search, perft and the protocols are written against.
//!
//! Implemented by the draughts positions (`Position<R>` for every rules value `R`) and by Nine
//! Men's Morris. A `Game` value is a complete, small, `Copy` position: pieces, side to move, and
//! whatever counters the rules need, so that `make` by copy is all the search does.
//!
//! Conventions shared by every game:
//! - an empty move list means the side to move has **lost** (draughts: no move; Morris: no move or
//!   fewer than 3 pieces after placing);
//! - `key` covers what repetition compares (pieces, side to move, and for Morris pieces in hand);
//! - `draw_by_rule` is a draw by the variant's counters (not repetition, which the search checks
//!   against the history within `reversible_plies`).

use crate::color::Color;
use crate::movegen::{self, MoveList};
use crate::notation::{self, FenError, MoveError};
use crate::position::Position;
use crate::rules::{Rules, Variant};
use std::fmt::Debug;
use std::hash::Hash;

/// A game position the search can play.
pub trait Game: Copy + Clone + Debug + Send + Sync + 'static {
    /// A move of the game.
    type Move: Copy + Clone + Debug + Default + PartialEq + Eq + Hash + Send + Sync + 'static;
    /// The error of the game's position notation.
    type FenError: std::error::Error + Send + Sync + 'static;

    /// Whether the search may prune late quiet moves near the leaves (`Params::lmp`). Measured
    /// per game: it pays in draughts and loses in Morris, where a quiet placement or slide is
    /// often what builds a mill (see `docs/strength.md`).
    const LATE_MOVE_PRUNING: bool = true;

    /// Whether one position's legal moves can mix noisy and quiet moves. Draughts: no (when a
    /// capture exists only captures are legal), so a node whose first move is quiet has only
    /// quiet moves, and the search stops its move loop at the late-move-pruning limit.
    const MIXED_NODES: bool = false;

    /// The variant this position plays.
    fn variant(&self) -> Variant;
    /// The start position.
    fn start() -> Self;
    /// Parses the game's position notation (PDN FEN for draughts).
    fn from_fen(fen: &str) -> Result<Self, Self::FenError>;
    /// Writes the game's position notation.
    fn fen(&self) -> String;

    /// Generates every legal move into `list` (cleared first). Empty: the side to move has lost.
    fn generate(&self, list: &mut MoveList<Self::Move>);
    /// Generates the moves quiescence search must resolve (draughts: the captures, which are then
    /// all the legal moves; Morris: mill-closing moves). Cleared first.
    fn generate_noisy(&self, list: &mut MoveList<Self::Move>);
    /// Whether a move is noisy (a capture / a removal).
    fn is_noisy(&self, m: &Self::Move) -> bool;
    /// The position after a legal move.
    fn make(&self, m: &Self::Move) -> Self;
    /// The move's slot in the search's history table, below
    /// [`HISTORY_SLOTS`](crate::search::HISTORY_SLOTS): distinct quiet moves should get distinct
    /// slots (a collision only blurs the ordering). The default hashes the move value.
    #[inline(always)]
    fn history_slot(m: &Self::Move) -> usize {
        crate::search::hashed_history_slot(m)
    }

    /// The side to move.
    fn side(&self) -> Color;
    /// Zobrist key.
    fn key(&self) -> u64;
    /// A draw by one of the variant's counters.
    fn draw_by_rule(&self) -> bool;
    /// Plies since the last irreversible move: no position further back can repeat.
    fn reversible_plies(&self) -> u32;
    /// Total pieces on the board (for endgame-aware search decisions).
    fn piece_count(&self) -> u32;

    /// A move in the protocol's form (Hub form for draughts).
    fn move_to_hub(&self, m: &Self::Move) -> String;
    /// A move in the game's usual notation (PDN for draughts).
    fn move_to_pdn(&self, m: &Self::Move) -> String;
    /// Reads a move in any accepted form, matched against the legal moves.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError>;
}

impl<R: Rules> Game for Position<R> {
    type Move = movegen::Move;
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
        notation::moves::write_hub::<R>(m)
    }
    fn move_to_pdn(&self, m: &Self::Move) -> String {
        notation::moves::write_pdn(self, m)
    }
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError> {
        notation::moves::parse(self, text)
    }
}
