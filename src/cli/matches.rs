//! `tiao match`: two engines, built-in or external Hub ones, play a match; a live progress line
//! on stderr, the games in a PDN file, the summary (W/D/L, score, Elo, LOS, SPRT) on stdout.

use clap::Args;
use std::fs::File;
use std::io::{IsTerminal, Write};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tiao::matches::{
    self, Adjudication, Control, GameRecord, MatchConfig, MatchResult, PlayerSpec, Progress,
    SprtState, openings,
};
use tiao::protocol::hub::client::Log;

#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  tiao match --engine tiao --engine \"tiao lmr=off\" --games 200 --movetime 50 --concurrency 2
  tiao match --engine tiao --engine \"dame hub\" --tc 10+0.1 --games 100 --pdn games.pdn
  tiao match --engine tiao --engine \"tiao rfp=off\" --nodes 20000 --sprt 0,10 --games 4000

An engine is `tiao` with key=value settings (threads, hash in MiB, any search parameter), or the
command line of an external Hub engine; words option.NAME=VALUE of an external engine are sent as
set-param. Scores in the PDN comments and adjudication are from the engines' own reports.")]
pub struct MatchArgs {
    /// An engine, twice: A then B. E.g. --engine "tiao threads=1 hash=64" --engine "dame hub".
    #[arg(long, num_args = 1, required = true, value_name = "SPEC")]
    engine: Vec<String>,
    #[command(flatten)]
    game: super::GameArgs,
    /// Number of games, 1..=1000000 (each opening is played twice, colours reversed).
    #[arg(long, default_value_t = 100, value_parser = super::whole::<usize>(1, 1_000_000))]
    games: usize,
    /// Time per move: milliseconds, or with a unit (100ms, 0.5s); a number without a unit under
    /// 1 (under a millisecond) is refused. The default control is 100 ms.
    #[arg(long, value_name = "TIME", value_parser = super::positive_millis)]
    movetime: Option<f64>,
    /// Base time plus increment in seconds, or with units, the clock kept by the runner (60+0.5,
    /// 1:00+1, 10s+100ms).
    #[arg(long, value_name = "BASE+INC")]
    tc: Option<String>,
    /// Nodes per move (deterministic with built-in engines).
    #[arg(long, value_parser = super::whole::<u64>(1, u64::MAX))]
    nodes: Option<u64>,
    /// Depth per move in plies, 1..=127 (deterministic with built-in engines).
    #[arg(long, value_parser = super::whole::<u32>(1, super::MAX_DEPTH))]
    depth: Option<u32>,
    /// Games played at the same time, 1..=256 (each has its own engine processes).
    #[arg(long, default_value_t = 1, value_parser = super::whole::<usize>(1, super::MAX_PARALLEL))]
    concurrency: usize,
    /// Openings: a PDN file, or one FEN or move sequence per line. Default: built-in (english:
    /// the 156 three-move ballots; others: balanced positions a few plies deep).
    #[arg(long, value_name = "FILE")]
    openings: Option<String>,
    /// Plies of the built-in openings: random walks (default: 6 on 10x10, 4 on 8x8 and Morris);
    /// english: more than 3 continues each ballot by a random walk. At most 100.
    #[arg(long, value_parser = super::whole::<u32>(0, 100))]
    opening_plies: Option<u32>,
    /// Seed of the built-in openings (english: the order of the ballots; 0 keeps ACF order).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Endgame tables of the built-in engines that do not name their own (`tiao
    /// egdb-path=DIR`); 'none' for none. Default: the user's data directory when it exists.
    #[command(flatten)]
    egdb: super::EgdbArgs,
    /// Plies (openings included) after which a game is adjudicated a draw, 1..=100000.
    #[arg(long, default_value_t = 400, value_parser = super::whole::<u32>(1, MAX_PLIES))]
    max_plies: u32,
    /// Adjudicate a win when both engines agree for MOVES moves each that one side is ahead by
    /// at least SCORE centi-men (e.g. 500,4; SCORE 0..=10000, MOVES 1..=100000).
    #[arg(long, value_name = "SCORE,MOVES")]
    adjudicate_win: Option<String>,
    /// Adjudicate a draw when both engines report |score| <= SCORE centi-men for MOVES moves
    /// each, from ply FROM on (e.g. 5,20,80; SCORE 0..=10000, MOVES 1..=100000, FROM
    /// 0..=100000).
    #[arg(long, value_name = "SCORE,MOVES[,FROM]")]
    adjudicate_draw: Option<String>,
    /// Stop as soon as the SPRT of H0: Elo = ELO0 against H1: Elo = ELO1 decides.
    #[arg(long, value_name = "ELO0,ELO1")]
    sprt: Option<String>,
    /// SPRT: probability of a false H1 (above 0, below 0.5).
    #[arg(long, default_value_t = 0.05, value_parser = probability)]
    alpha: f64,
    /// SPRT: probability of a false H0 (above 0, below 0.5).
    #[arg(long, default_value_t = 0.05, value_parser = probability)]
    beta: f64,
    /// Write every game to this PDN file (as each game ends).
    #[arg(long, value_name = "FILE")]
    pdn: Option<String>,
    /// Milliseconds over its time a player may take before it loses on time, or with a unit
    /// (100ms, 0.1s); at most an hour.
    #[arg(long, value_name = "TIME", default_value = "100", value_parser = margin)]
    margin: f64,
    /// Seconds an engine may take for a move without a time limit (--nodes, --depth) before it
    /// is taken to hang and loses (or with a unit: 90s, 500ms).
    #[arg(long, value_name = "TIME", default_value_t = 60.0, value_parser = super::positive_seconds)]
    hang_timeout: f64,
    /// Seconds an external engine may take to start (hub ... wait, init ... ready), or with a
    /// unit.
    #[arg(long, value_name = "TIME", default_value_t = 10.0, value_parser = super::positive_seconds)]
    start_timeout: f64,
    /// Write every line exchanged with external engines to this file.
    #[arg(long, value_name = "FILE")]
    log: Option<String>,
    /// The PDN Event tag.
    #[arg(long, default_value = "tiao match")]
    event: String,
    /// No progress on stderr.
    #[arg(long, short)]
    quiet: bool,
}

