//! Learning the evaluation from games: the tools that turn played games into weights.
//!
//! - [`texel`]: fitting the draughts evaluation's named terms to game results (`tiao tune`,
//!   Texel's method).

pub mod texel;
