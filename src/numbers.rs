//! The numbers users give tiao, read one way everywhere: whole numbers in a range and times, from
//! the command line, the Hub's `set-param` and `level`, and match specs. Each way in names the
//! option and adds these functions' reason: `nan`, infinities, negative, fractional where a whole
//! number is meant, and absurd values are refused, never clamped.
//!
//! Times typed by a user ([`parse_time`]) take a unit, `ms` or `s` (`100ms`, `0.5s`); a number
//! without one is in the option's own unit ([`TimeUnit`]: milliseconds for `tiao match
//! --movetime` and `--margin`, seconds elsewhere), as before units were read. A number without a
//! unit that means less than a millisecond is refused ([`LEAST_BARE_SECONDS`]): it is a unit
//! forgotten (`--movetime 0.05` meant 0.05 s, not 50 microseconds), and the message names the
//! units. The Hub's `level` times are the protocol's own (seconds, [`seconds`]).

/// The longest time tiao accepts anywhere (a move time, a clock, an increment, a timeout), in
/// seconds: about 115 days.
pub const MAX_SECONDS: f64 = 1e7;

/// `value` if it is in `min..=max`; else why not ("0 is not in 1..=256").
pub fn in_range(value: u64, min: u64, max: u64) -> Result<u64, String> {
    if (min..=max).contains(&value) {
        Ok(value)
    } else {
        Err(format!("{value} is not in {min}..={max}"))
    }
}

/// A whole number in `min..=max` read from `text` (blanks around it allowed); else why not.
pub fn whole(text: &str, min: u64, max: u64) -> Result<u64, String> {
    match text.trim().parse::<i128>() {
        Ok(n) if n < i128::from(min) || n > i128::from(max) => {
            Err(format!("{n} is not in {min}..={max}"))
        }
        Ok(n) => Ok(n as u64),
        Err(_) => Err(format!("'{text}' is not a whole number")),
    }
}

/// `secs` if it is a time tiao accepts: finite, from 0 to [`MAX_SECONDS`]; else why not.
pub fn seconds(secs: f64) -> Result<f64, String> {
    if secs.is_finite() && (0.0..=MAX_SECONDS).contains(&secs) {
        Ok(secs)
    } else {
        Err(format!("{secs} is not in 0..={MAX_SECONDS} seconds"))
    }
}

/// The unit of a time given without one: each option's own.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TimeUnit {
    /// Milliseconds (`tiao match --movetime 100`).
    Millis,
    /// Seconds (`tiao analyze --movetime 2`, timeouts, clocks).
    Seconds,
}

impl TimeUnit {
    /// Its length in seconds.
    pub const fn seconds(self) -> f64 {
        match self {
            TimeUnit::Millis => 1e-3,
            TimeUnit::Seconds => 1.0,
        }
    }

    /// Its name in messages.
    pub const fn name(self) -> &'static str {
        match self {
            TimeUnit::Millis => "milliseconds",
            TimeUnit::Seconds => "seconds",
        }
    }
}

/// The suffix of a time in milliseconds (`100ms`).
pub const MILLIS_SUFFIX: &str = "ms";
/// The suffix of a time in seconds (`0.5s`).
pub const SECONDS_SUFFIX: &str = "s";
/// The least time, in seconds, a positive number without a unit may mean (a millisecond): below
/// it, a unit was forgotten.
pub const LEAST_BARE_SECONDS: f64 = 1e-3;

/// A time in seconds read from `text`: a number with a unit, `ms` or `s` (`100ms`, `0.5s`, blanks
/// allowed), or a bare number in `unit`; checked by [`seconds`]. A bare positive number that
/// means less than [`LEAST_BARE_SECONDS`] is refused, naming the units ("0.05 is under a
/// millisecond ..."); zero keeps its meaning, for the options that take it.
pub fn parse_time(text: &str, unit: TimeUnit) -> Result<f64, String> {
    let t = text.trim();
    let (number, scale, bare) = if let Some(n) = t.strip_suffix(MILLIS_SUFFIX) {
        (n, TimeUnit::Millis.seconds(), false)
    } else if let Some(n) = t.strip_suffix(SECONDS_SUFFIX) {
        (n, TimeUnit::Seconds.seconds(), false)
    } else {
        (t, unit.seconds(), true)
    };
    let v: f64 = number.trim().parse().map_err(|_| {
        format!(
            "'{text}' is not a time (a number with a unit, e.g. 100{MILLIS_SUFFIX} or \
             0.5{SECONDS_SUFFIX}; without one, {})",
            unit.name()
        )
    })?;
    let secs = seconds(v * scale)?;
    if bare && secs > 0.0 && secs < LEAST_BARE_SECONDS {
        return Err(format!(
            "{t} is under a millisecond (a number without a unit is {} here); give a unit: \
             {t}{SECONDS_SUFFIX} or {t}{MILLIS_SUFFIX}",
            unit.name()
        ));
    }
    Ok(secs)
}

