//! The tree search of one thread: principal-variation alpha-beta inside iterative deepening with
//! aspiration windows.
//!
//! Per node: abort and draw checks (draw counters, repetition), mate-distance pruning, move
//! generation (no move: lost) and, where reverse futility pruning may cut, the static
//! evaluation, both before the table probe: the parent prefetched the entry, and this is the
//! independent work that hides its latency. Then the probe (cutoffs at non-PV nodes; the hash
//! move's child is made and its entry prefetched at once), reverse futility pruning, ProbCut (the
//! node searched again at a fraction of the depth, above beta by a margin), the singular test
//! (switch `singular`: the node searched again without its hash move, which is extended a ply
//! when every other move fails below the entry's score by a margin), and the ordered moves
//! (none to order for a single legal move; the hash move first, without a scan) with late move
//! pruning, late move reductions and PV re-searches; the forced-move extension, and the table
//! store. At depth 0 the quiescence search takes over.
//!
//! Static evaluations go through the thread's evaluation cache ([`Worker::evaluate`]): a small
//! table by key, allocated with the worker. The evaluation is a function of what the key hashes
//! (pieces, side to move, Morris' pieces in hand; never a draw counter), so a cached value is
//! the value the evaluation would give and the tree is node for node the same.
//!
//! An iteration stopped midway (clock, node limit or `stop`) is not all lost: when, at the root,
//! a move searched after the first one (the previous iteration's best move, which the hash move
//! puts first) scored above alpha, which the first move's score had reached or the window set
//! higher, it is better than that move at the new depth, and the main thread answers with it
//! (`Worker::partial`). The main thread reports such a line as soon as it is found, so that its
//! last report is always the answer it would give if stopped now (the engine answers a `stop`
//! from it without waiting for the search thread to be scheduled).
//!
//! Invariants: `keys[root_index + ply]` is the key of the node at `ply` while it is searched (the
//! entries below `root_index` are the game history); a search that was aborted returns a
//! meaningless score and sets `aborted`, and its caller discards everything it returned, but for
//! the root moves it completed before the abort; the main thread never aborts its first
//! iteration, so a legal move is always known.

use super::ordering::{Ordering, pick};
use super::params::{MAX_CONTEMPT, Params};
use super::score::{
    DRAW, INFINITY, MAX_PLY, WIN, from_tt, is_decisive, loss_in, table_score, to_tt, win_in,
};
use super::{Control, OnReport, Report};
use crate::egdb::{Probe, Wdl};
use crate::game::Evaluate;
use crate::game::Game;
use crate::game::{MAX_MOVES, MoveList};
use crate::search::time::{Stability, TimeManager, TimeParams};
use crate::search::tt::{Bound, NO_MOVE, Tt};
use std::sync::atomic::{AtomicU64, Ordering as MemOrder};
use std::time::Instant;

/// Largest depth and move number the reduction table covers.
const LMR_SIZE: usize = 64;

/// A node counter on its own cache line (threads publish their counts for the node limit and the
/// reports).
#[repr(align(64))]
#[derive(Default)]
pub(crate) struct Counter(pub(crate) AtomicU64);

/// What the threads of one search share.
pub(crate) struct Shared<'a, G: Evaluate> {
    pub(crate) tt: &'a Tt,
    pub(crate) control: &'a Control,
    pub(crate) params: &'a Params,
    pub(crate) nodes: Vec<Counter>,
    /// Endgame-table answers of each thread, published with the node counts.
    pub(crate) tb_hits: Vec<Counter>,
    /// The endgame tables, if any.
    pub(crate) tables: Option<&'a dyn Probe<G>>,
    lmr: Vec<[u8; LMR_SIZE]>,
}

impl<'a, G: Evaluate> Shared<'a, G> {
    pub(crate) fn new(
        tt: &'a Tt,
        control: &'a Control,
        params: &'a Params,
        threads: usize,
        tables: Option<&'a dyn Probe<G>>,
    ) -> Self {
        let lmr = (0..LMR_SIZE)
            .map(|d| {
                let mut row = [0u8; LMR_SIZE];
                for (n, r) in row.iter_mut().enumerate() {
                    *r = params.lmr_reduction(d as i32, n).clamp(0, u8::MAX as i32) as u8;
                }
                row
            })
            .collect();
        Shared {
            tt,
            control,
            params,
            nodes: (0..threads).map(|_| Counter::default()).collect(),
            tb_hits: (0..threads).map(|_| Counter::default()).collect(),
            tables,
            lmr,
        }
    }

