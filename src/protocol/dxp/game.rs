//! One DXP game: what is DXP's own about it, on top of the shared [`GameTrack`] (the moves played
//! and the end by the rules, as `tiao match` sees it too). No I/O: the session feeds it the moves
//! of both sides.
//!
//! - [`Game::match_move`] turns a received MOVE (from, to, captured squares in any order) into the
//!   legal move it names, or says why it names none;
//! - [`Game::status`] tells whether the game is over at the side to move: the rules' end (no
//!   legal move: that side lost; a draw by the international rules: the 25-move king rule, the
//!   16- and 5-move endgame rules, the third repetition), or the GAMEREQ's move limit reached;
//! - [`Game::back_to`] takes moves back for a BACKREQ;
//! - [`Game::record`] is the finished game, with its [`Outcome`], for the summary and the PDN.
//!
//! Invariant: the track's moves are the game's one record (PDN and Hub texts are derived from
//! them), and the track starts at `setup.start`.

use super::message::{BackReq, Board, DxpMove, SQUARES};
use crate::draughts::board::{Bits, Geometry};
use crate::draughts::moves::Move;
use crate::draughts::rules::{International, Rules};
use crate::game::Game as _;
use crate::game::color::Color;
use crate::track::{GameTrack, RuleEnd};
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
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// The game goes on.
    Ongoing,
    /// The side to move has no legal move: it has lost.
    NoMove(Color),
    /// A draw by the rules (the rule's wording).
    Draw(&'static str),
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
    /// Thinking time per player, minutes (GAMEREQ).
    pub minutes: u16,
    /// Moves of the whole game (0: no limit).
    pub move_limit: u16,
}

/// A game in progress.
#[derive(Clone, Debug)]
pub struct Game {
    setup: Setup,
    white: String,
    black: String,
    track: GameTrack<Board>,
}

/// How the third repetition is worded.
const REPETITION: &str = "the same position for the third time";

impl Game {
    /// A game at its start position between this engine, named `me`, and `peer`.
    pub fn new(setup: Setup, me: &str, peer: &str) -> Game {
        let (white, black) = if setup.ours == Color::White {
            (me, peer)
        } else {
            (peer, me)
        };
        Game {
            white: white.to_string(),
            black: black.to_string(),
            track: GameTrack::new(setup.start),
            setup,
        }
    }

    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// The name of White's player.
    pub fn white(&self) -> &str {
        &self.white
    }

    /// The name of Black's player.
    pub fn black(&self) -> &str {
        &self.black
    }

    /// The position and the moves played.
    pub fn track(&self) -> &GameTrack<Board> {
        &self.track
    }

    /// Whether this engine is to move.
    pub fn our_turn(&self) -> bool {
        self.track.side() == self.setup.ours
    }

    /// Moves `side` has played.
    pub fn moves_by(&self, side: Color) -> u32 {
        let first = self.setup.start.side();
        let n = self.track.plies() as u32;
        if side == first { n.div_ceil(2) } else { n / 2 }
    }

