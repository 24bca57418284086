//! The initiator's TCP client: connects to a follower and plays the planned games on one
//! connection.

use super::game::Record;
use super::log::Log;
use super::session::{Config, Plan, Role, Session, Summary};
use crate::engine::Engine;
use std::net::{TcpStream, ToSocketAddrs};
use std::time::Duration;

/// How long one connection attempt may take.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// Connects to `addr` (`HOST:PORT`) and plays `plan`; `on_record` is called as each game
/// finishes. Fails only when no connection can be made.
pub fn play(
    addr: &str,
    plan: Plan,
    engine: &mut Engine,
    cfg: &Config,
    log: &Log,
    on_record: &mut dyn FnMut(&Record),
) -> Result<Summary, String> {
    let addrs: Vec<_> = addr
        .to_socket_addrs()
        .map_err(|e| format!("cannot resolve {addr}: {e}"))?
        .collect();
    let mut last = format!("{addr} resolves to no address");
    for a in addrs {
        match TcpStream::connect_timeout(&a, CONNECT_TIMEOUT) {
            Ok(stream) => {
                log.line(&format!("connected to {a} as initiator"));
                let session = Session::new(
                    stream,
                    1,
                    Role::Initiator(plan),
                    cfg,
                    engine,
                    log,
                    1,
                    on_record,
                )
                .map_err(|e| format!("connection to {a}: {e}"))?;
                return Ok(session.run());
            }
            Err(e) => {
                log.line(&format!("warning: cannot connect to {a}: {e}"));
                last = format!("cannot connect to {a}: {e}");
            }
        }
    }
    Err(last)
}
