//! Fitting the draughts evaluation's weights to game results (the "Texel" method).
//!
//! Every position of a set of games (after the opening, the side to move without a capture:
//! the positions the quiescence search evaluates) gives a [`Sample`]: its term counts
//! ([`term_counts`], White's view) and the game's result for White. The evaluation predicts a
//! result as `sigmoid(k * w·counts)`; [`fit_scale`] finds the `k` that fits the current weights
//! best, and [`fit_weights`] then moves the weights to minimise the mean squared error of the
//! predictions (Levenberg-Marquardt: the evaluation is linear in the weights, so each step solves
//! a small linear system over the free terms).
//!
//! Invariants: `man` is never free (it is the unit: 100 centi-men), nor `advance[0]` (the
//! advancement weights are measured from it), nor a term no sample counts; the fitted weights
//! are rounded to integers before they are reported, and the errors reported for them are those
//! of the rounded values.

use crate::draughts::eval::term_counts;
use crate::draughts::eval::weights::{TERMS, Term, Weights};
use crate::draughts::movegen::has_capture;
use crate::draughts::position::Position;
use crate::draughts::rules::Rules;
use crate::pdn::{self, PdnGame};
use rayon::prelude::*;

/// One position: its term counts from White's view and its game's result for White (1, 0.5, 0).
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The counts, in [`Term::index`] order.
    pub counts: [f32; TERMS],
    /// White's score in the game.
    pub result: f32,
}

/// The samples of a set of games.
#[derive(Debug, Default)]
pub struct Collected {
    /// The samples, game after game.
    pub samples: Vec<Sample>,
    /// For each game used, the index of its first sample (a split by games keeps a game's
    /// positions together).
    pub game_starts: Vec<usize>,
    /// Games left out, each with the reason (no result, a move that does not replay).
    pub skipped: Vec<String>,
}

impl Collected {
    /// The samples split by games: every `every`-th game's (the `every - 1`-th, the
    /// `2 * every - 1`-th, ...) to test, the others' to fit; `every` 0 holds none out.
    pub fn split(&self, every: usize) -> (Vec<Sample>, Vec<Sample>) {
        let (mut fit, mut test) = (Vec::new(), Vec::new());
        for (g, &from) in self.game_starts.iter().enumerate() {
            let to = self
                .game_starts
                .get(g + 1)
                .copied()
                .unwrap_or(self.samples.len());
            let part = &self.samples[from..to];
            if every != 0 && g % every == every - 1 {
                test.extend_from_slice(part);
            } else {
                fit.extend_from_slice(part);
            }
        }
        (fit, test)
    }
}

/// The samples of `games` under `R`'s rules: every position from ply `skip_plies` on whose side
/// to move has no capture and whose evaluation is the weighted sum of its terms.
pub fn collect<R: Rules>(games: &[PdnGame], skip_plies: usize) -> Collected {
    let mut c = Collected::default();
    for (n, g) in games.iter().enumerate() {
        let result = g
            .result
            .as_deref()
            .or(g.tag("Result"))
            .and_then(pdn::result_score);
        let Some(result) = result else {
            c.skipped.push(format!("game {}: no result", n + 1));
            continue;
        };
        let (start, moves) = match pdn::replay::<Position<R>>(g) {
            Ok(r) => r,
            Err(e) => {
                c.skipped.push(format!("game {}: {e}", n + 1));
                continue;
            }
        };
        c.game_starts.push(c.samples.len());
        let mut pos = start;
        for (ply, m) in moves.iter().enumerate() {
            if ply >= skip_plies
                && !has_capture(&pos)
                && let Some(counts) = term_counts(&pos)
            {
                c.samples.push(Sample {
                    counts: counts.0.map(|x| x as f32),
                    result: result as f32,
                });
            }
            pos = pos.make(m);
        }
    }
    c
}

/// A weight vector in [`Term::index`] order.
pub type Vector = [f64; TERMS];

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

#[inline(always)]
fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

#[inline(always)]
fn dot(w: &Vector, c: &[f32; TERMS]) -> f64 {
    w.iter().zip(c).map(|(a, &b)| a * b as f64).sum()
}

