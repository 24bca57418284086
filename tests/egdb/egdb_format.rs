//! The table container (`src/egdb/file.rs`): a table reads back what was written, and a
//! truncated, foreign, other-version or damaged file is refused with an error naming the problem.

use std::path::{Path, PathBuf};
use tiao::egdb::file::{FLAG_UNSTORED_UNSPECIFIED, HEADER_LEN, tmp_path};
use tiao::egdb::{EgdbError, GameTag, Header, Kind, NOT_STORED, Table, TableWriter, Wdl};

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tiao-egdb-format-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn header(kind: Kind, positions: u64) -> Header {
    Header {
        game: GameTag::Draughts,
        variant: "russian".into(),
        kind,
        slice: "KKvK".into(),
        slice_id: 42,
        positions,
        flags: FLAG_UNSTORED_UNSPECIFIED,
    }
}

/// A value pattern with long runs, noise and unstored holes.
fn wdl(i: u64) -> u8 {
    if i % 7 == 3 {
        NOT_STORED
    } else if (i / 3000).is_multiple_of(2) {
        Wdl::Draw.code()
    } else {
        [Wdl::Win, Wdl::Loss, Wdl::Draw][(i * 2654435761 % 3) as usize].code()
    }
}

fn write(path: &Path, h: &Header) -> u64 {
    TableWriter::new(h.clone()).write(path, wdl).unwrap()
}

/// Writes a table of `n` positions to `path`: [`wdl`]'s codes (with holes) or, for distances,
/// a pattern of runs stored whole.
fn write_kind(path: &Path, kind: Kind, n: u64) {
    let w = match kind {
        Kind::Wdl => TableWriter::new(header(kind, n)),
        Kind::Distance => TableWriter::new(Header {
            flags: 0,
            ..header(kind, n)
        }),
    };
    match kind {
        Kind::Wdl => w.write(path, wdl),
        Kind::Distance => w.write(path, |i| (i / 40 % 256) as u8),
    }
    .unwrap();
}

#[test]
fn round_trip() {
    let d = dir("round");
    for n in [1u64, 1023, 1024, 1025, 100_000] {
        let path = d.join(format!("t{n}.egdb"));
        let h = header(Kind::Wdl, n);
        let len = write(&path, &h);
        assert!(!tmp_path(&path).exists());
        let t = Table::open(&path).unwrap();
        assert_eq!(t.header(), &h);
        assert_eq!(t.file_len(), len);
        t.expect(&h).unwrap();
        let all = t.decode_all().unwrap();
        assert_eq!(all.len() as u64, n);
        for i in 0..n {
            if wdl(i) != NOT_STORED {
                assert_eq!(t.get(i).unwrap(), wdl(i), "position {i} of {n}");
                assert_eq!(all[i as usize], wdl(i));
            }
        }
        assert!(t.get(n).is_err());
    }
    // Distances, stored whole (no unstored flag).
    let path = d.join("dist.egdb");
    let h = Header {
        flags: 0,
        ..header(Kind::Distance, 5000)
    };
    let dist = |i: u64| (i / 40 % 256) as u8;
    TableWriter::new(h.clone()).write(&path, dist).unwrap();
    let t = Table::open(&path).unwrap();
    for i in 0..5000 {
        assert_eq!(t.get(i).unwrap(), dist(i));
    }
    let _ = std::fs::remove_dir_all(d);
}

/// A table decoded block by block (what a build does to load a slice) reads what `get` reads
/// at every position, the last, shorter block included; a block past the end is refused.
#[test]
fn blocks_decode_as_positions_read() {
    let d = dir("blocks");
    for (kind, n) in [(Kind::Wdl, 100_000u64), (Kind::Distance, 5_001)] {
        let path = d.join(format!("{kind:?}.egdb"));
        write_kind(&path, kind, n);
        let t = Table::open(&path).unwrap();
        assert_eq!(t.blocks(), n.div_ceil(t.block_len()));
        let mut all = Vec::new();
        for b in 0..t.blocks() {
            let before = all.len() as u64;
            t.decode_block(b, &mut all).unwrap();
            assert_eq!(
                before,
                b * t.block_len(),
                "block {b} starts where it should"
            );
        }
        assert_eq!(all.len() as u64, n);
        for (i, &s) in all.iter().enumerate() {
            assert_eq!(s, t.get(i as u64).unwrap(), "{kind:?} position {i}");
        }
        assert_eq!(all, t.decode_all().unwrap());
        assert!(t.decode_block(t.blocks(), &mut all).is_err());
    }
    let _ = std::fs::remove_dir_all(d);
}

