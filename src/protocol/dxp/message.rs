//! DXP messages: the typed layer-2 messages, read from and written to their fixed-width text.
//!
//! Every message is ASCII, 1 to 127 characters; its first character is its type. Fields have
//! exact widths and numbers are zero-padded (protocols.md section 2.4):
//!
//! | type | message | layout (widths) |
//! |---|---|---|
//! | `R` | GAMEREQ | version (2) initiator name (32) follower colour (1) minutes (3) moves (3) start `A`/`B` (1) [`B`: colour to move (1) position (50)] |
//! | `A` | GAMEACC | follower name (32) acceptance code (1) |
//! | `M` | MOVE | seconds (4) from (2) to (2) number captured (2) captured squares (2 each) |
//! | `E` | GAMEEND | reason (1) stop code (1) |
//! | `C` | CHAT | text (0..126; the spec says 1..126, an empty chat is accepted) |
//! | `B` | BACKREQ | move number (3) colour to move (1) |
//! | `K` | BACKACC | acceptance code (1) |
//!
//! Colours are `W` (white) and `Z` (black, Dutch *zwart*). A position is 50 characters for
//! squares 1..50: `w`/`z` a white/black man, `W`/`Z` a king, `e` an empty square.
//!
//! Reading is strict, as Scan is: a message whose length does not match its layout, or a field
//! outside its alphabet or range, is a [`MessageError`] naming the message, the field, its
//! columns and what was expected. [`Message::parse`] never panics. Writing pads names and clips
//! texts so that the result always reads back ([`Message::parse`] of [`Message::to_wire`] is the
//! identity on every value the constructors and parsers produce).

use crate::draughts::board::{Bits, Geometry};
use crate::draughts::position::{Position, PositionError};
use crate::draughts::rules::{International, Rules};
use crate::game::color::Color;
use std::fmt;

/// The only protocol version there is.
pub const VERSION: u8 = 1;
/// Width of the program-name fields.
pub const NAME_WIDTH: usize = 32;
/// Longest message, in characters (the NUL terminator excluded).
pub const MAX_LEN: usize = 127;
/// Longest CHAT text.
pub const MAX_CHAT: usize = MAX_LEN - 1;
/// Squares of the 10x10 board.
pub const SQUARES: usize = 50;
/// Most pieces one move can capture.
pub const MAX_CAPTURED: usize = 20;

/// Length of a GAMEREQ with the initial position (`A`).
const GAMEREQ_A_LEN: usize = 1 + 2 + NAME_WIDTH + 1 + 3 + 3 + 1;
/// Length of a GAMEREQ with a position (`B`).
const GAMEREQ_B_LEN: usize = GAMEREQ_A_LEN + 1 + SQUARES;
/// Length of a GAMEACC.
const GAMEACC_LEN: usize = 1 + NAME_WIDTH + 1;
/// Length of a MOVE without captured squares.
const MOVE_BASE_LEN: usize = 1 + 4 + 2 + 2 + 2;

/// The 10x10 position type DXP positions convert to.
pub type Board = Position<International>;
type Geo = <International as Rules>::Board;

/// One square of a DXP position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Square {
    #[default]
    Empty,
    Man(Color),
    King(Color),
}

impl Square {
    /// The DXP letter: `e`, `w`, `z`, `W`, `Z`.
    pub const fn letter(self) -> char {
        match self {
            Square::Empty => 'e',
            Square::Man(Color::White) => 'w',
            Square::Man(Color::Black) => 'z',
            Square::King(Color::White) => 'W',
            Square::King(Color::Black) => 'Z',
        }
    }

    /// Reads a DXP letter.
    pub const fn from_letter(c: char) -> Option<Square> {
        match c {
            'e' => Some(Square::Empty),
            'w' => Some(Square::Man(Color::White)),
            'z' => Some(Square::Man(Color::Black)),
            'W' => Some(Square::King(Color::White)),
            'Z' => Some(Square::King(Color::Black)),
            _ => None,
        }
    }
}

/// A DXP colour letter: `W` white, `Z` black.
pub const fn color_letter(c: Color) -> char {
    match c {
        Color::White => 'W',
        Color::Black => 'Z',
    }
}

