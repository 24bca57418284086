//! The draughts tables as [`Builder`] units: which slices, in which order, where their files
//! go, how a unit is built (its dependencies loaded, [`retro::solve_pair`], the files written)
//! and verified.
//!
//! A unit is a slice and its twin (the same pieces with the other side to move), or one slice
//! that is its own twin. Units go by pieces, then by men (fewer first: a promotion leads to one
//! man fewer), so every slice a capture or a promotion reaches is built before.
//!
//! Memory: a unit holds every slice of fewer pieces (2 bits a position, and 2 for the capture
//! values their lookups keep), the two slices its promotions reach (2 bits), its own two slices
//! (2 bits, 2 for their capture values, and a byte a position for distances), and the
//! working arrays of its largest subproblem (up to 17 bytes a position when every thread
//! solves it, see `retro::PARALLEL_BYTES`).
//!
//! Files: each slice's `.dtc` is written before its `.wdl` (each whole or absent, see
//! [`TableWriter::write`]): readers find a slice by its `.wdl`, so an engine reading the
//! directory during a build finds every slice with its distances or not at all.

use super::index::{Material, SliceIndex};
use super::retro;
use super::values::{Known, Lists, Missing, SliceData};
use super::{distance_path, wdl_path};
use crate::draughts::board::Geometry;
use crate::draughts::movegen;
use crate::draughts::moves::Move;
use crate::draughts::position::Position;
use crate::draughts::rules::Rules;
use crate::egdb::driver::{Builder, Output, Unit, Verified};
use crate::egdb::file::FLAG_UNSTORED_UNSPECIFIED;
use crate::egdb::{EgdbError, GameTag, Header, Kind, NOT_STORED, Table, TableWriter, Wdl};
use crate::game::MoveList;
use crate::game::color::Color;
use rayon::prelude::*;
use std::marker::PhantomData;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};

/// The tables of variant `R` up to some number of pieces, under a directory.
pub struct DraughtsBuilder<R: Rules> {
    dir: PathBuf,
    pieces: u32,
    /// Only these slices and what they lead to (`None`: every slice).
    only: Option<Vec<Material>>,
    distances: bool,
    /// The verify pass checks shard `.0` of `.1` of each unit's positions: every `.1`-th
    /// block of [`VERIFY_BLOCK`] from the `.0`-th.
    verify_shard: (u64, u64),
    /// Slices loaded by earlier units, kept for the next ones (those of fewer pieces).
    cache: Mutex<Known<R>>,
    _rules: PhantomData<R>,
}

/// Positions a block of the verify pass: the unit of its work and of its shards.
pub const VERIFY_BLOCK: u64 = 1 << 14;

/// The header a slice's file carries.
pub fn header<R: Rules>(m: Material, kind: Kind) -> Header {
    header_of_size::<R>(m, kind, SliceIndex::<R::Board>::new(m).positions())
}

/// The header a slice's file carries, with its size given (computing it needs the slice's
/// numbering).
pub fn header_of_size<R: Rules>(m: Material, kind: Kind, positions: u64) -> Header {
    Header {
        game: GameTag::Draughts,
        variant: R::VARIANT.name().to_string(),
        kind,
        slice: m.to_string(),
        slice_id: m.id(),
        positions,
        flags: FLAG_UNSTORED_UNSPECIFIED,
    }
}

/// The slices of a unit: `m`, and its twin when it is another slice.
fn pair(m: Material) -> Vec<Material> {
    if m == m.flip() {
        vec![m]
    } else {
        vec![m, m.flip()]
    }
}

/// The slices a unit's promotions reach (same pieces, one man fewer), for `m` and its twin.
fn promotion_targets(m: Material) -> Vec<Material> {
    let mut v = Vec::new();
    // White (to move in m) promotes: Black is then to move.
    if m.wm > 0 {
        v.push(Material {
            wk: m.bk,
            wm: m.bm,
            bk: m.wk + 1,
            bm: m.wm - 1,
        });
    }
    // Black (to move in the twin) promotes: White is then to move.
    if m.bm > 0 {
        v.push(Material {
            bk: m.bk + 1,
            bm: m.bm - 1,
            ..m
        });
    }
    v
}

impl<R: Rules> DraughtsBuilder<R> {
    /// The tables up to `pieces` pieces under `dir` (in `dir/<variant>/`), with distance tables
    /// when `distances`.
    pub fn new(dir: &Path, pieces: u32, distances: bool) -> Self {
        DraughtsBuilder {
            dir: dir.to_path_buf(),
            pieces,
            only: None,
            distances,
            verify_shard: (0, 1),
            cache: Mutex::new(Known::default()),
            _rules: PhantomData,
        }
    }

