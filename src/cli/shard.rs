//! What the resumable, shardable data writers share (`tiao selfplay`, `tiao relabel`, and
//! `tiao book build --shard`): the `--shard I/N` argument (also `tiao analyze`'s), one table
//! per worker refused up front when the memory is not there, the endgame tables of `--egdb`
//! opened whole, and resuming a data file after its last complete chunk.
//! Invariant: a writer resumes only a file that [`existing_chunks`] read as self-play data, and
//! cuts it ([`truncate`]) only to the end of the chunks it checked.

use std::fs::OpenOptions;
use tiao::draughts::rules::Rules;
use tiao::egdb::draughts::{DraughtsTables, open_tables};
use tiao::engine::EgdbSetting;
use tiao::search::tt::Tt;
use tiao::training::data;

/// `I/N` with `I < N`.
pub fn parse_shard(s: &str) -> Result<(u32, u32), String> {
    let (i, n) = s
        .split_once('/')
        .ok_or_else(|| format!("'{s}' is not I/N (e.g. 0/4)"))?;
    let i: u32 = i
        .trim()
        .parse()
        .map_err(|_| format!("'{i}' is not a shard index"))?;
    let n: u32 = n
        .trim()
        .parse()
        .map_err(|_| format!("'{n}' is not a shard count"))?;
    if n == 0 || i >= n {
        return Err(format!("shard {i}/{n}: need 0 <= I < N"));
    }
    Ok((i, n))
}

/// One transposition table of `hash` MiB for each of `threads` workers, refused up front (naming
/// `--threads` and `--hash`) when the machine cannot give them all.
pub fn worker_tables(threads: usize, hash: usize) -> Result<Vec<Tt>, String> {
    let what = format!("{threads} workers (--threads) x {hash} MiB each (--hash)");
    tiao::memory::check(&what, threads as u64 * hash as u64).map_err(|e| e.to_string())?;
    (0..threads)
        .map(|_| Tt::try_new(hash))
        .collect::<Result<Vec<Tt>, _>>()
        .map_err(|e| format!("--{e}"))
}

/// The valid chunks of the data file `out` when it exists and is not empty (`None` otherwise),
/// for a writer to resume after; an error when it holds no self-play data at all. The file is
/// not changed: the caller checks the chunks, then [`truncate`]s a cut-off last chunk away.
pub fn existing_chunks(out: &str) -> Result<Option<data::Scan>, String> {
    let existing = std::fs::read(out).unwrap_or_default();
    if existing.is_empty() {
        return Ok(None);
    }
    let scan = data::scan(&existing);
    if scan.chunks.is_empty() && !existing.starts_with(&data::MAGIC) {
        return Err(format!(
            "{out}: exists and holds no self-play data ({}); choose another --out",
            scan.stopped.unwrap_or_default()
        ));
    }
    Ok(Some(scan))
}

/// Cuts the file `out` to its first `bytes` bytes (its valid chunks).
pub fn truncate(out: &str, bytes: u64) -> Result<(), String> {
    OpenOptions::new()
        .write(true)
        .open(out)
        .and_then(|f| f.set_len(bytes))
        .map_err(|e| format!("{out}: {e}"))
}

/// The endgame tables of `--egdb` (`arg`, read as the engine reads the option: 'none', or a
/// directory that must be one) for a data writer: `None` without the option or with 'none', an
/// error when a file there is refused (a writer needs every table whole: its output depends on
/// their answers) or when the directory holds no table of `variant`.
pub fn whole_tables<R: Rules>(
    arg: Option<&str>,
    variant: tiao::game::Variant,
) -> Result<Option<DraughtsTables<R>>, String> {
    let Some(v) = arg else { return Ok(None) };
    let Some(dir) = EgdbSetting::parse(v)
        .dir()
        .map_err(|e| format!("--egdb: {e}"))?
    else {
        return Ok(None);
    };
    let (found, problems) = open_tables::<R>(&dir);
    if let Some(p) = problems.first() {
        return Err(format!(
            "--egdb {}: {p} ({} files refused); this needs every table whole",
            dir.display(),
            problems.len()
        ));
    }
    if found.slices() == 0 {
        return Err(format!(
            "--egdb {}: no {} tables there",
            dir.display(),
            variant.name()
        ));
    }
    Ok(Some(found))
}
