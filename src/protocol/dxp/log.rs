//! The event log of a DXP run: one line per event, prefixed with the seconds since the start,
//! written to stderr or appended to a file (`--log`), flushed line by line so that a crash or a
//! kill loses nothing.
//!
//! Line forms (stable, for `grep`): `listening on ADDR`, `connection N from ADDR`,
//! `recv NAME "raw"` (`recv unreadable "raw"` for a message that does not read),
//! `send NAME "raw"`, `game N start: ...`, `game N over: RESULT ...`, `chat from PEER: ...`,
//! `warning: ...`, `error: ...`, `connection N closed: ...`,
//! `connection N from ADDR refused: ...`.
//!
//! What a peer can make us write as often as it likes without moving a game on (empty messages,
//! CHAT, BACKREQ and our replies, refused GAMEREQs and our refusals, a GAMEEND between games,
//! other stray messages, refused connections) goes through a [`RateLimit`]: at most
//! [`MAX_LINES_PER_SECOND`] such lines a second per connection, the rest counted and said in one
//! `warning: N log lines ... dropped` line. Lines about the games (an accepted GAMEREQ, GAMEACC,
//! legal MOVEs, GAMEENDs inside a game, starts, moves, ends, errors, the connection's end) are
//! always written: each needs a game to move on, or ends the connection.

use std::fs::OpenOptions;
use std::io::{self, Write};
use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Most lines a second a [`RateLimit`] lets through.
pub const MAX_LINES_PER_SECOND: u32 = 50;

/// Lets at most [`MAX_LINES_PER_SECOND`] lines a second through, and counts the others.
#[derive(Debug, Default)]
pub struct RateLimit {
    /// When the current second started.
    window: Option<Instant>,
    /// Lines let through in it.
    count: u32,
    /// Lines dropped and not yet said.
    dropped: u64,
}

impl RateLimit {
    /// What to write for `text` now: nothing when it is dropped; else the text, after a line
    /// saying how many were dropped before it, if any.
    pub fn admit(&mut self, text: &str) -> Option<String> {
        let now = Instant::now();
        if self
            .window
            .is_none_or(|w| now.duration_since(w) >= Duration::from_secs(1))
        {
            self.window = Some(now);
            self.count = 0;
        }
        if self.count >= MAX_LINES_PER_SECOND {
            self.dropped += 1;
            return None;
        }
        self.count += 1;
        Some(match self.flush() {
            Some(note) => format!("{note}\n{text}"),
            None => text.to_string(),
        })
    }

    /// The line saying how many lines were dropped since the last one said, if any.
    pub fn flush(&mut self) -> Option<String> {
        let n = std::mem::take(&mut self.dropped);
        (n > 0).then(|| {
            format!(
                "warning: {n} log line{} from this peer dropped (more than {MAX_LINES_PER_SECOND} a second)",
                if n == 1 { "" } else { "s" }
            )
        })
    }
}

/// Where log lines go.
pub struct Log {
    start: Instant,
    out: Mutex<Box<dyn Write + Send>>,
}

impl Log {
    /// Lines to stderr.
    pub fn stderr() -> Log {
        Log::to(Box::new(io::stderr()))
    }

    /// Lines appended to a file.
    pub fn file(path: &Path) -> io::Result<Log> {
        let f = OpenOptions::new().create(true).append(true).open(path)?;
        Ok(Log::to(Box::new(f)))
    }

    /// Lines to any writer.
    pub fn to(out: Box<dyn Write + Send>) -> Log {
        Log {
            start: Instant::now(),
            out: Mutex::new(out),
        }
    }

    /// Writes one line, or one per line of `text` (a failing log is not an error of the game).
    pub fn line(&self, text: &str) {
        let t = self.start.elapsed().as_secs_f64();
        if let Ok(mut out) = self.out.lock() {
            for l in text.lines() {
                let _ = writeln!(out, "[{t:9.3}] {l}");
            }
            let _ = out.flush();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flood_is_cut_to_the_limit_and_counted() {
        let mut limit = RateLimit::default();
        let written = (0..1000)
            .filter(|i| limit.admit(&format!("line {i}")).is_some())
            .count();
        assert_eq!(written as u32, MAX_LINES_PER_SECOND);
        let note = limit.flush().unwrap();
        assert!(note.starts_with("warning: 950 log lines"), "{note}");
        assert_eq!(limit.flush(), None);
    }
}
