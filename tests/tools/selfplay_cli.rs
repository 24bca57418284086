//! `tiao selfplay` and `tiao tune --data` end to end on a few quick games: the data file is
//! written, resumed and sharded deterministically, a pattern table is trained from it and reads
//! back as the family's weights; malformed data and bad arguments are refused with errors that
//! name the problem.

use crate::cli_support::{tiao, tiao_env};
use std::path::{Path, PathBuf};
use tiao::draughts::board::{Board8, Geometry};
use tiao::draughts::eval::patterns::{
    self, EnginePatterns, MEN, PatternWeights, SHAPES_4X4, Shape,
};
use tiao::game::Variant;
use tiao::training::data;

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("tiao-selfplay-{}-{name}", std::process::id()))
}

fn selfplay(out: &Path, games: &str, extra: &[&str]) -> (String, String, bool) {
    let mut args = vec![
        "selfplay",
        "-v",
        "english",
        "--games",
        games,
        "--nodes",
        "300",
        "--threads",
        "2",
        "--chunk-games",
        "2",
        "--out",
    ];
    args.push(out.to_str().unwrap());
    args.extend_from_slice(extra);
    tiao(&args)
}

fn records(path: &Path) -> Vec<data::Record> {
    data::read_all(std::fs::File::open(path).unwrap(), Variant::English).unwrap()
}

