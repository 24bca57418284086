//! `tiao selfplay`: self-play games written as training data (`tiao::training::selfplay` plays
//! them, `tiao::training::data` is the file format). Resumable: run again with the same
//! arguments and it continues after the last complete chunk of the file.

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use std::fs::OpenOptions;
use std::io::{BufWriter, Write};
use std::time::Instant;
use tiao::dispatch;
use tiao::draughts::board::Geometry;
use tiao::draughts::rules::Rules;
use tiao::training::data::{self, ChunkHeader};
use tiao::training::selfplay::{self, PlayedGame, Settings};
use tiao::variant::GameKind;

#[derive(Args, Debug)]
#[command(after_help = "Examples:
  tiao selfplay --games 20000 --out international.tsd
  tiao selfplay -v russian --games 20000 --nodes 3000 --seed 2 --out russian.tsd

Sharded over N machines (a Slurm array job, a Kubernetes indexed Job): each runs
  tiao selfplay --games 1000000 --seed 1 --shard $I/$N --out part-$I.tsd
and `cat part-*.tsd > all.tsd` merges them (the files are sequences of chunks). The games of
the shards together are exactly those of the unsharded run. Interrupted? Run the same command
again: it keeps the complete chunks and continues.

Ending games by endgame tables: with --egdb DIR (`tiao egdb build`) a game ends at its first
position of at most --adjudicate-pieces pieces the tables cover (default: the most pieces of
which DIR holds every table), that position kept, and the tables' value under the game's draw
counters is the game's result. The searches do not probe the tables (their scores are those of
a run without them); the endings are not played out:
  tiao selfplay -v russian --games 20000 --nodes 4000 --egdb DIR --adjudicate-pieces 4 --out ru.tsd
The piece count is in the file's chunk headers: a resume with another one is refused.")]
pub struct SelfplayArgs {
    #[command(flatten)]
    game: super::GameArgs,
    #[command(flatten)]
    weights: super::WeightsArgs,
    /// Games of the whole run (over all shards).
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 3000, value_parser = super::whole::<u64>(1, u32::MAX as u64))]
    nodes: u64,
    /// Random plies from the start before the engine plays (default: 10 on 10x10, 8 on 8x8).
    #[arg(long)]
    opening_plies: Option<u32>,
    /// A game still going after this many plies is scored a draw.
    #[arg(long, default_value_t = 400)]
    max_plies: usize,
    /// Seed of the run: the same seed plays the same games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// This process's share of the games, I/N (0-based I): the games g with g % N == I.
    #[arg(long, default_value = "0/1", value_parser = super::shard::parse_shard)]
    shard: (u32, u32),
    /// Output file; appended to when it holds complete chunks of the same run.
    #[arg(long, short)]
    out: String,
    /// Worker threads (games played at once).
    #[arg(long, short, default_value_t = default_threads(),
          value_parser = super::whole::<usize>(1, super::MAX_PARALLEL))]
    threads: usize,
    /// Transposition table per worker, MiB.
    #[arg(long, default_value_t = 4, value_parser = super::whole::<usize>(1, super::MAX_HASH_MIB))]
    hash: usize,
    /// Games per chunk of the file (the unit of resumption).
    #[arg(long, default_value_t = 64, value_parser = super::whole::<usize>(1, 100_000))]
    chunk_games: usize,
    /// Endgame tables directory (see `tiao egdb`) that ends the games where it covers them;
    /// 'none' or absent: games are played to their end.
    #[arg(long, value_name = "DIR")]
    egdb: Option<String>,
    /// With --egdb: games end at positions of at most this many pieces (at most the most
    /// pieces of which the directory holds every table, the default).
    #[arg(long, value_parser = super::whole::<u32>(2, 64))]
    adjudicate_pieces: Option<u32>,
}

fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

pub fn run(args: SelfplayArgs) -> Result<(), String> {
    let kind = args.game.kind();
    args.weights.choose(kind)?;
    dispatch!(kind, R => run_rules::<R>(&args, kind), morris => {
        Err("tiao selfplay writes draughts training data; morris is not supported".to_string())
    })
}

