//! The Hub protocol (version 2): the text protocol of the draughts world, spoken by Scan 3.1 and
//! the Hub GUI, and driven by pydraughts, lidraughts-bot and draughtsnet. `protocol.md` at the top
//! of the repository is its user-facing specification.
//!
//! - [`syntax`]: tokenising lines and quoting values;
//! - [`command`]: the typed commands;
//! - [`position`]: the `pos=` position strings.

pub mod command;
pub mod position;
pub mod syntax;
