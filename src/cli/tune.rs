//! `tiao tune`: fits an evaluation's weights to the results of PDN games and prints them as the
//! `Weights` value to paste: a draughts family's into `src/draughts/eval/weights.rs`, Morris'
//! (`-v morris`) into `src/morris/eval.rs` (the fitting is `tiao::training::texel`). With
//! `--data`, fits the draughts pattern weights instead (`tiao::training::sparse`).

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::time::Instant;
use tiao::dispatch;
use tiao::draughts::board::Geometry;
use tiao::draughts::eval::patterns;
use tiao::draughts::eval::weights::{self, Term};
use tiao::draughts::rules::Rules;
use tiao::game::Variant;
use tiao::morris::eval::{WEIGHTS as MORRIS_WEIGHTS, Weights as MorrisWeights};
use tiao::training::sparse;
use tiao::training::texel::{self, draughts, morris};
use tiao::variant::GameKind;

#[derive(Args, Debug)]
#[command(after_help = "Examples:
  tiao match --engine tiao --engine tiao --nodes 4000 --games 16000 --opening-plies 8 --concurrency 2 --pdn games.pdn
  tiao tune --pdn games.pdn --skip-plies 8
  tiao match -v morris --engine tiao --engine tiao --nodes 2000 --games 2000 --opening-plies 8 --pdn morris.pdn
  tiao tune -v morris --pdn morris.pdn --skip-plies 8

The weights printed are those of the variant's family (international; brazilian, russian and
duoyibu share one; english), or Morris' WEIGHTS. The engine uses them once they replace the
constant in src/draughts/eval/weights.rs (src/morris/eval.rs) and it is rebuilt: match the new
build against the old one before keeping them.")]
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
    /// Weights kept as they are, by name (repeatable): king, advance[3], centre, ... (morris:
    /// the fields of its Weights, mill, open_mill, ...)
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
    /// Start from these pattern weights instead of zero: a weight file, or `embedded` for the
    /// build's own (a warm start: configurations the data does not show keep their weights).
    /// Windows of the fit (--shape) larger than its own start from the sums of the smaller
    /// windows they hold (the same evaluation); smaller ones are refused.
    #[arg(long, value_name = "FILE", requires = "data")]
    init: Option<String>,
    /// A layer's window shape, LAYER=4xR (repeatable): LAYER men, kings or mixed, R rows 4, 5
    /// or 6 (8, 10 or 12 squares: 6561, 59049 or 531441 configurations a window); the layers
    /// not named keep 4x4. Example: --shape men=4x5.
    #[arg(long, value_name = "LAYER=4xR", requires = "data", value_parser = parse_layer_shape)]
    shape: Vec<(usize, patterns::Shape)>,
    /// Fit a material table with the patterns: one weight per material signature (each side's
    /// men, and kings up to 3), added to the evaluation, so that the worth of an advantage can
    /// depend on the material as a whole (a man up with a king each is nearly a draw). The file
    /// is then of format version 5; a warm start from a version-4 file starts the table at zero.
    #[arg(long, requires = "data")]
    material: bool,
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
    /// Weight of the game result in the target of the positions where both sides have a king
    /// (default: --lambda): the self-play's scores there promise wins that end drawn.
    #[arg(long, value_name = "LAMBDA", requires = "data")]
    lambda_both_kings: Option<f32>,
    /// Ridge regularisation per sample and weight used (see tiao::training::sparse).
    #[arg(long, default_value_t = 0.0)]
    decay: f32,
    /// Seed of the batch order.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Every n-th game is held out for validation.
    #[arg(long, default_value_t = 20)]
    holdout: usize,
    /// Threads of the fit (either trainer).
    #[arg(long, short, default_value_t = std::thread::available_parallelism().map_or(1, |n| n.get()),
          value_parser = super::whole::<usize>(1, super::MAX_PARALLEL))]
    threads: usize,
}

/// `LAYER=4xR` of `--shape`: the layer's index and the shape.
fn parse_layer_shape(s: &str) -> Result<(usize, patterns::Shape), String> {
    let (layer, shape) = s
        .split_once('=')
        .ok_or_else(|| format!("{s}: LAYER=4xR, e.g. men=4x5"))?;
    let layer = patterns::LAYER_NAMES
        .iter()
        .position(|&l| l == layer)
        .ok_or_else(|| format!("layer {layer}: one of {}", patterns::LAYER_NAMES.join(", ")))?;
    Ok((layer, shape.parse()?))
}

