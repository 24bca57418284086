//! DXP layer 1 over a byte stream (the SOCKET carrier): each message is sent as its 1..127 ASCII
//! characters followed by a NUL byte.
//!
//! TCP delivers bytes, not messages: one read may hold part of a message, or several messages.
//! [`Deframer`] rebuilds the messages from whatever the reads return. Its invariants:
//! - a frame is delivered only once its NUL has arrived, and every complete frame is delivered,
//!   in order, however the bytes were split;
//! - a frame of more than [`MAX_LEN`] bytes is reported once as [`FrameError::TooLong`] as soon
//!   as its 128th byte arrives, and the bytes up to the next NUL are dropped (the stream
//!   resynchronises on the next NUL);
//! - a frame holding a byte outside ASCII 1..127 is reported as [`FrameError::NotAscii`];
//! - an empty frame (two NULs in a row) is reported as [`FrameError::Empty`], which the session
//!   ignores.
//!
//! [`FrameReader`] runs a [`Deframer`] over any [`Read`], and stamps each frame with the moment
//! the read that completed it returned ([`FrameReader::arrived`]): frames that came in one read
//! share its stamp however late they are handed on, so a session can tell what the peer sent
//! before it could have seen a message of ours. [`encode`] writes a frame.

use super::message::MAX_LEN;
use std::fmt;
use std::io::{self, Read};
use std::time::Instant;

/// A frame that is not a DXP message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FrameError {
    /// More than [`MAX_LEN`] bytes without a NUL.
    TooLong,
    /// A byte outside ASCII 1..127, at this 0-based offset of the frame.
    NotAscii { byte: u8, offset: usize },
    /// A NUL with nothing before it.
    Empty,
}

impl fmt::Display for FrameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FrameError::TooLong => write!(
                f,
                "more than {MAX_LEN} bytes without a NUL terminator (not a DXP message)"
            ),
            FrameError::NotAscii { byte, offset } => write!(
                f,
                "byte 0x{byte:02x} at offset {offset} is not ASCII 1..127 (not a DXP message)"
            ),
            FrameError::Empty => write!(f, "empty message (a lone NUL)"),
        }
    }
}

impl std::error::Error for FrameError {}

/// Splits a byte stream into NUL-terminated frames.
#[derive(Debug, Default)]
pub struct Deframer {
    buf: Vec<u8>,
    /// Dropping bytes up to the next NUL after a too-long frame.
    skipping: bool,
}

impl Deframer {
    /// A deframer at the start of a stream.
    pub fn new() -> Deframer {
        Deframer::default()
    }

    /// Feeds bytes; every frame they complete goes to `out`, in order.
    pub fn push(&mut self, bytes: &[u8], out: &mut Vec<Result<String, FrameError>>) {
        for &b in bytes {
            if b == 0 {
                if self.skipping {
                    self.skipping = false;
                } else {
                    out.push(Self::frame(&self.buf));
                }
                self.buf.clear();
            } else if !self.skipping {
                self.buf.push(b);
                if self.buf.len() > MAX_LEN {
                    out.push(Err(FrameError::TooLong));
                    self.buf.clear();
                    self.skipping = true;
                }
            }
        }
    }

    /// Bytes received after the last complete frame.
    pub fn pending(&self) -> usize {
        self.buf.len()
    }

    fn frame(bytes: &[u8]) -> Result<String, FrameError> {
        if bytes.is_empty() {
            return Err(FrameError::Empty);
        }
        if let Some(offset) = bytes.iter().position(|&b| b > 127) {
            return Err(FrameError::NotAscii {
                byte: bytes[offset],
                offset,
            });
        }
        // Only ASCII 1..127 is left, which is valid UTF-8.
        String::from_utf8(bytes.to_vec()).map_err(|_| FrameError::NotAscii {
            byte: 0xff,
            offset: 0,
        })
    }
}

/// What [`FrameReader::next_frame`] returns.
#[derive(Debug)]
pub enum Incoming {
    /// A frame's text (NUL removed).
    Frame(String),
    /// A frame that is not a message.
    Bad(FrameError),
    /// The peer closed the stream; `pending` bytes of an unfinished frame were left.
    Closed { pending: usize },
    /// Reading failed.
    Failed(io::Error),
}

/// Reads frames from a stream.
pub struct FrameReader<R: Read> {
    inner: R,
    deframer: Deframer,
    /// Frames read and not yet returned, each with the end of the read that completed it.
    ready: std::collections::VecDeque<(Result<String, FrameError>, Instant)>,
    /// The stamp of the frame last returned (the reader's creation before the first).
    arrived: Instant,
    done: bool,
}

impl<R: Read> FrameReader<R> {
    /// A reader at the start of `inner`.
    pub fn new(inner: R) -> FrameReader<R> {
        FrameReader {
            inner,
            deframer: Deframer::new(),
            ready: Default::default(),
            arrived: Instant::now(),
            done: false,
        }
    }

    /// When the read that completed the frame last returned by [`FrameReader::next_frame`]
    /// returned (the reader's creation before the first frame).
    pub fn arrived(&self) -> Instant {
        self.arrived
    }

