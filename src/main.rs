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
    /// Opening books: grow one by the engine's own analysis (drop-out expansion; deterministic,
    /// resumable, shardable), describe one, or look a position up.
    Book(cli::book::BookArgs),
    /// Draw a position: a text diagram, or an SVG picture with coordinates and the last move.
    Board(cli::board::BoardArgs),
    /// Play international draughts over the network with the DamExchange Protocol (DXP), as a
    /// follower (listening, the default) or an initiator (--connect).
    Dxp(cli::dxp::DxpArgs),
    /// Endgame tables: build them (resumable), verify them, list them or look a position up.
    Egdb(cli::egdb::EgdbArgs),
    /// The board in the browser: a local web server for every game (play, analyse, PDN, FEN).
    Gui(cli::gui::GuiArgs),
    /// Play a match between two engines, built-in or external Hub ones (W/D/L, Elo, SPRT, PDN).
    Match(Box<cli::matches::MatchArgs>),
    /// Count the leaves of the legal-move tree (move generator test and benchmark).
    Perft(cli::perft::PerftArgs),
    /// Replace the scores of self-play data by a deeper search's: every position searched again
    /// at a larger node count (deterministic, shardable by chunk, resumable).
    Relabel(cli::relabel::RelabelArgs),
    /// Play the engine against itself at a fixed node count and write every quiet position with
    /// its game's result and search score as training data (deterministic, shardable, resumable).
    Selfplay(cli::selfplay::SelfplayArgs),
    /// Fit the search's numeric tunables by SPSA over fixed-node games between two perturbed
    /// copies of the engine (deterministic, resumable from its state file).
    Spsa(Box<cli::spsa::SpsaArgs>),
    /// Fit a draughts family's evaluation weights to the results of PDN games (Texel method) and
    /// print them for src/draughts/eval/weights.rs.
    Tune(cli::tune::TuneArgs),
}

/// A reader that closes our stdout early (`tiao perft --divide ... | head`) ends the program
/// quietly with the status a shell gives a process killed by SIGPIPE, as Unix tools do, instead
/// of the panic that `println!` raises on a broken pipe.
fn quiet_on_broken_pipe() {
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.contains("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(141);
        }
        default_hook(info)
    }));
}

fn main() -> ExitCode {
    quiet_on_broken_pipe();
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Analyze(args)) => cli::analyze::run(args),
        Some(Command::Bench(args)) => cli::bench::run(args),
        Some(Command::Board(args)) => cli::board::run(args),
        Some(Command::Book(args)) => cli::book::run(args),
        Some(Command::Gui(args)) => cli::gui::run(args),
        Some(Command::Hub(args)) => cli::hub::run(args),
        Some(Command::Dxp(args)) => cli::dxp::run(args),
        Some(Command::Egdb(args)) => cli::egdb::run(args),
        Some(Command::Match(args)) => cli::matches::run(*args),
        Some(Command::Perft(args)) => cli::perft::run(args),
        Some(Command::Relabel(args)) => cli::relabel::run(args),
        Some(Command::Selfplay(args)) => cli::selfplay::run(args),
        Some(Command::Spsa(args)) => cli::spsa::run(*args),
        Some(Command::Tune(args)) => cli::tune::run(args),
        None => cli::hub::run(cli::hub::HubArgs::default()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
