//! The referee of a match game: the game behind a type-erased interface, so that the runner is
//! written once for every game.
//!
//! [`Track`] is implemented by the shared [`GameTrack<G>`] (the position, the moves played, and the
//! game's end by the rules: see [`track`](crate::track)); [`track_for`] binds the variant (by
//! [`dispatch!`](crate::dispatch)) to it, replaying the opening's moves. Moves come in as text in
//! any accepted form (an engine's Hub move) and are matched against the legal moves, so an illegal
//! move is caught here.

use crate::dispatch;
use crate::draughts::position::Position;
use crate::engine::{MoveText, move_text};
use crate::game::Evaluate;
use crate::game::MoveError;
use crate::game::Variant;
use crate::game::color::Color;
use crate::morris::MorrisPosition;
use crate::protocol::hub::client::HubPosition;
use crate::track::{GameTrack, ReplayError, RuleEnd};
use crate::variant::GameKind;

/// A game in progress, whatever the game.
pub trait Track: Send {
    /// The variant.
    fn variant(&self) -> Variant;
    /// The FEN of the game's initial position.
    fn start_fen(&self) -> String;
    /// The Hub position string of the game's initial position.
    fn start_hub(&self) -> String;
    /// Whether the game starts from the variant's start position.
    fn starts_at_start(&self) -> bool;
    /// The side to move at the game's initial position.
    fn start_side(&self) -> Color;
    /// The side that moves first in the variant (White; Black in english).
    fn first_side(&self) -> Color;
    /// Plies played since the initial position.
    fn plies(&self) -> usize;
    /// Every move played since the initial position, Hub form.
    fn moves_hub(&self) -> Vec<String>;
    /// Every move played since the initial position, PDN form.
    fn moves_pdn(&self) -> Vec<String>;
    /// The side to move now.
    fn side(&self) -> Color;
    /// The current position's FEN.
    fn fen(&self) -> String;
    /// The end of the game by the rules, if it has ended.
    fn status(&self) -> Option<RuleEnd>;
    /// Plays a move given in any accepted form; on error nothing changes.
    fn play(&mut self, text: &str) -> Result<MoveText, MoveError>;
}

impl<G: Evaluate + HubPosition> Track for GameTrack<G> {
    fn variant(&self) -> Variant {
        self.start().variant()
    }
    fn start_fen(&self) -> String {
        self.start().fen()
    }
    fn start_hub(&self) -> String {
        self.start().hub_position()
    }
    fn starts_at_start(&self) -> bool {
        self.start().key() == G::start().key()
    }
    fn start_side(&self) -> Color {
        self.start().side()
    }
    fn first_side(&self) -> Color {
        G::start().side()
    }
    fn plies(&self) -> usize {
        GameTrack::plies(self)
    }
    fn moves_hub(&self) -> Vec<String> {
        self.hub_moves()
    }
    fn moves_pdn(&self) -> Vec<String> {
        self.pdn_moves()
    }
    fn side(&self) -> Color {
        GameTrack::side(self)
    }
    fn fen(&self) -> String {
        self.position().fen()
    }
    fn status(&self) -> Option<RuleEnd> {
        GameTrack::status(self)
    }
    fn play(&mut self, text: &str) -> Result<MoveText, MoveError> {
        let before = *self.position();
        let m = self.play_text(text)?;
        Ok(move_text(&before, &m))
    }
}

/// A game of `kind` from `fen` (or the start position) after `moves` (any accepted form), by
/// [`GameTrack::replay`].
pub fn track_for<'a>(
    kind: GameKind,
    fen: Option<&str>,
    moves: impl IntoIterator<Item = &'a str>,
) -> Result<Box<dyn Track>, ReplayError> {
    fn boxed<'a, G: Evaluate + HubPosition>(
        fen: Option<&str>,
        moves: impl IntoIterator<Item = &'a str>,
    ) -> Result<Box<dyn Track>, ReplayError> {
        Ok(Box::new(GameTrack::<G>::replay(fen, moves)?))
    }
    dispatch!(kind,
        R => boxed::<Position<R>>(fen, moves),
        morris => boxed::<MorrisPosition>(fen, moves))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plays_and_ends_by_the_rules() {
        let kind = GameKind::new(Variant::International);
        let mut t = track_for(kind, None, []).unwrap();
        assert!(t.starts_at_start());
        assert_eq!(t.status(), None);
        t.play("32-28").unwrap();
        t.play("19-23").unwrap();
        assert!(t.play("28-22").is_err());
        let m = t.play("28x19").unwrap();
        assert_eq!(m.hub, "28x19x23");
        assert_eq!(t.moves_pdn(), ["32-28", "19-23", "28x19"]);
        // A lone king against a man that must be taken: after the capture Black has no move.
        let mut t = track_for(kind, Some("W:WK46:B41"), []).unwrap();
        assert!(!t.starts_at_start());
        t.play("46x37").unwrap();
        assert_eq!(t.status(), Some(RuleEnd::NoMove(Color::Black)));
    }
}
