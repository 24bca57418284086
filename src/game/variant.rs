//! The games tiao plays, named at run time: [`Variant`] (a draughts variant or Nine Men's Morris),
//! its names and aliases, and [`UnknownVariant`] for a name that is none of them. The choice is
//! resolved into a concrete type once, at the engine's edge ([`dispatch!`](crate::dispatch)).

use std::fmt;
use std::str::FromStr;

/// A draughts variant or Nine Men's Morris, chosen at run time (CLI, Hub `variant` parameter).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Variant {
    /// International draughts, 10x10 (alias `normal`).
    #[default]
    International,
    /// Brazilian draughts: international rules on 8x8.
    Brazilian,
    /// Russian draughts.
    Russian,
    /// Duoyibu (Kazakh draughts).
    Duoyibu,
    /// English draughts / American checkers.
    English,
    /// Nine Men's Morris.
    Morris,
}

impl Variant {
    /// Every variant, in the order the Hub `variant` parameter lists them.
    pub const ALL: [Variant; 6] = [
        Variant::International,
        Variant::Brazilian,
        Variant::Russian,
        Variant::Duoyibu,
        Variant::English,
        Variant::Morris,
    ];

    /// The canonical name (RULES.md's `variant=` value).
    pub const fn name(self) -> &'static str {
        match self {
            Variant::International => "international",
            Variant::Brazilian => "brazilian",
            Variant::Russian => "russian",
            Variant::Duoyibu => "duoyibu",
            Variant::English => "english",
            Variant::Morris => "morris",
        }
    }

    /// The names the Hub protocol declares (Scan's `normal` first, as Hub GUIs and pydraughts
    /// expect it).
    pub const fn hub_name(self) -> &'static str {
        match self {
            Variant::International => "normal",
            v => v.name(),
        }
    }

    /// Whether the variant is a draughts variant (not Morris).
    pub const fn is_draughts(self) -> bool {
        !matches!(self, Variant::Morris)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown variant name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown variant '{}' (expected international/normal, brazilian, russian, duoyibu, english/american/checkers, morris)",
            self.0
        )
    }
}

impl std::error::Error for UnknownVariant {}

impl FromStr for Variant {
    type Err = UnknownVariant;
    /// Accepts the names and aliases of RULES.md, case-insensitively.
    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        Ok(match s.trim().to_ascii_lowercase().as_str() {
            "international" | "normal" | "standard" | "10x10" => Variant::International,
            "brazilian" => Variant::Brazilian,
            "russian" => Variant::Russian,
            "duoyibu" | "doiby" | "kazakh" => Variant::Duoyibu,
            "english" | "american" | "checkers" => Variant::English,
            "morris" | "nine-men-morris" | "ninemensmorris" => Variant::Morris,
            _ => return Err(UnknownVariant(s.to_string())),
        })
    }
}
