//! The self-play training data format: draughts positions, each with its game's result and the
//! score of the shallow search that chose the move played from it.
//!
//! A file is a sequence of **chunks**; a chunk is a header and its records. Files therefore
//! concatenate (`cat shard-*.tsd > all.tsd` is a valid file): the shards of a sharded run, or
//! the runs of several rounds, are merged by concatenation, and a reader walks the chunks one
//! after the other. Every integer is little-endian.
//!
//! Header ([`HEADER_BYTES`] bytes):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `TIAOSPD\0` |
//! | 8 | 2 | format version ([`VERSION`]) |
//! | 10 | 1 | variant (its index in [`Variant::ALL`]) |
//! | 11 | 1 | pieces at which the endgame tables ended the run's games (`selfplay --egdb`), 0: none |
//! | 12 | 4 | shard index `I` of the run that wrote the chunk |
//! | 16 | 4 | shard count `N` |
//! | 20 | 8 | the run's seed |
//! | 28 | 4 | the run's nodes per move |
//! | 32 | 8 | the first game of the chunk, as the shard's own game counter |
//! | 40 | 4 | games in the chunk |
//! | 44 | 4 | records in the chunk |
//! | 48 | 8 | checksum of the records' bytes (FNV-1a, 64 bits) |
//!
//! Record ([`RECORD_BYTES`] bytes): White's pieces, Black's pieces, the kings (three `u64`
//! bitboards in the board's bit layout, see [`board`](crate::draughts::board)); the search score
//! (`i16`, centi-men, for the side to move; a proven win or loss is stored as
//! ±[`DECISIVE`]); the game's result for White (`i8`: 1, 0, -1); the side to move (`u8`: 0
//! White, 1 Black); the ply of the position in its game (`u16`).
//!
//! Invariants: a chunk's records belong to its `games` games, in game order; a reader refuses a
//! chunk whose magic, version, variant, length or checksum is wrong and names the chunk and the
//! byte offset. A file cut short by an interrupted run loses only its last, partial chunk
//! ([`scan`] finds where the valid part ends, so a writer resumes there). A reader holds one
//! chunk at a time ([`read_chunks`]): files larger than the memory stream through.

use crate::game::Variant;
use crate::game::color::Color;
use crate::game::rng::fnv1a;
use std::fmt;
use std::io::{self, Read, Write};
use std::ops::Range;

/// The first bytes of every chunk.
pub const MAGIC: [u8; 8] = *b"TIAOSPD\0";
/// The format version this build reads and writes.
pub const VERSION: u16 = 1;
/// Bytes of a chunk header.
pub const HEADER_BYTES: usize = 56;
/// Bytes of a record.
pub const RECORD_BYTES: usize = 30;
/// The stored score of a proven win (its negation: a proven loss), centi-men.
pub const DECISIVE: i16 = 3000;

/// One position of a self-played game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct Record {
    /// White's pieces (bitboard).
    pub white: u64,
    /// Black's pieces.
    pub black: u64,
    /// The kings of both sides.
    pub kings: u64,
    /// The search's score for the side to move, centi-men, within `±DECISIVE`.
    pub score: i16,
    /// The game's result for White: 1 won, 0 drawn, -1 lost.
    pub result: i8,
    /// The side to move.
    pub side: Color,
    /// Plies from the game's start position.
    pub ply: u16,
}

