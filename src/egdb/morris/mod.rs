//! Nine Men's Morris endgame tables: every moving-phase position (both hands empty) with 3 to 9
//! pieces a side, solved by retrograde analysis.
//!
//! - [`symmetry`]: the board's 16 symmetries as maps of point sets;
//! - [`index`]: sectors and the index of a position, one slot per symmetry class;
//! - [`value`]: the byte a position's value is stored in (win, draw or loss, with the distance
//!   to the next removal);
//! - [`solve`]: the retrograde solver of a sector and its mirror;
//! - [`verify`]: the verify pass (every value agrees with its successors');
//! - [`store`]: the files, in the shared container;
//! - [`probe`]: the search's hook ([`Probe`](crate::egdb::Probe)) and the opener;
//! - [`build`]: the build and verify of a directory, pair by pair, resumable and shardable.

pub mod build;
pub mod index;
pub mod probe;
pub mod solve;
pub mod store;
pub mod symmetry;
pub mod value;
pub mod verify;
