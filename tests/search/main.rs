//! The `search` test program: the search and the evaluation: tactics, draws, the engine facade, the
//! learned patterns, the Morris search. One program per area of `tests/`, linked once; each module
//! was a test file of its own. Helpers shared between areas are in `tests/support/`.

mod eval_patterns;
mod morris_search;
mod search_draws;
mod search_engine;
mod search_tactics;
