//! Game review: for each move of a game, the engine's score before and after it and its best
//! move; moves that lose score are judged inaccuracies, mistakes or blunders, and the game is
//! written back as annotated PDN.
//!
//! Every position of the game (the start, and after each move) is analysed once, independently
//! ([`jobs`]); the score before move `i` is position `i`'s score, the score after it is position
//! `i+1`'s seen from the mover ([`parent_view`]). A move's loss is the drop between the two
//! (proven results count as 10000 less their distance, so a win thrown away is a blunder), 0 when
//! the move is the engine's own choice. [`Thresholds`] turn the loss into a [`Judgement`].

use super::{Analysis, Job, parent_view};
use crate::engine::MoveText;
use crate::game::color::Color;
use crate::matches::referee::track_for;
use crate::pdn::{PdnGame, PdnMove};
use crate::search::Score;
use crate::variant::GameKind;

/// Losses (centi-men) from which a move is judged.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Thresholds {
    pub inaccuracy: i32,
    pub mistake: i32,
    pub blunder: i32,
}

impl Default for Thresholds {
    /// A quarter of a man, 0.6 man, 1.5 men.
    fn default() -> Self {
        Thresholds {
            inaccuracy: 25,
            mistake: 60,
            blunder: 150,
        }
    }
}

/// How bad a move was.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Judgement {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Judgement {
    /// `inaccuracy`, `mistake`, `blunder`.
    pub fn name(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "inaccuracy",
            Judgement::Mistake => "mistake",
            Judgement::Blunder => "blunder",
        }
    }

    /// The PDN glyph: 6 `?!`, 2 `?`, 4 `??`.
    pub fn nag(self) -> u16 {
        match self {
            Judgement::Inaccuracy => 6,
            Judgement::Mistake => 2,
            Judgement::Blunder => 4,
        }
    }
}

/// One reviewed move.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReview {
    /// Ply index in the game, from 0.
    pub ply: usize,
    /// The PDN move number.
    pub move_number: usize,
    /// Who played it.
    pub side: Color,
    /// The move.
    pub played: MoveText,
    /// The position before it, analysed.
    pub before: Analysis,
    /// The position after it, analysed.
    pub after: Analysis,
    /// Score before the move, mover's side.
    pub score_before: Score,
    /// Score after the move, mover's side.
    pub score_after: Score,
    /// Centi-men lost (0 for the engine's move).
    pub loss: i32,
    pub judgement: Option<Judgement>,
}

/// A game replayed: the jobs of all its positions (start, then after each move) and its moves.
#[derive(Clone, Debug, PartialEq)]
pub struct Replayed {
    pub jobs: Vec<Job>,
    pub moves: Vec<MoveText>,
    /// The side that moves first in the variant, and the side to move at the game's start.
    pub sides: (Color, Color),
}

/// Replays a PDN game under `kind` and lists its positions.
pub fn jobs(kind: GameKind, game: &PdnGame) -> Result<Replayed, String> {
    let fen = game.fen();
    let texts = game.moves.iter().map(|m| m.text.as_str());
    let track = track_for(kind, fen, texts).map_err(|e| e.to_string())?;
    let hub = track.moves_hub();
    let moves = hub
        .iter()
        .zip(track.moves_pdn())
        .map(|(hub, pdn)| MoveText {
            hub: hub.clone(),
            pdn,
        })
        .collect();
    let jobs = (0..=hub.len())
        .map(|i| Job {
            fen: fen.map(str::to_string),
            moves: hub[..i].to_vec(),
            kind: Some(kind),
        })
        .collect();
    Ok(Replayed {
        jobs,
        moves,
        sides: (track.first_side(), track.start_side()),
    })
}

/// A score as a number that orders every score: proven results as ±(10000 - distance).
pub fn ordinal(s: Score) -> i32 {
    s.0
}

/// Reviews the moves of a game from the analyses of its positions (`analyses[i]` is the
/// position before move `i`; one more than the moves).
pub fn review(replayed: &Replayed, analyses: &[Analysis], t: &Thresholds) -> Vec<MoveReview> {
    let (first, start) = replayed.sides;
    let offset = usize::from(first != start);
    replayed
        .moves
        .iter()
        .enumerate()
        .map(|(i, played)| {
            let before = analyses[i].clone();
            let after = analyses[i + 1].clone();
            let score_before = before.score;
            let score_after = parent_view(after.score);
            let is_best = before.best.as_ref().is_some_and(|b| b.hub == played.hub);
            let loss = if is_best {
                0
            } else {
                (ordinal(score_before) - ordinal(score_after)).max(0)
            };
            let judgement = if loss >= t.blunder {
                Some(Judgement::Blunder)
            } else if loss >= t.mistake {
                Some(Judgement::Mistake)
            } else if loss >= t.inaccuracy {
                Some(Judgement::Inaccuracy)
            } else {
                None
            };
            MoveReview {
                ply: i,
                move_number: (i + offset) / 2 + 1,
                side: before.side,
                played: played.clone(),
                before,
                after,
                score_before,
                score_after,
                loss,
                judgement,
            }
        })
        .collect()
}

