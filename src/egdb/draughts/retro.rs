//! Retrograde analysis of one slice and its turned-round twin (the same pieces with the other
//! side to move), which depend on each other and are built together.
//!
//! # Order
//!
//! A move either stays in the pair's positions with the same men (a king's quiet move), or
//! leaves them: a capture (fewer pieces: a smaller slice, built before), a promotion (one man
//! fewer: a slice with fewer men, built before), or a man's quiet move (the same slice, its men
//! one row further: [`SliceIndex::advancement`] one higher). So the positions are solved one men
//! configuration at a time (a *subproblem*: every king placement of those men, with either side
//! to move), from the most advanced configurations down; configurations of equal advancement do
//! not depend on each other and are solved in parallel. Every position a subproblem looks up
//! outside itself is then final.
//!
//! # Distance to capture
//!
//! Besides its value, every decided position gets its **distance to capture**: the plies until
//! the next capture (by either side, the capture included) when the winner hurries to it and the
//! loser delays it; 0 for a side without a move. A capture is what every variant's draw
//! counters restart on (russian's 30 rounds count nothing else; the international and FMJD rules
//! for a lone king count from the last change of material), so the engine that plays the
//! shortest distance converts a win as early as the tables allow. A move that leaves the
//! subproblem without capturing (a man's move, a promotion) carries its child's distance, plus
//! one.
//!
//! # One subproblem
//!
//! 1. Each position is set up and its moves generated: no move is a loss at distance 0; a
//!    position that must capture takes its best capture, distance 1 (it is not stored: captures
//!    are left to the search, but its value is needed here); for the other moves, the moves
//!    leaving the subproblem are looked up (a man's move or a promotion: its child's value and
//!    distance), and the moves staying inside (king moves) counted. A move out to a position lost
//!    for the opponent makes a win, pending at that distance; a position with no move inside is
//!    decided by its moves out.
//! 2. Decisions are propagated backward in order of distance (a bucket queue): a predecessor (the
//!    position before one of the opponent's king moves, found by moving a king back along a
//!    free diagonal) of a loss at distance `d` is a win at `d + 1` at most; a pending win is final
//!    when its bucket comes (its smallest distance); a predecessor all of whose moves inside lead
//!    to wins is a loss, at one more than the longest of them and its losing moves out (or a
//!    draw, when a move out draws).
//! 3. What is left undecided is a draw.
//!
//! Large subproblems (the kings-only slices are one subproblem each) are solved with every
//! thread: the positions set up in parallel, each bucket propagated in parallel with atomic
//! updates (a pending win lowered by `fetch_min`, a loss decided by the decrement that reaches
//! zero), so the result is the same as the sequential one. Each position's kings are kept from
//! the set-up for the predecessor searches (16 bytes a position, up to `KINGS_CACHE_BYTES` a
//! subproblem; the largest kings-only ones unrank them again instead).
//!
//! Invariants: a subproblem writes only its own positions' codes and distances, once each; it
//! reads only positions of finished subproblems and slices, through [`Known`]. Distances above
//! 254 are stored as 254 (none occurs in the slices measured so far).

use super::index::{Material, SliceIndex, rotate};
use super::values::{Known, Lists, SliceData};
use crate::draughts::board::{Bits, Geometry, free_part, step};
use crate::draughts::movegen;
use crate::draughts::moves::Move;
use crate::draughts::position::Position;
use crate::draughts::rules::Rules;
use crate::egdb::{EgdbError, NOT_STORED, Wdl};
use crate::game::MoveList;
use crate::game::color::Color;
use crate::memory::{self, MIB};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU8, AtomicU16, AtomicU64, Ordering::Relaxed};

/// State bits of a position during a subproblem: the final value code in the low two bits (0:
/// undecided), then flags.
const VALUE: u8 = 3;
/// A move out of the subproblem draws.
const DRAW_EXIT: u8 = 4;
/// The side to move must capture: not stored.
const CAPTURE: u8 = 8;
/// A win is known, at the distance held, which may still shrink until its bucket comes.
const PENDING_WIN: u8 = 16;