/// Reads a DXP colour letter.
pub const fn color_of_letter(c: char) -> Option<Color> {
    match c {
        'W' => Some(Color::White),
        'Z' => Some(Color::Black),
        _ => None,
    }
}

/// A start position of GAMEREQ `B`: the side to move and squares 1..50.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct DxpPosition {
    pub side: Color,
    /// `squares[n - 1]` is square `n`.
    pub squares: [Square; SQUARES],
}

impl DxpPosition {
    /// The DXP form of a 10x10 position.
    pub fn from_board(pos: &Board) -> DxpPosition {
        let mut squares = [Square::Empty; SQUARES];
        for (i, sq) in squares.iter_mut().enumerate() {
            let Some(bit) = Geo::bit_of_number(i as u32 + 1) else {
                continue;
            };
            let b = 1u64 << bit;
            for c in Color::BOTH {
                if pos.pieces(c) & b != 0 {
                    *sq = if pos.kings() & b != 0 {
                        Square::King(c)
                    } else {
                        Square::Man(c)
                    };
                }
            }
        }
        DxpPosition {
            side: pos.side(),
            squares,
        }
    }

    /// The 10x10 position; fails on positions the rules exclude (a man on its own promotion row,
    /// more than 20 pieces a side).
    pub fn to_board(&self) -> Result<Board, PositionError> {
        let (mut white, mut black, mut kings) = (0u64, 0u64, 0u64);
        for (i, sq) in self.squares.iter().enumerate() {
            let Some(bit) = Geo::bit_of_number(i as u32 + 1) else {
                continue;
            };
            let b = 1u64 << bit;
            match sq {
                Square::Empty => {}
                Square::Man(c) | Square::King(c) => {
                    if *c == Color::White {
                        white |= b;
                    } else {
                        black |= b;
                    }
                    if matches!(sq, Square::King(_)) {
                        kings |= b;
                    }
                }
            }
        }
        Board::from_parts(white, black, kings, self.side)
    }

    /// The 50 square letters.
    pub fn squares_text(&self) -> String {
        self.squares.iter().map(|s| s.letter()).collect()
    }
}

/// Where a game starts.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum StartPosition {
    /// `A`: the initial position, White to move.
    Initial,
    /// `B`: the given position.
    Setup(DxpPosition),
}

/// GAMEREQ: the initiator asks for a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameReq {
    /// Protocol version (`01`).
    pub version: u8,
    /// The initiator's name (surrounding blanks removed).
    pub initiator: String,
    /// The colour the follower plays.
    pub follower_color: Color,
    /// Thinking time per player for the whole game, in minutes.
    pub minutes: u16,
    /// Moves of the whole game (0: no limit).
    pub moves: u16,
    /// The start position.
    pub start: StartPosition,
}

/// GAMEACC acceptance codes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum AcceptCode {
    /// `0`: the game is accepted.
    Accepted,
    /// `1`: wrong protocol version.
    WrongVersion,
    /// `2`: not this game, but willing to play another.
    NotThisGame,
    /// `3`: no games at all.
    NoGames,
}

impl AcceptCode {
    const fn digit(self) -> char {
        match self {
            AcceptCode::Accepted => '0',
            AcceptCode::WrongVersion => '1',
            AcceptCode::NotThisGame => '2',
            AcceptCode::NoGames => '3',
        }
    }

    const fn from_digit(c: char) -> Option<AcceptCode> {
        match c {
            '0' => Some(AcceptCode::Accepted),
            '1' => Some(AcceptCode::WrongVersion),
            '2' => Some(AcceptCode::NotThisGame),
            '3' => Some(AcceptCode::NoGames),
            _ => None,
        }
    }

    /// What the code means, for logs.
    pub const fn meaning(self) -> &'static str {
        match self {
            AcceptCode::Accepted => "accepted",
            AcceptCode::WrongVersion => "refused: wrong protocol version",
            AcceptCode::NotThisGame => "refused: not this game, but willing to play another",
            AcceptCode::NoGames => "refused: no games at all",
        }
    }
}

/// GAMEACC: the follower's answer to a GAMEREQ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameAcc {
    /// The follower's name (surrounding blanks removed).
    pub follower: String,
    pub code: AcceptCode,
}

