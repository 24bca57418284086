//! The sparse trainer of the pattern weights (`tiao tune --data`): logistic regression of game
//! results (blended with the self-play search's score) on the hand-made evaluation plus the
//! patterns of [`patterns`], fitted by Adam over mini-batches, on every core.
//!
//! Model: for a position with hand-made score `h` and divisor `d` ([`hand_part`]), opening
//! share `f` (its [`phase`] over the start's pieces) and configurations `c_w` of its windows,
//! the evaluation from White's view is `e = (h + sum_w s_w (f a[p_w] + (1 - f) b[p_w])) / d`,
//! over the windows `w` of every layer (men, kings, mixed: [`patterns::LAYERS`]; each layer's
//! windows of its own [`Shape`](patterns::Shape), 4x4 unless the fit asks for another),
//! where `p_w` is the parameter of window `w`'s configuration and `s_w` its sign (the colour
//! symmetry ties a configuration to its turned, colour-swapped image: one parameter, opposite
//! signs; a configuration that is its own image has none). The prediction is `sigmoid(k e)`
//! with `k` fitted once to the results on `h` alone; the target is `lambda * result + (1 -
//! lambda) * sigmoid(k * search score)` (result 1, 0.5, 0 for White; `lambda` may be set apart
//! for the positions where both sides have a king, [`Lambda`], where the teacher's score says
//! least about the result), the loss the cross-entropy
//! plus, per sample, a ridge term `decay / 2 * (f a[p_w]^2 + (1 - f) b[p_w]^2)` over the weights
//! it uses (frequent and rare configurations are held back alike, relative to their evidence).
//!
//! **Material table** (`tiao tune --material`, off by default). The fit may add one more term
//! inside the sum: `s_m t[p_m]`, the weight of the position's material signature (each side's
//! men and kings, [`patterns::material_of`]; one value for both phases, the material fixing the
//! phase). The colour symmetry ties a signature to its colour-swapped image as it ties a
//! window's configurations ([`material_param`]: one parameter, opposite signs; equal material
//! has none). Its parameters are one more block of the gradient pass, stepped by the same lazy
//! Adam, under the same ridge term (`decay / 2 * t[p_m]^2`); the weights it writes hold the
//! table, and their file is of format version 5 ([`patterns::VERSION`]). Without it the model,
//! the fit and the file are those of the trainer before the table, bit for bit. A warm start
//! from a file of version 1 to 4 starts the table at zero.
//!
//! **Memory.** A position is kept as a [`Sample`] of [`SAMPLE_BYTES`] (32) bytes: its three
//! bitboards, the hand-made score and divisor (computed once, when the data is read: they are
//! the costly part of the features), the search score and the result. The window
//! configurations, the phase and the targets ([`Features`], 364 bytes) are computed again from
//! the bitboards each time the sample's batch is processed, in parallel, and never kept. With its
//! place in the batch order (a `u32`) a position to fit costs [`BYTES_PER_POSITION`] (36) bytes,
//! a held-out one 32; beside them, the parameters, Adam's two moments and the tying table (4.4
//! MB each on 10x10 with 4x4 windows; 14 MB with a 4x5 men's layer, 88 MB with 4x6), the
//! blocks' gradients and the pass buffers: about 25 MiB in all with 4x4 windows (a material
//! table adds 28 KB to each of the parameters, the moments and its block's gradient on 10x10,
//! 7056 entries of which the tied half are parameters). Measured
//! (`/usr/bin/time -v`, international): 35.9 bytes a position, so 100 million positions in 3.4
//! GiB; the shapes change the fixed part, not the part a position costs. The data files are read one chunk at a time ([`data::read_chunks`]), never whole, and
//! not memory-mapped: the kernel would count their pages in the resident set as they are
//! touched, 30 bytes a position more, for records that are read once.
//!
//! Invariant: a kept sample is a valid position of the rules it was read for, both sides with
//! pieces ([`Sample::of`] leaves the others out, counted as skipped).
//!
//! **Determinism.** The split into fitting and validation is by game (every `n`-th game of the
//! data is held out), the batches follow a permutation drawn from the seed, and every sum is
//! taken in an order fixed by the data alone, never by the threads, so a run gives the same
//! weights, bit for bit, on any number of threads:
//! - a batch is processed in two passes. The *feature pass* computes, in parallel over slices of
//!   [`CHUNK`] samples, each sample's configurations and the derivative of its loss with the
//!   current weights (each sample's figures depend on that sample alone). The *gradient pass*
//!   runs in parallel over the parameter blocks (a layer's window with its turned partner: the
//!   windows never share a parameter across blocks; and the material table's, when it is
//!   fitted), each block walking the samples in batch order and, for a sample, its windows in
//!   order. So each parameter's gradient is summed in
//!   the sample order, as one thread would sum it, and the block then takes its Adam step;
//! - lazy Adam: a weight moves only in the steps whose batch gives it a non-zero gradient, so a
//!   configuration seen a few times stays near zero instead of drifting on stale moments. A
//!   block keeps the list of the parameters its batch touched: a step costs the batch's
//!   features, not the 1.1 million parameters;
//! - the losses (the scale's fit, the epoch's fit loss, the held-out losses) are sums of
//!   [`SUM_CHUNK`]-sample partial sums added in order.
//!
//! The fit loss of an epoch is the mean loss of its samples at the moment their batch was
//! processed (taken from the feature pass, which computes it anyway), not a pass of its own.

use super::data::{self, DECISIVE, DataError, Record};
use crate::draughts::board::Geometry;
use crate::draughts::eval::hand_part;
use crate::draughts::eval::patterns::{
    self, LAYERS, MAX_WINDOWS, PHASES, PatternWeights, Shapes, UNITS, material_len,
    material_turned, phase, start_pieces, turned_config, windows_of,
};
use crate::draughts::eval::weights::Family;
use crate::draughts::position::Position;
use crate::draughts::rules::Rules;
use crate::game::Variant;
use crate::game::color::Color;
use crate::game::rng::Rng;
use rayon::prelude::*;
use std::fmt;
use std::marker::PhantomData;

/// Bytes of a kept position ([`Sample`]).
pub const SAMPLE_BYTES: usize = 32;
/// Bytes of a position's entry in the batch order (an index into the positions to fit).
pub const ORDER_BYTES: usize = std::mem::size_of::<u32>();
/// Resident bytes a position to fit costs while training: its sample and its place in the order.
pub const BYTES_PER_POSITION: usize = SAMPLE_BYTES + ORDER_BYTES;
/// Samples of one task of the feature pass.
pub const CHUNK: usize = 256;
/// Samples whose features are held at once (a batch larger than this is processed in several
/// feature and gradient passes, summed in the same order): bounds the pass buffers (5.5 MB on
/// 10x10) whatever `--batch`.
pub const PASS: usize = 64 * CHUNK;
/// Samples of one partial sum of a loss.
pub const SUM_CHUNK: usize = 4096;
/// Records turned into samples at once while reading (in parallel).
pub const READ_BATCH: usize = 1 << 16;
/// Adam's decay of the first moment.
const BETA1: f32 = 0.9;
/// Adam's decay of the second moment.
const BETA2: f32 = 0.999;
/// Adam's guard against a zero second moment.
const EPSILON: f32 = 1e-8;
/// The learning rate falls linearly by this share of `--lr` over the run (to a tenth).
const LR_FALL: f32 = 0.9;

