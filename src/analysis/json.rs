//! The JSON lines of `tiao analyze`: one object per position (`--fen --json`, `--positions`) or
//! per move of a game (`--pdn`). Field by field in `docs/tools.md`.
//!
//! Conventions: `score` is an integer in centi-men (100 = one man) from the side to move, or
//! `null` when the result is proven; then `win_in` or `loss_in` gives the distance in plies
//! (`win_in: 7`: the side to move wins in 7 plies). Moves are in PDN form (`best`, `pv`,
//! `played`) with the Hub form beside them (`best_hub`). Times are in milliseconds. Every key is
//! always present (`null` when it does not apply), so that the schema is fixed.

use super::Analysis;
use super::review::MoveReview;
use crate::game::color::Color;
use crate::search::{Score, ScoreKind};
use serde::Serialize;

/// A score as three fields: `score` (centi-men), `win_in`, `loss_in` (plies).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ScoreJson {
    pub score: Option<i32>,
    pub win_in: Option<u32>,
    pub loss_in: Option<u32>,
}

impl From<Score> for ScoreJson {
    fn from(s: Score) -> ScoreJson {
        match s.kind() {
            ScoreKind::Eval(c) => ScoreJson {
                score: Some(c),
                win_in: None,
                loss_in: None,
            },
            ScoreKind::Win(p) => ScoreJson {
                score: None,
                win_in: Some(p),
                loss_in: None,
            },
            ScoreKind::Loss(p) => ScoreJson {
                score: None,
                win_in: None,
                loss_in: Some(p),
            },
        }
    }
}

fn side(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// One analysed position.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PositionLine {
    /// The id given in the input (or the 1-based line number).
    pub id: String,
    pub variant: String,
    pub fen: String,
    /// `"white"` or `"black"`.
    pub side: String,
    pub best: Option<String>,
    pub best_hub: Option<String>,
    #[serde(flatten)]
    pub score: ScoreJson,
    pub depth: u32,
    pub seldepth: u32,
    pub pv: Vec<String>,
    pub nodes: u64,
    pub time_ms: u64,
    /// Nodes per second.
    pub nps: u64,
    /// The pattern weights that evaluated, `family:checksum` (as `id` and the text output name
    /// them); `null` for Morris, which has none.
    pub weights: Option<String>,
}

impl PositionLine {
    pub fn new(id: &str, variant: &str, weights: Option<&str>, a: &Analysis) -> PositionLine {
        let ms = a.time.as_millis() as u64;
        PositionLine {
            id: id.to_string(),
            variant: variant.to_string(),
            fen: a.fen.clone(),
            side: side(a.side).to_string(),
            best: a.best.as_ref().map(|m| m.pdn.clone()),
            best_hub: a.best.as_ref().map(|m| m.hub.clone()),
            score: a.score.into(),
            depth: a.depth,
            seldepth: a.seldepth,
            pv: a.pv.iter().map(|m| m.pdn.clone()).collect(),
            nodes: a.nodes,
            time_ms: ms,
            nps: (a.nodes as f64 / a.time.as_secs_f64().max(1e-6)) as u64,
            weights: weights.map(str::to_string),
        }
    }
}

/// An input that could not be analysed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ErrorLine {
    /// The position's id, or `null` for a game.
    pub id: Option<String>,
    /// The game's number (1-based), or `null` for a position.
    pub game: Option<usize>,
    pub error: String,
}

/// One move of a reviewed game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveLine {
    /// The game's number in the file, from 1.
    pub game: usize,
    /// The ply's number in the game, from 1.
    pub ply: usize,
    /// The PDN move number.
    pub move_number: usize,
    /// The side that played the move.
    pub side: String,
    /// The position before the move.
    pub fen: String,
    pub played: String,
    pub played_hub: String,
    /// The engine's move in the position before.
    pub best: Option<String>,
    pub best_hub: Option<String>,
    /// The score before the move, mover's side.
    pub before: ScoreJson,
    /// The score after the move, mover's side.
    pub after: ScoreJson,
    /// How much the move lost, centi-men (0 when it is the engine's move; proven results count
    /// as 10000 less their distance).
    pub loss: i32,
    /// `"inaccuracy"`, `"mistake"`, `"blunder"` or `null`.
    pub judgement: Option<String>,
    /// The principal variation from the position before.
    pub pv: Vec<String>,
    pub depth: u32,
    /// Nodes of both searches (before and after).
    pub nodes: u64,
    /// Time of both searches.
    pub time_ms: u64,
    /// The pattern weights that evaluated (as [`PositionLine::weights`]).
    pub weights: Option<String>,
}

impl MoveLine {
    pub fn new(game: usize, weights: Option<&str>, r: &MoveReview) -> MoveLine {
        MoveLine {
            game,
            ply: r.ply + 1,
            move_number: r.move_number,
            side: side(r.side).to_string(),
            fen: r.before.fen.clone(),
            played: r.played.pdn.clone(),
            played_hub: r.played.hub.clone(),
            best: r.before.best.as_ref().map(|m| m.pdn.clone()),
            best_hub: r.before.best.as_ref().map(|m| m.hub.clone()),
            before: r.score_before.into(),
            after: r.score_after.into(),
            loss: r.loss,
            judgement: r.judgement.map(|j| j.name().to_string()),
            pv: r.before.pv.iter().map(|m| m.pdn.clone()).collect(),
            depth: r.before.depth,
            nodes: r.before.nodes + r.after.nodes,
            time_ms: (r.before.time + r.after.time).as_millis() as u64,
            weights: weights.map(str::to_string),
        }
    }
}

/// A value as one line of JSON.
pub fn line<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}
