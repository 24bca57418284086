//! The numbers users give tiao, read one way everywhere: whole numbers in a range and times in
//! seconds, from the command line, the Hub's `set-param` and `level`, and match specs. Each way
//! in names the option and adds these functions' reason: `nan`, infinities, negative, fractional
//! where a whole number is meant, and absurd values are refused, never clamped.

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

/// A time in seconds read from `text`, checked by [`seconds`].
pub fn parse_seconds(text: &str) -> Result<f64, String> {
    let v: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds"))?;
    seconds(v)
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
}