/// One training position as it is kept: its pieces and what the features cannot give cheaply.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// White's pieces (bitboard, the board's bit layout).
    pub white: u64,
    /// Black's pieces.
    pub black: u64,
    /// The kings of both sides.
    pub kings: u64,
    /// Hand-made score, White's view, centi-men ([`hand_part`]).
    pub hand: i32,
    /// The search's score for White, centi-men; `±DECISIVE` a proven result.
    pub score: i16,
    /// The game's result for White: 1, 0, -1.
    pub result: i8,
    /// The evaluation's divisor ([`hand_part`]).
    pub div: u8,
}

const _: () = assert!(std::mem::size_of::<Sample>() == SAMPLE_BYTES);

// Every family's drawish divisor fits the sample's byte.
const _: () = {
    let mut i = 0;
    while i < Family::ALL.len() {
        let d = Family::ALL[i].hand_made().1.drawish_divisor;
        assert!(d <= u8::MAX as i32);
        i += 1;
    }
};

impl Sample {
    /// The sample of record `r`; `None` when it is no position of `R` or a side has no piece.
    pub fn of<R: Rules>(r: &Record) -> Option<Sample> {
        let pos = Position::<R>::from_parts(r.white, r.black, r.kings, r.side).ok()?;
        let (hand, div) = hand_part(&pos)?;
        Some(Sample {
            white: r.white,
            black: r.black,
            kings: r.kings,
            hand,
            score: if r.side == Color::White {
                r.score
            } else {
                -r.score
            },
            result: r.result,
            div: u8::try_from(div.max(1)).ok()?,
        })
    }

    /// 1 / the evaluation's divisor.
    #[inline(always)]
    fn inv_div(&self) -> f32 {
        1.0 / self.div as f32
    }

    /// Whether both sides have a king.
    #[inline(always)]
    pub fn both_kings(&self) -> bool {
        self.kings & self.white != 0 && self.kings & self.black != 0
    }

    /// The result for White as a probability: 1, 0.5, 0.
    #[inline(always)]
    fn result_share(&self) -> f32 {
        (self.result as f32 + 1.0) / 2.0
    }

    /// The search's score for White, NaN for a proven result.
    #[inline(always)]
    fn score_or_nan(&self) -> f32 {
        if self.score.abs() >= DECISIVE {
            f32::NAN
        } else {
            self.score as f32
        }
    }
}

/// The model's inputs of one sample, computed from it when its batch is processed.
#[derive(Copy, Clone, Debug)]
pub struct Features {
    /// Window configurations, layer after layer (each its own shape's windows):
    /// `configs[lw]` for the layer-major window `lw` of [`Tying`].
    pub configs: [u32; LAYERS * MAX_WINDOWS],
    /// Hand-made score, White's view, centi-men.
    pub hand: f32,
    /// 1 / the evaluation's divisor.
    pub inv_div: f32,
    /// Opening share of the weights, 0..=1.
    pub open: f32,
    /// The game's result for White: 1, 0.5, 0.
    pub result: f32,
    /// The search's score for White, centi-men (NaN for a proven result).
    pub score: f32,
    /// Whether both sides have a king ([`Lambda::both_kings`] applies).
    pub both_kings: bool,
    /// The material table's entry of the position ([`patterns::material_of`]).
    pub material: u32,
}

impl Features {
    /// The features of `s` on board `G` with windows of `shapes`.
    #[inline]
    pub fn of<G: Geometry>(s: &Sample, shapes: &Shapes) -> Features {
        let mut configs = [0u32; LAYERS * MAX_WINDOWS];
        let pieces = patterns::layer_pieces(s.white, s.black, s.kings);
        let mut base = 0;
        for (&(white, black), &shape) in pieces.iter().zip(shapes) {
            let win = windows_of::<G>(shape);
            // An empty layer's windows are all configuration 0.
            if white | black != 0 {
                for w in 0..win.count {
                    configs[base + w] = patterns::config(white, black, win.masks[w]) as u32;
                }
            }
            base += win.count;
        }
        let total = start_pieces::<G>() as f32;
        Features {
            configs,
            hand: s.hand as f32,
            inv_div: s.inv_div(),
            open: phase::<G>((s.white | s.black).count_ones()) as f32 / total,
            result: s.result_share(),
            score: s.score_or_nan(),
            both_kings: s.both_kings(),
            material: patterns::material_of::<G>(s.white, s.black, s.kings) as u32,
        }
    }
}

/// Weight of the game's result in the target (the rest is the search score's), by position.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Lambda {
    /// In every position but those below.
    pub plain: f32,
    /// In positions where both sides have a king: the self-play's scores there are the least
    /// faithful to the results (an advantage of men wins far less once each side has a king,
    /// docs/strength.md), so a fit may lean on the results more.
    pub both_kings: f32,
}

impl Lambda {
    /// The same weight in every position.
    pub const fn uniform(lambda: f32) -> Lambda {
        Lambda {
            plain: lambda,
            both_kings: lambda,
        }
    }

    /// The weight for a position where both sides have a king or not.
    #[inline(always)]
    pub fn of(&self, both_kings: bool) -> f32 {
        if both_kings {
            self.both_kings
        } else {
            self.plain
        }
    }
}

/// Settings of a training run.
#[derive(Copy, Clone, Debug)]
pub struct TrainSettings {
    /// Weight of the result in the target (the rest is the search score's).
    pub lambda: Lambda,
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
            lambda: Lambda::uniform(0.1),
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
#[derive(Clone, Debug, Default)]
pub struct DataSet {
    /// Samples to fit, in the order of the data.
    pub train: Vec<Sample>,
    /// Held-out samples.
    pub valid: Vec<Sample>,
    /// Games found (a new game starts where the ply does not grow).
    pub games: usize,
    /// Records left out (not a position, or a side without pieces).
    pub skipped: usize,
}

/// Why a data set could not be read.
#[derive(Debug)]
pub enum LoadError {
    /// A data file could not be opened or read, or holds bad data.
    File { path: String, error: DataError },
    /// More positions to fit than the batch order can index.
    TooMany { positions: usize },
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::File { path, error } => write!(f, "{path}: {error}"),
            LoadError::TooMany { positions } => write!(
                f,
                "{positions} positions to fit: at most {} (split the data)",
                u32::MAX
            ),
        }
    }
}

impl std::error::Error for LoadError {}

/// Turns records, given in the order of their files, into a [`DataSet`]: numbers the games
/// (a game starts where the ply does not grow, across chunks and files), holds out every
/// `holdout`-th, and computes the samples [`READ_BATCH`] records at a time in parallel.
pub struct Loader<R: Rules> {
    set: DataSet,
    holdout: usize,
    /// Records waiting to be turned into samples, with whether their game is held out.
    pending: Vec<(Record, bool)>,
    /// The ply of the last record seen.
    last_ply: Option<u16>,
    /// The game of the last record seen.
    game: usize,
    rules: PhantomData<R>,
}

impl<R: Rules> Loader<R> {
    /// An empty loader holding out every `holdout`-th game (0: none).
    pub fn new(holdout: usize) -> Loader<R> {
        Loader {
            set: DataSet::default(),
            holdout,
            pending: Vec::with_capacity(READ_BATCH),
            last_ply: None,
            game: 0,
            rules: PhantomData,
        }
    }

