//! One focused test per special rule of the draughts variants (RULES.md).
//!
//! Positions are written with algebraic squares, which the FEN reader accepts on every board, so
//! that the geometry can be followed on a diagram: a1 is White's lower-left dark corner, a square
//! (file, rank) is dark when file + rank is even (both counted from 0).

use tiao::draughts::board::Geometry;
use tiao::draughts::movegen::legal_moves;
use tiao::draughts::moves::Move;
use tiao::draughts::notation::{fen, movetext, square};
use tiao::draughts::position::Position;
use tiao::draughts::rules::{Brazilian, Duoyibu, English, International, Rules, Russian};

fn pos<R: Rules>(f: &str) -> Position<R> {
    fen::parse::<R>(f).unwrap_or_else(|e| panic!("{f}: {e}"))
}

fn bit<R: Rules>(sq: &str) -> u8 {
    square::parse::<R::Board>(sq).unwrap()
}

fn bits<R: Rules>(sqs: &[&str]) -> u64 {
    sqs.iter().fold(0, |acc, s| acc | (1u64 << bit::<R>(s)))
}

/// The legal moves as (from, to, captured squares, promotes), sorted, in algebraic names.
fn described<R: Rules>(p: &Position<R>) -> Vec<(String, String, Vec<String>, bool)> {
    let name = |b: u8| R::Board::algebraic(b);
    let mut v: Vec<_> = legal_moves(p)
        .iter()
        .map(|m| {
            let caps = tiao::draughts::board::Bits(m.captured)
                .map(name)
                .collect::<Vec<_>>();
            (name(m.from), name(m.to), caps, m.promotes())
        })
        .collect();
    v.sort();
    v
}

fn only_move<R: Rules>(p: &Position<R>) -> Move {
    let l = legal_moves(p);
    assert_eq!(
        l.len(),
        1,
        "expected a single legal move, got {:?}",
        described(p)
    );
    l[0]
}

// --- Promotion during a capture -----------------------------------------------------------

/// Russian: the man jumps c7 onto d8, is a king at once and flies on over e7, f6 to take g5,
/// landing on h4 (RULES.md; seed 004 升变规则). Brazilian (international rules on 8x8): the same
/// man stops on d8, a man cannot take the distant g5.
#[test]
fn russian_man_crowned_mid_capture_continues_as_king() {
    let f = "W:Wb6:Bc7,g5";
    let r = pos::<Russian>(f);
    let m = only_move(&r);
    assert_eq!((m.from, m.to), (bit::<Russian>("b6"), bit::<Russian>("h4")));
    assert_eq!(m.captured, bits::<Russian>(&["c7", "g5"]));
    assert!(m.promotes(), "the man ends the move as a king");
    let after = r.make(&m);
    assert_ne!(after.kings() & (1u64 << bit::<Russian>("h4")), 0);
    assert_eq!(movetext::write_pdn(&r, &m), "b6:h4");

    let b = pos::<Brazilian>(f);
    let m = only_move(&b);
    assert_eq!(
        (m.from, m.to, m.captured),
        (
            bit::<Brazilian>("b6"),
            bit::<Brazilian>("d8"),
            bits::<Brazilian>(&["c7"])
        )
    );
    assert!(m.promotes(), "ends on the last row: promoted");
}

/// International: a man that reaches the last row in the middle of a capture stays a man and
/// keeps capturing as a man (backward); it is not promoted when the move ends elsewhere.
#[test]
fn international_man_passing_last_row_stays_a_man() {
    let p = pos::<International>("W:Wd8:Be9,g9");
    let m = only_move(&p);
    assert_eq!(
        (m.from, m.to),
        (bit::<International>("d8"), bit::<International>("h8"))
    );
    assert_eq!(m.captured, bits::<International>(&["e9", "g9"]));
    assert!(
        !m.promotes(),
        "passed f10 mid-capture, ended on h8: still a man"
    );
    assert_eq!(p.make(&m).kings(), 0);

    // Ending on the last row promotes.
    let p = pos::<International>("W:Wd8:Be9");
    let m = only_move(&p);
    assert_eq!(m.to, bit::<International>("f10"));
    assert!(m.promotes());
}

