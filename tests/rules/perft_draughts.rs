//! Perft of every draughts variant against the reference figures in `tests/data/*.perft`
//! (copied from `../shared/perft/`).
//!
//! Shallow depths run in every `cargo test`: the node budget is small in debug builds and larger
//! in release builds. The deep figures are `#[ignore]`d and run by `.ci/run` with
//! `cargo test --profile tests -- --ignored` (they take a few minutes on two cores).

use tiao::draughts::movegen::{count, count_three, count_two, generate};
use tiao::draughts::position::Position;
use tiao::draughts::rules::{Brazilian, Duoyibu, English, International, Rules, Russian};
use tiao::game::MoveList;
use tiao::perft::{PerftOptions, divide, perft};

use crate::perft_support::load;

/// Checks every figure of `file` whose leaf count lies in `min..=max`.
fn check<R: Rules>(file: &str, min: u64, max: u64, threads: usize) -> usize {
    let (variant, cases) = load(file);
    assert_eq!(variant, R::VARIANT.name(), "{file} is for {variant}");
    let mut checked = 0;
    for case in &cases {
        let pos = tiao::draughts::notation::fen::parse::<R>(&case.fen)
            .unwrap_or_else(|e| panic!("{file}: {}: {e}", case.fen));
        for &(depth, expected) in &case.figures {
            if expected < min || expected > max {
                continue;
            }
            let got = if threads == 1 {
                perft(&pos, depth, true)
            } else {
                divide(
                    &pos,
                    depth,
                    PerftOptions {
                        bulk: true,
                        threads,
                    },
                    &|_, _| {},
                )
                .iter()
                .map(|x| x.1)
                .sum()
            };
            assert_eq!(got, expected, "{file}: {} depth {depth}", case.fen);
            checked += 1;
        }
    }
    checked
}

/// Leaf budget of the figures every `cargo test` checks.
const SHALLOW: u64 = if cfg!(debug_assertions) {
    300_000
} else {
    5_000_000
};
/// Leaf budget of the deep, ignored tests (release mode; a few minutes in all on two cores).
const DEEP: u64 = 2_000_000_000;

#[test]
fn international_shallow() {
    assert!(check::<International>("international.perft", 0, SHALLOW, 1) >= 30);
}

#[test]
fn brazilian_shallow() {
    assert!(check::<Brazilian>("brazilian.perft", 0, SHALLOW, 1) >= 5);
}

#[test]
fn russian_shallow() {
    assert!(check::<Russian>("russian.perft", 0, SHALLOW, 1) >= 5);
}

#[test]
fn english_shallow() {
    assert!(check::<English>("english.perft", 0, SHALLOW, 1) >= 5);
}

/// Duoyibu equals russian wherever there are no kings, so the start position's figures are
/// russian's (RULES.md: duoyibu's only difference is the king rule).
#[test]
fn duoyibu_equals_russian_on_start() {
    let d = Position::<Duoyibu>::start();
    let r = Position::<Russian>::start();
    let max_depth = if cfg!(debug_assertions) { 6 } else { 8 };
    for depth in 1..=max_depth {
        assert_eq!(
            perft(&d, depth, true),
            perft(&r, depth, true),
            "depth {depth}"
        );
    }
}

#[test]
fn bulk_counting_equals_making_every_leaf() {
    let p = Position::<International>::start();
    assert_eq!(perft(&p, 5, true), perft(&p, 5, false));
    let e = Position::<English>::start();
    assert_eq!(perft(&e, 6, true), perft(&e, 6, false));
}

/// Positions seen by [`bulk_count_on_random_games`]: all, with a king, with a multiple capture.
#[derive(Default, Debug)]
struct Seen {
    positions: usize,
    with_kings: usize,
    multiple_captures: usize,
}

/// Checks that the bulk count of every position of random games (kings, promotions, long
/// captures and all) equals the number of generated moves, and that the two- and three-ply counts
/// (children counted without being made) equal the children's counts.
fn bulk_count_on_random_games<R: Rules>(games: u64) -> Seen {
    let mut seen = Seen::default();
    let mut list = MoveList::new();
    let mut scratch = MoveList::new();
    let mut list2 = MoveList::new();
    let mut list3 = MoveList::new();
    for game in 0..games {
        let mut rng = game.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut pos = Position::<R>::start();
        for _ in 0..300 {
            generate(&pos, &mut list);
            assert_eq!(
                count(&pos, &mut scratch),
                list.len() as u64,
                "{}",
                tiao::draughts::notation::fen::write(&pos)
            );
            let children: u64 = list.iter().map(|m| count(&pos.make(m), &mut scratch)).sum();
            assert_eq!(
                count_two(&pos, &mut list2, &mut scratch),
                children,
                "two plies below {}",
                tiao::draughts::notation::fen::write(&pos)
            );
            let grandchildren: u64 = list
                .iter()
                .map(|m| count_two(&pos.make(m), &mut list2, &mut scratch))
                .sum();
            assert_eq!(
                count_three(&pos, &mut list3, &mut list2, &mut scratch),
                grandchildren,
                "three plies below {}",
                tiao::draughts::notation::fen::write(&pos)
            );
            seen.positions += 1;
            seen.with_kings += (pos.kings() != 0) as usize;
            seen.multiple_captures += list.iter().any(|m| m.captured.count_ones() > 1) as usize;
            if list.is_empty() {
                break;
            }
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            pos = pos.make(&list.as_slice()[(rng % list.len() as u64) as usize]);
        }
    }
    seen
}

#[test]
fn bulk_count_equals_generation_in_random_games() {
    let games = if cfg!(debug_assertions) { 20 } else { 200 };
    for (name, seen) in [
        (
            "international",
            bulk_count_on_random_games::<International>(games),
        ),
        ("brazilian", bulk_count_on_random_games::<Brazilian>(games)),
        ("russian", bulk_count_on_random_games::<Russian>(games)),
        ("duoyibu", bulk_count_on_random_games::<Duoyibu>(games)),
        ("english", bulk_count_on_random_games::<English>(games)),
    ] {
        // The games reach the cases the popcount shortcut must leave to the generator.
        assert!(seen.with_kings * 10 > seen.positions, "{name}: {seen:?}");
        assert!(
            seen.multiple_captures * 50 > seen.positions,
            "{name}: {seen:?}"
        );
    }
}

#[test]
#[ignore = "deep perft: run in release mode by .ci/run"]
fn international_deep() {
    check::<International>("international.perft", SHALLOW + 1, DEEP, 2);
}

#[test]
#[ignore = "deep perft: run in release mode by .ci/run"]
fn brazilian_deep() {
    check::<Brazilian>("brazilian.perft", SHALLOW + 1, DEEP / 4, 2);
}

#[test]
#[ignore = "deep perft: run in release mode by .ci/run"]
fn russian_deep() {
    check::<Russian>("russian.perft", SHALLOW + 1, DEEP / 4, 2);
}

#[test]
#[ignore = "deep perft: run in release mode by .ci/run"]
fn english_deep() {
    check::<English>("english.perft", SHALLOW + 1, DEEP / 4, 2);
}
