//! Helpers of the DXP integration tests: the `tiao` binary as a child process whose log is read
//! line by line, and a scripted peer on a raw socket (its messages built by the library's own
//! encoder, its moves kept by the library's DXP game). Everything runs on loopback with ephemeral
//! ports, and every wait has a timeout (a child still running at the end is killed).

#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};
use tiao::game::Game as _;
use tiao::game::color::Color;
use tiao::protocol::dxp::framing::Deframer;
use tiao::protocol::dxp::game::{Game, Setup};
use tiao::protocol::dxp::message::{
    Board, DxpMove, DxpPosition, GameReq, Message, StartPosition, VERSION,
};

/// The longest any single wait may take.
pub const TIMEOUT: Duration = Duration::from_secs(60);

/// Lines written by a child, shared with the thread reading them.
#[derive(Default)]
struct Lines {
    lines: Mutex<Vec<String>>,
    changed: Condvar,
    done: Mutex<bool>,
}

fn read_lines(from: impl Read + Send + 'static, into: Arc<Lines>) {
    std::thread::spawn(move || {
        use std::io::BufRead;
        let r = std::io::BufReader::new(from);
        for line in r.lines() {
            let Ok(line) = line else { break };
            into.lines.lock().unwrap().push(line);
            into.changed.notify_all();
        }
        *into.done.lock().unwrap() = true;
        into.changed.notify_all();
    });
}

/// A running `tiao dxp`.
pub struct Tiao {
    child: Child,
    log: Arc<Lines>,
    out: Arc<Lines>,
}

impl Tiao {
    /// Starts `tiao dxp ARGS`.
    pub fn start(args: &[&str]) -> Tiao {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tiao"))
            .arg("dxp")
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start tiao");
        let log = Arc::new(Lines::default());
        let out = Arc::new(Lines::default());
        read_lines(child.stderr.take().unwrap(), log.clone());
        read_lines(child.stdout.take().unwrap(), out.clone());
        Tiao { child, log, out }
    }

    /// Starts a follower on an ephemeral port; returns it and its port.
    pub fn follower(args: &[&str]) -> (Tiao, u16) {
        let mut all = vec!["--listen", "127.0.0.1:0"];
        all.extend_from_slice(args);
        let t = Tiao::start(&all);
        let line = t.wait_log("listening on 127.0.0.1:");
        let port = line
            .rsplit_once("127.0.0.1:")
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .and_then(|p| p.parse().ok())
            .expect("port in the listening line");
        (t, port)
    }

    /// Waits for a log line containing `pattern` (searching from the first line); panics with
    /// the log after [`TIMEOUT`].
    pub fn wait_log(&self, pattern: &str) -> String {
        self.wait_in(&self.log, pattern, 1)
    }

    /// Waits until `n` log lines contain `pattern`.
    pub fn wait_log_n(&self, pattern: &str, n: usize) -> String {
        self.wait_in(&self.log, pattern, n)
    }

    /// Waits for a stdout line containing `pattern`.
    pub fn wait_out(&self, pattern: &str) -> String {
        self.wait_in(&self.out, pattern, 1)
    }

    fn wait_in(&self, lines: &Lines, pattern: &str, n: usize) -> String {
        let deadline = Instant::now() + TIMEOUT;
        let mut guard = lines.lines.lock().unwrap();
        loop {
            let hits: Vec<&String> = guard.iter().filter(|l| l.contains(pattern)).collect();
            if hits.len() >= n {
                return hits[n - 1].clone();
            }
            let now = Instant::now();
            if now >= deadline || (*lines.done.lock().unwrap() && hits.len() < n) {
                let all = guard.join("\n");
                drop(guard);
                panic!("no {n} line(s) with {pattern:?} in:\n{all}");
            }
            guard = lines.changed.wait_timeout(guard, deadline - now).unwrap().0;
        }
    }

    /// The log so far.
    pub fn log_text(&self) -> String {
        self.log.lines.lock().unwrap().join("\n")
    }

    /// Stdout so far.
    pub fn out_text(&self) -> String {
        self.out.lines.lock().unwrap().join("\n")
    }

