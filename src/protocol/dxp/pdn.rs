//! Finished DXP games as PDN (international draughts: `GameType "20"`, results `2-0 1-1 0-2`).
//!
//! Each game is appended to the file given with `--pdn`, separated from the previous one by a
//! blank line. A game that started from a given position (GAMEREQ `B`) carries `[SetUp "1"]` and
//! its `[FEN]`. How the game ended is written as a comment before the result.

use super::game::Record;
use crate::color::Color;
use std::fs::OpenOptions;
use std::io::{self, Write};
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

/// Longest line of the move text.
const LINE_WIDTH: usize = 79;

/// A tag value with its quotes and backslashes escaped (PDN strings use `\"` and `\\`).
fn tag_value(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Today's date as PDN writes it, `YYYY.MM.DD` (UTC).
pub fn today() -> String {
    let days = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() / 86_400)
        .unwrap_or(0) as i64;
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The proleptic Gregorian date of a day count since 1970-01-01.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    // Count in 400-year eras starting on March 1st, so that the leap day ends a year.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// The PDN text of one game (ending with a newline).
pub fn write(r: &Record, event: &str, date: &str) -> String {
    let mut s = String::new();
    let mut tag = |name: &str, value: &str| {
        s.push_str(&format!("[{name} \"{}\"]\n", tag_value(value)));
    };
    tag("Event", event);
    tag("Date", date);
    tag("Round", &r.number.to_string());
    tag("White", &r.white);
    tag("Black", &r.black);
    tag("Result", r.outcome.pdn());
    tag("GameType", "20");
    if let Some(fen) = &r.setup_fen {
        tag("SetUp", "1");
        tag("FEN", fen);
    }
    s.push('\n');
    let mut tokens: Vec<String> = Vec::new();
    for (i, m) in r.moves.iter().enumerate() {
        // Ply i is White's when White moved first and i is even, or Black moved first and i odd.
        let white = (i % 2 == 0) == (r.first == Color::White);
        let number = (i + usize::from(r.first == Color::Black)) / 2 + 1;
        if white {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(m.clone());
    }
    let comment: String = r
        .termination
        .chars()
        .map(|c| if c == '{' || c == '}' { '|' } else { c })
        .collect();
    if !comment.is_empty() {
        tokens.push(format!("{{{comment}}}"));
    }
    tokens.push(r.outcome.pdn().to_string());
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > LINE_WIDTH {
            s.push_str(&line);
            s.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    s.push_str(&line);
    s.push('\n');
    s
}

/// Appends a game to a PDN file (created if missing), a blank line before it when the file is
/// not empty.
pub fn append(path: &Path, r: &Record, event: &str) -> io::Result<()> {
    let mut f = OpenOptions::new().create(true).append(true).open(path)?;
    let blank = if f.metadata()?.len() > 0 { "\n" } else { "" };
    f.write_all(format!("{blank}{}", write(r, event, &today())).as_bytes())?;
    f.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::dxp::game::Outcome;

    fn record(first: Color, moves: &[&str], setup: bool) -> Record {
        Record {
            number: 3,
            white: "tiao \"x\"".into(),
            black: "DXP Client".into(),
            ours: Color::White,
            setup_fen: setup.then(|| "B:W31-50:B1-20".to_string()),
            first,
            moves: moves.iter().map(|m| m.to_string()).collect(),
            outcome: Outcome::Win(Color::White),
            termination: "black has no legal move {really}".into(),
        }
    }

    #[test]
    fn tags_moves_and_result() {
        let r = record(Color::White, &["32-28", "19-23", "28x19"], false);
        let t = write(&r, "DXP", "2025.01.02");
        assert_eq!(
            t,
            "[Event \"DXP\"]\n[Date \"2025.01.02\"]\n[Round \"3\"]\n[White \"tiao \\\"x\\\"\"]\n\
             [Black \"DXP Client\"]\n[Result \"2-0\"]\n[GameType \"20\"]\n\n\
             1. 32-28 19-23 2. 28x19 {black has no legal move |really|} 2-0\n"
        );
    }

    #[test]
    fn black_first_from_a_position() {
        let r = Record {
            outcome: Outcome::Draw,
            termination: String::new(),
            ..record(Color::Black, &["19-23", "32-28", "23x32"], true)
        };
        let t = write(&r, "DXP", "2025.01.02");
        assert!(
            t.contains("[SetUp \"1\"]\n[FEN \"B:W31-50:B1-20\"]\n"),
            "{t}"
        );
        assert!(t.ends_with("\n1... 19-23 2. 32-28 23x32 1-1\n"), "{t}");
    }

    #[test]
    fn long_games_wrap() {
        let moves: Vec<&str> = ["32-28", "19-23"].repeat(40);
        let t = write(&record(Color::White, &moves, false), "DXP", "2025.01.02");
        assert!(t.lines().all(|l| l.len() <= LINE_WIDTH));
        assert!(t.contains("40. 32-28 19-23"));
    }

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(civil_from_days(20_088), (2024, 12, 31));
        assert_eq!(today().len(), 10);
    }
}
