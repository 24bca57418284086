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

use super::index::{Material, SliceIndex, rotate};
use super::{DISTANCE_EXT, WDL_EXT, build::header};
use crate::color::Color;
use crate::draughts::movegen;
use crate::draughts::position::Position;
use crate::draughts::rules::Rules;
use crate::egdb::{EgdbError, Kind, Opened, Probe, Probed, Table, Wdl};
use crate::game::{MoveList, Variant};
use std::path::Path;
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
    /// Slices open.
    pub fn slices(&self) -> usize {
        self.count
    }

    /// Bytes of the files open (held in memory).
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
        if movegen::has_capture(pos) {
            return self.after_captures(pos);
        }
        let (mut w, mut b, mut k) = (pos.white(), pos.black(), pos.kings());
        if pos.side() == Color::Black {
            (w, b, k) = (
                rotate::<R::Board>(b),
                rotate::<R::Board>(w),
                rotate::<R::Board>(k),
            );
        }
        let m = Material::of(w, b, k, true);
        if m.wk + m.wm == 0 || m.bk + m.bm == 0 {
            return None;
        }
        let s = self.slices[m.slot()].as_ref()?;
        let i = s.index.index(w, b, k);
        let wdl = Wdl::from_code(s.wdl.get(i).ok()?)?;
        let distance = match (&s.distance, wdl) {
            (Some(t), Wdl::Win | Wdl::Loss) => t.get(i).ok().and_then(|d| d.checked_sub(1)),
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

impl<R: Rules> Probe<Position<R>> for DraughtsTables<R> {
    #[inline]
    fn probe(&self, pos: &Position<R>) -> Option<Probed> {
        self.lookup(pos)
    }

    fn max_pieces(&self) -> u32 {
        self.max_pieces
    }
}

/// Opens the tables of variant `R` under `dir` (its `<variant>/` subdirectory): every
/// `<slice>.wdl` file that passes its checks, with its `<slice>.dtc` distances when they are
/// there and pass theirs. The files refused, and leftovers of an interrupted build, are listed
/// in [`Opened::problems`].
pub fn open_tables<R: Rules>(dir: &Path) -> (DraughtsTables<R>, Vec<EgdbError>) {
    let mut tables = DraughtsTables {
        slices: (0..Material::SLOTS).map(|_| None).collect(),
        max_pieces: 0,
        count: 0,
        bytes: 0,
    };
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
    let mut names: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    names.sort();
    for path in names {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name.ends_with(".tmp") {
            problems.push(EgdbError::Corrupt {
                path: path.clone(),
                reason: "the partial file of an interrupted build, ignored (run the build again \
                         to finish it)"
                    .into(),
            });
            continue;
        }
        let Some(stem) = name.strip_suffix(WDL_EXT) else {
            continue;
        };
        let Some(m) = Material::parse(stem) else {
            problems.push(EgdbError::Corrupt {
                path: path.clone(),
                reason: "not a slice name (expected e.g. KKMvK.wdl)".into(),
            });
            continue;
        };
        let wdl = match Table::open(&path)
            .and_then(|t| t.expect(&header::<R>(m, Kind::Wdl)).map(|_| t))
        {
            Ok(t) => t,
            Err(e) => {
                problems.push(e);
                continue;
            }
        };
        let dpath = path.with_file_name(format!("{stem}{DISTANCE_EXT}"));
        let distance = if dpath.exists() {
            match Table::open(&dpath)
                .and_then(|t| t.expect(&header::<R>(m, Kind::Distance)).map(|_| t))
            {
                Ok(t) => Some(t),
                Err(e) => {
                    problems.push(e);
                    None
                }
            }
        } else {
            None
        };
        tables.bytes += wdl.file_len() + distance.as_ref().map_or(0, |d| d.file_len());
        tables.max_pieces = tables.max_pieces.max(m.pieces());
        tables.count += 1;
        tables.slices[m.slot()] = Some(SliceTables {
            index: SliceIndex::new(m),
            wdl,
            distance,
        });
    }
    (tables, problems)
}

/// The [`Opener`](crate::egdb::Opener) of the draughts variants: [`open_tables`] for the rules
/// `R` (which name the variant).
pub fn open<R: Rules>(dir: &Path, _variant: Variant) -> Opened<Position<R>> {
    let (tables, problems) = open_tables::<R>(dir);
    let slices = tables.slices();
    Opened {
        tables: (slices > 0).then(|| Arc::new(tables) as Arc<dyn Probe<Position<R>>>),
        slices,
        problems,
    }
}
