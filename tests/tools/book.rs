//! Opening books end to end: small books of english, international and morris grown in the
//! library and by `tiao book build`, written and read back unchanged; a build is byte-identical
//! when repeated, when resumed and when its steps are scored by shards and merged; foreign,
//! truncated and damaged files are refused with errors that name the problem; the book choice
//! keeps to its margin; `tiao book info` and `probe` print what they should. An english book
//! grown with the three-move ballots holds every ballot of the deck (not the barred ones as
//! roots) with all its moves, continues them, and is built the same in one go, resumed and
//! sharded.

use crate::cli_support::tiao;
use std::path::{Path, PathBuf};
use tiao::book::build::{self, Roots, Settings, book_children, from_child};
use tiao::book::format::{self, FileKind};
use tiao::book::{Book, BookError, choose, probe};
use tiao::draughts::ballots;
use tiao::draughts::position::Position;
use tiao::draughts::rules::{English, International};
use tiao::game::rng::Rng;
use tiao::game::{Evaluate, Game, Variant};
use tiao::morris::MorrisPosition;

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("tiao-book-{}-{name}", std::process::id()))
}

fn settings() -> Settings {
    Settings {
        nodes: 400,
        batch: 4,
        ply_cost: 20,
        roots: Roots::Start,
    }
}

/// A book of at least `target` positions grown in the library.
fn grow<G: Evaluate>(variant: Variant, target: usize) -> Book {
    let mut book = Book::new(variant, settings());
    let scorer = build::Scorer::new(1).unwrap();
    build::grow::<G>(&mut book, target, &scorer, &mut |_, _| Ok(()), &|| {}).unwrap();
    book
}

/// Every book position is reached from its roots, holds exactly the legal moves, and its
/// moves' scores are the minimax of the tree; the choice keeps to its margin there.
fn check_book<G: Evaluate>(book: &Book) {
    let (depth, reached) = probe::depth::<G>(book);
    assert_eq!(reached, book.len());
    assert!(depth >= 1);
    let mut todo: Vec<G> = build::roots::<G>(&book.settings)
        .into_iter()
        .map(|(g, _)| g)
        .collect();
    let mut seen = std::collections::HashSet::new();
    let mut rng = Rng::new(7);
    while let Some(pos) = todo.pop() {
        if !seen.insert(pos.key()) {
            continue;
        }
        let Some(moves) = book.get(pos.key()) else {
            continue;
        };
        assert!(probe::missing_moves(book, &pos).is_empty(), "{}", pos.fen());
        let children = book_children(&pos, moves);
        assert_eq!(children.len(), moves.len(), "{}", pos.fen());
        for (i, _, child) in children {
            if let Some(cm) = book.get(child.key()) {
                let v = cm.iter().map(|m| m.score as i32).max().unwrap();
                assert_eq!(moves[i].score as i32, from_child(v), "{}", pos.fen());
                todo.push(child);
            } else {
                assert_eq!(moves[i].score, moves[i].leaf);
            }
        }
        let best = moves.iter().map(|m| m.score).max().unwrap();
        for ply in 0..8 {
            let i = choose(moves, ply, 8, 0, &mut rng).unwrap();
            assert_eq!(moves[i].score, best);
            let j = choose(moves, ply, 8, 15, &mut rng).unwrap();
            assert!(moves[j].score as i32 >= best as i32 - 15);
            let k = choose(moves, 8 + ply, 8, 15, &mut rng).unwrap();
            assert_eq!(moves[k].score, best, "past the book ply: the best");
        }
    }
}

fn round_trip<G: Evaluate>(variant: Variant, target: usize) {
    let book = grow::<G>(variant, target);
    assert!(book.len() >= target && book.len() < target + settings().batch as usize);
    check_book::<G>(&book);
    let path = temp(&format!("{}.book", variant.name()));
    let bytes = format::encode(FileKind::Book, variant, &book.settings, &book.entries);
    format::write(&path, &bytes).unwrap();
    let (header, entries) = format::read(&path, Some(variant)).unwrap();
    assert_eq!(header.kind, FileKind::Book);
    assert_eq!(header.settings, settings());
    assert_eq!(header.entries as usize, book.len());
    assert_eq!(entries, book.entries, "the same moves and scores read back");
    // Grown again: the same bytes.
    let again = grow::<G>(variant, target);
    assert_eq!(
        format::encode(FileKind::Book, variant, &again.settings, &again.entries),
        bytes
    );
    let _ = std::fs::remove_file(path);
}

