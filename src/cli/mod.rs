//! Subcommands of the `tiao` binary. Each parses its arguments (clap) and formats output; the
//! work is done by the library.

pub mod analyze;
pub mod bench;
pub mod board;
pub mod dxp;
pub mod hub;
pub mod matches;
pub mod perft;