fn run_rules<R: Rules>(args: &SelfplayArgs, kind: GameKind) -> Result<(), String> {
    // One table per worker for the whole run (each game clears its own first).
    let tables = super::shard::worker_tables(args.threads, args.hash)?;
    let board10 = R::Board::SIZE == 10;
    let settings = Settings {
        nodes: args.nodes,
        opening_plies: args.opening_plies.unwrap_or(if board10 { 10 } else { 8 }),
        max_plies: args.max_plies.max(1),
        seed: args.seed,
    };
    let egdb = super::shard::whole_tables::<R>(args.egdb.as_deref(), kind.variant)?;
    let table_end = match (&egdb, args.adjudicate_pieces) {
        (None, None) => None,
        (None, Some(_)) => return Err("--adjudicate-pieces needs --egdb DIR".to_string()),
        (Some(t), pieces) => {
            let complete = t.complete_pieces();
            if complete < 2 {
                return Err(format!(
                    "--egdb: the directory does not hold every 2-piece {} table",
                    kind.variant.name()
                ));
            }
            let pieces = pieces.unwrap_or(complete);
            if pieces > complete {
                return Err(format!(
                    "--adjudicate-pieces {pieces}: the directory holds every table up to \
                     {complete} pieces only"
                ));
            }
            Some(selfplay::TableEnd::<R> { tables: t, pieces })
        }
    };
    let (shard, shards) = args.shard;
    let header = ChunkHeader {
        variant: kind.variant,
        shard,
        shards,
        seed: args.seed,
        nodes: args.nodes as u32,
        table_end: table_end.as_ref().map_or(0, |t| t.pieces as u8),
        first_game: 0,
        games: 0,
        records: 0,
    };
    // Resume: keep the complete chunks of the same run.
    let mut done_games = 0u64;
    if let Some(scan) = super::shard::existing_chunks(&args.out)? {
        for c in &scan.chunks {
            let same = c.variant == header.variant
                && c.shard == shard
                && c.shards == shards
                && c.seed == header.seed
                && c.nodes == header.nodes
                && c.table_end == header.table_end;
            if !same {
                return Err(format!(
                    "{}: holds data of another run ({} shard {}/{} seed {} nodes {}{}); \
                     choose another --out",
                    args.out,
                    c.variant,
                    c.shard,
                    c.shards,
                    c.seed,
                    c.nodes,
                    ended_by(c.table_end)
                ));
            }
            if c.first_game != done_games {
                return Err(format!("{}: chunks out of order", args.out));
            }
            done_games += c.games as u64;
        }
        if let Some(why) = &scan.stopped {
            eprintln!(
                "{}: dropping an incomplete last chunk ({why}); resuming after game {done_games}",
                args.out
            );
        } else {
            eprintln!("{}: resuming after game {done_games}", args.out);
        }
        super::shard::truncate(&args.out, scan.valid_bytes)?;
    }
    let mine: Vec<u64> = selfplay::shard_games(args.games, shard, shards).collect();
    let todo = &mine[(done_games as usize).min(mine.len())..];
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args.out)
        .map_err(|e| format!("{}: {e}", args.out))?;
    let mut out = BufWriter::new(file);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()
        .map_err(|e| format!("thread pool: {e}"))?;
    eprintln!(
        "selfplay {}: {} games to play, {} of {} written before (shard {shard}/{shards}), {} \
         nodes/move, {} opening plies, seed {}{}, {} threads -> {}",
        kind.variant.name(),
        todo.len(),
        mine.len() - todo.len(),
        mine.len(),
        args.nodes,
        settings.opening_plies,
        args.seed,
        ended_by(header.table_end),
        args.threads,
        args.out
    );
    let bar = ProgressBar::new(mine.len() as u64).with_style(
        ProgressStyle::with_template(
            "{bar:40} {pos}/{len} games  {msg}  [{elapsed_precise}, {eta} left]",
        )
        .expect("a valid template"),
    );
    bar.set_position(done_games);
    let start = Instant::now();
    let mut tally = Tally::default();
    for (k, chunk) in todo.chunks(args.chunk_games).enumerate() {
        let played: Vec<PlayedGame> = pool.install(|| {
            chunk
                .par_iter()
                .map(|&g| {
                    // Inside the pool every thread has an index below `args.threads`.
                    let worker = rayon::current_thread_index().unwrap_or(0);
                    let game = selfplay::play_game_ending::<R>(
                        &settings,
                        g,
                        table_end.as_ref(),
                        &tables[worker],
                    );
                    bar.inc(1);
                    game
                })
                .collect()
        });
        let records: Vec<data::Record> = played
            .iter()
            .flat_map(|g| g.records.iter().copied())
            .collect();
        let h = ChunkHeader {
            first_game: done_games + (k * args.chunk_games) as u64,
            games: chunk.len() as u32,
            ..header
        };
        data::write_chunk(&mut out, &h, &records)
            .and_then(|_| out.flush())
            .map_err(|e| format!("{}: {e}", args.out))?;
        for g in &played {
            tally.add(g);
        }
        bar.set_message(format!(
            "{} positions, +{} ={} -{} (White)",
            tally.positions, tally.wins, tally.draws, tally.losses
        ));
    }
    bar.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    println!(
        "selfplay {}: {} games, {} positions ({:.1} a game), White +{} ={} -{} ({} drawn at \
         {} plies, {} ended by the tables), {:.1} plies a game; {:.1} s, {:.0} positions/s; {} -> \
         {}",
        kind.variant.name(),
        tally.games,
        tally.positions,
        tally.positions as f64 / tally.games.max(1) as f64,
        tally.wins,
        tally.draws,
        tally.losses,
        tally.adjudicated,
        settings.max_plies,
        tally.tabled,
        tally.plies as f64 / tally.games.max(1) as f64,
        secs,
        tally.positions as f64 / secs.max(1e-9),
        if done_games > 0 {
            "appended"
        } else {
            "written"
        },
        args.out
    );
    Ok(())
}

/// The summary of the games played by this run.
#[derive(Default)]
struct Tally {
    games: u64,
    positions: u64,
    plies: u64,
    wins: u64,
    draws: u64,
    losses: u64,
    adjudicated: u64,
    tabled: u64,
}

impl Tally {
    fn add(&mut self, g: &PlayedGame) {
        self.games += 1;
        self.positions += g.records.len() as u64;
        self.plies += g.plies as u64;
        match g.result {
            1 => self.wins += 1,
            -1 => self.losses += 1,
            _ => self.draws += 1,
        }
        self.adjudicated += g.adjudicated as u64;
        self.tabled += g.tabled as u64;
    }
}

/// How a run's games ended, for messages: nothing when played to their end.
fn ended_by(table_end: u8) -> String {
    if table_end == 0 {
        String::new()
    } else {
        format!(", ended by the tables at {table_end} pieces")
    }
}
