//! The command line's manners: a reader that stops early (`| head`) ends the program quietly, as
//! Unix tools do, instead of a panic; search parameters set with `--set` reach the search, and a
//! bad one is an error naming it; a table larger than the memory available is refused with the
//! figures, never an abort; a time without a unit under a millisecond is refused, naming the
//! units.

use crate::cli_support::{tiao, tiao_env};
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

#[test]
fn a_closed_pipe_ends_the_program_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tiao"))
        .args(["perft", "--depth", "9", "--divide"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    assert!(first.starts_with("perft international"), "{first}");
    drop(out);
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_ne!(output.status.code(), Some(101), "a panic's exit status");
}

/// The `nodes N` line of `tiao bench`.
fn signature(out: &str) -> u64 {
    out.lines()
        .find_map(|l| l.strip_prefix("nodes "))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no signature in {out}"))
}

#[test]
fn bench_and_analyze_take_search_parameters() {
    let (plain, _, ok) = tiao(&["bench", "--depth", "6", "--hash", "1"]);
    assert!(ok);
    let (again, _, ok) = tiao(&["bench", "--depth", "6", "--hash", "1", "--set", "lmr=on"]);
    assert!(ok);
    assert_eq!(
        signature(&plain),
        signature(&again),
        "a default value changes nothing"
    );
    let (changed, _, ok) = tiao(&["bench", "--depth", "6", "--hash", "1", "--set", "lmp=off"]);
    assert!(ok);
    assert!(changed.starts_with("bench depth 6 threads 1 hash 1 MiB set lmp=off"));
    assert_ne!(
        signature(&plain),
        signature(&changed),
        "late move pruning prunes"
    );

    // The nodes of analyze's last iteration: a parameter that prunes less searches more.
    let nodes_at_8 = |out: &str| -> u64 {
        out.lines()
            .find_map(|l| l.trim_start().strip_prefix("8 "))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no depth 8 line in {out}"))
    };
    let (plain, _, ok) = tiao(&["analyze", "--depth", "8"]);
    assert!(ok && plain.contains("bestmove"), "{plain}");
    let (out, _, ok) = tiao(&["analyze", "--depth", "8", "--set", "lmp=off"]);
    assert!(ok && out.contains("bestmove"), "{out}");
    assert_ne!(
        nodes_at_8(&plain),
        nodes_at_8(&out),
        "lmp=off reached the search"
    );
    for bad in ["nonsense=1", "lmr=maybe", "lmr"] {
        let (_, err, ok) = tiao(&["analyze", "--depth", "6", "--set", bad]);
        assert!(!ok, "--set {bad} accepted");
        assert!(err.contains(&format!("--set {bad}")), "{bad}: {err}");
    }
}

/// The memory tiao is told it may use in the tests below (the test-only cap of `tiao::memory`).
const CAP: (&str, &str) = ("TIAO_MEMORY_MIB", "100");

/// Runs `tiao` under [`CAP`] and checks it fails cleanly (exit status 1, no panic, no abort)
/// with a message naming every figure of `needles`.
fn refused(args: &[&str], needles: &[&str]) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tiao"))
        .args(args)
        .env(CAP.0, CAP.1)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
    assert!(err.contains("error: "), "{args:?}: {err}");
    assert!(
        !err.contains("panicked") && !err.contains("memory allocation"),
        "{err}"
    );
    for n in needles {
        assert!(err.contains(n), "{args:?}: no '{n}' in {err}");
    }
}

