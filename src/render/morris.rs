//! Board diagrams of Nine Men's Morris positions, as SVG or text (`tiao board -v morris`).
//!
//! [`diagram`] replays a position (position string, moves played from it) into a
//! [`MorrisDiagram`]: the man on each of the 24 points, the men in hand, the side to move and the
//! last move (its origin, its point, the man it removed). [`svg`] draws the three squares and their
//! four joining lines on a 7x7 grid (files a-g, ranks 1-7, as the points are named), men as discs,
//! the last move's points highlighted with an arrow for a step and a cross on a removed man, and
//! the men in hand beside the board; [`text`] is the diagram `MorrisPosition` displays, with the
//! last move. Colours and sizes follow the draughts diagrams (`render::board`).

use super::board::Style;
use super::{ARROW, HIGHLIGHT, cross, num, svg_start};
use crate::game::Game;
use crate::game::color::Color;
use crate::morris::board::{self, NAMES, POINTS};
use crate::morris::{MorrisPosition, Move};
use crate::track::GameTrack;

/// The last move, by points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MorrisLast {
    /// Where the man came from (`None`: placed from the hand).
    pub from: Option<u8>,
    pub to: u8,
    /// The man removed (a mill was closed).
    pub removed: Option<u8>,
    /// The move as tiao writes it (`d6`, `a1-a4`, `d6xa4`).
    pub text: String,
}

/// A Morris position ready to draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MorrisDiagram {
    /// The man on each point (by bit, see `morris::board`).
    pub points: [Option<Color>; POINTS],
    /// Men still in hand: White's, Black's.
    pub in_hand: [u8; 2],
    pub side_to_move: Color,
    pub last_move: Option<MorrisLast>,
    /// The position string, for the title and the text.
    pub fen: String,
    /// The text diagram of the position (its `Display`).
    pub picture: String,
}

/// The diagram of `fen` (the start when `None`) after `moves`, the last of them marked.
pub fn diagram(fen: Option<&str>, moves: &[&str]) -> Result<MorrisDiagram, String> {
    let track = GameTrack::<MorrisPosition>::replay(fen, moves.iter().copied())
        .map_err(super::replay_error)?;
    let pos = *track.position();
    let before = track.positions().iter().rev().nth(1);
    let last_move =
        before
            .zip(track.moves().last())
            .map(|(before, m): (&MorrisPosition, &Move)| MorrisLast {
                from: m.from(),
                to: m.to(),
                removed: m.removal(),
                text: before.move_to_pdn(m),
            });
    let mut points = [None; POINTS];
    for (p, slot) in points.iter_mut().enumerate() {
        let bit = board::bit(p as u8);
        *slot = [Color::White, Color::Black]
            .into_iter()
            .find(|&c| pos.pieces(c) & bit != 0);
    }
    Ok(MorrisDiagram {
        points,
        in_hand: [pos.in_hand(Color::White), pos.in_hand(Color::Black)],
        side_to_move: pos.side(),
        last_move,
        fen: pos.fen(),
        picture: pos.to_string(),
    })
}

