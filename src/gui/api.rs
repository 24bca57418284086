//! The JSON the page and the server exchange: the requests (one type per route, unknown fields
//! refused) and the answers ([`View`]: the position on the board, [`Line`]: an analysis line).
//!
//! Invariants: every request type rejects unknown fields and bounds its numbers when it is
//! checked ([`EngineRequest::move_time`]); every answer is plain data, written by `serde_json`
//! (no text is ever pasted into HTML: the page sets `textContent`).

use serde::{Deserialize, Serialize};

/// `POST /api/session`: a new page (nothing to say).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SessionRequest {}

/// `POST /api/new`: a new game.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewRequest {
    pub session: String,
    /// A variant name (any the command line takes); `None`: the page's current one.
    #[serde(default)]
    pub variant: Option<String>,
    /// A start position (PDN FEN, or Morris's position string).
    #[serde(default)]
    pub fen: Option<String>,
}

/// `POST /api/play`: a move (any accepted form) at the ply on the board.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayRequest {
    pub session: String,
    #[serde(rename = "move")]
    pub mv: String,
}

/// `POST /api/takeback`: takes back to ply `ply` (default: the last move).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TakebackRequest {
    pub session: String,
    #[serde(default)]
    pub ply: Option<usize>,
}

/// `POST /api/goto`: shows ply `ply` of the game (the moves after it are kept).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GotoRequest {
    pub session: String,
    pub ply: usize,
}

/// `POST /api/engine`: the engine plays a move at the ply on the board, thinking `movetime`
/// milliseconds.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineRequest {
    pub session: String,
    #[serde(default)]
    pub movetime: Option<u64>,
}

/// The default time per engine move, milliseconds.
pub const DEFAULT_MOVE_TIME_MS: u64 = 1_000;
/// The longest time per engine move the page may ask for, milliseconds (an hour).
pub const MAX_MOVE_TIME_MS: u64 = 3_600_000;

impl EngineRequest {
    /// The time per move asked for, checked: 1 ms to an hour.
    pub fn move_time(&self) -> Result<std::time::Duration, String> {
        match self.movetime.unwrap_or(DEFAULT_MOVE_TIME_MS) {
            0 => Err("movetime must be at least 1 ms".into()),
            t if t > MAX_MOVE_TIME_MS => Err(format!(
                "movetime {t} ms is more than the most, {MAX_MOVE_TIME_MS} ms"
            )),
            t => Ok(std::time::Duration::from_millis(t)),
        }
    }
}

/// `POST /api/analyze`, `/api/stop`, `/api/review`, `/api/pdn/save`: a request naming only its
/// page.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SessionOnly {
    pub session: String,
}

/// `POST /api/pdn/load`: a PDN text, and which of its games to load (0-based; default the
/// first).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PdnRequest {
    pub session: String,
    pub pdn: String,
    #[serde(default)]
    pub game: usize,
}

/// A piece on a square or point.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct PieceView {
    /// `"white"` or `"black"`.
    pub color: &'static str,
    pub king: bool,
}

/// A square (draughts: the dark ones) or a point (Morris).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct CellView {
    /// What moves' paths name it by: the square number, or the point's name.
    pub id: String,
    /// How it is written: the number, or the algebraic name.
    pub label: String,
    /// 0-based file (a = 0) and rank (1 = 0).
    pub file: u32,
    pub rank: u32,
    pub piece: Option<PieceView>,
}

/// A legal move with the cells it is clicked along.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct LegalView {
    pub pdn: String,
    pub hub: String,
    /// Draughts: the from square, then each landing square. Morris: the point left (a step),
    /// the point reached, then the man removed (a mill).
    pub path: Vec<String>,
    /// The cells of the pieces it takes.
    pub captured: Vec<String>,
}

/// A move of the game.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct MoveRow {
    pub pdn: String,
    pub hub: String,
    /// Who played it.
    pub side: &'static str,
}

/// A move the opening book holds for the position on the board.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct BookView {
    pub pdn: String,
    /// Its value through the book, from the side to move (`+0.05`, `win in 9 plies`).
    pub score: String,
}

/// The position on the board and everything the page shows about it.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct View {
    /// The page's id.
    pub session: String,
    /// Grows with every view of the page the server writes: the page keeps the latest (a view
    /// sent on the stream may overtake the answer to a request).
    pub version: u64,
    pub variant: &'static str,
    /// Files (= ranks): 10, 8, or 7 (Morris's grid).
    pub size: u32,
    /// Squares written by name (files and ranks along the edge) rather than by number.
    pub algebraic: bool,
    pub morris: bool,
    pub cells: Vec<CellView>,
    /// Morris: the lines joining the points.
    pub lines: Vec<[String; 2]>,
    /// Morris: men in hand, White's then Black's.
    pub in_hand: Option<[u8; 2]>,
    /// The position on the board.
    pub fen: String,
    /// The game's start (`None`: the variant's).
    pub start_fen: Option<String>,
    /// Side to move on the board, the side that moves first in the variant, the side to move
    /// at the game's start.
    pub side: &'static str,
    pub first_side: &'static str,
    pub start_side: &'static str,
    /// The ply on the board.
    pub cursor: usize,
    pub moves: Vec<MoveRow>,
    /// The move that led to the position on the board: its path and what it took.
    pub last_path: Vec<String>,
    pub last_captured: Vec<String>,
    /// The legal moves (none when the game is over).
    pub legal: Vec<LegalView>,
    /// How the game ended by the rules at this ply, if it has.
    pub status: Option<String>,
    /// The score of each position of the game, men from White's side (`null`: not searched;
    /// proven results as ±100).
    pub scores: Vec<Option<f64>>,
    /// What is running: `"play"`, `"analyze"`, `"review"`, or `None`.
    pub searching: Option<&'static str>,
    /// Book moves of the position (empty when the book has none).
    pub book: Vec<BookView>,
    /// The endgame tables the engine has (`None`: none).
    pub tables: Option<String>,
    /// The games of the PDN text loaded (`2. tiao - dame 1-1`; empty when the game was not
    /// loaded), and which of them is on the board (0-based).
    pub pdn_games: Vec<String>,
    pub pdn_game: usize,
}

/// A search report, as the page shows it.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Line {
    /// What the search is for: `"play"`, `"analyze"` or `"review"`.
    pub purpose: &'static str,
    /// The ply of the position searched.
    pub ply: usize,
    pub depth: u32,
    pub seldepth: u32,
    /// Side to move's view: `+0.25` men, `win in 7 plies`, `loss in 4 plies`.
    pub score: String,
    /// The score in men from White's side (proven results as ±100).
    pub white: f64,
    /// The score comes from the endgame tables.
    pub table: bool,
    /// The move comes from the opening book.
    pub book: bool,
    pub nodes: u64,
    pub nps: u64,
    /// Milliseconds.
    pub time: u64,
    /// The principal variation, PDN form.
    pub pv: Vec<String>,
}

/// An error answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ErrorBody {
    pub error: String,
}
