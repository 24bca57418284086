//! The client side of the Hub protocol: drives an external engine process the way the Hub GUI
//! and pydraughts do, for engine matches.
//!
//! Session: start the command (its own process group), `hub` and read until `wait` (noting `id`
//! and the declared `variant` values), `set-param name=variant` when the engine declares that
//! parameter (an engine that does not is taken to play international only), the user's
//! `set-param`s, `init` and read until `ready`. Per game `new-game`; per move
//! `pos pos=<start position> moves="<every move since>"` (Hub form, so that the engine sees the
//! game's history for repetitions), one `level` line, `go think`, then `info` lines until
//! `done move=...`. At the end `quit`.
//!
//! Threading: a reader thread turns the engine's stdout into lines on a channel
//! ([`reader::spawn`]: length cap, no panic on bad bytes), so every wait has
//! a deadline; a writer thread owns the engine's stdin, so an engine that stops reading can never
//! block the caller. Dropping a [`HubClient`] kills the whole process group (an engine started
//! through a shell script dies with its children) and reaps it.
//!
//! Failures are [`ClientError`]s: the program could not start, its output closed (it crashed or
//! quit), it did not answer in time, it said `error`, or it does not play the variant. The caller
//! (the match runner) decides what they cost; a client that failed should be dropped.

use super::reader::{self, Input};
use super::syntax::{Line, message};
use crate::draughts::position::Position;
use crate::draughts::rules::{Rules, Variant};
use crate::game::Game;
use crate::search::Score;
use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, unbounded};
use std::fmt;
use std::io::{BufReader, Write};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A position as the `pos pos=` argument writes it.
pub trait HubPosition: Game {
    /// The Hub position string (draughts: side to move and one letter per square; Morris: its
    /// position string).
    fn hub_position(&self) -> String;
}

impl<R: Rules> HubPosition for Position<R> {
    fn hub_position(&self) -> String {
        super::position::write(self)
    }
}

impl HubPosition for crate::morris::MorrisPosition {
    fn hub_position(&self) -> String {
        self.fen()
    }
}

/// Why the engine could not be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClientError {
    /// The program could not be started.
    Spawn(String),
    /// Its output closed: it crashed or quit (with its exit status when known).
    Exited(String),
    /// No answer in time (what was awaited).
    Timeout(String),
    /// It answered `error message=...` or something unreadable.
    Protocol(String),
    /// It does not play the variant.
    Unsupported(String),
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::Spawn(e) => write!(f, "could not start: {e}"),
            ClientError::Exited(e) => write!(f, "crashed or quit ({e})"),
            ClientError::Timeout(e) => write!(f, "no answer in time ({e})"),
            ClientError::Protocol(e) => write!(f, "protocol error: {e}"),
            ClientError::Unsupported(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ClientError {}

/// How to start an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientConfig {
    /// The program and its arguments.
    pub command: Vec<String>,
    /// `set-param` values sent before `init`.
    pub options: Vec<(String, String)>,
    /// How long `hub` → `wait` and `init` → `ready` may take.
    pub start_timeout: Duration,
}

/// Splits a command line into words: blanks separate, `'...'` and `"..."` group, `\` escapes
/// the next character outside single quotes.
pub fn split_command(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => cur.push(c),
                        None => return Err(format!("unclosed ' in '{line}'")),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c) => cur.push(c),
                            None => return Err(format!("unclosed \" in '{line}'")),
                        },
                        Some(c) => cur.push(c),
                        None => return Err(format!("unclosed \" in '{line}'")),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(c) = chars.next() {
                    cur.push(c);
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    Ok(words)
}

/// The limit of one search, as a `level` line says it.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Level {
    Depth(u32),
    Nodes(u64),
    /// Seconds per move.
    MoveTime(f64),
    /// Seconds on the clock before this move's increment (Hub adds it before the move), and the
    /// increment.
    Clock {
        time: f64,
        inc: f64,
    },
}

