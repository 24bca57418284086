//! Bad table input never gives a wrong score: a truncated file (an interrupted copy), a partial
//! file of an interrupted build, a file of another variant, a directory that is not one. Each is
//! refused with an error naming the file, and the engine plays on without it; the Hub
//! `egdb-path` parameter reports what it opened and `info` lines count table hits.

use crate::egdb_common::*;
use std::fs;
use std::path::Path;
use std::sync::Arc;
use std::sync::mpsc;
use tiao::draughts::rules::{English, Russian};
use tiao::egdb::draughts::{open_tables, open_tables_deferring};
use tiao::egdb::{EgdbError, Kind};
use tiao::engine::{EgdbSetting, Engine, EngineError, EngineOptions, Event};
use tiao::game::Variant;
use tiao::search::{Limits, Score};
use tiao::variant::GameKind;

/// English and russian tables up to 3 pieces in a directory of their own.
fn tables(name: &str) -> std::path::PathBuf {
    let dir = temp_dir(name);
    build_all::<English>(&dir, 3);
    build_all::<Russian>(&dir, 3);
    dir
}

fn engine(variant: Variant, dir: &Path) -> Engine {
    Engine::new(
        GameKind::new(variant),
        EngineOptions {
            hash_mib: 4,
            egdb: EgdbSetting::Dir(dir.to_path_buf()),
            ..EngineOptions::default()
        },
    )
    .unwrap()
}

/// The best move and score of a depth-`depth` search of `fen`.
fn search(e: &mut Engine, fen: &str, depth: u32) -> (String, Score, Option<u64>) {
    e.set_position(Some(fen), &[]).unwrap();
    let (tx, rx) = mpsc::channel();
    let tx = std::sync::Mutex::new(tx);
    e.search_here(
        Limits::depth(depth),
        Arc::new(move |ev| {
            let _ = tx.lock().unwrap().send(ev);
        }),
    )
    .unwrap();
    let mut hits = None;
    loop {
        match rx.recv().unwrap() {
            Event::Info(i) => hits = i.tb_hits,
            Event::Done(d) => return (d.best.unwrap().hub, d.score, hits),
        }
    }
}

#[test]
fn damaged_and_foreign_files_are_refused_and_the_engine_plays_on() {
    let dir = tables("bad");
    let en = dir.join("english");
    // A truncated table, as an interrupted copy leaves it.
    let kkvk = en.join("KKvK.wdl");
    let bytes = fs::read(&kkvk).unwrap();
    fs::write(&kkvk, &bytes[..bytes.len() / 2]).unwrap();
    // The partial file of an interrupted build.
    fs::write(en.join("KvKK.wdl.tmp"), &bytes[..100]).unwrap();
    // A russian table under an english name.
    fs::copy(dir.join("russian").join("KvK.wdl"), en.join("MvK.wdl")).unwrap();

    let (t, problems) = open_tables::<English>(&dir);
    let text: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
    assert!(
        problems
            .iter()
            .any(|p| matches!(p, EgdbError::Truncated { path, .. } if path.ends_with("KKvK.wdl"))),
        "{text:?}"
    );
    assert!(
        problems.iter().any(
            |p| matches!(p, EgdbError::Foreign { path, what, .. } if path.ends_with("MvK.wdl") && *what == "variant")
        ),
        "{text:?}"
    );
    assert!(
        text.iter()
            .any(|t| t.contains("KvKK.wdl.tmp") && t.contains("interrupted")),
        "{text:?}"
    );
    // The good slices are open; the refused ones are not probed.
    assert!(t.lookup(&pos::<English>("W:WK18:BK12")).is_some());
    assert!(t.lookup(&pos::<English>("W:WK1,K2:BK30")).is_none());

    // The engine says what it refused, and plays on: a draw it knows, a win it must search.
    let mut e = engine(Variant::English, &dir);
    assert_eq!(e.tables().problems.len(), problems.len());
    let (_, score, hits) = search(&mut e, "W:WK18:BK12", 3);
    assert_eq!(score, Score(0));
    assert!(hits.unwrap() > 0);
    // Its own slice refused, the position is searched (its children's slice is whole).
    let (mv, _, _) = search(&mut e, "W:WK1,K2:BK30", 5);
    assert!(!mv.is_empty());
}