    /// The next frame, blocking on the stream as needed. After `Closed` or `Failed`, returns
    /// `Closed` again.
    pub fn next_frame(&mut self) -> Incoming {
        let mut chunk = [0u8; 1024];
        let mut out = Vec::new();
        loop {
            if let Some((f, at)) = self.ready.pop_front() {
                self.arrived = at;
                return match f {
                    Ok(s) => Incoming::Frame(s),
                    Err(e) => Incoming::Bad(e),
                };
            }
            if self.done {
                return Incoming::Closed {
                    pending: self.deframer.pending(),
                };
            }
            match self.inner.read(&mut chunk) {
                Ok(0) => self.done = true,
                Ok(n) => {
                    let at = Instant::now();
                    self.deframer.push(&chunk[..n], &mut out);
                    self.ready.extend(out.drain(..).map(|f| (f, at)));
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.done = true;
                    return Incoming::Failed(e);
                }
            }
        }
    }
}

/// A message as its frame: the text and a NUL.
pub fn encode(text: &str) -> Vec<u8> {
    debug_assert!(!text.is_empty() && text.len() <= MAX_LEN && !text.contains('\0'));
    let mut v = Vec::with_capacity(text.len() + 1);
    v.extend_from_slice(text.as_bytes());
    v.push(0);
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(chunks: &[&[u8]]) -> Vec<Result<String, FrameError>> {
        let mut d = Deframer::new();
        let mut out = Vec::new();
        for c in chunks {
            d.push(c, &mut out);
        }
        out
    }

    #[test]
    fn every_split_of_a_stream_gives_the_same_frames() {
        let stream = b"R01Tornado voor Windows 4.0        W060065A\0M0012061100\0E00\0";
        let want = frames(&[stream]);
        assert_eq!(
            want,
            vec![
                Ok("R01Tornado voor Windows 4.0        W060065A".to_string()),
                Ok("M0012061100".to_string()),
                Ok("E00".to_string()),
            ]
        );
        for i in 0..=stream.len() {
            for j in i..=stream.len() {
                let got = frames(&[&stream[..i], &stream[i..j], &stream[j..]]);
                assert_eq!(got, want, "split at {i} and {j}");
            }
        }
        let bytewise: Vec<&[u8]> = stream.chunks(1).collect();
        assert_eq!(frames(&bytewise), want);
    }

    #[test]
    fn an_unfinished_frame_waits_for_its_nul() {
        let mut d = Deframer::new();
        let mut out = Vec::new();
        d.push(b"M00120611", &mut out);
        assert!(out.is_empty());
        assert_eq!(d.pending(), 9);
        d.push(b"00\0M", &mut out);
        assert_eq!(out, vec![Ok("M0012061100".to_string())]);
        assert_eq!(d.pending(), 1);
    }

    #[test]
    fn too_long_frames_are_reported_once_and_skipped() {
        let mut stream = vec![b'C'; 300];
        stream.push(0);
        stream.extend_from_slice(b"E00\0");
        let got = frames(&[&stream]);
        assert_eq!(got, vec![Err(FrameError::TooLong), Ok("E00".to_string())]);
        // 127 characters is the longest message.
        let mut ok = vec![b'C'; 127];
        ok.push(0);
        assert_eq!(frames(&[&ok]), vec![Ok("C".repeat(127))]);
        let mut long = vec![b'C'; 128];
        long.push(0);
        assert_eq!(frames(&[&long]), vec![Err(FrameError::TooLong)]);
    }

    #[test]
    fn binary_and_empty_frames_are_errors() {
        let got = frames(&[b"\0M00\xff1\0\x01\0"]);
        assert_eq!(
            got,
            vec![
                Err(FrameError::Empty),
                Err(FrameError::NotAscii {
                    byte: 0xff,
                    offset: 3
                }),
                Ok("\x01".to_string()),
            ]
        );
    }

    #[test]
    fn reader_reports_frames_then_close() {
        let data: &[u8] = b"E00\0M0012061100\0M00";
        let mut r = FrameReader::new(data);
        assert!(matches!(r.next_frame(), Incoming::Frame(s) if s == "E00"));
        assert!(matches!(r.next_frame(), Incoming::Frame(s) if s == "M0012061100"));
        assert!(matches!(r.next_frame(), Incoming::Closed { pending: 3 }));
        assert!(matches!(r.next_frame(), Incoming::Closed { .. }));
        assert_eq!(encode("E00"), b"E00\0");
    }

    /// Reads one chunk a call.
    struct Chunks(Vec<&'static [u8]>);

    impl Read for Chunks {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0.is_empty() {
                return Ok(0);
            }
            let c = self.0.remove(0);
            buf[..c.len()].copy_from_slice(c);
            Ok(c.len())
        }
    }

    #[test]
    fn frames_of_one_read_share_its_stamp() {
        let mut r = FrameReader::new(Chunks(vec![b"R01\0M0001192300\0M00", b"01322800\0"]));
        let created = r.arrived();
        assert!(matches!(r.next_frame(), Incoming::Frame(s) if s == "R01"));
        let first = r.arrived();
        assert!(first >= created);
        // Handed on later, stamped as read: with the frame before it.
        std::thread::sleep(std::time::Duration::from_millis(2));
        assert!(matches!(r.next_frame(), Incoming::Frame(s) if s == "M0001192300"));
        assert_eq!(r.arrived(), first);
        // Completed by the next read: its own, later stamp.
        assert!(matches!(r.next_frame(), Incoming::Frame(s) if s == "M0001322800"));
        assert!(r.arrived() > first);
    }
}
