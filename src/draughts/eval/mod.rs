//! Static evaluation of draughts positions, generic over the rules and driven by [`Weights`].
//!
//! Terms (each weight named in `weights.rs`): material with the family's king value; men's
//! advancement (tempo) by row; centre and edge squares; back-row guards; left/right balance; men's
//! mobility (steps to empty squares); runaway men (an empty widened forward cone, no enemy king);
//! king mobility and kings on the long and double-corner diagonals; drawish material (a lone king
//! against a few pieces) scaled toward zero.
//!
//! Everything is computed from bitboards with masks built at compile time per board
//! ([`BoardMasks`]), and the men's per-square terms (advancement, centre, edge) from a table
//! built at compile time from the weights and summed by popcounts ([`ManSquares`]); the only
//! loops run over men near promotion and over kings.
//! The result is from the side to move's view and stays inside `-EVAL_MAX..=EVAL_MAX`.

pub mod active;
pub mod patterns;
pub mod weights;

use crate::draughts::board::{Bits, Geometry, each_direction, free_part, step};
use crate::draughts::movegen::man_steps;
use crate::draughts::position::Position;
use crate::draughts::rules::Rules;
use crate::game::color::Color;
use crate::game::{EVAL_MAX, Evaluate};
use weights::{TERMS, Term, Weights};

/// Masks of board regions, per board size.
#[derive(Clone, Debug)]
pub struct Masks {
    /// Row `r` (0 = top row, White's promotion row).
    pub rows: [u64; weights::MAX_ROWS],
    /// Files a to the middle.
    pub left: u64,
    /// The other files.
    pub right: u64,
    /// The centre squares.
    pub centre: u64,
    /// The left and right edge files.
    pub edge: u64,
    /// The long diagonal (a1 to the far corner).
    pub long_diagonal: u64,
    /// The two double-corner diagonals.
    pub double_diagonal: u64,
    /// `near_promotion[c][k]`: squares at most `k` rows from colour `c`'s promotion row.
    pub near_promotion: [[u64; weights::MAX_ROWS]; 2],
    /// `cone[c][b]`: squares ahead of a man of colour `c` on bit `b` that must be empty for it to
    /// run to promotion (its forward cone widened by one file on each side).
    pub cone: [[u64; 64]; 2],
}

/// (file, rank) of 0-based square `s` on a board with `w` dark squares a row.
const fn coords(w: u32, s: u32) -> (i32, i32) {
    let row = s / w;
    let col = s % w;
    let file = if row.is_multiple_of(2) {
        2 * col + 1
    } else {
        2 * col
    };
    (file as i32, (2 * w - 1 - row) as i32)
}

const fn bit_of(w: u32, s: u32) -> u32 {
    s + s / (2 * w)
}

impl Masks {
    /// The masks of the board with `w` dark squares a row.
    pub const fn new(w: u32) -> Masks {
        let size = (2 * w) as i32;
        let n = 2 * w * w;
        let mut m = Masks {
            rows: [0; weights::MAX_ROWS],
            left: 0,
            right: 0,
            centre: 0,
            edge: 0,
            long_diagonal: 0,
            double_diagonal: 0,
            near_promotion: [[0; weights::MAX_ROWS]; 2],
            cone: [[0; 64]; 2],
        };
        let mut s = 0;
        while s < n {
            let b = 1u64 << bit_of(w, s);
            let (f, r) = coords(w, s);
            let row = (size - 1 - r) as usize;
            m.rows[row] |= b;
            let mut k = 0;
            while k < weights::MAX_ROWS {
                if row <= k {
                    m.near_promotion[0][k] |= b;
                }
                if (size as usize) - 1 - row <= k {
                    m.near_promotion[1][k] |= b;
                }
                k += 1;
            }
            if f < size / 2 {
                m.left |= b;
            } else {
                m.right |= b;
            }
            if (row as i32 == size / 2 - 1 || row as i32 == size / 2) && f >= 2 && f < size - 2 {
                m.centre |= b;
            }
            if f == 0 || f == size - 1 {
                m.edge |= b;
            }
            if f == r {
                m.long_diagonal |= b;
            }
            if f + r == size - 2 || f + r == size {
                m.double_diagonal |= b;
            }
            // Cones: White moves up (rank grows), Black down.
            let mut t = 0;
            while t < n {
                let (tf, tr) = coords(w, t);
                let df = if tf > f { tf - f } else { f - tf };
                if tr > r && df <= tr - r + 1 {
                    m.cone[0][bit_of(w, s) as usize] |= 1u64 << bit_of(w, t);
                }
                if tr < r && df <= r - tr + 1 {
                    m.cone[1][bit_of(w, s) as usize] |= 1u64 << bit_of(w, t);
                }
                t += 1;
            }
            s += 1;
        }
        m
    }
}

