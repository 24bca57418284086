//! The draughts tables as the search sees them: the files of one variant opened from a directory
//! ([`open`]), and the [`Probe`] that answers for a position.
//!
//! Convention: a position whose side to move must capture is not stored in the files; the probe
//! answers for it from the positions its captures lead to (looked up in turn, their own captures
//! resolved the same way), at distance 1: a capture is the conversion the distances count to. So
//! every position of a covered material has an answer on one scale, and a search that takes the
//! shortest distance among its moves makes progress even when the shortest way is a sacrifice.
//! A position of a slice whose file is absent or was refused (or that leads to one) is `None`.
//!
//! Invariant: only files that passed every check of [`Table`] (checksums, header) and carry the
//! header their name calls for are probed; a block that fails to decode later answers `None`.

use super::build::{header, header_of_size};
use super::index::{Material, SliceIndex, white_to_move};
use super::{DISTANCE_EXT, WDL_EXT, max_table_pieces};
use crate::draughts::movegen;
use crate::draughts::position::Position;
use crate::draughts::rules::Rules;
use crate::egdb::checked::CheckRecord;
use crate::egdb::{
    CHECK_AT_OPEN_MAX, EgdbError, Kind, Opened, Probe, Probed, Table, Wdl, pending_check,
};
use crate::game::{MoveList, Variant};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// One slice's open files.
struct SliceTables<R: Rules> {
    index: SliceIndex<R::Board>,
    wdl: Table,
    distance: Option<Table>,
}

/// The open tables of variant `R`.
pub struct DraughtsTables<R: Rules> {
    slices: Vec<Option<SliceTables<R>>>,
    max_pieces: u32,
    count: usize,
    bytes: u64,
}

impl<R: Rules> DraughtsTables<R> {
    /// The tables of slices already checked (the built-in ones, [`super::builtin`]): each
    /// slice's values and, when it has them, its distances.
    pub(super) fn from_tables(tables: Vec<(Material, Table, Option<Table>)>) -> Self {
        let mut t = DraughtsTables::empty();
        for (m, wdl, distance) in tables {
            t.add(m, wdl, distance);
        }
        t
    }

    /// No slice.
    fn empty() -> Self {
        DraughtsTables {
            slices: (0..Material::SLOTS).map(|_| None).collect(),
            max_pieces: 0,
            count: 0,
            bytes: 0,
        }
    }

    /// Adds slice `m`'s values and, when it has them, its distances.
    fn add(&mut self, m: Material, wdl: Table, distance: Option<Table>) {
        self.bytes += wdl.file_len() + distance.as_ref().map_or(0, |d| d.file_len());
        self.max_pieces = self.max_pieces.max(m.pieces());
        self.count += 1;
        self.slices[m.slot()] = Some(SliceTables {
            index: SliceIndex::new(m),
            wdl,
            distance,
        });
    }

    /// Every file open.
    pub fn files(&self) -> Vec<&Table> {
        self.slices
            .iter()
            .flatten()
            .flat_map(|s| std::iter::once(&s.wdl).chain(&s.distance))
            .collect()
    }

    /// Checks the payloads left unchecked at open ([`open_tables_deferring`]) here and now,
    /// smallest first; returns the damaged ones' errors (those tables never answer).
    pub fn check_pending(&self) -> Vec<EgdbError> {
        crate::egdb::check_pending(self.files())
    }

    /// Slices open.
    pub fn slices(&self) -> usize {
        self.count
    }

    /// The most pieces `n` such that every slice of 2 to `n` pieces is open (every position of
    /// at most `n` pieces is covered); 0 when not even the 2-piece slices are all there.
    pub fn complete_pieces(&self) -> u32 {
        (2..=self.max_pieces)
            .take_while(|&n| {
                Material::all(n)
                    .iter()
                    .all(|m| self.slices[m.slot()].is_some())
            })
            .last()
            .unwrap_or(0)
    }

    /// Bytes of the files open (mapped, see [`Table::open`]).
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// The value of `pos` from the tables, with the distance to capture when it is there (1 for
    /// a position that must capture, whose value comes from its captures): `None` when its
    /// slice, or one its captures lead to, is not open.
    #[inline]
    pub fn lookup(&self, pos: &Position<R>) -> Option<Probed> {
        if pos.occupied().count_ones() > self.max_pieces {
            return None;
        }
        let (w, b, k) = white_to_move(pos);
        let m = Material::of(w, b, k, true);
        if m.wk + m.wm == 0 || m.bk + m.bm == 0 {
            return None;
        }
        // A material without its slice has no answer (its captures are not looked for: with
        // the built-in kings' tables, most positions of few pieces have men).
        let s = self.slices[m.slot()].as_ref()?;
        if movegen::has_capture(pos) {
            return self.after_captures(pos);
        }
        let i = s.index.index(w, b, k);
        let wdl = Wdl::from_code(s.wdl.symbol(i)?)?;
        let distance = match (&s.distance, wdl) {
            (Some(t), Wdl::Win | Wdl::Loss) => {
                t.symbol(i).and_then(|d| d.checked_sub(1)).map(u16::from)
            }
            _ => None,
        };
        Some(Probed { wdl, distance })
    }
}

