//! The table file: a fixed header naming what the file holds, then the block index and the
//! blocks of [`block`].
//!
//! # Layout (every number little-endian)
//!
//! ```text
//! offset size  field
//!      0    8  magic "TIAOEGDB"
//!      8    4  format version (FORMAT_VERSION)
//!     12    4  header length (HEADER_LEN = 128)
//!     16    1  game (1 draughts, 2 Nine Men's Morris)
//!     17    1  kind (1 win/draw/loss, 2 bits a position; 2 distance, 8 bits a position)
//!     18    2  reserved, 0
//!     20    4  flags (bit 0: positions not stored read back unspecified)
//!     24   16  variant name, ASCII, zero-padded ("international", "morris", ...)
//!     40   32  slice name, ASCII, zero-padded (a material signature, a Morris sector, ...)
//!     72    8  slice id (the game's number for the slice)
//!     80    8  positions in the slice (the index range 0..positions)
//!     88    4  positions a block (the last block may hold fewer)
//!     92    4  reserved, 0
//!     96    8  blocks
//!    104    8  payload length in bytes (the rest of the file)
//!    112    8  payload checksum
//!    120    8  header checksum (of bytes 0..120)
//!    128       payload: distance tables only: 256 bytes, the symbol of each rank (symbols are
//!              stored as their rank in frequency order, so that small ranks, which the blocks
//!              pack in few bits, are the common distances); then (blocks + 1) block offsets
//!              (u64, from the start of the block data), then the block data
//! ```
//!
//! A [`Table`] refuses, with an [`EgdbError`] naming the file and the problem: a file shorter or
//! longer than its header says (a build that was interrupted leaves a truncated `.tmp` file, never
//! a table: [`TableWriter`] writes beside the target and renames), a wrong magic (not a table),
//! another format version, a damaged header or payload (checksums), a block index whose ends are
//! not the data's, and, through [`Table::expect`], a table of another game, variant, kind or
//! slice than the one asked for. The offsets between the index's ends are checked when their
//! block is read (an error for that block; walking a whole index at open would bring it into
//! memory, a ninth of the file).
//!
//! A table opened from a file ([`Table::open`]) is memory-mapped, read-only: its pages live in
//! the operating system's page cache, shared by every process (and every engine of a process)
//! that opens the file, and the process holds only the pages its probes touched (a probe decodes
//! one block). The payload's checksum is still checked at open, by reading the file through a
//! small buffer before mapping it (summing the mapped bytes would bring every page into the
//! process). [`TableWriter`] replaces a file by renaming a new one over it, which never changes
//! the file an engine has mapped; a file truncated or rewritten in place while mapped could make
//! a probe fault (`SIGBUS`) or read bytes that were never checked.
//!
//! A large table may have its payload checksum checked after it opened
//! ([`Table::open_deferring`]): until [`Table::check_payload`] has found it whole, it answers
//! no position ([`EgdbError::Unchecked`]), and a payload found damaged never answers
//! ([`EgdbError::Checksum`]). So an engine starts at once with gigabytes of tables and never
//! takes a value from bytes that were not checked.
//!
//! An engine's opener spares the payload check of a file that its directory's [`CheckRecord`]
//! holds unchanged since it passed one ([`Table::open_recorded`]): the bytes are then the ones
//! that were checked.
//!
//! Invariants: a `Table` that opened has passed every check above (its payload checksum
//! included, now or, for a file the record holds unchanged, when it was recorded; or it answers
//! nothing until that check has passed); `get(i)` for `i < positions` returns the stored symbol
//! (or, where the flags allow it, any symbol for a position written as
//! [`NOT_STORED`](super::NOT_STORED)); a damaged block is an error, never a panic.

use super::EgdbError;
use super::block::{self, Width};
use super::checked::{CheckRecord, Identity};
use memmap2::Mmap;
use rayon::prelude::*;
use std::fs;
use std::io::{Read, Write};
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};
use std::time::SystemTime;

/// The file's first eight bytes.
pub const MAGIC: &[u8; 8] = b"TIAOEGDB";
/// The format this build reads and writes. Version 1 (the first container) had no symbol map in
/// distance tables.
pub const FORMAT_VERSION: u32 = 2;
/// Bytes of the header.
pub const HEADER_LEN: usize = 128;
/// Flag: positions written as [`NOT_STORED`](super::NOT_STORED) read back as an unspecified
/// value (the caller knows which positions those are and never asks).
pub const FLAG_UNSTORED_UNSPECIFIED: u32 = 1;
/// Longest variant name.
pub const VARIANT_LEN: usize = 16;
/// Longest slice name.
pub const SLICE_LEN: usize = 32;

