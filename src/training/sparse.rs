//! The sparse trainer of the pattern weights (`tiao tune --data`): logistic regression of game
//! results (blended with the self-play search's score) on the hand-made evaluation plus the
//! patterns of [`patterns`], fitted by Adam over mini-batches, several threads at once.
//!
//! Model: for a position with hand-made score `h` and divisor `d` ([`hand_part`]), opening
//! share `f` (its [`phase`] over the start's pieces) and configurations `c_w` of its windows,
//! the evaluation from White's view is `e = (h + sum_w s_w (f a[p_w] + (1 - f) b[p_w])) / d`,
//! over the windows `w` of every layer (men, kings, mixed: [`patterns::LAYERS`]),
//! where `p_w` is the parameter of window `w`'s configuration and `s_w` its sign (the colour
//! symmetry ties a configuration to its turned, colour-swapped image: one parameter, opposite
//! signs; a configuration that is its own image has none). The prediction is `sigmoid(k e)`
//! with `k` fitted once to the results on `h` alone; the target is `lambda * result + (1 -
//! lambda) * sigmoid(k * search score)` (result 1, 0.5, 0 for White), the loss the cross-entropy
//! plus, per sample, a ridge term `decay / 2 * (f a[p_w]^2 + (1 - f) b[p_w]^2)` over the weights
//! it uses (frequent and rare configurations are held back alike, relative to their evidence).
//!
//! Determinism: the split into fitting and validation is by game (every `n`-th game of the
//! data is held out), the batches follow a permutation drawn from the seed, and the gradients
//! of a batch are summed in a fixed order, so a run is repeatable on any number of threads.
//!
//! Memory: a sample is its configurations (2 bytes a window of a layer), the hand score and
//! divisor, the phase and the targets: 188 bytes, so tens of millions fit in a few GiB (20
//! million in 3.8 GB).

use super::data::{DECISIVE, Record};
use crate::draughts::board::Geometry;
use crate::draughts::eval::hand_part;
use crate::draughts::eval::patterns::{
    self, BoardWindows, CONFIGS, LAYERS, MAX_WINDOWS, PHASES, PatternWeights, UNITS, phase,
    start_pieces, turned_config,
};
use crate::draughts::position::Position;
use crate::draughts::rules::Rules;
use crate::game::color::Color;
use crate::game::rng::Rng;
use rayon::prelude::*;

/// One training position, ready for the model.
#[derive(Copy, Clone, Debug)]
pub struct Sample {
    /// Window configurations: `configs[layer * windows + window]`.
    pub configs: [u16; LAYERS * MAX_WINDOWS],
    /// Hand-made score, White's view, centi-men.
    pub hand: f32,
    /// 1 / the evaluation's divisor.
    pub inv_div: f32,
    /// Opening share of the weights, 0..=1.
    pub open: f32,
    /// The game's result for White: 1, 0.5, 0.
    pub result: f32,
    /// The search's score for White, centi-men (`None`-like NaN for a proven result).
    pub score: f32,
}

/// Settings of a training run.
#[derive(Copy, Clone, Debug)]
pub struct TrainSettings {
    /// Weight of the result in the target (the rest is the search score's).
    pub lambda: f32,
    /// Passes over the fitting set.
    pub epochs: usize,
    /// Samples per step.
    pub batch: usize,
    /// Adam's step size at the start, centi-men (it decays linearly to a tenth).
    pub lr: f32,
    /// L2 regularisation per sample: each sample adds `decay * weight` (times its phase share)
    /// to the gradient of each weight it uses, as a ridge term of its own loss.
    pub decay: f32,
    /// Seed of the batch order.
    pub seed: u64,
    /// Every `holdout`-th game is held out for validation (0: none).
    pub holdout: usize,
}

impl Default for TrainSettings {
    fn default() -> Self {
        TrainSettings {
            lambda: 0.1,
            epochs: 12,
            batch: 8192,
            lr: 1.0,
            decay: 0.0,
            seed: 1,
            holdout: 20,
        }
    }
}

/// The samples of a data set, split by game.
pub struct Prepared {
    /// Samples to fit.
    pub train: Vec<Sample>,
    /// Held-out samples.
    pub valid: Vec<Sample>,
    /// Games found (a new game starts where the ply does not grow).
    pub games: usize,
    /// Records left out (a side without pieces).
    pub skipped: usize,
}

