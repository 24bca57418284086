//! Nine Men's Morris rules (RULES.md): each phase, removals and the mill rule, flying, the ways
//! to win and to draw, and the generator checked against an independent one written here from
//! the rules (the 16 mills by name; lines are consecutive points of a mill).

use tiao::game::Game;
use tiao::game::MoveList;
use tiao::game::color::Color;
use tiao::morris::sample::random_positions;
use tiao::morris::{MorrisPosition, Move, board};

fn pos(fen: &str) -> MorrisPosition {
    MorrisPosition::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn moves(p: &MorrisPosition) -> Vec<String> {
    let mut list = MoveList::default();
    p.generate(&mut list);
    let mut v: Vec<String> = list.iter().map(|m| p.move_to_pdn(m)).collect();
    v.sort();
    v
}

fn play(p: &MorrisPosition, text: &str) -> MorrisPosition {
    let m = p
        .parse_move(text)
        .unwrap_or_else(|e| panic!("{text} in {}: {e}", p.fen()));
    p.make(&m)
}

fn point(name: &str) -> u8 {
    board::point_of_name(name).unwrap()
}

fn set(names: &[&str]) -> u32 {
    names.iter().fold(0, |s, n| s | 1 << point(n))
}

// ---------------------------------------------------------------------------------------------
// Phases

#[test]
fn placing_phase() {
    let p = MorrisPosition::start();
    assert_eq!(p.fen(), "W:W:B:H9,9:R0");
    assert_eq!(moves(&p).len(), 24);
    let p = play(&p, "d6");
    assert_eq!(p.side(), Color::Black);
    assert_eq!(p.in_hand(Color::White), 8);
    assert_eq!(p.pieces(Color::White), set(&["d6"]));
    assert_eq!(moves(&p).len(), 23);
    assert!(p.parse_move("d6").is_err(), "d6 is taken");
    // A side with pieces in hand places, even with pieces on the board to slide.
    let p = pos("W:Wa1,a4,d7,g7:Bb6,d6,f6,f4:H5,5:R0");
    assert!(moves(&p).iter().all(|m| !m.contains('-')));
    assert_eq!(moves(&p).len(), 16);
    // ... and is not lost with fewer than 3 on the board while it has pieces in hand.
    let p = pos("W:Wa1:Bb6,d6,f6,f4:H4,4:R0");
    assert_eq!(moves(&p).len(), 19);
}

#[test]
fn last_placement_starts_the_moving_phase() {
    let p = pos("B:Wa7,d7,b6,f6,c5,e5,c3,e3,d2:Ba1,d1,g1,a4,g4,b4,f4,d3:H0,1:R0");
    // 7 empty points; c4, e4 and g7 close a mill, each with 9 white pieces to choose from.
    assert_eq!(moves(&p).len(), 4 + 3 * 9);
    assert!(moves(&p).iter().all(|m| !m.contains('-')));
    let p = play(&p, "d5");
    assert!(!p.places(Color::White) && !p.places(Color::Black));
    // White now slides: only to empty neighbours.
    for m in moves(&p) {
        let (from, to) = m.split_once('-').expect("a slide");
        let to = &to[..2];
        assert_ne!(
            board::ADJACENT[point(from) as usize] & 1 << point(to),
            0,
            "{m}"
        );
    }
}

#[test]
fn sliding_phase() {
    let p = pos("W:Wa1,d2,f4,c5:Bg7,g1,b6,e3:H0,0:R0");
    let expected = [
        "a1-a4", "a1-d1", "c5-c4", "c5-d5", "d2-b2", "d2-d1", "d2-d3", "d2-f2", "f4-e4", "f4-f2",
        "f4-f6", "f4-g4",
    ];
    assert_eq!(moves(&p), expected);
}

#[test]
fn flying_at_exactly_three_not_at_four() {
    let three = pos("W:Wa1,c5,f4:Bg7,g1,b6,e3:H0,0:R0");
    assert!(three.flies(Color::White));
    // 3 pieces times 17 empty points, and no mill can be closed.
    assert_eq!(moves(&three).len(), 3 * 17);
    assert!(moves(&three).contains(&"a1-g4".to_string()));
    let four = pos("W:Wa1,c5,f4,d2:Bg7,g1,b6,e3:H0,0:R0");
    assert!(!four.flies(Color::White));
    assert!(!moves(&four).contains(&"a1-g4".to_string()));
    assert_eq!(moves(&four).len(), 12);
    // Flying into a mill removes a piece.
    let p = pos("W:Wa1,a4,f4:Bg7,g1,b6,e3:H0,0:R0");
    let mills: Vec<String> = moves(&p).into_iter().filter(|m| m.contains('x')).collect();
    assert_eq!(mills, ["f4-a7xb6", "f4-a7xe3", "f4-a7xg1", "f4-a7xg7"]);
}

// ---------------------------------------------------------------------------------------------
// Mills and removals

#[test]
fn removal_spares_pieces_in_mills() {
    // Black's g7-g4-g1 is a mill; only d6 may be taken.
    let p = pos("W:Wa1,a4,d7,b2:Bg7,g4,g1,d6:H0,0:R0");
    let mills: Vec<String> = moves(&p).into_iter().filter(|m| m.contains('x')).collect();
    assert_eq!(mills, ["d7-a7xd6"]);
    assert!(p.parse_move("d7-a7xg4").is_err());
    // Without the removal the move is still understood: only one piece can be removed.
    assert_eq!(p.move_to_pdn(&p.parse_move("d7-a7").unwrap()), "d7-a7xd6");
}

#[test]
fn removal_from_a_mill_when_all_are_in_mills() {
    let p = pos("W:Wa1,a4,d7,b2:Bg7,g4,g1,b6,d6,f6:H0,0:R0");
    let mills: Vec<String> = moves(&p).into_iter().filter(|m| m.contains('x')).collect();
    assert_eq!(
        mills,
        [
            "d7-a7xb6", "d7-a7xd6", "d7-a7xf6", "d7-a7xg1", "d7-a7xg4", "d7-a7xg7"
        ]
    );
    assert!(matches!(
        p.parse_move("d7-a7"),
        Err(tiao::game::MoveError::Ambiguous { .. })
    ));
}

#[test]
fn double_mill_removes_one_piece() {
    // Placing a7 closes a7-d7-g7 and a7-a4-a1 at once: one removal, four choices.
    let p = pos("W:Wd7,g7,a4,a1:Bb6,f6,b2,f2:H5,5:R0");
    let mills: Vec<String> = moves(&p).into_iter().filter(|m| m.contains('x')).collect();
    assert_eq!(mills, ["a7xb2", "a7xb6", "a7xf2", "a7xf6"]);
    let q = play(&p, "a7xb6");
    assert_eq!(q.on_board(Color::Black), 3);
    assert_eq!(q.pieces(Color::Black), set(&["f6", "b2", "f2"]));
}

#[test]
fn closing_a_mill_by_moving_out_and_back() {
    let p = pos("W:Wa7,a4,a1,d2:Bg7,g1,d6,f4:H0,0:R0");
    assert!(
        moves(&p).contains(&"a4-b4".to_string()),
        "leaving the mill removes nothing"
    );
    let p = play(&p, "a4-b4");
    let p = play(&p, "d6-d5");
    let back: Vec<String> = moves(&p)
        .into_iter()
        .filter(|m| m.starts_with("b4-a4"))
        .collect();
    assert_eq!(back, ["b4-a4xd5", "b4-a4xf4", "b4-a4xg1", "b4-a4xg7"]);
    let q = play(&p, "b4-a4 xf4");
    assert_eq!(q.pieces(Color::Black), set(&["g7", "g1", "d5"]));
    assert_eq!(q.no_removal(), 0);
}

#[test]
fn a_move_within_a_mill_line_closes_nothing() {
    // a4-a7 leaves a4 empty: a7-a4-a1 is not formed, although a7 completes it for a4 and a1.
    let p = pos("W:Wa4,a1,d2,f4,c5:Bg7,g1,b6,e3:H0,0:R0");
    assert!(moves(&p).contains(&"a4-a7".to_string()));
    assert!(moves(&p).iter().all(|m| !m.contains('x')));
}

// ---------------------------------------------------------------------------------------------
// End of the game

#[test]
fn win_by_blocking() {
    let p = pos("W:Wa4,d1,g4,d6:Ba1,g1,a7,g7:H0,0:R0");
    let p = play(&p, "d6-d7");
    assert_eq!(p.side(), Color::Black);
    assert!(moves(&p).is_empty(), "Black is blocked and has lost");
    assert!(!p.lost_by_material(Color::Black));
}

#[test]
fn win_by_reducing_to_two() {
    let p = pos("W:Wa1,a4,d7,b2:Bg7,g4,d6:H0,0:R0");
    assert!(p.flies(Color::Black));
    let p = play(&p, "d7-a7xd6");
    assert_eq!(p.on_board(Color::Black), 2);
    assert!(p.lost_by_material(Color::Black));
    assert!(moves(&p).is_empty());
    // A position string cannot have the side that just moved already lost.
    assert!(MorrisPosition::from_fen("W:Wa1,a4,a7,b2:Bg7,g4:H0,0:R0").is_err());
}

#[test]
fn fewer_than_three_loses_only_after_placing() {
    let p = pos("W:Wa1,a4:Bb6,d6,f6:H0,0:R0");
    assert!(moves(&p).is_empty());
    let p = pos("B:Wa1,a4,g4:Bb6,g1:H0,1:R0");
    assert_eq!(moves(&p).len(), 19);
}

// ---------------------------------------------------------------------------------------------
// Draws and repetition

#[test]
fn draw_by_no_removal_counter_at_exactly_100_plies() {
    let p = pos("W:Wa1,d2,f4,c5:Bg7,g1,b6,e3:H0,0:R98");
    assert!(!p.draw_by_rule());
    let p = play(&p, "a1-a4");
    assert_eq!(p.no_removal(), 99);
    assert!(!p.draw_by_rule(), "99 plies is not yet a draw");
    let p = play(&p, "g7-d7");
    assert_eq!(p.no_removal(), 100);
    assert!(p.draw_by_rule(), "100 plies is a draw");
    // A removal resets the counter.
    let p = pos("W:Wa1,a4,d7,b2:Bg7,g4,g1,d6:H0,0:R99");
    let q = play(&p, "d7-a7xd6");
    assert_eq!(q.no_removal(), 0);
    assert!(!q.draw_by_rule());
    assert_eq!(q.reversible_plies(), 0);
}

#[test]
fn placing_is_irreversible() {
    let p = pos("W:Wa1,a4,d7,g7:Bb6,d6,f6,f4:H5,5:R0");
    let q = play(&p, "c5");
    assert_eq!(q.no_removal(), 0);
    assert_eq!(q.reversible_plies(), 0);
}

#[test]
fn repetition_key_covers_hand_and_side_not_counter() {
    let a = pos("W:Wa1:Bd7:H8,8:R0");
    let b = pos("W:Wa1:Bd7:H7,7:R0");
    assert_ne!(a.key(), b.key(), "pieces in hand are part of the key");
    let c = pos("B:Wa1,a4,d7,b2:Bg7,g4,g1,d6:H0,0:R0");
    let d = pos("W:Wa1,a4,d7,b2:Bg7,g4,g1,d6:H0,0:R0");
    assert_ne!(c.key(), d.key(), "side to move is part of the key");
    let e = pos("W:Wa1,a4,d7,b2:Bg7,g4,g1,d6:H0,0:R40");
    assert_eq!(d.key(), e.key(), "the counter is not");
    // Out and back by both sides: the same position, four reversible plies later.
    let mut p = d;
    for m in ["b2-b4", "d6-d5", "b4-b2", "d5-d6"] {
        p = play(&p, m);
    }
    assert_eq!(p.key(), d.key());
    assert_eq!(p.reversible_plies(), 4);
    assert_eq!(p.fen(), "W:Wa1,a4,b2,d7:Bd6,g1,g4,g7:H0,0:R4");
}

// ---------------------------------------------------------------------------------------------
// The generator against a reference written from the rules

/// RULES.md's board: the 16 mills by name. Two points are joined by a line when they are next
/// to each other in a mill.
const MILL_NAMES: [[&str; 3]; 16] = [
    ["a7", "d7", "g7"],
    ["b6", "d6", "f6"],
    ["c5", "d5", "e5"],
    ["a4", "b4", "c4"],
    ["e4", "f4", "g4"],
    ["c3", "d3", "e3"],
    ["b2", "d2", "f2"],
    ["a1", "d1", "g1"],
    ["a7", "a4", "a1"],
    ["b6", "b4", "b2"],
    ["c5", "c4", "c3"],
    ["d7", "d6", "d5"],
    ["d3", "d2", "d1"],
    ["e5", "e4", "e3"],
    ["f6", "f4", "f2"],
    ["g7", "g4", "g1"],
];

struct Reference {
    mills: Vec<u32>,
    joined: Vec<(u8, u8)>,
}

impl Reference {
    fn new() -> Self {
        let mills: Vec<u32> = MILL_NAMES.iter().map(|m| set(m)).collect();
        let mut joined = Vec::new();
        for m in &MILL_NAMES {
            for w in m.windows(2) {
                joined.push((point(w[0]), point(w[1])));
                joined.push((point(w[1]), point(w[0])));
            }
        }
        Reference { mills, joined }
    }

    fn in_mill(&self, pieces: u32, p: u8) -> bool {
        self.mills
            .iter()
            .any(|&m| m & 1 << p != 0 && pieces & m == m)
    }

    /// (from, to, removal) of every legal move, sorted.
    fn moves(&self, p: &MorrisPosition) -> Vec<(Option<u8>, u8, Option<u8>)> {
        let us = p.side();
        let (own, opp) = (p.pieces(us), p.pieces(!us));
        let empty: Vec<u8> = (0..24).filter(|&q| (own | opp) & 1 << q == 0).collect();
        let mine: Vec<u8> = (0..24).filter(|&q| own & 1 << q != 0).collect();
        let theirs: Vec<u8> = (0..24).filter(|&q| opp & 1 << q != 0).collect();
        if p.in_hand(us) == 0 && mine.len() < 3 {
            return Vec::new();
        }
        let mut victims: Vec<u8> = theirs
            .iter()
            .copied()
            .filter(|&q| !self.in_mill(opp, q))
            .collect();
        if victims.is_empty() {
            victims = theirs.clone();
        }
        let mut actions = Vec::new();
        if p.in_hand(us) > 0 {
            actions.extend(empty.iter().map(|&t| (None, t)));
        } else if mine.len() == 3 {
            for &f in &mine {
                actions.extend(empty.iter().map(|&t| (Some(f), t)));
            }
        } else {
            for &(f, t) in &self.joined {
                if own & 1 << f != 0 && empty.contains(&t) {
                    actions.push((Some(f), t));
                }
            }
        }
        let mut out = Vec::new();
        for (f, t) in actions {
            let after = (own & !f.map_or(0, |f| 1 << f)) | 1 << t;
            if self.in_mill(after, t) && !victims.is_empty() {
                out.extend(victims.iter().map(|&v| (f, t, Some(v))));
            } else {
                out.push((f, t, None));
            }
        }
        out.sort();
        out
    }

    fn perft(&self, p: &MorrisPosition, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves(p)
            .iter()
            .map(|&(f, t, r)| {
                let mut m = match f {
                    Some(f) => Move::step(f, t),
                    None => Move::place(t),
                };
                if let Some(r) = r {
                    m = m.removing(r);
                }
                self.perft(&p.make(&m), depth - 1)
            })
            .sum()
    }
}

fn parts(m: &Move) -> (Option<u8>, u8, Option<u8>) {
    (m.from(), m.to(), m.removal())
}

#[test]
fn generator_matches_reference_in_random_games() {
    let reference = Reference::new();
    let (mut placing, mut sliding, mut flying, mut lost, mut mills) = (0, 0, 0, 0, 0);
    let mut list = MoveList::default();
    for p in random_positions(300, 200, 0x5EED_0001) {
        p.generate(&mut list);
        let mut got: Vec<_> = list.iter().map(parts).collect();
        got.sort();
        assert_eq!(got, reference.moves(&p), "{}", p.fen());
        let us = p.side();
        match () {
            _ if p.places(us) => placing += 1,
            _ if p.flies(us) => flying += 1,
            _ if list.is_empty() => lost += 1,
            _ => sliding += 1,
        }
        // The noisy moves are exactly the removals.
        let mut noisy = MoveList::default();
        p.generate_noisy(&mut noisy);
        let mut n: Vec<_> = noisy.iter().map(parts).collect();
        n.sort();
        let want: Vec<_> = got.iter().copied().filter(|m| m.2.is_some()).collect();
        assert_eq!(n, want, "{}", p.fen());
        mills += want.len();
        assert!(list.iter().all(|m| p.is_noisy(m) == m.is_removal()));
        // The incremental key is the key computed from scratch.
        assert_eq!(p.key(), p.compute_key());
        assert_eq!(p.check(), Ok(()));
    }
    // The games covered every phase.
    assert!(
        placing > 1000 && sliding > 1000 && flying > 100 && lost > 10 && mills > 1000,
        "placing {placing} sliding {sliding} flying {flying} lost {lost} mills {mills}"
    );
}

#[test]
fn perft_matches_reference_in_the_middle_game() {
    let reference = Reference::new();
    let positions = random_positions(6, 200, 0x5EED_0002);
    for p in positions.iter().step_by(13) {
        for depth in 1..=2 {
            assert_eq!(
                tiao::perft::perft(p, depth, true),
                reference.perft(p, depth),
                "{} depth {depth}",
                p.fen()
            );
        }
    }
}
