//! `tiao gui` from the tests: the server started as a child process on a free port, and a
//! minimal HTTP/1.1 client over `TcpStream` (requests with any headers, answers read to the
//! end; event streams read event by event).

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A generous time-out for anything the tests wait for (never a duration they assert).
pub const PATIENCE: Duration = Duration::from_secs(120);
/// The pause between two answers of [`GuiServer::poll`].
const POLL_PAUSE: Duration = Duration::from_millis(50);
/// Answers [`GuiServer::poll`] reads before it gives up: [`PATIENCE`] worth of pauses.
const POLLS: u32 = (PATIENCE.as_millis() / POLL_PAUSE.as_millis()) as u32;

/// A running `tiao gui`, killed when dropped.
pub struct GuiServer {
    child: Child,
    /// `127.0.0.1:port`.
    pub host: String,
}

impl GuiServer {
    /// Starts `tiao gui --port 0 --no-open` with a small table and no endgame tables, and reads
    /// its address from the first line it prints.
    pub fn start() -> GuiServer {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tiao"))
            .args([
                "gui",
                "--port",
                "0",
                "--no-open",
                "--hash",
                "16",
                "--egdb",
                "none",
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("tiao gui starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        let host = url
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .to_string();
        GuiServer { child, host }
    }

    /// The page's address.
    pub fn url(&self) -> String {
        format!("http://{}/", self.host)
    }

    /// Whether the process is still running.
    pub fn alive(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }

    /// Sends a raw request (its text up to the body, without the blank line) with `body`;
    /// (status, body).
    pub fn raw(&self, head: &str, body: &[u8]) -> (u16, String) {
        let mut s = TcpStream::connect(&self.host).unwrap();
        s.set_read_timeout(Some(PATIENCE)).unwrap();
        let mut req = head.replace('\n', "\r\n");
        req.push_str("\r\n\r\n");
        s.write_all(req.as_bytes()).unwrap();
        // The server may answer (and close) before it reads a body it refuses.
        let _ = s.write_all(body);
        let mut answer = Vec::new();
        let _ = s.read_to_end(&mut answer);
        let text = String::from_utf8_lossy(&answer).into_owned();
        let status = text
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or_else(|| panic!("no status in {text:?}"));
        let body = text
            .split_once("\r\n\r\n")
            .map_or("", |(_, b)| b)
            .to_string();
        (status, body)
    }

    /// A GET of `path` from the page's own origin; (status, body).
    pub fn get(&self, path: &str) -> (u16, String) {
        self.raw(
            &format!(
                "GET {path} HTTP/1.1\nHost: {}\nConnection: close",
                self.host
            ),
            b"",
        )
    }

    /// A JSON POST of `body` to `path` from the page's own origin; (status, answer as JSON).
    pub fn post(&self, path: &str, body: &str) -> (u16, Value) {
        let (status, text) = self.raw(
            &format!(
                "POST {path} HTTP/1.1\nHost: {h}\nOrigin: http://{h}\nContent-Type: application/json\nContent-Length: {}\nConnection: close",
                body.len(),
                h = self.host
            ),
            body.as_bytes(),
        );
        let value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{path}: not JSON ({e}): {text:?}"));
        (status, value)
    }

    /// A new session: its view.
    pub fn session(&self) -> Value {
        let (status, v) = self.post("/api/session", "{}");
        assert_eq!(status, 200, "{v}");
        v
    }

    /// Opens the event stream of `session`.
    pub fn events(&self, session: &str) -> EventStream {
        let mut s = TcpStream::connect(&self.host).unwrap();
        s.set_read_timeout(Some(PATIENCE)).unwrap();
        write!(
            s,
            "GET /api/events?session={session} HTTP/1.1\r\nHost: {}\r\nAccept: text/event-stream\r\n\r\n",
            self.host
        )
        .unwrap();
        let mut reader = BufReader::new(s);
        let mut status = String::new();
        reader.read_line(&mut status).unwrap();
        assert!(status.contains(" 200 "), "{status}");
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            if line.trim().is_empty() {
                break;
            }
        }
        EventStream { reader }
    }

    /// Posts to `path` until `done` holds for the answer; panics when it never does (after
    /// [`POLLS`] answers, a hang guard, not a bound on speed).
    pub fn poll(&self, path: &str, body: &str, done: impl Fn(&Value) -> bool) -> Value {
        let mut last = Value::Null;
        for _ in 0..POLLS {
            let (status, v) = self.post(path, body);
            assert_eq!(status, 200, "{v}");
            if done(&v) {
                return v;
            }
            last = v;
            std::thread::sleep(POLL_PAUSE);
        }
        panic!("never: {last}");
    }
}

impl Drop for GuiServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A page's open event stream.
pub struct EventStream {
    reader: BufReader<TcpStream>,
}

impl EventStream {
    /// The next event: its name and data (comments skipped).
    pub fn next(&mut self) -> (String, Value) {
        let (mut name, mut data) = (String::new(), String::new());
        loop {
            let mut line = String::new();
            let n = self.reader.read_line(&mut line).unwrap();
            assert!(n > 0, "the stream ended");
            let line = line.trim_end();
            if line.is_empty() {
                if !name.is_empty() {
                    return (name, serde_json::from_str(&data).unwrap());
                }
            } else if let Some(n) = line.strip_prefix("event: ") {
                name = n.to_string();
            } else if let Some(d) = line.strip_prefix("data: ") {
                data = d.to_string();
            }
        }
    }

    /// Events until one named `name` for which `pred` holds: that one.
    pub fn until(&mut self, name: &str, pred: impl Fn(&Value) -> bool) -> Value {
        loop {
            let (n, v) = self.next();
            if n == name && pred(&v) {
                return v;
            }
        }
    }
}