/// English: a man that reaches the last row is crowned and the move ends there, even when a
/// king could jump on (d6xf8, not d6xf8xh6). Russian takes both, brazilian's man takes both
/// jumping backward as a man and stays a man.
#[test]
fn english_crowning_ends_the_move() {
    let f = "W:Wd6:Be7,g7";
    let e = pos::<English>(f);
    let m = only_move(&e);
    assert_eq!(
        (m.to, m.captured),
        (bit::<English>("f8"), bits::<English>(&["e7"]))
    );
    assert!(m.promotes());
    assert_eq!(
        movetext::write_pdn(&e, &m),
        "10x3",
        "English writes numeric squares"
    );

    let r = pos::<Russian>(f);
    let m = only_move(&r);
    assert_eq!(
        (m.to, m.captured, m.promotes()),
        (bit::<Russian>("h6"), bits::<Russian>(&["e7", "g7"]), true)
    );

    let b = pos::<Brazilian>(f);
    let m = only_move(&b);
    assert_eq!(
        (m.to, m.captured, m.promotes()),
        (
            bit::<Brazilian>("h6"),
            bits::<Brazilian>(&["e7", "g7"]),
            false
        )
    );
}

/// English men capture forward only; English kings are short (one square).
#[test]
fn english_men_capture_forward_only_and_kings_are_short() {
    // White man on d4 with a black man behind it on c3 (b2 empty): no capture backward.
    let e = pos::<English>("W:Wd4:Bc3,h8");
    assert!(legal_moves(&e).iter().all(|m| !m.is_capture()));
    let r = pos::<Russian>("W:Wd4:Bc3,h8");
    assert!(legal_moves(&r).iter().all(|m| m.is_capture()));

    // A king on a1 with an enemy on e5 two squares away: no capture for a short king.
    let e = pos::<English>("W:WKa1:Be5");
    assert!(legal_moves(&e).iter().all(|m| !m.is_capture()));
    assert_eq!(legal_moves(&e).len(), 1, "short king: a1-b2 only");
    let r = pos::<Russian>("W:WKa1:Be5");
    assert!(
        legal_moves(&r).iter().all(|m| m.is_capture()),
        "a flying king takes e5 from afar"
    );
}

// --- Majority ---------------------------------------------------------------------------

/// International: the capture taking the most pieces is compulsory, and a king counts as one
/// piece: taking two men (f6, h8) beats taking the king on d6.
#[test]
fn majority_capture_kings_count_as_one() {
    let p = pos::<International>("W:We5:BKd6,f6,h8");
    let m = only_move(&p);
    assert_eq!(
        (m.to, m.captured),
        (
            bit::<International>("i9"),
            bits::<International>(&["f6", "h8"])
        )
    );

    // One king or one man: equal counts, free choice.
    let p = pos::<International>("W:We5:BKd6,f6");
    assert_eq!(legal_moves(&p).len(), 2);

    // Russian has no majority rule: both the single and the double capture are legal.
    let r = pos::<Russian>("W:Wc3:Bd4,b4,b6");
    // c3:e5 (one piece) or c3:a5:c7 (two pieces): free choice.
    assert_eq!(described(&r).len(), 2, "{:?}", described(&r));
    let b = pos::<Brazilian>("W:Wc3:Bd4,b4,b6");
    assert_eq!(
        only_move(&b).captured.count_ones(),
        2,
        "brazilian keeps the majority rule"
    );
}

// --- Turkish strike ------------------------------------------------------------------------

/// The king on f6 takes e5, b4 and b6 round a loop and arrives on c7, from where the diagonal
/// c7-d6-e5-f4-g3 would let it take f4, were e5 already gone. Captured pieces stay on the board
/// until the move ends (Turkish strike): e5 blocks and cannot be jumped again, so the sequence
/// ends after three pieces, on c7 or any square beyond it.
#[test]
fn turkish_strike_captured_pieces_block() {
    let p = pos::<International>("W:WKf6:Be5,b4,b6,f4");
    let l = legal_moves(&p);
    let three = bits::<International>(&["e5", "b4", "b6"]);
    assert!(l.iter().all(|m| m.captured == three), "{:?}", described(&p));
    let mut ends: Vec<String> = l
        .iter()
        .map(|m| <International as Rules>::Board::algebraic(m.to))
        .collect();
    ends.sort();
    assert_eq!(ends, ["c7", "d8", "e9", "f10"]);
}

