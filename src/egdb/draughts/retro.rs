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
//! # One subproblem
//!
//! 1. Each position is set up and its moves generated: no move is a loss; a position that must
//!    capture takes its best capture (it is not stored: captures are left to the search, but its
//!    value is needed here); a move leaving the subproblem to a position lost for the opponent is
//!    a win; otherwise the moves staying inside (king moves) are counted, and whether a move out
//!    draws is remembered. A position with no move inside is then a draw or a loss.
//! 2. Resolved wins and losses are propagated backward, level by level: a predecessor (the
//!    position before one of the opponent's king moves, found by moving a king back along a
//!    free diagonal) of a loss is a win; a predecessor all of whose moves inside lead to wins is
//!    a loss (or a draw, when a move out draws). Level `d` holds the positions decided `d`
//!    plies before their conversion: the **distance to conversion** (plies to the next move
//!    that leaves the subproblem: a capture, a promotion or a man's move), which the winner
//!    makes as short and the loser as long as it can.
//! 3. What is left undecided is a draw.
//!
//! Large subproblems (the kings-only slices are one subproblem each) are solved with every
//! thread: the positions set up in parallel, each level propagated in parallel with atomic
//! updates (a win is claimed by compare-and-swap, a loss by the decrement that reaches zero), so
//! the result is the same as the sequential one.
//!
//! Invariants: a subproblem writes only its own positions' codes and distances, once each; it
//! reads only positions of finished subproblems and slices, through [`Known::value`].

use super::index::{Material, SliceIndex, rotate};
use super::values::{Known, SliceData};
use crate::color::Color;
use crate::draughts::board::{Bits, Geometry, free_part, step};
use crate::draughts::movegen;
use crate::draughts::position::Position;
use crate::draughts::rules::Rules;
use crate::egdb::{NOT_STORED, Wdl};
use crate::game::MoveList;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

/// State bits of a position during a subproblem: the value code in the low two bits (0:
/// undecided), then flags.
const VALUE: u8 = 3;
/// A move out of the subproblem draws.
const DRAW_EXIT: u8 = 4;
/// The side to move must capture: not stored.
const CAPTURE: u8 = 8;

const LOSS: u8 = Wdl::Loss.code();
const DRAW: u8 = Wdl::Draw.code();
const WIN: u8 = Wdl::Win.code();

/// Subproblems at least this large are solved with every thread.
const PARALLEL_FROM: u64 = 1 << 18;

/// One side of a subproblem: a slice's men configuration, White to move.
struct Region<'a, R: Rules> {
    data: &'a SliceData<R>,
    men_index: u64,
    /// White's men.
    w: u64,
    /// Black's men.
    b: u64,
}

/// One men configuration of the pair: its region, and its twin's unless it is its own twin.
struct Sub<'a, R: Rules> {
    known: &'a Known<R>,
    regions: Vec<Region<'a, R>>,
    /// King placements of a region.
    kc: u64,
}

/// What the set-up pass finds about one position.
#[derive(Copy, Clone)]
struct Init {
    state: u8,
    count: u8,
    /// Level, for decided positions.
    level: u8,
}

impl<'a, R: Rules> Sub<'a, R> {
    fn len(&self) -> u64 {
        self.kc * self.regions.len() as u64
    }

    /// The twin region of region `r`.
    fn partner(&self, r: usize) -> usize {
        if self.regions.len() == 2 { 1 - r } else { 0 }
    }

    /// White's pieces, Black's pieces and the kings of local position `l` (White to move).
    fn pieces(&self, l: u64) -> (usize, u64, u64, u64, u64) {
        let r = (l / self.kc) as usize;
        let reg = &self.regions[r];
        let (wk, bk) = reg.data.index.kings_of(reg.w | reg.b, l % self.kc);
        (r, reg.w | wk, reg.b | bk, wk, bk)
    }

    fn position(&self, l: u64) -> Position<R> {
        let (_, white, black, wk, bk) = self.pieces(l);
        Position::from_parts(white, black, wk | bk, Color::White)
            .expect("the numbering gives legal placements")
    }

    /// The value of a position outside the subproblem (final by the build order).
    fn outside(&self, pos: &Position<R>) -> Wdl {
        self.known
            .value(pos)
            .unwrap_or_else(|m| panic!("slice {} is needed and not built", m.material))
    }

