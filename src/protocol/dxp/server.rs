//! The follower's TCP server: plays the game requests of one connection at a time, until killed
//! or until a number of games is played. A connection that ends (the peer stops, breaks the
//! protocol, runs out of time, goes quiet, or disconnects) puts the server back to serving.
//!
//! An acceptor thread takes every connection as it comes. One at a time is handed to the engine
//! (the main thread plays it); a connection that arrives while another is being played waits up
//! to [`HANDOVER_WAIT`] for it to end (a client that reconnects right after a game is served), and
//! is then refused clearly: a CHAT saying why, and to its GAMEREQ, if it sends one within
//! [`REFUSAL_READ`], a GAMEACC with code 3 (no games), then the connection is closed. At most
//! [`MAX_WAITING`] connections wait at once; beyond them a connection is closed at once after the
//! CHAT. So a client that holds a connection never keeps another from an answer, and a flood of
//! connections costs a bounded number of threads.
//!
//! After the last game (`--games`), the engine is never handed over again: the server is marked
//! closing before anything else, so a connection waiting for it is refused ("tiao has played all
//! its games"), and the acceptor is woken by a connection of its own to the listening address
//! (the loopback address when it listens on all of them: `0.0.0.0`, `[::]`).
//!
//! Log lines about refused connections are rate-limited like a session's (see `session`).

use super::framing::{FrameReader, Incoming, encode};
use super::game::Record;
use super::log::{Log, RateLimit};
use super::message::{AcceptCode, GameAcc, MAX_CHAT, Message};
use super::session::{Config, Role, Session};
use crate::engine::Engine;
use crossbeam_channel::{Sender, unbounded};
use std::io::Write;
use std::net::{Ipv4Addr, Ipv6Addr, Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// How long a connection that arrives during another one waits for it to end.
pub const HANDOVER_WAIT: Duration = Duration::from_secs(2);
/// How long a refused connection is given to send its GAMEREQ (answered with GAMEACC 3).
pub const REFUSAL_READ: Duration = Duration::from_secs(2);
/// Most connections waiting or being refused at once.
pub const MAX_WAITING: usize = 16;

/// A connection accepted, numbered.
type Accepted = (TcpStream, SocketAddr, u64);

/// What the acceptor and the waiting connections share with the main thread.
struct Shared<'a> {
    /// A connection is being played (or handed over to be).
    busy: AtomicBool,
    /// The server is ending: refuse everything.
    closing: AtomicBool,
    /// Connections waiting or being refused.
    waiting: AtomicUsize,
    next_conn: AtomicU64,
    tx: Sender<Accepted>,
    log: &'a Log,
    /// Refusal lines, rate-limited (a flood of connections must not flood the log).
    refusals: Mutex<RateLimit>,
    name: &'a str,
}

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
    let (tx, rx) = unbounded::<Accepted>();
    let shared = Shared {
        busy: AtomicBool::new(false),
        closing: AtomicBool::new(false),
        waiting: AtomicUsize::new(0),
        next_conn: AtomicU64::new(0),
        tx,
        log,
        refusals: Mutex::new(RateLimit::default()),
        name: &cfg.name,
    };
    let mut games_left = games;
    let mut records: Vec<Record> = Vec::new();
    std::thread::scope(|s| {
        let shared = &shared;
        s.spawn(move || accept_all(s, listener, shared));
        while games_left != Some(0) {
            let Ok((stream, addr, conn)) = rx.recv() else {
                break;
            };
            log.line(&format!("connection {conn} from {addr}"));
            let first = records.len() as u32 + 1;
            let role = Role::Follower { games_left };
            match Session::new(stream, conn, role, cfg, engine, log, first, on_record) {
                Ok(session) => {
                    let summary = session.run();
                    if let Some(n) = games_left.as_mut() {
                        *n = n.saturating_sub(summary.records.len() as u32);
                    }
                    records.extend(summary.records);
                }
                Err(e) => log.line(&format!("error: connection {conn}: {e}")),
            }
            if games_left == Some(0) {
                // The last game is played: the engine stays taken, so that no waiting connection
                // claims it now; they see `closing` and are refused.
                shared.closing.store(true, Ordering::Release);
            } else {
                shared.busy.store(false, Ordering::Release);
                log.line("waiting for a connection");
            }
        }
        // Wake the acceptor from its `accept` so that it sees the end.
        shared.closing.store(true, Ordering::Release);
        if let Ok(addr) = listener.local_addr() {
            let _ = TcpStream::connect_timeout(&wake_address(addr), Duration::from_secs(1));
        }
    });
    log.line(&format!(
        "all {} game{} played",
        records.len(),
        if records.len() == 1 { "" } else { "s" }
    ));
    records
}

/// Where to connect to reach a listener on `addr`: the address itself, or the loopback address
/// of its family for one that listens on all of them (a connection to `0.0.0.0` or `[::]` is
/// not defined everywhere).
fn wake_address(addr: SocketAddr) -> SocketAddr {
    let mut to = addr;
    if to.ip().is_unspecified() {
        to.set_ip(match addr {
            SocketAddr::V4(_) => Ipv4Addr::LOCALHOST.into(),
            SocketAddr::V6(_) => Ipv6Addr::LOCALHOST.into(),
        });
    }
    to
}

