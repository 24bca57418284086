//! A page: its game, its own [`Engine`] (the facade the Hub loop drives), the search running for
//! it, and the queue of events its stream sends to the browser.
//!
//! Engine events go from the engine's sink into a channel, and a pump thread (one per page)
//! takes them in order: it checks that the event belongs to the page's current search (a search
//! that was cancelled, or replaced, is ignored), turns it into an analysis line for the page,
//! records the score of the position searched, plays the engine's move when the search was one,
//! and chains the searches of a review. The sink never takes the page's lock (the engine may call
//! it from [`Engine::stop`], on a thread holding that lock).
//!
//! Invariants: at most one search per page (its `job`); any change of the game cancels
//! it (the engine is stopped, its `Done` ignored); when the last stream of a page closes (the tab
//! went away), its search is cancelled ([`Page::stream_closed`]), and a page left without a stream
//! is dropped with its engine after a while (the server's `PAGE_IDLE`); the event queue is
//! bounded, and events for a page nobody reads are dropped.

use super::api::{BookView, Line, View};
use super::game::{GameRecord, PROVEN_MEN};
use crate::engine::{Engine, EngineOptions, Event, EventSink};
use crate::game::Variant;
use crate::search::score::is_table;
use crate::search::{Limits, Score, ScoreKind};
use crate::variant::GameKind;
use crossbeam_channel::{Receiver, Sender, TrySendError, bounded, unbounded};
use serde::Serialize;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};
use std::time::{Duration, Instant};

/// Events waiting for a page's stream; beyond this they are dropped (nobody reads them).
pub const EVENT_QUEUE: usize = 4_096;
/// The time per position of a review (the evaluation curve of a whole game).
pub const REVIEW_MOVE_TIME: Duration = Duration::from_millis(200);

/// What a search is for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// The engine plays its move when it ends.
    Play,
    /// Live lines until stopped.
    Analyze,
    /// The score of every position of the game not yet scored, one after the other.
    Review,
}

impl Purpose {
    pub fn name(self) -> &'static str {
        match self {
            Purpose::Play => "play",
            Purpose::Analyze => "analyze",
            Purpose::Review => "review",
        }
    }
}

/// The search running for a page.
#[derive(Clone, Debug)]
struct Job {
    id: u64,
    purpose: Purpose,
    /// The ply searched and the game's moves when it started (the engine's move is played only
    /// if they are unchanged).
    ply: usize,
    moves: Vec<String>,
    /// Side to move at `ply` (scores are recorded from White's side).
    white_to_move: bool,
}

/// A page's game, engine and search, under the page's lock.
pub struct PageState {
    pub game: GameRecord,
    engine: Engine,
    job: Option<Job>,
    next_job: u64,
    /// Views written so far (see [`View::version`]).
    version: u64,
    /// The games of the PDN text loaded last (labels), and which of them is on the board.
    pdn_games: Vec<String>,
    pdn_game: usize,
    /// Sends engine events to the pump, tagged with their search.
    events: Sender<(u64, Event)>,
}

/// A page (a browser tab): its id, state and stream.
pub struct Page {
    pub id: String,
    state: Mutex<PageState>,
    out: Sender<String>,
    inbox: Receiver<String>,
    /// Streams open to the page.
    streams: AtomicUsize,
    /// When the page last did something (requests, its stream).
    seen: Mutex<Instant>,
}

/// Why a request about a page's game is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PageError {
    /// The game input is refused (a FEN, a move, a PDN text): why.
    Refused(String),
    /// The engine refused (its own words).
    Engine(String),
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A score in men from White's side, proven results as ±[`PROVEN_MEN`].
fn white_men(s: Score, white_to_move: bool) -> f64 {
    let v = match s.kind() {
        ScoreKind::Eval(c) => c as f64 / 100.0,
        ScoreKind::Win(_) => PROVEN_MEN,
        ScoreKind::Loss(_) => -PROVEN_MEN,
    };
    if white_to_move { v } else { -v }
}

/// An SSE frame: the event's name and its JSON.
fn frame(event: &str, data: &impl Serialize) -> String {
    let json = serde_json::to_string(data).unwrap_or_else(|_| "null".into());
    format!("event: {event}\ndata: {json}\n\n")
}

impl Page {
    /// A new page playing `kind` from its start, with an engine of `options`.
    pub fn new(id: String, kind: GameKind, options: &EngineOptions) -> Result<Arc<Page>, String> {
        let engine = Engine::new(kind, options.clone()).map_err(|e| e.to_string())?;
        let game = GameRecord::new(kind, None)?;
        let (tx, rx) = unbounded();
        let (out, inbox) = bounded(EVENT_QUEUE);
        let page = Arc::new(Page {
            id,
            state: Mutex::new(PageState {
                game,
                engine,
                job: None,
                next_job: 1,
                version: 0,
                pdn_games: Vec::new(),
                pdn_game: 0,
                events: tx,
            }),
            out,
            inbox,
            streams: AtomicUsize::new(0),
            seen: Mutex::new(Instant::now()),
        });
        let weak = Arc::downgrade(&page);
        std::thread::Builder::new()
            .name("tiao-gui-pump".into())
            .spawn(move || pump(weak, rx))
            .map_err(|e| format!("cannot start a thread: {e}"))?;
        Ok(page)
    }

