//! The engine's protocols with the outside world. Each parses and formats only; the engine facade
//! does the work.
//!
//! - [`hub`]: the Hub protocol (version 2, as Scan 3.1 and the Hub GUI speak it) on stdin/stdout.

pub mod hub;
