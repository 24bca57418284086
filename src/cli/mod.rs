//! Subcommands of the `tiao` binary. Each parses its arguments (clap) and formats output; the
//! work is done by the library. The arguments several subcommands share are here: the game
//! ([`GameArgs`]), a position given as a FEN and moves ([`PositionArgs`]) and search parameters
//! ([`ParamArgs`]), and the value parsers that check every number when the command line is read
//! ([`whole`], [`seconds`], [`positive_seconds`]): NaN, infinities, negative and absurd values
//! are refused before anything runs, naming the option and the range.

use clap::Args;
use clap::builder::RangedU64ValueParser;
use tiao::engine::EngineError;
use tiao::game::Variant;
use tiao::search::Params;
use tiao::variant::{DrawRuleSet, GameKind};

pub mod analyze;
pub mod bench;
mod bench_timing;
pub mod board;
pub mod dxp;
pub mod egdb;
pub mod hub;
pub mod matches;
pub mod perft;
pub mod selfplay;
pub mod tune;

/// The game a subcommand plays.
#[derive(Args, Clone, Debug)]
pub struct GameArgs {
    /// Variant: international (normal), brazilian, russian, duoyibu, english, morris (Nine Men's
    /// Morris).
    #[arg(long, short, default_value = "international")]
    pub variant: Variant,
    /// Draw rules (russian only): standard or fmjd.
    #[arg(long, default_value = "standard")]
    pub draw_rules: DrawRuleSet,
}

impl GameArgs {
    /// The game chosen.
    pub fn kind(&self) -> GameKind {
        GameKind {
            variant: self.variant,
            draw_rules: self.draw_rules,
        }
    }
}

/// A position: a FEN and the moves played from it.
#[derive(Args, Clone, Debug)]
pub struct PositionArgs {
    /// Position (PDN FEN); default: the variant's start position.
    #[arg(long, short)]
    pub fen: Option<String>,
    /// Moves played from the position, space-separated (PDN or Hub form).
    #[arg(long, short)]
    pub moves: Option<String>,
}

impl PositionArgs {
    /// The moves, one string each.
    pub fn moves(&self) -> Vec<&str> {
        self.moves
            .as_deref()
            .map(|m| m.split_whitespace().collect())
            .unwrap_or_default()
    }
}

/// The endgame tables a searching command uses.
#[derive(Args, Clone, Debug, Default)]
pub struct EgdbArgs {
    /// Endgame tables directory (see `tiao egdb`); 'none' for no tables. Default: the user's
    /// data directory ($XDG_DATA_HOME/tiao/egdb or ~/.local/share/tiao/egdb) when it exists.
    #[arg(long, value_name = "DIR")]
    pub egdb: Option<String>,
}

impl EgdbArgs {
    /// The engine setting.
    pub fn setting(&self) -> tiao::engine::EgdbSetting {
        self.egdb.as_deref().map_or(
            tiao::engine::EgdbSetting::Default,
            tiao::engine::EgdbSetting::parse,
        )
    }

    /// The setting, checked: a directory that is not one is an error naming the option.
    pub fn checked(&self) -> Result<tiao::engine::EgdbSetting, String> {
        let s = self.setting();
        s.dir().map_err(|e| format!("--egdb: {e}"))?;
        Ok(s)
    }
}

/// Warns on stderr of the endgame table files an engine refused (it plays without them).
pub fn warn_tables(engine: &tiao::engine::Engine) {
    for p in &engine.tables().problems {
        eprintln!("warning: endgame table refused: {p}");
    }
}

/// Search parameters changed from their defaults, named as the Hub's `set-param` and
/// `tiao match --engine "tiao name=value"` take them (an unknown name is answered with the list).
#[derive(Args, Clone, Debug)]
pub struct ParamArgs {
    /// Sets a search parameter, e.g. --set lmr=off --set rfp-margin=40 (repeatable).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
}

impl ParamArgs {
    /// The default parameters with the settings applied; an error names the bad setting.
    pub fn params(&self) -> Result<Params, String> {
        let mut p = Params::default();
        for s in &self.set {
            let (name, value) = s
                .split_once('=')
                .ok_or_else(|| format!("--set {s}: expected NAME=VALUE"))?;
            p.set(name, value).map_err(|e| format!("--set {s}: {e}"))?;
        }
        Ok(p)
    }
}

/// An engine error as the command line words it: a table the machine cannot give names the
/// `--hash` option.
pub fn engine_error(e: EngineError) -> String {
    match e {
        EngineError::Memory(m) => format!("--{m}"),
        e => e.to_string(),
    }
}

/// Says on stderr when `threads` search threads at once are more than the machine's cores.
pub fn warn_threads(threads: usize) {
    if let Some(w) = tiao::engine::threads_warning(threads) {
        eprintln!("warning: {w}");
    }
}

/// Deepest search a command line may ask for, in plies (the search's own limit).
pub const MAX_DEPTH: u64 = tiao::search::score::MAX_PLY as u64 - 1;
/// Most threads a command line may ask for (the engine's limit).
pub const MAX_THREADS: u64 = tiao::engine::MAX_THREADS as u64;
/// Largest table a command line may ask for, in MiB (the engine's limit).
pub const MAX_HASH_MIB: u64 = tiao::engine::MAX_HASH_MIB as u64;
/// Most parallel searches or games (`--jobs`, `--concurrency`).
pub const MAX_PARALLEL: u64 = 256;
/// The longest time a command line may give, in seconds (about 115 days).
pub const MAX_SECONDS: f64 = 1e7;

/// A clap value parser for a whole number in `min..=max` (clap's message names the option and
/// the range: "0 is not in 1..=256").
pub fn whole<T>(min: u64, max: u64) -> RangedU64ValueParser<T>
where
    T: TryFrom<u64> + Clone + Send + Sync + 'static,
    <T as TryFrom<u64>>::Error: std::error::Error + Send + Sync + 'static,
{
    RangedU64ValueParser::<T>::new().range(min..=max)
}

/// A clap value parser for a time in seconds: a finite number from 0 to [`MAX_SECONDS`].
pub fn seconds(text: &str) -> Result<f64, String> {
    let v: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds"))?;
    if v.is_finite() && (0.0..=MAX_SECONDS).contains(&v) {
        Ok(v)
    } else {
        Err(format!("{text} is not in 0..={MAX_SECONDS} seconds"))
    }
}

/// As [`seconds`], above zero.
pub fn positive_seconds(text: &str) -> Result<f64, String> {
    match seconds(text)? {
        v if v > 0.0 => Ok(v),
        _ => Err(format!("{text}: the time must be above 0 seconds")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_finite_and_in_range() {
        assert_eq!(seconds("0.5"), Ok(0.5));
        assert_eq!(seconds(" 0 "), Ok(0.0));
        for bad in ["nan", "NaN", "inf", "-inf", "-1", "1e8", "x", ""] {
            assert!(seconds(bad).is_err(), "{bad}");
        }
        assert!(positive_seconds("0").is_err());
        assert_eq!(positive_seconds("2"), Ok(2.0));
    }
}
