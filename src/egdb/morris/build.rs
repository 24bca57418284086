//! Building and verifying the Morris tables on disk, pair by pair: the work list in dependency
//! order (levels by pieces on the board, the pairs of a level independent of each other and
//! split over shards for several machines), one pair solved from the files of the level below,
//! its files written, and a verify pass over files already built.
//!
//! Resuming: a pair whose four files (two for `(a, a)`) open with the right headers is skipped,
//! so an interrupted build starts again at the pair it was in. Sharding (`--shard I/N`): shard
//! `I` of `N` takes the pairs of each level whose place in the level is `I` modulo `N`; each
//! level needs the whole level below, so a cluster runs the levels one after another, each as
//! `N` independent jobs (a Slurm array or a Kubernetes indexed Job per level).
//!
//! [`MorrisBuilder`] hands the pairs to the shared drivers ([`driver`]), which skip what is built,
//! draw the progress bar and report (`tiao egdb build --variant morris`).
//!
//! Memory: a pair's work arrays ([`work_bytes`]) and the sectors one removal below, loaded as they
//! are needed and dropped when the build leaves their level.

use super::index::{MAX_PIECES, MIN_PIECES, Sector};
use super::solve::{Counts, Progress, Solved, removal_target, solve_pair, work_bytes};
use super::store;
use super::verify::{Checked, verify_sector};
use crate::egdb::driver::{self, Output, Unit, Verified};
use crate::egdb::{EgdbError, Kind};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Fewest pieces on the board of a sector (3 against 3).
pub const MIN_TOTAL: u8 = 2 * MIN_PIECES;
/// Most pieces on the board (9 against 9).
pub const MAX_TOTAL: u8 = 2 * MAX_PIECES;

/// The pairs of a level: sectors `(a, b)` with `a <= b`, `a + b = total`, each standing for
/// itself and its mirror.
pub fn level_pairs(total: u8) -> Vec<Sector> {
    (MIN_PIECES..=MAX_PIECES)
        .filter_map(|a| {
            let b = total.checked_sub(a)?;
            (a <= b && (MIN_PIECES..=MAX_PIECES).contains(&b)).then(|| Sector::new(a, b))
        })
        .collect()
}

/// The pairs of every level from 3 against 3 up to `pieces` on the board, in dependency order,
/// keeping shard `shard.0` of `shard.1` in each level.
pub fn pairs(pieces: u8, shard: (usize, usize)) -> Vec<Sector> {
    (MIN_TOTAL..=pieces.min(MAX_TOTAL))
        .flat_map(|t| {
            level_pairs(t)
                .into_iter()
                .enumerate()
                .filter(move |(i, _)| i % shard.1.max(1) == shard.0)
                .map(|(_, s)| s)
        })
        .collect()
}

/// The sectors of a pair: `(a, b)` and `(b, a)`, or `(a, a)` alone.
pub fn sectors_of(pair: Sector) -> Vec<Sector> {
    if pair.stm == pair.opp {
        vec![pair]
    } else {
        vec![pair, pair.mirror()]
    }
}

/// Slots of a pair (the progress bar's measure).
pub fn pair_slots(pair: Sector) -> u64 {
    sectors_of(pair).iter().map(|s| s.size()).sum()
}

/// The name of a pair in reports: `4-7 + 7-4`, `6-6`.
pub fn pair_name(pair: Sector) -> String {
    sectors_of(pair)
        .iter()
        .map(|s| format!("{}-{}", s.stm, s.opp))
        .collect::<Vec<_>>()
        .join(" + ")
}

/// What building one sector gave.
#[derive(Clone, Debug)]
pub struct SectorReport {
    /// The sector.
    pub sector: Sector,
    /// Its values, counted.
    pub counts: Counts,
    /// Bytes of its two files.
    pub bytes: u64,
}

