//! The run-time choice of game: a [`Variant`] plus the draw-rule set, resolved once into a
//! concrete rules type by [`dispatch!`](crate::dispatch), so that everything below the edge is
//! monomorphised.

pub use crate::game::{UnknownVariant, Variant};
use std::fmt;
use std::str::FromStr;

/// Which draw rules a variant plays by. Only russian has a choice (RULES.md: `draw-rules=fmjd`
/// selects the FMJD-64 set); other variants ignore it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Hash)]
pub enum DrawRuleSet {
    /// The variant's own rules (RULES.md's draw table).
    #[default]
    Standard,
    /// The official FMJD-64 set.
    Fmjd,
}

impl DrawRuleSet {
    /// The parameter value.
    pub const fn name(self) -> &'static str {
        match self {
            DrawRuleSet::Standard => "standard",
            DrawRuleSet::Fmjd => "fmjd",
        }
    }
}

impl fmt::Display for DrawRuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for DrawRuleSet {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "standard" | "default" | "russian" | "variant" => Ok(DrawRuleSet::Standard),
            "fmjd" | "fmjd64" | "fmjd-64" => Ok(DrawRuleSet::Fmjd),
            other => Err(format!(
                "unknown draw rules '{other}' (expected standard or fmjd)"
            )),
        }
    }
}

/// A game chosen at run time: the variant and its draw rules.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Hash)]
pub struct GameKind {
    pub variant: Variant,
    pub draw_rules: DrawRuleSet,
}

impl GameKind {
    /// A variant with its standard draw rules.
    pub const fn new(variant: Variant) -> Self {
        GameKind {
            variant,
            draw_rules: DrawRuleSet::Standard,
        }
    }
}

/// Runs an expression with a type alias bound to the concrete rules of a run-time [`GameKind`].
///
/// ```
/// use tiao::{dispatch, draughts::position::Position, game::Game, game::Variant, variant::GameKind};
/// let kind = GameKind::new(Variant::Russian);
/// let fen = dispatch!(kind, R => Position::<R>::start().fen(), morris => String::from("morris"));
/// assert_eq!(fen, "W:Wa3,c3,e3,g3,b2,d2,f2,h2,a1,c1,e1,g1:Bb8,d8,f8,h8,a7,c7,e7,g7,b6,d6,f6,h6");
/// ```
#[macro_export]
macro_rules! dispatch {
    ($kind:expr, $R:ident => $body:expr, morris => $morris:expr) => {{
        let kind: $crate::variant::GameKind = $kind;
        match (kind.variant, kind.draw_rules) {
            ($crate::draughts::rules::Variant::International, _) => {
                type $R = $crate::draughts::rules::International;
                $body
            }
            ($crate::draughts::rules::Variant::Brazilian, _) => {
                type $R = $crate::draughts::rules::Brazilian;
                $body
            }
            ($crate::draughts::rules::Variant::Russian, $crate::variant::DrawRuleSet::Standard) => {
                type $R = $crate::draughts::rules::Russian;
                $body
            }
            ($crate::draughts::rules::Variant::Russian, $crate::variant::DrawRuleSet::Fmjd) => {
                type $R = $crate::draughts::rules::RussianFmjd;
                $body
            }
            ($crate::draughts::rules::Variant::Duoyibu, _) => {
                type $R = $crate::draughts::rules::Duoyibu;
                $body
            }
            ($crate::draughts::rules::Variant::English, _) => {
                type $R = $crate::draughts::rules::English;
                $body
            }
            ($crate::draughts::rules::Variant::Morris, _) => $morris,
        }
    }};
}
