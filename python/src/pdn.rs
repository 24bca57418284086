//! PDN games: `tiao.PdnGame`, `tiao.read_pdn` and `tiao.write_pdn`, over the library's PDN layer
//! ([`tiao::pdn`]: reading whatever other tools write, writing PDN 3.0).
//!
//! A `PdnGame` is the library's textual game (tags, moves as written, their comments and marks,
//! result) plus the game it is read under when its tags do not say. It knows no rules until a
//! position is asked of it: `start_position()` / `end_position()` replay it (the library's one
//! replay) and name the bad ply. Invariant: `read_pdn(write_pdn(g))[0] == g` for every game whose
//! comments hold no `}` (the library's round-trip promise).

use crate::errors::{Kind, raise};
use crate::game::track_for;
use crate::position::{Position, kind_of};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyMapping};
use tiao::game::Variant;
use tiao::game::color::Color;
use tiao::pdn::{self, PdnMove, RESULTS};
use tiao::variant::GameKind;

/// A game record as PDN holds it: tags, moves as written, result.
///
/// >>> position = tiao.Position("english", moves=["11-15", "23-19"])
/// >>> g = tiao.PdnGame(position, {"Event": "Club match", "White": "A", "Black": "B"})
/// >>> g.moves, g.result
/// (['11-15', '23-19'], '*')
/// >>> tiao.read_pdn(str(g))[0] == g
/// True
///
/// PdnGame(position=None, tags=None, result=None): the record of `position`'s game: its moves
/// (PDN form), the tags that say the game (`GameType`, `Variant` where PDN has no number, `SetUp`
/// and `FEN` when it does not start from the start position), then `tags` (a mapping, in its
/// order), and the result: `result` if given, else the position's (`*` while the game goes on).
/// With no position: an empty international game.
#[pyclass(module = "tiao")]
#[derive(Clone)]
pub struct PdnGame {
    game: pdn::PdnGame,
    /// The game when the tags do not name one.
    default: GameKind,
}

impl PdnGame {
    /// The game it is played under: the tags' variant (with the default's draw rules), else the
    /// default.
    fn kind(&self) -> PyResult<GameKind> {
        match self.game.variant() {
            Some(Ok(variant)) => Ok(GameKind {
                variant,
                draw_rules: self.default.draw_rules,
            }),
            Some(Err(e)) => Err(raise(Kind::Variant, e)),
            None => Ok(self.default),
        }
    }

    /// The position after the first `plies` moves (all of them when `None`).
    fn replay(&self, plies: Option<usize>) -> PyResult<Position> {
        let kind = self.kind()?;
        let moves: Vec<&str> = self
            .game
            .moves
            .iter()
            .take(plies.unwrap_or(usize::MAX))
            .map(|m| m.text.as_str())
            .collect();
        Position::build(kind, self.game.fen(), &[])?;
        Position::build(kind, self.game.fen(), &moves)
            .map_err(|e| Python::attach(|py| raise(Kind::Pdn, e.value(py).to_string())))
    }

    /// The PDN text.
    fn text(&self) -> String {
        // The move numbers follow the side that moves first in the variant and the side to move
        // at the start; a game whose start does not read is written as White's.
        let sides = self.kind().ok().and_then(|kind| {
            let t = track_for(kind, self.game.fen(), []).ok()?;
            Some((t.first_side(), t.start_side()))
        });
        let (first, side) = sides.unwrap_or((Color::White, Color::White));
        pdn::write(&self.game, first, side)
    }
}

#[pymethods]
impl PdnGame {
    #[new]
    #[pyo3(signature = (position = None, tags = None, result = None))]
    fn new(
        position: Option<&Position>,
        tags: Option<&Bound<'_, PyMapping>>,
        result: Option<&str>,
    ) -> PyResult<PdnGame> {
        let mut game = pdn::PdnGame::default();
        if let Some(tags) = tags {
            for item in tags.items()?.iter() {
                let (k, v): (String, String) = item.extract()?;
                game.set_tag(&k, v);
            }
        }
        let default = position.map_or(GameKind::new(Variant::International), Position::kind);
        if let Some(p) = position {
            let variant = p.kind().variant;
            if let Some(gt) = pdn::game_type(variant) {
                game.set_tag("GameType", gt);
            }
            // Variants without a PDN number of their own are named.
            if pdn::game_type(variant).is_none_or(|gt| gt.starts_with("42")) {
                game.set_tag("Variant", variant.name());
            }
            if !p.track().starts_at_start() {
                game.set_tag("SetUp", "1");
                game.set_tag("FEN", p.track().start_fen());
            }
            game.moves = p
                .track()
                .moves()
                .into_iter()
                .map(|m| PdnMove::new(m.pdn))
                .collect();
        }
        let result = match (result, position) {
            (Some(r), _) => Some(checked_result(r)?),
            (None, Some(p)) => Some(p.result_text()),
            (None, None) => None,
        };
        if let Some(r) = &result {
            game.set_tag("Result", r.clone());
        }
        game.result = result;
        Ok(PdnGame { game, default })
    }