#[test]
fn selfplay_is_deterministic_resumable_and_shardable() {
    let whole = temp("whole.tsd");
    let _ = std::fs::remove_file(&whole);
    let (out, err, ok) = selfplay(&whole, "6", &[]);
    assert!(ok, "{err}");
    assert!(out.contains("6 games"), "{out}");
    // The first line says what is left to play, not what the run will have played.
    assert!(
        err.contains("6 games to play, 0 of 6 written before"),
        "{err}"
    );
    let all = records(&whole);
    assert!(!all.is_empty());
    // Cut inside the last chunk: the run resumes and writes the same file.
    let bytes = std::fs::read(&whole).unwrap();
    let cut = temp("cut.tsd");
    std::fs::write(&cut, &bytes[..bytes.len() - 7]).unwrap();
    let (_, err, ok) = selfplay(&cut, "6", &[]);
    assert!(ok, "{err}");
    assert!(err.contains("resuming after game 4"), "{err}");
    assert!(
        err.contains("2 games to play, 4 of 6 written before"),
        "{err}"
    );
    assert_eq!(std::fs::read(&cut).unwrap(), bytes);
    // Run again complete: nothing to add.
    let (_, err, ok) = selfplay(&cut, "6", &[]);
    assert!(ok && err.contains("resuming after game 6"), "{err}");
    assert!(
        err.contains("0 games to play, 6 of 6 written before"),
        "{err}"
    );
    assert_eq!(std::fs::read(&cut).unwrap(), bytes);
    // Two shards concatenated hold the same positions.
    let (s0, s1) = (temp("s0.tsd"), temp("s1.tsd"));
    for (p, s) in [(&s0, "0/2"), (&s1, "1/2")] {
        let _ = std::fs::remove_file(p);
        let (_, err, ok) = selfplay(p, "6", &["--shard", s]);
        assert!(ok, "{err}");
    }
    let mut joined = std::fs::read(&s0).unwrap();
    joined.extend(std::fs::read(&s1).unwrap());
    let merged = temp("merged.tsd");
    std::fs::write(&merged, joined).unwrap();
    let key = |r: &data::Record| (r.white, r.black, r.kings, r.ply, r.score, r.result);
    let (mut a, mut b): (Vec<_>, Vec<_>) = (
        all.iter().map(key).collect(),
        records(&merged).iter().map(key).collect(),
    );
    a.sort();
    b.sort();
    assert_eq!(a, b);
    // Another run's file is not appended to.
    let (_, err, ok) = selfplay(&whole, "6", &["--seed", "9"]);
    assert!(!ok && err.contains("another run"), "{err}");
    for p in [whole, cut, s0, s1, merged] {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn patterns_train_from_selfplay_data() {
    let set = temp("train.tsd");
    let _ = std::fs::remove_file(&set);
    let (_, err, ok) = selfplay(&set, "16", &[]);
    assert!(ok, "{err}");
    let weights = temp("english.tpw");
    // A short fit: two epochs of small batches, every fourth game held out.
    const QUICK: [&str; 6] = ["--epochs", "2", "--batch", "256", "--holdout", "4"];
    let tune = |variant: &str, extra: &[&str]| {
        let mut args = vec!["tune", "-v", variant, "--data", set.to_str().unwrap()];
        args.extend_from_slice(&["--out", weights.to_str().unwrap()]);
        args.extend_from_slice(extra);
        tiao(&args)
    };
    let (out, err, ok) = tune("english", &QUICK);
    assert!(ok, "{err}");
    assert!(out.contains("epoch   2: fit loss"), "{out}");
    let w = PatternWeights::parse(&std::fs::read(&weights).unwrap(), "english", Board8::W).unwrap();
    assert!(w.table.iter().any(|&v| v != 0));
    assert_eq!(w.shapes, SHAPES_4X4);
    assert!(!w.uses_material());
    // Kept for the material table's warm start below (a version-4 file).
    let four = temp("four.tpw");
    std::fs::copy(&weights, &four).unwrap();
    // A 4x5 men's layer: the file says so, reads back, and the engine's table made from it
    // scores positions of the data; a warm start needs the same shapes or larger ones.
    let (out, err, ok) = tune("english", &[&QUICK[..], &["--shape", "men=4x5"]].concat());
    assert!(ok, "{err}");
    assert!(out.contains("men 4x5, kings 4x4, mixed 4x4"), "{out}");
    let w = PatternWeights::parse(&std::fs::read(&weights).unwrap(), "english", Board8::W).unwrap();
    assert_eq!(w.shapes, [Shape::Rows5, Shape::Rows4, Shape::Rows4]);
    assert!(w.uses(MEN) && w.is_symmetric());
    let engine = EnginePatterns::new::<Board8>(&w);
    let scored = records(&set)
        .iter()
        .filter(|r| engine.score::<Board8>(r.white, r.black, r.kings) != 0)
        .count();
    assert!(scored > 0);
    // The start is a copy: each run below writes its fit over `weights`.
    let start = temp("start45.tpw");
    std::fs::copy(&weights, &start).unwrap();
    let init = ["--epochs", "1", "--init", start.to_str().unwrap()];
    let (_, err, ok) = tune("english", &init);
    assert!(!ok && err.contains("windows men 4x5"), "{err}");
    let (out, err, ok) = tune("english", &[&init[..], &["--shape", "men=4x5"]].concat());
    assert!(ok && out.contains("starting from"), "{err}");
    // Larger windows start from the smaller ones' sums: the same evaluation, so the same
    // held-out loss to the rounding.
    let start_loss = |out: &str| -> f64 {
        let line = out
            .lines()
            .find(|l| l.starts_with("starting from"))
            .unwrap();
        line.split("held-out loss ").nth(1).unwrap()[..8]
            .parse()
            .unwrap()
    };
    let same = start_loss(&out);
    let (out, err, ok) = tune("english", &[&init[..], &["--shape", "men=4x6"]].concat());
    assert!(
        ok && out.contains("read through the fit's men 4x6"),
        "{err}"
    );
    let lifted = start_loss(&out);
    assert!((same - lifted).abs() < 1e-4, "{same} against {lifted}");
    // The fit is stored as its differences from the start it was read through (few of the
    // 4x6 configurations occur in the data), reads back with that start as its base, and a
    // fit warm from it keeps the same base.
    assert!(
        out.contains("stored as differences from men 4x5, kings 4x4, mixed 4x4"),
        "{out}"
    );
    let small = PatternWeights::parse(&std::fs::read(&start).unwrap(), "english", Board8::W);
    let (w, base) =
        PatternWeights::parse_with_base(&std::fs::read(&weights).unwrap(), "english", Board8::W)
            .unwrap();
    assert_eq!(w.shapes, [Shape::Rows6, Shape::Rows4, Shape::Rows4]);
    assert!(w.is_symmetric());
    assert_eq!(base, Some(small.unwrap()));
    let grown = temp("start46.tpw");
    std::fs::copy(&weights, &grown).unwrap();
    let again = ["--epochs", "1", "--shape", "men=4x6", "--init"];
    let (out, err, ok) = tune(
        "english",
        &[&again[..], &[grown.to_str().unwrap()]].concat(),
    );
    assert!(
        ok && out.contains("stored as differences from men 4x5"),
        "{out}{err}"
    );
    // With --material: a version-5 file whose material table is not all zero and
    // colour-symmetric, which the engine reads; the log names the largest entries.
    let (out, err, ok) = tune("english", &[&QUICK[..], &["--material"]].concat());
    assert!(ok, "{err}");
    assert!(out.contains("material table: "), "{out}");
    assert!(out.contains("mixed 4x4, material table;"), "{out}");
    let bytes = std::fs::read(&weights).unwrap();
    assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), patterns::VERSION);
    let w = PatternWeights::parse(&bytes, "english", Board8::W).unwrap();
    assert!(w.uses_material() && w.is_symmetric());
    let largest = out
        .lines()
        .skip_while(|l| !l.starts_with("material table: "))
        .nth(1)
        .unwrap();
    assert!(
        largest.starts_with("  ") && largest.contains(" v "),
        "{out}"
    );
    let engine = EnginePatterns::new::<Board8>(&w);
    assert!(engine.uses_material());
    // A warm start from it keeps fitting the table, and is refused without --material (which
    // would drop the table).
    let table = temp("material.tpw");
    std::fs::copy(&weights, &table).unwrap();
    let from_table = ["--epochs", "1", "--init", table.to_str().unwrap()];
    let (_, err, ok) = tune("english", &from_table);
    assert!(
        !ok && err.contains("material table") && err.contains("--material"),
        "{err}"
    );
    let (out, err, ok) = tune("english", &[&from_table[..], &["--material"]].concat());
    assert!(ok && out.contains("starting from"), "{err}");
    // From a version-4 file the table starts at zero: the start's loss is the file's.
    let from_four = ["--epochs", "1", "--init", four.to_str().unwrap()];
    let (without, err, ok) = tune("english", &from_four);
    assert!(ok, "{err}");
    let (with, err, ok) = tune("english", &[&from_four[..], &["--material"]].concat());
    assert!(ok, "{err}");
    assert_eq!(start_loss(&without), start_loss(&with));
    let (_, err, ok) = tune("english", &["--shape", "men=4x7"]);
    assert!(!ok && err.contains("4x4, 4x5, 4x6"), "{err}");
    let (_, err, ok) = tune("english", &["--shape", "queens=4x5"]);
    assert!(!ok && err.contains("men, kings, mixed"), "{err}");
    // Russian data is not english data.
    let (_, err, ok) = tune("russian", &[]);
    assert!(
        !ok && err.contains("english data where russian was expected"),
        "{err}"
    );
    for p in [set, weights, start, grown, four, table] {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn bad_data_and_arguments_are_refused() {
    let junk = temp("junk.tsd");
    std::fs::write(&junk, b"[Event \"not data\"]\n1. 32-28 *\n").unwrap();
    let out = temp("junk.tpw");
    let (_, err, ok) = tiao(&[
        "tune",
        "--data",
        junk.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(!ok && err.contains("not tiao self-play data"), "{err}");
    let (_, err, ok) = selfplay(&junk, "6", &[]);
    assert!(!ok && err.contains("holds no self-play data"), "{err}");
    let (_, err, ok) = tiao(&["tune", "--data", junk.to_str().unwrap()]);
    assert!(!ok && err.contains("--out"), "{err}");
    for (args, needle) in [
        (
            vec!["selfplay", "--out", "x.tsd", "--shard", "2/2"],
            "0 <= I < N",
        ),
        (
            vec!["selfplay", "--out", "x.tsd", "--nodes", "0"],
            "0 is not in 1..=4294967295",
        ),
        (vec!["selfplay", "-v", "morris", "--out", "x.tsd"], "morris"),
    ] {
        let (_, err, ok) = tiao(&args);
        assert!(!ok && err.contains(needle), "{args:?}: {err}");
    }
    // The workers' tables together are checked against the memory before anything is written.
    let capped = temp("capped.tsd");
    let _ = std::fs::remove_file(&capped);
    let (_, err, ok) = tiao_env(
        &[
            "selfplay",
            "--threads",
            "4",
            "--hash",
            "64",
            "--out",
            capped.to_str().unwrap(),
        ],
        &[("TIAO_MEMORY_MIB", "200")],
    );
    assert!(
        !ok && err.contains("4 workers (--threads) x 64 MiB"),
        "{err}"
    );
    assert!(!capped.exists(), "nothing written");
    let (_, err, ok) = tiao(&[
        "tune",
        "--data",
        junk.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--lr",
        "nan",
    ]);
    assert!(!ok && err.contains("--lr NaN"), "{err}");
    let _ = std::fs::remove_file(junk);
    let _ = std::fs::remove_file(out);
}

#[test]
fn selfplay_ended_by_tables_records_it_and_resumes_only_alike() {
    let tables = temp("tables");
    let _ = std::fs::remove_dir_all(&tables);
    let dir = tables.to_str().unwrap();
    let (_, err, ok) = tiao(&[
        "egdb", "build", "-v", "russian", "--pieces", "3", "--dir", dir, "--quiet",
    ]);
    assert!(ok, "{err}");
    let out = temp("russian-ended.tsd");
    let _ = std::fs::remove_file(&out);
    let path = out.to_str().unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec![
            "selfplay",
            "-v",
            "russian",
            "--games",
            "8",
            "--nodes",
            "300",
            "--seed",
            "11",
            "--threads",
            "2",
            "--chunk-games",
            "2",
            "--out",
            path,
        ];
        args.extend_from_slice(extra);
        tiao(&args)
    };
    let (text, err, ok) = run(&["--egdb", dir]);
    assert!(ok, "{err}");
    assert!(err.contains("ended by the tables at 3 pieces"), "{err}");
    assert!(text.contains("ended by the tables)"), "{text}");
    let bytes = std::fs::read(&out).unwrap();
    let scan = data::scan(&bytes);
    assert_eq!(scan.chunks.len(), 4);
    assert!(
        scan.chunks.iter().all(|c| c.table_end == 3),
        "{:?}",
        scan.chunks
    );
    // At most one position of 3 pieces or fewer a game, its last: the endings are not played.
    let all = data::read_all(std::fs::File::open(&out).unwrap(), Variant::Russian).unwrap();
    let few = all
        .iter()
        .filter(|r| (r.white | r.black).count_ones() <= 3)
        .count();
    assert!(few <= 8, "{few} positions of at most 3 pieces in 8 games");

    // A resume with other settings is refused and changes nothing; the same one ends.
    std::fs::write(&out, &bytes[..bytes.len() - 5]).unwrap();
    let (_, err, ok) = run(&[]);
    assert!(
        !ok && err.contains("holds data of another run") && err.contains("at 3 pieces"),
        "{err}"
    );
    let (_, err, ok) = run(&["--egdb", dir, "--adjudicate-pieces", "2"]);
    assert!(!ok && err.contains("holds data of another run"), "{err}");
    assert_eq!(std::fs::read(&out).unwrap(), &bytes[..bytes.len() - 5]);
    let (_, err, ok) = run(&["--egdb", dir, "--adjudicate-pieces", "3"]);
    assert!(ok, "{err}");
    assert_eq!(std::fs::read(&out).unwrap(), bytes);

    // Settings the tables cannot answer for are refused before anything is written.
    let other = temp("russian-refused.tsd");
    let _ = std::fs::remove_file(&other);
    for (extra, needle) in [
        (
            vec!["--egdb", dir, "--adjudicate-pieces", "4"],
            "every table up to 3 pieces only",
        ),
        (vec!["--adjudicate-pieces", "3"], "needs --egdb"),
    ] {
        let mut args = vec![
            "selfplay",
            "-v",
            "russian",
            "--out",
            other.to_str().unwrap(),
        ];
        args.extend_from_slice(&extra);
        let (_, err, ok) = tiao(&args);
        assert!(!ok && err.contains(needle), "{extra:?}: {err}");
        assert!(!other.exists(), "nothing written");
    }
    let _ = std::fs::remove_file(&out);
    let _ = std::fs::remove_dir_all(&tables);
}