/// The game a table belongs to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameTag {
    /// A draughts variant.
    Draughts,
    /// Nine Men's Morris.
    Morris,
}

impl GameTag {
    fn code(self) -> u8 {
        match self {
            GameTag::Draughts => 1,
            GameTag::Morris => 2,
        }
    }

    fn from_code(c: u8) -> Option<GameTag> {
        match c {
            1 => Some(GameTag::Draughts),
            2 => Some(GameTag::Morris),
            _ => None,
        }
    }

    /// Its name in messages.
    pub const fn name(self) -> &'static str {
        match self {
            GameTag::Draughts => "draughts",
            GameTag::Morris => "morris",
        }
    }
}

/// What a table's symbols are.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Win/draw/loss codes ([`Wdl::code`](super::Wdl::code)), 2 bits.
    Wdl,
    /// Distances (plies), a byte a position; each game says how (draughts: `1 + d` for d up
    /// to 254, 0 for none).
    Distance,
}

impl Kind {
    fn code(self) -> u8 {
        match self {
            Kind::Wdl => 1,
            Kind::Distance => 2,
        }
    }

    fn from_code(c: u8) -> Option<Kind> {
        match c {
            1 => Some(Kind::Wdl),
            2 => Some(Kind::Distance),
            _ => None,
        }
    }

    /// The symbol width.
    pub const fn width(self) -> Width {
        match self {
            Kind::Wdl => Width::Two,
            Kind::Distance => Width::Eight,
        }
    }

    /// Its name in messages.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Wdl => "win/draw/loss",
            Kind::Distance => "distance",
        }
    }
}

/// What a table file says it holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The game.
    pub game: GameTag,
    /// The variant's name (at most [`VARIANT_LEN`] ASCII bytes).
    pub variant: String,
    /// What the symbols are.
    pub kind: Kind,
    /// The slice's name (at most [`SLICE_LEN`] ASCII bytes).
    pub slice: String,
    /// The game's number for the slice.
    pub slice_id: u64,
    /// Positions in the slice.
    pub positions: u64,
    /// Flags ([`FLAG_UNSTORED_UNSPECIFIED`]).
    pub flags: u32,
}

/// Positions a block of a win/draw/loss table: small enough that a probe decodes little.
pub const WDL_BLOCK: u32 = 1024;
/// Positions a block of a distance table.
pub const DISTANCE_BLOCK: u32 = 512;

/// A 64-bit checksum (a multiply-xorshift hash over 8-byte words; not cryptographic: it catches
/// damaged and truncated data).
pub fn checksum(bytes: &[u8]) -> u64 {
    let whole = bytes.len() - bytes.len() % 8;
    let mut sum = Checksum::new(bytes.len() as u64);
    sum.words(&bytes[..whole]);
    sum.finish(&bytes[whole..])
}

/// A [`checksum`] taken piece by piece, for bytes that are never all in memory at once.
struct Checksum {
    h: u64,
}

impl Checksum {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;

    /// The checksum of `len` bytes, none fed yet.
    fn new(len: u64) -> Checksum {
        Checksum {
            h: 0x243F_6A88_85A3_08D3 ^ len.wrapping_mul(Self::K),
        }
    }

    /// Feeds the next whole 8-byte words (`words.len()` a multiple of 8).
    fn words(&mut self, words: &[u8]) {
        debug_assert!(words.len().is_multiple_of(8));
        let mut h = self.h;
        for c in words.chunks_exact(8) {
            let w = u64::from_le_bytes(c.try_into().expect("8 bytes"));
            h = (h ^ w).wrapping_mul(Self::K);
            h ^= h >> 29;
        }
        self.h = h;
    }

    /// The checksum, given the last `rest.len() < 8` bytes.
    fn finish(self, rest: &[u8]) -> u64 {
        let mut last = [0u8; 8];
        last[..rest.len()].copy_from_slice(rest);
        let h = (self.h ^ u64::from_le_bytes(last)).wrapping_mul(Self::K);
        h ^ (h >> 32)
    }
}

/// The [`checksum`] of the next `len` bytes of `file`, read a piece at a time: the payload of a
/// table about to be mapped, checked without bringing its pages into the process.
fn file_checksum(file: &mut fs::File, len: u64) -> std::io::Result<u64> {
    const PIECE: u64 = 1 << 18;
    let mut buf = vec![0u8; len.min(PIECE) as usize];
    let mut sum = Checksum::new(len);
    let mut left = len;
    while left >= 8 {
        let n = (left.min(PIECE) & !7) as usize;
        file.read_exact(&mut buf[..n])?;
        sum.words(&buf[..n]);
        left -= n as u64;
    }
    let rest = &mut buf[..left as usize];
    file.read_exact(rest)?;
    Ok(sum.finish(rest))
}

