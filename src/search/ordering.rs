//! Move ordering: the hash move first, then killer moves, then the history heuristic.
//!
//! Written against [`Game`] only, so it orders the moves of any game. A move is identified in
//! the history table by [`Game::history_slot`] (draughts: origin and destination, exact for quiet
//! moves; other games by default a hash of the move value,
//! [`hashed_history_slot`](crate::game::hashed_history_slot)); collisions
//! only blur the ordering.
//! The hash move is an index into the position's generated list (the table stores that index),
//! which is exact because generation is deterministic.
//!
//! Invariants: history values stay within `±Params::history_max` (updates use "gravity": a bonus
//! shrinks as the value nears the bound); killers hold quiet (non-noisy) moves only.

use super::params::Params;
use super::score::MAX_PLY;
use crate::game::{Game, HISTORY_SLOTS};
use std::hash::Hash;

/// Ordering score of the hash move.
pub(crate) const HASH_MOVE: i32 = 1 << 30;
/// Ordering score of the first killer (the second gets one less).
pub(crate) const KILLER: i32 = 1 << 29;

/// A move's slot within its side's row of the history table.
#[inline(always)]
fn slot_in_row<G: Game>(m: &G::Move) -> usize {
    let s = G::history_slot(m);
    debug_assert!(s < HISTORY_SLOTS, "history slot {s} out of range");
    s & (HISTORY_SLOTS - 1)
}

/// The first slot of the history row of `pos`'s side to move.
#[inline(always)]
fn row<G: Game>(pos: &G) -> usize {
    pos.side().index() * HISTORY_SLOTS
}

/// The history slot of a move of `pos`'s side to move.
#[inline(always)]
fn slot<G: Game>(pos: &G, m: &G::Move) -> usize {
    row(pos) + slot_in_row::<G>(m)
}

/// Killers and history of one search thread.
pub(crate) struct Ordering<M> {
    killers: Vec<[M; 2]>,
    history: Vec<i32>,
}

impl<M: Copy + Default + PartialEq + Hash> Ordering<M> {
    pub(crate) fn new() -> Self {
        Ordering {
            killers: vec![[M::default(); 2]; MAX_PLY + 2],
            history: vec![0; 2 * HISTORY_SLOTS],
        }
    }

    /// Whether `m` is a killer at `ply`.
    #[inline(always)]
    pub(crate) fn is_killer(&self, ply: usize, m: &M) -> bool {
        let k = &self.killers[ply];
        k[0] == *m || k[1] == *m
    }

    /// Scores `moves` for ordering into `out` as (score, index) pairs: the move at index `hash`
    /// gets [`HASH_MOVE`], then the killers, then the history. The per-node values (switches,
    /// killers, the side's history row) are read once, not per move.
    #[inline(always)]
    pub(crate) fn score_moves<G: Game<Move = M>>(
        &self,
        p: &Params,
        pos: &G,
        ply: usize,
        moves: &[M],
        hash: u16,
        out: &mut Vec<(i32, u16)>,
    ) {
        let (use_killers, use_history) = (p.killers, p.history);
        let [k0, k1] = self.killers[ply];
        let row = row(pos);
        let history: &[i32; HISTORY_SLOTS] = self.history[row..row + HISTORY_SLOTS]
            .try_into()
            .expect("a side's history row");
        out.clear();
        // `extend` from an exact-size iterator reserves once (no capacity check per move).
        out.extend(moves.iter().enumerate().map(|(i, m)| {
            let s = if i as u16 == hash {
                HASH_MOVE
            } else if use_killers && k0 == *m {
                KILLER
            } else if use_killers && k1 == *m {
                KILLER - 1
            } else if use_history {
                history[slot_in_row::<G>(m)]
            } else {
                0
            };
            (s, i as u16)
        }));
    }

    /// A quiet move caused a cutoff at `ply` with `depth` plies left: it becomes a killer and
    /// its history grows. Returns the bonus, which [`Ordering::malus`] takes from the quiet moves
    /// tried before it.
    pub(crate) fn cutoff<G: Game<Move = M>>(
        &mut self,
        p: &Params,
        pos: &G,
        ply: usize,
        depth: i32,
        m: &M,
    ) -> i32 {
        if p.killers {
            let k = &mut self.killers[ply];
            if k[0] != *m {
                k[1] = k[0];
                k[0] = *m;
            }
        }
        let bonus = (depth * depth).min(p.history_max);
        if p.history {
            Self::gravity(&mut self.history[slot(pos, m)], bonus, p.history_max);
        }
        bonus
    }

    /// A quiet move that was tried before the cutoff move loses `bonus` of history.
    #[inline(always)]
    pub(crate) fn malus<G: Game<Move = M>>(&mut self, p: &Params, pos: &G, m: &M, bonus: i32) {
        if p.history {
            Self::gravity(&mut self.history[slot(pos, m)], -bonus, p.history_max);
        }
    }

    #[inline(always)]
    fn gravity(h: &mut i32, bonus: i32, max: i32) {
        *h += bonus - *h * bonus.abs() / max.max(1);
    }
}

/// Picks the best-scored move left in `scores[from..]` (selection sort step): swaps it to `from`
/// and returns its generated index.
#[inline(always)]
pub(crate) fn pick(scores: &mut [(i32, u16)], from: usize) -> u16 {
    let mut best = from;
    let mut best_score = scores[from].0;
    for (i, &(s, _)) in scores.iter().enumerate().skip(from + 1) {
        if s > best_score {
            best = i;
            best_score = s;
        }
    }
    scores.swap(from, best);
    scores[from].1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pick_orders_by_score() {
        let mut s = [(3, 0), (9, 1), (3, 2), (10, 3)];
        let order: Vec<u16> = (0..4).map(|i| pick(&mut s, i)).collect();
        assert_eq!(order, [3, 1, 2, 0]);
    }

    #[test]
    fn gravity_bounds_history() {
        let mut h = 0;
        for _ in 0..1000 {
            Ordering::<u32>::gravity(&mut h, 400, 1 << 14);
        }
        assert!(h <= 1 << 14 && h > 1 << 13);
    }

    #[test]
    fn slots_differ() {
        use crate::draughts::position::Position;
        use crate::draughts::rules::International;
        use crate::game::Game;
        let pos = Position::<International>::start();
        let mut list = crate::game::MoveList::new();
        pos.generate(&mut list);
        let white: Vec<usize> = list.iter().map(|m| slot(&pos, m)).collect();
        let mut distinct = white.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(
            distinct.len(),
            white.len(),
            "quiet moves get distinct slots"
        );
        let black = pos.make(&list[0]);
        assert_ne!(
            slot(&black, &list[0]),
            white[0],
            "each side has its own slots"
        );
    }
}
