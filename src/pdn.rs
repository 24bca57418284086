//! PDN games (Portable Draughts Notation, PDN 3.0): reading and writing whole games.
//!
//! This layer is textual: a [`PdnGame`] holds the tags, the moves as written, their comments and
//! marks, and the result; it knows no rules. [`replay`] then matches the moves against the legal
//! moves of a [`Game`], from the `FEN` tag or the start position, and says which move is wrong
//! (the crate's one replay, [`GameTrack::replay`]).
//!
//! Reading ([`parse`]) accepts what other tools write:
//! - tags `[Name "value"]` (`\"` and `\\` escapes), several games in one text;
//! - move numbers `1.`, `1...`, `12.32-28` (glued to the move), in any amount or none;
//! - comments `{...}` (several lines) and `;` to the end of the line, `%` escape lines;
//! - variations `(...)`, nested, skipped;
//! - NAGs `$n` and strength marks (`!`, `?`, `!!`, `??`, `!?`, `?!`, glued or apart);
//! - results `2-0 1-1 0-2 1-0 0-1 1/2-1/2 0-0 *` ending a game, a new `[` tag also starting one;
//! - moves in any square form (`32-28`, `28x19`, `c3:e5`, `a3b4`, long captures): a move is any
//!   other word, checked only by [`replay`].
//!
//! Writing ([`write()`]) gives the tags in their order, then the move text with move numbers
//! (`1. 32-28 19-23`, or `1... 19-23` when the second player starts, and again after a comment),
//! strength marks glued to the move, comments `{...}`, the result, lines wrapped at 80 columns.
//!
//! Variants: [`game_type`] is the `GameType` tag of a variant (20 international, 21 english, 25
//! russian, 26 brazilian, in the PDN 3.0 long form; duoyibu has no PDN number: tiao writes 42, the
//! first number after PDN 3.0's last draughts type 41, with a `Variant` tag), and
//! [`PdnGame::variant`] reads them back. Results: [`result_text`] (`2-0 1-1 0-2` for
//! international, `1-0 1/2-1/2 0-1` for the rest; the first number is White's).
//!
//! Invariant: [`parse`] never panics; on malformed text it returns a [`PdnError`] naming the line.
//! `parse(write(g)) == g` for every game whose comments hold no `}` (tested).

use crate::game::Game;
use crate::game::Variant;
use crate::game::color::Color;
use crate::track::GameTrack;
pub use crate::track::ReplayError;
use std::fmt;

/// A move as written in a game, with its marks and the comments after it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PdnMove {
    /// The move text, without strength marks (`32-28`, `28x19`, `c3:e5`).
    pub text: String,
    /// Numeric annotation glyph: 1 `!`, 2 `?`, 3 `!!`, 4 `??`, 5 `!?`, 6 `?!`, others `$n`.
    pub nag: Option<u16>,
    /// Comments written after the move (without braces).
    pub comments: Vec<String>,
}

impl PdnMove {
    /// A move without marks or comments.
    pub fn new(text: impl Into<String>) -> PdnMove {
        PdnMove {
            text: text.into(),
            ..PdnMove::default()
        }
    }
}

/// One game: tags, an optional comment before the first move, moves and result.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PdnGame {
    /// Tags in the order read or to be written.
    pub tags: Vec<(String, String)>,
    /// Comments before the first move.
    pub intro: Vec<String>,
    /// The main line.
    pub moves: Vec<PdnMove>,
    /// The result that ends the move text (`2-0`, `1/2-1/2`, `*` ...), if any.
    pub result: Option<String>,
}

/// Why a PDN text could not be read, with the 1-based line where the problem starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PdnError {
    /// A tag without its closing `]` or without a quoted value.
    BadTag { line: usize, text: String },
    /// A `{` comment that is never closed.
    UnterminatedComment { line: usize },
    /// A `(` variation that is never closed, or a `)` without one.
    UnbalancedVariation { line: usize },
    /// A `"` string that is never closed.
    UnterminatedString { line: usize },
}

impl fmt::Display for PdnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PdnError::BadTag { line, text } => {
                write!(
                    f,
                    "line {line}: bad tag '{text}' (expected [Name \"value\"])"
                )
            }
            PdnError::UnterminatedComment { line } => {
                write!(f, "line {line}: comment '{{' is never closed")
            }
            PdnError::UnbalancedVariation { line } => {
                write!(f, "line {line}: unbalanced variation parentheses")
            }
            PdnError::UnterminatedString { line } => {
                write!(f, "line {line}: string is never closed")
            }
        }
    }
}

impl std::error::Error for PdnError {}

