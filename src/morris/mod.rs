//! Nine Men's Morris (`variant=morris`; RULES.md, seed 001 九人毛利舞 / 成龙棋): board, position,
//! moves, notation, perft and evaluation, behind the same [`Game`](crate::game::Game) and
//! [`Evaluate`](crate::game::Evaluate) traits as the draughts variants.
//!
//! - [`board`]: the 24 points as the low bits of a `u32`, adjacency and the 16 mills as const
//!   tables, bit-parallel mill arithmetic. The layout, bit by bit:
//!
//! ```text
//!  7   a7(0)----------d7(1)----------g7(2)
//!      |              |              |
//!  6   |   b6(8)------d6(9)-----f6(10)   |
//!      |   |          |          |   |
//!  5   |   |   c5(16)-d5(17)-e5(18)  |   |
//!      |   |   |             |   |   |
//!  4   a4(7)-b4(15)-c4(23)   e4(19)-f4(11)-g4(3)
//!      |   |   |             |   |   |
//!  3   |   |   c3(22)-d3(21)-e3(20)  |   |
//!      |   |          |          |   |
//!  2   |   b2(14)-----d2(13)----f2(12)   |
//!      |              |              |
//!  1   a1(6)----------d1(5)----------g1(4)
//!      a   b   c      d      e   f   g
//! ```
//!
//! - [`position`]: [`MorrisPosition`], a 24-byte `Copy` value (pieces, pieces in hand, side to
//!   move, no-removal counter, incremental Zobrist key over all but the counter);
//! - [`moves`]: [`Move`] (from or none, to, removal or none);
//! - [`movegen`]: the generator, where a mill-closing move carries its removal;
//! - [`notation`]: points, moves (`d6`, `d6xa4`, `a1-a4`, `a1-a4xd7`, and `a1-a4 xd7`) and the
//!   position string (`W:W:B:H9,9:R0` is the start), and the position's `Debug` and `Display`;
//! - [`game`]: the [`Game`](crate::game::Game) implementation;
//! - [`perft`]: bulk counting, and [`RemovalPly`] for the convention where a removal is a ply;
//! - [`eval`]: the evaluation, its weights as data in [`eval::WEIGHTS`];
//! - [`sample`]: reproducible pseudo-random games for tests, benches and tuning.
//!
//! Rules as implemented (RULES.md's Nine Men's Morris section): White moves first; a side places
//! while it has pieces in hand, then slides, and flies with exactly 3 pieces on the board; closing
//! a mill (two at once included, and moving out and back) removes one enemy piece not in a mill,
//! or any when all are in mills; the side to move loses with no move, or with no pieces in hand
//! and fewer than 3 on the board; draws by the third repetition (pieces, pieces in hand, side to
//! move: the search's job, with [`Game::key`](crate::game::Game::key) and `reversible_plies`) and
//! by 100 plies without a removal in the moving phase.

pub mod board;
pub mod eval;
pub mod game;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod position;
pub mod sample;

pub use moves::Move;
pub use notation::FenError;
pub use perft::RemovalPly;
pub use position::{MorrisPosition, PositionError};
