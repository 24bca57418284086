//! The learned pattern evaluation: the embedded weights of every family load, and the whole
//! evaluation (hand-made terms and patterns) is colour-symmetric: a position and its mirror (the
//! board turned by 180 degrees, the colours swapped, the other side to move) score the same for
//! the side to move, over the positions of random games of every draughts variant; so do the
//! patterns alone, for random symmetric weights of every window shape with a material table and
//! for a material table alone.

use tiao::draughts::board::Geometry;
use tiao::draughts::eval::patterns::{
    self, EnginePatterns, LAYERS, PHASES, PatternWeights, SHAPES_4X4, Shape, Shapes, material_len,
    material_turned, windows_of,
};
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

/// The board width (dark squares a row) of a weight family: 10x10 for international, 8x8 else.
fn board_of(family: &str) -> u32 {
    if family == "international" {
        <International as Rules>::Board::W
    } else {
        <English as Rules>::Board::W
    }
}

#[test]
fn the_embedded_weights_load_for_every_family() {
    for family in patterns::FAMILIES {
        let board = board_of(family);
        let bytes = patterns::embedded_file(family).expect("embedded");
        let w = PatternWeights::parse(bytes, family, board).unwrap_or_else(|e| panic!("{e}"));
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
        let e = PatternWeights::parse(bytes, other, board).unwrap_err();
        assert!(e.to_string().contains(family), "{e}");
    }
    assert_eq!(
        patterns::describe::<Russian>(),
        patterns::describe::<Duoyibu>(),
        "one family for the 8x8 flying variants"
    );
}

/// The candidate files kept beside the embedded ones (`weights/candidates/FAMILY-NAME.tpw`: fits
/// that a later round starts from or embeds) are weights of the family their name begins with.
#[test]
fn the_candidate_weights_load_as_their_family() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("weights/candidates");
    let mut read = 0;
    for entry in std::fs::read_dir(&dir).expect("weights/candidates") {
        let path = entry.expect("a directory entry").path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let family = patterns::FAMILIES
            .iter()
            .find(|f| name.starts_with(&format!("{f}-")) && name.ends_with(".tpw"))
            .unwrap_or_else(|| panic!("{name}: not named FAMILY-NAME.tpw"));
        let board = board_of(family);
        let bytes = std::fs::read(&path).expect("readable");
        let w =
            PatternWeights::parse(&bytes, family, board).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(w.table.iter().any(|&v| v != 0), "{name}: all zero");
        read += 1;
    }
    assert!(read > 0, "no candidate file in {}", dir.display());
}

/// Random colour-symmetric weights of `shapes` for `R`'s board: a random weight for some of the
/// configurations of each pair's first window (and of each self-turned window), its partner's
/// turned configuration the negation, and a material table whose entries are set the same way
/// ([`random_material`]); read back through a version-5 file (which keeps one window of a pair
/// and half the table).
fn random_weights<R: Rules>(shapes: Shapes, seed: u64) -> PatternWeights {
    let mut rng = Rng::new(seed);
    let mut w = PatternWeights::zero("x", R::Board::W, shapes);
    w.material = random_material(R::Board::W, &mut rng);
    for (layer, &shape) in shapes.iter().enumerate() {
        let win = windows_of::<R::Board>(shape);
        let n = shape.squares();
        for k in 0..win.count {
            let partner = win.partner(k);
            if partner < k {
                continue;
            }
            for c in 0..shape.configs() {
                let t = patterns::turned_config(c, n);
                // A self-turned window's pair of configurations once, its own image never.
                if (partner == k && t <= c) || rng.below(3) != 0 {
                    continue;
                }
                for ph in 0..PHASES {
                    let v = rng.below(4001) as i16 - 2000;
                    let (i, j) = (w.index(layer, k, c), w.index(layer, partner, t));
                    w.table[i + ph] = v;
                    w.table[j + ph] = -v;
                }
            }
        }
    }
    assert!(w.is_symmetric() && w.uses_material());
    let back = PatternWeights::parse(&w.to_bytes(), "x", R::Board::W).expect("reads back");
    assert_eq!(back, w);
    back
}

