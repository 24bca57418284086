//! The book file: a fixed header, then the entries sorted by position key.
//!
//! # Layout (every number little-endian)
//!
//! ```text
//! offset size  field
//!      0    8  magic "TIAOBOOK"
//!      8    4  format version (FORMAT_VERSION)
//!     12    4  header length (HEADER_LEN = 104)
//!     16    1  kind (1 a book, 2 a shard's part of one expansion step)
//!     17    3  reserved, 0
//!     20    4  positions an expansion step adds (build setting --batch)
//!     24   16  variant name, ASCII, zero-padded ("international", "morris", ...)
//!     40    8  nodes searched per move (build setting --nodes)
//!     48    4  cost of a ply, centi-men (build setting --ply-cost)
//!     52    4  roots (build setting --ballots): 0 the start position, 1 english's start and
//!                 the positions of the 156 ACF three-move ballots
//!     56    8  entries
//!     64    8  payload length in bytes (the rest of the file)
//!     72    8  payload checksum (FNV-1a, 64 bits)
//!     80    8  a part: the payload checksum of the book it extends; a book: 0
//!     88    4  a part: its shard index I; a book: 0
//!     92    4  a part: the shard count N; a book: 1
//!     96    8  header checksum (FNV-1a of bytes 0..96)
//!    104       payload: the entries, keys strictly increasing:
//!                key u64, moves u16, then per move, texts strictly increasing:
//!                text length u8 (1..=255), text (UTF-8, the Hub form),
//!                score i16, leaf i16 (centi-men, side to move, |s| <= WIN), depth u8
//! ```
//!
//! Why moves are stored as text rather than as an index into the generated list: the text is
//! matched against the legal moves of the position when the book is used, so a change of the
//! move generator's order changes nothing, and a move that is not legal there (a key collision,
//! a changed rule) is found and left out instead of silently naming another move. It costs a few
//! bytes a move (a book of 100,000 positions is a few MB).
//!
//! [`decode`] refuses, with a [`BookError`] naming the file: a wrong magic, another version, a
//! file shorter or longer than its header says, a damaged header or payload (checksums), a book
//! of another variant than the one asked for (naming both), and entries out of order, with an
//! empty or repeated move text, or a score out of range. The bytes [`encode`] writes depend only
//! on the book: building the same book twice gives the same file.

use super::build::{Roots, Settings};
use super::{BookError, BookMove};
use crate::game::Variant;
use crate::game::rng::fnv1a;
use crate::search::score::WIN;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The file's first eight bytes.
pub const MAGIC: &[u8; 8] = b"TIAOBOOK";
/// The format this build reads and writes.
pub const FORMAT_VERSION: u32 = 1;
/// Bytes of the header.
pub const HEADER_LEN: usize = 104;
/// Longest variant name.
pub const VARIANT_LEN: usize = 16;
/// Longest move text.
pub const TEXT_MAX: usize = u8::MAX as usize;
/// Most moves an entry may hold.
pub const MOVES_MAX: usize = u16::MAX as usize;
/// Kind code of a book.
const KIND_BOOK: u8 = 1;
/// Kind code of a shard's part.
const KIND_PART: u8 = 2;
/// Roots code of a book grown from the start position.
const ROOTS_START: u32 = 0;
/// Roots code of an english book grown from the start and the three-move ballots.
const ROOTS_BALLOTS: u32 = 1;
/// Offset of the header checksum (the bytes before it are summed).
const HEADER_SUM_AT: usize = 96;

/// What a file holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// A book.
    Book,
    /// The positions shard `shard` of `shards` scored for the next step of the book whose
    /// payload checksum is `base`.
    Part { base: u64, shard: u32, shards: u32 },
}

/// What a file's header says.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// A book or a part.
    pub kind: FileKind,
    /// The variant.
    pub variant: Variant,
    /// The build settings.
    pub settings: Settings,
    /// Entries in the payload.
    pub entries: u64,
    /// Payload bytes.
    pub payload_len: u64,
    /// The payload's checksum.
    pub checksum: u64,
}

/// The entries of a book or part.
pub type Entries = BTreeMap<u64, Vec<BookMove>>;

/// The payload checksum of `entries`: what a part names as its base.
pub fn payload_checksum(entries: &Entries) -> u64 {
    fnv1a(&payload(entries))
}

