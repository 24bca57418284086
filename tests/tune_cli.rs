//! `tiao tune` end to end: games played by `tiao match` are fitted and the weights printed as
//! the Rust value for `src/draughts/eval/weights.rs`; bad arguments are errors that name the problem.

mod cli_support;

use cli_support::tiao;
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
        assert!(
            out.contains("mean squared error, current weights: fit 0."),
            "{out}"
        );
        assert!(
            out.contains("mean squared error, fitted weights (rounded)"),
            "{out}"
        );
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
    assert!(err.contains("morris"), "{err}");
    // Games without a result give nothing to fit.
    let path = std::env::temp_dir().join(format!("tiao-tune-open-{}.pdn", std::process::id()));
    std::fs::write(&path, "[Event \"x\"]\n1. 32-28 19-23 *\n").unwrap();
    let (_, err, ok) = tiao(&["tune", "--pdn", path.to_str().unwrap(), "--skip-plies", "0"]);
    assert!(!ok);
    assert!(err.contains("skipped game 1: no result"), "{err}");
    assert!(err.contains("no positions to fit"), "{err}");
    std::fs::remove_file(path).ok();
}
