//! The Hub loop while a search runs: `ping` answered during the search, `stop` answered with
//! `done` and nothing after it (one and two threads), ponder and `ponder-hit`, other commands
//! stopping the search first, `quit` or the end of the input ending the process, and more threads
//! than cores accepted with an `info` line saying so.
//!
//! No test here measures how fast: the waits are deadlines of seconds that only catch a hang.
//! How fast `stop` is answered is measured by `tiao bench --stop-latency` and written in the docs.

use crate::hub_common::{Engine, PATIENCE, value};
use std::time::{Duration, Instant};

/// Starts an infinite analysis and lets it run a little.
fn infinite(e: &mut Engine) {
    e.send("level infinite");
    e.send("go analyze");
    e.next_line(PATIENCE).expect("a first info line");
    std::thread::sleep(Duration::from_millis(150));
}

#[test]
fn stop_during_infinite_answers_done_and_nothing_after() {
    for threads in [1, 2] {
        let mut e = Engine::hub();
        e.send(&format!("set-param name=threads value={threads}"));
        e.send("init");
        e.expect("ready");
        for _ in 0..3 {
            infinite(&mut e);
            e.send("stop");
            let (done, before) = e.until("done", PATIENCE);
            assert!(value(&done, "move").is_some(), "{done}");
            assert!(before.iter().all(|l| l.starts_with("info ")), "{before:?}");
            // After `done`, nothing more comes, though the search threads may still be ending.
            e.quiet(Duration::from_millis(100));
        }
        e.quit();
    }
}

#[test]
fn more_threads_than_cores_are_accepted_and_said() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut e = Engine::hub();
    e.send(&format!("set-param name=threads value={cores}"));
    e.send("ping");
    e.expect("pong");
    e.send(&format!("set-param name=threads value={}", cores + 1));
    let info = e.expect("info");
    let message = value(&info, "message").unwrap_or_default();
    assert!(
        message.contains(&format!("{} search threads on {cores} core", cores + 1)),
        "{info}"
    );
    assert!(
        !message.contains('='),
        "a value pydraughts can split: {info}"
    );
    // Accepted: the search runs with them and answers.
    e.send("level depth=3");
    e.send("go think");
    let (done, _) = e.until("done", PATIENCE);
    assert!(value(&done, "move").is_some(), "{done}");
    e.quit();
}

#[test]
fn ping_is_answered_during_a_search() {
    let mut e = Engine::hub();
    infinite(&mut e);
    for _ in 0..3 {
        e.send("ping");
        let (_, before) = e.until("pong", PATIENCE);
        // Answered while the search runs: no `done` before the `pong`.
        assert!(before.iter().all(|l| l.starts_with("info ")), "{before:?}");
    }
    e.send("stop");
    e.until("done", PATIENCE);
    e.quit();
}

#[test]
fn ponder_then_ponder_hit() {
    let mut e = Engine::hub();
    e.send("pos start moves=\"32-28\"");
    // A clock above the sudden-death reserve (620 ms): a budget of about 0.15 s, at most 0.6 s.
    e.send("level time=5");
    e.send("go ponder");
    // While pondering the clock does not run: no `done` well past the whole budget.
    let t = Instant::now();
    while let Some(l) = e.next_line(Duration::from_millis(700).saturating_sub(t.elapsed())) {
        assert!(l.starts_with("info "), "{l}");
    }
    // After the hit the clock's budget applies: `done` comes by itself, without a `stop`.
    e.send("ponder-hit");
    let (done, _) = e.until("done", PATIENCE);
    assert!(value(&done, "move").is_some());
    // A ponder search that misses is stopped.
    e.send("pos start moves=\"32-28 18-23\"");
    e.send("level time=0.5");
    e.send("go ponder");
    std::thread::sleep(Duration::from_millis(200));
    e.send("stop");
    e.until("done", PATIENCE);
    e.quit();
}

#[test]
fn another_command_stops_the_search_first() {
    let mut e = Engine::hub();
    infinite(&mut e);
    // Garbage does not disturb the search.
    e.send("no-such-command at all");
    let (err, before) = e.until("error", PATIENCE);
    assert!(err.contains("no-such-command"));
    assert!(before.iter().all(|l| l.starts_with("info ")));
    // Any real command ends it: its `done` comes first, then the command runs.
    e.send("legal-moves");
    let (_, before) = e.until("legal-moves", PATIENCE);
    assert!(
        before.last().is_some_and(|l| l.starts_with("done move=")),
        "{before:?}"
    );
    // `go` during a search: the first search ends with its `done`, the second one runs.
    infinite(&mut e);
    e.send("level depth=2");
    e.send("go think");
    let (_, _) = e.until("done", PATIENCE);
    let (_, infos) = e.until("done", PATIENCE);
    assert_eq!(value(infos.last().unwrap(), "depth").as_deref(), Some("2"));
    e.quit();
}

/// Runs an infinite search, ends the session with `end`, and checks the process exits by itself
/// with status 0 (the deadline of seconds only catches a hang).
fn exits_promptly(end: impl FnOnce(&mut Engine)) {
    let mut e = Engine::hub();
    infinite(&mut e);
    end(&mut e);
    let status = e.wait_exit(PATIENCE);
    assert!(status.success());
}

#[test]
fn quit_during_a_search_exits_promptly() {
    exits_promptly(|e| e.send("quit"));
}

#[test]
fn end_of_input_during_a_search_exits_promptly() {
    exits_promptly(Engine::close);
}
