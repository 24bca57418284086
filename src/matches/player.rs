//! Players of a match behind one trait: the built-in engine in process, or an external Hub engine.
//!
//! A [`Player`] is asked for a move with the whole game (initial position and every move since,
//! so that it sees repetitions) and a [`Budget`]; it answers a move text with what it reported
//! (score, depth, nodes, principal variation), or a [`Fault`] (of those a player reports). It must answer within the
//! request's deadline; the runner judges legality and time. After any failure the runner calls
//! [`Player::reset`]: the next game starts from a fresh engine (a new process for external ones).
//!
//! - [`BuiltinPlayer`]: an [`Engine`] of its own (its own table), searching on the engine's thread;
//!   waiting is bounded by the deadline all the same.
//! - [`ExternalPlayer`]: a [`HubClient`] process, started at the first game and after a reset.

use super::EngineConfig;
use super::clock::Budget;
use crate::engine::{Engine, Event, EventSink};
use crate::protocol::hub::client::{self, ClientConfig, ClientError, HubClient, Level, Log};
use crate::search::Limits;
use crate::variant::GameKind;
use crossbeam_channel::{RecvTimeoutError, unbounded};
use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A move request: the game so far and the time allowed.
#[derive(Clone, Debug)]
pub struct Request<'a> {
    /// FEN of the game's initial position.
    pub start_fen: &'a str,
    /// The same position as a Hub `pos=` string.
    pub start_hub: &'a str,
    /// Every move since, Hub form.
    pub moves: &'a [String],
    /// What the player is told.
    pub budget: Budget,
    /// When the runner stops waiting, from the request.
    pub deadline: Duration,
}

/// A player's answer: the move (any form the game reads; Hub form in practice) and what the
/// engine reported with it (score from the side to move, depth, nodes, principal variation).
pub use crate::protocol::hub::client::SearchReply as Reply;

/// What a player did wrong: why it gave no move, or why its move was refused; the player loses
/// the game. The players report [`Start`](Fault::Start), [`Crash`](Fault::Crash),
/// [`Hung`](Fault::Hung) and [`Protocol`](Fault::Protocol); the runner, which judges time and
/// legality, adds [`Time`](Fault::Time) and [`Illegal`](Fault::Illegal).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// Could not be started (or restarted).
    Start(String),
    /// The process died or closed its output.
    Crash(String),
    /// No move before its deadline.
    Hung,
    /// Answered after its time was up.
    Time,
    /// A move that is not legal (or not a move).
    Illegal { mv: String, reason: String },
    /// An `error` line or an unreadable answer.
    Protocol(String),
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Start(e) => write!(f, "could not start: {e}"),
            Fault::Crash(e) => write!(f, "crashed ({e})"),
            Fault::Hung => write!(f, "gave no move in time (hung)"),
            Fault::Time => write!(f, "lost on time"),
            Fault::Illegal { mv, reason } => write!(f, "played an illegal move '{mv}' ({reason})"),
            Fault::Protocol(e) => write!(f, "broke the protocol: {e}"),
        }
    }
}

impl From<ClientError> for Fault {
    fn from(e: ClientError) -> Fault {
        match e {
            ClientError::Spawn(e) | ClientError::Unsupported(e) => Fault::Start(e),
            ClientError::Exited(e) => Fault::Crash(e),
            ClientError::Timeout(_) => Fault::Hung,
            ClientError::Protocol(e) => Fault::Protocol(e),
        }
    }
}

/// A player of a match.
pub trait Player: Send {
    /// The name for records (the engine's own name once known).
    fn name(&self) -> String;
    /// Prepares a new game of `kind`, (re)starting the engine when needed.
    fn new_game(&mut self, kind: GameKind) -> Result<(), Fault>;
    /// Asks for a move.
    fn play(&mut self, req: &Request) -> Result<Reply, Fault>;
    /// Forgets the engine after a failure (crash, hang, illegal move, loss on time): the next
    /// game starts a fresh one.
    fn reset(&mut self);
    /// Ends the engine at the end of the match.
    fn quit(&mut self);
}

/// The built-in engine.
pub struct BuiltinPlayer {
    cfg: EngineConfig,
    engine: Option<Engine>,
}

impl BuiltinPlayer {
    pub fn new(cfg: EngineConfig) -> BuiltinPlayer {
        BuiltinPlayer { cfg, engine: None }
    }
}

/// The search limits of a budget.
fn limits_of(b: Budget) -> Limits {
    match b {
        Budget::Nodes(n) => Limits::nodes(n),
        Budget::Depth(d) => Limits::depth(d),
        Budget::MoveTime(t) => Limits::move_time(t),
        Budget::Clock { time, inc } => Limits {
            time: Some(time),
            inc,
            ..Limits::default()
        },
    }
}

/// The `level` line of a budget.
fn level_of(b: Budget) -> Level {
    match b {
        Budget::Nodes(n) => Level::Nodes(n),
        Budget::Depth(d) => Level::Depth(d),
        Budget::MoveTime(t) => Level::MoveTime(t.as_secs_f64()),
        Budget::Clock { time, inc } => Level::Clock {
            time: time.as_secs_f64(),
            inc: inc.as_secs_f64(),
        },
    }
}

impl Player for BuiltinPlayer {
    fn name(&self) -> String {
        self.cfg.name.clone()
    }

    fn new_game(&mut self, kind: GameKind) -> Result<(), Fault> {
        match &mut self.engine {
            Some(e) if e.kind() == kind => e.new_game(),
            _ => {
                let options = self.cfg.options.clone();
                self.engine =
                    Some(Engine::new(kind, options).map_err(|e| Fault::Start(e.to_string()))?);
            }
        }
        Ok(())
    }