/// Turns records of `R` into samples (in parallel), holding out every `holdout`-th game.
pub fn prepare<R: Rules>(records: &[Record], holdout: usize) -> Prepared {
    let win = &<R::Board as BoardWindows>::WINDOWS;
    // Game numbers: a game starts where the ply does not grow.
    let mut game = Vec::with_capacity(records.len());
    let mut g = 0usize;
    for (i, r) in records.iter().enumerate() {
        if i > 0 && r.ply <= records[i - 1].ply {
            g += 1;
        }
        game.push(g);
    }
    let total = start_pieces::<R::Board>() as f32;
    let samples: Vec<Option<(bool, Sample)>> = records
        .par_iter()
        .zip(game.par_iter())
        .map(|(r, &g)| {
            let pos = Position::<R>::from_parts(r.white, r.black, r.kings, r.side).ok()?;
            let (hand, div) = hand_part(&pos)?;
            let mut configs = [0u16; LAYERS * MAX_WINDOWS];
            let pieces = patterns::layer_pieces(r.white, r.black, r.kings);
            for (layer, &(white, black)) in pieces.iter().enumerate() {
                for w in 0..win.count {
                    configs[layer * win.count + w] =
                        patterns::config(white, black, win.masks[w]) as u16;
                }
            }
            let white_score = if r.side == Color::White {
                r.score
            } else {
                -r.score
            };
            let sample = Sample {
                configs,
                hand: hand as f32,
                inv_div: 1.0 / div as f32,
                open: phase::<R::Board>((r.white | r.black).count_ones()) as f32 / total,
                result: (r.result as f32 + 1.0) / 2.0,
                score: if white_score.abs() >= DECISIVE {
                    f32::NAN
                } else {
                    white_score as f32
                },
            };
            Some((holdout > 0 && g % holdout == holdout - 1, sample))
        })
        .collect();
    let mut out = Prepared {
        train: Vec::new(),
        valid: Vec::new(),
        games: if records.is_empty() { 0 } else { g + 1 },
        skipped: 0,
    };
    for s in samples {
        match s {
            Some((true, s)) => out.valid.push(s),
            Some((false, s)) => out.train.push(s),
            None => out.skipped += 1,
        }
    }
    out
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Cross-entropy of prediction `p` for target `t`.
fn cross_entropy(p: f32, t: f32) -> f32 {
    let p = p.clamp(1e-6, 1.0 - 1e-6);
    -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
}

/// The `k` (per centi-man) for which `sigmoid(k * hand / div)` best predicts the results.
pub fn fit_scale(samples: &[Sample]) -> f32 {
    let loss = |k: f32| -> f64 {
        samples
            .par_iter()
            .map(|s| cross_entropy(sigmoid(k * s.hand * s.inv_div), s.result) as f64)
            .sum::<f64>()
    };
    // Golden-section search on a log scale.
    let (mut a, mut b) = ((1e-4f32).ln(), (0.1f32).ln());
    let g = 0.618_034f32;
    for _ in 0..40 {
        let c = b - g * (b - a);
        let d = a + g * (b - a);
        if loss(c.exp()) < loss(d.exp()) {
            b = d;
        } else {
            a = c;
        }
    }
    ((a + b) / 2.0).exp()
}

/// The parameter of every (layer, window, configuration): `(index, sign)`, sign 0 for a
/// configuration that is its own turned image (its weight is zero). A layer's windows pair
/// with the same layer's.
pub struct Tying {
    /// `slot[(layer * windows + w) * CONFIGS + c]`.
    pub slot: Vec<(u32, i8)>,
    /// Windows of the board, in every layer: `LAYERS` times the board's.
    pub windows: usize,
}

impl Tying {
    /// The tying of `G`'s windows.
    pub fn new<G: Geometry>() -> Tying {
        let win = &<G as BoardWindows>::WINDOWS;
        let mut slot = Vec::with_capacity(LAYERS * win.count * CONFIGS);
        for lw in 0..LAYERS * win.count {
            let (layer, w) = (lw / win.count, lw % win.count);
            for c in 0..CONFIGS {
                let a = lw * CONFIGS + c;
                let b = (layer * win.count + win.partner(w)) * CONFIGS + turned_config(c);
                slot.push(match a.cmp(&b) {
                    std::cmp::Ordering::Equal => (0, 0),
                    std::cmp::Ordering::Less => (a as u32, 1),
                    std::cmp::Ordering::Greater => (b as u32, -1),
                });
            }
        }
        Tying {
            slot,
            windows: LAYERS * win.count,
        }
    }
}

/// The model's parameters: `theta[p * PHASES + phase]`, centi-men.
pub struct Model {
    /// Parameters.
    pub theta: Vec<f32>,
    /// The scale of the sigmoid, per centi-man.
    pub k: f32,
    tying: Tying,
}

impl Model {
    /// A zero model for `G`'s windows with sigmoid scale `k`.
    pub fn new<G: Geometry>(k: f32) -> Model {
        let tying = Tying::new::<G>();
        Model {
            theta: vec![0.0; tying.windows * CONFIGS * PHASES],
            k,
            tying,
        }
    }

    /// The evaluation of a sample from White's view, centi-men.
    #[inline]
    pub fn eval(&self, s: &Sample) -> f32 {
        let mut sum = 0.0;
        for w in 0..self.tying.windows {
            let (p, sign) = self.tying.slot[w * CONFIGS + s.configs[w] as usize];
            if sign != 0 {
                let i = p as usize * PHASES;
                let v = s.open * self.theta[i] + (1.0 - s.open) * self.theta[i + 1];
                sum += sign as f32 * v;
            }
        }
        (s.hand + sum) * s.inv_div
    }

    /// The training target of a sample.
    #[inline]
    pub fn target(&self, s: &Sample, lambda: f32) -> f32 {
        if s.score.is_nan() {
            s.result
        } else {
            lambda * s.result + (1.0 - lambda) * sigmoid(self.k * s.score)
        }
    }

    /// Mean loss over `samples` (against the results alone when `lambda` is 1).
    pub fn loss(&self, samples: &[Sample], lambda: f32) -> f64 {
        if samples.is_empty() {
            return 0.0;
        }
        samples
            .par_iter()
            .map(|s| cross_entropy(sigmoid(self.k * self.eval(s)), self.target(s, lambda)) as f64)
            .sum::<f64>()
            / samples.len() as f64
    }

    /// Adds the loss gradient of `s` to `grad`.
    #[inline]
    fn accumulate(&self, s: &Sample, lambda: f32, decay: f32, grad: &mut [f32]) {
        let e = self.eval(s);
        let d = self.k * (sigmoid(self.k * e) - self.target(s, lambda)) * s.inv_div;
        for w in 0..self.tying.windows {
            let (p, sign) = self.tying.slot[w * CONFIGS + s.configs[w] as usize];
            if sign != 0 {
                let g = d * sign as f32;
                let i = p as usize * PHASES;
                grad[i] += (g + decay * self.theta[i]) * s.open;
                grad[i + 1] += (g + decay * self.theta[i + 1]) * (1.0 - s.open);
            }
        }
    }

    /// The weight table for the engine: every (window, configuration) with its sign, rounded to
    /// 1/UNITS centi-men.
    pub fn weights(&self, family: &str) -> PatternWeights {
        let mut out = PatternWeights::zero(family, self.tying.windows / LAYERS);
        for (j, &(p, sign)) in self.tying.slot.iter().enumerate() {
            for ph in 0..PHASES {
                let v = sign as f32 * self.theta[p as usize * PHASES + ph] * UNITS as f32;
                out.table[j * PHASES + ph] =
                    v.round().clamp(i16::MIN as f32, i16::MAX as f32) as i16;
            }
        }
        out
    }
}

/// Per-epoch figures.
#[derive(Copy, Clone, Debug)]
pub struct EpochReport {
    /// 1-based epoch.
    pub epoch: usize,
    /// Mean loss on the fitting set (the blended target).
    pub train: f64,
    /// Mean loss on the held-out set against the results alone.
    pub valid: f64,
}

/// Fits `model` to `train` with Adam; calls `on_epoch` after each epoch and `on_step` after
/// each batch (for a progress bar).
pub fn train(
    model: &mut Model,
    train: &[Sample],
    valid: &[Sample],
    s: &TrainSettings,
    mut on_step: impl FnMut(usize),
    mut on_epoch: impl FnMut(&EpochReport),
) {
    let n = model.theta.len();
    let (mut m, mut v) = (vec![0f32; n], vec![0f32; n]);
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let mut rng = Rng::new(s.seed);
    let batch = s.batch.max(1);
    let steps_per_epoch = train.len().div_ceil(batch);
    let total_steps = (steps_per_epoch * s.epochs).max(1);
    let parts = rayon::current_num_threads().max(1);
    let mut t = 0usize;
    for epoch in 1..=s.epochs {
        // Fisher-Yates with the run's generator.
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        for ids in order.chunks(batch) {
            // Gradients of equal slices of the batch, summed in slice order: deterministic.
            let per = ids.len().div_ceil(parts);
            let grads: Vec<Vec<f32>> = ids
                .par_chunks(per.max(1))
                .map(|slice| {
                    let mut g = vec![0f32; n];
                    for &i in slice {
                        model.accumulate(&train[i as usize], s.lambda, s.decay, &mut g);
                    }
                    g
                })
                .collect();
            let scale = 1.0 / ids.len() as f32;
            t += 1;
            let lr = s.lr * (1.0 - 0.9 * (t as f32 / total_steps as f32));
            let (c1, c2) = (1.0 - b1.powi(t as i32), 1.0 - b2.powi(t as i32));
            let theta = &mut model.theta;
            theta
                .par_iter_mut()
                .zip(m.par_iter_mut())
                .zip(v.par_iter_mut())
                .enumerate()
                .for_each(|(j, ((th, mj), vj))| {
                    // Lazy Adam: a weight moves only in the steps whose batch sees it, so rare
                    // configurations stay near zero instead of drifting on stale moments.
                    let g: f32 = grads.iter().map(|gr| gr[j]).sum::<f32>() * scale;
                    if g != 0.0 {
                        *mj = b1 * *mj + (1.0 - b1) * g;
                        *vj = b2 * *vj + (1.0 - b2) * g * g;
                        *th -= lr * (*mj / c1) / ((*vj / c2).sqrt() + eps);
                    }
                });
            on_step(ids.len());
        }
        on_epoch(&EpochReport {
            epoch,
            train: model.loss(train, s.lambda),
            valid: model.loss(valid, 1.0),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::board::Board8;
    use crate::draughts::rules::English;
    use crate::search::tt::Tt;
    use crate::training::selfplay::{Settings, play_game};

    #[test]
    fn a_sample_is_the_size_the_docs_give() {
        // The memory figure of the module doc and docs/eval.md.
        assert_eq!(std::mem::size_of::<Sample>(), 188);
    }

    #[test]
    fn tying_makes_a_position_and_its_mirror_opposite() {
        let t = Tying::new::<Board8>();
        let win = &<Board8 as BoardWindows>::WINDOWS;
        assert_eq!(t.windows, LAYERS * win.count);
        for layer in 0..LAYERS {
            let base = layer * win.count;
            for w in 0..win.count {
                for c in [0usize, 1, 5, 77, 3000, 6560] {
                    let (p, s) = t.slot[(base + w) * CONFIGS + c];
                    let (q, r) = t.slot[(base + win.partner(w)) * CONFIGS + turned_config(c)];
                    assert_eq!(p, q);
                    assert_eq!(s, -r);
                    // A layer's parameters are its own.
                    if s != 0 {
                        assert_eq!(p as usize / (win.count * CONFIGS), layer);
                    }
                }
            }
        }
    }

    #[test]
    fn a_small_selfplay_set_trains_and_its_loss_falls() {
        let tt = Tt::new(1);
        let settings = Settings {
            nodes: 400,
            opening_plies: 6,
            max_plies: 200,
            seed: 3,
        };
        let records: Vec<Record> = (0..24)
            .flat_map(|g| play_game::<English>(&settings, g, &tt).records)
            .collect();
        let prepared = prepare::<English>(&records, 6);
        assert!(prepared.games >= 20, "{} games", prepared.games);
        assert!(!prepared.valid.is_empty());
        let k = fit_scale(&prepared.train);
        assert!(k > 1e-4 && k < 0.1, "k {k}");
        let mut model = Model::new::<Board8>(k);
        let before = model.loss(&prepared.train, 0.7);
        let s = TrainSettings {
            epochs: 4,
            batch: 256,
            lr: 2.0,
            ..TrainSettings::default()
        };
        let mut reports = Vec::new();
        train(
            &mut model,
            &prepared.train,
            &prepared.valid,
            &s,
            |_| {},
            |r| reports.push(*r),
        );
        assert_eq!(reports.len(), 4);
        assert!(reports[3].train < before, "{reports:?} from {before}");
        // The engine's table reads back and scores like the model.
        let w = model.weights("english");
        let back = PatternWeights::parse(&w.to_bytes(), "english", 15).unwrap();
        let sample = &prepared.train[0];
        let r = &records[0];
        let engine = patterns::EnginePatterns::new::<Board8>(&back);
        let table = engine.score::<Board8>(r.white, r.black, r.kings) as f32 / UNITS as f32;
        let model_patterns = model.eval(sample) / sample.inv_div - sample.hand;
        assert!(
            (table - model_patterns).abs() < 1.0,
            "{table} vs {model_patterns}"
        );
    }
}
