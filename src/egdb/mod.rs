//! Endgame tables, one module for every game: the file format, the block codec, the value
//! types, and the hook through which the search probes them.
//!
//! Game-agnostic floors (this directory): [`block`] codes runs of value symbols as small blocks;
//! [`file`](mod@file) is the table file (header, block index, checksums, the reader that refuses
//! truncated, foreign, other-version and damaged files with an [`EgdbError`] naming the file and
//! the problem, and the writer that never leaves a partial table under a table's name).
//! Each game's tables live beside them, in their own directory (`draughts`, `morris`): how
//! positions are numbered inside a slice, the retrograde analysis, the probe.
//!
//! The values: a table stores, for every position of a slice, a 2-bit [`Wdl`] code for the side
//! to move ([`Wdl::code`]), or [`NOT_STORED`] for a position the game's convention leaves out (a
//! draughts position whose side to move must capture); optional distance tables store a byte
//! per position.
//!
//! The search's side: [`Probe`], one implementation per game, handed to the search for a
//! position type `G`; the search asks it only about positions with at most
//! [`Probe::max_pieces`] pieces, and takes `Some(value)` as exact. A game plugs its tables in
//! with an [`Opener`]: the engine calls it with the directory (Hub `egdb-path`, `--egdb DIR`)
//! and the variant, and hands the [`Opened::tables`] to every search of that game; the files it
//! refused are [`Opened::problems`], which the engine reports as warnings and plays on.
//!
//! Invariant: a table value is a fact about the game without its draw counters (repetition and
//! the move-count rules are the search's business), for the side to move.

pub mod block;
pub mod checked;
pub mod draughts;
pub mod driver;
pub mod file;
pub mod morris;

use crate::game::Variant;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use file::{GameTag, Header, Kind, Table, TableWriter};

/// Table files up to this many bytes have their payload checksum checked when an [`Opener`]
/// opens them; larger ones are opened at once, answering nothing until their check
/// ([`Opened::check`]) has run: the engine runs it at once, or, where a quick start matters (the
/// Hub and DXP engines), on a thread of its own, so that the international 6-piece set (about
/// 11 GB) does not hold the engine's start for as long as it takes to read it all.
pub const CHECK_AT_OPEN_MAX: u64 = 64 << 20;

/// Checks the payloads of `tables` that [`Table::open_deferring`] left unchecked, here and
/// now, smallest first; returns the damaged ones' errors (those tables never answer). Those
/// that pass are added to their [`checked`] records, which are saved.
pub fn check_pending(mut tables: Vec<&Table>) -> Vec<EgdbError> {
    tables.retain(|t| t.payload_pending());
    tables.sort_by_key(|t| t.file_len());
    tables
        .into_iter()
        .filter_map(|t| {
            let checked = t.check_payload();
            // Saved after each file (only when it was added): an engine stopped in the
            // middle of a long check keeps what it has found so far.
            if let Some(r) = t.record() {
                r.save();
            }
            checked.err()
        })
        .collect()
}

/// The payload checks an [`Opener`] left for later: run, they return the damaged tables'
/// errors (those never answer; the others answer from then on).
pub type PendingCheck = Box<dyn FnOnce() -> Vec<EgdbError> + Send>;

/// The [`PendingCheck`] of the tables of `owner` (listed by `tables`) whose check
/// [`Table::open_deferring`] left for later; `None` when every table is checked.
pub fn pending_check<T: Send + Sync + 'static>(
    owner: &Arc<T>,
    tables: fn(&T) -> Vec<&Table>,
) -> Option<PendingCheck> {
    if !tables(owner).iter().any(|t| t.payload_pending()) {
        return None;
    }
    let owner = Arc::clone(owner);
    Some(Box::new(move || check_pending(tables(&owner))))
}

/// The 2-bit code of a position that is not stored (the game's convention leaves it to the
/// search). Read back as an unspecified value when the file's flags say so.
pub const NOT_STORED: u8 = 0;

/// A game-theoretic value for the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Wdl {
    /// The side to move loses with best play.
    Loss,
    /// Neither side can force a win.
    Draw,
    /// The side to move wins with best play.
    Win,
}

