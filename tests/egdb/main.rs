//! The `egdb` test program: endgame tables of both games: the file format, building, verifying,
//! probing under the draw counters, symmetry, theory checks. One program per area of `tests/`,
//! linked once; each module was a test file of its own. Helpers shared between areas are in
//! `tests/support/`.

#[path = "../support/egdb.rs"]
mod egdb_common;
#[path = "../support/hub.rs"]
mod hub_common;

mod egdb_conversion;
mod egdb_counters;
mod egdb_files;
mod egdb_format;
mod egdb_labels;
mod egdb_record;
mod egdb_selfplay;
mod egdb_symmetry;
mod egdb_theory;
mod egdb_verify;
mod morris_egdb;
