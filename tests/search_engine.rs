//! The engine facade: positions and typed errors, options, background searches, stop, ponder,
//! time limits, and the events a protocol layer receives.

use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tiao::engine::{Done, Engine, EngineError, EngineOptions, Event, EventSink};
use tiao::search::Limits;
use tiao::variant::{DrawRuleSet, GameKind, Variant};

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

/// Waits for the `Done` event, checking that it is the last one.
fn done(rx: &Receiver<Event>, within: Duration) -> Done {
    loop {
        match rx.recv_timeout(within).expect("a Done event in time") {
            Event::Info(_) => {}
            Event::Done(d) => {
                assert!(rx.recv_timeout(Duration::from_millis(20)).is_err());
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
fn infinite_search_stops_within_milliseconds() {
    let mut e = engine(Variant::International);
    let (sink, rx) = channel();
    e.go(Limits::infinite(), sink).unwrap();
    std::thread::sleep(Duration::from_millis(200));
    assert!(e.is_searching());
    assert!(matches!(
        e.go(Limits::depth(1), channel().0),
        Err(EngineError::Busy)
    ));
    let t = Instant::now();
    e.stop();
    let d = done(&rx, Duration::from_secs(5));
    let latency = t.elapsed();
    assert!(latency < Duration::from_millis(100), "{latency:?}");
    assert!(d.best.is_some() && d.depth >= 1);
    e.wait();
    assert!(!e.is_searching());
}

#[test]
fn move_time_is_kept() {
    let mut e = engine(Variant::International);
    let (sink, rx) = channel();
    let t = Instant::now();
    e.go(Limits::move_time(Duration::from_millis(300)), sink)
        .unwrap();
    let d = done(&rx, Duration::from_secs(5));
    let spent = t.elapsed();
    assert!(spent <= Duration::from_millis(400), "{spent:?}");
    assert!(d.best.is_some());
}

#[test]
fn clock_is_never_exceeded() {
    let mut e = engine(Variant::International);
    let (sink, rx) = channel();
    let t = Instant::now();
    e.go(
        Limits {
            time: Some(Duration::from_millis(150)),
            inc: Duration::from_millis(10),
            ..Limits::default()
        },
        sink,
    )
    .unwrap();
    let d = done(&rx, Duration::from_secs(5));
    assert!(
        t.elapsed() < Duration::from_millis(160),
        "{:?}",
        t.elapsed()
    );
    assert!(d.best.is_some());
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
    let t = Instant::now();
    e.ponder_hit();
    let d = done(&rx, Duration::from_secs(5));
    assert!(
        t.elapsed() < Duration::from_millis(200),
        "{:?}",
        t.elapsed()
    );
    assert!(d.best.is_some());
}

#[test]
fn single_move_and_lost_positions() {
    let mut e = engine(Variant::International);
    e.set_position(Some("W:W28,45:B23,1"), &[]).unwrap();
    let (sink, rx) = channel();
    e.go(Limits::move_time(Duration::from_secs(30)), sink)
        .unwrap();
    let d = done(&rx, Duration::from_secs(1));
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
    assert!(done(&rx, Duration::from_secs(5)).depth >= 3);
    // No legal move: Done without a move.
    e.set_position(Some("B:W6,7,12:B1"), &[]).unwrap();
    assert!(e.legal_moves().is_empty());
    assert!(!e.has_legal_move());
    let (sink, rx) = channel();
    e.go(Limits::depth(5), sink).unwrap();
    assert!(done(&rx, Duration::from_secs(1)).best.is_none());
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