    /// Set-up of local position `l`.
    fn init(&self, l: u64) -> Init {
        let pos = self.position(l);
        let mut list = MoveList::new();
        movegen::generate(&pos, &mut list);
        if list.is_empty() {
            return Init {
                state: LOSS,
                count: 0,
                level: 0,
            };
        }
        if list[0].is_capture() {
            let mut best = Wdl::Loss;
            for m in list.iter() {
                best = best.max(self.outside(&pos.make(m)).flip());
                if best == Wdl::Win {
                    break;
                }
            }
            return Init {
                state: best.code() | CAPTURE,
                count: 0,
                level: 1,
            };
        }
        let kings = pos.kings();
        let mut count = 0u8;
        let mut draw_exit = false;
        for m in list.iter() {
            if kings & (1u64 << m.from) != 0 {
                count += 1;
                continue;
            }
            match self.outside(&pos.make(m)).flip() {
                Wdl::Win => {
                    return Init {
                        state: WIN,
                        count: 0,
                        level: 1,
                    };
                }
                Wdl::Draw => draw_exit = true,
                Wdl::Loss => {}
            }
        }
        match (count, draw_exit) {
            (0, true) => Init {
                state: DRAW,
                count: 0,
                level: 0,
            },
            (0, false) => Init {
                state: LOSS,
                count: 0,
                level: 1,
            },
            (n, d) => Init {
                state: if d { DRAW_EXIT } else { 0 },
                count: n,
                level: 0,
            },
        }
    }

