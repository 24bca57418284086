//! `tiao bench --stop-latency N` and `tiao bench --move-time-usage SECONDS`: the engine's timing
//! as a Hub client sees it. A `tiao hub` child process (this same binary, or any Hub engine given
//! with `--hub`, to compare builds or engines) is driven over its pipes, and every line it writes
//! is stamped when it arrives:
//! - stop latency: infinite analyses of the international bench positions, each stopped after
//!   20-120 ms; the time from writing `stop` to reading `done`;
//! - move-time usage: `level move-time=S` searches of the same positions; the time from writing
//!   `go think` to reading `done`, as a share of S and as the time over S.
//!
//! Figures, not verdicts: they depend on the machine and its load, so they are measured and
//! written in the docs (with the machine), never asserted by a test.

use super::bench_positions::POSITIONS;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};
use tiao::variant::Variant;

/// The longest wait for a line before the child is taken to hang.
const PATIENCE: Duration = Duration::from_secs(30);

/// A `tiao hub` child with stamped output lines.
struct Hub {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<(Instant, String)>,
}

/// What is measured: the Hub engine's command line (`None`: this binary's `tiao hub`), its
/// threads and table.
pub struct Target {
    pub command: Option<String>,
    pub threads: usize,
    pub hash: usize,
}

impl Hub {
    fn start(target: &Target) -> Result<Hub, String> {
        let mut command = match &target.command {
            Some(c) => {
                let words = tiao::protocol::hub::client::split_command(c)?;
                let (exe, args) = words.split_first().ok_or("an empty --hub command")?;
                let mut command = Command::new(exe);
                command.args(args);
                command
            }
            None => {
                let exe =
                    std::env::current_exe().map_err(|e| format!("cannot find tiao itself: {e}"))?;
                let mut command = Command::new(exe);
                command.arg("hub");
                command
            }
        };
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start the Hub engine: {e}"))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if tx.send((Instant::now(), line)).is_err() {
                    return;
                }
            }
        });
        let mut hub = Hub {
            child,
            stdin,
            lines,
        };
        hub.send(&format!("set-param name=threads value={}", target.threads))?;
        hub.send(&format!("set-param name=hash value={}", target.hash))?;
        hub.send("init")?;
        hub.until("ready")?;
        Ok(hub)
    }

    fn send(&mut self, line: &str) -> Result<Instant, String> {
        let at = Instant::now();
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| format!("tiao hub stopped reading: {e}"))?;
        Ok(at)
    }

    /// Reads until a line of command `command`; returns when it arrived.
    fn until(&mut self, command: &str) -> Result<Instant, String> {
        loop {
            let (at, line) = self
                .lines
                .recv_timeout(PATIENCE)
                .map_err(|_| format!("no '{command}' from tiao hub within {PATIENCE:?}"))?;
            if line.starts_with("error") {
                return Err(format!("tiao hub answered: {line}"));
            }
            if line.split_whitespace().next() == Some(command) {
                return Ok(at);
            }
        }
    }
}

impl Drop for Hub {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let _ = self.child.wait();
    }
}

/// The international bench positions, in turn.
fn positions() -> Vec<&'static str> {
    POSITIONS
        .iter()
        .filter(|p| p.variant == Variant::International)
        .map(|p| p.fen)
        .collect()
}

/// The `p`-quantile of sorted values (nearest rank).
fn quantile(sorted: &[f64], p: f64) -> f64 {
    let rank = ((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

/// Median, 90th and 99th percentiles and maximum, in milliseconds.
fn spread(mut ms: Vec<f64>) -> String {
    ms.sort_by(f64::total_cmp);
    format!(
        "median {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        quantile(&ms, 0.5),
        quantile(&ms, 0.9),
        quantile(&ms, 0.99),
        ms[ms.len() - 1]
    )
}

/// `--stop-latency N`.
pub fn stop_latency(searches: usize, target: &Target) -> Result<(), String> {
    let mut hub = Hub::start(target)?;
    let fens = positions();
    let mut ms = Vec::with_capacity(searches);
    for i in 0..searches {
        hub.send(&format!("pos fen=\"{}\"", fens[i % fens.len()]))?;
        hub.send("level infinite")?;
        hub.send("go analyze")?;
        hub.until("info")?;
        std::thread::sleep(Duration::from_millis(20 + (i as u64 * 37) % 100));
        let sent = hub.send("stop")?;
        let done = hub.until("done")?;
        ms.push(done.saturating_duration_since(sent).as_secs_f64() * 1e3);
    }
    println!(
        "stop -> done over {searches} infinite searches, {} thread(s), {} core(s): {}",
        target.threads,
        tiao::engine::cores(),
        spread(ms)
    );
    Ok(())
}

/// `--move-time-usage SECONDS`.
pub fn move_time_usage(seconds: f64, searches: usize, target: &Target) -> Result<(), String> {
    let mut hub = Hub::start(target)?;
    let fens = positions();
    let given = seconds * 1e3;
    let mut used = Vec::with_capacity(searches);
    for i in 0..searches {
        hub.send(&format!("pos fen=\"{}\"", fens[i % fens.len()]))?;
        hub.send(&format!("level move-time={seconds}"))?;
        let sent = hub.send("go think")?;
        let done = hub.until("done")?;
        used.push(done.saturating_duration_since(sent).as_secs_f64() * 1e3);
    }
    let mut share: Vec<f64> = used.iter().map(|u| u / given).collect();
    share.sort_by(f64::total_cmp);
    let under = share.iter().filter(|s| **s < 0.9).count();
    let over: Vec<f64> = used.iter().map(|u| u - given).collect();
    println!(
        "move-time {seconds} s over {searches} searches, {} thread(s), {} core(s): used \
         {:.1}% at least, {:.1}% median, {:.1}% at most; {under} under 90%; time over the \
         move time: {}",
        target.threads,
        tiao::engine::cores(),
        100.0 * share[0],
        100.0 * quantile(&share, 0.5),
        100.0 * share[share.len() - 1],
        spread(over)
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_by_nearest_rank() {
        let v: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(quantile(&v, 0.5), 50.0);
        assert_eq!(quantile(&v, 0.99), 99.0);
        assert_eq!(quantile(&[3.0], 0.9), 3.0);
    }
}