/// The comment `tiao match` writes after the last move of a game's opening (the moves it did not
/// choose); tools that learn from the games start after it.
pub const END_OF_OPENING: &str = "end of opening";

/// The result tokens that end a game's move text.
pub const RESULTS: [&str; 8] = ["2-0", "0-2", "1-1", "1-0", "0-1", "1/2-1/2", "0-0", "*"];

impl PdnGame {
    /// The value of a tag (names compared without case).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag, replacing its value if present, else appending it.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self
            .tags
            .iter_mut()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
        {
            Some((_, v)) => *v = value,
            None => self.tags.push((name.to_string(), value)),
        }
    }

    /// The plies of the game's opening: those up to the move marked [`END_OF_OPENING`], or 0.
    pub fn opening_plies(&self) -> usize {
        self.moves
            .iter()
            .position(|m| m.comments.iter().any(|c| c == END_OF_OPENING))
            .map_or(0, |i| i + 1)
    }

    /// The starting FEN, if the game does not start from the variant's start position.
    pub fn fen(&self) -> Option<&str> {
        self.tag("FEN").map(str::trim).filter(|f| !f.is_empty())
    }

    /// The variant named by a `Variant` tag, else by the `GameType` tag; `None` if neither says.
    pub fn variant(&self) -> Option<Result<Variant, String>> {
        if let Some(v) = self.tag("Variant") {
            return Some(v.parse::<Variant>().map_err(|e| e.to_string()));
        }
        let gt = self.tag("GameType")?;
        let number = gt.split(',').next().unwrap_or("").trim();
        Some(match number {
            "20" => Ok(Variant::International),
            "21" => Ok(Variant::English),
            "25" => Ok(Variant::Russian),
            "26" => Ok(Variant::Brazilian),
            "42" => Ok(Variant::Duoyibu),
            other => Err(format!("GameType {other} is not a game tiao plays")),
        })
    }
}

/// Today's date as PDN writes it (`YYYY.MM.DD`, UTC).
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (counted in 400-year eras that
/// start on March 1st, so that the leap day ends a year).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// The `GameType` tag value of a variant (PDN 3.0 long form); `None` for Morris.
pub fn game_type(variant: Variant) -> Option<&'static str> {
    match variant {
        Variant::International => Some("20,W,10,10,N2,0"),
        Variant::English => Some("21,B,8,8,N1,0"),
        Variant::Russian => Some("25,W,8,8,A0,0"),
        Variant::Brazilian => Some("26,W,8,8,A0,0"),
        Variant::Duoyibu => Some("42,W,8,8,A0,0"),
        Variant::Morris => None,
    }
}

/// A game's result text: `white` is White's score (1 win, 0.5 draw, 0 loss), `None` unknown.
pub fn result_text(variant: Variant, white: Option<f64>) -> &'static str {
    let international = variant == Variant::International;
    match white {
        None => "*",
        Some(s) if s > 0.75 => {
            if international {
                "2-0"
            } else {
                "1-0"
            }
        }
        Some(s) if s < 0.25 => {
            if international {
                "0-2"
            } else {
                "0-1"
            }
        }
        Some(_) => {
            if international {
                "1-1"
            } else {
                "1/2-1/2"
            }
        }
    }
}

/// White's score in a result text (1, 0.5 or 0), `None` for `*`, `0-0` and anything else.
pub fn result_score(text: &str) -> Option<f64> {
    match text.trim() {
        "2-0" | "1-0" => Some(1.0),
        "1-1" | "1/2-1/2" => Some(0.5),
        "0-2" | "0-1" => Some(0.0),
        _ => None,
    }
}

/// Strength marks and their NAG numbers.
const MARKS: [(&str, u16); 6] = [
    ("!!", 3),
    ("??", 4),
    ("!?", 5),
    ("?!", 6),
    ("!", 1),
    ("?", 2),
];

fn mark_of(nag: u16) -> Option<&'static str> {
    MARKS.iter().find(|(_, n)| *n == nag).map(|(m, _)| *m)
}

fn nag_of_mark(mark: &str) -> Option<u16> {
    MARKS.iter().find(|(m, _)| *m == mark).map(|(_, n)| *n)
}

/// Reads every game of a PDN text.
pub fn parse(text: &str) -> Result<Vec<PdnGame>, PdnError> {
    Reader::new(text).games()
}

struct Reader<'a> {
    chars: Vec<char>,
    i: usize,
    line: usize,
    _text: &'a str,
}