#[test]
fn compact() {
    // Mostly draws with holes: far below 2 bits a position.
    let h = header(Kind::Wdl, 1_000_000);
    let bytes = TableWriter::new(h).bytes(|i| {
        if i % 5 == 0 {
            NOT_STORED
        } else if i % 100_000 < 90_000 {
            Wdl::Draw.code()
        } else {
            Wdl::Win.code()
        }
    });
    assert!(bytes.len() < 1_000_000 / 4 / 10, "{} bytes", bytes.len());
}

/// The refusals of a table's length and payload, through `open` (the bytes given whole, or
/// written to a file and opened): truncated anywhere (empty, in the header, in the payload, one
/// byte short), one byte longer than its header says, a damaged payload byte.
fn refuses_length_and_payload(good: &[u8], open: impl Fn(&[u8]) -> Result<Table, EgdbError>) {
    for cut in [0, 5, 12, 100, HEADER_LEN, HEADER_LEN + 10, good.len() - 1] {
        match open(&good[..cut]) {
            Err(EgdbError::Truncated { found, .. }) => assert_eq!(found, cut as u64),
            other => panic!("cut at {cut}: {other:?}"),
        }
    }
    let mut long = good.to_vec();
    long.push(0);
    match open(&long) {
        Err(e @ EgdbError::Corrupt { .. }) => {
            assert!(e.to_string().contains("1 bytes past the end"), "{e}")
        }
        other => panic!("one byte long: {other:?}"),
    }
    for at in [HEADER_LEN + 3, good.len() / 2, good.len() - 1] {
        let mut p = good.to_vec();
        p[at] ^= 0x40;
        assert!(
            matches!(
                open(&p),
                Err(EgdbError::Checksum {
                    part: "payload",
                    ..
                })
            ),
            "byte {at}"
        );
    }
}

#[test]
fn truncated_foreign_and_damaged_files_are_refused() {
    let d = dir("bad");
    let path = d.join("t.egdb");
    let h = header(Kind::Wdl, 50_000);
    write(&path, &h);
    let good = std::fs::read(&path).unwrap();
    let open = |bytes: &[u8]| Table::from_bytes(&path, bytes.to_vec());

    // Truncated, too long, a damaged payload byte.
    refuses_length_and_payload(&good, open);
    // Not a table.
    let mut text = b"W:W31-50:B1-20\n".to_vec();
    text.resize(300, b' ');
    assert!(matches!(open(&text), Err(EgdbError::NotATable { .. })));
    // Another version.
    let mut v9 = good.clone();
    v9[8] = 9;
    match open(&v9) {
        Err(e @ EgdbError::Version { found: 9, .. }) => {
            assert!(e.to_string().contains("version 9"), "{e}")
        }
        other => panic!("{other:?}"),
    }
    // A damaged header field.
    let mut hd = good.clone();
    hd[80] ^= 1;
    assert!(matches!(
        open(&hd),
        Err(EgdbError::Checksum { part: "header", .. })
    ));
    // Another variant, kind or slice than asked for.
    let t = open(&good).unwrap();
    for want in [
        Header {
            variant: "english".into(),
            ..h.clone()
        },
        Header {
            game: GameTag::Morris,
            ..h.clone()
        },
        Header {
            kind: Kind::Distance,
            ..h.clone()
        },
        Header {
            slice: "KvK".into(),
            ..h.clone()
        },
        Header {
            positions: 1,
            ..h.clone()
        },
    ] {
        let e = t.expect(&want).unwrap_err();
        assert!(matches!(e, EgdbError::Foreign { .. }), "{e:?}");
        assert!(e.to_string().contains("t.egdb"), "{e}");
    }
    // Missing file: an I/O error naming it.
    let e = Table::open(&d.join("missing.egdb")).unwrap_err();
    assert!(matches!(e, EgdbError::Io { .. }) && e.to_string().contains("missing.egdb"));
    let _ = std::fs::remove_dir_all(d);
}

