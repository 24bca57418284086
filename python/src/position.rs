//! `tiao.Position`: a game in progress (start position, moves played, the current position), its
//! legal moves, its end by the rules and its pictures; `tiao.Outcome`; and the module functions
//! that take a position: `perft` and `board_svg`.
//!
//! Moves are text: written in the Hub protocol's form (`32-28`, `28x19x23`: from, to, captured
//! squares; Morris `d6xa4`), read in any form the library accepts (Hub, PDN short or long,
//! algebraic squares). A `Position` keeps its start FEN and its moves, so that a search sees the
//! game's history (repetitions) and a pickle or a copy replays it exactly.

use crate::errors::{Kind, raise, replay_error};
use crate::game::{AnyTrack, color_name, track_for};
use pyo3::exceptions::{PyIndexError, PyRuntimeError};
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use tiao::engine::{MAX_THREADS, MoveText};
use tiao::game::color::Color;
use tiao::game::{MoveError, Variant};
use tiao::pdn::result_text;
use tiao::render::board::Style;
use tiao::track::RuleEnd;
use tiao::variant::{DrawRuleSet, GameKind};

/// Deepest perft accepted (as `tiao perft`).
const MAX_PERFT_DEPTH: i64 = 64;

/// A game's kind from its names, as the Hub `variant` and `draw-rules` parameters take them.
pub fn kind_of(variant: &str, draw_rules: &str) -> PyResult<GameKind> {
    let variant: Variant = variant
        .parse()
        .map_err(|e: tiao::game::UnknownVariant| raise(Kind::Variant, e.to_string()))?;
    let draw_rules: DrawRuleSet = draw_rules.parse().map_err(|e| raise(Kind::Variant, e))?;
    Ok(GameKind {
        variant,
        draw_rules,
    })
}

/// A position text as given: `None` and `"start"` mean the variant's start position.
fn start_text(fen: Option<&str>) -> Option<&str> {
    fen.map(str::trim)
        .filter(|f| !f.is_empty() && !f.eq_ignore_ascii_case("start"))
}

/// A move error as the exception that carries its message.
pub fn move_error(e: MoveError) -> PyErr {
    raise(Kind::Move, e.to_string())
}

/// A whole number in `min..=max`, or an `OptionError` naming it.
pub fn in_range(name: &str, value: i64, min: i64, max: i64) -> PyResult<i64> {
    if (min..=max).contains(&value) {
        Ok(value)
    } else {
        Err(raise(
            Kind::Option,
            format!("{name}: {value} is not in {min}..={max}"),
        ))
    }
}

/// A game in progress: its start position, the moves played from it, and the position they lead
/// to, for any variant tiao plays.
///
/// >>> import tiao
/// >>> p = tiao.Position("international")
/// >>> p.push("32-28"); p.push("19-23")
/// >>> p.legal_moves()
/// ['28x19x23']
/// >>> p.push("28x19")
/// >>> p.moves
/// ['32-28', '19-23', '28x19x23']
///
/// Position(variant="international", fen=None, moves=None, draw_rules="standard"):
/// `variant` is international (alias normal), brazilian, russian, duoyibu, english (american,
/// checkers) or morris; `fen` the start position (a PDN FEN; for morris the position string
/// `W:W:B:H9,9:R0`), `None` or `"start"` being the variant's start; `moves` the moves played
/// from it, in any accepted form; `draw_rules` `"standard"`, or `"fmjd"` for the FMJD-64 draw
/// rules of russian. Raises `VariantError`, `FenError`, or `MoveError` naming the first bad
/// move.
#[pyclass(module = "tiao")]
pub struct Position {
    kind: GameKind,
    track: Box<dyn AnyTrack>,
}

impl Position {
    /// A position of `kind` from `fen` (the start when `None`) after `moves`.
    pub fn build(kind: GameKind, fen: Option<&str>, moves: &[&str]) -> PyResult<Position> {
        let track =
            track_for(kind, start_text(fen), moves.iter().copied()).map_err(replay_error)?;
        Ok(Position { kind, track })
    }

    /// The game's kind.
    pub fn kind(&self) -> GameKind {
        self.kind
    }

    /// The game behind it.
    pub fn track(&self) -> &dyn AnyTrack {
        &*self.track
    }

    /// The moves played, Hub form.
    pub fn hub_moves(&self) -> Vec<String> {
        self.track.moves().into_iter().map(|m| m.hub).collect()
    }

    /// White's score when the game is over (1, 0.5, 0), `None` while it goes on.
    fn white_score(&self) -> Option<f64> {
        self.track.status().map(|end| match end {
            RuleEnd::NoMove(Color::White) => 0.0,
            RuleEnd::NoMove(Color::Black) => 1.0,
            RuleEnd::DrawRule | RuleEnd::Repetition => 0.5,
        })
    }

    /// The result as PDN writes it (`2-0`, `1-0`, `1/2-1/2`, ..., `*`).
    pub fn result_text(&self) -> String {
        result_text(self.kind.variant, self.white_score()).to_string()
    }