    /// The page's state, locked.
    pub fn lock(&self) -> MutexGuard<'_, PageState> {
        *lock(&self.seen) = Instant::now();
        lock(&self.state)
    }

    /// How long since the page last did something, and whether a stream is open to it.
    pub fn idle(&self) -> (Duration, bool) {
        (
            lock(&self.seen).elapsed(),
            self.streams.load(Ordering::SeqCst) > 0,
        )
    }

    /// Queues an event for the page's stream (dropped when the queue is full).
    pub fn publish(&self, event: &str, data: &impl Serialize) {
        match self.out.try_send(frame(event, data)) {
            Ok(()) | Err(TrySendError::Full(_)) | Err(TrySendError::Disconnected(_)) => {}
        }
    }

    /// Queues the page's view.
    pub fn publish_view(&self, st: &mut PageState) {
        let v = st.view(&self.id);
        self.publish("state", &v);
    }

    /// A stream opens: the receiving end of the queue.
    pub fn stream_opened(&self) -> Receiver<String> {
        self.streams.fetch_add(1, Ordering::SeqCst);
        *lock(&self.seen) = Instant::now();
        self.inbox.clone()
    }

    /// A stream closed; when it was the last, the page's search is cancelled.
    pub fn stream_closed(&self) {
        *lock(&self.seen) = Instant::now();
        if self.streams.fetch_sub(1, Ordering::SeqCst) == 1 {
            let mut st = lock(&self.state);
            st.cancel();
        }
    }

    /// Handles an engine event of search `job`.
    fn on_event(&self, job: u64, ev: Event) {
        let mut st = lock(&self.state);
        let Some(j) = st.job.clone().filter(|j| j.id == job) else {
            return;
        };
        match ev {
            Event::Info(info) => {
                let white = white_men(info.score, j.white_to_move);
                if j.ply < st.game.scores.len() && st.game.moves[..j.ply] == j.moves[..j.ply] {
                    st.game.scores[j.ply] = Some(white);
                }
                let line = Line {
                    purpose: j.purpose.name(),
                    ply: j.ply,
                    depth: info.depth,
                    seldepth: info.seldepth,
                    score: info.score.to_string(),
                    white,
                    table: is_table(info.score.0),
                    book: info.book,
                    nodes: info.nodes,
                    nps: info.nps,
                    time: info.time.as_millis() as u64,
                    pv: info.pv.iter().map(|m| m.pdn.clone()).collect(),
                };
                self.publish("info", &line);
            }
            Event::Done(done) => {
                st.job = None;
                let unchanged = st.game.cursor == j.ply && st.game.moves == j.moves;
                let mut played = None;
                if j.purpose == Purpose::Play
                    && unchanged
                    && let Some(best) = &done.best
                {
                    match st.game.play(&best.hub) {
                        Ok(_) => played = Some(best.pdn.clone()),
                        Err(e) => self.publish("error", &super::api::ErrorBody { error: e }),
                    }
                }
                #[derive(Serialize)]
                struct DoneView {
                    purpose: &'static str,
                    ply: usize,
                    best: Option<String>,
                    played: Option<String>,
                    score: String,
                    depth: u32,
                }
                self.publish(
                    "done",
                    &DoneView {
                        purpose: j.purpose.name(),
                        ply: j.ply,
                        best: done.best.map(|m| m.pdn),
                        played,
                        score: done.score.to_string(),
                        depth: done.depth,
                    },
                );
                if j.purpose == Purpose::Review && st.game.moves == j.moves {
                    st.next_review();
                }
                self.publish_view(&mut st);
            }
        }
    }
}

/// Takes a page's engine events in order until the page is gone.
fn pump(page: Weak<Page>, rx: Receiver<(u64, Event)>) {
    while let Ok((job, ev)) = rx.recv() {
        let Some(p) = page.upgrade() else { return };
        p.on_event(job, ev);
    }
}

impl PageState {
    /// What the page shows.
    pub fn view(&mut self, id: &str) -> View {
        let mut v = self.game.view();
        self.version += 1;
        v.version = self.version;
        v.session = id.to_string();
        v.searching = self.job.as_ref().map(|j| j.purpose.name());
        v.pdn_games = self.pdn_games.clone();
        v.pdn_game = self.pdn_game;
        if self.job.is_none() && self.sync_engine().is_ok() {
            v.book = self
                .engine
                .book_moves()
                .unwrap_or_default()
                .into_iter()
                .map(|b| BookView {
                    pdn: b.mv.pdn,
                    score: b.score.to_string(),
                })
                .collect();
        }
        let t = self.engine.tables();
        v.tables = t.dir.as_ref().filter(|_| t.slices > 0).map(|d| {
            format!(
                "{} files, up to {} pieces ({})",
                t.slices,
                t.max_pieces,
                d.display()
            )
        });
        v
    }