/// A man capturing round a diamond ends where it started; both directions round it are the same
/// move (same from, to and captured set) and are generated once.
#[test]
fn duplicate_sequences_are_one_move() {
    let p = pos::<International>("W:We3:Bd4,d6,f6,f4");
    let m = only_move(&p);
    assert_eq!(m.from, m.to);
    assert_eq!(m.captured.count_ones(), 4);
    let after = p.make(&m);
    assert_eq!(after.black(), 0);
    assert_eq!(after.white(), 1u64 << bit::<International>("e3"));
}

/// Two captures with the same from and to but different pieces are written in long form, with
/// their landing squares, and read back. (A position from the russian perft tree: the black man
/// on e5 reaches a5 over d4 and b4, or over f4, f2 — crowned on e1 — d2 and b4.)
#[test]
fn ambiguous_captures_use_long_notation() {
    let p = pos::<Russian>("B:Wb4,d4,f4,a3,b2,d2,f2,h2,a1,c1,g1:Bb8,d8,f8,h8,a7,e7,g7,b6,d6,h6,e5");
    let l = legal_moves(&p);
    let to_a5: Vec<&Move> = l.iter().filter(|m| m.to == bit::<Russian>("a5")).collect();
    assert_eq!(to_a5.len(), 2);
    let mut written: Vec<String> = to_a5.iter().map(|m| movetext::write_pdn(&p, m)).collect();
    written.sort();
    assert_eq!(written, ["e5:c3:a5", "e5:g3:e1:c3:a5"]);
    for m in &to_a5 {
        assert_eq!(
            movetext::parse_pdn(&p, &movetext::write_pdn(&p, m)).unwrap(),
            **m
        );
        assert_eq!(
            movetext::parse_hub(&p, &movetext::write_hub::<Russian>(m)).unwrap(),
            **m
        );
    }
    // Turning squares alone are enough to tell them apart; the short form is ambiguous.
    let m = movetext::parse_pdn(&p, "e5:e1:a5").unwrap();
    assert_eq!(m.captured.count_ones(), 4);
    let e = movetext::parse_pdn(&p, "e5:a5").unwrap_err().to_string();
    assert!(e.contains("ambiguous") && e.contains("e5:c3:a5"), "{e}");
    // Free choice (russian): the two-piece and the four-piece capture are both legal.
    assert!(to_a5.iter().any(|m| m.captured.count_ones() == 2));
}

/// A single jump and a longer capture share from and to: the single jump's complete path is just
/// `d4:f2`, so that text means it, and the long one needs its landing squares. (Found by the
/// property test on a russian game.)
#[test]
fn a_single_jump_is_its_own_complete_path() {
    let p = pos::<Russian>("W:Wa5,d4,a3,c3,b2,a1,e1:Bb8,f8,h8,a7,c7,e7,g7,c5,e5,h4,Ke3");
    let short = movetext::parse_pdn(&p, "d4:f2").unwrap();
    assert_eq!(short.captured, bits::<Russian>(&["e3"]));
    let long = movetext::parse_pdn(&p, "d4:b6:d8:f6:d4:f2").unwrap();
    assert_eq!(long.captured.count_ones(), 5, "c5, c7, e7, e5 and e3");
    assert_eq!(movetext::write_pdn(&p, &short), "d4:f2");
    assert_eq!(movetext::write_pdn(&p, &long), "d4:b6:d8:f6:d4:f2");
}

// --- Duoyibu's king rule ---------------------------------------------------------------------