const LOSS: u8 = Wdl::Loss.code();
const DRAW: u8 = Wdl::Draw.code();
const WIN: u8 = Wdl::Win.code();

/// No distance yet.
const FAR: u16 = u16::MAX;

/// Subproblems at least this large are solved with every thread.
const PARALLEL_FROM: u64 = 1 << 18;

/// Working bytes a position of a subproblem solved with every thread: value, count and exit
/// bytes and a 2-byte distance (5), an entry in the list of positions decided at set-up (8) and
/// one in the distance buckets (4), taken as if every position were decided at set-up.
const PARALLEL_BYTES: u64 = 17;

/// Most bytes a subproblem solved with every thread spends on keeping each position's kings
/// (16 bytes a position) instead of unranking them again for every predecessor search; a
/// larger subproblem (the kings-only slices) unranks them.
const KINGS_CACHE_BYTES: u64 = 1 << 30;

/// The bytes the kings of a subproblem of `n` positions solved with every thread are kept in:
/// 16 a position, or none above [`KINGS_CACHE_BYTES`].
fn kings_cache_bytes(n: u64) -> u64 {
    if n * 16 <= KINGS_CACHE_BYTES {
        n * 16
    } else {
        0
    }
}

/// The longest distance a distance file holds (stored as `1 + d` in a byte, 0 meaning none). A
/// longer one is counted in [`SliceData::saturated`] and the build refuses the slice.
pub const MAX_DISTANCE: u16 = 254;

/// One side of a subproblem: a slice's men configuration, White to move.
struct Region<'a, R: Rules> {
    data: &'a SliceData<R>,
    men_index: u64,
    /// White's men.
    w: u64,
    /// Black's men.
    b: u64,
    /// The squares no man holds, in order.
    free: Vec<u8>,
}

/// One men configuration of the pair: its region, and its twin's unless it is its own twin.
struct Sub<'a, R: Rules> {
    known: &'a Known<R>,
    regions: Vec<Region<'a, R>>,
    /// King placements of a region.
    kc: u64,
    /// Distances are built (without them, every move out counts 1: the values are the same).
    distances: bool,
}

/// What the set-up pass finds about one position.
#[derive(Copy, Clone)]
struct Init {
    state: u8,
    count: u8,
    /// The distance of a decided position or of a pending win ([`FAR`] otherwise).
    dist: u16,
    /// One more than the longest distance of the losing moves out (for a loss).
    exit_loss: u8,
}

impl Init {
    /// The bucket the position enters at set-up, if any.
    fn bucket(&self) -> Option<u16> {
        let v = self.state & VALUE;
        (v == WIN || v == LOSS || self.state & PENDING_WIN != 0).then_some(self.dist)
    }
}

fn sat(d: u16) -> u8 {
    d.min(255) as u8
}

impl<'a, R: Rules> Sub<'a, R> {
    fn len(&self) -> u64 {
        self.kc * self.regions.len() as u64
    }

    /// The twin region of region `r`.
    fn partner(&self, r: usize) -> usize {
        if self.regions.len() == 2 { 1 - r } else { 0 }
    }

    /// Region, White's kings and Black's of local position `l` (White to move).
    #[inline(always)]
    fn kings(&self, l: u64) -> (usize, u64, u64) {
        let r = (l / self.kc) as usize;
        let reg = &self.regions[r];
        let (wk, bk) = reg.data.index.kings_of_free(&reg.free, l % self.kc);
        (r, wk, bk)
    }

    /// Calls `f(l, init, kings)` for the local positions `lo..hi`, set up in order (`kings`:
    /// White's kings and Black's).
    fn init_range(
        &self,
        lo: u64,
        hi: u64,
        scratch: &mut InitScratch,
        mut f: impl FnMut(u64, Init, (u64, u64)),
    ) {
        let mut l = lo;
        while l < hi {
            let r = (l / self.kc) as usize;
            let reg = &self.regions[r];
            let end = hi.min((r as u64 + 1) * self.kc);
            let walk = reg.data.index.king_walk(reg.w | reg.b, l % self.kc);
            for (wk, bk) in walk.take((end - l) as usize) {
                let pos = Position::from_parts(reg.w | wk, reg.b | bk, wk | bk, Color::White)
                    .expect("the numbering gives legal placements");
                f(l, self.init(&pos, scratch), (wk, bk));
                l += 1;
            }
        }
    }