impl Level {
    /// The `level` line.
    pub fn line(&self) -> String {
        let s = |x: f64| {
            let t = format!("{:.3}", x.max(0.0));
            t.trim_end_matches('0').trim_end_matches('.').to_string()
        };
        match *self {
            Level::Depth(d) => format!("level depth={d}"),
            Level::Nodes(n) => format!("level nodes={n}"),
            Level::MoveTime(t) => format!("level move-time={}", s(t)),
            Level::Clock { time, inc } => format!("level time={} inc={}", s(time), s(inc)),
        }
    }
}

/// What the engine answered to a search.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchReply {
    /// The move of `done move=`.
    pub mv: String,
    /// The expected reply, if given.
    pub ponder: Option<String>,
    /// The last `info` score (side to move).
    pub score: Option<Score>,
    /// The last `info` depth.
    pub depth: Option<u32>,
    /// The last `info` node count.
    pub nodes: Option<u64>,
    /// The last `info` principal variation (Hub moves).
    pub pv: Vec<String>,
}

/// A traffic log shared by the clients of a match: every line in and out, with the engine's label.
pub type Log = Arc<Mutex<Box<dyn Write + Send>>>;

/// A running engine.
pub struct HubClient {
    child: Child,
    to_engine: Option<Sender<String>>,
    from_engine: Receiver<Input>,
    name: Option<String>,
    version: Option<String>,
    variants: Option<Vec<String>>,
    label: String,
    log: Option<Log>,
    /// Set once the engine's output has closed.
    closed: bool,
}

