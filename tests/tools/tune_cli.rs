//! `tiao tune` end to end: games played by `tiao match` are fitted and the weights printed as
//! the Rust value for `src/draughts/eval/weights.rs` (or `src/morris/eval.rs` with `-v morris`);
//! bad arguments and bad files are errors that name the problem.

use crate::cli_support::tiao;
use std::path::PathBuf;

/// A PDN file of `games` quick games of `variant` between two built-in engines.
fn games(variant: &str, games: usize) -> PathBuf {
    let path = std::env::temp_dir().join(format!("tiao-tune-{variant}-{}.pdn", std::process::id()));
    let (_, err, ok) = tiao(&[
        "match",
        "--engine",
        "tiao",
        "--engine",
        "tiao",
        "--variant",
        variant,
        "--nodes",
        "300",
        "--games",
        &games.to_string(),
        "--quiet",
        "--pdn",
        path.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    path
}

/// The errors of a fit's output: before and after, on the fitted and the held-out games.
fn assert_errors_reported(out: &str) {
    for label in ["current weights", "fitted weights (rounded)"] {
        let line = format!("mean squared error, {label}: fit 0.");
        assert!(out.contains(&line), "{line} in {out}");
    }
    assert!(out.contains(", test 0."), "{out}");
}

#[test]
fn fits_played_games_and_prints_the_weights() {
    for (variant, family) in [("international", "INTERNATIONAL"), ("english", "ENGLISH")] {
        let pdn = games(variant, 24);
        let (out, err, ok) = tiao(&["tune", "--variant", variant, "--pdn", pdn.to_str().unwrap()]);
        assert!(ok, "{err}");
        let head = out.lines().next().unwrap();
        assert!(
            head.starts_with(&format!("tune {variant} (weights {family}): ")),
            "{head}"
        );
        assert!(head.contains("from 24 games (0 skipped)"), "{head}");
        assert_errors_reported(&out);
        assert!(
            out.contains("man                         100      100  (kept)"),
            "{out}"
        );
        assert!(
            out.contains(&format!("pub const {family}: Weights = Weights {{")),
            "{out}"
        );
        assert!(out.trim_end().ends_with("};"), "{out}");
        // A weight kept by name stays; an unknown name is an error listing the names.
        let (out, err, ok) = tiao(&[
            "tune",
            "--variant",
            variant,
            "--pdn",
            pdn.to_str().unwrap(),
            "--fix",
            "king",
        ]);
        assert!(ok, "{err}");
        assert!(
            out.lines()
                .any(|l| l.starts_with("king ") && l.ends_with("(kept)")),
            "{out}"
        );
        let (_, err, ok) = tiao(&["tune", "--pdn", pdn.to_str().unwrap(), "--fix", "queen"]);
        assert!(!ok);
        assert!(
            err.contains("--fix queen: no such weight (weights: man, king, advance[0]"),
            "{err}"
        );
        std::fs::remove_file(pdn).ok();
    }
}

#[test]
fn bad_input_is_an_error_naming_it() {
    let (_, err, ok) = tiao(&["tune", "--pdn", "/nonexistent/games.pdn"]);
    assert!(!ok);
    assert!(err.contains("/nonexistent/games.pdn"), "{err}");
    let (_, err, ok) = tiao(&["tune", "--variant", "morris", "--pdn", "x.pdn"]);
    assert!(!ok);
    assert!(err.contains("x.pdn: cannot read"), "{err}");
    // Games without a result give nothing to fit.
    let path = std::env::temp_dir().join(format!("tiao-tune-open-{}.pdn", std::process::id()));
    std::fs::write(&path, "[Event \"x\"]\n1. 32-28 19-23 *\n").unwrap();
    let (_, err, ok) = tiao(&["tune", "--pdn", path.to_str().unwrap(), "--skip-plies", "0"]);
    assert!(!ok);
    assert!(err.contains("skipped game 1: no result"), "{err}");
    assert!(err.contains("no positions to fit"), "{err}");
    std::fs::remove_file(path).ok();
}

#[test]
fn fits_morris_games_and_prints_its_weights() {
    let pdn = games("morris", 6);
    let path = pdn.to_str().unwrap();
    let (out, err, ok) = tiao(&[
        "tune",
        "-v",
        "morris",
        "--pdn",
        path,
        "--threads",
        "1",
        "--test-percent",
        "50",
    ]);
    assert!(ok, "{err}");
    let head = out.lines().next().unwrap();
    assert!(head.starts_with("tune morris: "), "{head}");
    assert!(head.contains("from 6 games (0 skipped)"), "{head}");
    assert!(out.contains("scale: "), "{out}");
    assert_errors_reported(&out);
    assert!(
        out.contains("piece_on_board              100      100  (kept)"),
        "{out}"
    );
    // Positions with a mill to close are left out: the side-to-move bonus is never counted.
    assert!(
        out.lines()
            .any(|l| l.starts_with("mill_in_one ") && l.ends_with("(kept)")),
        "{out}"
    );
    assert!(
        out.contains("pub const WEIGHTS: Weights = Weights {"),
        "{out}"
    );
    assert!(out.contains("    double_mill: "), "{out}");
    assert!(out.trim_end().ends_with("};"), "{out}");
    // Weights kept by name; an unknown name lists Morris' names.
    let (out, err, ok) = tiao(&["tune", "-v", "morris", "--pdn", path, "--fix", "mobility"]);
    assert!(ok, "{err}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("mobility ") && l.ends_with("(kept)")),
        "{out}"
    );
    let (_, err, ok) = tiao(&["tune", "-v", "morris", "--pdn", path, "--fix", "king"]);
    assert!(!ok);
    assert!(
        err.contains("--fix king: no such weight (weights: piece_on_board, piece_in_hand, mill"),
        "{err}"
    );
    // Morris games given to a draughts fit are refused by their Variant tag.
    let (_, err, ok) = tiao(&["tune", "--pdn", path]);
    assert!(!ok);
    assert!(err.contains("game 1 is morris, not international"), "{err}");
    std::fs::remove_file(pdn).ok();
}

#[test]
fn bad_files_for_a_morris_fit_are_errors() {
    let dir = std::env::temp_dir();
    let id = std::process::id();
    // Draughts games: refused by their GameType tag.
    let draughts = dir.join(format!("tiao-tune-draughts-{id}.pdn"));
    std::fs::write(
        &draughts,
        "[GameType \"20\"]\n[Result \"2-0\"]\n1. 32-28 19-23 2-0\n",
    )
    .unwrap();
    let (_, err, ok) = tiao(&["tune", "-v", "morris", "--pdn", draughts.to_str().unwrap()]);
    assert!(!ok);
    assert!(err.contains("game 1 is international, not morris"), "{err}");
    // Untagged words that are no moves: every game left out, nothing to fit.
    let garbage = dir.join(format!("tiao-tune-garbage-{id}.pdn"));
    std::fs::write(&garbage, "hello world 1-0\n").unwrap();
    let (_, err, ok) = tiao(&["tune", "-v", "morris", "--pdn", garbage.to_str().unwrap()]);
    assert!(!ok);
    assert!(err.contains("no positions to fit in 1 games"), "{err}");
    assert!(err.contains("game 1: "), "{err}");
    // Not text, and not PDN.
    std::fs::write(&garbage, [0xff, 0xfe, 0x00, 0x80]).unwrap();
    let (_, err, ok) = tiao(&["tune", "-v", "morris", "--pdn", garbage.to_str().unwrap()]);
    assert!(!ok);
    assert!(err.contains("cannot read"), "{err}");
    std::fs::write(&garbage, "[Event \"x\"\n1. a1 *\n").unwrap();
    let (_, err, ok) = tiao(&["tune", "-v", "morris", "--pdn", garbage.to_str().unwrap()]);
    assert!(!ok);
    assert!(err.contains("not a PDN file: line 1"), "{err}");
    std::fs::remove_file(draughts).ok();
    std::fs::remove_file(garbage).ok();
}

/// A self-play data file of `games` quick english games, under a name of this test's own.
fn selfplay_data(name: &str, games: usize) -> PathBuf {
    let path = std::env::temp_dir().join(format!("tiao-tune-{name}-{}.tsd", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let (_, err, ok) = tiao(&[
        "selfplay",
        "-v",
        "english",
        "--games",
        &games.to_string(),
        "--nodes",
        "300",
        "--threads",
        "2",
        "--chunk-games",
        "4",
        "--out",
        path.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    path
}

#[test]
fn pattern_training_is_the_same_on_one_thread_and_two() {
    let data = selfplay_data("threads", 12);
    // `extra`: none, or --material (a material table fitted with the windows).
    let weights = |threads: &str, extra: &[&str]| {
        let out = std::env::temp_dir().join(format!(
            "tiao-tune-threads-{threads}-{}-{}.tpw",
            extra.len(),
            std::process::id()
        ));
        let mut args = vec![
            "tune",
            "-v",
            "english",
            "--data",
            data.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--epochs",
            "3",
            "--batch",
            "200",
            "--holdout",
            "4",
            "--decay",
            "0.001",
            "--threads",
            threads,
        ];
        args.extend_from_slice(extra);
        let (stdout, err, ok) = tiao(&args);
        assert!(ok, "{err}");
        // One line an epoch with the held-out losses; no progress bar when stderr is a pipe.
        for epoch in 1..=3 {
            let line = stdout
                .lines()
                .find(|l| l.starts_with(&format!("epoch   {epoch}: fit loss ")))
                .unwrap_or_else(|| panic!("epoch {epoch} in {stdout}"));
            // Losses are cross-entropies: positive, and above 1 on a tiny held-out sample.
            for label in ["fit loss ", ", held-out loss "] {
                let at = line
                    .find(label)
                    .unwrap_or_else(|| panic!("{label}in {line}"));
                let loss: f64 = line[at + label.len()..]
                    .split([' ', ','])
                    .next()
                    .and_then(|w| w.parse().ok())
                    .unwrap_or_else(|| panic!("{label}in {line}"));
                assert!(loss.is_finite() && loss > 0.0, "{line}");
            }
            assert!(line.contains(" (target); "), "{line}");
            assert!(line.ends_with(" positions/s"), "{line}");
        }
        assert!(!err.contains("batches"), "{err}");
        let bytes = std::fs::read(&out).unwrap();
        std::fs::remove_file(out).ok();
        (bytes, stdout)
    };
    let (one, out) = weights("1", &[]);
    let (two, _) = weights("2", &[]);
    assert!(out.contains("bytes a position to fit"), "{out}");
    assert!(one.len() > 36 && one == two, "the weight files differ");
    // With a material table: the same file (of version 5) on one thread and two.
    let (one, out) = weights("1", &["--material"]);
    let (two, _) = weights("2", &["--material"]);
    assert!(out.contains("material table: "), "{out}");
    assert_eq!(u16::from_le_bytes([one[8], one[9]]), 5);
    assert!(one == two, "the weight files with a material table differ");
    std::fs::remove_file(data).ok();
}

#[test]
fn truncated_and_foreign_data_files_are_refused_by_name() {
    let good = selfplay_data("good", 4);
    let bytes = std::fs::read(&good).unwrap();
    let dir = std::env::temp_dir();
    let id = std::process::id();
    let cut = dir.join(format!("tiao-tune-cut-{id}.tsd"));
    std::fs::write(&cut, &bytes[..bytes.len() - 11]).unwrap();
    let foreign = dir.join(format!("tiao-tune-foreign-{id}.tsd"));
    std::fs::write(&foreign, b"[Event \"x\"]\n1. 11-15 23-19 *\n").unwrap();
    let mut flipped = bytes.clone();
    let last = flipped.len() - 3;
    flipped[last] ^= 0x40;
    let corrupt = dir.join(format!("tiao-tune-corrupt-{id}.tsd"));
    std::fs::write(&corrupt, &flipped).unwrap();
    let out = dir.join(format!("tiao-tune-refused-{id}.tpw"));
    let tune_with = |variant: &str, files: &[&PathBuf], extra: &[&str]| {
        let mut args = vec!["tune", "-v", variant, "--out", out.to_str().unwrap()];
        for f in files {
            args.extend_from_slice(&["--data", f.to_str().unwrap()]);
        }
        args.extend_from_slice(extra);
        tiao(&args)
    };
    let tune = |variant: &str, files: &[&PathBuf]| tune_with(variant, files, &[]);
    // A good file first, then the bad one: the error names the bad one.
    for (file, needle) in [
        (&cut, "the data ends inside the chunk at byte"),
        (
            &foreign,
            "not tiao self-play data: no chunk header at byte 0",
        ),
        (&corrupt, "checksum mismatch"),
    ] {
        let (_, err, ok) = tune("english", &[&good, file]);
        assert!(!ok);
        let name = format!("{}: ", file.to_str().unwrap());
        assert!(err.contains(&name) && err.contains(needle), "{err}");
    }
    // Data of another variant.
    let (_, err, ok) = tune("russian", &[&good]);
    assert!(!ok);
    assert!(
        err.contains(good.to_str().unwrap()) && err.contains("english data where russian"),
        "{err}"
    );
    // A missing file.
    let missing = dir.join(format!("tiao-tune-missing-{id}.tsd"));
    let (_, err, ok) = tune("english", &[&missing]);
    assert!(!ok && err.contains(missing.to_str().unwrap()), "{err}");
    // A weight of the result outside 0..=1, for the positions with a king each too.
    for (flag, value) in [
        ("--lambda", "1.5"),
        ("--lambda-both-kings", "1.5"),
        ("--lambda-both-kings", "-0.1"),
        ("--lambda-both-kings", "NaN"),
    ] {
        // `--flag=value`: a negative number is a value, not a flag.
        let (_, err, ok) = tune_with("english", &[&good], &[&format!("{flag}={value}")]);
        let named = format!("{flag} {value}: must be 0 to 1");
        assert!(!ok && err.contains(&named), "{named}: {err}");
    }
    for p in [good, cut, foreign, corrupt, out] {
        std::fs::remove_file(p).ok();
    }
}