/// The longest `--margin`, in seconds (an hour).
const MAX_MARGIN_SECONDS: f64 = 3600.0;

/// `--margin`: a time, a bare number in milliseconds, at most [`MAX_MARGIN_SECONDS`]; in seconds.
fn margin(text: &str) -> Result<f64, String> {
    match tiao::numbers::parse_time(text, tiao::numbers::TimeUnit::Millis)? {
        s if s <= MAX_MARGIN_SECONDS => Ok(s),
        _ => Err(format!("{text} is more than {MAX_MARGIN_SECONDS} s")),
    }
}

/// The comma-separated whole numbers of `option` (`500,4`): one per field of `fields` (its name
/// and range), the last `optional` of them may be left out.
fn fields(
    option: &str,
    text: &str,
    fields: &[(&str, u64, u64)],
    optional: usize,
) -> Result<Vec<u64>, String> {
    let parts: Vec<&str> = text.split(',').collect();
    let names: Vec<&str> = fields.iter().map(|f| f.0).collect();
    if parts.len() > fields.len() || parts.len() + optional < fields.len() {
        return Err(format!("{option} {text}: expected {}", names.join(",")));
    }
    parts
        .iter()
        .zip(fields)
        .map(|(p, (name, min, max))| {
            tiao::numbers::whole(p, *min, *max).map_err(|e| format!("{option} {text}: {name} {e}"))
        })
        .collect()
}

/// The largest score adjudication may ask for, in centi-men: a proven win.
const MAX_SCORE: u64 = tiao::search::score::WIN as u64;
/// The most moves or plies adjudication may count (the most plies a game may last).
const MAX_PLIES: u64 = 100_000;

