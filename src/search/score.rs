//! Search scores: centi-men from the side to move, with proven game ends encoded by distance.
//!
//! - A heuristic score is a static evaluation or a backed-up one: `-EVAL_MAX..=EVAL_MAX`
//!   (see [`crate::game::EVAL_MAX`]).
//! - A proven win in `p` plies is `WIN - p`, a proven loss in `p` plies `-(WIN - p)`; `p` is
//!   counted from the root of the search (the side to move at the root wins in `p` plies).
//! - Draws are `DRAW` (0).
//! - Endgame-table wins ([`table_score`]) lie between the two: above every evaluation, below
//!   every proven game end, `TABLE_WIN - plies to the conversion from the root` (the ply of the
//!   hit plus the table's distance to conversion), or, without distances, lower still and ordered
//!   by the evaluation; table losses the same negated. So a search with tables prefers a table
//!   win to any evaluation, a proven win to a table win, and among table wins the quickest
//!   conversion.
//!
//! Invariant: `EVAL_MAX < TABLE_MIN` and `TABLE_WIN < WIN - MAX_PLY`, so the ranges never meet.
//! The transposition table stores game-end and table scores relative to the node ([`to_tt`] /
//! [`from_tt`]), so that an entry found at another ply still means "a win in so many plies from
//! here". Without tables no score falls between `EVAL_MAX` and `WIN - MAX_PLY`.

use crate::egdb::{Probed, Wdl};
use crate::game::EVAL_MAX;
use std::fmt;

/// Deepest ply the search ever reaches (a fixed stack size).
pub const MAX_PLY: usize = 128;
/// A win at the root (the side to move has already won).
pub const WIN: i32 = 10_000;
/// Above every score, for initial windows.
pub const INFINITY: i32 = WIN + 1;
/// The score of a draw.
pub const DRAW: i32 = 0;
/// Scores at least this large are proven wins.
pub const WIN_MIN: i32 = WIN - MAX_PLY as i32;

/// A table win at the root with a conversion at once; table wins are below it.
pub const TABLE_WIN: i32 = 9_600;
/// The largest distance a table answer may carry ([`Probed::distance`], the tables'
/// [`DISTANCE_MAX`](crate::egdb::DISTANCE_MAX)).
pub const TABLE_DISTANCE_MAX: i32 = crate::egdb::DISTANCE_MAX as i32;
/// How far apart the evaluation spreads table wins without distances.
const TABLE_EVAL_SPREAD: i32 = 200;
/// The lowest table win: a win without distance (kept below every win with one), at the deepest
/// ply, with the worst evaluation.
pub const TABLE_MIN: i32 =
    TABLE_WIN - 2 * MAX_PLY as i32 - TABLE_DISTANCE_MAX - 1 - TABLE_EVAL_SPREAD;

const _: () = assert!(EVAL_MAX < WIN_MIN);
const _: () = assert!(EVAL_MAX < TABLE_MIN && TABLE_WIN < WIN_MIN);
const _: () = assert!(
    WIN + MAX_PLY as i32 <= i16::MAX as i32,
    "TT stores scores in i16"
);

/// The score of the side to move when it has won in `ply` plies.
#[inline(always)]
pub const fn win_in(ply: usize) -> i32 {
    WIN - ply as i32
}

/// The score of the side to move when it is lost in `ply` plies.
#[inline(always)]
pub const fn loss_in(ply: usize) -> i32 {
    -WIN + ply as i32
}

/// Whether a score is a proven win or loss.
#[inline(always)]
pub const fn is_decisive(s: i32) -> bool {
    s >= WIN_MIN || s <= -WIN_MIN
}

/// The score of an endgame-table answer found at `ply`: a draw is a draw; a win is
/// `TABLE_WIN - ply - distance` with the table's distance to conversion, or, without one, lower
/// than every such win and ordered by `eval` (the static evaluation, asked for only then); a
/// loss is the same negated (so the loser prefers the longest resistance).
#[inline]
pub fn table_score(p: Probed, ply: usize, eval: impl FnOnce() -> i32) -> i32 {
    let winner = |p: Probed, winner_eval: i32| {
        let base = TABLE_WIN - ply as i32;
        match p.distance {
            Some(d) => base - d as i32,
            None => {
                // Below every win with a distance at any ply (hence the further MAX_PLY).
                let e = winner_eval.clamp(-EVAL_MAX, EVAL_MAX);
                let g = (e + EVAL_MAX) as i64 * TABLE_EVAL_SPREAD as i64 / (2 * EVAL_MAX) as i64;
                base - MAX_PLY as i32 - TABLE_DISTANCE_MAX - 1 - TABLE_EVAL_SPREAD + g as i32
            }
        }
    };
    // The evaluation is asked for only when no distance orders the wins.
    let e = if p.distance.is_none() && p.wdl != Wdl::Draw {
        eval()
    } else {
        0
    };
    match p.wdl {
        Wdl::Draw => DRAW,
        Wdl::Win => winner(p, e),
        Wdl::Loss => -winner(p, -e),
    }
}

/// Whether a score is a table win or loss (between the evaluations and the proven game ends).
#[inline(always)]
pub const fn is_table(s: i32) -> bool {
    s.abs() > EVAL_MAX && s.abs() < WIN_MIN
}

/// A score found at `ply`, as stored in the table: game ends and table results counted from
/// the node.
#[inline(always)]
pub const fn to_tt(s: i32, ply: usize) -> i32 {
    if s > EVAL_MAX {
        s + ply as i32
    } else if s < -EVAL_MAX {
        s - ply as i32
    } else {
        s
    }
}