    /// The value of a position outside the subproblem (final by the build order).
    fn outside(&self, pos: &Position<R>, lists: &mut Lists) -> Wdl {
        self.known
            .value_with(pos, lists)
            .unwrap_or_else(|m| panic!("slice {} is needed and not built", m.material))
    }

    /// [`Sub::outside`] with the position's distance to capture (`None` for a draw, and
    /// without distances).
    fn outside_with_distance(&self, pos: &Position<R>, lists: &mut Lists) -> (Wdl, Option<u16>) {
        self.known
            .value_distance_with(pos, lists)
            .unwrap_or_else(|m| panic!("slice {} is needed and not built", m.material))
    }

    /// Set-up of a position of the subproblem.
    fn init(&self, pos: &Position<R>, scratch: &mut InitScratch) -> Init {
        let InitScratch { list, lists } = scratch;
        movegen::generate(pos, list);
        let decided = |state, dist| Init {
            state,
            count: 0,
            dist,
            exit_loss: 0,
        };
        if list.is_empty() {
            return decided(LOSS, 0);
        }
        if list[0].is_capture() {
            let mut best = Wdl::Loss;
            for m in list.iter() {
                best = best.max(self.outside(&pos.make(m), lists).flip());
                if best == Wdl::Win {
                    break;
                }
            }
            return decided(best.code() | CAPTURE, 1);
        }
        let kings = pos.kings();
        let mut count = 0u8;
        let mut draw_exit = false;
        let mut win_exit = FAR;
        let mut exit_loss = 0u16;
        for m in list.iter() {
            if kings & (1u64 << m.from) != 0 {
                count += 1;
                continue;
            }
            let (v, d) = self.outside_with_distance(&pos.make(m), lists);
            let v = v.flip();
            if v == Wdl::Draw {
                draw_exit = true;
                continue;
            }
            let d = 1 + if self.distances {
                d.expect("a decided position built with distances has one")
            } else {
                1
            };
            if v == Wdl::Win {
                win_exit = win_exit.min(d);
            } else {
                exit_loss = exit_loss.max(d);
            }
        }
        let flags = if draw_exit { DRAW_EXIT } else { 0 };
        if count == 0 {
            return if win_exit != FAR {
                decided(WIN, win_exit)
            } else if draw_exit {
                decided(DRAW, FAR)
            } else {
                decided(LOSS, exit_loss)
            };
        }
        Init {
            state: flags | if win_exit != FAR { PENDING_WIN } else { 0 },
            count,
            dist: win_exit,
            exit_loss: sat(exit_loss),
        }
    }

    /// Calls `visit` with the local index of every predecessor inside the subproblem of the
    /// position of region `r` with White's kings `wk` and Black's `bk` (its men are the
    /// region's): the positions, Black to move, from which one of Black's kings came to its
    /// square by a legal quiet move, turned round (so they are White-to-move positions of the
    /// twin region).
    #[inline(always)]
    fn predecessors(&self, r: usize, wk: u64, bk: u64, mut visit: impl FnMut(u64)) {
        let reg = &self.regions[r];
        let (white, black) = (reg.w | wk, reg.b | bk);
        let pr = self.partner(r);
        let preg = &self.regions[pr];
        let occ = white | black;
        let rot_wk = rotate::<R::Board>(wk);
        let pmen = preg.w | preg.b;
        let base = pr as u64 * self.kc;
        for y in Bits(bk) {
            let ybit = 1u64 << y;
            for d in 0..4 {
                // The king came from direction `d`, moving in direction `e`.
                let e = crate::draughts::board::reverse(d);
                if R::KING_OPPOSITION {
                    // Duoyibu: it could not move toward a white king facing it along `e`.
                    let beyond = <R::Board as Geometry>::RAYS[e][y as usize] & occ;
                    if beyond != 0
                        && (1u64 << crate::draughts::board::first::<R::Board>(beyond, e)) & wk != 0
                    {
                        continue;
                    }
                }
                let from = if R::FLYING_KINGS {
                    free_part::<R::Board>(<R::Board as Geometry>::RAYS[d][y as usize], d, occ)
                } else {
                    step::<R::Board>(ybit, d) & <R::Board as Geometry>::ALL & !occ
                };
                for x in Bits(from) {
                    let pbk = bk ^ ybit ^ (1u64 << x);
                    let k = preg
                        .data
                        .index
                        .king_index(pmen, rotate::<R::Board>(pbk), rot_wk);
                    visit(base + k);
                }
            }
        }
    }

