//! The engine's protocols with the outside world. Each parses and formats only; the engine facade
//! does the work.
//!
//! - [`hub`]: the Hub protocol (version 2, as Scan 3.1 and the Hub GUI speak it) on stdin/stdout.
//! - [`dxp`]: the DamExchange Protocol (international draughts engine matches over TCP); unlike
//!   Hub it also holds the game state machine of a connection, since DXP games are played
//!   between two programs without a GUI in the middle.

pub mod dxp;
pub mod hub;
