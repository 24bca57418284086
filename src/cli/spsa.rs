//! `tiao spsa`: fits the search's numeric tunables by SPSA over fixed-node games
//! (`tiao::matches::spsa`). One line per iteration goes to a state file (tab-separated: the
//! iteration, θ+'s W/D/L, θ after the update), so that a run is followed as it goes, plotted
//! afterwards, and resumed by the same command; a line per iteration on stderr; at the end the
//! trajectory, sampled, and the final values as `key=value` words on stdout.
//!
//! The state file's second line is the command line's identity (every option that changes the
//! games or the updates; not `--concurrency`, `--stop-after`, `--quiet`): a file of another
//! command line is refused, naming the words that differ.

use clap::Args;
use std::fs::OpenOptions;
use std::io::Write;
use std::time::Instant;
use tiao::matches::spsa::{self, Games, Schedule, Spsa, Step, Tunable};
use tiao::matches::{EngineConfig, openings};

#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  tiao spsa --variant international --nodes 20000 --pairs 2 --iterations 10000 --concurrency 2 \\
    --param lmr-divisor:2:1.2:4:0.2 --param rfp-margin:60:20:140:6 \\
    --param probcut-margin:10:0:40:3 --param lmp-base:3:0:10:1 --state spsa-intl.tsv
  tiao spsa --variant english --params params.txt --nodes 1000 --iterations 2000 --state en.tsv

A parameter is name:start:min:max:c_end (c_end: the perturbation at the last iteration, in the
parameter's units); a --params file has one per line (# comments). Rerun the same command to
resume after the state file's last complete line. The final values are printed as key=value
words for `tiao match --engine \"tiao ...\"`: verify them at 0.1 s per move before keeping them
(docs/tools.md).")]
pub struct SpsaArgs {
    #[command(flatten)]
    game: super::GameArgs,
    /// A tuned parameter, name:start:min:max:c_end (repeatable), e.g. rfp-margin:60:20:120:6.
    #[arg(long, value_name = "SPEC")]
    param: Vec<String>,
    /// A file of tuned parameters, one name:start:min:max:c_end per line (# comments).
    #[arg(long, value_name = "FILE")]
    params: Option<String>,
    /// The state file: written line by line, read back to resume.
    #[arg(long, value_name = "FILE")]
    state: String,
    /// Iterations planned, 1..=10000000 (the gains reach c_end and r_end at the last).
    #[arg(long, value_parser = super::whole::<u64>(1, 10_000_000))]
    iterations: u64,
    /// Play at most this many iterations in this run, then stop (rerun to continue).
    #[arg(long, value_name = "K", value_parser = super::whole::<u64>(1, 10_000_000))]
    stop_after: Option<u64>,
    /// Nodes per move (fixed-node games: reproducible), 1..=100000000.
    #[arg(long, default_value_t = 2000, value_parser = super::whole::<u64>(1, 100_000_000))]
    nodes: u64,
    /// Pairs of games per iteration, 1..=10000: each plays one opening twice, colours swapped,
    /// θ + cΔ against θ − cΔ.
    #[arg(long, default_value_t = 1, value_parser = super::whole::<usize>(1, 10_000))]
    pairs: usize,
    /// Seed of the perturbations and of the built-in openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at the same time, 1..=256 (at most the 2 × --pairs games of an iteration).
    #[arg(long, default_value_t = 1, value_parser = super::whole::<usize>(1, super::MAX_PARALLEL))]
    concurrency: usize,
    /// The learning rate at the last iteration (the step there is r_end · c_end · (W − L)).
    #[arg(long, default_value_t = spsa::R_END, value_parser = positive)]
    r_end: f64,
    /// The stability constant A, in iterations (default: 10% of --iterations).
    #[arg(long, value_name = "A", value_parser = non_negative)]
    stability: Option<f64>,
    /// Spall's alpha, the decay exponent of the step.
    #[arg(long, default_value_t = spsa::ALPHA, value_parser = positive)]
    alpha: f64,
    /// Spall's gamma, the decay exponent of the perturbation.
    #[arg(long, default_value_t = spsa::GAMMA, value_parser = positive)]
    gamma: f64,
    /// The engine both sides start from: `tiao` with key=value settings as `tiao match` takes
    /// them (hash, any search parameter); the tuned parameters are set on top.
    #[arg(long, default_value = "tiao", value_name = "SPEC")]
    base: String,
    /// Openings: a PDN file, or one FEN or move sequence per line. Default: the built-in ones of
    /// `tiao match`, from --seed.
    #[arg(long, value_name = "FILE")]
    openings: Option<String>,
    /// Plies of the built-in openings (default: as `tiao match`), at most 100.
    #[arg(long, value_parser = super::whole::<u32>(0, 100))]
    opening_plies: Option<u32>,
    /// Plies (openings included) after which a game is a draw, 1..=100000.
    #[arg(long, default_value_t = 400, value_parser = super::whole::<u32>(1, 100_000))]
    max_plies: u32,
    #[command(flatten)]
    egdb: super::EgdbArgs,
    /// No progress on stderr.
    #[arg(long, short)]
    quiet: bool,
}

/// Most built-in openings a run cycles through (fewer when it plays fewer pairs).
const OPENING_POOL: usize = 1000;
/// Rows of the trajectory printed at the end, about.
const TRAJECTORY_ROWS: u64 = 10;

/// `--r-end`, `--alpha`, `--gamma`: a finite number above 0.
fn positive(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
        _ => Err(format!("{text} is not a number above 0")),
    }
}

