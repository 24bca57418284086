//! Nine Men's Morris through the generic search: a mill in one is taken, a win by blocking is
//! found at its distance, and deeper search does not lose to shallower search.

use tiao::game::Game;
use tiao::morris::MorrisPosition;
use tiao::search::tt::Tt;
use tiao::search::{self, ScoreKind};

fn pos(s: &str) -> MorrisPosition {
    MorrisPosition::from_fen(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// Black flies with three pieces; White closes the mill a7-d7-g7 by g4-g7, takes one and leaves
/// Black with two: a win in one ply. The search takes the mill and scores the win.
#[test]
fn a_mill_in_one_is_taken() {
    let p = pos("W:Wa7,d7,g4,b2:Bd1,f2,c5:H0,0:R0");
    let tt = Tt::new(16);
    let r = search::search_to_depth(&p, 4, &tt);
    let best = r.best.expect("a move");
    assert!(
        p.is_noisy(&best),
        "best move {} closes no mill",
        p.move_to_pdn(&best)
    );
    assert!(
        p.move_to_pdn(&best).starts_with("g4-g7x"),
        "{}",
        p.move_to_pdn(&best)
    );
    assert_eq!(r.score.kind(), ScoreKind::Win(1), "score {}", r.score);
}

/// Black's four pieces stand on the outer corners; their neighbours d7, a4 and g4 are White's and
/// d1 is the last free one. d2-d1 blocks Black completely: it has no move and loses.
#[test]
fn a_win_by_blocking_is_found() {
    let p = pos("W:Wd7,a4,g4,d2:Ba7,g7,a1,g1:H0,0:R0");
    let tt = Tt::new(16);
    let r = search::search_to_depth(&p, 3, &tt);
    let best = r.best.expect("a move");
    assert_eq!(p.move_to_pdn(&best), "d2-d1");
    assert_eq!(r.score.kind(), ScoreKind::Win(1));
    let after = p.make(&best);
    let mut list = tiao::game::MoveList::default();
    after.generate(&mut list);
    assert!(list.is_empty(), "Black is blocked");
}

/// Plays one game between a search of depth `deep` (for `deep_side`, 0 = White) and one of depth
/// `shallow`; returns the deep side's points (1, 0.5 or 0). Ends by the rules: no move loses,
/// the no-removal counter and the third repetition draw; 300 plies are a draw.
fn game(start: MorrisPosition, deep: u32, shallow: u32, deep_side: usize) -> f64 {
    let tt = Tt::new(8);
    let mut p = start;
    let mut history: Vec<u64> = Vec::new();
    for _ in 0..300 {
        if p.draw_by_rule() || history.iter().filter(|&&k| k == p.key()).count() >= 2 {
            return 0.5;
        }
        let deep_to_move = (p.side() as usize) == deep_side;
        let depth = if deep_to_move { deep } else { shallow };
        let r = search::search_to_depth(&p, depth, &tt);
        let Some(m) = r.best else {
            // No legal move: the side to move has lost.
            return if deep_to_move { 0.0 } else { 1.0 };
        };
        history.push(p.key());
        p = p.make(&m);
    }
    0.5
}

/// RULES.md's Nine Men's Morris is a draw with perfect play, so the deeper side cannot be expected
/// to win every game, but it must not lose the match: depth 4 against depth 2, 20 games (10
/// openings of four random placements, each with colours reversed).
#[test]
fn deeper_search_does_not_lose_a_match() {
    // Every position of ten five-ply random games; each game's last one is an opening.
    let all = tiao::morris::sample::random_positions(10, 5, 7);
    let openings: Vec<MorrisPosition> = all.chunks(5).map(|c| c[c.len() - 1]).collect();
    assert_eq!(openings.len(), 10);
    let mut points = 0.0;
    for start in &openings {
        for deep_side in 0..2 {
            points += game(*start, 4, 2, deep_side);
        }
    }
    eprintln!("depth 4 against depth 2: {points} of 20");
    assert!(
        points >= 10.0,
        "depth 4 scored {points} of 20 against depth 2"
    );
}
