//! Engine matches: in-process self-play between two configurations of the built-in engine, to
//! decide by results which search features stay.
//!
//! - [`EngineConfig`]: an engine as a spec string, `"tiao threads=1 hash=16 lmr=off"`: the name
//!   `tiao` then `key=value` settings (`threads`, `hash` in MiB, any search parameter of
//!   [`Params::NAMES`]).
//! - [`openings`]: a deterministic set of balanced start positions a few plies deep per variant;
//!   each opening is played twice with colours reversed.
//! - [`play_game`]: one game, adjudicated by the rules (no move: lost; draw counters; third
//!   repetition) or, past `max_plies`, as a draw.
//! - [`run_match`]: the games on `concurrency` threads; [`MatchResult`] gives W/D/L and the Elo
//!   difference with a 95% interval.
//!
//! Invariant: with node or depth limits and one search thread per engine, a match is
//! reproducible (the same games in the same order of openings).
//!
//! Room to grow (left for later): external Hub engines, PDN output, SPRT, real clocks.

mod openings;

pub use openings::openings;

use crate::dispatch;
use crate::eval::Evaluate;
use crate::movegen::MoveList;
use crate::position::Position;
use crate::search::{self, Control, Limits, Params, SearchOptions};
use crate::tt::Tt;
use crate::variant::GameKind;
use std::fmt;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// One engine of a match.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineConfig {
    /// The spec it was read from (for reports).
    pub name: String,
    /// Search threads.
    pub threads: usize,
    /// Table size in MiB.
    pub hash_mib: usize,
    /// Search parameters.
    pub params: Params,
}

impl EngineConfig {
    /// Reads `"tiao key=value ..."`.
    pub fn parse(spec: &str) -> Result<EngineConfig, String> {
        let mut words = spec.split_whitespace();
        match words.next() {
            Some("tiao") => {}
            Some(other) => {
                return Err(format!(
                    "unknown engine '{other}' (only the built-in 'tiao' is supported)"
                ));
            }
            None => return Err("empty engine spec".into()),
        }
        let mut cfg = EngineConfig {
            name: spec.trim().to_string(),
            threads: 1,
            hash_mib: 16,
            params: Params::default(),
        };
        for w in words {
            let (k, v) = w
                .split_once('=')
                .ok_or_else(|| format!("'{w}' is not key=value"))?;
            match k {
                "threads" => {
                    cfg.threads = v
                        .parse::<usize>()
                        .map_err(|_| format!("bad threads '{v}'"))?
                        .max(1)
                }
                "hash" => {
                    cfg.hash_mib = v
                        .parse::<usize>()
                        .map_err(|_| format!("bad hash '{v}'"))?
                        .max(1)
                }
                _ => cfg.params.set(k, v).map_err(|e| e.to_string())?,
            }
        }
        Ok(cfg)
    }
}

/// How long each move may be searched.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum MoveLimit {
    /// Nodes per move.
    Nodes(u64),
    /// Depth per move.
    Depth(u32),
    /// Time per move.
    MoveTime(Duration),
}

impl MoveLimit {
    fn limits(self) -> Limits {
        match self {
            MoveLimit::Nodes(n) => Limits::nodes(n),
            MoveLimit::Depth(d) => Limits::depth(d),
            MoveLimit::MoveTime(t) => Limits::move_time(t),
        }
    }
}

/// A match's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchConfig {
    /// The game.
    pub kind: GameKind,
    /// Games (rounded up to an even number: each opening twice).
    pub games: usize,
    /// Per-move limit.
    pub limit: MoveLimit,
    /// Games played at the same time.
    pub concurrency: usize,
    /// A game still going after this many plies is a draw.
    pub max_plies: u32,
    /// Plies of random play in the openings.
    pub opening_plies: u32,
    /// Seed of the openings.
    pub seed: u64,
}

/// How a game ended, for the first engine of the match.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

/// Why a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// The side to move had no legal move.
    NoMove,
    /// A draw counter of the variant.
    DrawRule,
    /// The third repetition.
    Repetition,
    /// The ply limit.
    MaxPlies,
}

/// One finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// Opening index.
    pub opening: usize,
    /// Whether engine A moved first from the opening.
    pub a_first: bool,
    /// Result for engine A.
    pub outcome: Outcome,
    /// Why it ended.
    pub reason: EndReason,
    /// Plies played after the opening.
    pub plies: u32,
}

/// The score of a match for engine A.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchResult {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Every game, in the order they finished.
    pub games: Vec<GameRecord>,
}

impl MatchResult {
    /// Games played.
    pub fn total(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points per game for engine A (0..1).
    pub fn score(&self) -> f64 {
        let n = self.total().max(1) as f64;
        (self.wins as f64 + 0.5 * self.draws as f64) / n
    }

    /// Elo difference of A over B and the half-width of its 95% interval.
    pub fn elo(&self) -> (f64, f64) {
        let n = self.total().max(1) as f64;
        let s = self.score();
        let var = (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n;
        let se = (var / n).sqrt();
        let elo = |p: f64| {
            let p = p.clamp(1e-3, 1.0 - 1e-3);
            -400.0 * (1.0 / p - 1.0).log10()
        };
        let (lo, hi) = (elo(s - 1.96 * se), elo(s + 1.96 * se));
        (elo(s), (hi - lo) / 2.0)
    }
}

impl fmt::Display for MatchResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (e, ci) = self.elo();
        write!(
            f,
            "+{} ={} -{} ({} games, {:.1}%): Elo {:+.0} ± {:.0}",
            self.wins,
            self.draws,
            self.losses,
            self.total(),
            100.0 * self.score(),
            e,
            ci
        )
    }
}