/// A score from White's side, as comments write it: `+0.35` (men), `#7` (White wins in 7 plies),
/// `#-4` (Black wins in 4).
pub fn white_text(s: Score, side: Color) -> String {
    let s = if side == Color::White { s } else { Score(-s.0) };
    s.short_text()
}

/// The game with the review written in: a `?!`/`?`/`??` mark on judged moves, after each move a
/// comment with the score from White's side, and for judged moves what the engine preferred.
pub fn annotate(game: &PdnGame, moves: &[MoveReview], what: &str) -> PdnGame {
    let mut out = game.clone();
    out.set_tag("Annotator", format!("tiao {}", env!("CARGO_PKG_VERSION")));
    out.intro.push(format!(
        "tiao review ({what}); scores in men from White's side, #n a win in n plies"
    ));
    for (m, r) in out.moves.iter_mut().zip(moves) {
        let after = white_text(r.score_after, r.side);
        let mut c = after;
        if let Some(j) = r.judgement {
            m.nag = Some(j.nag());
            let best = r
                .before
                .best
                .as_ref()
                .map(|b| b.pdn.as_str())
                .unwrap_or("?");
            c = format!(
                "{c} {}: best {best} {}",
                j.name(),
                white_text(r.score_before, r.side)
            );
        }
        m.comments.push(c);
    }
    out
}

/// A game of moves and comments only (for tests and callers that build games).
pub fn game_of(moves: &[&str]) -> PdnGame {
    PdnGame {
        moves: moves.iter().map(|m| PdnMove::new(*m)).collect(),
        ..PdnGame::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::analyze_one;
    use crate::engine::{Engine, EngineOptions};
    use crate::game::Variant;
    use crate::search::Limits;

    #[test]
    fn a_dropped_man_is_judged() {
        let kind = GameKind::new(Variant::International);
        // 3... 16-21? loses about a man at depth 6 (22-27 keeps the balance).
        let game = game_of(&["32-28", "17-22", "28x17", "11x22", "37-32", "16-21"]);
        let replayed = jobs(kind, &game).unwrap();
        assert_eq!(replayed.jobs.len(), 7);
        // Each position as a batch's worker searches it.
        let mut engine = Engine::new(kind, EngineOptions::default()).unwrap();
        let analyses: Vec<_> = (replayed.jobs.iter())
            .map(|job| analyze_one(&mut engine, job, &Limits::depth(6)).unwrap())
            .collect();
        let rev = review(&replayed, &analyses, &Thresholds::default());
        assert_eq!(rev.len(), 6);
        let bad = &rev[5];
        assert_eq!(bad.played.pdn, "16-21");
        assert!(
            bad.loss >= 60 && bad.judgement >= Some(Judgement::Mistake),
            "{bad:?}"
        );
        assert_eq!(bad.side, Color::Black);
        assert_eq!(bad.move_number, 3);
        // 28x17 is White's only move: no loss. Black then chooses between two captures of
        // about equal worth (11x22, 12x21): no judgement, whichever the evaluation prefers.
        assert_eq!(rev[2].loss, 0);
        assert!(
            rev[3].loss < 10 && rev[3].judgement.is_none(),
            "{:?}",
            rev[3]
        );
        let annotated = annotate(&game, &rev, "depth 6");
        assert_eq!(annotated.moves[5].nag, Some(bad.judgement.unwrap().nag()));
        // The comment names the engine's better move (one of its equal choices).
        let best = &annotated.moves[5].comments[0];
        assert!(
            best.contains("mistake: best ") && !best.contains("best 16-21"),
            "{annotated:?}"
        );
        assert!(annotated.tag("Annotator").unwrap().starts_with("tiao "));
    }

    #[test]
    fn bad_games_name_the_ply() {
        let kind = GameKind::new(Variant::International);
        let e = jobs(kind, &game_of(&["32-28", "32-28"])).unwrap_err();
        assert!(e.starts_with("ply 2"), "{e}");
    }

    #[test]
    fn white_side_texts() {
        use crate::search::score::win_in;
        assert_eq!(white_text(Score(35), Color::White), "+0.35");
        assert_eq!(white_text(Score(35), Color::Black), "-0.35");
        assert_eq!(white_text(Score(win_in(7)), Color::Black), "#-7");
    }
}
