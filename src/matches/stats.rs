//! Match statistics: score, Elo difference with a 95% interval, likelihood of superiority, and
//! the sequential probability ratio test (SPRT), on W/D/L counts and on opening pairs.
//!
//! Formulas (N = W + D + L games, from the first player's view):
//! - score `s = (W + D/2) / N`;
//! - Elo difference `E(s) = -400 log10(1/s - 1)` (the logistic model);
//! - per-game variance of the score `σ² = (W (1-s)² + D (1/2-s)² + L s²) / N` (the trinomial
//!   model: a game scores 1, 1/2 or 0), standard error of the mean `se = sqrt(σ² / N)`;
//! - 95% interval `[E(s - 1.96 se), E(s + 1.96 se)]` (the delta method through `E`); the
//!   interval is not symmetric, [`Elo::margin`] is half its width;
//! - likelihood of superiority `LOS = Φ((W - L) / sqrt(W + L))` (draws carry no information on
//!   which side is stronger), Φ the standard normal distribution function;
//! - by opening pairs (the **pentanomial** model): an opening's two games, colours reversed,
//!   score together 0, 1/2, 1, 3/2 or 2 points; with `M` complete pairs of mean `p` (points a
//!   pair, 0..=2) and per-pair variance `τ²`, the score is `s = p / 2` and its standard error
//!   `sqrt(τ² / 4 / M)`, the interval as above. An opening that favours one colour makes its two
//!   games' results correlated; the pairs see that, the trinomial model does not, so on balanced
//!   openings with a draw-heavy game the pentanomial interval is usually the narrower and the
//!   truer one. Games of an unfinished pair are left out of it.
//! - SPRT of H0: Elo = elo0 against H1: Elo = elo1 (logistic Elo), with the generalised SPRT
//!   log-likelihood ratio in its usual normal approximation
//!   `LLR = n (s1 - s0) (2 s - s0 - s1) / (2 v)`, `s_i = 1 / (1 + 10^(-elo_i / 400))`, over `n`
//!   independent samples of mean score `s` (points a game) and variance `v`: the games (`N`,
//!   `σ²`: [`Sprt::llr`]) or the opening pairs, each scored by its points over 2 (`M`, `τ² / 4`:
//!   [`Sprt::llr_pairs`], what `tiao match` decides on, as the games of a pair are not
//!   independent). It stops with H1 when `LLR >= ln((1-β)/α)`, with H0 when
//!   `LLR <= ln(β/(1-α))` (α = β = 0.05: ±2.944). Before any sample the LLR is 0; while every
//!   sample has scored the same `x` (no variance) it is the exact GSPRT value `n ln(q1/q0)`, `q_i`
//!   the largest probability of `x` under a distribution of mean `s_i`: `(1 - s_i) / (1 - x)`
//!   when `s_i >= x`, else `s_i / x` (for games: `s_i` all wins, `1 - s_i` all losses,
//!   `2 min(s_i, 1 - s_i)` all draws).
//!
//! Every formula is checked against worked examples computed independently (see the tests).

use std::fmt;

/// Game counts from the first player's view.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Wdl {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points per game (0..=1); 0.5 before any game.
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / n as f64
    }

    /// Per-game variance of the score (trinomial).
    pub fn variance(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.0;
        }
        let s = self.score();
        (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n as f64
    }

    /// The Elo difference and its 95% interval.
    pub fn elo(&self) -> Elo {
        let n = self.games().max(1) as f64;
        Elo::of_score(self.score(), (self.variance() / n).sqrt())
    }

    /// Likelihood of superiority (0..=1); 0.5 without decisive games.
    pub fn los(&self) -> f64 {
        let decisive = (self.wins + self.losses) as f64;
        if decisive == 0.0 {
            return 0.5;
        }
        normal_cdf((self.wins as f64 - self.losses as f64) / decisive.sqrt())
    }
}