/// `--alpha`, `--beta`: a probability above 0 and below 0.5.
fn probability(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(v) if v > 0.0 && v < 0.5 => Ok(v),
        _ => Err(format!("{text} is not a probability above 0 and below 0.5")),
    }
}

/// Checks the built-in engines' `weights`: the pattern weights are the process's
/// ([`tiao::draughts::eval::active`]), so two built-in engines must name the same (an external
/// engine is a process of its own), and a file must be of the variant's family. The file is
/// chosen here, before the games.
fn builtin_weights(
    kind: tiao::variant::GameKind,
    a: &PlayerSpec,
    b: &PlayerSpec,
) -> Result<(), String> {
    let builtin: Vec<&tiao::matches::EngineConfig> = [a, b]
        .into_iter()
        .filter_map(|s| match s {
            PlayerSpec::Builtin(c) => Some(&**c),
            PlayerSpec::External(_) => None,
        })
        .collect();
    if let [x, y] = builtin[..]
        && x.options.weights != y.options.weights
    {
        let name = |c: &tiao::matches::EngineConfig| match &c.options.weights[..] {
            [] => "the embedded weights".to_string(),
            w => format!("weights={}", tiao::engine::weights_value(w)),
        };
        return Err(format!(
            "the built-in engines evaluate with one process's pattern weights, but '{}' \
                 names {} and '{}' {}: give one of them as an external engine \
                 (--engine \"tiao hub --weights FILE\")",
            x.name,
            name(x),
            y.name,
            name(y)
        ));
    }
    // A match plays one variant: each file must be of its family.
    match builtin.first().map(|c| &c.options.weights[..]) {
        Some([path]) => super::choose_weights(kind, path, "weights="),
        Some([]) | None => Ok(()),
        Some(paths) => Err(format!(
            "weights={}: a match plays one variant, and one weight file is read for it",
            tiao::engine::weights_value(paths)
        )),
    }
}

