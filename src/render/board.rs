//! Board diagrams of draughts positions, as SVG or text.
//!
//! [`diagram`] reads a position (FEN, moves played from it, replayed by
//! [`GameTrack::replay`]) into a [`Diagram`]: every dark
//! square with its number, algebraic name and piece, and the last move (the path of landing
//! squares and the captured squares). [`svg`] draws it: light and dark squares, men as discs,
//! kings as discs with a crown, coordinates as the variant writes squares (square numbers in the
//! corner of each dark square on 10x10 and english; files and ranks along the edges on russian,
//! brazilian and duoyibu), the last move as highlighted from and to squares, an arrow along its
//! path and a cross on each captured square. [`text`] is the same board in characters.

use super::{ARROW, HIGHLIGHT, cross, escape, man, num, piece_colours, svg_start};
use crate::dispatch;
use crate::draughts::board::Geometry;
use crate::draughts::notation::path::find_path;
use crate::draughts::position::Position;
use crate::draughts::rules::{Rules, SquareNotation};
use crate::game::Game;
use crate::game::color::Color;
use crate::track::GameTrack;
use crate::variant::GameKind;

/// A piece on a square.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    pub color: Color,
    pub king: bool,
}

/// A dark square of the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Square {
    /// 0-based file (a = 0) and rank (1 = 0).
    pub file: u32,
    pub rank: u32,
    /// Square number (RULES.md's numbering).
    pub number: u32,
    /// Algebraic name (`c3`).
    pub name: String,
    pub piece: Option<Piece>,
}

/// The last move: the squares it passed (from, then every landing square) and those it took.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LastMove {
    /// `(file, rank)` of the start and of each landing square.
    pub path: Vec<(u32, u32)>,
    /// `(file, rank)` of each captured piece.
    pub captured: Vec<(u32, u32)>,
    /// The move in PDN form.
    pub text: String,
}

/// A position ready to draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagram {
    /// Files (= ranks): 8 or 10.
    pub size: u32,
    pub squares: Vec<Square>,
    /// Whether the variant writes algebraic squares.
    pub algebraic: bool,
    pub last_move: Option<LastMove>,
    pub side_to_move: Color,
    /// The FEN, for the title.
    pub fen: String,
}

/// How to draw.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Style {
    /// Black at the bottom.
    pub flip: bool,
    /// Square numbers or files and ranks.
    pub coordinates: bool,
    /// Side of a square in pixels.
    pub square: f64,
}

impl Default for Style {
    fn default() -> Self {
        Style {
            flip: false,
            coordinates: true,
            square: 50.0,
        }
    }
}

/// The diagram of the position `fen` (the start when `None`) after `moves`, the last of them
/// marked.
pub fn diagram(kind: GameKind, fen: Option<&str>, moves: &[&str]) -> Result<Diagram, String> {
    dispatch!(kind,
        R => diagram_of::<R>(fen, moves),
        morris => Err("Nine Men's Morris is drawn by render::morris".into()))
}

fn diagram_of<R: Rules>(fen: Option<&str>, moves: &[&str]) -> Result<Diagram, String> {
    let track = GameTrack::<Position<R>>::replay(fen, moves.iter().copied())
        .map_err(super::replay_error)?;
    let pos = *track.position();
    let before = track.positions().iter().rev().nth(1);
    let last = before.zip(track.moves().last()).map(|(before, m)| {
        let coords = |b: u8| R::Board::coords_of_bit(b);
        let mut path = vec![coords(m.from)];
        path.extend(
            find_path(before, m, &[])
                .unwrap_or_else(|| vec![m.to])
                .into_iter()
                .map(coords),
        );
        LastMove {
            path,
            captured: crate::draughts::board::Bits(m.captured)
                .map(coords)
                .collect(),
            text: before.move_to_pdn(m),
        }
    });
    let mut squares = Vec::with_capacity(R::Board::SQUARES);
    for n in 1..=R::Board::SQUARES as u32 {
        let b = R::Board::bit_of_number(n).expect("square number in range");
        let (file, rank) = R::Board::coords_of_bit(b);
        let bit = 1u64 << b;
        let piece = [Color::White, Color::Black]
            .into_iter()
            .find(|&c| pos.pieces(c) & bit != 0)
            .map(|color| Piece {
                color,
                king: pos.kings() & bit != 0,
            });
        squares.push(Square {
            file,
            rank,
            number: n,
            name: R::Board::algebraic(b),
            piece,
        });
    }
    Ok(Diagram {
        size: R::Board::SIZE,
        squares,
        algebraic: R::NOTATION == SquareNotation::Algebraic,
        last_move: last,
        side_to_move: pos.side(),
        fen: pos.fen(),
    })
}

