//! The `tiao` command line: one subcommand per job (see `tiao --help`); each lives in `cli/`.

mod cli;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "tiao",
    version,
    about = "tiao (跳): a draughts and Nine Men's Morris engine"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Search a position and print each iteration and the best move.
    Analyze(cli::analyze::AnalyzeArgs),
    /// Search the fixed bench positions: total nodes (the search signature) and nodes/s.
    Bench(cli::bench::BenchArgs),
    /// Play international draughts over the network with the DamExchange Protocol (DXP), as a
    /// follower (listening, the default) or an initiator (--connect).
    Dxp(cli::dxp::DxpArgs),
    /// Play two configurations of the engine against each other (W/D/L, Elo).
    Match(cli::matches::MatchArgs),
    /// Count the leaves of the legal-move tree (move generator test and benchmark).
    Perft(cli::perft::PerftArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Analyze(args)) => cli::analyze::run(args),
        Some(Command::Bench(args)) => cli::bench::run(args),
        Some(Command::Dxp(args)) => cli::dxp::run(args),
        Some(Command::Match(args)) => cli::matches::run(args),
        Some(Command::Perft(args)) => cli::perft::run(args),
        None => {
            use clap::CommandFactory;
            Cli::command().print_help().map_err(|e| e.to_string())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