pub fn run(args: MatchArgs) -> Result<(), String> {
    if args.engine.len() != 2 {
        return Err("give exactly two --engine".into());
    }
    let kind = args.game.kind();
    let start_timeout = Duration::from_secs_f64(args.start_timeout);
    let mut a = PlayerSpec::parse(&args.engine[0], start_timeout)?;
    let mut b = PlayerSpec::parse(&args.engine[1], start_timeout)?;
    let egdb = args.egdb.checked()?;
    for spec in [&mut a, &mut b] {
        if let PlayerSpec::Builtin(c) = spec {
            c.default_egdb(&egdb);
        }
    }
    builtin_weights(kind, &a, &b)?;
    let builtin_threads: usize = [&a, &b]
        .iter()
        .map(|s| match s {
            PlayerSpec::Builtin(c) => c.options.threads,
            PlayerSpec::External(_) => 0,
        })
        .max()
        .unwrap_or(0);
    super::warn_threads(builtin_threads * args.concurrency);
    let given = [
        args.movetime.is_some(),
        args.tc.is_some(),
        args.nodes.is_some(),
        args.depth.is_some(),
    ];
    if given.iter().filter(|&&g| g).count() > 1 {
        return Err("give at most one of --movetime, --tc, --nodes, --depth".into());
    }
    let control = if let Some(t) = args.movetime {
        Control::MoveTime(Duration::from_secs_f64(t))
    } else if let Some(tc) = &args.tc {
        Control::parse_tc(tc)?
    } else if let Some(n) = args.nodes {
        Control::Nodes(n)
    } else if let Some(d) = args.depth {
        Control::Depth(d)
    } else {
        Control::MoveTime(Duration::from_millis(100))
    };
    let pairs = args.games.div_ceil(2);
    let openings = match &args.openings {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
            openings::parse_file(kind, &text).map_err(|e| format!("{path}: {e}"))?
        }
        None => {
            let plies = args
                .opening_plies
                .unwrap_or_else(|| openings::default_plies(kind));
            openings::builtin(kind, pairs, plies, args.seed)
        }
    };
    let adjudication = Adjudication {
        // The ranges make the conversions exact.
        win: match &args.adjudicate_win {
            Some(t) => {
                let v = fields(
                    "--adjudicate-win",
                    t,
                    &[("SCORE", 0, MAX_SCORE), ("MOVES", 1, MAX_PLIES)],
                    0,
                )?;
                Some((v[0] as i32, v[1] as u32))
            }
            None => None,
        },
        draw: match &args.adjudicate_draw {
            Some(t) => {
                let v = fields(
                    "--adjudicate-draw",
                    t,
                    &[
                        ("SCORE", 0, MAX_SCORE),
                        ("MOVES", 1, MAX_PLIES),
                        ("FROM", 0, MAX_PLIES),
                    ],
                    1,
                )?;
                Some((
                    v[0] as i32,
                    v[1] as u32,
                    v.get(2).copied().unwrap_or(0) as u32,
                ))
            }
            None => None,
        },
    };
    let sprt = match &args.sprt {
        Some(t) => {
            let mut s = matches::Sprt::parse(t)?;
            s.alpha = args.alpha;
            s.beta = args.beta;
            Some(s)
        }
        None => None,
    };
    let cfg = MatchConfig {
        kind,
        games: args.games,
        control,
        concurrency: args.concurrency,
        max_plies: args.max_plies,
        openings,
        adjudication,
        margin: Duration::from_secs_f64(args.margin),
        hang_timeout: Duration::from_secs_f64(args.hang_timeout),
        sprt,
        event: args.event.clone(),
    };
    let log: Option<Log> = match &args.log {
        Some(path) => {
            let f = File::create(path).map_err(|e| format!("{path}: {e}"))?;
            Some(Arc::new(Mutex::new(Box::new(f) as Box<dyn Write + Send>)))
        }
        None => None,
    };
    let pdn = match &args.pdn {
        Some(path) => Some(Mutex::new(
            File::create(path).map_err(|e| format!("{path}: {e}"))?,
        )),
        None => None,
    };
    let tty = std::io::stderr().is_terminal();
    let quiet = args.quiet;
    let start = Instant::now();
    let pdn_error = Mutex::new(None::<String>);
    let on_game = |g: &GameRecord, p: &Progress| {
        if let Some(f) = &pdn {
            let mut f = f.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            if let Err(e) = f.write_all(g.pdn_text().as_bytes()).and_then(|_| f.flush()) {
                *pdn_error
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(e.to_string());
            }
        }
        if quiet {
            return;
        }
        let mut err = std::io::stderr().lock();
        if matches!(g.end, matches::End::Fault(..)) {
            let _ = write!(err, "{}", if tty { "\r\x1b[K" } else { "" });
            let _ = writeln!(err, "game {}: {}", g.number, g.reason);
        }
        let line = progress_line(p);
        if tty {
            let _ = write!(err, "\r\x1b[K{line}");
        } else {
            let _ = writeln!(err, "{line}");
        }
        let _ = err.flush();
    };
    if !quiet {
        eprintln!(
            "match: {} games of {}, {}, {} openings, concurrency {}",
            args.games,
            args.game.variant,
            control,
            cfg.openings.len(),
            cfg.concurrency
        );
    }
    let stop = AtomicBool::new(false);
    let result = matches::run_match(&cfg, [&a, &b], log, &stop, &on_game)?;
    if !quiet && tty {
        eprintln!();
    }
    if let Some(e) = pdn_error.into_inner().unwrap_or(None) {
        eprintln!("warning: writing the PDN file failed: {e}");
    }
    print_summary(&args, &cfg, &result, start.elapsed());
    Ok(())
}

fn progress_line(p: &Progress) -> String {
    let e = p.wdl.elo();
    let mut s = format!(
        "games {}/{}  {}  score {:.1}%  Elo {}",
        p.done,
        p.total,
        p.wdl,
        100.0 * p.wdl.score(),
        e
    );
    if let Some((llr, _)) = p.sprt {
        s.push_str(&format!("  LLR {llr:.2}"));
    }
    s
}