    /// Table answers published by every thread.
    pub(crate) fn total_tb_hits(&self) -> u64 {
        self.tb_hits
            .iter()
            .map(|c| c.0.load(MemOrder::Relaxed))
            .sum()
    }

    /// Nodes published by every thread.
    pub(crate) fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|c| c.0.load(MemOrder::Relaxed)).sum()
    }
}

/// The main thread's limits, and where its reports go.
pub(crate) struct Clock<'a, M> {
    /// When the search started (the reports' times).
    pub(crate) start: Instant,
    /// Called with each completed iteration, and with an unfinished one that found a better
    /// move, when it finds it (`None`: no one reads the reports, which are then not built).
    pub(crate) on_report: OnReport<'a, M>,
    pub(crate) tm: TimeManager,
    pub(crate) time_params: &'a TimeParams,
    pub(crate) pondering: bool,
    pub(crate) node_limit: Option<u64>,
}

/// A completed iteration.
#[derive(Clone, Debug)]
pub(crate) struct Iteration<M> {
    pub(crate) depth: u32,
    pub(crate) score: i32,
    pub(crate) pv: Vec<M>,
}

/// One search thread.
pub(crate) struct Worker<'a, G: Evaluate> {
    pub(crate) id: usize,
    pub(crate) shared: &'a Shared<'a, G>,
    p: &'a Params,
    /// The tables, and the most pieces they cover (0 without tables).
    tables: Option<&'a dyn Probe<G>>,
    table_pieces: u32,
    pub(crate) tb_hits: u64,
    pub(crate) clock: Option<Clock<'a, G::Move>>,
    pub(crate) nodes: u64,
    next_check: u64,
    pub(crate) aborted: bool,
    pub(crate) can_abort: bool,
    keys: Vec<u64>,
    root_index: usize,
    pub(crate) ordering: Ordering<G::Move>,
    lists: Vec<MoveList<G::Move>>,
    order: Vec<Vec<(i32, u16)>>,
    pv: Vec<G::Move>,
    pv_len: [usize; MAX_PLY + 2],
    pub(crate) seldepth: usize,
    pub(crate) leaf_plies: u64,
    pub(crate) leaves: u64,
    /// The first move searched at the root in the current iteration.
    root_first: Option<G::Move>,
    /// The previous iteration's best move (searched first in this one).
    prev_best: Option<G::Move>,
    /// The current iteration's best line so far, once a root move after the first one has beaten
    /// it (its score is exact or a lower bound).
    partial: Option<Iteration<G::Move>>,
    /// Static evaluations by key ([`Worker::evaluate`]); empty when `eval-cache` is off.
    eval_cache: Vec<u64>,
    /// The move each ply's node leaves out ([`NO_MOVE`]: none), set while a singular test
    /// searches that node without its hash move.
    excluded: Vec<u16>,
    /// The current iteration's depth (singular extensions stop at twice it).
    root_depth: i32,
}

/// Most entries of an evaluation cache, as a power of two (256 MiB a thread).
const MAX_EVAL_CACHE_BITS: usize = 25;

/// An evaluation cache entry: the key's upper 32 bits above the evaluation's 32 bits; 0 is an
/// empty slot (a position with those key bits and evaluation 0 is then simply not cached).
#[inline(always)]
fn eval_entry(key: u64, eval: i32) -> u64 {
    (key & 0xFFFF_FFFF_0000_0000) | eval as u32 as u64
}

/// The child after `m`: `made` if it was made ahead, else made now, with its table entry
/// prefetched when the child will probe it (`probes`). Children with no depth left go to
/// quiescence, which does not probe: a prefetch there only costs (a page walk on a miss).
#[inline(always)]
fn made_or_make<G: Game>(pos: &G, m: &G::Move, made: Option<G>, tt: &Tt, probes: bool) -> G {
    made.unwrap_or_else(|| {
        let child = pos.make(m);
        if probes {
            tt.prefetch(child.key());
        }
        child
    })
}

/// Longest game history kept for repetition (plies).
const MAX_HISTORY: usize = 1024;