    /// Calls `visit` with the local index of every predecessor of local position `l` inside the
    /// subproblem: the positions, Black to move, from which one of Black's kings came to its
    /// square by a legal quiet move, turned round (so they are White-to-move positions of the
    /// twin region).
    #[inline(always)]
    fn predecessors(&self, l: u64, mut visit: impl FnMut(u64)) {
        let (r, white, black, wk, bk) = self.pieces(l);
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
    fn store(&self, l: u64, state: u8, level: u32) {
        let r = (l / self.kc) as usize;
        let reg = &self.regions[r];
        let i = reg.men_index * self.kc + l % self.kc;
        let value = match state & VALUE {
            0 => DRAW,
            v => v,
        };
        let stored = state & CAPTURE == 0;
        reg.data.wdl.set(i, if stored { value } else { NOT_STORED });
        if let Some(dist) = &reg.data.distance
            && stored
            && value != DRAW
        {
            dist.set(i, 1 + level.min(254) as u8);
        }
    }

    /// Solves the subproblem on the calling thread, with `scratch` reused between calls.
    fn solve_here(&self, scratch: &mut Scratch) {
        let n = self.len() as usize;
        let Scratch {
            state,
            count,
            level,
            buckets,
        } = scratch;
        state.clear();
        count.clear();
        level.clear();
        for b in buckets.iter_mut() {
            b.clear();
        }
        for l in 0..n as u64 {
            let i = self.init(l);
            state.push(i.state);
            count.push(i.count);
            level.push(i.level);
            let v = i.state & VALUE;
            if v == WIN || v == LOSS {
                push(buckets, i.level as usize, l as u32);
            }
        }
        let mut d = 0;
        while d < buckets.len() {
            let cur = std::mem::take(&mut buckets[d]);
            for &q in &cur {
                let win = state[q as usize] & VALUE == WIN;
                self.predecessors(q as u64, |p| {
                    let p = p as usize;
                    if state[p] & VALUE != 0 {
                        return;
                    }
                    if !win {
                        state[p] |= WIN;
                    } else {
                        count[p] -= 1;
                        if count[p] > 0 {
                            return;
                        }
                        if state[p] & DRAW_EXIT != 0 {
                            state[p] |= DRAW;
                            return;
                        }
                        state[p] |= LOSS;
                    }
                    level[p] = (d + 1).min(255) as u8;
                    push(buckets, d + 1, p as u32);
                });
            }
            buckets[d] = cur;
            buckets[d].clear();
            d += 1;
        }
        for l in 0..n {
            // Levels beyond 255 are kept exact in the buckets' order, saturated here.
            self.store(l as u64, state[l], level[l] as u32);
        }
    }

    /// Solves the subproblem with every thread.
    fn solve_parallel(&self, progress: &(dyn Fn(u64) + Sync)) {
        let n = self.len();
        assert!(n < u32::MAX as u64, "subproblem of {n} positions");
        let state: Vec<AtomicU8> = (0..n).map(|_| AtomicU8::new(0)).collect();
        let count: Vec<AtomicU8> = (0..n).map(|_| AtomicU8::new(0)).collect();
        let level: Vec<AtomicU8> = (0..n).map(|_| AtomicU8::new(0)).collect();
        const CHUNK: u64 = 1 << 14;
        let (first0, first1): (Vec<u32>, Vec<u32>) = (0..n.div_ceil(CHUNK))
            .into_par_iter()
            .map(|c| {
                let (mut a, mut b) = (Vec::new(), Vec::new());
                for l in c * CHUNK..((c + 1) * CHUNK).min(n) {
                    let i = self.init(l);
                    state[l as usize].store(i.state, Relaxed);
                    count[l as usize].store(i.count, Relaxed);
                    level[l as usize].store(i.level, Relaxed);
                    let v = i.state & VALUE;
                    if v == WIN || v == LOSS {
                        if i.level == 0 { &mut a } else { &mut b }.push(l as u32);
                    }
                }
                progress(((c + 1) * CHUNK).min(n) - c * CHUNK);
                (a, b)
            })
            .reduce(
                || (Vec::new(), Vec::new()),
                |(mut a, mut b), (c, d)| {
                    a.extend(c);
                    b.extend(d);
                    (a, b)
                },
            );
        let mut buckets = vec![first0, first1];
        let mut d = 0;
        while d < buckets.len() {
            let cur = std::mem::take(&mut buckets[d]);
            let next: Vec<u32> = cur
                .par_chunks(4096)
                .map(|qs| {
                    let mut next = Vec::new();
                    for &q in qs {
                        let win = state[q as usize].load(Relaxed) & VALUE == WIN;
                        self.predecessors(q as u64, |p| {
                            let p = p as usize;
                            let s = state[p].load(Relaxed);
                            if s & VALUE != 0 {
                                return;
                            }
                            if !win {
                                if state[p]
                                    .compare_exchange(s, s | WIN, Relaxed, Relaxed)
                                    .is_err()
                                {
                                    return;
                                }
                            } else {
                                if count[p].fetch_sub(1, Relaxed) != 1 {
                                    return;
                                }
                                if s & DRAW_EXIT != 0 {
                                    state[p].fetch_or(DRAW, Relaxed);
                                    return;
                                }
                                state[p].fetch_or(LOSS, Relaxed);
                            }
                            level[p].store((d + 1).min(255) as u8, Relaxed);
                            next.push(p as u32);
                        });
                    }
                    next
                })
                .reduce(Vec::new, |mut a, b| {
                    a.extend(b);
                    a
                });
            if !next.is_empty() {
                if buckets.len() <= d + 1 {
                    buckets.push(Vec::new());
                }
                buckets[d + 1].extend(next);
            }
            d += 1;
        }
        (0..n).into_par_iter().for_each(|l| {
            self.store(
                l,
                state[l as usize].load(Relaxed),
                level[l as usize].load(Relaxed) as u32,
            )
        });
    }
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
    level: Vec<u8>,
    buckets: Vec<Vec<u32>>,
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
pub fn solve_pair<R: Rules>(known: &Known<R>, m: Material, progress: &(dyn Fn(u64) + Sync)) {
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
    let parallel_inside = kc * if twin_is_self { 1 } else { 2 } >= PARALLEL_FROM;
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
            let mut regions = vec![Region {
                data: &**s,
                men_index,
                w,
                b,
            }];
            if !(twin_is_self && twin_index == men_index) {
                regions.push(Region {
                    data: &**t,
                    men_index: twin_index,
                    w: tw,
                    b: tb,
                });
            }
            let sub = Sub { known, regions, kc };
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
            // Small subproblems: in parallel, in chunks of black men sets (a slice whose side to
            // move has no men has one white set).
            jobs.par_iter().for_each(|(w, bs)| {
                bs.par_chunks(64)
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
}
