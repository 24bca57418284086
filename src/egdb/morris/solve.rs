//! The retrograde solver: the values of a sector and its mirror, from the sectors one removal
//! below.
//!
//! # The graph
//!
//! A move that removes nothing turns a position of sector `(a, b)` (`a` pieces to move) into one
//! of sector `(b, a)`; a move that closes a mill removes a piece and leaves sector `(b - 1, a)`,
//! solved before (or wins outright when `b` is 3). So sectors `(a, b)` and `(b, a)` are solved
//! together (a *pair*; `(a, a)` alone), after every sector with one piece fewer: the levels go up
//! by the number of pieces, and the pairs of one level are independent.
//!
//! # The algorithm
//!
//! Every position gets a counter: the number of distinct classes it reaches by a move that
//! removes nothing, plus one if a removal reaches a drawn position below (it can never be lost).
//! The first sweep decides what needs no counting: a removal into a lost position (or leaving the
//! opponent 2 pieces) wins in 1 ply; no move at all (blocked) loses now (0 plies); a position
//! whose moves all remove and all reach won positions loses in 1. Then waves, by distance `k`:
//! every position decided at `k` visits its predecessors (the move of the side not to move,
//! undone: a piece that does not stand in a mill goes back to a neighbouring point, or to any
//! empty point when that side has 3 pieces): a loss makes each undecided predecessor a win at
//! `k + 1`; a win decrements each undecided predecessor's counter, and the predecessor that
//! reaches 0 is lost at `k + 1`. What is undecided when a wave finds nothing is a draw.
//!
//! Predecessors and successors are counted per class, not per move: with symmetric positions
//! two moves can reach one class, and both the counter and the decrements count it once (the
//! indices are sorted and deduplicated when the row's representative has symmetries).
//!
//! # Memory and threads
//!
//! Per slot: one byte of counter and one byte of value (atomics: every thread may decide any
//! slot of the pair), and two bits for the current and next wave. The sectors below are read
//! only, one byte a slot. Rayon splits the first sweep by rows and the waves by blocks of the
//! wave's bit set.

use super::index::{MIN_PIECES, Sector};
use super::value::{DRAW, Value, is_loss};
use crate::game::color::Color;
use crate::memory::{self, MemoryError};
use crate::morris::MorrisPosition;
use crate::morris::board::{
    ADJACENT, ALL, DIRECTIONS, STEP_FROM, bit, closes_mill, in_mills, points, removable, step,
};
use rayon::prelude::*;
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};

/// Solved sectors held in memory, one byte a slot (see [`value`](super::value)).
#[derive(Clone, Default)]
pub struct Solved {
    sectors: HashMap<Sector, Arc<Vec<u8>>>,
}

impl Solved {
    /// No sector.
    pub fn new() -> Solved {
        Solved::default()
    }

    /// Adds (or replaces) a sector's values.
    pub fn insert(&mut self, sector: Sector, values: Arc<Vec<u8>>) {
        debug_assert_eq!(values.len() as u64, sector.size());
        self.sectors.insert(sector, values);
    }

    /// Drops a sector.
    pub fn remove(&mut self, sector: Sector) {
        self.sectors.remove(&sector);
    }

    /// A sector's values, if held.
    pub fn get(&self, sector: Sector) -> Option<&Arc<Vec<u8>>> {
        self.sectors.get(&sector)
    }

    /// Whether the sector is held.
    pub fn contains(&self, sector: Sector) -> bool {
        self.sectors.contains_key(&sector)
    }

    /// The sectors held.
    pub fn sectors(&self) -> impl Iterator<Item = Sector> + '_ {
        self.sectors.keys().copied()
    }

    /// The value of a moving-phase position (no piece in hand on either side, 3 to 9 a side), if
    /// its sector is held. The no-removal counter plays no part (see [`value`](super::value)).
    pub fn probe(&self, pos: &MorrisPosition) -> Option<Value> {
        if pos.in_hand(Color::White) != 0 || pos.in_hand(Color::Black) != 0 {
            return None;
        }
        self.value(pos.pieces(pos.side()), pos.pieces(!pos.side()))
    }

    /// The value of the position with `stm` to move against `opp`, if its sector is held.
    pub fn value(&self, stm: u32, opp: u32) -> Option<Value> {
        let a = stm.count_ones() as u8;
        let b = opp.count_ones() as u8;
        if !(MIN_PIECES..=super::index::MAX_PIECES).contains(&a)
            || !(MIN_PIECES..=super::index::MAX_PIECES).contains(&b)
        {
            return None;
        }
        let s = Sector::new(a, b);
        let v = self.get(s)?;
        Some(Value::decode(v[s.index(stm, opp) as usize]))
    }
}