/// A stored score read back at `ply`: game ends and table results counted from the root again.
#[inline(always)]
pub const fn from_tt(s: i32, ply: usize) -> i32 {
    if s > EVAL_MAX {
        s - ply as i32
    } else if s < -EVAL_MAX {
        s + ply as i32
    } else {
        s
    }
}

/// A root score as the outside world sees it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Score(pub i32);

/// What a [`Score`] means.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ScoreKind {
    /// A heuristic score in centi-men.
    Eval(i32),
    /// The side to move wins in this many plies.
    Win(u32),
    /// The side to move loses in this many plies.
    Loss(u32),
}

impl Score {
    /// What the score means.
    pub const fn kind(self) -> ScoreKind {
        if self.0 >= WIN_MIN {
            ScoreKind::Win((WIN - self.0) as u32)
        } else if self.0 <= -WIN_MIN {
            ScoreKind::Loss((WIN + self.0) as u32)
        } else {
            ScoreKind::Eval(self.0)
        }
    }

    /// Hub protocol form (protocols.md 1.9): men with two decimals from the side to move; a win
    /// in `p` plies is `100 - p/100` (99.95 for 5 plies), a loss the same negated.
    pub fn to_hub(self) -> String {
        let c = self.0;
        let sign = if c < 0 { "-" } else { "" };
        let a = c.unsigned_abs();
        format!("{sign}{}.{:02}", a / 100, a % 100)
    }
}

impl Score {
    /// Short form for PDN comments: `+0.25` men, `#7` a win in 7 plies, `#-4` a loss in 4.
    pub fn short_text(self) -> String {
        match self.kind() {
            ScoreKind::Eval(c) => format!("{:+.2}", c as f64 / 100.0),
            ScoreKind::Win(p) => format!("#{p}"),
            ScoreKind::Loss(p) => format!("#-{p}"),
        }
    }
}

impl fmt::Display for Score {
    /// Human form: `+0.25`, `-1.10`, `win in 7 plies`, `loss in 4 plies`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind() {
            ScoreKind::Eval(c) => {
                let sign = if c < 0 { '-' } else { '+' };
                let a = c.unsigned_abs();
                write!(f, "{sign}{}.{:02}", a / 100, a % 100)
            }
            ScoreKind::Win(p) => write!(f, "win in {p} plies"),
            ScoreKind::Loss(p) => write!(f, "loss in {p} plies"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hub_format() {
        assert_eq!(Score(0).to_hub(), "0.00");
        assert_eq!(Score(-1).to_hub(), "-0.01");
        assert_eq!(Score(125).to_hub(), "1.25");
        assert_eq!(Score(-300).to_hub(), "-3.00");
        assert_eq!(Score(win_in(5)).to_hub(), "99.95");
        assert_eq!(Score(loss_in(12)).to_hub(), "-99.88");
        assert_eq!(Score(win_in(5)).kind(), ScoreKind::Win(5));
        assert_eq!(Score(loss_in(4)).kind(), ScoreKind::Loss(4));
        assert_eq!(Score(loss_in(4)).to_string(), "loss in 4 plies");
        assert_eq!(Score(37).to_string(), "+0.37");
    }

    #[test]
    fn table_scores_sit_between_evaluations_and_game_ends() {
        let p = |wdl, distance| Probed { wdl, distance };
        for ply in [1, 20, MAX_PLY - 1] {
            for d in [Some(0), Some(7), Some(255), None] {
                for e in [-EVAL_MAX, -3, 0, 250, EVAL_MAX] {
                    let w = table_score(p(Wdl::Win, d), ply, || e);
                    let l = table_score(p(Wdl::Loss, d), ply, || -e);
                    assert!(w > EVAL_MAX && (TABLE_MIN..WIN_MIN).contains(&w), "{w}");
                    assert_eq!(l, -w);
                    assert!(is_table(w) && is_table(l) && !is_decisive(w));
                    assert_eq!(from_tt(to_tt(w, ply), ply), w);
                }
            }
            assert_eq!(table_score(p(Wdl::Draw, None), ply, || 500), DRAW);
        }
        // Quicker conversions score higher; so do better evaluations without distances, and
        // every win with a distance is above every win without.
        let w = |ply, d| table_score(p(Wdl::Win, d), ply, || 0);
        assert!(w(3, Some(4)) > w(3, Some(5)) && w(3, Some(4)) > w(5, Some(4)));
        assert!(
            table_score(p(Wdl::Win, None), 3, || 100) > table_score(p(Wdl::Win, None), 3, || 0)
        );
        assert!(w(MAX_PLY - 1, Some(255)) > w(1, None));
    }

    #[test]
    fn tt_round_trip() {
        for s in [0, 100, -EVAL_MAX, win_in(9), loss_in(3)] {
            for ply in [0, 1, 7, 40] {
                if is_decisive(s) && (WIN - s.abs()) < ply as i32 {
                    continue; // a win at the root cannot be found deeper than its own ply
                }
                assert_eq!(from_tt(to_tt(s, ply), ply), s);
            }
        }
        // A win in 9 plies from the root found at ply 4 is a win in 5 from the node.
        assert_eq!(to_tt(win_in(9), 4), win_in(5));
        assert_eq!(from_tt(win_in(5), 2), win_in(7));
    }
}