/// Per-board masks as a compile-time constant of every [`Geometry`].
pub trait BoardMasks: Geometry {
    /// The masks of this board.
    const MASKS: Masks = Masks::new(Self::W);
}

impl<G: Geometry> BoardMasks for G {}

/// Most bit planes a [`Planes`] table uses (values spanning up to 4096).
const MAX_PLANES: usize = 12;

/// A value per square stored as bit planes: the sum of the values of a set of squares `b` is
/// `base * |b| + sum over k of 2^k * |b & planes[k]|`, a few popcounts instead of a loop over rows.
#[derive(Clone, Debug)]
pub struct Planes {
    /// The smallest value.
    pub base: i32,
    /// Plane `k`: the squares whose value less `base` has bit `k` set.
    pub planes: [u64; MAX_PLANES],
    /// Planes in use (the bits of the largest value less `base`).
    pub count: usize,
}

impl Planes {
    /// The planes of `value[bit]` over the bits of `squares`.
    pub const fn new(value: &[i32; 64], squares: u64) -> Planes {
        let mut base = i32::MAX;
        let mut top = i32::MIN;
        let mut b = 0;
        while b < 64 {
            if squares & (1u64 << b) != 0 {
                if value[b] < base {
                    base = value[b];
                }
                if value[b] > top {
                    top = value[b];
                }
            }
            b += 1;
        }
        if base > top {
            base = 0;
            top = 0;
        }
        let span = (top - base) as u32;
        let count = (32 - span.leading_zeros()) as usize;
        assert!(
            count <= MAX_PLANES,
            "square values span too much for the planes"
        );
        let mut planes = [0u64; MAX_PLANES];
        let mut b = 0;
        while b < 64 {
            if squares & (1u64 << b) != 0 {
                let v = (value[b] - base) as u32;
                let mut k = 0;
                while k < count {
                    if v & (1 << k) != 0 {
                        planes[k] |= 1u64 << b;
                    }
                    k += 1;
                }
            }
            b += 1;
        }
        Planes {
            base,
            planes,
            count,
        }
    }

    /// The sum of the values of the squares in `b`.
    #[inline(always)]
    pub fn sum(&self, b: u64) -> i32 {
        let mut s = self.base * b.count_ones() as i32;
        for k in 0..self.count {
            s += ((b & self.planes[k]).count_ones() as i32) << k;
        }
        s
    }
}

/// Rows a man of colour `c` (0 White, 1 Black) on board row `row` (0 = the top row) has
/// advanced from its own back row, on a board of `size` rows: the index of its `advance` weight.
const fn rows_advanced(size: usize, c: usize, row: usize) -> usize {
    if c == 0 { size - 1 - row } else { row }
}

/// A man's square terms for colour `c` (0 White, 1 Black) on every bit: advancement by row,
/// centre and edge.
const fn man_square_values<G: Geometry>(w: &Weights, c: usize) -> [i32; 64] {
    let m = &<G as BoardMasks>::MASKS;
    let size = G::SIZE as usize;
    let mut v = [0i32; 64];
    let mut b = 0;
    while b < 64 {
        let bit = 1u64 << b;
        let mut row = 0;
        while row < size {
            if m.rows[row] & bit != 0 {
                v[b] += w.advance[rows_advanced(size, c, row)];
            }
            row += 1;
        }
        if m.centre & bit != 0 {
            v[b] += w.centre;
        }
        if m.edge & bit != 0 {
            v[b] += w.edge;
        }
        b += 1;
    }
    v
}

/// The men's square terms of a variant's weights, per colour, as [`Planes`] (built at compile
/// time from the weights in `weights.rs`).
pub trait ManSquares: Rules {
    const MAN_SQUARES: [Planes; 2] = {
        let w = weights::for_rules::<Self>();
        [
            Planes::new(&man_square_values::<Self::Board>(w, 0), Self::Board::ALL),
            Planes::new(&man_square_values::<Self::Board>(w, 1), Self::Board::ALL),
        ]
    };
}

impl<R: Rules> ManSquares for R {}

