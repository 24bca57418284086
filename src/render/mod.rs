//! Pictures: SVG board diagrams ([`board`]) and evaluation plots ([`plot`]), plus a text diagram
//! for terminals.
//!
//! The SVG is written by hand (no dependency): a fixed `viewBox`, plain shapes and text, every
//! text escaped ([`escape`]), so that the output is well-formed XML (tests parse it) and renders
//! the same in browsers and editors.

pub mod board;
pub mod plot;

/// Text escaped for XML content and attribute values.
pub fn escape(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => s.push_str("&amp;"),
            '<' => s.push_str("&lt;"),
            '>' => s.push_str("&gt;"),
            '"' => s.push_str("&quot;"),
            '\'' => s.push_str("&apos;"),
            // Control characters are not allowed in XML 1.0 (other than tab, newline, return).
            c if c.is_control() && !matches!(c, '\t' | '\n' | '\r') => s.push(' '),
            c => s.push(c),
        }
    }
    s
}

/// A number as SVG writes it: at most two decimals, no trailing zeros.
pub(crate) fn num(x: f64) -> String {
    let s = format!("{x:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.into() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_and_numbers() {
        assert_eq!(escape("a<b>&\"'\u{1}"), "a&lt;b&gt;&amp;&quot;&apos; ");
        assert_eq!(num(1.0), "1");
        assert_eq!(num(1.256), "1.26");
        assert_eq!(num(-0.001), "0");
    }
}
