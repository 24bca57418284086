//! Nine Men's Morris endgame tables built in the test run: hand-checked values, symmetry, the
//! verify pass, and agreement with the search.

use rayon::prelude::*;
use std::sync::Arc;
use tiao::color::Color;
use tiao::egdb::morris::index::Sector;
use tiao::egdb::morris::solve::{Solved, solve_pair};
use tiao::egdb::morris::value::Value;
use tiao::game::{Game, MoveList};
use tiao::morris::MorrisPosition;

/// Solves every sector of `pieces` in total or fewer.
fn solve_up_to(pieces: u8) -> Solved {
    let mut solved = Solved::new();
    for total in 6..=pieces {
        for a in 3..=9u8 {
            let b = total as i32 - a as i32;
            if !(3..=9).contains(&b) || (b as u8) < a {
                continue;
            }
            let out = solve_pair(Sector::new(a, b as u8), &solved, &|_| {}).unwrap();
            for s in out {
                solved.insert(s.sector, Arc::new(s.values));
            }
        }
    }
    solved
}

/// The position of slot `i` of `sector`, White to move.
fn position(sector: Sector, i: u64) -> MorrisPosition {
    let (stm, opp) = sector.position(i);
    MorrisPosition::new(stm, opp, [0, 0], Color::White, 0).unwrap()
}

/// The same pair solved the slow way, by the game's own move generator: rounds of "won if a move
/// reaches a lost position, lost if every move reaches a won one" until nothing changes, the
/// round number giving the distance.
fn naive_pair(sector: Sector, below: &Solved) -> Vec<(Sector, Vec<u8>)> {
    let pair = if sector.stm == sector.opp {
        vec![sector]
    } else {
        vec![sector, sector.mirror()]
    };
    let mut values: Vec<Vec<Option<Value>>> =
        pair.iter().map(|s| vec![None; s.size() as usize]).collect();
    let lookup = |values: &Vec<Vec<Option<Value>>>, q: &MorrisPosition| -> Option<Value> {
        let stm = q.pieces(q.side());
        let opp = q.pieces(!q.side());
        let s = Sector::new(stm.count_ones() as u8, opp.count_ones() as u8);
        match pair.iter().position(|&p| p == s) {
            Some(k) => values[k][s.index(stm, opp) as usize],
            None => below.value(stm, opp),
        }
    };
    for round in 0u32.. {
        let next: Vec<Vec<Option<Value>>> = pair
            .iter()
            .enumerate()
            .map(|(k, &s)| {
                (0..s.size())
                    .into_par_iter()
                    .map(|i| {
                        if let Some(v) = values[k][i as usize] {
                            return Some(v);
                        }
                        if s.is_hole(i) {
                            return Some(Value::Draw);
                        }
                        let p = position(s, i);
                        let mut list = MoveList::default();
                        p.generate(&mut list);
                        if round == 0 {
                            // Only the blocked are decided before any move is looked at.
                            return list.is_empty().then_some(Value::Loss(0));
                        }
                        let mut all_won = true;
                        for m in list.iter() {
                            let q = p.make(m);
                            let mut replies = MoveList::default();
                            q.generate(&mut replies);
                            let v = if replies.is_empty() {
                                Some(Value::Loss(0))
                            } else {
                                lookup(&values, &q)
                            };
                            match v {
                                Some(Value::Loss(_)) => return Some(Value::Win(round)),
                                Some(Value::Win(_)) => {}
                                _ => all_won = false,
                            }
                        }
                        all_won.then_some(Value::Loss(round))
                    })
                    .collect()
            })
            .collect();
        if next == values {
            break;
        }
        values = next;
    }
    pair.iter()
        .zip(values)
        .map(|(&s, v)| {
            (
                s,
                v.into_iter()
                    .map(|x| x.unwrap_or(Value::Draw).encode())
                    .collect(),
            )
        })
        .collect()
}

/// Checks the solver against [`naive_pair`] on `sectors`, solved in this order.
fn agree_with_naive(sectors: &[Sector]) {
    let mut solved = Solved::new();
    for &sector in sectors {
        let fast = solve_pair(sector, &solved, &|_| {}).unwrap();
        let slow = naive_pair(sector, &solved);
        for (f, (s, v)) in fast.into_iter().zip(slow) {
            assert_eq!(f.sector, s);
            let bad = (0..v.len()).filter(|&i| f.values[i] != v[i]).count();
            if bad > 0 {
                let i = (0..v.len()).find(|&i| f.values[i] != v[i]).unwrap();
                panic!(
                    "{s:?}: {bad} values differ, first {} fast {:?} naive {:?}",
                    position(s, i as u64),
                    Value::decode(f.values[i]),
                    Value::decode(v[i])
                );
            }
            solved.insert(s, Arc::new(f.values));
        }
    }
}