    fn play(&mut self, req: &Request) -> Result<Reply, Fault> {
        let engine = self
            .engine
            .as_mut()
            .ok_or_else(|| Fault::Start("no game started".into()))?;
        let moves: Vec<&str> = req.moves.iter().map(String::as_str).collect();
        engine
            .set_position(Some(req.start_fen), &moves)
            .map_err(|e| Fault::Protocol(e.to_string()))?;
        let (tx, rx) = unbounded();
        let sink: EventSink = Arc::new(move |e: Event| {
            let _ = tx.send(e);
        });
        engine
            .go(limits_of(req.budget), sink)
            .map_err(|e| Fault::Protocol(e.to_string()))?;
        let until = Instant::now() + req.deadline;
        let mut reply = Reply::default();
        loop {
            let left = until.saturating_duration_since(Instant::now());
            match rx.recv_timeout(left) {
                Ok(Event::Info(i)) => {
                    reply.pv = i.pv.into_iter().map(|m| m.hub).collect();
                }
                // Not joined here: the search's helper threads end on their own, and the engine
                // joins them before the next search.
                Ok(Event::Done(d)) => {
                    let Some(best) = d.best else {
                        return Err(Fault::Protocol("no move in a position with moves".into()));
                    };
                    reply.mv = best.hub;
                    reply.score = Some(d.score);
                    reply.depth = Some(d.depth);
                    reply.nodes = Some(d.nodes);
                    return Ok(reply);
                }
                Err(RecvTimeoutError::Timeout) => {
                    engine.stop();
                    return Err(Fault::Hung);
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(Fault::Crash(
                        "the search thread ended without a move".into(),
                    ));
                }
            }
        }
    }

    fn reset(&mut self) {
        if let Some(e) = &self.engine {
            e.stop();
        }
        self.engine = None;
    }

    fn quit(&mut self) {
        self.reset();
    }
}

/// An external engine speaking Hub.
pub struct ExternalPlayer {
    cfg: ClientConfig,
    /// The command line as given (the name until the engine says its own).
    command: String,
    label: String,
    log: Option<Log>,
    kind: Option<GameKind>,
    client: Option<HubClient>,
    id: Option<String>,
}

impl ExternalPlayer {
    /// A player for `command` (not started yet); `label` tags its lines in the traffic log.
    pub fn new(cfg: ClientConfig, label: &str, log: Option<Log>) -> ExternalPlayer {
        ExternalPlayer {
            command: cfg.command.join(" "),
            cfg,
            label: label.to_string(),
            log,
            kind: None,
            client: None,
            id: None,
        }
    }
}

impl Player for ExternalPlayer {
    fn name(&self) -> String {
        self.id.clone().unwrap_or_else(|| self.command.clone())
    }

    fn new_game(&mut self, kind: GameKind) -> Result<(), Fault> {
        if self.kind != Some(kind) {
            self.client = None;
        }
        if let Some(c) = &mut self.client
            && c.is_alive()
            && c.new_game().is_ok()
        {
            return Ok(());
        }
        // Not started yet, or dead since the last game: (re)start.
        self.client = None;
        let c = HubClient::start(&self.cfg, kind.variant, &self.label, self.log.clone())?;
        if self.id.is_none() {
            self.id = c.id();
        }
        self.kind = Some(kind);
        self.client = Some(c);
        Ok(())
    }

    fn play(&mut self, req: &Request) -> Result<Reply, Fault> {
        let c = self
            .client
            .as_mut()
            .ok_or_else(|| Fault::Start("no game started".into()))?;
        match c.search(req.start_hub, req.moves, level_of(req.budget), req.deadline) {
            Ok(r) => Ok(r),
            Err(e) => {
                self.client = None;
                Err(e.into())
            }
        }
    }

    fn reset(&mut self) {
        self.client = None;
    }

    fn quit(&mut self) {
        if let Some(c) = self.client.take() {
            c.quit();
        }
    }
}

/// Splits an external engine's spec into its command line and `option.NAME=VALUE` settings.
pub fn external_config(spec: &str, start_timeout: Duration) -> Result<ClientConfig, String> {
    let words = client::split_command(spec)?;
    let mut command = Vec::new();
    let mut options = Vec::new();
    for w in words {
        match w.strip_prefix("option.").and_then(|o| o.split_once('=')) {
            Some((k, v)) if !k.is_empty() => options.push((k.to_string(), v.to_string())),
            _ => command.push(w),
        }
    }
    if command.is_empty() {
        return Err(format!("engine '{spec}' has no command"));
    }
    Ok(ClientConfig {
        command,
        options,
        start_timeout,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::clock::{Clock, Control};

    #[test]
    fn budgets_become_limits_and_levels() {
        let b = Budget::Clock {
            time: Duration::from_secs(1),
            inc: Duration::from_millis(500),
        };
        let l = limits_of(b);
        assert_eq!(l.time, Some(Duration::from_secs(1)));
        assert_eq!(l.inc, Duration::from_millis(500));
        assert_eq!(level_of(b).line(), "level time=1 inc=0.5");
        // Less on the clock than the increment: never more than the clock.
        let c = Clock::new(Control::parse_tc("0.2+0.5").unwrap());
        assert_eq!(level_of(c.budget()).line(), "level time=0 inc=0.2");
        assert_eq!(
            level_of(Budget::MoveTime(Duration::from_millis(100))).line(),
            "level move-time=0.1"
        );
    }

    #[test]
    fn external_specs() {
        let c = external_config("dame hub option.hash=32", Duration::from_secs(1)).unwrap();
        assert_eq!(c.command, ["dame", "hub"]);
        assert_eq!(c.options, [("hash".to_string(), "32".to_string())]);
        assert!(external_config("option.x=1", Duration::from_secs(1)).is_err());
    }
}
