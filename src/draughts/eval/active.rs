//! Which pattern weights the evaluation reads: each family's embedded file
//! ([`patterns::embedded`]), or a weight file named at run time (`--weights FILE`, the engine
//! option `weights`), so that a user's own fit (`tiao tune`) plays without a rebuild.
//!
//! **Process-wide, one choice.** The evaluation is a plain function of the position (no engine
//! is passed to it), so the choice is the process's: every engine of a process evaluates with
//! the same weights. A choice ([`choose`]) is a set of files, at most one a family: each file's
//! family (named in its header) reads it, every other family its embedded weights; the empty
//! set is the embedded weights everywhere. So one process (a Hub engine that plays russian and
//! international) can hold a fit of each family. `tiao match` refuses built-in engines that
//! name different weights (external engines are processes of their own).
//!
//! Invariants:
//! - a file is read and checked whole (header, family, shapes, checksum) before anything
//!   changes: a refused file leaves the weights as they were;
//! - each distinct file (by checksum) is decoded once, into a slot that lives as long as the
//!   process, so a table a search may still read is never freed under it; at most
//!   [`MAX_FILES`] distinct files a family a process;
//! - the evaluation finds its table with one atomic load of the family's choice (an index into
//!   those slots) and no lock; a slot is filled before its index is published (release/acquire).

use crate::draughts::board::{Board8, Board10, Geometry};
use crate::draughts::eval::patterns::{self, EnginePatterns, HEADER_BYTES, PatternWeights};
use crate::draughts::eval::weights::Family;
use crate::draughts::rules::Rules;
use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};

/// The most distinct weight files one process loads for a family (the slots are never freed).
pub const MAX_FILES: usize = 8;

/// The largest weight file read, in bytes: every shape's weights stored plain fit well below
/// (a 10x10 file of three 4x6 layers is under 70 MB); a larger file is refused unread.
pub const MAX_FILE_BYTES: u64 = 256 << 20;

/// A weight file decoded for the engine.
struct Loaded {
    patterns: EnginePatterns,
    /// The file's checksum (header bytes 28..36), its identity.
    checksum: u64,
    /// Where it was read from.
    path: PathBuf,
}

/// One family's slots and choice.
struct Slots {
    files: [OnceLock<Loaded>; MAX_FILES],
    /// 0: the embedded weights; `i` > 0: `files[i - 1]`.
    current: AtomicUsize,
}

impl Slots {
    const fn new() -> Slots {
        Slots {
            files: [const { OnceLock::new() }; MAX_FILES],
            current: AtomicUsize::new(0),
        }
    }

    /// The file chosen, if any.
    fn chosen(&self) -> Option<&Loaded> {
        match self.current.load(Ordering::Acquire) {
            0 => None,
            i => self.files[i - 1].get(),
        }
    }
}

static SLOTS: [Slots; Family::ALL.len()] = [const { Slots::new() }; Family::ALL.len()];

/// Serialises the choosers (the evaluation takes no lock).
static CHOOSING: Mutex<()> = Mutex::new(());

/// The table `R`'s evaluation reads: the chosen file's when it is of `R`'s family, else the
/// embedded one.
#[inline(always)]
pub fn patterns<R: Rules>() -> &'static EnginePatterns {
    match SLOTS[Family::of::<R>() as usize].chosen() {
        Some(l) => &l.patterns,
        None => patterns::embedded::<R>(),
    }
}

/// Why a weight file was refused.
#[derive(Debug)]
pub enum WeightsFileError {
    /// The file could not be read.
    Io(PathBuf, std::io::Error),
    /// Larger than [`MAX_FILE_BYTES`].
    TooLarge(PathBuf, u64),
    /// Not weights this build reads, or damaged.
    Weights(PathBuf, patterns::WeightsError),
    /// A family name in the header that no variant has.
    UnknownFamily(PathBuf, String),
    /// Weights of another family than the variant played needs.
    WrongFamily {
        path: PathBuf,
        found: Family,
        needed: Family,
        variant: String,
    },
    /// [`MAX_FILES`] distinct files of the family are loaded in this process already.
    TooMany(PathBuf, Family),
    /// Two files of one family in one choice (each family reads one).
    SameFamily {
        first: PathBuf,
        second: PathBuf,
        family: Family,
    },
}

impl fmt::Display for WeightsFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightsFileError::Io(p, e) => write!(f, "{}: {e}", p.display()),
            WeightsFileError::TooLarge(p, n) => write!(
                f,
                "{}: {n} bytes, more than any weight file ({MAX_FILE_BYTES} at most)",
                p.display()
            ),
            WeightsFileError::Weights(p, e) => write!(f, "{}: {e}", p.display()),
            WeightsFileError::UnknownFamily(p, name) => write!(
                f,
                "{}: pattern weights of family '{name}', which no variant plays \
                 (families: {})",
                p.display(),
                patterns::FAMILIES.join(", ")
            ),
            WeightsFileError::WrongFamily {
                path,
                found,
                needed,
                variant,
            } => write!(
                f,
                "{}: pattern weights of family {}, where {variant} needs {}",
                path.display(),
                found.name(),
                needed.name()
            ),
            WeightsFileError::TooMany(p, family) => write!(
                f,
                "{}: {MAX_FILES} different {} weight files are loaded in this process \
                 already; start the engine again to load more",
                p.display(),
                family.name()
            ),
            WeightsFileError::SameFamily {
                first,
                second,
                family,
            } => write!(
                f,
                "{} and {}: two weight files of family {} (each family reads one)",
                first.display(),
                second.display(),
                family.name()
            ),
        }
    }
}

