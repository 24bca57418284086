//! The variants' draw counters (RULES.md "Draw rules"): each rule triggers on the ply that reaches
//! its threshold and not one ply earlier, and resets on the events the rule names.
//!
//! The games shuffle kings between two squares each, in positions where no capture can arise
//! (checked by hand: the kings never share a diagonal with an enemy piece that has an empty square
//! behind it). Every move is read with the move parser, so an illegal step fails the test.

use tiao::draughts::board::Board10;
use tiao::draughts::draw::{self, Ply};
use tiao::draughts::notation::{fen, movetext};
use tiao::draughts::position::Position;
use tiao::draughts::rules::{
    Brazilian, Duoyibu, English, International, Rules, Russian, RussianFmjd,
};

/// Plays `plies` plies in which each side shuttles one king between two squares; returns the
/// positions after each ply (index 0 = after the first ply).
fn shuffle<R: Rules>(
    start: &str,
    white: [&str; 2],
    black: [&str; 2],
    plies: usize,
) -> Vec<Position<R>> {
    let mut p = fen::parse::<R>(start).unwrap();
    let (mut w, mut b) = (0, 0);
    let mut out = Vec::new();
    for _ in 0..plies {
        let text = if p.side() == tiao::game::color::Color::White {
            w ^= 1;
            format!("{}-{}", white[w ^ 1], white[w])
        } else {
            b ^= 1;
            format!("{}-{}", black[b ^ 1], black[b])
        };
        let m = movetext::parse(&p, &text)
            .unwrap_or_else(|e| panic!("{text}: {e} in {}", fen::write(&p)));
        assert!(!m.is_capture());
        p = p.make(&m);
        out.push(p);
    }
    out
}

/// Asserts that the first draw by rule happens after exactly `plies` plies, under a rule of that
/// threshold.
fn first_draw_at<R: Rules>(games: &[Position<R>], plies: u16) {
    for (i, p) in games.iter().enumerate() {
        let ply = i as u16 + 1;
        match p.draw_by_rule() {
            Some(rule) => {
                assert_eq!(ply, plies, "draw after {ply} plies by '{}'", rule.source);
                assert_eq!(rule.plies, plies);
                return;
            }
            None => assert!(ply < plies, "no draw after {ply} plies"),
        }
    }
    panic!("no draw within {} plies", games.len());
}

#[test]
fn international_25_moves_of_kings_only() {
    // K + man each: no endgame rule applies, only the 25-move (50-ply) king rule.
    let g = shuffle::<International>("W:WKa1,a5:BKh10,j6", ["a1", "b2"], ["h10", "g9"], 60);
    first_draw_at(&g, 50);
}

#[test]
fn international_man_move_resets_the_king_rule() {
    let mut p = shuffle::<International>("W:WKa1,a5:BKh10,j6", ["a1", "b2"], ["h10", "g9"], 40)[39];
    p = p.make(&movetext::parse(&p, "a5-b6").unwrap());
    assert_eq!(p.counters().by_rule[0], 0);
    assert_eq!(p.counters().reversible, 0);
}

#[test]
fn international_16_moves_three_against_lone_king() {
    let g = shuffle::<International>("W:WKc1,Ke1,Kg1:BKj10", ["g1", "h2"], ["j10", "i9"], 40);
    first_draw_at(&g, 32);
}

#[test]
fn international_5_moves_two_against_lone_king() {
    let g = shuffle::<International>("W:WKc1,Kg1:BKj10", ["g1", "h2"], ["j10", "i9"], 20);
    first_draw_at(&g, 10);
    let g = shuffle::<International>("W:WKg1,e1:BKj10", ["g1", "h2"], ["j10", "i9"], 20);
    first_draw_at(&g, 10);
}

