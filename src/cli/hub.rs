//! `tiao hub` (and bare `tiao`): the Hub protocol loop on stdin/stdout (see `protocol.md`).

use clap::Args;
use std::io::{self, BufReader};

#[derive(Args, Debug, Default)]
#[command(after_help = "\
Examples:
  tiao hub                          # or bare `tiao`: wait for `hub` on stdin
  printf 'hub\\ninit\\npos start\\nlevel move-time=1\\ngo think\\n' | tiao hub

Every command, parameter and answer: protocol.md.")]
pub struct HubArgs {
    #[command(flatten)]
    egdb: super::EgdbArgs,
}

pub fn run(args: HubArgs) -> Result<(), String> {
    let options = tiao::engine::EngineOptions {
        egdb: args.egdb.checked()?,
        // A GUI starts the engine and waits for it: large tables are checked while it plays.
        egdb_check: tiao::engine::TableCheck::Background,
        ..Default::default()
    };
    match tiao::protocol::hub::driver::run_with(BufReader::new(io::stdin()), io::stdout(), options)
    {
        // The GUI closed our output: there is nobody left to talk to.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        r => r.map_err(|e| e.to_string()),
    }
}
