//! Perft for Nine Men's Morris in both counting conventions of `shared/perft/README.md`.
//!
//! - Default: a removal is part of the move that closes the mill, so a mill-closing move with `k`
//!   removable pieces counts `k` times. [`MorrisPosition`] itself is the game; its
//!   [`BulkCount`] counts the last ply by popcount ([`movegen::count`]).
//! - Removal as a ply of its own (Sanmill's convention): [`RemovalPly`] wraps a position and
//!   plays a mill-closing move in two plies, the (from, to) action, then the choice of the piece
//!   to remove, made by the same side. Only perft uses it; it is a [`Game`] so that the generic
//!   [`perft`](crate::perft) and its threaded `divide` serve both conventions.

use super::board::removable;
use super::movegen;
use super::moves::Move;
use super::notation;
use super::position::MorrisPosition;
use crate::game::BulkCount;
use crate::game::Game;
use crate::game::MoveError;
use crate::game::MoveList;
use crate::game::Variant;
use crate::game::color::Color;

impl BulkCount for MorrisPosition {
    #[inline]
    fn count_moves(&self, _scratch: &mut MoveList<Move>) -> u64 {
        movegen::count(self)
    }
}

/// Xored into the key of a [`RemovalPly`] node whose removal is pending.
const PENDING_KEY: u64 = 0x5245_4D4F_5645_0001;

/// A node of the move tree in which a removal is a ply of its own.
///
/// When `pending` is false, `pos` is an ordinary position and its moves are the (from, to)
/// actions, each once. When true, the side that just closed a mill must now remove a piece:
/// `pos` is the position after the action (the victim to move, as after a full move without a
/// removal), and the moves are the bare removals ([`Move::bare_removal`]), made by the mover.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct RemovalPly {
    pos: MorrisPosition,
    pending: bool,
}

impl RemovalPly {
    /// A node with no removal pending.
    pub fn new(pos: MorrisPosition) -> Self {
        RemovalPly {
            pos,
            pending: false,
        }
    }

    /// The position (after the action when a removal is pending).
    pub fn position(&self) -> &MorrisPosition {
        &self.pos
    }

    /// Whether the next ply is a removal.
    pub fn pending(&self) -> bool {
        self.pending
    }

    /// The enemy pieces the pending removal may take.
    #[inline(always)]
    fn victims(&self) -> u32 {
        removable(self.pos.pieces(self.pos.side()))
    }
}

impl Game for RemovalPly {
    type Move = Move;
    type FenError = notation::FenError;

    fn variant(&self) -> Variant {
        Variant::Morris
    }
    fn start() -> Self {
        RemovalPly::new(MorrisPosition::start())
    }
    fn from_fen(fen: &str) -> Result<Self, Self::FenError> {
        notation::parse_fen(fen).map(RemovalPly::new)
    }
    /// The position string of the position (a pending removal is not expressed).
    fn fen(&self) -> String {
        notation::write_fen(&self.pos)
    }
    fn generate(&self, list: &mut MoveList<Move>) {
        if self.pending {
            list.clear();
            for r in super::board::points(self.victims()) {
                list.push(Move::bare_removal(r));
            }
        } else {
            movegen::generate_actions(&self.pos, list);
        }
    }
    fn generate_noisy(&self, list: &mut MoveList<Move>) {
        self.generate(list);
        if !self.pending {
            let mut noisy = MoveList::default();
            for m in list.iter().filter(|m| movegen::closes(&self.pos, m)) {
                noisy.push(*m);
            }
            *list = noisy;
        }
    }
    fn is_noisy(&self, m: &Move) -> bool {
        self.pending || movegen::closes(&self.pos, m)
    }
    #[inline(always)]
    fn make(&self, m: &Move) -> Self {
        if self.pending {
            debug_assert!(m.removal().is_some(), "{m:?} is not a removal");
            return RemovalPly {
                pos: self.pos.remove_own(m.removal().unwrap_or_default()),
                pending: false,
            };
        }
        // A mill closed against a side with no piece on the board removes nothing.
        let pending = movegen::closes(&self.pos, m) && self.pos.pieces(!self.pos.side()) != 0;
        RemovalPly {
            pos: self.pos.make(m),
            pending,
        }
    }
    fn side(&self) -> Color {
        if self.pending {
            !self.pos.side()
        } else {
            self.pos.side()
        }
    }
    fn key(&self) -> u64 {
        self.pos.key() ^ if self.pending { PENDING_KEY } else { 0 }
    }
    fn draw_by_rule(&self) -> bool {
        !self.pending && self.pos.draw_by_rule()
    }
    fn reversible_plies(&self) -> u32 {
        if self.pending {
            0
        } else {
            self.pos.no_removal() as u32
        }
    }
    fn piece_count(&self) -> u32 {
        self.pos.occupied().count_ones()
    }
    fn move_to_hub(&self, m: &Move) -> String {
        notation::write_move(m)
    }
    fn move_to_pdn(&self, m: &Move) -> String {
        notation::write_move(m)
    }
    /// Matches the text against the written form of the node's moves (`d6`, `a1-a4`, `xa4`).
    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let t = text.trim();
        if t.is_empty() {
            return Err(MoveError::Empty);
        }
        let mut list = MoveList::default();
        self.generate(&mut list);
        list.iter()
            .find(|m| notation::write_move(m).eq_ignore_ascii_case(t))
            .copied()
            .ok_or_else(|| MoveError::Illegal(t.to_string()))
    }
}

impl BulkCount for RemovalPly {
    #[inline]
    fn count_moves(&self, _scratch: &mut MoveList<Move>) -> u64 {
        if self.pending {
            self.victims().count_ones() as u64
        } else {
            movegen::count_actions(&self.pos)
        }
    }
}
