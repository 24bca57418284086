//! The verify pass and the resumable build: tables built in the test run agree with the values
//! of their successors (and their distances with their successors' distances); a table whose
//! values were changed, even with its checksums remade, fails verification, naming the slice;
//! a build run again skips what is built, and rebuilds only what is missing; `tiao egdb verify`
//! without `--pieces` verifies every table found in the directory, and one without tables of
//! the variant is an error naming it.

use crate::egdb_common::*;
use std::fs;
use tiao::draughts::rules::{Duoyibu, English, Rules};
use tiao::egdb::draughts::index::Material;
use tiao::egdb::draughts::{DraughtsBuilder, distance_path, wdl_path};
use tiao::egdb::driver;
use tiao::egdb::{Kind, Table, TableWriter, Wdl};

fn verify<R: Rules>(b: &DraughtsBuilder<R>) -> driver::Verified {
    driver::verify(b, false, &mut |_, _| {}).unwrap()
}

#[test]
fn built_tables_pass_the_verify_pass() {
    let dir = temp_dir("verify-ok");
    let b = build_all::<English>(&dir, 4);
    let v = verify(&b);
    assert_eq!(v.errors, 0, "{:?}", v.examples);
    assert!(v.checked > 6_000_000, "{v:?}");
    // Duoyibu's king rule (a king may not step toward a facing king) is in its tables too.
    let dir = temp_dir("verify-duoyibu");
    let b = build_all::<Duoyibu>(&dir, 3);
    assert_eq!(verify(&b).errors, 0);
}

/// Rewrites a table with the symbol of position `changed` replaced by `to` (checksums remade).
fn tamper(path: &std::path::Path, changed: u64, to: u8) {
    let t = Table::open(path).unwrap();
    let all = t.decode_all().unwrap();
    TableWriter::new(t.header().clone())
        .write(path, |i| if i == changed { to } else { all[i as usize] })
        .unwrap();
}

#[test]
fn a_changed_value_fails_verification() {
    let dir = temp_dir("verify-bad");
    let b = build_all::<English>(&dir, 3);
    let m = Material::parse("KKvK").unwrap();
    let path = wdl_path::<English>(&dir, m);
    // A won position turned into a draw.
    let t = Table::open(&path).unwrap();
    let all = t.decode_all().unwrap();
    let won = all.iter().position(|&c| c == Wdl::Win.code()).unwrap() as u64;
    tamper(&path, won, Wdl::Draw.code());
    let v = verify(&b);
    assert!(v.errors >= 1, "{v:?}");
    assert!(
        v.examples.iter().any(|e| e.contains("KKvK")),
        "{:?}",
        v.examples
    );
    // A build skips a whole file (it checks checksums, not values): removed, it is rebuilt.
    fs::remove_file(&path).unwrap();
    let b = build_all::<English>(&dir, 3);
    assert_eq!(verify(&b).errors, 0);
    // A distance changed (the value right, the distance too long).
    let dpath = distance_path::<English>(&dir, m);
    let all = Table::open(&dpath).unwrap().decode_all().unwrap();
    let codes = Table::open(&path).unwrap().decode_all().unwrap();
    let i = (0..all.len())
        .find(|&i| codes[i] == Wdl::Win.code() && all[i] > 3)
        .unwrap();
    tamper(&dpath, i as u64, all[i] + 2);
    let v = verify(&b);
    assert!(v.errors >= 1, "{v:?}");
    assert!(
        v.examples.iter().any(|e| e.contains("distance")),
        "{:?}",
        v.examples
    );
}

#[test]
fn a_verify_from_some_pieces_checks_only_those_units() {
    let dir = temp_dir("verify-from");
    let b = build_all::<English>(&dir, 3);
    let all = verify(&b);
    let mut names = Vec::new();
    let from = driver::verify_from(&b, 3, false, &mut |u, _| names.push(u.pieces)).unwrap();
    assert_eq!(from.errors, 0);
    assert!(
        0 < from.checked && from.checked < all.checked,
        "{from:?} {all:?}"
    );
    assert!(
        !names.is_empty() && names.iter().all(|&p| p == 3),
        "{names:?}"
    );
    // A changed 3-piece value is found from 3 pieces on.
    let path = wdl_path::<English>(&dir, Material::parse("KKvK").unwrap());
    let codes = Table::open(&path).unwrap().decode_all().unwrap();
    let won = codes.iter().position(|&c| c == Wdl::Win.code()).unwrap() as u64;
    tamper(&path, won, Wdl::Draw.code());
    let v = driver::verify_from(&b, 3, false, &mut |_, _| {}).unwrap();
    assert!(v.errors >= 1, "{v:?}");
    // The command line: --from-pieces is verify's, and not above --pieces.
    let tiao = env!("CARGO_BIN_EXE_tiao");
    let d = dir.to_str().unwrap();
    let run = |command: &str, from: &str| {
        let args = [
            "egdb", command, "-v", "english", "-p", "3", "--dir", d, "-q",
        ];
        let out = std::process::Command::new(tiao)
            .args(args)
            .args(["--from-pieces", from])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(
            !out.status.success(),
            "{command} --from-pieces {from}: {err}"
        );
        err
    };
    let err = run("build", "3");
    assert!(err.contains("--from-pieces: only for verify"), "{err}");
    let err = run("verify", "4");
    assert!(err.contains("more than --pieces 3"), "{err}");
    let err = run("verify", "3");
    assert!(err.contains("disagree"), "{err}");
}

