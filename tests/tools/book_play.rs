//! Playing from the opening books: every embedded book loads and is of its variant; the english
//! book holds the position of every ballot of the ACF three-move deck with all its moves; the engine
//! facade answers a book position from the book only when its book is on; `tiao match`'s
//! built-in engine plays without the book unless its spec says `book=on`; `tiao analyze` shows
//! the book's moves (text and `--json`) and leaves them out with `--no-book`.

use crate::cli_support::tiao;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tiao::book::{embedded, probe};
use tiao::draughts::position::Position;
use tiao::draughts::rules::International;
use tiao::engine::{BookOptions, Engine, EngineOptions, Event, EventSink};
use tiao::game::Variant;
use tiao::matches::EngineConfig;
use tiao::matches::clock::Budget;
use tiao::matches::{BuiltinPlayer, Player, Request};
use tiao::search::Limits;
use tiao::variant::GameKind;

#[test]
fn every_embedded_book_loads_and_is_of_its_variant() {
    for v in Variant::ALL {
        let book = embedded::decode(v).unwrap_or_else(|e| panic!("{v:?}: {e}"));
        assert_eq!(book.variant, v);
        assert!(book.len() > 1, "{v:?}: {} positions", book.len());
        assert!(
            embedded::bytes(v).len() <= 600 * 1024,
            "{v:?}: {} bytes",
            embedded::bytes(v).len()
        );
        // Every book holds its start position.
        let kind = GameKind::new(v);
        let engine = Engine::new(
            kind,
            EngineOptions {
                hash_mib: 1,
                book: BookOptions::on(),
                ..EngineOptions::default()
            },
        )
        .unwrap();
        let moves = engine.book_moves().unwrap_or_else(|| panic!("{v:?}"));
        assert_eq!(moves.len(), engine.legal_moves().len(), "{v:?}");
    }
}

#[test]
fn the_embedded_english_book_holds_every_ballot_of_the_deck() {
    use tiao::book::build::Roots;
    use tiao::draughts::ballots;
    use tiao::draughts::rules::English;
    use tiao::game::Game;
    let book = embedded::decode(Variant::English).unwrap();
    assert_eq!(book.settings.roots, Roots::Ballots);
    let deck = ballots::deck();
    assert_eq!(deck.len(), 156);
    for b in deck {
        let mut pos = Position::<English>::start();
        for m in &b.moves {
            pos = pos.make(&pos.parse_move(m).unwrap());
        }
        let moves = probe::probe(&book, &pos)
            .unwrap_or_else(|| panic!("ballot {} {:?} is not in the book", b.number, b.moves));
        assert!(!moves.is_empty(), "ballot {}", b.number);
        assert!(
            probe::missing_moves(&book, &pos).is_empty(),
            "ballot {}",
            b.number
        );
    }
}

/// One `go` with `limits`: its events.
fn go(engine: &mut Engine, limits: Limits) -> Vec<Event> {
    let events = Arc::new(Mutex::new(Vec::new()));
    let sink_events = events.clone();
    let sink: EventSink = Arc::new(move |e| sink_events.lock().unwrap().push(e));
    engine.go(limits, sink).unwrap();
    engine.wait();
    events.lock().unwrap().clone()
}

#[test]
fn the_facade_plays_from_the_book_only_when_it_is_on() {
    let book = embedded::default_book(Variant::International).unwrap();
    let best = probe::probe(&book, &Position::<International>::start()).unwrap()[0]
        .1
        .text
        .clone();
    let options = |book: BookOptions| EngineOptions {
        hash_mib: 1,
        book,
        ..EngineOptions::default()
    };
    // Off by default: a search.
    let mut off = Engine::new(GameKind::default(), options(BookOptions::default())).unwrap();
    assert!(off.book_moves().is_none());
    let events = go(&mut off, Limits::nodes(2000));
    assert!(
        events
            .iter()
            .all(|e| !matches!(e, Event::Info(i) if i.book))
    );
    assert!(matches!(events.last(), Some(Event::Done(d)) if d.nodes > 0));
    // On, margin 0: the book's best, at once.
    let mut on = Engine::new(
        GameKind::default(),
        options(BookOptions {
            margin: 0,
            ..BookOptions::on()
        }),
    )
    .unwrap();
    let events = go(&mut on, Limits::nodes(2000));
    match &events[..] {
        [Event::Info(i), Event::Done(d)] => {
            assert!(i.book && i.depth == 0 && i.nodes == 0, "{i:?}");
            let mv = d.best.as_ref().unwrap();
            assert_eq!(mv.hub, best);
            assert_eq!((d.depth, d.nodes, d.time), (0, 0, Duration::ZERO));
        }
        e => panic!("{e:?}"),
    }
    // Analysis searches.
    let events = go(
        &mut on,
        Limits {
            analyze: true,
            ..Limits::depth(2)
        },
    );
    assert!(
        events
            .iter()
            .all(|e| !matches!(e, Event::Info(i) if i.book))
    );
}

