//! Static evaluation of Nine Men's Morris positions.
//!
//! The score is a sum of per-side [`Features`], each multiplied by its weight in [`WEIGHTS`] (the
//! one place where the numbers live, each with its unit), White's minus Black's, seen from the
//! side to move, plus a bonus for the side to move when it can close a mill at once. Every feature
//! is a count, so the evaluation is exactly symmetric: swapping the colours (and the side to move)
//! gives the same score, and so do the 16 symmetries of the board.
//!
//! The evaluation is linear in the weights: [`term_counts`] gives what each weight multiplies
//! (White's view, in [`Weights::NAMES`] order) and [`evaluate_with`] is their dot product with
//! the weights, signed for the side to move and clamped. The tuner (`tiao tune -v morris`,
//! `training::texel::morris`) fits the weights through the same counts.
//!
//! Features of a side:
//! - material on the board and in hand;
//! - closed mills;
//! - open mills: two in a row with the third point empty and reachable, i.e. the side places, or
//!   flies, or has a piece (not one of the two) next to the empty point;
//! - double (running) mills: a piece in a closed mill next to an empty point where it closes
//!   another mill, so that it closes a mill every second move;
//! - threats: empty points where the side can close a mill with its next move; two or more are a
//!   fork (the opponent can block one), worth much more against a flying side, whose every
//!   piece is its last but two;
//! - for a side that slides or will (not flying): blocked pieces (no empty neighbour) and
//!   mobility (its slides), the slides of a side that still places weighted again
//!   (`placing_mobility`);
//! - for a side that slides: its pieces that can close a mill with a slide (`slide_to_mill`);
//! - the flying endgame: a flying side gets a flat bonus for its freedom instead of mobility.

use super::board::{
    ADJACENT, DIRECTIONS, MILLS, bit, closes_mill, completing, in_mills, points, step,
};
use super::position::MorrisPosition;
use crate::game::color::Color;
use crate::game::{EVAL_MAX, Evaluate};

