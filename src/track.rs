//! A game being played, whatever the game: its start position, the moves played, and its end by
//! the rules. The match referee ([`matches::referee`](crate::matches::referee)) and the DXP game
//! ([`protocol::dxp::game`](crate::protocol::dxp::game)) are both built on [`GameTrack`].
//!
//! The game ends by the rules when the side to move has no legal move (it has lost), when a draw
//! counter of the variant runs out, or at the third occurrence of a position (same
//! [`key`](Game::key): pieces, side to move and, for Morris, pieces in hand), looked for within
//! the [`reversible_plies`](Game::reversible_plies) window.
//!
//! Invariant: the moves are the one record of the game; `positions.len() == moves.len() + 1`,
//! `positions[0]` is the start and `positions[i + 1]` is `positions[i]` after `moves[i]`, a
//! legal move. Move texts (Hub, PDN) are derived from them on demand.

use crate::color::Color;
use crate::game::Game;
use crate::movegen::MoveList;
use crate::notation::MoveError;

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
    use crate::position::Position;
    use crate::rules::International;

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
