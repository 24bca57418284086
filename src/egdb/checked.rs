//! The record of table files whose payload checksum has passed, kept beside the tables (a
//! `.checked` file in each game's or variant's directory), so that a process opening the same
//! unchanged files again does not read them whole: the english tables up to 7 pieces are 16
//! GB, read in seconds from the page cache and in minutes from a disk, at every start of a
//! command-line tool.
//!
//! A file is known by its [`Identity`]: device, inode, size, modification and status-change
//! times, and the payload checksum its header names. Writing a file in place changes its
//! status-change time (which no program can set back), and a copy or a rebuild is another inode,
//! so a file the record holds is the file that was checked. A file is recorded only when it was
//! settled: the same identity after its check as before, and its status unchanged for
//! [`SETTLE`] before the check began (a file written within the file system's time resolution of
//! its check would otherwise be mistaken for the checked one).
//!
//! Invariants: the record only spares a payload check; every other check of a table (header,
//! length, index ends, each block's offsets) is made at every open. A record that cannot be read
//! (absent, foreign, damaged, from another version) is empty, and one that cannot be written (a
//! read-only directory) is not written: both only cost the reading they would have spared. The
//! record is written beside its name and renamed, so readers see a whole one; two processes
//! saving at once lose at most each other's new lines (the files are checked again).
//! Unix only (the identity needs inode and status-change time): elsewhere nothing is recorded.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

/// The record's name in a table directory.
pub const RECORD_FILE: &str = ".checked";

/// The record's first line (its format; another first line is another format: ignored).
const MAGIC: &str = "tiao-egdb-checked 1";

/// Most bytes of a record that are read (a few hundred files make a few tens of KiB): a longer
/// file is not ours and is ignored.
const MAX_RECORD_BYTES: u64 = 4 << 20;

/// How long a file's status must have stood unchanged before its check for it to be recorded.
pub const SETTLE: Duration = Duration::from_secs(2);

/// What the record knows a table file by (see the module documentation).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    dev: u64,
    ino: u64,
    size: u64,
    /// Modification time, nanoseconds since the epoch (signed: before it is possible).
    mtime: i128,
    /// Status-change time, the same.
    ctime: i128,
    /// The payload checksum the file's header names.
    payload_sum: u64,
}

impl Identity {
    /// The identity of the open file `file`, whose header names `payload_sum`; `None` where the
    /// system does not give one.
    pub fn of(file: &fs::File, payload_sum: u64) -> Option<Identity> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let m = file.metadata().ok()?;
            let ns = |s: i64, n: i64| s as i128 * 1_000_000_000 + n as i128;
            Some(Identity {
                dev: m.dev(),
                ino: m.ino(),
                size: m.size(),
                mtime: ns(m.mtime(), m.mtime_nsec()),
                ctime: ns(m.ctime(), m.ctime_nsec()),
                payload_sum,
            })
        }
        #[cfg(not(unix))]
        {
            let _ = (file, payload_sum);
            None
        }
    }

    /// The payload checksum its file's header names.
    pub fn payload_sum(&self) -> u64 {
        self.payload_sum
    }

    /// Whether its status stood unchanged for [`SETTLE`] before `start`.
    pub fn settled_before(&self, start: SystemTime) -> bool {
        let Ok(since) = start.duration_since(SystemTime::UNIX_EPOCH) else {
            return false;
        };
        self.ctime + SETTLE.as_nanos() as i128 <= since.as_nanos() as i128
    }

    fn line(&self, name: &str) -> String {
        format!(
            "{name}\t{}\t{}\t{}\t{}\t{}\t{:016x}",
            self.dev, self.ino, self.size, self.mtime, self.ctime, self.payload_sum
        )
    }

    fn parse(line: &str) -> Option<(String, Identity)> {
        let f: Vec<&str> = line.split('\t').collect();
        let [name, dev, ino, size, mtime, ctime, sum] = f[..] else {
            return None;
        };
        if name.is_empty() || name.contains('/') {
            return None;
        }
        Some((
            name.to_string(),
            Identity {
                dev: dev.parse().ok()?,
                ino: ino.parse().ok()?,
                size: size.parse().ok()?,
                mtime: mtime.parse().ok()?,
                ctime: ctime.parse().ok()?,
                payload_sum: u64::from_str_radix(sum, 16).ok()?,
            },
        ))
    }
}

