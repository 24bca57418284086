//! Nine Men's Morris perft against `tests/data/morris.perft` (a copy of
//! `shared/perft/morris.perft`), in both counting conventions: a removal as part of the move that
//! closes the mill (the file's figures), and as a ply of its own (Sanmill's; the figures the file
//! gives in a comment). Shallow depths run in every `cargo test`; the deep ones are `#[ignore]`d,
//! for an optimised build: `cargo test --profile tests --test rules morris_perft -- --ignored`.

use tiao::game::Game;
use tiao::morris::{MorrisPosition, RemovalPly};
use tiao::perft::{PerftOptions, divide, perft};

/// The file's Sanmill-convention figures, depths 1-6 (from its comment).
const REMOVAL_PLY: [u64; 6] = [24, 552, 12144, 255024, 5100480, 96223680];

/// (fen, depth, nodes) of the file's morris section.
fn cases() -> Vec<(String, u32, u64)> {
    let (_, cases) = crate::perft_support::load("morris.perft");
    let out: Vec<_> = cases
        .into_iter()
        .filter(|c| c.variant == "morris")
        .flat_map(|c| {
            c.figures
                .into_iter()
                .map(move |(d, n)| (c.fen.clone(), d, n))
        })
        .collect();
    assert!(!out.is_empty(), "no morris figures in the data file");
    out
}

fn position(fen: &str) -> MorrisPosition {
    if fen == "start" {
        MorrisPosition::start()
    } else {
        MorrisPosition::from_fen(fen).expect("valid fen")
    }
}

fn check_default(max_depth: u32) {
    for (fen, depth, nodes) in cases().into_iter().filter(|c| c.1 <= max_depth) {
        let p = position(&fen);
        assert_eq!(perft(&p, depth, true), nodes, "{fen} depth {depth}");
    }
}

fn check_removal_ply(max_depth: u32) {
    let p = RemovalPly::start();
    for (d, &nodes) in REMOVAL_PLY.iter().enumerate().take(max_depth as usize) {
        assert_eq!(
            perft(&p, d as u32 + 1, true),
            nodes,
            "removal as a ply, depth {}",
            d + 1
        );
    }
}

#[test]
fn start_position_default_convention() {
    check_default(4);
}

#[test]
fn start_position_removal_as_ply() {
    check_removal_ply(4);
}

#[test]
fn the_two_conventions_agree_where_no_mill_is_closed() {
    // No mill can be closed before the fifth ply.
    for d in 1..=4 {
        assert_eq!(
            perft(&MorrisPosition::start(), d, true),
            perft(&RemovalPly::start(), d, true)
        );
    }
}

#[test]
fn bulk_counting_matches_making_every_leaf() {
    // Positions from the middle and the end of a game: sliding, flying, mills to close.
    for fen in [
        "W:Wa1,a4,d7,b2:Bg7,g4,g1,d6:H0,0:R0",
        "W:Wa1,a4,f4:Bg7,g1,b6,e3:H0,0:R0",
        "W:Wd7,g7,a4,a1:Bb6,f6,b2,f2:H5,5:R0",
        "B:Wa7,d7,b6,f6,c5,e5,c3,e3,d2:Ba1,d1,g1,a4,g4,b4,f4,d3:H0,1:R0",
        "W:Wa7,a4,a1,d2,d3,e3:Bg7,g1,d6,f4,c5:H0,0:R10",
    ] {
        let p = MorrisPosition::from_fen(fen).unwrap();
        let r = RemovalPly::new(p);
        for d in 1..=3 {
            assert_eq!(perft(&p, d, true), perft(&p, d, false), "{fen} depth {d}");
            assert_eq!(
                perft(&r, d, true),
                perft(&r, d, false),
                "{fen} depth {d} removal ply"
            );
        }
        // One ply of Sanmill's convention counts each mill-closing action once; one ply of ours
        // counts it once per removal.
        let mut list = tiao::game::MoveList::default();
        p.generate(&mut list);
        let mut actions: Vec<_> = list.iter().map(|m| m.action()).collect();
        actions.dedup();
        assert_eq!(perft(&r, 1, true), actions.len() as u64, "{fen}");
        assert_eq!(perft(&p, 1, true), list.len() as u64, "{fen}");
    }
}

#[test]
fn divide_sums_to_perft_on_threads() {
    let p = MorrisPosition::from_fen("W:Wa7,a4,a1,d2,d3,e3:Bg7,g1,d6,f4,c5:H0,0:R10").unwrap();
    let total = perft(&p, 4, true);
    for threads in [1, 2] {
        let d = divide(
            &p,
            4,
            PerftOptions {
                bulk: true,
                threads,
            },
            &|_, _| {},
        );
        assert_eq!(d.iter().map(|x| x.1).sum::<u64>(), total);
    }
    let r = RemovalPly::start();
    let d = divide(
        &r,
        5,
        PerftOptions {
            bulk: true,
            threads: 2,
        },
        &|_, _| {},
    );
    assert_eq!(d.len(), 24);
    assert_eq!(d.iter().map(|x| x.1).sum::<u64>(), REMOVAL_PLY[4]);
}

#[test]
#[ignore = "deep: run with --release -- --ignored"]
fn deep_default_convention() {
    check_default(u32::MAX);
}

#[test]
#[ignore = "deep: run with --release -- --ignored"]
fn deep_removal_as_ply() {
    check_removal_ply(6);
}
