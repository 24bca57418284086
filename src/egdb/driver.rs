//! The build and verify drivers, for every game: a game lists its work as [`Unit`]s in
//! dependency order (each unit writes one or more table files), and the drivers run them with a
//! progress bar, skip what is already built, and report what each unit cost.
//!
//! - [`build`]: a unit whose every output file opens (checksums) with the header it must have is
//!   skipped, so an interrupted build resumes where it stopped (a table is written beside its
//!   name and renamed, so a file under a table's name is whole; a file its directory's
//!   [`CheckRecord`] holds unchanged is not read again for its checksum). The bar names the
//!   unit being built and estimates the time left from the positions solved so far.
//! - [`verify`]: each unit's files checked by the game against the values of their successors
//!   ([`verify_from`]: only the units of at least so many pieces).
//!
//! - One build a directory: [`build`] holds an exclusive lock on a [`LOCK_FILE`] in every
//!   directory it writes (released when it returns, or when the process ends however it
//!   ends); a second build there is refused with [`EgdbError::Busy`] instead of writing the
//!   same `.tmp` files as the first.
//!
//! The drivers print nothing themselves but the progress bar (on stderr, and only when asked):
//! the callers format the reports.
//!
//! Invariant: units are run in the order given; a unit is built only after every unit before it
//! was built or found built.

use super::checked::CheckRecord;
use super::{EgdbError, Header, Table};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// A file a unit writes, and the header it must carry.
#[derive(Clone, Debug)]
pub struct Output {
    /// Where.
    pub path: PathBuf,
    /// What.
    pub header: Header,
}

/// One step of a build: the slices solved together, and their files.
#[derive(Clone, Debug)]
pub struct Unit {
    /// Its name on the progress bar and in reports (`KKMvK + KvKKM`, a Morris sector).
    pub name: String,
    /// Pieces (or stones) of its positions, for grouping reports.
    pub pieces: u32,
    /// Positions it solves (the progress bar's measure).
    pub positions: u64,
    /// The files it writes.
    pub outputs: Vec<Output>,
}

/// What a game implements for the drivers.
pub trait Builder: Sync {
    /// The units, in dependency order.
    fn units(&self) -> Vec<Unit>;
    /// Builds one unit and writes its files, calling `progress` with positions solved as it goes
    /// (their sum should reach `unit.positions`). Every unit before it is built.
    fn build(&self, unit: &Unit, progress: &(dyn Fn(u64) + Sync)) -> Result<(), EgdbError>;
    /// Checks one built unit against the rules: every stored value agrees with the values of
    /// its successors. Returns the positions checked and the disagreements (at most a few
    /// described, all counted).
    fn verify(&self, unit: &Unit, progress: &(dyn Fn(u64) + Sync)) -> Result<Verified, EgdbError>;
}

/// What a verification found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Verified {
    /// Positions checked.
    pub checked: u64,
    /// Positions whose value disagrees with their successors'.
    pub errors: u64,
    /// A few of them, described.
    pub examples: Vec<String>,
}

/// What happened to one unit.
#[derive(Clone, Debug)]
pub struct UnitReport {
    /// The unit's name.
    pub name: String,
    /// Its pieces.
    pub pieces: u32,
    /// Its positions.
    pub positions: u64,
    /// Bytes of its files.
    pub bytes: u64,
    /// Time spent (zero when skipped).
    pub time: Duration,
    /// CPU time the process spent on it, every thread (Linux; zero elsewhere and when
    /// skipped): unlike `time`, the same on a loaded machine.
    pub cpu: Duration,
    /// It was already built.
    pub skipped: bool,
    /// The process's peak resident memory so far, in bytes (Linux; 0 elsewhere).
    pub peak_memory: u64,
}

/// The CPU time the process has used so far, every thread, user and system (Linux's
/// `/proc/self/stat`, in its fixed 100 ticks a second); zero when unknown.
pub fn process_cpu() -> Duration {
    std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|s| {
            // The fields after the command name (which may hold spaces, in parentheses):
            // utime and stime are the 12th and 13th.
            let rest = s.get(s.rfind(')')? + 1..)?;
            let f: Vec<&str> = rest.split_whitespace().collect();
            let ticks = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
            Some(Duration::from_millis(ticks * 10))
        })
        .unwrap_or(Duration::ZERO)
}

