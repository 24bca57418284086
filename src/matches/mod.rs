//! Engine matches: two players, a set of openings each played twice with colours reversed, games
//! on several threads, adjudication, clocks, statistics and a PDN record of every game.
//!
//! - [`PlayerSpec`]: a player as text: the built-in engine with its settings
//!   (`"tiao threads=1 hash=16 lmr=off"`, see [`EngineConfig`]) or any external Hub engine by its
//!   command line (`"dame hub"`, `"scan hub option.book=false"`).
//! - [`player`]: the [`Player`] trait and its two implementations (in process, external process).
//! - [`clock`]: time controls (per move, base + increment kept by the runner, nodes, depth).
//! - [`openings`]: the built-in openings (english: the 156 ACF three-move ballots of
//!   [`crate::draughts::ballots`]; others:
//!   balanced random walks) and openings read from a file.
//! - [`referee`]: the game as the runner sees it, ended by the variant's rules.
//! - [`runner`]: [`run_match`], the games themselves; [`GameRecord`] and [`MatchResult`].
//! - [`stats`]: Elo with a 95% interval, likelihood of superiority, SPRT.
//! - [`spsa`]: the search's numeric tunables fitted by SPSA over fixed-node games played by
//!   [`run_match`] (`tiao spsa`).
//!
//! Invariants: a player that crashes, hangs past its time, answers garbage or plays an illegal
//! move loses that game (the reason is recorded) and is restarted for the next one; nothing a
//! player does can panic or block the runner beyond the deadline of its move. With node or depth
//! limits, one search thread and concurrency 1, a match of built-in engines is reproducible.

pub use crate::draughts::ballots;
pub mod clock;
pub mod openings;
pub mod player;
pub mod referee;
pub mod runner;
pub mod spsa;
pub mod stats;

pub use clock::Control;
pub use openings::Opening;
pub use player::{BuiltinPlayer, ExternalPlayer, Fault, Player, Reply, Request};
pub use runner::{Adjudication, End, GameRecord, MatchConfig, MatchResult, Progress, run_match};
pub use stats::{Elo, Pentanomial, Sprt, SprtState, Wdl};

use crate::engine::{EgdbSetting, EngineOptions, OptionError};
use crate::protocol::hub::client::{ClientConfig, Log};
use std::time::Duration;

/// The built-in engine's settings in a match.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineConfig {
    /// The spec it was read from (for reports).
    pub name: String,
    /// The engine's settings: one search thread, a 16 MiB table and no book unless the spec
    /// says (so that a match's openings keep their meaning).
    pub options: EngineOptions,
    /// Whether the spec named the endgame tables (`egdb-path=DIR`, `egdb-path=none`); when it
    /// did not, [`EngineConfig::default_egdb`] gives the match's `--egdb`.
    pub egdb_given: bool,
}

impl EngineConfig {
    /// Reads `"tiao key=value ..."`: any option of [`EngineOptions::set`], by any of its names
    /// (the Hub's `set-param` reads the same): `threads`, `hash` (MiB), `egdb-path` (a
    /// directory of endgame tables, or `none`), `move-overhead`, the book options of
    /// [`BookOptions::NAMES`](crate::engine::BookOptions::NAMES) (`book=on` plays from the
    /// book; off by default), a time tunable of
    /// [`TimeParams::NAMES`](crate::search::time::TimeParams::NAMES), or any search parameter of
    /// [`Params::NAMES`](crate::search::Params::NAMES). `variant` and `draw-rules` are the
    /// match's (`--variant`, `--draw-rules`).
    pub fn parse(spec: &str) -> Result<EngineConfig, String> {
        let mut words = spec.split_whitespace();
        match words.next() {
            Some("tiao") => {}
            Some(other) => {
                return Err(format!(
                    "unknown built-in engine '{other}' (the built-in engine is 'tiao')"
                ));
            }
            None => return Err("empty engine spec".into()),
        }
        let mut cfg = EngineConfig {
            name: spec.split_whitespace().collect::<Vec<_>>().join(" "),
            options: EngineOptions {
                threads: 1,
                hash_mib: 16,
                ..EngineOptions::default()
            },
            egdb_given: false,
        };
        for w in words {
            let (k, v) = w
                .split_once('=')
                .ok_or_else(|| format!("'{w}' is not key=value"))?;
            let key = cfg.options.set(k, v).map_err(|e| match e {
                OptionError::GameRules => {
                    format!(
                        "{k}: set by the match (--variant, --draw-rules), not by an engine spec"
                    )
                }
                OptionError::Bad(reason) => format!("{k}={v}: {reason}"),
            })?;
            cfg.egdb_given |= key == "egdb-path";
        }
        Ok(cfg)
    }

    /// The match's endgame tables (`--egdb`), unless the spec named its own.
    pub fn default_egdb(&mut self, setting: &EgdbSetting) {
        if !self.egdb_given {
            self.options.egdb = setting.clone();
        }
    }
}

