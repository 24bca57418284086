//! What a sample is for the draughts evaluation ([`super`] owns the method): every position
//! after the opening whose side to move has no capture (the positions the quiescence search
//! evaluates) and whose evaluation is the weighted sum of its terms (not drawish material), with
//! the counts of [`term_counts`] in [`Term::index`] order.
//!
//! Invariants: `man` is never free (it is the unit: 100 centi-men), nor `advance[0]` (the
//! advancement weights are measured from it), nor a term no sample counts; the fitted weights
//! are rounded to integers before they are reported, and the errors reported for them are those
//! of the rounded values.

use super::{Collected, Sample};
use crate::draughts::eval::term_counts;
use crate::draughts::eval::weights::{TERMS, Term, Weights};
use crate::draughts::movegen::has_capture;
use crate::draughts::position::Position;
use crate::draughts::rules::Rules;
use crate::pdn::PdnGame;

/// A draughts weight vector in [`Term::index`] order.
pub type Vector = super::Vector<TERMS>;

/// The samples of `games` under `R`'s rules: every position from ply `skip_plies` on whose side
/// to move has no capture and whose evaluation is the weighted sum of its terms.
pub fn collect<R: Rules>(games: &[PdnGame], skip_plies: usize) -> Collected<TERMS> {
    super::collect::<Position<R>, TERMS>(games, skip_plies, |pos| {
        if has_capture(pos) {
            return None;
        }
        term_counts(pos).map(|c| c.0.map(|x| x as f32))
    })
}

/// The weights of `w` as a vector.
pub fn vector(w: &Weights) -> Vector {
    Term::ALL.map(|t| w.get(t) as f64)
}

/// `w` with the terms' weights taken from `v`, rounded to integers.
pub fn rounded(w: &Weights, v: &Vector) -> Weights {
    let mut out = w.clone();
    for t in Term::ALL {
        out.set(t, v[t.index()].round() as i32);
    }
    out
}

/// Which terms may move: not `man`, not `advance[0]`, not the terms in `fixed`, and not a term
/// no sample counts. (Every man is on some row, so the advancement weights all moved by one
/// amount are the man's value moved by it: `advance[0]` stays put, as `man` does, for the
/// others to be measured from. The back row's own value is `back_guard`.)
pub fn free_terms(samples: &[Sample<TERMS>], fixed: &[Term]) -> [bool; TERMS] {
    let counted = super::counted(samples);
    Term::ALL.map(|t| {
        t != Term::Man && t != Term::Advance(0) && !fixed.contains(&t) && counted[t.index()]
    })
}

#[cfg(test)]
mod tests {
    use super::super::{error, fit_scale, fit_weights, synthetic};
    use super::*;
    use crate::draughts::eval::weights::INTERNATIONAL;
    use crate::draughts::rules::International;
    use crate::pdn;

    #[test]
    fn collects_quiet_positions_after_the_opening() {
        let text = "[Result \"2-0\"]\n1. 32-28 19-23 2. 28x19 14x23 3. 37-32 10-14 2-0\n\n\
                    [Result \"*\"]\n1. 32-28 *\n";
        let games = pdn::parse(text).unwrap();
        let c = collect::<International>(&games, 1);
        assert_eq!(c.skipped, vec!["game 2: no result".to_string()]);
        assert_eq!(c.game_starts, vec![0]);
        // Plies 1-5: after 32-28 (Black to move, no capture), after 19-23 (White must capture:
        // left out), after 28x19 (Black must capture: left out), after 14x23 and after 37-32.
        assert_eq!(c.samples.len(), 3);
        assert!(c.samples.iter().all(|s| s.result == 1.0));
        // After 32-28 the material is even.
        assert_eq!(c.samples[0].counts[Term::Man.index()], 0.0);
    }

    #[test]
    fn fit_recovers_the_weights_that_made_the_results() {
        let truth = vector(&INTERNATIONAL);
        let k = 0.004;
        let samples = synthetic(&truth, k, &[Term::Advance(9).index()]);
        let free = free_terms(&samples, &[]);
        assert!(!free[Term::Man.index()], "man is the unit");
        assert!(
            !free[Term::Advance(0).index()],
            "advancement is measured from the back row"
        );
        assert!(!free[Term::Advance(9).index()], "never counted");
        assert!(free[Term::King.index()]);
        let mut start = truth;
        for (i, x) in start.iter_mut().enumerate() {
            if free[i] {
                *x = 0.0;
            }
        }
        let mut steps = 0;
        let fitted = fit_weights(&samples, &start, k, &free, 100, |_, _| steps += 1);
        assert!(steps > 0);
        for t in Term::ALL {
            let (a, b) = (fitted[t.index()], truth[t.index()]);
            assert!(
                (a - b).abs() < 0.5,
                "{}: fitted {a}, made with {b}",
                t.name()
            );
        }
        assert!(error(&samples, &fitted, k) < 1e-6);
        // The scale is found again too.
        let found = fit_scale(&samples, &truth);
        assert!((found / k - 1.0).abs() < 0.01, "k {found}");
    }

    #[test]
    fn rounded_weights_keep_the_structure() {
        let mut v = vector(&INTERNATIONAL);
        v[Term::King.index()] = 287.6;
        let w = rounded(&INTERNATIONAL, &v);
        assert_eq!(w.king, 288);
        assert_eq!(w.runaway_max_rows, INTERNATIONAL.runaway_max_rows);
        assert_eq!(w.man, INTERNATIONAL.man);
    }
}