/// Defines [`Weights`] from its fields (each an `i32` term), with [`TERMS`], [`Weights::NAMES`],
/// [`Weights::to_array`] and [`Weights::from_array`] in the fields' order: the list is written
/// once.
macro_rules! weight_terms {
    ($($(#[$doc:meta])* $name:ident,)*) => {
        /// The evaluation weights. Units: centi-men (hundredths of a piece) per unit of the
        /// feature.
        #[derive(Copy, Clone, Debug, PartialEq, Eq)]
        pub struct Weights {
            $($(#[$doc])* pub $name: i32,)*
        }

        /// The number of weighted terms: the fields of [`Weights`], in their order.
        pub const TERMS: usize = Weights::NAMES.len();

        impl Weights {
            /// The terms' names (the fields of [`Weights`]), in their order.
            pub const NAMES: [&'static str; [$(stringify!($name)),*].len()] =
                [$(stringify!($name)),*];

            /// The weights in term order.
            pub const fn to_array(&self) -> [i32; TERMS] {
                [$(self.$name),*]
            }

            /// The weights of an array in term order.
            pub const fn from_array(a: [i32; TERMS]) -> Weights {
                let [$($name),*] = a;
                Weights { $($name),* }
            }
        }
    };
}

weight_terms! {
    /// Per piece on the board.
    piece_on_board,
    /// Per piece in hand (it will be placed where it is most useful, but can still be lost to
    /// mills before it is).
    piece_in_hand,
    /// Per closed mill.
    mill,
    /// Per open mill (two in a row, third point empty and reachable).
    open_mill,
    /// Per double (running) mill: a piece that swings between two mills.
    double_mill,
    /// When the side has two or more threat points (a fork) and the opponent does not fly.
    fork,
    /// When the side has a fork against a flying opponent (with 3 pieces, one removal loses).
    fork_vs_flying,
    /// Per blocked piece (no empty neighbour) of a side that does not fly; counted against it.
    blocked_piece,
    /// Per slide available to a side that does not fly.
    mobility,
    /// Flat bonus of a flying side (its freedom, in place of mobility).
    flying,
    /// Bonus of the side to move when it can close a mill with this move.
    mill_in_one,
    /// Per piece of a sliding side that can close a mill with a slide (next to an empty point
    /// that completes a mill of its other pieces).
    slide_to_mill,
    /// Per slide available to a side that still places (added to `mobility`: the placed
    /// pieces' freedom foretells the moving phase's).
    placing_mobility,
}

/// The weights the engine plays with: halfway between the hand-set values and those `tiao tune
/// -v morris` fitted to 14,645 self-play games, which won +22.6 ± 10.3 Elo over 1,200 games at
/// 3,000 nodes/move (docs/strength.md, "Morris evaluation fit"; the fitted values themselves did
/// not win).
pub const WEIGHTS: Weights = Weights {
    piece_on_board: 100,
    piece_in_hand: 111,
    mill: 119,
    open_mill: 41,
    double_mill: 192,
    fork: 72,
    fork_vs_flying: 2409,
    blocked_piece: 47,
    mobility: 10,
    flying: 214,
    mill_in_one: 60,
    slide_to_mill: 41,
    placing_mobility: 27,
};

/// The counted features of one side (see the module documentation).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Features {
    /// Pieces on the board.
    pub on_board: i32,
    /// Pieces in hand.
    pub in_hand: i32,
    /// Closed mills.
    pub mills: i32,
    /// Two in a row with the third point empty and reachable.
    pub open_mills: i32,
    /// Pieces of a closed mill that can step to a point where they close another.
    pub double_mills: i32,
    /// Empty points where the side closes a mill with its next move.
    pub threats: i32,
    /// Pieces with no empty neighbour (0 for a flying side).
    pub blocked: i32,
    /// Slides to empty neighbours (0 for a flying side).
    pub mobility: i32,
    /// Whether the side flies.
    pub flies: bool,
    /// Whether the side places (has pieces in hand).
    pub places: bool,
    /// Pieces that close a mill with a slide (0 for a side that places or flies).
    pub slide_to_mill: i32,
}

/// The points where side `c` would close a mill if it were to move.
pub fn threats(pos: &MorrisPosition, c: Color) -> u32 {
    threats_and_sliders(pos, c).0
}

/// [`threats`], and for a side that slides the pieces whose slide closes a mill (0 for a side
/// that places or flies): one pass over the same slides.
fn threats_and_sliders(pos: &MorrisPosition, c: Color) -> (u32, u32) {
    let own = pos.pieces(c);
    let candidates = completing(own) & pos.empty();
    if pos.lost_by_material(c) {
        return (0, 0);
    }
    if candidates == 0 || pos.places(c) {
        return (candidates, 0);
    }
    let closes = |from: u8, to: u8| closes_mill((own ^ bit(from)) | bit(to), to);
    let flies = pos.flies(c);
    let (mut found, mut sliders) = (0, 0);
    for to in points(candidates) {
        if flies {
            if points(own).any(|from| closes(from, to)) {
                found |= bit(to);
            }
        } else {
            for from in points(ADJACENT[to as usize] & own) {
                if closes(from, to) {
                    found |= bit(to);
                    sliders |= bit(from);
                }
            }
        }
    }
    (found, sliders)
}

/// The features of side `c`.
pub fn features(pos: &MorrisPosition, c: Color) -> Features {
    let own = pos.pieces(c);
    let empty = pos.empty();
    let places = pos.places(c);
    let flies = pos.flies(c);
    let mut f = Features {
        on_board: own.count_ones() as i32,
        in_hand: pos.in_hand(c) as i32,
        flies,
        ..Features::default()
    };
    for &m in &MILLS {
        let mine = own & m;
        if mine == m {
            f.mills += 1;
        } else if mine.count_ones() == 2 && m & !mine & empty != 0 {
            let gap = (m & !mine).trailing_zeros() as usize;
            if places || flies || ADJACENT[gap] & own & !m != 0 {
                f.open_mills += 1;
            }
        }
    }
    if !places && !flies {
        for p in points(in_mills(own)) {
            let rest = own ^ bit(p);
            if ADJACENT[p as usize] & empty & completing(rest) != 0 {
                f.double_mills += 1;
            }
        }
    }
    let (threats, sliders) = threats_and_sliders(pos, c);
    f.threats = threats.count_ones() as i32;
    f.slide_to_mill = sliders.count_ones() as i32;
    if !flies {
        // Lines are symmetric: a piece has an empty neighbour when a step from an empty point
        // reaches it.
        let mut next_to_empty = 0;
        for d in 0..DIRECTIONS {
            f.mobility += (step(own, d) & empty).count_ones() as i32;
            next_to_empty |= step(empty, d);
        }
        f.blocked = (own & !next_to_empty).count_ones() as i32;
    }
    f.places = places;
    f
}

/// The index of the term named `name` in [`Weights::NAMES`] (a compile-time error in a
/// constant when there is none).
pub const fn term(name: &str) -> usize {
    let mut i = 0;
    while i < TERMS {
        let (n, m) = (Weights::NAMES[i].as_bytes(), name.as_bytes());
        if n.len() == m.len() {
            let mut j = 0;
            while j < n.len() && n[j] == m[j] {
                j += 1;
            }
            if j == n.len() {
                return i;
            }
        }
        i += 1;
    }
    panic!("no such term")
}

/// The index of `mill_in_one`, the side to move's term.
pub const MILL_IN_ONE: usize = term("mill_in_one");

/// The per-term counts of side `c` (before the side-to-move bonus), in term order: what each
/// weight multiplies (`blocked_piece` counts against the side, so its count is negative).
fn side_counts(f: &Features, opponent_flies: bool) -> [i32; TERMS] {
    let fork = f.threats >= 2;
    [
        f.on_board,
        f.in_hand,
        f.mills,
        f.open_mills,
        f.double_mills,
        i32::from(fork && !opponent_flies),
        i32::from(fork && opponent_flies),
        -f.blocked,
        f.mobility,
        i32::from(f.flies),
        0,
        f.slide_to_mill,
        if f.places { f.mobility } else { 0 },
    ]
}

/// The term counts of `pos` from White's point of view: White's counts minus Black's, and the
/// side-to-move bonus as +1 (White to move) or -1 (Black). The evaluation is exactly their dot
/// product with the weights, seen from the side to move (then clamped): the tuner's view
/// (`training::texel::morris`).
pub fn term_counts(pos: &MorrisPosition) -> [i32; TERMS] {
    let white = features(pos, Color::White);
    let black = features(pos, Color::Black);
    let (w, b) = (
        side_counts(&white, black.flies),
        side_counts(&black, white.flies),
    );
    let mut counts = [0; TERMS];
    for (i, c) in counts.iter_mut().enumerate() {
        *c = w[i] - b[i];
    }
    let mover = if pos.side() == Color::White {
        &white
    } else {
        &black
    };
    if mover.threats > 0 {
        counts[MILL_IN_ONE] = if pos.side() == Color::White { 1 } else { -1 };
    }
    counts
}

/// The evaluation of `pos` with weights `w`, from the side to move's point of view.
pub fn evaluate_with(pos: &MorrisPosition, w: &Weights) -> i32 {
    let s: i32 = term_counts(pos)
        .iter()
        .zip(w.to_array())
        .map(|(c, w)| c * w)
        .sum();
    let s = if pos.side() == Color::White { s } else { -s };
    s.clamp(-EVAL_MAX + 1, EVAL_MAX - 1)
}

impl Evaluate for MorrisPosition {
    #[inline]
    fn evaluate(&self) -> i32 {
        evaluate_with(self, &WEIGHTS)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::morris::board::{self, MILLS};

    fn pos(fen: &str) -> MorrisPosition {
        MorrisPosition::from_fen(fen).unwrap()
    }

    /// The 16 symmetries of the board, as maps of points.
    fn symmetries() -> Vec<[u8; 24]> {
        let mut out = Vec::new();
        for swap_rings in [false, true] {
            for reflect in [false, true] {
                for rot in 0..4 {
                    let mut map = [0u8; 24];
                    for (p, slot) in map.iter_mut().enumerate() {
                        let (ring, i) = (p / 8, p % 8);
                        let ring = if swap_rings { 2 - ring } else { ring };
                        let i = if reflect { (10 - i) % 8 } else { i };
                        let i = (i + 2 * rot) % 8;
                        *slot = (ring * 8 + i) as u8;
                    }
                    out.push(map);
                }
            }
        }
        out
    }

    fn map_set(map: &[u8; 24], s: u32) -> u32 {
        points(s).fold(0, |a, p| a | bit(map[p as usize]))
    }

    #[test]
    fn symmetries_preserve_the_board() {
        for map in symmetries() {
            for p in 0..24 {
                assert_eq!(
                    map_set(&map, board::ADJACENT[p]),
                    board::ADJACENT[map[p] as usize]
                );
            }
            for m in MILLS {
                assert!(MILLS.contains(&map_set(&map, m)));
            }
        }
    }

    #[test]
    fn symmetric_under_board_symmetries_and_colour_swap() {
        for p in crate::morris::sample::random_positions(20, 80, 0x9E37_79B9) {
            let e = p.evaluate();
            assert!(e.abs() < EVAL_MAX);
            for map in symmetries() {
                let q = p.mapped(|s| map_set(&map, s));
                assert_eq!(q.evaluate(), e, "{p} under {map:?}");
            }
            assert_eq!(p.swapped_colours().evaluate(), e, "{p}");
            // The counts themselves, so that a term whose weight is 0 is checked too.
            let counts = term_counts(&p);
            for map in symmetries() {
                let q = p.mapped(|s| map_set(&map, s));
                assert_eq!(term_counts(&q), counts, "{p} under {map:?}");
            }
        }
    }

    #[test]
    fn names_are_the_fields_in_order() {
        let debug = format!("{WEIGHTS:?}");
        let mut at = 0;
        for name in Weights::NAMES {
            let found = debug[at..].find(&format!("{name}:"));
            assert!(found.is_some(), "{name} in {debug}");
            at += found.unwrap();
        }
        assert_eq!(Weights::from_array(WEIGHTS.to_array()), WEIGHTS);
    }

    #[test]
    fn evaluation_is_the_weighted_sum_of_the_counts() {
        // Any weights: each term's own weight moves the score by its count.
        for p in crate::morris::sample::random_positions(20, 80, 0x51) {
            let counts = term_counts(&p);
            let sign = if p.side() == Color::White { 1 } else { -1 };
            for i in 0..TERMS {
                let mut a = [0; TERMS];
                a[i] = 1;
                assert_eq!(
                    evaluate_with(&p, &Weights::from_array(a)),
                    sign * counts[i],
                    "{} in {p}",
                    Weights::NAMES[i]
                );
            }
            // Colour-swapped, the counts change sign.
            let q = p.swapped_colours();
            assert_eq!(term_counts(&q), counts.map(|c| -c), "{p}");
        }
    }

    #[test]
    fn counts_features() {
        // White: mill a1-a4-a7, d7 and g7 an open mill (gap ... none: g7 with d7 and a7 is a
        // closed side); b6 and d6 with f6 empty and f4 next to it: open and reachable.
        let p = pos("W:Wa1,a4,a7,b6,d6,f4:Bg1,g4,d2,b2:H0,0:R0");
        let f = features(&p, Color::White);
        assert_eq!(f.on_board, 6);
        assert_eq!(f.mills, 1);
        // b6-d6-f6 (f6 reached from f4) and a7-d7-g7? a7 only: no. d6 with b6: yes counted once.
        assert_eq!(f.open_mills, 1);
        assert_eq!(f.threats, 1);
        // a4 can step to b4 but b4 closes nothing; a1 to d1: nothing; a7 to d7: nothing.
        assert_eq!(f.double_mills, 0);
        // Black: g1-g4 with g7 empty, reachable only from d7 (empty): not open.
        let b = features(&p, Color::Black);
        assert_eq!(b.open_mills, 0);
        assert_eq!(b.threats, 0);
        assert!(p.evaluate() > 0);
    }

    #[test]
    fn running_mill_is_seen() {
        // White mill a1-a4-a7; a4 can swing to b4 where b2-b4-b6 is completed.
        let p = pos("W:Wa1,a4,a7,b2,b6:Bg1,g4,g7,d2:H0,0:R0");
        let f = features(&p, Color::White);
        assert_eq!(f.double_mills, 1);
        assert_eq!(f.threats, 1);
    }

    #[test]
    fn slides_that_close_a_mill_and_placing_mobility() {
        // a4 swings from the mill a1-a4-a7 to b4, completing b2-b4-b6: one piece.
        let p = pos("W:Wa1,a4,a7,b2,b6:Bg1,g4,g7,d2:H0,0:R0");
        assert_eq!(features(&p, Color::White).slide_to_mill, 1);
        assert_eq!(features(&p, Color::Black).slide_to_mill, 0);
        let c = term_counts(&p);
        assert_eq!(c[term("slide_to_mill")], 1);
        assert_eq!(c[term("placing_mobility")], 0, "nobody places");
        // Placing: White's a1 and d7 have 5 slides, Black's g1 2; a placing side's pieces
        // cannot close a mill by a slide yet.
        let p = pos("B:Wa1,d7:Bg1:H7,8:R0");
        let c = term_counts(&p);
        assert_eq!((c[term("mobility")], c[term("placing_mobility")]), (3, 3));
        assert_eq!(c[term("slide_to_mill")], 0);
    }

    #[test]
    fn fork_against_flying_side_counts_heavily() {
        // White can close a7-d7-g7 at d7 (from d6) and a1-d1-g1 at d1 (from d2); Black flies.
        let p = pos("B:Wa7,g7,d6,a1,g1,d2:Bc5,e5,c3:H0,0:R0");
        let w = features(&p, Color::White);
        assert_eq!(w.threats, 2);
        assert!(features(&p, Color::Black).flies);
        assert!(p.evaluate() < -WEIGHTS.fork_vs_flying);
    }
}
