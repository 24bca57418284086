//! Time management: how long the search may think about one move.
//!
//! Only the main search thread keeps time. It asks [`TimeManager::hard_expired`] every few
//! thousand nodes (a few tenths of a millisecond) and [`TimeManager::start_next_iteration`] after
//! each completed iteration. Two budgets:
//! - the *soft* budget, the time we aim to spend: no new iteration starts once a fraction of it is
//!   used (an iteration takes a few times longer than the previous one);
//! - the *hard* budget, never exceeded: the search is aborted mid-iteration and answers with the
//!   last completed iteration's move, or with a move that the unfinished iteration proved better
//!   (see `search::alphabeta`).
//!
//! A fixed time per move follows the same rule (no new iteration after a share of it), though the
//! time left over cannot be saved: searching on until the time was up measured no gain (+8 ± 26
//! Elo over 300 games at 0.1 s per move) and put every reply at the deadline, where a loaded
//! machine made three of them late (`docs/strength.md`).
//!
//! Invariant (never lose on time): with a clock, the hard budget is at most a fraction of the time
//! left plus the increment, less a fixed reserve for the protocol's latency; with a fixed time per
//! move, it is that time less the same reserve. While pondering there is no budget; a ponder hit
//! restarts the clock at the hit.

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
    /// No new iteration starts after this share of the soft budget.
    pub next_iteration_share: f64,
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
        }
    }
}

/// The time budget of one search.
#[derive(Clone, Debug)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
}

/// The least budget ever given (the search needs a few moments to produce a move).
const MIN_BUDGET: Duration = Duration::from_millis(1);

impl TimeManager {
    /// The budget for `limits`, the clock started at `start`.
    pub fn new(limits: &Limits, start: Instant, p: &TimeParams) -> TimeManager {
        let mut soft: Option<Duration> = None;
        let mut hard: Option<Duration> = None;
        if let Some(t) = limits.move_time {
            let b = t.saturating_sub(p.move_overhead).max(MIN_BUDGET);
            soft = Some(b);
            hard = Some(b);
        }
        if let Some(left) = limits.time {
            let available = left + limits.inc;
            let mtg = limits.moves_to_go.unwrap_or(p.default_moves_to_go).max(1);
            let share = if mtg == 1 {
                p.max_share_last_move
            } else {
                p.max_share
            };
            let cap = available
                .mul_f64(share)
                .saturating_sub(p.move_overhead)
                .max(MIN_BUDGET);
            let base = left / mtg + limits.inc.mul_f64(p.inc_share);
            let s = base.min(cap).max(MIN_BUDGET);
            let h = base.mul_f64(p.hard_factor).min(cap).max(s);
            soft = Some(soft.map_or(s, |x| x.min(s)));
            hard = Some(hard.map_or(h, |x| x.min(h)));
        }
        TimeManager { start, soft, hard }
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
        self.hard.is_some_and(|h| self.elapsed() >= h)
    }

    /// Whether another iteration may start.
    pub fn start_next_iteration(&self, p: &TimeParams) -> bool {
        self.soft
            .is_none_or(|s| self.elapsed() < s.mul_f64(p.next_iteration_share))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tm(l: Limits) -> TimeManager {
        TimeManager::new(&l, Instant::now(), &TimeParams::default())
    }

    #[test]
    fn move_time_keeps_a_reserve() {
        let t = tm(Limits::move_time(Duration::from_millis(500)));
        assert_eq!(t.hard(), Some(Duration::from_millis(480)));
        let t = tm(Limits::move_time(Duration::from_millis(5)));
        assert_eq!(t.hard(), Some(MIN_BUDGET));
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

    #[test]
    fn no_limit_without_clock() {
        let t = tm(Limits::infinite());
        assert!(t.hard().is_none() && !t.hard_expired());
        assert!(t.start_next_iteration(&TimeParams::default()));
    }
}