/// `--stability`: a finite number from 0.
fn non_negative(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
        _ => Err(format!("{text} is not a number from 0")),
    }
}

/// A word of the identity: a value with its spaces (and `%`) escaped.
fn word(key: &str, value: &str) -> String {
    format!(
        "{key}={}",
        value
            .replace('%', "%25")
            .replace(char::is_whitespace, "%20")
    )
}

/// The tuned parameters: `--param` then the lines of `--params`.
fn tunables(args: &SpsaArgs) -> Result<Vec<Tunable>, String> {
    let mut out = Vec::new();
    for p in &args.param {
        out.push(Tunable::parse(p).map_err(|e| format!("--param: {e}"))?);
    }
    if let Some(path) = &args.params {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        for (i, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if !line.is_empty() {
                out.push(Tunable::parse(line).map_err(|e| format!("{path}:{}: {e}", i + 1))?);
            }
        }
    }
    if out.is_empty() {
        return Err(
            "give the parameters to tune: --param name:start:min:max:c_end or --params FILE".into(),
        );
    }
    Ok(out)
}

pub fn run(args: SpsaArgs) -> Result<(), String> {
    let kind = args.game.kind();
    let mut schedule = Schedule::new(args.iterations);
    schedule.r_end = args.r_end;
    schedule.alpha = args.alpha;
    schedule.gamma = args.gamma;
    if let Some(a) = args.stability {
        schedule.stability = a;
    }
    let rule = Spsa::new(tunables(&args)?, schedule, args.seed).map_err(|e| e.to_string())?;
    let mut base = EngineConfig::parse(&args.base).map_err(|e| format!("--base: {e}"))?;
    let egdb = args.egdb.checked()?;
    base.default_egdb(&egdb);
    if base.options.threads > 1 {
        eprintln!("warning: --base with threads > 1: the games are not reproducible");
    }
    super::warn_threads(base.options.threads * args.concurrency);
    let pairs_planned = (args.iterations as usize).saturating_mul(args.pairs);
    let (openings, openings_word) = match &args.openings {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
            let o = openings::parse_file(kind, &text).map_err(|e| format!("{path}: {e}"))?;
            let sum = tiao::game::rng::fnv1a(text.as_bytes());
            (o, format!("openings=file:{sum:016x}"))
        }
        None => {
            let plies = args
                .opening_plies
                .unwrap_or_else(|| openings::default_plies(kind));
            let count = pairs_planned.min(OPENING_POOL);
            (
                openings::builtin(kind, count, plies, args.seed),
                format!("openings=builtin:{plies}:{count}"),
            )
        }
    };
    if openings.is_empty() {
        return Err("no openings".into());
    }
    let mut identity = vec![
        word("variant", &kind.variant.to_string()),
        word("draw-rules", kind.draw_rules.name()),
        format!("nodes={}", args.nodes),
        format!("pairs={}", args.pairs),
        format!("iterations={}", args.iterations),
        format!("seed={}", args.seed),
        openings_word,
        format!("max-plies={}", args.max_plies),
        word("base", &base.name),
        word("egdb", args.egdb.egdb.as_deref().unwrap_or("default")),
        format!("r-end={}", schedule.r_end),
        format!("stability={}", schedule.stability),
        format!("alpha={}", schedule.alpha),
        format!("gamma={}", schedule.gamma),
    ];
    identity.extend(rule.tunables.iter().map(|t| word("param", &t.spec())));
    let identity = identity.join(" ");

    // Resume: keep the complete, checked lines.
    let text = match std::fs::read(&args.state) {
        Ok(bytes) => String::from_utf8(bytes)
            .map_err(|_| format!("{}: not a tiao spsa state file (not text)", args.state))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(format!("{}: {e}", args.state)),
    };
    let resumed = spsa::read_state(&rule, &identity, &text)
        .map_err(|e| format!("{}: {e}; choose another --state", args.state))?;
    let file = OpenOptions::new()
        .create(true)
        .write(true)
        .truncate(false)
        .open(&args.state)
        .map_err(|e| format!("{}: {e}", args.state))?;
    file.set_len(resumed.keep as u64)
        .map_err(|e| format!("{}: {e}", args.state))?;
    drop(file);
    let mut out = OpenOptions::new()
        .append(true)
        .open(&args.state)
        .map_err(|e| format!("{}: {e}", args.state))?;
    if !resumed.has_header {
        out.write_all(rule.state_header(&identity).as_bytes())
            .and_then(|_| out.flush())
            .map_err(|e| format!("{}: {e}", args.state))?;
    }
    let done = resumed.steps.len() as u64;
    if !args.quiet {
        if resumed.dropped {
            eprintln!(
                "{}: dropping an unfinished last line; resuming after iteration {done}",
                args.state
            );
        } else if done > 0 {
            eprintln!("{}: resuming after iteration {done}", args.state);
        }
        eprintln!(
            "spsa {}: {} parameters, iterations {}..{} of {}, {} games each at {} nodes a \
             move, {} openings, concurrency {} -> {}",
            kind.variant,
            rule.tunables.len(),
            done + 1,
            args.stop_after.map_or(args.iterations, |n| done
                .saturating_add(n)
                .min(args.iterations)),
            args.iterations,
            2 * args.pairs,
            args.nodes,
            openings.len(),
            args.concurrency,
            args.state
        );
    }
    let games = Games {
        kind,
        nodes: args.nodes,
        pairs: args.pairs,
        concurrency: args.concurrency,
        max_plies: args.max_plies,
        openings,
        base: base.clone(),
    };
    let start = Instant::now();
    let mut played = 0u64;
    let new = rule.run(
        &resumed.steps,
        args.stop_after,
        |trial| spsa::play_iteration(&rule, &games, trial),
        |step: &Step| {
            out.write_all(Spsa::state_line(step).as_bytes())
                .and_then(|_| out.flush())
                .map_err(|e| format!("{}: {e}", args.state))?;
            played += 1;
            if !args.quiet {
                let secs = start.elapsed().as_secs_f64();
                let rate = (played * 2 * args.pairs as u64) as f64 * 3600.0 / secs.max(1e-9);
                eprintln!(
                    "iteration {}/{}  {}  {}  ({:.0} games/h)",
                    step.iteration,
                    args.iterations,
                    step.wdl,
                    rule.words(&step.theta),
                    rate
                );
            }
            Ok(())
        },
    )?;
    let mut all = resumed.steps;
    all.extend(new);
    print_trajectory(&rule, &all);
    let last = all.last().map_or_else(|| rule.start(), |s| s.theta.clone());
    let words = rule.words(&last);
    let complete = all.len() as u64 == args.iterations;
    println!(
        "{} after {} of {} iterations: {words}",
        if complete { "final" } else { "so far" },
        all.len(),
        args.iterations
    );
    // The base engine's own words, then the values found (a later word wins in a spec).
    let with = |w: &str| {
        let mut spec: Vec<&str> = base.name.split_whitespace().collect();
        spec.extend(w.split_whitespace());
        spec.join(" ")
    };
    let rules = match kind.draw_rules {
        tiao::variant::DrawRuleSet::Standard => String::new(),
        r => format!(" --draw-rules {r}"),
    };
    println!(
        "verify: tiao match --variant {}{rules} --engine \"{}\" --engine \"{}\" --movetime 100 \
         --games 1000 --concurrency 2",
        kind.variant,
        with(&words),
        with("")
    );
    Ok(())
}

