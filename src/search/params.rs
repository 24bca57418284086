//! Every tunable of the search, named, with its unit, in one place.
//!
//! A [`Params`] value is what a match or a tuner varies: each feature that a match decides on has
//! an on/off switch here, and every number the search uses comes from here (no magic numbers in
//! the search code). Depths and reductions are in plies, scores in centi-men.
//!
//! Parameters are also settable by name ([`Params::set`]), which is how `tiao match --engine
//! "tiao lmr=off"` and the engine's `set_option` reach them; [`Params::NAMES`] lists them.
//!
//! Invariant: the table given to `params!` below is the one list of parameters. Each line (a
//! doc comment, the name, the field, its type and default, and a lower bound where one applies)
//! makes the field, its default, its entry of [`Params::NAMES`], and its arms of [`Params::set`]
//! and [`Params::get`]: a new parameter is one new line.

use std::fmt;

/// How a parameter's value is read and written: switches as on/off, numbers as numbers.
trait Value: Sized {
    /// Reads the value of parameter `name`.
    fn parse(name: &str, text: &str) -> Result<Self, ParamError>;
    /// The value as [`Value::parse`] reads it back.
    fn text(&self) -> String;
}

impl Value for bool {
    fn parse(name: &str, v: &str) -> Result<bool, ParamError> {
        crate::numbers::switch(v)
            .ok_or_else(|| ParamError(format!("{name}: expected on/off, got '{v}'")))
    }

    fn text(&self) -> String {
        if *self { "on" } else { "off" }.to_string()
    }
}

/// The largest magnitude a numeric parameter takes: far beyond any useful setting, small enough
/// that the search's products of a parameter and a depth (margins times plies) cannot overflow.
const MAX_MAGNITUDE: f64 = 1e6;

macro_rules! numeric_values {
    ($($t:ty),*) => {$(
        impl Value for $t {
            fn parse(name: &str, v: &str) -> Result<$t, ParamError> {
                let bad = || {
                    ParamError(format!(
                        "{name}: '{v}' is not a number in -{MAX_MAGNITUDE}..={MAX_MAGNITUDE}"
                    ))
                };
                let x: $t = v.trim().parse().map_err(|_| bad())?;
                // NaN and the infinities fail this test too.
                if (x as f64).abs() <= MAX_MAGNITUDE {
                    Ok(x)
                } else {
                    Err(bad())
                }
            }

            fn text(&self) -> String {
                self.to_string()
            }
        }
    )*};
}

numeric_values!(i32, usize, u64, f64);