    /// Only the slices `targets` (and their twins), and every slice their positions lead to:
    /// those whose men and pieces of each side are no more than theirs (captures take pieces,
    /// promotions turn men into kings).
    pub fn only(mut self, targets: &[Material]) -> Self {
        self.pieces = targets.iter().map(|m| m.pieces()).max().unwrap_or(0);
        self.only = Some(targets.to_vec());
        self
    }

    /// The verify pass checks only shard `i` of `n` of each unit's positions (`i < n`): every
    /// `n`-th block of [`VERIFY_BLOCK`] positions from the `i`-th, so that `n` machines (or
    /// runs) check a unit together, each as long as the others. The shards' counts add up to
    /// the whole pass's.
    pub fn verify_shard(mut self, (i, n): (usize, usize)) -> Self {
        assert!(i < n, "shard {i} of {n}");
        self.verify_shard = (i as u64, n as u64);
        self
    }

    /// Whether slice `m` is built: every slice, or one a target leads to.
    fn wanted(&self, m: Material) -> bool {
        let Some(targets) = &self.only else {
            return true;
        };
        let under = |t: Material, m: Material| {
            m.wm <= t.wm && m.bm <= t.bm && m.wk + m.wm <= t.wk + t.wm && m.bk + m.bm <= t.bk + t.bm
        };
        targets
            .iter()
            .any(|&t| under(t, m) || under(t, m.flip()) || under(t.flip(), m))
    }

    /// Loads a built slice: codes, and distances in memory (`Dist::Memory`) or read from their
    /// file as they are asked for (`Dist::File`); with `keep`, room for the capture values its
    /// lookups resolve ([`SliceData::keep_captures`]).
    fn load(
        &self,
        m: Material,
        distances: Dist,
        keep: bool,
    ) -> Result<Arc<SliceData<R>>, EgdbError> {
        let mut data = SliceData::<R>::new(m, distances == Dist::Memory)?;
        if keep {
            data.keep_captures()?;
        }
        if distances == Dist::File {
            let t = Table::open(&distance_path::<R>(&self.dir, m))?;
            t.expect(&header::<R>(m, Kind::Distance))?;
            data.distance_file = Some(t);
        }
        let t = Table::open(&wdl_path::<R>(&self.dir, m))?;
        t.expect(&header::<R>(m, Kind::Wdl))?;
        fill(&t, |i, c| {
            if c != NOT_STORED {
                data.wdl.set(i, c)
            }
        })?;
        if let Some(dist) = &data.distance {
            let t = Table::open(&distance_path::<R>(&self.dir, m))?;
            t.expect(&header::<R>(m, Kind::Distance))?;
            fill(&t, |i, d| dist.set(i, d))?;
        }
        Ok(Arc::new(data))
    }

    /// Every slice a unit of `m` looks up outside itself, loaded: those of fewer pieces (kept
    /// for later units) and its promotions' (not kept; with their distances when `distances`).
    fn dependencies(&self, m: Material, distances: bool) -> Result<Known<R>, EgdbError> {
        let mut cache = self.cache.lock().expect("no panic while the cache is held");
        for n in 2..m.pieces() {
            for d in Material::all(n) {
                if cache.get(d).is_none() && self.wanted(d) {
                    // Looked up by every later unit: capture values kept.
                    cache.insert(self.load(d, Dist::None, true)?);
                }
            }
        }
        // Slices of more pieces than the next units need are dropped.
        for n in m.pieces()..=crate::egdb::draughts::index::MAX_PIECES {
            for d in Material::all(n) {
                cache.remove(d);
            }
        }
        let mut known = Known::default();
        for n in 2..m.pieces() {
            for d in Material::all(n) {
                if let Some(s) = cache.get(d) {
                    known.insert(s.clone());
                }
            }
        }
        for d in promotion_targets(m) {
            // Their distances are those of the promotions' children (read from the file: a
            // promotion is a small part of the moves, the slices are large).
            let dist = if distances { Dist::File } else { Dist::None };
            known.insert(self.load(d, dist, false)?);
        }
        Ok(known)
    }
}