/// Why a pair could not be solved.
#[derive(Debug)]
pub enum SolveError {
    /// A sector one removal below is not available.
    Missing(Sector),
    /// Not enough memory for the work arrays.
    Memory(MemoryError),
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::Missing(s) => write!(
                f,
                "sector {}-{} is needed first (solve the smaller sectors before)",
                s.stm, s.opp
            ),
            SolveError::Memory(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for SolveError {}

/// What a solved sector holds, counted over its positions (holes excluded).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Positions won by the side to move.
    pub wins: u64,
    /// Positions drawn.
    pub draws: u64,
    /// Positions lost by the side to move.
    pub losses: u64,
    /// Slots that are no position's index.
    pub holes: u64,
    /// The longest distance to a removal (in plies), uncapped.
    pub longest: u32,
}

/// A solved sector.
pub struct SectorValues {
    /// The sector.
    pub sector: Sector,
    /// One byte a slot.
    pub values: Vec<u8>,
    /// What it holds.
    pub counts: Counts,
}

/// Where a solve is, for progress reports.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Progress {
    /// Slots of the first sweep done, of the pair's total.
    Sweep { done: u64, total: u64 },
    /// A wave finished: its distance and the positions it decided.
    Wave { distance: u32, decided: u64 },
}

/// Bytes of work memory per slot while solving (counter, value, two wave bits), times 8.
pub const WORK_BITS_PER_SLOT: u64 = 8 + 8 + 2;

/// The work memory a pair needs, in bytes.
pub fn work_bytes(sector: Sector) -> u64 {
    let slots = if sector.stm == sector.opp {
        sector.size()
    } else {
        sector.size() + sector.mirror().size()
    };
    slots * WORK_BITS_PER_SLOT / 8
}

/// The sector a removal leads to from `sector` (the side that moved keeps `stm` pieces, the
/// other has one fewer and is to move), if the other side keeps 3 or more.
pub fn removal_target(sector: Sector) -> Option<Sector> {
    (sector.opp > MIN_PIECES).then(|| Sector::new(sector.opp - 1, sector.stm))
}

/// The moves of the side holding `x` (flying when `flying`) into `empty`: (from, to) pairs.
#[inline(always)]
pub fn moves(x: u32, empty: u32, flying: bool, out: &mut [(u8, u8); 64]) -> usize {
    let mut n = 0;
    if flying {
        for from in points(x) {
            for to in points(empty) {
                out[n & 63] = (from, to);
                n += 1;
            }
        }
    } else {
        for (d, from) in STEP_FROM.iter().enumerate().take(DIRECTIONS) {
            for to in points(step(x, d) & empty) {
                out[n & 63] = (from[to as usize & 31], to);
                n += 1;
            }
        }
    }
    debug_assert!(n <= 64);
    n.min(64)
}

/// The sorted distinct values of `v[..n]`, moved to its front; returns their number.
#[inline]
fn dedupe(v: &mut [u64; 64], n: usize) -> usize {
    let s = &mut v[..n];
    s.sort_unstable();
    let mut k = 0;
    for i in 0..n {
        if i == 0 || s[i] != s[k - 1] {
            s[k] = s[i];
            k += 1;
        }
    }
    k
}

/// The work arrays of one sector of the pair.
struct Work {
    sector: Sector,
    /// Undecided: the successor classes not yet known to be won (plus one for a draw escape);
    /// 0: decided (or a hole).
    cnt: Vec<AtomicU8>,
    /// The value byte, written once when decided.
    val: Vec<AtomicU8>,
    /// Positions decided at the current distance.
    cur: Vec<AtomicU64>,
    /// Positions decided at the next distance.
    nxt: Vec<AtomicU64>,
}

fn atomics<T>(n: usize, make: impl Fn() -> T) -> Vec<T> {
    std::iter::repeat_with(make).take(n).collect()
}

impl Work {
    fn new(sector: Sector) -> Work {
        let n = sector.size() as usize;
        let words = n.div_ceil(64);
        Work {
            sector,
            cnt: atomics(n, || AtomicU8::new(0)),
            val: atomics(n, || AtomicU8::new(DRAW)),
            cur: atomics(words, || AtomicU64::new(0)),
            nxt: atomics(words, || AtomicU64::new(0)),
        }
    }

