//! Slices held whole in memory, for building and verifying: 2-bit codes (and optional distance
//! bytes) in atomic words, so that the threads of a build write disjoint positions of one slice
//! while reading finished ones, without locks and without `unsafe`.
//!
//! [`Known`] is the set of slices a build or a verification can look up, and
//! [`Known::value_with`] the value of any position they cover, capture positions included: a
//! position whose side to move must capture is worth its best capture, resolved recursively
//! (every capture leads to fewer pieces), since the tables do not store it (their files read
//! anything back there). A slice keeps the capture values its lookups resolve, and a slice being
//! built those its analysis decides, beside its codes ([`SliceData::captures`]): a build looks
//! the same positions after a capture up again and again (resolving them was a third of a
//! kings-heavy russian build).
//!
//! Invariants: a code is written once, from [`NOT_STORED`] (all bits 0) to its value, with
//! `fetch_or` (a capture value kept by two threads at once is the same value, so the bits are);
//! a slice is read only in the ranges its build has finished (the retrograde analysis
//! guarantees it: see [`super::retro`]).

use super::index::{Material, SliceIndex, white_to_move};
use crate::draughts::movegen;
use crate::draughts::moves::Move;
use crate::draughts::position::Position;
use crate::draughts::rules::Rules;
use crate::egdb::{EgdbError, NOT_STORED, Table, Wdl};
use crate::game::MoveList;
use crate::memory::{self, MIB};
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};

/// 2-bit codes, 32 a word.
pub struct Packed {
    words: Vec<AtomicU64>,
}

impl Packed {
    /// `n` codes, all [`NOT_STORED`]; the memory is checked against what the machine has.
    pub fn new(what: &str, n: u64) -> Result<Packed, EgdbError> {
        let words = n.div_ceil(32) as usize;
        memory::check(what, (words as u64 * 8).div_ceil(MIB)).map_err(|e| EgdbError::Io {
            path: what.into(),
            error: e.to_string(),
        })?;
        let mut v = Vec::new();
        v.try_reserve_exact(words).map_err(|_| EgdbError::Io {
            path: what.into(),
            error: format!("cannot allocate {} MiB", (words as u64 * 8).div_ceil(MIB)),
        })?;
        v.resize_with(words, AtomicU64::default);
        Ok(Packed { words: v })
    }

    /// The code of position `i`.
    #[inline(always)]
    pub fn get(&self, i: u64) -> u8 {
        ((self.words[(i / 32) as usize].load(Relaxed) >> (2 * (i % 32))) & 3) as u8
    }

    /// Sets the code of position `i`, which must still be [`NOT_STORED`].
    #[inline(always)]
    pub fn set(&self, i: u64, code: u8) {
        debug_assert_eq!(self.get(i), NOT_STORED);
        self.keep(i, code);
    }

    /// Sets the code of position `i` to `code`, which any thread setting it at the same time
    /// sets too (a capture value): the code must be [`NOT_STORED`] or `code` already.
    #[inline(always)]
    pub fn keep(&self, i: u64, code: u8) {
        self.words[(i / 32) as usize].fetch_or(((code & 3) as u64) << (2 * (i % 32)), Relaxed);
    }
}

/// Distance bytes.
pub struct Distances {
    bytes: Vec<AtomicU8>,
}

impl Distances {
    /// `n` zero bytes, the memory checked first.
    pub fn new(what: &str, n: u64) -> Result<Distances, EgdbError> {
        memory::check(what, n.div_ceil(MIB)).map_err(|e| EgdbError::Io {
            path: what.into(),
            error: e.to_string(),
        })?;
        let mut v = Vec::new();
        v.try_reserve_exact(n as usize).map_err(|_| EgdbError::Io {
            path: what.into(),
            error: format!("cannot allocate {} MiB", n.div_ceil(MIB)),
        })?;
        v.resize_with(n as usize, AtomicU8::default);
        Ok(Distances { bytes: v })
    }

    /// The byte of position `i`.
    #[inline(always)]
    pub fn get(&self, i: u64) -> u8 {
        self.bytes[i as usize].load(Relaxed)
    }

