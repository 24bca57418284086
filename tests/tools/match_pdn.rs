//! PDN games: written games read back as they were (property test over random legal games of
//! every variant, with awkward tags, comments and marks), and PDN as other tools write it reads
//! and replays.

use proptest::prelude::*;
use tiao::dispatch;
use tiao::draughts::position::Position;
use tiao::draughts::rules::{English, International, Russian, Variant};
use tiao::game::Game;
use tiao::game::MoveList;
use tiao::game::color::Color;
use tiao::pdn::{self, PdnGame, PdnMove};
use tiao::variant::GameKind;

/// A random legal game of `plies` plies from the start of `G`, moves in PDN form.
fn random_game<G: Game>(seed: u64, plies: usize) -> (Vec<String>, Color, Color) {
    let mut x = seed | 1;
    let mut pos = G::start();
    let mut list = MoveList::default();
    let mut moves = Vec::new();
    for _ in 0..plies {
        pos.generate(&mut list);
        if list.is_empty() {
            break;
        }
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let m = list[(x % list.len() as u64) as usize];
        moves.push(pos.move_to_pdn(&m));
        pos = pos.make(&m);
    }
    (moves, G::start().side(), G::start().side())
}

fn variant_strategy() -> impl Strategy<Value = Variant> {
    prop_oneof![
        Just(Variant::International),
        Just(Variant::English),
        Just(Variant::Russian),
        Just(Variant::Brazilian),
        Just(Variant::Duoyibu),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn written_games_read_back(
        variant in variant_strategy(),
        seed in any::<u64>(),
        plies in 0usize..80,
        comments in proptest::collection::vec(proptest::option::of("[^{}]{0,30}"), 80),
        nags in proptest::collection::vec(proptest::option::of(1u16..20), 80),
        event in "[ -~]{0,20}",
    ) {
        let kind = GameKind::new(variant);
        let (moves, first, start) =
            dispatch!(kind, R => random_game::<Position<R>>(seed, plies), morris => unreachable!());
        let mut game = PdnGame::default();
        game.set_tag("Event", event.clone());
        game.set_tag("GameType", pdn::game_type(variant).unwrap());
        if variant == Variant::Duoyibu {
            game.set_tag("Variant", "duoyibu");
        }
        game.set_tag("Result", "*");
        for (i, m) in moves.iter().enumerate() {
            let mut pm = PdnMove::new(m.clone());
            pm.nag = nags[i];
            // Comments are kept with their blanks collapsed, as the reader gives them.
            if let Some(c) = &comments[i] {
                pm.comments.push(c.split_whitespace().collect::<Vec<_>>().join(" "));
            }
            game.moves.push(pm);
        }
        game.result = Some("*".into());
        let text = pdn::write(&game, first, start);
        let back = pdn::parse(&text).unwrap();
        prop_assert_eq!(back.len(), 1);
        prop_assert_eq!(&back[0], &game);
        prop_assert_eq!(back[0].variant(), Some(Ok(variant)));
        let replayed = dispatch!(kind,
            R => pdn::replay::<Position<R>>(&back[0]).map(|(_, m)| m.len()),
            morris => unreachable!());
        prop_assert_eq!(replayed, Ok(moves.len()));
    }

    #[test]
    fn the_reader_never_panics(text in "[ -~\n{}()\\[\\]\"]{0,200}") {
        let _ = pdn::parse(&text);
    }
}

#[test]
fn pdn_as_other_tools_write_it() {
    // lidraughts-style: clocks in comments, move numbers glued to moves, Hub-form captures as
    // pydraughts writes them, a variation, and a second game after a blank line.
    let text = r#"[Event "Casual"]
[Site "https://lidraughts.org/abc"]
[Result "2-0"]
[GameType "20"]
[WhiteClock "0:05:00"]

1.32-28 {[%clock w0:05:00 B0:05:00]} 19-23 2.28x19x23 14x23 (2...13x24 3.33-29) 3.37-32 $1 10-14
4.34-30! 5-10 2-0

[Event "Second"]
[GameType "20"]
[SetUp "1"]
[FEN "W:WK46:B41,32,22,13"]
1. 46x17 {one of five captures of three} 1-1
"#;
    let games = pdn::parse(text).unwrap();
    assert_eq!(games.len(), 2);
    let (_, moves) = pdn::replay::<Position<International>>(&games[0]).unwrap();
    assert_eq!(moves.len(), 8);
    assert_eq!(games[0].moves[4].nag, Some(1));
    assert_eq!(games[0].moves[6].nag, Some(1));
    assert_eq!(games[0].moves[0].comments, ["[%clock w0:05:00 B0:05:00]"]);
    let (start, moves) = pdn::replay::<Position<International>>(&games[1]).unwrap();
    assert_eq!(start.fen(), "W:WK46:B13,22,32,41");
    assert_eq!(moves[0].capture_count(), 3);

    // CheckerBoard-style english, Black's moves numbered, and a russian game in algebraic form
    // with ':' captures and glued squares.
    let english = "[Event \"\"]\n[GameType \"21\"]\n1. 11-15 23-19 2. 8-11 22-17 3. 9-13 17-14 4. 10x17 21x14 1/2-1/2";
    let g = &pdn::parse(english).unwrap()[0];
    assert_eq!(g.variant(), Some(Ok(Variant::English)));
    assert_eq!(pdn::replay::<Position<English>>(g).unwrap().1.len(), 8);
    let russian = "[GameType \"25,W,8,8,A0,0\"]\n1. c3-d4 f6-e5 2. d4:f6 g7xe5 3. b2c3 *";
    let g = &pdn::parse(russian).unwrap()[0];
    assert_eq!(g.variant(), Some(Ok(Variant::Russian)));
    assert_eq!(pdn::replay::<Position<Russian>>(g).unwrap().1.len(), 5);
}
