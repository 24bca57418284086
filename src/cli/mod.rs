//! Subcommands of the `tiao` binary. Each parses its arguments (clap) and formats output; the
//! work is done by the library. The arguments several subcommands share are here: the game
//! ([`GameArgs`]), a position given as a FEN and moves ([`PositionArgs`]) and search parameters
//! ([`ParamArgs`]), and the value parsers that check every number when the command line is read
//! ([`whole`], [`seconds`], [`positive_seconds`], [`positive_millis`], all through
//! `tiao::numbers`): NaN, infinities, negative and absurd values, and times without a unit under a
//! millisecond, are refused before anything runs, naming the option and the range.

use clap::Args;
use tiao::engine::EngineError;
use tiao::game::Variant;
use tiao::memory::MemoryError;
use tiao::numbers::TimeUnit;
use tiao::search::Params;
use tiao::variant::{DrawRuleSet, GameKind};

pub mod analyze;
pub mod bench;
mod bench_positions;
mod bench_timing;
pub mod board;
pub mod book;
pub mod dxp;
pub mod egdb;
pub mod gui;
pub mod hub;
pub mod matches;
pub mod perft;
pub mod relabel;
pub mod selfplay;
pub mod shard;
pub mod spsa;
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

/// The pattern weights a searching command evaluates with.
#[derive(Args, Clone, Debug, Default)]
pub struct WeightsArgs {
    /// A pattern-weight file (`tiao tune --out`) to evaluate with instead of the embedded
    /// weights of the variant's family; refused unless it is a whole, undamaged file of that
    /// family.
    #[arg(long, value_name = "FILE")]
    pub weights: Option<std::path::PathBuf>,
}

impl WeightsArgs {
    /// Makes the file the process's weights for `kind`'s variant (refused, naming the option,
    /// when it does not read or is another family's); nothing without one.
    pub fn choose(&self, kind: GameKind) -> Result<(), String> {
        match &self.weights {
            Some(path) => choose_weights(kind, path, "--weights "),
            None => Ok(()),
        }
    }
}

/// Makes the weight file at `path` the process's weights for `kind`'s variant; an error (the
/// file does not read, or is another family's, or the game has no pattern weights) starts with
/// `option` (`--weights `, `weights=`) and names the file.
pub fn choose_weights(kind: GameKind, path: &std::path::Path, option: &str) -> Result<(), String> {
    use tiao::draughts::eval::active::{self, WeightsFile};
    let name = kind.variant.to_string();
    let file = tiao::dispatch!(kind,
    R => WeightsFile::read(path).and_then(|f| f.for_rules::<R>(&name)),
    morris => return Err(format!(
        "{option}{}: morris has no pattern weights (its evaluation is hand-made)",
        path.display()
    )));
    active::choose(vec![file.map_err(|e| format!("{option}{e}"))?])
        .map_err(|e| format!("{option}{e}"))
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
        EngineError::Memory(m) => memory_error(m),
        e => e.to_string(),
    }
}

/// A table the machine cannot give, as the command line words it: the error names `hash`, the
/// option is `--hash`.
pub fn memory_error(e: MemoryError) -> String {
    format!("--{e}")
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
/// A clap value parser for a whole number in `min..=max` (clap's message names the option, the
/// reason is `tiao::numbers::whole`'s: "0 is not in 1..=256"). `max` fits `T`.
pub fn whole<T>(min: u64, max: u64) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync
where
    T: TryFrom<u64> + Clone + Send + Sync + 'static,
{
    move |text| {
        let n = tiao::numbers::whole(text, min, max)?;
        T::try_from(n).map_err(|_| format!("{n} is too large"))
    }
}

/// A clap value parser for a time, in seconds: a number with a unit (`500ms`, `2s`) or a bare
/// number of seconds, from 0 to `tiao::numbers::MAX_SECONDS` (`tiao::numbers::parse_time`: a
/// bare number under a millisecond is refused).
pub fn seconds(text: &str) -> Result<f64, String> {
    tiao::numbers::parse_time(text, TimeUnit::Seconds)
}

/// As [`seconds`], above zero.
pub fn positive_seconds(text: &str) -> Result<f64, String> {
    positive(text, seconds(text)?)
}

/// As [`positive_seconds`], a bare number in milliseconds (`tiao match --movetime 100`); the
/// time in seconds.
pub fn positive_millis(text: &str) -> Result<f64, String> {
    positive(text, tiao::numbers::parse_time(text, TimeUnit::Millis)?)
}

/// `secs` when it is above zero; else why not.
fn positive(text: &str, secs: f64) -> Result<f64, String> {
    if secs > 0.0 {
        Ok(secs)
    } else {
        Err(format!("{text}: the time must be above 0"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positive_times() {
        assert!(positive_seconds("0").is_err());
        assert!(positive_seconds("nan").is_err());
        assert_eq!(positive_seconds("2"), Ok(2.0));
        assert_eq!(positive_seconds("250ms"), Ok(0.25));
        assert_eq!(positive_millis("250"), Ok(0.25));
        assert_eq!(positive_millis("2s"), Ok(2.0));
        assert!(positive_millis("0ms").is_err());
        assert!(
            positive_millis("0.05")
                .unwrap_err()
                .contains("0.05s or 0.05ms")
        );
    }
}
