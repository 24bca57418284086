//! The engine facade: positions and typed errors, options, background searches, stop, ponder,
//! time limits, and the events a protocol layer receives. No test measures a duration (deadlines
//! of seconds only catch hangs): timing is measured by `tiao bench --stop-latency` and
//! `--move-time-usage`, and written in the docs.

use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tiao::engine::{Done, Engine, EngineError, EngineOptions, Event, EventSink};
use tiao::search::Limits;
use tiao::variant::{DrawRuleSet, GameKind, Variant};

/// How long a test waits for an event before calling the engine hung: far beyond any search
/// here, so a loaded machine never fails a test (no test asserts a duration).
const HANG: Duration = Duration::from_secs(600);

fn engine(v: Variant) -> Engine {
    Engine::new(GameKind::new(v), EngineOptions::default()).unwrap()
}

/// A sink that forwards events to a channel.
fn channel() -> (EventSink, Receiver<Event>) {
    let (tx, rx) = mpsc::channel();
    let tx = Mutex::new(tx);
    (
        Arc::new(move |e| {
            let _ = tx.lock().unwrap().send(e);
        }),
        rx,
    )
}

/// Waits for the `Done` event of `e`'s search, checking that it is the last one: once the
/// search thread is joined, nothing followed it.
fn done(e: &mut Engine, rx: &Receiver<Event>) -> Done {
    loop {
        match rx.recv_timeout(HANG).expect("a Done event") {
            Event::Info(_) => {}
            Event::Done(d) => {
                e.wait();
                assert!(rx.try_recv().is_err(), "an event after Done");
                return d;
            }
        }
    }
}

#[test]
fn positions_and_move_errors() {
    let mut e = engine(Variant::International);
    assert_eq!(e.legal_moves().len(), 9);
    assert!(e.has_legal_move());
    e.set_position(None, &["32-28", "19-23"]).unwrap();
    let hub: Vec<String> = e.legal_moves().into_iter().map(|m| m.hub).collect();
    assert_eq!(hub, ["28x19x23"]);
    let before = e.fen();
    let err = e
        .set_position(None, &["32-28", "19-24", "28-17"])
        .unwrap_err();
    match &err {
        EngineError::BadMove { index, text, .. } => {
            assert_eq!((*index, text.as_str()), (2, "28-17"))
        }
        other => panic!("{other:?}"),
    }
    assert!(err.to_string().contains("28-17"));
    assert_eq!(e.fen(), before, "a failed set_position changes nothing");
    assert!(matches!(
        e.set_position(Some("W:W99:B1"), &[]),
        Err(EngineError::BadPosition(_))
    ));
    // Hub capture form and PDN form both replay.
    e.set_position(None, &["32-28", "19-23", "28x19"]).unwrap();
    e.set_position(None, &["32-28", "19-23", "28x19x23"])
        .unwrap();
}

#[test]
fn options() {
    let mut e = engine(Variant::Russian);
    e.set_option("threads", "2").unwrap();
    e.set_option("hash", "8").unwrap();
    e.set_option("lmr", "off").unwrap();
    e.set_option("draw-rules", "fmjd").unwrap();
    assert_eq!(e.kind().draw_rules, DrawRuleSet::Fmjd);
    assert_eq!((e.options().threads, e.options().hash_mib), (2, 8));
    assert!(!e.options().params.lmr);
    // Scan's name for the table size, in MiB.
    e.set_option("tt-size", "4").unwrap();
    assert_eq!(e.options().hash_mib, 4);
    assert!(matches!(
        e.set_option("threads", "0"),
        Err(EngineError::BadOption { .. })
    ));
    assert!(e.set_option("no-such-thing", "1").is_err());
    assert!(matches!(
        e.set_option("variant", "chess"),
        Err(EngineError::BadOption { .. })
    ));
    assert_eq!(
        e.kind().variant,
        Variant::Russian,
        "a refused change keeps the game"
    );
    e.set_option("variant", "english").unwrap();
    assert_eq!(e.legal_moves().len(), 7);
    let morris = Engine::new(GameKind::new(Variant::Morris), EngineOptions::default()).unwrap();
    assert_eq!(
        morris.legal_moves().len(),
        24,
        "24 empty points to place on"
    );
}

