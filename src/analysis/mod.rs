//! Batch analysis: many positions searched in parallel, and game review.
//!
//! - [`analyze_batch`]: searches a list of [`Job`]s (a position, or a game prefix, each under
//!   its own game if it says so) on a rayon pool, one [`Engine`] and so one table per worker for
//!   the whole batch; each search starts from an empty table, so that with depth or node limits
//!   and one thread per search the results do not depend on the number of workers or on the
//!   order. Emptying the table costs what the previous search wrote (see `tt`), so a batch of
//!   100,000 small positions or games takes seconds, not a table's zeroing each. Results come back
//!   in input order.
//! - [`review`]: the score before and after every move of a game, the engine's best move, and
//!   the mistakes, judged by how much the score dropped.
//! - [`json`]: the JSON lines `tiao analyze` writes (the schema is documented in `docs/tools.md`).
//!
//! Scores are centi-men from the side to move unless said otherwise; proven results are kept as
//! [`Score`]s (a win in `p` plies is `WIN - p`).

pub mod json;
pub mod review;

use crate::engine::{Engine, EngineOptions, Event, EventSink, MoveText};
use crate::game::color::Color;
use crate::search::{Limits, Params, Score};
use crate::variant::GameKind;
use crossbeam_channel::unbounded;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// What to search, and how.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// The game.
    pub kind: GameKind,
    /// The limits of each search (`analyze` is set: single moves are searched too).
    pub limits: Limits,
    /// Threads per search.
    pub threads: usize,
    /// Table per worker, MiB.
    pub hash_mib: usize,
    /// Searches run at the same time.
    pub jobs: usize,
    /// Search parameters.
    pub params: Params,
    /// Endgame tables.
    pub egdb: crate::engine::EgdbSetting,
}

impl Settings {
    /// Searches of `kind` within `limits`: one thread each, 16 MiB tables, as many at once as
    /// there are cores, default parameters.
    pub fn new(kind: GameKind, limits: Limits) -> Settings {
        Settings {
            kind,
            limits,
            threads: 1,
            hash_mib: 16,
            jobs: default_jobs(1),
            params: Params::default(),
            egdb: crate::engine::EgdbSetting::Default,
        }
    }

    /// The searches run at once on a batch of `jobs` jobs (a table each).
    pub fn workers(&self, jobs: usize) -> usize {
        self.jobs.clamp(1, jobs.max(1))
    }

    /// Refuses up front `workers` tables of `hash_mib` that the machine cannot give at once.
    pub fn check_memory(&self, workers: usize) -> Result<(), String> {
        let what = format!(
            "{workers} searches at once (--jobs) x {} MiB each (--hash)",
            self.hash_mib
        );
        let total = (self.hash_mib as u64).saturating_mul(workers as u64);
        crate::memory::check(&what, total).map_err(|e| e.to_string())
    }
}

/// A position to analyse: a FEN (or the start) and moves played from it, under a game of its own
/// (a PDN game's tags) or the batch's.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Job {
    pub fen: Option<String>,
    pub moves: Vec<String>,
    /// The game, when not [`Settings::kind`].
    pub kind: Option<GameKind>,
}

/// The analysis of one position.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// The position analysed.
    pub fen: String,
    /// Its side to move.
    pub side: Color,
    /// The best move, `None` when there is no legal move (the side to move has lost).
    pub best: Option<MoveText>,
    /// The score, side to move.
    pub score: Score,
    /// Depth of the last completed iteration.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// The principal variation.
    pub pv: Vec<MoveText>,
    /// Nodes searched.
    pub nodes: u64,
    /// Time spent.
    pub time: Duration,
}

/// The default number of parallel searches: the cores, divided among the search threads.
pub fn default_jobs(threads: usize) -> usize {
    (crate::engine::cores() / threads.max(1)).max(1)
}

/// Searches one job with `engine`, from an empty table.
pub fn analyze_one(engine: &mut Engine, job: &Job, limits: &Limits) -> Result<Analysis, String> {
    if let Some(kind) = job.kind
        && kind != engine.kind()
    {
        engine.set_game(kind).map_err(|e| e.to_string())?;
    }
    engine.new_game();
    let moves: Vec<&str> = job.moves.iter().map(String::as_str).collect();
    engine
        .set_position(job.fen.as_deref(), &moves)
        .map_err(|e| e.to_string())?;
    let fen = engine.fen();
    let side = if fen.starts_with('B') {
        Color::Black
    } else {
        Color::White
    };
    let (tx, rx) = unbounded();
    let sink: EventSink = Arc::new(move |e: Event| {
        let _ = tx.send(e);
    });
    let limits = Limits {
        analyze: true,
        ..limits.clone()
    };
    // On this thread: the batch's workers are the parallelism, and a search thread per job
    // would cost a start, a hand-over and a join, each a wait for a core on a loaded machine.
    engine
        .search_here(limits, sink)
        .map_err(|e| e.to_string())?;
    let mut last = None;
    let done = loop {
        match rx.try_recv() {
            Ok(Event::Info(i)) => last = Some(i),
            Ok(Event::Done(d)) => break d,
            Err(_) => return Err("the search ended without a result".into()),
        }
    };
    let (seldepth, pv) = match last {
        Some(i) => (i.seldepth, i.pv),
        None => (done.depth, done.best.iter().cloned().collect()),
    };
    Ok(Analysis {
        fen,
        side,
        best: done.best,
        score: done.score,
        depth: done.depth,
        seldepth,
        pv,
        nodes: done.nodes,
        time: done.time,
    })
}

