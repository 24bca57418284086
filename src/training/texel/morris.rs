//! What a sample is for the Nine Men's Morris evaluation ([`super`] owns the method): every
//! position after the opening that the evaluation scores as it stands, with the counts of
//! [`term_counts`] (White's view, in [`Weights::NAMES`] order).
//!
//! Left out, as the draughts fitter leaves out a position with a capture: a position whose side
//! to move can close a mill at once (its removal is still to come: the quiescence search plays
//! it before it trusts the evaluation), and a position whose game is over (no move, or fewer
//! than 3 pieces and none in hand), which the search scores by the rules. So `mill_in_one`, the
//! bonus of exactly those positions, is never counted and keeps its value.
//!
//! Invariants: `piece_on_board` is never free (it is the unit: 100 centi-men), nor a term no
//! sample counts; the fitted weights are rounded to integers before they are reported, and the
//! errors reported for them are those of the rounded values.

use super::{Collected, Sample};
use crate::game::{Game, MoveList};
use crate::morris::MorrisPosition;
use crate::morris::eval::{TERMS, Weights, term_counts, threats};
use crate::pdn::PdnGame;

/// A Morris weight vector in [`Weights::NAMES`] order.
pub type Vector = super::Vector<TERMS>;

/// The index of the unit, `piece_on_board`.
const UNIT: usize = 0;

/// The term counts of `pos` as a sample, or `None` if the fit leaves it out (see the module
/// documentation).
pub fn sample_counts(pos: &MorrisPosition) -> Option<[f32; TERMS]> {
    let us = pos.side();
    if pos.lost_by_material(us) || threats(pos, us) != 0 {
        return None;
    }
    let mut list = MoveList::new();
    pos.generate(&mut list);
    if list.is_empty() {
        return None;
    }
    Some(term_counts(pos).map(|x| x as f32))
}

/// The samples of `games`: every position from ply `skip_plies` on that [`sample_counts`]
/// takes.
pub fn collect(games: &[PdnGame], skip_plies: usize) -> Collected<TERMS> {
    super::collect::<MorrisPosition, TERMS>(games, skip_plies, sample_counts)
}

/// The weights of `w` as a vector.
pub fn vector(w: &Weights) -> Vector {
    w.to_array().map(f64::from)
}

/// The weights of `v`, rounded to integers.
pub fn rounded(v: &Vector) -> Weights {
    Weights::from_array(v.map(|x| x.round() as i32))
}

/// The index of a term by its name (a field of [`Weights`]).
pub fn term_of(name: &str) -> Option<usize> {
    Weights::NAMES.iter().position(|n| *n == name)
}

/// Which terms may move: not `piece_on_board` (the unit), not the terms in `fixed` (indices),
/// and not a term no sample counts.
pub fn free_terms(samples: &[Sample<TERMS>], fixed: &[usize]) -> [bool; TERMS] {
    let counted = super::counted(samples);
    std::array::from_fn(|i| i != UNIT && !fixed.contains(&i) && counted[i])
}

#[cfg(test)]
mod tests {
    use super::super::{error, fit_scale, fit_weights, synthetic};
    use super::*;
    use crate::game::color::Color;
    use crate::morris::eval::{MILL_IN_ONE, WEIGHTS, evaluate_with};
    use crate::pdn;

    #[test]
    fn fit_recovers_the_weights_that_made_the_results() {
        // A weight vector unlike the engine's, so that starting from the engine's is a test.
        let truth = vector(&Weights {
            piece_on_board: 100,
            piece_in_hand: 70,
            mill: 30,
            open_mill: 12,
            double_mill: 45,
            fork: 90,
            fork_vs_flying: 140,
            blocked_piece: 20,
            mobility: 9,
            flying: -30,
            mill_in_one: 0,
            slide_to_mill: 35,
            placing_mobility: 6,
        });
        let k = 0.006;
        let samples = synthetic(&truth, k, &[MILL_IN_ONE]);
        let free = free_terms(&samples, &[]);
        assert!(!free[UNIT], "piece_on_board is the unit");
        assert!(!free[MILL_IN_ONE], "mill_in_one is never counted");
        assert!(free.iter().filter(|&&f| f).count() == TERMS - 2);
        let start = vector(&WEIGHTS);
        let mut steps = 0;
        let fitted = fit_weights(&samples, &start, k, &free, 100, |_, _| steps += 1);
        assert!(steps > 0);
        for (i, name) in Weights::NAMES.iter().enumerate() {
            let want = if free[i] { truth[i] } else { start[i] };
            assert!(
                (fitted[i] - want).abs() < 0.5,
                "{name}: fitted {}, made with {want}",
                fitted[i]
            );
        }
        assert!(error(&samples, &fitted, k) < 1e-6);
        assert!((fit_scale(&samples, &truth) / k - 1.0).abs() < 0.01);
        assert_eq!(rounded(&fitted).fork, 90);
    }

    #[test]
    fn samples_are_the_evaluation_seen_from_white() {
        for pos in crate::morris::sample::random_positions(30, 60, 7) {
            let Some(counts) = sample_counts(&pos) else {
                continue;
            };
            let dot: f64 = counts
                .iter()
                .zip(vector(&WEIGHTS))
                .map(|(&c, w)| c as f64 * w)
                .sum();
            let e = evaluate_with(&pos, &WEIGHTS) as f64;
            assert_eq!(
                if pos.side() == Color::White { e } else { -e },
                dot,
                "{pos}"
            );
        }
    }

    #[test]
    fn leaves_out_positions_with_a_mill_to_close() {
        // White to move closes a1-a4-a7 at a7 by placing: left out. Black to move cannot close a
        // mill: taken.
        let text = "[Variant \"morris\"]\n[Result \"1-0\"]\n\
                    1. a1 g1 2. a4 g7 3. b6 1-0\n";
        let games = pdn::parse(text).unwrap();
        let c = collect(&games, 0);
        assert!(c.skipped.is_empty(), "{:?}", c.skipped);
        // Plies 0-4: the start, after a1, after g1, after a4 (Black to move), after g7 (White to
        // move with a7 to close: left out).
        assert_eq!(c.samples.len(), 4);
        assert!(c.samples.iter().all(|s| s.result == 1.0));
        assert_eq!(c.samples[0].counts, [0.0; TERMS]);
        // An opening marked by `tiao match` is left out, however small --skip-plies is.
        let marked = text.replace("2. a4", "2. a4 {end of opening}");
        let c = collect(&pdn::parse(&marked).unwrap(), 1);
        assert_eq!(c.samples.len(), 1);
    }
}
