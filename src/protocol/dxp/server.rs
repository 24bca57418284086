//! The follower's TCP server: accepts connections one at a time and answers the game requests
//! on each, until killed or until a number of games is played. A connection that ends (the peer
//! stops, breaks the protocol or disconnects) puts the server back to accepting.

use super::game::Record;
use super::log::Log;
use super::session::{Config, Role, Session};
use crate::engine::Engine;
use std::net::TcpListener;
use std::time::Duration;

/// Serves games on `listener`: `games` in all (`None`: until killed). Returns the finished games;
/// `on_record` is called as each one finishes.
pub fn serve(
    listener: &TcpListener,
    engine: &mut Engine,
    cfg: &Config,
    log: &Log,
    games: Option<u32>,
    on_record: &mut dyn FnMut(&Record),
) -> Vec<Record> {
    let mut games_left = games;
    let mut conn = 0u64;
    let mut records: Vec<Record> = Vec::new();
    while games_left != Some(0) {
        let (stream, addr) = match listener.accept() {
            Ok(x) => x,
            Err(e) => {
                log.line(&format!("warning: accepting a connection failed: {e}"));
                std::thread::sleep(Duration::from_millis(100));
                continue;
            }
        };
        conn += 1;
        log.line(&format!("connection {conn} from {addr}"));
        let first = records.len() as u32 + 1;
        let role = Role::Follower { games_left };
        let session = match Session::new(stream, conn, role, cfg, engine, log, first, on_record) {
            Ok(s) => s,
            Err(e) => {
                log.line(&format!("error: connection {conn}: {e}"));
                continue;
            }
        };
        let summary = session.run();
        if let Some(n) = games_left.as_mut() {
            *n = n.saturating_sub(summary.records.len() as u32);
        }
        records.extend(summary.records);
        if games_left != Some(0) {
            log.line("waiting for a connection");
        }
    }
    log.line(&format!(
        "all {} game{} played",
        records.len(),
        if records.len() == 1 { "" } else { "s" }
    ));
    records
}