    /// Waits for the process to exit (killing it after [`TIMEOUT`]) and for its output to be
    /// read.
    pub fn wait_exit(&mut self) -> ExitStatus {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(s) = self.child.try_wait().expect("wait tiao") {
                for lines in [&self.log, &self.out] {
                    let mut done = lines.done.lock().unwrap();
                    while !*done {
                        done = lines
                            .changed
                            .wait_timeout(done, Duration::from_secs(5))
                            .unwrap()
                            .0;
                    }
                }
                return s;
            }
            if Instant::now() >= deadline {
                let _ = self.child.kill();
                panic!(
                    "tiao did not exit; log:\n{}\nstdout:\n{}",
                    self.log_text(),
                    self.out_text()
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Whether the process is still running.
    pub fn running(&mut self) -> bool {
        self.child.try_wait().expect("wait tiao").is_none()
    }
}

impl Drop for Tiao {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A scripted DXP peer on a raw socket.
pub struct Peer {
    pub stream: TcpStream,
    deframer: Deframer,
    ready: std::collections::VecDeque<String>,
}

impl Peer {
    /// Connects to a follower.
    pub fn connect(port: u16) -> Peer {
        let stream = TcpStream::connect(("127.0.0.1", port)).expect("connect to tiao");
        Peer::on(stream)
    }

    /// A peer on an accepted or connected stream.
    pub fn on(stream: TcpStream) -> Peer {
        stream.set_read_timeout(Some(TIMEOUT)).unwrap();
        stream.set_nodelay(true).unwrap();
        Peer {
            stream,
            deframer: Deframer::new(),
            ready: Default::default(),
        }
    }

    /// Sends one message (its text and a NUL).
    pub fn send(&mut self, text: &str) {
        let mut b = text.as_bytes().to_vec();
        b.push(0);
        self.send_raw(&b);
    }

    /// Sends raw bytes.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        self.stream.write_all(bytes).expect("write to tiao");
        self.stream.flush().unwrap();
    }

    /// The next message text, or `None` when tiao closed the connection.
    pub fn next(&mut self) -> Option<String> {
        let mut buf = [0u8; 512];
        loop {
            if let Some(m) = self.ready.pop_front() {
                return Some(m);
            }
            let n = match self.stream.read(&mut buf) {
                Ok(0) => return None,
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => return None,
                Err(e) => panic!("reading from tiao: {e}"),
            };
            let mut out = Vec::new();
            self.deframer.push(&buf[..n], &mut out);
            for f in out {
                self.ready
                    .push_back(f.expect("tiao sends well-formed frames"));
            }
        }
    }

    /// The next message, which must exist and parse.
    pub fn recv(&mut self) -> Message {
        let text = self.next().expect("tiao closed the connection");
        Message::parse(&text).unwrap_or_else(|e| panic!("tiao sent {text:?}: {e}"))
    }

    /// The next message's text, which must start with `prefix`.
    pub fn expect(&mut self, prefix: &str) -> String {
        let text = self.next().expect("tiao closed the connection");
        assert!(
            text.starts_with(prefix),
            "expected {prefix:?}, got {text:?}"
        );
        text
    }

    /// Reads until tiao closes the connection; returns what it sent before.
    pub fn until_closed(&mut self) -> Vec<String> {
        let mut v = Vec::new();
        while let Some(m) = self.next() {
            v.push(m);
        }
        v
    }

    /// Asks tiao (the follower) for a game with the initial position (`follower`: tiao's
    /// colour) and checks that it accepts.
    pub fn new_game(&mut self, follower: Color, minutes: u16, moves: u16) {
        self.send(&gamereq(follower, minutes, moves));
        let acc = self.expect("A");
        assert!(acc.ends_with('0'), "{acc}");
    }

    /// Reads until tiao closes the connection, which it must do after a message (its CHAT)
    /// containing `words`.
    pub fn closed_with(&mut self, words: &str) {
        let rest = self.until_closed();
        assert!(
            rest.iter().any(|m| m.starts_with('C') && m.contains(words)),
            "{rest:?}"
        );
    }
}

/// The name the scripted initiator gives in its GAMEREQs.
pub const PEER: &str = "test peer";

/// A GAMEREQ from [`PEER`] (`follower` is tiao's colour), from `start` (position B) or the
/// initial position (A).
fn gamereq_from(follower: Color, minutes: u16, moves: u16, start: Option<&Board>) -> String {
    Message::GameReq(GameReq {
        version: VERSION,
        initiator: PEER.into(),
        follower_color: follower,
        minutes,
        moves,
        start: start.map_or(StartPosition::Initial, |b| {
            StartPosition::Setup(DxpPosition::from_board(b))
        }),
    })
    .to_wire()
}

/// A GAMEREQ with the initial position: `follower` is tiao's colour.
pub fn gamereq(follower: Color, minutes: u16, moves: u16) -> String {
    gamereq_from(follower, minutes, moves, None)
}

/// A one-minute GAMEREQ with position B from a FEN; `follower` is tiao's colour. Returns the
/// position too.
pub fn gamereq_fen(follower: Color, moves: u16, fen: &str) -> (String, Board) {
    let b = Board::from_fen(fen).unwrap();
    (gamereq_from(follower, 1, moves, Some(&b)), b)
}

/// A game kept by the scripted peer, to answer with legal moves.
pub struct Board10 {
    pub game: Game,
}

impl Board10 {
    pub fn new(start: Board, peer: Color) -> Board10 {
        let setup = Setup {
            number: 1,
            start,
            from_position: false,
            ours: peer,
            minutes: 0,
            move_limit: 0,
        };
        Board10 {
            game: Game::new(setup, PEER, "tiao"),
        }
    }

    /// Applies tiao's MOVE text (must be legal).
    pub fn apply(&mut self, text: &str) {
        let Ok(Message::Move(m)) = Message::parse(text) else {
            panic!("not a MOVE: {text:?}")
        };
        let mv = self
            .game
            .match_move(&m)
            .unwrap_or_else(|e| panic!("tiao's move {text:?}: {e}"));
        self.game.play(mv);
    }

    /// The peer's reply: its first legal move, played, as a MOVE text.
    pub fn reply(&mut self) -> String {
        let m = self.game.track().legal()[0];
        self.game.play(m);
        Message::Move(DxpMove::from_move(&m, 1)).to_wire()
    }

    /// Receives tiao's MOVE from `p` and applies it; returns its text.
    pub fn take(&mut self, p: &mut Peer) -> String {
        let text = p.expect("M");
        self.apply(&text);
        text
    }

    /// Plays the peer's reply and sends it to tiao through `p`.
    pub fn answer(&mut self, p: &mut Peer) {
        let text = self.reply();
        p.send(&text);
    }
}

/// A listening socket for a scripted follower, and its port.
pub fn fake_follower() -> (TcpListener, u16) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    (l, port)
}

/// Accepts tiao's connection within [`TIMEOUT`].
pub fn accept(l: &TcpListener) -> Peer {
    l.set_nonblocking(true).unwrap();
    let deadline = Instant::now() + TIMEOUT;
    loop {
        match l.accept() {
            Ok((s, _)) => {
                s.set_nonblocking(false).unwrap();
                return Peer::on(s);
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                assert!(Instant::now() < deadline, "tiao did not connect");
                std::thread::sleep(Duration::from_millis(10));
            }
            Err(e) => panic!("accept: {e}"),
        }
    }
}
