//! `tiao relabel`: self-play data with its scores replaced by a deeper search's
//! (`tiao::training::relabel` does a chunk). Streams the input one batch of chunks at a time;
//! shardable by chunk (`--shard I/N`: the input's chunks `c` with `c % N == I`); resumable:
//! run again with the same arguments and it continues after the last complete chunk of the
//! output, checking that the chunks there are those the input gives. `--egdb` and
//! `--max-pieces` are not in the chunks: they are written beside the output (`<out>.relabel`)
//! and a resume with others is refused.

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use std::fs::{File, OpenOptions};
use std::io::{BufReader, BufWriter, Write};
use std::time::Instant;
use tiao::dispatch;
use tiao::draughts::rules::Rules;
use tiao::egdb::Probe;
use tiao::training::data::{self, ChunkHeader, Record};
use tiao::training::relabel::{Relabel, relabel_chunk};
use tiao::variant::GameKind;

#[derive(Args, Debug)]
#[command(after_help = "Examples:
  tiao relabel --data intl.tsd --nodes 32000 --out intl-32k.tsd
  tiao relabel --data intl.tsd --nodes 32000 --shard 0/8 --out intl-32k-0.tsd
  tiao relabel -v russian --data ru.tsd --nodes 4000 --egdb DIR --max-pieces 10 --out ru-eg.tsd

The output has the input's chunks (those of --shard), each position's score replaced by a
search at --nodes (the chunk header's nodes field says so); positions, results and plies are
kept. Sharded over N machines, each runs
  tiao relabel --data all.tsd --nodes 32000 --shard $I/$N --out part-$I.tsd
and the parts concatenate (`cat part-*.tsd`; in any order: a fit does not depend on the order
of the chunks but for its batches). Interrupted? Run the same command again.

Endgame labels: with --egdb the search probes the endgame tables of DIR (`tiao egdb build`), so
the positions they cover are scored exactly and those a few captures above them by a search
that reaches them; with --max-pieces only the positions of at most that many pieces are
searched again (the others keep their score), which makes a pass over the endings of a large
file cheap. A record holds no draw counters: the tables answer as for counters at zero.")]
pub struct RelabelArgs {
    #[command(flatten)]
    game: super::GameArgs,
    #[command(flatten)]
    weights: super::WeightsArgs,
    /// Self-play data file to relabel.
    #[arg(long)]
    data: String,
    /// Output file; appended to when it holds complete chunks of the same relabelling.
    #[arg(long, short)]
    out: String,
    /// Nodes searched per position.
    #[arg(long, default_value_t = 32000, value_parser = super::whole::<u64>(1, u32::MAX as u64))]
    nodes: u64,
    /// This process's share of the input's chunks, I/N (0-based I): the chunks c with c % N == I.
    #[arg(long, default_value = "0/1", value_parser = super::shard::parse_shard)]
    shard: (u32, u32),
    /// Endgame tables directory the search probes (see `tiao egdb`); 'none' or absent: none.
    #[arg(long, value_name = "DIR")]
    egdb: Option<String>,
    /// Search again only the positions of at most this many pieces; the others keep their
    /// score. Default: every position.
    #[arg(long, value_parser = super::whole::<u32>(2, 64))]
    max_pieces: Option<u32>,
    /// Worker threads (chunks relabelled at once).
    #[arg(long, short, default_value_t = default_threads(),
          value_parser = super::whole::<usize>(1, super::MAX_PARALLEL))]
    threads: usize,
    /// Transposition table per worker, MiB.
    #[arg(long, default_value_t = 16, value_parser = super::whole::<usize>(1, super::MAX_HASH_MIB))]
    hash: usize,
}

fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

pub fn run(args: RelabelArgs) -> Result<(), String> {
    let kind = args.game.kind();
    args.weights.choose(kind)?;
    dispatch!(kind, R => run_rules::<R>(&args, kind), morris => {
        Err("tiao relabel relabels draughts training data; morris is not supported".to_string())
    })
}

