//! `tiao relabel` end to end on a small self-play file: only the scores change, the shards
//! concatenate to the whole, an interrupted output resumes to the same bytes, and another
//! relabelling's output, the input itself, foreign and damaged data are refused by name.

use crate::cli_support::tiao;
use std::path::{Path, PathBuf};
use tiao::game::Variant;
use tiao::training::data;

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("tiao-relabel-{}-{name}", std::process::id()))
}

fn records(path: &Path) -> Vec<data::Record> {
    data::read_all(std::fs::File::open(path).unwrap(), Variant::English).unwrap()
}

/// `tiao relabel` of english data at 1,500 nodes, or at `--nodes` when `extra` gives it.
fn relabel(input: &Path, out: &Path, extra: &[&str]) -> (String, String, bool) {
    let nodes = if extra.contains(&"--nodes") {
        &[][..]
    } else {
        &["--nodes", "1500"][..]
    };
    let mut args = vec![
        "relabel",
        "-v",
        "english",
        "--hash",
        "1",
        "--data",
        input.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(nodes);
    args.extend_from_slice(extra);
    tiao(&args)
}

/// A small english self-play file `name` of `games` games at 200 nodes, a chunk a game.
fn selfplay_input(name: &str, games: &str) -> PathBuf {
    let input = temp(name);
    let _ = std::fs::remove_file(&input);
    let (_, err, ok) = tiao(&[
        "selfplay",
        "-v",
        "english",
        "--games",
        games,
        "--nodes",
        "200",
        "--chunk-games",
        "1",
        "--threads",
        "2",
        "--out",
        input.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    input
}

#[test]
fn relabel_changes_only_scores_and_shards_and_resumes() {
    let input = selfplay_input("in.tsd", "6");
    let original = records(&input);

    let whole = temp("whole.tsd");
    let _ = std::fs::remove_file(&whole);
    let (out, err, ok) = relabel(&input, &whole, &["--threads", "2"]);
    assert!(ok, "{err}");
    assert!(
        out.contains(&format!("{} positions at 1500 nodes", original.len())),
        "{out}"
    );
    let new = records(&whole);
    assert_eq!(new.len(), original.len());
    let strip = |r: &data::Record| (r.white, r.black, r.kings, r.side.index(), r.result, r.ply);
    assert!(new.iter().zip(&original).all(|(n, o)| strip(n) == strip(o)));
    assert!(new.iter().zip(&original).any(|(n, o)| n.score != o.score));
    // Every chunk header says the label's node count.
    assert!(
        data::scan(&std::fs::read(&whole).unwrap())
            .chunks
            .iter()
            .all(|h| h.nodes == 1500)
    );

    // The shards, one thread each, concatenated in chunk order: the same records.
    let (s0, s1) = (temp("s0.tsd"), temp("s1.tsd"));
    for (p, s) in [(&s0, "0/2"), (&s1, "1/2")] {
        let _ = std::fs::remove_file(p);
        let (_, err, ok) = relabel(&input, p, &["--shard", s, "--threads", "1"]);
        assert!(ok, "{err}");
    }
    let (a, b) = (records(&s0), records(&s1));
    let sorted = |v: Vec<data::Record>| {
        let mut k: Vec<_> = v.iter().map(|r| (strip(r), r.score)).collect();
        k.sort();
        k
    };
    assert_eq!(sorted([a, b].concat()), sorted(new.clone()));

    // Cut inside the last chunk: the run resumes and ends with the same bytes.
    let bytes = std::fs::read(&whole).unwrap();
    let cut = temp("cut.tsd");
    std::fs::write(&cut, &bytes[..bytes.len() - 5]).unwrap();
    let (_, err, ok) = relabel(&input, &cut, &[]);
    assert!(ok, "{err}");
    assert!(err.contains("resuming after chunk 5"), "{err}");
    assert_eq!(std::fs::read(&cut).unwrap(), bytes);

    // Another node count's output is not appended to; nor is the input overwritten.
    let (_, err, ok) = relabel(&input, &whole, &["--nodes", "900"]);
    assert!(!ok && err.contains("relabelled at 900 nodes"), "{err}");
    assert_eq!(std::fs::read(&whole).unwrap(), bytes);
    // Nor is a cut one of another node count touched (its cut-off chunk stays until a resume).
    std::fs::write(&cut, &bytes[..bytes.len() - 5]).unwrap();
    let (_, err, ok) = relabel(&input, &cut, &["--nodes", "900"]);
    assert!(!ok && err.contains("relabelled at 900 nodes"), "{err}");
    assert_eq!(std::fs::read(&cut).unwrap(), &bytes[..bytes.len() - 5]);
    let (_, err, ok) = relabel(&input, &input, &[]);
    assert!(!ok && err.contains("is the input"), "{err}");
    let dotted = input
        .parent()
        .unwrap()
        .join(".")
        .join(input.file_name().unwrap());
    let (_, err, ok) = relabel(&input, &dotted, &[]);
    assert!(!ok && err.contains("is the input"), "{err}");
    // Another variant's data, and a damaged input, are refused by name.
    let (_, err, ok) = tiao(&[
        "relabel",
        "-v",
        "russian",
        "--data",
        input.to_str().unwrap(),
        "--out",
        temp("ru.tsd").to_str().unwrap(),
    ]);
    assert!(
        !ok && err.contains("english data where russian was expected"),
        "{err}"
    );
    let garbage = temp("garbage.tsd");
    std::fs::write(&garbage, b"not a data file at all, clearly").unwrap();
    let (_, err, ok) = relabel(&garbage, &temp("g-out.tsd"), &[]);
    assert!(!ok && err.contains("not tiao self-play data"), "{err}");
    for p in [
        input,
        whole,
        s0,
        s1,
        cut,
        garbage,
        temp("ru.tsd"),
        temp("g-out.tsd"),
    ] {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn relabel_of_the_endings_keeps_the_rest_and_its_settings() {
    let input = selfplay_input("end-in.tsd", "4");
    let original = records(&input);
    let pieces = |r: &data::Record| (r.white | r.black).count_ones();
    assert!(original.iter().any(|r| pieces(r) > 12) && original.iter().any(|r| pieces(r) <= 12));

    // Only the positions of at most 12 pieces are searched again.
    let out = temp("end-out.tsd");
    let settings = PathBuf::from(format!("{}.relabel", out.display()));
    let _ = std::fs::remove_file(&out);
    let (_, err, ok) = relabel(&input, &out, &["--max-pieces", "12", "--threads", "1"]);
    assert!(ok, "{err}");
    assert!(err.contains("max-pieces 12, endgame tables none"), "{err}");
    let new = records(&out);
    assert_eq!(new.len(), original.len());
    for (n, o) in new.iter().zip(&original) {
        if pieces(o) > 12 {
            assert_eq!(n, o);
        }
    }
    assert!(
        new.iter()
            .zip(&original)
            .any(|(n, o)| pieces(o) <= 12 && n.score != o.score)
    );
    assert_eq!(
        std::fs::read_to_string(&settings).unwrap(),
        "max-pieces 12, endgame tables none\n"
    );

    // A resume with other settings is refused and changes nothing; with the same, it ends.
    let bytes = std::fs::read(&out).unwrap();
    std::fs::write(&out, &bytes[..bytes.len() - 5]).unwrap();
    let (_, err, ok) = relabel(&input, &out, &["--max-pieces", "10"]);
    assert!(
        !ok && err
            .contains("relabelled with max-pieces 12, endgame tables none, not max-pieces 10"),
        "{err}"
    );
    let (_, err, ok) = relabel(&input, &out, &[]);
    assert!(!ok && err.contains("not max-pieces all"), "{err}");
    assert_eq!(std::fs::read(&out).unwrap(), &bytes[..bytes.len() - 5]);
    let (_, err, ok) = relabel(&input, &out, &["--max-pieces", "12"]);
    assert!(ok, "{err}");
    assert_eq!(std::fs::read(&out).unwrap(), bytes);

    // Tables that are not there are refused by name.
    let missing = temp("no-such-tables");
    let (_, err, ok) = relabel(
        &input,
        &temp("end-eg.tsd"),
        &["--egdb", missing.to_str().unwrap()],
    );
    assert!(!ok && err.contains("no such directory"), "{err}");
    let empty = temp("empty-tables");
    std::fs::create_dir_all(&empty).unwrap();
    let (_, err, ok) = relabel(
        &input,
        &temp("end-eg.tsd"),
        &["--egdb", empty.to_str().unwrap()],
    );
    assert!(!ok && err.contains("no english tables there"), "{err}");
    let _ = std::fs::remove_dir_all(&empty);
    for p in [input, out, settings, temp("end-eg.tsd")] {
        let _ = std::fs::remove_file(p);
    }
}
