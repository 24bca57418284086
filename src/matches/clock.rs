//! Time controls and the clocks the match runner keeps for each player.
//!
//! - [`Control::MoveTime`]: a fixed time per move; a reply later than the move time plus the
//!   margin loses on time.
//! - [`Control::Clock`]: base time plus increment (Fischer). The runner keeps each player's clock:
//!   the time from sending the search to reading the move is taken off, then the increment is
//!   added. A clock below minus the margin loses on time. Engines are told the clock the Hub way
//!   (`level time=<clock - inc> inc=<inc>`: Hub adds the increment before the move, so the
//!   engine sees exactly the time it may use now); [`Clock::budget`] makes that split once, for
//!   the built-in engine's limits and external engines' `level` alike.
//! - [`Control::Nodes`], [`Control::Depth`]: no clock (deterministic tests); a player that does
//!   not answer within the hang timeout loses.

use std::fmt;
use std::time::Duration;

/// How long a player may think.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Control {
    /// Nodes per move.
    Nodes(u64),
    /// Depth per move.
    Depth(u32),
    /// Time per move.
    MoveTime(Duration),
    /// Base time and increment per move.
    Clock { base: Duration, inc: Duration },
}

impl Control {
    /// Reads `base+inc` in seconds (`60+0.5`, `10`, `1:30+1`: minutes:seconds allowed), each
    /// part with a unit if wanted (`10s+100ms`; [`crate::numbers::parse_time`]: a number without
    /// one under a millisecond is refused).
    pub fn parse_tc(text: &str) -> Result<Control, String> {
        let t = text.trim();
        let (base, inc) = t.split_once('+').unwrap_or((t, "0"));
        let seconds = |s: &str| -> Result<f64, String> {
            let s = s.trim();
            let v = match s.split_once(':') {
                Some((m, sec)) => {
                    let m: f64 = m.parse().map_err(|_| bad(text))?;
                    let sec: f64 = sec.parse().map_err(|_| bad(text))?;
                    m * 60.0 + sec
                }
                None => {
                    if s.parse::<f64>().is_err() && !s.ends_with(crate::numbers::SECONDS_SUFFIX) {
                        return Err(bad(text));
                    }
                    crate::numbers::parse_time(s, crate::numbers::TimeUnit::Seconds)
                        .map_err(|e| format!("--tc {text}: {e}"))?
                }
            };
            crate::numbers::seconds(v).map_err(|e| format!("--tc {text}: {e}"))
        };
        let (base, inc) = (seconds(base)?, seconds(inc)?);
        if base <= 0.0 {
            return Err(format!("--tc {text}: the base time must be positive"));
        }
        Ok(Control::Clock {
            base: Duration::from_secs_f64(base),
            inc: Duration::from_secs_f64(inc),
        })
    }

    /// The `TimeControl` tag of a PDN game (`60+0.5`, `"-"` without a clock).
    pub fn pdn_tag(&self) -> String {
        match self {
            Control::Clock { base, inc } => {
                format!("{}+{}", secs(*base), secs(*inc))
            }
            Control::MoveTime(t) => format!("{} s/move", secs(*t)),
            Control::Nodes(n) => format!("{n} nodes/move"),
            Control::Depth(d) => format!("depth {d}"),
        }
    }
}

fn bad(text: &str) -> String {
    format!("--tc {text}: expected base+increment in seconds, e.g. 60+0.5, 1:00+1 or 10s+100ms")
}

/// Seconds written briefly: `0.1`, `60`, `1.25`.
pub fn secs(d: Duration) -> String {
    let s = format!("{:.3}", d.as_secs_f64());
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}

impl fmt::Display for Control {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Control::Nodes(n) => write!(f, "{n} nodes per move"),
            Control::Depth(d) => write!(f, "depth {d} per move"),
            Control::MoveTime(t) => write!(f, "{} s per move", secs(*t)),
            Control::Clock { base, inc } => {
                write!(f, "{} s + {} s per move", secs(*base), secs(*inc))
            }
        }
    }
}

/// What a player is told before a move.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Budget {
    Nodes(u64),
    Depth(u32),
    MoveTime(Duration),
    /// A clock told the Hub way: `time` is the clock less the increment (Hub adds the increment
    /// before the move, so `time + inc` is exactly what may be used now), `inc` the increment,
    /// never more than the clock.
    Clock {
        time: Duration,
        inc: Duration,
    },
}

/// One player's clock in one game.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Clock {
    control: Control,
    /// Time left, seconds (negative once flagged).
    left: f64,
}

impl Clock {
    /// A clock at the start of a game.
    pub fn new(control: Control) -> Clock {
        let left = match control {
            Control::Clock { base, .. } => base.as_secs_f64(),
            _ => 0.0,
        };
        Clock { control, left }
    }

