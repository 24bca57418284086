//! Nine Men's Morris moves and their generation.
//!
//! A [`Move`] is three points: where the piece comes from (none for a placement), where it goes,
//! and the enemy piece it removes (none unless the move closes a mill). A move that closes a mill
//! — one or two at once — removes exactly one piece, so it appears once per removable piece
//! (RULES.md: not a piece in a mill, unless every enemy piece is in a mill). Should the opponent
//! have no piece on the board to remove (possible only in set-up positions), the move is generated
//! without a removal.
//!
//! The side to move places while it has pieces in hand, flies with exactly 3 pieces on the board,
//! and slides otherwise. With no pieces in hand and fewer than 3 on the board it has no move: it
//! has lost, as it has when blocked.
//!
//! Besides the full generator this module counts moves without listing them ([`count`], for
//! perft), in both conventions: removals folded into the move (the default), or a mill-closing
//! move counted once with its removal left to a ply of its own ([`count_actions`]).
//!
//! The removable enemy pieces are worked out only when a move closes a mill (at the first such
//! move of a generation, or of a count): most positions close none.

use super::board::{NO_POINT, STEP_FROM, bit, closes_mill, completing, points, removable, step};
use super::moves::Move;
use super::position::MorrisPosition;
use crate::game::MoveList;

/// The enemy pieces a mill-closing move may remove, found at the first such move: most positions
/// close no mill, and then [`removable`] is never computed.
struct Victims {
    enemy: u32,
    removable: Option<u32>,
}

impl Victims {
    /// The removable pieces among `enemy`, not computed yet.
    #[inline(always)]
    fn among(enemy: u32) -> Victims {
        Victims {
            enemy,
            removable: None,
        }
    }

    /// No removal at all: mill-closing moves are listed bare.
    #[inline(always)]
    fn none() -> Victims {
        Victims {
            enemy: 0,
            removable: Some(0),
        }
    }

    #[inline(always)]
    fn get(&mut self) -> u32 {
        let enemy = self.enemy;
        *self.removable.get_or_insert_with(|| removable(enemy))
    }
}

/// Appends `m`, or `m` with each removal of `victims` when it closes a mill.
#[inline(always)]
fn push_with_removals(list: &mut MoveList<Move>, m: Move, closes: bool, victims: &mut Victims) {
    let removals = if closes { victims.get() } else { 0 };
    if removals != 0 {
        for r in points(removals) {
            list.push(m.removing(r));
        }
    } else {
        list.push(m);
    }
}

/// Generates the legal moves into `list` (cleared first). Empty: the side to move has lost.
pub fn generate(pos: &MorrisPosition, list: &mut MoveList<Move>) {
    let victims = Victims::among(pos.pieces(!pos.side()));
    generate_with::<false>(pos, list, victims);
}

/// Generates the mill-closing moves (with their removals) into `list` (cleared first).
pub fn generate_noisy(pos: &MorrisPosition, list: &mut MoveList<Move>) {
    let victims = Victims::among(pos.pieces(!pos.side()));
    generate_with::<true>(pos, list, victims);
}

/// Generates each (from, to) action once, without removals (Sanmill's perft convention, where
/// the removal is a ply of its own), into `list` (cleared first).
pub fn generate_actions(pos: &MorrisPosition, list: &mut MoveList<Move>) {
    generate_with::<false>(pos, list, Victims::none());
}

