//! `tiao.Engine` and `tiao.Analysis`: searches of positions, one at a time (`analyse`, stoppable
//! from another thread) or in batches (`analyse_many`, in parallel on the engine's threads).
//!
//! The engine is the library's facade ([`tiao::engine::Engine`]): `analyse` starts its background
//! search and waits for the `Done` event without the GIL, taking the GIL back between events only
//! to call the `on_info` callback and to let Ctrl-C through. `analyse_many` runs the library's
//! per-position batch step ([`tiao::analysis::analyze_one`]) on one worker engine per thread,
//! kept between calls, each search from an empty table so that results do not depend on the
//! order or the number of threads.
//!
//! The opening book (as in the Hub): on unless `Engine(book=False)` or `set_option("book",
//! False)`. An `analyse` with a limit in a position the book holds is answered from the book at
//! once (the facade's book answer: depth 0, no nodes), its `Analysis` marked `book=True`; an
//! `analyse` without a limit (until `stop()`) and `analyse_many` always search (the batch's
//! workers have no book).
//!
//! Locking: the Python object is frozen and shares its state between threads; the engine's lock
//! is only ever taken without the GIL and held for short, GIL-free steps (never while a search
//! runs), so `stop()` from another thread always gets it. Invariant: a search started by
//! `analyse` sends exactly one `Done` (the library's promise), which ends the wait.

use crate::errors::{Kind, engine_error, raise};
use crate::game::color_name;
use crate::position::{Position, in_range, kind_of, quoted};
use crossbeam_channel::{RecvTimeoutError, unbounded};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, TryLockError};
use std::time::Duration;
use tiao::engine::{
    BookOptions, Done, EngineError, EngineOptions, Event, EventSink, Info, MAX_HASH_MIB,
    MAX_THREADS, MoveText,
};
use tiao::game::color::Color;
use tiao::search::{Limits, Score, ScoreKind};
use tiao::variant::GameKind;

/// Deepest search accepted, in plies (the search's stack holds `MAX_PLY`).
const MAX_DEPTH: i64 = tiao::search::score::MAX_PLY as i64 - 1;
/// Longest move time accepted, in seconds (as the command line).
const MAX_SECONDS: f64 = 1e7;
/// How often a waiting call takes the GIL back to let Ctrl-C through.
const POLL: Duration = Duration::from_millis(50);

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A position to search, as the engine takes it: the game, its start and its moves (so that the
/// search knows the history), and what the position is now.
struct Job {
    kind: GameKind,
    start: String,
    moves: Vec<String>,
    fen: String,
    side: Color,
}

impl Job {
    fn of_position(p: &Position) -> Job {
        Job {
            kind: p.kind(),
            start: p.track().start_fen(),
            moves: p.hub_moves(),
            fen: p.track().fen(),
            side: p.track().side(),
        }
    }
}

/// The search limits given (none: until `stop()`).
fn limits_of(depth: Option<i64>, movetime: Option<f64>, nodes: Option<i64>) -> PyResult<Limits> {
    let depth = depth
        .map(|d| in_range("depth", d, 1, MAX_DEPTH))
        .transpose()?;
    let nodes = nodes
        .map(|n| in_range("nodes", n, 1, i64::MAX))
        .transpose()?;
    let move_time = match movetime {
        Some(t) if t.is_finite() && t > 0.0 && t <= MAX_SECONDS => Some(Duration::from_secs_f64(t)),
        Some(t) => {
            return Err(raise(
                Kind::Option,
                format!("movetime: {t} is not a number of seconds above 0 (at most {MAX_SECONDS})"),
            ));
        }
        None => None,
    };
    let infinite = depth.is_none() && nodes.is_none() && move_time.is_none();
    Ok(Limits {
        depth: depth.map(|d| d as u32),
        nodes: nodes.map(|n| n as u64),
        move_time,
        infinite,
        analyze: true,
        ..Limits::default()
    })
}

/// What a search found.
///
/// `score` is in centi-men (100 = one man; Morris: one piece) from the side to move, or `None`
/// when the result is proven: then `win_in` (the side to move wins) or `loss_in` (it loses) is the
/// distance in plies. Moves are in Hub form (`best_move`, `ponder`, `pv`) with the PDN form beside
/// them (`best_move_pdn`, `pv_pdn`). `best_move` is `None` only when the side to move has no legal
/// move (it has lost). `time` is in seconds. `book` is `True` when the move comes from the
/// opening book, not from a search (then `depth`, `nodes` and `time` are 0, `score` is the move's
/// value in the book and `pv` the move alone).
#[pyclass(module = "tiao", frozen, get_all, eq)]
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// The position searched.
    pub fen: String,
    /// Its side to move.
    pub turn: String,
    pub best_move: Option<String>,
    pub best_move_pdn: Option<String>,
    pub ponder: Option<String>,
    pub pv: Vec<String>,
    pub pv_pdn: Vec<String>,
    pub score: Option<i32>,
    pub win_in: Option<u32>,
    pub loss_in: Option<u32>,
    pub depth: u32,
    pub seldepth: u32,
    pub nodes: u64,
    pub time: f64,
    /// The move comes from the opening book.
    pub book: bool,
    /// The score as people read it (`+0.25`, `win in 7 plies`).
    score_text: String,
}

