//! Lazy SMP: every thread searches the same root with its own killers, history and stacks,
//! sharing only the transposition table (and the stop signal).
//!
//! Thread 0 is the main thread: it keeps time, checks the node limit, reports each iteration and
//! decides the move; when it finishes it raises the stop signal and the helpers end. Helpers with
//! an odd id search one ply deeper than the main thread's iteration number, so the threads do not
//! all search the same depth in step. Threads are scoped: they borrow the root, the table and the
//! signals, and are joined before [`run`] returns.

use super::alphabeta::{Clock, Iteration, Shared, Worker};
use super::score::{MAX_PLY, Score};
use super::{Control, Limits, Report, SearchOptions, SearchResult, reply_at};
use crate::game::Evaluate;
use crate::game::MoveList;
use crate::time::TimeManager;
use crate::tt::Tt;
use std::time::Instant;

/// Runs the search of `root` on `options.threads` threads (the calling thread is the main one).
#[allow(clippy::too_many_arguments)]
pub(crate) fn run<G: Evaluate>(
    root: &G,
    history: &[u64],
    limits: &Limits,
    options: &SearchOptions,
    tt: &Tt,
    control: &Control,
    start: Instant,
    on_report: &mut dyn FnMut(&Report<G::Move>),
) -> SearchResult<G::Move> {
    let threads = options.threads.max(1);
    let shared = Shared::new(tt, control, &options.params, threads);
    let max_depth = limits
        .depth
        .unwrap_or(MAX_PLY as u32 - 1)
        .clamp(1, MAX_PLY as u32 - 1);
    let clock = Clock {
        tm: TimeManager::new(limits, start, &options.time),
        time_params: &options.time,
        pondering: limits.ponder && control.is_pondering(),
        node_limit: limits.nodes,
    };
    let (last, main_nodes) = std::thread::scope(|s| {
        for id in 1..threads {
            let shared = &shared;
            s.spawn(move || {
                let mut w = Worker::<G>::new(id, shared, history, None);
                w.iterate(root, MAX_PLY as u32 - 2, &mut |_, _| {});
            });
        }
        let mut main = Worker::<G>::new(0, &shared, history, Some(clock));
        let mut report = |w: &mut Worker<'_, G>, it: &Iteration<G::Move>| {
            let nodes = w.nodes + w.shared.total_nodes()
                - w.shared.nodes[0]
                    .0
                    .load(std::sync::atomic::Ordering::Relaxed);
            on_report(&Report {
                depth: it.depth,
                seldepth: w.seldepth as u32,
                mean_depth: if w.leaves > 0 {
                    w.leaf_plies as f64 / w.leaves as f64
                } else {
                    it.depth as f64
                },
                score: Score(it.score),
                nodes,
                time: start.elapsed(),
                pv: it.pv.clone(),
                hashfull: w.shared.tt.hashfull(),
            });
        };
        let last = main.iterate(root, max_depth, &mut report);
        control.stop();
        (last, main.nodes)
    });
    let nodes = shared.total_nodes().max(main_nodes);
    let last = last.unwrap_or_else(|| Iteration {
        depth: 0,
        score: 0,
        pv: Vec::new(),
    });
    let mut best = last.pv.first().copied();
    if best.is_none() {
        // Only possible if the root's first iteration produced no PV: fall back on a legal move.
        let mut l = MoveList::default();
        root.generate(&mut l);
        best = l.as_slice().first().copied();
    }
    let ponder = last.pv.get(1).copied().or_else(|| {
        let m = best?;
        let child = root.make(&m);
        tt.probe(child.key())
            .and_then(|d| reply_at(&child, d.move_index))
    });
    SearchResult {
        best,
        ponder,
        score: Score(last.score),
        depth: last.depth,
        nodes,
        time: start.elapsed(),
        pv: last.pv,
    }
}
