//! The lexical layer of the Hub protocol: a line is `<command> <arg>=<value> <flag> ...`, values
//! optionally in double quotes (required when they hold a blank, `=` or `"`, or are empty).
//!
//! Names are runs of characters that are neither control characters, blanks, `=` nor `"` (as in
//! Scan). There is no escape inside quotes. [`Line::parse`] never panics; a malformed line is a
//! [`SyntaxError`] naming the column and what was expected. [`quote`] writes a value back so that
//! the same rules read it.

use std::fmt;

/// A tokenised line: the command and its arguments in order (`value` is `None` for a flag).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub command: String,
    pub args: Vec<(String, Option<String>)>,
}

/// Why a line could not be tokenised.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SyntaxError {
    /// Nothing but blanks.
    Empty,
    /// A `"` opened at this column is never closed.
    UnterminatedQuote(usize),
    /// A character that cannot start a name or a value here.
    Unexpected { column: usize, found: char },
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SyntaxError::Empty => write!(f, "missing command"),
            SyntaxError::UnterminatedQuote(c) => {
                write!(f, "unterminated quote opened at column {c}")
            }
            SyntaxError::Unexpected { column, found } => {
                write!(f, "unexpected {} at column {column}", describe(*found))
            }
        }
    }
}

impl std::error::Error for SyntaxError {}

fn describe(c: char) -> String {
    if c == '"' {
        "a double quote".to_string()
    } else if c.is_control() {
        format!("control character U+{:04X}", c as u32)
    } else {
        format!("'{c}'")
    }
}

fn is_name_char(c: char) -> bool {
    !c.is_control() && !c.is_whitespace() && c != '=' && c != '"'
}

impl Line {
    /// Tokenises one line (without its line terminator).
    pub fn parse(text: &str) -> Result<Line, SyntaxError> {
        let chars: Vec<char> = text.chars().collect();
        let mut i = 0;
        let skip_blanks = |i: &mut usize| {
            while *i < chars.len() && chars[*i].is_whitespace() {
                *i += 1;
            }
        };
        let name = |i: &mut usize| -> Result<String, SyntaxError> {
            let start = *i;
            while *i < chars.len() && is_name_char(chars[*i]) {
                *i += 1;
            }
            if *i == start {
                return Err(SyntaxError::Unexpected {
                    column: start + 1,
                    found: chars[start],
                });
            }
            Ok(chars[start..*i].iter().collect())
        };
        skip_blanks(&mut i);
        if i == chars.len() {
            return Err(SyntaxError::Empty);
        }
        let command = name(&mut i)?;
        let mut args = Vec::new();
        loop {
            skip_blanks(&mut i);
            if i == chars.len() {
                break;
            }
            let key = name(&mut i)?;
            if i < chars.len() && chars[i] == '=' {
                i += 1;
                let value = if i < chars.len() && chars[i] == '"' {
                    let open = i;
                    i += 1;
                    let start = i;
                    while i < chars.len() && chars[i] != '"' {
                        i += 1;
                    }
                    if i == chars.len() {
                        return Err(SyntaxError::UnterminatedQuote(open + 1));
                    }
                    let v: String = chars[start..i].iter().collect();
                    i += 1;
                    v
                } else {
                    let start = i;
                    while i < chars.len() && is_name_char(chars[i]) {
                        i += 1;
                    }
                    if i < chars.len()
                        && (chars[i] == '=' || chars[i] == '"' || chars[i].is_control())
                    {
                        return Err(SyntaxError::Unexpected {
                            column: i + 1,
                            found: chars[i],
                        });
                    }
                    chars[start..i].iter().collect()
                };
                args.push((key, Some(value)));
            } else {
                args.push((key, None));
            }
        }
        Ok(Line { command, args })
    }

    /// The value of argument `key`, if given with a value.
    pub fn value(&self, key: &str) -> Option<&str> {
        self.args
            .iter()
            .find(|(k, v)| k == key && v.is_some())
            .and_then(|(_, v)| v.as_deref())
    }

    /// Whether `key` is present (as a flag or with a value).
    pub fn has(&self, key: &str) -> bool {
        self.args.iter().any(|(k, _)| k == key)
    }
}

/// A value as the protocol writes it: bare when it is a plain name, quoted otherwise.
pub fn quote(value: &str) -> String {
    if !value.is_empty() && value.chars().all(is_name_char) {
        value.to_string()
    } else {
        // Quotes cannot be escaped; they are replaced so that the line stays readable.
        format!("\"{}\"", value.replace('"', "'"))
    }
}

/// Writes a message: the command then `key=value` pairs (values quoted as needed).
pub fn message(command: &str, args: &[(&str, String)]) -> String {
    let mut s = command.to_string();
    for (k, v) in args {
        s.push(' ');
        s.push_str(k);
        s.push('=');
        s.push_str(&quote(v));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokenises_the_spec_examples() {
        let l = Line::parse("pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww moves=\"38-15 5-41 48-26\"").unwrap();
        assert_eq!(l.command, "pos");
        assert_eq!(l.value("moves"), Some("38-15 5-41 48-26"));
        let l = Line::parse("  level   infinite ").unwrap();
        assert!(l.has("infinite"));
        assert_eq!(l.value("infinite"), None);
        let l = Line::parse("set-param name=variant value=\"\"").unwrap();
        assert_eq!(l.value("value"), Some(""));
        let l = Line::parse("level time=291.587 inc=0").unwrap();
        assert_eq!(l.value("time"), Some("291.587"));
    }

    #[test]
    fn rejects_malformed_lines() {
        assert_eq!(Line::parse(""), Err(SyntaxError::Empty));
        assert_eq!(Line::parse(" \t "), Err(SyntaxError::Empty));
        assert_eq!(
            Line::parse("pos moves=\"1-2"),
            Err(SyntaxError::UnterminatedQuote(11))
        );
        assert!(matches!(
            Line::parse("=x"),
            Err(SyntaxError::Unexpected {
                column: 1,
                found: '='
            })
        ));
        assert!(matches!(
            Line::parse("go a=b=c"),
            Err(SyntaxError::Unexpected { .. })
        ));
        assert!(matches!(
            Line::parse("go a=\u{1}"),
            Err(SyntaxError::Unexpected { .. })
        ));
        assert!(Line::parse("go \"think\"").is_err());
    }

    #[test]
    fn quotes_what_needs_it() {
        assert_eq!(quote("normal"), "normal");
        assert_eq!(quote("Fabien Letouzey"), "\"Fabien Letouzey\"");
        assert_eq!(quote(""), "\"\"");
        assert_eq!(quote("a=b"), "\"a=b\"");
        let m = message(
            "id",
            &[("name", "tiao".into()), ("author", "the tiao team".into())],
        );
        assert_eq!(m, "id name=tiao author=\"the tiao team\"");
        let back = Line::parse(&m).unwrap();
        assert_eq!(back.value("author"), Some("the tiao team"));
    }
}