/// MOVE: a move by its from and to squares and the captured squares (any order).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DxpMove {
    /// Seconds the sender used for the move (informational), 0..=9999.
    pub seconds: u16,
    /// Square numbers 1..=50.
    pub from: u8,
    pub to: u8,
    /// Captured squares, 1..=50, at most 20, in the sender's order.
    pub captured: Vec<u8>,
}

impl DxpMove {
    /// The move of a 10x10 position's move list; captured squares ascending.
    pub fn from_move(m: &crate::draughts::moves::Move, seconds: u16) -> DxpMove {
        let mut captured: Vec<u8> = Bits(m.captured)
            .map(|b| Geo::number_of_bit(b) as u8)
            .collect();
        captured.sort_unstable();
        DxpMove {
            seconds: seconds.min(9999),
            from: Geo::number_of_bit(m.from) as u8,
            to: Geo::number_of_bit(m.to) as u8,
            captured,
        }
    }

    /// Hub-like text for logs: `32-28`, `28x19x23`.
    pub fn describe(&self) -> String {
        if self.captured.is_empty() {
            format!("{}-{}", self.from, self.to)
        } else {
            let mut s = format!("{}x{}", self.from, self.to);
            for c in &self.captured {
                s.push_str(&format!("x{c}"));
            }
            s
        }
    }
}

/// GAMEEND reasons (informational).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// `0`: no reason given.
    Unspecified,
    /// `1`: I give up.
    GiveUp,
    /// `2`: draw.
    Draw,
    /// `3`: I win.
    Win,
}

impl EndReason {
    const fn digit(self) -> char {
        match self {
            EndReason::Unspecified => '0',
            EndReason::GiveUp => '1',
            EndReason::Draw => '2',
            EndReason::Win => '3',
        }
    }

    const fn from_digit(c: char) -> Option<EndReason> {
        match c {
            '0' => Some(EndReason::Unspecified),
            '1' => Some(EndReason::GiveUp),
            '2' => Some(EndReason::Draw),
            '3' => Some(EndReason::Win),
            _ => None,
        }
    }

    /// What the reason means, said by its sender.
    pub const fn meaning(self) -> &'static str {
        match self {
            EndReason::Unspecified => "no reason given",
            EndReason::GiveUp => "I give up",
            EndReason::Draw => "draw",
            EndReason::Win => "I win",
        }
    }
}

/// GAMEEND: end of the game, and whether the sender wants to stop playing.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameEnd {
    pub reason: EndReason,
    /// `true` (`1`): the sender wants no next game; `false` (`0`): willing to play another.
    pub stop: bool,
}

/// BACKREQ: go back to the position of a move number with a colour to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct BackReq {
    /// 1..=999; the first move of the game is 1.
    pub move_number: u16,
    pub color: Color,
}

/// BACKACC answers.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BackCode {
    /// `0`: taken back as asked.
    Accepted,
    /// `1`: take-backs are not supported.
    NotSupported,
    /// `2`: refused; the game continues as it was.
    Continue,
}

impl BackCode {
    const fn digit(self) -> char {
        match self {
            BackCode::Accepted => '0',
            BackCode::NotSupported => '1',
            BackCode::Continue => '2',
        }
    }

    const fn from_digit(c: char) -> Option<BackCode> {
        match c {
            '0' => Some(BackCode::Accepted),
            '1' => Some(BackCode::NotSupported),
            '2' => Some(BackCode::Continue),
            _ => None,
        }
    }
}

/// A DXP message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    GameReq(GameReq),
    GameAcc(GameAcc),
    Move(DxpMove),
    GameEnd(GameEnd),
    Chat(String),
    BackReq(BackReq),
    BackAcc(BackCode),
}

/// Why a message could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MessageError {
    /// An empty message.
    Empty,
    /// A character outside ASCII 1..=127 (0-based index).
    NotAscii { index: usize },
    /// The first character is not a message type.
    UnknownType(char),
    /// The length does not match the message's layout.
    Length {
        message: &'static str,
        found: usize,
        expected: String,
    },
    /// A field holds something outside its alphabet or range.
    Field {
        message: &'static str,
        field: &'static str,
        /// 1-based columns of the field in the message.
        columns: (usize, usize),
        found: String,
        expected: &'static str,
    },
}