    fn copied(&self) -> Position {
        Position {
            kind: self.kind,
            track: self.track.boxed_clone(),
        }
    }
}

#[pymethods]
impl Position {
    #[new]
    #[pyo3(signature = (variant = "international", fen = None, moves = None, draw_rules = "standard"))]
    fn new(
        variant: &str,
        fen: Option<&str>,
        moves: Option<Vec<String>>,
        draw_rules: &str,
    ) -> PyResult<Position> {
        let kind = kind_of(variant, draw_rules)?;
        let moves = moves.unwrap_or_default();
        let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
        Position::build(kind, fen, &moves)
    }

    /// The variant's name (`"international"`, ..., `"morris"`).
    #[getter]
    fn variant(&self) -> &'static str {
        self.kind.variant.name()
    }

    /// The draw-rule set: `"standard"` or `"fmjd"`.
    #[getter]
    fn draw_rules(&self) -> &'static str {
        self.kind.draw_rules.name()
    }

    /// The current position as a FEN (Morris: its position string).
    #[getter]
    fn fen(&self) -> String {
        self.track.fen()
    }

    /// The FEN of the position the game started from.
    #[getter]
    fn start_fen(&self) -> String {
        self.track.start_fen()
    }

    /// The side to move: `"white"` or `"black"`.
    #[getter]
    fn turn(&self) -> &'static str {
        color_name(self.track.side())
    }

    /// The moves played since the start position, Hub form.
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.hub_moves()
    }

    /// legal_moves(notation="hub") -> list[str]
    ///
    /// The legal moves, in Hub form (`"hub"`: `28x19x23`, as the Hub protocol writes them) or in
    /// PDN form (`"pdn"`: `28x19`, `c3:e5`). Empty when the side to move has lost.
    #[pyo3(signature = (notation = "hub"))]
    fn legal_moves(&self, notation: &str) -> PyResult<Vec<String>> {
        let pick = notation_of(notation)?;
        Ok(self.track.legal().into_iter().map(pick).collect())
    }

    /// parse_move(move) -> str
    ///
    /// The legal move `move` (any accepted form) in Hub form, without playing it. Raises
    /// `MoveError` when it is not legal, not a move, or ambiguous.
    fn parse_move(&self, r#move: &str) -> PyResult<String> {
        self.track.parse(r#move).map(|m| m.hub).map_err(move_error)
    }

    /// push(move) -> None
    ///
    /// Plays a legal move given in any accepted form (Hub `28x19x23`, PDN `28x19`, algebraic
    /// `c3-d4`, Morris `d6xa4`). Raises `MoveError` and changes nothing when it is not legal.
    fn push(&mut self, r#move: &str) -> PyResult<()> {
        self.track.push(r#move).map(|_| ()).map_err(move_error)
    }

    /// pop() -> str
    ///
    /// Takes the last move back and returns it (Hub form). Raises `IndexError` at the start.
    fn pop(&mut self) -> PyResult<String> {
        self.track
            .pop()
            .map(|m| m.hub)
            .ok_or_else(|| PyIndexError::new_err("pop from a position with no move played"))
    }

    /// is_over() -> bool
    ///
    /// Whether the game has ended by the rules: the side to move has no legal move (it has
    /// lost), a draw counter of the variant has run out, or the position occurs for the third
    /// time.
    fn is_over(&self) -> bool {
        self.track.status().is_some()
    }

    /// result() -> str
    ///
    /// The result as PDN writes it, White's score first: `"2-0"`, `"1-1"`, `"0-2"` in
    /// international, `"1-0"`, `"1/2-1/2"`, `"0-1"` in the other games, `"*"` while the game
    /// goes on.
    fn result(&self) -> String {
        self.result_text()
    }

    /// outcome() -> Outcome | None
    ///
    /// How the game ended (winner and reason), or `None` while it goes on.
    fn outcome(&self) -> Option<Outcome> {
        let end = self.track.status()?;
        let (winner, termination) = match end {
            RuleEnd::NoMove(loser) => (Some(color_name(!loser)), "no-move"),
            RuleEnd::DrawRule => (None, "draw-rule"),
            RuleEnd::Repetition => (None, "repetition"),
        };
        Some(Outcome {
            winner: winner.map(str::to_string),
            termination: termination.to_string(),
            result: self.result_text(),
        })
    }

    /// perft(depth, threads=1) -> int
    ///
    /// The number of leaves of the legal-move tree `depth` plies deep (0..=64) from this
    /// position. Runs without the GIL.
    #[pyo3(signature = (depth, threads = 1))]
    fn perft(&self, py: Python<'_>, depth: i64, threads: i64) -> PyResult<u64> {
        let depth = in_range("depth", depth, 0, MAX_PERFT_DEPTH)? as u32;
        let threads = in_range("threads", threads, 1, MAX_THREADS as i64)? as usize;
        let track = &self.track;
        Ok(py.detach(|| track.perft(depth, threads)))
    }

    /// copy() -> Position
    ///
    /// An independent copy, history included.
    fn copy(&self) -> Position {
        self.copied()
    }

    fn __copy__(&self) -> Position {
        self.copied()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Position {
        self.copied()
    }

    /// Pickling: the arguments that rebuild it (variant, start FEN, moves, draw rules).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let me = slf.borrow();
        let args = (
            me.kind.variant.name(),
            me.track.start_fen(),
            me.hub_moves(),
            me.kind.draw_rules.name(),
        );
        PyTuple::new(
            py,
            [
                slf.get_type().into_any(),
                args.into_pyobject(py)?.into_any(),
            ],
        )
    }

    /// Positions are equal when they are of the same game and the current positions (FEN) are
    /// the same; the moves that led there are not compared.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<Position>() {
            Ok(o) => {
                let o = o.borrow();
                self.kind == o.kind && self.track.fen() == o.track.fen()
            }
            Err(_) => false,
        }
    }

    /// The hash of what `==` compares: it changes when a move is pushed or popped, so do not
    /// change a position while it is a key of a dict or in a set.
    fn __hash__(&self) -> u64 {
        let mut h = DefaultHasher::new();
        self.kind.hash(&mut h);
        self.track.fen().hash(&mut h);
        h.finish()
    }

    fn __repr__(&self) -> String {
        let mut args = format!(
            "{}, {}",
            quoted(self.kind.variant.name()),
            quoted(&self.track.fen())
        );
        if self.kind.draw_rules != DrawRuleSet::Standard {
            args.push_str(&format!(
                ", draw_rules={}",
                quoted(self.kind.draw_rules.name())
            ));
        }
        format!("Position({args})")
    }

    /// The text diagram (the board, the FEN, the last move).
    fn __str__(&self) -> PyResult<String> {
        let text = self.track.text().map_err(PyRuntimeError::new_err)?;
        Ok(text.trim_end().to_string())
    }

    /// The SVG picture, for Jupyter.
    fn _repr_svg_(&self) -> PyResult<String> {
        self.track
            .svg(&Style::default())
            .map_err(PyRuntimeError::new_err)
    }
}

