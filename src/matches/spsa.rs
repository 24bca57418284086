//! SPSA (simultaneous perturbation stochastic approximation, Spall 1992) over the search's
//! numeric tunables ([`Params`]), measured by engine games: `tiao spsa`.
//!
//! Each iteration `k` (0-based) draws one sign `Δᵢ = ±1` per parameter from a generator seeded
//! by `(seed, k)` alone ([`Spsa::signs`]), plays games of `θ + cₖΔ` (player A) against
//! `θ − cₖΔ` (player B) through the match runner ([`play_iteration`]: one opening per pair,
//! colours swapped), and moves every parameter by
//!
//! `θᵢ ← clamp(θᵢ + Rₖᵢ · cₖᵢ · (W − L) · Δᵢ, minᵢ, maxᵢ)`
//!
//! with W − L A's wins minus losses over the iteration's games. The gains follow Spall's
//! schedule, written in the learning-rate convention of engine testers (fishtest's): per
//! parameter, `c_end` (the perturbation at the last iteration, in the parameter's units) and one
//! `r_end` for all (the learning rate at the end), N the planned iterations, A the stability
//! constant:
//!
//! - `cₖ = c / (k+1)^γ` with `c = c_end · N^γ` (so `c_{N−1} = c_end`);
//! - `aₖ = a / (A+k+1)^α` with `a = r_end · c_end² · (A+N)^α`, and `Rₖ = aₖ / cₖ²` (so
//!   `R_{N−1} = r_end`): the step at the end is `r_end · c_end · (W − L)`.
//!
//! Defaults: α = 0.602, γ = 0.101 (Spall's), `r_end` = 0.002, A = 10% of N.
//!
//! Invariants: θ is kept as real numbers in `[min, max]`; what an engine is given is θ ± cₖΔ
//! clamped to `[min, max]` and, for an integer parameter, rounded ([`Tunable::applied`]), as
//! [`Params::set`] takes it. [`Spsa::update`] is a pure function of θ, `k` and W − L, so a state
//! file ([`read_state`]) is checked line by line on resumption: each line's θ must follow from
//! the line before (within [`FOLLOW_TOLERANCE`], for another machine's floating point). θ is
//! written with Rust's shortest round-trip formatting and a run resumes from the file's θ, so a
//! resumed run continues bit for bit as an uninterrupted one.

use super::runner::{MatchConfig, run_match};
use super::stats::Wdl;
use super::{Control, EngineConfig, Opening, PlayerSpec};
use crate::game::rng::Rng;
use crate::search::Params;
use crate::variant::GameKind;
use std::fmt;
use std::sync::atomic::AtomicBool;

/// Spall's exponent of the step's decay.
pub const ALPHA: f64 = 0.602;
/// Spall's exponent of the perturbation's decay.
pub const GAMMA: f64 = 0.101;
/// The learning rate at the last iteration, fishtest's default.
pub const R_END: f64 = 0.002;
/// The stability constant A as a share of the planned iterations (Spall: about 10%).
pub const STABILITY_SHARE: f64 = 0.1;
/// The first line of a state file (its format's version).
pub const STATE_MAGIC: &str = "# tiao spsa state 1";
/// The prefix of the state file's second line, the command line's identity.
pub const COMMAND_PREFIX: &str = "# command: ";
/// How far a state file's θ may be from the one its line's results give, as a share of the
/// parameter's range: rounding errors, not edits.
pub const FOLLOW_TOLERANCE: f64 = 1e-9;
/// Decimals of a real parameter in the final `key=value` words.
pub const SHOWN_DECIMALS: usize = 3;

/// A refused tuning input: a parameter, the schedule, or a line of a state file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpsaError {
    /// A parameter specification `name:start:min:max:c_end` and why it is refused.
    Tunable { spec: String, reason: String },
    /// The schedule or the set of parameters.
    Setup(String),
    /// A line of a state file (numbered from 1) and what is wrong with it.
    State { line: usize, reason: String },
}

impl fmt::Display for SpsaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpsaError::Tunable { spec, reason } => write!(f, "parameter '{spec}': {reason}"),
            SpsaError::Setup(reason) => f.write_str(reason),
            SpsaError::State { line, reason } => write!(f, "line {line}: {reason}"),
        }
    }
}

impl std::error::Error for SpsaError {}

