//! The Hub commands an engine receives, parsed from a tokenised [`Line`] into typed values.
//!
//! Unknown arguments are ignored, as the protocol asks ("both the engine and the GUI should ignore
//! commands and arguments that they don't understand"); unknown commands, missing or malformed
//! values are a [`CommandError`] that the loop answers with an `error` line before carrying on.

use super::syntax::{Line, SyntaxError};
use std::fmt;

/// Where `pos` takes its position from.
#[derive(Clone, Debug, PartialEq)]
pub enum PosSource {
    /// `pos start` (or a bare `pos`): the variant's start position.
    Start,
    /// `pos pos=<hub string>`: side to move and one letter per square.
    Hub(String),
    /// `pos fen=<PDN FEN>` (extension): any FEN the variant reads.
    Fen(String),
}

/// The limits of the next search (`level`). Times in seconds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Level {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub move_time: Option<f64>,
    pub moves: Option<u32>,
    pub time: Option<f64>,
    pub inc: Option<f64>,
    pub infinite: bool,
}

/// The three kinds of `go`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GoMode {
    /// Play: search and answer a move (a single legal move is answered at once).
    Think,
    /// Ponder on the expected opponent move (already in the position); the clock is not running.
    Ponder,
    /// Analysis: search even a single legal move, until the limit or `stop`.
    Analyze,
}

/// A command to the engine.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Hub,
    SetParam {
        name: String,
        value: String,
    },
    Init,
    NewGame,
    Pos {
        source: PosSource,
        moves: Vec<String>,
    },
    Level(Level),
    Go(GoMode),
    Ping,
    PonderHit,
    Stop,
    Quit,
    /// Extension: list the legal moves of the current position.
    LegalMoves,
    /// Extension: write the current position as a `pos fen="..."` line.
    GetPos,
}

/// Why a line is not a valid command.
#[derive(Clone, Debug, PartialEq)]
pub enum CommandError {
    Syntax(SyntaxError),
    Unknown(String),
    Missing {
        command: &'static str,
        argument: &'static str,
    },
    BadValue {
        argument: String,
        value: String,
        expected: String,
    },
    Conflict(String),
}

/// The longest piece of the input an error message quotes, in characters.
pub const MAX_QUOTED: usize = 40;