fn print_summary(args: &MatchArgs, cfg: &MatchConfig, r: &MatchResult, time: Duration) {
    let n = r.wdl.games();
    println!("A: {}", r.names[0]);
    println!("B: {}", r.names[1]);
    println!(
        "{}, {} games played of {}, {}, concurrency {}",
        args.game.variant, n, cfg.games, cfg.control, cfg.concurrency
    );
    let points = r.wdl.wins as f64 + 0.5 * r.wdl.draws as f64;
    println!(
        "A's results: W/D/L {}/{}/{}, score {points}/{n} = {:.1}%",
        r.wdl.wins,
        r.wdl.draws,
        r.wdl.losses,
        100.0 * r.wdl.score()
    );
    // A's results by colour (an opening's two games are played with both).
    let mut by_colour = [[0u32; 3]; 2];
    for g in &r.games {
        let c = usize::from(g.white != 0);
        let k = if g.score_a > 0.75 {
            0
        } else if g.score_a < 0.25 {
            2
        } else {
            1
        };
        by_colour[c][k] += 1;
    }
    println!(
        "A as White: W/D/L {}/{}/{}; A as Black: W/D/L {}/{}/{}",
        by_colour[0][0],
        by_colour[0][1],
        by_colour[0][2],
        by_colour[1][0],
        by_colour[1][1],
        by_colour[1][2]
    );
    println!("Elo difference A-B: {}", r.wdl.elo());
    let pairs = r.pairs();
    if pairs.pairs() > 0 {
        println!(
            "Elo by opening pairs: {} ({} of them; scoring 0, 1/2, 1, 3/2, 2 points: {})",
            pairs.elo(),
            pairs.pairs(),
            pairs
        );
    }
    println!("LOS (A stronger): {:.1}%", 100.0 * r.wdl.los());
    if let (Some(t), Some((llr, state))) = (cfg.sprt, r.sprt) {
        let (lo, hi) = t.bounds();
        let verdict = match state {
            SprtState::H1 => format!("H1 accepted (A is about {:+} Elo or better)", t.elo1),
            SprtState::H0 => format!("H0 accepted (A is about {:+} Elo or worse)", t.elo0),
            SprtState::Continue => "no decision yet".to_string(),
        };
        println!(
            "SPRT [{}, {}] alpha={} beta={}: LLR {llr:.3} by opening pairs (bounds {lo:.3}, \
             {hi:.3}): {verdict}",
            t.elo0, t.elo1, t.alpha, t.beta
        );
    }
    let mut rules = 0;
    let mut adjudicated = 0;
    for g in &r.games {
        match g.end {
            matches::End::Rules(_) => rules += 1,
            matches::End::Fault(..) => {}
            _ => adjudicated += 1,
        }
    }
    let faults = r.faults();
    println!(
        "Game ends: {rules} by the rules, {adjudicated} adjudicated, {} by a fault (A {}, B {})",
        faults[0].len() + faults[1].len(),
        faults[0].len(),
        faults[1].len()
    );
    for (p, f) in faults.iter().enumerate() {
        for fault in f {
            println!("  {} {fault}", ["A", "B"][p]);
        }
    }
    if r.stopped_early {
        println!("Stopped early after {n} games.");
    }
    println!("Time: {:.1} s", time.as_secs_f64());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn margins() {
        assert_eq!(margin("100"), Ok(0.1));
        assert_eq!(margin("0"), Ok(0.0));
        assert_eq!(margin("2s"), Ok(2.0));
        assert_eq!(margin("3600000"), Ok(MAX_MARGIN_SECONDS));
        assert!(margin("3600001").is_err());
        assert!(margin("0.5").unwrap_err().contains("under a millisecond"));
        assert!(margin("-1").is_err());
    }
}
