//! `tiao bench`: the search signature (total nodes of the bench positions at a fixed depth, one
//! thread) and nodes/s; `--set name=value` shows a search parameter's effect on the signature.
//! `--stop-latency` and `--move-time-usage` measure the engine's timing instead
//! (`bench_timing`).

use super::bench_positions::{self as bench, POSITIONS};
use clap::Args;
use tiao::search::tt::Tt;

#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  tiao bench                                 # the signature (total nodes) and nodes/s
  tiao bench --set lmr=off                   # what a search parameter does to the signature
  tiao bench --stop-latency 200              # stop answered how fast, as a Hub client sees it
  tiao bench --move-time-usage 0.1s          # how much of a fixed move time is used

Quote the signature in every commit that changes the search or the evaluation.")]
pub struct BenchArgs {
    /// Depth in plies, 1..=127.
    #[arg(long, short, default_value_t = bench::DEFAULT_DEPTH, value_parser = super::whole::<u32>(1, super::MAX_DEPTH))]
    depth: u32,
    /// Transposition table size in MiB, 1..=65536.
    #[arg(long, default_value_t = 64, value_parser = super::whole::<usize>(1, super::MAX_HASH_MIB))]
    hash: usize,
    #[command(flatten)]
    params: super::ParamArgs,
    /// Search with the endgame tables of DIR (this changes the signature; without it the bench
    /// uses no tables, whatever the default directory holds).
    #[arg(long, value_name = "DIR")]
    egdb: Option<std::path::PathBuf>,
    /// Search with this pattern-weight file (`tiao tune --out`) instead of the embedded weights
    /// of its family (this changes the signature: the positions of that family are scored by it).
    #[arg(long, value_name = "FILE")]
    weights: Option<std::path::PathBuf>,
    /// Instead of the signature: N infinite searches through a `tiao hub` child, each stopped
    /// after 20-120 ms; prints the time from `stop` to `done` (median, p90, p99, max).
    #[arg(long, value_name = "N", value_parser = super::whole::<usize>(1, 100_000), conflicts_with = "move_time_usage")]
    stop_latency: Option<usize>,
    /// Instead of the signature: searches at this fixed move time (seconds, or with a unit:
    /// 500ms) through a `tiao hub` child; prints the share of it used and the time over it.
    #[arg(long, value_name = "SECONDS", value_parser = super::positive_seconds)]
    move_time_usage: Option<f64>,
    /// Searches of --move-time-usage.
    #[arg(long, default_value_t = 20, value_parser = super::whole::<usize>(1, 100_000))]
    searches: usize,
    /// Search threads of --stop-latency and --move-time-usage (the signature is one thread's).
    #[arg(long, short, default_value_t = 1, value_parser = super::whole::<usize>(1, super::MAX_THREADS))]
    threads: usize,
    /// The Hub engine --stop-latency and --move-time-usage measure, as a command line (another
    /// build: "/path/to/tiao hub"); default: this binary.
    #[arg(long, value_name = "COMMAND")]
    hub: Option<String>,
}

pub fn run(args: BenchArgs) -> Result<(), String> {
    let target = super::bench_timing::Target {
        command: args.hub.clone(),
        threads: args.threads,
        hash: args.hash,
    };
    if let Some(n) = args.stop_latency {
        return super::bench_timing::stop_latency(n, &target);
    }
    if let Some(s) = args.move_time_usage {
        return super::bench_timing::move_time_usage(s, args.searches, &target);
    }
    let params = args.params.params()?;
    let tt = Tt::try_new(args.hash).map_err(super::memory_error)?;
    let (mut nodes, mut secs) = (0u64, 0f64);
    let mut set = if args.params.set.is_empty() {
        String::new()
    } else {
        format!(" set {}", args.params.set.join(" "))
    };
    if let Some(d) = &args.egdb {
        set += &format!(" egdb {}", d.display());
    }
    if let Some(w) = &args.weights {
        use tiao::draughts::eval::active::{self, WeightsFile};
        let file = WeightsFile::read(w).map_err(|e| format!("--weights {e}"))?;
        let family = file.family();
        active::choose(vec![file]).map_err(|e| format!("--weights {e}"))?;
        set += &format!(" weights {}", active::identity(family));
    }
    println!(
        "bench depth {} threads 1 hash {} MiB{set}",
        args.depth, args.hash
    );
    for p in POSITIONS {
        let line =
            bench::run_position_with_tables(p, args.depth, &tt, &params, args.egdb.as_deref())?;
        nodes += line.nodes;
        secs += line.time.as_secs_f64();
        println!(
            "{:<14} {:<19} {:>11} nodes {:>7.3} s  best {:<7} {}",
            p.variant.name(),
            p.what,
            line.nodes,
            line.time.as_secs_f64(),
            line.best,
            p.fen
        );
    }
    println!("nodes {nodes}");
    println!("time {secs:.3} s");
    println!("nodes/s {:.0}", nodes as f64 / secs.max(1e-9));
    Ok(())
}