/// Adds the file `path` (open as `file`), whose payload check just passed, to `record` when
/// there is one and the file is still the identity it was opened with.
fn record_pass(record: &Option<(Arc<CheckRecord>, Identity)>, path: &Path, file: &fs::File) {
    if let Some((r, id)) = record
        && Identity::of(file, id.payload_sum()) == Some(*id)
    {
        r.add(path, *id);
    }
}

fn put_name(out: &mut [u8], name: &str) {
    let b = name.as_bytes();
    out[..b.len()].copy_from_slice(b);
}

fn get_name(b: &[u8]) -> Option<String> {
    let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
    let s = std::str::from_utf8(&b[..end]).ok()?;
    (s.is_ascii() && b[end..].iter().all(|&c| c == 0)).then(|| s.to_string())
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

/// The writer of one table: the header's facts, the blocks coded in parallel.
pub struct TableWriter {
    header: Header,
}

impl TableWriter {
    /// A writer for a table described by `header`. Panics when a name is too long or not ASCII
    /// (the names are the program's own).
    pub fn new(header: Header) -> TableWriter {
        assert!(
            header.variant.is_ascii() && header.variant.len() <= VARIANT_LEN,
            "variant name {:?}",
            header.variant
        );
        assert!(
            header.slice.is_ascii() && header.slice.len() <= SLICE_LEN,
            "slice name {:?}",
            header.slice
        );
        TableWriter { header }
    }

    /// The whole file's bytes, the symbol of position `i` being `symbol(i)` (a 2-bit code for
    /// win/draw/loss tables, a byte for distances).
    pub fn bytes(&self, symbol: impl Fn(u64) -> u8 + Sync) -> Vec<u8> {
        let h = &self.header;
        let width = h.kind.width();
        let block_len = block_len_of(h.kind) as u64;
        let blocks = h.positions.div_ceil(block_len);
        let wild_value = (h.flags & FLAG_UNSTORED_UNSPECIFIED != 0).then_some(super::NOT_STORED);
        // Distance tables store ranks: the most frequent symbol is rank 0.
        let mut to_rank = [0u8; 256];
        let mut from_rank = [0u8; 256];
        for (i, r) in to_rank.iter_mut().enumerate() {
            *r = i as u8;
            from_rank[i] = i as u8;
        }
        if h.kind == Kind::Distance {
            const CHUNK: u64 = 1 << 16;
            let counts = (0..h.positions.div_ceil(CHUNK))
                .into_par_iter()
                .map(|c| {
                    let mut n = [0u64; 256];
                    for i in c * CHUNK..((c + 1) * CHUNK).min(h.positions) {
                        n[symbol(i) as usize] += 1;
                    }
                    n
                })
                .reduce(
                    || [0u64; 256],
                    |mut a, b| {
                        for (x, y) in a.iter_mut().zip(b) {
                            *x += y;
                        }
                        a
                    },
                );
            let mut order: Vec<usize> = (0..256).collect();
            order.sort_by_key(|&v| {
                let wild = Some(v as u8) == wild_value;
                (wild, std::cmp::Reverse(counts[v]), v)
            });
            for (rank, &v) in order.iter().enumerate() {
                to_rank[v] = rank as u8;
                from_rank[rank] = v as u8;
            }
        }
        let wildcard = wild_value.map(|w| to_rank[w as usize]);
        let symbol = |i: u64| to_rank[symbol(i) as usize];
        // Coded in groups of blocks, in parallel.
        const GROUP: u64 = 256;
        let groups: Vec<(Vec<u8>, Vec<u64>)> = (0..blocks.div_ceil(GROUP))
            .into_par_iter()
            .map(|g| {
                let mut data = Vec::new();
                let mut ends = Vec::new();
                let mut symbols = Vec::with_capacity(block_len as usize);
                for b in g * GROUP..((g + 1) * GROUP).min(blocks) {
                    let lo = b * block_len;
                    let hi = (lo + block_len).min(h.positions);
                    symbols.clear();
                    symbols.extend((lo..hi).map(&symbol));
                    block::encode(&symbols, width, wildcard, &mut data);
                    ends.push(data.len() as u64);
                }
                (data, ends)
            })
            .collect();
        let data_len: u64 = groups.iter().map(|(d, _)| d.len() as u64).sum();
        let map_len = map_len(h.kind) as u64;
        let index_len = 8 * (blocks + 1);
        let payload_len = map_len + index_len + data_len;
        let mut out = Vec::with_capacity(HEADER_LEN + payload_len as usize);
        out.resize(HEADER_LEN, 0);
        if map_len > 0 {
            out.extend_from_slice(&from_rank);
        }
        out.extend_from_slice(&0u64.to_le_bytes());
        let mut base = 0u64;
        for (data, ends) in &groups {
            for e in ends {
                out.extend_from_slice(&(base + e).to_le_bytes());
            }
            base += data.len() as u64;
        }
        for (data, _) in &groups {
            out.extend_from_slice(data);
        }
        let payload_sum = checksum(&out[HEADER_LEN..]);
        let hd = &mut out[..HEADER_LEN];
        hd[0..8].copy_from_slice(MAGIC);
        hd[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
        hd[12..16].copy_from_slice(&(HEADER_LEN as u32).to_le_bytes());
        hd[16] = h.game.code();
        hd[17] = h.kind.code();
        hd[20..24].copy_from_slice(&h.flags.to_le_bytes());
        put_name(&mut hd[24..24 + VARIANT_LEN], &h.variant);
        put_name(&mut hd[40..40 + SLICE_LEN], &h.slice);
        hd[72..80].copy_from_slice(&h.slice_id.to_le_bytes());
        hd[80..88].copy_from_slice(&h.positions.to_le_bytes());
        hd[88..92].copy_from_slice(&(block_len as u32).to_le_bytes());
        hd[96..104].copy_from_slice(&blocks.to_le_bytes());
        hd[104..112].copy_from_slice(&payload_len.to_le_bytes());
        hd[112..120].copy_from_slice(&payload_sum.to_le_bytes());
        let header_sum = checksum(&hd[..120]);
        hd[120..128].copy_from_slice(&header_sum.to_le_bytes());
        out
    }

    /// Writes the table to `path`: into `path` + `.tmp` first, synced, then renamed, so that
    /// `path` is either absent or whole. Returns the bytes written.
    pub fn write(&self, path: &Path, symbol: impl Fn(u64) -> u8 + Sync) -> Result<u64, EgdbError> {
        let bytes = self.bytes(symbol);
        let tmp = tmp_path(path);
        let io = |e: std::io::Error| EgdbError::Io {
            path: path.to_path_buf(),
            error: e.to_string(),
        };
        {
            let mut f = fs::File::create(&tmp).map_err(io)?;
            f.write_all(&bytes).map_err(io)?;
            f.sync_all().map_err(io)?;
        }
        fs::rename(&tmp, path).map_err(io)?;
        Ok(bytes.len() as u64)
    }
}

/// The checks of a header alone (magic, version, header length, header checksum), on `bytes`,
/// the file or its first [`HEADER_LEN`] bytes: the file's length as the header gives it.
fn sound_header(path: &Path, bytes: &[u8]) -> Result<u64, EgdbError> {
    let path = path.to_path_buf();
    let truncated = |found: usize| EgdbError::Truncated {
        path: path.clone(),
        expected: HEADER_LEN as u64,
        found: found as u64,
    };
    if bytes.len() < 16 {
        return Err(if bytes.len() >= 8 && bytes[..8] != MAGIC[..] {
            EgdbError::NotATable { path }
        } else {
            truncated(bytes.len())
        });
    }
    if bytes[..8] != MAGIC[..] {
        return Err(EgdbError::NotATable { path });
    }
    let version = u32_at(bytes, 8);
    if version != FORMAT_VERSION {
        return Err(EgdbError::Version {
            path,
            found: version,
            expected: FORMAT_VERSION,
        });
    }
    if bytes.len() < HEADER_LEN {
        return Err(truncated(bytes.len()));
    }
    let hd = &bytes[..HEADER_LEN];
    if u32_at(hd, 12) as usize != HEADER_LEN || checksum(&hd[..120]) != u64_at(hd, 120) {
        return Err(EgdbError::Checksum {
            path,
            part: "header",
        });
    }
    Ok((HEADER_LEN as u64).saturating_add(u64_at(hd, 104)))
}

/// A file of `found` bytes whose header gives `expected`: refused when shorter (truncated) or
/// longer.
fn whole_length(path: &Path, expected: u64, found: u64) -> Result<(), EgdbError> {
    if found < expected {
        return Err(EgdbError::Truncated {
            path: path.to_path_buf(),
            expected,
            found,
        });
    }
    if found > expected {
        return Err(EgdbError::Corrupt {
            path: path.to_path_buf(),
            reason: format!("{} bytes past the end of the table", found - expected),
        });
    }
    Ok(())
}

/// Positions a block of a table of this kind.
fn block_len_of(kind: Kind) -> u32 {
    match kind {
        Kind::Wdl => WDL_BLOCK,
        Kind::Distance => DISTANCE_BLOCK,
    }
}

fn map_len(kind: Kind) -> usize {
    match kind {
        Kind::Wdl => 0,
        Kind::Distance => 256,
    }
}

/// Where [`TableWriter::write`] writes before renaming.
pub fn tmp_path(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_os_string();
    s.push(".tmp");
    PathBuf::from(s)
}

/// A table file's bytes, header included.
#[derive(Debug)]
enum Bytes {
    /// Mapped from the file ([`Table::open`]).
    Mapped(Mmap),
    /// Given whole ([`Table::from_bytes`]).
    Owned(Vec<u8>),
}

impl Deref for Bytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            Bytes::Mapped(m) => m,
            Bytes::Owned(v) => v,
        }
    }
}