/// Solves the unit of slice `m` (it and its twin, added to `known`, which holds every slice
/// they lead to) and returns its slices, with distances when `distances`.
pub(super) fn solve_unit<R: Rules>(
    known: &mut Known<R>,
    m: Material,
    distances: bool,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Vec<Arc<SliceData<R>>>, EgdbError> {
    let mut mine = Vec::new();
    for s in pair(m) {
        let mut data = SliceData::<R>::new(s, distances)?;
        // Its capture positions' values, for the lookups of its later subproblems.
        data.keep_captures()?;
        let data = Arc::new(data);
        known.insert(data.clone());
        mine.push(data);
    }
    retro::solve_pair(known, m, progress)?;
    Ok(mine)
}

/// How a loaded slice's distances are held.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Dist {
    /// Not loaded.
    None,
    /// In memory, a byte a position.
    Memory,
    /// Read from the file, block by block, when asked.
    File,
}

/// Calls `set(i, symbol)` for every position of a table, block by block in parallel (each
/// block decoded in one pass).
fn fill(t: &Table, set: impl Fn(u64, u8) + Sync) -> Result<(), EgdbError> {
    /// Blocks a parallel task decodes.
    const BLOCKS: u64 = 64;
    let (blocks, len) = (t.blocks(), t.block_len());
    (0..blocks.div_ceil(BLOCKS))
        .into_par_iter()
        .try_for_each_init(Vec::new, |buf, c| {
            for b in c * BLOCKS..((c + 1) * BLOCKS).min(blocks) {
                buf.clear();
                t.decode_block(b, buf)?;
                for (k, &s) in buf.iter().enumerate() {
                    set(b * len + k as u64, s);
                }
            }
            Ok(())
        })
}

impl<R: Rules> Builder for DraughtsBuilder<R> {
    fn units(&self) -> Vec<Unit> {
        let mut units = Vec::new();
        for n in 2..=self.pieces {
            for m in Material::all(n) {
                if m.flip() < m || !self.wanted(m) {
                    // Built with its twin (the twin comes first in this order), or not asked for.
                    continue;
                }
                let slices = pair(m);
                let mut outputs = Vec::new();
                for &s in &slices {
                    outputs.push(Output {
                        path: wdl_path::<R>(&self.dir, s),
                        header: header::<R>(s, Kind::Wdl),
                    });
                    if self.distances {
                        outputs.push(Output {
                            path: distance_path::<R>(&self.dir, s),
                            header: header::<R>(s, Kind::Distance),
                        });
                    }
                }
                units.push(Unit {
                    name: slices
                        .iter()
                        .map(|s| s.to_string())
                        .collect::<Vec<_>>()
                        .join(" + "),
                    pieces: n,
                    positions: slices
                        .iter()
                        .map(|&s| SliceIndex::<R::Board>::new(s).positions())
                        .sum(),
                    outputs,
                });
            }
        }
        units
    }

    fn build(&self, unit: &Unit, progress: &(dyn Fn(u64) + Sync)) -> Result<(), EgdbError> {
        let m = unit_material(unit);
        std::fs::create_dir_all(self.dir.join(R::VARIANT.name())).map_err(|e| EgdbError::Io {
            path: self.dir.join(R::VARIANT.name()),
            error: e.to_string(),
        })?;
        let mut known = self.dependencies(m, self.distances)?;
        let mine = solve_unit(&mut known, m, self.distances, progress)?;
        for data in &mine {
            let s = data.index.material;
            let saturated = data.saturated.load(Relaxed);
            if saturated > 0 {
                return Err(EgdbError::TooLarge {
                    what: format!("slice {s}"),
                    reason: format!(
                        "{saturated} positions lie more than {} plies from a capture, more than \
                         a distance file holds (build with --no-distance)",
                        retro::MAX_DISTANCE
                    ),
                });
            }
            // The distances first: readers find a slice by its `.wdl` (see the module doc).
            if let Some(dist) = &data.distance {
                TableWriter::new(header::<R>(s, Kind::Distance))
                    .write(&distance_path::<R>(&self.dir, s), |i| dist.get(i))?;
            }
            TableWriter::new(header::<R>(s, Kind::Wdl))
                .write(&wdl_path::<R>(&self.dir, s), |i| data.wdl.get(i))?;
        }
        Ok(())
    }