#[test]
fn stop_answers_at_once_from_the_last_report() {
    for threads in [1, 2] {
        let mut e = Engine::new(
            GameKind::new(Variant::International),
            EngineOptions {
                threads,
                ..EngineOptions::default()
            },
        )
        .unwrap();
        let (sink, rx) = channel();
        e.go(Limits::infinite(), sink).unwrap();
        let mut last = None;
        while last
            .as_ref()
            .is_none_or(|i: &tiao::engine::Info| i.depth < 4)
        {
            match rx.recv_timeout(HANG).expect("reports") {
                Event::Info(i) => last = Some(i),
                Event::Done(d) => panic!("an infinite search ended: {d:?}"),
            }
        }
        assert!(e.is_searching());
        assert!(matches!(
            e.go(Limits::depth(1), channel().0),
            Err(EngineError::Busy)
        ));
        e.stop();
        // `Done` is there when `stop` returns: it did not wait for the search threads, which
        // end on their own afterwards.
        assert!(!e.is_searching());
        let mut events: Vec<Event> = rx.try_iter().collect();
        let Some(Event::Done(d)) = events.pop() else {
            panic!("no Done when stop returned: {events:?}");
        };
        let last = events
            .into_iter()
            .map(|ev| match ev {
                Event::Info(i) => i,
                Event::Done(_) => panic!("two Done"),
            })
            .next_back()
            .or(last)
            .unwrap();
        assert_eq!(d.best.as_ref(), last.pv.first(), "{threads} thread(s)");
        assert_eq!(d.depth, last.depth);
        e.wait();
        // Nothing after `Done`.
        assert!(rx.try_recv().is_err());
    }
}

#[test]
fn a_search_ended_by_its_limits_answers_with_its_last_report() {
    // Short move times and clocks, so that many searches end in the middle of an iteration:
    // the answer is always the last report's move (a completed iteration, or the unfinished one
    // that found a better move, reported just before `Done`). The clock is above the sudden-death
    // reserve (31 move overheads, 620 ms), which would leave a zero budget, a depth-1 search:
    // 1 s and 10 ms a move give a budget of about 20 ms, up to 80 ms.
    let mut e = engine(Variant::International);
    let limits = [
        Limits::move_time(Duration::from_millis(30)),
        Limits::move_time(Duration::from_millis(70)),
        Limits {
            time: Some(Duration::from_secs(1)),
            inc: Duration::from_millis(10),
            ..Limits::default()
        },
    ];
    for (i, limits) in limits.iter().cycle().take(9).enumerate() {
        let moves = ["32-28", "19-23", "28x19", "14x23", "37-32", "10-14"];
        e.set_position(None, &moves[..i % moves.len()]).unwrap();
        if e.legal_moves().len() < 2 {
            continue; // a single legal move is answered at once, without a report
        }
        let (sink, rx) = channel();
        e.go(limits.clone(), sink).unwrap();
        let mut last = None;
        let d = loop {
            match rx.recv_timeout(HANG).expect("Done in time") {
                Event::Info(info) => last = Some(info),
                Event::Done(d) => break d,
            }
        };
        let last = last.expect("a report before Done");
        assert_eq!(d.best.as_ref(), last.pv.first(), "{limits:?}");
        assert_eq!((d.depth, d.score), (last.depth, last.score));
    }
}

#[test]
fn ponder_waits_for_the_hit() {
    let mut e = engine(Variant::International);
    let (sink, rx) = channel();
    e.go(
        Limits {
            ponder: true,
            move_time: Some(Duration::from_millis(100)),
            ..Limits::default()
        },
        sink,
    )
    .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    assert!(e.is_searching(), "pondering has no time limit");
    // After the hit the 100 ms apply: `Done` comes by itself.
    e.ponder_hit();
    let d = done(&mut e, &rx);
    assert!(d.best.is_some());
}