impl<R: Rules> DraughtsTables<R> {
    /// A position that must capture: the best of its captures, distance 1.
    #[cold]
    fn after_captures(&self, pos: &Position<R>) -> Option<Probed> {
        let mut list = MoveList::new();
        movegen::generate(pos, &mut list);
        let mut best = Wdl::Loss;
        for m in list.iter() {
            let child = pos.make(m);
            let v = if child.pieces(child.side()) == 0 {
                Wdl::Loss
            } else {
                self.lookup(&child)?.wdl
            };
            best = best.max(v.flip());
            if best == Wdl::Win {
                break;
            }
        }
        Some(Probed {
            wdl: best,
            distance: (best != Wdl::Draw).then_some(1),
        })
    }
}

/// The plies the variant's draw counters leave before one of them ends the game, as far as the
/// position tells (`None`: no counter applies), and whether any of them is running.
///
/// A rule applies when its material condition holds now; it ends the game at the position
/// where its counter reaches its threshold, so with counter `c` and threshold `T` it leaves
/// `T - c` plies. A decided position `d` plies from its next capture (the winner hurrying, the
/// loser delaying) is decided only if `d` is within that room, else it is a draw: the loser
/// delays and the winner has no faster capture. A rule that a man's move or a promotion resets
/// is left out while men are on the board: such a move may come before the capture and restart
/// it. After a capture the next position is judged on its own counters (the search probes it).
fn counter_room<R: Rules>(pos: &Position<R>) -> (Option<u32>, bool) {
    let pieces = [pos.white(), pos.black()];
    let counters = pos.counters();
    let mut room: Option<u32> = None;
    let mut running = false;
    for (i, rule) in R::DRAW.rules.iter().enumerate() {
        let reset_by_men = rule.resets.man_move || rule.resets.promotion;
        if (reset_by_men && pos.men() != 0)
            || !rule.condition.holds::<R::Board>(pieces, pos.kings())
        {
            continue;
        }
        let c = counters.by_rule[i] as u32;
        running |= c > 0;
        let left = (rule.plies as u32).saturating_sub(c);
        room = Some(room.map_or(left, |r| r.min(left)));
    }
    (room, running)
}

impl<R: Rules> Probe<Position<R>> for DraughtsTables<R> {
    /// The tables' value under the draw counters: a win or loss that a counter would end first
    /// is a draw (`counter_room`). Without a distance file the tables cannot tell, so a
    /// decided value is answered only while no counter that applies is running (a counter at
    /// 0 for every rule whose condition holds), and the search decides otherwise.
    #[inline]
    fn probe(&self, pos: &Position<R>) -> Option<Probed> {
        let p = self.lookup(pos)?;
        if p.wdl == Wdl::Draw {
            return Some(p);
        }
        let (room, running) = counter_room(pos);
        match p.distance {
            Some(d) if room.is_none_or(|r| d as u32 <= r) => Some(p),
            Some(_) => Some(Probed {
                wdl: Wdl::Draw,
                distance: None,
            }),
            None => (!running).then_some(p),
        }
    }

    fn max_pieces(&self) -> u32 {
        self.max_pieces
    }
}

/// Opens the table of slice `m` and kind `kind` at `path`, refused unless its header is
/// exactly the one a build writes. The slice's name is compared first: the expected header's
/// size needs the slice's numbering, costly for a large slice a stray file may be named after.
/// A file longer than `defer_above` bytes has its payload checked later
/// ([`Table::open_deferring`]).
fn open_slice<R: Rules>(
    path: &Path,
    m: Material,
    kind: Kind,
    defer_above: u64,
    record: Option<&Arc<CheckRecord>>,
) -> Result<Table, EgdbError> {
    let t = Table::open_recorded(path, defer_above, record)?;
    // Game, variant, kind and slice first, with the file's own size (free to compute).
    t.expect(&header_of_size::<R>(m, kind, t.header().positions))?;
    let most = max_table_pieces::<R::Board>();
    if m.pieces() > most {
        return Err(EgdbError::Corrupt {
            path: path.to_path_buf(),
            reason: format!("a slice of more than {most} pieces"),
        });
    }
    t.expect(&header::<R>(m, kind))?;
    Ok(t)
}

