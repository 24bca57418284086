//! Every tunable of the search, named, with its unit, in one place.
//!
//! A [`Params`] value is what a match or a tuner varies: each feature that a match decides on has
//! an on/off switch here, and every number the search uses comes from here (no magic numbers in
//! the search code). Depths and reductions are in plies, scores in centi-men.
//!
//! Parameters are also settable by name ([`Params::set`]), which is how `tiao match --engine
//! "tiao lmr=off"` and the engine's `set_option` reach them; [`Params::NAMES`] lists them.

use std::fmt;

/// The search's tunables.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    /// Aspiration windows around the previous iteration's score.
    pub aspiration: bool,
    /// First iteration that uses an aspiration window (plies).
    pub aspiration_min_depth: i32,
    /// Half-width of the first aspiration window (centi-men); doubled at each failure.
    pub aspiration_window: i32,

    /// Late move reductions.
    pub lmr: bool,
    /// Least remaining depth at which late moves are reduced (plies).
    pub lmr_min_depth: i32,
    /// Moves searched in full before reductions start (count).
    pub lmr_min_moves: usize,
    /// Reduction = `lmr_base + ln(depth) * ln(move number) / lmr_divisor` (plies).
    pub lmr_base: f64,
    /// See `lmr_base`.
    pub lmr_divisor: f64,
    /// Plies less reduction at PV nodes.
    pub lmr_pv_less: i32,

    /// A node with a single legal move is not counted as a ply (forced-move extension).
    pub forced_extension: bool,

    /// Reverse futility (static null move) pruning near the leaves, in quiet positions.
    pub rfp: bool,
    /// Deepest remaining depth at which reverse futility prunes (plies).
    pub rfp_max_depth: i32,
    /// Margin per ply of remaining depth (centi-men).
    pub rfp_margin: i32,

    /// Late move pruning: near the leaves, in quiet non-PV nodes, the quiet moves after the first
    /// `lmp_base + depth²` are not searched.
    pub lmp: bool,
    /// Deepest remaining depth at which late move pruning applies (plies).
    pub lmp_max_depth: i32,
    /// Moves always searched before late move pruning starts (plus depth²).
    pub lmp_base: usize,

    /// Killer moves in move ordering.
    pub killers: bool,
    /// History heuristic in move ordering.
    pub history: bool,
    /// Largest magnitude of a history value (the gravity bound).
    pub history_max: i32,

    /// Transposition-table cutoffs (off: the table only orders moves).
    pub tt_cutoffs: bool,

    /// A repetition inside the search path is scored as a draw at its second occurrence (off:
    /// only at the third, as the rules say; positions from the game history always need three).
    pub twofold_in_path: bool,

    /// Nodes between two looks at the clock by the main thread.
    pub clock_check_nodes: u64,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            aspiration: true,
            aspiration_min_depth: 5,
            aspiration_window: 30,
            lmr: true,
            lmr_min_depth: 3,
            lmr_min_moves: 3,
            lmr_base: 0.5,
            lmr_divisor: 2.0,
            lmr_pv_less: 1,
            forced_extension: false,
            rfp: true,
            rfp_max_depth: 3,
            rfp_margin: 60,
            lmp: true,
            lmp_max_depth: 3,
            lmp_base: 3,
            killers: true,
            history: true,
            history_max: 1 << 14,
            tt_cutoffs: true,
            twofold_in_path: true,
            clock_check_nodes: 1024,
        }
    }
}

/// A parameter name or value that was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamError(pub String);

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParamError {}

fn parse_bool(name: &str, v: &str) -> Result<bool, ParamError> {
    match v.trim().to_ascii_lowercase().as_str() {
        "on" | "true" | "1" | "yes" => Ok(true),
        "off" | "false" | "0" | "no" => Ok(false),
        _ => Err(ParamError(format!("{name}: expected on/off, got '{v}'"))),
    }
}

fn parse_num<T: std::str::FromStr>(name: &str, v: &str) -> Result<T, ParamError> {
    v.trim()
        .parse()
        .map_err(|_| ParamError(format!("{name}: bad number '{v}'")))
}