/// The payload checksum agrees: the table answers.
const PAYLOAD_CHECKED: u8 = 0;
/// Not checked yet ([`Table::open_deferring`]): the table answers nothing.
const PAYLOAD_PENDING: u8 = 1;
/// Checked and damaged: the table answers nothing, ever.
const PAYLOAD_DAMAGED: u8 = 2;

/// How [`Table::check`] learns the payload's checksum.
enum PayloadSum {
    /// Taken over the bytes.
    Compute,
    /// Taken while reading the file.
    Given(u64),
    /// Taken later, by [`Table::check_payload`] (the table answers nothing until then).
    Later,
}

/// An open table: its header and its payload, checked; the payload mapped from its file or
/// held in memory. (Not `Clone`: nothing needs a second handle to one open file.)
#[derive(Debug)]
pub struct Table {
    header: Header,
    path: PathBuf,
    width: Width,
    block_len: u64,
    blocks: u64,
    /// The symbol of each stored rank (the identity for win/draw/loss tables).
    symbols: [u8; 256],
    /// Where the block index starts in `bytes`.
    index_at: usize,
    /// The whole file, header included.
    bytes: Bytes,
    /// `PAYLOAD_CHECKED`, `PAYLOAD_PENDING` or `PAYLOAD_DAMAGED`.
    payload: AtomicU8,
    /// The file, kept open while its payload awaits its check (the same inode as the map,
    /// whatever happens to the name meanwhile).
    file: Option<fs::File>,
    /// Where a check that passes is recorded, and the file's identity then
    /// ([`Table::open_recorded`]).
    record: Option<(Arc<CheckRecord>, Identity)>,
}