impl<'a, G: Evaluate> Worker<'a, G> {
    pub(crate) fn new(
        id: usize,
        shared: &'a Shared<'a, G>,
        history: &[u64],
        clock: Option<Clock<'a, G::Move>>,
    ) -> Self {
        let history = &history[history.len().saturating_sub(MAX_HISTORY)..];
        let mut keys = Vec::with_capacity(history.len() + MAX_PLY + 2);
        keys.extend_from_slice(history);
        let root_index = keys.len();
        keys.resize(root_index + MAX_PLY + 2, 0);
        let p = shared.params;
        Worker {
            id,
            shared,
            p,
            next_check: p.clock_check_nodes.min(
                clock
                    .as_ref()
                    .and_then(|c| c.node_limit)
                    .unwrap_or(u64::MAX),
            ),
            clock,
            tables: shared.tables,
            table_pieces: shared.tables.map_or(0, |t| t.max_pieces()),
            tb_hits: 0,
            nodes: 0,
            aborted: false,
            can_abort: true,
            keys,
            root_index,
            ordering: Ordering::new(),
            // Grown by `enter` as plies are reached (see `grow`).
            lists: Vec::with_capacity(MAX_PLY + 2),
            order: Vec::with_capacity(MAX_PLY + 2),
            pv: Vec::with_capacity((MAX_PLY + 2) * (MAX_PLY + 2)),
            pv_len: [0; MAX_PLY + 2],
            seldepth: 0,
            leaf_plies: 0,
            leaves: 0,
            root_first: None,
            prev_best: None,
            partial: None,
            eval_cache: if p.eval_cache {
                vec![0; 1 << p.eval_cache_bits.min(MAX_EVAL_CACHE_BITS)]
            } else {
                Vec::new()
            },
            excluded: vec![NO_MOVE; MAX_PLY + 2],
            root_depth: 0,
        }
    }

    /// The static evaluation of `pos`, from the evaluation cache when `pos`'s key is there (the
    /// slot is the key's low bits, the check its high 32: a false hit needs two positions alike
    /// in 48 key bits and a slot).
    #[inline(always)]
    pub(crate) fn evaluate(&mut self, pos: &G) -> i32 {
        if self.eval_cache.is_empty() {
            return pos.evaluate();
        }
        let key = pos.key();
        let slot = key as usize & (self.eval_cache.len() - 1);
        let e = self.eval_cache[slot];
        if e != 0 && (e ^ key) >> 32 == 0 {
            return e as u32 as i32;
        }
        let eval = pos.evaluate();
        self.eval_cache[slot] = eval_entry(key, eval);
        eval
    }

    /// The main thread reports an iteration, completed or `partial` (helpers have nothing to
    /// report to).
    fn report(&mut self, it: &Iteration<G::Move>, partial: bool) {
        let Some(c) = self.clock.as_ref().filter(|c| c.on_report.is_some()) else {
            return;
        };
        let sh = self.shared;
        let nodes = self.nodes + sh.total_nodes() - sh.nodes[self.id].0.load(MemOrder::Relaxed);
        let report = Report {
            depth: it.depth,
            seldepth: self.seldepth as u32,
            mean_depth: if self.leaves > 0 {
                self.leaf_plies as f64 / self.leaves as f64
            } else {
                it.depth as f64
            },
            score: super::Score(it.score),
            nodes,
            time: c.start.elapsed(),
            pv: it.pv.clone(),
            hashfull: sh.tt.hashfull(),
            partial,
            tb_hits: sh.tables.map(|_| {
                self.tb_hits + sh.total_tb_hits() - sh.tb_hits[self.id].0.load(MemOrder::Relaxed)
            }),
        };
        if let Some(on_report) = self.clock.as_mut().and_then(|c| c.on_report.as_mut()) {
            on_report(&report);
        }
    }

    /// Publishes the node count, looks at the stop signal and, on the main thread, the clock and
    /// the node limit.
    #[cold]
    fn check(&mut self) {
        let sh = self.shared;
        sh.nodes[self.id].0.store(self.nodes, MemOrder::Relaxed);
        sh.tb_hits[self.id].0.store(self.tb_hits, MemOrder::Relaxed);
        self.next_check = self.nodes + self.p.clock_check_nodes;
        if let Some(c) = &mut self.clock {
            if c.pondering && !sh.control.is_pondering() {
                c.pondering = false;
                if let Some(at) = sh.control.ponder_hit_time() {
                    c.tm.restart(at);
                }
            }
            let mut out = !c.pondering && c.tm.hard_expired();
            if let Some(limit) = c.node_limit {
                let total = if sh.nodes.len() == 1 {
                    self.nodes
                } else {
                    sh.total_nodes()
                };
                out |= total >= limit;
                if sh.nodes.len() == 1 {
                    self.next_check = self.next_check.min(limit);
                }
            }
            if out {
                sh.control.stop();
            }
        }
        if self.can_abort && sh.control.is_stopped() {
            self.aborted = true;
        }
    }

