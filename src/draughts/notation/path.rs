//! Landing squares of a capture, for long notation.
//!
//! A [`Move`] is its from square, to square and captured set; which path the piece took is not
//! stored, because every path with the same three is the same move. Long notation (PDN's
//! `47x38x24x13x36`) needs one: [`find_path`] walks the jumps again, in this position, taking only
//! pieces of the move's captured set, and returns the landing square after each jump. It can also
//! look for a path passing given squares in order, which is how long notation is read.
//!
//! This is the slow, simple twin of the generator's capture search (it lists every landing
//! square, turning or not); tests check that both agree on every capture they see.

use crate::draughts::board::{Geometry, step};
use crate::draughts::moves::Move;
use crate::draughts::position::Position;
use crate::draughts::rules::{MidCapturePromotion, Rules};
use crate::game::color::Color;

/// How the `via` squares must appear in the path.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Via {
    /// The landing squares are exactly `via` followed by `to` (PDN's complete long form).
    Exact,
    /// `via` are some of the landing squares, in order (turning squares only, say).
    Subsequence,
}

/// A path of `m` (landing squares after each jump, the last one `m.to`) that passes through the
/// squares `via` in order (each of them a landing square of the path), or `None`. Quiet moves have
/// the path `[to]`.
pub fn find_path<R: Rules>(pos: &Position<R>, m: &Move, via: &[u8]) -> Option<Vec<u8>> {
    find_path_as(pos, m, via, Via::Subsequence)
}

/// As [`find_path`], with the matching of `via` chosen.
pub fn find_path_as<R: Rules>(
    pos: &Position<R>,
    m: &Move,
    via: &[u8],
    how: Via,
) -> Option<Vec<u8>> {
    if !m.is_capture() {
        return if via.is_empty() {
            Some(vec![m.to])
        } else {
            None
        };
    }
    let us = pos.side();
    let from_bit = 1u64 << m.from;
    if pos.pieces(us) & from_bit == 0 {
        return None;
    }
    let search = Search::<R> {
        target: m.captured,
        to: m.to,
        opp: pos.pieces(!us),
        empty: pos.empty() | from_bit,
        white: us == Color::White,
        via,
        exact: how == Via::Exact,
        _r: std::marker::PhantomData,
    };
    let mut path = Vec::new();
    let king = pos.kings() & from_bit != 0;
    if search.dfs(m.from, 0, king, &mut path, 0) {
        Some(path)
    } else {
        None
    }
}

struct Search<'a, R: Rules> {
    target: u64,
    to: u8,
    opp: u64,
    empty: u64,
    white: bool,
    via: &'a [u8],
    exact: bool,
    _r: std::marker::PhantomData<R>,
}

impl<R: Rules> Search<'_, R> {
    fn promo_row(&self) -> u64 {
        if self.white {
            R::Board::TOP
        } else {
            R::Board::BOTTOM
        }
    }

    fn man_dirs(&self) -> [bool; 4] {
        use crate::draughts::board::{DOWN_LEFT, DOWN_RIGHT, UP_LEFT, UP_RIGHT};
        let mut d = [R::MEN_CAPTURE_BACKWARD; 4];
        let fwd = if self.white {
            [UP_LEFT, UP_RIGHT]
        } else {
            [DOWN_LEFT, DOWN_RIGHT]
        };
        for f in fwd {
            d[f] = true;
        }
        d
    }

    /// Depth-first search from `sq`; `matched` counts the `via` squares already passed.
    fn dfs(&self, sq: u8, captured: u64, king: bool, path: &mut Vec<u8>, matched: usize) -> bool {
        if captured == self.target {
            return sq == self.to
                && matched == self.via.len()
                && (!self.exact || path.len() == self.via.len() + 1);
        }
        if self.exact && path.len() > self.via.len() {
            return false;
        }
        let dirs = if king { [true; 4] } else { self.man_dirs() };
        for (d, allowed) in dirs.into_iter().enumerate() {
            if !allowed {
                continue;
            }
            // Walk to the piece to jump: one step for men and short kings, any distance over
            // empty squares for flying kings.
            let mut cur = step::<R::Board>(1u64 << sq, d) & R::Board::ALL;
            if king && R::FLYING_KINGS {
                while cur & self.empty != 0 {
                    cur = step::<R::Board>(cur, d) & R::Board::ALL;
                }
            }
            if cur & self.opp & self.target & !captured == 0 {
                continue;
            }
            let cap = captured | cur;
            let mut land = step::<R::Board>(cur, d) & self.empty;
            while land != 0 {
                let l = land.trailing_zeros() as u8;
                let m = matched + usize::from(self.via.get(matched) == Some(&l));
                path.push(l);
                let crowned = !king && land & self.promo_row() != 0;
                let done = match (crowned, R::MID_CAPTURE) {
                    (true, MidCapturePromotion::EndsMove) => {
                        cap == self.target
                            && l == self.to
                            && m == self.via.len()
                            && (!self.exact || path.len() == self.via.len() + 1)
                    }
                    (true, MidCapturePromotion::BecomesKing) => self.dfs(l, cap, true, path, m),
                    _ => self.dfs(l, cap, king, path, m),
                };
                if done {
                    return true;
                }
                path.pop();
                if !(king && R::FLYING_KINGS) {
                    break;
                }
                land = step::<R::Board>(land, d) & self.empty;
            }
        }
        false
    }
}