/// 3 against 3, both flying: values and distances as the naive rounds find them.
#[test]
fn three_against_three_agrees_with_a_naive_solution() {
    agree_with_naive(&[Sector::new(3, 3)]);
}

/// 3 against 4 and 4 against 3 too (a minute: run with `--ignored`).
#[test]
#[ignore]
fn three_against_four_agrees_with_a_naive_solution() {
    agree_with_naive(&[Sector::new(3, 3), Sector::new(3, 4)]);
}

fn pos(s: &str) -> MorrisPosition {
    MorrisPosition::from_fen(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// Positions whose values are worked out by hand (in the comments), in sectors of up to 8 pieces.
#[test]
fn hand_checked_values() {
    let t = solve_up_to(8);
    let v = |s: &str| {
        t.probe(&pos(s))
            .unwrap_or_else(|| panic!("{s} not covered"))
    };
    // 3 against 3: a7 and d7 with g7 empty; g1 flies to g7, the mill leaves Black 2 pieces.
    assert_eq!(v("W:Wa7,d7,g1:Bb6,d2,f4:H0,0:R0"), Value::Win(1));
    // Black threatens g7 (a4 flies there) and a1 (d7 flies there); White has no two in a row and
    // can block one: lost in 2 plies. With Black to move, Black mills at once.
    assert_eq!(v("W:Wc5,e3,b2:Ba7,d7,a4:H0,0:R0"), Value::Loss(2));
    assert_eq!(v("B:Wc5,e3,b2:Ba7,d7,a4:H0,0:R0"), Value::Win(1));
    // 4 against 4: a1, a4, a7 and d1 have no empty neighbour (b4, d7, g1, d2 are Black's):
    // White, to move, is blocked and has lost.
    assert_eq!(v("W:Wa1,a4,a7,d1:Bb4,d7,g1,d2:H0,0:R0"), Value::Loss(0));
    // One move from a forced mill: d5-d6 threatens d6-d7 (a7-d7-g7) and f4-f6 (b6-d6-f6); Black
    // (flying, no two in a row) blocks one, White closes the other: a win in 3 plies.
    let before = pos("W:Wa7,g7,d5,b6,f4:Bc3,e4,a1:H0,0:R0");
    assert_eq!(t.probe(&before), Some(Value::Win(3)));
    let after = before.make(&before.parse_move("d5-d6").unwrap());
    assert_eq!(t.probe(&after), Some(Value::Loss(2)));
    // Pieces in hand are not covered.
    assert_eq!(t.probe(&pos("W:Wa7,d7,g1:Bb6,d2,f4:H1,1:R0")), None);
}

/// Builds the tables named by the environment (`TIAO_MORRIS_EGDB_DIR`, `TIAO_MORRIS_EGDB_PIECES`),
/// printing each pair's figures: a measuring tool until the command line has `egdb build`.
#[test]
#[ignore]
fn build_from_environment() {
    let dir = std::env::var("TIAO_MORRIS_EGDB_DIR").expect("TIAO_MORRIS_EGDB_DIR");
    let pieces: u8 = std::env::var("TIAO_MORRIS_EGDB_PIECES")
        .expect("TIAO_MORRIS_EGDB_PIECES")
        .parse()
        .unwrap();
    tiao::egdb::morris::build::build_all(
        std::path::Path::new(&dir),
        pieces,
        (0, 1),
        true,
        &mut |pair, r| match r {
            None => println!("{pair:?} already built"),
            Some(r) => {
                for s in &r.sectors {
                    println!(
                        "{}-{} slots {} wins {} draws {} losses {} holes {} longest {} bytes {}",
                        s.sector.stm,
                        s.sector.opp,
                        s.sector.size(),
                        s.counts.wins,
                        s.counts.draws,
                        s.counts.losses,
                        s.counts.holes,
                        s.counts.longest,
                        s.bytes
                    );
                }
                println!("  pair {:.1} s, work {} MiB", r.seconds, r.work_bytes >> 20);
            }
        },
    )
    .unwrap();
}