#[test]
fn tables_beyond_the_memory_available_are_refused_up_front() {
    refused(
        &["bench", "--hash", "200"],
        &["--hash", "200 MiB", "100 MiB"],
    );
    refused(
        &["analyze", "--hash", "200"],
        &["--hash", "200 MiB", "100 MiB"],
    );
    refused(
        &["dxp", "--hash", "200", "--listen", "127.0.0.1:0"],
        &["--hash", "200 MiB", "100 MiB"],
    );
    // Batches: one table per parallel search.
    let dir = std::env::temp_dir().join(format!("tiao-memory-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let positions = dir.join("positions.txt");
    std::fs::write(
        &positions,
        "W:W31-50:B1-20 a\nB:W31-50:B1-20 b\nW:W32-50:B1-20 c\n",
    )
    .unwrap();
    let file = positions.to_str().unwrap();
    refused(
        &[
            "analyze",
            "--positions",
            file,
            "--jobs",
            "3",
            "--hash",
            "40",
        ],
        &["--jobs", "--hash", "120 MiB", "100 MiB"],
    );
    // Within the cap, the same batch runs.
    let (out, err, ok) = tiao_env(
        &[
            "analyze",
            "--positions",
            file,
            "--jobs",
            "2",
            "--hash",
            "40",
            "--depth",
            "2",
        ],
        &[CAP],
    );
    assert!(ok, "{err}");
    assert_eq!(out.lines().count(), 3, "{out}");
    // Matches: every game in progress holds a table per built-in engine.
    refused(
        &[
            "match",
            "--engine",
            "tiao hash=60",
            "--engine",
            "tiao hash=60",
            "--depth",
            "1",
        ],
        &["--concurrency", "120 MiB", "100 MiB"],
    );
    refused(
        &[
            "match",
            "--engine",
            "tiao hash=30",
            "--engine",
            "tiao hash=30",
            "--depth",
            "1",
            "--concurrency",
            "2",
        ],
        &["--concurrency 2", "120 MiB", "100 MiB"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn numbers_are_checked_when_the_command_line_is_read() {
    // (arguments, what the message must name): NaN, infinities, negative, zero and absurd
    // values are refused before anything runs, with clap's usage status 2 or tiao's 1, never a
    // panic (101) or a run with the value clamped behind the user's back.
    let cases: &[(&[&str], &str)] = &[
        (&["analyze", "--movetime", "nan"], "--movetime"),
        (
            &["analyze", "--movetime", "inf", "--positions", "-"],
            "--movetime",
        ),
        (
            &["analyze", "--movetime=-1", "--pdn", "x.pdn"],
            "--movetime",
        ),
        (&["analyze", "--movetime", "0"], "above 0"),
        (&["analyze", "--depth", "0"], "--depth"),
        (&["analyze", "--depth", "4000000000"], "--depth"),
        (&["analyze", "--threads", "0"], "--threads"),
        (&["analyze", "--hash", "100000"], "--hash"),
        (&["analyze", "--jobs", "0", "--positions", "-"], "--jobs"),
        (&["bench", "--depth", "500"], "--depth"),
        (&["bench", "--hash", "0"], "--hash"),
        (
            &["perft", "--depth", "3", "--threads", "100000"],
            "--threads",
        ),
        (&["board", "--square", "nan"], "--square"),
        (&["dxp", "--move-time", "nan"], "--move-time"),
        (&["dxp", "--threads", "1000"], "--threads"),
        (
            &[
                "match", "--engine", "tiao", "--engine", "tiao", "--alpha", "nan",
            ],
            "--alpha",
        ),
        (
            &[
                "match",
                "--engine",
                "tiao",
                "--engine",
                "tiao",
                "--concurrency",
                "1000000",
            ],
            "--concurrency",
        ),
        (
            &[
                "match",
                "--engine",
                "tiao",
                "--engine",
                "tiao",
                "--hang-timeout",
                "inf",
            ],
            "--hang-timeout",
        ),
        (
            &[
                "match", "--engine", "tiao", "--engine", "tiao", "--games", "0",
            ],
            "--games",
        ),
        (
            &["match", "--engine", "tiao hash=100000", "--engine", "tiao"],
            "hash=100000",
        ),
        (
            &["match", "--engine", "tiao threads=0", "--engine", "tiao"],
            "threads=0",
        ),
        (
            &["match", "--engine", "tiao lmr-base=nan", "--engine", "tiao"],
            "nan",
        ),
        (&["analyze", "--set", "rfp-margin=inf"], "rfp-margin=inf"),
        (
            &[
                "match",
                "--engine",
                "tiao",
                "--engine",
                "tiao",
                "--adjudicate-win",
                "5000000000,4",
            ],
            "--adjudicate-win 5000000000,4: SCORE 5000000000 is not in 0..=10000",
        ),
        (
            &[
                "match",
                "--engine",
                "tiao",
                "--engine",
                "tiao",
                "--adjudicate-draw",
                "5,-20",
            ],
            "MOVES -20 is not in 1..=100000",
        ),
        (
            &[
                "match",
                "--engine",
                "tiao",
                "--engine",
                "tiao",
                "--movetime",
                "1e12",
            ],
            "--movetime",
        ),
        (
            &[
                "match", "--engine", "tiao", "--engine", "tiao", "--tc", "1e8+0",
            ],
            "--tc",
        ),
    ];
    for (args, needle) in cases {
        let (_, err, ok) = tiao(args);
        assert!(!ok, "{args:?} accepted");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: no '{needle}' in {err}");
    }
}

#[test]
fn a_time_without_a_unit_under_a_millisecond_is_refused() {
    // `--movetime` of a match is in milliseconds: 0.05 is a unit forgotten, refused before any
    // game is played (no PDN written), the message naming both units.
    let pdn = std::env::temp_dir().join(format!("tiao-movetime-{}.pdn", std::process::id()));
    let _ = std::fs::remove_file(&pdn);
    let (out, err, ok) = tiao(&[
        "match",
        "--engine",
        "tiao",
        "--engine",
        "tiao",
        "--games",
        "2",
        "--movetime",
        "0.05",
        "--pdn",
        pdn.to_str().unwrap(),
    ]);
    assert!(!ok, "{out}");
    assert!(out.is_empty() && !pdn.exists(), "{out}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        err.contains("--movetime")
            && err.contains("under a millisecond")
            && err.contains("0.05s")
            && err.contains("0.05ms"),
        "{err}"
    );
    // Every time option of the command line reads the same way (seconds without a unit there).
    let cases: &[&[&str]] = &[
        &["analyze", "--movetime", "0.0005"],
        &["dxp", "--move-time", "0.0001"],
        &["bench", "--move-time-usage", "0.0002"],
        &[
            "match",
            "--engine",
            "tiao",
            "--engine",
            "tiao",
            "--tc",
            "10+0.0005",
        ],
        &[
            "match", "--engine", "tiao", "--engine", "tiao", "--margin", "0.5",
        ],
        &[
            "match",
            "--engine",
            "tiao",
            "--engine",
            "tiao",
            "--hang-timeout",
            "1e-4",
        ],
    ];
    for args in cases {
        let (_, err, ok) = tiao(args);
        assert!(
            !ok && err.contains("under a millisecond"),
            "{args:?}: {err}"
        );
    }
    // With a unit, a time is read in it.
    let (out, err, ok) = tiao(&["analyze", "--movetime", "50ms", "--fen", "W:WK46:B5"]);
    assert!(ok && out.contains("bestmove"), "{out}\n{err}");
}

#[test]
fn a_fen_with_unknown_or_missing_fields_is_refused() {
    for (fen, needle) in [("W:X31-50:Y1-20", "'X31-50'"), ("W", "no pieces")] {
        let (out, err, ok) = tiao(&["analyze", "--fen", fen, "--depth", "2"]);
        assert!(!ok && out.is_empty(), "{fen}: {out}");
        assert!(err.contains(needle), "{fen}: {err}");
    }
    // Lower-case letters read as PDN's upper-case ones: the start position.
    let (out, _, ok) = tiao(&["analyze", "--fen", "w:w31-50:b1-20", "--depth", "2"]);
    assert!(ok && out.contains("position W:W31,32,"), "{out}");
}

#[test]
fn help_and_output_are_true_for_nine_mens_morris() {
    for cmd in ["analyze", "match", "board"] {
        let (out, _, ok) = tiao(&[cmd, "--help"]);
        assert!(
            ok && out.contains("morris (Nine Men's Morris)"),
            "{cmd}: {out}"
        );
    }
    let (out, _, ok) = tiao(&["analyze", "-v", "morris", "--depth", "2"]);
    assert!(ok, "{out}");
    assert!(out.starts_with("Nine Men's Morris, White to move"), "{out}");
    assert!(out.contains("score: pieces (1.00 = one piece)"), "{out}");
    assert!(!out.contains("draughts") && !out.contains(" men "), "{out}");
}

#[test]
fn review_and_plot_paths_are_checked_before_the_analysis() {
    let dir = std::env::temp_dir().join(format!("tiao-paths-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let games = dir.join("games.pdn");
    std::fs::write(&games, "[Result \"*\"]\n1. 32-28 19-23 *\n").unwrap();
    for (flag, file) in [("--review", "r.pdn"), ("--plot", "p.svg")] {
        let bad = dir.join("no-such-directory").join(file);
        let (out, err, ok) = tiao(&[
            "analyze",
            "--pdn",
            games.to_str().unwrap(),
            flag,
            bad.to_str().unwrap(),
        ]);
        assert!(!ok);
        assert!(out.is_empty(), "nothing analysed: {out}");
        assert!(
            err.contains(flag) && err.contains("no-such-directory"),
            "{err}"
        );
    }
    // A refusal leaves the files as they were: an old review is not emptied by a bad
    // --thresholds, a table beyond the memory or a bad --plot path, and a review that did not
    // exist is not left behind.
    let old_review = dir.join("old-review.pdn");
    std::fs::write(&old_review, "an earlier review").unwrap();
    let new_review = dir.join("new-review.pdn");
    let bad_plot = dir.join("no-such-directory").join("p.svg");
    let pdn_args = ["analyze", "--pdn", games.to_str().unwrap()];
    let refusals: [(Vec<&str>, &str); 3] = [
        (vec!["--thresholds", "9,8,7"], "--thresholds"),
        (vec!["--hash", "200"], "100 MiB"),
        (vec!["--plot", bad_plot.to_str().unwrap()], "--plot"),
    ];
    for review in [&old_review, &new_review] {
        for (more, says) in &refusals {
            let mut args = pdn_args.to_vec();
            args.extend(["--review", review.to_str().unwrap()]);
            args.extend(more);
            refused(&args, &[says]);
        }
    }
    assert_eq!(
        std::fs::read_to_string(&old_review).unwrap(),
        "an earlier review"
    );
    assert!(!new_review.exists());
    // The games read are never the review written.
    let before = std::fs::read_to_string(&games).unwrap();
    for flag in ["--review", "--plot"] {
        let (_, err, ok) = tiao(&[pdn_args[0], pdn_args[1], pdn_args[2], flag, pdn_args[2]]);
        assert!(!ok);
        assert!(err.contains("is the --pdn file"), "{err}");
    }
    assert_eq!(std::fs::read_to_string(&games).unwrap(), before);
    let _ = std::fs::remove_dir_all(&dir);
}