    /// Writes the results of local position `l` into its slice.
    fn store(&self, l: u64, state: u8, dist: u16) {
        let r = (l / self.kc) as usize;
        let reg = &self.regions[r];
        let i = reg.men_index * self.kc + l % self.kc;
        let value = match state & VALUE {
            0 => DRAW,
            v => v,
        };
        let stored = state & CAPTURE == 0;
        reg.data.wdl.set(i, if stored { value } else { NOT_STORED });
        if let Some(c) = &reg.data.captures
            && !stored
        {
            // Not stored in the file, but known: later lookups need not resolve it again.
            c.keep(i, value);
        }
        if let Some(d) = &reg.data.distance
            && stored
            && value != DRAW
        {
            if dist > MAX_DISTANCE {
                reg.data.saturated.fetch_add(1, Relaxed);
            }
            d.set(i, 1 + dist.min(MAX_DISTANCE) as u8);
        }
    }

    /// Solves the subproblem on the calling thread, with `scratch` reused between calls.
    fn solve_here(&self, scratch: &mut Scratch) {
        let n = self.len() as usize;
        let Scratch {
            state,
            count,
            dist,
            exit_loss,
            kings,
            buckets,
            init,
        } = scratch;
        state.clear();
        kings.clear();
        count.clear();
        dist.clear();
        exit_loss.clear();
        for b in buckets.iter_mut() {
            b.clear();
        }
        self.init_range(0, n as u64, init, |l, i, k| {
            state.push(i.state);
            kings.push(k);
            count.push(i.count);
            dist.push(i.dist);
            exit_loss.push(i.exit_loss);
            if let Some(d) = i.bucket() {
                push(buckets, d as usize, l as u32);
            }
        });
        let mut d = 0;
        while d < buckets.len() {
            let cur = std::mem::take(&mut buckets[d]);
            for &q in &cur {
                let q = q as usize;
                if dist[q] != d as u16 {
                    continue; // decided at a smaller distance
                }
                if state[q] & VALUE == 0 {
                    // A pending win, final now.
                    state[q] |= WIN;
                }
                let win = state[q] & VALUE == WIN;
                let (wk, bk) = kings[q];
                let r = q / self.kc as usize;
                self.predecessors(r, wk, bk, |p| {
                    let p = p as usize;
                    if state[p] & VALUE != 0 {
                        return;
                    }
                    let next = (d + 1) as u16;
                    if !win {
                        if dist[p] > next {
                            state[p] |= PENDING_WIN;
                            dist[p] = next;
                            push(buckets, next as usize, p as u32);
                        }
                        return;
                    }
                    // A pending win is never a loss: its count is not needed.
                    if state[p] & PENDING_WIN != 0 {
                        return;
                    }
                    count[p] -= 1;
                    if count[p] > 0 {
                        return;
                    }
                    if state[p] & DRAW_EXIT != 0 {
                        state[p] |= DRAW;
                        return;
                    }
                    let at = next.max(exit_loss[p] as u16);
                    state[p] |= LOSS;
                    dist[p] = at;
                    push(buckets, at as usize, p as u32);
                });
            }
            buckets[d] = cur;
            buckets[d].clear();
            d += 1;
        }
        for l in 0..n {
            self.store(l as u64, state[l], dist[l]);
        }
    }