impl fmt::Display for MessageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MessageError::Empty => write!(f, "empty message"),
            MessageError::NotAscii { index } => {
                write!(f, "character {} is not ASCII 1..127", index + 1)
            }
            MessageError::UnknownType(c) => write!(
                f,
                "unknown message type {c:?} (expected one of R A M E C B K)"
            ),
            MessageError::Length {
                message,
                found,
                expected,
            } => write!(
                f,
                "{message}: {found} characters, expected {expected} (a field has the wrong width)"
            ),
            MessageError::Field {
                message,
                field,
                columns,
                found,
                expected,
            } => {
                let cols = if columns.0 == columns.1 {
                    format!("column {}", columns.0)
                } else {
                    format!("columns {}-{}", columns.0, columns.1)
                };
                write!(
                    f,
                    "{message}: field '{field}' ({cols}) is {found:?}, expected {expected}"
                )
            }
        }
    }
}

impl std::error::Error for MessageError {}

/// Reads fields left to right, checking each against its alphabet.
struct Fields<'a> {
    message: &'static str,
    text: &'a str,
    at: usize,
}

impl<'a> Fields<'a> {
    /// The next `width` characters (the length was checked before).
    fn take(&mut self, width: usize) -> (&'a str, (usize, usize)) {
        let s = &self.text[self.at..self.at + width];
        let cols = (self.at + 1, self.at + width);
        self.at += width;
        (s, cols)
    }

    fn bad(
        &self,
        field: &'static str,
        columns: (usize, usize),
        found: &str,
        expected: &'static str,
    ) -> MessageError {
        MessageError::Field {
            message: self.message,
            field,
            columns,
            found: found.to_string(),
            expected,
        }
    }

    /// A zero-padded number of exactly `width` digits within `range`.
    fn number(
        &mut self,
        field: &'static str,
        width: usize,
        range: std::ops::RangeInclusive<u16>,
        expected: &'static str,
    ) -> Result<u16, MessageError> {
        let (s, cols) = self.take(width);
        if !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(self.bad(field, cols, s, expected));
        }
        match s.parse::<u16>() {
            Ok(n) if range.contains(&n) => Ok(n),
            _ => Err(self.bad(field, cols, s, expected)),
        }
    }

    /// One character mapped by `read`.
    fn letter<T>(
        &mut self,
        field: &'static str,
        read: impl Fn(char) -> Option<T>,
        expected: &'static str,
    ) -> Result<T, MessageError> {
        let (s, cols) = self.take(1);
        s.chars()
            .next()
            .and_then(read)
            .ok_or_else(|| self.bad(field, cols, s, expected))
    }

    /// A name field: blank-padded; the blanks around the name are removed.
    fn name(&mut self, field: &'static str) -> Result<String, MessageError> {
        let (s, cols) = self.take(NAME_WIDTH);
        if s.chars().any(|c| c.is_ascii_control()) {
            return Err(self.bad(field, cols, s, "32 printable characters"));
        }
        Ok(s.trim().to_string())
    }
}

fn check_len(message: &'static str, found: usize, expected: usize) -> Result<(), MessageError> {
    if found == expected {
        Ok(())
    } else {
        Err(MessageError::Length {
            message,
            found,
            expected: expected.to_string(),
        })
    }
}