/// Mean squared error of the predictions `sigmoid(k * w·counts)` against the results.
pub fn error(samples: &[Sample], w: &Vector, k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let sum: f64 = samples
        .par_iter()
        .map(|s| {
            let r = sigmoid(k * dot(w, &s.counts)) - s.result as f64;
            r * r
        })
        .sum();
    sum / samples.len() as f64
}

/// The `k` (per centi-man) that best fits the results with the weights `w`: a golden-section
/// search over `ln k` (the error is unimodal in it).
pub fn fit_scale(samples: &[Sample], w: &Vector) -> f64 {
    let f = |lk: f64| error(samples, w, lk.exp());
    let (mut a, mut b) = ((1e-5f64).ln(), (1e-1f64).ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let mut x1 = b - g * (b - a);
    let mut x2 = a + g * (b - a);
    let (mut f1, mut f2) = (f(x1), f(x2));
    for _ in 0..60 {
        if f1 < f2 {
            b = x2;
            x2 = x1;
            f2 = f1;
            x1 = b - g * (b - a);
            f1 = f(x1);
        } else {
            a = x1;
            x1 = x2;
            f1 = f2;
            x2 = a + g * (b - a);
            f2 = f(x2);
        }
    }
    ((a + b) / 2.0).exp()
}

/// Which terms may move: not `man`, not `advance[0]`, not the terms in `fixed`, and not a term
/// no sample counts. (Every man is on some row, so the advancement weights all moved by one
/// amount are the man's value moved by it: `advance[0]` stays put, as `man` does, for the
/// others to be measured from. The back row's own value is `back_guard`.)
pub fn free_terms(samples: &[Sample], fixed: &[Term]) -> [bool; TERMS] {
    let mut counted = [false; TERMS];
    for s in samples {
        for (c, &x) in counted.iter_mut().zip(&s.counts) {
            *c |= x != 0.0;
        }
    }
    Term::ALL.map(|t| {
        t != Term::Man && t != Term::Advance(0) && !fixed.contains(&t) && counted[t.index()]
    })
}

/// The gradient and the Gauss-Newton matrix of the summed squared error at `w`, and the error.
fn normal_equations(samples: &[Sample], w: &Vector, k: f64) -> (Vec<f64>, Vec<f64>, f64) {
    let zero = || (vec![0.0; TERMS], vec![0.0; TERMS * TERMS], 0.0);
    samples
        .par_chunks(4096)
        .map(|chunk| {
            let (mut g, mut h, mut e) = zero();
            for s in chunk {
                let p = sigmoid(k * dot(w, &s.counts));
                let r = p - s.result as f64;
                let d = k * p * (1.0 - p);
                e += r * r;
                // The terms the position counts, with their derivatives (most are zero).
                let (mut nz, mut len) = ([(0usize, 0f64); TERMS], 0);
                for (i, &x) in s.counts.iter().enumerate() {
                    if x != 0.0 {
                        nz[len] = (i, d * x as f64);
                        len += 1;
                    }
                }
                for &(i, ji) in &nz[..len] {
                    g[i] += r * ji;
                    for &(j, jj) in &nz[..len] {
                        h[i * TERMS + j] += ji * jj;
                    }
                }
            }
            (g, h, e)
        })
        .reduce(zero, |(mut g, mut h, e), (g2, h2, e2)| {
            g.iter_mut().zip(&g2).for_each(|(a, b)| *a += b);
            h.iter_mut().zip(&h2).for_each(|(a, b)| *a += b);
            (g, h, e + e2)
        })
}

/// Solves `a x = b` (`n` unknowns, `a` row-major) by Gaussian elimination with partial
/// pivoting; `None` if `a` is singular.
fn solve(mut a: Vec<f64>, mut b: Vec<f64>, n: usize) -> Option<Vec<f64>> {
    for col in 0..n {
        let pivot =
            (col..n).max_by(|&i, &j| a[i * n + col].abs().total_cmp(&a[j * n + col].abs()))?;
        if a[pivot * n + col].abs() < 1e-300 {
            return None;
        }
        for k in 0..n {
            a.swap(col * n + k, pivot * n + k);
        }
        b.swap(col, pivot);
        for row in col + 1..n {
            let f = a[row * n + col] / a[col * n + col];
            for k in col..n {
                a[row * n + k] -= f * a[col * n + k];
            }
            b[row] -= f * b[col];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let s: f64 = (row + 1..n).map(|k| a[row * n + k] * x[k]).sum();
        x[row] = (b[row] - s) / a[row * n + row];
    }
    Some(x)
}

/// Minimises the mean squared error over the `free` terms from `start` (Levenberg-Marquardt),
/// for at most `iterations` steps or until a step gains less than a billionth of the error.
/// `report` is called after each accepted step with its number and the error.
pub fn fit_weights(
    samples: &[Sample],
    start: &Vector,
    k: f64,
    free: &[bool; TERMS],
    iterations: usize,
    mut report: impl FnMut(usize, f64),
) -> Vector {
    let idx: Vec<usize> = (0..TERMS).filter(|&i| free[i]).collect();
    let n = idx.len();
    let mut w = *start;
    if n == 0 || samples.is_empty() {
        return w;
    }
    let mut lambda = 1e-3;
    let (mut g, mut h, mut e) = normal_equations(samples, &w, k);
    for step in 1..=iterations {
        let mut accepted = false;
        while lambda < 1e12 {
            let mut a = vec![0.0; n * n];
            for (r, &i) in idx.iter().enumerate() {
                for (c, &j) in idx.iter().enumerate() {
                    a[r * n + c] = h[i * TERMS + j];
                }
                a[r * n + r] += lambda * h[i * TERMS + i].max(1e-12);
            }
            let b: Vec<f64> = idx.iter().map(|&i| -g[i]).collect();
            let Some(delta) = solve(a, b, n) else {
                lambda *= 10.0;
                continue;
            };
            let mut trial = w;
            for (r, &i) in idx.iter().enumerate() {
                trial[i] += delta[r];
            }
            let (g2, h2, e2) = normal_equations(samples, &trial, k);
            if e2 < e {
                let gain = (e - e2) / e;
                (w, g, h, e) = (trial, g2, h2, e2);
                lambda = (lambda / 10.0).max(1e-9);
                report(step, e / samples.len() as f64);
                accepted = gain > 1e-9;
                break;
            }
            lambda *= 10.0;
        }
        if !accepted {
            break;
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::eval::weights::INTERNATIONAL;
    use crate::draughts::rules::International;

    #[test]
    fn solves_a_linear_system() {
        let x = solve(vec![2.0, 1.0, 1.0, 3.0], vec![3.0, 5.0], 2).unwrap();
        assert!(
            (x[0] - 0.8).abs() < 1e-12 && (x[1] - 1.4).abs() < 1e-12,
            "{x:?}"
        );
        assert!(solve(vec![1.0, 2.0, 2.0, 4.0], vec![1.0, 1.0], 2).is_none());
    }

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
    fn split_keeps_games_whole() {
        let sample = |result| Sample {
            counts: [0.0; TERMS],
            result,
        };
        // Games of 2, 1, 3 and 1 samples, told apart by their results.
        let c = Collected {
            samples: [0.0, 0.0, 0.5, 1.0, 1.0, 1.0, 0.0].map(sample).to_vec(),
            game_starts: vec![0, 2, 3, 6],
            skipped: vec![],
        };
        let results = |v: &[Sample]| v.iter().map(|s| s.result).collect::<Vec<_>>();
        let (fit, test) = c.split(2);
        assert_eq!(results(&fit), [0.0, 0.0, 1.0, 1.0, 1.0]);
        assert_eq!(results(&test), [0.5, 0.0]);
        let (fit, test) = c.split(0);
        assert_eq!(fit.len(), 7);
        assert!(test.is_empty());
    }

    /// Samples whose results a known weight vector generates (deterministically: the result is
    /// the predicted probability itself), so the fit must find that vector again.
    fn synthetic(truth: &Vector, k: f64) -> Vec<Sample> {
        let mut rng = crate::rng::Rng::new(3);
        (0..4000)
            .map(|_| {
                let mut counts = [0f32; TERMS];
                for (i, c) in counts.iter_mut().enumerate() {
                    if i != Term::Advance(9).index() {
                        *c = (rng.next_u64() % 7) as f32 - 3.0;
                    }
                }
                let result = sigmoid(k * dot(truth, &counts)) as f32;
                Sample { counts, result }
            })
            .collect()
    }

    #[test]
    fn fit_recovers_the_weights_that_made_the_results() {
        let truth = vector(&INTERNATIONAL);
        let k = 0.004;
        let samples = synthetic(&truth, k);
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