/// One tuned parameter: a numeric search parameter, its start, its range and the perturbation
/// at the end.
#[derive(Clone, Debug, PartialEq)]
pub struct Tunable {
    /// The name as [`Params::NAMES`] spells it.
    pub name: String,
    /// θ at the start.
    pub start: f64,
    /// Least value.
    pub min: f64,
    /// Greatest value.
    pub max: f64,
    /// The perturbation `cₖ` at the last iteration, in the parameter's units.
    pub c_end: f64,
    /// Whether the parameter takes whole numbers (values are rounded when applied).
    pub integer: bool,
}

impl Tunable {
    /// Reads `name:start:min:max:c_end` (e.g. `rfp-margin:60:20:120:6`): a numeric parameter
    /// of [`Params::NAMES`], `min < max`, `start` in the range, `c_end > 0`, and both ends values
    /// the engine takes as they are.
    pub fn parse(spec: &str) -> Result<Tunable, SpsaError> {
        let spec = spec.trim();
        let bad = |reason: String| SpsaError::Tunable {
            spec: spec.to_string(),
            reason,
        };
        let fields: Vec<&str> = spec.split(':').map(str::trim).collect();
        let [name, start, min, max, c_end] = fields[..] else {
            return Err(bad("expected name:start:min:max:c_end".into()));
        };
        let key = name.to_ascii_lowercase().replace('_', "-");
        let Some(&canonical) = Params::NAMES.iter().find(|n| **n == key) else {
            return Err(bad(format!(
                "unknown search parameter '{name}' (known: {})",
                Params::NAMES.join(", ")
            )));
        };
        let defaults = Params::default();
        if matches!(defaults.get(canonical).as_deref(), Some("on" | "off")) {
            return Err(bad(format!(
                "{canonical} is a switch (on/off), not a number"
            )));
        }
        let number = |what: &str, text: &str| -> Result<f64, SpsaError> {
            match text.parse::<f64>() {
                Ok(x) if x.is_finite() => Ok(x),
                _ => Err(bad(format!("{what} '{text}' is not a number"))),
            }
        };
        let t = Tunable {
            name: canonical.to_string(),
            start: number("start", start)?,
            min: number("min", min)?,
            max: number("max", max)?,
            c_end: number("c_end", c_end)?,
            // A whole-number parameter refuses a fraction.
            integer: defaults.clone().set(canonical, "0.5").is_err(),
        };
        if t.min >= t.max {
            return Err(bad(format!("min {} is not below max {}", t.min, t.max)));
        }
        if !(t.min..=t.max).contains(&t.start) {
            return Err(bad(format!(
                "start {} is not in {}..={}",
                t.start, t.min, t.max
            )));
        }
        if t.c_end <= 0.0 {
            return Err(bad(format!("c_end {} is not above 0", t.c_end)));
        }
        // Both ends (and so every value between) are taken by the engine as given.
        for x in [t.min, t.max] {
            let text = t.text(t.applied(x));
            let mut p = defaults.clone();
            p.set(canonical, &text).map_err(|e| bad(e.to_string()))?;
            let got = p.get(canonical).unwrap_or_default();
            if got.parse::<f64>().ok() != Some(t.applied(x)) {
                return Err(bad(format!("the engine takes {canonical}={text} as {got}")));
            }
        }
        Ok(t)
    }

    /// The specification as [`Tunable::parse`] reads it back.
    pub fn spec(&self) -> String {
        format!(
            "{}:{}:{}:{}:{}",
            self.name, self.start, self.min, self.max, self.c_end
        )
    }

    /// The value an engine is given for `x`: clamped to the range, rounded for an integer
    /// parameter.
    pub fn applied(&self, x: f64) -> f64 {
        let x = x.clamp(self.min, self.max);
        if self.integer { x.round() } else { x }
    }

    /// An applied value as [`Params::set`] reads it.
    pub fn text(&self, applied: f64) -> String {
        if self.integer {
            format!("{}", applied as i64)
        } else {
            format!("{applied}")
        }
    }

    /// θ as a reader wants it: an integer parameter rounded, a real one to
    /// [`SHOWN_DECIMALS`] decimals.
    pub fn shown(&self, x: f64) -> String {
        let v = self.applied(x);
        if self.integer {
            return self.text(v);
        }
        let s = format!("{v:.SHOWN_DECIMALS$}");
        let s = s.trim_end_matches('0').trim_end_matches('.');
        if s == "-0" { "0".into() } else { s.into() }
    }
}

