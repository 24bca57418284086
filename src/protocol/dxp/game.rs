//! One DXP game: the start position, the moves played, and what the rules say about it. No I/O:
//! the session feeds it the moves of both sides.
//!
//! - [`Game::match_move`] turns a received MOVE (from, to, captured squares in any order) into the
//!   legal move it names, or says why it names none;
//! - [`Game::status`] tells whether the game is over at the side to move: no legal move (that
//!   side lost), a draw by the international rules (the 25-move king rule, the 16- and 5-move
//!   endgame rules, the third repetition), or the GAMEREQ's move limit reached;
//! - [`Game::back_to`] takes moves back for a BACKREQ.
//!
//! Invariant: `positions.len() == moves.len() + 1 == pdn.len() + 1`; `positions[i + 1]` is
//! `positions[i]` after `moves[i]`, a legal move.

use super::message::{BackReq, Board, DxpMove, SQUARES};
use crate::board::{Bits, Geometry};
use crate::color::Color;
use crate::game::Game as _;
use crate::movegen::{Move, MoveList};
use crate::rules::{International, Rules};
use std::fmt;

type Geo = <International as Rules>::Board;

/// How a game ended (or not), for the PDN `Result`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// This side won.
    Win(Color),
    Draw,
    /// Not known (an interrupted game, or an end without a reason).
    Unknown,
}

impl Outcome {
    /// The PDN result of international draughts: `2-0`, `1-1`, `0-2`, or `*`.
    pub const fn pdn(self) -> &'static str {
        match self {
            Outcome::Win(Color::White) => "2-0",
            Outcome::Win(Color::Black) => "0-2",
            Outcome::Draw => "1-1",
            Outcome::Unknown => "*",
        }
    }

    /// The points of `side` (2 a win, 1 a draw), if known.
    pub fn points(self, side: Color) -> Option<u32> {
        match self {
            Outcome::Win(c) => Some(if c == side { 2 } else { 0 }),
            Outcome::Draw => Some(1),
            Outcome::Unknown => None,
        }
    }
}

/// What the rules say about the position of the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// The game goes on.
    Ongoing,
    /// The side to move has no legal move: it has lost.
    NoMove(Color),
    /// A draw by the rules (the rule's wording).
    Draw(String),
    /// Both sides have played the GAMEREQ's number of moves.
    MoveLimit,
}

/// A MOVE that names no legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    pub text: String,
    pub why: String,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move {}: {}", self.text, self.why)
    }
}

impl std::error::Error for IllegalMove {}

/// A finished game, for the summary and the PDN file.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// Game number in this run (1-based).
    pub number: u32,
    pub white: String,
    pub black: String,
    /// The colour this engine played.
    pub ours: Color,
    /// The start position's FEN, when the game started from a given position (GAMEREQ `B`).
    pub setup_fen: Option<String>,
    /// The side that moved first.
    pub first: Color,
    /// The moves in PDN.
    pub moves: Vec<String>,
    pub outcome: Outcome,
    /// How the game ended, in words.
    pub termination: String,
}

impl Record {
    /// Points of this engine (2 a win, 1 a draw, 0 a loss), if the result is known.
    pub fn our_points(&self) -> Option<u32> {
        self.outcome.points(self.ours)
    }
}

/// The fixed facts of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    /// Game number in this run (1-based).
    pub number: u32,
    /// Start position.
    pub start: Board,
    /// Whether the start was given as a position (GAMEREQ `B`).
    pub from_position: bool,
    /// The colour this engine plays.
    pub ours: Color,
    /// Names of the players.
    pub white: String,
    pub black: String,
    /// Thinking time per player, minutes (GAMEREQ).
    pub minutes: u16,
    /// Moves of the whole game (0: no limit).
    pub move_limit: u16,
}

/// A game in progress.
#[derive(Clone, Debug)]
pub struct Game {
    setup: Setup,
    positions: Vec<Board>,
    moves: Vec<Move>,
    pdn: Vec<String>,
}

impl Game {
    /// A game at its start position.
    pub fn new(setup: Setup) -> Game {
        Game {
            positions: vec![setup.start],
            setup,
            moves: Vec::new(),
            pdn: Vec::new(),
        }
    }

    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// The current position.
    pub fn position(&self) -> &Board {
        self.positions.last().expect("a game has a start position")
    }

