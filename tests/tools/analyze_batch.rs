//! `tiao analyze` for scripts: a file of positions gives one JSON object per line (errors
//! included, in input order), a single position with --json one object, a PDN file one object
//! per move plus a review written back as PDN and an SVG plot; stdout holds nothing else.

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use tiao::draughts::eval::patterns;
use tiao::pdn;

fn tiao() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tiao"))
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tiao-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs `tiao` with these arguments; it must succeed. Returns its stdout as JSON lines.
fn run_ok(cmd: &mut Command) -> Vec<Value> {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    json_lines(&out.stdout)
}

fn json_lines(stdout: &[u8]) -> Vec<Value> {
    String::from_utf8(stdout.to_vec())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// The keys of a position line, always all present.
const POSITION_KEYS: [&str; 16] = [
    "id", "variant", "fen", "side", "best", "best_hub", "score", "win_in", "loss_in", "depth",
    "seldepth", "pv", "nodes", "time_ms", "nps", "weights",
];

#[test]
fn a_file_of_positions_gives_one_object_per_line() {
    let dir = temp_dir("positions");
    let file = dir.join("positions.txt");
    std::fs::write(
        &file,
        "# a comment\nW:W31-50:B1-20 start\n\nB:W31-50:B1-20\nW:W28,33,K40,45:BK4,13,23,24 king capture\nW:W99:B1 broken\nW:W:B1 lost\n",
    )
    .unwrap();
    let lines = run_ok(
        tiao()
            .args(["analyze", "--depth", "4", "--jobs", "2", "--positions"])
            .arg(&file),
    );
    assert_eq!(lines.len(), 5);
    let ids: Vec<&str> = lines.iter().map(|l| l["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["start", "4", "king capture", "broken", "lost"]);
    for l in [&lines[0], &lines[1], &lines[2]] {
        for k in POSITION_KEYS {
            assert!(l.get(k).is_some(), "{k} missing in {l}");
        }
        assert_eq!(l["variant"], "international");
        // The embedded weights, named as `id` names them.
        assert_eq!(l["weights"], patterns::identity("international"));
        assert_eq!(l["depth"], 4);
        assert!(l["score"].is_i64());
        assert!(l["nodes"].as_u64().unwrap() > 0);
        assert!(!l["pv"].as_array().unwrap().is_empty());
        assert_eq!(l["pv"][0], l["best"]);
    }
    assert_eq!(lines[1]["side"], "black");
    assert_eq!(lines[2]["best_hub"].as_str().unwrap().split('x').count(), 4);
    assert!(lines[3]["error"].as_str().unwrap().contains("99"));
    // A lost position: no move, a proven loss at once.
    assert!(lines[4]["best"].is_null());
    assert!(lines[4]["score"].is_null());
    assert_eq!(lines[4]["loss_in"], 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn positions_from_stdin_and_a_single_position_as_json() {
    let mut child = tiao()
        .args([
            "analyze",
            "-v",
            "english",
            "--nodes",
            "3000",
            "-q",
            "--positions",
            "-",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"B:W21-32:B1-12 start\nW:W21-32:B1-12\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    assert!(out.stderr.is_empty(), "-q: nothing on stderr");
    let lines = json_lines(&out.stdout);
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["variant"], "english");
    let out = tiao()
        .args([
            "analyze",
            "--fen",
            "W:W31-50:B1-20",
            "--depth",
            "3",
            "--json",
        ])
        .output()
        .unwrap();
    let lines = json_lines(&out.stdout);
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["depth"], 3);
}

#[test]
fn a_pdn_file_gives_moves_a_review_and_plots() {
    let dir = temp_dir("review");
    let games = dir.join("games.pdn");
    std::fs::write(
        &games,
        "[White \"Alpha\"]\n[Black \"Beta\"]\n[Result \"0-2\"]\n[GameType \"20\"]\n\n\
         1. 32-28 17-22 2. 28x17 11x22 3. 37-32 16-21 {3... 22-27 is better} 0-2\n\n\
         [GameType \"21\"]\n[Result \"*\"]\n1. 11-15 23-19 2. 8-11 22-17 *\n\n\
         [GameType \"20\"]\n1. 32-28 32-28 *\n",
    )
    .unwrap();
    let review = dir.join("review.pdn");
    let plot = dir.join("eval.svg");
    let lines = run_ok(
        tiao()
            .args(["analyze", "--depth", "6", "--pdn"])
            .arg(&games)
            .arg("--review")
            .arg(&review)
            .arg("--plot")
            .arg(&plot),
    );
    // 6 + 4 moves, then the error of game 3.
    assert_eq!(lines.len(), 11);
    assert!(lines[..6].iter().all(|l| l["game"] == 1));
    assert!(lines[6..10].iter().all(|l| l["game"] == 2));
    assert_eq!(lines[10]["game"], 3);
    assert!(lines[10]["error"].as_str().unwrap().contains("ply 2"));
    let bad = &lines[5];
    assert_eq!(bad["played"], "16-21");
    assert_eq!(bad["side"], "black");
    assert_eq!(bad["move_number"], 3);
    assert!(bad["loss"].as_i64().unwrap() >= 60, "{bad}");
    assert!(["mistake", "blunder"].contains(&bad["judgement"].as_str().unwrap()));
    assert_eq!(bad["weights"], patterns::identity("international"));
    for l in &lines[..10] {
        for k in ["before", "after"] {
            assert!(l[k].get("score").is_some() && l[k].get("win_in").is_some());
        }
    }
    // The review reads back, with the mark and the engine's move.
    let text = std::fs::read_to_string(&review).unwrap();
    let reviewed = pdn::parse(&text).unwrap();
    assert_eq!(reviewed.len(), 2);
    assert_eq!(reviewed[0].tag("White"), Some("Alpha"));
    assert!(reviewed[0].tag("Annotator").is_some());
    let m = &reviewed[0].moves[5];
    assert!(matches!(m.nag, Some(2 | 4)));
    assert!(m.comments.iter().any(|c| c == "3... 22-27 is better"));
    // The engine's better move (one of its equal choices), never the move played.
    assert!(
        m.comments
            .iter()
            .any(|c| c.contains(": best ") && !c.contains("best 16-21")),
        "{m:?}"
    );
    // One plot per reviewed game: eval.svg and eval-2.svg, both well-formed.
    for p in [plot.clone(), dir.join("eval-2.svg")] {
        let svg = std::fs::read_to_string(&p).unwrap();
        let doc = roxmltree::Document::parse(&svg).unwrap();
        assert_eq!(doc.root_element().tag_name().name(), "svg");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// One batch for a whole PDN file: games of other variants (tags) among them, a game that does
/// not replay and thousands of empty games come back in file order, each game analysed under its
/// own rules, with the same results with one worker or two. (Each worker keeps one table for
/// the whole batch and empties it for every position at the cost of what was written: 100,000
/// small games take seconds, docs/tools.md.)
#[test]
fn a_large_mixed_pdn_file_is_one_batch_in_file_order() {
    let dir = temp_dir("mixed");
    let file = dir.join("mixed.pdn");
    let mut text = String::new();
    text.push_str("[Event \"a\"]\n[Result \"*\"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n");
    text.push_str("[Event \"b\"]\n[GameType \"25\"]\n[Result \"*\"]\n1. c3-d4 f6-e5 *\n\n");
    text.push_str("[Event \"c\"]\n[Result \"*\"]\n1. 32-28 19-23 2. 99-98 *\n\n");
    for _ in 0..2000 {
        text.push_str("[Event \"empty\"]\n[Result \"*\"]\n*\n\n");
    }
    text.push_str("[Event \"d\"]\n[Result \"*\"]\n1. 33-28 *\n\n");
    std::fs::write(&file, text).unwrap();
    let run = |jobs: &str| {
        let lines = run_ok(
            tiao()
                .args(["analyze", "--depth", "3", "-q", "--jobs", jobs, "--pdn"])
                .arg(&file),
        );
        lines
            .into_iter()
            .map(|mut l| {
                l.as_object_mut().unwrap().remove("time_ms");
                l
            })
            .collect::<Vec<_>>()
    };
    let lines = run("2");
    let games: Vec<u64> = lines.iter().map(|l| l["game"].as_u64().unwrap()).collect();
    assert_eq!(games, [1, 1, 1, 1, 2, 2, 3, 2004], "{lines:?}");
    assert!(lines[6]["error"].as_str().unwrap().contains("99-98"));
    // The russian game under its own rules: algebraic squares.
    assert_eq!(lines[4]["played"], "c3-d4");
    assert_eq!(lines[7]["played"], "33-28");
    assert_eq!(run("1"), lines);
}

/// The lines of a batch without the fields that measure the run (time, speed).
fn without_timing(mut lines: Vec<Value>) -> Vec<Value> {
    fn strip(v: &mut Value) {
        if let Value::Object(map) = v {
            map.remove("time_ms");
            map.remove("nps");
            map.values_mut().for_each(strip);
        }
    }
    lines.iter_mut().for_each(strip);
    lines
}

/// `--shard I/N` takes the I-th contiguous block of the positions or games, numbered as in the
/// whole file: the shards' lines and reviews, concatenated in shard order, are the whole run's
/// (the searches start from empty tables, so at a fixed depth nothing depends on the sharding).
/// A shard may be empty; `--shard` without a batch is refused.
#[test]
fn shards_of_a_batch_concatenate_to_the_whole_run() {
    let dir = temp_dir("shards");
    let games = dir.join("games.pdn");
    std::fs::write(
        &games,
        "[Result \"0-2\"]\n[GameType \"20\"]\n\n1. 32-28 17-22 2. 28x17 11x22 0-2\n\n\
         [GameType \"21\"]\n[Result \"*\"]\n1. 11-15 23-19 2. 8-11 22-17 *\n\n\
         [GameType \"20\"]\n1. 32-28 32-28 *\n\n\
         [GameType \"20\"]\n1. 31-27 19-23 2. 27-22 *\n",
    )
    .unwrap();
    let whole_review = dir.join("whole.pdn");
    let (whole_plots, shard_plots) = (dir.join("whole"), dir.join("shards"));
    std::fs::create_dir_all(&whole_plots).unwrap();
    std::fs::create_dir_all(&shard_plots).unwrap();
    let whole = run_ok(
        tiao()
            .args(["analyze", "--depth", "5", "--pdn"])
            .arg(&games)
            .arg("--review")
            .arg(&whole_review)
            .arg("--plot")
            .arg(whole_plots.join("eval.svg")),
    );
    let mut lines = Vec::new();
    let mut review = String::new();
    for i in 0..3 {
        let part = dir.join(format!("part-{i}.pdn"));
        let got = run_ok(
            tiao()
                .args([
                    "analyze",
                    "--depth",
                    "5",
                    "--shard",
                    &format!("{i}/3"),
                    "--pdn",
                ])
                .arg(&games)
                .arg("--review")
                .arg(&part)
                .arg("--plot")
                .arg(shard_plots.join("eval.svg")),
        );
        assert!(!got.is_empty(), "shard {i} of 4 games has a game");
        lines.extend(got);
        review.push_str(&std::fs::read_to_string(&part).unwrap());
    }
    assert_eq!(without_timing(lines), without_timing(whole.clone()));
    assert_eq!(review, std::fs::read_to_string(&whole_review).unwrap());
    // The plots too: eval.svg for game 1, eval-n.svg for the others that replay (2 and 4).
    let names = |d: &PathBuf| {
        let mut v: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        v.sort();
        v
    };
    assert_eq!(
        names(&whole_plots),
        ["eval-2.svg", "eval-4.svg", "eval.svg"]
    );
    assert_eq!(names(&shard_plots), names(&whole_plots));
    for n in names(&whole_plots) {
        assert_eq!(
            std::fs::read(whole_plots.join(&n)).unwrap(),
            std::fs::read(shard_plots.join(&n)).unwrap(),
            "{n}"
        );
    }
    // Game numbers are the file's: the last shard holds games 3 (the error) and 4.
    let last = run_ok(
        tiao()
            .args(["analyze", "--depth", "5", "--shard", "2/3", "--pdn"])
            .arg(&games),
    );
    assert_eq!(last[0]["game"], 3);
    assert!(last[0]["error"].is_string());
    assert!(last[1..].iter().all(|l| l["game"] == 4));

    let positions = dir.join("positions.txt");
    std::fs::write(
        &positions,
        "W:W31-50:B1-20 start\n# a comment\nB:W31-50:B1-20\nW:W99:B1 broken\n",
    )
    .unwrap();
    let whole = run_ok(
        tiao()
            .args(["analyze", "--depth", "4", "--positions"])
            .arg(&positions),
    );
    let mut lines = Vec::new();
    for i in 0..5 {
        // Five shards of three positions: two of them empty.
        lines.extend(run_ok(
            tiao()
                .args([
                    "analyze",
                    "--depth",
                    "4",
                    "--shard",
                    &format!("{i}/5"),
                    "--positions",
                ])
                .arg(&positions),
        ));
    }
    assert_eq!(without_timing(lines), without_timing(whole));

    let out = tiao()
        .args(["analyze", "--depth", "4", "--shard", "0/2"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--shard"));
    let out = tiao()
        .args(["analyze", "--shard", "2/2", "--positions"])
        .arg(&positions)
        .output()
        .unwrap();
    assert!(!out.status.success());
    std::fs::remove_dir_all(&dir).unwrap();
}
