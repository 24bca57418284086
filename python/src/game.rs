//! A game being played, whatever the game, behind one object-safe interface ([`AnyTrack`]): what
//! `tiao.Position` holds.
//!
//! [`AnyTrack`] is implemented once, by the library's [`GameTrack<G>`] for every position type
//! (the draughts `Position<R>` of each rules value, and `MorrisPosition`); [`track_for`] binds a
//! run-time [`GameKind`] to it by the library's `dispatch!`, so nothing below the edge asks which
//! game it plays. The pictures of a position ([`Picture`]) are the library's `render` diagrams,
//! one implementation per game.
//!
//! Invariant (the library's): a track's moves are legal and its positions follow from them, so
//! the start FEN and the Hub moves replay it exactly (what `tiao.Engine` and pickling rely on).

use tiao::draughts::position::Position;
use tiao::draughts::rules::Rules;
use tiao::engine::{MoveText, move_text};
use tiao::game::color::Color;
use tiao::game::{BulkCount, Evaluate, Game, MoveError, Variant};
use tiao::morris::MorrisPosition;
use tiao::perft::{self, PerftOptions};
use tiao::render::board::{self, Style};
use tiao::render::morris;
use tiao::track::{GameTrack, ReplayError, RuleEnd};
use tiao::variant::GameKind;

/// How a game's positions are drawn: the library's diagram of its kind of board, replayed from a
/// start FEN and the moves played (the last of them marked).
pub trait Picture: Game {
    /// An SVG document.
    fn svg(fen: &str, moves: &[&str], style: &Style) -> Result<String, String>;
    /// A text diagram, ending with a newline.
    fn text(fen: &str, moves: &[&str]) -> Result<String, String>;
}

impl<R: Rules> Picture for Position<R> {
    fn svg(fen: &str, moves: &[&str], style: &Style) -> Result<String, String> {
        let d = board::diagram(GameKind::new(R::VARIANT), Some(fen), moves)?;
        Ok(board::svg(&d, style))
    }

    fn text(fen: &str, moves: &[&str]) -> Result<String, String> {
        let d = board::diagram(GameKind::new(R::VARIANT), Some(fen), moves)?;
        let mut out = board::text(&d, false);
        out.push_str(&d.fen);
        out.push('\n');
        if let Some(m) = &d.last_move {
            out.push_str(&format!("last move {}\n", m.text));
        }
        Ok(out)
    }
}

impl Picture for MorrisPosition {
    fn svg(fen: &str, moves: &[&str], style: &Style) -> Result<String, String> {
        let d = morris::diagram(Some(fen), moves)?;
        Ok(morris::svg(&d, style))
    }

    fn text(fen: &str, moves: &[&str]) -> Result<String, String> {
        Ok(morris::text(&morris::diagram(Some(fen), moves)?))
    }
}

/// A game in progress, whatever the game.
pub trait AnyTrack: Send + Sync {
    /// A copy.
    fn boxed_clone(&self) -> Box<dyn AnyTrack>;
    /// The variant.
    fn variant(&self) -> Variant;
    /// The FEN of the game's initial position.
    fn start_fen(&self) -> String;
    /// The side to move at the initial position.
    fn start_side(&self) -> Color;
    /// The side that moves first in the variant (White; Black in english).
    fn first_side(&self) -> Color;
    /// Whether the game starts from the variant's start position.
    fn starts_at_start(&self) -> bool;
    /// The current position's FEN.
    fn fen(&self) -> String;
    /// The side to move now.
    fn side(&self) -> Color;
    /// The moves played since the initial position, in both forms.
    fn moves(&self) -> Vec<MoveText>;
    /// Plies played since the initial position.
    fn plies(&self) -> usize;
    /// The legal moves of the current position, in generation order.
    fn legal(&self) -> Vec<MoveText>;
    /// A move given in any accepted form, matched against the legal moves (nothing is played).
    fn parse(&self, text: &str) -> Result<MoveText, MoveError>;
    /// Plays a move given in any accepted form; on error nothing changes.
    fn push(&mut self, text: &str) -> Result<MoveText, MoveError>;
    /// Takes the last move back, if there is one.
    fn pop(&mut self) -> Option<MoveText>;
    /// The end of the game by the rules, if it has ended.
    fn status(&self) -> Option<RuleEnd>;
    /// The leaves of the legal-move tree `depth` plies below the current position.
    fn perft(&self, depth: u32, threads: usize) -> u64;
    /// The current position as an SVG picture, the last move marked.
    fn svg(&self, style: &Style) -> Result<String, String>;
    /// The current position as a text diagram.
    fn text(&self) -> Result<String, String>;
}

