//! `tiao hub` (and bare `tiao`): the Hub protocol loop on stdin/stdout (see `protocol.md`).

use clap::Args;
use std::io::{self, BufReader};

#[derive(Args, Debug, Default)]
#[command(after_help = "\
Examples:
  tiao hub                          # or bare `tiao`: wait for `hub` on stdin
  tiao hub --no-book                # every `go` searches (the opening book off)
  printf 'hub\\ninit\\npos start\\nlevel move-time=1\\ngo think\\n' | tiao hub

Every command, parameter and answer: protocol.md.")]
pub struct HubArgs {
    #[command(flatten)]
    egdb: super::EgdbArgs,
    /// An opening book file to play from instead of the embedded one (Hub parameter
    /// `book-file`); refused unless it is a whole, undamaged book of the variant played.
    #[arg(long, value_name = "FILE")]
    book: Option<std::path::PathBuf>,
    /// Start with the opening book off (Hub parameter `book=false`): every `go` searches.
    #[arg(long, conflicts_with = "book")]
    no_book: bool,
    /// A pattern-weight file (`tiao tune --out`) to evaluate with instead of the embedded
    /// weights of its family (Hub parameter `weights`); repeatable, one file a family (a
    /// russian fit and an international one); the other families keep their embedded weights.
    /// Refused unless each is a whole, undamaged weight file.
    #[arg(long, value_name = "FILE")]
    weights: Vec<std::path::PathBuf>,
}

pub fn run(args: HubArgs) -> Result<(), String> {
    let options = tiao::engine::EngineOptions {
        egdb: args.egdb.checked()?,
        // A GUI starts the engine and waits for it: large tables are checked while it plays.
        egdb_check: tiao::engine::TableCheck::Background,
        book: tiao::engine::BookOptions {
            enabled: !args.no_book,
            file: args.book,
            ..tiao::engine::BookOptions::default()
        },
        weights: args.weights,
        ..Default::default()
    };
    match tiao::protocol::hub::driver::run_with(BufReader::new(io::stdin()), io::stdout(), options)
    {
        // The GUI closed our output: there is nobody left to talk to.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        r => r.map_err(|e| e.to_string()),
    }
}