/// Why the reading of the input stopped: its data, or the relabelling (a message).
enum Stop {
    Data(data::DataError),
    Other(String),
}

impl From<data::DataError> for Stop {
    fn from(e: data::DataError) -> Self {
        Stop::Data(e)
    }
}

/// The settings file beside the output: what the chunks do not say of how they were relabelled.
fn settings_path(out: &str) -> String {
    format!("{out}.relabel")
}

/// The settings line of a relabelling (an output written without a settings file was
/// relabelled with every position and no tables).
fn settings_line(max_pieces: Option<u32>, tables: Option<(u32, usize)>) -> String {
    let pieces = max_pieces.map_or("all".to_string(), |p| p.to_string());
    let tables = tables.map_or("none".to_string(), |(most, slices)| {
        format!("up to {most} pieces ({slices} slices)")
    });
    format!("max-pieces {pieces}, endgame tables {tables}")
}

/// Whether output chunk `done` is input chunk `input` relabelled at `nodes`.
fn same_chunk(done: &ChunkHeader, input: &ChunkHeader, nodes: u32) -> bool {
    *done == ChunkHeader { nodes, ..*input }
}

fn run_rules<R: Rules>(args: &RelabelArgs, kind: GameKind) -> Result<(), String> {
    let same_file = match (
        std::fs::canonicalize(&args.data),
        std::fs::canonicalize(&args.out),
    ) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if same_file {
        return Err(format!(
            "--out {} is the input: write the relabelled data to another file",
            args.out
        ));
    }
    // No tables unless the option names them, so that a run does not depend on the machine's
    // default directory.
    let egdb = super::shard::whole_tables::<R>(args.egdb.as_deref(), kind.variant)?;
    let settings = settings_line(
        args.max_pieces,
        egdb.as_ref().map(|t| (t.max_pieces(), t.slices())),
    );
    let how = Relabel::<R> {
        nodes: args.nodes,
        max_pieces: args.max_pieces.unwrap_or(u32::MAX),
        tables: egdb.as_ref().map(|t| t as &dyn Probe<_>),
    };
    // One table per worker (each chunk clears its own first).
    let tables = super::shard::worker_tables(args.threads, args.hash)?;
    let input = File::open(&args.data).map_err(|e| format!("{}: {e}", args.data))?;
    let input_bytes = input.metadata().map(|m| m.len()).unwrap_or(0);
    // Resume: the complete chunks already written, checked against the input as it is read;
    // a cut-off last chunk is cut away when the first new chunk is written, after that check.
    let scan = super::shard::existing_chunks(&args.out)?;
    if let Some(scan) = &scan {
        let n = scan.chunks.len();
        match &scan.stopped {
            Some(why) => eprintln!(
                "{}: dropping an incomplete last chunk ({why}); resuming after chunk {n}",
                args.out
            ),
            None => eprintln!("{}: resuming after chunk {n}", args.out),
        }
    }
    let (done, valid_bytes) = scan.map_or((Vec::new(), None), |s| (s.chunks, Some(s.valid_bytes)));
    let settings_file = settings_path(&args.out);
    if !done.is_empty() {
        let before = match std::fs::read_to_string(&settings_file) {
            Ok(s) => s.trim().to_string(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => settings_line(None, None),
            Err(e) => return Err(format!("{settings_file}: {e}")),
        };
        if before != settings {
            return Err(format!(
                "{}: relabelled with {before}, not {settings} ({settings_file}); choose another \
                 --out",
                args.out
            ));
        }
    }
    std::fs::write(&settings_file, format!("{settings}\n"))
        .map_err(|e| format!("{settings_file}: {e}"))?;
    let mut out: Option<BufWriter<File>> = None;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()
        .map_err(|e| format!("thread pool: {e}"))?;
    let (shard, shards) = args.shard;
    eprintln!(
        "relabel {}: {} (shard {shard}/{shards} of its chunks), {} nodes a position, {settings}, \
         {} threads -> {}",
        kind.variant.name(),
        args.data,
        args.nodes,
        args.threads,
        args.out
    );
    let bar = ProgressBar::new(input_bytes).with_style(
        ProgressStyle::with_template(
            "{bar:40} {percent}% of the input  {msg}  [{elapsed_precise}, {eta} left]",
        )
        .expect("a valid template"),
    );
    let start = Instant::now();
    let nodes = args.nodes as u32;
    let batch_len = args.threads * 2;
    let mut batch: Vec<(u64, ChunkHeader, Vec<Record>)> = Vec::with_capacity(batch_len);
    let (mut index, mut selected, mut positions, mut changed) = (0u64, 0usize, 0u64, 0u64);
    // Relabels the batch in parallel and writes it in the input's order.
    let mut flush = |batch: &mut Vec<(u64, ChunkHeader, Vec<Record>)>| -> Result<(), String> {
        if out.is_none() {
            if let Some(bytes) = valid_bytes {
                super::shard::truncate(&args.out, bytes)?;
            }
            let file = OpenOptions::new()
                .create(true)
                .append(true)
                .open(&args.out)
                .map_err(|e| format!("{}: {e}", args.out))?;
            out = Some(BufWriter::new(file));
        }
        let w = out.as_mut().expect("opened above");
        let relabelled: Vec<Result<Vec<Record>, String>> = pool.install(|| {
            batch
                .par_iter()
                .map(|(at, _, records)| {
                    let worker = rayon::current_thread_index().unwrap_or(0);
                    let mut new = records.clone();
                    relabel_chunk::<R>(&mut new, &how, &tables[worker])
                        .map_err(|e| format!("{}: chunk at byte {at}, {e}", args.data))?;
                    Ok(new)
                })
                .collect()
        });
        for ((_, h, old), new) in batch.iter().zip(relabelled) {
            let new = new?;
            data::write_chunk(w, &ChunkHeader { nodes, ..*h }, &new)
                .and_then(|_| w.flush())
                .map_err(|e| format!("{}: {e}", args.out))?;
            positions += new.len() as u64;
            changed += new
                .iter()
                .zip(old)
                .filter(|(n, o)| n.score != o.score)
                .count() as u64;
        }
        batch.clear();
        bar.set_message(format!("{positions} positions relabelled"));
        Ok(())
    };
    data::read_chunks(
        BufReader::new(input),
        |at, h, records| -> Result<(), Stop> {
            data::check_variant(at, h, kind.variant)?;
            bar.set_position(at);
            let mine = index % shards as u64 == shard as u64;
            index += 1;
            if !mine {
                return Ok(());
            }
            selected += 1;
            if let Some(d) = done.get(selected - 1) {
                if !same_chunk(d, h, nodes) {
                    return Err(Stop::Other(format!(
                        "{}: chunk {} is not the input's chunk at byte {at} relabelled at {} nodes \
                         (another input, --shard or --nodes?); choose another --out",
                        args.out,
                        selected - 1,
                        args.nodes
                    )));
                }
                return Ok(());
            }
            batch.push((at, *h, records));
            if batch.len() == batch_len {
                flush(&mut batch).map_err(Stop::Other)?;
            }
            Ok(())
        },
    )
    .map_err(|e| match e {
        Stop::Data(e) => format!("{}: {e}", args.data),
        Stop::Other(e) => e,
    })?;
    if selected < done.len() {
        return Err(format!(
            "{}: holds {} chunks, but the input gives {selected} for shard {shard}/{shards}; \
             choose another --out",
            args.out,
            done.len()
        ));
    }
    flush(&mut batch)?;
    bar.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    println!(
        "relabel {}: {positions} positions at {} nodes ({:.1}% of the scores changed); {:.1} s, \
         {:.0} positions/s; {} chunks before, {} -> {}",
        kind.variant.name(),
        args.nodes,
        100.0 * changed as f64 / positions.max(1) as f64,
        secs,
        positions as f64 / secs.max(1e-9),
        done.len(),
        if done.is_empty() {
            "written"
        } else {
            "appended"
        },
        args.out
    );
    Ok(())
}