impl fmt::Display for Wdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "+{} ={} -{}", self.wins, self.draws, self.losses)
    }
}

/// Opening pairs by their points for the first player: `counts[k]` pairs scored `k / 2` points
/// (0, 1/2, 1, 3/2, 2), the pentanomial distribution.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    pub counts: [u32; 5],
}

impl Pentanomial {
    /// Counts one opening's pair from the first player's points in its two games (each 0, 1/2
    /// or 1).
    pub fn add_pair(&mut self, first: f64, second: f64) {
        let half_points = ((first + second) * 2.0).round().clamp(0.0, 4.0) as usize;
        self.counts[half_points] += 1;
    }

    /// Complete pairs.
    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// Points per game (0..=1); 0.5 before any pair.
    pub fn score(&self) -> f64 {
        let m = self.pairs();
        if m == 0 {
            return 0.5;
        }
        let points: f64 = (0..5).map(|k| self.counts[k] as f64 * k as f64 / 2.0).sum();
        points / 2.0 / m as f64
    }

    /// Per-pair variance of the pair's score per game (its points over 2): `τ² / 4`.
    pub fn variance(&self) -> f64 {
        let m = self.pairs();
        if m == 0 {
            return 0.0;
        }
        let s = self.score();
        (0..5)
            .map(|k| self.counts[k] as f64 * (k as f64 / 4.0 - s).powi(2))
            .sum::<f64>()
            / m as f64
    }

    /// The Elo difference and its 95% interval, from the pairs' variance.
    pub fn elo(&self) -> Elo {
        let m = self.pairs().max(1) as f64;
        Elo::of_score(self.score(), (self.variance() / m).sqrt())
    }
}

impl fmt::Display for Pentanomial {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = &self.counts;
        write!(f, "{} {} {} {} {}", c[0], c[1], c[2], c[3], c[4])
    }
}

/// An Elo difference with its 95% interval (infinite when the score is 0 or 1).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Elo {
    pub diff: f64,
    pub low: f64,
    pub high: f64,
}

impl Elo {
    /// The Elo difference of score `s` (points a game) and its 95% interval, from the score's
    /// standard error `se` through [`elo_of_score`].
    pub fn of_score(s: f64, se: f64) -> Elo {
        Elo {
            diff: elo_of_score(s),
            low: elo_of_score(s - 1.96 * se),
            high: elo_of_score(s + 1.96 * se),
        }
    }

    /// Half the width of the interval.
    pub fn margin(&self) -> f64 {
        (self.high - self.low) / 2.0
    }
}

fn signed(x: f64) -> String {
    // Rounded to a tenth first, so that -0.04 does not print as -0.0.
    let x = (x * 10.0).round() / 10.0 + 0.0;
    if x.is_infinite() {
        if x > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        format!("{x:+.1}")
    }
}

impl fmt::Display for Elo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let m = self.margin();
        let margin = if m.is_finite() {
            format!("{m:.1}")
        } else {
            "inf".to_string()
        };
        write!(
            f,
            "{} ± {margin} (95%: {} to {})",
            signed(self.diff),
            signed(self.low),
            signed(self.high)
        )
    }
}