    /// Counts the node, checks for abort and for a draw. `Some(score)` ends the node.
    #[inline(always)]
    pub(crate) fn enter(&mut self, pos: &G, ply: usize) -> Option<i32> {
        if self.lists.len() < ply + 2 {
            self.grow(ply + 2);
        }
        self.pv_len[ply] = ply;
        if self.aborted {
            return Some(0);
        }
        self.nodes += 1;
        if self.nodes >= self.next_check {
            self.check();
            if self.aborted {
                return Some(0);
            }
        }
        if ply > 0 {
            self.keys[self.root_index + ply] = pos.key();
            if pos.draw_by_rule() || self.is_repetition(ply, pos.reversible_plies()) {
                return Some(self.draw_score(ply));
            }
            if ply >= MAX_PLY {
                return Some(pos.evaluate());
            }
        } else {
            self.keys[self.root_index] = pos.key();
        }
        None
    }

    /// Whether the node at `ply` repeats an earlier position: twice before in the game (the third
    /// occurrence), or once inside the search path when `twofold_in_path`.
    #[inline(always)]
    fn is_repetition(&self, ply: usize, reversible: u32) -> bool {
        let cur = self.root_index + ply;
        if reversible < 4 || cur < 4 {
            return false;
        }
        let key = self.keys[cur];
        let earliest = cur.saturating_sub(reversible as usize);
        let mut seen = 0;
        let mut j = cur - 4;
        loop {
            if self.keys[j] == key {
                if j >= self.root_index && self.p.twofold_in_path {
                    return true;
                }
                seen += 1;
                if seen >= 2 {
                    return true;
                }
            }
            if j < earliest + 2 {
                return false;
            }
            j -= 2;
        }
    }

    /// The endgame tables' score of `pos` at `ply`, when they answer for it. Without tables
    /// this is one test of a constant.
    #[inline(always)]
    pub(crate) fn probe_tables(&mut self, pos: &G, ply: usize) -> Option<i32> {
        let tables = self.tables?;
        if pos.piece_count() > self.table_pieces {
            return None;
        }
        let p = tables.probe(pos)?;
        self.tb_hits += 1;
        if p.wdl == Wdl::Draw {
            return Some(self.draw_score(ply));
        }
        Some(table_score(p, ply, || pos.evaluate()))
    }

    /// The score of a draw at `ply` for the side to move there: `DRAW` less `contempt` for the
    /// side to move at the root (even plies), more for its opponent (odd plies), so that with a
    /// positive contempt the engine prefers playing on to a draw at equal scores.
    #[inline(always)]
    fn draw_score(&self, ply: usize) -> i32 {
        let c = self.p.contempt.clamp(-MAX_CONTEMPT, MAX_CONTEMPT);
        if ply.is_multiple_of(2) {
            DRAW - c
        } else {
            DRAW + c
        }
    }

    /// Makes room for plies `0..plies` (at most `MAX_PLY + 2`): their move lists, ordering
    /// buffers and PV rows. A worker starts with none and grows as its search goes deeper, so a
    /// short search (self-play's 4,000 nodes reach 20 to 40 plies) does not fill the
    /// `MAX_PLY + 2` lists of `MAX_MOVES` moves and the PV table (about 1.3 MB on 10x10) it
    /// will not use. Invariant after `enter(ply)`: `lists`, `order` and the PV rows exist for
    /// plies `0..=ply + 1`, which is all a node at `ply` and its `update_pv` touch.
    #[cold]
    #[inline(never)]
    fn grow(&mut self, plies: usize) {
        const W: usize = MAX_PLY + 2;
        // A few plies at a time, so that a deepening search does not come here at every ply.
        let plies = (plies + 7).min(W);
        self.lists.resize_with(plies, MoveList::default);
        self.order
            .resize_with(plies, || Vec::with_capacity(MAX_MOVES));
        self.pv.resize(plies * W, G::Move::default());
    }

    /// Makes `m` the first move of the PV at `ply`, followed by the child's PV.
    #[inline(always)]
    pub(crate) fn update_pv(&mut self, ply: usize, m: G::Move) {
        const W: usize = MAX_PLY + 2;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        self.pv[ply * W + ply] = m;
        for i in ply + 1..child_len {
            self.pv[ply * W + i] = self.pv[(ply + 1) * W + i];
        }
        self.pv_len[ply] = child_len;
    }

    /// The move lists, one per ply.
    #[inline(always)]
    pub(crate) fn lists_mut(&mut self) -> &mut [MoveList<G::Move>] {
        &mut self.lists
    }

    /// The PV from the root.
    pub(crate) fn root_pv(&self) -> Vec<G::Move> {
        self.pv[..self.pv_len[0]].to_vec()
    }

