//! Fitting an evaluation's weights to game results (the "Texel" method), for any game whose
//! evaluation is linear in its weights: [`draughts`] and [`morris`] say what a sample of their
//! game is; this module owns the method.
//!
//! Every position of a set of games that the evaluation would score as it stands (after the
//! opening, nothing to take at once: each game says which) gives a [`Sample`]: its term counts
//! (White's view, so that the evaluation is the dot product of the weights and the counts) and
//! the game's result for White. The evaluation predicts a result as `sigmoid(k * w·counts)`;
//! [`fit_scale`] finds the `k` that fits the current weights best, and [`fit_weights`] then moves
//! the free weights to minimise the mean squared error of the predictions (Levenberg-Marquardt:
//! the evaluation is linear in the weights, so each step solves a small linear system over the
//! free terms).
//!
//! A game's samples start after its opening: `--skip-plies`, or the opening `tiao match` marked
//! with a comment when it is longer. The games are read by [`read_games`], which refuses (a
//! [`TuneError`], never a panic) a file it cannot read or parse and a game of another variant;
//! [`collect`] replays them and leaves out, with the reason, a game without a result or with a
//! move that does not replay.
//!
//! Invariants: a sample's counts are in the game's term order (its `Weights`' fields); a split
//! by games ([`Collected::split`]) keeps every game's positions on one side; a term no sample
//! counts is never free ([`counted`]); the fit is deterministic (no random numbers: the same
//! games give the same weights).

use crate::game::{Game, Variant};
use crate::pdn::{self, PdnError, PdnGame};
use rayon::prelude::*;
use std::fmt;

pub mod draughts;
pub mod morris;

/// One position: its `N` term counts from White's view and its game's result for White (1,
/// 0.5, 0).
#[derive(Clone, Debug, PartialEq)]
pub struct Sample<const N: usize> {
    /// The counts, in the game's term order.
    pub counts: [f32; N],
    /// White's score in the game.
    pub result: f32,
}

/// A weight vector in the game's term order.
pub type Vector<const N: usize> = [f64; N];

/// The samples of a set of games.
#[derive(Debug)]
pub struct Collected<const N: usize> {
    /// The samples, game after game.
    pub samples: Vec<Sample<N>>,
    /// For each game used, the index of its first sample (a split by games keeps a game's
    /// positions together).
    pub game_starts: Vec<usize>,
    /// Games left out, each with the reason (no result, a move that does not replay).
    pub skipped: Vec<String>,
}

impl<const N: usize> Default for Collected<N> {
    fn default() -> Self {
        Collected {
            samples: Vec::new(),
            game_starts: Vec::new(),
            skipped: Vec::new(),
        }
    }
}