impl Wdl {
    /// The 2-bit code stored in tables: 1 loss, 2 draw, 3 win (0 is [`NOT_STORED`]).
    pub const fn code(self) -> u8 {
        match self {
            Wdl::Loss => 1,
            Wdl::Draw => 2,
            Wdl::Win => 3,
        }
    }

    /// The value of a code; `None` for [`NOT_STORED`] (and anything above 3).
    pub const fn from_code(c: u8) -> Option<Wdl> {
        match c {
            1 => Some(Wdl::Loss),
            2 => Some(Wdl::Draw),
            3 => Some(Wdl::Win),
            _ => None,
        }
    }

    /// The value for the other side (a move's child seen from the mover).
    pub const fn flip(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::Draw => Wdl::Draw,
            Wdl::Win => Wdl::Loss,
        }
    }

    /// Its name in messages.
    pub const fn name(self) -> &'static str {
        match self {
            Wdl::Loss => "loss",
            Wdl::Draw => "draw",
            Wdl::Win => "win",
        }
    }
}

impl fmt::Display for Wdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The largest distance a probe may answer ([`Probed::distance`]): a draughts distance to
/// conversion is a byte; Morris orders its wins by the loser's pieces, then the plies
/// (`morris::probe::search_distance`, at most 895). The search's table scores leave room for it.
pub const DISTANCE_MAX: u16 = 1023;

/// A table probe's answer: the value, and, when distance tables are present, the plies to the
/// next conversion (draughts: the next capture, by either side; Morris: the next removal) with
/// best play: the winner converts as soon as it can, the loser holds out as long as it can.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Probed {
    /// Win, draw or loss for the side to move.
    pub wdl: Wdl,
    /// Plies to the conversion (wins and losses), when known; at most [`DISTANCE_MAX`] (a game
    /// may order its wins by more than the plies, as Morris does by the loser's pieces first).
    pub distance: Option<u16>,
}

/// The hook the search calls: a game's tables, for positions of type `G`.
///
/// Implementations are shared by every search thread (`Sync`) and must be cheap to ask: the
/// search calls [`probe`](Probe::probe) at every node with at most
/// [`max_pieces`](Probe::max_pieces) pieces.
pub trait Probe<G>: Send + Sync {
    /// The exact value of `pos` for its side to move under the game's draw counters, when the
    /// tables cover it (draughts: a position that must capture is answered from the positions
    /// after its captures, at distance 1); `None` otherwise.
    fn probe(&self, pos: &G) -> Option<Probed>;
    /// The most pieces of any position the tables cover (the search does not ask above it).
    fn max_pieces(&self) -> u32;
}

/// Two sets of tables asked in turn: the first's answer, else the second's (the engine's table
/// directory, then its built-in tables). Each answers `None` above its own
/// [`max_pieces`](Probe::max_pieces), as every [`Probe`] of draughts does.
pub struct Layered<G> {
    /// Asked first.
    pub first: Arc<dyn Probe<G>>,
    /// Asked when the first has no answer.
    pub then: Arc<dyn Probe<G>>,
}

impl<G> Probe<G> for Layered<G> {
    #[inline]
    fn probe(&self, pos: &G) -> Option<Probed> {
        self.first.probe(pos).or_else(|| self.then.probe(pos))
    }

    fn max_pieces(&self) -> u32 {
        self.first.max_pieces().max(self.then.max_pieces())
    }
}

/// Built-in tables as the engine takes them: the probe and its number of slices.
pub type BuiltinTables<G> = (Arc<dyn Probe<G>>, usize);

/// A game's built-in tables, built by the first engine of the process that asks (see
/// [`draughts::builtin`]); `None` when the game or board has none.
pub type Builtin<G> = fn() -> Option<BuiltinTables<G>>;

/// The default table directory: `$XDG_DATA_HOME/tiao/egdb`, else `~/.local/share/tiao/egdb`
/// (`None` when neither variable is set). The engine reads it when it exists.
pub fn default_dir() -> Option<PathBuf> {
    let data = std::env::var_os("XDG_DATA_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|h| !h.is_empty())
                .map(|h| PathBuf::from(h).join(".local").join("share"))
        })?;
    Some(data.join("tiao").join("egdb"))
}

