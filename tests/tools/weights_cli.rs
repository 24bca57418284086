//! `--weights FILE` and the engine option `weights`: a pattern-weight file chosen at run time
//! instead of the embedded one. The choice is the process's, so every check runs the binary
//! (a test process of its own) rather than choosing in this one, whose other tests evaluate.

use super::cli_support::tiao;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use tiao::draughts::eval::patterns::{self, PatternWeights};

/// Russian positions with men and kings where the patterns have their say.
const FENS: [&str; 3] = [
    "W:Wa1,c1,e1,b2,d2,f2,a3,c3,g3,f4:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,h8",
    "B:Wa1,c1,e1,b2,f2,a3,e3,g3,d4:Bb6,d6,h6,a7,e7,g7,b8,f8,h8",
    "W:WKa1,c3,e3,g3,b4:Bb6,d6,Kh8,f8,a7",
];

/// A file of this call's own under the temporary directory (the tests run side by side).
fn temp(name: &str) -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!("tiao-weights-{}-{n}-{name}", std::process::id()))
}

/// Writes `bytes` to a file of this test's own and returns its path.
fn file_with(name: &str, bytes: &[u8]) -> PathBuf {
    let p = temp(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

/// The embedded flying-8x8 weights, as a file.
fn embedded_copy() -> PathBuf {
    file_with(
        "embedded.tpw",
        patterns::embedded_file("flying-8x8").unwrap(),
    )
}

/// A flying-8x8 file whose patterns are all zero: the hand-made evaluation alone.
fn zero_file() -> PathBuf {
    let w = PatternWeights::zero("flying-8x8", 4, patterns::SHAPES_4X4);
    file_with("zero.tpw", &w.to_bytes())
}

/// `tiao analyze -v russian --fen F --depth 8 --json` with `extra`: each position's line without
/// the timing fields.
fn analyses(extra: &[&str]) -> Result<Vec<String>, String> {
    let mut lines = Vec::new();
    for fen in FENS {
        let mut args = vec![
            "analyze",
            "-v",
            "russian",
            "--fen",
            fen,
            "--depth",
            "8",
            "--json",
            "--no-book",
            "--egdb",
            "none",
        ];
        args.extend_from_slice(extra);
        let (out, err, ok) = tiao(&args);
        if !ok {
            return Err(err);
        }
        let line = out.trim().to_string();
        let cut = |s: &str, key: &str| -> String {
            let start = s.find(&format!("\"{key}\":")).unwrap();
            let end = start + s[start..].find(',').unwrap() + 1;
            format!("{}{}", &s[..start], &s[end..])
        };
        lines.push(cut(&cut(&line, "nps"), "time_ms"));
    }
    Ok(lines)
}

#[test]
fn a_weights_file_is_what_the_engine_evaluates_with() {
    let (copy, zero) = (embedded_copy(), zero_file());
    let embedded = analyses(&[]).unwrap();
    // The embedded weights' own bytes from a file: the same searches, node for node.
    assert_eq!(
        analyses(&["--weights", copy.to_str().unwrap()]).unwrap(),
        embedded
    );
    // The patterns left out: other searches (scores, nodes or moves).
    let hand_made = analyses(&["--weights", zero.to_str().unwrap()]).unwrap();
    assert_ne!(hand_made, embedded);
    // The same file, the same searches again: nothing depends on which run read it.
    assert_eq!(
        analyses(&["--weights", zero.to_str().unwrap()]).unwrap(),
        hand_made
    );
    // The text output names the weights and the file.
    let (out, err, ok) = tiao(&[
        "analyze",
        "-v",
        "russian",
        "--depth",
        "2",
        "--weights",
        zero.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let line = out.lines().find(|l| l.starts_with("evaluation")).unwrap();
    assert!(line.contains(&format!("from {}", zero.display())), "{line}");
    assert!(!line.contains(&patterns::identity("flying-8x8")), "{line}");
    // The JSON lines name the weights too: a copy of the embedded file by the embedded
    // weights' identity (the checksum is the identity), the zero file by another.
    let weights_of = |lines: &[String]| -> Vec<String> {
        lines
            .iter()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                v["weights"].as_str().unwrap().to_string()
            })
            .collect()
    };
    let embedded_id = patterns::identity("flying-8x8");
    assert!(weights_of(&embedded).iter().all(|w| *w == embedded_id));
    let zero_ids = weights_of(&hand_made);
    assert!(
        zero_ids
            .iter()
            .all(|w| w.starts_with("flying-8x8:") && *w != embedded_id),
        "{zero_ids:?}"
    );

    // Self-play with the file: deterministic, and its games are the hand-made evaluation's.
    let run = |name: &str, extra: &[&str]| {
        let out = temp(name);
        let _ = std::fs::remove_file(&out);
        let mut args = vec![
            "selfplay",
            "-v",
            "russian",
            "--games",
            "6",
            "--nodes",
            "500",
            "--seed",
            "3",
            "--threads",
            "1",
            "--egdb",
            "none",
            "--out",
        ];
        args.push(out.to_str().unwrap());
        args.extend_from_slice(extra);
        let (_, err, ok) = tiao(&args);
        assert!(ok, "{err}");
        let bytes = std::fs::read(&out).unwrap();
        std::fs::remove_file(&out).ok();
        bytes
    };
    let weighted = ["--weights", zero.to_str().unwrap()];
    let a = run("sp-a.tsd", &weighted);
    assert_eq!(run("sp-b.tsd", &weighted), a);
    assert_ne!(run("sp-c.tsd", &[]), a);
    std::fs::remove_file(copy).ok();
    std::fs::remove_file(zero).ok();
}

#[test]
fn bad_weight_files_are_refused_by_name() {
    let embedded = patterns::embedded_file("flying-8x8").unwrap();
    let garbage = file_with("garbage.tpw", b"\x00\xffnot weights at all\x13\x37");
    let truncated = file_with("truncated.tpw", &embedded[..embedded.len() / 2]);
    let mut flipped = embedded.to_vec();
    flipped[30] ^= 0x5a; // in the header's checksum of the body
    let flipped = file_with("flipped.tpw", &flipped);
    let foreign = file_with(
        "international.tpw",
        patterns::embedded_file("international").unwrap(),
    );
    let missing = temp("missing.tpw");
    let dir = std::env::temp_dir();
    let cases: [(&PathBuf, &str); 6] = [
        (&garbage, "not a tiao pattern-weight file"),
        (&truncated, "cut short"),
        (&flipped, "checksum"),
        (
            &foreign,
            "family international, where russian needs flying-8x8",
        ),
        (&missing, "No such file"),
        (&dir, "directory"),
    ];
    for (path, why) in cases {
        let p = path.to_str().unwrap();
        for args in [
            vec!["analyze", "-v", "russian", "--depth", "2", "--weights", p],
            vec![
                "selfplay",
                "-v",
                "russian",
                "--games",
                "2",
                "--nodes",
                "100",
                "--weights",
                p,
                "--out",
                "/nonexistent-dir/x.tsd",
            ],
        ] {
            let (out, err, ok) = tiao(&args);
            assert!(!ok, "{args:?} accepted: {out}");
            assert!(
                err.contains("--weights") && err.contains(p),
                "{args:?}: {err}"
            );
            assert!(err.contains(why), "{args:?}: {err}");
        }
    }
    // Morris has no pattern weights; built-in engines of one match share one process's.
    let copy = embedded_copy();
    let (_, err, ok) = tiao(&[
        "analyze",
        "-v",
        "morris",
        "--weights",
        copy.to_str().unwrap(),
    ]);
    assert!(
        !ok && err.contains("morris has no pattern weights"),
        "{err}"
    );
    let spec = format!("tiao weights={}", copy.display());
    let (_, err, ok) = tiao(&[
        "match", "-v", "russian", "--engine", &spec, "--engine", "tiao", "--games", "2", "--nodes",
        "100",
    ]);
    assert!(!ok && err.contains("external engine"), "{err}");
    let (out, err, ok) = tiao(&[
        "match", "-v", "russian", "--engine", &spec, "--engine", &spec, "--games", "2", "--nodes",
        "100",
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("by a fault (A 0, B 0)"), "{out}");
    for p in [garbage, truncated, flipped, foreign, copy] {
        std::fs::remove_file(p).ok();
    }
}

/// Sends `lines` to `tiao hub` and returns its answers (the `param` lines but `weights`'s left
/// out); with `search`, `quit` only after the search's `done`.
fn hub(args: &[&str], lines: &[String], search: bool) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tiao"))
        .arg("hub")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for l in lines {
        writeln!(stdin, "{l}").unwrap();
    }
    let mut stdin = Some(stdin);
    if !search {
        writeln!(stdin.take().unwrap(), "quit").unwrap();
    }
    let mut out = Vec::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        if line.starts_with("done")
            && let Some(mut s) = stdin.take()
        {
            writeln!(s, "quit").unwrap();
        }
        if !line.starts_with("param ") || line.contains("name=weights") {
            out.push(line);
        }
    }
    child.wait().unwrap();
    out
}

#[test]
fn the_hub_sets_weights_refuses_bad_ones_and_goes_back() {
    let (zero, garbage) = (
        zero_file(),
        file_with("hub-garbage.tpw", b"TIAOPAT\0 but nothing after"),
    );
    let search = |extra: Vec<String>| {
        let mut lines: Vec<String> = ["hub", "set-param name=variant value=russian"]
            .map(String::from)
            .to_vec();
        lines.extend(extra);
        lines.extend(
            [
                "init",
                &format!("pos fen=\"{}\"", FENS[0]),
                "level depth=8",
                "go analyze",
            ]
            .map(String::from),
        );
        hub(&["--no-book", "--egdb", "none"], &lines, true)
    };
    let last_info = |out: &[String]| {
        let info = out
            .iter()
            .rfind(|l| l.starts_with("info depth="))
            .unwrap()
            .clone();
        // Nodes and the score, not the time.
        info.split(' ')
            .filter(|w| w.starts_with("nodes=") || w.starts_with("score="))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let embedded = search(vec![]);
    let set_zero = format!("set-param name=weights value={}", zero.display());
    let with_zero = search(vec![set_zero.clone()]);
    let info = with_zero
        .iter()
        .find(|l| l.starts_with("info message=\"weights:"))
        .unwrap();
    assert!(
        info.contains("flying-8x8:") && info.contains(&format!("from {}", zero.display())),
        "{info}"
    );
    assert_ne!(last_info(&with_zero), last_info(&embedded));
    // A refused file: an error naming it, and the weights stay as they were.
    let refused = search(vec![
        set_zero.clone(),
        format!("set-param name=weights value={}", garbage.display()),
    ]);
    let error = refused.iter().find(|l| l.starts_with("error")).unwrap();
    assert!(error.contains(garbage.to_str().unwrap()), "{error}");
    assert_eq!(last_info(&refused), last_info(&with_zero));
    // `default`: the embedded weights again.
    let back = search(vec![
        set_zero,
        "set-param name=weights value=default".to_string(),
    ]);
    assert_eq!(last_info(&back), last_info(&embedded));
    // `tiao hub --weights FILE`: `id` names the file's weights, the parameter the file.
    let out = hub(
        &["--weights", zero.to_str().unwrap()],
        &["hub".to_string()],
        false,
    );
    let id = out.iter().find(|l| l.starts_with("id ")).unwrap();
    assert!(!id.contains(&patterns::identity("flying-8x8")), "{id}");
    assert!(id.contains(&patterns::identity("international")), "{id}");
    let param = out.iter().find(|l| l.contains("name=weights")).unwrap();
    assert!(param.contains(zero.to_str().unwrap()), "{param}");
    std::fs::remove_file(zero).ok();
    std::fs::remove_file(garbage).ok();
}

/// An international file whose patterns are all zero.
fn zero_international() -> PathBuf {
    let w = PatternWeights::zero("international", 5, patterns::SHAPES_4X4);
    file_with("zero-international.tpw", &w.to_bytes())
}

#[test]
fn one_hub_holds_a_file_for_each_family_and_refuses_two_of_one() {
    let (flying, international) = (zero_file(), zero_international());
    let id_of = |out: &[String]| out.iter().find(|l| l.starts_with("id ")).unwrap().clone();
    let param_of = |out: &[String]| {
        out.iter()
            .find(|l| l.contains("name=weights"))
            .unwrap()
            .clone()
    };
    // `--weights` twice, one file a family: `id` names both files' weights, not the embedded
    // ones, and English keeps its embedded weights.
    let out = hub(
        &[
            "--weights",
            flying.to_str().unwrap(),
            "--weights",
            international.to_str().unwrap(),
        ],
        &["hub".to_string()],
        false,
    );
    let id = id_of(&out);
    assert!(!id.contains(&patterns::identity("flying-8x8")), "{id}");
    assert!(!id.contains(&patterns::identity("international")), "{id}");
    assert!(id.contains(&patterns::identity("english")), "{id}");
    // The parameter lists both, in the system's path-list form, and setting that value back
    // (a GUI echoing it) is accepted and names both files.
    let param = param_of(&out);
    let joined = std::env::join_paths([&flying, &international]).unwrap();
    let joined = joined.to_str().unwrap();
    assert!(param.contains(joined), "{param}");
    let out = hub(
        &[],
        &[
            "hub".to_string(),
            format!("set-param name=weights value={joined}"),
        ],
        false,
    );
    let info = out
        .iter()
        .find(|l| l.starts_with("info message=\"weights:"))
        .unwrap();
    for f in [&flying, &international] {
        assert!(info.contains(&format!("from {}", f.display())), "{info}");
    }
    assert!(
        info.contains("english:") && info.contains("(embedded)"),
        "{info}"
    );
    // Two files of one family: refused by name, the weights as they were.
    let twice = zero_file();
    let out = hub(
        &[],
        &[
            format!("set-param name=weights value={}", international.display()),
            "hub".to_string(),
            format!(
                "set-param name=weights value={}",
                std::env::join_paths([&flying, &twice])
                    .unwrap()
                    .to_str()
                    .unwrap()
            ),
            "hub".to_string(),
        ],
        false,
    );
    let error = out.iter().find(|l| l.starts_with("error")).unwrap();
    assert!(
        error.contains("two weight files of family flying-8x8")
            && error.contains(flying.to_str().unwrap())
            && error.contains(twice.to_str().unwrap()),
        "{error}"
    );
    let ids: Vec<&String> = out.iter().filter(|l| l.starts_with("id ")).collect();
    assert_eq!(ids.len(), 2, "{out:?}");
    assert_eq!(ids[0], ids[1], "the refused pair changed the weights");
    assert!(!ids[1].contains(&patterns::identity("international")));
    assert!(ids[1].contains(&patterns::identity("flying-8x8")));
    // The command line refuses the same.
    let out = Command::new(env!("CARGO_BIN_EXE_tiao"))
        .args(["hub", "--weights", flying.to_str().unwrap()])
        .args(["--weights", twice.to_str().unwrap()])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(
        text.contains("two weight files of family flying-8x8"),
        "{text}"
    );
    for f in [flying, international, twice] {
        std::fs::remove_file(f).ok();
    }
}