/// The generator: a mill-closing move is listed once per removable victim (once, without a
/// removal, when there is none); with `NOISY`, only the mill-closing moves.
#[inline(always)]
fn generate_with<const NOISY: bool>(
    pos: &MorrisPosition,
    list: &mut MoveList<Move>,
    mut victims: Victims,
) {
    list.clear();
    let us = pos.side();
    let own = pos.pieces(us);
    let empty = pos.empty();
    if pos.lost_by_material(us) {
        return;
    }
    // A mill can only be closed on a point that completes one with the pieces before the move;
    // for a piece that moves, `closes_mill` then checks that it is not one of the two.
    let candidates = completing(own) & empty;
    let destinations = if NOISY { candidates } else { empty };
    if pos.places(us) {
        for to in points(destinations) {
            let closes = candidates & bit(to) != 0;
            push_with_removals(list, Move::place(to), closes, &mut victims);
        }
        return;
    }
    if NOISY && candidates == 0 {
        return;
    }
    let mut push = |from: u8, to: u8| {
        let closes = candidates & bit(to) != 0 && closes_mill((own ^ bit(from)) | bit(to), to);
        if !NOISY || closes {
            push_with_removals(list, Move::step(from, to), closes, &mut victims);
        }
    };
    if pos.flies(us) {
        for from in points(own) {
            for to in points(destinations) {
                push(from, to);
            }
        }
    } else {
        // Slides direction by direction, visiting only the slides that exist.
        for (d, from) in STEP_FROM.iter().enumerate() {
            for to in points(step(own, d) & destinations) {
                push(from[to as usize & 31], to);
            }
        }
    }
}

/// Whether `m` (a legal move of `pos`) closes a mill.
#[inline]
pub fn closes(pos: &MorrisPosition, m: &Move) -> bool {
    let own = pos.pieces(pos.side());
    let rest = match m.from() {
        Some(f) => own ^ bit(f),
        None => own,
    };
    m.to() != NO_POINT && closes_mill(rest | bit(m.to()), m.to())
}

/// The number of (from, to) pairs of the side to move and how many of them close a mill.
#[inline(always)]
fn actions(pos: &MorrisPosition) -> (u64, u64) {
    let us = pos.side();
    let own = pos.pieces(us);
    let empty = pos.empty();
    let candidates = completing(own) & empty;
    if pos.places(us) {
        return (empty.count_ones() as u64, candidates.count_ones() as u64);
    }
    if pos.lost_by_material(us) {
        return (0, 0);
    }
    if pos.flies(us) {
        let mut closing = 0;
        if candidates != 0 {
            for from in points(own) {
                closing += (completing(own ^ bit(from)) & empty).count_ones() as u64;
            }
        }
        return (3 * empty.count_ones() as u64, closing);
    }
    let mut total = 0;
    let mut closing = 0;
    for (d, from_of) in STEP_FROM.iter().enumerate() {
        let targets = step(own, d) & empty;
        total += targets.count_ones() as u64;
        for to in points(targets & candidates) {
            let from = from_of[to as usize & 31];
            closing += closes_mill((own ^ bit(from)) | bit(to), to) as u64;
        }
    }
    (total, closing)
}

/// The number of legal moves (as [`generate`] would list them), without listing them.
#[inline]
pub fn count(pos: &MorrisPosition) -> u64 {
    let (total, closing) = actions(pos);
    if closing == 0 {
        return total;
    }
    let victims = removable(pos.pieces(!pos.side())).count_ones() as u64;
    total + closing * victims.saturating_sub(1)
}

/// The number of (from, to) actions, a mill-closing one counted once whatever it removes
/// (Sanmill's convention, where the removal is a ply of its own).
#[inline]
pub fn count_actions(pos: &MorrisPosition) -> u64 {
    actions(pos).0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_moves() {
        let p = MorrisPosition::start();
        let mut list = MoveList::default();
        generate(&p, &mut list);
        assert_eq!(list.len(), 24);
        assert!(list.iter().all(|m| m.is_placement() && !m.is_removal()));
        assert_eq!(count(&p), 24);
        generate_noisy(&p, &mut list);
        assert!(list.is_empty());
    }

    #[test]
    fn move_parts() {
        let m = Move::step(3, 4).removing(9);
        assert_eq!((m.from(), m.to(), m.removal()), (Some(3), 4, Some(9)));
        assert_eq!(m.action(), Move::step(3, 4));
        assert!(Move::place(0).is_placement());
        assert!(!Move::default().is_placement());
        assert_eq!(format!("{m:?}"), "Move(g4-g1xd6)");
    }
}
