//! `tiao spsa` end to end, on tiny runs (english, 300 nodes a move, 2 iterations of 2 pairs): a
//! run is deterministic (the same state file twice, at any concurrency), resumes after its last
//! complete line to the file an uninterrupted run writes, and refuses bad parameters, malformed
//! state files and the state file of another command line, naming the problem.

use crate::cli_support::tiao;
use std::path::{Path, PathBuf};

/// A fresh path in the temporary directory for this test process.
fn temp(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("tiao-spsa-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

/// The tiny run's arguments, with `state` and `extra`.
fn args<'a>(state: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut a = vec![
        "spsa",
        "--variant",
        "english",
        "--nodes",
        "300",
        "--pairs",
        "2",
        "--iterations",
        "2",
        "--param",
        "rfp-margin:60:20:120:6",
        "--param",
        "lmr-divisor:2:1:4:0.25",
        "--egdb",
        "none",
        "--quiet",
        "--state",
        state,
    ];
    a.extend_from_slice(extra);
    a
}

/// Runs the tiny run into `state`; its stdout.
fn run_ok(state: &Path, extra: &[&str]) -> String {
    let (out, err, ok) = tiao(&args(state.to_str().unwrap(), extra));
    assert!(ok, "{err}");
    out
}

/// Runs the tiny run into `state`, expecting a refusal; its stderr.
fn run_refused(state: &Path, extra: &[&str]) -> String {
    let (_, err, ok) = tiao(&args(state.to_str().unwrap(), extra));
    assert!(!ok, "refused: {extra:?}");
    err
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap()
}

#[test]
fn a_run_is_deterministic_resumable_and_prints_the_final_values() {
    let whole = temp("whole");
    let out = run_ok(&whole, &[]);
    let text = read(&whole);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "{text}");
    assert_eq!(lines[0], "# tiao spsa state 1");
    assert!(
        lines[1].starts_with("# command: variant=english "),
        "{text}"
    );
    assert_eq!(
        lines[2],
        "iteration\twins\tdraws\tlosses\trfp-margin\tlmr-divisor"
    );
    for (i, l) in lines[3..].iter().enumerate() {
        let f: Vec<&str> = l.split('\t').collect();
        assert_eq!(f.len(), 6, "{l}");
        assert_eq!(f[0], (i + 1).to_string());
        let games: u32 = f[1..4].iter().map(|x| x.parse::<u32>().unwrap()).sum();
        assert_eq!(games, 4, "two pairs: {l}");
    }
    // The trajectory and the final values, as words for an engine spec.
    assert!(
        out.starts_with("iteration\trfp-margin\tlmr-divisor\n0\t60\t2\n"),
        "{out}"
    );
    let last = out
        .lines()
        .find(|l| l.starts_with("final after 2 of 2 iterations: "))
        .unwrap_or_else(|| panic!("{out}"));
    let words = last.split(": ").nth(1).unwrap();
    let names: Vec<&str> = words
        .split(' ')
        .map(|w| w.split_once('=').unwrap().0)
        .collect();
    assert_eq!(names, ["rfp-margin", "lmr-divisor"]);
    assert!(out.contains(&format!("--engine \"tiao {words}\"")), "{out}");

    // The same command again, and at concurrency 2: the same file.
    let again = temp("again");
    run_ok(&again, &["--concurrency", "2"]);
    assert_eq!(read(&again), text);

    // One iteration, then the same command: the same file as two at once.
    let part = temp("part");
    let out = run_ok(&part, &["--stop-after", "1"]);
    assert!(out.contains("so far after 1 of 2 iterations: "), "{out}");
    assert_eq!(read(&part).lines().count(), 4);
    run_ok(&part, &[]);
    assert_eq!(read(&part), text);
    // A file cut in the middle of a line (an interrupted run) resumes after its last complete
    // line; a complete run rerun plays nothing and changes nothing.
    let cut = format!("{}\n{}", lines[..4].join("\n"), &lines[4][..3]);
    std::fs::write(&part, cut).unwrap();
    run_ok(&part, &[]);
    assert_eq!(read(&part), text);
    run_ok(&part, &[]);
    assert_eq!(read(&part), text);

    // Another command line's file is refused, naming what differs; so is a malformed one,
    // naming the line; the file is left as it was.
    let e = run_refused(&part, &["--seed", "2"]);
    assert!(
        e.contains("line 2: the state of another command line: seed=2 here, seed=1 in the file"),
        "{e}"
    );
    let e = run_refused(&part, &["--max-plies", "300"]);
    assert!(
        e.contains("max-plies=300 here, max-plies=400 in the file"),
        "{e}"
    );
    let edited = text.replacen("\n2\t", "\n3\t", 1);
    std::fs::write(&part, &edited).unwrap();
    let e = run_refused(&part, &[]);
    assert!(e.contains("line 5: iteration 3, expected 2"), "{e}");
    assert_eq!(read(&part), edited);
    let mut fields: Vec<&str> = lines[3].split('\t').collect();
    fields[5] = "2.5";
    std::fs::write(&part, text.replace(lines[3], &fields.join("\t"))).unwrap();
    let e = run_refused(&part, &[]);
    assert!(e.contains("line 4: θ does not follow"), "{e}");
    std::fs::write(&part, "[Event \"a PDN file\"]\n").unwrap();
    let e = run_refused(&part, &[]);
    assert!(e.contains("line 1: not a tiao spsa state file"), "{e}");
    for p in [whole, again, part] {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn bad_parameters_are_refused_before_any_game() {
    let state = temp("bad");
    for (param, part) in [
        ("queen:1:0:2:1", "unknown search parameter 'queen'"),
        ("rfp-margin:60:120:20:6", "min 120 is not below max 20"),
        ("rfp-margin:60:20:120:-1", "c_end -1 is not above 0"),
        ("lmr:1:0:1:1", "lmr is a switch"),
        ("rfp-margin:60:20", "expected name:start:min:max:c_end"),
    ] {
        let e = run_refused(&state, &["--param", param]);
        assert!(e.contains(part), "{param}: {e}");
    }
    let e = run_refused(&state, &["--param", "rfp-margin:60:20:120:6"]);
    assert!(e.contains("rfp-margin is given twice"), "{e}");
    // A parameter file names its bad line.
    let file = temp("params.txt");
    std::fs::write(&file, "# tuned\nlmp-base:3:0:8:1\n\nrfp-margin:60:20\n").unwrap();
    let (_, e, ok) = tiao(&[
        "spsa",
        "--params",
        file.to_str().unwrap(),
        "--iterations",
        "1",
        "--state",
        state.to_str().unwrap(),
    ]);
    assert!(!ok);
    assert!(
        e.contains("params.txt:4: parameter 'rfp-margin:60:20'"),
        "{e}"
    );
    assert!(!state.exists(), "nothing written");
    let (out, _, ok) = tiao(&["spsa", "--help"]);
    assert!(ok);
    assert!(out.contains("Examples:\n  tiao spsa "), "{out}");
    let _ = std::fs::remove_file(file);
}
