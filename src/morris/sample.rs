//! Reproducible pseudo-random games, for tests, benches and tuning: every position of `games`
//! games from the start, each played until it ends (a lost side, a draw by the counter) or for
//! `plies` plies. A move that removes a piece is preferred two times in three when there is one,
//! so that the games reach the flying endgame and its end rather than shuffling. Moves are
//! picked by the crate's [`Rng`].

use super::movegen::generate;
use super::moves::Move;
use super::position::MorrisPosition;
use crate::game::MoveList;
use crate::game::rng::Rng;

/// Every position of `games` pseudo-random games of at most `plies` plies, from seed `seed`.
pub fn random_positions(games: usize, plies: usize, seed: u64) -> Vec<MorrisPosition> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    let mut list = MoveList::default();
    for _ in 0..games {
        let mut p = MorrisPosition::start();
        for _ in 0..plies {
            out.push(p);
            generate(&p, &mut list);
            if list.is_empty() || p.draw_by_rule() {
                break;
            }
            let removals: Vec<Move> = list.iter().copied().filter(Move::is_removal).collect();
            let r = rng.next_u64();
            let m = if !removals.is_empty() && !r.is_multiple_of(3) {
                removals[(r / 3 % removals.len() as u64) as usize]
            } else {
                list[(r / 3 % list.len() as u64) as usize]
            };
            p = p.make(&m);
        }
    }
    out
}
