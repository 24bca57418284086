//! protocol.md shows real output: its error table and its deterministic example sessions are
//! replayed against the binary, so the page cannot drift from what the engine says.

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
