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
//! Invariants: every event is decided under the outbox's state lock, which is never held while
//! the sink runs: a sink that blocks (a Hub client that stops reading its pipe) never delays a
//! decision, so [`Outbox::finished`], a stop or the deadline's answer are decided at once. Events
//! go to the sink in the order they were decided: each decision takes a ticket, and a thread with
//! a later ticket waits for the earlier ones to be written. No ticket is issued after `Done`, so
//! `Done` is sent once and nothing follows it.

use super::{Done, Event, EventSink, Info};
use crate::search::Control;
use crossbeam_channel::{RecvTimeoutError, Sender, unbounded};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Instant;

/// Where a running search's events go: the user's sink, with `Done` the last event, sent once,
/// by the search or by [`Engine::stop`](super::Engine::stop) (or the deadline), whichever comes
/// first.
pub(super) struct Outbox {
    sink: EventSink,
    state: Mutex<OutState>,
    /// The ticket whose events go to the sink next (see the module documentation).
    turn: Mutex<u64>,
    /// Signalled when a ticket's events have gone out.
    turn_passed: Condvar,
    /// When the search's clock started (the `Done` of a stop counts its time from there).
    started: Instant,
}

struct OutState {
    /// `Done` was decided: nothing more goes out.
    finished: bool,
    /// The last completed iteration's report.
    last: Option<Info>,
    /// A partial report since then, held back: the answer if the search stopped now, passed on
    /// just before `Done` if it is the answer.
    partial: Option<Info>,
    /// Tickets issued so far.
    issued: u64,
    /// `Done`'s ticket, once decided.
    done_ticket: u64,
}

impl OutState {
    /// The ticket of events just decided; `done`: they end with `Done`.
    fn ticket(&mut self, done: bool) -> u64 {
        let t = self.issued;
        self.issued += 1;
        if done {
            self.finished = true;
            self.done_ticket = t;
        }
        t
    }
}

/// Passes the turn on when dropped (also if the sink panicked).
struct PassTurn<'a>(&'a Outbox);

impl Drop for PassTurn<'_> {
    fn drop(&mut self) {
        *self.0.turn() += 1;
        self.0.turn_passed.notify_all();
    }
}

impl Outbox {
    /// An outbox to `sink` for a search whose clock started at `started`.
    pub(super) fn new(sink: EventSink, started: Instant) -> Outbox {
        Outbox {
            sink,
            state: Mutex::new(OutState {
                finished: false,
                last: None,
                partial: None,
                issued: 0,
                done_ticket: 0,
            }),
            turn: Mutex::new(0),
            turn_passed: Condvar::new(),
            started,
        }
    }

    fn lock(&self) -> MutexGuard<'_, OutState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn turn(&self) -> MutexGuard<'_, u64> {
        self.turn.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Waits until the events of every ticket before `ticket` have gone out.
    fn wait_turn(&self, ticket: u64) {
        let mut turn = self.turn();
        while *turn < ticket {
            turn = self
                .turn_passed
                .wait(turn)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Sends the events of `ticket` in its turn.
    fn deliver(&self, ticket: u64, events: Vec<Event>) {
        self.wait_turn(ticket);
        let _pass = PassTurn(self);
        for e in events {
            (self.sink)(e);
        }
    }

    /// Passes an event of the search on, unless `Done` has already been decided; holds a partial
    /// report back until it is the answer.
    pub(super) fn send(&self, e: Event) {
        let mut st = self.lock();
        if st.finished {
            return;
        }
        let (events, done) = match e {
            Event::Info(i) if i.partial => {
                st.partial = Some(i);
                return;
            }
            Event::Info(i) => {
                st.partial = None;
                st.last = Some(i.clone());
                (vec![Event::Info(i)], false)
            }
            Event::Done(d) => {
                let mut events = Vec::with_capacity(2);
                // The search ended with the unfinished iteration's move: its report first.
                if let Some(p) = st.partial.take()
                    && p.pv.first() == d.best.as_ref()
                {
                    events.push(Event::Info(p));
                }
                events.push(Event::Done(d));
                (events, true)
            }
        };
        let ticket = st.ticket(done);
        drop(st);
        self.deliver(ticket, events);
    }

    /// Sends `Done` now with the search's answer so far: the held-back partial report's move
    /// (the report first) or the last completed iteration's. Returns once `Done` has gone out
    /// (after the events decided before it), whoever decided it. False before the first iteration
    /// is done (the search then sends its own `Done`).
    pub(super) fn answer_now(&self) -> bool {
        let mut st = self.lock();
        if st.finished {
            let t = st.done_ticket;
            drop(st);
            self.wait_turn(t + 1);
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
        let mut events = Vec::with_capacity(2);
        if let Some(p) = partial {
            events.push(Event::Info(p));
        }
        events.push(Event::Done(done));
        let ticket = st.ticket(true);
        drop(st);
        self.deliver(ticket, events);
        true
    }

    /// Whether `Done` has been decided (it may still be on its way to the sink).
    pub(super) fn finished(&self) -> bool {
        self.lock().finished
    }

    /// Whether `Done` has gone through the sink.
    pub(super) fn sent(&self) -> bool {
        let st = self.lock();
        st.finished && *self.turn() > st.done_ticket
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::MoveText;
    use crate::search::Score;
    use std::time::Duration;

    /// A completed iteration's report with one move.
    fn info(depth: u32) -> Info {
        Info {
            depth,
            seldepth: depth,
            mean_depth: 0.0,
            score: Score(0),
            nodes: 1,
            time: Duration::ZERO,
            nps: 0,
            hashfull: 0,
            pv: vec![MoveText {
                hub: "32-28".into(),
                pdn: "32-28".into(),
            }],
            partial: false,
            tb_hits: None,
            book: false,
        }
    }

    /// Waits (at most seconds: a hang guard) until `f` holds.
    fn eventually(f: impl Fn() -> bool) {
        let until = Instant::now() + Duration::from_secs(30);
        while !f() {
            assert!(Instant::now() < until, "never happened");
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    #[test]
    fn a_sink_that_blocks_delays_no_decision_and_done_still_comes_last() {
        // A sink that blocks on the first report until the test lets it go: a Hub client that
        // stops reading its pipe.
        let (entered_tx, entered) = unbounded::<()>();
        let (release, released) = unbounded::<()>();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = seen.clone();
        let sink: EventSink = Arc::new(move |e: Event| {
            let first = log.lock().unwrap().is_empty();
            if first {
                let _ = entered_tx.send(());
                let _ = released.recv();
            }
            log.lock().unwrap().push(match e {
                Event::Info(i) => format!("info {}", i.depth),
                Event::Done(d) => format!("done {}", d.depth),
            });
        });
        let outbox = Arc::new(Outbox::new(sink, Instant::now()));
        let search = {
            let o = outbox.clone();
            std::thread::spawn(move || o.send(Event::Info(info(5))))
        };
        entered.recv_timeout(Duration::from_secs(30)).unwrap();
        // The search thread is stuck in the sink: a stop is still decided at once.
        assert!(!outbox.finished());
        let stop = {
            let o = outbox.clone();
            std::thread::spawn(move || o.answer_now())
        };
        eventually(|| outbox.finished());
        assert!(!outbox.sent());
        // Once the sink takes lines again: the report, then `Done` from it, then nothing.
        release.send(()).unwrap();
        assert!(stop.join().unwrap());
        search.join().unwrap();
        assert!(outbox.sent());
        outbox.send(Event::Info(info(6)));
        assert_eq!(*seen.lock().unwrap(), ["info 5", "done 5"]);
    }
}