    /// The side to move.
    pub fn to_move(&self) -> Color {
        self.position().side()
    }

    /// Whether this engine is to move.
    pub fn our_turn(&self) -> bool {
        self.to_move() == self.setup.ours
    }

    /// Plies played since the start position.
    pub fn plies(&self) -> usize {
        self.moves.len()
    }

    /// Moves `side` has played.
    pub fn moves_by(&self, side: Color) -> u32 {
        let first = self.setup.start.side();
        let n = self.plies() as u32;
        if side == first { n.div_ceil(2) } else { n / 2 }
    }

    /// The moves played, in PDN.
    pub fn pdn_moves(&self) -> &[String] {
        &self.pdn
    }

    /// The moves played, in Hub form (for the engine's `set_position`).
    pub fn hub_moves(&self) -> Vec<String> {
        self.positions
            .iter()
            .zip(&self.moves)
            .map(|(p, m)| p.move_to_hub(m))
            .collect()
    }

    /// The start position's FEN.
    pub fn start_fen(&self) -> String {
        self.setup.start.fen()
    }

    fn legal(&self) -> MoveList {
        let mut l = MoveList::default();
        self.position().generate(&mut l);
        l
    }

    /// The legal moves of the current position.
    pub fn legal_moves(&self) -> Vec<Move> {
        self.legal().as_slice().to_vec()
    }

    /// What the rules say about the current position.
    pub fn status(&self) -> Status {
        let pos = self.position();
        if self.legal().is_empty() {
            return Status::NoMove(pos.side());
        }
        if let Some(rule) = pos.draw_by_rule() {
            return Status::Draw(rule.source.to_string());
        }
        let window = pos.reversible_plies() as usize;
        let earlier = self.positions[..self.positions.len() - 1]
            .iter()
            .rev()
            .take(window)
            .filter(|p| same_placement(p, pos))
            .count();
        if earlier >= 2 {
            return Status::Draw("the same position for the third time".into());
        }
        let limit = self.setup.move_limit as usize;
        if limit > 0 && self.plies() >= 2 * limit {
            return Status::MoveLimit;
        }
        Status::Ongoing
    }

    /// The legal move a received MOVE names.
    pub fn match_move(&self, m: &DxpMove) -> Result<Move, IllegalMove> {
        let bad = |why: String| IllegalMove {
            text: m.describe(),
            why,
        };
        let bit = |n: u8| {
            Geo::bit_of_number(n as u32)
                .filter(|_| (1..=SQUARES as u8).contains(&n))
                .ok_or_else(|| bad(format!("square {n} is not on the board")))
        };
        let (from, to) = (bit(m.from)?, bit(m.to)?);
        let mut captured = 0u64;
        for &c in &m.captured {
            let b = 1u64 << bit(c)?;
            if captured & b != 0 {
                return Err(bad(format!("square {c} is captured twice")));
            }
            captured |= b;
        }
        let legal = self.legal();
        if let Some(found) = legal
            .iter()
            .find(|l| l.from == from && l.to == to && l.captured == captured)
        {
            return Ok(*found);
        }
        let pos = self.position();
        let mut sorted: Vec<&Move> = legal.iter().collect();
        sorted.sort_by_key(|l| (Geo::number_of_bit(l.from), Geo::number_of_bit(l.to)));
        let list: Vec<String> = sorted.iter().map(|l| pos.move_to_hub(l)).collect();
        let why = if pos.pieces(pos.side()) & (1u64 << from) == 0 {
            format!("no {} piece on square {}", pos.side(), m.from)
        } else {
            "it is not among the legal moves".to_string()
        };
        Err(bad(format!(
            "{why} ({} to move in {}; legal: {})",
            pos.side(),
            pos.fen(),
            list.join(" ")
        )))
    }

    /// The legal move whose Hub text is `text` (the engine's answer).
    pub fn parse_hub(&self, text: &str) -> Option<Move> {
        self.position().parse_move(text).ok()
    }

    /// Plays a legal move.
    pub fn play(&mut self, m: Move) {
        let pos = *self.position();
        debug_assert!(self.legal().iter().any(|l| l.same_as(&m)));
        self.pdn.push(pos.move_to_pdn(&m));
        self.moves.push(m);
        self.positions.push(pos.make(&m));
    }