    /// What the player is told for its next move.
    pub fn budget(&self) -> Budget {
        match self.control {
            Control::Nodes(n) => Budget::Nodes(n),
            Control::Depth(d) => Budget::Depth(d),
            Control::MoveTime(t) => Budget::MoveTime(t),
            Control::Clock { inc, .. } => {
                let left = Duration::from_secs_f64(self.left.max(0.0));
                let inc = inc.min(left);
                Budget::Clock {
                    time: left - inc,
                    inc,
                }
            }
        }
    }

    /// How long the runner waits for the move before the player has lost on time (or hung):
    /// the time allowed plus `margin`; `hang` when the control has no time.
    pub fn deadline(&self, margin: Duration, hang: Duration) -> Duration {
        match self.control {
            Control::MoveTime(t) => t + margin,
            Control::Clock { .. } => Duration::from_secs_f64(self.left.max(0.0)) + margin,
            Control::Nodes(_) | Control::Depth(_) => hang,
        }
    }

    /// Charges a move that took `used`; returns false when the player has lost on time (its
    /// time, plus `margin`, is exceeded).
    pub fn charge(&mut self, used: Duration, margin: Duration) -> bool {
        match self.control {
            Control::MoveTime(t) => used <= t + margin,
            Control::Clock { inc, .. } => {
                self.left -= used.as_secs_f64();
                if self.left < -margin.as_secs_f64() {
                    return false;
                }
                self.left += inc.as_secs_f64();
                true
            }
            Control::Nodes(_) | Control::Depth(_) => true,
        }
    }

    /// Time left (clock controls), for the record.
    pub fn left(&self) -> Option<f64> {
        matches!(self.control, Control::Clock { .. }).then_some(self.left)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_time_controls() {
        assert_eq!(
            Control::parse_tc("60+0.5").unwrap(),
            Control::Clock {
                base: Duration::from_secs(60),
                inc: Duration::from_millis(500)
            }
        );
        assert_eq!(
            Control::parse_tc("1:30+1").unwrap(),
            Control::Clock {
                base: Duration::from_secs(90),
                inc: Duration::from_secs(1)
            }
        );
        assert_eq!(
            Control::parse_tc("10").unwrap(),
            Control::Clock {
                base: Duration::from_secs(10),
                inc: Duration::ZERO
            }
        );
        assert_eq!(
            Control::parse_tc("10s+100ms").unwrap(),
            Control::Clock {
                base: Duration::from_secs(10),
                inc: Duration::from_millis(100)
            }
        );
        for bad in [
            "", "+1", "x+1", "0+1", "-5+1", "10+y", "1e9", "10+5min", "0ms+1",
        ] {
            assert!(Control::parse_tc(bad).is_err(), "{bad}");
        }
        assert!(
            Control::parse_tc("x+1")
                .unwrap_err()
                .contains("e.g. 60+0.5")
        );
        // An increment under a millisecond without a unit is a unit forgotten.
        let e = Control::parse_tc("10+0.0005").unwrap_err();
        assert!(
            e.contains("--tc 10+0.0005") && e.contains("0.0005s or 0.0005ms"),
            "{e}"
        );
        assert_eq!(Control::parse_tc("60+0.5").unwrap().pdn_tag(), "60+0.5");
    }

    #[test]
    fn clock_takes_time_and_adds_the_increment_after() {
        let margin = Duration::from_millis(100);
        let mut c = Clock::new(Control::parse_tc("1+0.5").unwrap());
        assert_eq!(
            c.budget(),
            Budget::Clock {
                time: Duration::from_millis(500),
                inc: Duration::from_millis(500)
            }
        );
        assert!(c.charge(Duration::from_millis(800), margin));
        // 1 - 0.8 + 0.5 = 0.7
        assert!((c.left().unwrap() - 0.7).abs() < 1e-9);
        assert_eq!(
            c.deadline(margin, Duration::ZERO),
            Duration::from_millis(800)
        );
        // Using 0.75 leaves -0.05: within the margin, still playing; 0.45 after the increment.
        assert!(c.charge(Duration::from_millis(750), margin));
        assert!((c.left().unwrap() - 0.45).abs() < 1e-9);
        // 0.45 on the clock is less than the increment: never more than the clock.
        assert_eq!(
            c.budget(),
            Budget::Clock {
                time: Duration::ZERO,
                inc: Duration::from_secs_f64(0.45)
            }
        );
        // Using 0.6 leaves -0.15: lost on time.
        assert!(!c.charge(Duration::from_millis(600), margin));
    }

    #[test]
    fn move_time_and_untimed() {
        let margin = Duration::from_millis(50);
        let mut c = Clock::new(Control::MoveTime(Duration::from_millis(100)));
        assert!(c.charge(Duration::from_millis(140), margin));
        assert!(!c.charge(Duration::from_millis(151), margin));
        let mut n = Clock::new(Control::Nodes(1000));
        assert!(n.charge(Duration::from_secs(100), margin));
        assert_eq!(
            n.deadline(margin, Duration::from_secs(7)),
            Duration::from_secs(7)
        );
    }
}
