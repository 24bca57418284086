//! Nine Men's Morris notation: points, moves in every accepted form, the position string (round
//! trips and each rejection), and property tests: random text never panics a reader, and every
//! position of a random legal game survives the position string.

use proptest::prelude::*;
use tiao::game::Game;
use tiao::game::MoveError;
use tiao::game::MoveList;
use tiao::game::color::Color;
use tiao::morris::notation::{parse_fen, parse_point, point_name, write_fen};
use tiao::morris::{FenError, MorrisPosition, PositionError, board};

#[test]
fn points_round_trip() {
    for p in 0..24u8 {
        assert_eq!(parse_point(point_name(p)), Ok(p));
        assert_eq!(parse_point(&point_name(p).to_uppercase()), Ok(p));
    }
    for bad in ["", "a2", "d4", "h1", "a0", "a8", "a", "11", "a1a", "é1"] {
        assert!(parse_point(bad).is_err(), "{bad}");
    }
}

#[test]
fn start_position_string() {
    let p = MorrisPosition::start();
    assert_eq!(p.fen(), "W:W:B:H9,9:R0");
    for s in [
        "W:W:B:H9,9:R0",
        "w:H9,9",
        " \"W:B:W:R0:H9,9\". ",
        "W:h9,9:r0:w:b",
    ] {
        assert_eq!(parse_fen(s), Ok(p), "{s}");
    }
}

#[test]
fn position_string_fields() {
    let p = parse_fen("B:Wa1,g7,D6:Bc4:H4,5:R0").unwrap();
    assert_eq!(p.side(), Color::Black);
    assert_eq!(p.on_board(Color::White), 3);
    assert_eq!(p.in_hand(Color::Black), 5);
    assert_eq!(p.fen(), "B:Wa1,d6,g7:Bc4:H4,5:R0");
    let q = parse_fen("W:Wa1,a4,d7:Bg7,g4,g1:R37").unwrap();
    assert_eq!(q.no_removal(), 37);
    assert_eq!(q.in_hand(Color::White), 0);
    assert_eq!(q.fen(), "W:Wa1,a4,d7:Bg1,g4,g7:H0,0:R37");
}

#[test]
fn position_string_errors_name_the_token() {
    let err = |s: &str| parse_fen(s).expect_err(s);
    assert_eq!(err(""), FenError::Empty);
    assert_eq!(err(" . "), FenError::Empty);
    assert_eq!(err("X:W:B"), FenError::BadSideToMove("X".into()));
    assert_eq!(
        err("W31-50:B1-20"),
        FenError::BadSideToMove("W31-50".into())
    );
    assert_eq!(err("W:Wa1:Q7"), FenError::UnknownField("Q7".into()));
    assert_eq!(err("W:Wa1::B"), FenError::UnknownField("".into()));
    assert_eq!(err("W:Wa1:Wd7"), FenError::DuplicateField("Wd7".into()));
    assert_eq!(err("W:H9,9:H9,9"), FenError::DuplicateField("H9,9".into()));
    assert!(matches!(err("W:Wa1,a2:B:H8,8"), FenError::BadPoint { token, .. } if token == "a2"));
    assert!(
        matches!(err("W:Wa1,,d7:B:H8,8"), FenError::BadPoint { token, .. } if token.is_empty())
    );
    assert!(matches!(err("W:W31-50:B1-20"), FenError::BadPoint { token, .. } if token == "31-50"));
    assert_eq!(
        err("W:Wa1,A1:B:H8,8"),
        FenError::DuplicatePoint("a1".into())
    );
    assert_eq!(err("W:Wa1:Ba1:H8,8"), FenError::DuplicatePoint("a1".into()));
    assert_eq!(err("W:H10,10"), FenError::BadHand("H10,10".into()));
    assert_eq!(err("W:H9"), FenError::BadHand("H9".into()));
    assert_eq!(err("W:H9,x"), FenError::BadHand("H9,x".into()));
    assert_eq!(err("W:H-1,9"), FenError::BadHand("H-1,9".into()));
    assert_eq!(err("W:H9,9:R70000"), FenError::BadCounter("R70000".into()));
    assert_eq!(err("W:H9,9:R"), FenError::BadCounter("R".into()));
    assert_eq!(err("W:H9,9:R+1"), FenError::BadCounter("R+1".into()));
}

#[test]
fn invalid_positions_are_rejected() {
    let pos_err = |s: &str| match parse_fen(s) {
        Err(FenError::Position(e)) => e,
        other => panic!("{s}: {other:?}"),
    };
    // More than 9 pieces a side, on the board and in hand together.
    assert_eq!(
        pos_err("W:Wa1,a4,a7,b2,b4,b6,c3,c4,c5,d1:Bg7,g4,g1:H0,0"),
        PositionError::TooManyPieces {
            color: Color::White,
            on_board: 10,
            in_hand: 0
        }
    );
    assert_eq!(
        pos_err("W:Wa1,a4:Bg7:H8,8"),
        PositionError::TooManyPieces {
            color: Color::White,
            on_board: 2,
            in_hand: 8
        }
    );
    // Pieces in hand out of turn: White places first.
    assert_eq!(
        pos_err("W:H8,9"),
        PositionError::HandsOutOfTurn {
            side: Color::White,
            white: 8,
            black: 9
        }
    );
    assert!(matches!(
        pos_err("B:H9,9"),
        PositionError::HandsOutOfTurn { .. }
    ));
    assert!(matches!(
        pos_err("B:Wa1,a4,a7:Bg7,g4,g1:H0,2"),
        PositionError::HandsOutOfTurn { .. }
    ));
    // The side that just moved cannot have lost already.
    assert_eq!(
        pos_err("W:Wa1,a4,a7:Bg7,g4:H0,0"),
        PositionError::AlreadyLost(Color::Black)
    );
    // Errors read as sentences.
    let msg = parse_fen("W:Wa1,a4,a7,b2,b4,b6,c3,c4,c5,d1:Bg7,g4,g1")
        .unwrap_err()
        .to_string();
    assert!(msg.contains("white has 10 pieces"), "{msg}");
    // The constructor checks what the string cannot express.
    assert!(matches!(
        MorrisPosition::new(1 << 30, 0, [0, 0], Color::White, 0),
        Err(PositionError::OffBoard(_))
    ));
    assert!(matches!(
        MorrisPosition::new(7, 7 << 3 | 1, [0, 0], Color::White, 0),
        Err(PositionError::Overlap("a7"))
    ));
}

