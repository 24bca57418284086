//! The `gui` test program: `tiao gui`, the board in the browser. HTTP-level tests of its API
//! (`http`: bad input, foreign origins, streams closed mid-search, play and analysis through the
//! API).

#[path = "../support/gui.rs"]
mod gui_support;

mod http;
