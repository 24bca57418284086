//! Subcommands of the `tiao` binary. Each parses its arguments (clap) and formats output; the
//! work is done by the library. The arguments several subcommands share are here: the game
//! ([`GameArgs`]) and a position given as a FEN and moves ([`PositionArgs`]).

use clap::Args;
use tiao::rules::Variant;
use tiao::variant::{DrawRuleSet, GameKind};

pub mod analyze;
pub mod bench;
pub mod board;
pub mod dxp;
pub mod hub;
pub mod matches;
pub mod perft;

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
