//! The `tiao` command line: one subcommand per job (see `tiao --help`); each lives in `cli/`.

mod cli;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "tiao",
    version,
    about = "tiao (跳): a draughts and Nine Men's Morris engine",
    long_about = "tiao (跳): a draughts and Nine Men's Morris engine.\n\nWithout a subcommand it speaks the Hub protocol on stdin/stdout, as `tiao hub` does (see protocol.md)."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Search a position and print each iteration and the best move; or, for scripts, JSON lines
    /// for positions (--positions) or every move of PDN games (--pdn, --review, --plot).
    Analyze(cli::analyze::AnalyzeArgs),
    /// Speak the Hub protocol on stdin/stdout (the default without a subcommand; see protocol.md).
    Hub(cli::hub::HubArgs),
    /// Search the fixed bench positions: total nodes (the search signature) and nodes/s.
    Bench(cli::bench::BenchArgs),
    /// Draw a position: a text diagram, or an SVG picture with coordinates and the last move.
    Board(cli::board::BoardArgs),
    /// Play international draughts over the network with the DamExchange Protocol (DXP), as a
    /// follower (listening, the default) or an initiator (--connect).
    Dxp(cli::dxp::DxpArgs),
    /// Play a match between two engines, built-in or external Hub ones (W/D/L, Elo, SPRT, PDN).
    Match(Box<cli::matches::MatchArgs>),
    /// Count the leaves of the legal-move tree (move generator test and benchmark).
    Perft(cli::perft::PerftArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Analyze(args)) => cli::analyze::run(args),
        Some(Command::Bench(args)) => cli::bench::run(args),
        Some(Command::Board(args)) => cli::board::run(args),
        Some(Command::Hub(args)) => cli::hub::run(args),
        Some(Command::Dxp(args)) => cli::dxp::run(args),
        Some(Command::Match(args)) => cli::matches::run(*args),
        Some(Command::Perft(args)) => cli::perft::run(args),
        None => cli::hub::run(cli::hub::HubArgs {}),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