    #[inline(always)]
    fn mark(set: &[AtomicU64], i: u64) {
        set[(i / 64) as usize].fetch_or(1 << (i % 64), Relaxed);
    }

    /// Decides slot `i` as `v`, to be propagated at the wave given by `set`.
    #[inline(always)]
    fn decide(&self, set: &[AtomicU64], i: u64, v: Value) {
        self.val[i as usize].store(v.encode(), Relaxed);
        Work::mark(set, i);
    }
}

/// The first sweep over one row of `w`: decides what needs no counting, counts the rest.
fn sweep_row(w: &Work, mirror: Sector, lower: Option<(Sector, &[u8])>, row: usize) {
    let s = w.sector;
    let a = s.stm;
    let rows = s.rows();
    let y = rows.rep(row);
    let stab = rows.stabiliser(row);
    let free = ALL & !y;
    let len = s.row_len();
    let flying = a == MIN_PIECES;
    let victims = removable(y);
    let mut list = [(0u8, 0u8); 64];
    let mut seen = [0u64; 64];
    let mut inner: u32 = (1 << a) - 1;
    for r in 0..len {
        let i = row as u64 * len + r;
        let x = super::index::deposit(inner, free);
        if r + 1 < len {
            inner = super::index::next_combination(inner);
        }
        if stab != 0 && super::index::least_rank(x, y, stab, r) != r {
            continue; // a hole: counter 0, value draw, never reached
        }
        let empty = ALL & !(x | y);
        let n = moves(x, empty, flying, &mut list);
        if n == 0 {
            w.decide(&w.cur, i, Value::Loss(0));
            continue;
        }
        let mut count = 0usize;
        let mut escape = false;
        let mut win = false;
        'moves: for &(from, to) in &list[..n] {
            let x2 = x ^ bit(from) ^ bit(to);
            if closes_mill(x2, to) {
                let Some((ls, lv)) = lower else {
                    win = true; // the opponent is left with 2 pieces
                    break 'moves;
                };
                let lrow = ls.row_of(x2);
                for v in points(victims) {
                    let code = lv[ls.index_in(&lrow, y ^ bit(v)) as usize];
                    if is_loss(code) {
                        win = true;
                        break 'moves;
                    }
                    escape |= code == DRAW;
                }
            } else if stab != 0 {
                seen[count & 63] = mirror.index(y, x2);
                count += 1;
            } else {
                count += 1;
            }
        }
        if win {
            w.decide(&w.nxt, i, Value::Win(1));
            continue;
        }
        if stab != 0 && count > 1 {
            count = dedupe(&mut seen, count);
        }
        let c = count + escape as usize;
        if c == 0 {
            w.decide(&w.nxt, i, Value::Loss(1));
        } else {
            w.cnt[i as usize].store(c as u8, Relaxed);
        }
    }
}

/// Propagates position `i` of `from` (decided at distance `k`) to its predecessors in `to`.
fn propagate(from: &Work, to: &Work, i: u64, k: u32, seen: &mut [u64; 64]) {
    let s = from.sector;
    let (x, y) = s.position(i);
    let won = !is_loss(from.val[i as usize].load(Relaxed));
    let m = to.sector;
    let row = m.row_of(x);
    let empty = ALL & !(x | y);
    let flying = s.opp == MIN_PIECES;
    let mut n = 0;
    for t in points(y & !in_mills(y)) {
        let origins = if flying {
            empty
        } else {
            ADJACENT[t as usize] & empty
        };
        let base = y ^ bit(t);
        for f in points(origins) {
            seen[n & 63] = m.index_in(&row, base | bit(f));
            n += 1;
        }
    }
    if row.stab != 0 && n > 1 {
        n = dedupe(seen, n);
    }
    for &p in &seen[..n.min(64)] {
        let cell = &to.cnt[p as usize];
        if won {
            // One more successor known to be won; the last one makes a loss.
            if let Ok(1) = cell.fetch_update(Relaxed, Relaxed, |c| c.checked_sub(1)) {
                to.decide(&to.nxt, p, Value::Loss(k + 1));
            }
        } else if cell
            .fetch_update(Relaxed, Relaxed, |c| (c != 0).then_some(0))
            .is_ok()
        {
            to.decide(&to.nxt, p, Value::Win(k + 1));
        }
    }
}

/// Bit-set words per rayon task in a wave.
const WAVE_WORDS: usize = 256;