impl Message {
    /// The message's name as the spec writes it (`GAMEREQ`, `MOVE`, ...).
    pub const fn name(&self) -> &'static str {
        match self {
            Message::GameReq(_) => "GAMEREQ",
            Message::GameAcc(_) => "GAMEACC",
            Message::Move(_) => "MOVE",
            Message::GameEnd(_) => "GAMEEND",
            Message::Chat(_) => "CHAT",
            Message::BackReq(_) => "BACKREQ",
            Message::BackAcc(_) => "BACKACC",
        }
    }

    /// Reads one message (without its NUL terminator).
    pub fn parse(text: &str) -> Result<Message, MessageError> {
        if let Some(index) = text.bytes().position(|b| b == 0 || b > 127) {
            return Err(MessageError::NotAscii { index });
        }
        let Some(kind) = text.chars().next() else {
            return Err(MessageError::Empty);
        };
        let len = text.len();
        let message = match kind {
            'R' => "GAMEREQ",
            'A' => "GAMEACC",
            'M' => "MOVE",
            'E' => "GAMEEND",
            'C' => "CHAT",
            'B' => "BACKREQ",
            'K' => "BACKACC",
            other => return Err(MessageError::UnknownType(other)),
        };
        if len > MAX_LEN {
            return Err(MessageError::Length {
                message,
                found: len,
                expected: format!("at most {MAX_LEN}"),
            });
        }
        let mut f = Fields {
            message,
            text,
            at: 1,
        };
        match kind {
            'R' => {
                if len != GAMEREQ_A_LEN && len != GAMEREQ_B_LEN {
                    return Err(MessageError::Length {
                        message,
                        found: len,
                        expected: format!(
                            "{GAMEREQ_A_LEN} (start position A) or {GAMEREQ_B_LEN} (position B)"
                        ),
                    });
                }
                let version = f.number("version", 2, 0..=99, "2 digits")? as u8;
                let initiator = f.name("initiator name")?;
                let follower_color = f.letter("follower colour", color_of_letter, "W or Z")?;
                let minutes = f.number("thinking time", 3, 0..=999, "3 digits (minutes)")?;
                let moves = f.number("number of moves", 3, 0..=999, "3 digits")?;
                let (ind, cols) = f.take(1);
                let start = match (ind, len) {
                    ("A", GAMEREQ_A_LEN) => StartPosition::Initial,
                    ("B", GAMEREQ_B_LEN) => {
                        let side = f.letter("colour to move", color_of_letter, "W or Z")?;
                        let (s, cols) = f.take(SQUARES);
                        let mut squares = [Square::Empty; SQUARES];
                        for (sq, c) in squares.iter_mut().zip(s.chars()) {
                            *sq = Square::from_letter(c).ok_or_else(|| {
                                f.bad("position", cols, s, "50 letters of w z W Z e")
                            })?;
                        }
                        StartPosition::Setup(DxpPosition { side, squares })
                    }
                    ("A", _) => {
                        return Err(MessageError::Length {
                            message,
                            found: len,
                            expected: format!("{GAMEREQ_A_LEN} with start position A"),
                        });
                    }
                    ("B", _) => {
                        return Err(MessageError::Length {
                            message,
                            found: len,
                            expected: format!("{GAMEREQ_B_LEN} with start position B"),
                        });
                    }
                    _ => return Err(f.bad("start position", cols, ind, "A or B")),
                };
                Ok(Message::GameReq(GameReq {
                    version,
                    initiator,
                    follower_color,
                    minutes,
                    moves,
                    start,
                }))
            }
            'A' => {
                check_len(message, len, GAMEACC_LEN)?;
                let follower = f.name("follower name")?;
                let code = f.letter("acceptance code", AcceptCode::from_digit, "0, 1, 2 or 3")?;
                Ok(Message::GameAcc(GameAcc { follower, code }))
            }
            'M' => {
                if len < MOVE_BASE_LEN {
                    return Err(MessageError::Length {
                        message,
                        found: len,
                        expected: format!("at least {MOVE_BASE_LEN}"),
                    });
                }
                let seconds = f.number("time", 4, 0..=9999, "4 digits (seconds)")?;
                let from = f.number("from", 2, 1..=50, "2 digits 01-50")? as u8;
                let to = f.number("to", 2, 1..=50, "2 digits 01-50")? as u8;
                let n = f.number("number captured", 2, 0..=20, "2 digits 00-20")? as usize;
                let expected = MOVE_BASE_LEN + 2 * n;
                if len != expected {
                    return Err(MessageError::Length {
                        message,
                        found: len,
                        expected: format!("{MOVE_BASE_LEN} + 2 x {n} captured = {expected}"),
                    });
                }
                let mut captured = Vec::with_capacity(n);
                for _ in 0..n {
                    captured.push(f.number("captured square", 2, 1..=50, "2 digits 01-50")? as u8);
                }
                Ok(Message::Move(DxpMove {
                    seconds,
                    from,
                    to,
                    captured,
                }))
            }
            'E' => {
                check_len(message, len, 3)?;
                let reason = f.letter("reason", EndReason::from_digit, "0, 1, 2 or 3")?;
                let stop = f.letter(
                    "stop code",
                    |c| match c {
                        '0' => Some(false),
                        '1' => Some(true),
                        _ => None,
                    },
                    "0 or 1",
                )?;
                Ok(Message::GameEnd(GameEnd { reason, stop }))
            }
            'C' => Ok(Message::Chat(text[1..].to_string())),
            'B' => {
                check_len(message, len, 5)?;
                let move_number = f.number("move number", 3, 1..=999, "3 digits 001-999")?;
                let color = f.letter("colour to move", color_of_letter, "W or Z")?;
                Ok(Message::BackReq(BackReq { move_number, color }))
            }
            'K' => {
                check_len(message, len, 2)?;
                let code = f.letter("acceptance code", BackCode::from_digit, "0, 1 or 2")?;
                Ok(Message::BackAcc(code))
            }
            _ => unreachable!("every type letter is matched above"),
        }
    }

    /// The message's text (without the NUL terminator): at most [`MAX_LEN`] ASCII characters.
    pub fn to_wire(&self) -> String {
        match self {
            Message::GameReq(r) => {
                let mut s = format!(
                    "R{:02}{}{}{:03}{:03}",
                    r.version.min(99),
                    name_field(&r.initiator),
                    color_letter(r.follower_color),
                    r.minutes.min(999),
                    r.moves.min(999)
                );
                match &r.start {
                    StartPosition::Initial => s.push('A'),
                    StartPosition::Setup(p) => {
                        s.push('B');
                        s.push(color_letter(p.side));
                        s.push_str(&p.squares_text());
                    }
                }
                s
            }
            Message::GameAcc(a) => format!("A{}{}", name_field(&a.follower), a.code.digit()),
            Message::Move(m) => {
                let mut s = format!(
                    "M{:04}{:02}{:02}{:02}",
                    m.seconds.min(9999),
                    m.from,
                    m.to,
                    m.captured.len().min(MAX_CAPTURED)
                );
                for c in m.captured.iter().take(MAX_CAPTURED) {
                    s.push_str(&format!("{c:02}"));
                }
                s
            }
            Message::GameEnd(e) => {
                format!("E{}{}", e.reason.digit(), if e.stop { '1' } else { '0' })
            }
            Message::Chat(t) => format!("C{}", printable(t, MAX_CHAT)),
            Message::BackReq(b) => {
                format!(
                    "B{:03}{}",
                    b.move_number.clamp(1, 999),
                    color_letter(b.color)
                )
            }
            Message::BackAcc(c) => format!("K{}", c.digit()),
        }
    }
}

