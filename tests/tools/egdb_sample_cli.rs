//! `tiao egdb sample` end to end on small russian tables built here: the lines are well formed
//! and name their slice, the same seed gives the same bytes, `--min-pieces` and `--positions`
//! choose the positions, a lone king against a lone king is nearly always drawn, and a directory
//! without tables or a bad FEN in `--positions` is refused (naming the directory or the line;
//! an earlier output is left as it was).

use crate::cli_support::tiao;
use std::path::{Path, PathBuf};

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("tiao-sample-{}-{name}", std::process::id()))
}

fn sample(dir: &str, out: &Path, extra: &[&str]) -> (String, String, bool) {
    let mut args = vec![
        "egdb",
        "sample",
        "-v",
        "russian",
        "--dir",
        dir,
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    tiao(&args)
}

#[test]
fn egdb_sample_draws_labelled_quiet_positions_from_the_tables() {
    let dir = temp("tables");
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let (_, err, ok) = tiao(&[
        "egdb", "build", "-v", "russian", "--pieces", "3", "--dir", d, "--quiet",
    ]);
    assert!(ok, "{err}");

    let (a, b, c) = (temp("a.txt"), temp("b.txt"), temp("c.txt"));
    let (_, err, ok) = sample(d, &a, &["--per-slice", "300", "--seed", "5"]);
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&a).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() > 1000, "{} lines", lines.len());
    let (mut kvk, mut kvk_drawn) = (0u32, 0u32);
    for l in &lines {
        let f: Vec<&str> = l.split(' ').collect();
        assert_eq!(f.len(), 3, "{l}");
        assert_eq!(f[0].len(), 32, "{l}");
        assert!(f[0].chars().all(|c| ".mkxy".contains(c)), "{l}");
        assert!(["W", "D", "L"].contains(&f[1]), "{l}");
        let (us, them) = f[2].split_once('v').unwrap();
        let count = |c: char| f[0].chars().filter(|&x| x == c).count();
        assert_eq!(count('k'), us.matches('K').count(), "{l}");
        assert_eq!(count('m'), us.matches('M').count(), "{l}");
        assert_eq!(count('y'), them.matches('K').count(), "{l}");
        assert_eq!(count('x'), them.matches('M').count(), "{l}");
        if f[2] == "KvK" {
            kvk += 1;
            kvk_drawn += (f[1] == "D") as u32;
        }
    }
    // A lone king against a lone king is drawn but where one is caught at once.
    assert!(
        kvk > 100 && kvk_drawn * 10 > kvk * 9,
        "{kvk_drawn} of {kvk}"
    );
    // Values of both sides and of every kind.
    for v in [" W ", " D ", " L "] {
        assert!(text.contains(v), "no {v}");
    }

    // The same seed, the same bytes; another seed, others.
    let (_, err, ok) = sample(d, &b, &["--per-slice", "300", "--seed", "5"]);
    assert!(ok, "{err}");
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    let (_, err, ok) = sample(d, &c, &["--per-slice", "300", "--seed", "6"]);
    assert!(ok, "{err}");
    assert_ne!(std::fs::read(&a).unwrap(), std::fs::read(&c).unwrap());

    // --min-pieces 3: only the 3-piece slices.
    let (_, err, ok) = sample(d, &c, &["--per-slice", "50", "--min-pieces", "3"]);
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&c).unwrap();
    assert!(!text.is_empty());
    assert!(
        text.lines()
            .all(|l| l.split(' ').nth(2).unwrap().len() == 4),
        "{text}"
    );

    // --positions: a file of FENs; a position with Black to move is written turned round, from
    // its side to move's view; positions with a capture to make or too many pieces are left out.
    let fens = temp("fens.txt");
    std::fs::write(
        &fens,
        "W:WKa1:BKh8\nB:WKa1:BKh8,Kg7\n# a comment\nW:Wc3:Bd4\nW:WKa1,Kb2,Kc3,Kd4:BKh8\n",
    )
    .unwrap();
    let (_, err, ok) = sample(d, &c, &["--positions", fens.to_str().unwrap()]);
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&c).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    // The king in the corner a1 has only the long diagonal, on which the other king waits: it
    // must step into its capture.
    assert!(lines[0].ends_with(" L KvK"), "{text}");
    assert!(lines[1].ends_with(" KKvK"), "{text}");
    // Black's two kings are the side to move's own after the turn: h8 and g7 become a1 and b2.
    let sq = |l: &str, n: usize| l.as_bytes()[n - 1] as char;
    assert_eq!(sq(lines[1], 29), 'k', "{}", lines[1]); // a1 is square 29
    assert_eq!(sq(lines[1], 4), 'y', "{}", lines[1]); // h8 is square 4

    // A bad FEN is refused, naming the file's line, and the output of before is left as it was.
    let before = std::fs::read(&c).unwrap();
    std::fs::write(&fens, "W:WKa1:BKh8\nW:Wz9:Bh8\n").unwrap();
    let (_, err, ok) = sample(d, &c, &["--positions", fens.to_str().unwrap()]);
    assert!(!ok);
    assert!(err.contains("line 2"), "{err}");
    assert_eq!(std::fs::read(&c).unwrap(), before);

    // No tables of the variant: an error naming the directory, no output.
    let empty = temp("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let out = temp("none.txt");
    let (_, err, ok) = sample(empty.to_str().unwrap(), &out, &["--per-slice", "10"]);
    assert!(!ok);
    assert!(err.contains("no russian tables"), "{err}");
    assert!(!out.exists());
    let _ = std::fs::remove_dir_all(&empty);

    for p in [a, b, c, fens] {
        let _ = std::fs::remove_file(p);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