/// Opens the tables of variant `R` under `dir` (its `<variant>/` subdirectory): every
/// `<slice>.wdl` file that passes its checks, with its `<slice>.dtc` distances when they are
/// there and pass theirs. The files refused, and leftovers of an interrupted build, are listed
/// in [`Opened::problems`].
pub fn open_tables<R: Rules>(dir: &Path) -> (DraughtsTables<R>, Vec<EgdbError>) {
    open_tables_deferring(dir, u64::MAX)
}

/// [`open_tables`], with the payload checksum of every file longer than `defer_above` bytes
/// left for [`DraughtsTables::check_pending`] (those tables answer nothing until it has found
/// them whole).
pub fn open_tables_deferring<R: Rules>(
    dir: &Path,
    defer_above: u64,
) -> (DraughtsTables<R>, Vec<EgdbError>) {
    open_tables_recorded(dir, defer_above, false)
}

/// [`open_tables_deferring`], with the [`CheckRecord`] of the variant's directory when
/// `recorded`: the files it holds unchanged are not read for their check, those that pass one
/// at open are added to it, and it is saved; those checked later are added by their check.
pub fn open_tables_recorded<R: Rules>(
    dir: &Path,
    defer_above: u64,
    recorded: bool,
) -> (DraughtsTables<R>, Vec<EgdbError>) {
    let mut tables = DraughtsTables::empty();
    let mut problems = Vec::new();
    let sub = dir.join(R::VARIANT.name());
    let entries = match std::fs::read_dir(&sub) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            if !dir.is_dir() {
                problems.push(EgdbError::Io {
                    path: dir.to_path_buf(),
                    error: "no such directory".into(),
                });
            }
            return (tables, problems);
        }
        Err(e) => {
            problems.push(EgdbError::Io {
                path: sub,
                error: e.to_string(),
            });
            return (tables, problems);
        }
    };
    let record = recorded.then(|| Arc::new(CheckRecord::load(&sub)));
    let record = record.as_ref();
    let mut names: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    names.sort();
    // The names are sorted out first (a problem, or a slice to read), the slices then read and
    // checked in parallel, and everything taken in the names' order: the problems come in the
    // same order whatever the threads.
    let items: Vec<Result<(PathBuf, PathBuf, Material), EgdbError>> = names
        .into_iter()
        .filter_map(|path| {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if name.ends_with(".tmp") {
                return Some(Err(EgdbError::Corrupt {
                    path: path.clone(),
                    reason: "the partial file of an interrupted build, ignored (run the build \
                             again to finish it)"
                        .into(),
                }));
            }
            let stem = name.strip_suffix(WDL_EXT)?;
            Some(match Material::parse(stem) {
                Some(m) => {
                    let dpath = path.with_file_name(format!("{stem}{DISTANCE_EXT}"));
                    Ok((path, dpath, m))
                }
                None => Err(EgdbError::Corrupt {
                    path: path.clone(),
                    reason: "not a slice name (expected e.g. KKMvK.wdl)".into(),
                }),
            })
        })
        .collect();
    let read: Vec<_> = items
        .into_par_iter()
        .map(|item| {
            let (path, dpath, m) = item?;
            let wdl = open_slice::<R>(&path, m, Kind::Wdl, defer_above, record)?;
            let distance = dpath
                .exists()
                .then(|| open_slice::<R>(&dpath, m, Kind::Distance, defer_above, record));
            Ok((m, wdl, distance))
        })
        .collect();
    for item in read {
        let (m, wdl, distance) = match item {
            Ok(x) => x,
            Err(e) => {
                problems.push(e);
                continue;
            }
        };
        let distance = distance.and_then(|d| d.map_err(|e| problems.push(e)).ok());
        tables.add(m, wdl, distance);
    }
    if let Some(r) = record {
        r.save();
    }
    (tables, problems)
}

/// The [`Opener`](crate::egdb::Opener) of the draughts variants: [`open_tables`] for the rules
/// `R` (which name the variant).
///
/// Files above [`CHECK_AT_OPEN_MAX`] bytes are checked by [`Opened::check`], answering nothing
/// until then; files the directory's [`CheckRecord`] holds unchanged are not read for their
/// check.
pub fn open<R: Rules>(dir: &Path, _variant: Variant) -> Opened<Position<R>> {
    let (tables, problems) = open_tables_recorded::<R>(dir, CHECK_AT_OPEN_MAX, true);
    let slices = tables.slices();
    let tables = Arc::new(tables);
    Opened {
        check: pending_check(&tables, DraughtsTables::files),
        tables: (slices > 0).then_some(tables as Arc<dyn Probe<Position<R>>>),
        slices,
        problems,
    }
}