/// The Elo difference of a score (logistic model); ±infinity at 1 and 0.
pub fn elo_of_score(s: f64) -> f64 {
    if s >= 1.0 {
        f64::INFINITY
    } else if s <= 0.0 {
        f64::NEG_INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// The expected score of an Elo difference (logistic model).
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The standard normal distribution function.
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * (1.0 + erf(x / std::f64::consts::SQRT_2))
}

/// The error function, by its Maclaurin series near 0 and a continued fraction for erfc further
/// out (relative error below 1e-13 everywhere; the tests compare with Python's `math.erf`).
pub fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    let a = x.abs();
    let r = if a < 2.5 {
        // erf(x) = 2/sqrt(pi) * sum_n (-1)^n x^(2n+1) / (n! (2n+1))
        let mut term = a;
        let mut sum = a;
        let x2 = a * a;
        let mut n = 0.0;
        while term.abs() > 1e-17 * sum.abs() {
            n += 1.0;
            term *= -x2 / n;
            sum += term / (2.0 * n + 1.0);
        }
        sum * std::f64::consts::FRAC_2_SQRT_PI
    } else {
        // erfc(x) = exp(-x²)/sqrt(pi) * 1/(x + 1/2/(x + 1/(x + 3/2/(x + 2/(x + ...)))))
        let mut f = a;
        for k in (1..60).rev() {
            f = a + (k as f64 / 2.0) / f;
        }
        1.0 - (-a * a).exp() / (std::f64::consts::PI.sqrt() * f)
    };
    if x < 0.0 { -r } else { r }
}

/// The settings of a sequential probability ratio test.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
}

/// What the test says so far.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SprtState {
    /// Not decided yet.
    Continue,
    /// H0 accepted: the difference is elo0 (or less).
    H0,
    /// H1 accepted: the difference is elo1 (or more).
    H1,
}

/// The largest Elo difference an SPRT may be asked about (beyond it the model's probabilities
/// are 0 and 1).
pub const MAX_SPRT_ELO: f64 = 1000.0;