/// A player in one game: its settings and its own table.
struct Player<'a> {
    cfg: &'a EngineConfig,
    tt: Tt,
}

/// Plays one game from `start`; `a_first` says whether engine A moves first.
pub fn play_game<G: Evaluate>(
    start: &G,
    a: &EngineConfig,
    b: &EngineConfig,
    a_first: bool,
    limit: MoveLimit,
    max_plies: u32,
) -> (Outcome, EndReason, u32) {
    let players = [
        Player {
            cfg: a,
            tt: Tt::new(a.hash_mib),
        },
        Player {
            cfg: b,
            tt: Tt::new(b.hash_mib),
        },
    ];
    let limits = limit.limits();
    let mut pos = *start;
    let mut history: Vec<u64> = Vec::new();
    let mut list = MoveList::default();
    // Index into `players` of the side to move.
    let mut mover = if a_first { 0 } else { 1 };
    let result_for_a = |loser: usize| {
        if loser == 0 {
            Outcome::Loss
        } else {
            Outcome::Win
        }
    };
    for ply in 0..max_plies {
        pos.generate(&mut list);
        if list.is_empty() {
            return (result_for_a(mover), EndReason::NoMove, ply);
        }
        if pos.draw_by_rule() {
            return (Outcome::Draw, EndReason::DrawRule, ply);
        }
        let repeats = history
            .iter()
            .rev()
            .take(pos.reversible_plies() as usize)
            .filter(|&&k| k == pos.key())
            .count();
        if repeats >= 2 {
            return (Outcome::Draw, EndReason::Repetition, ply);
        }
        let p = &players[mover];
        let options = SearchOptions {
            threads: p.cfg.threads,
            params: p.cfg.params.clone(),
            ..SearchOptions::default()
        };
        let r = search::search(
            &pos,
            &history,
            &limits,
            &options,
            &p.tt,
            &Control::new(false),
            &mut |_| {},
        );
        let m = r.best.unwrap_or(list[0]);
        history.push(pos.key());
        pos = pos.make(&m);
        mover = 1 - mover;
    }
    (Outcome::Draw, EndReason::MaxPlies, max_plies)
}

/// Plays a match of A against B; `progress` is called after every game with the score so far.
pub fn run_match(
    cfg: &MatchConfig,
    a: &EngineConfig,
    b: &EngineConfig,
    progress: &(dyn Fn(&MatchResult) + Sync),
) -> Result<MatchResult, String> {
    dispatch!(cfg.kind,
        R => Ok(run_typed::<Position<R>>(cfg, a, b, progress)),
        morris => Ok(run_typed::<crate::morris::MorrisPosition>(cfg, a, b, progress)))
}

fn run_typed<G: Evaluate>(
    cfg: &MatchConfig,
    a: &EngineConfig,
    b: &EngineConfig,
    progress: &(dyn Fn(&MatchResult) + Sync),
) -> MatchResult {
    let pairs = cfg.games.div_ceil(2).max(1);
    let starts: Vec<G> = openings::<G>(pairs, cfg.opening_plies, cfg.seed);
    let next = AtomicUsize::new(0);
    let result = Mutex::new(MatchResult::default());
    let games = 2 * starts.len();
    std::thread::scope(|s| {
        for _ in 0..cfg.concurrency.max(1) {
            s.spawn(|| {
                loop {
                    let g = next.fetch_add(1, Ordering::Relaxed);
                    if g >= games {
                        break;
                    }
                    let (opening, a_first) = (g / 2, g.is_multiple_of(2));
                    let (outcome, reason, plies) =
                        play_game(&starts[opening], a, b, a_first, cfg.limit, cfg.max_plies);
                    let mut r = result.lock().expect("match result lock");
                    match outcome {
                        Outcome::Win => r.wins += 1,
                        Outcome::Draw => r.draws += 1,
                        Outcome::Loss => r.losses += 1,
                    }
                    r.games.push(GameRecord {
                        opening,
                        a_first,
                        outcome,
                        reason,
                        plies,
                    });
                    progress(&r);
                }
            });
        }
    });
    result.into_inner().expect("match result lock")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_spec() {
        let e = EngineConfig::parse("tiao threads=2 hash=8 lmr=off").unwrap();
        assert_eq!((e.threads, e.hash_mib, e.params.lmr), (2, 8, false));
        assert!(EngineConfig::parse("scan").is_err());
        assert!(EngineConfig::parse("tiao lmr").is_err());
        assert!(EngineConfig::parse("tiao bogus=1").is_err());
    }

    #[test]
    fn elo_of_even_and_uneven_scores() {
        let even = MatchResult {
            wins: 10,
            draws: 80,
            losses: 10,
            games: vec![],
        };
        let (e, ci) = even.elo();
        assert!(e.abs() < 1e-9 && ci > 0.0);
        let better = MatchResult {
            wins: 75,
            draws: 0,
            losses: 25,
            games: vec![],
        };
        let (e, _) = better.elo();
        assert!((e - 190.8).abs() < 1.0, "{e}");
    }

    #[test]
    fn a_short_match_is_played_twice_per_opening() {
        let cfg = MatchConfig {
            kind: GameKind::new(crate::variant::Variant::English),
            games: 2,
            limit: MoveLimit::Depth(2),
            concurrency: 1,
            max_plies: 40,
            opening_plies: 4,
            seed: 1,
        };
        let a = EngineConfig::parse("tiao hash=1").unwrap();
        let r = run_match(&cfg, &a, &a, &|_| {}).unwrap();
        assert_eq!(r.total(), 2);
        // The same engine on both sides of the same opening: colour-reversed games are mirror
        // results.
        assert_eq!(r.wins, r.losses);
    }
}
