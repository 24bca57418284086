//! The `tools` test program: the tools: `tiao match`, batch analysis, board pictures, command-line
//! output, self-play, tuning and SPSA end to end. One program per area of `tests/`, linked once; each
//! module was a test file of its own. Helpers shared between areas are in `tests/support/`.

#[path = "../support/cli.rs"]
mod cli_support;

mod analyze_batch;
mod board_svg;
mod book;
mod book_play;
mod cli_output;
mod egdb_sample_cli;
mod match_faults;
mod match_pdn;
mod match_runner;
mod relabel_cli;
mod selfplay_cli;
mod source_tree;
mod spsa_cli;
mod tune_cli;
mod weights_cli;
