//! Finished DXP games as PDN (international draughts), written with the shared PDN writer of
//! [`crate::pdn`] so that DXP, `tiao match` and game reviews write games alike.
//!
//! Each game is appended to the file given with `--pdn`. A game that started from a given
//! position (GAMEREQ `B`) carries `[SetUp "1"]` and its `[FEN]`. How the game ended is a comment
//! after the last move.

use super::game::Record;
use crate::game::Variant;
use crate::game::color::Color;
use crate::pdn::{self, PdnGame, PdnMove};
use std::fs::OpenOptions;
use std::io::{self, Write};
use std::path::Path;

/// The PDN game of a record.
pub fn game(r: &Record, event: &str, date: &str) -> PdnGame {
    let mut g = PdnGame::default();
    g.set_tag("Event", event);
    g.set_tag("Date", date);
    g.set_tag("Round", r.number.to_string());
    g.set_tag("White", r.white.as_str());
    g.set_tag("Black", r.black.as_str());
    g.set_tag("Result", r.outcome.pdn());
    if let Some(t) = pdn::game_type(Variant::International) {
        g.set_tag("GameType", t);
    }
    if let Some(fen) = &r.setup_fen {
        g.set_tag("SetUp", "1");
        g.set_tag("FEN", fen.as_str());
    }
    g.moves = r.moves.iter().map(PdnMove::new).collect();
    if !r.termination.is_empty() {
        match g.moves.last_mut() {
            Some(m) => m.comments.push(r.termination.clone()),
            None => g.intro.push(r.termination.clone()),
        }
    }
    g.result = Some(r.outcome.pdn().to_string());
    g
}

/// The PDN text of one game (ending with a blank line).
pub fn write(r: &Record, event: &str, date: &str) -> String {
    pdn::write(&game(r, event, date), Color::White, r.first)
}

/// Appends a game to a PDN file (created if missing).
pub fn append(path: &Path, r: &Record, event: &str) -> io::Result<()> {
    let mut f = OpenOptions::new().create(true).append(true).open(path)?;
    f.write_all(write(r, event, &pdn::today()).as_bytes())?;
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
             [Black \"DXP Client\"]\n[Result \"2-0\"]\n[GameType \"20,W,10,10,N2,0\"]\n\n\
             1. 32-28 19-23 2. 28x19 {black has no legal move (really)} 2-0\n\n"
        );
        let back = pdn::parse(&t).unwrap();
        assert_eq!(back.len(), 1);
        assert_eq!(back[0].moves.len(), 3);
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
        assert!(t.ends_with("\n1... 19-23 2. 32-28 23x32 1-1\n\n"), "{t}");
    }

    #[test]
    fn long_games_wrap() {
        let moves: Vec<&str> = ["32-28", "19-23"].repeat(40);
        let t = write(&record(Color::White, &moves, false), "DXP", "2025.01.02");
        assert!(t.lines().all(|l| l.len() <= 80));
        assert!(t.contains("40. 32-28 19-23"));
    }
}
