//! The engine's own clock in a DXP game, and how much of it one move may use.
//!
//! DXP gives each player a thinking time in minutes for the whole game (GAMEREQ), and optionally
//! the number of moves of the game; MOVE messages carry the seconds used only for information.
//! So each program keeps its own clock. Ours runs from the moment the opponent's MOVE arrives
//! (the reader thread stamps it) to the moment our MOVE is written.
//!
//! Allocation ([`Clock::limits`]): the search gets the time left less a reserve (the larger of
//! [`RESERVE_SHARE`] of the game's time and [`MIN_RESERVE`]) as its clock, with the moves still
//! to play when the GAMEREQ has a move limit, and the time manager (`crate::search::time`) turns that into
//! a soft and a hard budget; the engine is also given [`MOVE_OVERHEAD`] for the network and our
//! own message handling. The hard budget is at most 40% (80% on the last move) of what it is
//! given, so the time left shrinks geometrically at worst and the reserve is never touched.
//!
//! A thinking time of `000` (pydraughts writes `000` for anything under a minute) is read as
//! [`ZERO_MINUTES_CLOCK`].

use crate::search::Limits;
use std::time::Duration;

/// The clock used when the GAMEREQ's thinking time is 0 minutes.
pub const ZERO_MINUTES_CLOCK: Duration = Duration::from_secs(30);
/// Share of the game's time never used.
pub const RESERVE_SHARE: f64 = 0.02;
/// Least time never used.
pub const MIN_RESERVE: Duration = Duration::from_millis(100);
/// Kept back from every move's budget for the network and message handling (the engine's
/// `TimeParams::move_overhead` in DXP games).
pub const MOVE_OVERHEAD: Duration = Duration::from_millis(50);

/// Extra per-move limits given on the command line (quick games, tests).
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Caps {
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Most time per move.
    pub move_time: Option<Duration>,
}

/// One player's clock.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Clock {
    /// Time for the whole game.
    pub total: Duration,
    /// Time used so far.
    pub used: Duration,
}

impl Clock {
    /// The clock of a GAMEREQ's thinking time.
    pub fn from_minutes(minutes: u16) -> Clock {
        let total = if minutes == 0 {
            ZERO_MINUTES_CLOCK
        } else {
            Duration::from_secs(60 * u64::from(minutes))
        };
        Clock::new(total)
    }

    /// A clock of `total`.
    pub fn new(total: Duration) -> Clock {
        Clock {
            total,
            used: Duration::ZERO,
        }
    }

    /// Time left (zero once overrun).
    pub fn left(&self) -> Duration {
        self.total.saturating_sub(self.used)
    }

    /// Whether more than the whole time was used.
    pub fn overrun(&self) -> bool {
        self.used > self.total
    }

    /// The time never used.
    pub fn reserve(&self) -> Duration {
        self.total.mul_f64(RESERVE_SHARE).max(MIN_RESERVE)
    }

    /// The limits of the next move's search: `moves_played` of the game's `move_limit` (0: no
    /// limit) are played by us.
    pub fn limits(&self, move_limit: u16, moves_played: u32, caps: &Caps) -> Limits {
        let moves_to_go =
            (move_limit > 0).then(|| u32::from(move_limit).saturating_sub(moves_played).max(1));
        Limits {
            time: Some(self.left().saturating_sub(self.reserve())),
            moves_to_go,
            depth: caps.depth,
            move_time: caps.move_time,
            ..Limits::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::time::{TimeManager, TimeParams};
    use std::time::Instant;

    fn params() -> TimeParams {
        TimeParams {
            move_overhead: MOVE_OVERHEAD,
            ..TimeParams::default()
        }
    }

    /// Plays `moves` moves, each spending `spend` of its budget plus `late` (the search's own lag
    /// and our message handling), and checks the clock is never overrun.
    fn play_out(
        total: Duration,
        move_limit: u16,
        moves: u32,
        late: Duration,
        spend: impl Fn(&TimeManager) -> Duration,
    ) -> Clock {
        let mut c = Clock::new(total);
        for played in 0..moves {
            let l = c.limits(move_limit, played, &Caps::default());
            let tm = TimeManager::new(&l, Instant::now(), &params());
            c.used += spend(&tm) + late;
            assert!(
                !c.overrun(),
                "{total:?}/{move_limit}: overrun at move {played}: {c:?}"
            );
        }
        c
    }

    #[test]
    fn never_overruns_even_spending_every_hard_budget() {
        // The worst case: every search runs to its hard budget (it normally stops near the soft
        // one, a quarter of it), and our own handling adds half a millisecond.
        let late = Duration::from_micros(500);
        for (total, limit, moves) in [
            (Duration::from_secs(60), 0, 200),
            (Duration::from_secs(60), 75, 75),
            (Duration::from_secs(300), 50, 50),
            (Duration::from_secs(3), 0, 100),
            (Duration::from_secs(1), 10, 10),
        ] {
            let c = play_out(total, limit, moves, late, |tm| tm.hard().unwrap());
            assert!(c.left() > Duration::ZERO, "{c:?}");
        }
    }

    #[test]
    fn long_games_keep_time_with_a_slow_network_stack() {
        // Searches ending at twice their soft budget and 3 ms lost per move, for 200 moves, on
        // the shortest clocks DXP can give (30 s for `000`, one minute).
        let late = Duration::from_millis(3);
        for total in [ZERO_MINUTES_CLOCK, Duration::from_secs(60)] {
            play_out(total, 0, 200, late, |tm| 2 * tm.soft().unwrap());
        }
    }

    #[test]
    fn zero_minutes_is_a_short_clock() {
        assert_eq!(Clock::from_minutes(0).total, ZERO_MINUTES_CLOCK);
        assert_eq!(Clock::from_minutes(5).total, Duration::from_secs(300));
    }

    #[test]
    fn limits_carry_the_moves_to_go_and_the_caps() {
        let c = Clock::from_minutes(1);
        let caps = Caps {
            depth: Some(4),
            move_time: Some(Duration::from_millis(50)),
        };
        let l = c.limits(40, 10, &caps);
        assert_eq!(l.moves_to_go, Some(30));
        assert_eq!(l.depth, Some(4));
        assert_eq!(l.move_time, Some(Duration::from_millis(50)));
        assert_eq!(l.time, Some(Duration::from_millis(60_000 - 1200)));
        assert_eq!(c.limits(40, 45, &caps).moves_to_go, Some(1));
        assert_eq!(c.limits(0, 45, &caps).moves_to_go, None);
    }
}
