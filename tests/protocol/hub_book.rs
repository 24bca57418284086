//! Hub sessions with the opening book: `tiao hub` answers a book position at once with a move of
//! the embedded book and an `info` line marked `book=yes` (none with `book=false`); with
//! `book-margin=0` the move is the book's best; with a margin, every choice over several seeds is
//! within it and more than one move appears; a bad `book-file` is an `error` line and the engine
//! goes on with the book it had; an english game set up at any ballot of the three-move deck (by
//! its FEN, or by its moves) is answered from the book. Behaviour only: no test here measures time.

use crate::hub_common::{Engine, PATIENCE, value};
use tiao::book::{BookMove, embedded, probe};
use tiao::draughts::position::Position;
use tiao::draughts::rules::International;
use tiao::game::Variant;

/// The embedded international book's moves of the start position, best first.
fn start_moves() -> Vec<BookMove> {
    let book = embedded::default_book(Variant::International).expect("the embedded book");
    probe::probe(&book, &Position::<International>::start())
        .expect("the start position is in the book")
        .into_iter()
        .map(|(_, b)| b)
        .collect()
}

/// A `go think` at the start position: the `done` move and the `info` lines before it.
fn think_at_start(e: &mut Engine) -> (String, Vec<String>) {
    e.send("pos start");
    e.send("level nodes=3000");
    let (done, infos) = e.go("think");
    (value(&done, "move").expect("move="), infos)
}

fn temp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("tiao-hub-book-{}-{name}", std::process::id()))
}

#[test]
fn a_book_position_is_answered_from_the_book_and_book_false_searches() {
    let moves = start_moves();
    let mut e = Engine::hub_with_book();
    e.send("hub");
    let (_, params) = e.until("wait", PATIENCE);
    for p in ["book", "book-file", "book-ply", "book-margin", "book-seed"] {
        assert!(
            params
                .iter()
                .any(|l| value(l, "name").as_deref() == Some(p)),
            "{p}: {params:?}"
        );
    }
    assert!(
        params
            .iter()
            .any(|l| l.starts_with("param name=book value=true type=bool"))
    );
    e.send("init");
    e.expect("ready");
    let (mv, infos) = think_at_start(&mut e);
    assert_eq!(infos.len(), 1, "{infos:?}");
    let info = &infos[0];
    assert_eq!(value(info, "book").as_deref(), Some("yes"), "{info}");
    assert_eq!(value(info, "depth").as_deref(), Some("0"), "{info}");
    assert_eq!(value(info, "nodes").as_deref(), Some("0"), "{info}");
    assert_eq!(value(info, "pv").as_deref(), Some(mv.as_str()), "{info}");
    assert!(moves.iter().any(|b| b.text == mv), "{mv} is a book move");

    // Analysis and pondering search, book or not.
    e.send("level depth=3");
    let (_, infos) = e.go("analyze");
    assert!(
        infos.iter().all(|l| value(l, "book").is_none()),
        "{infos:?}"
    );

    e.send("set-param name=book value=false");
    let (mv, infos) = think_at_start(&mut e);
    assert!(!infos.is_empty());
    assert!(
        infos.iter().all(|l| value(l, "book").is_none()),
        "{infos:?}"
    );
    assert!(
        infos
            .iter()
            .all(|l| value(l, "depth").is_some_and(|d| d != "0")),
        "{infos:?}"
    );
    assert!(e.legal_moves().contains(&mv));

    // Out of the book (a position no book of a few thousand positions reaches), a search.
    e.send("set-param name=book value=true");
    e.send("pos fen=\"W:W28,31,32,33,34,35:B16,17,18,19,20\"");
    e.send("level depth=4");
    let (_, infos) = e.go("think");
    assert!(
        infos.iter().all(|l| value(l, "book").is_none()),
        "{infos:?}"
    );
    e.quit();
}

#[test]
fn margin_zero_plays_the_best_and_a_margin_keeps_to_it() {
    let moves = start_moves();
    let best = &moves[0];
    let mut e = Engine::hub_with_book();
    e.send("set-param name=book-margin value=0");
    for seed in 1..=4 {
        e.send(&format!("set-param name=book-seed value={seed}"));
        assert_eq!(think_at_start(&mut e).0, best.text);
    }
    // A margin that takes in the two best moves of the start position (at least).
    let margin = (best.score - moves[1].score).max(1);
    assert!(
        moves.len() >= 2 && margin < 200,
        "the start position has two good moves: {moves:?}"
    );
    e.send(&format!("set-param name=book-margin value={margin}"));
    let mut played = std::collections::BTreeSet::new();
    let mut by_seed = Vec::new();
    for seed in 1..=16 {
        e.send(&format!("set-param name=book-seed value={seed}"));
        let mv = think_at_start(&mut e).0;
        let b = moves.iter().find(|b| b.text == mv).expect("a book move");
        assert!(
            best.score - b.score <= margin,
            "{mv}: {b:?} against {best:?}"
        );
        played.insert(mv.clone());
        by_seed.push(mv);
    }
    assert!(played.len() >= 2, "{played:?}");
    // A seed replays its choices.
    e.send("set-param name=book-seed value=3");
    assert_eq!(think_at_start(&mut e).0, by_seed[2]);
    // From book-ply on, the best.
    e.send("set-param name=book-ply value=0");
    for seed in 1..=4 {
        e.send(&format!("set-param name=book-seed value={seed}"));
        assert_eq!(think_at_start(&mut e).0, best.text);
    }
    e.quit();
}