const LIGHT: &str = "#f0d9b5";
const DARK: &str = "#b58863";

/// The diagram as an SVG document.
pub fn svg(d: &Diagram, style: &Style) -> String {
    let s = style.square;
    let n = d.size as f64;
    let margin = if style.coordinates && d.algebraic {
        0.5 * s
    } else {
        0.0
    };
    let (w, h) = (margin + n * s, n * s + margin);
    // Top-left corner of a square on the picture.
    let corner = |file: u32, rank: u32| -> (f64, f64) {
        let (col, row) = if style.flip {
            (d.size - 1 - file, rank)
        } else {
            (file, d.size - 1 - rank)
        };
        (margin + col as f64 * s, row as f64 * s)
    };
    let centre = |file: u32, rank: u32| {
        let (x, y) = corner(file, rank);
        (x + s / 2.0, y + s / 2.0)
    };
    let to_move = match d.side_to_move {
        Color::White => "White",
        Color::Black => "Black",
    };
    let mut out = svg_start(w, h, &format!("{}; {to_move} to move", d.fen));
    // The light squares as one background, then the dark ones.
    out.push_str(&format!(
        "<rect x=\"{}\" y=\"0\" width=\"{}\" height=\"{}\" fill=\"{LIGHT}\"/>\n",
        num(margin),
        num(n * s),
        num(n * s)
    ));
    for sq in &d.squares {
        let (x, y) = corner(sq.file, sq.rank);
        out.push_str(&format!(
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{DARK}\"/>\n",
            num(x),
            num(y),
            num(s),
            num(s)
        ));
    }
    if let Some(m) = &d.last_move {
        for &(f, r) in [m.path.first(), m.path.last()].into_iter().flatten() {
            let (x, y) = corner(f, r);
            out.push_str(&format!(
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{HIGHLIGHT}\" fill-opacity=\"0.55\"/>\n",
                num(x),
                num(y),
                num(s),
                num(s)
            ));
        }
    }
    if style.coordinates && d.algebraic {
        let font = 0.22 * s;
        {
            for i in 0..d.size {
                let (x, _) = corner(i, 0);
                out.push_str(&format!(
                    "<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"middle\" fill=\"#333\">{}</text>\n",
                    num(x + s / 2.0),
                    num(n * s + 0.35 * s),
                    num(1.4 * font),
                    (b'a' + i as u8) as char
                ));
                let (_, y) = corner(0, i);
                out.push_str(&format!(
                    "<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"middle\" fill=\"#333\">{}</text>\n",
                    num(margin / 2.0),
                    num(y + s / 2.0 + 0.5 * font),
                    num(1.4 * font),
                    i + 1
                ));
            }
        }
    }
    for sq in &d.squares {
        let Some(p) = sq.piece else { continue };
        let (cx, cy) = centre(sq.file, sq.rank);
        let (_, stroke) = piece_colours(p.color);
        // The crown's colour.
        let mark = match p.color {
            Color::White => "#b8860b",
            Color::Black => "#e0b030",
        };
        out.push_str(&man(cx, cy, 0.36 * s, 0.04 * s, p.color));
        out.push_str(&format!(
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" stroke=\"{stroke}\" stroke-opacity=\"0.5\" stroke-width=\"{}\"/>\n",
            num(cx),
            num(cy),
            num(0.25 * s),
            num(0.025 * s)
        ));
        if p.king {
            // A crown: three points on a band.
            let u = 0.1 * s;
            let pts = [
                (-2.0, 1.2),
                (-2.0, -0.8),
                (-1.0, 0.2),
                (0.0, -1.4),
                (1.0, 0.2),
                (2.0, -0.8),
                (2.0, 1.2),
            ];
            let points: Vec<String> = pts
                .iter()
                .map(|(x, y)| format!("{},{}", num(cx + x * u), num(cy + y * u)))
                .collect();
            out.push_str(&format!(
                "<polygon points=\"{}\" fill=\"{mark}\" stroke=\"{stroke}\" stroke-width=\"{}\"/>\n",
                points.join(" "),
                num(0.02 * s)
            ));
        }
    }
    // Square numbers on top of the pieces, in the corner, with a halo to stay readable.
    if style.coordinates && !d.algebraic {
        let font = 0.2 * s;
        for sq in &d.squares {
            let (x, y) = corner(sq.file, sq.rank);
            out.push_str(&format!(
                "<text x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"#fff8ec\" stroke=\"#6b4a2f\" stroke-opacity=\"0.8\" stroke-width=\"{}\" paint-order=\"stroke\">{}</text>\n",
                num(x + 0.04 * s),
                num(y + 0.03 * s + font),
                num(font),
                num(0.03 * s),
                sq.number
            ));
        }
    }
    if let Some(m) = &d.last_move {
        for &(f, r) in &m.captured {
            let (cx, cy) = centre(f, r);
            out.push_str(&cross(cx, cy, 0.22 * s, 0.07 * s));
        }
        let mut centres: Vec<(f64, f64)> = m.path.iter().map(|&(f, r)| centre(f, r)).collect();
        // The head stops short of the piece it points at.
        if let [.., (ax, ay), (bx, by)] = centres[..] {
            let len = ((bx - ax).powi(2) + (by - ay).powi(2)).sqrt();
            if len > 0.0 {
                let k = (0.3 * s / len).min(0.5);
                let last = centres.len() - 1;
                centres[last] = (bx - (bx - ax) * k, by - (by - ay) * k);
            }
        }
        let points: Vec<String> = centres
            .iter()
            .map(|(x, y)| format!("{},{}", num(*x), num(*y)))
            .collect();
        out.push_str(&format!(
            "<polyline points=\"{}\" fill=\"none\" stroke=\"{ARROW}\" stroke-opacity=\"0.8\" stroke-width=\"{}\" stroke-linejoin=\"round\" marker-end=\"url(#arrowhead)\"><title>{}</title></polyline>\n",
            points.join(" "),
            num(0.09 * s),
            escape(&m.text)
        ));
    }
    out.push_str("</svg>\n");
    out
}