/// A table of 5,000 positions written in a directory of its own: (directory, file, bytes).
fn small_table(name: &str) -> (PathBuf, PathBuf, Vec<u8>) {
    let d = dir(name);
    let path = d.join("t.egdb");
    write(&path, &header(Kind::Wdl, 5_000));
    let good = std::fs::read(&path).unwrap();
    (d, path, good)
}

/// Remakes header `h`'s two checksums for `payload`, as a crafted file would have them.
fn seal(h: &mut [u8], payload: &[u8]) {
    use tiao::egdb::file::checksum;
    let sum = checksum(payload);
    h[112..120].copy_from_slice(&sum.to_le_bytes());
    let sum = checksum(&h[..120]);
    h[120..128].copy_from_slice(&sum.to_le_bytes());
}

/// A header whose checksums agree with it but whose counts are absurd (a crafted file: the
/// checksums are not a signature) is refused by its numbers, not trusted: no overflow, no
/// out-of-bounds read, no allocation of what it claims.
#[test]
fn crafted_headers_are_refused_not_trusted() {
    let (d, path, good) = small_table("crafted");
    let mut h = good[..HEADER_LEN].to_vec();
    let payload = vec![0u8; 16];
    let set = |h: &mut Vec<u8>, at: usize, v: u64| h[at..at + 8].copy_from_slice(&v.to_le_bytes());
    // 2^64 - 1 positions in blocks of 1024: a block index of 2^57 entries in 16 bytes.
    set(&mut h, 80, u64::MAX);
    set(&mut h, 96, u64::MAX.div_ceil(1024));
    set(&mut h, 104, payload.len() as u64);
    seal(&mut h, &payload);
    let mut bytes = h.clone();
    bytes.extend_from_slice(&payload);
    let e = Table::from_bytes(&path, bytes.clone()).unwrap_err();
    assert!(matches!(e, EgdbError::Corrupt { .. }), "{e:?}");
    std::fs::write(&path, &bytes).unwrap();
    assert!(matches!(Table::open(&path), Err(EgdbError::Corrupt { .. })));
    // Blocks of 8 positions (not this kind's size), so that the count of blocks is 2^61.
    let mut h8 = h.clone();
    h8[88..92].copy_from_slice(&8u32.to_le_bytes());
    set(&mut h8, 96, u64::MAX.div_ceil(8));
    seal(&mut h8, &payload);
    let mut bytes = h8;
    bytes.extend_from_slice(&payload);
    let e = Table::from_bytes(&path, bytes).unwrap_err();
    assert!(e.to_string().contains("blocks of 8 positions"), "{e}");
    // A header that claims a payload of 2^60 bytes: refused as truncated when opened, before
    // anything past the header is read.
    let mut big = good[..HEADER_LEN].to_vec();
    set(&mut big, 104, 1 << 60);
    seal(&mut big, &[]);
    big.extend_from_slice(&good[HEADER_LEN..]);
    std::fs::write(&path, &big).unwrap();
    match Table::open(&path) {
        Err(EgdbError::Truncated { expected, .. }) => {
            assert_eq!(expected, HEADER_LEN as u64 + (1 << 60))
        }
        other => panic!("{other:?}"),
    }
    // A file longer than its header says: refused when opened.
    let mut long = good.clone();
    long.extend_from_slice(&[0; 1000]);
    std::fs::write(&path, &long).unwrap();
    let e = Table::open(&path).unwrap_err();
    assert!(e.to_string().contains("1000 bytes past the end"), "{e}");
    // The good file still opens.
    std::fs::write(&path, &good).unwrap();
    assert!(Table::open(&path).is_ok());
    let _ = std::fs::remove_dir_all(d);
}

