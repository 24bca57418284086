//! The built-in tables: every kings-only ending of up to [`builtin_pieces`] pieces of a variant
//! (`KvK` to `KKKvK` and `KKvKK` on 8x8), with their distances, built in memory by the solver the
//! first time an engine of the process asks for them (a fraction of a second), and kept for the
//! process. The engine plays with them when no table directory covers those endings, so that it
//! converts them out of the box: three russian kings against one, with the main road held, are a
//! win that takes more moves than a fast search sees (before them, tiao drew such endings by the
//! 18-move rule with +7 on the board; docs/strength.md).
//!
//! Invariant: the slices are the ones `tiao egdb build` writes (the same solver, numbering and
//! file bytes, checked as a file is: [`Table::from_bytes`]), so a built-in table answers what its
//! file would, and the probe ([`DraughtsTables`]) is the files' own, draw counters included.
//! Kings-only slices lead only to kings-only slices (a capture takes a king, no man promotes), so
//! the set is closed: every position of it has an answer.

use super::build::{header, solve_unit};
use super::index::Material;
use super::probe::DraughtsTables;
use super::values::Known;
use super::{DISTANCE_EXT, WDL_EXT};
use crate::draughts::board::Geometry;
use crate::draughts::position::Position;
use crate::draughts::rules::Rules;
use crate::egdb::{BuiltinTables, EgdbError, Kind, Probe, Table, TableWriter};
use std::any::{Any, TypeId};
use std::path::PathBuf;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, Mutex};

/// Board squares up to which the built-in tables are built (the 8x8 boards).
pub const BUILTIN_MAX_SQUARES: usize = 32;

/// Pieces of the largest built-in slices on those boards: `KKKvK` and `KKvKK`, 0.5 M positions
/// and about 0.2 s of one core. (On 10x10 the same slices take about 1.3 s, which a GUI would
/// wait for at the engine's start: none there yet.)
pub const BUILTIN_PIECES: u32 = 4;

/// The pieces of the largest built-in slices on board `G` (0: none).
pub fn builtin_pieces<G: Geometry>() -> u32 {
    if G::SQUARES <= BUILTIN_MAX_SQUARES {
        BUILTIN_PIECES
    } else {
        0
    }
}

/// The slices built: the kings-only materials of 2 to `pieces` pieces, each with its twin.
pub fn kings_materials(pieces: u32) -> Vec<Material> {
    (2..=pieces)
        .flat_map(Material::all)
        .filter(|m| m.men() == 0)
        .collect()
}

/// Builds the kings-only tables of variant `R` of up to `pieces` pieces in memory, with their
/// distances (a slice whose distances would not fit a byte keeps its values only). An error
/// when the machine cannot give the memory.
pub fn build<R: Rules>(pieces: u32) -> Result<DraughtsTables<R>, EgdbError> {
    let mut known = Known::<R>::default();
    let mut built = Vec::new();
    for m in kings_materials(pieces) {
        if m.flip() < m {
            continue; // built with its twin, which comes first
        }
        built.extend(solve_unit(&mut known, m, true, &|_| {})?);
    }
    let mut slices = Vec::new();
    for data in built {
        let m = data.index.material;
        let name = |ext: &str| PathBuf::from(format!("(built in)/{}/{m}{ext}", R::VARIANT.name()));
        let wdl = TableWriter::new(header::<R>(m, Kind::Wdl)).bytes(|i| data.wdl.get(i));
        let wdl = Table::from_bytes(&name(WDL_EXT), wdl)?;
        let distance = match &data.distance {
            Some(d) if data.saturated.load(Relaxed) == 0 => {
                let bytes = TableWriter::new(header::<R>(m, Kind::Distance)).bytes(|i| d.get(i));
                Some(Table::from_bytes(&name(DISTANCE_EXT), bytes)?)
            }
            _ => None,
        };
        slices.push((m, wdl, distance));
    }
    Ok(DraughtsTables::from_tables(slices))
}

/// What the process built, per rules type: `None` when the board has none or the build failed.
type Built = (TypeId, Arc<dyn Any + Send + Sync>);
static BUILT: Mutex<Vec<Built>> = Mutex::new(Vec::new());