/// A string as Python's `repr` writes it (single quotes).
pub fn quoted(s: &str) -> String {
    format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'"))
}

/// Which of a move's texts `notation` names.
fn notation_of(notation: &str) -> PyResult<fn(MoveText) -> String> {
    match notation.trim().to_ascii_lowercase().as_str() {
        "hub" => Ok(|m| m.hub),
        "pdn" => Ok(|m| m.pdn),
        other => Err(raise(
            Kind::Option,
            format!("notation: unknown notation '{other}' (expected hub or pdn)"),
        )),
    }
}

/// How a game ended: `winner` (`"white"`, `"black"`, or `None` for a draw), `termination`
/// (`"no-move"`: the loser had no legal move; `"draw-rule"`: a draw counter ran out;
/// `"repetition"`: the third occurrence of a position) and `result` (as `Position.result()`).
#[pyclass(module = "tiao", frozen, get_all, eq)]
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    pub winner: Option<String>,
    pub termination: String,
    pub result: String,
}

#[pymethods]
impl Outcome {
    fn __repr__(&self) -> String {
        format!(
            "Outcome(winner={}, termination={}, result={})",
            self.winner.as_deref().map_or("None".to_string(), quoted),
            quoted(&self.termination),
            quoted(&self.result)
        )
    }
}

/// perft(variant, fen, depth, *, threads=1) -> int
///
/// The number of leaves of the legal-move tree `depth` plies deep (0..=64) from `fen` (`None`
/// or `"start"`: the start position) in `variant`, the figure move generators are checked
/// against. Runs without the GIL; `threads` > 1 splits the tree among threads.
///
/// >>> tiao.perft("international", None, 4)
/// 4265
#[pyfunction]
#[pyo3(signature = (variant, fen, depth, *, threads = 1))]
pub fn perft(
    py: Python<'_>,
    variant: &str,
    fen: Option<&str>,
    depth: i64,
    threads: i64,
) -> PyResult<u64> {
    let position = Position::build(kind_of(variant, "standard")?, fen, &[])?;
    position.perft(py, depth, threads)
}

/// board_svg(position, *, flip=False, coordinates=True, square=50.0) -> str
///
/// The position as an SVG picture (a complete document): the board, the pieces, the last move
/// played marked (its squares highlighted, an arrow along its path, a cross on what it took).
/// `flip` draws the board from Black's side, `coordinates` writes square numbers or files and
/// ranks, `square` is the side of a square in pixels (4..=1000).
#[pyfunction]
#[pyo3(signature = (position, *, flip = false, coordinates = true, square = 50.0))]
pub fn board_svg(
    position: &Position,
    flip: bool,
    coordinates: bool,
    square: f64,
) -> PyResult<String> {
    if !(square.is_finite() && (4.0..=1000.0).contains(&square)) {
        return Err(raise(
            Kind::Option,
            format!("square: {square} is not a number of pixels in 4..=1000"),
        ));
    }
    let style = Style {
        flip,
        coordinates,
        square,
    };
    position.track.svg(&style).map_err(PyRuntimeError::new_err)
}