/// Squares a king on `k` can move to (flying: along free diagonals; short: one step).
#[inline(always)]
fn king_reach<G: Geometry>(k: u8, empty: u64, flying: bool) -> u32 {
    let mut n = 0;
    each_direction!(|d| {
        n += if flying {
            free_part::<G>(G::RAYS[d][k as usize], d, !empty).count_ones()
        } else {
            (step::<G>(1u64 << k, d) & empty != 0) as u32
        };
    });
    n
}

/// What the evaluation's terms are added to: their weighted sum (`Sum`, the engine's
/// evaluation) or their counts ([`Counts`], the tuner's). `terms` is the one definition of
/// which terms a position has; both views are built from it.
pub trait Tally {
    /// `n` more of `term` (negative for Black's, from White's view).
    fn add(&mut self, term: Term, n: i32);
    /// The men's square terms (advancement, centre, edge) of colour `c`'s men on `men`, counted
    /// with `sign` (1 for White, -1 for Black).
    fn man_squares<R: Rules>(&mut self, c: Color, men: u64, sign: i32);
}

/// The weighted sum of the terms, in centi-men from White's view.
struct Sum {
    w: &'static Weights,
    s: i32,
}

impl Tally for Sum {
    #[inline(always)]
    fn add(&mut self, term: Term, n: i32) {
        self.s += self.w.get(term) * n;
    }

    #[inline(always)]
    fn man_squares<R: Rules>(&mut self, c: Color, men: u64, sign: i32) {
        self.s += sign * <R as ManSquares>::MAN_SQUARES[c.index()].sum(men);
    }
}

/// The count of every term, from White's view, in [`Term::index`] order: the evaluation (but
/// for drawish material) is their dot product with the weights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counts(pub [i32; TERMS]);

impl Tally for Counts {
    fn add(&mut self, term: Term, n: i32) {
        self.0[term.index()] += n;
    }

    fn man_squares<R: Rules>(&mut self, c: Color, men: u64, sign: i32) {
        let m = &<R::Board as BoardMasks>::MASKS;
        let size = R::Board::SIZE as usize;
        for row in 0..size {
            self.add(
                Term::Advance(rows_advanced(size, c.index(), row)),
                sign * (men & m.rows[row]).count_ones() as i32,
            );
        }
        self.add(Term::Centre, sign * (men & m.centre).count_ones() as i32);
        self.add(Term::Edge, sign * (men & m.edge).count_ones() as i32);
    }
}

/// One side's terms (no material), counted with the side's sign.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn side_terms<R: Rules, T: Tally>(
    t: &mut T,
    w: &Weights,
    c: Color,
    men: u64,
    kings: u64,
    opp_men: u64,
    opp_kings: u64,
    empty: u64,
) {
    let m = &<R::Board as BoardMasks>::MASKS;
    let size = R::Board::SIZE as usize;
    let sign = if c == Color::White { 1 } else { -1 };
    // Advancement, centre and edge: from the weights' per-square table.
    t.man_squares::<R>(c, men, sign);
    if opp_men != 0 {
        let back = if c == Color::White {
            m.rows[size - 1]
        } else {
            m.rows[0]
        };
        t.add(Term::BackGuard, sign * (men & back).count_ones() as i32);
    }
    let (l, r) = (
        (men & m.left).count_ones() as i32,
        (men & m.right).count_ones() as i32,
    );
    t.add(Term::Balance, -sign * (l - r).abs());
    t.add(
        Term::ManMobility,
        sign * man_steps::<R::Board>(c, men, empty) as i32,
    );
    if opp_kings == 0 {
        let occupied = !empty;
        let near = m.near_promotion[c.index()][w.runaway_max_rows.min(weights::MAX_ROWS - 1)];
        for b in Bits(men & near) {
            if m.cone[c.index()][b as usize] & occupied == 0 {
                let row = R::Board::row_of_bit(b) as i32;
                let to_go = if c == Color::White {
                    row
                } else {
                    size as i32 - 1 - row
                };
                t.add(Term::Runaway, sign);
                t.add(Term::RunawayPerRow, -sign * to_go);
            }
        }
    }
    for k in Bits(kings) {
        t.add(
            Term::KingMobility,
            sign * king_reach::<R::Board>(k, empty, R::FLYING_KINGS) as i32,
        );
        let kb = 1u64 << k;
        if kb & m.long_diagonal != 0 {
            t.add(Term::KingLongDiagonal, sign);
        }
        if kb & m.double_diagonal != 0 {
            t.add(Term::KingDoubleDiagonal, sign);
        }
    }
}