/// `text` as an error message quotes it: whole when short, else its first [`MAX_QUOTED`]
/// characters and its length (a GUI must not get a megabyte back for a megabyte of garbage).
pub fn quoted(text: &str) -> String {
    if text.chars().count() <= MAX_QUOTED {
        return format!("'{text}'");
    }
    let head: String = text.chars().take(MAX_QUOTED).collect();
    format!("'{head}...' ({} bytes)", text.len())
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Syntax(e) => write!(f, "{e}"),
            CommandError::Unknown(c) => write!(f, "unknown command {}", quoted(c)),
            CommandError::Missing { command, argument } => {
                write!(f, "{command}: missing {argument}")
            }
            CommandError::BadValue {
                argument,
                value,
                expected,
            } => {
                write!(
                    f,
                    "bad value {} for {} (expected {expected})",
                    quoted(value),
                    quoted(argument).trim_matches('\'')
                )
            }
            CommandError::Conflict(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for CommandError {}

impl From<SyntaxError> for CommandError {
    fn from(e: SyntaxError) -> Self {
        CommandError::Syntax(e)
    }
}

fn number<T: std::str::FromStr>(
    line: &Line,
    key: &str,
    expected: &'static str,
) -> Result<Option<T>, CommandError> {
    match line.value(key) {
        None => Ok(None),
        Some(v) => v
            .trim()
            .parse::<T>()
            .map(Some)
            .map_err(|_| CommandError::BadValue {
                argument: key.to_string(),
                value: v.to_string(),
                expected: expected.to_string(),
            }),
    }
}

/// A time in seconds, at most [`MAX_SECONDS`](crate::numbers::MAX_SECONDS). A negative time
/// counts as 0: a client whose clock has fallen below the increment sends `time=<clock - inc>`
/// (pydraughts does), and must still get a move at once.
fn seconds(line: &Line, key: &str) -> Result<Option<f64>, CommandError> {
    let v: Option<f64> = number(line, key, "a number of seconds")?;
    let Some(s) = v else {
        return Ok(None);
    };
    // `nan.max(0.0)` is 0: the check comes first.
    let s = if s.is_finite() { s.max(0.0) } else { s };
    crate::numbers::seconds(s)
        .map(Some)
        .map_err(|_| CommandError::BadValue {
            argument: key.to_string(),
            value: line.value(key).unwrap_or_default().to_string(),
            expected: format!(
                "a finite number of seconds, at most {}",
                crate::numbers::MAX_SECONDS
            ),
        })
}

impl Command {
    /// Parses one input line.
    pub fn parse(text: &str) -> Result<Command, CommandError> {
        let line = Line::parse(text)?;
        Ok(match line.command.as_str() {
            "hub" => Command::Hub,
            "init" => Command::Init,
            "new-game" => Command::NewGame,
            "ping" => Command::Ping,
            "ponder-hit" => Command::PonderHit,
            "stop" => Command::Stop,
            "quit" => Command::Quit,
            "legal-moves" => Command::LegalMoves,
            "get-pos" => Command::GetPos,
            "set-param" => {
                let name = line.value("name").ok_or(CommandError::Missing {
                    command: "set-param",
                    argument: "name=",
                })?;
                let value = line.value("value").ok_or(CommandError::Missing {
                    command: "set-param",
                    argument: "value=",
                })?;
                Command::SetParam {
                    name: name.to_string(),
                    value: value.to_string(),
                }
            }
            "pos" => {
                let given = [
                    line.value("pos").is_some(),
                    line.value("fen").is_some(),
                    line.has("start"),
                ];
                if given.iter().filter(|g| **g).count() > 1 {
                    return Err(CommandError::Conflict(
                        "pos: give only one of pos=, fen= and start".to_string(),
                    ));
                }
                let source = if let Some(p) = line.value("pos") {
                    PosSource::Hub(p.to_string())
                } else if let Some(f) = line.value("fen") {
                    PosSource::Fen(f.to_string())
                } else {
                    PosSource::Start
                };
                let moves = line
                    .value("moves")
                    .map(|m| m.split_whitespace().map(str::to_string).collect());
                Command::Pos {
                    source,
                    moves: moves.unwrap_or_default(),
                }
            }
            "level" => Command::Level(Level {
                depth: number(&line, "depth", "a whole number of plies")?,
                nodes: number(&line, "nodes", "a whole number of nodes")?,
                move_time: seconds(&line, "move-time")?,
                moves: number(&line, "moves", "a whole number of moves")?,
                time: seconds(&line, "time")?,
                inc: seconds(&line, "inc")?,
                infinite: line.has("infinite"),
            }),
            "go" => {
                let modes = [
                    (line.has("think"), GoMode::Think),
                    (line.has("ponder"), GoMode::Ponder),
                    (line.has("analyze") || line.has("analyse"), GoMode::Analyze),
                ];
                let mut chosen = modes.iter().filter(|(on, _)| *on).map(|(_, m)| *m);
                match (chosen.next(), chosen.next()) {
                    (None, _) => GoMode::Think,
                    (Some(m), None) => m,
                    (Some(_), Some(_)) => {
                        return Err(CommandError::Conflict(
                            "go: give only one of think, ponder and analyze".to_string(),
                        ));
                    }
                }
                .into()
            }
            other => return Err(CommandError::Unknown(other.to_string())),
        })
    }
}

impl From<GoMode> for Command {
    fn from(m: GoMode) -> Self {
        Command::Go(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_command() {
        assert_eq!(Command::parse("hub"), Ok(Command::Hub));
        assert_eq!(
            Command::parse("set-param name=variant value=russian"),
            Ok(Command::SetParam {
                name: "variant".into(),
                value: "russian".into()
            })
        );
        assert_eq!(
            Command::parse("pos pos=Wbbb moves=\"32-28 19-23\""),
            Ok(Command::Pos {
                source: PosSource::Hub("Wbbb".into()),
                moves: vec!["32-28".into(), "19-23".into()]
            })
        );
        assert_eq!(
            Command::parse("pos start"),
            Ok(Command::Pos {
                source: PosSource::Start,
                moves: vec![]
            })
        );
        assert_eq!(
            Command::parse("pos"),
            Ok(Command::Pos {
                source: PosSource::Start,
                moves: vec![]
            })
        );
        assert_eq!(
            Command::parse("pos fen=\"W:W31-50:B1-20\""),
            Ok(Command::Pos {
                source: PosSource::Fen("W:W31-50:B1-20".into()),
                moves: vec![]
            })
        );
        assert_eq!(
            Command::parse("level moves=9 time=291.587 inc=2"),
            Ok(Command::Level(Level {
                moves: Some(9),
                time: Some(291.587),
                inc: Some(2.0),
                ..Level::default()
            }))
        );
        assert_eq!(
            Command::parse("level infinite"),
            Ok(Command::Level(Level {
                infinite: true,
                ..Level::default()
            }))
        );
        assert_eq!(
            Command::parse("level handicap=2 depth=7"),
            Ok(Command::Level(Level {
                depth: Some(7),
                ..Level::default()
            }))
        );
        assert_eq!(Command::parse("go think"), Ok(Command::Go(GoMode::Think)));
        assert_eq!(Command::parse("go ponder"), Ok(Command::Go(GoMode::Ponder)));
        assert_eq!(
            Command::parse("go analyze"),
            Ok(Command::Go(GoMode::Analyze))
        );
        assert_eq!(Command::parse("ponder-hit"), Ok(Command::PonderHit));
    }

    #[test]
    fn errors_name_the_problem() {
        let e = |s: &str| Command::parse(s).unwrap_err().to_string();
        assert_eq!(e("frobnicate now"), "unknown command 'frobnicate'");
        assert!(e("level depth=deep").contains("'deep'"));
        assert!(e("level move-time=abc").contains("'abc'"));
        assert!(e("level time=inf").contains("'inf'"));
        assert_eq!(
            Command::parse("level time=-0.5 inc=1"),
            Ok(Command::Level(Level {
                time: Some(0.0),
                inc: Some(1.0),
                ..Level::default()
            }))
        );
        assert!(e("level time=nan").contains("'nan'"));
        // An absurd time is refused, not clamped.
        assert!(e("level move-time=1e300").contains("at most 10000000"));
        assert!(e("level inc=20000000").contains("'20000000'"));
        assert!(e("set-param name=threads").contains("value="));
        assert!(e("go think ponder").contains("only one"));
        assert!(e("pos start pos=W").contains("only one"));
        assert_eq!(e(""), "missing command");
        // A long word is not sent back whole.
        let long = "x".repeat(1 << 20);
        let msg = e(&long);
        assert!(msg.len() < 100, "{}", msg.len());
        assert!(msg.starts_with("unknown command 'xxxx") && msg.ends_with("(1048576 bytes)"));
        assert!(e(&format!("level depth={long}")).len() < 150);
    }
}
