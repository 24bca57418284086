//! Learning the evaluation from games: the tools that turn played games into weights.
//!
//! - [`selfplay`]: games of the engine against itself at a fixed node count (`tiao selfplay`),
//!   deterministic by seed and game index, so that a run shards over machines;
//! - [`relabel`]: the scores of such data replaced by a deeper search's (`tiao relabel`), chunk by
//!   chunk, deterministic, so that it shards as self-play does;
//! - [`data`]: their positions, results and scores as a binary file of chunks that concatenate;
//! - [`sparse`]: the pattern weights fitted to that data (`tiao tune --data`), Adam over
//!   mini-batches of sparse features;
//! - [`texel`]: fitting the named terms of an evaluation (draughts, Morris) to game results (`tiao tune`,
//!   Texel's method).

pub mod data;
pub mod relabel;
pub mod selfplay;
pub mod sparse;
pub mod texel;