impl<'a> Reader<'a> {
    fn new(text: &'a str) -> Self {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        Reader {
            chars: text.chars().collect(),
            i: 0,
            line: 1,
            _text: text,
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.i).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.i += 1;
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn at_line_start(&self) -> bool {
        self.i == 0 || self.chars[self.i - 1] == '\n'
    }

    fn skip_to_eol(&mut self) {
        while let Some(c) = self.peek() {
            if c == '\n' {
                break;
            }
            self.bump();
        }
    }

    fn games(&mut self) -> Result<Vec<PdnGame>, PdnError> {
        let mut games = Vec::new();
        let mut game = PdnGame::default();
        let mut in_moves = false;
        while let Some(c) = self.peek() {
            if c == '%' && self.at_line_start() {
                self.skip_to_eol();
                continue;
            }
            match c {
                c if c.is_whitespace() => {
                    self.bump();
                }
                '[' => {
                    if in_moves {
                        // A tag after move text starts the next game (no result written).
                        games.push(std::mem::take(&mut game));
                        in_moves = false;
                    }
                    let (k, v) = self.tag()?;
                    game.tags.push((k, v));
                }
                '{' => {
                    let comment = self.comment()?;
                    match game.moves.last_mut() {
                        Some(m) => m.comments.push(comment),
                        None => game.intro.push(comment),
                    }
                    in_moves = true;
                }
                ';' => {
                    self.bump();
                    let start = self.i;
                    self.skip_to_eol();
                    let comment: String = self.chars[start..self.i].iter().collect();
                    let comment = comment.trim().to_string();
                    match game.moves.last_mut() {
                        Some(m) => m.comments.push(comment),
                        None => game.intro.push(comment),
                    }
                    in_moves = true;
                }
                '(' => {
                    self.variation()?;
                    in_moves = true;
                }
                ')' => return Err(PdnError::UnbalancedVariation { line: self.line }),
                '/' => {
                    // A PDN setup `/.../`: skipped.
                    self.bump();
                    while let Some(c) = self.bump() {
                        if c == '/' {
                            break;
                        }
                    }
                }
                _ => {
                    let word = self.word();
                    in_moves = true;
                    if self.word_into(&word, &mut game) {
                        games.push(std::mem::take(&mut game));
                        in_moves = false;
                    }
                }
            }
        }
        if in_moves || !game.tags.is_empty() {
            games.push(game);
        }
        Ok(games)
    }

    /// Handles one word of move text; returns true when it is a result (the game ends).
    fn word_into(&mut self, word: &str, game: &mut PdnGame) -> bool {
        if RESULTS.contains(&word) {
            game.result = Some(word.to_string());
            return true;
        }
        if let Some(n) = word.strip_prefix('$') {
            if let (Ok(n), Some(m)) = (n.parse::<u16>(), game.moves.last_mut()) {
                m.nag = Some(n);
            }
            return false;
        }
        if let Some(n) = nag_of_mark(word) {
            if let Some(m) = game.moves.last_mut() {
                m.nag = Some(n);
            }
            return false;
        }
        // Move number: digits then one or more dots, possibly glued to the move.
        let digits = word.bytes().take_while(u8::is_ascii_digit).count();
        let rest = &word[digits..];
        let after_dots = rest.trim_start_matches('.');
        let word = if digits > 0 && after_dots.len() < rest.len() {
            after_dots
        } else {
            word
        };
        // Ellipsis alone (`...`) or a bare number: nothing.
        if word.is_empty() || word.chars().all(|c| c == '.') {
            return false;
        }
        let body = word.trim_end_matches(['!', '?']);
        let marks = &word[body.len()..];
        if body.is_empty() {
            return false;
        }
        game.moves.push(PdnMove {
            text: body.to_string(),
            nag: nag_of_mark(marks),
            comments: Vec::new(),
        });
        false
    }

    fn word(&mut self) -> String {
        let mut w = String::new();
        while let Some(c) = self.peek() {
            if c.is_whitespace() || matches!(c, '{' | '}' | '(' | ')' | '[' | ']' | ';' | '"') {
                break;
            }
            w.push(c);
            self.bump();
        }
        if w.is_empty() {
            // A lone special character that starts nothing ('}', ']', '"'): skip it.
            self.bump();
        }
        w
    }