/// Spall's gain schedule in the `c_end`/`r_end` convention (see the module's doc).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    /// N: the planned iterations, at whose last one `cₖ = c_end` and `Rₖ = r_end`.
    pub iterations: u64,
    /// A, the stability constant (iterations).
    pub stability: f64,
    /// α, the step's decay exponent.
    pub alpha: f64,
    /// γ, the perturbation's decay exponent.
    pub gamma: f64,
    /// The learning rate at the end.
    pub r_end: f64,
}

impl Schedule {
    /// N iterations with the defaults: A = [`STABILITY_SHARE`] of N, [`ALPHA`], [`GAMMA`],
    /// [`R_END`].
    pub fn new(iterations: u64) -> Schedule {
        Schedule {
            iterations,
            stability: STABILITY_SHARE * iterations as f64,
            alpha: ALPHA,
            gamma: GAMMA,
            r_end: R_END,
        }
    }

    /// Refuses a schedule that is not one: no iterations, a negative A, exponents or a rate
    /// that are not positive finite numbers.
    pub fn check(&self) -> Result<(), SpsaError> {
        let positive = |x: f64| x.is_finite() && x > 0.0;
        if self.iterations == 0 {
            return Err(SpsaError::Setup("no iterations".into()));
        }
        if !(self.stability.is_finite() && self.stability >= 0.0) {
            return Err(SpsaError::Setup(format!(
                "the stability constant A {} is not a number from 0",
                self.stability
            )));
        }
        for (what, x) in [
            ("alpha", self.alpha),
            ("gamma", self.gamma),
            ("r_end", self.r_end),
        ] {
            if !positive(x) {
                return Err(SpsaError::Setup(format!("{what} {x} is not above 0")));
            }
        }
        Ok(())
    }

    /// `cₖ` of a parameter perturbed by `c_end` at the end.
    pub fn c(&self, c_end: f64, k: u64) -> f64 {
        c_end * (self.iterations as f64 / (k + 1) as f64).powf(self.gamma)
    }

    /// `Rₖ = aₖ / cₖ²` of a parameter perturbed by `c_end` at the end.
    pub fn r(&self, c_end: f64, k: u64) -> f64 {
        let a_ratio = ((self.stability + self.iterations as f64)
            / (self.stability + (k + 1) as f64))
            .powf(self.alpha);
        let c = self.c(c_end, k);
        self.r_end * c_end * c_end * a_ratio / (c * c)
    }
}

/// A tuning run's rule: the parameters, the schedule and the seed of the perturbations.
#[derive(Clone, Debug, PartialEq)]
pub struct Spsa {
    /// The parameters tuned, in the order of the state file's columns.
    pub tunables: Vec<Tunable>,
    /// The gains.
    pub schedule: Schedule,
    /// The seed of the perturbations' signs.
    pub seed: u64,
}

/// An iteration's outcome: what a line of the state file holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// The iteration, from 1.
    pub iteration: u64,
    /// The results of θ + cΔ (player A) against θ − cΔ.
    pub wdl: Wdl,
    /// θ after the update.
    pub theta: Vec<f64>,
}

/// What an iteration's games are played with.
#[derive(Clone, Debug, PartialEq)]
pub struct Trial {
    /// The iteration, from 0.
    pub k: u64,
    /// θ + cₖΔ, as applied (player A).
    pub plus: Vec<f64>,
    /// θ − cₖΔ, as applied (player B).
    pub minus: Vec<f64>,
}

/// splitmix64's finaliser: mixes the seed and the iteration into one generator seed.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

impl Spsa {
    /// A run's rule; refuses no parameters, one named twice, or a bad schedule.
    pub fn new(tunables: Vec<Tunable>, schedule: Schedule, seed: u64) -> Result<Spsa, SpsaError> {
        if tunables.is_empty() {
            return Err(SpsaError::Setup("no parameter to tune".into()));
        }
        for (i, t) in tunables.iter().enumerate() {
            if tunables[..i].iter().any(|u| u.name == t.name) {
                return Err(SpsaError::Setup(format!("{} is given twice", t.name)));
            }
        }
        schedule.check()?;
        Ok(Spsa {
            tunables,
            schedule,
            seed,
        })
    }

    /// θ at the start.
    pub fn start(&self) -> Vec<f64> {
        self.tunables.iter().map(|t| t.start).collect()
    }