/// Makes [`Params`], its `Default`, [`Params::NAMES`] and the by-name setter and getter from one
/// table: `/// doc` `"name" => field: type = default` (`, at least MIN` clamps a value set by
/// name from below).
macro_rules! params {
    ($(
        $(#[$doc:meta])*
        $name:literal => $field:ident: $ty:ty = $default:expr $(, at least $min:literal)?;
    )*) => {
        /// The search's tunables.
        #[derive(Clone, Debug, PartialEq)]
        pub struct Params {
            $($(#[$doc])* pub $field: $ty,)*
        }

        impl Default for Params {
            fn default() -> Self {
                Params {
                    $($field: $default,)*
                }
            }
        }

        impl Params {
            /// Every parameter name [`Params::set`] accepts.
            pub const NAMES: &'static [&'static str] = &[$($name),*];

            /// Sets the parameter of normalised name `n`; `None` when there is none.
            fn set_by_name(&mut self, n: &str, value: &str) -> Option<Result<(), ParamError>> {
                match n {
                    $($name => Some(<$ty as Value>::parse(n, value).map(|v| {
                        self.$field = v $(.max($min))?;
                    })),)*
                    _ => None,
                }
            }

            /// The value of the parameter of normalised name `n`.
            fn get_by_name(&self, n: &str) -> Option<String> {
                match n {
                    $($name => Some(self.$field.text()),)*
                    _ => None,
                }
            }
        }
    };
}

params! {
    /// Aspiration windows around the previous iteration's score.
    "aspiration" => aspiration: bool = true;
    /// First iteration that uses an aspiration window (plies).
    "aspiration-min-depth" => aspiration_min_depth: i32 = 5;
    /// Half-width of the first aspiration window (centi-men); doubled at each failure.
    "aspiration-window" => aspiration_window: i32 = 28;

    /// Late move reductions.
    "lmr" => lmr: bool = true;
    /// Least remaining depth at which late moves are reduced (plies).
    "lmr-min-depth" => lmr_min_depth: i32 = 3;
    /// Moves searched in full before reductions start (count).
    "lmr-min-moves" => lmr_min_moves: usize = 3;
    /// Reduction = `lmr_base + ln(depth) * ln(move number) / lmr_divisor` (plies).
    "lmr-base" => lmr_base: f64 = 0.53;
    /// See `lmr_base`.
    "lmr-divisor" => lmr_divisor: f64 = 1.96;
    /// Plies less reduction at PV nodes.
    "lmr-pv-less" => lmr_pv_less: i32 = 1;

    /// A node with a single legal move is not counted as a ply (forced-move extension).
    "forced-extension" => forced_extension: bool = false;

    /// Reverse futility (static null move) pruning near the leaves, in quiet positions.
    "rfp" => rfp: bool = true;
    /// Deepest remaining depth at which reverse futility prunes (plies).
    "rfp-max-depth" => rfp_max_depth: i32 = 3;
    /// Margin per ply of remaining depth (centi-men).
    "rfp-margin" => rfp_margin: i32 = 58;

    /// ProbCut: at non-PV nodes with enough depth, a null-window search of the node itself at a
    /// fraction of the depth that beats beta by a margin prunes the node.
    "probcut" => probcut: bool = true;
    /// Least remaining depth at which ProbCut applies (plies; at least 2, so that the shallow
    /// search is at least a ply shallower than the node and at least a ply deep).
    "probcut-min-depth" => probcut_min_depth: i32 = 3, at least 2;
    /// ProbCut's margin above beta per ply of remaining depth (centi-men).
    "probcut-margin" => probcut_margin: i32 = 13;
    /// Depth of ProbCut's shallow search, in percent of the node's remaining depth (at least one
    /// ply).
    "probcut-depth-percent" => probcut_depth_percent: i32 = 40;

    /// Singular extensions: at nodes with enough depth whose table entry holds a move with a
    /// lower bound (or an exact score) from a search nearly as deep, the node is searched again
    /// without that move, at half the depth and a null window a margin below the entry's score.
    /// When every other move fails there, the hash move is singular and searched a ply deeper;
    /// when that window is above beta at a non-PV node, the node is cut (several moves beat it).
    "singular" => singular: bool = true;
    /// Least remaining depth at which a node tries the singular test (plies; at least 3, so that
    /// the test's search, at `(depth - 1) / 2`, is at least a ply deep: quiescence would leave
    /// out no move).
    "singular-min-depth" => singular_min_depth: i32 = 8, at least 3;
    /// How much shallower than the node the entry's search may be (plies).
    "singular-tt-depth" => singular_tt_depth: i32 = 3;
    /// The margin below the entry's score, per ply of the node's remaining depth (centi-men).
    "singular-margin" => singular_margin: i32 = 2;

    /// Late move pruning: near the leaves, in quiet non-PV nodes, the quiet moves after the first
    /// `lmp_base + depth²` are not searched.
    "lmp" => lmp: bool = true;
    /// Deepest remaining depth at which late move pruning applies (plies).
    "lmp-max-depth" => lmp_max_depth: i32 = 3;
    /// Moves always searched before late move pruning starts (plus depth²).
    "lmp-base" => lmp_base: usize = 4;

    /// Killer moves in move ordering.
    "killers" => killers: bool = true;
    /// History heuristic in move ordering.
    "history" => history: bool = true;
    /// Largest magnitude of a history value (the gravity bound).
    "history-max" => history_max: i32 = 1 << 14;

    /// A small table per search thread of the static evaluations of positions met before, by
    /// key: a position evaluated again (a transposition at the leaves) is not evaluated twice.
    /// The evaluation depends on the key's contents only, so the search is node for node the
    /// same with it or without it.
    "eval-cache" => eval_cache: bool = true;
    /// Entries of that table, as a power of two (8 bytes each: 14 is 128 KiB a thread; measured
    /// in docs/strength.md, larger tables were slower: each search allocates its own).
    "eval-cache-bits" => eval_cache_bits: usize = 14, at least 1;

    /// Contempt (centi-men): a draw in the tree (repetition, a draw counter, a table's draw)
    /// scores this much below zero for the side to move at the root, above zero for its
    /// opponent. Positive: play on rather than draw when the scores are level (against weaker
    /// opponents); negative: take the draw. At most [`MAX_CONTEMPT`] either way.
    "contempt" => contempt: i32 = 0;

    /// Transposition-table cutoffs (off: the table only orders moves).
    "tt-cutoffs" => tt_cutoffs: bool = true;

    /// A repetition inside the search path is scored as a draw at its second occurrence (off:
    /// only at the third, as the rules say; positions from the game history always need three).
    "twofold-in-path" => twofold_in_path: bool = true;

    /// Nodes between two looks at the clock by the main thread (at least 1 when set by name).
    "clock-check-nodes" => clock_check_nodes: u64 = 1024, at least 1;
}

/// Largest magnitude of `contempt` (centi-men): far from any decisive score. [`Params::set`]
/// refuses a larger one; the search holds a field set directly to it.
pub const MAX_CONTEMPT: i32 = 200;

/// A parameter name or value that was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamError(pub String);

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParamError {}

/// A name as [`Params::set`] and [`Params::get`] read it: case and `_` for `-` do not matter.
fn normalised(name: &str) -> String {
    name.trim().to_ascii_lowercase().replace('_', "-")
}

impl Params {
    /// Sets a parameter by name (`-` or `_` in names; booleans as on/off/true/false). A refused
    /// value changes nothing.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), ParamError> {
        let mut next = self.clone();
        next.set_by_name(&normalised(name), value)
            .unwrap_or_else(|| {
                Err(ParamError(format!(
                    "unknown search parameter '{name}' (known: {})",
                    Self::NAMES.join(", ")
                )))
            })?;
        if next.lmr_divisor <= 0.0 {
            return Err(ParamError("lmr-divisor must be positive".into()));
        }
        if next.contempt.abs() > MAX_CONTEMPT {
            return Err(ParamError(format!(
                "contempt: {} is outside -{MAX_CONTEMPT}..={MAX_CONTEMPT}",
                next.contempt
            )));
        }
        *self = next;
        Ok(())
    }

    /// The current value of a parameter as [`Params::set`] accepts it (`on`/`off` for switches),
    /// for listing parameters in a protocol.
    pub fn get(&self, name: &str) -> Option<String> {
        self.get_by_name(&normalised(name))
    }

    /// The reduction of the `moves`-th move (1-based) at `depth` remaining plies, before the PV
    /// adjustment.
    pub fn lmr_reduction(&self, depth: i32, moves: usize) -> i32 {
        if depth < 1 || moves < 1 {
            return 0;
        }
        let r = self.lmr_base + ln(depth as usize) * ln(moves) / self.lmr_divisor;
        r.max(0.0) as i32
    }
}

/// Natural logarithms of `0..LN_SIZE`, computed once: every search builds its reduction table
/// from them (64 x 64 entries), which took 8,192 `ln` calls a search before (2% of a
/// 4,000-node self-play profile in `libm`'s `log` alone).
const LN_SIZE: usize = 256;
static LN: once_cell::sync::Lazy<[f64; LN_SIZE]> =
    once_cell::sync::Lazy::new(|| std::array::from_fn(|x| (x as f64).ln()));

/// `(x as f64).ln()`, from the table when `x` is in it (the same value, bit for bit).
#[inline]
fn ln(x: usize) -> f64 {
    match LN.get(x) {
        Some(&l) => l,
        None => (x as f64).ln(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_is_settable() {
        for n in Params::NAMES {
            let mut p = Params::default();
            // Switches read back as on/off; the rest are numbers.
            let switch = matches!(p.get(n).as_deref(), Some("on" | "off"));
            let v = if switch { "off" } else { "3" };
            p.set(n, v).unwrap_or_else(|e| panic!("{n}: {e}"));
        }
        let mut p = Params::default();
        for n in Params::NAMES {
            let v = p.get(n).unwrap_or_else(|| panic!("{n} has no value"));
            p.set(n, &v).unwrap();
        }
        assert_eq!(p, Params::default(), "get and set round-trip");
        assert!(p.get("nonsense").is_none());
        assert!(p.set("nonsense", "1").is_err());
        assert!(p.set("lmr", "maybe").is_err());
        for bad in ["nan", "inf", "-inf", "1e300", "99999999"] {
            let e = p.set("lmr-base", bad).unwrap_err().to_string();
            assert!(e.contains(bad), "{e}");
        }
        assert!(p.set("rfp-margin", "2000000000").is_err());
        assert!(p.set("clock-check-nodes", "18446744073709551615").is_err());
        assert!(p.set("lmr-divisor", "0").is_err());
        assert_eq!(p, Params::default(), "a refused value changes nothing");
        p.set("LMR", "off").unwrap();
        assert!(!p.lmr);
    }

    #[test]
    fn lower_bounds_hold() {
        // A shallower ProbCut would leave its shallow search no depth between 1 and depth - 1.
        let mut p = Params::default();
        p.set("probcut-min-depth", "0").unwrap();
        assert_eq!(p.probcut_min_depth, 2);
        // A shallower singular test would search its node at depth 0: quiescence.
        p.set("singular-min-depth", "1").unwrap();
        assert_eq!(p.singular_min_depth, 3);
        p.set("clock-check-nodes", "0").unwrap();
        assert_eq!(p.clock_check_nodes, 1);
    }
}
