//! The game a page shows: its record (variant, start position, moves, the ply on the board) and
//! the view of it the page draws ([`View`]): the squares or points with their pieces, the legal
//! moves of the position on the board with the path of squares each one is clicked along, the
//! move list in the game's notation and the end of the game by the rules.
//!
//! Every rule is the library's: the record is replayed by [`GameTrack::replay`] (the crate's one
//! replay), moves are parsed by the position's own parser, paths of captures are found by
//! [`find_path`]. The page never decides legality; it matches clicks against these paths.
//!
//! Invariants: a [`GameRecord`] always replays (every change is checked on a copy first, and a
//! refused change leaves it as it was); `cursor <= moves.len()`; `scores.len() == moves.len() + 1`.

use super::api::{CellView, LegalView, MoveRow, PieceView, View};
use crate::dispatch;
use crate::draughts::board::{Bits, Geometry};
use crate::draughts::notation::path::find_path;
use crate::draughts::position::Position;
use crate::draughts::rules::{Rules, SquareNotation};
use crate::game::Game;
use crate::game::Variant;
use crate::game::color::Color;
use crate::morris::MorrisPosition;
use crate::morris::board::{self as mboard, NAMES, POINTS};
use crate::pdn::{self, PdnGame, PdnMove};
use crate::track::{GameTrack, RuleEnd};
use crate::variant::GameKind;

/// The most plies a game may have (a PDN loaded, moves played): far beyond any real game.
pub const MAX_PLIES: usize = 5_000;

/// A game: where it starts, the moves played (Hub form) and the ply shown.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub kind: GameKind,
    /// The start position (`None`: the variant's).
    pub fen: Option<String>,
    /// The moves, Hub form (or Morris's own notation).
    pub moves: Vec<String>,
    /// The ply on the board: the position after `moves[..cursor]`.
    pub cursor: usize,
    /// The score of each position, men from White's side (`None`: not searched); proven results
    /// as ±infinity.
    pub scores: Vec<Option<f64>>,
    /// PDN tags of a loaded game (kept when it is saved again).
    pub tags: Vec<(String, String)>,
}

impl GameRecord {
    /// A new game of `kind` from `fen` (the start when `None`); an error says why the FEN is
    /// refused.
    pub fn new(kind: GameKind, fen: Option<&str>) -> Result<GameRecord, String> {
        let fen = fen.map(str::trim).filter(|f| !f.is_empty());
        let record = GameRecord {
            kind,
            fen: fen.map(str::to_string),
            moves: Vec::new(),
            cursor: 0,
            scores: vec![None],
            tags: Vec::new(),
        };
        record.check()?;
        Ok(record)
    }

    /// The moves up to the board's ply.
    pub fn moves_to_cursor(&self) -> Vec<&str> {
        self.moves[..self.cursor]
            .iter()
            .map(String::as_str)
            .collect()
    }

    /// Replays the game; an error says what is wrong.
    fn check(&self) -> Result<(), String> {
        if self.moves.len() > MAX_PLIES {
            return Err(format!("a game of more than {MAX_PLIES} plies"));
        }
        let moves: Vec<&str> = self.moves.iter().map(String::as_str).collect();
        dispatch!(self.kind,
            R => GameTrack::<Position<R>>::replay(self.fen.as_deref(), moves).map(|_| ()),
            morris => GameTrack::<MorrisPosition>::replay(self.fen.as_deref(), moves).map(|_| ()))
        .map_err(|e| e.to_string())
    }

    /// Plays `text` (any accepted form) at the board's ply, dropping the moves after it; the
    /// move's Hub form. On error (the reason) nothing changes.
    pub fn play(&mut self, text: &str) -> Result<String, String> {
        let text = text.trim();
        if text.is_empty() {
            return Err("no move given".into());
        }
        if self.cursor >= MAX_PLIES {
            return Err(format!("a game of more than {MAX_PLIES} plies"));
        }
        let moves = self.moves_to_cursor();
        let hub = dispatch!(self.kind,
            R => play_on::<Position<R>>(self.fen.as_deref(), &moves, text),
            morris => play_on::<MorrisPosition>(self.fen.as_deref(), &moves, text))?;
        self.moves.truncate(self.cursor);
        self.scores.truncate(self.cursor + 1);
        self.moves.push(hub.clone());
        self.scores.push(None);
        self.cursor += 1;
        Ok(hub)
    }

    /// Takes back the moves from ply `ply` on (and shows the position there).
    pub fn take_back_to(&mut self, ply: usize) {
        let ply = ply.min(self.moves.len());
        self.moves.truncate(ply);
        self.scores.truncate(ply + 1);
        self.cursor = ply;
    }

    /// Shows ply `ply` (clamped to the game).
    pub fn go_to(&mut self, ply: usize) {
        self.cursor = ply.min(self.moves.len());
    }

