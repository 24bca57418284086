//! `tiao bench`: the search signature (total nodes of the bench positions at a fixed depth, one
//! thread) and nodes/s; `--set name=value` shows a search parameter's effect on the signature.

use clap::Args;
use tiao::bench::{self, POSITIONS};
use tiao::tt::Tt;

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Depth in plies, 1..=127.
    #[arg(long, short, default_value_t = bench::DEFAULT_DEPTH, value_parser = super::whole::<u32>(1, super::MAX_DEPTH))]
    depth: u32,
    /// Transposition table size in MiB, 1..=65536.
    #[arg(long, default_value_t = 64, value_parser = super::whole::<usize>(1, super::MAX_HASH_MIB))]
    hash: usize,
    #[command(flatten)]
    params: super::ParamArgs,
}

pub fn run(args: BenchArgs) -> Result<(), String> {
    let params = args.params.params()?;
    let tt = Tt::try_new(args.hash).map_err(|e| format!("--{e}"))?;
    let (mut nodes, mut secs) = (0u64, 0f64);
    let set = if args.params.set.is_empty() {
        String::new()
    } else {
        format!(" set {}", args.params.set.join(" "))
    };
    println!(
        "bench depth {} threads 1 hash {} MiB{set}",
        args.depth, args.hash
    );
    for p in POSITIONS {
        let line = bench::run_position(p, args.depth, &tt, &params)?;
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
