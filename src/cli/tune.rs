//! `tiao tune`: fits a draughts family's evaluation weights to the results of PDN games and
//! prints them as the `Weights` value to put in `src/draughts/eval/weights.rs` (the fitting is
//! `tiao::training::texel`).

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::time::Instant;
use tiao::dispatch;
use tiao::draughts::eval::patterns;
use tiao::draughts::eval::weights::{self, Term};
use tiao::draughts::rules::Rules;
use tiao::pdn;
use tiao::training::{data, sparse, texel};
use tiao::variant::GameKind;

#[derive(Args, Debug)]
#[command(after_help = "Examples:
  tiao match --engine tiao --engine tiao --nodes 4000 --games 16000 --opening-plies 8 --concurrency 2 --pdn games.pdn
  tiao tune --pdn games.pdn --skip-plies 8

The weights printed are those of the variant's family (international; brazilian, russian and
duoyibu share one; english). The engine uses them once they replace the family's constant in
src/draughts/eval/weights.rs and it is rebuilt: match the new build against the old one before keeping them.")]
pub struct TuneArgs {
    #[command(flatten)]
    game: super::GameArgs,
    /// PDN file of finished games (repeatable): every position after the opening whose side to
    /// move has no capture is a sample, labelled with its game's result. Fits the hand-made
    /// weights (Texel method).
    #[arg(
        long,
        value_name = "FILE",
        required_unless_present = "data",
        conflicts_with = "data"
    )]
    pdn: Vec<String>,
    /// Self-play data (`tiao selfplay`, repeatable): fits the pattern weights (sparse trainer)
    /// and writes them to --out.
    #[command(flatten)]
    patterns: PatternArgs,
    /// Plies at the start of each game left out (the opening the games were started from).
    #[arg(long, default_value_t = 8)]
    skip_plies: usize,
    /// Steps of the fit at most, 1..=100000.
    #[arg(long, default_value_t = 100, value_parser = super::whole::<usize>(1, 100_000))]
    iterations: usize,
    /// Weights kept as they are, by name (repeatable): king, advance[3], centre, ...
    #[arg(long, value_name = "NAME")]
    fix: Vec<String>,
    /// Percent of the games held out to test the fitted weights on (every n-th game), 0..=99.
    #[arg(long, default_value_t = 10, value_parser = super::whole::<usize>(0, 99))]
    test_percent: usize,
}

/// The pattern trainer's arguments.
#[derive(Args, Debug)]
struct PatternArgs {
    /// Self-play data file (repeatable).
    #[arg(long, value_name = "FILE")]
    data: Vec<String>,
    /// Where the pattern weights go (e.g. weights/international.tpw).
    #[arg(long, value_name = "FILE", requires = "data")]
    out: Option<String>,
    /// Passes over the data.
    #[arg(long, default_value_t = 12, value_parser = super::whole::<usize>(1, 1000))]
    epochs: usize,
    /// Samples per step.
    #[arg(long, default_value_t = 8192, value_parser = super::whole::<usize>(1, 1 << 24))]
    batch: usize,
    /// Adam's initial step, centi-men (decays linearly to a tenth).
    #[arg(long, default_value_t = 1.0)]
    lr: f32,
    /// Weight of the game result in the target; the rest is the search score's.
    #[arg(long, default_value_t = 0.1)]
    lambda: f32,
    /// Ridge regularisation per sample and weight used (see tiao::training::sparse).
    #[arg(long, default_value_t = 0.0)]
    decay: f32,
    /// Seed of the batch order.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Every n-th game is held out for validation.
    #[arg(long, default_value_t = 20)]
    holdout: usize,
    /// Trainer threads.
    #[arg(long, short, default_value_t = std::thread::available_parallelism().map_or(1, |n| n.get()),
          value_parser = super::whole::<usize>(1, super::MAX_PARALLEL))]
    threads: usize,
}

pub fn run(args: TuneArgs) -> Result<(), String> {
    let kind = args.game.kind();
    if !args.patterns.data.is_empty() {
        return dispatch!(kind, R => run_patterns::<R>(&args.patterns, kind), morris => {
            Err("tiao tune fits the draughts evaluation; morris has its own".to_string())
        });
    }
    dispatch!(kind, R => run_rules::<R>(&args, kind), morris => {
        Err("tiao tune fits the draughts evaluation; morris has its own".to_string())
    })
}