    /// What the rules and the move limit say about the current position.
    pub fn status(&self) -> Status {
        match self.track.status() {
            Some(RuleEnd::NoMove(c)) => Status::NoMove(c),
            Some(RuleEnd::DrawRule) => Status::Draw(
                self.track
                    .position()
                    .draw_by_rule()
                    .map_or("a draw rule", |rule| rule.source),
            ),
            Some(RuleEnd::Repetition) => Status::Draw(REPETITION),
            None => {
                let limit = self.setup.move_limit as usize;
                if limit > 0 && self.track.plies() >= 2 * limit {
                    Status::MoveLimit
                } else {
                    Status::Ongoing
                }
            }
        }
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
        let legal = self.track.legal();
        if let Some(found) = legal
            .iter()
            .find(|l| l.from == from && l.to == to && l.captured == captured)
        {
            return Ok(*found);
        }
        let pos = self.track.position();
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

    /// Plays a legal move.
    pub fn play(&mut self, m: Move) {
        self.track.play(m);
    }

    /// The ply (plies from the start position) a BACKREQ names, if it is in this game: move
    /// number `n` with `color` to move is ply `2(n - 1)`, plus one for Black, less one when Black
    /// moved first from the start position.
    pub fn ply_of(&self, req: &BackReq) -> Option<usize> {
        let n = 2 * (req.move_number as i64 - 1) + i64::from(req.color == Color::Black)
            - i64::from(self.setup.start.side() == Color::Black);
        usize::try_from(n).ok().filter(|&p| p <= self.track.plies())
    }

    /// Goes back to the position a BACKREQ names; returns the plies taken back, or `None` (and
    /// changes nothing) when that position is not in this game.
    pub fn back_to(&mut self, req: &BackReq) -> Option<usize> {
        let ply = self.ply_of(req)?;
        Some(self.track.take_back_to(ply))
    }

    /// The record of this game, ended with `outcome` for the reason `termination`.
    pub fn record(&self, outcome: Outcome, termination: &str) -> Record {
        Record {
            number: self.setup.number,
            white: self.white.clone(),
            black: self.black.clone(),
            ours: self.setup.ours,
            setup_fen: self.setup.from_position.then(|| self.setup.start.fen()),
            first: self.setup.start.side(),
            moves: self.track.pdn_moves(),
            outcome,
            termination: termination.to_string(),
        }
    }
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

    /// A game of "a" (White, this engine) against "b".
    fn game(start: Board, move_limit: u16) -> Game {
        let setup = Setup {
            number: 1,
            start,
            from_position: false,
            ours: Color::White,
            minutes: 1,
            move_limit,
        };
        Game::new(setup, "a", "b")
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
        let mut g = game(Board::start(), 0);
        for (f, t) in [(32, 28), (19, 23)] {
            let m = g.match_move(&mv(f, t, &[])).unwrap();
            g.play(m);
        }
        let m = g.match_move(&mv(28, 19, &[23])).unwrap();
        g.play(m);
        assert_eq!(g.track().pdn_moves(), ["32-28", "19-23", "28x19"]);
        assert_eq!(g.track().hub_moves(), ["32-28", "19-23", "28x19x23"]);
        // A king capturing four pieces in one line: captured squares in any order.
        let pos =
            crate::draughts::notation::fen::parse::<International>("W:WK46:B41,32,23,14").unwrap();
        let g = game(pos, 0);
        for order in [[41, 32, 23, 14], [23, 14, 41, 32]] {
            let m = g.match_move(&mv(46, 5, &order)).unwrap();
            assert_eq!(squares_of(m.captured), [14, 23, 32, 41]);
            assert_eq!(DxpMove::from_move(&m, 7), mv_t(7, 46, 5, &[14, 23, 32, 41]));
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
        let g = game(Board::start(), 0);
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
        let mut g = game(Board::start(), 0);
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
        let pos = crate::draughts::notation::fen::parse::<International>("B:W28:B").unwrap();
        let g = game(pos, 0);
        assert_eq!(g.status(), Status::NoMove(Color::Black));
        // Kings going back and forth: the third occurrence is a draw.
        let pos = crate::draughts::notation::fen::parse::<International>("W:WK47:BK4").unwrap();
        let mut g = game(pos, 0);
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
        let mut g = game(Board::start(), 2);
        for (f, t) in [(32, 28), (18, 22), (37, 32), (12, 18)] {
            assert_eq!(g.status(), Status::Ongoing);
            let m = g.match_move(&mv(f, t, &[])).unwrap();
            g.play(m);
        }
        assert_eq!(g.status(), Status::MoveLimit);
        assert_eq!((g.moves_by(Color::White), g.moves_by(Color::Black)), (2, 2));
        // A king against a lone king, never repeating nor offering a capture: the 5-move rule,
        // in its own words.
        let pos = crate::draughts::notation::fen::parse::<International>("W:WK47:BK4").unwrap();
        let mut g = game(pos, 0);
        let mut seen = vec![pos.key()];
        while g.status() == Status::Ongoing {
            let pos = *g.track().position();
            let quiet = |p: &Board| GameTrack::new(*p).legal().iter().all(|m| !m.is_capture());
            let m = *g
                .track()
                .legal()
                .iter()
                .find(|m| !seen.contains(&pos.make(m).key()) && quiet(&pos.make(m)))
                .unwrap();
            g.play(m);
            seen.push(g.track().position().key());
        }
        assert_eq!(g.track().plies(), 10);
        assert!(matches!(g.status(), Status::Draw(s) if s.contains("5 more moves")));
        let r = g.record(Outcome::Draw, "drawn");
        assert_eq!((r.white.as_str(), r.black.as_str()), ("a", "b"));
        assert_eq!(r.moves, g.track().pdn_moves());
        assert_eq!(r.our_points(), Some(1));
    }

    #[test]
    fn take_backs_follow_the_move_numbers() {
        let mut g = game(Board::start(), 0);
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
        assert_eq!(g.track().pdn_moves(), ["32-28", "18-22"]);
        assert_eq!(g.track().side(), Color::White);
        // Black moving first: its first move is move 1 with Black to move.
        let pos = crate::draughts::notation::fen::parse::<International>("B:W31-50:B1-20").unwrap();
        let g = game(pos, 0);
        assert_eq!(g.ply_of(&req(1, Color::Black)), Some(0));
        assert_eq!(g.ply_of(&req(1, Color::White)), None);
    }
}
