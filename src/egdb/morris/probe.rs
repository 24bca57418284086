//! Probing the Morris tables from the search: [`MorrisTables`] implements the shared
//! [`Probe`] hook for [`MorrisPosition`], and [`open`] is the game's [`Opener`].
//!
//! A position is covered when both hands are empty (the moving phase), each side has 3 to 9
//! pieces on the board, and its sector's win/draw/loss file opened; the answer carries the
//! distance to the next removal when the sector's distance file opened too. The tables ignore
//! the no-removal counter; the probe does not: a win or loss whose removal (or block) comes in
//! `d` plies is answered as a draw when the counter `R` has `R + d > 100` (the loser delays the
//! removal until the 100-ply rule draws). Otherwise the answer's distance is
//! [`search_distance`]: the losing side's pieces first, then the plies to the next removal, so
//! that the search makes each winning removal and, between removals, shortens the way to the
//! next; the removal comes before the rule. Without a distance file the answer is the bare
//! win/draw/loss (the search then orders wins by its evaluation).
//!
//! Files that do not open (truncated, foreign, damaged) are listed in [`Opened::problems`] and
//! left out: the engine warns and plays on with the others, or with none.

use super::index::{MAX_PIECES, MIN_PIECES, Sector};
use super::store;
use crate::egdb::checked::CheckRecord;
use crate::egdb::{
    CHECK_AT_OPEN_MAX, EgdbError, Kind, NOT_STORED, Opened, Opener, Probe, Probed, Table, Wdl,
    pending_check,
};
use crate::game::Variant;
use crate::game::color::Color;
use crate::morris::MorrisPosition;
use crate::morris::position::DRAW_PLIES;
use rayon::prelude::*;
use std::path::Path;
use std::sync::Arc;

const SIDES: usize = MAX_PIECES as usize + 1;

/// The open Morris tables: per sector, the win/draw/loss table and the distance table if any.
pub struct MorrisTables {
    sectors: Vec<Option<(Table, Option<Table>)>>,
    max_pieces: u32,
}

impl MorrisTables {
    /// Every file open.
    pub fn files(&self) -> Vec<&Table> {
        self.sectors
            .iter()
            .flatten()
            .flat_map(|(wdl, dist)| std::iter::once(wdl).chain(dist))
            .collect()
    }

    /// Checks the payloads left unchecked at open ([`open_tables_deferring`]) here and now,
    /// smallest first; returns the damaged ones' errors (those tables never answer).
    pub fn check_pending(&self) -> Vec<EgdbError> {
        crate::egdb::check_pending(self.files())
    }

    /// The tables of one sector, if open.
    fn get(&self, sector: Sector) -> Option<&(Table, Option<Table>)> {
        self.sectors[sector.stm as usize * SIDES + sector.opp as usize].as_ref()
    }

    /// The sectors open.
    pub fn sectors(&self) -> impl Iterator<Item = Sector> + '_ {
        super::index::all_sectors().filter(|&s| self.get(s).is_some())
    }
}

/// The weight of one of the losing side's pieces in [`search_distance`]: above every stored
/// distance (they saturate at 127), so that a removal always beats the moves that do not remove.
const PIECE_STEP: u32 = 128;

/// The distance the search orders table wins and losses by (`Probed::distance`), from the
/// losing side's pieces on the board and the plies `d` to the next removal:
/// `128 * (loser's pieces - 3) + d`. So a win that has just removed a piece is nearer than any
/// win before the removal, and inside one stretch every ply nearer the removal is nearer: the
/// search converts instead of shuffling toward a removal that it never makes (the plain
/// distance to the next removal would rank the removal itself behind the moves that keep it 2
/// plies away, since after it the count starts again). Every ply counts: with distances grouped
/// in buckets (8 plies a bucket above 20, until 2026-11-25) the moves inside one bucket scored
/// alike, and the engine shuffled in table wins 20 or more plies from their removal until a
/// repetition drew them (2 of 37 in a 400-game match, docs/strength.md).
pub fn search_distance(loser_pieces: u32, d: u32) -> u16 {
    (PIECE_STEP * loser_pieces.saturating_sub(MIN_PIECES as u32) + d.min(PIECE_STEP - 1)) as u16
}

const _: () = assert!(
    PIECE_STEP * (MAX_PIECES - MIN_PIECES) as u32 + PIECE_STEP - 1
        <= crate::egdb::DISTANCE_MAX as u32,
    "search distances fit the table scores' range"
);

impl MorrisTables {
    /// The tables' own answer for `pos`: win, draw or loss for the side to move and the plies to
    /// the next removal, before the counter is looked at; `None` when not covered.
    pub fn lookup(&self, pos: &MorrisPosition) -> Option<(Wdl, Option<u32>)> {
        if pos.in_hand(Color::White) != 0 || pos.in_hand(Color::Black) != 0 {
            return None;
        }
        let stm = pos.pieces(pos.side());
        let opp = pos.pieces(!pos.side());
        let (a, b) = (stm.count_ones() as u8, opp.count_ones() as u8);
        let range = MIN_PIECES..=MAX_PIECES;
        if !range.contains(&a) || !range.contains(&b) {
            return None;
        }
        let sector = Sector::new(a, b);
        let (wdl, dist) = self.get(sector)?;
        let i = sector.index(stm, opp);
        let wdl = Wdl::from_code(wdl.symbol(i)?)?;
        let distance = match (wdl, dist) {
            (Wdl::Draw, _) | (_, None) => None,
            (_, Some(t)) => match t.symbol(i)? {
                NOT_STORED => None,
                d => Some(d as u32 - 1),
            },
        };
        Some((wdl, distance))
    }
}