fn payload(entries: &Entries) -> Vec<u8> {
    let mut p = Vec::new();
    for (key, moves) in entries {
        p.extend_from_slice(&key.to_le_bytes());
        p.extend_from_slice(&(moves.len().min(MOVES_MAX) as u16).to_le_bytes());
        for m in moves.iter().take(MOVES_MAX) {
            let text = &m.text.as_bytes()[..m.text.len().min(TEXT_MAX)];
            p.push(text.len() as u8);
            p.extend_from_slice(text);
            p.extend_from_slice(&m.score.to_le_bytes());
            p.extend_from_slice(&m.leaf.to_le_bytes());
            p.push(m.depth);
        }
    }
    p
}

/// The bytes of a file of `kind` holding `entries` (whose moves are sorted by text, each text
/// at most [`TEXT_MAX`] bytes: the build's invariant).
pub fn encode(kind: FileKind, variant: Variant, settings: &Settings, entries: &Entries) -> Vec<u8> {
    let payload = payload(entries);
    let mut h = Vec::with_capacity(HEADER_LEN + payload.len());
    h.extend_from_slice(MAGIC);
    h.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    h.extend_from_slice(&(HEADER_LEN as u32).to_le_bytes());
    let (code, base, shard, shards) = match kind {
        FileKind::Book => (KIND_BOOK, 0, 0, 1),
        FileKind::Part {
            base,
            shard,
            shards,
        } => (KIND_PART, base, shard, shards),
    };
    h.push(code);
    h.extend_from_slice(&[0; 3]);
    h.extend_from_slice(&settings.batch.to_le_bytes());
    let mut name = [0u8; VARIANT_LEN];
    let n = variant.name().as_bytes();
    name[..n.len()].copy_from_slice(n);
    h.extend_from_slice(&name);
    h.extend_from_slice(&settings.nodes.to_le_bytes());
    h.extend_from_slice(&settings.ply_cost.to_le_bytes());
    let roots = match settings.roots {
        Roots::Start => ROOTS_START,
        Roots::Ballots => ROOTS_BALLOTS,
    };
    h.extend_from_slice(&roots.to_le_bytes());
    h.extend_from_slice(&(entries.len() as u64).to_le_bytes());
    h.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    h.extend_from_slice(&fnv1a(&payload).to_le_bytes());
    h.extend_from_slice(&base.to_le_bytes());
    h.extend_from_slice(&shard.to_le_bytes());
    h.extend_from_slice(&shards.to_le_bytes());
    debug_assert_eq!(h.len(), HEADER_SUM_AT);
    let sum = fnv1a(&h);
    h.extend_from_slice(&sum.to_le_bytes());
    h.extend_from_slice(&payload);
    h
}

/// A little-endian reader over a byte slice that answers `None` past the end.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.at.checked_add(n)?;
        let s = self.bytes.get(self.at..end)?;
        self.at = end;
        Some(s)
    }
    fn u8(&mut self) -> Option<u8> {
        self.take(1).map(|b| b[0])
    }
    fn u16(&mut self) -> Option<u16> {
        self.take(2).map(|b| u16::from_le_bytes([b[0], b[1]]))
    }
    fn i16(&mut self) -> Option<i16> {
        self.take(2).map(|b| i16::from_le_bytes([b[0], b[1]]))
    }
    fn u32(&mut self) -> Option<u32> {
        self.take(4)
            .map(|b| u32::from_le_bytes(b.try_into().unwrap_or([0; 4])))
    }
    fn u64(&mut self) -> Option<u64> {
        self.take(8)
            .map(|b| u64::from_le_bytes(b.try_into().unwrap_or([0; 8])))
    }
}