    /// The signs of iteration `k`'s perturbation, ±1 each, from `(seed, k)` alone.
    pub fn signs(&self, k: u64) -> Vec<f64> {
        let mut rng = Rng::new(mix(self.seed ^ mix(k)));
        self.tunables
            .iter()
            .map(|_| if rng.next_u64() >> 63 == 0 { 1.0 } else { -1.0 })
            .collect()
    }

    /// The values iteration `k` plays from θ.
    pub fn trial(&self, theta: &[f64], k: u64) -> Trial {
        let signs = self.signs(k);
        let side = |s: f64| -> Vec<f64> {
            self.tunables
                .iter()
                .zip(theta)
                .zip(&signs)
                .map(|((t, &x), &d)| t.applied(x + s * self.schedule.c(t.c_end, k) * d))
                .collect()
        };
        Trial {
            k,
            plus: side(1.0),
            minus: side(-1.0),
        }
    }

    /// θ after iteration `k`, whose games gave player A (θ + cΔ) `result` = wins − losses.
    pub fn update(&self, theta: &[f64], k: u64, result: i64) -> Vec<f64> {
        let signs = self.signs(k);
        self.tunables
            .iter()
            .zip(theta)
            .zip(&signs)
            .map(|((t, &x), &d)| {
                let step = self.schedule.r(t.c_end, k) * self.schedule.c(t.c_end, k);
                (x + step * result as f64 * d).clamp(t.min, t.max)
            })
            .collect()
    }

    /// θ as `name=value` words for a `tiao` engine spec (rounded as [`Tunable::shown`]).
    pub fn words(&self, theta: &[f64]) -> String {
        self.tunables
            .iter()
            .zip(theta)
            .map(|(t, &x)| format!("{}={}", t.name, t.shown(x)))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Plays the iterations after `done` (the steps of a state file) up to the planned ones, or
    /// `limit` more when given: `play` gives A's results for a trial, `on_step` receives each
    /// step as it is made (to write it down). Returns the steps made.
    pub fn run<E>(
        &self,
        done: &[Step],
        limit: Option<u64>,
        mut play: impl FnMut(&Trial) -> Result<Wdl, E>,
        mut on_step: impl FnMut(&Step) -> Result<(), E>,
    ) -> Result<Vec<Step>, E> {
        let mut theta = done
            .last()
            .map_or_else(|| self.start(), |s| s.theta.clone());
        let first = done.len() as u64;
        let last = match limit {
            Some(n) => first.saturating_add(n).min(self.schedule.iterations),
            None => self.schedule.iterations,
        };
        let mut steps = Vec::new();
        for k in first..last {
            let wdl = play(&self.trial(&theta, k))?;
            theta = self.update(&theta, k, wdl.wins as i64 - wdl.losses as i64);
            let step = Step {
                iteration: k + 1,
                wdl,
                theta: theta.clone(),
            };
            on_step(&step)?;
            steps.push(step);
        }
        Ok(steps)
    }

    /// The column names of the state file.
    fn columns(&self) -> String {
        let mut c = vec!["iteration", "wins", "draws", "losses"];
        c.extend(self.tunables.iter().map(|t| t.name.as_str()));
        c.join("\t")
    }

    /// The head of a state file: [`STATE_MAGIC`], the command's identity, the column names.
    pub fn state_header(&self, identity: &str) -> String {
        format!(
            "{STATE_MAGIC}\n{COMMAND_PREFIX}{identity}\n{}\n",
            self.columns()
        )
    }

    /// A step as a line of the state file (tab-separated, θ in shortest round-trip form).
    pub fn state_line(step: &Step) -> String {
        let mut f = vec![
            step.iteration.to_string(),
            step.wdl.wins.to_string(),
            step.wdl.draws.to_string(),
            step.wdl.losses.to_string(),
        ];
        f.extend(step.theta.iter().map(|x| format!("{x}")));
        f.join("\t") + "\n"
    }
}

/// A state file read back.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Resumed {
    /// Its complete, checked steps.
    pub steps: Vec<Step>,
    /// Bytes to keep: the header and the complete lines (an unfinished last line, cut by an
    /// interruption, is dropped).
    pub keep: usize,
    /// Whether an unfinished last line was dropped.
    pub dropped: bool,
    /// Whether the header is there (an empty file has none yet).
    pub has_header: bool,
}

