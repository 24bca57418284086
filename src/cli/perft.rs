//! `tiao perft`: leaf counts of the move tree, with time, leaves/s and an optional divide.

use clap::Args;
use std::io::IsTerminal;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use tiao::dispatch;
use tiao::draughts::position::Position;
use tiao::game::BulkCount;
use tiao::morris::{MorrisPosition, RemovalPly};
use tiao::perft::{PerftOptions, divide};
use tiao::variant::{DrawRuleSet, GameKind, Variant};

#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  tiao perft --depth 9
  tiao perft -v english --depth 10 --threads 2
  tiao perft -v russian --fen W:W21,22:B10,11 --depth 6 --divide
  tiao perft -v morris --depth 5 --removal-ply

Leaves are counted with duplicate captures (same from, to and captured set) once, as RULES.md
says; tests/data/*.perft holds the published figures they are checked against.")]
pub struct PerftArgs {
    /// Variant: international (normal), brazilian, russian, duoyibu, english, morris.
    #[arg(long, short, default_value = "international")]
    variant: Variant,
    /// Start position (PDN FEN, or for morris the position string; `start` or default: the
    /// variant's start position).
    #[arg(long, short)]
    fen: Option<String>,
    /// Depth in plies, 0..=64.
    #[arg(long, short, value_parser = super::whole::<u32>(0, 64))]
    depth: u32,
    /// Print the count below each root move.
    #[arg(long)]
    divide: bool,
    /// Worker threads, 1..=256.
    #[arg(long, short, default_value_t = 1, value_parser = super::whole::<usize>(1, super::MAX_THREADS))]
    threads: usize,
    /// Make every leaf instead of counting the moves at the last ply.
    #[arg(long)]
    no_bulk: bool,
    /// Morris only: count a removal as a ply of its own (Sanmill's convention) instead of as
    /// part of the move that closes the mill.
    #[arg(long)]
    removal_ply: bool,
}

pub fn run(args: PerftArgs) -> Result<(), String> {
    let kind = GameKind {
        variant: args.variant,
        draw_rules: DrawRuleSet::Standard,
    };
    if args.removal_ply && args.variant != Variant::Morris {
        return Err("--removal-ply is only for --variant morris".to_string());
    }
    dispatch!(kind, R => run_game::<Position<R>>(&args), morris => {
        if args.removal_ply {
            run_game::<RemovalPly>(&args)
        } else {
            run_game::<MorrisPosition>(&args)
        }
    })
}

fn run_game<G: BulkCount>(args: &PerftArgs) -> Result<(), String> {
    let pos = match args.fen.as_deref().map(str::trim) {
        Some(f) if !f.eq_ignore_ascii_case("start") => {
            G::from_fen(f).map_err(|e| format!("bad --fen: {e}"))?
        }
        _ => G::start(),
    };
    let threads = args.threads.max(1);
    let opts = PerftOptions {
        bulk: !args.no_bulk,
        threads,
    };
    println!(
        "perft {} depth {} threads {} {}{}",
        args.variant,
        args.depth,
        threads,
        if opts.bulk {
            "bulk counting"
        } else {
            "every leaf made"
        },
        if args.removal_ply {
            ", removal as a ply"
        } else {
            ""
        }
    );
    println!("fen {}", pos.fen());

    // Progress on stderr for long runs: a live line on a terminal, a line every 10 s otherwise.
    let done = Arc::new(AtomicUsize::new(0));
    let total = Arc::new(AtomicUsize::new(0));
    let finished = Arc::new(AtomicBool::new(false));
    let ticker = {
        let (done, total, finished) = (done.clone(), total.clone(), finished.clone());
        std::thread::spawn(move || {
            let start = Instant::now();
            let tty = std::io::stderr().is_terminal();
            let every = if tty {
                Duration::from_millis(500)
            } else {
                Duration::from_secs(10)
            };
            let mut next = Duration::from_secs(2);
            let mut printed = false;
            while !finished.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(50));
                let t = start.elapsed();
                if t >= next {
                    next = t + every;
                    let (d, n) = (done.load(Ordering::Relaxed), total.load(Ordering::Relaxed));
                    if tty {
                        eprint!("\rperft: {d}/{n} subtrees done, {:.1} s", t.as_secs_f64());
                    } else {
                        eprintln!("perft: {d}/{n} subtrees done, {:.1} s", t.as_secs_f64());
                    }
                    printed = true;
                }
            }
            if printed && tty {
                eprintln!();
            }
        })
    };
    let start = Instant::now();
    let per_root = divide(&pos, args.depth, opts, &|d, n| {
        done.store(d, Ordering::Relaxed);
        total.store(n, Ordering::Relaxed);
    });
    let elapsed = start.elapsed().as_secs_f64();
    finished.store(true, Ordering::Relaxed);
    let _ = ticker.join();

    let nodes: u64 = if args.depth == 0 {
        1
    } else {
        per_root.iter().map(|x| x.1).sum()
    };
    if args.divide {
        for (m, n) in &per_root {
            println!("{} {}", pos.move_to_pdn(m), n);
        }
        println!("moves {}", per_root.len());
    }
    println!("nodes {nodes}");
    println!("time {elapsed:.3} s");
    let rate = if elapsed > 0.0 {
        nodes as f64 / elapsed / 1e6
    } else {
        0.0
    };
    println!(
        "{} {rate:.1} M",
        if opts.bulk { "leaves/s" } else { "moves/s" }
    );
    Ok(())
}