impl Sprt {
    /// `elo0,elo1` with α = β = 0.05 (each within ±[`MAX_SPRT_ELO`], `elo0 < elo1`).
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let parts: Vec<&str> = text.split(',').map(str::trim).collect();
        let num = |s: &str| {
            s.parse::<f64>()
                .ok()
                .filter(|x| x.abs() <= MAX_SPRT_ELO)
                .ok_or_else(|| {
                    format!(
                        "--sprt {text}: '{s}' is not an Elo difference from -{MAX_SPRT_ELO} to \
                         {MAX_SPRT_ELO}"
                    )
                })
        };
        if parts.len() != 2 {
            return Err(format!(
                "'{text}': expected two Elo values, e.g. --sprt 0,10"
            ));
        }
        let (elo0, elo1) = (num(parts[0])?, num(parts[1])?);
        if elo0 >= elo1 {
            return Err(format!("--sprt {text}: elo0 must be below elo1"));
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
        })
    }

    /// The lower and upper bounds of the LLR.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 for these games, each a sample (the trinomial
    /// model).
    pub fn llr(&self, r: &Wdl) -> f64 {
        let only = if r.wins > 0 {
            1.0
        } else if r.losses > 0 {
            0.0
        } else {
            0.5
        };
        self.gsprt(r.games(), r.score(), r.variance(), only)
    }

    /// The log-likelihood ratio of H1 against H0 for these opening pairs, each a sample of two
    /// games (the pentanomial model): what `tiao match` decides on.
    pub fn llr_pairs(&self, p: &Pentanomial) -> f64 {
        let only = (0..5).find(|&k| p.counts[k] > 0).unwrap_or(0) as f64 / 4.0;
        self.gsprt(p.pairs(), p.score(), p.variance(), only)
    }

    /// The normal approximation of the GSPRT over `n` samples of mean score `s` (points a game)
    /// and variance `var`; when every sample scored the same, `only` (no variance), the exact
    /// GSPRT: the likeliest distribution with mean score `q` gives that value at most
    /// `(1 - q) / (1 - only)` when `q >= only` (the rest on the best result) and `q / only`
    /// otherwise (the rest on the worst).
    fn gsprt(&self, n: u32, s: f64, var: f64, only: f64) -> f64 {
        if n == 0 {
            return 0.0;
        }
        let n = n as f64;
        let (s0, s1) = (score_of_elo(self.elo0), score_of_elo(self.elo1));
        if var <= 0.0 {
            let best = |q: f64| {
                if q >= only {
                    (1.0 - q) / (1.0 - only)
                } else {
                    q / only
                }
            };
            return n * (best(s1) / best(s0)).ln();
        }
        n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    }

    /// The test's state at this log-likelihood ratio.
    pub fn decide(&self, llr: f64) -> SprtState {
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtState::H1
        } else if llr <= lo {
            SprtState::H0
        } else {
            SprtState::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wdl(wins: u32, draws: u32, losses: u32) -> Wdl {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    fn close(a: f64, b: f64, eps: f64) {
        assert!((a - b).abs() <= eps, "{a} != {b}");
    }

    // The expected values below were computed independently with Python 3 (math.log10,
    // math.erf), from the formulas in the module documentation.

    #[test]
    fn elo_and_interval() {
        // +30 =50 -20: s = 0.55, σ² = (30·0.45² + 50·0.05² + 20·0.55²)/100 = 0.1225,
        // se = 0.035; E(0.55) = 400·log10(0.55/0.45) = 34.860;
        // E(0.55 - 1.96·0.035 = 0.4814) = -12.931, E(0.6186) = 84.012.
        let r = wdl(30, 50, 20);
        close(r.score(), 0.55, 1e-12);
        close(r.variance(), 0.1225, 1e-12);
        let e = r.elo();
        close(e.diff, 34.860_070_287_56, 1e-6);
        close(e.low, -12.930_570_597_73, 1e-6);
        close(e.high, 84.011_690_782_87, 1e-6);
        // +75 =0 -25: E = 190.849, interval 119.212 to 281.518.
        let e = wdl(75, 0, 25).elo();
        close(e.diff, 190.848_501_887_87, 1e-6);
        close(e.low, 119.211_735_979_05, 1e-6);
        close(e.high, 281.517_766_745_13, 1e-6);
        // +10 =80 -10: even, ±30.532.
        let e = wdl(10, 80, 10).elo();
        close(e.diff, 0.0, 1e-9);
        close(e.margin(), 30.532_428_255_16, 1e-6);
        // +120 =260 -100: E = 14.485, -6.527 to 35.603.
        let e = wdl(120, 260, 100).elo();
        close(e.diff, 14.484_869_061_78, 1e-6);
        close(e.low, -6.527_045_685_83, 1e-6);
        close(e.high, 35.603_346_403_23, 1e-6);
        // All wins: infinite.
        assert!(wdl(3, 0, 0).elo().diff.is_infinite());
    }

    /// Pairs of game scores in game order (games 2i and 2i+1), a last game alone left out.
    fn from_game_scores(scores: &[f64]) -> Pentanomial {
        let mut p = Pentanomial::default();
        for pair in scores.chunks_exact(2) {
            p.add_pair(pair[0], pair[1]);
        }
        p
    }

    #[test]
    fn pentanomial_pairs_and_interval() {
        // Pairs 2 5 30 8 5 (50 pairs): points a pair 54.5/50 = 1.09, s = 0.545;
        // τ² = (2·1.09² + 5·0.59² + 30·0.09² + 8·0.41² + 5·0.91²)/50 = 0.1969,
        // se = sqrt(0.1969/4/50) = 0.031377; E(0.545) = 31.354, interval -11.468 to 75.153.
        let p = Pentanomial {
            counts: [2, 5, 30, 8, 5],
        };
        assert_eq!(p.pairs(), 50);
        close(p.score(), 0.545, 1e-12);
        let e = p.elo();
        close(e.diff, 31.354_042_247_81, 1e-6);
        close(e.low, -11.468_437_265_68, 1e-6);
        close(e.high, 75.153_274_592_60, 1e-6);
        assert_eq!(p.to_string(), "2 5 30 8 5");

        // Games pair in order (1 and 2, 3 and 4, ...); a last game alone is left out.
        let p = from_game_scores(&[1.0, 0.0, 0.5, 0.5, 1.0, 0.5, 0.0, 0.0, 1.0]);
        assert_eq!(p.counts, [1, 0, 2, 1, 0]);
        assert_eq!(from_game_scores(&[]).pairs(), 0);
        close(Pentanomial::default().score(), 0.5, 0.0);

        // Each opening won by the side that has White: the games disagree, the pairs all
        // score 1, so the pairs say "even" with no spread while the games alone cannot.
        let p = from_game_scores(&[1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0]);
        assert_eq!(p.counts, [0, 0, 4, 0, 0]);
        assert_eq!(p.elo().margin(), 0.0);
        assert!(wdl(4, 0, 4).elo().margin() > 100.0);
    }

    #[test]
    fn sprt_on_opening_pairs() {
        // Pairs 2 5 30 8 5 for [0, 10]: s = 0.545, τ²/4 = 0.049225,
        // LLR = 50·0.014387·(1.09 - 1.014387)/(2·0.049225) = 0.55249; [0, 20]: 0.89434.
        // Mirrored: below zero; 200 pairs leaning to A: past the bound.
        // No pair: 0. No variance, every pair the same x: n ln(q1/q0) with q = (1 - s)/(1 - x)
        // or s/x: four even pairs 4 ln(0.971226) = -0.11679 (evidence for H0), three pairs of
        // 3/2 points 3 ln((0.514387/0.75)/(0.5/0.75)) = 0.08510, six lost pairs -0.17518, five
        // of 1/2 point -0.14598, eight won pairs for [0, 200] 8 ln(0.759747/0.5) = 3.34702
        // (H1), seven 2.92864 (not yet); even pairs for [-10, 10] nothing.
        let t = Sprt::parse("0,10").unwrap();
        let t20 = Sprt::parse("0,20").unwrap();
        let t200 = Sprt::parse("0,200").unwrap();
        for (test, counts, want) in [
            (t, [2, 5, 30, 8, 5], 0.552_491_369_585_33),
            (t20, [2, 5, 30, 8, 5], 0.894_340_185_972_96),
            (t, [5, 30, 8, 5, 2], -2.132_032_051_021_46),
            (t, [0, 10, 150, 30, 10], 5.474_343_770_548_93),
            (t, [0, 0, 4, 0, 0], -0.116_785_869_098_98),
            (t, [0, 0, 0, 3, 0], 0.085_104_480_150_32),
            (t, [6, 0, 0, 0, 0], -0.175_178_803_648_47),
            (t, [0, 5, 0, 0, 0], -0.145_982_336_373_72),
            (t200, [0, 0, 0, 0, 8], 3.347_018_305_212_8),
            (t200, [0, 0, 0, 0, 7], 2.928_641_017_061_2),
        ] {
            close(test.llr_pairs(&Pentanomial { counts }), want, 1e-9);
        }
        close(t.llr_pairs(&Pentanomial::default()), 0.0, 0.0);
        assert_eq!(t.decide(5.47), SprtState::H1);
        assert_eq!(t.decide(-2.95), SprtState::H0);
        assert_eq!(t.decide(2.9), SprtState::Continue);
        let sym = Sprt::parse("-10,10").unwrap();
        close(
            sym.llr_pairs(&Pentanomial {
                counts: [0, 0, 7, 0, 0],
            }),
            0.0,
            1e-12,
        );
    }

    #[test]
    fn los() {
        // Φ((30 - 20)/sqrt(50)) = 0.921350, Φ(20/sqrt(220)) = 0.911235, Φ(50/10) = 0.99999971.
        close(wdl(30, 50, 20).los(), 0.921_350_396_474_86, 1e-9);
        close(wdl(120, 260, 100).los(), 0.911_235_073_793_92, 1e-9);
        close(wdl(75, 0, 25).los(), 0.999_999_713_348_43, 1e-12);
        close(wdl(0, 10, 0).los(), 0.5, 0.0);
        close(wdl(0, 0, 4).los(), 1.0 - 0.977_249_868_051_82, 1e-9);
    }

    #[test]
    fn erf_matches_python() {
        for (x, want) in [
            (0.0, 0.0),
            (0.1, 0.112_462_916_018_284_9),
            (0.5, 0.520_499_877_813_046_5),
            (1.0, 0.842_700_792_949_714_9),
            (2.0, 0.995_322_265_018_952_7),
            (2.6, 0.999_763_965_583_470_3),
            (3.5, 0.999_999_256_901_627_7),
            (-1.3, -0.934_007_944_940_652_4),
        ] {
            close(erf(x), want, 1e-13);
        }
    }

    #[test]
    fn sprt_llr_and_decisions() {
        let t = Sprt::parse("0,10").unwrap();
        let (lo, hi) = t.bounds();
        close(lo, -2.944_438_979_166_44, 1e-12);
        close(hi, 2.944_438_979_166_44, 1e-12);
        // +30 =50 -20 for [0, 10]: s0 = 0.5, s1 = 1/(1+10^(-1/40)) = 0.514387;
        // LLR = 100·0.014387·(1.1 - 1.014387)/(2·0.1225) = 0.50275.
        // (The exact trinomial GSPRT, maximum likelihood under each hypothesis, gives 0.49404.)
        close(t.llr(&wdl(30, 50, 20)), 0.502_745_856_478_98, 1e-9);
        assert_eq!(t.decide(t.llr(&wdl(30, 50, 20))), SprtState::Continue);
        // +20 =50 -40: LLR -1.21200 (exact -1.13407).
        close(t.llr(&wdl(20, 50, 40)), -1.212_001_187_090_64, 1e-9);
        // +60 =100 -40 for [0, 20]: 1.67221 (exact 1.64704).
        let t20 = Sprt::parse("0, 20").unwrap();
        close(t20.llr(&wdl(60, 100, 40)), 1.672_213_440_900_77, 1e-9);
        // +120 =260 -100 for [0, 5]: 0.52148 (exact 0.51986).
        let t5 = Sprt::parse("0,5").unwrap();
        close(t5.llr(&wdl(120, 260, 100)), 0.521_476_750_198_54, 1e-9);
        // Far enough: H1 and H0.
        assert_eq!(t.decide(t.llr(&wdl(300, 400, 200))), SprtState::H1);
        assert_eq!(t.decide(t.llr(&wdl(200, 400, 300))), SprtState::H0);
        // No games: 0. No variance: the exact values, 10 ln(0.514387/0.5) = 0.28368,
        // 5 ln(0.485613/0.5) = -0.14598, 7 ln(0.485613/0.5) = -0.20438 (all draws), and for
        // [0, 200] 8 wins give 8 ln(0.759747/0.5) = 3.34702 > 2.944: H1.
        close(t.llr(&wdl(0, 0, 0)), 0.0, 0.0);
        close(t.llr(&wdl(10, 0, 0)), 0.283_681_600_501_07, 1e-9);
        close(t.llr(&wdl(0, 0, 5)), -0.145_982_336_373_72, 1e-9);
        close(t.llr(&wdl(0, 7, 0)), -0.204_375_270_923_21, 1e-9);
        let t200 = Sprt::parse("0,200").unwrap();
        close(t200.llr(&wdl(8, 0, 0)), 3.347_018_305_212_8, 1e-9);
        assert_eq!(t200.decide(t200.llr(&wdl(7, 0, 0))), SprtState::Continue);
        assert_eq!(t200.decide(t200.llr(&wdl(8, 0, 0))), SprtState::H1);
        assert!(Sprt::parse("10,0").is_err());
        assert!(Sprt::parse("5").is_err());
        assert!(Sprt::parse("a,b").is_err());
        assert!(
            Sprt::parse("0,1e300")
                .unwrap_err()
                .contains("--sprt 0,1e300")
        );
        assert!(Sprt::parse("-1000,1000").is_ok());
    }
}