/// The record of one directory: the files of it whose payload passed its check, by name.
#[derive(Debug)]
pub struct CheckRecord {
    dir: PathBuf,
    /// The entries, and whether any was added since the record was loaded or saved.
    entries: Mutex<(HashMap<String, Identity>, bool)>,
}

impl CheckRecord {
    /// The record of `dir` as its file holds it (empty when there is none, or it cannot be read
    /// or is not a record).
    pub fn load(dir: &Path) -> CheckRecord {
        CheckRecord {
            dir: dir.to_path_buf(),
            entries: Mutex::new((read_entries(&dir.join(RECORD_FILE)), false)),
        }
    }

    /// Whether the file `path` (in this record's directory) is recorded with `identity`.
    pub fn holds(&self, path: &Path, identity: &Identity) -> bool {
        let Some(name) = self.name_of(path) else {
            return false;
        };
        self.lock().0.get(name) == Some(identity)
    }

    /// Records that the file `path`, with `identity`, passed its check.
    pub fn add(&self, path: &Path, identity: Identity) {
        if let Some(name) = self.name_of(path) {
            let mut e = self.lock();
            let new = e.0.insert(name.to_string(), identity) != Some(identity);
            e.1 |= new;
        }
    }

    /// Writes the record to its file when a file was added to it since it was loaded or saved:
    /// merged with what the file holds now (another process may have saved since this one
    /// loaded), each entry kept only while its file is there with its identity's size. Best
    /// effort: a directory that cannot be written keeps no record.
    pub fn save(&self) {
        let mut mine = self.lock();
        if !mine.1 {
            return;
        }
        mine.1 = false;
        let mut entries = read_entries(&self.dir.join(RECORD_FILE));
        entries.extend(mine.0.iter().map(|(k, v)| (k.clone(), *v)));
        drop(mine);
        entries.retain(|name, id| {
            fs::metadata(self.dir.join(name)).is_ok_and(|m| m.is_file() && m.len() == id.size)
        });
        let mut names: Vec<&String> = entries.keys().collect();
        names.sort();
        let mut text = format!("{MAGIC}\n");
        for name in names {
            text.push_str(&entries[name].line(name));
            text.push('\n');
        }
        let tmp = self.dir.join(format!(
            "{RECORD_FILE}.{}.{:?}.part",
            std::process::id(),
            std::thread::current().id()
        ));
        let written =
            fs::write(&tmp, text).and_then(|()| fs::rename(&tmp, self.dir.join(RECORD_FILE)));
        if written.is_err() {
            let _ = fs::remove_file(&tmp);
        }
    }

    /// Files recorded.
    pub fn len(&self) -> usize {
        self.lock().0.len()
    }

    /// Whether no file is recorded.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The name of `path` when it lies in this record's directory.
    fn name_of<'a>(&self, path: &'a Path) -> Option<&'a str> {
        (path.parent()? == self.dir).then_some(())?;
        path.file_name()?.to_str()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, (HashMap<String, Identity>, bool)> {
        // A panic while held leaves a map of whole entries: still usable.
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The entries of the record file `path`; empty when it is absent, too long, not text or not a
/// record. Lines that do not parse are skipped.
fn read_entries(path: &Path) -> HashMap<String, Identity> {
    let text = match fs::metadata(path) {
        Ok(m) if m.is_file() && m.len() <= MAX_RECORD_BYTES => fs::read(path).unwrap_or_default(),
        _ => return HashMap::new(),
    };
    let Ok(text) = String::from_utf8(text) else {
        return HashMap::new();
    };
    let mut lines = text.lines();
    if lines.next() != Some(MAGIC) {
        return HashMap::new();
    }
    lines.filter_map(Identity::parse).collect()
}