/// "A capture that produces the 5-move material restarts the count as the 5-move rule": the
/// 5-move counter only runs while its material holds, so it starts from zero at the capture.
#[test]
fn international_capture_into_five_move_material_restarts_the_count() {
    let rules = &draw::INTERNATIONAL;
    let sq =
        |n: u32| 1u64 << <Board10 as tiao::draughts::board::Geometry>::bit_of_number(n).unwrap();
    let three_v_one = (
        [sq(46) | sq(47) | sq(48), sq(5)],
        sq(46) | sq(47) | sq(48) | sq(5),
    );
    let two_v_one = ([sq(46) | sq(47), sq(5)], sq(46) | sq(47) | sq(5));
    let quiet = Ply {
        capture: false,
        man_move: false,
        promotion: false,
    };
    let mut c = rules.fresh();
    for _ in 0..20 {
        c = rules.advance::<Board10>(&c, quiet, three_v_one.0, three_v_one.1);
    }
    assert_eq!(c.by_rule[1], 20);
    let capture = Ply {
        capture: true,
        man_move: false,
        promotion: false,
    };
    c = rules.advance::<Board10>(&c, capture, two_v_one.0, two_v_one.1);
    assert_eq!(
        (c.by_rule[1], c.by_rule[2]),
        (0, 1),
        "16-move count gone, 5-move count started"
    );
    for _ in 0..8 {
        c = rules.advance::<Board10>(&c, quiet, two_v_one.0, two_v_one.1);
    }
    assert!(rules.is_draw(&c).is_none(), "9 plies of the 5-move rule");
    c = rules.advance::<Board10>(&c, quiet, two_v_one.0, two_v_one.1);
    assert_eq!(rules.is_draw(&c).map(|r| r.plies), Some(10));
}

#[test]
fn english_40_moves_without_man_move_or_capture() {
    let g = shuffle::<English>("B:WKa1,Kc1:BKh8,Kf8", ["a1", "b2"], ["h8", "g7"], 90);
    first_draw_at(&g, 80);
}

#[test]
fn russian_30_rounds_without_capture() {
    let g = shuffle::<Russian>("W:WKc1,Ka3:BKh8,Kf8", ["c1", "d2"], ["h8", "g7"], 70);
    first_draw_at(&g, 60);
}

/// Russian's counter is reset by captures only: a man move does not reset it (RULES.md), while it
/// does reset the FMJD-64 king rule.
#[test]
fn russian_counter_ignores_man_moves() {
    let man = Ply {
        capture: false,
        man_move: true,
        promotion: false,
    };
    let (pieces, kings) = ([0b1111u64, 0b1111u64 << 20], 0);
    let mut c = draw::RUSSIAN.fresh();
    for _ in 0..59 {
        c = draw::RUSSIAN.advance::<tiao::draughts::board::Board8>(&c, man, pieces, kings);
    }
    assert!(draw::RUSSIAN.is_draw(&c).is_none());
    c = draw::RUSSIAN.advance::<tiao::draughts::board::Board8>(&c, man, pieces, kings);
    assert_eq!(draw::RUSSIAN.is_draw(&c).map(|r| r.plies), Some(60));
    let mut f = draw::FMJD64.fresh();
    for _ in 0..40 {
        f = draw::FMJD64.advance::<tiao::draughts::board::Board8>(&f, man, pieces, kings);
    }
    assert!(draw::FMJD64.is_draw(&f).is_none());
}

#[test]
fn russian_three_kings_against_lone_king_18_moves() {
    let g = shuffle::<Russian>("W:WKc1,Ke1,Kg1:BKh8", ["g1", "h2"], ["h8", "g7"], 40);
    first_draw_at(&g, 36);
}

#[test]
fn fmjd_15_moves_of_kings_only() {
    let f = "W:WKc1,Ka3:BKh8,Kf8";
    first_draw_at(&shuffle::<Brazilian>(f, ["c1", "d2"], ["h8", "g7"], 40), 30);
    first_draw_at(
        &shuffle::<RussianFmjd>(f, ["c1", "d2"], ["h8", "g7"], 40),
        30,
    );
}

#[test]
fn fmjd_lone_king_on_the_long_diagonal_5_moves() {
    // Three white pieces with a king against a black king on the long diagonal a1-h8: 5 moves
    // each. The black king shuttles h8-g7, both on the diagonal.
    let g = shuffle::<Brazilian>("W:WKc1,e1,g1:BKh8", ["c1", "d2"], ["h8", "g7"], 20);
    first_draw_at(&g, 10);
    // Off the long diagonal the 5-move rule does not apply: the first draw is the 15-move king
    // rule (only kings move).
    let g = shuffle::<Brazilian>("W:WKc1,e1,g1:BKb8", ["c1", "d2"], ["b8", "a7"], 40);
    first_draw_at(&g, 30);
}

#[test]
fn duoyibu_has_no_counter() {
    let g = shuffle::<Duoyibu>("W:WKc1,Ka3:BKh8,Kf8", ["c1", "d2"], ["h8", "g7"], 200);
    assert!(g.iter().all(|p| p.draw_by_rule().is_none()));
    assert_eq!(g[199].counters().reversible, 200);
}
