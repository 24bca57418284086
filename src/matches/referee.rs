//! The referee of a match game: the position, the moves played, and the game's end by the rules.
//!
//! [`Track`] is the game behind a type-erased interface, so that the runner is written once for
//! every game; [`track_for`] binds the variant (by [`dispatch!`](crate::dispatch)) to a
//! [`GameTrack<G>`]. Moves come in as text in any accepted form (an engine's Hub move) and are
//! matched against the legal moves, so an illegal move is caught here.
//!
//! The game ends by the rules when the side to move has no legal move (it has lost), when a draw
//! counter of the variant runs out, or at the third occurrence of a position (same pieces, side
//! to move and, for Morris, pieces in hand).

use crate::color::Color;
use crate::dispatch;
use crate::engine::{MoveText, move_text};
use crate::eval::Evaluate;
use crate::morris::MorrisPosition;
use crate::movegen::MoveList;
use crate::notation::MoveError;
use crate::position::Position;
use crate::protocol::hub::client::HubPosition;
use crate::rules::Variant;
use crate::variant::GameKind;

/// How the rules end a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RuleEnd {
    /// The side to move has no legal move: it has lost.
    NoMove(Color),
    /// A draw counter of the variant.
    DrawRule,
    /// The same position for the third time.
    Repetition,
}

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
    /// Every move played since the initial position, Hub form.
    fn moves_hub(&self) -> &[String];
    /// Every move played since the initial position, PDN form.
    fn moves_pdn(&self) -> &[String];
    /// The side to move now.
    fn side(&self) -> Color;
    /// The current position's FEN.
    fn fen(&self) -> String;
    /// The end of the game by the rules, if it has ended.
    fn status(&self) -> Option<RuleEnd>;
    /// Plays a move given in any accepted form; on error nothing changes.
    fn play(&mut self, text: &str) -> Result<MoveText, MoveError>;
}

/// A game of `G`: its initial position, the current one, and the keys of those before it.
pub struct GameTrack<G: Evaluate + HubPosition> {
    start: G,
    pos: G,
    history: Vec<u64>,
    hub: Vec<String>,
    pdn: Vec<String>,
}

impl<G: Evaluate + HubPosition> GameTrack<G> {
    /// A game from `fen` (the variant's start position when `None`).
    pub fn new(fen: Option<&str>) -> Result<Self, String> {
        let start = match fen {
            Some(f) => G::from_fen(f).map_err(|e| format!("bad FEN '{f}': {e}"))?,
            None => G::start(),
        };
        Ok(GameTrack {
            start,
            pos: start,
            history: Vec::new(),
            hub: Vec::new(),
            pdn: Vec::new(),
        })
    }
}

impl<G: Evaluate + HubPosition> Track for GameTrack<G> {
    fn variant(&self) -> Variant {
        self.start.variant()
    }
    fn start_fen(&self) -> String {
        self.start.fen()
    }
    fn start_hub(&self) -> String {
        self.start.hub_position()
    }
    fn starts_at_start(&self) -> bool {
        self.start.key() == G::start().key()
    }
    fn start_side(&self) -> Color {
        self.start.side()
    }
    fn first_side(&self) -> Color {
        G::start().side()
    }
    fn moves_hub(&self) -> &[String] {
        &self.hub
    }
    fn moves_pdn(&self) -> &[String] {
        &self.pdn
    }
    fn side(&self) -> Color {
        self.pos.side()
    }
    fn fen(&self) -> String {
        self.pos.fen()
    }

    fn status(&self) -> Option<RuleEnd> {
        let mut list = MoveList::default();
        self.pos.generate(&mut list);
        if list.is_empty() {
            return Some(RuleEnd::NoMove(self.pos.side()));
        }
        if self.pos.draw_by_rule() {
            return Some(RuleEnd::DrawRule);
        }
        let key = self.pos.key();
        let earlier = self
            .history
            .iter()
            .rev()
            .take(self.pos.reversible_plies() as usize)
            .filter(|&&k| k == key)
            .count();
        (earlier >= 2).then_some(RuleEnd::Repetition)
    }

    fn play(&mut self, text: &str) -> Result<MoveText, MoveError> {
        let m = self.pos.parse_move(text)?;
        let t = move_text(&self.pos, &m);
        self.history.push(self.pos.key());
        self.pos = self.pos.make(&m);
        self.hub.push(t.hub.clone());
        self.pdn.push(t.pdn.clone());
        Ok(t)
    }
}

/// A game of `kind` from `fen` (or the start position).
pub fn track_for(kind: GameKind, fen: Option<&str>) -> Result<Box<dyn Track>, String> {
    dispatch!(kind,
        R => Ok(Box::new(GameTrack::<Position<R>>::new(fen)?) as Box<dyn Track>),
        morris => Ok(Box::new(GameTrack::<MorrisPosition>::new(fen)?) as Box<dyn Track>))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plays_and_ends_by_the_rules() {
        let kind = GameKind::new(Variant::International);
        let mut t = track_for(kind, None).unwrap();
        assert!(t.starts_at_start());
        assert_eq!(t.status(), None);
        t.play("32-28").unwrap();
        t.play("19-23").unwrap();
        assert!(t.play("28-22").is_err());
        let m = t.play("28x19").unwrap();
        assert_eq!(m.hub, "28x19x23");
        assert_eq!(t.moves_pdn(), ["32-28", "19-23", "28x19"]);
        // A lone king against a man that must be taken: after the capture Black has no move.
        let mut t = track_for(kind, Some("W:WK46:B41")).unwrap();
        assert!(!t.starts_at_start());
        t.play("46x37").unwrap();
        assert_eq!(t.status(), Some(RuleEnd::NoMove(Color::Black)));
    }

    #[test]
    fn third_repetition() {
        let kind = GameKind::new(Variant::International);
        let mut t = track_for(kind, Some("W:WK48:BK3")).unwrap();
        for _ in 0..2 {
            for m in ["48-42", "3-8", "42-48", "8-3"] {
                assert_eq!(t.status(), None);
                t.play(m).unwrap();
            }
        }
        assert_eq!(t.status(), Some(RuleEnd::Repetition));
    }
}