impl Record {
    fn write_to(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.white.to_le_bytes());
        out.extend_from_slice(&self.black.to_le_bytes());
        out.extend_from_slice(&self.kings.to_le_bytes());
        out.extend_from_slice(&self.score.to_le_bytes());
        out.push(self.result as u8);
        out.push(self.side.index() as u8);
        out.extend_from_slice(&self.ply.to_le_bytes());
    }

    fn read_from(b: &[u8]) -> Result<Record, String> {
        let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().expect("8 bytes"));
        let result = b[26] as i8;
        if !(-1..=1).contains(&result) {
            return Err(format!("result {result} is not 1, 0 or -1"));
        }
        let side = match b[27] {
            0 => Color::White,
            1 => Color::Black,
            s => return Err(format!("side to move {s} is not 0 or 1")),
        };
        let (white, black, kings) = (u64_at(0), u64_at(8), u64_at(16));
        if white & black != 0 || kings & !(white | black) != 0 {
            return Err("overlapping pieces".to_string());
        }
        let score = i16::from_le_bytes([b[24], b[25]]);
        if !(-DECISIVE..=DECISIVE).contains(&score) {
            return Err(format!("score {score} outside ±{DECISIVE}"));
        }
        Ok(Record {
            white,
            black,
            kings,
            score,
            result,
            side,
            ply: u16::from_le_bytes([b[28], b[29]]),
        })
    }
}

/// What a chunk says about the run that wrote it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ChunkHeader {
    /// The variant of every record of the chunk.
    pub variant: Variant,
    /// Shard index `I` (0-based) of the writing run.
    pub shard: u32,
    /// Shard count `N` of the writing run.
    pub shards: u32,
    /// The run's seed.
    pub seed: u64,
    /// The run's nodes per move.
    pub nodes: u32,
    /// A game of the run ended at its first position of at most this many pieces, scored by
    /// the endgame tables (`tiao selfplay --egdb`); 0: the games were played to their end.
    pub table_end: u8,
    /// The first game of the chunk, counted within its shard.
    pub first_game: u64,
    /// Games in the chunk.
    pub games: u32,
    /// Records in the chunk.
    pub records: u32,
}

/// Why a data file was refused.
#[derive(Debug)]
pub enum DataError {
    /// Reading failed.
    Io(io::Error),
    /// A chunk does not start with the magic bytes: not a tiao self-play file.
    NotData { offset: u64 },
    /// A chunk of a format version this build does not read.
    Version { offset: u64, version: u16 },
    /// A variant byte that names no variant, or a chunk of another variant than expected.
    Variant { offset: u64, found: String },
    /// The file ends inside a chunk.
    Truncated { offset: u64 },
    /// The records do not match the header's checksum.
    Checksum { offset: u64 },
    /// A record that cannot be a position.
    BadRecord {
        offset: u64,
        index: u32,
        reason: String,
    },
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataError::Io(e) => write!(f, "reading training data: {e}"),
            DataError::NotData { offset } => write!(
                f,
                "not tiao self-play data: no chunk header at byte {offset} (expected 'TIAOSPD')"
            ),
            DataError::Version { offset, version } => write!(
                f,
                "chunk at byte {offset} has format version {version}; this build reads {VERSION}"
            ),
            DataError::Variant { offset, found } => {
                write!(f, "chunk at byte {offset}: {found}")
            }
            DataError::Truncated { offset } => write!(
                f,
                "the data ends inside the chunk at byte {offset} (an interrupted run? \
                 `tiao selfplay` resumes such a file)"
            ),
            DataError::Checksum { offset } => {
                write!(
                    f,
                    "chunk at byte {offset}: checksum mismatch (corrupted data)"
                )
            }
            DataError::BadRecord {
                offset,
                index,
                reason,
            } => write!(f, "chunk at byte {offset}, record {index}: {reason}"),
        }
    }
}

impl std::error::Error for DataError {}

impl From<io::Error> for DataError {
    fn from(e: io::Error) -> Self {
        DataError::Io(e)
    }
}