#[test]
fn english_books_round_trip_and_back_up_by_minimax() {
    round_trip::<Position<English>>(Variant::English, 30);
}

#[test]
fn international_books_round_trip_and_back_up_by_minimax() {
    round_trip::<Position<International>>(Variant::International, 20);
}

#[test]
fn morris_books_round_trip_and_back_up_by_minimax() {
    round_trip::<MorrisPosition>(Variant::Morris, 12);
}

fn build_cli(out: &Path, positions: &str, extra: &[&str]) -> (String, String, bool) {
    let mut args = vec![
        "book",
        "build",
        "-v",
        "english",
        "--positions",
        positions,
        "--nodes",
        "400",
        "--batch",
        "4",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    tiao(&args)
}

#[test]
fn a_build_is_the_same_repeated_resumed_threaded_and_sharded() {
    let whole = temp("whole.book");
    let _ = std::fs::remove_file(&whole);
    let (out, err, ok) = build_cli(&whole, "25", &[]);
    assert!(ok, "{err}");
    assert!(out.contains("book english: 25 positions"), "{out}");
    let bytes = std::fs::read(&whole).unwrap();
    // The library's book of the same settings is the file's.
    let book = grow::<Position<English>>(Variant::English, 25);
    assert_eq!(
        format::encode(
            FileKind::Book,
            Variant::English,
            &book.settings,
            &book.entries
        ),
        bytes
    );
    // Again from scratch, on two threads.
    let again = temp("again.book");
    let _ = std::fs::remove_file(&again);
    let (_, err, ok) = build_cli(&again, "25", &["--threads", "2"]);
    assert!(ok, "{err}");
    assert_eq!(
        std::fs::read(&again).unwrap(),
        bytes,
        "built twice: the same bytes"
    );
    // Resumed: 10 positions first (a whole step: 13), then 25.
    let resumed = temp("resumed.book");
    let _ = std::fs::remove_file(&resumed);
    let (out, err, ok) = build_cli(&resumed, "10", &[]);
    assert!(ok && out.contains("13 positions"), "{out}{err}");
    let (_, err, ok) = build_cli(&resumed, "25", &[]);
    assert!(ok, "{err}");
    assert!(err.contains("continuing a book of 13 positions"), "{err}");
    assert_eq!(
        std::fs::read(&resumed).unwrap(),
        bytes,
        "resumed = in one go"
    );
    // Settings differing from the book's are refused, naming the book's.
    let (_, err, ok) = build_cli(&resumed, "30", &["--ply-cost", "5"]);
    assert!(!ok && err.contains("--ply-cost 20"), "{err}");
    // Sharded: each step scored by two shards and merged.
    let sharded = temp("sharded.book");
    let _ = std::fs::remove_file(&sharded);
    let parts = [temp("p0.part"), temp("p1.part")];
    for _ in 0..7 {
        for (i, p) in parts.iter().enumerate() {
            let shard = format!("{i}/2");
            let (out, err, ok) = build_cli(
                &sharded,
                "25",
                &["--shard", &shard, "--part", p.to_str().unwrap()],
            );
            assert!(ok && out.contains(&format!("shard {shard}")), "{out}{err}");
        }
        merge_english_parts(&sharded, &parts);
    }
    assert_eq!(
        std::fs::read(&sharded).unwrap(),
        bytes,
        "sharded = in one go"
    );
    // A part of an older step, or one shard alone, is refused.
    let (_, err, ok) = tiao(&[
        "book",
        "merge",
        "-v",
        "english",
        "--out",
        sharded.to_str().unwrap(),
        parts[0].to_str().unwrap(),
        parts[1].to_str().unwrap(),
    ]);
    assert!(!ok && err.contains("another book"), "{err}");
    let (_, _, ok) = build_cli(
        &sharded,
        "25",
        &["--shard", "0/2", "--part", parts[0].to_str().unwrap()],
    );
    assert!(ok);
    let (_, err, ok) = tiao(&[
        "book",
        "merge",
        "-v",
        "english",
        "--out",
        sharded.to_str().unwrap(),
        parts[0].to_str().unwrap(),
    ]);
    assert!(!ok && err.contains("shards missing: 1/2"), "{err}");
    for p in [
        whole,
        again,
        resumed,
        sharded,
        parts[0].clone(),
        parts[1].clone(),
    ] {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn foreign_truncated_and_damaged_books_are_refused() {
    let path = temp("refused.book");
    let _ = std::fs::remove_file(&path);
    let (_, err, ok) = build_cli(&path, "5", &[]);
    assert!(ok, "{err}");
    let bytes = std::fs::read(&path).unwrap();
    let p = path.to_str().unwrap();
    // Another variant: both named.
    let (_, err, ok) = tiao(&["book", "probe", p, "-v", "international"]);
    assert!(!ok, "{err}");
    assert!(
        err.contains("a book of english, not of international") && err.contains(p),
        "{err}"
    );
    assert!(matches!(
        format::read(&path, Some(Variant::Morris)),
        Err(BookError::Foreign { .. })
    ));
    // Truncated, in the payload and in the header.
    for cut in [bytes.len() - 3, format::HEADER_LEN - 10] {
        std::fs::write(&path, &bytes[..cut]).unwrap();
        let (_, err, ok) = tiao(&["book", "info", p]);
        assert!(!ok && err.contains("truncated") && err.contains(p), "{err}");
    }
    // A flipped byte in the payload, then in the header.
    for at in [bytes.len() - 5, 30] {
        let mut b = bytes.clone();
        b[at] ^= 0x40;
        std::fs::write(&path, &b).unwrap();
        let (_, err, ok) = tiao(&["book", "info", p]);
        assert!(
            !ok && err.contains("damaged") && err.contains(p),
            "{at}: {err}"
        );
        let part = if at == 30 { "header" } else { "payload" };
        assert!(err.contains(part), "{err}");
    }
    // Not a book; a resumed build refuses it rather than overwriting it.
    std::fs::write(&path, b"W:W21,22:B1,2\n").unwrap();
    let (_, err, ok) = tiao(&["book", "info", p]);
    assert!(!ok && err.contains("not a tiao opening book"), "{err}");
    let (_, err, ok) = build_cli(&path, "5", &[]);
    assert!(!ok && err.contains("not a tiao opening book"), "{err}");
    assert_eq!(std::fs::read(&path).unwrap(), b"W:W21,22:B1,2\n");
    let (_, err, ok) = tiao(&["book", "info", temp("none.book").to_str().unwrap()]);
    assert!(!ok && err.contains("none.book"), "{err}");
    let _ = std::fs::remove_file(path);
}

#[test]
fn info_and_probe_print_the_book() {
    let path = temp("print.book");
    let _ = std::fs::remove_file(&path);
    let (_, err, ok) = build_cli(&path, "9", &[]);
    assert!(ok, "{err}");
    let p = path.to_str().unwrap();
    let book = grow::<Position<English>>(Variant::English, 9);
    let (out, err, ok) = tiao(&["book", "info", p]);
    assert!(ok, "{err}");
    assert!(out.contains("variant    english"), "{out}");
    assert!(
        out.contains("positions  9 (9 reached from its roots)"),
        "{out}"
    );
    let (depth, _) = probe::depth::<Position<English>>(&book);
    assert!(out.contains(&format!("depth      {depth} plies")), "{out}");
    let root = Position::<English>::start();
    let line = probe::main_line(&book, &root, 40).join(" ");
    assert!(out.contains("main line  ") && out.contains(&line), "{out}");
    assert!(out.contains("--nodes 400 --batch 4 --ply-cost 20"), "{out}");
    // The start position: its seven moves, best first.
    let (out, err, ok) = tiao(&["book", "probe", p, "-v", "english"]);
    assert!(ok, "{err}");
    assert!(out.contains("7 moves in the book"), "{out}");
    let best = &probe::probe(&book, &root).unwrap()[0].1;
    let first = out.lines().nth(2).unwrap();
    assert!(first.starts_with(&best.text), "{out}");
    // After a move of the main line: in the book; after an unlikely one: not.
    let first_move = line.split(' ').next().unwrap();
    let (out, _, ok) = tiao(&["book", "probe", p, "-v", "english", "--moves", first_move]);
    assert!(ok && out.contains("moves in the book"), "{out}");
    let (out, _, ok) = tiao(&[
        "book",
        "probe",
        p,
        "-v",
        "english",
        "--moves",
        "9-13 22-18 13-17",
    ]);
    assert!(ok && out.contains("not in the book"), "{out}");
    let (_, err, ok) = tiao(&["book", "probe", p, "-v", "english", "--moves", "1-5"]);
    assert!(!ok && err.contains("1-5"), "{err}");
    let _ = std::fs::remove_file(path);
}

type E = Position<English>;

/// The position after each ballot of the ACF list (barred ones too), with the ballot.
fn ballot_positions() -> Vec<(ballots::Ballot, E)> {
    ballots::all()
        .into_iter()
        .map(|b| {
            let mut pos = E::start();
            for m in &b.moves {
                pos = pos.make(&pos.parse_move(m).unwrap());
            }
            (b, pos)
        })
        .collect()
}

fn ballot_settings() -> Settings {
    Settings {
        nodes: 60,
        batch: 16,
        ply_cost: 20,
        roots: Roots::Ballots,
    }
}

/// Positions the ballot book of these tests is grown to: the 157 roots (ten steps), then one
/// step of 16 from them.
const BALLOT_BOOK: usize = 170;

#[test]
fn a_ballot_book_holds_every_ballot_and_continues_each() {
    let mut book = Book::new(Variant::English, ballot_settings());
    let scorer = build::Scorer::new(1).unwrap();
    let steps =
        build::grow::<E>(&mut book, BALLOT_BOOK, &scorer, &mut |_, _| Ok(()), &|| {}).unwrap();
    let roots = build::roots::<E>(&book.settings);
    assert_eq!(
        roots.len(),
        157,
        "the start and the 156 ballots of the deck"
    );
    assert_eq!(steps.len(), 11);
    assert_eq!(book.len(), 157 + 16);
    for (b, pos) in ballot_positions() {
        let is_root = roots.iter().any(|(g, _)| g.key() == pos.key());
        assert_eq!(is_root, !b.barred, "ballot {}", b.number);
        if b.barred {
            continue;
        }
        let moves = book
            .get(pos.key())
            .unwrap_or_else(|| panic!("ballot {} {:?} is not in the book", b.number, b.moves));
        assert!(!moves.is_empty(), "ballot {}", b.number);
        assert!(
            probe::missing_moves(&book, &pos).is_empty(),
            "ballot {}",
            b.number
        );
        assert!(probe::probe(&book, &pos).is_some_and(|m| !m.is_empty()));
    }
    check_book::<E>(&book);
    // The step after the roots continues the ballots: positions a ply past a ballot's.
    let (depth, reached) = probe::depth::<E>(&book);
    assert_eq!(reached, book.len());
    assert!(depth > build::BALLOT_PLIES, "depth {depth}");
    // Grown again: the same book.
    let mut again = Book::new(Variant::English, ballot_settings());
    build::grow::<E>(&mut again, BALLOT_BOOK, &scorer, &mut |_, _| Ok(()), &|| {}).unwrap();
    assert_eq!(again, book);
}

fn build_ballots_cli(out: &Path, positions: &str, extra: &[&str]) -> (String, String, bool) {
    let s = ballot_settings();
    let (nodes, batch) = (s.nodes.to_string(), s.batch.to_string());
    let mut args = vec![
        "book",
        "build",
        "-v",
        "english",
        "--ballots",
        "--positions",
        positions,
        "--nodes",
        &nodes,
        "--batch",
        &batch,
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    tiao(&args)
}

#[test]
fn tiao_book_build_ballots_is_the_same_in_one_go_resumed_and_sharded() {
    let whole = temp("ballots-whole.book");
    let _ = std::fs::remove_file(&whole);
    let target = BALLOT_BOOK.to_string();
    let (out, err, ok) = build_ballots_cli(&whole, &target, &[]);
    assert!(ok, "{err}");
    assert!(out.contains("book english: 173 positions"), "{out}");
    let bytes = std::fs::read(&whole).unwrap();
    let mut book = Book::new(Variant::English, ballot_settings());
    let scorer = build::Scorer::new(1).unwrap();
    build::grow::<E>(&mut book, BALLOT_BOOK, &scorer, &mut |_, _| Ok(()), &|| {}).unwrap();
    assert_eq!(
        format::encode(
            FileKind::Book,
            Variant::English,
            &book.settings,
            &book.entries
        ),
        bytes,
        "the CLI's book is the library's"
    );
    let w = whole.to_str().unwrap();
    let (out, err, ok) = tiao(&["book", "info", w]);
    assert!(ok, "{err}");
    assert!(out.contains("--ply-cost 20 --ballots"), "{out}");
    assert!(
        out.contains("roots      the start and 156 ballots: 157 of 157 in the book"),
        "{out}"
    );
    let (out, err, ok) = tiao(&[
        "book",
        "probe",
        w,
        "-v",
        "english",
        "--moves",
        "9-13 21-17 5-9",
    ]);
    assert!(ok && out.contains("moves in the book"), "{out}{err}");
    // Resumed in the middle of the roots.
    let resumed = temp("ballots-resumed.book");
    let _ = std::fs::remove_file(&resumed);
    let (out, err, ok) = build_ballots_cli(&resumed, "40", &[]);
    assert!(ok && out.contains("48 positions"), "{out}{err}");
    let (_, err, ok) = build_ballots_cli(&resumed, &target, &[]);
    assert!(ok, "{err}");
    assert_eq!(
        std::fs::read(&resumed).unwrap(),
        bytes,
        "resumed = in one go"
    );
    // Sharded: every step scored by two shards and merged.
    let sharded = temp("ballots-sharded.book");
    let _ = std::fs::remove_file(&sharded);
    let parts = [temp("ballots-p0.part"), temp("ballots-p1.part")];
    for _ in 0..11 {
        for (i, p) in parts.iter().enumerate() {
            let shard = format!("{i}/2");
            let (out, err, ok) = build_ballots_cli(
                &sharded,
                &target,
                &["--shard", &shard, "--part", p.to_str().unwrap()],
            );
            assert!(ok && out.contains(&format!("shard {shard}")), "{out}{err}");
        }
        merge_english_parts(&sharded, &parts);
    }
    assert_eq!(
        std::fs::read(&sharded).unwrap(),
        bytes,
        "sharded = in one go"
    );
    // Continuing without --ballots, or the ballots for another variant: refused.
    let (_, err, ok) = build_cli(&whole, "200", &[]);
    assert!(!ok && err.contains("--ballots"), "{err}");
    let other = temp("ballots-international.book");
    let (_, err, ok) = tiao(&[
        "book",
        "build",
        "-v",
        "international",
        "--ballots",
        "--positions",
        "1",
        "--out",
        other.to_str().unwrap(),
    ]);
    assert!(!ok && err.contains("english"), "{err}");
    assert!(!other.exists());
    for p in [whole, resumed, sharded, parts[0].clone(), parts[1].clone()] {
        let _ = std::fs::remove_file(p);
    }
}

/// `tiao book merge -v english --out sharded parts...`, which must report the parts merged.
fn merge_english_parts(sharded: &std::path::Path, parts: &[std::path::PathBuf]) {
    let mut args = vec![
        "book",
        "merge",
        "-v",
        "english",
        "--out",
        sharded.to_str().unwrap(),
    ];
    args.extend(parts.iter().map(|p| p.to_str().unwrap()));
    let (out, err, ok) = tiao(&args);
    let merged = format!("merged from {} parts", parts.len());
    assert!(ok && out.contains(&merged), "{out}{err}");
}