/// The process's peak resident memory in bytes (`VmHWM`), 0 when unknown.
pub fn peak_memory() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        })
        .map_or(0, |kb| kb * 1024)
}

/// Whether every output of `unit` is there, whole and as it must be; the bytes of its files.
pub fn built(unit: &Unit) -> Option<u64> {
    built_recorded(unit, &mut HashMap::new())
}

/// [`built`], sparing the payload check of a file its directory's [`CheckRecord`] holds
/// unchanged, and adding those that pass (`records`: the records loaded so far, by directory;
/// the caller saves them).
fn built_recorded(unit: &Unit, records: &mut HashMap<PathBuf, Arc<CheckRecord>>) -> Option<u64> {
    let mut bytes = 0;
    for o in &unit.outputs {
        let dir = o.path.parent()?;
        let record = records
            .entry(dir.to_path_buf())
            .or_insert_with(|| Arc::new(CheckRecord::load(dir)));
        let t = Table::open_recorded(&o.path, u64::MAX, Some(record)).ok()?;
        t.expect(&o.header).ok()?;
        bytes += t.file_len();
    }
    Some(bytes)
}

fn bar(total: u64, show: bool, what: &str) -> ProgressBar {
    let pb = ProgressBar::with_draw_target(
        Some(total),
        if show {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        },
    );
    pb.set_style(
        ProgressStyle::with_template(&format!(
            "{what} {{msg:<24}} [{{bar:30}}] {{percent:>3}}% {{human_pos}}/{{human_len}} positions, {{elapsed_precise}} elapsed, ETA {{eta_precise}}"
        ))
        .expect("a valid template")
        .progress_chars("=> "),
    );
    pb
}

/// The lock file a build holds in each directory it writes.
pub const LOCK_FILE: &str = ".build.lock";

/// Locks every directory the units write in (created first when missing): an exclusive
/// advisory lock on its [`LOCK_FILE`], held as long as the returned files are open.
fn lock(units: &[Unit]) -> Result<Vec<fs::File>, EgdbError> {
    let mut dirs: Vec<&Path> = units
        .iter()
        .flat_map(|u| &u.outputs)
        .filter_map(|o| o.path.parent())
        .collect();
    dirs.sort();
    dirs.dedup();
    dirs.into_iter()
        .map(|dir| {
            let path = dir.join(LOCK_FILE);
            let io = |e: std::io::Error| EgdbError::Io {
                path: path.clone(),
                error: e.to_string(),
            };
            fs::create_dir_all(dir).map_err(io)?;
            let file = fs::OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .open(&path)
                .map_err(io)?;
            match file.try_lock() {
                Ok(()) => Ok(file),
                Err(fs::TryLockError::WouldBlock) => Err(EgdbError::Busy { path }),
                Err(fs::TryLockError::Error(e)) => Err(io(e)),
            }
        })
        .collect()
}