    fn verify(&self, unit: &Unit, progress: &(dyn Fn(u64) + Sync)) -> Result<Verified, EgdbError> {
        let m = unit_material(unit);
        let distances = distance_path::<R>(&self.dir, m).exists();
        let mut known = self.dependencies(m, distances)?;
        let mut mine = Vec::new();
        for s in pair(m) {
            // Read only: its capture values may be kept (its successors in it are looked up).
            let data = self.load(s, if distances { Dist::Memory } else { Dist::None }, true)?;
            known.insert(data.clone());
            mine.push(data);
        }
        let errors = AtomicU64::new(0);
        let examples = Mutex::new(Vec::new());
        let mut checked = 0;
        let (shard, shards) = self.verify_shard;
        for data in &mine {
            let n = data.index.positions();
            checked += (0..n.div_ceil(VERIFY_BLOCK))
                .into_par_iter()
                .map(|c| {
                    let block = c * VERIFY_BLOCK..((c + 1) * VERIFY_BLOCK).min(n);
                    let len = block.end - block.start;
                    let mut k = 0;
                    // Another shard's block is done, as far as this one goes.
                    let mine = if c % shards == shard { block } else { 0..0 };
                    let mut lists = Lists::default();
                    for_positions(&data.index, mine, |i, pos| {
                        if let Some(problem) = check(&known, data, i, pos, &mut lists) {
                            errors.fetch_add(1, Relaxed);
                            let mut e = examples.lock().expect("no panic while held");
                            if e.len() < 5 {
                                e.push(problem);
                            }
                        } else {
                            k += 1;
                        }
                    });
                    progress(len);
                    k
                })
                .sum::<u64>();
        }
        Ok(Verified {
            checked,
            errors: errors.into_inner(),
            examples: examples.into_inner().expect("no panic while held"),
        })
    }
}

/// Calls `f(i, (white, black, kings))` for every index `i` of `range` in slice `index`, in
/// order, White to move: each men configuration unranked once and its kings walked
/// ([`SliceIndex::king_walk`]); unranking every index alone took a quarter of the verify pass.
fn for_positions<G: Geometry>(
    index: &SliceIndex<G>,
    range: Range<u64>,
    mut f: impl FnMut(u64, (u64, u64, u64)),
) {
    let kings = index.king_placements();
    let mut i = range.start;
    while i < range.end {
        let (w, b) = index.men_of(i / kings);
        for (wk, bk) in index.king_walk(w | b, i % kings) {
            if i == range.end {
                return;
            }
            f(i, (w | wk, b | bk, wk | bk));
            i += 1;
        }
    }
}

/// The slice a unit is named after (its first).
fn unit_material(unit: &Unit) -> Material {
    let first = unit.name.split(" + ").next().unwrap_or_default();
    Material::parse(first).expect("units are named after their slices")
}

/// Checks position `i` of a slice (`(white, black, kings)`, White to move) against its
/// successors; `None` when it agrees (or is not stored: a capture position), else what is
/// wrong. With distances: a win's distance is the shortest of its winning moves', a loss's the
/// longest of its moves' (0 without a move), where a move's is 1 for a capture, else one more
/// than its child's (1 for a child that must capture); distances above 254 are saturated. Move
/// lists come from `lists`.
fn check<R: Rules>(
    known: &Known<R>,
    data: &SliceData<R>,
    i: u64,
    (w, b, k): (u64, u64, u64),
    lists: &mut Lists,
) -> Option<String> {
    let m = data.index.material;
    let pos = Position::<R>::from_parts(w, b, k, Color::White).ok()?;
    if movegen::has_capture(&pos) {
        return None;
    }
    let describe = |what: String| format!("{m} position {i} ({}): {what}", fen_of(&pos));
    let stored = match Wdl::from_code(data.wdl.get(i)) {
        Some(v) => v,
        None => return Some(describe("not stored, yet no capture is pending".into())),
    };
    let mut list = lists.take();
    movegen::generate(&pos, &mut list);
    let no_moves = list.is_empty();
    let found = best_of_moves(known, &pos, &list, lists);
    lists.give(list);
    let (best, short, long) = match found {
        Ok(x) => x,
        Err(e) => {
            return Some(describe(format!(
                "successor in slice {} unknown",
                e.material
            )));
        }
    };
    if best != stored {
        return Some(describe(format!(
            "stored {stored}, its successors give {best}"
        )));
    }
    // A draw's distance is not stored (it reads back unspecified).
    let d = data.distance.as_ref()?.get(i);
    if stored == Wdl::Draw {
        return None;
    }
    let want = if no_moves {
        0
    } else if stored == Wdl::Win {
        short
    } else {
        long
    };
    // Stored as 1 + distance.
    let got = (d as u32).saturating_sub(1);
    (want == u32::MAX || d == 0 || got.min(254) != want.min(254)).then(|| {
        describe(format!(
            "{stored} stored at distance {got}, its successors give {}",
            if want == u32::MAX {
                "none".to_string()
            } else {
                want.to_string()
            }
        ))
    })
}

