//! Time management: how long the search may think about one move.
//!
//! Only the main search thread keeps time. It asks [`TimeManager::hard_expired`] every few
//! thousand nodes (a few tenths of a millisecond) and [`TimeManager::start_next_iteration`] after
//! each completed iteration. Two budgets:
//! - the *soft* budget, the time we aim to spend: with a clock, no new iteration starts once a
//!   fraction of it is used (an iteration takes a few times longer than the previous one, and the
//!   time not spent is saved for later moves);
//! - the *hard* budget, never exceeded: the search is aborted mid-iteration and answers with the
//!   last completed iteration's move, or with a move that the unfinished iteration proved better
//!   (see `search::alphabeta`).
//!
//! A fixed time per move is used whole: the time left over cannot be saved for another move, and
//! a user who gives a second expects a second's search (Scan answers at 100-110% of it). Its hard
//! budget is the move time less the move overhead, but less at most a tenth of it
//! ([`TimeParams::max_move_time_reserve`]), and iterations go on until that budget aborts one: the
//! reply comes at 90-100% of the move time, plus the system's own lag; the engine's watchdog
//! thread answers at that deadline even when the search threads have not got a core to notice it.
//! (Before, no iteration started after 60% of the budget, and replies came at 50-85% of it.
//! Searching on to the end of a fixed time was tried once before, without the watchdog, and
//! rejected: +8.1 ± 26.4 Elo over 300 games at 0.1 s per move, no measurable gain, and 3 losses
//! on time on the loaded machine, every reply now coming at the deadline; `docs/strength.md`.
//! It is made now because a given move time should be used, with the watchdog and the tenth kept
//! back as the answer to those losses; its own match measurement belongs in `docs/strength.md`.)
//!
//! Invariant (never lose on time): with a clock, the hard budget is at most a fraction of the time
//! left plus the increment, less a reserve of one move overhead (the protocol's lag) for this move
//! and for each move to go (sudden death: [`TimeParams::default_moves_to_go`]); so the clock above
//! the reserve shrinks geometrically at worst, and once it is spent every move gets a zero budget
//! (the first iteration only, a depth-1 search, which is never aborted: microseconds), paid from
//! the reserve: with the default 20 ms overhead, 620 ms, 200 moves with 3 ms of lag each. With a
//! fixed time per move, the budget is at most that time. While pondering there is no budget; a
//! ponder hit restarts the clock at the hit. The clock starts when the search is asked for
//! (`search::Control::started`), so that waiting for the previous search's threads counts.
//!
//! With a clock the soft budget follows the search ([`Stability`]): after each iteration the
//! main thread scales it by how recently the best move changed and how far the score fell from
//! the iterations before, between [`TimeParams::min_scale`] and [`TimeParams::max_scale`] (a
//! stable move is played sooner, a changing one or a falling score is searched longer). The
//! scaled soft budget never passes the hard one, so the invariant above holds whatever the
//! scale. A fixed move time is not scaled (it is used whole).

use crate::search::Limits;
use std::time::{Duration, Instant};

/// The tunables of the time manager.
#[derive(Clone, Debug, PartialEq)]
pub struct TimeParams {
    /// Kept back from every budget for the protocol's and the GUI's latency.
    pub move_overhead: Duration,
    /// Moves assumed to remain when the clock does not say (sudden death, Fischer).
    pub default_moves_to_go: u32,
    /// Share of the increment added to the soft budget (0..1).
    pub inc_share: f64,
    /// Hard budget as a multiple of the soft budget.
    pub hard_factor: f64,
    /// Most of the time left (plus increment) one move may use, with several moves to go.
    pub max_share: f64,
    /// Most of the time left (plus increment) the last move before a time control may use.
    pub max_share_last_move: f64,
    /// No new iteration starts after this share of the soft budget (with a clock).
    pub next_iteration_share: f64,
    /// Most of a fixed move time kept back for the move overhead, as a share of it (the search
    /// uses at least the rest).
    pub max_move_time_reserve: f64,
    /// Whether a clock's soft budget follows the search (`time-adapt`; see [`Stability`]).
    pub adapt: bool,
    /// Soft budget scale with a best move that has not changed for several iterations
    /// (`time-stable`).
    pub stable_scale: f64,
    /// Added to the scale per recent change of the best move; the count of changes halves at
    /// every iteration, so a change every iteration counts 2 (`time-change`).
    pub change_scale: f64,
    /// Most added share for a falling score (`time-drop`): the scale is multiplied by up to
    /// `1 + drop_scale`.
    pub drop_scale: f64,
    /// The fall of the score (centi-men, below the mean of the two iterations before) at which
    /// [`TimeParams::drop_scale`] is reached in full (`time-drop-full`).
    pub drop_full: f64,
    /// Least scale of the soft budget (`time-min-scale`).
    pub min_scale: f64,
    /// Most scale of the soft budget (`time-max-scale`); the hard budget bounds it anyway.
    pub max_scale: f64,
}

