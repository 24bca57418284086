//! Opening books: positions of the opening, by Zobrist key, with every legal move scored by the
//! engine's own search (`tiao book build|merge|info|probe`, docs/book.md).
//!
//! - [`format`](mod@format): the file (header with magic, version, variant, settings and checksums, then the
//!   entries sorted by key) and every check a file read from outside passes;
//! - [`build`]: growing a book by drop-out expansion from the start position, a step at a time,
//!   deterministic by construction, resumable and shardable; the minimax back-up of its values;
//! - [`probe`]: looking a position up, the book's main lines and depth, and the choice of a book
//!   move within a margin of the best;
//! - [`embedded`]: the default books built into the binary (`books/`), and reading a book file
//!   the engine is given instead.
//!
//! The book sits on the engine floor: it imports the games, the search and the variant choice;
//! nothing below it imports it.
//!
//! Invariants of a [`Book`]: the moves of an entry are sorted by their text (the game's Hub form,
//! [`Game::move_to_hub`](crate::game::Game::move_to_hub)), with no text twice; each move's
//! `leaf` is the score of its own search, `score` the minimax value through the book (equal to
//! `leaf` when the move leaves the book); scores are in centi-men for the side to move of the
//! entry's position, a proven win in `p` plies `WIN - p` (see [`crate::search::score`]).

pub mod build;
pub mod embedded;
pub mod format;
pub mod probe;

use crate::game::Variant;
use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;

pub use build::Settings;
pub use probe::choose;

/// One scored move of a book position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move in the game's Hub form (`32-28`, `28x19x23`, `d6`, `a1-a4xd7`): matched against
    /// the legal moves of the position, never by its place in a generated list.
    pub text: String,
    /// The minimax value of the move through the book (side to move, centi-men).
    pub score: i16,
    /// The score of the move's own search (side to move, centi-men).
    pub leaf: i16,
    /// The depth of the move's search, in plies from the book position (the move included).
    pub depth: u8,
}

/// A book: its variant, the settings it is built with, and its entries by position key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    /// The variant whose positions it holds.
    pub variant: Variant,
    /// How it is grown (a resumed build must use the same ones).
    pub settings: Settings,
    /// The positions, by Zobrist key, with their moves sorted by text.
    pub entries: BTreeMap<u64, Vec<BookMove>>,
}

impl Book {
    /// An empty book.
    pub fn new(variant: Variant, settings: Settings) -> Book {
        Book {
            variant,
            settings,
            entries: BTreeMap::new(),
        }
    }

    /// The moves of the position with key `key`, sorted by text.
    pub fn get(&self, key: u64) -> Option<&[BookMove]> {
        self.entries.get(&key).map(Vec::as_slice)
    }

    /// Positions in the book.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book holds no position.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Scored moves in the book.
    pub fn moves(&self) -> usize {
        self.entries.values().map(Vec::len).sum()
    }
}

/// A book file that cannot be used, or a build that cannot go on. Every variant about a file
/// names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookError {
    /// The file cannot be read or written.
    Io { path: PathBuf, error: String },
    /// Not a book file (wrong magic).
    NotABook { path: PathBuf },
    /// A book of another format version.
    Version {
        path: PathBuf,
        found: u32,
        expected: u32,
    },
    /// Shorter (or longer) than its header says.
    Truncated {
        path: PathBuf,
        expected: u64,
        found: u64,
    },
    /// A checksum does not match: the header or the payload was damaged.
    Checksum { path: PathBuf, part: &'static str },
    /// A book of another variant than the one asked for.
    Foreign {
        path: PathBuf,
        found: String,
        expected: Variant,
    },
    /// A damaged file that passed its checksum, or a bad header field.
    Corrupt { path: PathBuf, reason: String },
    /// A file that does not fit the command: a book built with other settings, a shard's part
    /// of another step, a part where a book was expected.
    Mismatch { path: PathBuf, reason: String },
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            BookError::NotABook { path } => {
                write!(
                    f,
                    "{}: not a tiao opening book (wrong magic)",
                    path.display()
                )
            }
            BookError::Version {
                path,
                found,
                expected,
            } => write!(
                f,
                "{}: book format version {found}, this build reads version {expected} \
                 (rebuild the book)",
                path.display()
            ),
            BookError::Truncated {
                path,
                expected,
                found,
            } => write!(
                f,
                "{}: truncated: {found} bytes where the header says {expected} \
                 (an interrupted copy?)",
                path.display()
            ),
            BookError::Checksum { path, part } => write!(
                f,
                "{}: damaged: the {part} checksum does not match",
                path.display()
            ),
            BookError::Foreign {
                path,
                found,
                expected,
            } => write!(
                f,
                "{}: a book of {found}, not of {} (choose the variant with --variant)",
                path.display(),
                expected.name()
            ),
            BookError::Corrupt { path, reason } => {
                write!(f, "{}: damaged book: {reason}", path.display())
            }
            BookError::Mismatch { path, reason } => write!(f, "{}: {reason}", path.display()),
        }
    }
}

impl std::error::Error for BookError {}
