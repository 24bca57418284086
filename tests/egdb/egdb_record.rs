//! The record of checked table files (`.checked` beside the tables): an engine opening the same
//! unchanged files again does not read them for their checksum, a file written since is checked
//! again, a file written just before its check is not recorded, and a record that is garbage is
//! no record.

use crate::egdb_common::*;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use tiao::draughts::rules::English;
use tiao::egdb::EgdbError;
use tiao::egdb::checked::{CheckRecord, Identity, RECORD_FILE, SETTLE};
use tiao::egdb::draughts::{open_tables_deferring, open_tables_recorded};

/// The payload checksum a table file's header names.
fn header_sum(path: &Path) -> u64 {
    let b = fs::read(path).unwrap();
    u64::from_le_bytes(b[112..120].try_into().unwrap())
}

/// Flips the last byte of a file in place (a damaged payload under a sound header).
fn damage(path: &Path) {
    let mut bytes = fs::read(path).unwrap();
    *bytes.last_mut().unwrap() ^= 0xff;
    fs::OpenOptions::new()
        .write(true)
        .open(path)
        .unwrap()
        .write_all(&bytes)
        .unwrap();
}

/// Waits until files written before are settled (see `tiao::egdb::checked`).
fn settle() {
    std::thread::sleep(SETTLE + std::time::Duration::from_millis(200));
}

/// English tables up to 3 pieces in a directory of their own, settled; the directory and its
/// `english` subdirectory.
fn settled_tables(name: &str) -> (PathBuf, PathBuf) {
    let dir = temp_dir(name);
    build_all::<English>(&dir, 3);
    settle();
    let en = dir.join("english");
    (dir, en)
}

/// The table files in `dir`.
fn table_files(dir: &Path) -> usize {
    fs::read_dir(dir)
        .unwrap()
        .filter(|e| {
            let n = e.as_ref().unwrap().file_name();
            let n = n.to_str().unwrap();
            n.ends_with(".wdl") || n.ends_with(".dtc")
        })
        .count()
}

fn refused(problems: &[EgdbError], name: &str) -> bool {
    problems
        .iter()
        .any(|p| matches!(p, EgdbError::Checksum { path, .. } if path.ends_with(name)))
}

