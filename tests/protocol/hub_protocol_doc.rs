//! protocol.md shows real output: its error table and its deterministic example sessions are
//! replayed against the binary, and its Scores table's ranges are checked against the engine's
//! score constants and `table_score`, so the page cannot drift from what the engine says.

use crate::hub_common::{Engine, PATIENCE};

const DOC: &str = include_str!("../../protocol.md");

/// The rows `| `<input>` | `error message="..."` |` of the error table.
fn error_rows() -> Vec<(String, String)> {
    DOC.lines()
        .filter_map(|l| {
            let cells: Vec<&str> = l.split(" | ").collect();
            if cells.len() != 2 {
                return None;
            }
            let input = cells[0].strip_prefix("| `")?.strip_suffix('`')?;
            let answer = cells[1].strip_prefix('`')?.strip_suffix("` |")?;
            answer
                .starts_with("error message=")
                .then(|| (input.to_string(), answer.to_string()))
        })
        .collect()
}

/// The ```text blocks made only of `> sent` and `< received` lines, without searches whose
/// output depends on time (`info`) and without shortened lines (`...`).
fn sessions() -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut block: Option<Vec<String>> = None;
    for line in DOC.lines() {
        let t = line.trim();
        match (&mut block, t) {
            (None, "```text") => block = Some(Vec::new()),
            (Some(_), "```") => {
                let b = block.take().unwrap();
                let replayable = !b.is_empty()
                    && b.iter().all(|l| l.starts_with("> ") || l.starts_with("< "))
                    && !b
                        .iter()
                        .any(|l| l.contains("...") || l.starts_with("< info"));
                if replayable {
                    out.push(b);
                }
            }
            (Some(b), t) => b.push(t.to_string()),
            _ => {}
        }
    }
    out
}

#[test]
fn the_error_table_is_what_the_engine_says() {
    let rows = error_rows();
    assert!(rows.len() >= 10, "{rows:?}");
    let mut e = Engine::hub();
    for (input, answer) in rows {
        e.send(&input);
        assert_eq!(e.expect("error"), answer, "{input}");
    }
    e.quit();
}

#[test]
fn the_example_sessions_replay() {
    let sessions = sessions();
    assert!(sessions.len() >= 3, "{sessions:?}");
    for s in sessions {
        let mut e = Engine::hub();
        let mut expected = Vec::new();
        for l in &s {
            if let Some(sent) = l.strip_prefix("> ") {
                e.send(sent);
            } else {
                expected.push(l[2..].to_string());
            }
        }
        let got: Vec<String> = expected
            .iter()
            .map_while(|_| e.next_line(PATIENCE))
            .collect();
        assert_eq!(got, expected, "{s:#?}");
        assert!(e.sync().is_empty(), "nothing more");
        e.quit();
    }
}

/// The rows `| LO to HI | meaning |` of protocol.md's `## Scores` table: the bounds in
/// centi-men, and the meaning.
fn score_rows() -> Vec<(i32, i32, String)> {
    let section = DOC
        .split("\n## Scores\n")
        .nth(1)
        .expect("protocol.md has a Scores section");
    let section = section.split("\n## ").next().unwrap_or(section);
    section
        .lines()
        .filter_map(|l| {
            let cells: Vec<&str> = l
                .trim()
                .strip_prefix('|')?
                .strip_suffix('|')?
                .split('|')
                .map(str::trim)
                .collect();
            let [range, meaning] = cells[..] else {
                return None;
            };
            let (lo, hi) = range.split_once(" to ")?;
            Some((centi_men(lo)?, centi_men(hi)?, meaning.to_string()))
        })
        .collect()
}

/// A score as the Hub writes it (men, two decimals: `-84.49`) in centi-men.
fn centi_men(text: &str) -> Option<i32> {
    let (sign, t) = match text.strip_prefix('-') {
        Some(t) => (-1, t),
        None => (1, text),
    };
    let (men, hundredths) = t.split_once('.')?;
    if hundredths.len() != 2 {
        return None;
    }
    Some(sign * (men.parse::<i32>().ok()? * 100 + hundredths.parse::<i32>().ok()?))
}