/// Reads a state file of the run `spsa` made by the command line of `identity`: the header must
/// be that run's, each line the next iteration, its θ following from the line before. The error
/// names the first line refused.
pub fn read_state(spsa: &Spsa, identity: &str, text: &str) -> Result<Resumed, SpsaError> {
    if text.is_empty() {
        return Ok(Resumed::default());
    }
    let complete = text.rfind('\n').map_or(0, |i| i + 1);
    let lines: Vec<&str> = text[..complete].lines().collect();
    let bad = |line: usize, reason: String| SpsaError::State { line, reason };
    // The header, written at once: a file cut inside it is not a state file either.
    let cut: String;
    let magic = match lines.first() {
        Some(l) => *l,
        None => {
            cut = text.chars().take(80).collect();
            &cut
        }
    };
    if magic != STATE_MAGIC {
        return Err(bad(
            1,
            format!("not a tiao spsa state file (expected '{STATE_MAGIC}', found '{magic}')"),
        ));
    }
    match lines.get(1).map(|l| l.strip_prefix(COMMAND_PREFIX)) {
        Some(Some(found)) if found == identity => {}
        Some(Some(found)) => {
            return Err(bad(
                2,
                format!(
                    "the state of another command line: {}",
                    differences(found, identity)
                ),
            ));
        }
        _ => return Err(bad(2, format!("expected '{COMMAND_PREFIX}...'"))),
    }
    let columns = spsa.columns();
    if lines.get(2) != Some(&columns.as_str()) {
        return Err(bad(3, format!("expected the column names '{columns}'")));
    }
    let mut steps: Vec<Step> = Vec::new();
    let n = spsa.tunables.len();
    for (i, line) in lines.iter().enumerate().skip(3) {
        let no = i + 1;
        let fields: Vec<&str> = line.split('\t').collect();
        if fields.len() != 4 + n {
            return Err(bad(
                no,
                format!("{} fields, expected {}", fields.len(), 4 + n),
            ));
        }
        let whole = |j: usize| -> Result<u64, SpsaError> {
            fields[j]
                .parse::<u64>()
                .map_err(|_| bad(no, format!("'{}' is not a whole number", fields[j])))
        };
        let iteration = whole(0)?;
        let expected = steps.len() as u64 + 1;
        if iteration != expected {
            return Err(bad(
                no,
                format!("iteration {iteration}, expected {expected}"),
            ));
        }
        if iteration > spsa.schedule.iterations {
            return Err(bad(
                no,
                format!(
                    "iteration {iteration} is past the {} planned",
                    spsa.schedule.iterations
                ),
            ));
        }
        let count = |j: usize| -> Result<u32, SpsaError> {
            u32::try_from(whole(j)?).map_err(|_| bad(no, format!("'{}' is too large", fields[j])))
        };
        let wdl = Wdl {
            wins: count(1)?,
            draws: count(2)?,
            losses: count(3)?,
        };
        let theta = fields[4..]
            .iter()
            .map(|f| {
                f.parse::<f64>()
                    .map_err(|_| bad(no, format!("'{f}' is not a number")))
            })
            .collect::<Result<Vec<f64>, _>>()?;
        let before = steps
            .last()
            .map_or_else(|| spsa.start(), |s| s.theta.clone());
        let after = spsa.update(&before, iteration - 1, wdl.wins as i64 - wdl.losses as i64);
        // Within a rounding error (another machine's `powf` may differ in the last bits); the
        // run goes on from the file's θ, so that it continues as it would have.
        let follows = spsa
            .tunables
            .iter()
            .zip(theta.iter().zip(&after))
            .all(|(t, (x, y))| (x - y).abs() <= FOLLOW_TOLERANCE * (t.max - t.min));
        if !follows {
            return Err(bad(
                no,
                "θ does not follow from the line before and the results (edited, or another \
                 run's)"
                    .into(),
            ));
        }
        steps.push(Step {
            iteration,
            wdl,
            theta,
        });
    }
    Ok(Resumed {
        steps,
        keep: complete,
        dropped: complete < text.len(),
        has_header: true,
    })
}

/// The words of two identities that differ, for a refusal: `seed=1 here, seed=2 in the file`.
fn differences(file: &str, here: &str) -> String {
    let theirs: Vec<&str> = file.split(' ').collect();
    let ours: Vec<&str> = here.split(' ').collect();
    let only = |a: &[&str], b: &[&str]| -> Vec<String> {
        a.iter()
            .filter(|w| !b.contains(w))
            .map(|w| w.to_string())
            .collect()
    };
    let (f, h) = (only(&theirs, &ours), only(&ours, &theirs));
    format!(
        "{} here, {} in the file",
        if h.is_empty() {
            "-".into()
        } else {
            h.join(" ")
        },
        if f.is_empty() {
            "-".into()
        } else {
            f.join(" ")
        }
    )
}

