//! Notation of draughts positions and moves: squares, PDN 3.0 FEN, PDN moves and Hub moves.
//!
//! - [`square`]: numeric (`1`..`50`) and algebraic (`a1`..`h8`) square names.
//! - [`fen`]: FEN in and out, and the position's start and text forms (`Debug`, `Display`).
//! - [`movetext`]: moves in PDN (`32-28`, `28x19`, `c3:e5`, long form when ambiguous) and in the
//!   Hub capture form (`from x to x captured ...`, captured in any order).
//! - [`path`]: recovers the landing squares of a capture for long notation.
//!
//! Whole games in PDN are [`crate::pdn`] (game records of both games). Every parser returns a
//! typed error whose message names the offending token ([`MoveError`](crate::game::MoveError),
//! [`SquareError`](crate::game::SquareError), [`FenError`]); none panics on any input.

pub mod fen;
pub mod movetext;
pub mod path;
pub mod square;

pub use fen::FenError;