/// Reads the bytes of a file named `path`; with `expected`, a book of another variant is
/// refused.
pub fn decode(
    path: &Path,
    bytes: &[u8],
    expected: Option<Variant>,
) -> Result<(Header, Entries), BookError> {
    let path_buf = || path.to_path_buf();
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err(BookError::NotABook { path: path_buf() });
    }
    let mut r = Reader { bytes, at: 8 };
    let truncated = |expected: u64| BookError::Truncated {
        path: path_buf(),
        expected,
        found: bytes.len() as u64,
    };
    let version = r.u32().ok_or_else(|| truncated(HEADER_LEN as u64))?;
    if version != FORMAT_VERSION {
        return Err(BookError::Version {
            path: path_buf(),
            found: version,
            expected: FORMAT_VERSION,
        });
    }
    if bytes.len() < HEADER_LEN {
        return Err(truncated(HEADER_LEN as u64));
    }
    let stored_sum = u64::from_le_bytes(
        bytes[HEADER_SUM_AT..HEADER_LEN]
            .try_into()
            .unwrap_or([0; 8]),
    );
    if fnv1a(&bytes[..HEADER_SUM_AT]) != stored_sum {
        return Err(BookError::Checksum {
            path: path_buf(),
            part: "header",
        });
    }
    let corrupt = |reason: String| BookError::Corrupt {
        path: path_buf(),
        reason,
    };
    // The header is whole: every field below is there.
    let header_len = r.u32().unwrap_or(0);
    if header_len as usize != HEADER_LEN {
        return Err(corrupt(format!("header length {header_len}")));
    }
    let code = r.u8().unwrap_or(0);
    r.take(3);
    let batch = r.u32().unwrap_or(0);
    let name_bytes = r.take(VARIANT_LEN).unwrap_or(&[]);
    let name_end = name_bytes
        .iter()
        .position(|&b| b == 0)
        .unwrap_or(VARIANT_LEN);
    let name = String::from_utf8_lossy(&name_bytes[..name_end]).into_owned();
    let nodes = r.u64().unwrap_or(0);
    let ply_cost = r.u32().unwrap_or(0);
    let roots_code = r.u32().unwrap_or(0);
    let entries = r.u64().unwrap_or(0);
    let payload_len = r.u64().unwrap_or(0);
    let checksum = r.u64().unwrap_or(0);
    let base = r.u64().unwrap_or(0);
    let shard = r.u32().unwrap_or(0);
    let shards = r.u32().unwrap_or(0);
    let variant: Variant = name
        .parse()
        .map_err(|_| corrupt(format!("unknown variant '{name}'")))?;
    if let Some(e) = expected
        && e != variant
    {
        return Err(BookError::Foreign {
            path: path_buf(),
            found: name,
            expected: e,
        });
    }
    let kind = match code {
        KIND_BOOK => FileKind::Book,
        KIND_PART if shards > 0 && shard < shards => FileKind::Part {
            base,
            shard,
            shards,
        },
        _ => return Err(corrupt(format!("kind {code}, shard {shard}/{shards}"))),
    };
    if batch == 0 || nodes == 0 {
        return Err(corrupt(format!("settings: batch {batch}, nodes {nodes}")));
    }
    let roots = match roots_code {
        ROOTS_START => Roots::Start,
        ROOTS_BALLOTS => Roots::Ballots,
        _ => return Err(corrupt(format!("roots code {roots_code}"))),
    };
    if !roots.fits(variant) {
        return Err(corrupt(format!(
            "a book of {} grown from the three-move ballots (english's)",
            variant.name()
        )));
    }
    let whole = (HEADER_LEN as u64).saturating_add(payload_len);
    if bytes.len() as u64 != whole {
        return Err(truncated(whole));
    }
    let body = &bytes[HEADER_LEN..];
    if fnv1a(body) != checksum {
        return Err(BookError::Checksum {
            path: path_buf(),
            part: "payload",
        });
    }
    let map = decode_entries(body, entries).map_err(corrupt)?;
    let header = Header {
        kind,
        variant,
        settings: Settings {
            nodes,
            batch,
            ply_cost,
            roots,
        },
        entries,
        payload_len,
        checksum,
    };
    Ok((header, map))
}

fn decode_entries(body: &[u8], count: u64) -> Result<Entries, String> {
    let mut r = Reader { bytes: body, at: 0 };
    let mut map = Entries::new();
    let short = || "an entry runs past the end".to_string();
    let mut last_key = None;
    for e in 0..count {
        let key = r.u64().ok_or_else(short)?;
        if last_key.is_some_and(|k| k >= key) {
            return Err(format!("entry {e}: keys out of order"));
        }
        last_key = Some(key);
        let n = r.u16().ok_or_else(short)? as usize;
        let mut moves: Vec<BookMove> = Vec::with_capacity(n.min(body.len()));
        for _ in 0..n {
            let len = r.u8().ok_or_else(short)? as usize;
            let text = r.take(len).ok_or_else(short)?;
            let text = std::str::from_utf8(text)
                .map_err(|_| format!("entry {e}: a move text is not UTF-8"))?;
            if text.is_empty() {
                return Err(format!("entry {e}: an empty move text"));
            }
            if moves.last().is_some_and(|m| m.text.as_str() >= text) {
                return Err(format!("entry {e}: move texts out of order"));
            }
            let score = r.i16().ok_or_else(short)?;
            let leaf = r.i16().ok_or_else(short)?;
            let depth = r.u8().ok_or_else(short)?;
            if (score as i32).abs() > WIN || (leaf as i32).abs() > WIN {
                return Err(format!("entry {e}: a score out of range"));
            }
            moves.push(BookMove {
                text: text.to_string(),
                score,
                leaf,
                depth,
            });
        }
        map.insert(key, moves);
    }
    if r.at != body.len() {
        return Err(format!("{} bytes after the last entry", body.len() - r.at));
    }
    Ok(map)
}