#[test]
fn a_build_resumes_where_it_stopped() {
    let dir = temp_dir("resume");
    let b = DraughtsBuilder::<English>::new(&dir, 3, true);
    let first = driver::build(&b, false, &mut |_| {}).unwrap();
    assert!(first.iter().all(|r| !r.skipped));
    // Everything built: everything skipped.
    let again = driver::build(&b, false, &mut |_| {}).unwrap();
    assert!(again.iter().all(|r| r.skipped));
    // An interrupted build: one table missing, another cut short, a partial file left.
    let kvkk = wdl_path::<English>(&dir, Material::parse("KvKK").unwrap());
    fs::remove_file(&kvkk).unwrap();
    let mvm = wdl_path::<English>(&dir, Material::parse("MvM").unwrap());
    let bytes = fs::read(&mvm).unwrap();
    fs::write(&mvm, &bytes[..bytes.len() - 1]).unwrap();
    fs::write(tiao::egdb::file::tmp_path(&kvkk), b"partial").unwrap();
    let third = driver::build(&b, false, &mut |_| {}).unwrap();
    let rebuilt: Vec<&str> = third
        .iter()
        .filter(|r| !r.skipped)
        .map(|r| r.name.as_str())
        .collect();
    assert_eq!(rebuilt, ["MvM", "KvKK + KKvK"]);
    assert!(!tiao::egdb::file::tmp_path(&kvkk).exists());
    assert_eq!(verify(&b).errors, 0);
    // A table read back: every stored code is a value, capture positions aside.
    let t = Table::open(&kvkk).unwrap();
    assert_eq!(t.header().kind, Kind::Wdl);
    assert!(t.decode_all().unwrap().iter().all(|&c| c <= 3));
}

#[test]
fn a_second_build_in_the_same_directory_is_refused() {
    let dir = temp_dir("build-lock");
    let b = DraughtsBuilder::<English>::new(&dir, 3, true);
    let lock_path = dir.join("english").join(driver::LOCK_FILE);
    fs::create_dir_all(lock_path.parent().unwrap()).unwrap();
    // Another build (here: this test) holds the directory's lock.
    let held = fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .unwrap();
    held.try_lock().unwrap();
    let e = driver::build(&b, false, &mut |_| {}).unwrap_err();
    assert!(
        matches!(&e, tiao::egdb::EgdbError::Busy { path } if *path == lock_path),
        "{e}"
    );
    assert!(e.to_string().contains("another build"), "{e}");
    // Nothing was written while the lock was held.
    let written = fs::read_dir(lock_path.parent().unwrap())
        .unwrap()
        .flatten()
        .filter(|f| f.file_name() != driver::LOCK_FILE)
        .count();
    assert_eq!(written, 0);
    drop(held);
    // The lock released, the build runs, and releases the lock when it ends.
    let first = driver::build(&b, false, &mut |_| {}).unwrap();
    assert!(first.iter().all(|r| !r.skipped));
    let again = fs::OpenOptions::new().write(true).open(&lock_path).unwrap();
    again.try_lock().unwrap();
}

