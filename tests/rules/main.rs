//! The `rules` test program: the rules of every game: perft against the published figures, each
//! special rule, draw counters, notation round trips (draughts and Nine Men's Morris). One program
//! per area of `tests/`, linked once; each module was a test file of its own. Helpers shared
//! between areas are in `tests/support/`.

#[path = "../support/perft.rs"]
mod perft_support;

mod draw_counters;
mod morris_notation;
mod morris_perft;
mod morris_rules;
mod notation_props;
mod perft_draughts;
mod rules_draughts;
