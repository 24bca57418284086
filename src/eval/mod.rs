//! Static evaluation: the interface every game implements for the search.
//!
//! Scores are in centi-men from the point of view of the side to move, and a static evaluation
//! stays strictly inside `-EVAL_MAX..=EVAL_MAX` so that it can never be mistaken for a proven
//! win or loss (those are `WIN - plies`, see the search).
//!
//! - [`draughts`]: the draughts evaluation, generic over the rules;
//! - [`weights`]: its weights, as data, one value per family of variants;
//! - [`tune`]: fitting those weights to game results (`tiao tune`).

pub mod draughts;
pub mod tune;
pub mod weights;

use crate::game::Game;

/// Largest static evaluation, in centi-men.
pub const EVAL_MAX: i32 = 8000;

/// A game position the search can evaluate.
pub trait Evaluate: Game {
    /// Static score of the position for the side to move, in centi-men, within
    /// `-EVAL_MAX..=EVAL_MAX`.
    fn evaluate(&self) -> i32;
}
