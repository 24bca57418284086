//! The learned pattern evaluation: the embedded weights of every family load, and the whole
//! evaluation (hand-made terms and patterns) is colour-symmetric: a position and its mirror (the
//! board turned by 180 degrees, the colours swapped, the other side to move) score the same for
//! the side to move, over the positions of random games of every draughts variant.

use tiao::draughts::board::Geometry;
use tiao::draughts::eval::patterns::{self, BoardWindows, PatternWeights};
use tiao::draughts::position::Position;
use tiao::draughts::rules::{Brazilian, Duoyibu, English, International, Rules, Russian};
use tiao::game::rng::Rng;
use tiao::game::{Evaluate, Game, MoveList};

/// The board turned by 180 degrees: square n becomes square N + 1 - n.
fn turned<G: Geometry>(bits: u64) -> u64 {
    let n = G::SQUARES as u32;
    let mut out = 0;
    for b in 0..64u8 {
        if bits & (1u64 << b) != 0 {
            let m = n + 1 - G::number_of_bit(b);
            out |= 1u64 << G::bit_of_number(m).expect("a square of the board");
        }
    }
    out
}

fn mirror<R: Rules>(p: &Position<R>) -> Position<R> {
    Position::from_parts(
        turned::<R::Board>(p.black()),
        turned::<R::Board>(p.white()),
        turned::<R::Board>(p.kings()),
        !p.side(),
    )
    .expect("the mirror of a position is a position")
}

fn check_symmetry<R: Rules>(games: usize, seed: u64) -> usize {
    let mut rng = Rng::new(seed);
    let mut list = MoveList::default();
    let mut checked = 0;
    for _ in 0..games {
        let mut pos = Position::<R>::start();
        for _ in 0..200 {
            let m = mirror(&pos);
            assert_eq!(
                pos.evaluate(),
                m.evaluate(),
                "{:?} and its mirror {:?} score differently",
                pos,
                m
            );
            checked += 1;
            pos.generate(&mut list);
            if list.is_empty() {
                break;
            }
            pos = pos.make(&list[rng.below(list.len())]);
        }
    }
    checked
}

#[test]
fn the_evaluation_is_colour_symmetric_in_every_variant() {
    assert!(check_symmetry::<International>(30, 1) > 1000);
    assert!(check_symmetry::<Russian>(30, 2) > 1000);
    assert!(check_symmetry::<Brazilian>(20, 3) > 500);
    assert!(check_symmetry::<Duoyibu>(20, 4) > 500);
    assert!(check_symmetry::<English>(30, 5) > 1000);
}

#[test]
fn the_embedded_weights_load_for_every_family() {
    for family in patterns::FAMILIES {
        let windows = if family == "international" {
            <<International as Rules>::Board as BoardWindows>::WINDOWS.count
        } else {
            <<English as Rules>::Board as BoardWindows>::WINDOWS.count
        };
        let bytes = patterns::embedded_file(family).expect("embedded");
        let w = PatternWeights::parse(bytes, family, windows).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            w.table.iter().any(|&v| v != 0),
            "{family}: weights are all zero"
        );
        // A file of one family is refused as another's.
        let other = if family == "english" {
            "international"
        } else {
            "english"
        };
        let e = PatternWeights::parse(bytes, other, windows).unwrap_err();
        assert!(e.to_string().contains(family), "{e}");
    }
    assert_eq!(
        patterns::describe::<Russian>(),
        patterns::describe::<Duoyibu>(),
        "one family for the 8x8 flying variants"
    );
}
