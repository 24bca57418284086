//! Everything that is draughts: the five variants' rules, their boards, move generation, the
//! position, the draw counters, the notation, and the evaluation.
//!
//! Floors, bottom up (each imports only from the floors below it and from the shared
//! [`crate::game`], [`crate::game::color`] and [`crate::game::rng`]):
//! - [`board`]: board geometry (the bitboard layouts of 8x8 and 10x10, their rays and rows);
//! - [`draw`]: the draw counters and the draw rule sets;
//! - [`rules`]: one rules value per variant, its facts commented with the rule they implement;
//! - [`moves`]: the move value (from, to, captured set, promotion);
//! - [`position`]: the `Copy` position, its `make` and its Zobrist key;
//! - [`movegen`]: bitboard move generation (majority and free capture, mid-capture promotion,
//!   flying and short kings, the duoyibu king rule) and perft's fast counts;
//! - [`notation`]: squares, FEN, PDN and Hub move text; the start position and the position's
//!   text forms;
//! - [`game`]: the position as a [`Game`](crate::game::Game) (and perft's
//!   [`BulkCount`](crate::game::BulkCount));
//! - [`eval`]: the static evaluation and its weights, one set per family of variants;
//! - [`ballots`]: the ACF three-move ballots of english, as data (the match openings and the
//!   english opening book start from them).

pub mod ballots;
pub mod board;
pub mod draw;
pub mod eval;
pub mod game;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod position;
pub mod rules;