    fn tag(&mut self) -> Result<(String, String), PdnError> {
        let line = self.line;
        let start = self.i;
        self.bump(); // '['
        let bad = |r: &Self| PdnError::BadTag {
            line,
            text: r.chars[start..r.i.min(r.chars.len())]
                .iter()
                .take(60)
                .collect::<String>()
                .trim()
                .to_string(),
        };
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
        let mut name = String::new();
        while let Some(c) = self.peek() {
            if c.is_alphanumeric() || c == '_' || c == '-' {
                name.push(c);
                self.bump();
            } else {
                break;
            }
        }
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
        if name.is_empty() || self.peek() != Some('"') {
            self.skip_to_eol();
            return Err(bad(self));
        }
        self.bump();
        let mut value = String::new();
        loop {
            match self.bump() {
                None => return Err(PdnError::UnterminatedString { line }),
                Some('\\') => match self.bump() {
                    Some(c) => value.push(c),
                    None => return Err(PdnError::UnterminatedString { line }),
                },
                Some('"') => break,
                Some('\n') => return Err(PdnError::UnterminatedString { line }),
                Some(c) => value.push(c),
            }
        }
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
        if self.peek() != Some(']') {
            self.skip_to_eol();
            return Err(bad(self));
        }
        self.bump();
        Ok((name, value))
    }

    fn comment(&mut self) -> Result<String, PdnError> {
        let line = self.line;
        self.bump(); // '{'
        let mut s = String::new();
        loop {
            match self.bump() {
                None => return Err(PdnError::UnterminatedComment { line }),
                Some('}') => break,
                Some(c) => s.push(c),
            }
        }
        Ok(s.split_whitespace().collect::<Vec<_>>().join(" "))
    }

    fn variation(&mut self) -> Result<(), PdnError> {
        let line = self.line;
        let mut depth = 0usize;
        while let Some(c) = self.peek() {
            match c {
                '(' => {
                    depth += 1;
                    self.bump();
                }
                ')' => {
                    depth -= 1;
                    self.bump();
                    if depth == 0 {
                        return Ok(());
                    }
                }
                '{' => {
                    self.comment()?;
                }
                _ => {
                    self.bump();
                }
            }
        }
        Err(PdnError::UnbalancedVariation { line })
    }
}

/// How a tag value is written: quotes and backslashes escaped, line breaks as blanks.
fn escape(value: &str) -> String {
    value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace(['\n', '\r'], " ")
}