/// The built-in player's answer at the start of international draughts.
fn builtin_first_move(spec: &str) -> tiao::matches::Reply {
    let mut p = BuiltinPlayer::new(EngineConfig::parse(spec).unwrap());
    let kind = GameKind::default();
    p.new_game(kind).unwrap();
    let fen = tiao::draughts::notation::fen::write(&Position::<International>::start());
    let reply = p
        .play(&Request {
            start_fen: &fen,
            start_hub: "",
            moves: &[],
            budget: Budget::Nodes(3000),
            deadline: Duration::from_secs(60),
        })
        .unwrap();
    p.quit();
    reply
}

#[test]
fn match_engines_play_without_the_book_unless_asked() {
    let plain = builtin_first_move("tiao hash=1");
    assert_ne!(plain.depth, Some(0), "searched: {plain:?}");
    assert!(plain.nodes.unwrap_or(0) > 0, "{plain:?}");
    let again = builtin_first_move("tiao hash=1");
    assert_eq!(plain.mv, again.mv, "reproducible");
    let booked = builtin_first_move("tiao hash=1 book=on book-margin=0");
    assert_eq!(booked.depth, Some(0), "from the book: {booked:?}");
    assert_eq!(booked.nodes, Some(0));
    let book = embedded::default_book(Variant::International).unwrap();
    let best = &probe::probe(&book, &Position::<International>::start()).unwrap()[0].1;
    assert_eq!(booked.mv, best.text);
    assert!(EngineConfig::parse("tiao book=maybe").is_err());
}

#[test]
fn analyze_shows_the_book_and_no_book_leaves_it_out() {
    let (out, err, ok) = tiao(&["analyze", "--depth", "3", "--egdb", "none"]);
    assert!(ok, "{err}");
    assert!(
        out.contains("book: the position is in the opening book"),
        "{out}"
    );
    assert!(out.contains("bestmove"), "{out}");
    let (out, err, ok) = tiao(&["analyze", "--depth", "3", "--egdb", "none", "--no-book"]);
    assert!(ok, "{err}");
    assert!(out.contains("book: not looked up (--no-book)"), "{out}");
    assert!(!out.contains("in the opening book"), "{out}");
    let out_of_book = [
        "analyze",
        "--depth",
        "3",
        "--egdb",
        "none",
        "--fen",
        "W:W28,31,32,33,34,35:B16,17,18,19,20",
    ];
    let (out, err, ok) = tiao(&out_of_book);
    assert!(ok, "{err}");
    assert!(
        out.contains("book: the position is not in the opening book"),
        "{out}"
    );

    let (out, err, ok) = tiao(&["analyze", "--depth", "3", "--egdb", "none", "--json"]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let moves = v["book"].as_array().unwrap_or_else(|| panic!("{out}"));
    assert_eq!(moves.len(), 9, "{out}");
    assert!(
        moves[0]["move"].is_string() && moves[0]["score"].is_i64(),
        "{out}"
    );
    let (out, _, ok) = tiao(&[
        "analyze",
        "--depth",
        "3",
        "--egdb",
        "none",
        "--json",
        "--no-book",
    ]);
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert!(v["book"].is_null(), "{out}");
    // A bad book file is refused, naming it.
    let (_, err, ok) = tiao(&["analyze", "--depth", "1", "--book", "/nonexistent/x.book"]);
    assert!(!ok && err.contains("x.book"), "{err}");
}
