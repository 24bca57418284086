//! The event log of a DXP run: one line per event, prefixed with the seconds since the start,
//! written to stderr or appended to a file (`--log`), flushed line by line so that a crash or a
//! kill loses nothing.
//!
//! Line forms (stable, for `grep`): `listening on ADDR`, `connection N from ADDR`,
//! `recv NAME "raw"` (`recv unreadable "raw"` for a message that does not read),
//! `send NAME "raw"`, `game N start: ...`, `game N over: RESULT ...`, `chat from PEER: ...`,
//! `warning: ...`, `error: ...`, `connection N closed: ...`.

use std::fs::OpenOptions;
use std::io::{self, Write};
use std::path::Path;
use std::sync::Mutex;
use std::time::Instant;

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

    /// Writes one line (a failing log is not an error of the game).
    pub fn line(&self, text: &str) {
        let t = self.start.elapsed().as_secs_f64();
        if let Ok(mut out) = self.out.lock() {
            let _ = writeln!(out, "[{t:9.3}] {text}");
            let _ = out.flush();
        }
    }
}