/// Writes one chunk: `header` (its `records` field is taken from `records`) and the records.
pub fn write_chunk<W: Write>(
    out: &mut W,
    header: &ChunkHeader,
    records: &[Record],
) -> io::Result<()> {
    let mut body = Vec::with_capacity(records.len() * RECORD_BYTES);
    for r in records {
        r.write_to(&mut body);
    }
    let mut h = Vec::with_capacity(HEADER_BYTES);
    h.extend_from_slice(&MAGIC);
    h.extend_from_slice(&VERSION.to_le_bytes());
    let v = Variant::ALL
        .iter()
        .position(|v| *v == header.variant)
        .expect("a variant of ALL") as u8;
    h.push(v);
    h.push(header.table_end);
    h.extend_from_slice(&header.shard.to_le_bytes());
    h.extend_from_slice(&header.shards.to_le_bytes());
    h.extend_from_slice(&header.seed.to_le_bytes());
    h.extend_from_slice(&header.nodes.to_le_bytes());
    h.extend_from_slice(&header.first_game.to_le_bytes());
    h.extend_from_slice(&header.games.to_le_bytes());
    h.extend_from_slice(&(records.len() as u32).to_le_bytes());
    h.extend_from_slice(&fnv1a(&body).to_le_bytes());
    debug_assert_eq!(h.len(), HEADER_BYTES);
    out.write_all(&h)?;
    out.write_all(&body)
}

/// Reads the header at the start of `rest`, the bytes from byte `at` of the data on (all that
/// is left, or at least [`HEADER_BYTES`] of it); `Ok(None)` when `rest` is empty (the end).
fn read_header(rest: &[u8], at: u64) -> Result<Option<ChunkHeader>, DataError> {
    if rest.is_empty() {
        return Ok(None);
    }
    if !MAGIC.starts_with(&rest[..rest.len().min(MAGIC.len())]) {
        return Err(DataError::NotData { offset: at });
    }
    if rest.len() < HEADER_BYTES {
        return Err(DataError::Truncated { offset: at });
    }
    let u32_at = |i: usize| u32::from_le_bytes(rest[i..i + 4].try_into().expect("4 bytes"));
    let u64_at = |i: usize| u64::from_le_bytes(rest[i..i + 8].try_into().expect("8 bytes"));
    let version = u16::from_le_bytes([rest[8], rest[9]]);
    if version != VERSION {
        return Err(DataError::Version {
            offset: at,
            version,
        });
    }
    let variant = *Variant::ALL
        .get(rest[10] as usize)
        .ok_or_else(|| DataError::Variant {
            offset: at,
            found: format!("variant byte {} names no variant", rest[10]),
        })?;
    Ok(Some(ChunkHeader {
        variant,
        shard: u32_at(12),
        shards: u32_at(16),
        seed: u64_at(20),
        nodes: u32_at(28),
        table_end: rest[11],
        first_game: u64_at(32),
        games: u32_at(40),
        records: u32_at(44),
    }))
}

/// The records of the chunk at byte `at` whose header bytes are `header` and whose record
/// bytes are `body` (all of them: the caller checked the length), after the checksum.
fn read_body(header: &[u8], body: &[u8], at: u64) -> Result<Vec<Record>, DataError> {
    let sum = u64::from_le_bytes(header[48..56].try_into().expect("8 bytes"));
    if fnv1a(body) != sum {
        return Err(DataError::Checksum { offset: at });
    }
    body.chunks_exact(RECORD_BYTES)
        .enumerate()
        .map(|(i, b)| {
            Record::read_from(b).map_err(|reason| DataError::BadRecord {
                offset: at,
                index: i as u32,
                reason,
            })
        })
        .collect()
}

/// Walks the chunks of `bytes`, checking each, and calls `each` with a valid chunk's byte range
/// in `bytes`, its header and its records. Stops at the first bad chunk with its error.
pub fn for_each_chunk(
    bytes: &[u8],
    mut each: impl FnMut(Range<u64>, &ChunkHeader, Vec<Record>) -> Result<(), DataError>,
) -> Result<(), DataError> {
    let mut offset = 0;
    while let Some(h) = read_header(&bytes[offset..], offset as u64)? {
        let at = offset as u64;
        let start = offset + HEADER_BYTES;
        let end = start + h.records as usize * RECORD_BYTES;
        if end > bytes.len() {
            return Err(DataError::Truncated { offset: at });
        }
        let records = read_body(&bytes[offset..start], &bytes[start..end], at)?;
        each(at..end as u64, &h, records)?;
        offset = end;
    }
    Ok(())
}

