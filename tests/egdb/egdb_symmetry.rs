//! Symmetries the tables must respect though their numbering does not use them: a kings-only
//! position and its reflections in the two long diagonals (which map dark squares to dark
//! squares, and king moves to king moves) have the same value and distance; and any position and
//! its colour flip (the board turned round, the colours and the side to move swapped) agree.

use crate::egdb_common::*;
use tiao::draughts::board::{Bits, Geometry};
use tiao::draughts::position::Position;
use tiao::draughts::rules::{Brazilian, Duoyibu, English, International, Rules, Russian};
use tiao::egdb::draughts::DraughtsTables;
use tiao::egdb::draughts::index::{Material, SliceIndex, rotate};
use tiao::game::color::Color;

/// A bitboard with each square moved by `f` on coordinates.
fn map<G: Geometry>(b: u64, f: impl Fn(u32, u32) -> (u32, u32)) -> u64 {
    Bits(b)
        .map(|s| {
            let (x, y) = G::coords_of_bit(s);
            let (x, y) = f(x, y);
            1u64 << G::bit_of_coords(x, y).expect("dark squares map to dark squares")
        })
        .fold(0, |a, b| a | b)
}

fn kings_only<R: Rules>(t: &DraughtsTables<R>, slice: &str) {
    let n = R::Board::SIZE - 1;
    let ix = SliceIndex::<R::Board>::new(Material::parse(slice).unwrap());
    let reflections: [&dyn Fn(u32, u32) -> (u32, u32); 2] =
        [&|x, y| (y, x), &|x, y| (n - y, n - x)];
    let mut checked = 0;
    for i in 0..ix.positions() {
        let (w, b, k) = ix.position_of(i);
        for side in [Color::White, Color::Black] {
            let p = Position::<R>::from_parts(w, b, k, side).unwrap();
            let v = t.lookup(&p);
            assert!(v.is_some());
            for f in reflections {
                let (rw, rb, rk) = (
                    map::<R::Board>(w, f),
                    map::<R::Board>(b, f),
                    map::<R::Board>(k, f),
                );
                let q = Position::<R>::from_parts(rw, rb, rk, side).unwrap();
                assert_eq!(
                    t.lookup(&q),
                    v,
                    "{:?} {} and its reflection {}",
                    R::VARIANT,
                    tiao::game::Game::fen(&p),
                    tiao::game::Game::fen(&q)
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 0);
}

fn colour_flip<R: Rules>(t: &DraughtsTables<R>, slice: &str) {
    let ix = SliceIndex::<R::Board>::new(Material::parse(slice).unwrap());
    for i in (0..ix.positions()).step_by(7) {
        let (w, b, k) = ix.position_of(i);
        let p = Position::<R>::from_parts(w, b, k, Color::White).unwrap();
        let (rw, rb, rk) = (
            rotate::<R::Board>(b),
            rotate::<R::Board>(w),
            rotate::<R::Board>(k),
        );
        let q = Position::<R>::from_parts(rw, rb, rk, Color::Black).unwrap();
        assert_eq!(t.lookup(&p), t.lookup(&q), "{:?} {slice} {i}", R::VARIANT);
        assert!(t.lookup(&p).is_some());
    }
}

#[test]
fn reflections_of_kings_only_positions_agree() {
    kings_only(&build::<English>(&["KKvKK", "KKKvK"]), "KKvKK");
    kings_only(&build::<English>(&["KKKvK"]), "KKKvK");
    kings_only(&build::<Russian>(&["KKvKK"]), "KKvKK");
    kings_only(&build::<Brazilian>(&["KKvK"]), "KvKK");
    kings_only(&build::<Duoyibu>(&["KKvKK"]), "KKvKK");
    kings_only(&build::<International>(&["KKvK"]), "KKvK");
}

#[test]
fn colour_flips_agree() {
    colour_flip(&build::<English>(&["KMvKM"]), "KMvKM");
    colour_flip(&build::<English>(&["KMvKM"]), "MvKM");
    colour_flip(&build::<Russian>(&["KMvMM"]), "KMvMM");
    colour_flip(&build::<Duoyibu>(&["KKvMM"]), "MMvKK");
    colour_flip(&build::<International>(&["KMvM"]), "KMvM");
}
