//! Nine Men's Morris endgame tables: every moving-phase position (both hands empty) with 3 to 9
//! pieces a side, solved by retrograde analysis.
//!
//! - [`symmetry`]: the board's 16 symmetries as maps of point sets;
//! - [`index`]: sectors and the index of a position, one slot per symmetry class;
//! - [`value`]: the byte a position's value is stored in (win, draw or loss, with the distance
//!   to the next removal);
//! - [`solve`]: the retrograde solver of a sector and its mirror.

pub mod index;
pub mod solve;
pub mod symmetry;
pub mod value;
