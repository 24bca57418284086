//! The Morris tables on disk, in the shared container ([`file`](crate::egdb::file)): two files
//! per sector under `<dir>/morris/`:
//!
//! - `sector-<a>-<b>.wdl`: win/draw/loss for the side to move (2-bit codes, run-length blocks),
//!   the holes of the index written as [`NOT_STORED`] (they read back as anything, and are never
//!   asked for);
//! - `sector-<a>-<b>.dist`: the distance to the next removal, one byte (`distance + 1` for a win
//!   or a loss, saturated; draws and holes [`NOT_STORED`]).
//!
//! Headers: game Morris, variant `morris`, slice `<a>-<b>` with id `10 * a + b`, the sector's
//! slot count. A file that is not exactly that is refused with the container's typed errors.
//!
//! The `.dist` file is written before the `.wdl` (each whole or absent): readers find a sector
//! by its `.wdl`, so they find its distances with it, even while a build writes.

use super::index::{MAX_PIECES, MIN_PIECES, Sector};
use super::value::{DRAW, Value, is_loss};
use crate::egdb::checked::CheckRecord;
use crate::egdb::file::FLAG_UNSTORED_UNSPECIFIED;
use crate::egdb::{EgdbError, GameTag, Header, Kind, NOT_STORED, Table, TableWriter, Wdl};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The variant name in the headers.
pub const VARIANT: &str = "morris";

/// The directory of the Morris tables under a tables directory.
pub fn morris_dir(dir: &Path) -> PathBuf {
    dir.join("morris")
}

/// The file of a sector's table of `kind`.
pub fn path(dir: &Path, sector: Sector, kind: Kind) -> PathBuf {
    let ext = match kind {
        Kind::Wdl => "wdl",
        Kind::Distance => "dist",
    };
    morris_dir(dir).join(format!("sector-{}-{}.{ext}", sector.stm, sector.opp))
}

/// The header a sector's table of `kind` must carry.
pub fn header(sector: Sector, kind: Kind) -> Header {
    Header {
        game: GameTag::Morris,
        variant: VARIANT.into(),
        kind,
        slice: format!("{}-{}", sector.stm, sector.opp),
        slice_id: 10 * sector.stm as u64 + sector.opp as u64,
        positions: sector.size(),
        flags: FLAG_UNSTORED_UNSPECIFIED,
    }
}

/// The sector a file name stands for (`sector-<a>-<b>.wdl` or `.dist`).
pub fn sector_of_file(name: &str) -> Option<(Sector, Kind)> {
    let rest = name.strip_prefix("sector-")?;
    let (stem, kind) = if let Some(s) = rest.strip_suffix(".wdl") {
        (s, Kind::Wdl)
    } else {
        (rest.strip_suffix(".dist")?, Kind::Distance)
    };
    let (a, b) = stem.split_once('-')?;
    let (a, b): (u8, u8) = (a.parse().ok()?, b.parse().ok()?);
    let ok = |k: u8| (MIN_PIECES..=MAX_PIECES).contains(&k);
    (ok(a) && ok(b)).then(|| (Sector::new(a, b), kind))
}

/// The 2-bit code of a value byte.
fn wdl_code(v: u8) -> u8 {
    if v == DRAW {
        Wdl::Draw.code()
    } else if is_loss(v) {
        Wdl::Loss.code()
    } else {
        Wdl::Win.code()
    }
}

/// The distance symbol of a value byte (`distance + 1`, draws not stored).
fn distance_code(v: u8) -> u8 {
    match Value::decode(v) {
        Value::Draw => NOT_STORED,
        Value::Win(d) | Value::Loss(d) => d as u8 + 1,
    }
}