/// The games of an iteration: the settings `tiao spsa` plays with.
#[derive(Clone, Debug)]
pub struct Games {
    /// The game.
    pub kind: GameKind,
    /// Nodes per move.
    pub nodes: u64,
    /// Pairs of games per iteration.
    pub pairs: usize,
    /// Games at the same time.
    pub concurrency: usize,
    /// A game longer than this (plies, openings included) is a draw.
    pub max_plies: u32,
    /// The openings, cycled: iteration `k`'s pair `j` plays opening `(k · pairs + j) mod len`.
    pub openings: Vec<Opening>,
    /// The engine both sides start from; the tuned parameters are set on it.
    pub base: EngineConfig,
}

/// Plays iteration `trial`'s games through the match runner: [`Games::pairs`] openings, each
/// twice with colours swapped, θ + cΔ as player A; A's results.
pub fn play_iteration(spsa: &Spsa, games: &Games, trial: &Trial) -> Result<Wdl, String> {
    if games.openings.is_empty() {
        return Err("no openings".into());
    }
    let engine = |values: &[f64], sign: &str| -> Result<PlayerSpec, String> {
        let mut cfg = games.base.clone();
        for (t, &v) in spsa.tunables.iter().zip(values) {
            cfg.options
                .params
                .set(&t.name, &t.text(v))
                .map_err(|e| e.to_string())?;
        }
        cfg.name = format!("tiao θ{sign}cΔ {}", spsa.words(values));
        Ok(PlayerSpec::Builtin(Box::new(cfg)))
    };
    let (a, b) = (engine(&trial.plus, "+")?, engine(&trial.minus, "-")?);
    let first = trial.k as usize * games.pairs;
    let openings = (0..games.pairs)
        .map(|j| games.openings[(first + j) % games.openings.len()].clone())
        .collect();
    let mut cfg = MatchConfig::new(games.kind, openings);
    cfg.games = 2 * games.pairs;
    cfg.control = Control::Nodes(games.nodes);
    cfg.concurrency = games.concurrency;
    cfg.max_plies = games.max_plies;
    cfg.event = format!("tiao spsa iteration {}", trial.k + 1);
    let stop = AtomicBool::new(false);
    let result = run_match(&cfg, [&a, &b], None, &stop, &|_, _| {})?;
    Ok(result.wdl)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tunable(spec: &str) -> Tunable {
        Tunable::parse(spec).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn parameters_are_checked() {
        let t = tunable("rfp_margin:60:20:120:6");
        assert_eq!(t.name, "rfp-margin");
        assert!(t.integer);
        assert!(!tunable("lmr-divisor:2:1:4:0.25").integer);
        let refused = |spec: &str, part: &str| {
            let e = Tunable::parse(spec).unwrap_err().to_string();
            assert!(e.contains(part), "{spec}: {e}");
        };
        refused("bogus:1:0:2:1", "unknown search parameter 'bogus'");
        refused("lmr:1:0:2:1", "is a switch");
        refused("rfp-margin:60:120:20:6", "min 120 is not below max 20");
        refused("rfp-margin:60:20:20:6", "not below");
        refused("rfp-margin:10:20:120:6", "start 10 is not in 20..=120");
        refused("rfp-margin:60:20:120:0", "c_end 0 is not above 0");
        refused("rfp-margin:60:20:120", "expected name:start:min:max:c_end");
        refused("rfp-margin:x:20:120:6", "start 'x' is not a number");
        refused("rfp-margin:60:nan:120:6", "min 'nan'");
        refused("lmr-divisor:1:0:4:0.2", "lmr-divisor must be positive");
        refused("lmp-base:3:-1:8:1", "lmp-base");
        refused(
            "probcut-min-depth:3:1:6:1",
            "takes probcut-min-depth=1 as 2",
        );
    }

    #[test]
    fn values_are_clamped_and_rounded_when_applied() {
        let t = tunable("rfp-margin:60:20:120:6");
        assert_eq!(t.applied(57.5), 58.0);
        assert_eq!(t.applied(200.0), 120.0);
        assert_eq!(t.text(t.applied(19.2)), "20");
        let f = tunable("lmr-divisor:2:1:4:0.25");
        assert_eq!(f.applied(2.3456), 2.3456);
        assert_eq!(f.shown(2.3456), "2.346");
        assert_eq!(f.shown(2.0), "2");
        assert_eq!(t.spec(), "rfp-margin:60:20:120:6");
    }

    #[test]
    fn the_schedule_ends_at_c_end_and_r_end() {
        let s = Schedule::new(1000);
        assert!((s.c(5.0, 999) - 5.0).abs() < 1e-12);
        assert!((s.r(5.0, 999) - R_END).abs() < 1e-15);
        assert!(s.c(5.0, 0) > s.c(5.0, 500));
        assert!(s.r(5.0, 0) * s.c(5.0, 0) > s.r(5.0, 999) * s.c(5.0, 999));
        assert!(Schedule { iterations: 0, ..s }.check().is_err());
        assert!(Schedule { alpha: 0.0, ..s }.check().is_err());
        assert!(
            Schedule {
                r_end: f64::NAN,
                ..s
            }
            .check()
            .is_err()
        );
        assert!(
            Schedule {
                stability: -1.0,
                ..s
            }
            .check()
            .is_err()
        );
    }

    #[test]
    fn signs_depend_on_the_seed_and_the_iteration_only() {
        let ts = vec![
            tunable("rfp-margin:60:20:120:6"),
            tunable("lmp-base:3:1:8:1"),
            tunable("lmr-divisor:2:1:4:0.25"),
            tunable("probcut-margin:10:0:40:3"),
        ];
        let a = Spsa::new(ts.clone(), Schedule::new(100), 7).unwrap();
        let b = Spsa::new(ts.clone(), Schedule::new(5000), 7).unwrap();
        let c = Spsa::new(ts, Schedule::new(100), 8).unwrap();
        let all: Vec<Vec<f64>> = (0..64).map(|k| a.signs(k)).collect();
        assert!(all.iter().flatten().all(|s| *s == 1.0 || *s == -1.0));
        assert_eq!(all, (0..64).map(|k| b.signs(k)).collect::<Vec<_>>());
        assert_ne!(all, (0..64).map(|k| c.signs(k)).collect::<Vec<_>>());
        // Both signs come up for every parameter.
        for i in 0..4 {
            assert!(all.iter().any(|s| s[i] > 0.0) && all.iter().any(|s| s[i] < 0.0));
        }
        assert!(Spsa::new(vec![], Schedule::new(1), 1).is_err());
        let twice = vec![tunable("lmp-base:3:1:8:1"), tunable("lmp_base:3:1:8:1")];
        assert!(Spsa::new(twice, Schedule::new(1), 1).is_err());
    }

    /// A fake match: the side whose parameters are nearer `best` (summed distance in units of
    /// each range) wins every game of the pair, the other loses; equal: draws.
    fn fake(best: &[f64], spsa: &Spsa) -> impl Fn(&Trial) -> Result<Wdl, ()> {
        let best = best.to_vec();
        let ranges: Vec<f64> = spsa.tunables.iter().map(|t| t.max - t.min).collect();
        move |t: &Trial| {
            let far = |v: &[f64]| -> f64 {
                v.iter()
                    .zip(&best)
                    .zip(&ranges)
                    .map(|((x, b), r)| ((x - b) / r).abs())
                    .sum()
            };
            let (p, m) = (far(&t.plus), far(&t.minus));
            Ok(if p < m {
                Wdl {
                    wins: 2,
                    draws: 0,
                    losses: 0,
                }
            } else if m < p {
                Wdl {
                    wins: 0,
                    draws: 0,
                    losses: 2,
                }
            } else {
                Wdl {
                    wins: 0,
                    draws: 2,
                    losses: 0,
                }
            })
        }
    }

    #[test]
    fn theta_moves_toward_the_better_side_and_stays_in_range() {
        let ts = vec![
            tunable("rfp-margin:60:20:120:8"),
            tunable("lmr-divisor:2:1:4:0.3"),
        ];
        let mut schedule = Schedule::new(400);
        schedule.r_end = 0.05;
        let spsa = Spsa::new(ts, schedule, 3).unwrap();
        // One step: A (θ + cΔ) won, so θ moves along Δ, by R·c·(W−L) each.
        let t0 = spsa.trial(&spsa.start(), 0);
        let th = spsa.update(&spsa.start(), 0, 2);
        for (i, s) in spsa.signs(0).iter().enumerate() {
            assert_eq!((th[i] - spsa.start()[i]).signum(), *s, "{i}");
            assert_eq!((t0.plus[i] - t0.minus[i]).signum(), *s, "{i}");
        }
        // A loss moves it the other way; a draw leaves it.
        let back = spsa.update(&spsa.start(), 0, -2);
        assert_eq!(back[0] - spsa.start()[0], spsa.start()[0] - th[0]);
        assert_eq!(spsa.update(&spsa.start(), 0, 0), spsa.start());
        // Many iterations: toward the optimum.
        let best = [90.0, 3.0];
        let steps = spsa.run(&[], None, fake(&best, &spsa), |_| Ok(())).unwrap();
        assert_eq!(steps.len(), 400);
        let end = &steps.last().unwrap().theta;
        assert!((end[0] - 90.0).abs() < 10.0, "{end:?}");
        assert!((end[1] - 3.0).abs() < 0.4, "{end:?}");
        // An optimum outside the range: θ stops at the bound.
        let steps = spsa
            .run(&[], None, fake(&[500.0, 0.0], &spsa), |_| Ok(()))
            .unwrap();
        for s in &steps {
            assert!((20.0..=120.0).contains(&s.theta[0]) && (1.0..=4.0).contains(&s.theta[1]));
        }
        assert!(steps.iter().any(|s| s.theta[0] == 120.0));
        assert!(steps.iter().any(|s| s.theta[1] == 1.0));
        let end = &steps.last().unwrap().theta;
        assert!(end[0] > 110.0 && end[1] < 1.1, "{end:?}");
    }

    #[test]
    fn runs_resume_and_state_files_are_checked() {
        let ts = vec![
            tunable("rfp-margin:60:20:120:8"),
            tunable("lmr-divisor:2:1:4:0.3"),
        ];
        let spsa = Spsa::new(ts, Schedule::new(30), 5).unwrap();
        let play = fake(&[80.0, 2.5], &spsa);
        let mut whole = spsa.state_header("id");
        spsa.run(&[], None, &play, |s| {
            whole.push_str(&Spsa::state_line(s));
            Ok(())
        })
        .unwrap();
        // Ten, then the rest, from a file cut in the middle of a line.
        let mut part = spsa.state_header("id");
        spsa.run(&[], Some(10), &play, |s| {
            part.push_str(&Spsa::state_line(s));
            Ok(())
        })
        .unwrap();
        part.push_str("11\t2\t0");
        let r = read_state(&spsa, "id", &part).unwrap();
        assert_eq!((r.steps.len(), r.dropped), (10, true));
        part.truncate(r.keep);
        spsa.run(&r.steps, None, &play, |s| {
            part.push_str(&Spsa::state_line(s));
            Ok(())
        })
        .unwrap();
        assert_eq!(part, whole);
        let r = read_state(&spsa, "id", &whole).unwrap();
        assert_eq!((r.steps.len(), r.dropped), (30, false));
        // Refusals name the line.
        let refused = |text: &str, id: &str, part: &str| {
            let e = read_state(&spsa, id, text).unwrap_err().to_string();
            assert!(e.contains(part), "{e}");
        };
        refused("hello\n", "id", "line 1: not a tiao spsa state file");
        refused(&whole, "other", "line 2: the state of another command line");
        let edited = whole.replacen("\n5\t", "\n6\t", 1);
        refused(&edited, "id", "line 8: iteration 6, expected 5");
        let lines: Vec<&str> = whole.lines().collect();
        let mut fields: Vec<&str> = lines[5].split('\t').collect();
        // A rounding error is taken (and kept: the run goes on from the file's θ); an edit is
        // refused.
        let near = format!("{}", fields[4].parse::<f64>().unwrap() + 1e-10);
        fields[4] = &near;
        let nearly = whole.replace(lines[5], &fields.join("\t"));
        let r = read_state(&spsa, "id", &nearly).unwrap();
        assert_eq!(format!("{}", r.steps[2].theta[0]), near);
        fields[4] = "61.5";
        let edited = whole.replace(lines[5], &fields.join("\t"));
        refused(&edited, "id", "line 6: θ does not follow");
        let edited = whole.replace(lines[5], "3\t1\t1");
        refused(&edited, "id", "line 6: 3 fields, expected 6");
        let e = differences("a=1 b=2 c=3", "a=1 b=5 c=3");
        assert_eq!(e, "b=5 here, b=2 in the file");
    }
}