#[test]
fn move_forms() {
    let p = parse_fen("W:Wa1,a4,d7,b2:Bg7,g4,g1,b6,d6,f6:H0,0:R0").unwrap();
    let m = p.parse_move("d7-a7xd6").unwrap();
    assert_eq!(p.move_to_hub(&m), "d7-a7xd6");
    assert_eq!(p.move_to_pdn(&m), "d7-a7xd6");
    for text in [
        "d7-a7 xd6",
        "D7-A7XD6",
        "d7a7xd6",
        "d7-a7xd6!",
        " d7-a7  xd6 ",
    ] {
        assert_eq!(p.parse_move(text), Ok(m), "{text}");
    }
    assert!(
        matches!(p.parse_move("d7-a7"), Err(MoveError::Ambiguous { candidates, .. }) if candidates.len() == 6)
    );
    assert_eq!(
        p.parse_move("b2-b4xd6"),
        Err(MoveError::Illegal("b2-b4xd6".into()))
    );
    assert_eq!(
        p.parse_move("a1-g1"),
        Err(MoveError::Illegal("a1-g1".into()))
    );
    assert_eq!(p.parse_move("c5"), Err(MoveError::Illegal("c5".into())));
    assert_eq!(p.parse_move("  "), Err(MoveError::Empty));
    assert!(matches!(
        p.parse_move("d7-a9"),
        Err(MoveError::Square { .. })
    ));
    assert!(matches!(
        p.parse_move("d7-a7 d6"),
        Err(MoveError::Syntax(_))
    ));
    let q = MorrisPosition::start();
    assert_eq!(q.move_to_hub(&q.parse_move("d6").unwrap()), "d6");
}

/// Plays `choices` (indices modulo the number of legal moves) from the start; returns every
/// position on the way.
fn game(choices: &[usize]) -> Vec<MorrisPosition> {
    let mut p = MorrisPosition::start();
    let mut out = vec![p];
    let mut list = MoveList::default();
    for &c in choices {
        p.generate(&mut list);
        if list.is_empty() {
            break;
        }
        p = p.make(&list[c % list.len()]);
        out.push(p);
    }
    out
}

#[test]
fn every_move_of_random_games_round_trips() {
    let mut x = 0x1234_5678u64;
    let choices: Vec<usize> = (0..3000)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as usize
        })
        .collect();
    let mut list = MoveList::default();
    for chunk in choices.chunks(150) {
        for p in game(chunk) {
            p.generate(&mut list);
            for m in list.iter() {
                let text = p.move_to_hub(m);
                assert_eq!(p.parse_move(&text), Ok(*m), "{text} in {}", p.fen());
                if let Some((action, removal)) = text.split_once('x') {
                    assert_eq!(p.parse_move(&format!("{action} x{removal}")), Ok(*m));
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_text_never_panics(s in "\\PC{0,40}") {
        let _ = parse_fen(&s);
        let _ = parse_point(&s);
        let p = MorrisPosition::start();
        let _ = p.parse_move(&s);
        let q = parse_fen("W:Wa1,a4,d7,b2:Bg7,g4,g1,d6:H0,0:R0").unwrap();
        let _ = q.parse_move(&s);
    }

    #[test]
    fn position_like_text_never_panics(
        parts in proptest::collection::vec(
            prop_oneof![
                Just("W".to_string()), Just("B".to_string()), Just(":".to_string()),
                Just(",".to_string()), Just("H".to_string()), Just("R".to_string()),
                Just("x".to_string()), Just("-".to_string()), Just(" ".to_string()),
                (0..24u8).prop_map(|p| point_name(p).to_string()),
                (0..100_000u32).prop_map(|n| n.to_string()),
            ],
            0..24,
        )
    ) {
        let s: String = parts.concat();
        if let Ok(p) = parse_fen(&s) {
            // Whatever parses is valid and writes back to itself.
            prop_assert_eq!(p.check(), Ok(()));
            prop_assert_eq!(parse_fen(&write_fen(&p)), Ok(p));
        }
        let _ = MorrisPosition::start().parse_move(&s);
    }

    #[test]
    fn random_games_round_trip_through_the_position_string(
        choices in proptest::collection::vec(any::<usize>(), 0..120)
    ) {
        for p in game(&choices) {
            let text = p.fen();
            let q = parse_fen(&text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
            prop_assert_eq!(q, p);
            prop_assert_eq!(q.key(), p.compute_key());
            prop_assert!(board::ALL & p.occupied() == p.occupied());
        }
    }
}
