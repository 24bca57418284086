//! Endgame labels (`tiao relabel --egdb`): training records of positions the tables cover are
//! scored by the tables' value under the draw counters (a win +DECISIVE, a loss -DECISIVE, a
//! draw 0), where the search without tables scores them by the evaluation; records above
//! `max_pieces` keep their score.

use crate::egdb_common::*;
use tiao::draughts::position::Position;
use tiao::draughts::rules::{English, Rules, Russian};
use tiao::egdb::draughts::DraughtsTables;
use tiao::egdb::{Probe, Wdl};
use tiao::game::Game;
use tiao::search::tt::Tt;
use tiao::training::data::{DECISIVE, Record};
use tiao::training::relabel::{Relabel, relabel_chunk};

/// A record of `pos` with a score no search gives (so a kept score shows).
fn record<R: Rules>(pos: &Position<R>) -> Record {
    Record {
        white: pos.white(),
        black: pos.black(),
        kings: pos.kings(),
        score: 1234,
        result: 0,
        side: pos.side(),
        ply: 40,
    }
}

/// The label the tables give `pos` under the draw counters (at zero).
fn label<R: Rules>(t: &DraughtsTables<R>, pos: &Position<R>) -> i16 {
    match t.probe(pos).expect("covered").wdl {
        Wdl::Win => DECISIVE,
        Wdl::Loss => -DECISIVE,
        Wdl::Draw => 0,
    }
}

/// Positions of `slices` (spread over each), their records relabelled at 300 nodes with the
/// tables and without: with them every record takes the tables' label; and the same records
/// with `max_pieces` below their pieces keep their scores.
fn labels_follow_tables<R: Rules>(name: &str, slices: &[&str]) -> Vec<(Wdl, i16)> {
    let dir = temp_dir(name);
    let tables = build_in::<R>(&dir, slices);
    let positions: Vec<Position<R>> = slices
        .iter()
        .flat_map(|s| spread::<R>(s, 40))
        .filter(|p| tables.probe(p).is_some() && quiet(p))
        .collect();
    assert!(
        positions.len() > 40,
        "{name}: {} positions",
        positions.len()
    );
    let original: Vec<Record> = positions.iter().map(record).collect();
    let with_tables = Relabel::<R> {
        nodes: 300,
        max_pieces: u32::MAX,
        tables: Some(&tables),
    };
    let mut labelled = original.clone();
    relabel_chunk::<R>(&mut labelled, &with_tables, &Tt::new(1)).unwrap();
    let mut seen = Vec::new();
    for (p, r) in positions.iter().zip(&labelled) {
        assert_eq!(r.score, label(&tables, p), "{name}: {}", p.fen());
        seen.push((tables.probe(p).unwrap().wdl, r.score));
    }
    // Only the score changed.
    for (n, o) in labelled.iter().zip(&original) {
        assert_eq!(
            Record {
                score: o.score,
                ..*n
            },
            *o
        );
    }
    // Above max_pieces nothing is searched: every score kept.
    let most = positions.iter().map(|p| p.piece_count()).min().unwrap();
    let mut kept = original.clone();
    let below = Relabel::<R> {
        max_pieces: most - 1,
        ..with_tables
    };
    relabel_chunk::<R>(&mut kept, &below, &Tt::new(1)).unwrap();
    assert_eq!(kept, original);
    // The same search without tables scores by the evaluation: some covered position, a table
    // win, loss or draw, is scored otherwise.
    let mut searched = original.clone();
    relabel_chunk::<R>(&mut searched, &Relabel::nodes(300), &Tt::new(1)).unwrap();
    assert!(
        searched
            .iter()
            .zip(&labelled)
            .any(|(s, l)| s.score != l.score),
        "{name}: the tables changed no label"
    );
    let _ = std::fs::remove_dir_all(&dir);
    seen
}

/// Whether `pos` is a position self-play keeps: moves to make, none of them a capture.
fn quiet<R: Rules>(pos: &Position<R>) -> bool {
    !tiao::draughts::movegen::legal_moves(pos).is_empty()
        && !tiao::draughts::movegen::has_capture(pos)
}

#[test]
fn russian_endings_are_labelled_by_the_tables() {
    // Two kings against one draw in russian; a king against a man, and kings against men, are
    // won, drawn or lost by where they stand.
    let seen = labels_follow_tables::<Russian>("labels-russian", &["KKvK", "KvM", "KvKM"]);
    assert!(seen.iter().any(|&(w, s)| w == Wdl::Draw && s == 0));
    assert!(
        seen.iter()
            .any(|&(w, s)| w != Wdl::Draw && s.abs() == DECISIVE)
    );
}

#[test]
fn english_endings_are_labelled_by_the_tables() {
    let seen = labels_follow_tables::<English>("labels-english", &["KKvK", "KvM"]);
    assert!(seen.iter().any(|&(w, s)| w == Wdl::Win && s == DECISIVE));
}