impl Default for TimeParams {
    fn default() -> Self {
        TimeParams {
            move_overhead: Duration::from_millis(20),
            default_moves_to_go: 30,
            inc_share: 0.8,
            hard_factor: 4.0,
            max_share: 0.4,
            max_share_last_move: 0.8,
            next_iteration_share: 0.6,
            max_move_time_reserve: 0.1,
            adapt: true,
            stable_scale: 0.8,
            change_scale: 0.5,
            drop_scale: 0.8,
            drop_full: 40.0,
            min_scale: 0.5,
            max_scale: 2.5,
        }
    }
}

/// Error of [`TimeParams::set`]: the message names the parameter and what was wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimeParamError(pub String);

impl std::fmt::Display for TimeParamError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TimeParamError {}

/// The largest value a scale or share among [`TimeParams::NAMES`] takes.
const MAX_SCALE_VALUE: f64 = 100.0;

impl TimeParams {
    /// The time tunables settable by name ([`TimeParams::set`]; `_` may stand for `-`), as
    /// `tiao match --engine "tiao time-adapt=off"` and the Hub's `set-param` give them.
    pub const NAMES: &'static [&'static str] = &[
        "time-adapt",
        "time-stable",
        "time-change",
        "time-drop",
        "time-drop-full",
        "time-min-scale",
        "time-max-scale",
    ];

    /// Sets one of [`TimeParams::NAMES`] from its text (`time-adapt` on/off, the others numbers
    /// in 0..=100). On error nothing changes.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), TimeParamError> {
        let key = name.trim().to_ascii_lowercase().replace('_', "-");
        let number = || -> Result<f64, TimeParamError> {
            match value.trim().parse::<f64>() {
                Ok(x) if (0.0..=MAX_SCALE_VALUE).contains(&x) => Ok(x),
                _ => Err(TimeParamError(format!(
                    "{key}: '{value}' is not a number in 0..={MAX_SCALE_VALUE}"
                ))),
            }
        };
        match key.as_str() {
            "time-adapt" => {
                self.adapt = crate::numbers::switch(value).ok_or_else(|| {
                    TimeParamError(format!("{key}: expected on/off, got '{value}'"))
                })?
            }
            "time-stable" => self.stable_scale = number()?,
            "time-change" => self.change_scale = number()?,
            "time-drop" => self.drop_scale = number()?,
            "time-drop-full" => self.drop_full = number()?.max(1.0),
            "time-min-scale" => self.min_scale = number()?,
            "time-max-scale" => self.max_scale = number()?,
            _ => return Err(TimeParamError(format!("unknown time parameter '{name}'"))),
        }
        Ok(())
    }
}

/// What the main thread has seen of the iterations so far, for the clock's scale: how recently
/// the best move changed and the last scores (side to move, centi-men).
#[derive(Clone, Debug, Default)]
pub struct Stability {
    /// Changes of the best move, halved at every iteration.
    changes: f64,
    /// The last two iterations' scores, the latest first.
    scores: [Option<i32>; 2],
}

impl Stability {
    /// Takes a completed iteration's `score` (`decisive`: a proven win or loss, whose fall is
    /// not measured) and whether its best move differs from the previous iteration's, and
    /// returns the scale of the soft budget from now on.
    pub fn after_iteration(
        &mut self,
        best_changed: bool,
        score: i32,
        decisive: bool,
        p: &TimeParams,
    ) -> f64 {
        self.changes = self.changes / 2.0 + if best_changed { 1.0 } else { 0.0 };
        let reference = match self.scores {
            [Some(a), Some(b)] => Some((a as f64 + b as f64) / 2.0),
            [Some(a), None] => Some(a as f64),
            _ => None,
        };
        let fall = match reference {
            Some(r) if !decisive => (r - score as f64).max(0.0),
            _ => 0.0,
        };
        self.scores = [Some(score), self.scores[0]];
        let moves = p.stable_scale + p.change_scale * self.changes;
        let drop = 1.0 + p.drop_scale * (fall / p.drop_full.max(1.0)).min(1.0);
        (moves * drop).clamp(p.min_scale, p.max_scale.max(p.min_scale))
    }
}