/// The built-in tables of variant `R`, built at the first call of the process (the others wait
/// for it and share them); `None` on a board without them, or when the build failed (the
/// engine plays on without them).
pub fn tables<R: Rules>() -> Option<Arc<DraughtsTables<R>>> {
    let key = TypeId::of::<R>();
    let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, t)) = built.iter().find(|(k, _)| *k == key) {
        return t
            .clone()
            .downcast::<Option<Arc<DraughtsTables<R>>>>()
            .ok()
            .and_then(|t| (*t).clone());
    }
    let pieces = builtin_pieces::<R::Board>();
    let t = (pieces >= 2).then(|| build_apart::<R>(pieces)).flatten();
    built.push((key, Arc::new(t.clone())));
    t
}

/// [`build`] on a thread of its own with a thread pool of its own, the caller blocked until it
/// is done. Never on the caller's thread: the solver's loops run on rayon, and a caller that is
/// a worker of a pool (an analysis batch's engines are made on its workers) would, while it
/// waits for them, take up other jobs of its pool; one that asks for these tables then waits
/// for the lock this caller holds, on the same thread: a deadlock (seen 2026-11-30, `tiao
/// analyze -v english --positions -` with two jobs). Nor on the global pool, whose workers may
/// all be waiting for that lock.
fn build_apart<R: Rules>(pieces: u32) -> Option<Arc<DraughtsTables<R>>> {
    let run = move || build::<R>(pieces).ok().map(Arc::new);
    std::thread::scope(|s| {
        s.spawn(move || {
            match rayon::ThreadPoolBuilder::new()
                .num_threads(std::thread::available_parallelism().map_or(1, |n| n.get()))
                .thread_name(|i| format!("builtin-tables-{i}"))
                .build()
            {
                Ok(pool) => pool.install(run),
                Err(_) => run(), // no threads to be had: the pools the solver finds
            }
        })
        .join()
        .ok()
        .flatten()
    })
}

/// The built-in tables of variant `R` as the engine hands them to its searches, with their
/// number of slices ([`tables`]).
pub fn probe<R: Rules>() -> Option<BuiltinTables<Position<R>>> {
    tables::<R>().map(|t| {
        let slices = t.slices();
        (t as Arc<dyn Probe<Position<R>>>, slices)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::rules::{English, International, Russian};
    use crate::egdb::Wdl;
    use crate::egdb::draughts::DraughtsBuilder;
    use crate::egdb::draughts::index::SliceIndex;
    use crate::egdb::draughts::probe::open_tables;
    use crate::game::color::Color;

    #[test]
    fn only_small_boards_have_them() {
        assert_eq!(builtin_pieces::<<Russian as Rules>::Board>(), 4);
        assert_eq!(builtin_pieces::<<English as Rules>::Board>(), 4);
        assert_eq!(builtin_pieces::<<International as Rules>::Board>(), 0);
        assert!(tables::<International>().is_none());
        let names: Vec<String> = kings_materials(4).iter().map(|m| m.to_string()).collect();
        assert_eq!(names, ["KvK", "KvKK", "KKvK", "KvKKK", "KKvKK", "KKKvK"]);
    }

    /// The built-in slices answer exactly what the files of `tiao egdb build` answer, for
    /// every position of every slice, values and distances.
    #[test]
    fn built_in_memory_as_the_files() {
        let dir = std::env::temp_dir().join(format!("tiao-builtin-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let targets: Vec<Material> = ["KKKvK", "KKvKK"]
            .iter()
            .map(|s| Material::parse(s).unwrap())
            .collect();
        let builder = DraughtsBuilder::<Russian>::new(&dir, 4, true).only(&targets);
        crate::egdb::driver::build(&builder, false, &mut |_| {}).expect("the files build");
        let (files, problems) = open_tables::<Russian>(&dir);
        assert!(problems.is_empty(), "{problems:?}");
        let mine = tables::<Russian>().expect("russian has built-in tables");
        assert_eq!(mine.slices(), 6);
        assert_eq!(mine.complete_pieces(), 0, "no slice with men");
        let mut decided = 0;
        for m in kings_materials(4) {
            let index = SliceIndex::<<Russian as Rules>::Board>::new(m);
            for i in 0..index.positions() {
                let (w, b, k) = index.position_of(i);
                let pos = Position::<Russian>::from_parts(w, b, k, Color::White).unwrap();
                let (a, f) = (mine.lookup(&pos), files.lookup(&pos));
                assert_eq!(a, f, "{m} position {i}: {}", crate::game::Game::fen(&pos));
                decided += usize::from(a.is_some_and(|p| p.wdl != Wdl::Draw));
                assert_eq!(mine.probe(&pos), files.probe(&pos));
            }
        }
        assert!(decided > 100_000, "three kings beat one: {decided} decided");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