    /// Solves the subproblem with every thread.
    fn solve_parallel(&self, progress: &(dyn Fn(u64) + Sync)) {
        let n = self.len();
        debug_assert!(n < u32::MAX as u64, "solve_pair refuses larger subproblems");
        let state: Vec<AtomicU8> = (0..n).map(|_| AtomicU8::new(0)).collect();
        let count: Vec<AtomicU8> = (0..n).map(|_| AtomicU8::new(0)).collect();
        let exit_loss: Vec<AtomicU8> = (0..n).map(|_| AtomicU8::new(0)).collect();
        let dist: Vec<AtomicU16> = (0..n).map(|_| AtomicU16::new(FAR)).collect();
        // White's and Black's kings of each position, when they fit (empty otherwise).
        let kings: Vec<[AtomicU64; 2]> = if kings_cache_bytes(n) > 0 {
            (0..n).map(|_| Default::default()).collect()
        } else {
            Vec::new()
        };
        const CHUNK: u64 = 1 << 14;
        let first: Vec<(u16, u32)> = (0..n.div_ceil(CHUNK))
            .into_par_iter()
            .map_init(InitScratch::default, |scratch, c| {
                let mut entered = Vec::new();
                self.init_range(c * CHUNK, ((c + 1) * CHUNK).min(n), scratch, |l, i, k| {
                    if let Some([wk, bk]) = kings.get(l as usize) {
                        wk.store(k.0, Relaxed);
                        bk.store(k.1, Relaxed);
                    }
                    state[l as usize].store(i.state, Relaxed);
                    count[l as usize].store(i.count, Relaxed);
                    dist[l as usize].store(i.dist, Relaxed);
                    exit_loss[l as usize].store(i.exit_loss, Relaxed);
                    if let Some(d) = i.bucket() {
                        entered.push((d, l as u32));
                    }
                });
                progress(((c + 1) * CHUNK).min(n) - c * CHUNK);
                entered
            })
            .reduce(Vec::new, |mut a, b| {
                a.extend(b);
                a
            });
        let mut buckets: Vec<Vec<u32>> = Vec::new();
        for (d, l) in first {
            push(&mut buckets, d as usize, l);
        }
        let mut d = 0;
        while d < buckets.len() {
            let cur = std::mem::take(&mut buckets[d]);
            let next: Vec<(u16, u32)> = cur
                .par_chunks(4096)
                .map(|qs| {
                    let mut next = Vec::new();
                    for &q in qs {
                        let q = q as usize;
                        if dist[q].load(Relaxed) != d as u16 {
                            continue;
                        }
                        let s = state[q].load(Relaxed);
                        let s = if s & VALUE == 0 {
                            // A pending win, final now (entered once at this distance).
                            state[q].fetch_or(WIN, Relaxed) | WIN
                        } else {
                            s
                        };
                        let win = s & VALUE == WIN;
                        let at = (d + 1) as u16;
                        let (r, wk, bk) = match kings.get(q) {
                            Some([wk, bk]) => {
                                (q / self.kc as usize, wk.load(Relaxed), bk.load(Relaxed))
                            }
                            None => self.kings(q as u64),
                        };
                        self.predecessors(r, wk, bk, |p| {
                            let p = p as usize;
                            let sp = state[p].load(Relaxed);
                            if sp & VALUE != 0 {
                                return;
                            }
                            // Plain loads first: most updates change nothing, and a locked
                            // one costs more than a load (the same result either way).
                            if !win {
                                if dist[p].load(Relaxed) > at && dist[p].fetch_min(at, Relaxed) > at
                                {
                                    state[p].fetch_or(PENDING_WIN, Relaxed);
                                    next.push((at, p as u32));
                                }
                                return;
                            }
                            // A pending win is never a loss: its count is not needed.
                            if sp & PENDING_WIN != 0 || count[p].fetch_sub(1, Relaxed) != 1 {
                                return;
                            }
                            if sp & DRAW_EXIT != 0 {
                                state[p].fetch_or(DRAW, Relaxed);
                                return;
                            }
                            let lose_at = at.max(exit_loss[p].load(Relaxed) as u16);
                            dist[p].store(lose_at, Relaxed);
                            state[p].fetch_or(LOSS, Relaxed);
                            next.push((lose_at, p as u32));
                        });
                    }
                    next
                })
                .reduce(Vec::new, |mut a, b| {
                    a.extend(b);
                    a
                });
            for (at, p) in next {
                push(&mut buckets, at as usize, p);
            }
            d += 1;
        }
        (0..n).into_par_iter().for_each(|l| {
            self.store(
                l,
                state[l as usize].load(Relaxed),
                dist[l as usize].load(Relaxed),
            )
        });
    }
}

