//! Where a running search's events go, and who answers for it when the search thread cannot
//! be waited for.
//!
//! - [`Outbox`]: between the search and the user's sink. It passes the reports on, holds a
//!   partial report back until it is the answer, and makes `Done` the last event, sent once: by
//!   the search when it ends, or at once by [`Outbox::answer_now`] (a stop, a deadline) from the
//!   search's last report, without waiting for the search threads to be scheduled.
//! - [`Watchdog`]: one sleeping thread per engine that answers a timed search at its hard budget
//!   (the time manager's, computed alike) through [`Outbox::answer_now`]. On a loaded machine the
//!   search's main thread, runnable among others, may get a core many milliseconds after its
//!   deadline; a thread woken by its timer runs sooner.
//!
//! Invariant: the outbox's lock is held while an event is passed to the sink, so no event can
//! follow `Done`.

use super::{Done, Event, EventSink, Info};
use crate::search::Control;
use crossbeam_channel::{RecvTimeoutError, Sender, unbounded};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Instant;

/// Where a running search's events go: the user's sink, behind a lock that makes `Done` the last
/// event, sent once, by the search or by [`Engine::stop`], whichever comes first.
pub(super) struct Outbox {
    sink: EventSink,
    state: Mutex<OutState>,
    started: Instant,
}

struct OutState {
    /// `Done` was sent: nothing more goes out.
    finished: bool,
    /// The last completed iteration's report.
    last: Option<Info>,
    /// A partial report since then, held back: the answer if the search stopped now, passed on
    /// just before `Done` if it is the answer.
    partial: Option<Info>,
}

impl Outbox {
    pub(super) fn new(sink: EventSink) -> Outbox {
        Outbox {
            sink,
            state: Mutex::new(OutState {
                finished: false,
                last: None,
                partial: None,
            }),
            started: Instant::now(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, OutState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Passes an event of the search on, unless `Done` has already gone out; holds a partial
    /// report back until it is the answer.
    pub(super) fn send(&self, e: Event) {
        let mut st = self.lock();
        if st.finished {
            return;
        }
        match e {
            Event::Info(i) if i.partial => st.partial = Some(i),
            Event::Info(i) => {
                st.partial = None;
                st.last = Some(i.clone());
                (self.sink)(Event::Info(i));
            }
            Event::Done(d) => {
                st.finished = true;
                // The search ended with the unfinished iteration's move: its report first.
                if let Some(p) = st.partial.take()
                    && p.pv.first() == d.best.as_ref()
                {
                    (self.sink)(Event::Info(p));
                }
                (self.sink)(Event::Done(d));
            }
        }
    }

    /// Sends `Done` now with the search's answer so far: the held-back partial report's move
    /// (the report first) or the last completed iteration's. False before the first iteration
    /// is done (the search then sends its own `Done`).
    pub(super) fn answer_now(&self) -> bool {
        let mut st = self.lock();
        if st.finished {
            return true;
        }
        let partial = st.partial.take().filter(|i| !i.pv.is_empty());
        let Some(info) = partial
            .clone()
            .or_else(|| st.last.clone())
            .filter(|i| !i.pv.is_empty())
        else {
            return false;
        };
        let done = Done {
            best: info.pv.first().cloned(),
            ponder: info.pv.get(1).cloned(),
            score: info.score,
            depth: info.depth,
            nodes: info.nodes,
            time: self.started.elapsed(),
        };
        st.finished = true;
        if let Some(p) = partial {
            (self.sink)(Event::Info(p));
        }
        (self.sink)(Event::Done(done));
        true
    }

    pub(super) fn finished(&self) -> bool {
        self.lock().finished
    }
}

/// What the watchdog is asked: answer this search at `at` (replaces any earlier one).
struct Arm {
    at: Instant,
    control: Arc<Control>,
    outbox: Arc<Outbox>,
}

/// Answers timed searches at their deadline (see the module documentation). The thread starts
/// with the first timed search and ends with the engine.
#[derive(Default)]
pub(super) struct Watchdog {
    tx: Option<Sender<Arm>>,
}

impl Watchdog {
    /// Stops the search of `control` and answers through `outbox` at `at`, unless it has
    /// answered by then.
    pub(super) fn arm(&mut self, at: Instant, control: Arc<Control>, outbox: Arc<Outbox>) {
        let arm = Arm {
            at,
            control,
            outbox,
        };
        let arm = match &self.tx {
            Some(tx) => match tx.send(arm) {
                Ok(()) => return,
                Err(e) => e.into_inner(),
            },
            None => arm,
        };
        // First use, or the thread is gone: (re)start it.
        let (tx, rx) = unbounded::<Arm>();
        let started = std::thread::Builder::new()
            .name("deadline".into())
            .spawn(move || {
                let mut armed: Option<(Instant, Arc<Control>, Arc<Outbox>)> = None;
                loop {
                    let next = match &armed {
                        None => rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
                        Some((at, ..)) => {
                            rx.recv_timeout(at.saturating_duration_since(Instant::now()))
                        }
                    };
                    match next {
                        Ok(Arm {
                            at,
                            control,
                            outbox,
                        }) => armed = Some((at, control, outbox)),
                        Err(RecvTimeoutError::Timeout) => {
                            if let Some((_, control, outbox)) = armed.take() {
                                control.stop();
                                outbox.answer_now();
                            }
                        }
                        Err(RecvTimeoutError::Disconnected) => return,
                    }
                }
            });
        if started.is_ok() && tx.send(arm).is_ok() {
            self.tx = Some(tx);
        }
        // Without the thread, the search keeps its own time, as it always does.
    }
}
