//! Random walks from a position: how both the match openings
//! ([`matches::openings`](crate::matches::openings)) and the self-play games
//! ([`training::selfplay`](crate::training::selfplay)) get varied starts, and the balance bound
//! a walk's end position must meet for either to keep it.
//!
//! Invariant: a walk draws exactly one number from the generator per ply played, so a walk is
//! a function of the generator's state, the start and the ply count.

use super::{Game, MoveList};
use crate::game::rng::Rng;

/// Largest |score| (centi-men, side to move, by a shallow search) of a walk kept as a
/// balanced start.
pub const BALANCE: i32 = 40;

/// Plays `plies` uniformly drawn legal moves from `pos`, calling `on_move` with each position
/// and the move played from it; returns the end position, or `None` when a position on the way
/// (or the end position) has no legal move: the game ended inside the walk.
pub fn random_walk<G: Game>(
    mut pos: G,
    plies: u32,
    rng: &mut Rng,
    mut on_move: impl FnMut(&G, &G::Move),
) -> Option<G> {
    let mut list = MoveList::default();
    for _ in 0..plies {
        pos.generate(&mut list);
        if list.is_empty() {
            return None;
        }
        let m = list[rng.below(list.len())];
        on_move(&pos, &m);
        pos = pos.make(&m);
    }
    pos.generate(&mut list);
    (!list.is_empty()).then_some(pos)
}