/// What a game's [`Opener`] found in a directory.
pub struct Opened<G> {
    /// The tables to probe; `None` when no usable table of the variant is there.
    pub tables: Option<Arc<dyn Probe<G>>>,
    /// Slices (files) opened.
    pub slices: usize,
    /// The files refused (truncated, foreign, damaged): the engine warns and plays on without
    /// them.
    pub problems: Vec<EgdbError>,
    /// The payload checks of the large files, left for the engine to run ([`PendingCheck`]):
    /// at once, or on a thread of their own while it starts.
    pub check: Option<PendingCheck>,
}

impl<G> Opened<G> {
    /// Nothing opened, nothing wrong.
    pub fn none() -> Self {
        Opened {
            tables: None,
            slices: 0,
            problems: Vec::new(),
            check: None,
        }
    }
}

/// A game's table opener: the tables of `variant` found under `dir` (each game lays out its
/// own files under it).
pub type Opener<G> = fn(dir: &Path, variant: Variant) -> Opened<G>;

/// A table that cannot be used, or a directory that cannot be read. Every variant names the
/// file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EgdbError {
    /// The file or directory cannot be read or written.
    Io { path: PathBuf, error: String },
    /// Not a table file (wrong magic).
    NotATable { path: PathBuf },
    /// A table of another format version.
    Version {
        path: PathBuf,
        found: u32,
        expected: u32,
    },
    /// Shorter than its header says (a copy or a write that was interrupted).
    Truncated {
        path: PathBuf,
        expected: u64,
        found: u64,
    },
    /// A checksum does not match: the header or the payload was damaged.
    Checksum { path: PathBuf, part: &'static str },
    /// A table of another game, variant, kind or slice than the one asked for.
    Foreign {
        path: PathBuf,
        what: &'static str,
        found: String,
        expected: String,
    },
    /// A damaged table that passed its checksum (or a bad header field).
    Corrupt { path: PathBuf, reason: String },
    /// A build this code or this machine cannot do (`what` names the slice or sector).
    TooLarge { what: String, reason: String },
    /// Another build holds the lock of the directory (`path`: its lock file).
    Busy { path: PathBuf },
    /// A table whose payload checksum is still being checked (it answers nothing until then).
    Unchecked { path: PathBuf },
}

impl fmt::Display for EgdbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EgdbError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            EgdbError::NotATable { path } => {
                write!(
                    f,
                    "{}: not a tiao endgame table (wrong magic)",
                    path.display()
                )
            }
            EgdbError::Version {
                path,
                found,
                expected,
            } => write!(
                f,
                "{}: table format version {found}, this build reads version {expected} (rebuild the tables)",
                path.display()
            ),
            EgdbError::Truncated {
                path,
                expected,
                found,
            } => write!(
                f,
                "{}: truncated: {found} bytes of {expected} (an interrupted build or copy; rebuild it)",
                path.display()
            ),
            EgdbError::Checksum { path, part } => {
                write!(
                    f,
                    "{}: the {part} checksum does not match (damaged file)",
                    path.display()
                )
            }
            EgdbError::Foreign {
                path,
                what,
                found,
                expected,
            } => write!(
                f,
                "{}: a table of another {what}: {found}, expected {expected}",
                path.display()
            ),
            EgdbError::TooLarge { what, reason } => write!(f, "{what}: {reason}"),
            EgdbError::Unchecked { path } => write!(
                f,
                "{}: not used yet: its checksum is still being checked",
                path.display()
            ),
            EgdbError::Busy { path } => write!(
                f,
                "{}: another build is writing tables in this directory (it holds this lock); \
                 wait for it to end or stop it, then run the build again",
                path.display()
            ),
            EgdbError::Corrupt { path, reason } => {
                write!(f, "{}: damaged table: {reason}", path.display())
            }
        }
    }
}

impl std::error::Error for EgdbError {}
