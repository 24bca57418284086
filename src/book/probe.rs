//! Using a book: a position's moves with their scores ([`probe`]), the main lines and the depth
//! a book reaches ([`main_line`], [`depth`]), and the choice of a book move ([`choose`]).
//!
//! Invariant of [`choose`]: with a margin of 0, or from ply `book_ply` on, it returns the best
//! move (the first of the best scores in the order given); with a margin, a move whose score is
//! within the margin of the best, drawn uniformly by the generator given (so a seed replays the
//! same choices). Never a move of an empty list.

use super::build::{book_children, legal_by_text, roots};
use super::{Book, BookMove};
use crate::game::Game;
use crate::game::rng::Rng;
use std::collections::{BTreeMap, HashSet};

/// The legal moves of `pos` in the book with their scores, best first (ties by text); `None`
/// when the position is not in the book.
pub fn probe<G: Game>(book: &Book, pos: &G) -> Option<Vec<(G::Move, BookMove)>> {
    let moves = book.get(pos.key())?;
    let mut v: Vec<(G::Move, BookMove)> = book_children(pos, moves)
        .into_iter()
        .map(|(i, m, _)| (m, moves[i].clone()))
        .collect();
    v.sort_by(|a, b| {
        b.1.score
            .cmp(&a.1.score)
            .then_with(|| a.1.text.cmp(&b.1.text))
    });
    Some(v)
}

/// The index of the move to play among `moves` at game ply `ply` (see the module
/// documentation); `margin` in centi-men. `None` for an empty list.
pub fn choose(
    moves: &[BookMove],
    ply: u32,
    book_ply: u32,
    margin: i32,
    rng: &mut Rng,
) -> Option<usize> {
    let best_score = moves.iter().map(|m| m.score as i32).max()?;
    let best = moves.iter().position(|m| m.score as i32 == best_score)?;
    if margin <= 0 || ply >= book_ply {
        return Some(best);
    }
    let within: Vec<usize> = (0..moves.len())
        .filter(|&i| moves[i].score as i32 >= best_score - margin)
        .collect();
    if within.len() == 1 {
        return Some(best);
    }
    Some(within[rng.below(within.len())])
}

/// The book's main line from `from`: the best move, while the position after it is in the
/// book (at most `max` moves; a position met twice ends it). Moves as the book writes them.
pub fn main_line<G: Game>(book: &Book, from: &G, max: usize) -> Vec<String> {
    let mut line = Vec::new();
    let mut pos = *from;
    let mut seen = HashSet::new();
    while line.len() < max && seen.insert(pos.key()) {
        let Some(moves) = probe(book, &pos) else {
            break;
        };
        let Some((m, b)) = moves.first() else {
            break;
        };
        line.push(b.text.clone());
        pos = pos.make(m);
    }
    line
}

/// The depth the book reaches: the largest number of plies from the start to a book position
/// reached from the book's roots (each position counted at its nearest ply, a ballot's position
/// at its third), and the positions so reached.
pub fn depth<G: Game>(book: &Book) -> (u32, usize) {
    // Breadth first by ply; the roots enter at their own ply.
    let mut by_ply: BTreeMap<u32, Vec<G>> = BTreeMap::new();
    for (g, ply) in roots::<G>(&book.settings) {
        by_ply.entry(ply).or_default().push(g);
    }
    let mut seen = HashSet::new();
    let mut deepest = 0;
    let mut reached = 0;
    while let Some((ply, level)) = by_ply.pop_first() {
        for pos in level {
            if !seen.insert(pos.key()) {
                continue;
            }
            let Some(moves) = book.get(pos.key()) else {
                continue;
            };
            reached += 1;
            deepest = deepest.max(ply);
            for (_, _, child) in book_children(&pos, moves) {
                if !seen.contains(&child.key()) {
                    by_ply.entry(ply + 1).or_default().push(child);
                }
            }
        }
    }
    (deepest, reached)
}

/// The legal moves of `pos` the book does not hold (an entry made before a rule change, or a
/// key collision): none in a book this build made.
pub fn missing_moves<G: Game>(book: &Book, pos: &G) -> Vec<String> {
    let Some(moves) = book.get(pos.key()) else {
        return Vec::new();
    };
    legal_by_text(pos)
        .into_iter()
        .map(|(t, _)| t)
        .filter(|t| moves.binary_search_by(|b| b.text.cmp(t)).is_err())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(text: &str, score: i16) -> BookMove {
        BookMove {
            text: text.into(),
            score,
            leaf: score,
            depth: 5,
        }
    }

    #[test]
    fn margin_zero_is_the_best_and_a_margin_stays_within_it() {
        let moves = [
            mv("a", 10),
            mv("b", 40),
            mv("c", 35),
            mv("d", -20),
            mv("e", 40),
        ];
        let mut rng = Rng::new(3);
        for ply in 0..20 {
            assert_eq!(choose(&moves, ply, 20, 0, &mut rng), Some(1));
            assert_eq!(choose(&moves, 20 + ply, 20, 100, &mut rng), Some(1));
        }
        let mut seen = HashSet::new();
        for _ in 0..200 {
            let i = choose(&moves, 0, 10, 10, &mut rng).unwrap();
            assert!(moves[i].score >= 30);
            seen.insert(i);
        }
        assert_eq!(
            seen,
            HashSet::from([1, 2, 4]),
            "every move within the margin is played"
        );
        assert_eq!(choose(&[], 0, 10, 10, &mut rng), None);
        let a: Vec<_> = (0..20)
            .map(|_| choose(&moves, 0, 10, 50, &mut Rng::new(9)))
            .collect();
        assert!(
            a.windows(2).all(|w| w[0] == w[1]),
            "a seed replays its choice"
        );
    }
}