/// What building one pair gave.
#[derive(Clone, Debug)]
pub struct PairReport {
    /// The pair.
    pub pair: Sector,
    /// Its sectors.
    pub sectors: Vec<SectorReport>,
    /// Wall time of the solve and the writing, in seconds.
    pub seconds: f64,
    /// Work memory of the solve, in bytes.
    pub work_bytes: u64,
}

/// Builds and verifies the tables under one directory, keeping the sectors of the level below
/// in memory while they are needed.
pub struct Builder {
    dir: PathBuf,
    below: Mutex<Solved>,
}

impl Builder {
    /// A builder writing under `dir` (the files go to `dir/morris/`).
    pub fn new(dir: &Path) -> Builder {
        Builder {
            dir: dir.to_path_buf(),
            below: Mutex::new(Solved::new()),
        }
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Whether a pair's files are all there and open with their headers.
    pub fn is_built(&self, pair: Sector) -> bool {
        sectors_of(pair)
            .iter()
            .all(|&s| store::is_built(&self.dir, s))
    }

    /// The values of the sectors one removal below the pair's, loaded from disk once; sectors
    /// more than one level below are dropped.
    fn lower(&self, pair: Sector) -> Result<Solved, EgdbError> {
        let mut held = self.below.lock().unwrap_or_else(|e| e.into_inner());
        let level = pair.pieces();
        for s in held.sectors().collect::<Vec<_>>() {
            if s.pieces() + 1 != level {
                held.remove(s);
            }
        }
        for s in sectors_of(pair) {
            if let Some(t) = removal_target(s)
                && !held.contains(t)
            {
                let values = store::load(&self.dir, t).map_err(|e| match e {
                    EgdbError::Io { path, error } => EgdbError::Io {
                        path,
                        error: format!(
                            "{error} (sector {}-{} is needed first: build the smaller sectors)",
                            t.stm, t.opp
                        ),
                    },
                    e => e,
                })?;
                held.insert(t, Arc::new(values));
            }
        }
        Ok(held.clone())
    }

    /// Solves one pair from the level below and writes its files. `progress` hears of slots
    /// done; their sum reaches [`pair_slots`].
    pub fn build_pair(
        &self,
        pair: Sector,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<PairReport, EgdbError> {
        let start = Instant::now();
        let below = self.lower(pair)?;
        let total = pair_slots(pair);
        let half = total / 2;
        let reported = AtomicU64::new(0);
        let report = |upto: u64| {
            let before = reported.fetch_max(upto.min(total), Relaxed);
            if upto > before {
                progress(upto.min(total) - before);
            }
        };
        let decided = AtomicU64::new(0);
        let on_progress = |p: Progress| match p {
            Progress::Sweep { done, total: t } => report(done * half / t.max(1)),
            Progress::Wave { decided: d, .. } => {
                let all = decided.fetch_add(d, Relaxed) + d;
                report(half + all.min(total - half))
            }
        };
        let solved = solve_pair(pair, &below, &on_progress).map_err(|e| EgdbError::Io {
            path: self.dir.clone(),
            error: e.to_string(),
        })?;
        drop(below);
        let mut sectors = Vec::new();
        for s in solved {
            let bytes = store::write(&self.dir, s.sector, &s.values)?;
            sectors.push(SectorReport {
                sector: s.sector,
                counts: s.counts,
                bytes,
            });
        }
        report(total);
        Ok(PairReport {
            pair,
            sectors,
            seconds: start.elapsed().as_secs_f64(),
            work_bytes: work_bytes(pair),
        })
    }

    /// Checks a built pair's files against the rules (see [`verify`](super::verify)).
    pub fn verify_pair(
        &self,
        pair: Sector,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<Checked, EgdbError> {
        let below = self.lower(pair)?;
        let mut values = Vec::new();
        for s in sectors_of(pair) {
            values.push(store::load(&self.dir, s)?);
        }
        let mut out = Checked::default();
        for (k, s) in sectors_of(pair).into_iter().enumerate() {
            let mirror = &values[values.len() - 1 - k];
            let lower = removal_target(s).and_then(|t| below.get(t).cloned());
            let c = verify_sector(
                s,
                &values[k],
                mirror,
                lower.as_deref().map(|v| &v[..]),
                progress,
            );
            out.checked += c.checked;
            out.errors += c.errors;
            out.examples.extend(c.examples);
        }
        Ok(out)
    }

    /// The files of a pair (for the drivers' output lists).
    pub fn files(&self, pair: Sector) -> Vec<PathBuf> {
        sectors_of(pair)
            .into_iter()
            .flat_map(|s| {
                [Kind::Wdl, Kind::Distance]
                    .map(|k| store::path(&self.dir, s, k))
                    .into_iter()
            })
            .collect()
    }
}

/// The Morris tables for the shared drivers ([`driver::build`], [`driver::verify`]): one unit per
/// pair, up to a number of pieces on the board, one shard of each level.
pub struct MorrisBuilder {
    builder: Builder,
    pieces: u8,
    shard: (usize, usize),
    /// Only these pairs (`None`: every pair).
    only: Option<Vec<Sector>>,
}

impl MorrisBuilder {
    /// The pairs of up to `pieces` pieces (6 to 18) under `dir`, shard `shard.0` of `shard.1`
    /// (`(0, 1)`: all).
    pub fn new(dir: &Path, pieces: u8, shard: (usize, usize)) -> MorrisBuilder {
        MorrisBuilder {
            builder: Builder::new(dir),
            pieces,
            shard,
            only: None,
        }
    }

    /// Only the pairs of `sectors` (a sector stands for its pair: `(a, b)` and `(b, a)`), of at
    /// most `pieces` and in the shard, in their levels' order (`tiao egdb verify` without
    /// `--pieces`: the sectors found in the directory).
    pub fn only(mut self, sectors: &[Sector]) -> Self {
        self.only = Some(
            sectors
                .iter()
                .map(|s| Sector::new(s.stm.min(s.opp), s.stm.max(s.opp)))
                .collect(),
        );
        self
    }

    /// The pairs of its units, in dependency order.
    fn pairs(&self) -> Vec<Sector> {
        let mut v = pairs(self.pieces, self.shard);
        if let Some(only) = &self.only {
            v.retain(|p| only.contains(p));
        }
        v
    }

    /// The pair a unit stands for.
    fn pair(&self, unit: &Unit) -> Result<Sector, EgdbError> {
        self.pairs()
            .into_iter()
            .find(|&p| pair_name(p) == unit.name)
            .ok_or_else(|| EgdbError::Io {
                path: self.builder.dir.clone(),
                error: format!("no Morris pair named {}", unit.name),
            })
    }
}

impl driver::Builder for MorrisBuilder {
    fn units(&self) -> Vec<Unit> {
        self.pairs()
            .into_iter()
            .map(|pair| Unit {
                name: pair_name(pair),
                pieces: pair.pieces() as u32,
                positions: pair_slots(pair),
                outputs: sectors_of(pair)
                    .into_iter()
                    .flat_map(|s| [Kind::Wdl, Kind::Distance].map(|k| (s, k)))
                    .map(|(s, k)| Output {
                        path: store::path(&self.builder.dir, s, k),
                        header: store::header(s, k),
                    })
                    .collect(),
            })
            .collect()
    }

    fn build(&self, unit: &Unit, progress: &(dyn Fn(u64) + Sync)) -> Result<(), EgdbError> {
        self.builder
            .build_pair(self.pair(unit)?, progress)
            .map(|_| ())
    }

    fn verify(&self, unit: &Unit, progress: &(dyn Fn(u64) + Sync)) -> Result<Verified, EgdbError> {
        let c = self.builder.verify_pair(self.pair(unit)?, progress)?;
        Ok(Verified {
            checked: c.checked,
            errors: c.errors,
            examples: c.examples,
        })
    }
}