/// A player of a match, as given on the command line.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerSpec {
    /// The built-in engine: `tiao key=value ...`.
    Builtin(Box<EngineConfig>),
    /// An external Hub engine: its command line, with `option.NAME=VALUE` words sent as
    /// `set-param`.
    External(ClientConfig),
}

impl PlayerSpec {
    /// The spec as the user wrote it, near enough to tell two players apart in reports.
    pub fn describe(&self) -> String {
        match self {
            PlayerSpec::Builtin(cfg) => cfg.name.clone(),
            PlayerSpec::External(c) => c.command.join(" "),
        }
    }

    /// Reads a spec: `tiao` followed only by `key=value` words is the built-in engine, anything
    /// else is the command line of an external engine (`./target/release/tiao hub` included).
    pub fn parse(spec: &str, start_timeout: Duration) -> Result<PlayerSpec, String> {
        let mut words = spec.split_whitespace();
        if words.next() == Some("tiao") && words.all(|w| w.contains('=')) {
            return EngineConfig::parse(spec).map(|c| PlayerSpec::Builtin(Box::new(c)));
        }
        player::external_config(spec, start_timeout).map(PlayerSpec::External)
    }

    /// The table a built-in engine allocates, in MiB (`None`: an external engine, whose memory
    /// is its own business).
    pub fn table_mib(&self) -> Option<usize> {
        match self {
            PlayerSpec::Builtin(c) => {
                Some(c.options.hash_mib.clamp(1, crate::engine::MAX_HASH_MIB))
            }
            PlayerSpec::External(_) => None,
        }
    }

    /// A new player (not started); `label` tags an external engine's lines in `log`.
    pub fn player(&self, label: &str, log: Option<Log>) -> Box<dyn Player> {
        match self {
            PlayerSpec::Builtin(c) => Box::new(BuiltinPlayer::new(c.as_ref().clone())),
            PlayerSpec::External(c) => Box::new(ExternalPlayer::new(c.clone(), label, log)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_spec() {
        let e = EngineConfig::parse("tiao threads=2 hash=8 lmr=off").unwrap();
        let o = &e.options;
        assert_eq!((o.threads, o.hash_mib, o.params.lmr), (2, 8, false));
        assert!(!e.egdb_given && !o.book.enabled);
        assert!(EngineConfig::parse("scan").is_err());
        assert!(EngineConfig::parse("tiao lmr").is_err());
        assert!(EngineConfig::parse("tiao bogus=1").is_err());
        // The names and aliases of the Hub's `set-param` (engine::option_name).
        let e = EngineConfig::parse("tiao tt-size=8 Move_Overhead=50 time_adapt=off").unwrap();
        assert_eq!(e.options.hash_mib, 8);
        assert_eq!(e.options.time.move_overhead, Duration::from_millis(50));
        assert!(!e.options.time.adapt);
        // A spec's tables stay its own; without, the match's --egdb is taken.
        let mut e = EngineConfig::parse("tiao egdb=none").unwrap();
        assert!(e.egdb_given);
        e.default_egdb(&EgdbSetting::Default);
        assert_eq!(e.options.egdb, EgdbSetting::Off);
        let mut e = EngineConfig::parse("tiao").unwrap();
        e.default_egdb(&EgdbSetting::Off);
        assert_eq!(e.options.egdb, EgdbSetting::Off);
        for bad in [
            "move-overhead=-1",
            "move-overhead=20000",
            "egdb=/no/such/dir",
        ] {
            let e = EngineConfig::parse(&format!("tiao {bad}")).unwrap_err();
            assert!(e.starts_with(bad), "{bad}: {e}");
        }
        let e = EngineConfig::parse("tiao variant=english").unwrap_err();
        assert!(e.contains("--variant"), "{e}");
        for bad in [
            "threads=0",
            "threads=257",
            "hash=0",
            "hash=100000",
            "hash=-1",
            "hash=x",
        ] {
            let e = EngineConfig::parse(&format!("tiao {bad}")).unwrap_err();
            assert!(e.starts_with(bad), "{bad}: {e}");
        }
    }

    #[test]
    fn player_specs() {
        let t = Duration::from_secs(1);
        assert!(matches!(
            PlayerSpec::parse("tiao hash=1", t),
            Ok(PlayerSpec::Builtin(_))
        ));
        assert!(matches!(
            PlayerSpec::parse("tiao", t),
            Ok(PlayerSpec::Builtin(_))
        ));
        assert!(matches!(
            PlayerSpec::parse("tiao hub", t),
            Ok(PlayerSpec::External(_))
        ));
        assert!(matches!(
            PlayerSpec::parse("dame hub", t),
            Ok(PlayerSpec::External(_))
        ));
        assert!(PlayerSpec::parse("tiao bogus=1", t).is_err());
        assert!(PlayerSpec::parse("  ", t).is_err());
    }
}
