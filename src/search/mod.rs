//! The search: iterative deepening over a principal-variation alpha-beta with aspiration windows,
//! a quiescence search that resolves captures, a shared transposition table and Lazy SMP threads.
//!
//! Written once against [`Evaluate`] (a [`Game`](crate::game::Game) with an evaluation), so every
//! draughts variant, and any other game implementing the two traits, uses the same search.
//!
//! - [`params`]: every tunable, named, with switches for the features a match decides on;
//! - [`limits`]: depth, nodes, time, clock, infinite, ponder;
//! - [`score`]: centi-men and `WIN - plies` scores, the Hub score format;
//! - `ordering`: hash move, killers, history; `alphabeta` / `qsearch`: the tree search of one
//!   thread (with its evaluation cache: static evaluations by key, which changes no node);
//!   `threads`: the Lazy SMP driver (main thread keeps time and reports).
//!
//! The search never prints: [`search`] calls back with a [`Report`] per completed iteration (main
//! thread only), and with a [`partial`](Report::partial) one as soon as an unfinished iteration
//! finds a move better than the previous best (the answer if the search stopped then; it is the
//! answer when the limits stop that iteration), and with the [`SearchResult`] as soon as the main
//! thread has it, before the helper threads are joined; it returns the same result. It stops
//! when a limit is reached or when [`Control::stop`] is called (within a fraction of a
//! millisecond), and always returns a legal move when the root has one (the first iteration is
//! never aborted).
//!
//! Draws inside the tree: the variant's draw counters (`Game::draw_by_rule`) and repetition
//! against the game history given with the root plus the search path. With one thread the search
//! is deterministic for a given depth or node limit and table state.
//!
//! Endgame tables ([`search_with_tables`]): every node below the root with at most the tables'
//! pieces asks them (a quiescence leaf too, before its evaluation), and an answer ends the node
//! with [`score::table_score`]; the reports count the answers (`tb_hits`). Without tables the
//! search is the same as before they existed, node for node.

mod alphabeta;
pub mod limits;
mod ordering;
pub mod params;
mod qsearch;
pub mod score;
mod threads;
pub mod time;
pub mod tt;

pub use limits::Limits;
pub use params::{MAX_CONTEMPT, ParamError, Params};
pub use score::{Score, ScoreKind};

use crate::egdb::Probe;
use crate::game::Evaluate;
use crate::game::MoveList;
use crate::search::time::TimeParams;
use crate::search::tt::Tt;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How a search runs, besides its limits.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchOptions {
    /// Search threads (1: deterministic).
    pub threads: usize,
    /// Search tunables.
    pub params: Params,
    /// Time-management tunables.
    pub time: TimeParams,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            threads: 1,
            params: Params::default(),
            time: TimeParams::default(),
        }
    }
}

/// The stop and ponder signals of one search, shared with whoever controls it, and when the
/// search was asked for.
#[derive(Debug)]
pub struct Control {
    stop: AtomicBool,
    ponder: AtomicBool,
    ponder_hit_at: Mutex<Option<Instant>>,
    started: Instant,
}

impl Control {
    /// Signals for a search that starts pondering or not. The search's clock starts now: make
    /// them when the search is asked for, before waiting for anything (the previous search's
    /// threads), so that the wait counts against the search's time.
    pub fn new(ponder: bool) -> Control {
        Control {
            stop: AtomicBool::new(false),
            ponder: AtomicBool::new(ponder),
            ponder_hit_at: Mutex::new(None),
            started: Instant::now(),
        }
    }

    /// When the search was asked for: its clock's start (a ponder hit restarts the clock).
    pub fn started(&self) -> Instant {
        self.started
    }

    /// Asks the search to stop as soon as possible.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether a stop was asked.
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The expected move was played: the ponder search becomes a timed search from now on.
    pub fn ponder_hit(&self) {
        if let Ok(mut at) = self.ponder_hit_at.lock() {
            *at = Some(Instant::now());
        }
        self.ponder.store(false, Ordering::Release);
    }

    /// Whether the search is (still) pondering.
    pub fn is_pondering(&self) -> bool {
        self.ponder.load(Ordering::Acquire)
    }

    fn ponder_hit_time(&self) -> Option<Instant> {
        self.ponder_hit_at.lock().ok().and_then(|t| *t)
    }
}

/// The report of one iteration (from the main thread): a completed one, or the unfinished last one
/// when it found a better move.
#[derive(Clone, Debug, PartialEq)]
pub struct Report<M> {
    /// Nominal depth of the iteration, in plies.
    pub depth: u32,
    /// Deepest ply reached (quiescence included).
    pub seldepth: u32,
    /// Mean ply of the leaves of this iteration.
    pub mean_depth: f64,
    /// Root score, side to move.
    pub score: Score,
    /// Nodes so far, all threads.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Principal variation from the root.
    pub pv: Vec<M>,
    /// Per-mille of the transposition table written by this search (sampled).
    pub hashfull: u32,
    /// An unfinished iteration in which a root move beat the previous iteration's best move: the
    /// search's answer if it stopped now. Reported when it is found (a completed iteration of the
    /// same depth may follow); the answer only if no completed iteration follows it.
    pub partial: bool,
    /// Endgame-table answers so far, all threads (`None`: the search has no tables).
    pub tb_hits: Option<u64>,
}