impl Probe<MorrisPosition> for MorrisTables {
    fn probe(&self, pos: &MorrisPosition) -> Option<Probed> {
        let (wdl, distance) = self.lookup(pos)?;
        let Some(d) = distance else {
            return Some(Probed {
                wdl,
                distance: None,
            });
        };
        // The counter: a removal (or block) that comes after the 100th ply without one comes
        // too late, and the side that would lose holds the draw.
        if pos.no_removal() as u32 + d > DRAW_PLIES as u32 {
            return Some(Probed {
                wdl: Wdl::Draw,
                distance: None,
            });
        }
        let loser = match wdl {
            Wdl::Win => !pos.side(),
            _ => pos.side(),
        };
        Some(Probed {
            wdl,
            distance: Some(search_distance(pos.on_board(loser), d)),
        })
    }

    fn max_pieces(&self) -> u32 {
        self.max_pieces
    }
}

/// Opens the Morris tables under `dir` (in `dir/morris/`): every sector whose win/draw/loss file
/// opens with the right header, with its distance file when that opens too. Returns the tables
/// (`None` when no sector opened), the files opened and the files refused. A missing `morris`
/// directory is no table and no problem; a `dir` that is not a directory is a problem.
pub fn open_tables(dir: &Path) -> (Option<MorrisTables>, usize, Vec<EgdbError>) {
    open_tables_deferring(dir, u64::MAX)
}

/// [`open_tables`], with the payload checksum of every file longer than `defer_above` bytes
/// left for [`MorrisTables::check_pending`] (those tables answer nothing until it has found
/// them whole).
pub fn open_tables_deferring(
    dir: &Path,
    defer_above: u64,
) -> (Option<MorrisTables>, usize, Vec<EgdbError>) {
    open_tables_recorded(dir, defer_above, false)
}

/// [`open_tables_deferring`], with the [`CheckRecord`] of the `morris` directory when
/// `recorded`: the files it holds unchanged are not read for their check, those that pass one
/// at open are added to it, and it is saved; those checked later are added by their check.
pub fn open_tables_recorded(
    dir: &Path,
    defer_above: u64,
    recorded: bool,
) -> (Option<MorrisTables>, usize, Vec<EgdbError>) {
    let mut problems = Vec::new();
    let mut slices = 0;
    if !dir.is_dir() {
        problems.push(EgdbError::Io {
            path: dir.to_path_buf(),
            error: "not a directory".into(),
        });
        return (None, 0, problems);
    }
    if !store::morris_dir(dir).is_dir() {
        return (None, 0, problems);
    }
    let mut tables = MorrisTables {
        sectors: (0..SIDES * SIDES).map(|_| None).collect(),
        max_pieces: 0,
    };
    // The files are read and checked in parallel (a whole phase is 98 files and 4.6 GB), then
    // taken in the sectors' order, so the problems come in the same order whatever the threads.
    let present: Vec<Sector> = super::index::all_sectors()
        .filter(|&s| store::path(dir, s, Kind::Wdl).exists())
        .collect();
    let record = recorded.then(|| Arc::new(CheckRecord::load(&store::morris_dir(dir))));
    let record = record.as_ref();
    let read: Vec<_> = present
        .into_par_iter()
        .map(|s| {
            let wdl = store::open_recorded(dir, s, Kind::Wdl, defer_above, record);
            let dist = (wdl.is_ok() && store::path(dir, s, Kind::Distance).exists())
                .then(|| store::open_recorded(dir, s, Kind::Distance, defer_above, record));
            (s, wdl, dist)
        })
        .collect();
    if let Some(r) = record {
        r.save();
    }
    for (s, wdl, dist) in read {
        let wdl = match wdl {
            Ok(t) => t,
            Err(e) => {
                problems.push(e);
                continue;
            }
        };
        let dist = dist.and_then(|d| d.map_err(|e| problems.push(e)).ok());
        slices += 1 + dist.is_some() as usize;
        tables.max_pieces = tables.max_pieces.max(s.pieces() as u32);
        tables.sectors[s.stm as usize * SIDES + s.opp as usize] = Some((wdl, dist));
    }
    let tables = (tables.max_pieces > 0).then_some(tables);
    (tables, slices, problems)
}

/// The game's [`Opener`]: [`open_tables`] for `variant` Morris, nothing for the others.
pub fn open(dir: &Path, variant: Variant) -> Opened<MorrisPosition> {
    if variant != Variant::Morris {
        return Opened::none();
    }
    let (tables, slices, problems) = open_tables_recorded(dir, CHECK_AT_OPEN_MAX, true);
    let tables = tables.map(Arc::new);
    Opened {
        check: tables
            .as_ref()
            .and_then(|t| pending_check(t, MorrisTables::files)),
        tables: tables.map(|t| t as Arc<dyn Probe<MorrisPosition>>),
        slices,
        problems,
    }
}

/// [`open`] as the shared [`Opener`] type.
pub const OPENER: Opener<MorrisPosition> = open;