impl std::error::Error for WeightsFileError {}

/// A weight file read and decoded, not yet chosen.
pub struct WeightsFile {
    family: Family,
    loaded: Loaded,
}

impl WeightsFile {
    /// Reads and checks the weight file at `path` whole: its family is the one its header names.
    pub fn read(path: &Path) -> Result<WeightsFile, WeightsFileError> {
        let io = |e| WeightsFileError::Io(path.to_path_buf(), e);
        let file = std::fs::File::open(path).map_err(io)?;
        let mut bytes = Vec::new();
        file.take(MAX_FILE_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(io)?;
        if bytes.len() as u64 > MAX_FILE_BYTES {
            let len = std::fs::metadata(path).map_or(bytes.len() as u64, |m| m.len());
            return Err(WeightsFileError::TooLarge(path.to_path_buf(), len));
        }
        Self::parse(&bytes, path)
    }

    /// [`WeightsFile::read`] of bytes already read from `path`.
    pub fn parse(bytes: &[u8], path: &Path) -> Result<WeightsFile, WeightsFileError> {
        let bad = |e| WeightsFileError::Weights(path.to_path_buf(), e);
        if bytes.len() < HEADER_BYTES || bytes[..8] != patterns::MAGIC {
            return Err(bad(patterns::WeightsError::NotWeights));
        }
        let name = &bytes[12..28];
        let end = name.iter().position(|&b| b == 0).unwrap_or(name.len());
        let name = String::from_utf8_lossy(&name[..end]).into_owned();
        let family = Family::ALL
            .into_iter()
            .find(|f| f.name() == name)
            .ok_or_else(|| WeightsFileError::UnknownFamily(path.to_path_buf(), name.clone()))?;
        let patterns = match family {
            Family::International => engine_table::<Board10>(bytes, &name),
            Family::Flying8x8 | Family::English => engine_table::<Board8>(bytes, &name),
        }
        .map_err(bad)?;
        Ok(WeightsFile {
            family,
            loaded: Loaded {
                patterns,
                checksum: u64::from_le_bytes(bytes[28..36].try_into().expect("8 bytes")),
                path: path.to_path_buf(),
            },
        })
    }

    /// The family whose positions the weights score.
    pub fn family(&self) -> Family {
        self.family
    }

    /// Refused unless the weights are `R`'s family's (for the commands that play one variant).
    pub fn for_rules<R: Rules>(self, variant: &str) -> Result<WeightsFile, WeightsFileError> {
        let needed = Family::of::<R>();
        if self.family == needed {
            Ok(self)
        } else {
            Err(WeightsFileError::WrongFamily {
                path: self.loaded.path,
                found: self.family,
                needed,
                variant: variant.to_string(),
            })
        }
    }
}

/// The engine's table of a weight file of the board `G`.
fn engine_table<G: Geometry>(
    bytes: &[u8],
    family: &str,
) -> Result<EnginePatterns, patterns::WeightsError> {
    PatternWeights::parse(bytes, family, G::W).map(|w| EnginePatterns::new::<G>(&w))
}

/// Refused when two of `files` are of one family (a choice holds at most one a family).
pub fn one_a_family(files: &[WeightsFile]) -> Result<(), WeightsFileError> {
    for (i, a) in files.iter().enumerate() {
        if let Some(b) = files[..i].iter().find(|b| b.family == a.family) {
            return Err(WeightsFileError::SameFamily {
                first: b.loaded.path.clone(),
                second: a.loaded.path.clone(),
                family: a.family,
            });
        }
    }
    Ok(())
}

/// Makes `files` the process's weights: each file's family reads it, every other family its
/// embedded weights (no file: the embedded weights of every family). Refused, and nothing
/// changes, when two files are of one family or a family has no slot left for a new file.
pub fn choose(files: Vec<WeightsFile>) -> Result<(), WeightsFileError> {
    one_a_family(&files)?;
    let _guard = CHOOSING.lock().unwrap_or_else(PoisonError::into_inner);
    // Every file's slot is found before any is filled: a refusal changes nothing.
    let mut placed = Vec::with_capacity(files.len());
    for file in files {
        let slots = &SLOTS[file.family as usize];
        let same = slots
            .files
            .iter()
            .position(|s| s.get().is_some_and(|l| l.checksum == file.loaded.checksum));
        let index = match same {
            Some(i) => i,
            None => slots
                .files
                .iter()
                .position(|s| s.get().is_none())
                .ok_or_else(|| WeightsFileError::TooMany(file.loaded.path.clone(), file.family))?,
        };
        placed.push((file, index));
    }
    let mut chosen = [0; Family::ALL.len()];
    for (file, index) in placed {
        // Under the lock, so an empty slot is still empty: `set` fills it (a file already
        // loaded under the same checksum keeps its slot).
        let _ = SLOTS[file.family as usize].files[index].set(file.loaded);
        chosen[file.family as usize] = index + 1;
    }
    for (slots, index) in SLOTS.iter().zip(chosen) {
        slots.current.store(index, Ordering::Release);
    }
    Ok(())
}

/// The identity of the weights `family` reads: `family:checksum` (the first 8 hex digits of the
/// file's checksum), as `id` and `tiao analyze` name them.
pub fn identity(family: Family) -> String {
    match SLOTS[family as usize].chosen() {
        Some(l) => format!("{}:{:08x}", family.name(), l.checksum >> 32),
        None => patterns::identity(family.name()),
    }
}

/// The file `family` reads, `None` for its embedded weights.
pub fn file(family: Family) -> Option<PathBuf> {
    SLOTS[family as usize].chosen().map(|l| l.path.clone())
}