fn run_rules<R: Rules>(args: &TuneArgs, kind: GameKind) -> Result<(), String> {
    let start = Instant::now();
    let fixed = args
        .fix
        .iter()
        .map(|name| {
            Term::ALL
                .into_iter()
                .find(|t| t.name() == *name)
                .ok_or_else(|| {
                    let names: Vec<String> = Term::ALL.iter().map(|t| t.name()).collect();
                    format!(
                        "--fix {name}: no such weight (weights: {})",
                        names.join(", ")
                    )
                })
        })
        .collect::<Result<Vec<Term>, String>>()?;
    let mut games = Vec::new();
    for path in &args.pdn {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        games.extend(pdn::parse(&text).map_err(|e| format!("{path}: {e}"))?);
    }
    let collected = texel::collect::<R>(&games, args.skip_plies);
    for s in collected.skipped.iter().take(5) {
        eprintln!("skipped {s}");
    }
    // Every n-th game is held out for the test.
    let every = 100usize
        .checked_div(args.test_percent)
        .map_or(0, |n| n.max(2));
    let (train, test) = collected.split(every);
    if train.is_empty() {
        return Err("no positions to fit: the games have no result, or none is long enough".into());
    }
    let (family, current) = weights::family::<R>();
    let current = current.clone();
    println!(
        "tune {} (weights {family}): {} positions from {} games ({} skipped): {} to fit, {} to test",
        kind.variant.name(),
        collected.samples.len(),
        collected.game_starts.len(),
        collected.skipped.len(),
        train.len(),
        test.len()
    );
    let before = texel::vector(&current);
    let k = texel::fit_scale(&train, &before);
    println!("scale: {k:.6} per centi-man (fitted to the current weights)");
    let report = |label: &str, v: &texel::Vector| {
        let test_error = if test.is_empty() {
            String::new()
        } else {
            format!(", test {:.6}", texel::error(&test, v, k))
        };
        println!(
            "mean squared error, {label}: fit {:.6}{test_error}",
            texel::error(&train, v, k)
        );
    };
    report("current weights", &before);
    let free = texel::free_terms(&train, &fixed);
    let fitted = texel::fit_weights(&train, &before, k, &free, args.iterations, |step, e| {
        println!("step {step:>3}: fit {e:.6}");
    });
    let new = texel::rounded(&current, &fitted);
    report("fitted weights (rounded)", &texel::vector(&new));
    println!("{:<22} {:>8} {:>8}", "weight", "current", "fitted");
    for t in Term::ALL {
        let note = if free[t.index()] { "" } else { "  (kept)" };
        println!(
            "{:<22} {:>8} {:>8}{note}",
            t.name(),
            current.get(t),
            new.get(t)
        );
    }
    println!(
        "fitted in {:.1} s; for src/draughts/eval/weights.rs:",
        start.elapsed().as_secs_f64()
    );
    // `Weights`' Debug form is its Rust expression.
    println!("pub const {family}: Weights = {new:#?};");
    Ok(())
}

fn run_patterns<R: Rules>(a: &PatternArgs, kind: GameKind) -> Result<(), String> {
    let out = a
        .out
        .as_deref()
        .ok_or("--data needs --out FILE, where the pattern weights go")?;
    if !(a.lr.is_finite() && a.lr > 0.0 && a.lr <= 100.0) {
        return Err(format!("--lr {}: must be above 0 and at most 100", a.lr));
    }
    if !(a.lambda.is_finite() && (0.0..=1.0).contains(&a.lambda)) {
        return Err(format!("--lambda {}: must be 0 to 1", a.lambda));
    }
    if !(a.decay.is_finite() && (0.0..1.0).contains(&a.decay)) {
        return Err(format!("--decay {}: must be 0 to below 1", a.decay));
    }
    // Refuse an unwritable output before the work.
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
        .map_err(|e| format!("{out}: {e}"))?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(a.threads)
        .build()
        .map_err(|e| format!("thread pool: {e}"))?;
    pool.install(|| train_patterns::<R>(a, kind, out))
}

fn train_patterns<R: Rules>(a: &PatternArgs, kind: GameKind, out: &str) -> Result<(), String> {
    let start = Instant::now();
    let mut records = Vec::new();
    for path in &a.data {
        let f = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
        records.extend(
            data::read_all(std::io::BufReader::new(f), kind.variant)
                .map_err(|e| format!("{path}: {e}"))?,
        );
    }
    let prepared = sparse::prepare::<R>(&records, a.holdout);
    drop(records);
    if prepared.train.is_empty() {
        return Err("no positions to train on".into());
    }
    let family = patterns::family_name::<R>();
    let k = sparse::fit_scale(&prepared.train);
    println!(
        "tune patterns {} (family {family}): {} positions of {} games ({} skipped): {} to fit, \
         {} held out; scale {k:.6} per centi-man; read in {:.1} s",
        kind.variant.name(),
        prepared.train.len() + prepared.valid.len(),
        prepared.games,
        prepared.skipped,
        prepared.train.len(),
        prepared.valid.len(),
        start.elapsed().as_secs_f64()
    );
    let mut model = sparse::Model::new::<R::Board>(k);
    let settings = sparse::TrainSettings {
        lambda: a.lambda,
        epochs: a.epochs,
        batch: a.batch,
        lr: a.lr,
        decay: a.decay,
        seed: a.seed,
        holdout: a.holdout,
    };
    let hand_valid = model.loss(&prepared.valid, 1.0);
    println!(
        "hand-made evaluation alone: fit loss {:.6}, held-out loss {hand_valid:.6} (results)",
        model.loss(&prepared.train, a.lambda)
    );
    let bar = ProgressBar::new((prepared.train.len() * a.epochs) as u64).with_style(
        ProgressStyle::with_template("{bar:40} epoch {msg}  [{elapsed_precise}, {eta} left]")
            .expect("a valid template"),
    );
    bar.set_message(format!("1/{}", a.epochs));
    sparse::train(
        &mut model,
        &prepared.train,
        &prepared.valid,
        &settings,
        |n| bar.inc(n as u64),
        |r| {
            bar.set_message(format!(
                "{}/{}: fit loss {:.6}, held-out {:.6}",
                (r.epoch + 1).min(a.epochs),
                a.epochs,
                r.train,
                r.valid
            ));
            bar.suspend(|| {
                println!(
                    "epoch {:>3}: fit loss {:.6}, held-out loss {:.6} (hand-made alone \
                     {hand_valid:.6})",
                    r.epoch, r.train, r.valid
                )
            });
        },
    );
    bar.finish_and_clear();
    let weights = model.weights(family);
    std::fs::write(out, weights.to_bytes()).map_err(|e| format!("{out}: {e}"))?;
    println!(
        "wrote {out} ({} windows, {} weights) in {:.1} s; rebuild tiao to embed it when it is \
         weights/{family}.tpw",
        weights.windows,
        weights.table.len(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