    /// The alpha-beta search of `pos` at `ply` with `depth` plies left.
    pub(crate) fn search(
        &mut self,
        pos: &G,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        if depth <= 0 && ply > 0 {
            return self.qsearch(pos, alpha, beta, ply);
        }
        if let Some(s) = self.enter(pos, ply) {
            return s;
        }
        let p = self.p;
        if ply > 0 {
            // Mate-distance pruning: no line from here beats a win at the next ply.
            alpha = alpha.max(loss_in(ply));
            beta = beta.min(win_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
            if let Some(s) = self.probe_tables(pos, ply) {
                return s;
            }
        }

        // The moves are generated before the table is probed: the parent prefetched this
        // node's entry, and generation is the independent work that hides the memory latency.
        pos.generate(&mut self.lists[ply]);
        let n = self.lists[ply].len();
        if n == 0 {
            return loss_in(ply);
        }
        let quiet_node = !pos.is_noisy(&self.lists[ply][0]);
        // A singular test of this node: the same node without its hash move, which must neither
        // cut on nor overwrite the node's own entry, nor prune as the whole node would.
        let excluded = self.excluded[ply];
        let excluding = excluded != NO_MOVE;
        let new_depth = if n == 1 && p.forced_extension {
            depth
        } else {
            depth - 1
        };

        // Reverse futility pruning's evaluation is computed before the probe, though a table
        // cutoff may make it useless: it is more independent work while the entry arrives.
        let rfp_node = p.rfp
            && !excluding
            && !pv_node
            && ply > 0
            && depth <= p.rfp_max_depth
            && quiet_node
            && !is_decisive(beta);
        let eval = if rfp_node { self.evaluate(pos) } else { 0 };

        let key = pos.key();
        let tt = self.shared.tt;
        let tt_entry = tt.probe(key);
        let tt_move = tt_entry.map_or(NO_MOVE, |e| e.move_index);
        if let Some(e) = tt_entry
            && p.tt_cutoffs
            && !pv_node
            && !excluding
            && e.depth as i32 >= depth
        {
            let s = from_tt(e.score as i32, ply);
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
            };
            if cut {
                return s;
            }
        }
        // A stale entry (another position under the same key) can hold an index past the list.
        let has_hash_move = (tt_move as usize) < n;

        // The hash move is searched first: its child is made now and its table entry prefetched,
        // so that the memory access overlaps the pruning tests and the ordering below (not in a
        // singular test, which leaves the hash move out).
        let mut hash_child = None;
        if has_hash_move && new_depth > 0 && !excluding {
            let m = self.lists[ply][tt_move as usize];
            hash_child = Some(made_or_make(pos, &m, None, tt, true));
        }

        if rfp_node && eval - p.rfp_margin * depth >= beta {
            return eval;
        }

        // ProbCut: the node searched again, at a fraction of the depth and a null window above
        // beta plus a margin; a score there is trusted to hold at the full depth. The shallow
        // search of the same node at the same ply regenerates this ply's move list identically
        // (or returns before touching it), so the list and the hash move's child stay valid.
        if p.probcut
            && !pv_node
            && !excluding
            && ply > 0
            && n > 1
            && depth >= p.probcut_min_depth
            && !is_decisive(beta)
        {
            let margin = p.probcut_margin * depth;
            let pc_beta = beta + margin;
            if !is_decisive(pc_beta) {
                let pc_depth = (depth * p.probcut_depth_percent / 100).clamp(1, depth - 1);
                let s = self.search(pos, pc_beta - 1, pc_beta, pc_depth, ply, false);
                if self.aborted {
                    return 0;
                }
                if s >= pc_beta {
                    // A win proven by the shallow search keeps its distance.
                    return if is_decisive(s) { s } else { s - margin };
                }
            }
        }

        // Singular extension: the node searched without its hash move, at half the depth and a
        // null window below the entry's score. Like ProbCut's, this search of the same node at
        // the same ply regenerates the ply's list identically and leaves the hash child valid.
        let mut extension = 0;
        if let Some(e) = tt_entry.filter(|e| {
            G::SINGULAR_EXTENSIONS
                && p.singular
                && !excluding
                && ply > 0
                && has_hash_move
                && n > 1
                && depth >= p.singular_min_depth
                && (ply as i32) < 2 * self.root_depth
                && e.bound != Bound::Upper
                && e.depth as i32 >= depth - p.singular_tt_depth
        }) {
            let tt_score = from_tt(e.score as i32, ply);
            let s_beta = tt_score - p.singular_margin * depth;
            if !is_decisive(tt_score) && !is_decisive(s_beta) {
                self.excluded[ply] = tt_move;
                // At least a ply deep: `singular-min-depth` is at least 3.
                let s = self.search(pos, s_beta - 1, s_beta, (depth - 1) / 2, ply, false);
                self.excluded[ply] = NO_MOVE;
                if self.aborted {
                    return 0;
                }
                if s < s_beta {
                    extension = 1;
                } else if !pv_node && s_beta >= beta {
                    // Another move reaches beta less the margin at half the depth, and so does
                    // the hash move by its entry: the node cuts.
                    return s_beta;
                }
            }
        }

        // Ordering (nothing to order for a single legal move, in draughts mostly a capture).
        if n > 1 {
            self.ordering.score_moves(
                p,
                pos,
                ply,
                self.lists[ply].as_slice(),
                tt_move,
                &mut self.order[ply],
            );
        }

        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_index = NO_MOVE;
        // Late move pruning: past the limit, quiet moves are skipped (noisy ones never are: in
        // draughts a node's moves are all captures or all quiet; Morris mixes them).
        let lmp_limit = if G::LATE_MOVE_PRUNING
            && p.lmp
            && !pv_node
            && ply > 0
            && depth <= p.lmp_max_depth
            && !is_decisive(alpha)
        {
            (p.lmp_base + (depth * depth) as usize).max(1)
        } else {
            usize::MAX
        };
        // The next move, picked and made one iteration early (see below).
        let mut ahead: Option<(u16, G)> = None;
        for i in 0..n {
            // Past the limit every move left of a quiet node is pruned: none is picked.
            if i >= lmp_limit && quiet_node && !G::MIXED_NODES {
                break;
            }
            let (idx, made) = if n == 1 {
                // A single legal move: the one index, with nothing scored.
                (0, hash_child.take())
            } else if i == 0 && has_hash_move {
                // The hash move has the one best score: it is put first without a scan.
                self.order[ply].swap(0, tt_move as usize);
                (tt_move, hash_child.take())
            } else {
                match ahead.take() {
                    Some((idx, child)) => (idx, Some(child)),
                    None => (pick(&mut self.order[ply], i), None),
                }
            };
            if idx == excluded {
                continue;
            }
            let m = self.lists[ply][idx as usize];
            let noisy = pos.is_noisy(&m);
            if i >= lmp_limit && !noisy {
                continue;
            }
            let child = made_or_make(pos, &m, made, tt, new_depth > 0);
            // From the second move on (a node that did not cut at once is likely to try them
            // all), the next move is made before this one is searched and its table entry
            // prefetched: the memory access then overlaps a whole sibling search instead of
            // just the child's move generation. The order is unchanged: picking the next move
            // early picks the same one, as no score changes in between.
            if i >= 1 && new_depth > 0 && i + 1 < n.min(lmp_limit) {
                let next = pick(&mut self.order[ply], i + 1);
                let m = self.lists[ply][next as usize];
                ahead = Some((next, made_or_make(pos, &m, None, tt, true)));
            }
            let mut score;
            if i == 0 {
                // The first move is the hash move whenever there is one (`extension` needs it).
                score = -self.search(
                    &child,
                    -beta,
                    -alpha,
                    new_depth + extension,
                    ply + 1,
                    pv_node,
                );
            } else {
                let mut r = 0;
                if p.lmr
                    && depth >= p.lmr_min_depth
                    && i >= p.lmr_min_moves
                    && !noisy
                    && !(p.killers && self.ordering.is_killer(ply, &m))
                {
                    r = self.shared.lmr[(depth as usize).min(LMR_SIZE - 1)]
                        [(i + 1).min(LMR_SIZE - 1)] as i32;
                    if pv_node {
                        r -= p.lmr_pv_less;
                    }
                    r = r.clamp(0, (new_depth - 1).max(0));
                }
                score = -self.search(&child, -alpha - 1, -alpha, new_depth - r, ply + 1, false);
                if score > alpha && r > 0 {
                    score = -self.search(&child, -alpha - 1, -alpha, new_depth, ply + 1, false);
                }
                if score > alpha && score < beta && pv_node {
                    score = -self.search(&child, -beta, -alpha, new_depth, ply + 1, true);
                }
            }
            if self.aborted {
                return 0;
            }
            // The first move of the iteration's first window (a re-search after a fail high
            // starts with the move that failed high, which `partial` already holds).
            if ply == 0 && i == 0 && self.root_first.is_none() {
                self.root_first = Some(m);
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_index = idx;
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if ply == 0 && i > 0 {
                        let it = Iteration {
                            depth: depth as u32,
                            score,
                            pv: self.root_pv(),
                        };
                        if self.prev_best.is_some() && self.root_first == self.prev_best {
                            self.report(&it, true);
                        }
                        self.partial = Some(it);
                    }
                    if alpha >= beta {
                        if !noisy {
                            // Quiet moves from `lmp_limit` on were skipped, not tried.
                            self.record_cutoff(pos, ply, depth, i.min(lmp_limit), m);
                        }
                        break;
                    }
                }
            }
        }