impl HubClient {
    /// Starts an engine and takes it through `hub`, `set-param`s and `init`.
    pub fn start(
        cfg: &ClientConfig,
        variant: Variant,
        label: &str,
        log: Option<Log>,
    ) -> Result<HubClient, ClientError> {
        let (program, args) = cfg
            .command
            .split_first()
            .ok_or_else(|| ClientError::Spawn("empty command".into()))?;
        let mut cmd = Command::new(program);
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| ClientError::Spawn(format!("{}: {e}", cfg.command.join(" "))))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let from_engine = reader::spawn(BufReader::new(stdout));
        let (tx, rx) = unbounded::<String>();
        let _ = std::thread::Builder::new()
            .name("hub-client-writer".into())
            .spawn(move || write_all(stdin, rx));
        let mut client = HubClient {
            child,
            to_engine: Some(tx),
            from_engine,
            name: None,
            version: None,
            variants: None,
            label: label.to_string(),
            log,
            closed: false,
        };
        client.handshake(cfg, variant)?;
        Ok(client)
    }

    /// The name the engine gave in `id` (with its version), if any.
    pub fn id(&self) -> Option<String> {
        let name = self.name.as_ref()?;
        Some(match &self.version {
            Some(v) => format!("{name} {v}"),
            None => name.clone(),
        })
    }

    fn handshake(&mut self, cfg: &ClientConfig, variant: Variant) -> Result<(), ClientError> {
        self.send("hub")?;
        let deadline = Instant::now() + cfg.start_timeout;
        loop {
            let line = self.next_line(deadline, "wait after hub")?;
            let Ok(l) = Line::parse(&line) else { continue };
            match l.command.as_str() {
                "id" => {
                    self.name = l.value("name").map(str::to_string);
                    self.version = l.value("version").map(str::to_string);
                }
                "param" if l.value("name") == Some("variant") => {
                    self.variants = l
                        .value("values")
                        .map(|v| v.split_whitespace().map(str::to_string).collect());
                }
                "wait" => break,
                _ => {}
            }
        }
        match &self.variants {
            Some(values) => {
                let wanted = [variant.hub_name(), variant.name()];
                let Some(v) = wanted
                    .iter()
                    .find(|w| values.iter().any(|x| x.eq_ignore_ascii_case(w)))
                else {
                    return Err(ClientError::Unsupported(format!(
                        "the engine does not play {variant} (its variants: {})",
                        values.join(" ")
                    )));
                };
                let line = message(
                    "set-param",
                    &[("name", "variant".into()), ("value", v.to_string())],
                );
                self.send(&line)?;
            }
            None if variant != Variant::International => {
                return Err(ClientError::Unsupported(format!(
                    "the engine declares no variant parameter, so it plays international only, not {variant}"
                )));
            }
            None => {}
        }
        for (k, v) in &cfg.options {
            let line = message("set-param", &[("name", k.clone()), ("value", v.clone())]);
            self.send(&line)?;
        }
        self.send("init")?;
        let deadline = Instant::now() + cfg.start_timeout;
        loop {
            let line = self.next_line(deadline, "ready after init")?;
            if line.split_whitespace().next() == Some("ready") {
                return Ok(());
            }
        }
    }

    /// Whether the engine process is still running (its output not closed, not exited).
    pub fn is_alive(&mut self) -> bool {
        !self.closed && matches!(self.child.try_wait(), Ok(None))
    }

    /// `new-game`.
    pub fn new_game(&mut self) -> Result<(), ClientError> {
        self.send("new-game")
    }

    /// One search: `pos`, `level`, `go think`, then `info` lines until `done`, within `deadline`
    /// from now.
    pub fn search(
        &mut self,
        position: &str,
        moves: &[String],
        level: Level,
        deadline: Duration,
    ) -> Result<SearchReply, ClientError> {
        // Lines left over from before (late `info`, a stray `done`) belong to no search.
        while let Ok(input) = self.from_engine.try_recv() {
            if input == Input::Eof {
                self.closed = true;
                return Err(self.exited());
            }
        }
        let mut args = vec![("pos", position.to_string())];
        if !moves.is_empty() {
            args.push(("moves", moves.join(" ")));
        }
        self.send(&message("pos", &args))?;
        self.send(&level.line())?;
        self.send("go think")?;
        let until = Instant::now() + deadline;
        let mut reply = SearchReply::default();
        loop {
            let line = self.next_line(until, "done after go")?;
            let Ok(l) = Line::parse(&line) else { continue };
            match l.command.as_str() {
                "info" => {
                    if let Some(s) = l.value("score").and_then(parse_score) {
                        reply.score = Some(s);
                    }
                    if let Some(d) = l.value("depth").and_then(|d| d.parse().ok()) {
                        reply.depth = Some(d);
                    }
                    if let Some(n) = l.value("nodes").and_then(|n| n.parse().ok()) {
                        reply.nodes = Some(n);
                    }
                    if let Some(pv) = l.value("pv") {
                        reply.pv = pv.split_whitespace().map(str::to_string).collect();
                    }
                }
                "done" => {
                    // As pydraughts: the move is the first argument's value whatever its key.
                    let mv = l
                        .value("move")
                        .or_else(|| l.args.first().and_then(|(_, v)| v.as_deref()))
                        .unwrap_or("")
                        .trim()
                        .to_string();
                    if mv.is_empty() {
                        return Err(ClientError::Protocol(format!("'{line}' gives no move")));
                    }
                    reply.mv = mv;
                    reply.ponder = l.value("ponder").map(str::to_string);
                    return Ok(reply);
                }
                "error" => {
                    let m = l.value("message").unwrap_or(line.as_str()).to_string();
                    return Err(ClientError::Protocol(format!("the engine said: {m}")));
                }
                _ => {}
            }
        }
    }

    /// Sends `quit` and gives the engine a moment to exit before it is killed (on drop).
    pub fn quit(mut self) {
        if self.send("quit").is_ok() {
            let until = Instant::now() + Duration::from_millis(500);
            while Instant::now() < until {
                if let Ok(Some(_)) = self.child.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
        }
    }

    fn log(&self, dir: &str, line: &str) {
        if let Some(log) = &self.log
            && let Ok(mut w) = log.lock()
        {
            let _ = writeln!(w, "{} {dir} {line}", self.label);
        }
    }

    fn send(&mut self, line: &str) -> Result<(), ClientError> {
        self.log(">", line);
        let ok = self
            .to_engine
            .as_ref()
            .is_some_and(|tx| tx.send(line.to_string()).is_ok());
        if ok { Ok(()) } else { Err(self.exited()) }
    }

    fn next_line(&mut self, deadline: Instant, what: &str) -> Result<String, ClientError> {
        if self.closed {
            return Err(self.exited());
        }
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.from_engine.recv_timeout(left) {
                Ok(Input::Line(Ok(line))) => {
                    self.log("<", &line);
                    return Ok(line);
                }
                Ok(Input::Line(Err(e))) => self.log("<", &format!("(unreadable line: {e})")),
                Ok(Input::Eof) | Err(RecvTimeoutError::Disconnected) => {
                    self.closed = true;
                    self.log("<", "(end of output)");
                    return Err(self.exited());
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(ClientError::Timeout(what.to_string()));
                }
            }
        }
    }

    /// The error for a closed engine, with its exit status if it is known within a moment.
    fn exited(&mut self) -> ClientError {
        let until = Instant::now() + Duration::from_millis(200);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return ClientError::Exited(status.to_string()),
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(5)),
                _ => return ClientError::Exited("output closed".into()),
            }
        }
    }
}