    /// Adds the next records.
    pub fn push(&mut self, records: &[Record]) {
        for r in records {
            if self.last_ply.is_some_and(|last| r.ply <= last) {
                self.game += 1;
            }
            self.last_ply = Some(r.ply);
            let held = self.holdout > 0 && self.game % self.holdout == self.holdout - 1;
            self.pending.push((*r, held));
            if self.pending.len() == READ_BATCH {
                self.flush();
            }
        }
    }

    fn flush(&mut self) {
        let samples: Vec<Option<Sample>> = self
            .pending
            .par_iter()
            .map(|(r, _)| Sample::of::<R>(r))
            .collect();
        for ((_, held), s) in self.pending.iter().zip(samples) {
            match (s, held) {
                (Some(s), true) => self.set.valid.push(s),
                (Some(s), false) => self.set.train.push(s),
                (None, _) => self.set.skipped += 1,
            }
        }
        self.pending.clear();
    }

    /// The data set of every record pushed.
    pub fn finish(mut self) -> DataSet {
        self.flush();
        self.set.games = if self.last_ply.is_some() {
            self.game + 1
        } else {
            0
        };
        self.set.train.shrink_to_fit();
        self.set.valid.shrink_to_fit();
        self.set
    }
}

/// The data set of `records` (in memory), holding out every `holdout`-th game.
pub fn prepare<R: Rules>(records: &[Record], holdout: usize) -> DataSet {
    let mut loader = Loader::<R>::new(holdout);
    loader.push(records);
    loader.finish()
}