/// Solves `sector` and its mirror (one sector when `stm == opp`) from the sectors one removal
/// below, held in `below`. `progress` hears about the sweep and each wave.
pub fn solve_pair(
    sector: Sector,
    below: &Solved,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Vec<SectorValues>, SolveError> {
    let pair: Vec<Sector> = if sector.stm == sector.opp {
        vec![sector]
    } else {
        vec![sector, sector.mirror()]
    };
    let mut lowers = Vec::new();
    for &s in &pair {
        lowers.push(match removal_target(s) {
            Some(t) => Some((t, below.get(t).ok_or(SolveError::Missing(t))?.clone())),
            None => None,
        });
    }
    let mib = work_bytes(sector).div_ceil(memory::MIB);
    memory::check("morris endgame solve", mib).map_err(SolveError::Memory)?;
    let mut work: Vec<Work> = pair.iter().map(|&s| Work::new(s)).collect();
    let total: u64 = pair.iter().map(|s| s.size()).sum();
    let done = AtomicU64::new(0);

    // The first sweep.
    for (wi, w) in work.iter().enumerate() {
        let mirror = w.sector.mirror();
        let lower = lowers[wi].as_ref().map(|(t, v)| (*t, v.as_slice()));
        let len = w.sector.row_len();
        (0..w.sector.rows().len())
            .into_par_iter()
            .with_min_len((1 << 16) / len as usize + 1)
            .for_each(|row| {
                sweep_row(w, mirror, lower, row);
                let d = done.fetch_add(len, Relaxed) + len;
                if d % (1 << 22) < len {
                    progress(Progress::Sweep { done: d, total });
                }
            });
    }
    progress(Progress::Sweep { done: total, total });

    // The waves.
    let mut k = 0u32;
    let mut longest = 0;
    loop {
        let decided = AtomicU64::new(0);
        for wi in 0..work.len() {
            let from = &work[wi];
            let to = &work[work.len() - 1 - wi];
            from.cur
                .par_chunks(WAVE_WORDS)
                .enumerate()
                .for_each(|(ci, chunk)| {
                    let mut seen = [0u64; 64];
                    let mut n = 0;
                    for (wj, word) in chunk.iter().enumerate() {
                        let mut bits = word.load(Relaxed);
                        n += bits.count_ones() as u64;
                        while bits != 0 {
                            let i =
                                ((ci * WAVE_WORDS + wj) * 64) as u64 + bits.trailing_zeros() as u64;
                            bits &= bits - 1;
                            propagate(from, to, i, k, &mut seen);
                        }
                    }
                    decided.fetch_add(n, Relaxed);
                });
        }
        let decided = decided.into_inner();
        if decided > 0 {
            longest = k;
            progress(Progress::Wave {
                distance: k,
                decided,
            });
        }
        for w in work.iter_mut() {
            std::mem::swap(&mut w.cur, &mut w.nxt);
            w.nxt.par_iter().for_each(|x| x.store(0, Relaxed));
        }
        let more = work
            .iter()
            .any(|w| w.cur.par_iter().any(|x| x.load(Relaxed) != 0));
        if !more {
            break;
        }
        k += 1;
    }

    Ok(work
        .into_iter()
        .map(|w| {
            let sector = w.sector;
            let Work { cnt, val, .. } = w;
            drop(cnt);
            let values: Vec<u8> = val.into_iter().map(AtomicU8::into_inner).collect();
            let mut counts = count(sector, &values);
            counts.longest = longest;
            SectorValues {
                sector,
                values,
                counts,
            }
        })
        .collect())
}

/// Counts the values of a solved sector (holes apart).
pub fn count(sector: Sector, values: &[u8]) -> Counts {
    let len = sector.row_len() as usize;
    values
        .par_chunks(len)
        .enumerate()
        .map(|(row, chunk)| {
            let stab = sector.rows().stabiliser(row);
            let mut c = Counts::default();
            for (r, &v) in chunk.iter().enumerate() {
                if stab != 0 && sector.is_hole((row * len + r) as u64) {
                    c.holes += 1;
                } else if v == DRAW {
                    c.draws += 1;
                } else if is_loss(v) {
                    c.losses += 1;
                } else {
                    c.wins += 1;
                }
            }
            c
        })
        .reduce(Counts::default, |a, b| Counts {
            wins: a.wins + b.wins,
            draws: a.draws + b.draws,
            losses: a.losses + b.losses,
            holes: a.holes + b.holes,
            longest: 0,
        })
}
