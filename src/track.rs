//! A game being played, whatever the game: its start position, the moves played, and its end by
//! the rules. The match referee ([`matches::referee`](crate::matches::referee)) and the DXP game
//! ([`protocol::dxp::game`](crate::protocol::dxp::game)) are both built on [`GameTrack`].
//!
//! The game ends by the rules when the side to move has no legal move (it has lost), when a draw
//! counter of the variant runs out, or at the third occurrence of a position (same
//! [`key`](Game::key): pieces, side to move and, for Morris, pieces in hand), looked for within
//! the [`reversible_plies`](Game::reversible_plies) window.
//!
//! A game given as text (a start FEN and move texts in any accepted form) is read by
//! [`GameTrack::replay`], the one replay of the crate: PDN games
//! ([`pdn::replay`](crate::pdn::replay)), the engine's `pos` (its session),
//! match openings, game review and board diagrams all go through it, and a [`ReplayError`] names
//! the bad FEN or the first bad ply.
//!
//! Invariant: the moves are the one record of the game; `positions.len() == moves.len() + 1`,
//! `positions[0]` is the start and `positions[i + 1]` is `positions[i]` after `moves[i]`, a
//! legal move. Move texts (Hub, PDN) are derived from them on demand.

use crate::game::Game;
use crate::game::MoveError;
use crate::game::MoveList;
use crate::game::color::Color;
use std::fmt;

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

/// A game given as text that does not replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    /// The start position does not parse: the text given, and why.
    BadFen { fen: String, reason: String },
    /// A move is illegal or not understood (0-based ply index).
    BadMove {
        ply: usize,
        text: String,
        reason: MoveError,
    },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::BadFen { fen, reason } => write!(f, "bad FEN '{fen}': {reason}"),
            ReplayError::BadMove { ply, text, reason } => {
                write!(f, "ply {} ('{text}'): {reason}", ply + 1)
            }
        }
    }
}

impl std::error::Error for ReplayError {}

/// A game of `G`: the positions from the start and the moves between them.
#[derive(Clone, Debug)]
pub struct GameTrack<G: Game> {
    positions: Vec<G>,
    moves: Vec<G::Move>,
}

impl<G: Game> GameTrack<G> {
    /// A game from `start`.
    pub fn new(start: G) -> Self {
        GameTrack {
            positions: vec![start],
            moves: Vec::new(),
        }
    }