    /// Stops the page's search, if any; its events are ignored from now on.
    pub fn cancel(&mut self) {
        if self.job.take().is_some() {
            self.engine.stop();
        }
    }

    /// Sets the engine's position to the board's.
    fn sync_engine(&mut self) -> Result<(), PageError> {
        let moves = self.game.moves_to_cursor();
        self.engine
            .set_position(self.game.fen.as_deref(), &moves)
            .map_err(|e| PageError::Engine(e.to_string()))
    }

    /// A new game of `variant` (the current one when `None`) from `fen`.
    pub fn new_game(
        &mut self,
        variant: Option<Variant>,
        fen: Option<&str>,
    ) -> Result<(), PageError> {
        let kind = variant.map_or(self.game.kind, GameKind::new);
        let game = GameRecord::new(kind, fen).map_err(PageError::Refused)?;
        self.cancel();
        if kind != self.engine.kind() {
            self.engine
                .set_game(kind)
                .map_err(|e| PageError::Engine(e.to_string()))?;
        }
        self.engine.new_game();
        self.game = game;
        self.pdn_games.clear();
        self.pdn_game = 0;
        Ok(())
    }

    /// Loads game `index` (0-based) of a PDN text.
    pub fn load_pdn(&mut self, text: &str, index: usize) -> Result<(), PageError> {
        let (game, labels) =
            GameRecord::from_pdn(text, index, self.game.kind).map_err(PageError::Refused)?;
        self.cancel();
        if game.kind != self.engine.kind() {
            self.engine
                .set_game(game.kind)
                .map_err(|e| PageError::Engine(e.to_string()))?;
        }
        self.engine.new_game();
        self.game = game;
        self.pdn_games = labels;
        self.pdn_game = index;
        Ok(())
    }

    /// Plays a move at the board's ply.
    pub fn play(&mut self, text: &str) -> Result<(), PageError> {
        let mut game = self.game.clone();
        game.play(text).map_err(PageError::Refused)?;
        self.cancel();
        self.game = game;
        Ok(())
    }

    /// Takes back to `ply` (default: one move before the board's ply).
    pub fn take_back(&mut self, ply: Option<usize>) {
        self.cancel();
        let ply = ply.unwrap_or(self.game.cursor.saturating_sub(1));
        self.game.take_back_to(ply);
    }

    /// Shows another ply of the game.
    pub fn go_to(&mut self, ply: usize) {
        self.cancel();
        self.game.go_to(ply);
    }

    /// Starts a search of the board's position (any running one is cancelled first).
    pub fn start(&mut self, purpose: Purpose, limits: Limits) -> Result<(), PageError> {
        self.cancel();
        if self.game.view().status.is_some() && purpose == Purpose::Play {
            return Err(PageError::Refused("the game is over".into()));
        }
        self.sync_engine()?;
        let id = self.next_job;
        self.next_job += 1;
        let white_to_move = self.game.view().side == "white";
        self.job = Some(Job {
            id,
            purpose,
            ply: self.game.cursor,
            moves: self.game.moves.clone(),
            white_to_move,
        });
        let tx = self.events.clone();
        let sink: EventSink = Arc::new(move |e| {
            let _ = tx.send((id, e));
        });
        if let Err(e) = self.engine.go(limits, sink) {
            self.job = None;
            return Err(PageError::Engine(e.to_string()));
        }
        Ok(())
    }

    /// Starts the review's next search: the first position of the game without a score (and
    /// with a legal move). Nothing when every one has a score.
    pub fn next_review(&mut self) {
        let saved = self.game.cursor;
        let todo = (0..self.game.scores.len()).find(|&p| {
            self.game.scores[p].is_none() && {
                self.game.go_to(p);
                self.game.view().status.is_none()
            }
        });
        match todo {
            Some(p) => {
                self.game.go_to(p);
                let started = self.start(Purpose::Review, Limits::move_time(REVIEW_MOVE_TIME));
                // The review searches its own copy of each position: the board stays.
                if let Some(j) = self.job.as_mut() {
                    j.ply = p;
                }
                self.game.go_to(saved);
                if started.is_err() {
                    self.job = None;
                }
            }
            None => self.game.go_to(saved),
        }
    }

    /// Whether the page's search is a review (whose `Done` may leave the board elsewhere).
    pub fn searching(&self) -> Option<Purpose> {
        self.job.as_ref().map(|j| j.purpose)
    }
}