#[test]
fn settled_files_are_recorded_and_not_read_again() {
    let dir = temp_dir("record");
    build_all::<English>(&dir, 3);
    let en = dir.join("english");
    let files = table_files(&en);
    // Just written: opened and checked, but not recorded (they may change within the file
    // system's time resolution of their check).
    let (_, problems) = open_tables_recorded::<English>(&dir, u64::MAX, true);
    assert!(problems.is_empty(), "{problems:?}");
    assert!(CheckRecord::load(&en).is_empty());
    // Settled: every file recorded but the one damaged (and its distances, not opened
    // without it).
    let kkvk = en.join("KKvK.wdl");
    damage(&kkvk);
    settle();
    let (t, problems) = open_tables_recorded::<English>(&dir, u64::MAX, true);
    assert!(
        refused(&problems, "KKvK.wdl") && problems.len() == 1,
        "{problems:?}"
    );
    assert_eq!(CheckRecord::load(&en).len(), files - 2);
    let good = pos::<English>("W:WK18:BK12");
    let known = t.lookup(&good);
    assert!(known.is_some());

    // A recorded file is not read for its checksum: a record claiming the damaged file under
    // its present identity gets it accepted (what the record is trusted for), where an open
    // without the record refuses it.
    let record = CheckRecord::load(&en);
    let id = Identity::of(&fs::File::open(&kkvk).unwrap(), header_sum(&kkvk)).unwrap();
    record.add(&kkvk, id);
    record.save();
    let (_, problems) = open_tables_recorded::<English>(&dir, u64::MAX, true);
    assert!(problems.is_empty(), "{problems:?}");
    let (_, problems) = open_tables_deferring::<English>(&dir, u64::MAX);
    assert!(refused(&problems, "KKvK.wdl"), "{problems:?}");

    // Written again, even with the same bytes and its modification time set back, the file is
    // another identity (its status-change time moved): checked again, and refused.
    let mtime = fs::metadata(&kkvk).unwrap().modified().unwrap();
    let bytes = fs::read(&kkvk).unwrap();
    let mut f = fs::OpenOptions::new().write(true).open(&kkvk).unwrap();
    f.write_all(&bytes).unwrap();
    f.set_modified(mtime).unwrap();
    drop(f);
    let (t, problems) = open_tables_recorded::<English>(&dir, u64::MAX, true);
    assert!(refused(&problems, "KKvK.wdl"), "{problems:?}");
    // The others still answer, as before.
    assert_eq!(t.lookup(&good), known);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn checks_left_for_later_are_recorded_too() {
    let (dir, en) = settled_tables("record-later");
    // Every check left for later: nothing answers until it has run, and its passes are saved.
    let (t, problems) = open_tables_recorded::<English>(&dir, 0, true);
    assert!(problems.is_empty(), "{problems:?}");
    assert!(t.files().iter().all(|f| f.payload_pending()));
    assert!(CheckRecord::load(&en).is_empty());
    assert!(t.check_pending().is_empty());
    assert_eq!(CheckRecord::load(&en).len(), t.files().len());
    // Opened again: every file answers at once.
    let (t, problems) = open_tables_recorded::<English>(&dir, 0, true);
    assert!(problems.is_empty(), "{problems:?}");
    assert!(t.files().iter().all(|f| !f.payload_pending()));
    assert!(t.lookup(&pos::<English>("W:WK18:BK12")).is_some());
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_garbage_record_is_no_record() {
    let (dir, en) = settled_tables("record-garbage");
    let kkvk = en.join("KKvK.wdl");
    damage(&kkvk);
    let record = en.join(RECORD_FILE);
    // Garbage bytes; a foreign first line before lines that would parse; lines cut short.
    let id = Identity::of(&fs::File::open(&kkvk).unwrap(), header_sum(&kkvk)).unwrap();
    let good = CheckRecord::load(&en);
    good.add(&kkvk, id);
    good.save();
    let line = fs::read_to_string(&record).unwrap();
    let line = line.lines().nth(1).unwrap().to_string();
    let cut = &line[..line.len() / 2];
    for bad in [
        vec![0xff, 0x00, 0x13, 0x37, b'\n', b'\t'],
        format!("another format\n{line}\n").into_bytes(),
        format!("tiao-egdb-checked 1\n{cut}\n\t\t\n../KKvK.wdl\t1\t2\t3\t4\t5\t6\n").into_bytes(),
    ] {
        fs::write(&record, &bad).unwrap();
        let (_, problems) = open_tables_recorded::<English>(&dir, u64::MAX, true);
        assert!(refused(&problems, "KKvK.wdl"), "{problems:?}");
    }
    // A directory where the record goes: no record, the tables open.
    fs::remove_file(&record).unwrap();
    fs::create_dir(&record).unwrap();
    let (_, problems) = open_tables_recorded::<English>(&dir, u64::MAX, true);
    assert!(refused(&problems, "KKvK.wdl"), "{problems:?}");
    assert_eq!(problems.len(), 1, "{problems:?}");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_resumed_build_records_what_it_skips_and_rebuilds_what_changed() {
    use tiao::egdb::draughts::DraughtsBuilder;
    use tiao::egdb::driver;
    let (dir, en) = settled_tables("record-build");
    let b = DraughtsBuilder::<English>::new(&dir, 3, true);
    // The units a build run builds (not skips).
    let rebuilt = || {
        let mut names = Vec::new();
        driver::build(&b, false, &mut |r| {
            if !r.skipped {
                names.push(r.name.clone())
            }
        })
        .unwrap();
        names
    };
    assert_eq!(rebuilt(), Vec::<String>::new());
    let files = table_files(&en);
    assert_eq!(CheckRecord::load(&en).len(), files);
    // Damaged in place: another identity, checked, found damaged and built again.
    damage(&en.join("KKvK.wdl"));
    let again = rebuilt();
    assert!(again.len() == 1 && again[0].contains("KKvK"), "{again:?}");
    let (_, problems) = open_tables_deferring::<English>(&dir, u64::MAX);
    assert!(problems.is_empty(), "{problems:?}");
    let _ = fs::remove_dir_all(&dir);
}
