//! A scripted Hub session with the `tiao` binary: lines go to its stdin, its stdout lines are
//! collected by a thread, and every wait has a deadline so that a broken engine fails the test
//! instead of hanging CI.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::thread;
use std::time::{Duration, Instant};

/// The default deadline for an answer.
pub const PATIENCE: Duration = Duration::from_secs(20);

pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line received so far.
    pub seen: Vec<String>,
}

impl Engine {
    /// Starts `tiao` with these arguments (`["hub"]`, or none for the bare binary).
    pub fn start(args: &[&str]) -> Engine {
        Engine::start_env(args, &[])
    }

    /// Starts `tiao` with these arguments and environment variables.
    pub fn start_env(args: &[&str], env: &[(&str, &str)]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tiao"))
            .args(args)
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start tiao");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(l) => {
                        if tx.send(l).is_err() {
                            return;
                        }
                    }
                    Err(_) => return,
                }
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines: rx,
            seen: Vec::new(),
        }
    }

    /// `tiao hub --no-book`: every `go` searches (the tests of the search and the protocol);
    /// [`Engine::hub_with_book`] plays from the opening book as a plain `tiao hub` does.
    pub fn hub() -> Engine {
        Engine::start(&["hub", "--no-book"])
    }

    /// `tiao hub`, its opening book on.
    pub fn hub_with_book() -> Engine {
        Engine::start(&["hub"])
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    /// Sends raw bytes.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("engine reads its input");
        stdin.flush().unwrap();
    }

    /// Closes the engine's input (EOF).
    pub fn close(&mut self) {
        self.stdin = None;
    }

    /// The next line, if one comes within `within`.
    pub fn next_line(&mut self, within: Duration) -> Option<String> {
        match self.lines.recv_timeout(within) {
            Ok(l) => {
                self.seen.push(l.clone());
                Some(l)
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Reads lines until one whose command is `command`; returns it and the lines before it.
    pub fn until(&mut self, command: &str, within: Duration) -> (String, Vec<String>) {
        let deadline = Instant::now() + within;
        let mut before = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .next_line(left)
                .unwrap_or_else(|| panic!("no '{command}' within {within:?}; got {before:?}"));
            if line.split_whitespace().next() == Some(command) {
                return (line, before);
            }
            before.push(line);
        }
    }

    /// The next line, which must have command `command`.
    pub fn expect(&mut self, command: &str) -> String {
        let line = self
            .next_line(PATIENCE)
            .unwrap_or_else(|| panic!("no answer, expected '{command}'"));
        assert_eq!(
            line.split_whitespace().next(),
            Some(command),
            "expected '{command}', got '{line}'"
        );
        line
    }

    /// Asserts that nothing is written for `during`.
    pub fn quiet(&mut self, during: Duration) {
        if let Some(l) = self.next_line(during) {
            panic!("unexpected line '{l}'");
        }
    }

    /// `ping` and its `pong`: everything written before has been read.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("ping");
        self.until("pong", PATIENCE).1
    }

    /// The current position (extension `get-pos`).
    pub fn fen(&mut self) -> String {
        self.send("get-pos");
        let line = self.expect("pos");
        value(&line, "fen").expect("fen=")
    }

    /// The legal moves in Hub form (extension `legal-moves`).
    pub fn legal_moves(&mut self) -> Vec<String> {
        self.send("legal-moves");
        let line = self.expect("legal-moves");
        value(&line, "moves")
            .unwrap()
            .split_whitespace()
            .map(str::to_string)
            .collect()
    }

    /// Runs `go <mode>` and returns the `done` line and the `info` lines before it.
    pub fn go(&mut self, mode: &str) -> (String, Vec<String>) {
        self.send(&format!("go {mode}"));
        self.until("done", PATIENCE)
    }

    /// Waits for the process to end.
    pub fn wait_exit(&mut self, within: Duration) -> ExitStatus {
        let deadline = Instant::now() + within;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("engine did not exit within {within:?}");
            }
            thread::sleep(Duration::from_millis(5));
        }
    }

    /// Sends `quit` and checks the engine exits with status 0.
    pub fn quit(mut self) {
        self.send("quit");
        assert!(self.wait_exit(Duration::from_secs(10)).success());
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The value of `key=` in a line (quotes removed), by a small tokenizer of our own.
pub fn value(line: &str, key: &str) -> Option<String> {
    tokens(line)
        .into_iter()
        .find(|(k, _)| k == key)
        .and_then(|(_, v)| v)
}

/// The `key[=value]` tokens after the command.
pub fn tokens(line: &str) -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    let mut chars = line.chars().peekable();
    // Skip the command.
    while chars.peek().is_some_and(|c| !c.is_whitespace()) {
        chars.next();
    }
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        if chars.peek().is_none() {
            return out;
        }
        let mut key = String::new();
        while let Some(&c) = chars.peek() {
            if c.is_whitespace() || c == '=' {
                break;
            }
            key.push(c);
            chars.next();
        }
        if chars.peek() == Some(&'=') {
            chars.next();
            let mut v = String::new();
            if chars.peek() == Some(&'"') {
                chars.next();
                for c in chars.by_ref() {
                    if c == '"' {
                        break;
                    }
                    v.push(c);
                }
            } else {
                while let Some(&c) = chars.peek() {
                    if c.is_whitespace() {
                        break;
                    }
                    v.push(c);
                    chars.next();
                }
            }
            out.push((key, Some(v)));
        } else {
            out.push((key, None));
        }
    }
}