/// Most black men sets a thread takes at a time among the small subproblems.
const SMALL_CHUNK: usize = 64;

/// Fewest chunks of black men sets each thread gets among the small subproblems, when there are
/// enough sets (with one white set and a chunk of 64, brazilian `KvKKKMM` ran on one thread: its
/// advancement levels have fewer than 64 sets; measured 35.3 s of wall time against 16.3 s).
const CHUNKS_PER_THREAD: usize = 4;

/// The chunk of `n` black men sets a thread takes at a time: [`SMALL_CHUNK`], or fewer so that
/// each of `threads` threads gets at least [`CHUNKS_PER_THREAD`] chunks.
fn small_chunk(n: usize, threads: usize) -> usize {
    (n / (threads * CHUNKS_PER_THREAD)).clamp(1, SMALL_CHUNK)
}

fn push(buckets: &mut Vec<Vec<u32>>, d: usize, l: u32) {
    if buckets.len() <= d {
        buckets.resize_with(d + 1, Vec::new);
    }
    buckets[d].push(l);
}

/// Working memory of sequential subproblems, reused.
#[derive(Default)]
struct Scratch {
    state: Vec<u8>,
    count: Vec<u8>,
    dist: Vec<u16>,
    exit_loss: Vec<u8>,
    /// White's and Black's kings of each position (unranking them again for every
    /// predecessor search cost an eighth of a build).
    kings: Vec<(u64, u64)>,
    buckets: Vec<Vec<u32>>,
    init: InitScratch,
}

/// Move lists of the set-up pass, reused.
#[derive(Default)]
struct InitScratch {
    list: Box<MoveList<Move>>,
    lists: Lists,
}

/// The sets of `k` squares of `region`, grouped by their advancement (white men count rows up
/// from the bottom row, black men rows down from the top row): `result[a]` holds those of
/// advancement `a`.
fn men_sets<G: Geometry>(region: u64, k: u32, white: bool) -> Vec<Vec<u64>> {
    let mut by_adv: Vec<Vec<u64>> = Vec::new();
    let squares: Vec<u8> = Bits(region).collect();
    // Every k-subset of the region, by recursion.
    fn rec<G: Geometry>(
        squares: &[u8],
        start: usize,
        left: u32,
        set: u64,
        adv: u32,
        white: bool,
        out: &mut Vec<Vec<u64>>,
    ) {
        if left == 0 {
            if out.len() <= adv as usize {
                out.resize_with(adv as usize + 1, Vec::new);
            }
            out[adv as usize].push(set);
            return;
        }
        for i in start..squares.len() {
            if squares.len() - i < left as usize {
                break;
            }
            let s = squares[i];
            let row = G::row_of_bit(s);
            let a = if white { G::SIZE - 1 - row } else { row };
            rec::<G>(
                squares,
                i + 1,
                left - 1,
                set | 1u64 << s,
                adv + a,
                white,
                out,
            );
        }
    }
    rec::<G>(&squares, 0, k, 0, 0, white, &mut by_adv);
    by_adv
}

