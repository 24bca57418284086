//! The `gui` test program: `tiao gui`, the board in the browser. HTTP-level tests of its API
//! (`http`: bad input, foreign origins, streams closed mid-search, play and analysis through the
//! API) and tests that drive the page in a headless Chromium through chromedriver (`browser`:
//! skipped with a message where no chromedriver is installed; CI installs one).

#[path = "../support/gui.rs"]
mod gui_support;

mod http;

#[path = "../support/webdriver.rs"]
mod webdriver;

mod browser;