/// A random colour-symmetric material table for the board of `board` dark squares a row: a
/// random weight for two signatures in three, its colour-swapped signature's the negation, a
/// signature that is its own image none.
fn random_material(board: u32, rng: &mut Rng) -> Vec<i16> {
    let mut table = vec![0; material_len(board)];
    for i in 0..table.len() {
        let t = material_turned(board, i);
        if i < t && rng.below(3) != 0 {
            let v = rng.below(4001) as i16 - 2000;
            table[i] = v;
            table[t] = -v;
        }
    }
    table
}

/// Over the positions of random games: the patterns of `w` score a position and its mirror
/// opposite (White's view); returns the positions checked and those scored not zero.
fn pattern_symmetry<R: Rules>(w: &PatternWeights, games: usize, seed: u64) -> (usize, usize) {
    let e = EnginePatterns::new::<R::Board>(w);
    let mut rng = Rng::new(seed);
    let mut list = MoveList::default();
    let (mut checked, mut nonzero) = (0, 0);
    for _ in 0..games {
        let mut pos = Position::<R>::start();
        for _ in 0..200 {
            let m = mirror(&pos);
            let a = e.score::<R::Board>(pos.white(), pos.black(), pos.kings());
            let b = e.score::<R::Board>(m.white(), m.black(), m.kings());
            assert_eq!(a, -b, "{pos:?} and its mirror {m:?}");
            checked += 1;
            nonzero += (a != 0) as usize;
            pos.generate(&mut list);
            if list.is_empty() {
                break;
            }
            pos = pos.make(&list[rng.below(list.len())]);
        }
    }
    (checked, nonzero)
}

/// [`pattern_symmetry`] where most positions must score: returns the positions checked.
fn check_pattern_symmetry<R: Rules>(w: &PatternWeights, games: usize, seed: u64) -> usize {
    let (checked, nonzero) = pattern_symmetry::<R>(w, games, seed);
    assert!(nonzero * 2 > checked, "{nonzero} of {checked} scored");
    checked
}

#[test]
fn a_material_table_alone_is_colour_symmetric() {
    // The table scores the positions whose material is not its own image, and nothing else.
    fn check<R: Rules>(seed: u64) {
        let mut w = PatternWeights::zero("x", R::Board::W, SHAPES_4X4);
        w.material = random_material(R::Board::W, &mut Rng::new(seed));
        let back = PatternWeights::parse(&w.to_bytes(), "x", R::Board::W).expect("reads back");
        assert_eq!(back, w);
        let (checked, nonzero) = pattern_symmetry::<R>(&back, 30, seed);
        assert!(
            checked > 1000 && nonzero * 5 > checked,
            "{nonzero} of {checked} scored"
        );
    }
    check::<International>(21);
    check::<Russian>(22);
    check::<Brazilian>(23);
    check::<English>(24);
}

#[test]
fn the_patterns_of_every_shape_are_colour_symmetric() {
    for (k, shapes) in [
        SHAPES_4X4,
        [Shape::Rows5, Shape::Rows4, Shape::Rows4],
        [Shape::Rows6, Shape::Rows4, Shape::Rows4],
        [Shape::Rows5, Shape::Rows6, Shape::Rows4],
        [Shape::Rows6; LAYERS],
    ]
    .into_iter()
    .enumerate()
    {
        let seed = 10 + k as u64;
        let intl = random_weights::<International>(shapes, seed);
        assert!(check_pattern_symmetry::<International>(&intl, 6, seed) > 300);
        // On 8x8 the 4x4 and 4x6 windows include a self-turned one.
        let eight = random_weights::<Russian>(shapes, seed);
        assert!(check_pattern_symmetry::<Russian>(&eight, 20, seed) > 300);
        assert!(check_pattern_symmetry::<English>(&eight, 20, seed) > 300);
    }
}