/// Block offsets out of order under sound checksums (a crafted or miswritten file): the index's
/// ends are refused at open, an offset between them when its block is read (an error, never a
/// panic or a value read from another block's bytes), the other blocks still answering.
#[test]
fn crafted_block_offsets_are_errors_not_reads() {
    let (d, path, good) = small_table("offsets");
    let blocks = 5_000u64.div_ceil(1024) as usize;
    let with_offset = |b: usize, v: u64| {
        let mut bytes = good.clone();
        let at = HEADER_LEN + 8 * b;
        bytes[at..at + 8].copy_from_slice(&v.to_le_bytes());
        let (h, payload) = bytes.split_at_mut(HEADER_LEN);
        seal(h, payload);
        bytes
    };
    let offset = |b: usize| {
        let at = HEADER_LEN + 8 * b;
        u64::from_le_bytes(good[at..at + 8].try_into().unwrap())
    };
    // The first offset not 0, the last not the data's end: refused at open.
    for (b, v) in [(0, 1), (blocks, offset(blocks) - 1)] {
        let e = Table::from_bytes(&path, with_offset(b, v)).unwrap_err();
        assert!(matches!(e, EgdbError::Corrupt { .. }), "{e:?}");
    }
    // Block 3's start past its end (block 3 does not read), and past the whole data (blocks 2
    // and 3 do not).
    for (v, bad) in [(offset(4) + 1, &[3u64][..]), (u64::MAX, &[2, 3][..])] {
        let bytes = with_offset(3, v);
        std::fs::write(&path, &bytes).unwrap();
        for t in [
            Table::from_bytes(&path, bytes).unwrap(),
            Table::open(&path).unwrap(),
        ] {
            for i in bad.iter().map(|b| b * 1024 + 5) {
                let e = t.get(i).unwrap_err();
                assert!(e.to_string().contains("out of order"), "{e}");
                assert_eq!(t.symbol(i), None);
            }
            let mut out = Vec::new();
            assert!(t.decode_block(3, &mut out).is_err());
            for i in [5, 1024 + 5, 4 * 1024 + 5] {
                let v = t.get(i).unwrap();
                assert!(wdl(i) == NOT_STORED || v == wdl(i), "{i}");
            }
        }
    }
    let _ = std::fs::remove_dir_all(d);
}

/// A table opened from its file (mapped) reads what the same bytes read when given whole, and
/// the file's refusals hold when opened: truncated anywhere (empty and shorter than the header
/// included), longer than its header says, a damaged payload byte.
#[test]
fn mapped_file_reads_as_its_bytes_and_is_refused_alike() {
    let d = dir("mapped");
    let path = d.join("t.egdb");
    for (kind, n) in [(Kind::Wdl, 100_000u64), (Kind::Distance, 5_001)] {
        write_kind(&path, kind, n);
        let bytes = std::fs::read(&path).unwrap();
        let mapped = Table::open(&path).unwrap();
        let owned = Table::from_bytes(&path, bytes.clone()).unwrap();
        assert_eq!(mapped.header(), owned.header());
        assert_eq!(mapped.file_len(), bytes.len() as u64);
        assert_eq!(mapped.decode_all().unwrap(), owned.decode_all().unwrap());
        for i in (0..n).step_by(97).chain([n - 1]) {
            assert_eq!(
                mapped.get(i).unwrap(),
                owned.get(i).unwrap(),
                "{kind:?} {i}"
            );
        }
        assert!(mapped.get(n).is_err());
    }
    let good = std::fs::read(&path).unwrap();
    let open = |bytes: &[u8]| {
        std::fs::write(&path, bytes).unwrap();
        Table::open(&path)
    };
    refuses_length_and_payload(&good, open);
    assert!(open(&good).is_ok());
    let _ = std::fs::remove_dir_all(d);
}
