//! Draws inside the search: every draw counter of every variant, and repetition against the game
//! history, each scored as a draw in the position that triggers it and not one ply earlier.
//!
//! The counter tests put the side to move, which is better on material, one ply before a rule's
//! threshold: every move it has keeps the rule's condition and resets nothing, so every move
//! reaches the threshold and the root scores exactly a draw. Two plies before, a one-ply search
//! sees no draw and scores the material.

use std::sync::Arc;
use std::sync::mpsc;
use tiao::draughts::draw::Counters;
use tiao::draughts::position::Position;
use tiao::draughts::rules::{Brazilian, English, International, Rules, Russian, RussianFmjd};
use tiao::engine::{Engine, EngineOptions, Event};
use tiao::game::Evaluate;
use tiao::game::Game;
use tiao::search::score::DRAW;
use tiao::search::tt::Tt;
use tiao::search::{Limits, search_to_depth};
use tiao::variant::{GameKind, Variant};

/// The root score at `depth` with counter `rule` set to `plies_before` plies under its threshold.
fn score_before_threshold<R: Rules>(fen: &str, rule: usize, plies_before: u16, depth: u32) -> i32
where
    Position<R>: Evaluate,
{
    let mut pos = Position::<R>::from_fen(fen).unwrap();
    let threshold = R::DRAW.rules[rule].plies;
    let mut c = Counters::default();
    c.by_rule[rule] = (threshold - plies_before) as u8;
    pos.set_counters(c);
    assert!(pos.draw_by_rule().is_none());
    search_to_depth(&pos, depth, &Tt::new(1)).score.0
}

fn check_rule<R: Rules>(fen: &str, rule: usize)
where
    Position<R>: Evaluate,
{
    let name = R::DRAW.rules[rule].source;
    assert_eq!(
        score_before_threshold::<R>(fen, rule, 1, 2),
        DRAW,
        "{fen}: {name}: not a draw at the threshold"
    );
    let earlier = score_before_threshold::<R>(fen, rule, 2, 1);
    assert!(
        earlier > 0,
        "{fen}: {name}: a draw one ply early ({earlier})"
    );
}

#[test]
fn international_counters() {
    // Four kings against two: only the 25-move king rule applies.
    check_rule::<International>("W:WK1,K2,K3,K4:BK46,K50", 0);
    // Three kings against a lone king: the 16-move rule.
    check_rule::<International>("W:WK1,K2,K3:BK50", 1);
    // Two kings against a lone king: the 5-move rule.
    check_rule::<International>("W:WK1,K2:BK50", 2);
}

#[test]
fn english_counter() {
    check_rule::<English>("W:WK1,K2,K3:BK31,K32", 0);
}

#[test]
fn russian_counters() {
    // 30 rounds without capture: men moves do not reset it.
    check_rule::<Russian>("W:W21-32:B1-11", 0);
    // Three kings against a lone king.
    check_rule::<Russian>("W:WKc1,Ke1,Kg1:BKh8", 1);
}

#[test]
fn fmjd_counters() {
    // Kings only, no capture.
    check_rule::<RussianFmjd>("W:WKa1,Kc1,Ke1,Kg1:BKb8,Kd8", 0);
    // Three kings or more against a lone king.
    check_rule::<RussianFmjd>("W:WKc1,Ke1,Kg1:BKh8", 1);
    // Both sides with kings, 4-5 pieces.
    check_rule::<RussianFmjd>("W:WKc1,Ke1,Kg1:BKb8,f8", 2);
    // Both sides with kings, 6-7 pieces.
    check_rule::<RussianFmjd>("W:WKc1,Ke1,Kg1,a3:BKb8,f8,h8", 3);
    // Three pieces with a king against a lone king on the long diagonal.
    check_rule::<RussianFmjd>("W:WKc1,Ke1,Kg1:BKh8", 4);
    // Two pieces with a king against a lone king.
    check_rule::<RussianFmjd>("W:WKc1,Ke1:BKh8", 5);
    // Brazilian plays the same set.
    check_rule::<Brazilian>("W:WKc1,Ke1:BKh8", 5);
}

/// The depth-1 score and best move of the position after `moves` from `fen` (Black to move).
fn after_moves(fen: &str, moves: &[&str]) -> (i32, String) {
    let mut e = Engine::new(
        GameKind::new(Variant::International),
        EngineOptions::default(),
    )
    .unwrap();
    e.set_position(Some(fen), moves).unwrap();
    let (tx, rx) = mpsc::channel();
    let tx = std::sync::Mutex::new(tx);
    e.go(
        Limits {
            analyze: true,
            ..Limits::depth(1)
        },
        Arc::new(move |ev| {
            if let Event::Done(d) = ev {
                let _ = tx.lock().unwrap().send(d);
            }
        }),
    )
    .unwrap();
    let d = rx.recv().unwrap();
    (d.score.0, d.best.unwrap().pdn)
}

#[test]
fn third_repetition_from_the_game_history() {
    // White (four kings against two) shuffles 1-7 / 7-1, Black 46-41 / 41-46. Black, losing on
    // material, wants the draw.
    let fen = "W:WK1,K2,K3,K4:BK46,K50";
    let cycle = ["1-7", "46-41", "7-1", "41-46"];
    // After 7 plies, 41-46 makes the start position appear a third time: a draw.
    let seven: Vec<&str> = cycle.iter().chain(cycle.iter()).take(7).copied().collect();
    let (score, best) = after_moves(fen, &seven);
    assert_eq!((score, best.as_str()), (DRAW, "41-46"));
    // After 3 plies, 41-46 only makes its second appearance: no draw, Black is lost on material.
    let (score, _) = after_moves(fen, &seven[..3]);
    assert!(score < -100, "{score}");
}