/// `text` with every character outside printable ASCII replaced by `?`, clipped to `max`.
pub fn printable(text: &str, max: usize) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii() && !c.is_ascii_control() {
                c
            } else {
                '?'
            }
        })
        .take(max)
        .collect()
}

/// A name as its 32-character field: printable ASCII, no leading blank, blank-padded.
pub fn name_field(name: &str) -> String {
    let s = printable(name.trim(), NAME_WIDTH);
    format!("{s:<NAME_WIDTH$}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field_of(e: MessageError) -> &'static str {
        match e {
            MessageError::Field { field, .. } => field,
            other => panic!("expected a field error, got {other:?}"),
        }
    }

    #[test]
    fn spec_examples_read_and_write_back() {
        for text in [
            "R01Tornado voor Windows 4.0        W060065A",
            "ATornado voor Windows 4.0        0",
            "M0012061100",
            "M001205250422122320",
            "E00",
            "CWhat do you think about move 35?",
            "B005Z",
            "K1",
        ] {
            let m = Message::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(m.to_wire(), text);
        }
        let Message::Move(m) = Message::parse("M001205250422122320").unwrap() else {
            panic!()
        };
        assert_eq!((m.seconds, m.from, m.to), (12, 5, 25));
        assert_eq!(m.captured, vec![22, 12, 23, 20]);
        assert_eq!(m.describe(), "5x25x22x12x23x20");
        let Message::GameReq(r) =
            Message::parse("R01Tornado voor Windows 4.0        W060065A").unwrap()
        else {
            panic!()
        };
        assert_eq!(r.initiator, "Tornado voor Windows 4.0");
        assert_eq!(
            (r.version, r.follower_color, r.minutes, r.moves),
            (1, Color::White, 60, 65)
        );
    }

    #[test]
    fn position_b_round_trips_through_the_board() {
        let start = Board::start();
        let p = DxpPosition::from_board(&start);
        assert_eq!(
            p.squares_text(),
            format!("{}{}{}", "z".repeat(20), "e".repeat(10), "w".repeat(20))
        );
        assert_eq!(p.to_board().unwrap(), start);
        let req = Message::GameReq(GameReq {
            version: 1,
            initiator: "DXP Client".into(),
            follower_color: Color::Black,
            minutes: 1,
            moves: 0,
            start: StartPosition::Setup(DxpPosition {
                side: Color::Black,
                ..p
            }),
        });
        let wire = req.to_wire();
        assert_eq!(wire.len(), GAMEREQ_B_LEN);
        assert!(wire.starts_with("R01DXP Client                      Z001000BZ"));
        assert_eq!(Message::parse(&wire).unwrap(), req);
        let mut kings = p;
        kings.squares[0] = Square::King(Color::White);
        kings.squares[49] = Square::King(Color::Black);
        let b = kings.to_board().unwrap();
        assert_eq!(DxpPosition::from_board(&b), kings);
        // A white man on square 1 (its promotion row) is not a position.
        kings.squares[0] = Square::Man(Color::White);
        assert!(kings.to_board().is_err());
    }

    #[test]
    fn every_message_round_trips() {
        let msgs = [
            Message::GameAcc(GameAcc {
                follower: "tiao 0.1.0".into(),
                code: AcceptCode::NotThisGame,
            }),
            Message::Move(DxpMove {
                seconds: 9999,
                from: 50,
                to: 1,
                captured: vec![],
            }),
            Message::Move(DxpMove {
                seconds: 0,
                from: 46,
                to: 46,
                captured: (1..=20).collect(),
            }),
            Message::GameEnd(GameEnd {
                reason: EndReason::Win,
                stop: true,
            }),
            Message::Chat(String::new()),
            Message::Chat("x".repeat(MAX_CHAT)),
            Message::BackReq(BackReq {
                move_number: 999,
                color: Color::White,
            }),
            Message::BackAcc(BackCode::Continue),
        ];
        for m in msgs {
            let w = m.to_wire();
            assert!(w.len() <= MAX_LEN, "{w}");
            assert_eq!(Message::parse(&w).unwrap(), m, "{w}");
        }
    }

    #[test]
    fn writing_clips_and_pads() {
        let long = Message::GameAcc(GameAcc {
            follower: "  a very long engine name that does not fit in 32".into(),
            code: AcceptCode::Accepted,
        });
        let w = long.to_wire();
        assert_eq!(w.len(), GAMEACC_LEN);
        assert!(w.starts_with("Aa very long engine name that do"));
        let chat = Message::Chat(format!("héllo\n{}", "y".repeat(200))).to_wire();
        assert_eq!(chat.len(), MAX_LEN);
        assert!(chat.starts_with("Ch?llo?y"));
        assert!(Message::parse(&chat).is_ok());
    }

    #[test]
    fn wrong_lengths_name_the_message() {
        for (text, msg) in [
            ("R01Tornado voor Windows 4.0        W060065", "GAMEREQ"),
            ("R01Tornado voor Windows 4.0        W060065AX", "GAMEREQ"),
            ("R01Tornado voor Windows 4.0       W060065A", "GAMEREQ"),
            ("ATornado voor Windows 4.0       0", "GAMEACC"),
            ("M001206110", "MOVE"),
            ("M00120611000", "MOVE"),
            ("M0012052504221223", "MOVE"),
            ("M00120525042212232001", "MOVE"),
            ("E0", "GAMEEND"),
            ("E000", "GAMEEND"),
            ("B05Z", "BACKREQ"),
            ("K", "BACKACC"),
            ("K12", "BACKACC"),
        ] {
            match Message::parse(text) {
                Err(MessageError::Length { message, .. }) => assert_eq!(message, msg, "{text}"),
                other => panic!("{text}: {other:?}"),
            }
        }
        let e = Message::parse("M001206110").unwrap_err().to_string();
        assert!(
            e.contains("MOVE: 10 characters, expected at least 11"),
            "{e}"
        );
        let e = Message::parse("M0012052504221223").unwrap_err().to_string();
        assert!(e.contains("11 + 2 x 4 captured = 19"), "{e}");
        // A GAMEREQ whose position indicator disagrees with its length.
        let a = "R01Tornado voor Windows 4.0        W060065A";
        let b = format!("{a}W{}", "e".repeat(50));
        assert!(matches!(
            Message::parse(&b),
            Err(MessageError::Length { .. })
        ));
        let long = format!("C{}", "x".repeat(127));
        assert!(matches!(
            Message::parse(&long),
            Err(MessageError::Length { .. })
        ));
    }

    #[test]
    fn bad_fields_name_the_field_and_columns() {
        let req = |s: &str| Message::parse(s).unwrap_err();
        for (text, field) in [
            ("R0xTornado voor Windows 4.0        W060065A", "version"),
            (
                "R01Tornado voor Windows 4.0        B060065A",
                "follower colour",
            ),
            (
                "R01Tornado voor Windows 4.0        W06a065A",
                "thinking time",
            ),
            (
                "R01Tornado voor Windows 4.0        W060-65A",
                "number of moves",
            ),
            (
                "R01Tornado voor Windows 4.0        W060065C",
                "start position",
            ),
        ] {
            assert_eq!(field_of(req(text)), field, "{text}");
        }
        let b = format!("R01{:<32}W001000BX{}", "x", "e".repeat(50));
        assert_eq!(field_of(req(&b)), "colour to move");
        let b = format!("R01{:<32}W001000BW{}b", "x", "e".repeat(49));
        assert_eq!(field_of(req(&b)), "position");
        assert_eq!(field_of(req("M001200110000")), "from");
        assert_eq!(field_of(req("M0012066500")), "to");
        assert_eq!(field_of(req("M00x2061100")), "time");
        assert_eq!(field_of(req("M0012061121")), "number captured");
        assert_eq!(field_of(req("M001205250422125120")), "captured square");
        assert_eq!(field_of(req("E40")), "reason");
        assert_eq!(field_of(req("E02")), "stop code");
        assert_eq!(field_of(req("B000W")), "move number");
        assert_eq!(field_of(req("B001B")), "colour to move");
        assert_eq!(field_of(req("K3")), "acceptance code");
        assert_eq!(
            field_of(req("ATornado voor Windows 4.0        4")),
            "acceptance code"
        );
        let e = req("M0012066500").to_string();
        assert_eq!(
            e,
            "MOVE: field 'to' (columns 8-9) is \"65\", expected 2 digits 01-50"
        );
        let e = req("E02").to_string();
        assert_eq!(
            e,
            "GAMEEND: field 'stop code' (column 3) is \"2\", expected 0 or 1"
        );
    }

    #[test]
    fn garbage_is_refused_without_panicking() {
        assert_eq!(Message::parse(""), Err(MessageError::Empty));
        assert_eq!(Message::parse("X123"), Err(MessageError::UnknownType('X')));
        assert_eq!(
            Message::parse("m0012061100"),
            Err(MessageError::UnknownType('m'))
        );
        assert!(matches!(
            Message::parse("M00120é1100"),
            Err(MessageError::NotAscii { index: 6 })
        ));
        // Every prefix and every single-byte corruption of valid messages is handled.
        let valid = [
            "R01Tornado voor Windows 4.0        W060065A".to_string(),
            format!("R01{:<32}Z001000BW{}", "x", "zwZWe".repeat(10)),
            "M001205250422122320".to_string(),
            "ATornado voor Windows 4.0        0".to_string(),
            "E00".into(),
            "B005Z".into(),
            "K1".into(),
        ];
        for v in &valid {
            for n in 0..=v.len() {
                let _ = Message::parse(&v[..n]);
            }
            for i in 0..v.len() {
                for c in [b'\x01', b' ', b'0', b'9', b'A', b'z', b'~', 0x7f] {
                    let mut b = v.clone().into_bytes();
                    b[i] = c;
                    let s = String::from_utf8(b).unwrap();
                    if let Ok(m) = Message::parse(&s) {
                        // Whatever reads writes back to something that reads the same.
                        assert_eq!(Message::parse(&m.to_wire()).unwrap(), m, "{s:?}");
                    }
                }
            }
        }
    }
}