#[test]
fn a_payload_checked_after_the_open_answers_nothing_until_found_whole() {
    let dir = tables("deferred");
    let en = dir.join("english");
    // A damaged payload under a sound header: only the payload checksum can tell.
    let kkvk = en.join("KKvK.wdl");
    let mut bytes = fs::read(&kkvk).unwrap();
    *bytes.last_mut().unwrap() ^= 0xff;
    fs::write(&kkvk, &bytes).unwrap();
    let (damaged, good) = (
        pos::<English>("W:WK1,K2:BK30"),
        pos::<English>("W:WK18:BK12"),
    );

    // Checked at open (the default), it is refused at once.
    let (t, problems) = open_tables::<English>(&dir);
    assert!(
        problems.iter().any(
            |p| matches!(p, EgdbError::Checksum { path, part } if path.ends_with("KKvK.wdl") && *part == "payload")
        ),
        "{problems:?}"
    );
    assert!(t.lookup(&good).is_some() && t.lookup(&damaged).is_none());

    // Every check left for later: everything opens, and nothing answers yet.
    let (t, problems) = open_tables_deferring::<English>(&dir, 0);
    assert!(problems.is_empty(), "{problems:?}");
    assert!(t.lookup(&good).is_none() && t.lookup(&damaged).is_none());
    assert!(t.files().iter().all(|f| f.payload_pending()));
    let e = t.files()[0].get(0).unwrap_err();
    assert!(matches!(e, EgdbError::Unchecked { .. }), "{e}");
    // Checked: the whole ones answer, the damaged one is reported and never answers.
    let late = t.check_pending();
    assert_eq!(late.len(), 1, "{late:?}");
    assert!(
        matches!(&late[0], EgdbError::Checksum { path, .. } if path.ends_with("KKvK.wdl")),
        "{late:?}"
    );
    assert_eq!(
        t.lookup(&good),
        open_tables::<English>(&dir).0.lookup(&good)
    );
    assert!(t.lookup(&good).is_some() && t.lookup(&damaged).is_none());
    assert!(t.check_pending().is_empty());
}

#[test]
fn a_directory_that_is_not_one_is_an_error() {
    let missing = std::env::temp_dir().join("tiao-egdb-no-such-directory");
    let e = Engine::new(
        GameKind::new(Variant::English),
        EngineOptions {
            egdb: EgdbSetting::Dir(missing.clone()),
            ..EngineOptions::default()
        },
    );
    assert!(matches!(e, Err(EngineError::BadOption { .. })));
    let mut e = engine(Variant::English, &tables("missing"));
    let before = e.tables().clone();
    let err = e
        .set_option("egdb-path", missing.to_str().unwrap())
        .unwrap_err();
    assert!(err.to_string().contains("no such directory"), "{err}");
    assert_eq!(e.tables(), &before, "a failed setter changes nothing");
    e.set_option("egdb-path", "none").unwrap();
    assert_eq!(e.tables().slices, 0);
    // The built-in tables (the kings-only endings of the 8x8 boards) still answer...
    assert_eq!(
        (e.tables().builtin_slices, e.tables().builtin_pieces),
        (6, 4)
    );
    let (_, _, hits) = search(&mut e, "W:WK18:BK12", 3);
    assert!(
        hits.is_some_and(|h| h > 0),
        "built-in tables, hits reported"
    );
    // ...until they are turned off.
    e.set_option("builtin-tables", "false").unwrap();
    assert_eq!(
        (e.tables().builtin_slices, e.tables().builtin_pieces),
        (0, 0)
    );
    let (_, _, hits) = search(&mut e, "W:WK18:BK12", 3);
    assert_eq!(hits, None, "no tables, no table hits reported");
    assert!(e.set_option("builtin-tables", "maybe").is_err());
}

#[test]
fn the_variant_s_own_tables_are_used() {
    let dir = tables("variants");
    let mut e = engine(Variant::English, &dir);
    let english = e.tables().slices;
    assert!(english > 0);
    e.set_option("variant", "duoyibu").unwrap();
    assert_eq!(e.tables().slices, 0, "no duoyibu tables were built");
    e.set_option("variant", "russian").unwrap();
    assert!(e.tables().slices > 0);
    // Brazilian shares russian's kings-only play but not its tables.
    e.set_option("variant", "brazilian").unwrap();
    assert_eq!(e.tables().slices, 0);
}

#[test]
fn hub_reports_tables_and_hits() {
    let dir = tables("hub");
    let data = temp_dir("hub-data");
    let mut e = crate::hub_common::Engine::start_env(
        &["hub"],
        &[
            ("XDG_DATA_HOME", data.to_str().unwrap()),
            ("HOME", data.to_str().unwrap()),
        ],
    );
    e.send("hub");
    let (_, params) = e.until("wait", crate::hub_common::PATIENCE);
    assert!(
        params
            .iter()
            .any(|l| l.starts_with("param name=egdb-path") && l.contains("type=string")),
        "{params:?}"
    );
    e.send("set-param name=variant value=english");
    e.send(&format!("set-param name=egdb-path value={}", dir.display()));
    let answered = e.sync();
    assert!(
        answered
            .iter()
            .any(|l| l.starts_with("info message=") && l.contains("endgame tables: 16 slices")),
        "{answered:?}"
    );
    e.send("init");
    e.expect("ready");
    e.send("pos fen=W:WK1,K2:BK30");
    e.send("level depth=4");
    let (done, infos) = e.go("think");
    assert!(done.starts_with("done move="), "{done}");
    let last = infos.last().expect("info lines");
    let hits: u64 = crate::hub_common::value(last, "tbhits")
        .expect("tbhits=")
        .parse()
        .unwrap();
    assert!(hits > 0, "{last}");
    let score: f64 = crate::hub_common::value(last, "score")
        .unwrap()
        .parse()
        .unwrap();
    assert!(score > 90.0 && score < 99.0, "a table win: {last}");
    // A directory that is not one: an error, and the engine plays on.
    e.send("set-param name=egdb-path value=/no/such/dir");
    e.expect("error");
    let (done, _) = e.go("think");
    assert!(done.starts_with("done move="));
    e.quit();
}