    /// Sets the byte of position `i`.
    #[inline(always)]
    pub fn set(&self, i: u64, d: u8) {
        self.bytes[i as usize].store(d, Relaxed)
    }
}

/// One slice in memory: its numbering, its codes, and its distances when they are built.
pub struct SliceData<R: Rules> {
    /// The numbering.
    pub index: SliceIndex<R::Board>,
    /// The codes ([`Wdl::code`], [`NOT_STORED`] for capture positions).
    pub wdl: Packed,
    /// Distances: 0 for draws and positions not stored, else `1 + min(plies to capture, 254)`.
    pub distance: Option<Distances>,
    /// Distances read from their file block by block instead (a slice only looked up, where
    /// memory matters more than speed: the promotions' slices of a build).
    pub distance_file: Option<Table>,
    /// Positions of a build whose distance was above [`MAX_DISTANCE`](super::retro::MAX_DISTANCE)
    /// (stored as that): the build refuses to write such a slice.
    pub saturated: AtomicU64,
    /// The values of capture positions resolved so far ([`NOT_STORED`]: not yet), kept by
    /// lookups and, in a slice being built, by the retrograde analysis as it decides them (see
    /// [`SliceData::keep_captures`]).
    pub captures: Option<Packed>,
}

impl<R: Rules> SliceData<R> {
    /// An empty slice (every code [`NOT_STORED`]).
    pub fn new(material: Material, distances: bool) -> Result<Self, EgdbError> {
        let index = SliceIndex::new(material);
        let n = index.positions();
        let what = format!("slice {material}");
        Ok(SliceData {
            wdl: Packed::new(&what, n)?,
            distance: if distances {
                Some(Distances::new(&what, n)?)
            } else {
                None
            },
            distance_file: None,
            saturated: AtomicU64::new(0),
            captures: None,
            index,
        })
    }

    /// Lets lookups keep the capture values they resolve (2 bits a position more, the memory
    /// checked first).
    pub fn keep_captures(&mut self) -> Result<(), EgdbError> {
        let what = format!("capture values of slice {}", self.index.material);
        self.captures = Some(Packed::new(&what, self.index.positions())?);
        Ok(())
    }

    /// The stored distance of position `i`: `None` for a draw or a position not stored, or
    /// when the slice has no distances (or its file cannot be read there).
    #[inline(always)]
    pub fn distance_at(&self, i: u64) -> Option<u16> {
        let d = match (&self.distance, &self.distance_file) {
            (Some(d), _) => d.get(i),
            (None, Some(t)) => t.symbol(i)?,
            (None, None) => return None,
        };
        (d > 0).then(|| d as u16 - 1)
    }

    /// Bytes of memory it holds.
    pub fn bytes(&self) -> u64 {
        let n = self.index.positions();
        let codes = n.div_ceil(32) * 8;
        codes
            + if self.distance.is_some() { n } else { 0 }
            + if self.captures.is_some() { codes } else { 0 }
    }
}

/// The slices a build or a verification looks positions up in.
pub struct Known<R: Rules> {
    slices: Vec<Option<Arc<SliceData<R>>>>,
}

impl<R: Rules> Default for Known<R> {
    fn default() -> Self {
        Known {
            slices: vec![None; Material::SLOTS],
        }
    }
}

impl<R: Rules> Known<R> {
    /// Adds (or replaces) a slice.
    pub fn insert(&mut self, data: Arc<SliceData<R>>) {
        let slot = data.index.material.slot();
        self.slices[slot] = Some(data);
    }

    /// Drops a slice.
    pub fn remove(&mut self, m: Material) {
        self.slices[m.slot()] = None;
    }

    /// The slice of a material, if known.
    #[inline(always)]
    pub fn get(&self, m: Material) -> Option<&Arc<SliceData<R>>> {
        self.slices[m.slot()].as_ref()
    }

    /// Bytes held by every slice.
    pub fn bytes(&self) -> u64 {
        self.slices.iter().flatten().map(|s| s.bytes()).sum()
    }

    /// The slice and index of a position, turned round when Black is to move (a capture
    /// position has its place too, but its code is not stored); `None` when its slice is not
    /// known.
    #[inline(always)]
    pub fn locate(&self, pos: &Position<R>) -> Option<(&SliceData<R>, u64)> {
        let (w, b, k) = white_to_move(pos);
        let s = self.get(Material::of(w, b, k, true))?;
        Some((s, s.index.index(w, b, k)))
    }

