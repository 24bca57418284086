//! `tiao match`: plays two configurations of the built-in engine against each other.

use clap::Args;
use std::io::Write;
use std::time::{Duration, Instant};
use tiao::matches::{self, EngineConfig, MatchConfig, MoveLimit};
use tiao::variant::{DrawRuleSet, GameKind, Variant};

#[derive(Args, Debug)]
pub struct MatchArgs {
    /// The two engines, e.g. --engine "tiao" --engine "tiao lmr=off" (settings: threads, hash,
    /// and any search parameter).
    #[arg(long, num_args = 1, required = true)]
    engine: Vec<String>,
    /// Number of games (each opening is played twice, colours reversed).
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Nodes per move.
    #[arg(long)]
    nodes: Option<u64>,
    /// Depth per move.
    #[arg(long)]
    depth: Option<u32>,
    /// Milliseconds per move.
    #[arg(long)]
    movetime: Option<u64>,
    /// Variant.
    #[arg(long, short, default_value = "international")]
    variant: Variant,
    /// Draw rules (russian only): standard or fmjd.
    #[arg(long, default_value = "standard")]
    draw_rules: DrawRuleSet,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Plies after which a game is adjudicated a draw.
    #[arg(long, default_value_t = 300)]
    max_plies: u32,
    /// Random plies of the openings.
    #[arg(long, default_value_t = 4)]
    opening_plies: u32,
    /// Seed of the openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

pub fn run(args: MatchArgs) -> Result<(), String> {
    if args.engine.len() != 2 {
        return Err("give exactly two --engine".into());
    }
    let a = EngineConfig::parse(&args.engine[0])?;
    let b = EngineConfig::parse(&args.engine[1])?;
    let limit = match (args.nodes, args.depth, args.movetime) {
        (Some(n), None, None) => MoveLimit::Nodes(n),
        (None, Some(d), None) => MoveLimit::Depth(d),
        (None, None, Some(ms)) => MoveLimit::MoveTime(Duration::from_millis(ms)),
        (None, None, None) => MoveLimit::MoveTime(Duration::from_millis(100)),
        _ => return Err("give one of --nodes, --depth, --movetime".into()),
    };
    let cfg = MatchConfig {
        kind: GameKind {
            variant: args.variant,
            draw_rules: args.draw_rules,
        },
        games: args.games,
        limit,
        concurrency: args.concurrency,
        max_plies: args.max_plies,
        opening_plies: args.opening_plies,
        seed: args.seed,
    };
    println!(
        "match {} games of {}, {:?} per move: A = \"{}\" vs B = \"{}\"",
        args.games.div_ceil(2) * 2,
        args.variant,
        limit,
        a.name,
        b.name
    );
    let start = Instant::now();
    let result = matches::run_match(&cfg, &a, &b, &|r| {
        let mut err = std::io::stderr();
        let _ = write!(err, "\r{r}   ");
        let _ = err.flush();
    })?;
    eprintln!();
    println!("A vs B: {result}");
    println!("time {:.1} s", start.elapsed().as_secs_f64());
    Ok(())
}