/// Every term of `pos` (both sides and material), from White's view.
#[inline(always)]
fn terms<R: Rules, T: Tally>(t: &mut T, w: &Weights, pos: &Position<R>) {
    let (white, black, kings) = (pos.white(), pos.black(), pos.kings());
    let (wm, wk, bm, bk) = (white & !kings, white & kings, black & !kings, black & kings);
    let empty = pos.empty();
    t.add(Term::Man, wm.count_ones() as i32 - bm.count_ones() as i32);
    t.add(Term::King, wk.count_ones() as i32 - bk.count_ones() as i32);
    side_terms::<R, T>(t, w, Color::White, wm, wk, bm, bk, empty);
    side_terms::<R, T>(t, w, Color::Black, bm, bk, wm, wk, empty);
}

/// Whether `lone` is a single king that `strong` (a piece count) cannot beat under `w`.
#[inline(always)]
fn drawish<G: Geometry>(w: &Weights, lone: u64, lone_kings: u64, strong: u32) -> bool {
    lone.count_ones() == 1
        && lone_kings != 0
        && (strong <= w.lone_king_draw
            || (strong <= w.lone_king_draw_on_long_diagonal
                && lone & <G as BoardMasks>::MASKS.long_diagonal != 0))
}

/// Whether `pos` is drawish material under `w` (its score is divided by `drawish_divisor`).
#[inline(always)]
fn drawish_material<R: Rules>(w: &Weights, pos: &Position<R>) -> bool {
    let (white, black, kings) = (pos.white(), pos.black(), pos.kings());
    kings != 0
        && (drawish::<R::Board>(w, white, white & kings, black.count_ones())
            || drawish::<R::Board>(w, black, black & kings, white.count_ones()))
}

/// The evaluation of `pos`, from the side to move's view: the hand-made terms with its family's
/// weights (`weights::for_rules`, from which the [`ManSquares`] tables are built too) plus the
/// family's learned patterns (the embedded ones, or a file chosen at run time: [`active`]),
/// divided when the material is drawish.
#[inline(always)]
fn evaluate<R: Rules>(pos: &Position<R>) -> i32 {
    if pos.pieces(pos.side()) == 0 {
        return -EVAL_MAX; // no piece left: lost (the search scores it exactly when it looks)
    }
    let Some((hand, div)) = hand_part(pos) else {
        return EVAL_MAX; // the side to move has pieces, the other none
    };
    let mut s = hand
        + active::patterns::<R>().score::<R::Board>(pos.white(), pos.black(), pos.kings())
            / patterns::UNITS;
    if div > 1 {
        s /= div;
    }
    let s = if pos.side() == Color::White { s } else { -s };
    s.clamp(-EVAL_MAX + 1, EVAL_MAX - 1)
}

/// The hand-made part of the evaluation of `pos` from White's view, in centi-men, and the
/// divisor the whole evaluation is divided by (1, or `drawish_divisor` for drawish material):
/// the evaluation is `(hand + patterns / UNITS) / divisor`, from White's view. `None` when a
/// side has no piece. The pattern trainer fits the patterns on top of this.
#[inline(always)]
pub fn hand_part<R: Rules>(pos: &Position<R>) -> Option<(i32, i32)> {
    let w = weights::for_rules::<R>();
    if pos.white() == 0 || pos.black() == 0 {
        return None;
    }
    let mut sum = Sum { w, s: 0 };
    terms::<R, Sum>(&mut sum, w, pos);
    let div = if drawish_material::<R>(w, pos) {
        w.drawish_divisor.max(1)
    } else {
        1
    };
    Some((sum.s, div))
}

/// The term counts of `pos` from White's view, where the evaluation is their weighted sum with
/// the family's weights: `None` when a side has no piece or the material is drawish.
pub fn term_counts<R: Rules>(pos: &Position<R>) -> Option<Counts> {
    let w = weights::for_rules::<R>();
    if pos.white() == 0 || pos.black() == 0 || drawish_material::<R>(w, pos) {
        return None;
    }
    let mut c = Counts([0; TERMS]);
    terms::<R, Counts>(&mut c, w, pos);
    Some(c)
}