#[test]
fn single_move_and_lost_positions() {
    let mut e = engine(Variant::International);
    e.set_position(Some("W:W28,45:B23,1"), &[]).unwrap();
    let (sink, rx) = channel();
    // An hour to think, and a Done long before it (the wait below only guards against a hang):
    // a single legal move is played without a search.
    e.go(Limits::move_time(Duration::from_secs(3600)), sink)
        .unwrap();
    let d = done(&mut e, &rx);
    assert_eq!(d.best.unwrap().hub, "28x19x23");
    assert_eq!(d.depth, 0);
    // `go analyze` searches a single move too.
    let (sink, rx) = channel();
    e.go(
        Limits {
            analyze: true,
            ..Limits::depth(3)
        },
        sink,
    )
    .unwrap();
    assert!(done(&mut e, &rx).depth >= 3);
    // No legal move: Done without a move.
    e.set_position(Some("B:W6,7,12:B1"), &[]).unwrap();
    assert!(e.legal_moves().is_empty());
    assert!(!e.has_legal_move());
    let (sink, rx) = channel();
    e.go(Limits::depth(5), sink).unwrap();
    assert!(done(&mut e, &rx).best.is_none());
}

#[test]
fn info_events_carry_the_pv() {
    let mut e = engine(Variant::Brazilian);
    e.new_game();
    let (sink, rx) = channel();
    e.go(Limits::depth(6), sink).unwrap();
    let mut infos = Vec::new();
    let d = loop {
        match rx.recv_timeout(Duration::from_secs(10)).unwrap() {
            Event::Info(i) => infos.push(i),
            Event::Done(d) => break d,
        }
    };
    assert_eq!(infos.len(), 6);
    let last = infos.last().unwrap();
    assert_eq!(last.depth, 6);
    assert_eq!(last.pv[0], d.best.clone().unwrap());
    assert!(
        last.pv[0].pdn.contains('-'),
        "algebraic PDN: {}",
        last.pv[0].pdn
    );
    assert_eq!(d.ponder.as_ref(), last.pv.get(1));
}

/// The evaluation cache returns what the evaluation would: the same search, node for node, with
/// it on, off, or so small (two entries) that positions keep evicting each other.
#[test]
fn the_eval_cache_changes_no_node() {
    let cases: [(Variant, Option<&str>, u32); 5] = [
        (Variant::International, None, 14),
        (
            Variant::International,
            Some(
                "W:W27,28,31,32,33,36,37,38,39,41,42,43,44,47,48:B3,6,8,9,11,12,13,14,16,17,18,19,22,23,24",
            ),
            18,
        ),
        (Variant::Russian, Some("W:WKa1,c3,e3,g3:Bb8,Kd6,f6,h6"), 20),
        (Variant::English, None, 15),
        (Variant::Morris, None, 9),
    ];
    for (variant, fen, depth) in cases {
        let mut runs = Vec::new();
        for (cache, bits) in [("on", "14"), ("off", "14"), ("on", "1")] {
            let mut e = engine(variant);
            e.set_option("threads", "1").unwrap();
            e.set_option("eval-cache", cache).unwrap();
            e.set_option("eval-cache-bits", bits).unwrap();
            e.set_position(fen, &[]).unwrap();
            let (sink, rx) = channel();
            e.go(Limits::depth(depth), sink).unwrap();
            let d = done(&mut e, &rx);
            runs.push((d.best.map(|m| m.hub), d.score, d.depth, d.nodes));
        }
        assert!(runs[0].3 > 1000, "{variant:?}: a search of some size");
        assert_eq!(runs[0], runs[1], "{variant:?}: cache on and off");
        assert_eq!(runs[0], runs[2], "{variant:?}: a two-entry cache");
    }
}