impl Drop for HubClient {
    fn drop(&mut self) {
        self.to_engine = None;
        #[cfg(unix)]
        {
            // The engine leads its own process group (see `start`): kill all of it.
            let pid = self.child.id() as libc::pid_t;
            // SAFETY: kill(2) with a negative pid signals the process group; no memory is touched.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The writer thread: lines from the channel to the engine's stdin, until either ends.
fn write_all(mut stdin: std::process::ChildStdin, rx: Receiver<String>) {
    for line in rx {
        if writeln!(stdin, "{line}")
            .and_then(|_| stdin.flush())
            .is_err()
        {
            return;
        }
    }
}

/// An `info score=` value (men, side to move; `99.95` is a win in 5 plies) as a [`Score`].
pub fn parse_score(text: &str) -> Option<Score> {
    let x: f64 = text.trim().parse().ok()?;
    if !x.is_finite() || x.abs() > 100.0 {
        return None;
    }
    Some(Score((x * 100.0).round() as i32))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::ScoreKind;

    #[test]
    fn splits_command_lines() {
        assert_eq!(split_command("dame hub").unwrap(), ["dame", "hub"]);
        assert_eq!(
            split_command("  '/path with/space/scan' hub \"a b\" c\\ d ").unwrap(),
            ["/path with/space/scan", "hub", "a b", "c d"]
        );
        assert_eq!(split_command("''").unwrap(), [""]);
        assert!(split_command("x 'y").is_err());
        assert!(split_command("").unwrap().is_empty());
    }

    #[test]
    fn level_lines() {
        assert_eq!(Level::MoveTime(0.1).line(), "level move-time=0.1");
        assert_eq!(
            Level::Clock {
                time: 59.5,
                inc: 0.5
            }
            .line(),
            "level time=59.5 inc=0.5"
        );
        assert_eq!(Level::Nodes(1000).line(), "level nodes=1000");
        assert_eq!(Level::Depth(7).line(), "level depth=7");
        assert_eq!(
            Level::Clock {
                time: -1.0,
                inc: 0.0
            }
            .line(),
            "level time=0 inc=0"
        );
    }

    #[test]
    fn scores() {
        assert_eq!(parse_score("0.08"), Some(Score(8)));
        assert_eq!(parse_score("-1.25"), Some(Score(-125)));
        assert_eq!(parse_score("99.95").unwrap().kind(), ScoreKind::Win(5));
        assert_eq!(parse_score("-99.88").unwrap().kind(), ScoreKind::Loss(12));
        assert_eq!(parse_score("x"), None);
        assert_eq!(parse_score("NaN"), None);
        assert_eq!(parse_score("1e300"), None);
        assert_eq!(parse_score("100.5"), None);
    }
}
