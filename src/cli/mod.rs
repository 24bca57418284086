//! Subcommands of the `tiao` binary. Each parses its arguments (clap) and formats output; the
//! work is done by the library. The arguments several subcommands share are here: the game
//! ([`GameArgs`]), a position given as a FEN and moves ([`PositionArgs`]) and search parameters
//! ([`ParamArgs`]).

use clap::Args;
use tiao::engine::EngineError;
use tiao::game::Variant;
use tiao::search::Params;
use tiao::variant::{DrawRuleSet, GameKind};

pub mod analyze;
pub mod bench;
pub mod board;
pub mod dxp;
pub mod hub;
pub mod matches;
pub mod perft;
pub mod tune;

/// The game a subcommand plays.
#[derive(Args, Clone, Debug)]
pub struct GameArgs {
    /// Variant: international (normal), brazilian, russian, duoyibu, english.
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
