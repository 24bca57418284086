//! The evaluation of a reviewed game as an SVG line plot.
//!
//! The x axis is the ply (labelled with move numbers), the y axis the score in men from White's
//! side, clipped to ±`clip` men (proven wins and losses sit on the clip line). The area between
//! the curve and zero is shaded; judged moves are marked on the curve at the position they led
//! to (yellow: inaccuracy, orange: mistake, red: blunder), each with a tooltip naming the move.

use super::{escape, num};
use crate::analysis::review::{Judgement, MoveReview, white_text};
use crate::game::color::Color;
use crate::search::{Score, ScoreKind};

/// A point of the plot: the score of the position before ply `i` (White's side, men).
#[derive(Clone, Debug, PartialEq)]
pub struct EvalPlot {
    /// The title (players and result).
    pub title: String,
    /// Scores of the positions, start first, men from White's side (proven results as ±∞).
    pub points: Vec<f64>,
    /// `(ply index of the move, judgement, label)`; the mark sits at point `ply + 1`.
    pub marks: Vec<(usize, Judgement, String)>,
    /// Move number of the first ply, and whether the first ply is the second player's.
    pub first_move: (usize, bool),
}

/// A score in men from White's side; proven results as ±infinity.
pub fn white_men(s: Score, side: Color) -> f64 {
    let v = match s.kind() {
        ScoreKind::Eval(c) => c as f64 / 100.0,
        ScoreKind::Win(_) => f64::INFINITY,
        ScoreKind::Loss(_) => f64::NEG_INFINITY,
    };
    if side == Color::White { v } else { -v }
}

impl EvalPlot {
    /// The plot of a reviewed game.
    pub fn of_review(title: &str, moves: &[MoveReview]) -> EvalPlot {
        let mut points: Vec<f64> = moves
            .iter()
            .map(|m| white_men(m.before.score, m.before.side))
            .collect();
        if let Some(last) = moves.last() {
            points.push(white_men(last.after.score, last.after.side));
        }
        let marks = moves
            .iter()
            .filter_map(|m| {
                m.judgement.map(|j| {
                    let dots = if m.side == Color::White { "." } else { "..." };
                    let label = format!(
                        "{}{dots} {} {}: {} after, best {} {}",
                        m.move_number,
                        m.played.pdn,
                        j.name(),
                        white_text(m.score_after, m.side),
                        m.before
                            .best
                            .as_ref()
                            .map(|b| b.pdn.as_str())
                            .unwrap_or("?"),
                        white_text(m.score_before, m.side)
                    );
                    (m.ply, j, label)
                })
            })
            .collect();
        // The first ply is the second player's when the next ply already has the next number.
        let first = match moves {
            [a, b, ..] => (a.move_number, b.move_number > a.move_number),
            [a] => (a.move_number, false),
            [] => (1, false),
        };
        EvalPlot {
            title: title.to_string(),
            points,
            marks,
            first_move: first,
        }
    }
}

const W: f64 = 720.0;
const H: f64 = 320.0;
const LEFT: f64 = 56.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 34.0;
const BOTTOM: f64 = 44.0;