    /// The ply (plies from the start position) a BACKREQ names, if it is in this game: move
    /// number `n` with `color` to move is ply `2(n - 1)`, plus one for Black, less one when Black
    /// moved first from the start position.
    pub fn ply_of(&self, req: &BackReq) -> Option<usize> {
        let n = 2 * (req.move_number as i64 - 1) + i64::from(req.color == Color::Black)
            - i64::from(self.setup.start.side() == Color::Black);
        usize::try_from(n).ok().filter(|&p| p <= self.plies())
    }

    /// Goes back to the position a BACKREQ names; returns the plies taken back, or `None` (and
    /// changes nothing) when that position is not in this game.
    pub fn back_to(&mut self, req: &BackReq) -> Option<usize> {
        let ply = self.ply_of(req)?;
        let taken = self.plies() - ply;
        self.moves.truncate(ply);
        self.pdn.truncate(ply);
        self.positions.truncate(ply + 1);
        Some(taken)
    }

    /// The record of this game, ended with `outcome` for the reason `termination`.
    pub fn record(&self, outcome: Outcome, termination: &str) -> Record {
        Record {
            number: self.setup.number,
            white: self.setup.white.clone(),
            black: self.setup.black.clone(),
            ours: self.setup.ours,
            setup_fen: self.setup.from_position.then(|| self.start_fen()),
            first: self.setup.start.side(),
            moves: self.pdn.clone(),
            outcome,
            termination: termination.to_string(),
        }
    }

    /// A move as a DXP MOVE.
    pub fn to_dxp(m: &Move, seconds: u16) -> DxpMove {
        DxpMove::from_move(m, seconds)
    }
}

/// Whether two positions have the same pieces and side to move (repetition; the draw counters
/// may differ).
fn same_placement(a: &Board, b: &Board) -> bool {
    a.key() == b.key()
        && a.white() == b.white()
        && a.black() == b.black()
        && a.kings() == b.kings()
        && a.side() == b.side()
}