        if excluding {
            // Nothing stored: the node's entry is about the node with all its moves. With no
            // other move searched the test fails low.
            return best.max(original_alpha);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        tt.store(key, to_tt(best, ply), best_index, depth, bound);
        best
    }

    /// Updates killers and history after move `m` cut off: the quiet moves among the first
    /// `tried` of the ordered list were searched before it and lose history.
    fn record_cutoff(&mut self, pos: &G, ply: usize, depth: i32, tried: usize, m: G::Move) {
        let bonus = self.ordering.cutoff(self.p, pos, ply, depth, &m);
        // A singular test's left-out move was not tried.
        let excluded = self.excluded[ply];
        for j in 0..tried {
            let idx = self.order[ply][j].1;
            if idx == excluded {
                continue;
            }
            let t = self.lists[ply][idx as usize];
            if !pos.is_noisy(&t) {
                self.ordering.malus(self.p, pos, &t, bonus);
            }
        }
    }

    /// The aborted iteration's best line, if a root move beat the previous iteration's best move
    /// (searched first) at the new depth (already reported when it was found).
    fn proven_partial(&mut self) -> Option<Iteration<G::Move>> {
        if self.prev_best.is_none() || self.root_first != self.prev_best {
            return None;
        }
        self.partial.take()
    }