impl<const N: usize> Collected<N> {
    /// The samples split by games: every `every`-th game's (the `every - 1`-th, the
    /// `2 * every - 1`-th, ...) to test, the others' to fit; `every` 0 holds none out.
    pub fn split(&self, every: usize) -> (Vec<Sample<N>>, Vec<Sample<N>>) {
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

/// Why games could not be read for a fit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TuneError {
    /// A file that cannot be read (missing, unreadable, not UTF-8 text).
    Read { path: String, error: String },
    /// A file that is not PDN.
    Pdn { path: String, error: PdnError },
    /// A game whose tags name another game or variant than the one fitted.
    OtherVariant {
        path: String,
        /// The 1-based number of the game in its file.
        game: usize,
        /// What the game's tags say (a variant's name, or why they name none tiao plays).
        found: String,
        wanted: Variant,
    },
    /// No game gave a position to fit.
    NoSamples {
        /// Games read.
        games: usize,
        /// Games left out (no result, a move that does not replay), with the first reasons.
        skipped: Vec<String>,
    },
}

impl fmt::Display for TuneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TuneError::Read { path, error } => write!(f, "{path}: cannot read: {error}"),
            TuneError::Pdn { path, error } => write!(f, "{path}: not a PDN file: {error}"),
            TuneError::OtherVariant {
                path,
                game,
                found,
                wanted,
            } => write!(
                f,
                "{path}: game {game} is {found}, not {wanted} (tiao tune -v {wanted} fits {wanted} games)"
            ),
            TuneError::NoSamples { games, skipped } => {
                write!(
                    f,
                    "no positions to fit in {games} games: none has a result and replays past the \
                     opening"
                )?;
                if !skipped.is_empty() {
                    let first: Vec<&str> = skipped.iter().take(3).map(String::as_str).collect();
                    write!(
                        f,
                        " ({} left out: {}{})",
                        skipped.len(),
                        first.join("; "),
                        if skipped.len() > 3 { "; ..." } else { "" }
                    )?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for TuneError {}

/// Reads the games of PDN files for a fit of `wanted`: refuses an unreadable or malformed file,
/// and a game whose `Variant` or `GameType` tag names another variant (a game without either tag
/// is taken, and replay decides).
pub fn read_games(paths: &[String], wanted: Variant) -> Result<Vec<PdnGame>, TuneError> {
    let mut games = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(path).map_err(|e| TuneError::Read {
            path: path.clone(),
            error: e.to_string(),
        })?;
        let read = pdn::parse(&text).map_err(|error| TuneError::Pdn {
            path: path.clone(),
            error,
        })?;
        for (n, g) in read.iter().enumerate() {
            let found = match g.variant() {
                None => continue,
                Some(Ok(v)) if v == wanted => continue,
                Some(Ok(v)) => v.name().to_string(),
                Some(Err(e)) => format!("of another game ({e})"),
            };
            return Err(TuneError::OtherVariant {
                path: path.clone(),
                game: n + 1,
                found,
                wanted,
            });
        }
        games.extend(read);
    }
    Ok(games)
}

/// The samples of `games` replayed under `G`'s rules: every position from ply `skip_plies` on,
/// and after the game's opening when `tiao match` marked it ([`PdnGame::opening_plies`]), for
/// which `counts` gives the term counts (it returns `None` for a position the fit leaves out).
pub fn collect<G: Game, const N: usize>(
    games: &[PdnGame],
    skip_plies: usize,
    counts: impl Fn(&G) -> Option<[f32; N]>,
) -> Collected<N> {
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
        let (start, moves) = match pdn::replay::<G>(g) {
            Ok(r) => r,
            Err(e) => {
                c.skipped.push(format!("game {}: {e}", n + 1));
                continue;
            }
        };
        c.game_starts.push(c.samples.len());
        let skip_plies = skip_plies.max(g.opening_plies());
        let mut pos = start;
        for (ply, m) in moves.iter().enumerate() {
            if ply >= skip_plies
                && let Some(counts) = counts(&pos)
            {
                c.samples.push(Sample {
                    counts,
                    result: result as f32,
                });
            }
            pos = pos.make(m);
        }
    }
    c
}

#[inline(always)]
fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

#[inline(always)]
fn dot<const N: usize>(w: &Vector<N>, c: &[f32; N]) -> f64 {
    w.iter().zip(c).map(|(a, &b)| a * b as f64).sum()
}

/// Mean squared error of the predictions `sigmoid(k * w·counts)` against the results.
pub fn error<const N: usize>(samples: &[Sample<N>], w: &Vector<N>, k: f64) -> f64 {
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
pub fn fit_scale<const N: usize>(samples: &[Sample<N>], w: &Vector<N>) -> f64 {
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

/// Which terms some sample counts (a term no sample counts cannot be fitted).
pub fn counted<const N: usize>(samples: &[Sample<N>]) -> [bool; N] {
    let mut counted = [false; N];
    for s in samples {
        for (c, &x) in counted.iter_mut().zip(&s.counts) {
            *c |= x != 0.0;
        }
    }
    counted
}

/// The gradient and the Gauss-Newton matrix of the summed squared error at `w`, and the error.
fn normal_equations<const N: usize>(
    samples: &[Sample<N>],
    w: &Vector<N>,
    k: f64,
) -> (Vec<f64>, Vec<f64>, f64) {
    let zero = || (vec![0.0; N], vec![0.0; N * N], 0.0);
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
                let (mut nz, mut len) = ([(0usize, 0f64); N], 0);
                for (i, &x) in s.counts.iter().enumerate() {
                    if x != 0.0 {
                        nz[len] = (i, d * x as f64);
                        len += 1;
                    }
                }
                for &(i, ji) in &nz[..len] {
                    g[i] += r * ji;
                    for &(j, jj) in &nz[..len] {
                        h[i * N + j] += ji * jj;
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
pub fn fit_weights<const N: usize>(
    samples: &[Sample<N>],
    start: &Vector<N>,
    k: f64,
    free: &[bool; N],
    iterations: usize,
    mut report: impl FnMut(usize, f64),
) -> Vector<N> {
    let idx: Vec<usize> = (0..N).filter(|&i| free[i]).collect();
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
                    a[r * n + c] = h[i * N + j];
                }
                a[r * n + r] += lambda * h[i * N + i].max(1e-12);
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

/// Samples whose results a known weight vector generates (deterministically: the result is the
/// predicted probability itself), so that a fit must find that vector again: counts drawn from
/// `-3..=3` (by a fixed seed) for every term but those in `never`, which stay 0.
#[cfg(test)]
pub(crate) fn synthetic<const N: usize>(
    truth: &Vector<N>,
    k: f64,
    never: &[usize],
) -> Vec<Sample<N>> {
    let mut rng = crate::game::rng::Rng::new(3);
    (0..4000)
        .map(|_| {
            let mut counts = [0f32; N];
            for (i, c) in counts.iter_mut().enumerate() {
                if !never.contains(&i) {
                    *c = (rng.next_u64() % 7) as f32 - 3.0;
                }
            }
            let result = sigmoid(k * dot(truth, &counts)) as f32;
            Sample { counts, result }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn split_keeps_games_whole() {
        let sample = |result| Sample {
            counts: [0.0; 3],
            result,
        };
        // Games of 2, 1, 3 and 1 samples, told apart by their results.
        let c = Collected {
            samples: [0.0, 0.0, 0.5, 1.0, 1.0, 1.0, 0.0].map(sample).to_vec(),
            game_starts: vec![0, 2, 3, 6],
            skipped: vec![],
        };
        let results = |v: &[Sample<3>]| v.iter().map(|s| s.result).collect::<Vec<_>>();
        let (fit, test) = c.split(2);
        assert_eq!(results(&fit), [0.0, 0.0, 1.0, 1.0, 1.0]);
        assert_eq!(results(&test), [0.5, 0.0]);
        let (fit, test) = c.split(0);
        assert_eq!(fit.len(), 7);
        assert!(test.is_empty());
    }

    #[test]
    fn counted_terms() {
        let samples = synthetic(&[10.0, 0.0, -5.0, 1.0], 0.01, &[1]);
        assert_eq!(counted(&samples), [true, false, true, true]);
    }

    #[test]
    fn errors_say_what_is_wrong() {
        let missing = read_games(&["/nonexistent/games.pdn".to_string()], Variant::Morris);
        assert!(matches!(missing, Err(TuneError::Read { .. })));
        let e = TuneError::OtherVariant {
            path: "a.pdn".into(),
            game: 2,
            found: "international".into(),
            wanted: Variant::Morris,
        };
        assert_eq!(
            e.to_string(),
            "a.pdn: game 2 is international, not morris (tiao tune -v morris fits morris games)"
        );
    }
}