    /// The tags, in their order (a copy: change them with `set_tag`, or assign a new mapping).
    #[getter]
    fn tags<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in &self.game.tags {
            d.set_item(k, v)?;
        }
        Ok(d)
    }

    #[setter]
    fn set_tags(&mut self, tags: &Bound<'_, PyMapping>) -> PyResult<()> {
        let mut out = Vec::new();
        for item in tags.items()?.iter() {
            out.push(item.extract::<(String, String)>()?);
        }
        self.game.tags = out;
        Ok(())
    }

    /// tag(name) -> str | None
    ///
    /// A tag's value (the name compared without case).
    fn tag(&self, name: &str) -> Option<String> {
        self.game.tag(name).map(str::to_string)
    }

    /// set_tag(name, value) -> None
    ///
    /// Sets a tag, replacing its value if present, else adding it last.
    fn set_tag(&mut self, name: &str, value: &str) {
        self.game.set_tag(name, value);
    }

    /// The moves of the main line, as written.
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.game.moves.iter().map(|m| m.text.clone()).collect()
    }

    /// The comments after each move (a list per move, in the moves' order).
    #[getter]
    fn comments(&self) -> Vec<Vec<String>> {
        self.game.moves.iter().map(|m| m.comments.clone()).collect()
    }

    /// The result that ends the move text (`2-0`, `1/2-1/2`, `*`, ...), `None` when it has none.
    #[getter]
    fn result(&self) -> Option<String> {
        self.game.result.clone()
    }

    #[setter]
    fn set_result(&mut self, result: Option<&str>) -> PyResult<()> {
        self.game.result = result.map(checked_result).transpose()?;
        Ok(())
    }

    /// The variant the game is played in: its `Variant` or `GameType` tag, else the one it was
    /// read under. Raises `VariantError` when the tags name a game tiao does not play.
    #[getter]
    fn variant(&self) -> PyResult<&'static str> {
        Ok(self.kind()?.variant.name())
    }

    /// The `FEN` tag (the start position when it is not the variant's), or `None`.
    #[getter]
    fn fen(&self) -> Option<String> {
        self.game.fen().map(str::to_string)
    }

    /// start_position() -> Position
    ///
    /// The position the game starts from.
    fn start_position(&self) -> PyResult<Position> {
        self.replay(Some(0))
    }

    /// end_position() -> Position
    ///
    /// The position after every move, with the game's history. Raises `PdnError` naming the ply
    /// when a move is not legal.
    fn end_position(&self) -> PyResult<Position> {
        self.replay(None)
    }

    /// to_pdn() -> str
    ///
    /// The game as PDN text (as `str(game)`).
    fn to_pdn(&self) -> String {
        self.text()
    }

    fn __str__(&self) -> String {
        self.text()
    }

    fn __repr__(&self) -> String {
        let variant = self.kind().map_or("?", |k| k.variant.name());
        format!(
            "<PdnGame {variant}, {} moves, {}>",
            self.game.moves.len(),
            self.game.result.as_deref().unwrap_or("no result")
        )
    }

    /// Games are equal when their PDN records are: tags, moves, marks, comments and result.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<PdnGame>() {
            Ok(o) => self.game == o.borrow().game,
            Err(_) => false,
        }
    }

    fn __copy__(&self) -> PdnGame {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PdnGame {
        self.clone()
    }
}

/// A result text PDN ends games with.
fn checked_result(r: &str) -> PyResult<String> {
    let r = r.trim();
    if RESULTS.contains(&r) {
        Ok(r.to_string())
    } else {
        Err(raise(
            Kind::Pdn,
            format!("bad result '{r}' (expected one of {})", RESULTS.join(" ")),
        ))
    }
}

/// read_pdn(text, variant="international", draw_rules="standard") -> list[PdnGame]
///
/// Every game of a PDN text (tags, move numbers, comments, variations skipped, marks and NAGs,
/// results; several games one after the other). `variant` is the game of those whose tags name
/// none. Raises `PdnError` naming the line of text that does not parse. The moves are checked
/// only when a position is asked of a game.
///
/// >>> games = tiao.read_pdn('[White "A"]\n1. 32-28 19-23 *')
/// >>> games[0].tags["White"], games[0].end_position().moves
/// ('A', ['32-28', '19-23'])
#[pyfunction]
#[pyo3(signature = (text, variant = "international", draw_rules = "standard"))]
pub fn read_pdn(text: &str, variant: &str, draw_rules: &str) -> PyResult<Vec<PdnGame>> {
    let default = kind_of(variant, draw_rules)?;
    let games = pdn::parse(text).map_err(|e| raise(Kind::Pdn, e.to_string()))?;
    Ok(games
        .into_iter()
        .map(|game| PdnGame { game, default })
        .collect())
}

/// write_pdn(games) -> str
///
/// PDN text of a game or of an iterable of games, one after the other.
#[pyfunction]
pub fn write_pdn(games: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(g) = games.cast::<PdnGame>() {
        return Ok(g.borrow().text());
    }
    let mut out = String::new();
    for g in games.try_iter()? {
        let g = g?;
        let g = g.cast::<PdnGame>()?;
        out.push_str(&g.borrow().text());
    }
    Ok(out)
}