impl Analysis {
    fn new(fen: String, side: Color, score: Score, pv: &[MoveText]) -> Analysis {
        let (score_cm, win_in, loss_in) = match score.kind() {
            ScoreKind::Eval(c) => (Some(c), None, None),
            ScoreKind::Win(p) => (None, Some(p), None),
            ScoreKind::Loss(p) => (None, None, Some(p)),
        };
        Analysis {
            fen,
            turn: color_name(side).to_string(),
            best_move: pv.first().map(|m| m.hub.clone()),
            best_move_pdn: pv.first().map(|m| m.pdn.clone()),
            ponder: pv.get(1).map(|m| m.hub.clone()),
            pv: pv.iter().map(|m| m.hub.clone()).collect(),
            pv_pdn: pv.iter().map(|m| m.pdn.clone()).collect(),
            score: score_cm,
            win_in,
            loss_in,
            depth: 0,
            seldepth: 0,
            nodes: 0,
            time: 0.0,
            book: false,
            score_text: score.to_string(),
        }
    }

    /// An iteration's report.
    fn of_info(job: &Job, i: &Info) -> Analysis {
        Analysis {
            depth: i.depth,
            seldepth: i.seldepth,
            nodes: i.nodes,
            time: i.time.as_secs_f64(),
            book: i.book,
            ..Analysis::new(job.fen.clone(), job.side, i.score, &i.pv)
        }
    }

    /// The end of a search, with its last report's line (the best move alone when it made none,
    /// or when its line starts with another move); a book move when that report says so.
    fn of_done(job: &Job, d: &Done, last: Option<&Info>) -> Analysis {
        let mut pv: Vec<MoveText> = match last {
            Some(i) if i.pv.first() == d.best.as_ref() => i.pv.clone(),
            _ => d.best.iter().cloned().collect(),
        };
        if pv.len() == 1
            && let Some(p) = &d.ponder
        {
            pv.push(p.clone());
        }
        Analysis {
            depth: d.depth,
            seldepth: last.map_or(d.depth, |i| i.seldepth),
            nodes: d.nodes,
            time: d.time.as_secs_f64(),
            book: last.is_some_and(|i| i.book && i.pv.first() == d.best.as_ref()),
            ..Analysis::new(job.fen.clone(), job.side, d.score, &pv)
        }
    }

    /// A batch's result.
    fn of_batch(a: &tiao::analysis::Analysis) -> Analysis {
        Analysis {
            depth: a.depth,
            seldepth: a.seldepth,
            nodes: a.nodes,
            time: a.time.as_secs_f64(),
            ..Analysis::new(a.fen.clone(), a.side, a.score, &a.pv)
        }
    }
}

#[pymethods]
impl Analysis {
    /// The score as people read it: `+0.25` (men from the side to move), `win in 7 plies`,
    /// `loss in 4 plies`.
    #[getter]
    fn score_text(&self) -> &str {
        &self.score_text
    }