/// The diagram in characters: `w`/`b` men, `W`/`B` kings, `.` empty dark squares, with files and
/// ranks, and the side to move.
pub fn text(d: &Diagram, flip: bool) -> String {
    let mut grid = vec![vec![' '; d.size as usize]; d.size as usize];
    for sq in &d.squares {
        grid[sq.rank as usize][sq.file as usize] = match sq.piece {
            None => '.',
            Some(Piece {
                color: Color::White,
                king: false,
            }) => 'w',
            Some(Piece {
                color: Color::White,
                king: true,
            }) => 'W',
            Some(Piece {
                color: Color::Black,
                king: false,
            }) => 'b',
            Some(Piece {
                color: Color::Black,
                king: true,
            }) => 'B',
        };
    }
    let mut out = String::new();
    let ranks: Vec<u32> = if flip {
        (0..d.size).collect()
    } else {
        (0..d.size).rev().collect()
    };
    let files: Vec<u32> = if flip {
        (0..d.size).rev().collect()
    } else {
        (0..d.size).collect()
    };
    for r in ranks {
        out.push_str(&format!("{:>2} ", r + 1));
        for &f in &files {
            out.push(' ');
            out.push(grid[r as usize][f as usize]);
        }
        out.push('\n');
    }
    out.push_str("   ");
    for &f in &files {
        out.push(' ');
        out.push((b'a' + f as u8) as char);
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Variant;

    #[test]
    fn start_and_last_move() {
        let kind = GameKind::new(Variant::International);
        let d = diagram(kind, None, &["32-28", "19-23", "28x19"]).unwrap();
        assert_eq!(d.size, 10);
        assert_eq!(d.squares.len(), 50);
        let m = d.last_move.as_ref().unwrap();
        assert_eq!(m.text, "28x19");
        assert_eq!(m.path.len(), 2);
        assert_eq!(m.captured.len(), 1);
        let sq19 = d.squares.iter().find(|s| s.number == 19).unwrap();
        assert_eq!(
            sq19.piece,
            Some(Piece {
                color: Color::White,
                king: false
            })
        );
        let s = svg(&d, &Style::default());
        assert!(s.starts_with("<svg") && s.ends_with("</svg>\n"));
        assert!(s.contains(">50</text>"), "square numbers on 10x10");
        assert!(s.contains("marker-end"));
        assert!(diagram(kind, None, &["32-26"]).is_err());
        assert!(diagram(GameKind::new(Variant::Morris), None, &[]).is_err());
    }

    #[test]
    fn algebraic_boards_write_files_and_ranks() {
        let kind = GameKind::new(Variant::Russian);
        let d = diagram(kind, Some("W:WKc3:Bd4,f6"), &[]).unwrap();
        assert!(d.algebraic);
        let s = svg(&d, &Style::default());
        assert!(s.contains(">h</text>") && s.contains(">8</text>"));
        assert!(s.contains("<polygon"), "a king has a crown");
        let t = text(&d, false);
        assert!(t.contains(" 3  .   W"), "{t}");
        assert!(t.ends_with("a b c d e f g h\n"), "{t}");
    }
}