impl<G: Picture + BulkCount + Evaluate> AnyTrack for GameTrack<G> {
    fn boxed_clone(&self) -> Box<dyn AnyTrack> {
        Box::new(self.clone())
    }
    fn variant(&self) -> Variant {
        self.start().variant()
    }
    fn start_fen(&self) -> String {
        self.start().fen()
    }
    fn start_side(&self) -> Color {
        self.start().side()
    }
    fn first_side(&self) -> Color {
        G::start().side()
    }
    fn starts_at_start(&self) -> bool {
        self.start().key() == G::start().key()
    }
    fn fen(&self) -> String {
        self.position().fen()
    }
    fn side(&self) -> Color {
        GameTrack::side(self)
    }
    fn moves(&self) -> Vec<MoveText> {
        self.positions()
            .iter()
            .zip(GameTrack::moves(self))
            .map(|(p, m)| move_text(p, m))
            .collect()
    }
    fn plies(&self) -> usize {
        GameTrack::plies(self)
    }
    fn legal(&self) -> Vec<MoveText> {
        let pos = self.position();
        GameTrack::legal(self)
            .iter()
            .map(|m| move_text(pos, m))
            .collect()
    }
    fn parse(&self, text: &str) -> Result<MoveText, MoveError> {
        let pos = self.position();
        pos.parse_move(text).map(|m| move_text(pos, &m))
    }
    fn push(&mut self, text: &str) -> Result<MoveText, MoveError> {
        let before = *self.position();
        let m = self.play_text(text)?;
        Ok(move_text(&before, &m))
    }
    fn pop(&mut self) -> Option<MoveText> {
        let ply = GameTrack::plies(self).checked_sub(1)?;
        let text = move_text(&self.positions()[ply], &GameTrack::moves(self)[ply]);
        self.take_back_to(ply);
        Some(text)
    }
    fn status(&self) -> Option<RuleEnd> {
        GameTrack::status(self)
    }
    fn perft(&self, depth: u32, threads: usize) -> u64 {
        let pos = self.position();
        if threads <= 1 {
            return perft::perft(pos, depth, true);
        }
        let options = PerftOptions {
            bulk: true,
            threads,
        };
        match depth {
            0 => 1,
            _ => perft::divide(pos, depth, options, &|_, _| {})
                .iter()
                .map(|(_, n)| n)
                .sum(),
        }
    }
    fn svg(&self, style: &Style) -> Result<String, String> {
        let hub: Vec<String> = self.hub_moves();
        let moves: Vec<&str> = hub.iter().map(String::as_str).collect();
        G::svg(&self.start().fen(), &moves, style)
    }
    fn text(&self) -> Result<String, String> {
        let hub: Vec<String> = self.hub_moves();
        let moves: Vec<&str> = hub.iter().map(String::as_str).collect();
        G::text(&self.start().fen(), &moves)
    }
}

/// A game of `kind` from `fen` (the start position when `None`) after `moves` (any accepted form).
pub fn track_for<'a>(
    kind: GameKind,
    fen: Option<&str>,
    moves: impl IntoIterator<Item = &'a str>,
) -> Result<Box<dyn AnyTrack>, ReplayError> {
    fn boxed<'a, G: Picture + BulkCount + Evaluate>(
        fen: Option<&str>,
        moves: impl IntoIterator<Item = &'a str>,
    ) -> Result<Box<dyn AnyTrack>, ReplayError> {
        Ok(Box::new(GameTrack::<G>::replay(fen, moves)?))
    }
    tiao::dispatch!(kind,
        R => boxed::<Position<R>>(fen, moves),
        morris => boxed::<MorrisPosition>(fen, moves))
}

/// `"white"` or `"black"`.
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}
