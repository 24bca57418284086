//! The generic game interface that the search, perft and the protocols are written against.
//!
//! Implemented by the draughts positions (`Position<R>` for every rules value `R`, in
//! [`draughts::game`](crate::draughts::game)) and by Nine Men's Morris
//! ([`morris::game`](crate::morris::game)). A `Game` value is a complete, small, `Copy` position:
//! pieces, side to move, and whatever counters the rules need, so that `make` by copy is all the
//! search does.
//!
//! Conventions shared by every game:
//! - an empty move list means the side to move has **lost** (draughts: no move; Morris: no move or
//!   fewer than 3 pieces after placing);
//! - `key` covers what repetition compares (pieces, side to move, and for Morris pieces in hand);
//! - `draw_by_rule` is a draw by the variant's counters (not repetition, which the search checks
//!   against the history within `reversible_plies`).
//!
//! Beside the trait, what both games share below the search: [`Evaluate`] (the static
//! evaluation's interface), [`BulkCount`] (perft's faster leaf count), [`MoveList`], the history
//! slot contract ([`history`]), the move and square text errors ([`text`]) and random walks
//! ([`walk`]).

pub mod bits;
pub mod color;
pub mod history;
pub mod list;
pub mod rng;
pub mod text;
pub mod variant;
pub mod walk;

pub use bits::Bits;
pub use history::{HISTORY_SLOTS, hashed_history_slot};
pub use list::{MAX_MOVES, MoveList};
pub use text::{MoveError, SquareError};
pub use variant::{UnknownVariant, Variant};

use crate::game::color::Color;
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

    /// Whether the search may extend a singular hash move (`Params::singular`). It gains in
    /// draughts and not in Morris, which keeps it off (`docs/strength.md`).
    const SINGULAR_EXTENSIONS: bool = true;

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
    /// [`HISTORY_SLOTS`]: distinct quiet moves should get distinct
    /// slots (a collision only blurs the ordering). The default hashes the move value.
    #[inline(always)]
    fn history_slot(m: &Self::Move) -> usize {
        hashed_history_slot(m)
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

/// Largest static evaluation, in centi-men.
pub const EVAL_MAX: i32 = 8000;

/// A game position the search can evaluate.
///
/// Scores are in centi-men from the point of view of the side to move, and a static evaluation
/// stays strictly inside `-EVAL_MAX..=EVAL_MAX` so that it can never be mistaken for a proven
/// win or loss (those are `WIN - plies`, see the search).
pub trait Evaluate: Game {
    /// Static score of the position for the side to move, in centi-men, within
    /// `-EVAL_MAX..=EVAL_MAX`.
    fn evaluate(&self) -> i32;
}

/// A faster count of the legal moves than generating them (draughts counts quiet moves by
/// popcount).
pub trait BulkCount: Game {
    /// The number of legal moves; `scratch` may be overwritten.
    fn count_moves(&self, scratch: &mut MoveList<Self::Move>) -> u64 {
        self.generate(scratch);
        scratch.len() as u64
    }

    /// The leaves two plies below: the sum of [`count_moves`](Self::count_moves) over the
    /// children. `list` and `scratch` may be overwritten.
    fn count_two_plies(
        &self,
        list: &mut MoveList<Self::Move>,
        scratch: &mut MoveList<Self::Move>,
    ) -> u64 {
        self.generate(list);
        list.iter().map(|m| self.make(m).count_moves(scratch)).sum()
    }

    /// The leaves three plies below: the sum of [`count_two_plies`](Self::count_two_plies) over
    /// the children. The lists may be overwritten.
    fn count_three_plies(
        &self,
        list: &mut MoveList<Self::Move>,
        list2: &mut MoveList<Self::Move>,
        scratch: &mut MoveList<Self::Move>,
    ) -> u64 {
        self.generate(list);
        list.iter()
            .map(|m| self.make(m).count_two_plies(list2, scratch))
            .sum()
    }
}
