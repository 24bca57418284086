//! `tiao analyze`: searches one position and prints each iteration and the best move.

use clap::Args;
use std::sync::Arc;
use std::time::Duration;
use tiao::engine::{Engine, EngineOptions, Event};
use tiao::search::Limits;
use tiao::variant::{DrawRuleSet, GameKind, Variant};

/// Depth searched when no limit is given: a few seconds on a small machine.
const DEFAULT_DEPTH: u32 = 22;

#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    /// Variant: international (normal), brazilian, russian, duoyibu, english.
    #[arg(long, short, default_value = "international")]
    variant: Variant,
    /// Position (PDN FEN); default: the variant's start position.
    #[arg(long, short)]
    fen: Option<String>,
    /// Moves played from the position, space-separated (PDN or Hub form).
    #[arg(long, short)]
    moves: Option<String>,
    /// Search to this depth in plies (default when no other limit is given: 22).
    #[arg(long, short)]
    depth: Option<u32>,
    /// Search for this many seconds.
    #[arg(long)]
    movetime: Option<f64>,
    /// Search this many nodes.
    #[arg(long)]
    nodes: Option<u64>,
    /// Search threads.
    #[arg(long, short, default_value_t = 1)]
    threads: usize,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Draw rules (russian only): standard or fmjd.
    #[arg(long, default_value = "standard")]
    draw_rules: DrawRuleSet,
}

pub fn run(args: AnalyzeArgs) -> Result<(), String> {
    let kind = GameKind {
        variant: args.variant,
        draw_rules: args.draw_rules,
    };
    let mut engine = Engine::new(
        kind,
        EngineOptions {
            threads: args.threads,
            hash_mib: args.hash,
            ..EngineOptions::default()
        },
    )
    .map_err(|e| e.to_string())?;
    let moves: Vec<&str> = args
        .moves
        .as_deref()
        .map(|m| m.split_whitespace().collect())
        .unwrap_or_default();
    engine
        .set_position(args.fen.as_deref(), &moves)
        .map_err(|e| e.to_string())?;
    let mut limits = Limits {
        analyze: true,
        depth: args.depth,
        nodes: args.nodes,
        move_time: args
            .movetime
            .map(|s| Duration::from_secs_f64(s.clamp(0.0, 1e7))),
        ..Limits::default()
    };
    if limits.depth.is_none() && limits.nodes.is_none() && limits.move_time.is_none() {
        limits.depth = Some(DEFAULT_DEPTH);
    }
    let what = match (limits.depth, limits.move_time, limits.nodes) {
        (Some(d), _, _) => format!("depth {d}"),
        (_, Some(t), _) => format!("{:.1} s", t.as_secs_f64()),
        (_, _, Some(n)) => format!("{n} nodes"),
        _ => String::new(),
    };
    let fen = engine.fen();
    let side = if fen.starts_with('W') {
        "White"
    } else {
        "Black"
    };
    println!(
        "{} draughts, {side} to move, searching {what} on {} thread(s)",
        args.variant, args.threads
    );
    println!("position {fen}");
    println!(
        "score: men (1.00 = one man) for the side to move; a win in n plies shows as 'win in n plies'"
    );
    println!(
        "{:>5} {:>16} {:>12} {:>8} {:>6}  principal variation",
        "depth", "score", "nodes", "time", "Mn/s"
    );
    let sink = Arc::new(|e: Event| match e {
        Event::Info(i) => {
            let pv: Vec<&str> = i.pv.iter().map(|m| m.pdn.as_str()).collect();
            println!(
                "{:>5} {:>16} {:>12} {:>7.2}s {:>6.2}  {}",
                i.depth,
                i.score.to_string(),
                i.nodes,
                i.time.as_secs_f64(),
                i.nps as f64 / 1e6,
                pv.join(" ")
            );
        }
        Event::Done(d) => match d.best {
            Some(b) => {
                let ponder = d.ponder.map(|p| format!(" (expected reply {})", p.pdn));
                println!(
                    "bestmove {}{}  score {}",
                    b.pdn,
                    ponder.unwrap_or_default(),
                    d.score
                );
            }
            None => println!("no legal move: the side to move has lost"),
        },
    });
    engine.go(limits, sink).map_err(|e| e.to_string())?;
    engine.wait();
    Ok(())
}
