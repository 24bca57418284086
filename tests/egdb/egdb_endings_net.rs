//! The endings net (`src/draughts/eval/endings.rs`): the embedded russian net parses and knows the
//! tables it was learned from (checked against small tables built here), it reads a position and
//! its colour flip alike, the evaluation uses it only up to its number of pieces, and a damaged,
//! truncated or foreign net file is refused with the reason.

use crate::egdb_common::*;
use tiao::draughts::eval::endings::{self, EndingsNet, NetError};
use tiao::draughts::movegen::has_capture;
use tiao::draughts::position::Position;
use tiao::draughts::rules::{Brazilian, International, Rules, Russian, RussianFmjd};
use tiao::egdb::Wdl;
use tiao::egdb::draughts::index::rotate;
use tiao::game::Evaluate;
use tiao::game::color::Color;

const NET: &[u8] = include_bytes!("../../weights/russian-endings.ten");

fn most_likely(p: [f32; 3]) -> Wdl {
    if p[1] >= p[0] && p[1] >= p[2] {
        Wdl::Draw
    } else if p[2] > p[0] {
        Wdl::Win
    } else {
        Wdl::Loss
    }
}

fn net_wdl<R: Rules>(net: &EndingsNet, p: &Position<R>) -> [f32; 3] {
    let mut buf = [0usize; 8];
    let n = net.inputs(p, &mut buf);
    net.wdl(&buf[..n])
}

#[test]
fn the_embedded_russian_net_parses_and_only_russian_has_one() {
    let net = endings::net::<Russian>().expect("russian has an endings net");
    assert_eq!(net.max_pieces(), 6);
    assert!(endings::net::<RussianFmjd>().is_some());
    assert!(endings::net::<International>().is_none());
    assert!(endings::net::<Brazilian>().is_none());
    let p = net_wdl(net, &pos::<Russian>("W:WK1:BK32"));
    assert!((p.iter().sum::<f32>() - 1.0).abs() < 1e-4, "{p:?}");
}

/// The net names the tables' value of most quiet positions of 4-piece slices (a lone king
/// against two kings is drawn or lost by where they stand), and of all of them together more
/// than each slice's most common value does (what a table by material alone would know).
#[test]
fn the_net_knows_the_russian_four_piece_tables() {
    let net = endings::net::<Russian>().unwrap();
    let slices = ["KKvKK", "KKvKM", "KMvKM", "KMvKK", "KKKvK", "KMMvK"];
    let t = build::<Russian>(&slices);
    let (mut all, mut right, mut by_material) = (0u32, 0u32, 0u32);
    for s in slices {
        let (mut n, mut ok) = (0u32, 0u32);
        let mut counts = [0u32; 3];
        for p in spread::<Russian>(s, 3000) {
            if has_capture(&p) {
                continue;
            }
            let v = t.lookup(&p).expect("in the tables").wdl;
            counts[v as usize] += 1;
            n += 1;
            ok += (most_likely(net_wdl(net, &p)) == v) as u32;
        }
        let common = *counts.iter().max().unwrap();
        assert!(n > 500, "{s}: {n} quiet positions");
        all += n;
        right += ok;
        by_material += common;
    }
    assert!(
        right as f64 >= 0.9 * all as f64,
        "the net names {right} of {all}"
    );
    assert!(
        right > by_material,
        "the net {right}, by material {by_material}, of {all}"
    );
}

/// A position with Black to move is read as its colour flip with White to move: the same
/// probabilities.
#[test]
fn the_net_reads_a_position_and_its_colour_flip_alike() {
    let net = endings::net::<Russian>().unwrap();
    for p in spread::<Russian>("KMvKM", 500).chain(spread::<Russian>("KKMvMM", 500)) {
        let q = Position::<Russian>::from_parts(
            rotate::<<Russian as Rules>::Board>(p.black()),
            rotate::<<Russian as Rules>::Board>(p.white()),
            rotate::<<Russian as Rules>::Board>(p.kings()),
            Color::Black,
        )
        .unwrap();
        assert_eq!(net_wdl(net, &p), net_wdl(net, &q));
        assert_eq!(p.evaluate(), q.evaluate());
    }
}

/// The evaluation of a drawn ending a side is a man up in is near zero with the net; of the
/// same material with more pieces on the board (beyond the net) it is not changed by it.
#[test]
fn the_evaluation_uses_the_net_up_to_its_pieces() {
    // Two kings against one: the tables call it a draw; the hand-made part scores a king up.
    let p = pos::<Russian>("W:WK1,K3:BK32");
    let t = build::<Russian>(&["KKvK"]);
    assert_eq!(t.lookup(&p).unwrap().wdl, Wdl::Draw);
    assert!(p.evaluate().abs() < 60, "{}", p.evaluate());
    // Seven pieces: the net is not read.
    let q = pos::<Russian>("W:WK1,K3,22,23:BK32,10,11");
    let net = endings::net::<Russian>().unwrap();
    assert!(q.occupied().count_ones() > net.max_pieces());
}

#[test]
fn a_damaged_truncated_or_foreign_net_is_refused() {
    let ok = EndingsNet::parse(NET, "russian", 32);
    assert!(ok.is_ok());
    assert_eq!(
        EndingsNet::parse(NET, "brazilian", 32).unwrap_err(),
        NetError::Variant {
            found: "russian".into(),
            needed: "brazilian".into()
        }
    );
    assert!(matches!(
        EndingsNet::parse(NET, "russian", 50),
        Err(NetError::Shape(_))
    ));
    assert!(matches!(
        EndingsNet::parse(&NET[..NET.len() - 1], "russian", 32),
        Err(NetError::Length { .. })
    ));
    let mut bad = NET.to_vec();
    bad[100] ^= 1;
    assert_eq!(
        EndingsNet::parse(&bad, "russian", 32).unwrap_err(),
        NetError::Checksum
    );
    let mut v = NET.to_vec();
    v[8] = 9;
    assert_eq!(
        EndingsNet::parse(&v, "russian", 32).unwrap_err(),
        NetError::Version(9)
    );
    assert_eq!(
        EndingsNet::parse(b"garbage", "russian", 32).unwrap_err(),
        NetError::NotNet
    );
    assert_eq!(
        EndingsNet::parse(&[], "russian", 32).unwrap_err(),
        NetError::NotNet
    );
    let weights = std::fs::read("weights/flying-8x8.tpw").unwrap();
    assert_eq!(
        EndingsNet::parse(&weights, "russian", 32).unwrap_err(),
        NetError::NotNet
    );
}