    /// Game `index` (0-based) of a PDN text, of the variant its tags name (else `default`), at
    /// its last ply, with a label for every game of the text (`3. tiao - dame 2-0`). An error
    /// says what is wrong (the text, the index, the variant or the first bad move).
    pub fn from_pdn(
        text: &str,
        index: usize,
        default: GameKind,
    ) -> Result<(GameRecord, Vec<String>), String> {
        let games = pdn::parse(text).map_err(|e| format!("bad PDN: {e}"))?;
        if games.is_empty() {
            return Err("no game in the PDN text".into());
        }
        let labels = games
            .iter()
            .enumerate()
            .map(|(i, g)| {
                format!(
                    "{}. {} - {} {}",
                    i + 1,
                    g.tag("White").unwrap_or("?"),
                    g.tag("Black").unwrap_or("?"),
                    g.result.as_deref().or(g.tag("Result")).unwrap_or("*")
                )
            })
            .collect();
        let count = games.len();
        let game = games
            .into_iter()
            .nth(index)
            .ok_or_else(|| format!("no game {} in the PDN text ({count} games)", index + 1))?;
        let kind = match game.variant() {
            Some(Ok(v)) if v == default.variant => default,
            Some(Ok(v)) => GameKind::new(v),
            Some(Err(e)) => return Err(format!("bad PDN: {e}")),
            None => default,
        };
        if game.moves.len() > MAX_PLIES {
            return Err(format!("a game of more than {MAX_PLIES} plies"));
        }
        let texts: Vec<&str> = game.moves.iter().map(|m| m.text.as_str()).collect();
        let hub = dispatch!(kind,
            R => GameTrack::<Position<R>>::replay(game.fen(), texts).map(|t| t.hub_moves()),
            morris => GameTrack::<MorrisPosition>::replay(game.fen(), texts).map(|t| t.hub_moves()))
        .map_err(|e| format!("bad PDN game: {e}"))?;
        let n = hub.len();
        let record = GameRecord {
            kind,
            fen: game.fen().map(str::to_string),
            moves: hub,
            cursor: n,
            scores: vec![None; n + 1],
            tags: game.tags.clone(),
        };
        Ok((record, labels))
    }

    /// The game as PDN text (its tags, else tiao's; the moves in PDN form; the result by the
    /// rules when the game has ended, else `*`).
    pub fn to_pdn(&self) -> String {
        let moves: Vec<&str> = self.moves.iter().map(String::as_str).collect();
        let (pdn_moves, first, start, end) = dispatch!(self.kind,
            R => pdn_parts::<Position<R>>(self.fen.as_deref(), &moves),
            morris => pdn_parts::<MorrisPosition>(self.fen.as_deref(), &moves));
        let mut game = PdnGame {
            tags: self.tags.clone(),
            ..PdnGame::default()
        };
        if game.tags.is_empty() {
            game.set_tag("Event", "tiao gui");
            game.set_tag("Date", pdn::today());
            game.set_tag("White", "?");
            game.set_tag("Black", "?");
        }
        let variant = self.kind.variant;
        if let Some(gt) = pdn::game_type(variant) {
            game.set_tag("GameType", gt);
        }
        if matches!(variant, Variant::Duoyibu | Variant::Morris) {
            game.set_tag("Variant", variant.name());
        }
        if let Some(f) = &self.fen {
            game.set_tag("SetUp", "1");
            game.set_tag("FEN", f.clone());
        }
        let white = match end {
            Some(RuleEnd::NoMove(loser)) => Some(if loser == Color::White { 0.0 } else { 1.0 }),
            Some(RuleEnd::DrawRule | RuleEnd::Repetition) => Some(0.5),
            None => None,
        };
        let result = pdn::result_text(variant, white);
        game.set_tag("Result", result);
        game.result = Some(result.to_string());
        game.moves = pdn_moves.into_iter().map(PdnMove::new).collect();
        pdn::write(&game, first, start)
    }

    /// The view of the position on the board.
    pub fn view(&self) -> View {
        let moves: Vec<&str> = self.moves.iter().map(String::as_str).collect();
        let mut v = dispatch!(self.kind,
            R => draughts_view::<R>(self.fen.as_deref(), &moves, self.cursor),
            morris => morris_view(self.fen.as_deref(), &moves, self.cursor));
        v.variant = self.kind.variant.name();
        v.start_fen = self.fen.clone();
        v.cursor = self.cursor;
        v.scores = self.scores.iter().map(|s| s.map(finite_men)).collect();
        v
    }
}

/// A score for JSON (which has no infinities): proven results as ±100 men.
fn finite_men(s: f64) -> f64 {
    s.clamp(-PROVEN_MEN, PROVEN_MEN)
}

/// How a proven result is written in the page's scores, men.
pub const PROVEN_MEN: f64 = 100.0;

