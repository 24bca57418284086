//! Endgame tables against known theory, on tables built in the test run: a king against a king
//! draws (international), four kings beat one bar a few tactical draws and three kings draw
//! against a king that holds the long diagonal (international, the long test), two kings beat one
//! and one against one draws (english), three kings beat one when they hold the main diagonal and
//! draw when the lone king holds it (russian); and the tables' distances are the search's own
//! proven game ends where a capture ends the game.

use crate::egdb_common::*;
use tiao::draughts::board::{Geometry, UP_RIGHT};
use tiao::draughts::position::Position;
use tiao::draughts::rules::{Brazilian, Duoyibu, English, International, Rules, Russian};
use tiao::egdb::draughts::DraughtsTables;
use tiao::egdb::draughts::index::{Material, SliceIndex};
use tiao::egdb::{Probed, Wdl};
use tiao::game::color::Color;
use tiao::search::score::{ScoreKind, loss_in, win_in};
use tiao::search::tt::Tt;
use tiao::search::{Score, search_to_depth};

fn value<R: Rules>(t: &DraughtsTables<R>, fen: &str) -> Wdl {
    t.lookup(&pos::<R>(fen))
        .unwrap_or_else(|| panic!("{fen} is not in the tables"))
        .wdl
}

/// Calls `f` with every position of `slice` with `side` to move and no capture pending, and its
/// value.
fn each_quiet<R: Rules>(
    t: &DraughtsTables<R>,
    slice: &str,
    side: Color,
    mut f: impl FnMut(&Position<R>, Wdl),
) {
    let ix = SliceIndex::<R::Board>::new(Material::parse(slice).unwrap());
    for i in 0..ix.positions() {
        let (w, b, k) = ix.position_of(i);
        let p = Position::<R>::from_parts(w, b, k, side).unwrap();
        if !tiao::draughts::movegen::has_capture(&p) {
            f(&p, t.lookup(&p).unwrap().wdl);
        }
    }
}

/// The value of every position of `slice` with `side` to move, grouped by `key` of the white
/// pieces, black pieces and kings.
fn census<R: Rules, K: Ord>(
    t: &DraughtsTables<R>,
    slice: &str,
    side: Color,
    key: impl Fn(u64, u64, u64) -> K,
) -> std::collections::BTreeMap<(K, Wdl), u64> {
    let mut n = std::collections::BTreeMap::new();
    each_quiet(t, slice, side, |p, v| {
        *n.entry((key(p.white(), p.black(), p.kings()), v))
            .or_insert(0) += 1;
    });
    n
}

#[test]
fn international_king_against_king_is_a_draw() {
    let t = build::<International>(&["KvK"]);
    for fen in ["W:WK46:BK1", "W:WK28:BK24", "B:WK33:BK18", "W:WK28:BK3"] {
        assert_eq!(value(&t, fen), Wdl::Draw, "{fen}");
    }
    // Only a king caught on the long diagonal is lost: 46 can only go toward 5 and be taken.
    assert_eq!(value(&t, "W:WK46:BK5"), Wdl::Loss);
    let n = census(&t, "KvK", Color::White, |_, _, _| ());
    let draws = n[&((), Wdl::Draw)];
    let total: u64 = n.values().sum();
    assert!(draws * 100 >= total * 99, "{n:?}");
}

#[test]
#[ignore = "builds the 21 million positions of four kings against one (a minute on 2 cores)"]
fn international_four_kings_beat_one() {
    let t = build::<International>(&["KKKKvK"]);
    for fen in [
        "W:WK1,K2,K3,K4:BK50",
        "B:WK1,K2,K3,K4:BK28",
        "B:WK46,K47,K48,K49:BK5",
    ] {
        assert_eq!(
            value(&t, fen),
            if fen.starts_with('W') {
                Wdl::Win
            } else {
                Wdl::Loss
            },
            "{fen}"
        );
    }
    // The kings win every position without a capture pending but a few tactical ones: where
    // every move of the side to move leaves (or, for the lone king, makes) a capture by the lone
    // king that takes enough kings to draw.
    for side in [Color::White, Color::Black] {
        let (mut decided, mut tactical) = (0u64, 0u64);
        let want = if side == Color::White {
            Wdl::Win
        } else {
            Wdl::Loss
        };
        each_quiet(&t, "KKKKvK", side, |p, v| {
            if v == want {
                decided += 1;
                return;
            }
            assert_eq!(v, Wdl::Draw, "{p}");
            let after = tiao::draughts::movegen::legal_moves(p);
            match side {
                // Each of the kings' moves leaves the lone king a capture.
                Color::White => assert!(
                    after
                        .iter()
                        .all(|m| tiao::draughts::movegen::has_capture(&p.make(m))),
                    "{p}"
                ),
                // The lone king has a move to such a position.
                Color::Black => assert!(
                    after
                        .iter()
                        .any(|m| t.lookup(&p.make(m)).unwrap().wdl == Wdl::Draw),
                    "{p}"
                ),
            }
            tactical += 1;
        });
        assert!(
            tactical * 100 <= decided,
            "{side:?}: {tactical} draws, {decided} decided"
        );
    }
    // Three kings against one draw with the lone king to move, bar the traps; and always when it
    // holds the long diagonal (46-5) and the kings do not.
    let a1 = <International as Rules>::Board::bit_of_coords(0, 0).unwrap();
    let diag = (1u64 << a1) | <International as Rules>::Board::RAYS[UP_RIGHT][a1 as usize];
    let n = census(&t, "KKKvK", Color::Black, |w, b, _| {
        (w & diag != 0, b & diag != 0)
    });
    let count = |f: &dyn Fn(&(bool, bool), Wdl) -> bool| -> u64 {
        n.iter()
            .filter(|((k, v), _)| f(k, *v))
            .map(|(_, c)| c)
            .sum()
    };
    assert_eq!(
        count(&|k, v| *k == (false, true) && v != Wdl::Draw),
        0,
        "{n:?}"
    );
    assert!(count(&|k, _| *k == (false, true)) > 0, "{n:?}");
    assert!(
        count(&|_, v| v == Wdl::Draw) > 10 * count(&|_, v| v == Wdl::Loss),
        "{n:?}"
    );
}