/// Analyses every job on `settings.jobs` workers. `on_result` is called on the calling thread
/// with each result in input order (index, result); `on_progress` with the number finished.
pub fn analyze_batch(
    settings: &Settings,
    jobs: &[Job],
    on_result: &mut dyn FnMut(usize, Result<Analysis, String>),
    on_progress: &mut dyn FnMut(usize),
) -> Result<(), String> {
    if jobs.is_empty() {
        return Ok(());
    }
    let workers = settings.workers(jobs.len());
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(workers)
        .thread_name(|i| format!("analysis-{i}"))
        .build()
        .map_err(|e| e.to_string())?;
    let options = EngineOptions {
        threads: settings.threads,
        hash_mib: settings.hash_mib,
        params: settings.params.clone(),
        egdb: settings.egdb.clone(),
        ..EngineOptions::default()
    };
    // Fail early (unsupported game) rather than once per job, without allocating a table; and
    // refuse up front tables that the machine cannot give all at once.
    crate::engine::session_for(settings.kind).map_err(|e| e.to_string())?;
    settings.check_memory(workers)?;
    let worker_error = std::sync::Mutex::new(None::<String>);
    let next = AtomicUsize::new(0);
    let (tx, rx) = unbounded::<(usize, Result<Analysis, String>)>();
    let mut pending = BTreeMap::new();
    let mut emitted = 0;
    pool.in_place_scope(|s| {
        for _ in 0..workers {
            let tx = tx.clone();
            let (next, options, worker_error) = (&next, &options, &worker_error);
            s.spawn(move |_| {
                let mut engine = match Engine::new(settings.kind, options.clone()) {
                    Ok(e) => e,
                    Err(e) => {
                        if let Ok(mut first) = worker_error.lock() {
                            first.get_or_insert_with(|| e.to_string());
                        }
                        return;
                    }
                };
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= jobs.len() {
                        break;
                    }
                    let r = analyze_one(&mut engine, &jobs[i], &settings.limits);
                    if tx.send((i, r)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut finished = 0;
        for (i, r) in rx.iter() {
            finished += 1;
            on_progress(finished);
            pending.insert(i, r);
            while let Some(r) = pending.remove(&emitted) {
                on_result(emitted, r);
                emitted += 1;
            }
        }
    });
    if emitted < jobs.len() {
        let why = worker_error
            .into_inner()
            .ok()
            .flatten()
            .unwrap_or_else(|| "a worker could not start".into());
        return Err(format!(
            "{} positions were not analysed ({why})",
            jobs.len() - emitted
        ));
    }
    Ok(())
}

/// A score seen from the other side, one ply earlier: a heuristic score negated, a win in `p`
/// plies for the side to move a loss in `p + 1` for the side that just moved.
pub fn parent_view(s: Score) -> Score {
    use crate::search::ScoreKind;
    use crate::search::score::{loss_in, win_in};
    match s.kind() {
        ScoreKind::Eval(c) => Score(-c),
        ScoreKind::Win(p) => Score(loss_in(p as usize + 1)),
        ScoreKind::Loss(p) => Score(win_in(p as usize + 1)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Variant;
    use crate::search::ScoreKind;

    fn settings(jobs: usize) -> Settings {
        Settings {
            hash_mib: 1,
            jobs,
            ..Settings::new(GameKind::new(Variant::International), Limits::depth(4))
        }
    }

    #[test]
    fn batches_come_back_in_order_and_do_not_depend_on_workers() {
        let jobs: Vec<Job> = ["32-28", "33-28", "34-29", "31-26", "35-30"]
            .iter()
            .map(|m| Job {
                fen: None,
                moves: vec![m.to_string()],
                kind: None,
            })
            .collect();
        let mut runs = Vec::new();
        for workers in [1, 2] {
            let mut out = Vec::new();
            let mut last_progress = 0;
            analyze_batch(
                &settings(workers),
                &jobs,
                &mut |i, r| out.push((i, r.unwrap())),
                &mut |n| last_progress = n,
            )
            .unwrap();
            assert_eq!(last_progress, 5);
            assert_eq!(
                out.iter().map(|(i, _)| *i).collect::<Vec<_>>(),
                [0, 1, 2, 3, 4]
            );
            for (_, a) in &out {
                assert_eq!(a.side, Color::Black);
                assert_eq!(a.depth, 4);
                assert!(a.best.is_some());
            }
            runs.push(out);
        }
        // Everything but the time is the same with one worker or two.
        let key = |out: &Vec<(usize, Analysis)>| {
            out.iter()
                .map(|(_, a)| (a.best.clone(), a.score, a.depth, a.nodes, a.pv.clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(key(&runs[0]), key(&runs[1]));
    }

    #[test]
    fn lost_positions_and_bad_jobs() {
        let mut out = Vec::new();
        let jobs = [
            Job {
                fen: Some("W:W:B1".into()),
                ..Job::default()
            },
            Job {
                moves: vec!["32-99".into()],
                ..Job::default()
            },
        ];
        analyze_batch(&settings(1), &jobs, &mut |_, r| out.push(r), &mut |_| {}).unwrap();
        let lost = out[0].as_ref().unwrap();
        assert_eq!(lost.best, None);
        assert_eq!(lost.score.kind(), ScoreKind::Loss(0));
        assert!(out[1].is_err());
    }

    #[test]
    fn parent_view_moves_distances_one_ply() {
        use crate::search::score::{loss_in, win_in};
        assert_eq!(parent_view(Score(35)), Score(-35));
        assert_eq!(parent_view(Score(win_in(3))), Score(loss_in(4)));
        assert_eq!(parent_view(Score(loss_in(0))), Score(win_in(1)));
    }
}