/// `text` played after `moves` from `fen`: its Hub form, or why it is refused.
fn play_on<G: Game>(fen: Option<&str>, moves: &[&str], text: &str) -> Result<String, String> {
    let track = GameTrack::<G>::replay(fen, moves.iter().copied()).map_err(|e| e.to_string())?;
    let pos = track.position();
    if let Some(end) = track.status() {
        return Err(format!("the game is over: {}", end_text(end)));
    }
    let m = pos.parse_move(text).map_err(|e| format!("'{text}': {e}"))?;
    Ok(pos.move_to_hub(&m))
}

/// The moves in PDN form, the first mover, the side to move at the start and the game's end.
fn pdn_parts<G: Game>(
    fen: Option<&str>,
    moves: &[&str],
) -> (Vec<String>, Color, Color, Option<RuleEnd>) {
    match GameTrack::<G>::replay(fen, moves.iter().copied()) {
        Ok(t) => (
            t.pdn_moves(),
            G::start().side(),
            t.start().side(),
            t.status(),
        ),
        // The record always replays (its invariant); an empty game otherwise.
        Err(_) => (Vec::new(), G::start().side(), G::start().side(), None),
    }
}

/// How the end of a game is told.
pub fn end_text(end: RuleEnd) -> String {
    match end {
        RuleEnd::NoMove(Color::White) => "White cannot move: Black wins".into(),
        RuleEnd::NoMove(Color::Black) => "Black cannot move: White wins".into(),
        RuleEnd::DrawRule => "drawn by the draw rules".into(),
        RuleEnd::Repetition => "drawn by threefold repetition".into(),
    }
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// The move list and the status at the cursor, shared by both games.
fn common<G: Game>(track: &GameTrack<G>, cursor: usize) -> (View, GameTrack<G>) {
    let rows = track
        .positions()
        .iter()
        .zip(track.moves())
        .map(|(p, m)| MoveRow {
            pdn: p.move_to_pdn(m),
            hub: p.move_to_hub(m),
            side: side_name(p.side()),
        })
        .collect();
    let mut at = track.clone();
    at.take_back_to(cursor);
    let pos = at.position();
    let view = View {
        fen: pos.fen(),
        side: side_name(pos.side()),
        first_side: side_name(G::start().side()),
        start_side: side_name(track.start().side()),
        moves: rows,
        status: at.status().map(end_text),
        ..View::default()
    };
    (view, at)
}

fn draughts_view<R: Rules>(fen: Option<&str>, moves: &[&str], cursor: usize) -> View {
    let Ok(track) = GameTrack::<Position<R>>::replay(fen, moves.iter().copied()) else {
        return View::default();
    };
    let (mut view, at) = common(&track, cursor);
    let pos = *at.position();
    let id = |b: u8| R::Board::number_of_bit(b).to_string();
    view.size = R::Board::SIZE;
    view.algebraic = R::NOTATION == SquareNotation::Algebraic;
    for n in 1..=R::Board::SQUARES as u32 {
        let Some(b) = R::Board::bit_of_number(n) else {
            continue;
        };
        let (file, rank) = R::Board::coords_of_bit(b);
        let bit = 1u64 << b;
        let piece = [Color::White, Color::Black]
            .into_iter()
            .find(|&c| pos.pieces(c) & bit != 0)
            .map(|c| PieceView {
                color: side_name(c),
                king: pos.kings() & bit != 0,
            });
        view.cells.push(CellView {
            id: n.to_string(),
            label: if view.algebraic {
                R::Board::algebraic(b)
            } else {
                n.to_string()
            },
            file,
            rank,
            piece,
        });
    }
    // The last move: its path and what it took.
    if cursor > 0 {
        let before = &at.positions()[cursor - 1];
        let m = &at.moves()[cursor - 1];
        let mut path = vec![id(m.from)];
        path.extend(
            find_path(before, m, &[])
                .unwrap_or_else(|| vec![m.to])
                .into_iter()
                .map(id),
        );
        view.last_path = path;
        view.last_captured = Bits(m.captured).map(id).collect();
    }
    if view.status.is_none() {
        for m in at.legal().iter() {
            let mut path = vec![id(m.from)];
            path.extend(
                find_path(&pos, m, &[])
                    .unwrap_or_else(|| vec![m.to])
                    .into_iter()
                    .map(id),
            );
            view.legal.push(LegalView {
                pdn: pos.move_to_pdn(m),
                hub: pos.move_to_hub(m),
                path,
                captured: Bits(m.captured).map(id).collect(),
            });
        }
    }
    view
}

/// The clicks of a Morris move: where from (a step), where to, what it removes.
fn morris_path(m: &crate::morris::Move) -> (Vec<String>, Vec<String>) {
    let name = |p: u8| NAMES[p as usize].to_string();
    let mut path: Vec<String> = m.from().into_iter().map(name).collect();
    path.push(name(m.to()));
    let removed: Vec<String> = m.removal().into_iter().map(name).collect();
    path.extend(removed.iter().cloned());
    (path, removed)
}

fn morris_view(fen: Option<&str>, moves: &[&str], cursor: usize) -> View {
    let Ok(track) = GameTrack::<MorrisPosition>::replay(fen, moves.iter().copied()) else {
        return View::default();
    };
    let (mut view, at) = common(&track, cursor);
    let pos = *at.position();
    view.size = 7;
    view.algebraic = true;
    view.morris = true;
    for p in 0..POINTS as u8 {
        let name = NAMES[p as usize];
        let b = name.as_bytes();
        let bit = mboard::bit(p);
        let piece = [Color::White, Color::Black]
            .into_iter()
            .find(|&c| pos.pieces(c) & bit != 0)
            .map(|c| PieceView {
                color: side_name(c),
                king: false,
            });
        view.cells.push(CellView {
            id: name.to_string(),
            label: name.to_string(),
            file: (b[0] - b'a') as u32,
            rank: (b[1] - b'1') as u32,
            piece,
        });
    }
    view.in_hand = Some([pos.in_hand(Color::White), pos.in_hand(Color::Black)]);
    view.lines = (0..POINTS as u8)
        .flat_map(|p| {
            mboard::points(mboard::ADJACENT[p as usize])
                .filter(move |&q| q > p)
                .map(move |q| [NAMES[p as usize].to_string(), NAMES[q as usize].to_string()])
        })
        .collect();
    if cursor > 0 {
        let m = &at.moves()[cursor - 1];
        let (path, removed) = morris_path(m);
        view.last_path = path.into_iter().filter(|p| !removed.contains(p)).collect();
        view.last_captured = removed;
    }
    if view.status.is_none() {
        for m in at.legal().iter() {
            let (path, captured) = morris_path(m);
            view.legal.push(LegalView {
                pdn: pos.move_to_pdn(m),
                hub: pos.move_to_hub(m),
                path,
                captured,
            });
        }
    }
    view
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plays_refuses_and_takes_back() {
        let mut g = GameRecord::new(GameKind::default(), None).unwrap();
        assert_eq!(g.view().legal.len(), 9);
        assert_eq!(g.play("32-28").unwrap(), "32-28");
        assert!(g.play("32-28").is_err());
        assert_eq!(g.cursor, 1);
        g.play("19-23").unwrap();
        g.go_to(1);
        assert_eq!(g.view().moves.len(), 2);
        g.play("18-23").unwrap();
        assert_eq!(g.moves, ["32-28", "18-23"]);
        g.take_back_to(0);
        assert!(g.moves.is_empty() && g.scores.len() == 1);
        assert!(GameRecord::new(GameKind::default(), Some("W:garbage")).is_err());
    }

    #[test]
    fn a_multi_capture_has_its_whole_path() {
        let g = GameRecord::new(GameKind::default(), Some("W:W47:B42,32,31")).unwrap();
        let v = g.view();
        assert_eq!(v.legal.len(), 1, "{:?}", v.legal);
        assert_eq!(v.legal[0].path, ["47", "38", "27", "36"]);
    }

    #[test]
    fn pdn_round_trip_and_morris() {
        let mut g = GameRecord::new(GameKind::new(Variant::Morris), None).unwrap();
        g.play("d6").unwrap();
        let v = g.view();
        assert_eq!(v.cells.len(), 24);
        assert_eq!(v.lines.len(), 32);
        let text = g.to_pdn();
        let (back, labels) = GameRecord::from_pdn(&text, 0, GameKind::default()).unwrap();
        assert_eq!(labels, ["1. ? - ? *"]);
        assert!(GameRecord::from_pdn(&text, 1, GameKind::default()).is_err());
        assert_eq!(back.kind.variant, Variant::Morris);
        assert_eq!(back.moves, g.moves);
    }

    proptest::proptest! {
        /// Whatever a page sends as a FEN, a move or a PDN text, the record answers without
        /// panicking, and a refused change leaves it as it was.
        #[test]
        fn outside_input_never_panics(
            fen in "[ -~]{0,40}",
            mv in "[ -~]{0,12}",
            pdn in "[ -~\n{}()\\[\\]\"]{0,120}",
            v in 0usize..6,
        ) {
            let kind = GameKind::new(Variant::ALL[v]);
            let _ = GameRecord::new(kind, Some(&fen));
            let mut g = GameRecord::new(kind, None).unwrap();
            let before = g.moves.clone();
            if g.play(&mv).is_err() {
                proptest::prop_assert_eq!(&g.moves, &before);
            }
            let _ = g.view();
            let _ = GameRecord::from_pdn(&pdn, 0, kind);
        }
    }
}