impl Table {
    /// Maps and checks the table at `path` (see the module documentation for what is refused).
    ///
    /// The header is read first: a file whose length is not the one its (checked) header
    /// gives is refused before the rest of it is read or mapped, so a large stray file named like
    /// a table costs nothing (and an empty or short file, which some systems refuse to map, gets
    /// the same errors as any other).
    pub fn open(path: &Path) -> Result<Table, EgdbError> {
        Table::open_deferring(path, u64::MAX)
    }

    /// [`open`](Self::open), with the payload checksum of a file longer than `defer_above`
    /// bytes left for [`check_payload`](Self::check_payload): every other check is made, the
    /// file mapped, and the table answers nothing until that check finds the payload whole.
    pub fn open_deferring(path: &Path, defer_above: u64) -> Result<Table, EgdbError> {
        Table::open_recorded(path, defer_above, None)
    }

    /// [`open_deferring`](Self::open_deferring), sparing the payload check of a file that
    /// `record` holds unchanged since it passed one, and recording the file when its check
    /// passes (at open, or later by [`check_payload`](Self::check_payload)) and it was settled
    /// (see [`checked`](super::checked)); the caller saves the record.
    pub fn open_recorded(
        path: &Path,
        defer_above: u64,
        record: Option<&Arc<CheckRecord>>,
    ) -> Result<Table, EgdbError> {
        let start = SystemTime::now();
        let io = |e: std::io::Error| EgdbError::Io {
            path: path.to_path_buf(),
            error: e.to_string(),
        };
        let mut file = fs::File::open(path).map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        let mut head = vec![0u8; len.min(HEADER_LEN as u64) as usize];
        file.read_exact(&mut head).map_err(io)?;
        whole_length(path, sound_header(path, &head)?, len)?;
        let stored_sum = u64_at(&head, 112);
        let identity = record.and_then(|_| Identity::of(&file, stored_sum));
        let recorded = record
            .zip(identity.as_ref())
            .is_some_and(|(r, id)| r.holds(path, id));
        // Where a passing check is recorded: a settled file only.
        let to_record = record
            .zip(identity)
            .filter(|(_, id)| id.settled_before(start))
            .map(|(r, id)| (Arc::clone(r), id));
        let defer = len > defer_above && !recorded;
        let payload_sum = if recorded {
            PayloadSum::Given(stored_sum)
        } else if defer {
            PayloadSum::Later
        } else {
            let sum = file_checksum(&mut file, len - HEADER_LEN as u64).map_err(io)?;
            if sum == stored_sum {
                record_pass(&to_record, path, &file);
            }
            PayloadSum::Given(sum)
        };
        // SAFETY: the map is read-only, of a file at least HEADER_LEN bytes long (checked
        // above), and its bytes are only read as `u8` (every value valid), every read
        // bounds-checked against the map's length. What `Mmap::map` cannot promise is that the
        // bytes stay as they are: that holds as long as no one changes the file while it is
        // mapped. Our tables are written by `TableWriter::write` to a `.tmp` file that is
        // renamed into place, so a rebuild gives the name a new inode and never changes a mapped
        // one. A file truncated or rewritten in place by another program (`cp` over it, an
        // editor) while mapped could make a read fault (SIGBUS) or change under a probe, past
        // the checksum; docs/egdb.md ("Files") says not to do that. The gain that pays for this:
        // the pages are shared through the page cache, not copied into each process (measured
        // in docs/egdb.md: english up to 6 pieces, peak resident memory 944 MiB -> 185 MiB).
        let map = unsafe { Mmap::map(&file) }.map_err(io)?;
        let mut t = Table::check(path, Bytes::Mapped(map), payload_sum)?;
        if defer {
            t.file = Some(file);
            t.record = to_record;
        }
        Ok(t)
    }