/// The plot as an SVG document, scores clipped to ±`clip` men.
pub fn svg(p: &EvalPlot, clip: f64) -> String {
    let finite_max = p
        .points
        .iter()
        .filter(|v| v.is_finite())
        .fold(0.0f64, |m, v| m.max(v.abs()));
    let any_proven = p.points.iter().any(|v| v.is_infinite());
    let ymax = if any_proven {
        clip
    } else {
        finite_max.clamp(1.0, clip).ceil()
    };
    let n = p.points.len().max(2) - 1;
    let (pw, ph) = (W - LEFT - RIGHT, H - TOP - BOTTOM);
    let x = |i: usize| LEFT + pw * i as f64 / n as f64;
    let y = |v: f64| TOP + ph * (ymax - v.clamp(-ymax, ymax)) / (2.0 * ymax);
    let mut out = String::new();
    out.push_str(&format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {W} {H}\" width=\"{W}\" height=\"{H}\" font-family=\"sans-serif\" font-size=\"11\">\n"
    ));
    out.push_str(&format!("<title>{}</title>\n", escape(&p.title)));
    out.push_str(&format!(
        "<rect x=\"0\" y=\"0\" width=\"{W}\" height=\"{H}\" fill=\"#ffffff\"/>\n"
    ));
    out.push_str(&format!(
        "<text x=\"{}\" y=\"20\" font-size=\"13\" text-anchor=\"middle\">{}</text>\n",
        num(W / 2.0),
        escape(&p.title)
    ));
    // Grid and y labels: whole men (halves when the range is small).
    let step = if ymax <= 2.0 { 0.5 } else { 1.0 };
    let mut v = -ymax;
    while v <= ymax + 1e-9 {
        let yy = y(v);
        let colour = if v.abs() < 1e-9 { "#555" } else { "#e3e3e3" };
        out.push_str(&format!(
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{colour}\" stroke-width=\"1\"/>\n",
            num(LEFT),
            num(yy),
            num(W - RIGHT),
            num(yy)
        ));
        out.push_str(&format!(
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n",
            num(LEFT - 6.0),
            num(yy + 4.0),
            if v > 0.0 {
                format!("+{}", num(v))
            } else {
                num(v)
            }
        ));
        v += step;
    }
    // x labels: move numbers every 5 or 10 moves.
    let plies = p.points.len().saturating_sub(1);
    let every = if plies > 120 {
        20
    } else if plies > 40 {
        10
    } else {
        2
    };
    let (first_number, second) = p.first_move;
    let mut i = 0;
    while i <= plies {
        let number = first_number + (i + usize::from(second)) / 2;
        out.push_str(&format!(
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#bbb\"/>\n",
            num(x(i)),
            num(TOP + ph),
            num(x(i)),
            num(TOP + ph + 4.0)
        ));
        out.push_str(&format!(
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{number}</text>\n",
            num(x(i)),
            num(TOP + ph + 16.0)
        ));
        i += every;
    }
    out.push_str(&format!(
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">move</text>\n",
        num(LEFT + pw / 2.0),
        num(H - 8.0)
    ));
    out.push_str(&format!(
        "<text x=\"14\" y=\"{}\" text-anchor=\"middle\" transform=\"rotate(-90 14 {})\">score (men, White's side)</text>\n",
        num(TOP + ph / 2.0),
        num(TOP + ph / 2.0)
    ));
    out.push_str(&format!(
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#999\"/>\n",
        num(LEFT),
        num(TOP),
        num(pw),
        num(ph)
    ));
    if !p.points.is_empty() {
        let line: Vec<String> = p
            .points
            .iter()
            .enumerate()
            .map(|(i, &v)| format!("{},{}", num(x(i)), num(y(v))))
            .collect();
        let zero = y(0.0);
        out.push_str(&format!(
            "<polygon points=\"{},{} {} {},{}\" fill=\"#9bb7d4\" fill-opacity=\"0.35\"/>\n",
            num(x(0)),
            num(zero),
            line.join(" "),
            num(x(p.points.len() - 1)),
            num(zero)
        ));
        out.push_str(&format!(
            "<polyline points=\"{}\" fill=\"none\" stroke=\"#1f4e8c\" stroke-width=\"1.8\" stroke-linejoin=\"round\"/>\n",
            line.join(" ")
        ));
    }
    for (ply, j, label) in &p.marks {
        let i = (ply + 1).min(p.points.len().saturating_sub(1));
        let Some(&v) = p.points.get(i) else { continue };
        let colour = match j {
            Judgement::Inaccuracy => "#e8c100",
            Judgement::Mistake => "#f08000",
            Judgement::Blunder => "#d01010",
        };
        out.push_str(&format!(
            "<circle cx=\"{}\" cy=\"{}\" r=\"4.5\" fill=\"{colour}\" stroke=\"#333\" stroke-width=\"0.8\"><title>{}</title></circle>\n",
            num(x(i)),
            num(y(v)),
            escape(label)
        ));
    }
    // Legend.
    let mut lx = W - RIGHT - 3.0 * 84.0;
    for (name, colour) in [
        ("inaccuracy", "#e8c100"),
        ("mistake", "#f08000"),
        ("blunder", "#d01010"),
    ] {
        out.push_str(&format!(
            "<circle cx=\"{}\" cy=\"{}\" r=\"4\" fill=\"{colour}\" stroke=\"#333\" stroke-width=\"0.8\"/><text x=\"{}\" y=\"{}\">{name}</text>\n",
            num(lx + 4.0),
            num(TOP + 10.0),
            num(lx + 11.0),
            num(TOP + 14.0)
        ));
        lx += 84.0;
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_points_marks_and_clips() {
        let p = EvalPlot {
            title: "A <vs> B".into(),
            points: vec![0.0, 0.2, -0.5, 3.0, f64::INFINITY],
            marks: vec![(1, Judgement::Blunder, "2. 28-23?? & more".into())],
            first_move: (1, false),
        };
        let s = svg(&p, 5.0);
        assert!(s.contains("A &lt;vs&gt; B"));
        assert!(s.contains("28-23?? &amp; more"));
        assert!(s.contains("<polyline"));
        assert!(
            s.contains("+5</text>"),
            "proven results clip the axis at 5 men"
        );
        let empty = EvalPlot {
            title: String::new(),
            points: vec![],
            marks: vec![],
            first_move: (1, false),
        };
        assert!(svg(&empty, 5.0).ends_with("</svg>\n"));
    }
}