impl<R: Rules> Evaluate for Position<R> {
    #[inline]
    fn evaluate(&self) -> i32 {
        evaluate(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::board::{Board8, Board10};
    use crate::draughts::rules::{English, International, Russian};
    use crate::game::Game;

    fn eval<R: Rules>(fen: &str) -> i32 {
        Position::<R>::from_fen(fen).unwrap().evaluate()
    }

    #[test]
    fn masks() {
        let m = &<Board10 as BoardMasks>::MASKS;
        let sq = |n| 1u64 << Board10::bit_of_number(n).unwrap();
        let centre = [22, 23, 24, 27, 28, 29].iter().fold(0, |a, &n| a | sq(n));
        assert_eq!(m.centre, centre);
        let diag = [46, 41, 37, 32, 28, 23, 19, 14, 10, 5]
            .iter()
            .fold(0, |a, &n| a | sq(n));
        assert_eq!(m.long_diagonal, diag);
        assert_eq!(m.rows.iter().fold(0, |a, r| a | r), Board10::ALL);
        let m8 = &<Board8 as BoardMasks>::MASKS;
        assert_eq!(m8.centre.count_ones(), 4);
        assert_eq!(m8.long_diagonal.count_ones(), 8);
        assert_eq!(m8.double_diagonal.count_ones(), 14);
        // A white man on 6 (a9) has 1 (b10) ahead of it, and nothing behind.
        let b6 = Board10::bit_of_number(6).unwrap() as usize;
        assert_eq!(m.cone[0][b6], sq(1));
        assert_eq!(m.cone[1][b6] & sq(1), 0);
    }

    #[test]
    fn planes_sum_the_square_values() {
        fn check<R: Rules>() {
            for c in 0..2 {
                let values = man_square_values::<R::Board>(weights::for_rules::<R>(), c);
                let planes = &<R as ManSquares>::MAN_SQUARES[c];
                let mut rng = crate::game::rng::Rng::new(7 + c as u64);
                for _ in 0..1000 {
                    let b = rng.next_u64() & R::Board::ALL;
                    let direct: i32 = Bits(b).map(|x| values[x as usize]).sum();
                    assert_eq!(planes.sum(b), direct);
                }
            }
        }
        check::<International>();
        check::<Russian>();
        check::<English>();
        // A white man gains by advancing; a black one by going down.
        let w = man_square_values::<Board10>(&weights::INTERNATIONAL, 0);
        let sq = |n| Board10::bit_of_number(n).unwrap() as usize;
        assert!(w[sq(8)] > w[sq(48)]);
        let b = man_square_values::<Board10>(&weights::INTERNATIONAL, 1);
        assert!(b[sq(43)] > b[sq(8)]);
    }

    #[test]
    fn symmetric_start_positions() {
        assert_eq!(Position::<International>::start().evaluate(), 0);
        assert_eq!(Position::<Russian>::start().evaluate(), 0);
        assert_eq!(Position::<English>::start().evaluate(), 0);
    }

    #[test]
    fn side_to_move_view_and_material() {
        let w = eval::<International>("W:W31-50:B1-19");
        let b = eval::<International>("B:W31-50:B1-19");
        assert!(w > 50, "{w}");
        assert_eq!(w, -b);
        // A king is worth more than a man.
        // (Among several men each: a lone king against a man is a drawish ending, whose score
        // the divisor shrinks to near zero either way.)
        let (k, m) = (
            eval::<International>("W:WK28,36,37,38:B3,11,12,13"),
            eval::<International>("W:W28,36,37,38:B3,11,12,13"),
        );
        assert!(k > m + 100, "{k} {m}");
    }

    #[test]
    fn drawish_material() {
        assert_eq!(eval::<International>("W:WK46:BK5"), 0);
        let three_kings = eval::<International>("W:WK1,K2,K3:BK46");
        assert!(three_kings.abs() < 100, "{three_kings}");
        let four_kings = eval::<International>("W:WK1,K2,K3,K4:BK46");
        assert!(four_kings > 500, "{four_kings}");
        assert_eq!(eval::<English>("W:WK1:BK32"), 0);
        assert!(eval::<English>("W:WK1,K2:BK32") > 100);
    }

    #[test]
    fn man_steps_are_the_quiet_moves_of_men() {
        // With men only and no capture, a side's legal moves are exactly its men's steps.
        fn check<R: Rules>(games: usize) {
            let mut rng = crate::game::rng::Rng::new(11);
            let mut list = crate::game::MoveList::new();
            let mut checked = 0;
            for _ in 0..games {
                let mut pos = Position::<R>::start();
                for _ in 0..60 {
                    pos.generate(&mut list);
                    if list.is_empty() {
                        break;
                    }
                    let men = pos.pieces(pos.side()) & !pos.kings();
                    if !pos.is_noisy(&list[0]) && pos.kings() & pos.pieces(pos.side()) == 0 {
                        let steps = man_steps::<R::Board>(pos.side(), men, pos.empty());
                        assert_eq!(
                            steps as usize,
                            list.len(),
                            "{}",
                            crate::draughts::notation::fen::write(&pos)
                        );
                        checked += 1;
                    }
                    let m = list[(rng.next_u64() % list.len() as u64) as usize];
                    pos = pos.make(&m);
                }
            }
            assert!(checked > games * 10, "{checked} positions checked");
        }
        check::<International>(50);
        check::<Russian>(50);
        check::<English>(50);
    }

    #[test]
    fn man_mobility_term() {
        // 46 and 47 are on the same row and half; 46 is on the edge and has one step (41), 47
        // two (41, 42): the edge term and one step of mobility are the whole difference.
        // (The hand-made part: the patterns see the two men in different windows.)
        let w = &weights::INTERNATIONAL;
        let hand = |fen| {
            hand_part(&Position::<International>::from_fen(fen).unwrap())
                .unwrap()
                .0
        };
        assert_eq!(hand("W:W47:B5") - hand("W:W46:B5"), w.man_mobility - w.edge);
    }

    #[test]
    fn term_counts_weighted_are_the_evaluation() {
        // Random games with kings: wherever the counts are given, their dot product with the
        // family's weights is the hand-made part of the evaluation (White's view), term by term
        // as `evaluate` sums; the evaluation is that plus the patterns.
        fn check<R: Rules>() {
            let w = weights::for_rules::<R>();
            let mut rng = crate::game::rng::Rng::new(5);
            let mut list = crate::game::MoveList::new();
            let (mut checked, mut kings) = (0, 0);
            for _ in 0..40 {
                let mut pos = Position::<R>::start();
                for _ in 0..200 {
                    pos.generate(&mut list);
                    if list.is_empty() {
                        break;
                    }
                    if let Some(c) = term_counts(&pos) {
                        let dot: i32 = Term::ALL.iter().map(|t| w.get(*t) * c.0[t.index()]).sum();
                        let white_view = if pos.side() == Color::White { 1 } else { -1 };
                        let fen = crate::draughts::notation::fen::write(&pos);
                        assert_eq!(Some((dot, 1)), hand_part(&pos), "{fen}");
                        let patterns = patterns::embedded::<R>().score::<R::Board>(
                            pos.white(),
                            pos.black(),
                            pos.kings(),
                        ) / patterns::UNITS;
                        assert_eq!(
                            (dot + patterns).clamp(-EVAL_MAX + 1, EVAL_MAX - 1),
                            white_view * pos.evaluate(),
                            "{fen}"
                        );
                        checked += 1;
                        kings += (pos.kings() != 0) as usize;
                    }
                    let m = list[(rng.next_u64() % list.len() as u64) as usize];
                    pos = pos.make(&m);
                }
            }
            assert!(
                checked > 1000 && kings > 200,
                "{checked} positions, {kings} with kings"
            );
        }
        check::<International>();
        check::<Russian>();
        check::<English>();
        // Drawish material has no counts (the evaluation divides there).
        let drawn = Position::<International>::from_fen("W:WK46:BK5").unwrap();
        assert!(term_counts(&drawn).is_none());
    }

    #[test]
    fn runaway_man() {
        // White man on 16 with an empty path (three rows to go); Black's men far off. A black
        // man on 7 blocks it.
        let counts = |fen| term_counts(&Position::<International>::from_fen(fen).unwrap()).unwrap();
        let (free, blocked) = (counts("W:W16,45:B35,40"), counts("W:W16,45:B7,40"));
        assert_eq!(free.0[Term::Runaway.index()], 1);
        assert_eq!(free.0[Term::RunawayPerRow.index()], -3);
        assert_eq!(blocked.0[Term::Runaway.index()], 0);
        assert_eq!(blocked.0[Term::RunawayPerRow.index()], 0);
        let w = &weights::INTERNATIONAL;
        assert!(
            w.runaway - 3 * w.runaway_per_row > 0,
            "a runaway three rows off is a gain"
        );
        assert!(eval::<International>("W:W16,45:B35,40") > eval::<International>("W:W16,45:B7,40"));
    }
}