/// The time budget of one search.
#[derive(Clone, Debug)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
    /// The budget is a fixed move time, used whole (iterations go on until it is spent).
    fixed: bool,
    /// The soft budget's scale ([`Stability`]; 1 until set).
    scale: f64,
}

/// The least budget a fixed move time gives (a move time of a microsecond still gets a
/// millisecond's search). A clock's budget has no floor: below its reserve it is zero, the first
/// iteration only.
const MIN_BUDGET: Duration = Duration::from_millis(1);

impl TimeManager {
    /// The budget for `limits`, the clock started at `start`.
    pub fn new(limits: &Limits, start: Instant, p: &TimeParams) -> TimeManager {
        let mut soft: Option<Duration> = None;
        let mut hard: Option<Duration> = None;
        let mut fixed = false;
        if let Some(t) = limits.move_time {
            let kept = p.move_overhead.min(t.mul_f64(p.max_move_time_reserve));
            let b = t.saturating_sub(kept).max(MIN_BUDGET);
            soft = Some(b);
            hard = Some(b);
            fixed = true;
        }
        if let Some(left) = limits.time {
            let available = left + limits.inc;
            let mtg = limits.moves_to_go.unwrap_or(p.default_moves_to_go).max(1);
            let share = if mtg == 1 {
                p.max_share_last_move
            } else {
                p.max_share
            };
            // Every move still to play costs the protocol's lag as well as its search: the overhead
            // of this move and of the moves to go (sudden death: `default_moves_to_go`) is kept
            // back, so that a long game on a small clock still has time for its last moves.
            let reserve = p.move_overhead.saturating_mul(mtg.saturating_add(1));
            // Below the reserve the budget is zero: the first iteration only (it is never
            // aborted, and takes microseconds), the least a move can cost.
            let cap = available.saturating_sub(reserve).mul_f64(share);
            let base = left.saturating_sub(reserve) / mtg + limits.inc.mul_f64(p.inc_share);
            let s = base.min(cap);
            let h = base.mul_f64(p.hard_factor).min(cap).max(s);
            // The clock binds when its soft budget is shorter than the move time: spend as it
            // says, saving what is not spent.
            fixed &= soft.is_some_and(|x| x <= s);
            soft = Some(soft.map_or(s, |x| x.min(s)));
            hard = Some(hard.map_or(h, |x| x.min(h)));
        }
        TimeManager {
            start,
            soft,
            hard,
            fixed,
            scale: 1.0,
        }
    }

    /// Scales the soft budget of a clock by `scale` (from [`Stability::after_iteration`]); a
    /// fixed move time, or `adapt` off, ignores it.
    pub fn set_scale(&mut self, scale: f64, p: &TimeParams) {
        if p.adapt && !self.fixed && scale.is_finite() && scale > 0.0 {
            self.scale = scale;
        }
    }

    /// The soft budget after the scale, never above the hard budget.
    pub fn scaled_soft(&self) -> Option<Duration> {
        let s = self.soft?.mul_f64(self.scale);
        Some(self.hard.map_or(s, |h| s.min(h)))
    }

    /// Restarts the clock (a ponder hit: the opponent played the expected move now).
    pub fn restart(&mut self, at: Instant) {
        self.start = at;
    }

    /// Time since the clock started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// The soft budget, if any.
    pub fn soft(&self) -> Option<Duration> {
        self.soft
    }

    /// The hard budget, if any.
    pub fn hard(&self) -> Option<Duration> {
        self.hard
    }

    /// Whether the hard budget is spent (abort now).
    pub fn hard_expired(&self) -> bool {
        self.hard_expired_at(self.elapsed())
    }

    /// Whether the hard budget is spent after `elapsed`.
    pub fn hard_expired_at(&self, elapsed: Duration) -> bool {
        self.hard.is_some_and(|h| elapsed >= h)
    }

    /// Whether another iteration may start.
    pub fn start_next_iteration(&self, p: &TimeParams) -> bool {
        self.start_next_iteration_at(self.elapsed(), p)
    }

