//! The Hub protocol (version 2): the text protocol of the draughts world, spoken by Scan 3.1 and
//! the Hub GUI, and driven by pydraughts, lidraughts-bot and draughtsnet. `protocol.md` at the top
//! of the repository is its user-facing specification.
//!
//! This layer parses and formats only; the [`Engine`](crate::engine::Engine) does the work.
//!
//! - [`syntax`]: tokenising lines and quoting values;
//! - [`command`]: the typed commands;
//! - [`position`]: the `pos=` position strings;
//! - [`numbering`]: pydraughts' 8x8 square numbering, translated on request;
//! - [`reader`]: reading byte lines (length cap, UTF-8 check), on the loop's thread or a thread of
//!   their own (the client);
//! - [`mod@format`]: the lines the engine writes;
//! - [`driver`]: the loop itself ([`run`]) and its threading model;
//! - [`client`]: the other side: driving an external Hub engine (engine matches).

pub mod client;
pub mod command;
pub mod driver;
pub mod format;
pub mod numbering;
pub mod position;
pub mod reader;
pub mod syntax;

pub use driver::run;