/// Writes a solved sector's two files (each beside its name, then renamed); returns the bytes
/// written.
pub fn write(dir: &Path, sector: Sector, values: &[u8]) -> Result<u64, EgdbError> {
    let d = morris_dir(dir);
    std::fs::create_dir_all(&d).map_err(|e| EgdbError::Io {
        path: d.clone(),
        error: e.to_string(),
    })?;
    let len = sector.row_len();
    let rows = sector.rows();
    // Holes: only in rows whose representative has symmetries.
    let hole = |i: u64| rows.stabiliser((i / len) as usize) != 0 && sector.is_hole(i);
    let mut bytes = 0;
    // The distances first: readers find a sector by its `.wdl` (see the module doc).
    for kind in [Kind::Distance, Kind::Wdl] {
        let code: fn(u8) -> u8 = match kind {
            Kind::Wdl => wdl_code,
            Kind::Distance => distance_code,
        };
        bytes += TableWriter::new(header(sector, kind)).write(&path(dir, sector, kind), |i| {
            if hole(i) {
                NOT_STORED
            } else {
                code(values[i as usize])
            }
        })?;
    }
    Ok(bytes)
}

/// Opens a sector's table of `kind`, checking its header.
pub fn open(dir: &Path, sector: Sector, kind: Kind) -> Result<Table, EgdbError> {
    open_recorded(dir, sector, kind, u64::MAX, None)
}

/// [`open`], with the payload checksum of a file longer than `defer_above` bytes left for
/// later, sparing the check of a file `record` holds unchanged and adding one that passes
/// ([`Table::open_recorded`]).
pub fn open_recorded(
    dir: &Path,
    sector: Sector,
    kind: Kind,
    defer_above: u64,
    record: Option<&Arc<CheckRecord>>,
) -> Result<Table, EgdbError> {
    let t = Table::open_recorded(&path(dir, sector, kind), defer_above, record)?;
    t.expect(&header(sector, kind))?;
    Ok(t)
}

/// The sectors built under `dir`: those whose `.wdl` file is in `dir/morris/`, by pieces on the
/// board, then by the side to move's. Only the names are looked at (whoever uses the files opens
/// and checks them).
pub fn built_sectors(dir: &Path) -> Vec<Sector> {
    let mut found: Vec<Sector> = super::index::all_sectors()
        .filter(|&s| path(dir, s, Kind::Wdl).is_file())
        .collect();
    found.sort_by_key(|s| (s.pieces(), s.stm));
    found
}

/// Whether both files of a sector are there and open with the right headers.
pub fn is_built(dir: &Path, sector: Sector) -> bool {
    [Kind::Wdl, Kind::Distance]
        .iter()
        .all(|&k| open(dir, sector, k).is_ok())
}

/// A sector's values, one byte a slot (see [`value`](super::value)), read from its two files.
/// Holes read back as draws.
pub fn load(dir: &Path, sector: Sector) -> Result<Vec<u8>, EgdbError> {
    let wdl = open(dir, sector, Kind::Wdl)?.decode_all()?;
    let dist = open(dir, sector, Kind::Distance)?.decode_all()?;
    let path = path(dir, sector, Kind::Distance);
    let len = sector.row_len() as usize;
    let rows = sector.rows();
    let mut out = vec![DRAW; wdl.len()];
    out.par_chunks_mut(len)
        .enumerate()
        .try_for_each(|(row, chunk)| {
            let stab = rows.stabiliser(row);
            for (r, slot) in chunk.iter_mut().enumerate() {
                let i = row * len + r;
                if stab != 0 && sector.is_hole(i as u64) {
                    continue;
                }
                let d = dist[i] as u32;
                *slot = match Wdl::from_code(wdl[i]) {
                    Some(Wdl::Draw) | None => DRAW,
                    Some(w) if d == NOT_STORED as u32 => {
                        return Err(EgdbError::Corrupt {
                            path: path.clone(),
                            reason: format!("slot {i}: a {w} without a distance"),
                        });
                    }
                    Some(Wdl::Win) => Value::Win(d - 1).encode(),
                    Some(Wdl::Loss) => Value::Loss(d - 1).encode(),
                };
            }
            Ok(())
        })?;
    Ok(out)
}