    /// to_dict() -> dict
    ///
    /// Every field in a dict (for `json.dumps`, or a pandas DataFrame of many analyses).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("fen", &self.fen)?;
        d.set_item("turn", &self.turn)?;
        d.set_item("best_move", &self.best_move)?;
        d.set_item("best_move_pdn", &self.best_move_pdn)?;
        d.set_item("ponder", &self.ponder)?;
        d.set_item("pv", &self.pv)?;
        d.set_item("pv_pdn", &self.pv_pdn)?;
        d.set_item("score", self.score)?;
        d.set_item("win_in", self.win_in)?;
        d.set_item("loss_in", self.loss_in)?;
        d.set_item("score_text", &self.score_text)?;
        d.set_item("depth", self.depth)?;
        d.set_item("seldepth", self.seldepth)?;
        d.set_item("nodes", self.nodes)?;
        d.set_item("time", self.time)?;
        d.set_item("book", self.book)?;
        Ok(d)
    }

    fn __repr__(&self) -> String {
        format!(
            "<Analysis best_move={} score={} depth={} nodes={} pv={}{}>",
            self.best_move.as_deref().unwrap_or("None"),
            self.score_text,
            self.depth,
            self.nodes,
            self.pv.join(" "),
            if self.book { " book" } else { "" }
        )
    }
}

/// The worker engines of `analyse_many`, kept between calls while the game and options stay.
#[derive(Default)]
struct Workers {
    made_for: Option<(GameKind, EngineOptions)>,
    engines: Vec<tiao::engine::Engine>,
}

/// The search engine: a game, search threads and a transposition table.
///
/// >>> engine = tiao.Engine("international", threads=2, hash_mb=64)
/// >>> start = tiao.Position("international")
/// >>> a = engine.analyse(start, depth=10)
/// >>> a.best_move in start.legal_moves()
/// True
///
/// Engine(variant="international", threads=1, hash_mb=64, draw_rules="standard", book=True):
/// `threads` search threads, 1..=256 (more than the machine's cores are accepted but share
/// them); `hash_mb` the transposition table in MiB, 1..=65536 (a size larger than the memory
/// available now raises `OptionError`); `book`: play from the opening book (as the Hub does:
/// `analyse` with a limit answers a book position with a book move, `Analysis.book` True).
///
/// `analyse` searches one position with all the threads; `analyse_many` searches many, one per
/// thread at a time. Both run without the GIL, so other Python threads go on meanwhile, and
/// `stop()` from another thread ends what is running.
#[pyclass(module = "tiao", frozen)]
pub struct Engine {
    inner: Mutex<tiao::engine::Engine>,
    workers: Mutex<Workers>,
    /// Set by `stop()`: a running batch takes no more positions.
    batch_stop: AtomicBool,
    batch_running: AtomicBool,
}

impl Engine {
    /// The engine's game, and a job for a `Position` or a FEN (of the engine's game).
    fn job(&self, py: Python<'_>, position: &Bound<'_, PyAny>) -> PyResult<Job> {
        let kind = py.detach(|| lock(&self.inner).kind());
        if let Ok(p) = position.cast::<Position>() {
            let p = p.try_borrow()?;
            if p.kind() != kind {
                return Err(raise(
                    Kind::Variant,
                    format!(
                        "the position is {} ({} draw rules) but the engine plays {} ({} draw \
                         rules)",
                        p.kind().variant,
                        p.kind().draw_rules,
                        kind.variant,
                        kind.draw_rules
                    ),
                ));
            }
            return Ok(Job::of_position(&p));
        }
        let fen: String = position.extract().map_err(|_| {
            pyo3::exceptions::PyTypeError::new_err(format!(
                "expected a tiao.Position or a FEN string, got {}",
                position
                    .get_type()
                    .name()
                    .map_or("?".to_string(), |n| n.to_string())
            ))
        })?;
        let p = Position::build(kind, Some(&fen), &[])?;
        Ok(Job::of_position(&p))
    }

    /// Stops the running single search, if any, without the GIL.
    fn stop_search(&self, py: Python<'_>) {
        py.detach(|| lock(&self.inner).stop())
    }
}

#[pymethods]
impl Engine {
    #[new]
    #[pyo3(signature = (variant = "international", threads = 1, hash_mb = 64, draw_rules = "standard", book = true))]
    fn new(
        py: Python<'_>,
        variant: &str,
        threads: i64,
        hash_mb: i64,
        draw_rules: &str,
        book: bool,
    ) -> PyResult<Engine> {
        let kind = kind_of(variant, draw_rules)?;
        let threads = in_range("threads", threads, 1, MAX_THREADS as i64)? as usize;
        let hash_mib = in_range("hash_mb", hash_mb, 1, MAX_HASH_MIB as i64)? as usize;
        let options = EngineOptions {
            threads,
            hash_mib,
            book: if book {
                BookOptions::on()
            } else {
                BookOptions::default()
            },
            ..EngineOptions::default()
        };
        let inner = py
            .detach(|| tiao::engine::Engine::new(kind, options))
            .map_err(engine_error)?;
        Ok(Engine {
            inner: Mutex::new(inner),
            workers: Mutex::new(Workers::default()),
            batch_stop: AtomicBool::new(false),
            batch_running: AtomicBool::new(false),
        })
    }