    /// Checks the payload checksum of a table opened with its check deferred (reading the
    /// file once, outside the map); a table checked already returns what its check found. After
    /// it returns `Ok`, the table answers.
    pub fn check_payload(&self) -> Result<(), EgdbError> {
        match self.payload.load(Ordering::Acquire) {
            PAYLOAD_CHECKED => return Ok(()),
            PAYLOAD_DAMAGED => return Err(self.damaged()),
            _ => {}
        }
        let io = |e: std::io::Error| EgdbError::Io {
            path: self.path.clone(),
            error: e.to_string(),
        };
        let file = self.file.as_ref().expect("a pending table keeps its file");
        let mut f = file.try_clone().map_err(io)?;
        std::io::Seek::seek(&mut f, std::io::SeekFrom::Start(HEADER_LEN as u64)).map_err(io)?;
        let sum = file_checksum(&mut f, self.file_len() - HEADER_LEN as u64).map_err(io)?;
        // The header's payload checksum (the header itself was checked at open).
        let whole = sum == u64_at(&self.bytes, 112);
        if whole {
            record_pass(&self.record, &self.path, file);
        }
        self.payload.store(
            if whole {
                PAYLOAD_CHECKED
            } else {
                PAYLOAD_DAMAGED
            },
            Ordering::Release,
        );
        if whole { Ok(()) } else { Err(self.damaged()) }
    }

    /// The record a passing check is added to (its caller saves it), when the table was opened
    /// with one and its check was left for later.
    pub fn record(&self) -> Option<&Arc<CheckRecord>> {
        self.record.as_ref().map(|(r, _)| r)
    }

    /// Whether the payload checksum is still to be checked.
    pub fn payload_pending(&self) -> bool {
        self.payload.load(Ordering::Acquire) == PAYLOAD_PENDING
    }

    fn damaged(&self) -> EgdbError {
        EgdbError::Checksum {
            path: self.path.clone(),
            part: "payload",
        }
    }

    /// `Ok` when the table may answer: its payload was found whole.
    #[inline(always)]
    fn answering(&self) -> Result<(), EgdbError> {
        match self.payload.load(Ordering::Acquire) {
            PAYLOAD_CHECKED => Ok(()),
            PAYLOAD_PENDING => Err(EgdbError::Unchecked {
                path: self.path.clone(),
            }),
            _ => Err(self.damaged()),
        }
    }

    /// Checks the bytes of a table file (`path` names it in errors).
    pub fn from_bytes(path: &Path, bytes: Vec<u8>) -> Result<Table, EgdbError> {
        Table::check(path, Bytes::Owned(bytes), PayloadSum::Compute)
    }