impl<M> Report<M> {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        let s = self.time.as_secs_f64();
        if s > 0.0 {
            (self.nodes as f64 / s) as u64
        } else {
            0
        }
    }
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<M> {
    /// The move to play; `None` only when the root has no legal move (it is lost).
    pub best: Option<M>,
    /// The expected reply, when known.
    pub ponder: Option<M>,
    /// Score of the last reported iteration (side to move).
    pub score: Score,
    /// Depth of the last reported iteration (0: answered without searching).
    pub depth: u32,
    /// Nodes searched, all threads.
    pub nodes: u64,
    /// Time spent.
    pub time: Duration,
    /// Principal variation of the last reported iteration.
    pub pv: Vec<M>,
}

/// Where a search's reports go: `None` when no one reads them, and the search then does not
/// build them (their table sample and principal-variation copy are a few percent of a short
/// search).
pub type OnReport<'a, M> = Option<&'a mut dyn FnMut(&Report<M>)>;

/// Searches `root` within `limits`.
///
/// `history` holds the keys of the positions of the game before `root`, oldest first (for
/// repetition; only the last `root.reversible_plies()` matter). `on_report` is called with each
/// [`Report`] (`None`: no one reads them, and the search does not build them: self-play, books
/// and benches); `on_result` with the result as soon as it is known: before the helper threads
/// have finished (they end on their own within a few thousand nodes, and are joined before this
/// returns the same result), so that an answer never waits for a thread that the machine has not
/// scheduled yet. The table is shared with any other search using it; `control` stops the search
/// or ends its pondering from another thread, and its creation started the search's clock
/// ([`Control::started`]).
#[allow(clippy::too_many_arguments)]
pub fn search<G: Evaluate>(
    root: &G,
    history: &[u64],
    limits: &Limits,
    options: &SearchOptions,
    tt: &Tt,
    control: &Control,
    on_report: OnReport<'_, G::Move>,
    on_result: &mut dyn FnMut(&SearchResult<G::Move>),
) -> SearchResult<G::Move> {
    search_with_tables(
        root, history, limits, options, None, tt, control, on_report, on_result,
    )
}

/// [`search`] with endgame tables: positions they answer for are not searched further (see the
/// module documentation).
#[allow(clippy::too_many_arguments)]
pub fn search_with_tables<G: Evaluate>(
    root: &G,
    history: &[u64],
    limits: &Limits,
    options: &SearchOptions,
    tables: Option<&dyn Probe<G>>,
    tt: &Tt,
    control: &Control,
    on_report: OnReport<'_, G::Move>,
    on_result: &mut dyn FnMut(&SearchResult<G::Move>),
) -> SearchResult<G::Move> {
    let start = control.started();
    let mut moves = MoveList::default();
    root.generate(&mut moves);
    if moves.is_empty() {
        let result = SearchResult {
            best: None,
            ponder: None,
            score: Score(score::loss_in(0)),
            depth: 0,
            nodes: 0,
            time: start.elapsed(),
            pv: Vec::new(),
        };
        on_result(&result);
        return result;
    }
    if moves.len() == 1 && !limits.analyze {
        // A single legal move is answered at once (Hub `go think`), scored by the tables when
        // they know the child, else by its evaluation.
        let m = moves[0];
        let child = root.make(&m);
        let score = match tables
            .filter(|t| child.piece_count() <= t.max_pieces())
            .and_then(|t| t.probe(&child))
        {
            Some(p) => -score::table_score(p, 1, || child.evaluate()),
            None => -child.evaluate(),
        };
        let ponder = tt
            .probe(child.key())
            .and_then(|d| reply_at(&child, d.move_index));
        let result = SearchResult {
            best: Some(m),
            ponder,
            score: Score(score),
            depth: 0,
            nodes: 1,
            time: start.elapsed(),
            pv: vec![m],
        };
        on_result(&result);
        return result;
    }
    tt.new_search();
    let job = threads::Job {
        root,
        history,
        limits,
        options,
        tables,
        tt,
        control,
        start,
    };
    threads::run(&job, on_report, on_result)
}

/// A one-thread search of `pos` to `depth` plies from an empty table (benches, openings,
/// tests): deterministic.
pub fn search_to_depth<G: Evaluate>(pos: &G, depth: u32, tt: &Tt) -> SearchResult<G::Move> {
    search_to_depth_with(pos, depth, tt, &SearchOptions::default())
}

/// [`search_to_depth`] with the given options (parameters; threads other than 1 make it
/// nondeterministic).
pub fn search_to_depth_with<G: Evaluate>(
    pos: &G,
    depth: u32,
    tt: &Tt,
    opts: &SearchOptions,
) -> SearchResult<G::Move> {
    tt.clear();
    let limits = Limits {
        analyze: true,
        ..Limits::depth(depth)
    };
    search(
        pos,
        &[],
        &limits,
        opts,
        tt,
        &Control::new(false),
        None,
        &mut |_| {},
    )
}

/// The move with generated index `index` in `pos`, if there is one.
fn reply_at<G: Evaluate>(pos: &G, index: u16) -> Option<G::Move> {
    let mut l = MoveList::default();
    pos.generate(&mut l);
    l.as_slice().get(index as usize).copied()
}