#[test]
fn a_bad_book_file_is_an_error_and_the_engine_keeps_its_book() {
    let good = embedded::bytes(Variant::International);
    let truncated = temp("truncated.book");
    std::fs::write(&truncated, &good[..good.len() / 2]).unwrap();
    let damaged = temp("damaged.book");
    let mut bytes = good.to_vec();
    let at = bytes.len() - 10;
    bytes[at] ^= 0x55;
    std::fs::write(&damaged, &bytes).unwrap();
    let foreign = temp("foreign.book");
    std::fs::write(&foreign, embedded::bytes(Variant::English)).unwrap();
    let copy = temp("copy.book");
    std::fs::write(&copy, good).unwrap();

    let mut e = Engine::hub_with_book();
    e.send("set-param name=book-margin value=0");
    for (file, what) in [
        (&truncated, "truncated"),
        (&damaged, "damaged"),
        (&foreign, "a book of english"),
        (&temp("missing.book"), "missing.book"),
    ] {
        e.send(&format!(
            "set-param name=book-file value={}",
            file.display()
        ));
        let error = e.expect("error");
        assert!(
            error.contains("book-file") && error.contains(what),
            "{what}: {error}"
        );
        let (mv, infos) = think_at_start(&mut e);
        assert_eq!(
            value(&infos[0], "book").as_deref(),
            Some("yes"),
            "{infos:?}"
        );
        assert_eq!(mv, start_moves()[0].text);
    }
    // A good file is taken without a word, and named by `hub`.
    e.send(&format!(
        "set-param name=book-file value={}",
        copy.display()
    ));
    assert!(e.sync().is_empty());
    e.send("hub");
    let (_, params) = e.until("wait", PATIENCE);
    assert!(
        params
            .iter()
            .any(|l| l.contains("name=book-file") && l.contains("copy.book")),
        "{params:?}"
    );
    let (_, infos) = think_at_start(&mut e);
    assert_eq!(value(&infos[0], "book").as_deref(), Some("yes"));
    e.quit();
    for f in [truncated, damaged, foreign, copy] {
        let _ = std::fs::remove_file(f);
    }
}

#[test]
fn every_variant_plays_its_own_book() {
    let mut e = Engine::hub_with_book();
    for v in [
        "english",
        "russian",
        "brazilian",
        "duoyibu",
        "morris",
        "normal",
    ] {
        e.send(&format!("set-param name=variant value={v}"));
        let (mv, infos) = think_at_start(&mut e);
        assert_eq!(
            value(&infos[0], "book").as_deref(),
            Some("yes"),
            "{v}: {infos:?}"
        );
        assert!(e.legal_moves().contains(&mv), "{v}: {mv}");
    }
    e.quit();
}

#[test]
fn english_games_from_every_ballot_start_in_the_book() {
    use tiao::draughts::ballots;
    use tiao::draughts::rules::English;
    use tiao::game::Game;
    let book = embedded::default_book(Variant::English).expect("the embedded english book");
    let mut e = Engine::hub_with_book();
    e.send("set-param name=variant value=english");
    e.send("level nodes=3000");
    for b in ballots::deck() {
        let mut pos = Position::<English>::start();
        for m in &b.moves {
            pos = pos.make(&pos.parse_move(m).unwrap());
        }
        let moves = probe::probe(&book, &pos).expect("in the book");
        // By its FEN alone, and from the start by its three moves.
        for setup in [
            format!("pos fen=\"{}\"", pos.fen()),
            format!("pos start moves=\"{}\"", b.moves.join(" ")),
        ] {
            e.send(&setup);
            let (done, infos) = e.go("think");
            let mv = value(&done, "move").expect("move=");
            assert_eq!(infos.len(), 1, "ballot {}: {infos:?}", b.number);
            assert_eq!(
                value(&infos[0], "book").as_deref(),
                Some("yes"),
                "ballot {} ({setup}): {infos:?}",
                b.number
            );
            assert!(
                moves.iter().any(|(_, m)| m.text == mv),
                "ballot {}: {mv} is a book move",
                b.number
            );
        }
    }
    e.quit();
}