/// Squares of a bitboard, as numbers (for logs and tests).
pub fn squares_of(bb: u64) -> Vec<u32> {
    let mut v: Vec<u32> = Bits(bb).map(Geo::number_of_bit).collect();
    v.sort_unstable();
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(start: Board, move_limit: u16) -> Setup {
        Setup {
            number: 1,
            start,
            from_position: false,
            ours: Color::White,
            white: "a".into(),
            black: "b".into(),
            minutes: 1,
            move_limit,
        }
    }

    fn mv(from: u8, to: u8, captured: &[u8]) -> DxpMove {
        DxpMove {
            seconds: 0,
            from,
            to,
            captured: captured.to_vec(),
        }
    }

    #[test]
    fn moves_match_with_captures_in_any_order() {
        let mut g = Game::new(setup(Board::start(), 0));
        for (f, t) in [(32, 28), (19, 23)] {
            let m = g.match_move(&mv(f, t, &[])).unwrap();
            g.play(m);
        }
        let m = g.match_move(&mv(28, 19, &[23])).unwrap();
        g.play(m);
        assert_eq!(g.pdn_moves(), ["32-28", "19-23", "28x19"]);
        assert_eq!(g.hub_moves(), ["32-28", "19-23", "28x19x23"]);
        // A king capturing four pieces in one line: captured squares in any order.
        let pos = crate::notation::fen::parse::<International>("W:WK46:B41,32,23,14").unwrap();
        let g = Game::new(setup(pos, 0));
        for order in [[41, 32, 23, 14], [23, 14, 41, 32]] {
            let m = g.match_move(&mv(46, 5, &order)).unwrap();
            assert_eq!(squares_of(m.captured), [14, 23, 32, 41]);
            assert_eq!(Game::to_dxp(&m, 7), mv_t(7, 46, 5, &[14, 23, 32, 41]));
        }
        // The same captures with the other landing square are another move.
        assert_ne!(
            g.match_move(&mv(46, 10, &[41, 32, 23, 14])).unwrap(),
            g.match_move(&mv(46, 5, &[41, 32, 23, 14])).unwrap()
        );
        // Too few captured squares is not a move.
        assert!(g.match_move(&mv(46, 5, &[41, 32, 23])).is_err());
    }

    fn mv_t(seconds: u16, from: u8, to: u8, captured: &[u8]) -> DxpMove {
        DxpMove {
            seconds,
            ..mv(from, to, captured)
        }
    }

    #[test]
    fn illegal_moves_say_why() {
        let g = Game::new(setup(Board::start(), 0));
        let e = g.match_move(&mv(32, 26, &[])).unwrap_err().to_string();
        assert!(e.starts_with("illegal move 32-26: it is not among"), "{e}");
        assert!(e.contains("; legal: 31-26 31-27 32-27 32-28 "), "{e}");
        let e = g.match_move(&mv(19, 23, &[])).unwrap_err().to_string();
        assert!(e.contains("no white piece on square 19"), "{e}");
        let e = g
            .match_move(&mv(32, 28, &[23, 23]))
            .unwrap_err()
            .to_string();
        assert!(e.contains("captured twice"), "{e}");
        // A capture is compulsory: the quiet move is illegal.
        let mut g = Game::new(setup(Board::start(), 0));
        for (f, t) in [(32, 28), (19, 23)] {
            let m = g.match_move(&mv(f, t, &[])).unwrap();
            g.play(m);
        }
        assert!(g.match_move(&mv(31, 27, &[])).is_err());
        assert!(g.match_move(&mv(28, 19, &[])).is_err());
    }

    #[test]
    fn status_sees_no_move_repetition_and_the_move_limit() {
        // Black has no piece left to move: White has won.
        let pos = crate::notation::fen::parse::<International>("B:W28:B").unwrap();
        let g = Game::new(setup(pos, 0));
        assert_eq!(g.status(), Status::NoMove(Color::Black));
        // Kings going back and forth: the third occurrence is a draw.
        let pos = crate::notation::fen::parse::<International>("W:WK47:BK4").unwrap();
        let mut g = Game::new(setup(pos, 0));
        let cycle = [(47, 42), (4, 10), (42, 47), (10, 4)];
        for round in 0..2 {
            for (i, (f, t)) in cycle.iter().enumerate() {
                assert_eq!(g.status(), Status::Ongoing, "round {round} ply {i}");
                let m = g.match_move(&mv(*f, *t, &[])).unwrap();
                g.play(m);
            }
        }
        assert!(matches!(g.status(), Status::Draw(s) if s.contains("third time")));
        // Two moves each, then the limit.
        let mut g = Game::new(setup(Board::start(), 2));
        for (f, t) in [(32, 28), (18, 22), (37, 32), (12, 18)] {
            assert_eq!(g.status(), Status::Ongoing);
            let m = g.match_move(&mv(f, t, &[])).unwrap();
            g.play(m);
        }
        assert_eq!(g.status(), Status::MoveLimit);
        assert_eq!((g.moves_by(Color::White), g.moves_by(Color::Black)), (2, 2));
    }

    #[test]
    fn take_backs_follow_the_move_numbers() {
        let mut g = Game::new(setup(Board::start(), 0));
        for (f, t) in [(32, 28), (18, 22), (37, 32), (12, 18)] {
            let m = g.match_move(&mv(f, t, &[])).unwrap();
            g.play(m);
        }
        let req = |n, c| BackReq {
            move_number: n,
            color: c,
        };
        assert_eq!(g.ply_of(&req(1, Color::White)), Some(0));
        assert_eq!(g.ply_of(&req(2, Color::Black)), Some(3));
        assert_eq!(g.ply_of(&req(3, Color::White)), Some(4));
        assert_eq!(g.ply_of(&req(3, Color::Black)), None);
        assert_eq!(g.back_to(&req(2, Color::White)), Some(2));
        assert_eq!(g.pdn_moves(), ["32-28", "18-22"]);
        assert_eq!(g.to_move(), Color::White);
        // Black moving first: its first move is move 1 with Black to move.
        let pos = crate::notation::fen::parse::<International>("B:W31-50:B1-20").unwrap();
        let g = Game::new(setup(pos, 0));
        assert_eq!(g.ply_of(&req(1, Color::Black)), Some(0));
        assert_eq!(g.ply_of(&req(1, Color::White)), None);
    }
}