    /// The checks of [`from_bytes`](Self::from_bytes), on bytes mapped or owned; the payload's
    /// checksum as `payload_sum` says.
    fn check(path: &Path, bytes: Bytes, payload_sum: PayloadSum) -> Result<Table, EgdbError> {
        let path = path.to_path_buf();
        let bad = |reason: String| EgdbError::Corrupt {
            path: path.clone(),
            reason,
        };
        let file_len = sound_header(&path, &bytes)?;
        let hd = &bytes[..HEADER_LEN];
        let game =
            GameTag::from_code(hd[16]).ok_or_else(|| bad(format!("game code {}", hd[16])))?;
        let kind = Kind::from_code(hd[17]).ok_or_else(|| bad(format!("kind code {}", hd[17])))?;
        let variant =
            get_name(&hd[24..24 + VARIANT_LEN]).ok_or_else(|| bad("variant name".into()))?;
        let slice = get_name(&hd[40..40 + SLICE_LEN]).ok_or_else(|| bad("slice name".into()))?;
        let header = Header {
            game,
            variant,
            kind,
            slice,
            slice_id: u64_at(hd, 72),
            positions: u64_at(hd, 80),
            flags: u32_at(hd, 20),
        };
        let block_len = u32_at(hd, 88) as u64;
        let blocks = u64_at(hd, 96);
        let payload_len = u64_at(hd, 104);
        let stored_sum = u64_at(hd, 112);
        if block_len != block_len_of(kind) as u64 {
            return Err(bad(format!(
                "blocks of {block_len} positions (a {} table has {})",
                kind.name(),
                block_len_of(kind)
            )));
        }
        if blocks != header.positions.div_ceil(block_len) {
            return Err(bad(format!(
                "{blocks} blocks of {block_len} positions for {} positions",
                header.positions
            )));
        }
        whole_length(&path, file_len, bytes.len() as u64)?;
        let sum = match payload_sum {
            PayloadSum::Compute => Some(checksum(&bytes[HEADER_LEN..])),
            PayloadSum::Given(sum) => Some(sum),
            PayloadSum::Later => None,
        };
        if sum.is_some_and(|sum| sum != stored_sum) {
            return Err(EgdbError::Checksum {
                path,
                part: "payload",
            });
        }
        // The payload stays where it is, after the header (no copy of a file that may be a
        // gigabyte): offsets into `bytes` add HEADER_LEN.
        let map = map_len(kind);
        let index_at = HEADER_LEN + map;
        // Checked: the header's counts are the file's word, not ours (a crafted file may hold
        // any 64-bit numbers that its checksums agree with).
        let index_len = match blocks
            .checked_add(1)
            .and_then(|n| n.checked_mul(8))
            .and_then(|n| n.checked_add(map as u64))
        {
            Some(n) if n <= payload_len => n,
            _ => return Err(bad("block index longer than the payload".into())),
        };
        let mut symbols = [0u8; 256];
        for (i, s) in symbols.iter_mut().enumerate() {
            *s = if map > 0 {
                bytes[HEADER_LEN + i]
            } else {
                i as u8
            };
        }
        // The index's ends are checked here, each block's offsets when it is read
        // ([`Table::block`]): walking the whole index would bring it into memory (a ninth of
        // a file's bytes, a gigabyte for the international 6-piece tables) for nothing.
        let data_len = payload_len - index_len;
        if u64_at(&bytes, index_at) != 0 {
            return Err(bad("block offset 0 out of order".into()));
        }
        if u64_at(&bytes, index_at + 8 * blocks as usize) != data_len {
            return Err(bad(
                "the block index does not end at the payload's end".into()
            ));
        }
        Ok(Table {
            width: kind.width(),
            header,
            path,
            block_len,
            blocks,
            symbols,
            index_at,
            bytes,
            payload: AtomicU8::new(if sum.is_some() {
                PAYLOAD_CHECKED
            } else {
                PAYLOAD_PENDING
            }),
            file: None,
            record: None,
        })
    }

    /// What the file says it holds.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The file it was read from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Bytes of the file.
    pub fn file_len(&self) -> u64 {
        self.bytes.len() as u64
    }