/// The text diagram: the board (`W`, `B`, `.`), the position string, the men in hand and the last
/// move.
pub fn text(d: &MorrisDiagram) -> String {
    let mut out = d.picture.clone();
    out.push('\n');
    out.push_str(&format!(
        "in hand: White {}, Black {}; {} to move\n",
        d.in_hand[0],
        d.in_hand[1],
        side_name(d.side_to_move)
    ));
    if let Some(m) = &d.last_move {
        out.push_str(&format!("last move {}\n", m.text));
    }
    out
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// File (a = 0) and rank (1 = 0) of a point on the 7x7 grid.
fn coords(p: u8) -> (u32, u32) {
    let name = NAMES[p as usize].as_bytes();
    ((name[0] - b'a') as u32, (name[1] - b'1') as u32)
}

const BOARD: &str = "#e8cfa0";
const LINE: &str = "#5a3d22";

/// The diagram as an SVG document. `style.square` is the distance between two neighbouring grid
/// lines.
pub fn svg(d: &MorrisDiagram, style: &Style) -> String {
    let s = style.square;
    let margin = if style.coordinates { 0.6 * s } else { 0.0 };
    // The board is 7 cells wide; a column on the right holds the men in hand.
    let (w, h) = (margin + 8.5 * s, 7.0 * s + margin);
    let centre = |p: u8| -> (f64, f64) {
        let (f, r) = coords(p);
        let (col, row) = if style.flip { (6 - f, r) } else { (f, 6 - r) };
        (margin + (col as f64 + 0.5) * s, (row as f64 + 0.5) * s)
    };
    let title = format!(
        "Nine Men's Morris {}; {} to move",
        d.fen,
        side_name(d.side_to_move)
    );
    let mut out = svg_start(w, h, &title);
    out.push_str(&format!(
        "<rect x=\"{}\" y=\"0\" width=\"{}\" height=\"{}\" fill=\"{BOARD}\"/>\n",
        num(margin),
        num(7.0 * s),
        num(7.0 * s)
    ));
    // The lines: every pair of adjacent points, once.
    for p in 0..POINTS as u8 {
        for q in board::points(board::ADJACENT[p as usize]) {
            if q > p {
                let ((x1, y1), (x2, y2)) = (centre(p), centre(q));
                out.push_str(&format!(
                    "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{LINE}\" stroke-width=\"{}\"/>\n",
                    num(x1),
                    num(y1),
                    num(x2),
                    num(y2),
                    num(0.06 * s)
                ));
            }
        }
    }
    if let Some(m) = &d.last_move {
        for p in m.from.into_iter().chain([m.to]) {
            let (x, y) = centre(p);
            out.push_str(&format!(
                "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{HIGHLIGHT}\" fill-opacity=\"0.8\"/>\n",
                num(x),
                num(y),
                num(0.45 * s)
            ));
        }
    }
    for p in 0..POINTS as u8 {
        let (x, y) = centre(p);
        match d.points[p as usize] {
            None => out.push_str(&format!(
                "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{LINE}\"/>\n",
                num(x),
                num(y),
                num(0.1 * s)
            )),
            Some(c) => out.push_str(&man(x, y, s, c)),
        }
    }
    if style.coordinates {
        let font = 0.3 * s;
        for i in 0..7u32 {
            let col = if style.flip { 6 - i } else { i };
            out.push_str(&format!(
                "<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"middle\" fill=\"#333\">{}</text>\n",
                num(margin + (col as f64 + 0.5) * s),
                num(7.0 * s + 0.45 * s),
                num(font),
                (b'a' + i as u8) as char
            ));
            let row = if style.flip { i } else { 6 - i };
            out.push_str(&format!(
                "<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"middle\" fill=\"#333\">{}</text>\n",
                num(margin / 2.0),
                num((row as f64 + 0.5) * s + 0.35 * font),
                num(font),
                i + 1
            ));
        }
    }
    if let Some(m) = &d.last_move {
        if let Some(from) = m.from {
            let ((x1, y1), (x2, y2)) = (centre(from), centre(m.to));
            // Stop short of the point, so that the arrowhead does not cover the man.
            let k = 0.3 * s / ((x2 - x1).hypot(y2 - y1)).max(1e-9);
            out.push_str(&format!(
                "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{ARROW}\" stroke-width=\"{}\" stroke-opacity=\"0.85\" marker-end=\"url(#arrowhead)\"/>\n",
                num(x1),
                num(y1),
                num(x2 - (x2 - x1) * k),
                num(y2 - (y2 - y1) * k),
                num(0.1 * s)
            ));
        }
        if let Some(r) = m.removed {
            let (cx, cy) = centre(r);
            out.push_str(&cross(cx, cy, 0.25 * s, 0.08 * s));
        }
    }
    // The men in hand, stacked on the right: Black's at the top, White's at the bottom (the other
    // way round when flipped).
    for (i, c) in [Color::White, Color::Black].into_iter().enumerate() {
        let bottom = (i == 0) != style.flip;
        for k in 0..d.in_hand[i] {
            let y = if bottom {
                7.0 * s - (0.45 + 0.35 * k as f64) * s
            } else {
                (0.45 + 0.35 * k as f64) * s
            };
            out.push_str(&man(margin + 7.9 * s, y, 0.8 * s, c));
        }
    }
    out.push_str("</svg>\n");
    out
}

/// A man of colour `c` centred at `(x, y)`, for points `s` apart.
fn man(x: f64, y: f64, s: f64, c: Color) -> String {
    super::man(x, y, 0.32 * s, 0.04 * s, c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_morris_diagram_has_every_point_and_the_last_move() {
        let d = diagram(None, &["d6", "d2", "b4"]).unwrap();
        assert_eq!(d.points.iter().filter(|p| p.is_some()).count(), 3);
        assert_eq!(d.in_hand, [7, 8]);
        assert_eq!(d.side_to_move, Color::Black);
        let last = d.last_move.as_ref().unwrap();
        assert_eq!((last.from, last.text.as_str()), (None, "b4"));
        let t = text(&d);
        assert!(
            t.contains("in hand: White 7, Black 8; Black to move"),
            "{t}"
        );
        assert!(t.contains("last move b4"), "{t}");
        let svg = svg(&d, &Style::default());
        // 24 points: 21 empty dots, 3 men on the board and 15 in hand.
        assert_eq!(svg.matches("<circle").count(), 21 + 3 + 15 + 1);
        assert_eq!(
            svg.matches("<line").count(),
            32,
            "the 32 lines of the board"
        );
        assert!(diagram(None, &["d6", "zz"]).unwrap_err().contains("'zz'"));
    }
}
