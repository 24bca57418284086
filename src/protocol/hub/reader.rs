//! Reading Hub lines of **bytes**: [`next_input`] one at a time on the calling thread (the Hub
//! loop), or [`spawn`] a thread that sends them over a channel (the match runner's client of
//! external engines, which must never block on an engine's output).
//!
//! Invariants:
//! - every line read is sent as one [`Input::Line`], in order, then exactly one [`Input::Eof`]
//!   when the input ends (or fails);
//! - a line is never longer than [`MAX_LINE`] bytes in memory: the rest of an over-long line is
//!   read and thrown away, and the line is reported once as [`LineError::TooLong`];
//! - bytes that are not UTF-8 give [`LineError::InvalidUtf8`], never a panic;
//! - the line terminator (`\n`, `\r\n`) and a leading byte-order mark are removed.
//!
//! The thread ends after sending `Eof`, or as soon as nobody listens any more.

use crossbeam_channel::{Receiver, Sender, unbounded};
use std::fmt;
use std::io::{self, BufRead};
use std::thread;

/// The longest line kept, in bytes (a game of a thousand plies in Hub form is about 10 KB).
pub const MAX_LINE: usize = 1 << 20;

/// What the reader sends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A line without its terminator, or why it could not be read as text.
    Line(Result<String, LineError>),
    /// The input is closed (or could not be read any more).
    Eof,
}

/// A line that is not a line of text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineError {
    /// Not UTF-8: the first bad byte is at this 1-based column.
    InvalidUtf8 { column: usize },
    /// Longer than [`MAX_LINE`] bytes: it was thrown away.
    TooLong { bytes: usize },
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::InvalidUtf8 { column } => {
                write!(f, "line is not UTF-8 text (bad byte at column {column})")
            }
            LineError::TooLong { bytes } => write!(
                f,
                "line of {bytes} bytes is longer than {MAX_LINE} bytes and was ignored"
            ),
        }
    }
}

impl std::error::Error for LineError {}

/// Starts the reader thread on `input`; lines arrive on the returned channel.
pub fn spawn<R: BufRead + Send + 'static>(input: R) -> Receiver<Input> {
    let (tx, rx) = unbounded();
    // The thread is detached: when the loop ends first (on `quit`), it stays blocked on the input
    // until the process exits.
    let _ = thread::Builder::new()
        .name("hub-reader".into())
        .spawn(move || read_all(input, &tx));
    rx
}

/// Reads `input` to its end, sending every line and then `Eof`.
pub fn read_all<R: BufRead>(mut input: R, tx: &Sender<Input>) {
    let mut buf = Vec::new();
    loop {
        let next = next_input(&mut input, &mut buf);
        let end = next == Input::Eof;
        if tx.send(next).is_err() || end {
            return;
        }
    }
}

/// Reads the next line of `input` (`buf` is scratch space): the same [`Input`]s, one at a time,
/// on the calling thread (the Hub loop reads its input so).
pub fn next_input<R: BufRead>(input: &mut R, buf: &mut Vec<u8>) -> Input {
    match read_line(input, buf, MAX_LINE) {
        Ok(Some(total)) if total > MAX_LINE => {
            Input::Line(Err(LineError::TooLong { bytes: total }))
        }
        Ok(Some(_)) => Input::Line(decode(buf)),
        Ok(None) | Err(_) => Input::Eof,
    }
}

/// The text of a line without its terminator.
fn decode(bytes: &[u8]) -> Result<String, LineError> {
    let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    // A byte-order mark, as some Windows tools write before their first line.
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(s) => Ok(s.to_string()),
        Err(e) => Err(LineError::InvalidUtf8 {
            column: e.valid_up_to() + 1,
        }),
    }
}

/// Reads one line into `buf` (cleared first), keeping at most `cap` bytes of it. Returns the
/// line's full length in bytes (without `\n`), or `None` at the end of the input. A last line
/// without a terminator is still a line.
pub fn read_line<R: BufRead>(
    input: &mut R,
    buf: &mut Vec<u8>,
    cap: usize,
) -> io::Result<Option<usize>> {
    buf.clear();
    let mut total = 0usize;
    let mut any = false;
    loop {
        let available = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(any.then_some(total));
        }
        any = true;
        let (chunk, used, end) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (&available[..i], i + 1, true),
            None => (available, available.len(), false),
        };
        let room = cap.saturating_sub(buf.len());
        buf.extend_from_slice(&chunk[..chunk.len().min(room)]);
        total = total.saturating_add(chunk.len());
        input.consume(used);
        if end {
            return Ok(Some(total));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn lines(bytes: &[u8]) -> Vec<Input> {
        let (tx, rx) = unbounded();
        read_all(Cursor::new(bytes.to_vec()), &tx);
        rx.try_iter().collect()
    }

    #[test]
    fn splits_lines_and_ends_with_eof() {
        assert_eq!(
            lines(b"\xef\xbb\xbfhub\r\ninit\n\nping"),
            vec![
                Input::Line(Ok("hub".into())),
                Input::Line(Ok("init".into())),
                Input::Line(Ok("".into())),
                Input::Line(Ok("ping".into())),
                Input::Eof
            ]
        );
        assert_eq!(lines(b""), vec![Input::Eof]);
    }

    #[test]
    fn bad_bytes_and_long_lines_are_errors() {
        let got = lines(b"go \xff\xfe\nping\n");
        assert_eq!(
            got[0],
            Input::Line(Err(LineError::InvalidUtf8 { column: 4 }))
        );
        assert_eq!(got[1], Input::Line(Ok("ping".into())));
        let mut big = vec![b'a'; MAX_LINE + 10];
        big.extend_from_slice(b"\nping\n");
        let got = lines(&big);
        assert_eq!(
            got,
            vec![
                Input::Line(Err(LineError::TooLong {
                    bytes: MAX_LINE + 10
                })),
                Input::Line(Ok("ping".into())),
                Input::Eof
            ]
        );
    }

    #[test]
    fn keeps_at_most_the_cap() {
        let mut input = io::BufReader::with_capacity(3, Cursor::new(b"abcdefgh\nxy".to_vec()));
        let mut buf = Vec::new();
        assert_eq!(read_line(&mut input, &mut buf, 4).unwrap(), Some(8));
        assert_eq!(buf, b"abcd");
        assert_eq!(read_line(&mut input, &mut buf, 4).unwrap(), Some(2));
        assert_eq!(buf, b"xy");
        assert_eq!(read_line(&mut input, &mut buf, 4).unwrap(), None);
    }
}