    /// Replays a game given as text: the start position from `fen` (the game's start when
    /// `None`), then each move, in any accepted form, matched against the legal moves.
    pub fn replay<'a>(
        fen: Option<&str>,
        moves: impl IntoIterator<Item = &'a str>,
    ) -> Result<Self, ReplayError> {
        let start = match fen {
            Some(f) => G::from_fen(f).map_err(|e| ReplayError::BadFen {
                fen: f.to_string(),
                reason: e.to_string(),
            })?,
            None => G::start(),
        };
        let mut track = GameTrack::new(start);
        for (ply, text) in moves.into_iter().enumerate() {
            track
                .play_text(text)
                .map_err(|reason| ReplayError::BadMove {
                    ply,
                    text: text.to_string(),
                    reason,
                })?;
        }
        Ok(track)
    }

    /// The initial position.
    pub fn start(&self) -> &G {
        &self.positions[0]
    }

    /// The current position.
    pub fn position(&self) -> &G {
        self.positions.last().expect("a game has a start position")
    }

    /// The side to move now.
    pub fn side(&self) -> Color {
        self.position().side()
    }

    /// Every position of the game: the start, then the one after each move.
    pub fn positions(&self) -> &[G] {
        &self.positions
    }

    /// Plies played since the initial position.
    pub fn plies(&self) -> usize {
        self.moves.len()
    }

    /// Every move played since the initial position.
    pub fn moves(&self) -> &[G::Move] {
        &self.moves
    }

    /// Every move played, in the protocol's form (Hub form for draughts).
    pub fn hub_moves(&self) -> Vec<String> {
        self.texts(G::move_to_hub)
    }

    /// Every move played, in the game's usual notation (PDN for draughts).
    pub fn pdn_moves(&self) -> Vec<String> {
        self.texts(G::move_to_pdn)
    }

    fn texts(&self, text: fn(&G, &G::Move) -> String) -> Vec<String> {
        self.positions
            .iter()
            .zip(&self.moves)
            .map(|(p, m)| text(p, m))
            .collect()
    }

    /// The legal moves of the current position.
    pub fn legal(&self) -> MoveList<G::Move> {
        let mut list = MoveList::default();
        self.position().generate(&mut list);
        list
    }

    /// The end of the game by the rules, if it has ended.
    pub fn status(&self) -> Option<RuleEnd> {
        let pos = self.position();
        if self.legal().is_empty() {
            return Some(RuleEnd::NoMove(pos.side()));
        }
        if pos.draw_by_rule() {
            return Some(RuleEnd::DrawRule);
        }
        let key = pos.key();
        let earlier = self.positions[..self.plies()]
            .iter()
            .rev()
            .take(pos.reversible_plies() as usize)
            .filter(|p| p.key() == key)
            .count();
        (earlier >= 2).then_some(RuleEnd::Repetition)
    }

    /// Plays `m`, a legal move of the current position.
    pub fn play(&mut self, m: G::Move) {
        debug_assert!(self.legal().iter().any(|l| *l == m), "illegal {m:?}");
        let next = self.position().make(&m);
        self.moves.push(m);
        self.positions.push(next);
    }

    /// Plays a move given in any accepted form; on error nothing changes.
    pub fn play_text(&mut self, text: &str) -> Result<G::Move, MoveError> {
        let m = self.position().parse_move(text)?;
        self.play(m);
        Ok(m)
    }

    /// Takes the moves after ply `ply` back; returns how many (none when `ply` is not behind).
    pub fn take_back_to(&mut self, ply: usize) -> usize {
        let taken = self.plies().saturating_sub(ply);
        self.moves.truncate(ply);
        self.positions.truncate(ply + 1);
        taken
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::position::Position;
    use crate::draughts::rules::International;

    type Board = Position<International>;

    fn track(fen: &str) -> GameTrack<Board> {
        GameTrack::new(Board::from_fen(fen).unwrap())
    }

    #[test]
    fn plays_derives_the_texts_and_takes_back() {
        let mut t = GameTrack::new(Board::start());
        for m in ["32-28", "19-23", "28x19"] {
            t.play_text(m).unwrap();
        }
        assert!(t.play_text("19-14").is_err());
        assert_eq!(t.plies(), 3);
        assert_eq!(t.hub_moves(), ["32-28", "19-23", "28x19x23"]);
        assert_eq!(t.pdn_moves(), ["32-28", "19-23", "28x19"]);
        assert_eq!(t.take_back_to(1), 2);
        assert_eq!(t.pdn_moves(), ["32-28"]);
        assert_eq!(t.side(), Color::Black);
        assert_eq!(t.take_back_to(5), 0);
        assert_eq!(t.take_back_to(0), 1);
        assert_eq!(t.position().key(), t.start().key());
    }

    #[test]
    fn replays_text_and_names_the_bad_ply() {
        let t = GameTrack::<Board>::replay(Some("W:W31-50:B1-20"), ["32-28", "19-23"]).unwrap();
        assert_eq!(t.plies(), 2);
        assert_eq!(t.positions().len(), 3);
        let e = GameTrack::<Board>::replay(None, ["32-28", "19-23", "28-22"]).unwrap_err();
        assert!(matches!(e, ReplayError::BadMove { ply: 2, .. }), "{e}");
        assert!(e.to_string().starts_with("ply 3 ('28-22'): "), "{e}");
        let e = GameTrack::<Board>::replay(Some("W:W99"), []).unwrap_err();
        assert!(e.to_string().starts_with("bad FEN 'W:W99': "), "{e}");
    }

    #[test]
    fn ends_by_the_rules() {
        // A lone king against a man that must be taken: after the capture Black has no move.
        let mut t = track("W:WK46:B41");
        assert_eq!(t.status(), None);
        t.play_text("46x37").unwrap();
        assert_eq!(t.status(), Some(RuleEnd::NoMove(Color::Black)));
        // Kings going back and forth: the third occurrence is a draw.
        let mut t = track("W:WK48:BK3");
        for _ in 0..2 {
            for m in ["48-42", "3-8", "42-48", "8-3"] {
                assert_eq!(t.status(), None);
                t.play_text(m).unwrap();
            }
        }
        assert_eq!(t.status(), Some(RuleEnd::Repetition));
        // Taking back one ply undoes the repetition.
        t.take_back_to(t.plies() - 1);
        assert_eq!(t.status(), None);
    }
}
