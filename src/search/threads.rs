//! Lazy SMP: every thread searches the same root with its own killers, history and stacks,
//! sharing only the transposition table (and the stop signal).
//!
//! Thread 0 is the main thread: it keeps time, checks the node limit, reports each iteration and
//! decides the move; when it finishes it raises the stop signal, hands the result over at once,
//! and the helpers end on their own (within `clock-check-nodes` nodes of their own). Helpers with
//! an odd id search one ply deeper than the main thread's iteration number, so the threads do not
//! all search the same depth in step. Threads are scoped: they borrow the root, the table and the
//! signals, and are joined before [`run`] returns, after the result was handed over: on a loaded
//! machine a helper may wait many milliseconds for a core before it sees the stop signal, and the
//! answer does not wait for it.

use super::alphabeta::{Clock, Iteration, Shared, Worker};
use super::score::{MAX_PLY, Score};
use super::{Control, Limits, OnReport, Report, SearchOptions, SearchResult, reply_at};
use crate::egdb::Probe;
use crate::game::Evaluate;
use crate::game::MoveList;
use crate::search::time::TimeManager;
use crate::search::tt::Tt;
use std::time::Instant;

/// What one search is given (see [`search`](super::search)), and when it started.
pub(crate) struct Job<'a, G: Evaluate> {
    pub(crate) root: &'a G,
    pub(crate) history: &'a [u64],
    pub(crate) limits: &'a Limits,
    pub(crate) options: &'a SearchOptions,
    pub(crate) tables: Option<&'a dyn Probe<G>>,
    pub(crate) tt: &'a Tt,
    pub(crate) control: &'a Control,
    pub(crate) start: Instant,
}

/// Runs the search of `job.root` on `options.threads` threads (the calling thread is the main
/// one).
pub(crate) fn run<G: Evaluate>(
    job: &Job<'_, G>,
    on_report: OnReport<'_, G::Move>,
    on_result: &mut dyn FnMut(&SearchResult<G::Move>),
) -> SearchResult<G::Move> {
    let threads = job.options.threads.max(1);
    let shared = Shared::new(
        job.tt,
        job.control,
        &job.options.params,
        threads,
        job.tables,
    );
    let max_depth = job
        .limits
        .depth
        .unwrap_or(MAX_PLY as u32 - 1)
        .clamp(1, MAX_PLY as u32 - 1);
    let clock = Clock {
        start: job.start,
        // Re-wrapped so that the reference coerces to the clock's shorter lifetime.
        on_report: on_report.map(|f| f as &mut dyn FnMut(&Report<G::Move>)),
        tm: TimeManager::new(job.limits, job.start, &job.options.time),
        time_params: &job.options.time,
        pondering: job.limits.ponder && job.control.is_pondering(),
        node_limit: job.limits.nodes,
    };
    std::thread::scope(|s| {
        for id in 1..threads {
            let shared = &shared;
            s.spawn(move || {
                let mut w = Worker::<G>::new(id, shared, job.history, None);
                w.iterate(job.root, MAX_PLY as u32 - 2);
            });
        }
        let mut main = Worker::<G>::new(0, &shared, job.history, Some(clock));
        let last = main.iterate(job.root, max_depth);
        job.control.stop();
        // The helpers' counts as last published (they publish every few thousand nodes).
        let nodes = shared.total_nodes().max(main.nodes);
        let result = result_of(job.root, job.tt, last, nodes, job.start);
        on_result(&result);
        result
    })
}

/// The answer of the main thread's last iteration (a legal move whenever the root has one).
fn result_of<G: Evaluate>(
    root: &G,
    tt: &Tt,
    last: Option<Iteration<G::Move>>,
    nodes: u64,
    start: Instant,
) -> SearchResult<G::Move> {
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