#[test]
fn the_shards_of_the_verify_pass_add_up_to_the_whole() {
    let dir = temp_dir("verify-shards");
    let b = build_all::<English>(&dir, 4);
    let by_shard = || -> Vec<driver::Verified> {
        (0..3)
            .map(|i| verify(&DraughtsBuilder::<English>::new(&dir, 4, true).verify_shard((i, 3))))
            .collect()
    };
    let whole = verify(&b);
    let shards = by_shard();
    assert!(
        shards.iter().all(|v| v.errors == 0 && v.checked > 0),
        "{shards:?}"
    );
    assert_eq!(shards.iter().map(|v| v.checked).sum::<u64>(), whole.checked);
    // A damaged position is found by the shard that holds its block (its predecessors may
    // disagree too, in any shard), and the shards find what the whole pass finds.
    let block = tiao::egdb::draughts::VERIFY_BLOCK;
    let m = Material::parse("KKvKK").unwrap();
    let path = wdl_path::<English>(&dir, m);
    let all = Table::open(&path).unwrap().decode_all().unwrap();
    let won = all
        .iter()
        .enumerate()
        .rposition(|(i, &c)| c == Wdl::Win.code() && i as u64 >= 2 * block)
        .unwrap() as u64;
    tamper(&path, won, Wdl::Draw.code());
    let whole = verify(&b);
    let shards = by_shard();
    assert!(shards[(won / block % 3) as usize].errors > 0, "{shards:?}");
    assert_eq!(shards.iter().map(|v| v.errors).sum::<u64>(), whole.errors);
    assert_eq!(shards.iter().map(|v| v.checked).sum::<u64>(), whole.checked);
}

/// Runs `tiao egdb verify` with `args`: stdout, stderr, success.
fn tiao_verify(args: &[&str]) -> (String, String, bool) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tiao"))
        .args(["egdb", "verify", "-q"])
        .args(args)
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.success(),
    )
}

#[test]
fn verify_without_pieces_checks_every_table_in_the_directory() {
    let dir = temp_dir("verify-found");
    build_all::<English>(&dir, 3);
    let d = dir.to_str().unwrap();
    // 2 pieces: 4 slices; 3 pieces: 12.
    let (out, err, ok) = tiao_verify(&["--variant", "english", "--dir", d]);
    assert!(ok, "{out}\n{err}");
    assert!(
        out.contains("found 16 english tables in") && out.contains("2 to 3 pieces"),
        "{out}"
    );
    assert!(out.contains("2 pieces: 4 tables: KvK MvK KvM MvM"), "{out}");
    assert!(out.contains("3 pieces: 12 tables"), "{out}");
    assert!(out.contains("of 16 tables agree"), "{out}");
    // The same as naming the pieces.
    let (named, _, ok) = tiao_verify(&["--variant", "english", "--dir", d, "--pieces", "3"]);
    let verified = |o: &str| {
        o.lines()
            .find(|l| l.starts_with("verified"))
            .map(str::to_string)
    };
    assert!(ok && verified(&named) == verified(&out), "{named}\n{out}");
    // --from-pieces narrows it.
    let (out, err, ok) = tiao_verify(&["--variant", "english", "--dir", d, "--from-pieces", "3"]);
    assert!(ok && out.contains("of 12 tables agree"), "{out}\n{err}");
    let (_, err, ok) = tiao_verify(&["--variant", "english", "--dir", d, "--from-pieces", "4"]);
    assert!(!ok && err.contains("at most 3 pieces"), "{err}");
    // A table changed: found, and the exit status says so.
    let path = wdl_path::<English>(&dir, Material::parse("KKvK").unwrap());
    let codes = Table::open(&path).unwrap().decode_all().unwrap();
    let won = codes.iter().position(|&c| c == Wdl::Win.code()).unwrap() as u64;
    tamper(&path, won, Wdl::Draw.code());
    let (_, err, ok) = tiao_verify(&["--variant", "english", "--dir", d]);
    assert!(!ok && err.contains("disagree"), "{err}");
    // A build still needs --pieces (or --slice).
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tiao"))
        .args(["egdb", "build", "--variant", "english", "--dir", d, "-q"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("--pieces"), "{err}");
}

#[test]
fn verify_without_tables_is_an_error_naming_the_directory_and_variant() {
    let dir = temp_dir("verify-empty");
    let d = dir.to_str().unwrap();
    for variant in ["english", "international", "morris"] {
        let (out, err, ok) = tiao_verify(&["--variant", variant, "--dir", d]);
        assert!(!ok, "{variant}: {out}");
        assert!(!err.contains("panicked"), "{err}");
        let sub = dir.join(variant);
        assert!(
            err.contains(&format!("no {variant} tables in {}", sub.display())),
            "{variant}: {err}"
        );
    }
    // English tables there, none of another variant.
    build_all::<English>(&dir, 2);
    let (_, err, ok) = tiao_verify(&["--variant", "russian", "--dir", d]);
    assert!(!ok && err.contains("no russian tables in"), "{err}");
    // No directory at all.
    let gone = dir.join("nowhere");
    let (_, err, ok) = tiao_verify(&["--variant", "english", "--dir", gone.to_str().unwrap()]);
    assert!(!ok, "{err}");
    assert!(
        err.contains(&gone.display().to_string()) && err.contains("english"),
        "{err}"
    );
}