/// Reads `input` one chunk at a time, checking each, and calls `each` with the chunk's byte
/// offset in the input, its header and its records: only one chunk is in memory at a time,
/// whatever the size of the input. Stops at the first bad chunk with its error, or at the first
/// error `each` returns (of any type a [`DataError`] converts into) with that one.
pub fn read_chunks<R: Read, E: From<DataError>>(
    mut input: R,
    mut each: impl FnMut(u64, &ChunkHeader, Vec<Record>) -> Result<(), E>,
) -> Result<(), E> {
    let mut at = 0u64;
    let mut head = [0u8; HEADER_BYTES];
    let mut body = Vec::new();
    loop {
        // As much of a header as there is: nothing at the end of the input.
        let mut got = 0;
        while got < HEADER_BYTES {
            match input.read(&mut head[got..]) {
                Ok(0) => break,
                Ok(n) => got += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(DataError::from(e).into()),
            }
        }
        let Some(h) = read_header(&head[..got], at)? else {
            return Ok(());
        };
        // The body grows as it is read: a header that claims more records than the input
        // holds is a truncated chunk, not a huge allocation.
        let len = h.records as u64 * RECORD_BYTES as u64;
        body.clear();
        (&mut input)
            .take(len)
            .read_to_end(&mut body)
            .map_err(DataError::from)?;
        if (body.len() as u64) < len {
            return Err(DataError::Truncated { offset: at }.into());
        }
        let records = read_body(&head, &body, at)?;
        each(at, &h, records)?;
        at += HEADER_BYTES as u64 + len;
    }
}

/// The records of every chunk of a data file, all of `variant`.
pub fn read_all<R: Read>(input: R, variant: Variant) -> Result<Vec<Record>, DataError> {
    let mut out = Vec::new();
    read_chunks(input, |at, h, records| -> Result<(), DataError> {
        check_variant(at, h, variant)?;
        out.extend(records);
        Ok(())
    })?;
    Ok(out)
}

/// Refuses the chunk at byte `at` with header `h` unless it holds `variant`'s positions.
pub fn check_variant(at: u64, h: &ChunkHeader, variant: Variant) -> Result<(), DataError> {
    if h.variant != variant {
        return Err(DataError::Variant {
            offset: at,
            found: format!("{} data where {} was expected", h.variant, variant),
        });
    }
    Ok(())
}

/// Where the valid chunks of a file end, and the headers of those chunks.
#[derive(Clone, Debug, Default)]
pub struct Scan {
    /// Bytes of the valid chunks (a resumed writer truncates the file here).
    pub valid_bytes: u64,
    /// Their headers, in order.
    pub chunks: Vec<ChunkHeader>,
    /// Why the scan stopped before the end, if it did (a cut-off last chunk, typically).
    pub stopped: Option<String>,
}

