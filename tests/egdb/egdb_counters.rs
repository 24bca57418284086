//! The tables under the draw counters: a table win (or loss) that a counter would end before
//! its next capture is answered as a draw by the probe the search uses; with room left it stays
//! decided. Tables built in the test run (3 and 4 pieces).

use crate::egdb_common::*;
use tiao::draughts::draw::Counters;
use tiao::draughts::position::Position;
use tiao::draughts::rules::{English, International, Rules, Russian};
use tiao::egdb::draughts::DraughtsTables;
use tiao::egdb::{Probe, Probed, Wdl};
use tiao::game::Game;

/// Decided positions of `slice` (White to move, no capture pending), with their distance.
fn decided<R: Rules>(t: &DraughtsTables<R>, slice: &str, n: usize) -> Vec<(Position<R>, Probed)> {
    let found: Vec<_> = spread::<R>(slice, 5000)
        .filter_map(|p| Some((p, t.lookup(&p)?)))
        .filter(|(_, v)| v.wdl != Wdl::Draw && v.distance.is_some_and(|d| d > 1))
        .take(n)
        .collect();
    assert!(!found.is_empty(), "no decided position in {slice}");
    found
}

/// `pos` with counter `rule` at `plies` (the others at 0).
fn with_counter<R: Rules>(pos: &Position<R>, rule: usize, plies: u8) -> Position<R> {
    let mut c = Counters::default();
    c.by_rule[rule] = plies;
    let mut p = *pos;
    p.set_counters(c);
    p
}

/// For every decided position: with counter `rule` (threshold `limit`) leaving exactly the
/// distance the value stands; one ply less and it is a draw. `other` is the smallest threshold
/// of the other rules that count in the slice (their counters stay at 0).
fn counter_decides<R: Rules>(
    t: &DraughtsTables<R>,
    slice: &str,
    rule: usize,
    limit: u8,
    other: u8,
) {
    let mut checked = 0;
    for (p, v) in decided(t, slice, 200) {
        // A draughts distance is a byte.
        let d = u8::try_from(v.distance.unwrap()).unwrap();
        if d > limit.min(other) {
            // Already beyond the counter from its start: a draw at once.
            assert_eq!(t.probe(&with_counter(&p, rule, 0)).unwrap().wdl, Wdl::Draw);
            continue;
        }
        let room = with_counter(&p, rule, limit - d);
        assert_eq!(
            t.probe(&room).unwrap(),
            v,
            "{} with {} plies left",
            p.fen(),
            d
        );
        let short = with_counter(&p, rule, limit - d + 1);
        assert_eq!(
            t.probe(&short).unwrap(),
            Probed {
                wdl: Wdl::Draw,
                distance: None
            },
            "{} with {} plies left, {d} to the capture",
            p.fen(),
            d - 1
        );
        checked += 1;
    }
    assert!(checked > 10, "only {checked} positions checked in {slice}");
}

#[test]
fn russian_three_kings_against_one_under_the_18_move_rule() {
    let t = build::<Russian>(&["KKKvK"]);
    // Rule 1: 3 kings against a lone king, 36 plies, not reset by captures.
    assert_eq!(
        tiao::draughts::draw::RUSSIAN.rules[1].plies,
        36,
        "the rule this test counts"
    );
    counter_decides(&t, "KKKvK", 1, 36, 60);
    // The 30-round rule (60 plies, reset by a capture) counts here too.
    counter_decides(&t, "KKKvK", 0, 60, 36);
}

#[test]
fn international_endings_under_the_lone_king_rules() {
    let t = build::<International>(&["KKKvK", "KKvK"]);
    // Rule 1: 3 pieces with a king against a lone king, 32 plies; rule 2: 2 pieces, 10 plies;
    // rule 0: 25 moves of kings only (50 plies), counted when no man is on the board.
    counter_decides(&t, "KKKvK", 1, 32, 50);
    counter_decides(&t, "KKKvK", 0, 50, 32);
    // Two kings against one: drawn in general, but a king caught can be lost.
    let losses: Vec<_> = decided(&t, "KvKK", 50);
    for (p, v) in losses {
        let d = u8::try_from(v.distance.unwrap()).unwrap();
        if d <= 10 {
            assert_eq!(t.probe(&with_counter(&p, 2, 10 - d)).unwrap(), v);
            assert_eq!(
                t.probe(&with_counter(&p, 2, 11 - d)).unwrap().wdl,
                Wdl::Draw
            );
        }
    }
}

#[test]
fn a_counter_reset_by_a_man_move_is_left_to_the_search_while_men_stand() {
    let t = build::<English>(&["KKMvK"]);
    // English counts 40 moves of kings only (80 plies, reset by a man's move): with a man on
    // the board the man may move first, so the value stands whatever the counter.
    for (p, v) in decided(&t, "KKMvK", 100) {
        assert_eq!(t.probe(&with_counter(&p, 0, 79)).unwrap(), v, "{}", p.fen());
    }
    // Kings only: the counter counts.
    let t = build::<English>(&["KKvK"]);
    counter_decides(&t, "KKvK", 0, 80, u8::MAX);
}