    /// The value of any position for its side to move: lost without pieces, its best capture
    /// when it must capture, else its table code; move lists are reused from `lists`. A
    /// [`Missing`] position (a slice not known, or a code not stored where it should be) is a
    /// build-order bug in a build, a damaged table in a verification.
    pub fn value_with(&self, pos: &Position<R>, lists: &mut Lists) -> Result<Wdl, Missing> {
        if pos.pieces(pos.side()) == 0 {
            return Ok(Wdl::Loss);
        }
        if movegen::has_capture(pos) {
            return self.capture_value(pos, lists);
        }
        let missing = || Missing::of(pos);
        let (s, i) = self.locate(pos).ok_or_else(missing)?;
        Wdl::from_code(s.wdl.get(i)).ok_or_else(missing)
    }

    /// The value of a position that must capture: kept by an earlier lookup, or its best
    /// capture's (then kept, where its slice keeps them).
    fn capture_value(&self, pos: &Position<R>, lists: &mut Lists) -> Result<Wdl, Missing> {
        let kept = self
            .locate(pos)
            .and_then(|(s, i)| Some((s.captures.as_ref()?, i)));
        if let Some((c, i)) = kept
            && let Some(v) = Wdl::from_code(c.get(i))
        {
            return Ok(v);
        }
        let v = self.best_capture(pos, lists)?;
        if let Some((c, i)) = kept {
            c.keep(i, v.code());
        }
        Ok(v)
    }

    /// The value of a position that must capture: its best capture's.
    fn best_capture(&self, pos: &Position<R>, lists: &mut Lists) -> Result<Wdl, Missing> {
        let mut list = lists.take();
        movegen::generate(pos, &mut list);
        let mut best = Wdl::Loss;
        for m in list.iter() {
            let v = match self.value_with(&pos.make(m), lists) {
                Ok(v) => v.flip(),
                Err(e) => {
                    lists.give(list);
                    return Err(e);
                }
            };
            if v > best {
                best = v;
                if v == Wdl::Win {
                    break;
                }
            }
        }
        lists.give(list);
        Ok(best)
    }
}

impl<R: Rules> Known<R> {
    /// [`Known::value_with`] and the distance to capture at once: 0 for a side without pieces,
    /// 1 for a position that must capture, else its stored distance (`None` for a draw, or a
    /// slice without distances). The set-up pass of a build and the verify pass ask both of
    /// every move.
    pub fn value_distance_with(
        &self,
        pos: &Position<R>,
        lists: &mut Lists,
    ) -> Result<(Wdl, Option<u16>), Missing> {
        if pos.pieces(pos.side()) == 0 {
            return Ok((Wdl::Loss, Some(0)));
        }
        if movegen::has_capture(pos) {
            return self.capture_value(pos, lists).map(|v| (v, Some(1)));
        }
        let missing = || Missing::of(pos);
        let (s, i) = self.locate(pos).ok_or_else(missing)?;
        let v = Wdl::from_code(s.wdl.get(i)).ok_or_else(missing)?;
        Ok((v, s.distance_at(i)))
    }
}

/// Move lists kept for reuse (a [`MoveList`] is large: making one clears it whole).
#[derive(Default)]
pub struct Lists(Vec<Box<MoveList<Move>>>);

impl Lists {
    /// A list (its contents are stale).
    pub fn take(&mut self) -> Box<MoveList<Move>> {
        self.0.pop().unwrap_or_default()
    }

    /// Gives a list back.
    pub fn give(&mut self, l: Box<MoveList<Move>>) {
        self.0.push(l);
    }
}

/// A position [`Known::value_with`] cannot give: its slice is absent, or its code is not stored.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Missing {
    /// The position's material, from its side to move.
    pub material: Material,
}

impl Missing {
    /// The missing position `pos`.
    fn of<R: Rules>(pos: &Position<R>) -> Missing {
        Missing {
            material: Material::of(
                pos.white(),
                pos.black(),
                pos.kings(),
                pos.side() == crate::game::color::Color::White,
            ),
        }
    }
}