/// The best value for the side to move among the moves `list` of `pos`, with the shortest and
/// longest distance of the moves that reach it (a move's distance as [`check`] counts it,
/// `u32::MAX` when it is not known; 0 for draws).
fn best_of_moves<R: Rules>(
    known: &Known<R>,
    pos: &Position<R>,
    list: &MoveList<Move>,
    lists: &mut Lists,
) -> Result<(Wdl, u32, u32), Missing> {
    let mut best = Wdl::Loss;
    let (mut short, mut long) = (u32::MAX, 0u32);
    for mv in list.iter() {
        let (v, d) = known.value_distance_with(&pos.make(mv), lists)?;
        let v = v.flip();
        let dist = match (v, d) {
            (Wdl::Draw, _) => 0,
            (_, Some(d)) => 1 + d as u32,
            (_, None) => u32::MAX,
        };
        if v > best {
            best = v;
            (short, long) = (dist, dist);
        } else if v == best {
            short = short.min(dist);
            long = long.max(dist);
        }
    }
    Ok((best, short, long))
}

fn fen_of<R: Rules>(pos: &Position<R>) -> String {
    crate::game::Game::fen(pos)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::board::{Board8, Board10};

    /// The walk gives every index of a range its own position, ranges starting and ending
    /// inside a men configuration's kings included.
    fn walk_agrees<G: Geometry>(m: &str) {
        let ix = SliceIndex::<G>::new(Material::parse(m).unwrap());
        let n = ix.positions();
        let kings = ix.king_placements();
        for range in [
            0..n.min(3000),
            kings / 2..(kings * 3 + 7).min(n),
            n.saturating_sub(2500)..n,
            n / 2..n / 2,
        ] {
            let mut seen = Vec::new();
            for_positions(&ix, range.clone(), |i, p| {
                assert_eq!(p, ix.position_of(i), "{m} index {i}");
                seen.push(i);
            });
            assert_eq!(seen, range.collect::<Vec<_>>(), "{m}");
        }
    }

    #[test]
    fn walking_a_range_gives_each_index_its_position() {
        for m in ["KvK", "MvM", "KMvK", "KKvKM", "MMvMK", "KKKvK"] {
            walk_agrees::<Board8>(m);
            walk_agrees::<Board10>(m);
        }
    }

    /// The capture values a slice keeps are those resolved again without keeping: every
    /// capture position of the russian tables up to 4 pieces looked up twice (the second time
    /// from what the first kept) in slices that keep them, against slices that do not.
    #[test]
    fn kept_capture_values_are_the_values_resolved_again() {
        use crate::draughts::rules::Russian;
        let dir = std::env::temp_dir().join(format!("tiao-egdb-keep-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let b = DraughtsBuilder::<Russian>::new(&dir, 4, true);
        crate::egdb::driver::build(&b, false, &mut |_| {}).unwrap();
        let (mut keeping, mut plain) = (Known::default(), Known::default());
        for n in 2..=4 {
            for m in Material::all(n) {
                keeping.insert(b.load(m, Dist::None, true).unwrap());
                plain.insert(b.load(m, Dist::None, false).unwrap());
            }
        }
        let mut lists = Lists::default();
        let mut looked_up = 0u64;
        for _round in 0..2 {
            for m in Material::all(4) {
                let ix = SliceIndex::<Board8>::new(m);
                for_positions(&ix, 0..ix.positions(), |i, (w, bl, k)| {
                    let pos = Position::<Russian>::from_parts(w, bl, k, Color::White).unwrap();
                    if movegen::has_capture(&pos) {
                        looked_up += 1;
                        let kept = keeping.value_with(&pos, &mut lists);
                        assert_eq!(kept, plain.value_with(&pos, &mut lists), "{m} {i}");
                        assert_eq!(
                            kept.map(|v| (v, Some(1))),
                            keeping.value_distance_with(&pos, &mut lists),
                        );
                    }
                });
            }
        }
        let kept: u64 = Material::all(4)
            .into_iter()
            .map(|m| {
                let s = keeping.get(m).unwrap();
                let c = s.captures.as_ref().expect("loaded keeping");
                (0..s.index.positions())
                    .filter(|&i| c.get(i) != NOT_STORED)
                    .count() as u64
            })
            .sum();
        assert!(
            kept > 0 && kept * 2 == looked_up,
            "{kept} kept of {looked_up} lookups"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