pub fn run(args: TuneArgs) -> Result<(), String> {
    let kind = args.game.kind();
    if !args.patterns.data.is_empty() {
        return dispatch!(kind, R => run_patterns::<R>(&args.patterns, kind), morris => {
            Err("--data fits the draughts pattern weights; morris has none (fit its weights \
                 with --pdn)"
                .to_string())
        });
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.patterns.threads)
        .build()
        .map_err(|e| format!("thread pool: {e}"))?;
    pool.install(|| dispatch!(kind, R => run_rules::<R>(&args, kind), morris => run_morris(&args)))
}

/// The share of the games held out: every n-th game (0: none).
fn holdout_every(test_percent: usize) -> usize {
    100usize.checked_div(test_percent).map_or(0, |n| n.max(2))
}

/// The fit and test errors of a weight vector, as a line.
fn errors_line<const N: usize>(
    label: &str,
    train: &[texel::Sample<N>],
    test: &[texel::Sample<N>],
    v: &texel::Vector<N>,
    k: f64,
) -> String {
    let test_error = if test.is_empty() {
        String::new()
    } else {
        format!(", test {:.6}", texel::error(test, v, k))
    };
    format!(
        "mean squared error, {label}: fit {:.6}{test_error}",
        texel::error(train, v, k)
    )
}

/// The fit either game shares: holds every n-th game out, fits the scale to the weights
/// `before`, then the `free` terms (reporting each step), and prints the errors before and after
/// (those of the weights as `round` rounds them). Returns the fitted vector and which terms were
/// free.
fn fit_and_report<const N: usize>(
    args: &TuneArgs,
    title: &str,
    collected: texel::Collected<N>,
    games: usize,
    before: texel::Vector<N>,
    free: impl FnOnce(&[texel::Sample<N>]) -> [bool; N],
    round: impl Fn(&texel::Vector<N>) -> texel::Vector<N>,
) -> Result<(texel::Vector<N>, [bool; N]), String> {
    for s in collected.skipped.iter().take(5) {
        eprintln!("skipped {s}");
    }
    let (train, test) = collected.split(holdout_every(args.test_percent));
    if train.is_empty() {
        return Err(texel::TuneError::NoSamples {
            games,
            skipped: collected.skipped,
        }
        .to_string());
    }
    println!(
        "{title}: {} positions from {} games ({} skipped): {} to fit, {} to test",
        collected.samples.len(),
        collected.game_starts.len(),
        collected.skipped.len(),
        train.len(),
        test.len()
    );
    let k = texel::fit_scale(&train, &before);
    println!("scale: {k:.6} per centi-man (fitted to the current weights)");
    println!(
        "{}",
        errors_line("current weights", &train, &test, &before, k)
    );
    let free = free(&train);
    let fitted = texel::fit_weights(&train, &before, k, &free, args.iterations, |step, e| {
        println!("step {step:>3}: fit {e:.6}");
    });
    println!(
        "{}",
        errors_line(
            "fitted weights (rounded)",
            &train,
            &test,
            &round(&fitted),
            k
        )
    );
    Ok((fitted, free))
}

fn run_morris(args: &TuneArgs) -> Result<(), String> {
    let start = Instant::now();
    let fixed = args
        .fix
        .iter()
        .map(|name| {
            morris::term_of(name).ok_or_else(|| {
                format!(
                    "--fix {name}: no such weight (weights: {})",
                    MorrisWeights::NAMES.join(", ")
                )
            })
        })
        .collect::<Result<Vec<usize>, String>>()?;
    let games = texel::read_games(&args.pdn, Variant::Morris).map_err(|e| e.to_string())?;
    let collected = morris::collect(&games, args.skip_plies);
    let current = MORRIS_WEIGHTS;
    let (fitted, free) = fit_and_report(
        args,
        "tune morris",
        collected,
        games.len(),
        morris::vector(&current),
        |train| morris::free_terms(train, &fixed),
        |v| morris::vector(&morris::rounded(v)),
    )?;
    let new = morris::rounded(&fitted);
    println!("{:<22} {:>8} {:>8}", "weight", "current", "fitted");
    for (i, name) in MorrisWeights::NAMES.iter().enumerate() {
        let note = if free[i] { "" } else { "  (kept)" };
        println!(
            "{name:<22} {:>8} {:>8}{note}",
            current.to_array()[i],
            new.to_array()[i]
        );
    }
    println!(
        "fitted in {:.1} s; for src/morris/eval.rs:",
        start.elapsed().as_secs_f64()
    );
    // `Weights`' Debug form is its Rust expression.
    println!("pub const WEIGHTS: Weights = {new:#?};");
    Ok(())
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
    let games = texel::read_games(&args.pdn, kind.variant).map_err(|e| e.to_string())?;
    let collected = draughts::collect::<R>(&games, args.skip_plies);
    let (family, current) = weights::family::<R>();
    let current = current.clone();
    let (fitted, free) = fit_and_report(
        args,
        &format!("tune {} (weights {family})", kind.variant.name()),
        collected,
        games.len(),
        draughts::vector(&current),
        |train| draughts::free_terms(train, &fixed),
        |v| draughts::vector(&draughts::rounded(&current, v)),
    )?;
    let new = draughts::rounded(&current, &fitted);
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
    // A weight of the result: a share, 0 to 1.
    let share = |flag: &str, x: f32| {
        if x.is_finite() && (0.0..=1.0).contains(&x) {
            Ok(x)
        } else {
            Err(format!("{flag} {x}: must be 0 to 1"))
        }
    };
    let plain = share("--lambda", a.lambda)?;
    let lambda = sparse::Lambda {
        plain,
        both_kings: share("--lambda-both-kings", a.lambda_both_kings.unwrap_or(plain))?,
    };
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
    pool.install(|| train_patterns::<R>(a, kind, out, lambda))
}