/// Builds every unit not built yet, in order. `on_unit` hears of each unit as it is built or
/// skipped. Stops at the first error (the units before it are whole on disk).
pub fn build(
    builder: &dyn Builder,
    show_progress: bool,
    on_unit: &mut dyn FnMut(&UnitReport),
) -> Result<Vec<UnitReport>, EgdbError> {
    let units = builder.units();
    let _locks = lock(&units)?;
    // What is built already: the files whole (those unchanged since an engine or an earlier
    // build checked them are not read again, see `checked`).
    let mut records = HashMap::new();
    let done: Vec<Option<u64>> = units
        .iter()
        .map(|u| built_recorded(u, &mut records))
        .collect();
    for r in records.values() {
        r.save();
    }
    let total: u64 = units
        .iter()
        .zip(&done)
        .filter(|(_, d)| d.is_none())
        .map(|(u, _)| u.positions)
        .sum();
    let pb = bar(total, show_progress, "building");
    let mut reports = Vec::new();
    for (unit, done) in units.iter().zip(done) {
        let report = if let Some(bytes) = done {
            UnitReport {
                name: unit.name.clone(),
                pieces: unit.pieces,
                positions: unit.positions,
                bytes,
                time: Duration::ZERO,
                cpu: Duration::ZERO,
                skipped: true,
                peak_memory: peak_memory(),
            }
        } else {
            pb.set_message(unit.name.clone());
            let start = Instant::now();
            let cpu_start = process_cpu();
            let solved = AtomicU64::new(0);
            let progress = |n: u64| {
                // Never past the unit's own count: the bar's total is the sum of them.
                let before = solved.fetch_add(n, Ordering::Relaxed);
                let room = unit.positions.saturating_sub(before);
                pb.inc(n.min(room));
            };
            builder.build(unit, &progress)?;
            let before = solved.load(Ordering::Relaxed);
            pb.inc(unit.positions.saturating_sub(before));
            let bytes = built(unit).ok_or_else(|| EgdbError::Corrupt {
                path: unit
                    .outputs
                    .first()
                    .map(|o| o.path.clone())
                    .unwrap_or_default(),
                reason: format!("unit {} does not read back after its build", unit.name),
            })?;
            UnitReport {
                name: unit.name.clone(),
                pieces: unit.pieces,
                positions: unit.positions,
                bytes,
                time: start.elapsed(),
                cpu: process_cpu().saturating_sub(cpu_start),
                skipped: false,
                peak_memory: peak_memory(),
            }
        };
        pb.suspend(|| on_unit(&report));
        reports.push(report);
    }
    pb.finish_and_clear();
    Ok(reports)
}

/// Verifies every unit, in order; a unit whose files are missing is an error naming the file.
/// `on_unit` hears of each unit's result.
pub fn verify(
    builder: &dyn Builder,
    show_progress: bool,
    on_unit: &mut dyn FnMut(&Unit, &Verified),
) -> Result<Verified, EgdbError> {
    verify_from(builder, 0, show_progress, on_unit)
}

/// [`verify`] for the units of at least `min_pieces` pieces only: the levels a resumed build
/// added on top of tables verified before. The smaller units' files are still read (their
/// values are the successors' values), but not checked themselves.
pub fn verify_from(
    builder: &dyn Builder,
    min_pieces: u32,
    show_progress: bool,
    on_unit: &mut dyn FnMut(&Unit, &Verified),
) -> Result<Verified, EgdbError> {
    let mut units = builder.units();
    units.retain(|u| u.pieces >= min_pieces);
    for u in &units {
        for o in &u.outputs {
            Table::open(&o.path)?.expect(&o.header)?;
        }
    }
    let total = units.iter().map(|u| u.positions).sum();
    let pb = bar(total, show_progress, "verifying");
    let mut all = Verified::default();
    for unit in &units {
        pb.set_message(unit.name.clone());
        let progress = |n: u64| pb.inc(n);
        let v = builder.verify(unit, &progress)?;
        pb.suspend(|| on_unit(unit, &v));
        all.checked += v.checked;
        all.errors += v.errors;
        all.examples.extend(
            v.examples
                .iter()
                .take(10 - all.examples.len().min(10))
                .cloned(),
        );
    }
    pb.finish_and_clear();
    Ok(all)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The process's CPU time is read (Linux) and grows with work: a build's reports can give
    /// the CPU a unit cost, which load does not change as it changes wall time.
    #[test]
    #[cfg(target_os = "linux")]
    fn process_cpu_time_grows_with_work() {
        let before = process_cpu();
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        // Work until the kernel's 10 ms ticks have counted some: bounded by work, not time.
        for _ in 0..400 {
            for i in 0..1_000_000u64 {
                x = (x ^ i).wrapping_mul(0x2545_F491_4F6C_DD1D).rotate_left(7);
            }
            if process_cpu() > before {
                break;
            }
        }
        std::hint::black_box(x);
        assert!(process_cpu() > before);
    }
}
