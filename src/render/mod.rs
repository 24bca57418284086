//! Pictures: SVG board diagrams ([`board`] for draughts, [`morris`] for Nine Men's Morris) and
//! evaluation plots ([`plot`]), plus a text diagram for terminals.
//!
//! The SVG is written by hand (no dependency): a fixed `viewBox`, plain shapes and text, every
//! text escaped ([`escape`]), so that the output is well-formed XML (tests parse it) and renders
//! the same in browsers and editors.

pub mod board;
pub mod morris;
pub mod plot;

use crate::game::color::Color;

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

/// The last move's colours, the same on every board: its points or squares, its arrow, the cross
/// on what it took.
pub(crate) const HIGHLIGHT: &str = "#f7ec5d";
pub(crate) const ARROW: &str = "#1f6fd1";
pub(crate) const CAPTURE: &str = "#d62020";

/// A man's fill and outline colours, the same on every board.
pub(crate) fn piece_colours(c: Color) -> (&'static str, &'static str) {
    match c {
        Color::White => ("#fbfbf8", "#4a4a4a"),
        Color::Black => ("#262626", "#000000"),
    }
}

/// A man of colour `c`: a disc of radius `r` centred at `(cx, cy)`, outlined `width` wide.
pub(crate) fn man(cx: f64, cy: f64, r: f64, width: f64, c: Color) -> String {
    let (fill, stroke) = piece_colours(c);
    format!(
        "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"{}\"/>\n",
        num(cx),
        num(cy),
        num(r),
        num(width)
    )
}

/// The start of an SVG document of `w` x `h` pixels: the element, its title (escaped), and the
/// arrowhead marker that lines refer to as `url(#arrowhead)`.
pub(crate) fn svg_start(w: f64, h: f64, title: &str) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {} {}\" width=\"{}\" height=\"{}\" font-family=\"sans-serif\">\n<title>{}</title>\n<defs><marker id=\"arrowhead\" viewBox=\"0 0 10 10\" refX=\"6\" refY=\"5\" markerWidth=\"4\" markerHeight=\"4\" orient=\"auto-start-reverse\"><path d=\"M 0 0 L 10 5 L 0 10 z\" fill=\"{ARROW}\"/></marker></defs>\n",
        num(w),
        num(h),
        num(w),
        num(h),
        escape(title)
    )
}

/// A cross (something taken) centred at `(cx, cy)`, `k` from the centre to each end.
pub(crate) fn cross(cx: f64, cy: f64, k: f64, width: f64) -> String {
    format!(
        "<path d=\"M {} {} L {} {} M {} {} L {} {}\" stroke=\"{CAPTURE}\" stroke-width=\"{}\" stroke-linecap=\"round\"/>\n",
        num(cx - k),
        num(cy - k),
        num(cx + k),
        num(cy + k),
        num(cx - k),
        num(cy + k),
        num(cx + k),
        num(cy - k),
        num(width)
    )
}

/// Why a position given to a diagram does not replay, in words.
pub(crate) fn replay_error(e: crate::track::ReplayError) -> String {
    use crate::track::ReplayError;
    match e {
        ReplayError::BadFen { reason, .. } => format!("bad FEN: {reason}"),
        ReplayError::BadMove { ply, text, reason } => {
            format!("move {} ('{text}'): {reason}", ply + 1)
        }
    }
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