/// A build stopped between a slice's two files never leaves its `.wdl` (by which readers find
/// a slice) without its distances: an engine that reads the directory while a build writes
/// into it would take such a slice without distances and not convert its wins.
#[test]
fn a_slice_appears_with_its_distances_or_not_at_all() {
    use tiao::egdb::draughts::DraughtsBuilder;
    use tiao::egdb::driver;
    let dir = temp_dir("write-order");
    let sub = dir.join("english");
    fs::create_dir_all(&sub).unwrap();
    // The second slice of the pair KvM + MvK cannot have its distances written: their `.tmp`
    // name is taken by a directory.
    fs::create_dir_all(sub.join("MvK.dtc.tmp")).unwrap();
    let b = DraughtsBuilder::<English>::new(&dir, 2, true);
    let e = driver::build(&b, false, &mut |_| {}).unwrap_err();
    assert!(
        matches!(&e, EgdbError::Io { path, .. } if path.ends_with("MvK.dtc")),
        "{e}"
    );
    assert!(
        !sub.join("MvK.wdl").exists(),
        "a slice without its distances"
    );
    let names: Vec<String> = fs::read_dir(&sub)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert!(names.iter().any(|n| n == "KvK.wdl"), "{names:?}");
    for n in &names {
        if let Some(stem) = n.strip_suffix(".wdl") {
            assert!(sub.join(format!("{stem}.dtc")).exists(), "{n} alone");
        }
    }
    // What a reader opens has its distances, slice by slice.
    let (t, _) = open_tables::<English>(&dir);
    let kinds: Vec<_> = t.files().iter().map(|f| f.header().kind).collect();
    let wdl = kinds.iter().filter(|&&k| k == Kind::Wdl).count();
    assert!(wdl >= 1, "{kinds:?}");
    assert_eq!(wdl * 2, kinds.len(), "{kinds:?}");
    // Once the way is clear, the build finishes the pair.
    fs::remove_dir(sub.join("MvK.dtc.tmp")).unwrap();
    driver::build(&b, false, &mut |_| {}).unwrap();
    assert!(sub.join("MvK.wdl").exists() && sub.join("MvK.dtc").exists());
    let _ = fs::remove_dir_all(&dir);
}

/// Engines of a batch open one directory at once, each from a job of a rayon pool, as `tiao
/// analyze --positions --jobs N --egdb DIR` does. The opener reads and checks the files on
/// rayon too: an engine that held the process's table cache lock through that deadlocked when
/// its waiting worker ran another job opening the same directory (2026-12-03). That hang needs
/// a worker to steal the opener's work at the right moment, which this test does not force (the
/// build before the fix passed it three times out of three); it checks the path the fix opened:
/// engines that race each open the directory, and every one gets the tables stored first.
#[test]
fn engines_opening_one_directory_at_once_in_a_pool_all_get_its_tables() {
    let dir = temp_dir("at-once");
    build_all::<Russian>(&dir, 4);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let (tx, rx) = mpsc::channel();
    pool.scope(|s| {
        for _ in 0..16 {
            let (tx, dir) = (tx.clone(), dir.clone());
            s.spawn(move |_| {
                let mut e = engine(Variant::Russian, &dir);
                let slices = e.tables().slices;
                let (_, score, hits) = search(&mut e, "W:WKa1,Kc3,e1:BKh8", 1);
                tx.send((slices, score, hits)).unwrap();
            });
        }
    });
    drop(tx);
    let got: Vec<_> = rx.iter().collect();
    assert_eq!(got.len(), 16);
    assert!(got[0].0 > 0, "the directory's slices are open");
    for (slices, score, hits) in &got {
        assert_eq!(*slices, got[0].0);
        assert_eq!(*score, got[0].1, "every engine scores the ending alike");
        assert!(hits.is_some_and(|h| h > 0), "tables asked: {hits:?}");
    }
    let _ = fs::remove_dir_all(&dir);
}