/// The acceptor thread: every connection is handed over, made to wait, or refused.
fn accept_all<'s, 'a: 's>(
    s: &'s std::thread::Scope<'s, '_>,
    listener: &'s TcpListener,
    shared: &'s Shared<'a>,
) {
    loop {
        let (stream, addr) = match listener.accept() {
            Ok(x) => x,
            Err(e) => {
                if shared.closing.load(Ordering::Acquire) {
                    return;
                }
                shared
                    .log
                    .line(&format!("warning: accepting a connection failed: {e}"));
                std::thread::sleep(Duration::from_millis(100));
                continue;
            }
        };
        if shared.closing.load(Ordering::Acquire) {
            // The games are played. This connection, and every one queued behind it (a client
            // that connected during the last game, before this thread got to it), is told so
            // rather than reset. One of them is the wake-up connection: it is not logged.
            tell_closed(stream);
            if listener.set_nonblocking(true).is_ok() {
                while let Ok((stream, _)) = listener.accept() {
                    tell_closed(stream);
                }
            }
            return;
        }
        let conn = shared.next_conn.fetch_add(1, Ordering::Relaxed) + 1;
        if claim(shared) {
            let _ = shared.tx.send((stream, addr, conn));
        } else if shared.waiting.fetch_add(1, Ordering::AcqRel) < MAX_WAITING {
            s.spawn(move || {
                wait_or_refuse(shared, stream, addr, conn);
                shared.waiting.fetch_sub(1, Ordering::AcqRel);
            });
        } else {
            shared.waiting.fetch_sub(1, Ordering::AcqRel);
            refuse(shared, stream, addr, conn, Duration::ZERO);
        }
    }
}

/// Takes the engine for a connection, if nobody has it.
fn claim(shared: &Shared) -> bool {
    shared
        .busy
        .compare_exchange(false, true, Ordering::AcqRel, Ordering::Acquire)
        .is_ok()
}

/// A connection that came while another is played: served if that one ends within
/// [`HANDOVER_WAIT`], else refused.
fn wait_or_refuse(shared: &Shared, stream: TcpStream, addr: SocketAddr, conn: u64) {
    let until = Instant::now() + HANDOVER_WAIT;
    while Instant::now() < until && !shared.closing.load(Ordering::Acquire) {
        if claim(shared) {
            let _ = shared.tx.send((stream, addr, conn));
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    refuse(shared, stream, addr, conn, REFUSAL_READ);
}

/// Tells a connection that came after the last game that tiao has played its games (a CHAT),
/// and closes it; not logged (see [`accept_all`]).
fn tell_closed(mut stream: TcpStream) {
    let _ = stream.set_nonblocking(false);
    say(&mut stream, CLOSED);
    let _ = stream.shutdown(Shutdown::Both);
}

/// Writes `why` to a connection as a CHAT (best effort, within a second).
fn say(stream: &mut TcpStream, why: &str) {
    let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
    let chat: String = format!("tiao: {why}").chars().take(MAX_CHAT).collect();
    let _ = stream.write_all(&encode(&Message::Chat(chat).to_wire()));
}

/// Why a connection after the last game is refused.
const CLOSED: &str = "tiao has played all its games";

/// Tells a connection that tiao is busy: a CHAT, then GAMEACC 3 to a GAMEREQ that comes within
/// `read` (none read when zero); then closes it.
fn refuse(shared: &Shared, mut stream: TcpStream, addr: SocketAddr, conn: u64, read: Duration) {
    let why = if shared.closing.load(Ordering::Acquire) {
        CLOSED
    } else {
        "tiao is playing on another connection; try again later"
    };
    if let Ok(mut limit) = shared.refusals.lock()
        && let Some(line) = limit.admit(&format!("connection {conn} from {addr} refused: {why}"))
    {
        shared.log.line(&line);
    }
    say(&mut stream, why);
    if !read.is_zero()
        && stream.set_read_timeout(Some(read)).is_ok()
        && let Ok(clone) = stream.try_clone()
    {
        let mut frames = FrameReader::new(clone);
        let until = Instant::now() + read;
        while Instant::now() < until {
            match frames.next_frame() {
                Incoming::Frame(text) => {
                    if let Ok(Message::GameReq(_)) = Message::parse(&text) {
                        let acc = Message::GameAcc(GameAcc {
                            follower: shared.name.to_string(),
                            code: AcceptCode::NoGames,
                        });
                        let _ = stream.write_all(&encode(&acc.to_wire()));
                        break;
                    }
                }
                Incoming::Bad(_) => {}
                Incoming::Closed { .. } | Incoming::Failed(_) => break,
            }
        }
    }
    let _ = stream.shutdown(Shutdown::Both);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_acceptor_is_woken_on_loopback_when_listening_everywhere() {
        let wake = |a: &str| wake_address(a.parse().unwrap()).to_string();
        assert_eq!(wake("0.0.0.0:27531"), "127.0.0.1:27531");
        assert_eq!(wake("[::]:27531"), "[::1]:27531");
        assert_eq!(wake("192.168.1.5:9"), "192.168.1.5:9");
        assert_eq!(wake("127.0.0.1:9"), "127.0.0.1:9");
    }
}