/// Solves the pair of slice `m` and its twin `m.flip()`, both already in `known` with every
/// code [`NOT_STORED`]; every slice they lead to by a capture or a promotion must be in `known`
/// and final. `progress` is called with the number of positions solved as they are.
///
/// The working memory of the largest subproblem (`PARALLEL_BYTES` a position, for the
/// kings-only slices all of the pair's positions) is checked against what the machine has
/// first: too much is an error, not an abort; so is a subproblem of 2^32 positions or more.
pub fn solve_pair<R: Rules>(
    known: &Known<R>,
    m: Material,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<(), EgdbError> {
    let s = known.get(m).expect("the slice is in the known set");
    let t = known
        .get(m.flip())
        .expect("the twin slice is in the known set");
    let twin_is_self = m == m.flip();
    let kc = s.index.king_placements();
    let white_sets = men_sets::<R::Board>(SliceIndex::<R::Board>::WHITE_MEN, m.wm as u32, true);
    let black_sets = &men_sets::<R::Board>(SliceIndex::<R::Board>::BLACK_MEN, m.bm as u32, false);
    let black_sets: &Vec<Vec<u64>> = black_sets;
    let max_adv = (white_sets.len() + black_sets.len()).saturating_sub(2);
    let largest = kc * if twin_is_self { 1 } else { 2 };
    let parallel_inside = largest >= PARALLEL_FROM;
    if largest >= u32::MAX as u64 {
        return Err(EgdbError::TooLarge {
            what: format!("slice {m}"),
            reason: format!(
                "{largest} positions with the same men, more than this solver numbers (2^32)"
            ),
        });
    }
    if parallel_inside {
        memory::check(
            "retrograde analysis",
            (largest * PARALLEL_BYTES + kings_cache_bytes(largest)).div_ceil(MIB),
        )
        .map_err(|e| EgdbError::TooLarge {
            what: format!("slice {m}"),
            reason: e.to_string(),
        })?;
    }
    for a in (0..=max_adv).rev() {
        // Every (white men, black men) of advancement `a`, as (white set, list of black sets).
        let jobs: Vec<(u64, &[u64])> = white_sets
            .iter()
            .enumerate()
            .filter(|(aw, _)| *aw <= a && a - aw < black_sets.len())
            .flat_map(|(aw, ws)| {
                let bs = black_sets[a - aw].as_slice();
                ws.iter().map(move |&w| (w, bs))
            })
            .collect();
        let solve = |w: u64, b: u64, scratch: &mut Scratch| {
            let men_index = s.index.men_index(w, b);
            let (tw, tb) = (rotate::<R::Board>(b), rotate::<R::Board>(w));
            let twin_index = t.index.men_index(tw, tb);
            if twin_is_self && twin_index < men_index {
                return;
            }
            let free = |men: u64| Bits(<R::Board as Geometry>::ALL & !men).collect::<Vec<u8>>();
            let mut regions = vec![Region {
                data: &**s,
                men_index,
                w,
                b,
                free: free(w | b),
            }];
            if !(twin_is_self && twin_index == men_index) {
                regions.push(Region {
                    data: &**t,
                    men_index: twin_index,
                    w: tw,
                    b: tb,
                    free: free(tw | tb),
                });
            }
            let sub = Sub {
                known,
                regions,
                kc,
                distances: s.distance.is_some(),
            };
            if parallel_inside {
                sub.solve_parallel(progress);
            } else {
                sub.solve_here(scratch);
                progress(sub.len());
            }
        };
        if parallel_inside {
            let mut scratch = Scratch::default();
            for (w, bs) in &jobs {
                for &b in bs.iter() {
                    if w & b == 0 {
                        solve(*w, b, &mut scratch);
                    }
                }
            }
        } else {
            // Small subproblems: in parallel, in chunks of black men sets. A slice whose side
            // to move has no men has one white set, so its black sets are all the work there
            // is: the chunks are small enough that every thread gets several.
            jobs.par_iter().for_each(|(w, bs)| {
                let size = small_chunk(bs.len(), rayon::current_num_threads());
                bs.par_chunks(size)
                    .for_each_init(Scratch::default, |scratch, chunk| {
                        for &b in chunk {
                            if w & b == 0 {
                                solve(*w, b, scratch);
                            }
                        }
                    })
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_chunks_give_every_thread_several() {
        for threads in [1, 2, 8] {
            for n in [1, 6, 30, 54, 400, 5000] {
                let size = small_chunk(n, threads);
                assert!(
                    (1..=SMALL_CHUNK).contains(&size),
                    "{n} sets, {threads} threads"
                );
                if n >= threads * CHUNKS_PER_THREAD && size < SMALL_CHUNK {
                    assert!(
                        n.div_ceil(size) >= threads * CHUNKS_PER_THREAD,
                        "{n}, {threads}"
                    );
                }
            }
        }
        // A level of 30 sets on two threads: chunks of 3, not one chunk of 30.
        assert_eq!(small_chunk(30, 2), 3);
    }
}