/// Kings of both sides on one diagonal with only empty squares between them may not move toward
/// each other along it (seed 003 rule 1.6). The white king c3 faces the black king f6 (g7 behind
/// it is occupied, so there is no capture): d4 and e5 are forbidden, the other six moves are not.
#[test]
fn duoyibu_kings_may_not_approach_on_a_free_diagonal() {
    let f = "W:WKc3:BKf6,g7";
    let d = pos::<Duoyibu>(f);
    let targets: Vec<String> = described(&d).into_iter().map(|m| m.1).collect();
    assert_eq!(targets.len(), 6, "{targets:?}");
    assert!(!targets.contains(&"d4".to_string()) && !targets.contains(&"e5".to_string()));
    assert_eq!(
        legal_moves(&pos::<Russian>(f)).len(),
        8,
        "russian has no such rule"
    );

    // Black to move: the same for the black king (e5, d4 forbidden). A white man on b2 stops
    // the black king from taking c3.
    let d = pos::<Duoyibu>("B:WKc3,b2:BKf6,g7");
    let f6 = bit::<Duoyibu>("f6");
    let king_targets: Vec<String> = legal_moves(&d)
        .iter()
        .filter(|m| m.from == f6)
        .map(|m| <Duoyibu as Rules>::Board::algebraic(m.to))
        .collect();
    assert!(!king_targets.contains(&"e5".to_string()) && !king_targets.contains(&"d4".to_string()));
    assert_eq!(king_targets.len(), 4, "{king_targets:?}: e7, d8, g5, h4");
}

/// Captures are never restricted by the king rule.
#[test]
fn duoyibu_king_rule_never_restricts_captures() {
    let d = pos::<Duoyibu>("W:WKc3:BKf6");
    let l = legal_moves(&d);
    assert!(!l.is_empty() && l.iter().all(|m| m.is_capture()));
    let targets: Vec<String> = l
        .iter()
        .map(|m| <Duoyibu as Rules>::Board::algebraic(m.to))
        .collect();
    assert_eq!(targets.len(), 2, "c3:g7 and c3:h8, {targets:?}");
}

/// A king whose only moves run toward the enemy king has no legal move: that side loses.
#[test]
fn duoyibu_king_rule_can_leave_no_move() {
    for side in ["W", "B"] {
        let d = pos::<Duoyibu>(&format!("{side}:WKa1:BKh8"));
        assert!(
            legal_moves(&d).is_empty(),
            "{side} to move has no legal move"
        );
        let r = pos::<Russian>(&format!("{side}:WKa1:BKh8"));
        assert_eq!(legal_moves(&r).len(), 6);
    }
    // Moving away, or onto the diagonal from another one, stays legal.
    let d = pos::<Duoyibu>("W:WKb2,Ke1:BKh8");
    let from = |sq: &str| -> Vec<String> {
        let mut v: Vec<String> = described(&d)
            .into_iter()
            .filter(|m| m.0 == sq)
            .map(|m| m.1)
            .collect();
        v.sort();
        v
    };
    assert_eq!(
        from("b2"),
        ["a1", "a3", "c1"],
        "b2 may move away, not toward h8"
    );
    assert!(
        from("e1").contains(&"c3".to_string()),
        "e1-c3 moves onto the diagonal: allowed"
    );
}

// --- Compulsory capture, blocked side -------------------------------------------------------

/// Capture is compulsory: with a capture available no quiet move is legal.
#[test]
fn capture_is_compulsory() {
    let p = Position::<International>::start();
    let p = p.make(&movetext::parse(&p, "32-28").unwrap());
    let p = p.make(&movetext::parse(&p, "19-23").unwrap());
    let l = legal_moves(&p);
    assert_eq!(l.len(), 1);
    assert!(l[0].is_capture());
}

/// A side with no legal move (no pieces, or all blocked) has an empty move list: it has lost.
#[test]
fn blocked_side_has_no_moves() {
    // The white man on h2 is blocked by g3 and i3, which it cannot jump (f4 and j4 occupied).
    let p = pos::<International>("W:Wh2:Bg3,i3,f4,j4");
    assert!(legal_moves(&p).is_empty());
    let p = pos::<International>("W:W:B1");
    assert!(legal_moves(&p).is_empty());
}