    /// Refuses a table that is not the one asked for: another game, variant, kind, slice name,
    /// slice id or size.
    pub fn expect(&self, want: &Header) -> Result<(), EgdbError> {
        let h = &self.header;
        let mismatch = |what: &'static str, found: String, expected: String| {
            Err(EgdbError::Foreign {
                path: self.path.clone(),
                what,
                found,
                expected,
            })
        };
        if h.game != want.game {
            return mismatch("game", h.game.name().into(), want.game.name().into());
        }
        if h.variant != want.variant {
            return mismatch("variant", h.variant.clone(), want.variant.clone());
        }
        if h.kind != want.kind {
            return mismatch("kind", h.kind.name().into(), want.kind.name().into());
        }
        if h.slice != want.slice || h.slice_id != want.slice_id {
            return mismatch(
                "slice",
                format!("{} (id {})", h.slice, h.slice_id),
                format!("{} (id {})", want.slice, want.slice_id),
            );
        }
        if h.positions != want.positions {
            return mismatch(
                "size",
                format!("{} positions", h.positions),
                format!("{} positions", want.positions),
            );
        }
        if h.flags != want.flags {
            return mismatch("flags", h.flags.to_string(), want.flags.to_string());
        }
        Ok(())
    }

    /// The bytes of block `b` (`b < blocks`), or the error of offsets out of order (the
    /// index's ends were checked at open; the offsets between them are checked here).
    fn block(&self, b: u64) -> Result<&[u8], block::BadBlock> {
        let data_at = self.index_at + 8 * (self.blocks as usize + 1);
        let lo = u64_at(&self.bytes, self.index_at + 8 * b as usize);
        let hi = u64_at(&self.bytes, self.index_at + 8 * (b as usize + 1));
        // Checked against the data's length, so that the slice below stays in the file.
        let data_len = (self.bytes.len() - data_at) as u64;
        if lo > hi || hi > data_len {
            return Err(block::BadBlock("block offsets out of order"));
        }
        Ok(&self.bytes[data_at + lo as usize..data_at + hi as usize])
    }

    fn block_size(&self, b: u64) -> usize {
        (self.header.positions - b * self.block_len).min(self.block_len) as usize
    }

    /// The symbol of position `index`, for a probe: `None` wherever [`get`](Self::get) gives
    /// an error (the table not answering, an index past the end, a damaged block), without
    /// building the error (a probe in the search only asks whether there is an answer).
    #[inline]
    pub fn symbol(&self, index: u64) -> Option<u8> {
        if self.payload.load(Ordering::Acquire) != PAYLOAD_CHECKED || index >= self.header.positions
        {
            return None;
        }
        let r = self.decode_at(index).ok()?;
        Some(self.symbols[r as usize])
    }

    /// The stored rank of position `index` (`index < positions`), decoded from its block.
    #[inline]
    fn decode_at(&self, index: u64) -> Result<u8, block::BadBlock> {
        let b = index / self.block_len;
        block::decode_at(
            self.block(b)?,
            self.width,
            self.block_size(b),
            (index % self.block_len) as usize,
        )
    }

    /// The symbol of position `index` (`index < positions`), or the error that says why there
    /// is none.
    pub fn get(&self, index: u64) -> Result<u8, EgdbError> {
        self.symbol(index).ok_or_else(|| self.no_symbol(index))
    }

    /// Why [`symbol`](Self::symbol) has no answer for `index` (rebuilt off the probes' path).
    #[cold]
    fn no_symbol(&self, index: u64) -> EgdbError {
        if let Err(e) = self.answering() {
            return e;
        }
        if index >= self.header.positions {
            return EgdbError::Corrupt {
                path: self.path.clone(),
                reason: format!("index {index} past {} positions", self.header.positions),
            };
        }
        let reason = self.decode_at(index).err().map_or("unreadable", |e| e.0);
        EgdbError::Corrupt {
            path: self.path.clone(),
            reason: format!("block {}: {reason}", index / self.block_len),
        }
    }

    /// Positions a block holds (the last block may hold fewer).
    pub fn block_len(&self) -> u64 {
        self.block_len
    }

    /// Blocks in the table.
    pub fn blocks(&self) -> u64 {
        self.blocks
    }

    /// Every symbol of block `b` (`b < blocks()`), positions `b * block_len()` on, appended to
    /// `out`: one pass over the block, where [`get`](Self::get) on each position would walk a
    /// run-length block from its start every time.
    pub fn decode_block(&self, b: u64, out: &mut Vec<u8>) -> Result<(), EgdbError> {
        self.answering()?;
        if b >= self.blocks {
            return Err(EgdbError::Corrupt {
                path: self.path.clone(),
                reason: format!("block {b} past {} blocks", self.blocks),
            });
        }
        let start = out.len();
        self.block(b)
            .and_then(|bytes| block::decode_all(bytes, self.width, self.block_size(b), out))
            .map_err(|e| EgdbError::Corrupt {
                path: self.path.clone(),
                reason: format!("block {b}: {}", e.0),
            })?;
        for r in &mut out[start..] {
            *r = self.symbols[*r as usize];
        }
        Ok(())
    }

    /// Every symbol, in index order (for loading a table whole, and for checks).
    pub fn decode_all(&self) -> Result<Vec<u8>, EgdbError> {
        let mut out = Vec::with_capacity(self.header.positions as usize);
        for b in 0..self.blocks {
            self.decode_block(b, &mut out)?;
        }
        Ok(out)
    }
}
