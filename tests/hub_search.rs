//! The Hub loop while a search runs: `ping` answered at once, `stop` answered with `done` within
//! 100 ms, ponder and `ponder-hit`, other commands stopping the search first, and `quit` or the end
//! of the input ending the process promptly.

mod hub_common;

use hub_common::{Engine, PATIENCE, value};
use std::time::{Duration, Instant};

/// Starts an infinite analysis and lets it run a little.
fn infinite(e: &mut Engine) {
    e.send("level infinite");
    e.send("go analyze");
    e.next_line(PATIENCE).expect("a first info line");
    std::thread::sleep(Duration::from_millis(150));
}

#[test]
fn stop_during_infinite_answers_done_within_100_ms() {
    let mut e = Engine::hub();
    e.send("init");
    e.expect("ready");
    let mut worst = Duration::ZERO;
    for _ in 0..3 {
        infinite(&mut e);
        let t = Instant::now();
        e.send("stop");
        let (done, _) = e.until("done", PATIENCE);
        worst = worst.max(t.elapsed());
        assert!(value(&done, "move").is_some(), "{done}");
    }
    eprintln!("stop -> done: at most {worst:?}");
    assert!(worst < Duration::from_millis(100), "{worst:?}");
    // After `done`, nothing more comes.
    e.quiet(Duration::from_millis(100));
    e.quit();
}

#[test]
fn ping_is_answered_during_a_search() {
    let mut e = Engine::hub();
    infinite(&mut e);
    for _ in 0..3 {
        let t = Instant::now();
        e.send("ping");
        let (_, before) = e.until("pong", PATIENCE);
        assert!(
            t.elapsed() < Duration::from_millis(100),
            "{:?}",
            t.elapsed()
        );
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
    e.send("level time=0.5");
    e.send("go ponder");
    // While pondering the clock does not run: no `done` well past the whole budget.
    let t = Instant::now();
    while let Some(l) = e.next_line(Duration::from_millis(700).saturating_sub(t.elapsed())) {
        assert!(l.starts_with("info "), "{l}");
    }
    let t = Instant::now();
    e.send("ponder-hit");
    let (done, _) = e.until("done", PATIENCE);
    let spent = t.elapsed();
    assert!(spent < Duration::from_millis(500), "{spent:?}");
    assert!(value(&done, "move").is_some());
    // A ponder search that misses is stopped.
    e.send("pos start moves=\"32-28 18-23\"");
    e.send("level time=0.5");
    e.send("go ponder");
    std::thread::sleep(Duration::from_millis(200));
    e.send("stop");
    e.until("done", Duration::from_millis(500));
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

/// Runs an infinite search, ends the session with `end`, and checks the process exits with
/// status 0 well within half a second.
fn exits_promptly(end: impl FnOnce(&mut Engine)) {
    let mut e = Engine::hub();
    infinite(&mut e);
    let t = Instant::now();
    end(&mut e);
    let status = e.wait_exit(Duration::from_secs(5));
    assert!(status.success());
    assert!(
        t.elapsed() < Duration::from_millis(500),
        "{:?}",
        t.elapsed()
    );
}

#[test]
fn quit_during_a_search_exits_promptly() {
    exits_promptly(|e| e.send("quit"));
}

#[test]
fn end_of_input_during_a_search_exits_promptly() {
    exits_promptly(Engine::close);
}