    /// Whether another iteration may start after `elapsed`: with a fixed move time, until it is
    /// spent; with a clock, until a share of the soft budget is.
    pub fn start_next_iteration_at(&self, elapsed: Duration, p: &TimeParams) -> bool {
        match self.soft {
            None => true,
            Some(_) if self.fixed => !self.hard_expired_at(elapsed),
            Some(_) => {
                let s = self.scaled_soft().unwrap_or_default();
                elapsed < s.mul_f64(p.next_iteration_share)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tm(l: Limits) -> TimeManager {
        TimeManager::new(&l, Instant::now(), &TimeParams::default())
    }

    #[test]
    fn move_time_keeps_the_overhead_but_at_most_a_tenth() {
        let ms = Duration::from_millis;
        // The 20 ms overhead, or a tenth of a short move time: at least 90% is searched.
        for (given, hard) in [
            (500, 480.0),
            (1000, 980.0),
            (100, 90.0),
            (30, 27.0),
            (5, 4.5),
        ] {
            let t = tm(Limits::move_time(ms(given)));
            assert_eq!(t.hard(), Some(ms(1).mul_f64(hard)), "{given} ms");
            assert!(t.hard().unwrap() >= ms(given).mul_f64(0.9));
            assert!(t.hard().unwrap() <= ms(given));
        }
        // A larger overhead is still capped at a tenth.
        let p = TimeParams {
            move_overhead: ms(400),
            ..TimeParams::default()
        };
        let t = TimeManager::new(&Limits::move_time(ms(500)), Instant::now(), &p);
        assert_eq!(t.hard(), Some(ms(450)));
    }

    #[test]
    fn a_fixed_move_time_is_searched_to_its_end_a_clock_is_saved() {
        let ms = Duration::from_millis;
        let p = TimeParams::default();
        // A fixed second: iterations start until the budget (980 ms) is spent.
        let t = tm(Limits::move_time(ms(1000)));
        assert!(t.start_next_iteration_at(ms(850), &p));
        assert!(t.start_next_iteration_at(ms(979), &p));
        assert!(!t.start_next_iteration_at(ms(980), &p));
        assert!(t.hard_expired_at(ms(980)) && !t.hard_expired_at(ms(979)));
        // A clock: no new iteration after 60% of the soft budget.
        let c = tm(Limits {
            time: Some(ms(30_000)),
            ..Limits::default()
        });
        let s = c.soft().unwrap();
        assert!(c.start_next_iteration_at(s.mul_f64(0.5), &p));
        assert!(!c.start_next_iteration_at(s.mul_f64(0.7), &p));
        // A move time under a short clock: the clock binds and is saved.
        let both = tm(Limits {
            time: Some(ms(3_000)),
            move_time: Some(ms(1000)),
            ..Limits::default()
        });
        let s = both.soft().unwrap();
        assert!(s < ms(1000));
        assert!(!both.start_next_iteration_at(s.mul_f64(0.7), &p));
    }

    #[test]
    fn clock_budget_never_exceeds_what_is_left() {
        for (left_ms, inc_ms, mtg) in [
            (60_000, 0, None),
            (100, 0, None),
            (1000, 1000, None),
            (10, 100, Some(1)),
            (5000, 0, Some(1)),
            (5000, 0, Some(40)),
        ] {
            let l = Limits {
                time: Some(Duration::from_millis(left_ms)),
                inc: Duration::from_millis(inc_ms),
                moves_to_go: mtg,
                ..Limits::default()
            };
            let t = tm(l);
            let h = t.hard().unwrap();
            let s = t.soft().unwrap();
            assert!(s <= h);
            assert!(
                h <= Duration::from_millis(left_ms + inc_ms)
                    .mul_f64(0.8)
                    .max(MIN_BUDGET),
                "{left_ms} {inc_ms} {mtg:?}: {h:?}"
            );
        }
    }

    /// Plays `moves` moves on a sudden-death clock of `base`, each one spending its whole hard
    /// budget (the worst case) plus `lag`; returns the clock's lowest point.
    fn sudden_death(base: Duration, moves: u32, lag: Duration) -> f64 {
        let p = TimeParams::default();
        let mut left = base.as_secs_f64();
        let mut lowest = left;
        for _ in 0..moves {
            let l = Limits {
                time: Some(Duration::from_secs_f64(left.max(0.0))),
                ..Limits::default()
            };
            let spent = TimeManager::new(&l, Instant::now(), &p).hard().unwrap() + lag;
            left -= spent.as_secs_f64();
            lowest = lowest.min(left);
        }
        lowest
    }

    #[test]
    fn sudden_death_keeps_time_for_long_games() {
        let ms = Duration::from_millis;
        // 200 moves each (the match runner's 400 plies), every search to its hard budget, 2 ms
        // of lag per move: the clock never runs out, from a minute down to half a second.
        for base in [60_000, 10_000, 1_000, 500] {
            let lowest = sudden_death(ms(base), 200, ms(2));
            assert!(lowest > 0.0, "{base} ms: {lowest}");
        }
        // A clock at zero (or below the reserve) gives a zero budget: the first iteration only.
        let t = tm(Limits {
            time: Some(Duration::ZERO),
            ..Limits::default()
        });
        assert_eq!(t.hard(), Some(Duration::ZERO));
        assert!(!t.start_next_iteration_at(Duration::ZERO, &TimeParams::default()));
    }

    #[test]
    fn the_clock_scale_follows_the_best_move_and_the_score() {
        let p = TimeParams::default();
        // A best move that never changes, a steady score: the stable scale.
        let mut st = Stability::default();
        let mut scale = 0.0;
        for _ in 0..10 {
            scale = st.after_iteration(false, 20, false, &p);
        }
        assert!((scale - p.stable_scale).abs() < 1e-9, "{scale}");
        // The best move changes: more time, and more again when it changes once more.
        let once = st.after_iteration(true, 20, false, &p);
        let twice = st.after_iteration(true, 20, false, &p);
        assert!(once > scale && twice > once, "{scale} {once} {twice}");
        // A falling score adds time, a rising one does not; a proven score's fall does not.
        let mut a = Stability::default();
        let mut b = Stability::default();
        let mut c = Stability::default();
        for s in [30, 30] {
            a.after_iteration(false, s, false, &p);
            b.after_iteration(false, s, false, &p);
            c.after_iteration(false, s, false, &p);
        }
        let fall = a.after_iteration(false, -20, false, &p);
        let rise = b.after_iteration(false, 80, false, &p);
        let proven = c.after_iteration(false, -20, true, &p);
        assert!(
            fall > rise && (rise - proven).abs() < 1e-9,
            "{fall} {rise} {proven}"
        );
        assert!(fall <= p.max_scale);
        // Everything at once stays within the bounds.
        let mut d = Stability::default();
        for i in 0..20 {
            let s = d.after_iteration(true, 100 - 60 * i, false, &p);
            assert!((p.min_scale..=p.max_scale).contains(&s), "{s}");
        }
    }

    #[test]
    fn the_scaled_soft_budget_stays_under_the_hard_one() {
        let ms = Duration::from_millis;
        let p = TimeParams::default();
        let mut t = tm(Limits {
            time: Some(ms(10_000)),
            inc: ms(100),
            ..Limits::default()
        });
        let soft = t.soft().unwrap();
        t.set_scale(0.5, &p);
        assert_eq!(t.scaled_soft(), Some(soft.mul_f64(0.5)));
        assert!(!t.start_next_iteration_at(soft.mul_f64(0.4), &p));
        t.set_scale(2.0, &p);
        assert!(t.start_next_iteration_at(soft.mul_f64(1.1), &p));
        t.set_scale(1000.0, &p);
        assert_eq!(t.scaled_soft(), t.hard());
        // Off, or a fixed move time: no scale.
        let off = TimeParams {
            adapt: false,
            ..TimeParams::default()
        };
        let mut u = tm(Limits {
            time: Some(ms(10_000)),
            ..Limits::default()
        });
        u.set_scale(2.0, &off);
        assert_eq!(u.scaled_soft(), u.soft());
        let mut f = tm(Limits::move_time(ms(1000)));
        f.set_scale(0.5, &p);
        assert_eq!(f.scaled_soft(), f.soft());
    }

    #[test]
    fn time_parameters_are_set_by_name() {
        let mut p = TimeParams::default();
        p.set("time-adapt", "off").unwrap();
        assert!(!p.adapt);
        p.set("time_stable", "0.6").unwrap();
        assert_eq!(p.stable_scale, 0.6);
        for (name, value) in [
            ("time-stable", "-1"),
            ("time-change", "x"),
            ("time-max-scale", "1e9"),
            ("time-adapt", "maybe"),
            ("time-nothing", "1"),
        ] {
            let before = p.clone();
            assert!(p.set(name, value).is_err(), "{name}={value}");
            assert_eq!(p, before);
        }
        for n in TimeParams::NAMES {
            assert!(p.clone().set(n, "1").is_ok(), "{n}");
        }
    }

    #[test]
    fn no_limit_without_clock() {
        let t = tm(Limits::infinite());
        assert!(t.hard().is_none() && !t.hard_expired());
        assert!(t.start_next_iteration(&TimeParams::default()));
    }
}