fn train_patterns<R: Rules>(
    a: &PatternArgs,
    kind: GameKind,
    out: &str,
    lambda: sparse::Lambda,
) -> Result<(), String> {
    let start = Instant::now();
    let set = sparse::load::<R>(&a.data, kind.variant, a.holdout).map_err(|e| e.to_string())?;
    if set.train.is_empty() {
        return Err("no positions to train on".into());
    }
    let family = patterns::family_name::<R>();
    let k = sparse::fit_scale(&set.train);
    println!(
        "tune patterns {} (family {family}): {} positions of {} games ({} skipped): {} to fit, \
         {} held out ({} MiB, {} bytes a position to fit); scale {k:.6} per centi-man; read in \
         {:.1} s",
        kind.variant.name(),
        set.train.len() + set.valid.len(),
        set.games,
        set.skipped,
        set.train.len(),
        set.valid.len(),
        (set.train.len() * sparse::BYTES_PER_POSITION + set.valid.len() * sparse::SAMPLE_BYTES)
            >> 20,
        sparse::BYTES_PER_POSITION,
        start.elapsed().as_secs_f64()
    );
    let mut shapes = patterns::SHAPES_4X4;
    for &(layer, shape) in &a.shape {
        shapes[layer] = shape;
    }
    // The smaller windows the fit starts from, read through the fit's: the file it writes is
    // stored as its differences from them when that is smaller (ENCODING_READ_THROUGH).
    let mut base = None;
    let mut model = match a.init.as_deref() {
        None if a.material => sparse::Model::<R::Board>::with_shapes(k, shapes).with_material(),
        None => sparse::Model::<R::Board>::with_shapes(k, shapes),
        Some(init) => {
            let bytes = match init {
                "embedded" => patterns::embedded_file(family)
                    .ok_or_else(|| format!("no embedded weights for {family}"))?
                    .to_vec(),
                f => std::fs::read(f).map_err(|e| format!("--init {f}: {e}"))?,
            };
            let (w, through) =
                patterns::PatternWeights::parse_with_base(&bytes, family, R::Board::W)
                    .map_err(|e| format!("--init {init}: {e}"))?;
            if w.uses_material() && !a.material {
                return Err(format!(
                    "--init {init}: the weights have a material table, which a fit without \
                     --material would drop; add --material"
                ));
            }
            let w = if w.shapes == shapes {
                // A file read through smaller windows: the fit's file is read through them too.
                base = through;
                w
            } else {
                // Larger windows start from the sums of the smaller ones they hold.
                let lifted = w.lifted(shapes).map_err(|e| {
                    format!(
                        "--init {init}: windows {}, where the fit's are {} (--shape): {e}",
                        patterns::shapes_name(&w.shapes),
                        patterns::shapes_name(&shapes)
                    )
                })?;
                println!(
                    "--init {init}: windows {} read through the fit's {}",
                    patterns::shapes_name(&w.shapes),
                    patterns::shapes_name(&shapes)
                );
                // The fit's file stores its differences from this read-through.
                base = Some(w);
                lifted
            };
            let model = sparse::Model::<R::Board>::from_weights(k, &w, a.material)
                .ok_or_else(|| format!("--init {init}: not {family}'s windows"))?;
            let (valid, _) = model.losses(&set.valid, lambda);
            println!("starting from {init}: held-out loss {valid:.6} (results)");
            model
        }
    };
    let settings = sparse::TrainSettings {
        lambda,
        epochs: a.epochs,
        batch: a.batch,
        lr: a.lr,
        decay: a.decay,
        seed: a.seed,
        holdout: a.holdout,
    };
    let (hand_valid, _) = sparse::hand_losses(&set.valid, k, lambda);
    println!(
        "hand-made evaluation alone: fit loss {:.6}, held-out loss {hand_valid:.6} (results)",
        sparse::hand_losses(&set.train, k, lambda).1
    );
    // The held-out positions where both sides have a king, apart: where the search's scores
    // and the results part most.
    let valid_both: Vec<sparse::Sample> = set
        .valid
        .iter()
        .copied()
        .filter(|s| s.both_kings())
        .collect();
    let both_before = model.losses(&valid_both, lambda).0;
    // One bar an epoch, over its batches, on stderr (hidden when stderr is no terminal: the
    // epoch lines below are the log).
    let steps = set.train.len().div_ceil(a.batch);
    let bar = ProgressBar::new(steps as u64).with_style(
        ProgressStyle::with_template(
            "epoch {msg} {bar:30} {pos}/{len} batches [{elapsed_precise}, {eta} left]",
        )
        .expect("a valid template"),
    );
    bar.set_message(format!("1/{}", a.epochs));
    let mut epoch_start = Instant::now();
    sparse::train(
        &mut model,
        &set.train,
        &set.valid,
        &settings,
        |_| bar.inc(1),
        |r| {
            let seconds = epoch_start.elapsed().as_secs_f64();
            bar.suspend(|| {
                println!(
                    "epoch {:>3}: fit loss {:.6}, held-out loss {:.6} (results; hand-made alone \
                     {hand_valid:.6}), {:.6} (target); {seconds:.1} s, {:.0} positions/s",
                    r.epoch,
                    r.train,
                    r.valid,
                    r.valid_target,
                    set.train.len() as f64 / seconds
                )
            });
            bar.set_message(format!("{}/{}", (r.epoch + 1).min(a.epochs), a.epochs));
            bar.reset();
            epoch_start = Instant::now();
        },
    );
    bar.finish_and_clear();
    println!(
        "held-out positions with a king each: {} of {}, loss {:.6} (results; {both_before:.6} \
         at the start)",
        valid_both.len(),
        set.valid.len(),
        model.losses(&valid_both, lambda).0
    );
    let weights = model.weights(family);
    if model.fits_material() {
        for line in material_lines(&weights) {
            println!("{line}");
        }
    }
    let bytes = match &base {
        Some(b) => weights
            .to_bytes_over(b)
            .map_err(|e| format!("{out}: read through --init's windows: {e}"))?,
        None => weights.to_bytes(),
    };
    std::fs::write(out, &bytes).map_err(|e| format!("{out}: {e}"))?;
    let stored = match &base {
        Some(b) if patterns::PatternWeights::is_read_through(&bytes) => {
            format!(
                ", stored as differences from {}",
                patterns::shapes_name(&b.shapes)
            )
        }
        _ => String::new(),
    };
    let (material, material_weights) = if weights.uses_material() {
        (", material table", weights.material.len())
    } else {
        ("", 0)
    };
    println!(
        "wrote {out} ({}{material}{stored}; {} weights, {} bytes) in {:.1} s; play it with \
         --weights {out} (tiao hub, analyze, match's engines, selfplay), or rebuild tiao to embed \
         it when it is weights/{family}.tpw",
        patterns::shapes_name(&weights.shapes),
        weights.table.len() + material_weights,
        bytes.len(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Signatures of the material table the fit's log shows.
const MATERIAL_LINES: usize = 8;

/// What a fitted material table learned, for the log: how many signatures have a weight, then the
/// [`MATERIAL_LINES`] largest weights, each with the signature it favours (so positive), in
/// centi-men (beside the hand-made material and the windows).
fn material_lines(w: &patterns::PatternWeights) -> Vec<String> {
    // Each tied pair once, as the signature its weight favours.
    let mut entries: Vec<(i16, usize)> = (0..w.material.len())
        .filter(|&i| w.material[i] > 0)
        .map(|i| (w.material[i], i))
        .collect();
    entries.sort_by_key(|&(v, i)| (std::cmp::Reverse(v), i));
    let mut lines = vec![format!(
        "material table: {} of {} signature pairs with a weight; the largest (centi-men, added \
         to the hand-made material and the windows, for the side of the first material; m men, k \
         kings):",
        entries.len(),
        (w.material.len() - patterns::material_sides(w.board)) / 2
    )];
    for &(v, i) in entries.iter().take(MATERIAL_LINES) {
        lines.push(format!(
            "  {}: {:+.1}",
            patterns::Signature::of_entry(w.board, i),
            v as f32 / patterns::UNITS as f32
        ));
    }
    lines
}