    /// One iteration with an aspiration window around `prev`.
    pub(crate) fn aspiration(&mut self, root: &G, depth: i32, prev: i32) -> i32 {
        let p = self.p;
        self.root_depth = depth;
        let mut delta = p.aspiration_window.max(1);
        let (mut alpha, mut beta) =
            if p.aspiration && depth >= p.aspiration_min_depth && !is_decisive(prev) {
                ((prev - delta).max(-INFINITY), (prev + delta).min(INFINITY))
            } else {
                (-INFINITY, INFINITY)
            };
        loop {
            let s = self.search(root, alpha, beta, depth, 0, true);
            if self.aborted {
                return s;
            }
            if s <= alpha && alpha > -INFINITY {
                beta = (alpha + beta) / 2;
                alpha = (s - delta).max(-INFINITY);
            } else if s >= beta && beta < INFINITY {
                beta = (s + delta).min(INFINITY);
            } else {
                return s;
            }
            delta = delta.saturating_mul(2);
            if is_decisive(s) || delta > WIN / 4 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    /// Iterative deepening up to `max_depth`; the main thread reports each completed iteration
    /// and decides when to stop. Returns the last completed iteration, or the unfinished one when
    /// the clock, the node limit or a stop ended it after it found a better move.
    pub(crate) fn iterate(&mut self, root: &G, max_depth: u32) -> Option<Iteration<G::Move>> {
        let mut last: Option<Iteration<G::Move>> = None;
        let mut prev = 0;
        let mut stability = Stability::default();
        let main = self.clock.is_some();
        let skew = if main { 0 } else { (self.id % 2) as u32 };
        for d in 1..=max_depth {
            let depth = (d + skew).min(MAX_PLY as u32 - 1);
            self.can_abort = !main || d > 1;
            self.seldepth = 0;
            self.leaf_plies = 0;
            self.leaves = 0;
            self.root_first = None;
            self.prev_best = last.as_ref().and_then(|l| l.pv.first().copied());
            self.partial = None;
            let s = self.aspiration(root, depth as i32, prev);
            if self.aborted {
                if let Some(it) = self.proven_partial() {
                    last = Some(it);
                }
                break;
            }
            prev = s;
            let it = Iteration {
                depth,
                score: s,
                pv: self.root_pv(),
            };
            self.report(&it, false);
            let changed = last.as_ref().is_some_and(|l| l.pv.first() != it.pv.first());
            last = Some(it);
            if !main && self.shared.control.is_stopped() {
                break;
            }
            if let Some(c) = &mut self.clock {
                let scale = stability.after_iteration(changed, s, is_decisive(s), c.time_params);
                c.tm.set_scale(scale, c.time_params);
                let found_end = is_decisive(s) && ((WIN - s.abs()) as u32) < depth && !c.pondering;
                let out_of_time = !c.pondering && !c.tm.start_next_iteration(c.time_params);
                let out_of_nodes = c
                    .node_limit
                    .is_some_and(|l| self.shared.total_nodes().max(self.nodes) >= l);
                if self.shared.control.is_stopped() || out_of_time || out_of_nodes || found_end {
                    break;
                }
            }
        }
        self.shared.nodes[self.id]
            .0
            .store(self.nodes, MemOrder::Relaxed);
        self.shared.tb_hits[self.id]
            .0
            .store(self.tb_hits, MemOrder::Relaxed);
        last
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::position::Position;
    use crate::draughts::rules::International;
    use crate::game::Game;

    /// A worker starts with no ply's buffers and grows them as it enters deeper plies, up to the
    /// deepest a search can enter: `enter(MAX_PLY)` (where a line ends on the evaluation), and
    /// the PV update there, which reads the row below.
    #[test]
    fn a_worker_grows_its_buffers_to_the_deepest_ply() {
        let tt = Tt::new(1);
        let control = Control::new(false);
        let params = Params::default();
        let shared = Shared::new(&tt, &control, &params, 1, None);
        let mut w = Worker::new(0, &shared, &[], None);
        assert!(w.lists.is_empty() && w.pv.is_empty());
        let pos = Position::<International>::start();
        assert_eq!(w.enter(&pos, 0), None);
        let grown = w.lists.len();
        assert!((2..MAX_PLY + 2).contains(&grown));
        let mut moves = MoveList::default();
        pos.generate(&mut moves);
        w.update_pv(0, moves[0]);
        assert_eq!(w.root_pv(), vec![moves[0]]);
        // Entering the deepest ply: a line ends there with the evaluation.
        assert_eq!(w.enter(&pos, MAX_PLY), Some(pos.evaluate()));
        assert_eq!(w.lists.len(), MAX_PLY + 2);
        assert_eq!(w.order.len(), MAX_PLY + 2);
        assert_eq!(w.pv.len(), (MAX_PLY + 2) * (MAX_PLY + 2));
        w.update_pv(MAX_PLY, moves[1]);
        // Shallower plies keep what they had.
        assert_eq!(w.root_pv(), vec![moves[0]]);
    }

    /// With `contempt`, a draw found in the tree is worth less than zero to the side to move at
    /// the root (even plies) and more to its opponent (odd plies); without, zero.
    #[test]
    fn contempt_scores_draws_against_the_root_side() {
        use crate::draughts::draw::Counters;
        use crate::draughts::rules::Russian;
        let mut pos = Position::<Russian>::from_fen("W:WK1,20,21:BK32,12").unwrap();
        let mut c = Counters::default();
        c.by_rule[0] = 60; // russian's 30 rounds without a capture: a draw by rule
        pos.set_counters(c);
        assert!(pos.draw_by_rule().is_some());
        let tt = Tt::new(1);
        let control = Control::new(false);
        let keys: [u64; 0] = [];
        for (contempt, root_side, other_side) in [("0", 0, 0), ("25", -25, 25), ("-40", 40, -40)] {
            let mut params = Params::default();
            params.set("contempt", contempt).unwrap();
            let shared = Shared::new(&tt, &control, &params, 1, None);
            let mut w = Worker::new(0, &shared, &keys, None);
            assert_eq!(w.enter(&pos, 2), Some(root_side), "contempt {contempt}");
            assert_eq!(w.enter(&pos, 1), Some(other_side), "contempt {contempt}");
        }
        // Beyond the bound it is refused by name, and held at the bound when set directly.
        let mut params = Params::default();
        assert!(params.set("contempt", "201").is_err());
        assert!(params.set("contempt", "-5000").is_err());
        assert_eq!(params.contempt, 0, "a refused value changes nothing");
        params.contempt = 5000;
        let shared = Shared::new(&tt, &control, &params, 1, None);
        let mut w = Worker::new(0, &shared, &keys, None);
        assert_eq!(w.enter(&pos, 2), Some(-MAX_CONTEMPT));
        // A table's draw too: a king against a king, from the built-in tables.
        let tables = crate::egdb::draughts::builtin::tables::<Russian>().unwrap();
        let kk = Position::<Russian>::from_fen("W:WK1:BK32").unwrap();
        params.set("contempt", "25").unwrap();
        let shared = Shared::new(&tt, &control, &params, 1, Some(&*tables));
        let mut w = Worker::new(0, &shared, &keys, None);
        assert_eq!(w.probe_tables(&kk, 2), Some(-25));
        assert_eq!(w.probe_tables(&kk, 3), Some(25));
    }
}
