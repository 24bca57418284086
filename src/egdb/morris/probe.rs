//! Probing the Morris tables from the search: [`MorrisTables`] implements the shared
//! [`Probe`] hook for [`MorrisPosition`], and [`open`] is the game's [`Opener`].
//!
//! A position is covered when both hands are empty (the moving phase), each side has 3 to 9
//! pieces on the board, and its sector's win/draw/loss file opened; the answer carries the
//! distance to the next removal when the sector's distance file opened too. The tables ignore
//! the no-removal counter; the probe does not: a win or loss whose removal (or block) comes in
//! `d` plies is answered as a draw when the counter `R` has `R + d > 100` (the loser delays the
//! removal until the 100-ply rule draws). Otherwise the search converts by the distance, which
//! the winner shortens by one every ply it moves, so the removal comes before the rule. Without a
//! distance file the answer is the bare win/draw/loss.
//!
//! Files that do not open (truncated, foreign, damaged) are listed in [`Opened::problems`] and
//! left out: the engine warns and plays on with the others, or with none.

use super::index::{MAX_PIECES, MIN_PIECES, Sector};
use super::store;
use crate::color::Color;
use crate::egdb::{EgdbError, Kind, NOT_STORED, Opened, Opener, Probe, Probed, Table, Wdl};
use crate::game::Variant;
use crate::morris::MorrisPosition;
use crate::morris::position::DRAW_PLIES;
use std::path::Path;
use std::sync::Arc;

const SIDES: usize = MAX_PIECES as usize + 1;

/// The open Morris tables: per sector, the win/draw/loss table and the distance table if any.
pub struct MorrisTables {
    sectors: Vec<Option<(Table, Option<Table>)>>,
    max_pieces: u32,
}

impl MorrisTables {
    /// The tables of one sector, if open.
    fn get(&self, sector: Sector) -> Option<&(Table, Option<Table>)> {
        self.sectors[sector.stm as usize * SIDES + sector.opp as usize].as_ref()
    }

    /// The sectors open.
    pub fn sectors(&self) -> impl Iterator<Item = Sector> + '_ {
        super::index::all_sectors().filter(|&s| self.get(s).is_some())
    }
}

impl Probe<MorrisPosition> for MorrisTables {
    fn probe(&self, pos: &MorrisPosition) -> Option<Probed> {
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
        let wdl = Wdl::from_code(wdl.get(i).ok()?)?;
        let distance = match (wdl, dist) {
            (Wdl::Draw, _) | (_, None) => None,
            (_, Some(t)) => match t.get(i).ok()? {
                NOT_STORED => None,
                d => Some(d - 1),
            },
        };
        // The counter: a removal (or block) that comes after the 100th ply without one comes
        // too late, and the side that would lose holds the draw.
        if let Some(d) = distance
            && pos.no_removal() as u32 + d as u32 > DRAW_PLIES as u32
        {
            return Some(Probed {
                wdl: Wdl::Draw,
                distance: None,
            });
        }
        Some(Probed { wdl, distance })
    }

    fn max_pieces(&self) -> u32 {
        self.max_pieces
    }
}

/// Opens the Morris tables under `dir` (in `dir/morris/`): every sector whose win/draw/loss file
/// opens with the right header, with its distance file when that opens too. A missing
/// `morris` directory is no table and no problem; a `dir` that cannot be read is a problem.
pub fn open(dir: &Path, variant: Variant) -> Opened<MorrisPosition> {
    let mut out = Opened::none();
    if variant != Variant::Morris {
        return out;
    }
    let d = store::morris_dir(dir);
    if !dir.is_dir() {
        out.problems.push(EgdbError::Io {
            path: dir.to_path_buf(),
            error: "not a directory".into(),
        });
        return out;
    }
    if !d.is_dir() {
        return out;
    }
    let mut tables = MorrisTables {
        sectors: (0..SIDES * SIDES).map(|_| None).collect(),
        max_pieces: 0,
    };
    for s in super::index::all_sectors() {
        let wdl_path = store::path(dir, s, Kind::Wdl);
        if !wdl_path.exists() {
            continue;
        }
        let wdl = match store::open(dir, s, Kind::Wdl) {
            Ok(t) => t,
            Err(e) => {
                out.problems.push(e);
                continue;
            }
        };
        let dist = if store::path(dir, s, Kind::Distance).exists() {
            store::open(dir, s, Kind::Distance)
                .map_err(|e| out.problems.push(e))
                .ok()
        } else {
            None
        };
        out.slices += 1 + dist.is_some() as usize;
        tables.max_pieces = tables.max_pieces.max(s.pieces() as u32);
        tables.sectors[s.stm as usize * SIDES + s.opp as usize] = Some((wdl, dist));
    }
    if tables.max_pieces > 0 {
        out.tables = Some(Arc::new(tables));
    }
    out
}

/// [`open`] as the shared [`Opener`] type.
pub const OPENER: Opener<MorrisPosition> = open;