/// A time read from `text` by [`parse_time`], a bare number in seconds.
pub fn parse_seconds(text: &str) -> Result<f64, String> {
    parse_time(text, TimeUnit::Seconds)
}

/// A switch's value: `true`/`false`, `on`/`off`, `yes`/`no`, `1`/`0` (any case); `None` for
/// anything else. The one reader of the Hub's booleans, the book's `book` and the search
/// parameters' switches.
pub fn switch(text: &str) -> Option<bool> {
    match text.trim().to_ascii_lowercase().as_str() {
        "true" | "on" | "yes" | "1" => Some(true),
        "false" | "off" | "no" | "0" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_numbers_in_their_range() {
        assert_eq!(whole(" 16 ", 1, 256), Ok(16));
        assert_eq!(whole("0", 1, 256), Err("0 is not in 1..=256".into()));
        assert_eq!(whole("-1", 1, 256), Err("-1 is not in 1..=256".into()));
        assert_eq!(
            whole("5000000000", 0, 10_000),
            Err("5000000000 is not in 0..=10000".into())
        );
        assert_eq!(whole("18446744073709551615", 1, u64::MAX), Ok(u64::MAX));
        for bad in ["", "x", "1.5", "nan", "1e3"] {
            assert!(
                whole(bad, 0, 10)
                    .unwrap_err()
                    .contains("not a whole number")
            );
        }
        assert_eq!(in_range(7, 1, 10), Ok(7));
        assert!(in_range(11, 1, 10).is_err());
    }

    #[test]
    fn times_are_finite_and_in_range() {
        assert_eq!(parse_seconds("0.5"), Ok(0.5));
        assert_eq!(parse_seconds(" 0 "), Ok(0.0));
        assert_eq!(parse_seconds("1e7"), Ok(MAX_SECONDS));
        for bad in ["nan", "NaN", "inf", "-inf", "-1", "1.1e7", "x", ""] {
            assert!(parse_seconds(bad).is_err(), "{bad}");
        }
        assert!(seconds(f64::NAN).is_err());
    }

    #[test]
    fn times_take_a_unit_or_the_options_own() {
        use TimeUnit::{Millis, Seconds};
        // A unit is read whatever the option's own; a bare number is in the option's unit.
        for unit in [Millis, Seconds] {
            assert_eq!(parse_time("100ms", unit), Ok(0.1));
            assert_eq!(parse_time(" 0.5s ", unit), Ok(0.5));
            assert_eq!(parse_time("2 s", unit), Ok(2.0));
            assert_eq!(parse_time("1e7s", unit), Ok(MAX_SECONDS));
            // Explicit, a time under a millisecond is what was asked for.
            assert_eq!(parse_time("0.5ms", unit), Ok(0.0005));
            assert_eq!(parse_time("0", unit), Ok(0.0));
            assert_eq!(parse_time("0ms", unit), Ok(0.0));
        }
        assert_eq!(parse_time("100", Millis), Ok(0.1));
        assert_eq!(parse_time("1", Millis), Ok(0.001));
        assert_eq!(parse_time("2", Seconds), Ok(2.0));
        assert_eq!(parse_time("0.001", Seconds), Ok(0.001));
        assert_eq!(parse_seconds("0.25"), Ok(0.25));
        // Refused: out of range, not a number, a unit alone or unknown.
        for bad in [
            "nan", "nans", "inf", "-1ms", "-0.5s", "1.1e7s", "1e11", "", "ms", "s", "5 min", "10m",
            "1h", "x",
        ] {
            assert!(parse_time(bad, Millis).is_err(), "{bad}");
        }
        assert!(parse_time("x", Millis).unwrap_err().contains("100ms"));
    }

    #[test]
    fn a_bare_time_under_a_millisecond_is_a_unit_forgotten() {
        use TimeUnit::{Millis, Seconds};
        for (text, unit) in [
            ("0.05", Millis),
            ("0.999", Millis),
            ("1e-9", Millis),
            ("0.0005", Seconds),
            ("1e-4", Seconds),
        ] {
            let e = parse_time(text, unit).unwrap_err();
            assert!(e.contains("under a millisecond"), "{text}: {e}");
            // The units, and what this option reads without one.
            assert!(
                e.contains(&format!("{text}s or {text}ms")) && e.contains(unit.name()),
                "{text}: {e}"
            );
        }
        assert_eq!(
            parse_time("0.05", Millis),
            Err(
                "0.05 is under a millisecond (a number without a unit is milliseconds here); \
                 give a unit: 0.05s or 0.05ms"
                    .into()
            )
        );
        assert!(parse_seconds("0.0001").is_err());
    }
}