/// Writes one game. `first` is the colour that moves first in the variant (White, or Black in
/// english), `side` the side to move at the game's start; they set the move numbers.
pub fn write(game: &PdnGame, first: Color, side: Color) -> String {
    let mut out = String::new();
    for (k, v) in &game.tags {
        out.push_str(&format!("[{k} \"{}\"]\n", escape(v)));
    }
    out.push('\n');
    let mut tokens: Vec<String> = Vec::new();
    for c in &game.intro {
        tokens.push(format!("{{{}}}", comment_text(c)));
    }
    // Plies are counted so that ply 0 is a move of the first player.
    let offset = usize::from(side != first);
    let mut after_comment = !game.intro.is_empty();
    for (i, m) in game.moves.iter().enumerate() {
        let ply = i + offset;
        let number = ply / 2 + 1;
        if ply.is_multiple_of(2) {
            tokens.push(format!("{number}."));
        } else if i == 0 || after_comment {
            tokens.push(format!("{number}..."));
        }
        let mark = match m.nag {
            Some(n) => match mark_of(n) {
                Some(mark) => mark.to_string(),
                None => format!(" ${n}"),
            },
            None => String::new(),
        };
        tokens.push(format!("{}{mark}", m.text));
        for c in &m.comments {
            tokens.push(format!("{{{}}}", comment_text(c)));
        }
        after_comment = !m.comments.is_empty();
    }
    tokens.push(game.result.clone().unwrap_or_else(|| "*".to_string()));
    let mut line_len = 0;
    for t in tokens {
        // A comment may hold blanks; it is wrapped as a whole when it fits on a line.
        if line_len > 0 && line_len + 1 + t.len() > 80 {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(&t);
        line_len += t.len();
    }
    out.push_str("\n\n");
    out
}

/// A comment's text as written between braces (a `}` would end it: replaced by `)`).
fn comment_text(c: &str) -> String {
    c.replace('}', ")").replace('{', "(")
}

/// Replays a game under `G`'s rules (by [`GameTrack::replay`]): the start position (the `FEN`
/// tag, or the game's start) and the legal move of every ply.
pub fn replay<G: Game>(game: &PdnGame) -> Result<(G, Vec<G::Move>), ReplayError> {
    let track = GameTrack::<G>::replay(game.fen(), game.moves.iter().map(|m| m.text.as_str()))?;
    Ok((*track.start(), track.moves().to_vec()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::position::Position;
    use crate::draughts::rules::{English, International, Russian};

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(civil_from_days(20_088), (2024, 12, 31));
        assert_eq!(civil_from_days(20_089), (2025, 1, 1));
        assert_eq!(today().len(), 10);
    }

    const SAMPLE: &str = r#"[Event "Test \"quoted\""]
[White "A"]
[Black "B"]
[Result "2-0"]
[GameType "20"]

1. 32-28 19-23 2. 28x19 14x23 {a comment
over two lines} 3. 37-32! (3. 33-28 23x32 (3... 10-14) 37x28) 3... 10-14 $2 4.34-30?!
; rest of line
4... 5-10 2-0

[Event "Second"]
1. 33-29 *
"#;

    #[test]
    fn reads_tags_moves_comments_variations_marks() {
        let games = parse(SAMPLE).unwrap();
        assert_eq!(games.len(), 2);
        let g = &games[0];
        assert_eq!(g.tag("event"), Some("Test \"quoted\""));
        assert_eq!(g.variant(), Some(Ok(Variant::International)));
        let texts: Vec<&str> = g.moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "32-28", "19-23", "28x19", "14x23", "37-32", "10-14", "34-30", "5-10"
            ]
        );
        assert_eq!(g.moves[3].comments, ["a comment over two lines"]);
        assert_eq!(g.moves[4].nag, Some(1));
        assert_eq!(g.moves[5].nag, Some(2));
        assert_eq!(g.moves[6].nag, Some(6));
        assert_eq!(g.moves[6].comments, ["rest of line"]);
        assert_eq!(g.result.as_deref(), Some("2-0"));
        assert_eq!(games[1].moves.len(), 1);
        assert_eq!(games[1].result.as_deref(), Some("*"));
        let (start, moves) = replay::<Position<International>>(g).unwrap();
        assert_eq!(start, Position::start());
        assert_eq!(moves.len(), 8);
    }

    #[test]
    fn round_trip() {
        for g in parse(SAMPLE).unwrap() {
            let text = write(&g, Color::White, Color::White);
            let back = parse(&text).unwrap();
            assert_eq!(back, vec![g.clone()], "{text}");
        }
    }

    #[test]
    fn games_without_results_or_tags() {
        let games = parse("1. 11-15 23-19\n[Event \"x\"]\n1. 9-13 *").unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].result, None);
        assert_eq!(games[1].tag("Event"), Some("x"));
        let (_, m) = replay::<Position<English>>(&games[0]).unwrap();
        assert_eq!(m.len(), 2);
    }

    #[test]
    fn errors_name_the_line() {
        assert_eq!(
            parse("1. 32-28 {oops").unwrap_err(),
            PdnError::UnterminatedComment { line: 1 }
        );
        assert!(matches!(
            parse("\n[Event x]").unwrap_err(),
            PdnError::BadTag { line: 2, .. }
        ));
        assert!(matches!(
            parse("1. 32-28 (19-23").unwrap_err(),
            PdnError::UnbalancedVariation { .. }
        ));
        assert!(parse(")").is_err());
        assert!(parse("[Event \"x").is_err());
    }

    #[test]
    fn replay_reports_the_bad_ply() {
        let g = &parse("1. 32-28 19-23 2. 28-22").unwrap()[0];
        let e = replay::<Position<International>>(g).unwrap_err();
        assert!(matches!(e, ReplayError::BadMove { ply: 2, .. }), "{e}");
    }

    #[test]
    fn fen_tag_and_algebraic_moves() {
        let text = "[GameType \"25\"]\n[SetUp \"1\"]\n[FEN \"B:Wc3:Bd4,f6\"]\n1... d4:b2 1-0";
        let g = &parse(text).unwrap()[0];
        assert_eq!(g.variant(), Some(Ok(Variant::Russian)));
        let (start, moves) = replay::<Position<Russian>>(g).unwrap();
        assert_eq!(start.side(), Color::Black);
        assert_eq!(moves.len(), 1);
        let written = write(g, Color::White, Color::Black);
        assert!(written.contains("1... d4:b2 1-0"), "{written}");
    }

    #[test]
    fn results() {
        assert_eq!(result_text(Variant::International, Some(1.0)), "2-0");
        assert_eq!(result_text(Variant::International, Some(0.5)), "1-1");
        assert_eq!(result_text(Variant::English, Some(0.0)), "0-1");
        assert_eq!(result_text(Variant::Russian, Some(0.5)), "1/2-1/2");
        assert_eq!(result_text(Variant::Russian, None), "*");
        for r in RESULTS {
            if let Some(s) = result_score(r) {
                assert_eq!(
                    result_score(result_text(Variant::International, Some(s))),
                    Some(s)
                );
            }
        }
    }
}
