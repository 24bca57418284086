//! The errors of move and square text, shared by both games' notations: a move text that is not a
//! legal move here ([`MoveError`], the error of [`Game::parse_move`](super::Game::parse_move)) and
//! a square or point name that names nothing on the board ([`SquareError`]). Every message names
//! the offending token.

use std::fmt;

/// Why a move text was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Nothing but blanks.
    Empty,
    /// Not of the form square, separator, square...
    Syntax(String),
    /// A square that is not on the board.
    Square { token: String, reason: SquareError },
    /// Well formed but not a legal move here.
    Illegal(String),
    /// Several legal moves match: the long forms that would pick one.
    Ambiguous {
        text: String,
        candidates: Vec<String>,
    },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Empty => write!(f, "empty move"),
            MoveError::Syntax(t) => {
                write!(f, "'{t}' is not a move (expected e.g. 32-28, 28x19, c3:e5)")
            }
            MoveError::Square { token, reason } => {
                write!(f, "bad square in move '{token}': {reason}")
            }
            MoveError::Illegal(t) => write!(f, "illegal move '{t}'"),
            MoveError::Ambiguous { text, candidates } => {
                write!(
                    f,
                    "ambiguous move '{text}': could be {}",
                    candidates.join(" or ")
                )
            }
        }
    }
}

impl std::error::Error for MoveError {}

/// A square token that names no dark square of the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SquareError {
    /// Not a number and not a file letter followed by a rank.
    Syntax(String),
    /// A number outside `1..=N`.
    OutOfRange { token: String, squares: usize },
    /// An algebraic name of a light square or outside the board.
    NotDark(String),
}

impl fmt::Display for SquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SquareError::Syntax(t) => write!(f, "'{t}' is not a square"),
            SquareError::OutOfRange { token, squares } => {
                write!(f, "square '{token}' is outside 1-{squares}")
            }
            SquareError::NotDark(t) => write!(f, "'{t}' is not a dark square of this board"),
        }
    }
}

impl std::error::Error for SquareError {}
