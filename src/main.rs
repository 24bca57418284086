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
    /// Count the leaves of the legal-move tree (move generator test and benchmark).
    Perft(cli::perft::PerftArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
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