/// Reads the file at `path` (see [`decode`]).
pub fn read(path: &Path, expected: Option<Variant>) -> Result<(Header, Entries), BookError> {
    let bytes = std::fs::read(path).map_err(|e| BookError::Io {
        path: path.to_path_buf(),
        error: e.to_string(),
    })?;
    decode(path, &bytes, expected)
}

/// Writes `bytes` to `path` through a temporary file beside it renamed over it, so that an
/// interrupted write never leaves a partial file at `path`.
pub fn write(path: &Path, bytes: &[u8]) -> Result<(), BookError> {
    let mut tmp: PathBuf = path.to_path_buf();
    let mut name = tmp
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_default();
    name.push(".tmp");
    tmp.set_file_name(name);
    let io = |e: std::io::Error| BookError::Io {
        path: path.to_path_buf(),
        error: e.to_string(),
    };
    std::fs::write(&tmp, bytes).map_err(io)?;
    std::fs::rename(&tmp, path).map_err(io)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Entries {
        let mut e = Entries::new();
        e.insert(
            7,
            vec![
                BookMove {
                    text: "31-27".into(),
                    score: 12,
                    leaf: 10,
                    depth: 9,
                },
                BookMove {
                    text: "32-28".into(),
                    score: -5,
                    leaf: -5,
                    depth: 8,
                },
            ],
        );
        e.insert(3, vec![]);
        e
    }

    fn settings() -> Settings {
        Settings {
            nodes: 1000,
            batch: 4,
            ply_cost: 20,
            roots: Roots::Start,
        }
    }

    #[test]
    fn round_trip() {
        let e = sample();
        let bytes = encode(FileKind::Book, Variant::International, &settings(), &e);
        let (h, back) = decode(Path::new("x"), &bytes, Some(Variant::International)).unwrap();
        assert_eq!(back, e);
        assert_eq!(h.kind, FileKind::Book);
        assert_eq!(h.settings, settings());
        assert_eq!(h.entries, 2);
        let part = FileKind::Part {
            base: 99,
            shard: 1,
            shards: 3,
        };
        let bytes = encode(part, Variant::Morris, &settings(), &e);
        let (h, _) = decode(Path::new("x"), &bytes, None).unwrap();
        assert_eq!(h.kind, part);
        assert_eq!(h.variant, Variant::Morris);
        let ballots = Settings {
            roots: Roots::Ballots,
            ..settings()
        };
        let bytes = encode(FileKind::Book, Variant::English, &ballots, &e);
        let (h, _) = decode(Path::new("x"), &bytes, None).unwrap();
        assert_eq!(h.settings, ballots);
        let bytes = encode(FileKind::Book, Variant::Russian, &ballots, &e);
        let err = decode(Path::new("x"), &bytes, None).unwrap_err();
        assert!(err.to_string().contains("ballots"), "{err}");
    }

    #[test]
    fn every_damage_is_refused() {
        let bytes = encode(FileKind::Book, Variant::English, &settings(), &sample());
        let p = Path::new("b.book");
        assert!(matches!(
            decode(p, b"nonsense", None),
            Err(BookError::NotABook { .. })
        ));
        assert!(matches!(
            decode(p, &bytes, Some(Variant::Russian)),
            Err(BookError::Foreign { .. })
        ));
        for cut in [10, HEADER_LEN - 1, HEADER_LEN, bytes.len() - 1] {
            let e = decode(p, &bytes[..cut], None).unwrap_err();
            assert!(matches!(e, BookError::Truncated { .. }), "{cut}: {e}");
        }
        for i in 8..bytes.len() {
            let mut b = bytes.clone();
            b[i] ^= 0x10;
            assert!(decode(p, &b, None).is_err(), "byte {i} flipped");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(matches!(
            decode(p, &longer, None),
            Err(BookError::Truncated { .. })
        ));
    }

    #[test]
    fn out_of_order_moves_are_refused_even_with_a_good_checksum() {
        let mut e = sample();
        e.get_mut(&7).unwrap().reverse();
        let bytes = encode(FileKind::Book, Variant::English, &settings(), &e);
        let err = decode(Path::new("b"), &bytes, None).unwrap_err();
        assert!(err.to_string().contains("out of order"), "{err}");
    }
}
