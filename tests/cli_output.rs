//! The command line's manners: a reader that stops early (`| head`) ends the program quietly, as
//! Unix tools do, instead of a panic; search parameters set with `--set` reach the search, and a
//! bad one is an error naming it.

mod cli_support;

use cli_support::tiao;
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