/// θ at the start, about every tenth of the iterations done, and at the last: a table on stdout.
fn print_trajectory(rule: &Spsa, steps: &[Step]) {
    let names: Vec<&str> = rule.tunables.iter().map(|t| t.name.as_str()).collect();
    println!("iteration\t{}", names.join("\t"));
    let row = |k: u64, theta: &[f64]| {
        let v: Vec<String> = rule
            .tunables
            .iter()
            .zip(theta)
            .map(|(t, &x)| t.shown(x))
            .collect();
        println!("{k}\t{}", v.join("\t"));
    };
    row(0, &rule.start());
    let every = (steps.len() as u64 / TRAJECTORY_ROWS).max(1);
    for s in steps {
        if s.iteration % every == 0 || s.iteration == steps.len() as u64 {
            row(s.iteration, &s.theta);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_identity_words() {
        assert_eq!(positive("0.002"), Ok(0.002));
        for bad in ["0", "-1", "nan", "inf", "x"] {
            assert!(positive(bad).is_err(), "{bad}");
        }
        assert_eq!(non_negative("0"), Ok(0.0));
        assert!(non_negative("-0.5").is_err());
        assert_eq!(word("base", "tiao hash=8"), "base=tiao%20hash=8");
        assert_eq!(word("egdb", "/a b/100%"), "egdb=/a%20b/100%25");
    }
}