/// The data set of the files at `paths`, in order, all of `variant`, holding out every
/// `holdout`-th game: read one chunk at a time, so that only the samples stay in memory.
pub fn load<R: Rules>(
    paths: &[String],
    variant: Variant,
    holdout: usize,
) -> Result<DataSet, LoadError> {
    let mut loader = Loader::<R>::new(holdout);
    for path in paths {
        let file = |error| LoadError::File {
            path: path.clone(),
            error,
        };
        let f = std::fs::File::open(path).map_err(|e| file(DataError::Io(e)))?;
        data::read_chunks(
            std::io::BufReader::new(f),
            |at, h, records| -> Result<(), DataError> {
                data::check_variant(at, h, variant)?;
                loader.push(&records);
                Ok(())
            },
        )
        .map_err(file)?;
    }
    let set = loader.finish();
    if set.train.len() > u32::MAX as usize {
        return Err(LoadError::TooMany {
            positions: set.train.len(),
        });
    }
    Ok(set)
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Cross-entropy of prediction `p` for target `t`.
fn cross_entropy(p: f32, t: f32) -> f32 {
    let p = p.clamp(1e-6, 1.0 - 1e-6);
    -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
}

/// The training target of a sample with result `result` and search score `score` (NaN: proven).
#[inline]
fn target(k: f32, result: f32, score: f32, lambda: f32) -> f32 {
    if score.is_nan() {
        result
    } else {
        lambda * result + (1.0 - lambda) * sigmoid(k * score)
    }
}

/// `N` sums of `f` over `items`, as partial sums of [`SUM_CHUNK`] items (computed in parallel)
/// added in order: the same figures on any number of threads.
fn sums_in_order<T: Sync, const N: usize>(
    items: &[T],
    f: impl Fn(&T) -> [f64; N] + Sync,
) -> [f64; N] {
    let parts: Vec<[f64; N]> = items
        .par_chunks(SUM_CHUNK)
        .map(|c| {
            let mut s = [0f64; N];
            for x in c {
                for (a, b) in s.iter_mut().zip(f(x)) {
                    *a += b;
                }
            }
            s
        })
        .collect();
    let mut total = [0f64; N];
    for p in parts {
        for (a, b) in total.iter_mut().zip(p) {
            *a += b;
        }
    }
    total
}

/// The `k` (per centi-man) for which `sigmoid(k * hand / div)` best predicts the results.
pub fn fit_scale(samples: &[Sample]) -> f32 {
    let loss = |k: f32| -> f64 {
        sums_in_order(samples, |s| {
            [cross_entropy(sigmoid(k * s.hand as f32 * s.inv_div()), s.result_share()) as f64]
        })[0]
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

/// The mean loss of the hand-made evaluation alone (every pattern weight zero) with scale `k`
/// over `samples`: against the results, and against the target of `lambda`. The same figures as
/// [`Model::losses`] of a zero model, without computing the configurations.
pub fn hand_losses(samples: &[Sample], k: f32, lambda: Lambda) -> (f64, f64) {
    if samples.is_empty() {
        return (0.0, 0.0);
    }
    let [r, t] = sums_in_order(samples, |s| {
        let p = sigmoid(k * (s.hand as f32 * s.inv_div()));
        let result = s.result_share();
        [
            cross_entropy(p, result) as f64,
            cross_entropy(
                p,
                target(k, result, s.score_or_nan(), lambda.of(s.both_kings())),
            ) as f64,
        ]
    });
    let n = samples.len() as f64;
    (r / n, t / n)
}

/// The parameter of every (layer, window, configuration): `(index, sign)`, sign 0 for a
/// configuration that is its own turned image (its weight is zero). A layer's windows pair
/// with the same layer's. The windows of all layers are numbered layer after layer (`lw`, the
/// layer-major window), each layer's of its own shape, so of its own number of
/// configurations.
pub struct Tying {
    /// `slot[start[lw] + c]`: the parameter of configuration `c` of window `lw`.
    pub slot: Vec<(u32, i8)>,
    /// Windows of the board, in every layer.
    pub windows: usize,
    /// `start[lw]`: where window `lw`'s configurations start in `slot` (and its parameters in
    /// the parameter space); `start[windows]` is the length of `slot`.
    pub start: Vec<usize>,
    /// `owner[lw]`: the window (layer-major) whose parameter block holds window `lw`'s
    /// parameters, `lw` itself or its turned partner, the lower of the two.
    pub owner: Vec<usize>,
    /// Each layer's window shape.
    pub shapes: Shapes,
}

impl Tying {
    /// The tying of `G`'s windows of `shapes`.
    pub fn new<G: Geometry>(shapes: Shapes) -> Tying {
        let mut start = vec![0];
        let mut first = [0; LAYERS];
        for (layer, &shape) in shapes.iter().enumerate() {
            first[layer] = start.len() - 1;
            for _ in 0..windows_of::<G>(shape).count {
                start.push(start[start.len() - 1] + shape.configs());
            }
        }
        let windows = start.len() - 1;
        let mut slot = Vec::with_capacity(start[windows]);
        let mut owner = Vec::with_capacity(windows);
        for (layer, &shape) in shapes.iter().enumerate() {
            let win = windows_of::<G>(shape);
            for w in 0..win.count {
                let (lw, partner) = (first[layer] + w, first[layer] + win.partner(w));
                owner.push(lw.min(partner));
                for c in 0..shape.configs() {
                    let a = start[lw] + c;
                    let b = start[partner] + turned_config(c, shape.squares());
                    slot.push(match a.cmp(&b) {
                        std::cmp::Ordering::Equal => (0, 0),
                        std::cmp::Ordering::Less => (a as u32, 1),
                        std::cmp::Ordering::Greater => (b as u32, -1),
                    });
                }
            }
        }
        Tying {
            slot,
            windows,
            start,
            owner,
            shapes,
        }
    }

    /// The parameter of configuration `c` of window `lw`.
    #[inline(always)]
    pub fn of(&self, lw: usize, c: u32) -> (u32, i8) {
        self.slot[self.start[lw] + c as usize]
    }
}

/// The parameter of the material table's entry `entry` on the board of `board` dark squares a
/// row, within the material block, and its sign: the entry of White side `w` against Black side
/// `b` ([`patterns::material_side`]) is its own parameter for `w < b`, the negation of its
/// colour-swapped entry's for `w > b`, and has none (sign 0) for `w == b`. So the block is
/// [`material_len`] long, of which the parameters below the diagonal are never used.
#[inline(always)]
pub fn material_param(board: u32, entry: usize) -> (u32, i8) {
    let turned = material_turned(board, entry);
    match entry.cmp(&turned) {
        std::cmp::Ordering::Equal => (0, 0),
        std::cmp::Ordering::Less => (entry as u32, 1),
        std::cmp::Ordering::Greater => (turned as u32, -1),
    }
}

/// The model's parameters on board `G`: `theta[p * PHASES + phase]` for the windows'
/// parameters `p` of the [`Tying`], then, when the fit has a material table, its block
/// (`theta[material_start + p]`, [`material_param`]), centi-men.
pub struct Model<G: Geometry> {
    /// Parameters.
    pub theta: Vec<f32>,
    /// The scale of the sigmoid, per centi-man.
    pub k: f32,
    tying: Tying,
    /// Whether the material table is fitted (its block ends `theta`).
    material: bool,
    board: PhantomData<G>,
}

impl<G: Geometry> Model<G> {
    /// A zero model for `G`'s 4x4 windows with sigmoid scale `k`.
    pub fn new(k: f32) -> Model<G> {
        Model::with_shapes(k, patterns::SHAPES_4X4)
    }

    /// A zero model for `G`'s windows of `shapes` with sigmoid scale `k`.
    pub fn with_shapes(k: f32, shapes: Shapes) -> Model<G> {
        let tying = Tying::new::<G>(shapes);
        Model {
            theta: vec![0.0; tying.slot.len() * PHASES],
            k,
            tying,
            material: false,
            board: PhantomData,
        }
    }

    /// This model with a material table to fit, all zero (`tiao tune --material`).
    pub fn with_material(mut self) -> Model<G> {
        if !self.material {
            self.material = true;
            self.theta
                .resize(self.theta.len() + material_len(G::W), 0.0);
        }
        self
    }

    /// Whether the material table is fitted.
    pub fn fits_material(&self) -> bool {
        self.material
    }

    /// Where the material table's block starts in `theta` (its end when there is none).
    fn material_start(&self) -> usize {
        self.tying.slot.len() * PHASES
    }

    /// A model for `G`'s windows that starts from the weights `w` (a warm start: a round's fit
    /// that begins where the kept weights are, so that configurations its data does not show keep
    /// their values, as the optimiser is lazy), with `w`'s shapes; with `material`, a material
    /// table to fit that starts from `w`'s (zero for a file of version 1 to 4). `None` when `w`
    /// is of another board, or has a material table that is not all zero and `material` is
    /// false (the fit would drop it). A weight of a tied pair is read from each of its windows;
    /// the file's rounding to 1/UNITS is kept.
    pub fn from_weights(k: f32, w: &PatternWeights, material: bool) -> Option<Model<G>> {
        if w.board != G::W || w.material.len() != material_len(G::W) {
            return None;
        }
        if w.uses_material() && !material {
            return None;
        }
        let mut model = Model::<G>::with_shapes(k, w.shapes);
        if w.table.len() != model.tying.slot.len() * PHASES {
            return None;
        }
        if material {
            model = model.with_material();
            let start = model.material_start();
            for (entry, &v) in w.material.iter().enumerate() {
                let (p, sign) = material_param(G::W, entry);
                if sign > 0 {
                    model.theta[start + p as usize] = v as f32 / UNITS as f32;
                }
            }
        }
        for (j, &(p, sign)) in model.tying.slot.iter().enumerate() {
            if sign == 0 {
                continue;
            }
            for ph in 0..PHASES {
                model.theta[p as usize * PHASES + ph] =
                    sign as f32 * w.table[j * PHASES + ph] as f32 / UNITS as f32;
            }
        }
        Some(model)
    }

    /// Each layer's window shape.
    pub fn shapes(&self) -> Shapes {
        self.tying.shapes
    }

    /// The features of `s` for this model's windows.
    #[inline]
    pub fn features(&self, s: &Sample) -> Features {
        Features::of::<G>(s, &self.tying.shapes)
    }

    /// The evaluation of a sample from White's view, centi-men.
    #[inline]
    pub fn eval(&self, s: &Features) -> f32 {
        let mut sum = 0.0;
        for w in 0..self.tying.windows {
            let (p, sign) = self.tying.of(w, s.configs[w]);
            if sign != 0 {
                let i = p as usize * PHASES;
                let v = s.open * self.theta[i] + (1.0 - s.open) * self.theta[i + 1];
                sum += sign as f32 * v;
            }
        }
        if self.material {
            let (p, sign) = material_param(G::W, s.material as usize);
            if sign != 0 {
                sum += sign as f32 * self.theta[self.material_start() + p as usize];
            }
        }
        (s.hand + sum) * s.inv_div
    }

    /// The training target of a sample.
    #[inline]
    pub fn target(&self, s: &Features, lambda: Lambda) -> f32 {
        target(self.k, s.result, s.score, lambda.of(s.both_kings))
    }

    /// Mean loss over `samples`: against the results alone, and against the target of
    /// `lambda`.
    pub fn losses(&self, samples: &[Sample], lambda: Lambda) -> (f64, f64) {
        if samples.is_empty() {
            return (0.0, 0.0);
        }
        let [r, t] = sums_in_order(samples, |s| {
            let f = self.features(s);
            let p = sigmoid(self.k * self.eval(&f));
            [
                cross_entropy(p, f.result) as f64,
                cross_entropy(p, self.target(&f, lambda)) as f64,
            ]
        });
        let n = samples.len() as f64;
        (r / n, t / n)
    }

    /// The weight table for the engine: every (window, configuration) with its sign, and every
    /// material signature when the table is fitted, rounded to 1/UNITS centi-men.
    pub fn weights(&self, family: &str) -> PatternWeights {
        let mut out = PatternWeights::zero(family, G::W, self.tying.shapes);
        // Clamped to a symmetric range, so that a tied pair's weights stay opposite.
        let units = |v: f32| {
            (v * UNITS as f32)
                .round()
                .clamp(-i16::MAX as f32, i16::MAX as f32)
        };
        for (j, &(p, sign)) in self.tying.slot.iter().enumerate() {
            for ph in 0..PHASES {
                out.table[j * PHASES + ph] =
                    units(sign as f32 * self.theta[p as usize * PHASES + ph]) as i16;
            }
        }
        if self.material {
            let start = self.material_start();
            for (entry, v) in out.material.iter_mut().enumerate() {
                let (p, sign) = material_param(G::W, entry);
                *v = units(sign as f32 * self.theta[start + p as usize]) as i16;
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
    /// Mean loss on the fitting set (the blended target), each sample's taken when its batch
    /// was processed.
    pub train: f64,
    /// Mean loss on the held-out set against the results alone.
    pub valid: f64,
    /// Mean loss on the held-out set against the blended target.
    pub valid_target: f64,
}

/// What the feature pass leaves for the gradient pass: per slice of [`CHUNK`] samples, their
/// configurations window by window (`configs[(slice * windows + lw) * CHUNK + j]`), and per
/// sample the derivative of its loss by its evaluation, its opening share and its material
/// table entry.
struct PassBuffers {
    configs: Vec<u32>,
    material: Vec<u32>,
    d: Vec<f32>,
    open: Vec<f32>,
    /// Per slice, the sum of its samples' losses (blended target).
    loss: Vec<f64>,
}

/// One parameter block: the parameters of a window and its turned partner in one layer (of a
/// self-turned window alone), or the material table's, with the gradient of the current batch.
struct Block {
    /// Whose parameters the block holds.
    holds: Holds,
    /// The batch's gradient, `grad[local * width + phase]` for the block's parameter `local`
    /// (a window block's `p - start[first]`, the material block's `p`), zero between steps.
    grad: Vec<f32>,
    /// Whether parameter `local` is in `touched`.
    seen: Vec<bool>,
    /// The parameters the batch touched so far.
    touched: Vec<u32>,
}

/// Whose parameters a [`Block`] holds.
enum Holds {
    /// Windows' configurations, [`PHASES`] values each.
    Windows {
        /// The windows (layer-major) whose parameters are the block's, in increasing order;
        /// none for a partner window, whose parameters are in its first's block.
        windows: Vec<usize>,
        /// The first window: the block holds parameters `start[first]..start[first + 1]` of
        /// the [`Tying`].
        first: usize,
    },
    /// The material table's entries on the board of `board` dark squares a row, one value each
    /// ([`material_param`]).
    Material { board: u32 },
}

/// Adam's figures of one step.
struct Step {
    lr: f32,
    /// Bias corrections of the moments.
    c1: f32,
    c2: f32,
    /// 1 / samples in the batch.
    scale: f32,
}

impl Block {
    /// Values a parameter of the block has: [`PHASES`] for a window's, 1 for the material's.
    fn width(&self) -> usize {
        match self.holds {
            Holds::Windows { .. } => PHASES,
            Holds::Material { .. } => 1,
        }
    }

    /// Whether the block has no parameters to fit (a partner window's).
    fn is_idle(&self) -> bool {
        matches!(&self.holds, Holds::Windows { windows, .. } if windows.is_empty())
    }

    /// Adds the gradient of `n` samples of a pass to the block's, with the parameters `theta`
    /// of the block (for the ridge term): sample after sample, and for a window block, window
    /// after window.
    fn accumulate(
        &mut self,
        tying: &Tying,
        theta: &[f32],
        buf: &PassBuffers,
        n: usize,
        decay: f32,
    ) {
        let Block {
            holds,
            grad,
            seen,
            touched,
        } = self;
        // Parameter `local` is touched by the batch.
        let mut touch = |local: usize| {
            if !seen[local] {
                seen[local] = true;
                touched.push(local as u32);
            }
        };
        let (windows, first) = match holds {
            Holds::Windows { windows, first } => (windows, *first),
            &mut Holds::Material { board } => {
                for (&entry, &d) in buf.material[..n].iter().zip(&buf.d) {
                    let (p, sign) = material_param(board, entry as usize);
                    if sign != 0 {
                        let local = p as usize;
                        touch(local);
                        grad[local] += d * sign as f32 + decay * theta[local];
                    }
                }
                return;
            }
        };
        let base = tying.start[first];
        let stride = tying.windows * CHUNK;
        for (slice, configs) in buf
            .configs
            .chunks(stride)
            .take(n.div_ceil(CHUNK))
            .enumerate()
        {
            let start = slice * CHUNK;
            for j in 0..CHUNK.min(n - start) {
                let (d, open) = (buf.d[start + j], buf.open[start + j]);
                for &lw in windows.iter() {
                    let (p, sign) = tying.of(lw, configs[lw * CHUNK + j]);
                    if sign != 0 {
                        let local = p as usize - base;
                        touch(local);
                        let g = d * sign as f32;
                        let i = local * PHASES;
                        grad[i] += (g + decay * theta[i]) * open;
                        grad[i + 1] += (g + decay * theta[i + 1]) * (1.0 - open);
                    }
                }
            }
        }
    }

    /// Adam's step of the parameters the batch touched (lazy: one whose gradient is zero does
    /// not move), and the gradient cleared.
    fn update(&mut self, theta: &mut [f32], m: &mut [f32], v: &mut [f32], s: &Step) {
        let width = self.width();
        for &local in &self.touched {
            let local = local as usize;
            for i in local * width..(local + 1) * width {
                let g = self.grad[i] * s.scale;
                if g != 0.0 {
                    m[i] = BETA1 * m[i] + (1.0 - BETA1) * g;
                    v[i] = BETA2 * v[i] + (1.0 - BETA2) * g * g;
                    theta[i] -= s.lr * (m[i] / s.c1) / ((v[i] / s.c2).sqrt() + EPSILON);
                }
                self.grad[i] = 0.0;
            }
            self.seen[local] = false;
        }
        self.touched.clear();
    }
}

/// The feature pass over the samples `ids` of `data` (at most [`PASS`]): fills `buf`.
fn feature_pass<G: Geometry>(
    model: &Model<G>,
    data: &[Sample],
    ids: &[u32],
    lambda: Lambda,
    buf: &mut PassBuffers,
) {
    let windows = model.tying.windows;
    ids.par_chunks(CHUNK)
        .zip(buf.configs.par_chunks_mut(windows * CHUNK))
        .zip(buf.d.par_chunks_mut(CHUNK))
        .zip(buf.open.par_chunks_mut(CHUNK))
        .zip(buf.material.par_chunks_mut(CHUNK))
        .zip(buf.loss.par_iter_mut())
        .for_each(|(((((ids, configs), d), open), material), loss)| {
            let mut sum = 0f64;
            for (j, &id) in ids.iter().enumerate() {
                let f = model.features(&data[id as usize]);
                let e = model.eval(&f);
                let p = sigmoid(model.k * e);
                let t = model.target(&f, lambda);
                d[j] = model.k * (p - t) * f.inv_div;
                open[j] = f.open;
                material[j] = f.material;
                sum += cross_entropy(p, t) as f64;
                for (lw, &c) in f.configs[..windows].iter().enumerate() {
                    configs[lw * CHUNK + j] = c;
                }
            }
            *loss = sum;
        });
}

/// `x` cut into consecutive blocks of `lens`.
fn split_blocks<'a>(mut x: &'a mut [f32], lens: &[usize]) -> Vec<&'a mut [f32]> {
    let mut out = Vec::with_capacity(lens.len());
    for &n in lens {
        let (head, rest) = std::mem::take(&mut x).split_at_mut(n);
        out.push(head);
        x = rest;
    }
    out
}

/// Fits `model` to `train` with Adam; calls `on_step` after each batch with its samples (for a
/// progress bar) and `on_epoch` after each epoch. The weights do not depend on the number of
/// threads of the pool it runs in.
pub fn train<G: Geometry>(
    model: &mut Model<G>,
    train: &[Sample],
    valid: &[Sample],
    s: &TrainSettings,
    on_step: impl FnMut(usize),
    on_epoch: impl FnMut(&EpochReport),
) {
    train_in_passes(model, train, valid, s, PASS, on_step, on_epoch);
}

/// [`train`] with passes of at most `pass` samples (a multiple of [`CHUNK`]).
fn train_in_passes<G: Geometry>(
    model: &mut Model<G>,
    train: &[Sample],
    valid: &[Sample],
    s: &TrainSettings,
    pass: usize,
    mut on_step: impl FnMut(usize),
    mut on_epoch: impl FnMut(&EpochReport),
) {
    debug_assert!(pass > 0 && pass.is_multiple_of(CHUNK));
    assert!(
        train.len() <= u32::MAX as usize,
        "load() refuses more positions than a u32 indexes"
    );
    let n = model.theta.len();
    let (mut m, mut v) = (vec![0f32; n], vec![0f32; n]);
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let mut rng = Rng::new(s.seed);
    let batch = s.batch.max(1);
    let steps_per_epoch = train.len().div_ceil(batch);
    let total_steps = (steps_per_epoch * s.epochs).max(1);
    let windows = model.tying.windows;
    let pass = batch.min(pass);
    let mut buf = PassBuffers {
        configs: vec![0; pass.div_ceil(CHUNK) * windows * CHUNK],
        material: vec![0; pass],
        d: vec![0.0; pass],
        open: vec![0.0; pass],
        loss: vec![0.0; pass.div_ceil(CHUNK)],
    };
    // A block a window, its parameters `start[lw]..start[lw + 1]` (a partner window's block
    // holds none of its own and is skipped), then the material table's block if it is fitted.
    let mut block_lens: Vec<usize> = model
        .tying
        .start
        .windows(2)
        .map(|s| (s[1] - s[0]) * PHASES)
        .collect();
    // A partner window's block owns no window and is never stepped: no gradient buffers.
    let mut blocks: Vec<Block> = (0..windows)
        .map(|first| {
            let owned: Vec<usize> = (0..windows)
                .filter(|&lw| model.tying.owner[lw] == first)
                .collect();
            let len = if owned.is_empty() {
                0
            } else {
                block_lens[first]
            };
            Block {
                holds: Holds::Windows {
                    windows: owned,
                    first,
                },
                grad: vec![0.0; len],
                seen: vec![false; len / PHASES],
                touched: Vec::new(),
            }
        })
        .collect();
    if model.material {
        let len = material_len(G::W);
        block_lens.push(len);
        blocks.push(Block {
            holds: Holds::Material { board: G::W },
            grad: vec![0.0; len],
            seen: vec![false; len],
            touched: Vec::new(),
        });
    }
    debug_assert_eq!(block_lens.iter().sum::<usize>(), n);
    let mut t = 0usize;
    for epoch in 1..=s.epochs {
        // Fisher-Yates with the run's generator.
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let mut fit_loss = 0f64;
        for ids in order.chunks(batch) {
            t += 1;
            let lr = s.lr * (1.0 - LR_FALL * (t as f32 / total_steps as f32));
            let step = Step {
                lr,
                c1: 1.0 - BETA1.powi(t as i32),
                c2: 1.0 - BETA2.powi(t as i32),
                scale: 1.0 / ids.len() as f32,
            };
            let passes = ids.len().div_ceil(pass);
            for (k, pass_ids) in ids.chunks(pass).enumerate() {
                feature_pass(model, train, pass_ids, s.lambda, &mut buf);
                fit_loss += buf.loss[..pass_ids.len().div_ceil(CHUNK)]
                    .iter()
                    .sum::<f64>();
                let last = k + 1 == passes;
                let tying = &model.tying;
                let buf = &buf;
                split_blocks(&mut model.theta, &block_lens)
                    .into_par_iter()
                    .zip(split_blocks(&mut m, &block_lens))
                    .zip(split_blocks(&mut v, &block_lens))
                    .zip(blocks.par_iter_mut())
                    .filter(|(_, b)| !b.is_idle())
                    .for_each(|(((theta, m), v), b)| {
                        b.accumulate(tying, theta, buf, pass_ids.len(), s.decay);
                        if last {
                            b.update(theta, m, v, &step);
                        }
                    });
            }
            on_step(ids.len());
        }
        let (valid, valid_target) = model.losses(valid, s.lambda);
        on_epoch(&EpochReport {
            epoch,
            train: if train.is_empty() {
                0.0
            } else {
                fit_loss / train.len() as f64
            },
            valid,
            valid_target,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::board::{Board8, Board10};
    use crate::draughts::eval::patterns::Shape;
    use crate::draughts::rules::English;
    use crate::search::tt::Tt;
    use crate::training::selfplay::{Settings, play_game};

    #[test]
    fn a_position_costs_the_bytes_the_docs_give() {
        // The memory figures of the module doc and docs/eval.md.
        assert_eq!(std::mem::size_of::<Sample>(), SAMPLE_BYTES);
        assert_eq!(BYTES_PER_POSITION, 36);
    }

    #[test]
    fn tying_makes_a_position_and_its_mirror_opposite() {
        for shapes in [
            patterns::SHAPES_4X4,
            [Shape::Rows5, Shape::Rows4, Shape::Rows6],
        ] {
            let t = Tying::new::<Board8>(shapes);
            let mut base = 0;
            for (layer, &shape) in shapes.iter().enumerate() {
                let win = windows_of::<Board8>(shape);
                let last = shape.configs() - 1;
                for w in 0..win.count {
                    let (lw, pw) = (base + w, base + win.partner(w));
                    assert_eq!(t.start[lw + 1] - t.start[lw], shape.configs());
                    for c in [0usize, 1, 5, 77, 3000, last / 2, last] {
                        let (p, s) = t.of(lw, c as u32);
                        let (q, r) = t.of(pw, turned_config(c, shape.squares()) as u32);
                        assert_eq!(p, q);
                        assert_eq!(s, -r);
                        // A layer's parameters are its own, and in its owner's block.
                        if s != 0 {
                            let owner = t.owner[lw];
                            assert!(owner >= base && owner < base + win.count, "{layer}");
                            assert!((t.start[owner]..t.start[owner + 1]).contains(&(p as usize)));
                        }
                    }
                }
                base += win.count;
            }
            assert_eq!(t.windows, base);
            assert_eq!(t.start[base], t.slot.len());
        }
    }

    /// The games of the tests: a few quick english self-play games.
    fn records() -> Vec<Record> {
        let tt = Tt::new(1);
        let settings = Settings {
            nodes: 400,
            opening_plies: 6,
            max_plies: 200,
            seed: 3,
        };
        (0..24)
            .flat_map(|g| play_game::<English>(&settings, g, &tt).records)
            .collect()
    }

    /// The trainer as one thread computes it, with dense gradients summed sample after sample
    /// (the trainer before the parallel passes): the reference of the bit-for-bit test.
    fn reference(model: &mut Model<Board8>, train: &[Sample], s: &TrainSettings) {
        let n = model.theta.len();
        let (mut m, mut v) = (vec![0f32; n], vec![0f32; n]);
        let mut order: Vec<u32> = (0..train.len() as u32).collect();
        let mut rng = Rng::new(s.seed);
        let total_steps = (train.len().div_ceil(s.batch) * s.epochs).max(1);
        let mut t = 0usize;
        for _ in 0..s.epochs {
            for i in (1..order.len()).rev() {
                order.swap(i, rng.below(i + 1));
            }
            for ids in order.chunks(s.batch) {
                let mut grad = vec![0f32; n];
                for &i in ids {
                    let f = model.features(&train[i as usize]);
                    let e = model.eval(&f);
                    let d =
                        model.k * (sigmoid(model.k * e) - model.target(&f, s.lambda)) * f.inv_div;
                    for w in 0..model.tying.windows {
                        let (p, sign) = model.tying.of(w, f.configs[w]);
                        if sign != 0 {
                            let g = d * sign as f32;
                            let i = p as usize * PHASES;
                            grad[i] += (g + s.decay * model.theta[i]) * f.open;
                            grad[i + 1] += (g + s.decay * model.theta[i + 1]) * (1.0 - f.open);
                        }
                    }
                    if model.fits_material() {
                        let (p, sign) = material_param(Board8::W, f.material as usize);
                        if sign != 0 {
                            let i = model.material_start() + p as usize;
                            grad[i] += d * sign as f32 + s.decay * model.theta[i];
                        }
                    }
                }
                t += 1;
                let lr = s.lr * (1.0 - 0.9 * (t as f32 / total_steps as f32));
                let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
                let (c1, c2) = (1.0 - b1.powi(t as i32), 1.0 - b2.powi(t as i32));
                let scale = 1.0 / ids.len() as f32;
                for j in 0..n {
                    let g = grad[j] * scale;
                    if g != 0.0 {
                        m[j] = b1 * m[j] + (1.0 - b1) * g;
                        v[j] = b2 * v[j] + (1.0 - b2) * g * g;
                        model.theta[j] -= lr * (m[j] / c1) / ((v[j] / c2).sqrt() + eps);
                    }
                }
            }
        }
    }

    /// `train` in a pool of `threads` threads, in passes of `pass` samples.
    fn fit(
        threads: usize,
        pass: usize,
        set: &DataSet,
        k: f32,
        s: &TrainSettings,
    ) -> (Vec<f32>, Vec<EpochReport>) {
        fit_shaped(threads, pass, set, k, s, patterns::SHAPES_4X4)
    }

    /// [`fit`] with windows of `shapes`.
    fn fit_shaped(
        threads: usize,
        pass: usize,
        set: &DataSet,
        k: f32,
        s: &TrainSettings,
        shapes: Shapes,
    ) -> (Vec<f32>, Vec<EpochReport>) {
        fit_model(
            threads,
            pass,
            set,
            s,
            Model::<Board8>::with_shapes(k, shapes),
        )
    }

    /// [`fit`] of `model`.
    fn fit_model(
        threads: usize,
        pass: usize,
        set: &DataSet,
        s: &TrainSettings,
        mut model: Model<Board8>,
    ) -> (Vec<f32>, Vec<EpochReport>) {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let mut reports = Vec::new();
        let mut samples = 0;
        pool.install(|| {
            train_in_passes(
                &mut model,
                &set.train,
                &set.valid,
                s,
                pass,
                |n| samples += n,
                |r| reports.push(*r),
            )
        });
        assert_eq!(samples, set.train.len() * s.epochs);
        (model.theta, reports)
    }

    #[test]
    fn a_warm_start_reads_back_the_weights_it_starts_from() {
        let data = prepare::<English>(&records(), 10);
        let k = fit_scale(&data.train);
        let settings = TrainSettings {
            epochs: 2,
            ..TrainSettings::default()
        };
        let mut model = Model::<Board8>::new(k);
        train(
            &mut model,
            &data.train,
            &data.valid,
            &settings,
            |_| {},
            |_| {},
        );
        let w = model.weights("english");
        assert!(
            w.table.iter().any(|&x| x != 0),
            "the fit moved some weights"
        );
        let warm = Model::<Board8>::from_weights(k, &w, false).expect("same windows");
        assert_eq!(warm.weights("english").table, w.table);
        // Its evaluation is the fitted model's, to the file's rounding.
        for s in data.valid.iter().take(50) {
            let f = model.features(s);
            assert!((warm.eval(&f) - model.eval(&f)).abs() < 0.5);
        }
        // Weights of another board are refused.
        assert!(Model::<Board10>::from_weights(k, &w, false).is_none());
    }

    #[test]
    fn a_small_selfplay_set_trains_the_same_on_any_threads() {
        let records = records();
        let set = prepare::<English>(&records, 6);
        assert!(set.games >= 20, "{} games", set.games);
        assert!(!set.valid.is_empty());
        assert_eq!(
            set.train.len() + set.valid.len() + set.skipped,
            records.len()
        );
        let k = fit_scale(&set.train);
        assert!(k > 1e-4 && k < 0.1, "k {k}");
        let zero = Model::<Board8>::new(k);
        let before = zero.losses(&set.train, Lambda::uniform(0.7));
        assert_eq!(hand_losses(&set.train, k, Lambda::uniform(0.7)), before);
        let s = TrainSettings {
            epochs: 4,
            batch: 256,
            lr: 2.0,
            decay: 0.001,
            lambda: Lambda::uniform(0.7),
            ..TrainSettings::default()
        };
        let (theta, reports) = fit(2, PASS, &set, k, &s);
        assert_eq!(reports.len(), 4);
        let mut model = Model::<Board8>::new(k);
        model.theta = theta.clone();
        let after = model.losses(&set.train, Lambda::uniform(0.7));
        assert!(after.1 < before.1, "{reports:?} from {before:?}");
        assert_eq!(
            (reports[3].valid, reports[3].valid_target),
            model.losses(&set.valid, Lambda::uniform(0.7))
        );
        // The same weights, bit for bit, on one thread and on three, and as the plain
        // one-thread sum of the gradients gives them; a batch larger than a pass too.
        let same = |a: &[f32], b: &[f32]| a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits());
        let (one, one_reports) = fit(1, PASS, &set, k, &s);
        assert!(same(&theta, &one));
        assert_eq!(format!("{reports:?}"), format!("{one_reports:?}"));
        let mut plain = Model::<Board8>::new(k);
        reference(&mut plain, &set.train, &s);
        assert!(same(&theta, &plain.theta));
        // Batches of several passes (a pass of one slice, a batch of 2 slices and a bit).
        let big = TrainSettings {
            batch: 2 * CHUNK + 7,
            epochs: 2,
            ..s
        };
        assert!(set.train.len() > 2 * big.batch, "{}", set.train.len());
        let (three, _) = fit(3, CHUNK, &set, k, &big);
        let (two, _) = fit(2, PASS, &set, k, &big);
        let mut plain = Model::<Board8>::new(k);
        reference(&mut plain, &set.train, &big);
        assert!(same(&three, &plain.theta));
        assert!(same(&two, &plain.theta));
        // The engine's table reads back and scores like the model.
        let w = model.weights("english");
        let back = PatternWeights::parse(&w.to_bytes(), "english", Board8::W).unwrap();
        engine_scores_like(&model, &back, &set.train[..50]);
    }

    #[test]
    fn the_both_kings_lambda_weighs_only_the_positions_with_a_king_each() {
        let set = prepare::<English>(&records(), 6);
        let both = set.train.iter().filter(|s| s.both_kings()).count();
        assert!(
            both > 0 && both < set.train.len(),
            "{both} of {}",
            set.train.len()
        );
        let k = fit_scale(&set.train);
        let model = Model::<Board8>::new(k);
        let apart = Lambda {
            plain: 0.1,
            both_kings: 1.0,
        };
        for s in &set.train {
            let f = model.features(s);
            let kings = |side: u64| s.kings & side != 0;
            assert_eq!(f.both_kings, kings(s.white) && kings(s.black));
            let t = model.target(&f, apart);
            if f.both_kings {
                // The result alone.
                assert_eq!(t, f.result);
            } else {
                assert_eq!(t, model.target(&f, Lambda::uniform(0.1)));
            }
        }
        let s = TrainSettings {
            epochs: 2,
            batch: 256,
            ..TrainSettings::default()
        };
        let t = TrainSettings { lambda: apart, ..s };
        let same = |a: &[f32], b: &[f32]| a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits());
        // Over the whole set the two fits part; without the positions with a king each they
        // are the same, bit for bit.
        assert!(!same(
            &fit(2, PASS, &set, k, &s).0,
            &fit(2, PASS, &set, k, &t).0
        ));
        let without = DataSet {
            train: set
                .train
                .iter()
                .copied()
                .filter(|s| !s.both_kings())
                .collect(),
            valid: set
                .valid
                .iter()
                .copied()
                .filter(|s| !s.both_kings())
                .collect(),
            ..set.clone()
        };
        assert!(same(
            &fit(2, PASS, &without, k, &s).0,
            &fit(2, PASS, &without, k, &t).0
        ));
        // The held-out losses against the target follow it; against the results they do not.
        let (r1, t1) = model.losses(&set.valid, Lambda::uniform(0.1));
        let (r2, t2) = model.losses(&set.valid, apart);
        assert_eq!(r1, r2);
        assert_ne!(t1, t2);
        assert_eq!(hand_losses(&set.valid, k, apart), (r2, t2));
    }

    /// Asserts that the engine's table of `w` (the weights of `model`) scores `samples` as the
    /// model does, to the rounding; returns how many it scores not zero.
    fn engine_scores_like(model: &Model<Board8>, w: &PatternWeights, samples: &[Sample]) -> usize {
        let engine = patterns::EnginePatterns::new::<Board8>(w);
        let mut scored = 0;
        for sample in samples {
            let f = model.features(sample);
            let table = engine.score::<Board8>(sample.white, sample.black, sample.kings) as f32
                / UNITS as f32;
            let model_patterns = model.eval(&f) / f.inv_div - f.hand;
            assert!(
                (table - model_patterns).abs() < 1.0,
                "{table} vs {model_patterns}"
            );
            scored += (table != 0.0) as usize;
        }
        scored
    }

    #[test]
    fn larger_windows_train_the_same_on_any_threads_and_read_back() {
        // A 4x5 men's layer and a 4x6 mixed layer (12 and 9 windows on 8x8).
        let shapes = [Shape::Rows5, Shape::Rows4, Shape::Rows6];
        let set = prepare::<English>(&records(), 6);
        let k = fit_scale(&set.train);
        let s = TrainSettings {
            epochs: 2,
            batch: 2 * CHUNK + 7,
            lr: 2.0,
            lambda: Lambda::uniform(0.7),
            ..TrainSettings::default()
        };
        let (two, reports) = fit_shaped(2, PASS, &set, k, &s, shapes);
        let (one, _) = fit_shaped(1, CHUNK, &set, k, &s, shapes);
        let same = |a: &[f32], b: &[f32]| a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits());
        assert!(same(&two, &one));
        let mut plain = Model::<Board8>::with_shapes(k, shapes);
        reference(&mut plain, &set.train, &s);
        assert!(same(&two, &plain.theta));
        let mut model = Model::<Board8>::with_shapes(k, shapes);
        model.theta = two;
        // So many weights overfit so few games: the fitting set's loss falls.
        let before = hand_losses(&set.train, k, Lambda::uniform(0.7));
        assert!(
            model.losses(&set.train, Lambda::uniform(0.7)).1 < before.1,
            "{reports:?} {before:?}"
        );
        // The weights, colour-symmetric, through a file to the engine, which scores like the
        // model; and back into a model.
        let w = model.weights("english");
        assert_eq!(w.shapes, shapes);
        assert!(w.is_symmetric());
        let back = PatternWeights::parse(&w.to_bytes(), "english", Board8::W).unwrap();
        assert_eq!(back, w);
        let scored = engine_scores_like(&model, &back, &set.train[..200]);
        assert!(scored > 100, "{scored}");
        let warm = Model::<Board8>::from_weights(k, &w, false).unwrap();
        assert_eq!(warm.shapes(), shapes);
        assert_eq!(warm.weights("english"), w);
    }

    #[test]
    fn material_parameters_tie_a_signature_to_its_colour_swapped_image() {
        let board = Board8::W;
        let mut owners = vec![0; material_len(board)];
        for entry in 0..material_len(board) {
            let (p, sign) = material_param(board, entry);
            let (q, r) = material_param(board, material_turned(board, entry));
            assert_eq!(sign, -r);
            if sign != 0 {
                assert_eq!(p, q);
                owners[p as usize] += 1;
            }
        }
        // Each parameter holds a pair of entries; the equal signatures none.
        let sides = patterns::material_sides(board);
        assert_eq!(
            owners.iter().filter(|&&n| n == 2).count(),
            (owners.len() - sides) / 2
        );
        assert!(owners.iter().all(|&n| n == 0 || n == 2));
    }

    #[test]
    fn the_material_table_trains_the_same_on_any_threads_and_reads_back() {
        let set = prepare::<English>(&records(), 6);
        let k = fit_scale(&set.train);
        let s = TrainSettings {
            epochs: 3,
            batch: 2 * CHUNK + 7,
            lr: 2.0,
            decay: 0.001,
            lambda: Lambda::uniform(0.7),
            ..TrainSettings::default()
        };
        let model = || Model::<Board8>::new(k).with_material();
        let same = |a: &[f32], b: &[f32]| a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits());
        let (two, reports) = fit_model(2, PASS, &set, &s, model());
        let (one, one_reports) = fit_model(1, CHUNK, &set, &s, model());
        let (three, _) = fit_model(3, PASS, &set, &s, model());
        assert!(same(&two, &one) && same(&two, &three));
        assert_eq!(format!("{reports:?}"), format!("{one_reports:?}"));
        let mut plain = model();
        reference(&mut plain, &set.train, &s);
        assert!(same(&two, &plain.theta));
        // The windows' parameters are not those of a fit without the table.
        let (windows_only, _) = fit(2, PASS, &set, k, &s);
        assert_eq!(two.len(), windows_only.len() + material_len(Board8::W));
        assert!(!same(&two[..windows_only.len()], &windows_only));
        let mut fitted = model();
        fitted.theta = two;
        let w = fitted.weights("english");
        assert!(w.uses_material() && w.is_symmetric());
        // Through a version-5 file to the engine, which scores like the model.
        let bytes = w.to_bytes();
        assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), patterns::VERSION);
        let back = PatternWeights::parse(&bytes, "english", Board8::W).unwrap();
        assert_eq!(back, w);
        engine_scores_like(&fitted, &back, &set.train[..200]);
        // A warm start reads the table back; a fit without the table refuses the weights.
        let warm = Model::<Board8>::from_weights(k, &w, true).unwrap();
        assert!(warm.fits_material());
        assert_eq!(warm.weights("english"), w);
        assert!(Model::<Board8>::from_weights(k, &w, false).is_none());
        // Weights without a table start a fit of one at zero, evaluating as before.
        let mut plain_w = w.clone();
        plain_w.material.fill(0);
        let cold = Model::<Board8>::from_weights(k, &plain_w, false).unwrap();
        let zero_table = Model::<Board8>::from_weights(k, &plain_w, true).unwrap();
        assert!(
            zero_table.theta[zero_table.material_start()..]
                .iter()
                .all(|&x| x == 0.0)
        );
        for sample in set.valid.iter().take(50) {
            let f = cold.features(sample);
            assert_eq!(cold.eval(&f).to_bits(), zero_table.eval(&f).to_bits());
        }
    }
}