    /// The variant the engine plays.
    #[getter]
    fn variant(&self, py: Python<'_>) -> &'static str {
        py.detach(|| lock(&self.inner).kind().variant.name())
    }

    /// Its draw-rule set.
    #[getter]
    fn draw_rules(&self, py: Python<'_>) -> &'static str {
        py.detach(|| lock(&self.inner).kind().draw_rules.name())
    }

    /// Search threads (and parallel searches of `analyse_many`).
    #[getter]
    fn threads(&self, py: Python<'_>) -> usize {
        py.detach(|| lock(&self.inner).options().threads)
    }

    /// The transposition table's size in MiB.
    #[getter]
    fn hash_mb(&self, py: Python<'_>) -> usize {
        py.detach(|| lock(&self.inner).options().hash_mib)
    }

    /// Whether `analyse` plays from the opening book (option `book`).
    #[getter]
    fn book(&self, py: Python<'_>) -> bool {
        py.detach(|| lock(&self.inner).options().book.enabled)
    }

    /// The seed of the book's choices among its moves within `book-margin` of the best
    /// (option `book-seed`: the one given, or the engine's own).
    #[getter]
    fn book_seed(&self, py: Python<'_>) -> u64 {
        py.detach(|| lock(&self.inner).book_seed())
    }

    /// The book's moves of `position` (a `Position` or a FEN of the engine's game), best first,
    /// as `(move, score)` pairs (Hub form, centi-men for the side to move); `None` when the
    /// book is off or does not hold the position. Does not change the engine's position for
    /// anything but the next search, which sets its own.
    fn book_moves(
        &self,
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
    ) -> PyResult<Option<Vec<(String, i32)>>> {
        let job = self.job(py, position)?;
        py.detach(|| {
            let mut engine = lock(&self.inner);
            let moves: Vec<&str> = job.moves.iter().map(String::as_str).collect();
            engine.set_position(Some(&job.start), &moves)?;
            Ok(engine.book_moves().map(|v| {
                v.into_iter()
                    .map(|b| (b.mv.hub, b.score.0))
                    .collect::<Vec<_>>()
            }))
        })
        .map_err(engine_error)
    }

    /// Whether a search or a batch is running.
    #[getter]
    fn searching(&self, py: Python<'_>) -> bool {
        py.detach(|| self.batch_running.load(Ordering::SeqCst) || lock(&self.inner).is_searching())
    }

    /// set_option(name, value) -> None
    ///
    /// Sets an option as the Hub `set-param` does: `threads`, `hash` (MiB), `variant`,
    /// `draw-rules`, `move-overhead` (ms), the opening book's `book` (bool), `book-file` (a book
    /// file built by `tiao book build`; `"default"`: the embedded book), `book-ply`,
    /// `book-margin` (centi-men), `book-seed`, or a search parameter by name (`_` may stand for
    /// `-`). Stops a running search first. Raises `OptionError` (the engine's message: for a bad
    /// `book-file`, the file and what is wrong with it) and changes nothing on a bad name or
    /// value.
    fn set_option(&self, py: Python<'_>, name: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let value = match value.extract::<bool>() {
            Ok(b) if value.is_instance_of::<pyo3::types::PyBool>() => b.to_string(),
            _ => value.str()?.to_string(),
        };
        py.detach(|| lock(&self.inner).set_option(name, &value))
            .map_err(|e| match e {
                EngineError::BadOption { .. } | EngineError::Memory(_) => {
                    raise(Kind::Option, e.to_string())
                }
                e => engine_error(e),
            })
    }

    /// new_game() -> None
    ///
    /// Forgets what the previous searches learnt (clears the table). Stops a running search.
    fn new_game(&self, py: Python<'_>) {
        py.detach(|| lock(&self.inner).new_game())
    }

    /// stop() -> None
    ///
    /// Ends the running search: `analyse` returns at once with the best move found so far;
    /// `analyse_many` takes no more positions (those being searched finish their limits) and
    /// returns the analyses finished, in order. Callable from any thread; does nothing when
    /// nothing runs.
    fn stop(&self, py: Python<'_>) {
        self.batch_stop.store(true, Ordering::SeqCst);
        self.stop_search(py)
    }

    /// analyse(position, depth=None, movetime=None, nodes=None, *, on_info=None) -> Analysis
    ///
    /// Searches `position` (a `Position`, whose moves are the history the search checks
    /// repetitions against, or a FEN of the engine's game) with all the engine's threads, until
    /// a limit is reached: `depth` plies (1..=127), `movetime` seconds, `nodes`. With no limit
    /// it searches until `stop()` is called from another thread (or Ctrl-C). Runs without the
    /// GIL. `on_info`, if given, is called with an `Analysis` after each completed iteration (on
    /// this thread, with the GIL); an exception it raises stops the search and is raised here.
    ///
    /// With the book on (the default) and a limit, a position the book holds is answered at
    /// once with a book move, without a search: `Analysis.book` is True, depth and nodes 0 (the
    /// choice as the Hub's: within `book-margin` of the best before `book-ply` plies of the
    /// position's moves, the best from then on).
    ///
    /// Raises `VariantError` for a position of another game, `BusyError` when a search is
    /// already running on this engine.
    #[pyo3(signature = (position, depth = None, movetime = None, nodes = None, *, on_info = None))]
    fn analyse(
        &self,
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
        depth: Option<i64>,
        movetime: Option<f64>,
        nodes: Option<i64>,
        on_info: Option<Bound<'_, PyAny>>,
    ) -> PyResult<Analysis> {
        let mut limits = limits_of(depth, movetime, nodes)?;
        let job = self.job(py, position)?;
        let (tx, rx) = unbounded::<Event>();
        let sink: EventSink = Arc::new(move |e: Event| {
            let _ = tx.send(e);
        });
        py.detach(|| {
            let mut engine = lock(&self.inner);
            let moves: Vec<&str> = job.moves.iter().map(String::as_str).collect();
            engine.set_position(Some(&job.start), &moves)?;
            // A search for a move (not an analysis) is what the facade answers from its book,
            // as the Hub's `go think`; a search without a limit stays an analysis.
            if !limits.infinite && engine.book_moves().is_some() {
                limits.analyze = false;
            }
            engine.go(limits, sink)
        })
        .map_err(engine_error)?;
        let mut last: Option<Info> = None;
        let mut failure: Option<PyErr> = None;
        let done = loop {
            match py.detach(|| rx.recv_timeout(POLL)) {
                Ok(Event::Info(i)) => {
                    if let (Some(f), None) = (&on_info, &failure)
                        && let Err(e) = f.call1((Analysis::of_info(&job, &i),))
                    {
                        failure = Some(e);
                        self.stop_search(py);
                    }
                    last = Some(i);
                }
                Ok(Event::Done(d)) => break d,
                Err(RecvTimeoutError::Timeout) => {
                    if failure.is_none()
                        && let Err(e) = py.check_signals()
                    {
                        failure = Some(e);
                        self.stop_search(py);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(PyRuntimeError::new_err("the search ended without a result"));
                }
            }
        };
        match failure {
            Some(e) => Err(e),
            None => Ok(Analysis::of_done(&job, &done, last.as_ref())),
        }
    }

    /// analyse_many(positions, depth=None, movetime=None, nodes=None) -> list[Analysis]
    ///
    /// Searches every position (`Position`s or FENs of the engine's game) within the limits
    /// (at least one is needed; the opening book is never used), `threads` positions at a time, each with one thread and an
    /// empty table of `hash_mb / threads` MiB: the results do not depend on the order or on the
    /// number of threads (with depth or node limits). Returns the analyses in input order.
    /// Runs without the GIL. `stop()` (from another thread) or Ctrl-C ends the batch early:
    /// `stop()` returns the analyses finished before the first unfinished position, Ctrl-C
    /// raises `KeyboardInterrupt`.
    #[pyo3(signature = (positions, depth = None, movetime = None, nodes = None))]
    fn analyse_many(
        &self,
        py: Python<'_>,
        positions: &Bound<'_, PyAny>,
        depth: Option<i64>,
        movetime: Option<f64>,
        nodes: Option<i64>,
    ) -> PyResult<Vec<Analysis>> {
        let limits = limits_of(depth, movetime, nodes)?;
        if limits.infinite {
            return Err(raise(
                Kind::Option,
                "analyse_many needs a limit: depth, movetime or nodes",
            ));
        }
        let mut jobs = Vec::new();
        for (i, p) in positions.try_iter()?.enumerate() {
            // The error says which position (the same exception class).
            let job = self.job(py, &p?).map_err(|e| {
                let message = format!("position {i}: {}", e.value(py));
                PyErr::from_type(e.get_type(py), message)
            })?;
            jobs.push(tiao::analysis::Job {
                fen: Some(job.start),
                moves: job.moves,
                kind: Some(job.kind),
            });
        }
        if jobs.is_empty() {
            return Ok(Vec::new());
        }
        let outcome = py.detach(|| self.run_batch(&jobs, &limits));
        let results = outcome?;
        let mut out = Vec::with_capacity(results.len());
        for (i, r) in results.into_iter().enumerate() {
            match r {
                Some(Ok(a)) => out.push(Analysis::of_batch(&a)),
                Some(Err(e)) => return Err(raise(Kind::Fen, format!("position {i}: {e}"))),
                None => break,
            }
        }
        Ok(out)
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let (kind, threads, hash) = py.detach(|| {
            let e = lock(&self.inner);
            (e.kind(), e.options().threads, e.options().hash_mib)
        });
        format!(
            "Engine({}, threads={threads}, hash_mb={hash})",
            quoted(kind.variant.name())
        )
    }
}

/// One result per job: `None` for the jobs a stop left out.
type BatchResults = Vec<Option<Result<tiao::analysis::Analysis, String>>>;

impl Engine {
    /// Runs a batch on the worker engines (without the GIL; it takes it back only to check for
    /// Ctrl-C).
    fn run_batch(&self, jobs: &[tiao::analysis::Job], limits: &Limits) -> PyResult<BatchResults> {
        let mut workers = match self.workers.try_lock() {
            Ok(w) => w,
            Err(TryLockError::Poisoned(p)) => p.into_inner(),
            Err(TryLockError::WouldBlock) => {
                return Err(engine_error(EngineError::Busy));
            }
        };
        let (kind, options) = {
            let e = lock(&self.inner);
            (e.kind(), e.options().clone())
        };
        let threads = options.threads.max(1);
        let each = EngineOptions {
            threads: 1,
            hash_mib: (options.hash_mib / threads).max(1),
            // A batch searches every position (as `tiao analyze --positions`).
            book: BookOptions::default(),
            ..options
        };
        let key = Some((kind, each.clone()));
        if workers.made_for != key {
            workers.engines.clear();
            workers.made_for = key;
        }
        let wanted = threads.min(jobs.len());
        while workers.engines.len() < wanted {
            let e = tiao::engine::Engine::new(kind, each.clone()).map_err(engine_error)?;
            workers.engines.push(e);
        }
        self.batch_stop.store(false, Ordering::SeqCst);
        self.batch_running.store(true, Ordering::SeqCst);
        let next = AtomicUsize::new(0);
        let mut results: BatchResults = (0..jobs.len()).map(|_| None).collect();
        let mut interrupted = None;
        let (tx, rx) = unbounded();
        std::thread::scope(|s| {
            for engine in workers.engines.iter_mut().take(wanted) {
                let (tx, next, stop) = (tx.clone(), &next, &self.batch_stop);
                s.spawn(move || {
                    while !stop.load(Ordering::SeqCst) {
                        let i = next.fetch_add(1, Ordering::SeqCst);
                        let Some(job) = jobs.get(i) else { break };
                        let r = tiao::analysis::analyze_one(engine, job, limits);
                        if tx.send((i, r)).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(tx);
            loop {
                match rx.recv_timeout(POLL) {
                    Ok((i, r)) => results[i] = Some(r),
                    Err(RecvTimeoutError::Timeout) => {
                        if interrupted.is_none()
                            && let Err(e) = Python::attach(|py| py.check_signals())
                        {
                            interrupted = Some(e);
                            self.batch_stop.store(true, Ordering::SeqCst);
                        }
                    }
                    Err(RecvTimeoutError::Disconnected) => break,
                }
            }
        });
        self.batch_running.store(false, Ordering::SeqCst);
        match interrupted {
            Some(e) => Err(e),
            None => Ok(results),
        }
    }
}
