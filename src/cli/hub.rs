//! `tiao hub` (and bare `tiao`): the Hub protocol loop on stdin/stdout (see `protocol.md`).

use clap::Args;
use std::io::{self, BufReader};

#[derive(Args, Debug)]
pub struct HubArgs {}

pub fn run(_args: HubArgs) -> Result<(), String> {
    match tiao::protocol::hub::run(BufReader::new(io::stdin()), io::stdout()) {
        // The GUI closed our output: there is nobody left to talk to.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        r => r.map_err(|e| e.to_string()),
    }
}