#[test]
fn english_two_kings_beat_one_and_one_draws_one() {
    let t = build::<English>(&["KKvK"]);
    assert_eq!(value(&t, "W:WK1,K2:BK30"), Wdl::Win);
    assert_eq!(value(&t, "B:WK1,K2:BK30"), Wdl::Loss);
    assert_eq!(value(&t, "W:WK18:BK12"), Wdl::Draw);
    assert_eq!(value(&t, "W:WK18:BK11"), Wdl::Draw);
    assert_eq!(value(&t, "B:WK1:BK32"), Wdl::Draw);
    // Two kings win from (all but a few tactical) positions with either side to move.
    let n = census(&t, "KKvK", Color::White, |_, _, _| ());
    assert!(
        n[&((), Wdl::Win)] * 100 >= 99 * n.values().sum::<u64>(),
        "{n:?}"
    );
    let n = census(&t, "KvKK", Color::White, |_, _, _| ());
    assert!(
        n[&((), Wdl::Loss)] * 100 >= 99 * n.values().sum::<u64>(),
        "{n:?}"
    );
}

#[test]
fn russian_three_kings_and_the_main_diagonal() {
    let t = build::<Russian>(&["KKKvK"]);
    let a1 = <Russian as Rules>::Board::bit_of_coords(0, 0).unwrap();
    let diag = (1u64 << a1) | <Russian as Rules>::Board::RAYS[UP_RIGHT][a1 as usize];
    // Classic positions: the kings hold a1-h8 and win; the lone king on it draws.
    assert_eq!(value(&t, "W:WKa1,Kc1,Ke1:BKh2"), Wdl::Win);
    assert_eq!(value(&t, "B:WKa1,Kc1,Kg1:BKb8"), Wdl::Loss);
    assert_eq!(value(&t, "W:WKa3,Kc1,Ke1:BKh8"), Wdl::Draw);
    assert_eq!(value(&t, "B:WKa3,Kc1,Ke1:BKd4"), Wdl::Draw);
    // The lone king on the main diagonal, its side to move, the kings off it: never lost.
    let n = census(&t, "KvKKK", Color::White, |w, b, _| {
        (w & diag != 0, b & diag != 0)
    });
    for ((key, v), count) in &n {
        if *key == (true, false) {
            assert_eq!(*v, Wdl::Draw, "{count} positions: {n:?}");
        }
    }
    // A king on the main diagonal, the lone king off it: a win with the kings to move, bar a
    // handful of positions where the lone king attacks.
    let n = census(&t, "KKKvK", Color::White, |w, b, _| {
        (w & diag != 0, b & diag != 0)
    });
    let wins = n[&((true, false), Wdl::Win)];
    let other: u64 = n
        .iter()
        .filter(|((k, v), _)| *k == (true, false) && *v != Wdl::Win)
        .map(|(_, c)| c)
        .sum();
    assert!(other * 50 < wins, "{n:?}");
}

/// In a king against a king, a capture ends the game: the tables' distance to capture of a
/// decided position is the search's proven game end, in plies.
fn distances_are_game_ends<R: Rules>() {
    let t = build::<R>(&["KvK"]);
    let ix = SliceIndex::<R::Board>::new(Material::parse("KvK").unwrap());
    let tt = Tt::try_new(4).unwrap();
    let mut checked = 0;
    for i in 0..ix.positions() {
        let (w, b, k) = ix.position_of(i);
        let p = Position::<R>::from_parts(w, b, k, Color::White).unwrap();
        let Some(Probed {
            wdl,
            distance: Some(d),
        }) = t.lookup(&p)
        else {
            continue;
        };
        let d = d as usize;
        let want = match wdl {
            Wdl::Win => win_in(d),
            Wdl::Loss => loss_in(d),
            Wdl::Draw => continue,
        };
        let r = search_to_depth(&p, d as u32 + 2, &tt);
        assert_eq!(
            r.score,
            Score(want),
            "{:?} {}: tables {wdl} in {d}, search {:?}",
            R::VARIANT,
            tiao::game::Game::fen(&p),
            r.score.kind()
        );
        assert!(!matches!(r.score.kind(), ScoreKind::Eval(_)));
        checked += 1;
    }
    assert!(checked > 0);
}

#[test]
fn distances_agree_with_the_search() {
    distances_are_game_ends::<International>();
    distances_are_game_ends::<English>();
    distances_are_game_ends::<Russian>();
    distances_are_game_ends::<Brazilian>();
    distances_are_game_ends::<Duoyibu>();
}
