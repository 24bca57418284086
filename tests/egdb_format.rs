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

#[test]
fn truncated_foreign_and_damaged_files_are_refused() {
    let d = dir("bad");
    let path = d.join("t.egdb");
    let h = header(Kind::Wdl, 50_000);
    write(&path, &h);
    let good = std::fs::read(&path).unwrap();
    let open = |bytes: &[u8]| Table::from_bytes(&path, bytes.to_vec());

    // Truncated anywhere: in the header, in the payload, one byte short.
    for cut in [0, 5, 12, 100, HEADER_LEN, HEADER_LEN + 10, good.len() - 1] {
        match open(&good[..cut]) {
            Err(EgdbError::Truncated { .. }) => {}
            other => panic!("cut at {cut}: {other:?}"),
        }
    }
    // Bytes past the end.
    let mut long = good.clone();
    long.push(0);
    assert!(matches!(open(&long), Err(EgdbError::Corrupt { .. })));
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
    // A damaged header field, a damaged payload byte.
    let mut hd = good.clone();
    hd[80] ^= 1;
    assert!(matches!(
        open(&hd),
        Err(EgdbError::Checksum { part: "header", .. })
    ));
    for at in [HEADER_LEN + 3, good.len() / 2, good.len() - 1] {
        let mut p = good.clone();
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