/// Scans `bytes` for its valid chunks (for resuming a run that was interrupted).
pub fn scan(bytes: &[u8]) -> Scan {
    let mut s = Scan::default();
    let r = for_each_chunk(bytes, |at, h, _| {
        s.valid_bytes = at.end;
        s.chunks.push(*h);
        Ok(())
    });
    if let Err(e) = r {
        s.stopped = Some(e.to_string());
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(records: u32) -> ChunkHeader {
        ChunkHeader {
            variant: Variant::International,
            shard: 1,
            shards: 4,
            seed: 7,
            nodes: 3000,
            table_end: 4,
            first_game: 10,
            games: 2,
            records,
        }
    }

    fn records() -> Vec<Record> {
        vec![
            Record {
                white: 0b1011,
                black: 0b1_0000_0000,
                kings: 0b1000,
                score: -37,
                result: 1,
                side: Color::Black,
                ply: 12,
            },
            Record {
                white: 1 << 40,
                black: 1 << 3,
                kings: 0,
                score: DECISIVE,
                result: 0,
                side: Color::White,
                ply: 300,
            },
        ]
    }

    #[test]
    fn chunks_round_trip_and_concatenate() {
        let mut file = Vec::new();
        write_chunk(&mut file, &header(2), &records()).unwrap();
        write_chunk(&mut file, &header(2), &records()[..1]).unwrap();
        let all = read_all(&file[..], Variant::International).unwrap();
        assert_eq!(all.len(), 3);
        assert_eq!(all[..2], records()[..]);
        let s = scan(&file);
        assert_eq!(s.valid_bytes, file.len() as u64);
        assert_eq!(s.chunks.len(), 2);
        assert_eq!(s.chunks[1].records, 1);
        assert!(s.stopped.is_none());
    }

    /// A reader that hands out its bytes one at a time.
    struct Trickle<'a>(&'a [u8]);

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let Some((&b, rest)) = self.0.split_first() else {
                return Ok(0);
            };
            match buf.first_mut() {
                Some(x) => *x = b,
                None => return Ok(0),
            }
            self.0 = rest;
            Ok(1)
        }
    }

    #[test]
    fn chunks_stream_from_a_reader_in_pieces() {
        let mut file = Vec::new();
        write_chunk(&mut file, &header(2), &records()).unwrap();
        let second = file.len() as u64;
        write_chunk(&mut file, &header(1), &records()[1..]).unwrap();
        let mut seen = Vec::new();
        read_chunks(Trickle(&file), |at, h, r| -> Result<(), DataError> {
            seen.push((at, h.records, r));
            Ok(())
        })
        .unwrap();
        assert_eq!(
            seen,
            vec![(0, 2, records()), (second, 1, records()[1..].to_vec())]
        );
        let e = read_all(Trickle(&file[..file.len() - 1]), Variant::International).unwrap_err();
        assert!(
            matches!(e, DataError::Truncated { offset } if offset == second),
            "{e}"
        );
    }

    #[test]
    fn bad_data_is_refused_with_its_place() {
        let mut file = Vec::new();
        write_chunk(&mut file, &header(2), &records()).unwrap();
        let good = file.len();
        write_chunk(&mut file, &header(2), &records()).unwrap();
        // Cut inside the second chunk: the first stays readable, the error names the second.
        let cut = &file[..file.len() - 5];
        let e = read_all(cut, Variant::International).unwrap_err();
        assert!(
            matches!(e, DataError::Truncated { offset } if offset == good as u64),
            "{e}"
        );
        assert_eq!(scan(cut).valid_bytes, good as u64);
        // Another variant.
        let e = read_all(&file[..], Variant::Russian).unwrap_err();
        assert!(e.to_string().contains("international data"), "{e}");
        // A flipped byte in a record.
        let mut bad = file.clone();
        bad[HEADER_BYTES + 3] ^= 1;
        assert!(matches!(
            read_all(&bad[..], Variant::International),
            Err(DataError::Checksum { offset: 0 })
        ));
        // Foreign bytes, a future version, an empty file.
        assert!(matches!(
            read_all(&b"[Event \"x\"]"[..], Variant::International),
            Err(DataError::NotData { offset: 0 })
        ));
        let mut v2 = file.clone();
        v2[8] = 2;
        assert!(matches!(
            read_all(&v2[..], Variant::International),
            Err(DataError::Version { version: 2, .. })
        ));
        assert!(
            read_all(&[][..], Variant::International)
                .unwrap()
                .is_empty()
        );
        // A header that claims more records than the data holds: truncated (the body is read
        // as it comes, nothing of the claimed size is allocated).
        let mut lying = file[..good].to_vec();
        lying[44..48].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(
            read_all(&lying[..], Variant::International),
            Err(DataError::Truncated { offset: 0 })
        ));
        // A cut inside the header of the second chunk.
        assert!(matches!(
            read_all(&file[..good + 20], Variant::International),
            Err(DataError::Truncated { offset }) if offset == good as u64
        ));
        // A record that is no position, with a valid checksum.
        let mut r = records();
        r[0].black |= r[0].white;
        let mut overlap = Vec::new();
        write_chunk(&mut overlap, &header(2), &r).unwrap();
        assert!(matches!(
            read_all(&overlap[..], Variant::International),
            Err(DataError::BadRecord { index: 0, .. })
        ));
    }
}