#[test]
fn the_scores_table_lists_every_range_the_engine_writes() {
    use tiao::egdb::{Probed, Wdl};
    use tiao::game::EVAL_MAX;
    use tiao::search::score::{
        MAX_PLY, Score, ScoreKind, TABLE_DISTANCE_MAX, TABLE_MIN, TABLE_WIN, WIN, WIN_MIN,
        table_score, win_in,
    };
    // The lowest table win with a distance (the deepest hit, the longest distance); the
    // highest without one is just below it.
    let far = TABLE_WIN - MAX_PLY as i32 - TABLE_DISTANCE_MAX;
    let expected: [(i32, i32, &[&str]); 7] = [
        (-EVAL_MAX, EVAL_MAX, &["heuristic evaluation"]),
        (far, TABLE_WIN, &["endgame-table win", "distance"]),
        (
            TABLE_MIN,
            far - 1,
            &["endgame-table win", "without distances"],
        ),
        (-TABLE_WIN, -far, &["endgame-table loss"]),
        (
            -(far - 1),
            -TABLE_MIN,
            &["endgame-table loss", "without distances"],
        ),
        (WIN_MIN, WIN - 1, &["forced win"]),
        (-(WIN - 1), -WIN_MIN, &["forced loss"]),
    ];
    let rows = score_rows();
    assert_eq!(rows.len(), expected.len(), "{rows:?}");
    for (lo, hi, words) in expected {
        let (lo_text, hi_text) = (Score(lo).to_hub(), Score(hi).to_hub());
        let row = rows
            .iter()
            .find(|r| (r.0, r.1) == (lo, hi))
            .unwrap_or_else(|| panic!("no row '{lo_text} to {hi_text}' in {rows:?}"));
        for w in words {
            assert!(
                row.2.contains(w),
                "'{lo_text} to {hi_text}': no '{w}' in {}",
                row.2
            );
        }
    }
    // The ranges do not meet.
    let mut sorted = rows.clone();
    sorted.sort();
    for pair in sorted.windows(2) {
        assert!(pair[0].0 <= pair[0].1 && pair[0].1 < pair[1].0, "{pair:?}");
    }
    // The engine's own scores at the ends of each range: table wins from `table_score`, at the
    // root with a conversion at once, at the deepest ply with the longest distance, and
    // without distances from the best and the worst evaluation.
    let table = |wdl, distance, ply, eval| table_score(Probed { wdl, distance }, ply, || eval);
    let longest = Some(TABLE_DISTANCE_MAX as u16);
    assert_eq!(table(Wdl::Win, Some(0), 0, 0), TABLE_WIN);
    assert_eq!(table(Wdl::Win, longest, MAX_PLY, 0), far);
    assert_eq!(table(Wdl::Win, None, 0, EVAL_MAX), far - 1);
    assert_eq!(table(Wdl::Win, None, MAX_PLY, -EVAL_MAX), TABLE_MIN);
    assert_eq!(table(Wdl::Loss, Some(0), 0, 0), -TABLE_WIN);
    assert_eq!(table(Wdl::Loss, None, MAX_PLY, EVAL_MAX), -TABLE_MIN);
    // A table win is written as a score, a forced win from the first ply to the deepest as one.
    assert_eq!(Score(TABLE_WIN).kind(), ScoreKind::Eval(TABLE_WIN));
    assert_eq!(Score(win_in(1)).kind(), ScoreKind::Win(1));
    assert_eq!(
        Score(win_in(MAX_PLY)).kind(),
        ScoreKind::Win(MAX_PLY as u32)
    );
    assert_eq!((win_in(1), win_in(MAX_PLY)), (WIN - 1, WIN_MIN));
    // The constants the text below the table names.
    for named in [
        format!("`EVAL_MAX` ({EVAL_MAX})"),
        format!("`TABLE_WIN` ({TABLE_WIN})"),
        format!("`MAX_PLY` = {MAX_PLY}"),
        format!("`TABLE_DISTANCE_MAX` = {TABLE_DISTANCE_MAX}"),
        format!("`TABLE_MIN` ({TABLE_MIN})"),
        format!("`WIN` = {WIN}"),
    ] {
        assert!(DOC.contains(&named), "protocol.md does not say {named}");
    }
    // The example beside the table: a capture 33 plies away.
    assert_eq!(Score(table(Wdl::Win, Some(33), 0, 0)).to_hub(), "95.67");
    assert!(DOC.contains("`95.67` for a capture 33 plies away"));
}
