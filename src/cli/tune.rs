//! `tiao tune`: fits a draughts family's evaluation weights to the results of PDN games and
//! prints them as the `Weights` value to put in `src/draughts/eval/weights.rs` (the fitting is
//! `tiao::training::texel`).

use clap::Args;
use std::time::Instant;
use tiao::dispatch;
use tiao::draughts::eval::weights::{self, Term};
use tiao::draughts::rules::Rules;
use tiao::pdn;
use tiao::training::texel;
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
    /// move has no capture is a sample, labelled with its game's result.
    #[arg(long, required = true, value_name = "FILE")]
    pdn: Vec<String>,
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

pub fn run(args: TuneArgs) -> Result<(), String> {
    let kind = args.game.kind();
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
