//! The draughts endgame tables: every variant's own, built by retrograde analysis under its own
//! rules (the move generator of [`crate::draughts::movegen`] and the rules values of
//! [`crate::draughts::rules`], so majority capture, promotion mid-capture, short or flying kings
//! and duoyibu's king rule are the game's), stored in the files of [`crate::egdb::file`], probed
//! by the search.
//!
//! - [`index`]: slices (a material: kings and men of the side to move and of the other side) and
//!   the numbering of their positions; Black to move is stored as White to move, the board turned
//!   round;
//! - [`values`]: slices held whole in memory, and the value of any position they cover (captures
//!   resolved);
//! - [`retro`]: the retrograde analysis of a slice and its twin, one men configuration at a time;
//! - [`build`]: the slices as units of the [`driver`](crate::egdb::driver): order, files, build
//!   and verification;
//! - [`probe`]: the tables as the search asks them;
//! - [`builtin`]: the kings-only endings of the 8x8 boards, built in memory for every engine.
//!
//! Files: `<dir>/<variant>/<slice>.wdl` (2-bit win/draw/loss codes) and, optionally,
//! `<slice>.dtc` (the distance to the next conversion, a byte a position), e.g.
//! `~/.local/share/tiao/egdb/english/KKvK.wdl`.
//!
//! Convention: positions whose side to move must capture are not stored (they read back as an
//! unspecified value, which lets the files compress); the probe answers for them from the
//! positions after their captures, at distance 1. The distances are distances to the next
//! capture (see [`retro`]). The values ignore the draw counters (repetition, move-count rules): a
//! table win that takes longer than a counter allows is a draw under the rules.

pub mod build;
pub mod builtin;
pub mod index;
pub mod probe;
pub mod retro;
pub mod values;

use crate::draughts::board::Geometry;
use crate::draughts::rules::Rules;
use index::{Material, binom};
use std::path::{Path, PathBuf};

pub use build::{DraughtsBuilder, VERIFY_BLOCK};
pub use probe::{DraughtsTables, open, open_tables, open_tables_deferring, open_tables_recorded};

/// Extension of a win/draw/loss file.
pub const WDL_EXT: &str = ".wdl";

/// The most pieces of a table on any board (see [`max_table_pieces`] for one board).
pub const MAX_TABLE_PIECES: u32 = 7;

/// The most pieces of a table the solver builds on board `G`: at most [`MAX_TABLE_PIECES`],
/// and every subproblem (the positions with the same men of a slice and its twin, the most
/// for kings only) numbered below 2^32 as `retro::solve_pair` requires. 7 on 8x8, 6 on 10x10
/// (`KKKKvKKK` has 3.5 * 10^9 positions there).
pub fn max_table_pieces<G: Geometry>() -> u32 {
    let s = G::SQUARES as u32;
    (2..=MAX_TABLE_PIECES)
        .take_while(|&n| {
            (1..n).all(|a| {
                let twins = if 2 * a == n { 1 } else { 2 };
                binom(s, a) * binom(s - a, n - a) * twins < u32::MAX as u64
            })
        })
        .last()
        .unwrap_or(1)
}
/// Extension of a distance file.
pub const DISTANCE_EXT: &str = ".dtc";

/// The win/draw/loss file of slice `m` of variant `R` under `dir`.
pub fn wdl_path<R: Rules>(dir: &Path, m: Material) -> PathBuf {
    dir.join(R::VARIANT.name()).join(format!("{m}{WDL_EXT}"))
}

/// The distance file of slice `m` of variant `R` under `dir`.
pub fn distance_path<R: Rules>(dir: &Path, m: Material) -> PathBuf {
    dir.join(R::VARIANT.name())
        .join(format!("{m}{DISTANCE_EXT}"))
}

/// The slices of variant `R` built under `dir`: those whose `.wdl` file is in `dir/<variant>/`
/// under its own name, each with whether its distance file is beside it, by pieces and then in
/// the order of [`Material::all`]. Only the names are read (whoever uses the files opens and
/// checks them); other files are left out. No directory: no slices; a directory that cannot
/// be read: an error naming it.
pub fn built_slices<R: Rules>(dir: &Path) -> Result<Vec<(Material, bool)>, crate::egdb::EgdbError> {
    let sub = dir.join(R::VARIANT.name());
    let entries = match std::fs::read_dir(&sub) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => {
            return Err(crate::egdb::EgdbError::Io {
                path: sub,
                error: e.to_string(),
            });
        }
    };
    let mut found: Vec<(Material, bool)> = entries
        .flatten()
        .filter_map(|e| {
            let name = e.file_name();
            let stem = name.to_str()?.strip_suffix(WDL_EXT)?;
            let m = Material::parse(stem).filter(|m| m.to_string() == stem)?;
            Some((m, distance_path::<R>(dir, m).is_file()))
        })
        .collect();
    let order = |m: Material| {
        Material::all(m.pieces())
            .iter()
            .position(|&a| a == m)
            .unwrap_or(usize::MAX)
    };
    found.sort_by_cached_key(|&(m, _)| (m.pieces(), order(m)));
    Ok(found)
}