impl Params {
    /// Every parameter name [`Params::set`] accepts.
    pub const NAMES: &'static [&'static str] = &[
        "aspiration",
        "aspiration-min-depth",
        "aspiration-window",
        "lmr",
        "lmr-min-depth",
        "lmr-min-moves",
        "lmr-base",
        "lmr-divisor",
        "lmr-pv-less",
        "forced-extension",
        "rfp",
        "rfp-max-depth",
        "rfp-margin",
        "lmp",
        "lmp-max-depth",
        "lmp-base",
        "killers",
        "history",
        "history-max",
        "tt-cutoffs",
        "twofold-in-path",
        "clock-check-nodes",
    ];

    /// Sets a parameter by name (`-` or `_` in names; booleans as on/off/true/false).
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), ParamError> {
        let n = name.trim().to_ascii_lowercase().replace('_', "-");
        match n.as_str() {
            "aspiration" => self.aspiration = parse_bool(&n, value)?,
            "aspiration-min-depth" => self.aspiration_min_depth = parse_num(&n, value)?,
            "aspiration-window" => self.aspiration_window = parse_num(&n, value)?,
            "lmr" => self.lmr = parse_bool(&n, value)?,
            "lmr-min-depth" => self.lmr_min_depth = parse_num(&n, value)?,
            "lmr-min-moves" => self.lmr_min_moves = parse_num(&n, value)?,
            "lmr-base" => self.lmr_base = parse_num(&n, value)?,
            "lmr-divisor" => self.lmr_divisor = parse_num(&n, value)?,
            "lmr-pv-less" => self.lmr_pv_less = parse_num(&n, value)?,
            "forced-extension" => self.forced_extension = parse_bool(&n, value)?,
            "rfp" => self.rfp = parse_bool(&n, value)?,
            "rfp-max-depth" => self.rfp_max_depth = parse_num(&n, value)?,
            "rfp-margin" => self.rfp_margin = parse_num(&n, value)?,
            "lmp" => self.lmp = parse_bool(&n, value)?,
            "lmp-max-depth" => self.lmp_max_depth = parse_num(&n, value)?,
            "lmp-base" => self.lmp_base = parse_num(&n, value)?,
            "killers" => self.killers = parse_bool(&n, value)?,
            "history" => self.history = parse_bool(&n, value)?,
            "history-max" => self.history_max = parse_num(&n, value)?,
            "tt-cutoffs" => self.tt_cutoffs = parse_bool(&n, value)?,
            "twofold-in-path" => self.twofold_in_path = parse_bool(&n, value)?,
            "clock-check-nodes" => self.clock_check_nodes = parse_num::<u64>(&n, value)?.max(1),
            _ => {
                return Err(ParamError(format!(
                    "unknown search parameter '{name}' (known: {})",
                    Self::NAMES.join(", ")
                )));
            }
        }
        if self.lmr_divisor <= 0.0 {
            return Err(ParamError("lmr-divisor must be positive".into()));
        }
        Ok(())
    }

    /// The current value of a parameter as [`Params::set`] accepts it (`on`/`off` for switches),
    /// for listing parameters in a protocol.
    pub fn get(&self, name: &str) -> Option<String> {
        let b = |v: bool| if v { "on" } else { "off" }.to_string();
        let n = name.trim().to_ascii_lowercase().replace('_', "-");
        Some(match n.as_str() {
            "aspiration" => b(self.aspiration),
            "aspiration-min-depth" => self.aspiration_min_depth.to_string(),
            "aspiration-window" => self.aspiration_window.to_string(),
            "lmr" => b(self.lmr),
            "lmr-min-depth" => self.lmr_min_depth.to_string(),
            "lmr-min-moves" => self.lmr_min_moves.to_string(),
            "lmr-base" => self.lmr_base.to_string(),
            "lmr-divisor" => self.lmr_divisor.to_string(),
            "lmr-pv-less" => self.lmr_pv_less.to_string(),
            "forced-extension" => b(self.forced_extension),
            "rfp" => b(self.rfp),
            "rfp-max-depth" => self.rfp_max_depth.to_string(),
            "rfp-margin" => self.rfp_margin.to_string(),
            "lmp" => b(self.lmp),
            "lmp-max-depth" => self.lmp_max_depth.to_string(),
            "lmp-base" => self.lmp_base.to_string(),
            "killers" => b(self.killers),
            "history" => b(self.history),
            "history-max" => self.history_max.to_string(),
            "tt-cutoffs" => b(self.tt_cutoffs),
            "twofold-in-path" => b(self.twofold_in_path),
            "clock-check-nodes" => self.clock_check_nodes.to_string(),
            _ => return None,
        })
    }

    /// The reduction of the `moves`-th move (1-based) at `depth` remaining plies, before the PV
    /// adjustment.
    pub fn lmr_reduction(&self, depth: i32, moves: usize) -> i32 {
        if depth < 1 || moves < 1 {
            return 0;
        }
        let r = self.lmr_base + (depth as f64).ln() * (moves as f64).ln() / self.lmr_divisor;
        r.max(0.0) as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_is_settable() {
        for n in Params::NAMES {
            let mut p = Params::default();
            let v = if ["aspiration", "lmr", "rfp", "lmp", "killers", "history"].contains(n)
                || n.ends_with("extension")
                || n.ends_with("cutoffs")
                || n.ends_with("path")
            {
                "off"
            } else {
                "3"
            };
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
        p.set("LMR", "off").unwrap();
        assert!(!p.lmr);
    }
}
