//! Quiescence search: resolves pending noisy moves (draughts: captures) before trusting the
//! static evaluation.
//!
//! Captures are compulsory in draughts, so a position with a capture has no "stand pat": every
//! capture is searched and the best is taken. A position without one is a leaf, scored by the
//! evaluation. A position the endgame tables answer for is not searched: it takes their score. Draws by the counters are still checked (a capture does not reset every counter).
//!
//! Invariant: only noisy moves are searched, so the subtree is finite (every capture removes a
//! piece) and needs no depth; `MAX_PLY` bounds it anyway.

use super::alphabeta::Worker;
use super::score::INFINITY;
use crate::game::Evaluate;

impl<G: Evaluate> Worker<'_, G> {
    /// The quiescence search of `pos` at `ply`.
    pub(crate) fn qsearch(&mut self, pos: &G, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        if let Some(s) = self.enter(pos, ply) {
            return s;
        }
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        if let Some(s) = self.probe_tables(pos, ply) {
            return s;
        }
        let list = &mut self.lists_mut()[ply];
        pos.generate_noisy(list);
        let n = list.len();
        if n == 0 {
            self.leaf_plies += ply as u64;
            self.leaves += 1;
            return self.evaluate(pos);
        }
        let pv_node = beta > alpha + 1;
        let mut best = -INFINITY;
        for i in 0..n {
            let m = self.lists_mut()[ply][i];
            let child = pos.make(&m);
            let score = -self.qsearch(&child, -beta, -alpha, ply + 1);
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}
