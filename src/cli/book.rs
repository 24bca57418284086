//! `tiao book`: opening books (`tiao::book`). `build` grows a book by drop-out expansion
//! (deterministic, resumable, shardable; english with `--ballots` from the start and the
//! three-move ballots), `merge` adds the shards' parts of one step, `info` describes a book,
//! `probe` prints the moves and scores of one position.

use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::path::{Path, PathBuf};
use std::time::Instant;
use tiao::book::build::{self, DEFAULT_BATCH, DEFAULT_NODES, DEFAULT_PLY_COST, Part, Roots};
use tiao::book::format::{self, FileKind};
use tiao::book::{Book, BookError, Settings, probe};
use tiao::dispatch;
use tiao::draughts::position::Position;
use tiao::game::{Evaluate, Game, Variant};
use tiao::morris::MorrisPosition;
use tiao::search::Score;
use tiao::track::GameTrack;
use tiao::variant::GameKind;

#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  tiao book build -v english --positions 2000 --nodes 20000 --out english.book
  tiao book build -v english --positions 4000 --nodes 20000 --out english.book   (continues)
  tiao book build -v english --ballots --positions 4000 --out english.book  (the ACF ballots too)
  tiao book info english.book
  tiao book probe english.book --moves \"11-15 23-19\"

Sharded scoring of one expansion step over N runs (machines), then a merge:
  tiao book build -v english --out english.book --shard 0/2 --part p0.part
  tiao book build -v english --out english.book --shard 1/2 --part p1.part
  tiao book merge -v english --out english.book p0.part p1.part
The merged book is the book an unsharded step makes. See docs/book.md.")]
pub struct BookArgs {
    #[command(subcommand)]
    command: BookCommand,
}

#[derive(Subcommand, Debug)]
enum BookCommand {
    /// Grow a book from the start position (english with --ballots: and from every three-move
    /// ballot) until it holds --positions positions (resumable: an existing --out is
    /// continued); with --shard, score one step's share into a --part file.
    Build(BuildArgs),
    /// Add the parts the shards of one step scored to the book (every shard once).
    Merge(MergeArgs),
    /// A book's size, settings, depth reached and main lines.
    Info(InfoArgs),
    /// The moves and scores the book holds for one position.
    Probe(ProbeArgs),
}

#[derive(Args, Debug)]
struct BuildArgs {
    #[command(flatten)]
    game: super::GameArgs,
    #[command(flatten)]
    weights: super::WeightsArgs,
    /// Positions the book should hold (it grows in whole steps, so it may hold a few more).
    #[arg(long, default_value_t = 1000, value_parser = super::whole::<usize>(1, 100_000_000))]
    positions: usize,
    /// Nodes searched per move (one thread, a cleared 4 MiB table: deterministic).
    #[arg(long, default_value_t = DEFAULT_NODES, value_parser = super::whole::<u64>(1, u32::MAX as u64))]
    nodes: u64,
    /// Positions an expansion step adds (the unit of resumption and of sharding).
    #[arg(long, default_value_t = DEFAULT_BATCH, value_parser = super::whole::<u32>(1, 1_000_000))]
    batch: u32,
    /// What a ply adds to a line's price against its drop-outs, centi-men (higher: a wider,
    /// shallower book).
    #[arg(long, default_value_t = DEFAULT_PLY_COST, value_parser = super::whole::<u32>(0, 100_000))]
    ply_cost: u32,
    /// English only: grow from the position of each of the 156 ballots of the ACF three-move
    /// deck as well as from the start (the barred ballots are not roots), so that the book
    /// covers every ballot and continues each.
    #[arg(long)]
    ballots: bool,
    /// The book file (created, or continued when it exists).
    #[arg(long, short)]
    out: PathBuf,
    /// Score only this share I/N of the next step's positions, into --part (see merge;
    /// --positions is not used).
    #[arg(long, value_name = "I/N", value_parser = super::shard::parse_shard, requires = "part")]
    shard: Option<(u32, u32)>,
    /// The file a --shard run writes its share to.
    #[arg(long, requires = "shard")]
    part: Option<PathBuf>,
    /// Worker threads (searches at once; the book does not depend on them).
    #[arg(long, short, default_value_t = 1, value_parser = super::whole::<usize>(1, super::MAX_THREADS))]
    threads: usize,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

#[derive(Args, Debug)]
struct MergeArgs {
    /// Variant.
    #[arg(long, short, default_value = "international")]
    variant: Variant,
    /// The book the parts extend (created when it does not exist yet).
    #[arg(long, short)]
    out: PathBuf,
    /// The parts, one per shard of the step.
    #[arg(required = true)]
    parts: Vec<PathBuf>,
}

#[derive(Args, Debug)]
struct InfoArgs {
    /// The book file.
    file: PathBuf,
    /// The variant the book must be of (default: the one it says).
    #[arg(long, short)]
    variant: Option<Variant>,
    /// Root moves whose lines are printed.
    #[arg(long, default_value_t = 5, value_parser = super::whole::<usize>(0, 1000))]
    lines: usize,
}

#[derive(Args, Debug)]
struct ProbeArgs {
    /// The book file.
    file: PathBuf,
    #[command(flatten)]
    game: super::GameArgs,
    #[command(flatten)]
    position: super::PositionArgs,
}

pub fn run(args: BookArgs) -> Result<(), String> {
    match args.command {
        BookCommand::Build(a) => {
            let kind = a.game.kind();
            a.weights.choose(kind)?;
            dispatch!(kind, R => build_with::<Position<R>>(&a),
                morris => build_with::<MorrisPosition>(&a))
        }
        BookCommand::Merge(a) => {
            let kind = GameKind::new(a.variant);
            dispatch!(kind, R => merge_with::<Position<R>>(&a),
                morris => merge_with::<MorrisPosition>(&a))
        }
        BookCommand::Info(a) => {
            let (header, entries) = format::read(&a.file, a.variant).map_err(|e| e.to_string())?;
            let book = Book {
                variant: header.variant,
                settings: header.settings,
                entries,
            };
            let kind = GameKind::new(header.variant);
            dispatch!(kind, R => info_with::<Position<R>>(&a, &header, &book),
                morris => info_with::<MorrisPosition>(&a, &header, &book))
        }
        BookCommand::Probe(a) => {
            let kind = a.game.kind();
            dispatch!(kind, R => probe_with::<Position<R>>(&a),
                morris => probe_with::<MorrisPosition>(&a))
        }
    }
}

/// The book at `path` when it exists (built with `settings`), else an empty one.
fn book_or_new(path: &Path, variant: Variant, settings: Settings) -> Result<Book, String> {
    if !path.exists() {
        return Ok(Book::new(variant, settings));
    }
    let book = tiao::book::embedded::read(path, variant).map_err(|e| e.to_string())?;
    if book.settings != settings {
        let s = book.settings;
        return Err(format!(
            "{}: a book built with --nodes {} --batch {} --ply-cost {}{}; continue it with those \
             (or choose another --out)",
            path.display(),
            s.nodes,
            s.batch,
            s.ply_cost,
            match s.roots {
                Roots::Start => " (without --ballots)",
                Roots::Ballots => " --ballots",
            }
        ));
    }
    Ok(book)
}

fn save(path: &Path, book: &Book) -> Result<(), BookError> {
    let bytes = format::encode(FileKind::Book, book.variant, &book.settings, &book.entries);
    format::write(path, &bytes)
}

fn build_with<G: Evaluate>(a: &BuildArgs) -> Result<(), String> {
    let variant = a.game.variant;
    let roots = if a.ballots {
        Roots::Ballots
    } else {
        Roots::Start
    };
    if !roots.fits(variant) {
        return Err(format!(
            "--ballots: the three-move ballots are english's, not {}'s",
            variant.name()
        ));
    }
    let settings = Settings {
        nodes: a.nodes,
        batch: a.batch,
        ply_cost: a.ply_cost,
        roots,
    };
    let mut book = book_or_new(&a.out, variant, settings)?;
    let scorer = build::Scorer::new(a.threads)?;
    let start = Instant::now();
    let searched = std::sync::atomic::AtomicU64::new(0);
    let count = || {
        searched.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    };
    if let (Some((shard, shards)), Some(part)) = (a.shard, &a.part) {
        let step = build::next_step::<G>(&book);
        let mine = build::shard_of_step(&step, shard, shards);
        let scored = scorer.score(&mine, a.nodes, &count);
        let kind = FileKind::Part {
            base: format::payload_checksum(&book.entries),
            shard,
            shards,
        };
        let bytes = format::encode(kind, variant, &settings, &scored);
        format::write(part, &bytes).map_err(|e| e.to_string())?;
        println!(
            "book {}: shard {shard}/{shards} of the step after {} positions: {} of its {} \
             positions scored ({} searches, {:.1} s) -> {} ({} bytes)",
            variant.name(),
            book.len(),
            mine.len(),
            step.len(),
            searched.into_inner(),
            start.elapsed().as_secs_f64(),
            part.display(),
            bytes.len()
        );
        return Ok(());
    }
    let before = book.len();
    if before > 0 {
        eprintln!(
            "{}: continuing a book of {before} positions",
            a.out.display()
        );
    }
    let bar = if a.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::with_draw_target(Some(a.positions as u64), ProgressDrawTarget::stderr())
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:40} {pos}/{len} positions  {msg}  [{elapsed_precise}, {eta} left]",
        )
        .map_err(|e| e.to_string())?,
    );
    bar.set_position(before.min(a.positions) as u64);
    let mut on_step = |b: &Book, s: &build::Step| {
        save(&a.out, b)?;
        bar.set_position(s.size.min(a.positions) as u64);
        bar.set_message(format!("step price {}", s.price));
        Ok(())
    };
    let steps = build::grow::<G>(&mut book, a.positions, &scorer, &mut on_step, &count)
        .map_err(|e| e.to_string())?;
    bar.finish_and_clear();
    if book.len() == before {
        // Nothing added: still write a new book, so that an empty start leaves a file.
        save(&a.out, &book).map_err(|e| e.to_string())?;
    }
    let (depth, _) = probe::depth::<G>(&book);
    let root = G::start();
    let line = probe::main_line(&book, &root, MAIN_LINE_MAX);
    let value = probe::probe(&book, &root)
        .and_then(|m| m.first().map(|(_, b)| b.score))
        .unwrap_or(0);
    println!(
        "book {}: {} positions (+{} in {} steps), {} moves, depth {depth} plies, {} searches of \
         {} nodes, {:.1} s; -> {}\nmain line ({}): {}",
        variant.name(),
        book.len(),
        book.len() - before,
        steps.len(),
        book.moves(),
        searched.into_inner(),
        a.nodes,
        start.elapsed().as_secs_f64(),
        a.out.display(),
        Score(value as i32),
        line.join(" ")
    );
    Ok(())
}

/// Longest main line printed.
const MAIN_LINE_MAX: usize = 40;

fn merge_with<G: Evaluate>(a: &MergeArgs) -> Result<(), String> {
    let mut parts = Vec::new();
    for p in &a.parts {
        let (header, entries) = format::read(p, Some(a.variant)).map_err(|e| e.to_string())?;
        parts.push(Part {
            path: p.clone(),
            header,
            entries,
        });
    }
    let settings = parts[0].header.settings;
    let mut book = book_or_new(&a.out, a.variant, settings)?;
    let before = book.len();
    let added = build::merge::<G>(&mut book, parts).map_err(|e| e.to_string())?;
    save(&a.out, &book).map_err(|e| e.to_string())?;
    println!(
        "book {}: {} positions merged from {} parts: {before} -> {} positions -> {}",
        a.variant.name(),
        added,
        a.parts.len(),
        book.len(),
        a.out.display()
    );
    Ok(())
}

fn info_with<G: Game>(a: &InfoArgs, header: &format::Header, book: &Book) -> Result<(), String> {
    let bytes = std::fs::metadata(&a.file).map(|m| m.len()).unwrap_or(0);
    let (depth, reached) = probe::depth::<G>(book);
    let s = header.settings;
    println!("file       {} ({bytes} bytes)", a.file.display());
    match header.kind {
        FileKind::Book => println!("kind       book"),
        FileKind::Part { shard, shards, .. } => {
            println!("kind       part of a step, shard {shard}/{shards}")
        }
    }
    println!("variant    {}", book.variant.name());
    println!(
        "positions  {} ({reached} reached from its roots), {} moves",
        book.len(),
        book.moves()
    );
    println!("depth      {depth} plies");
    println!(
        "settings   --nodes {} --batch {} --ply-cost {}{}",
        s.nodes,
        s.batch,
        s.ply_cost,
        if s.roots == Roots::Ballots {
            " --ballots"
        } else {
            ""
        }
    );
    if s.roots == Roots::Ballots {
        let roots = build::roots::<G>(&s);
        let held = roots
            .iter()
            .filter(|(g, _)| book.get(g.key()).is_some())
            .count();
        println!(
            "roots      the start and {} ballots: {held} of {} in the book",
            roots.len() - 1,
            roots.len()
        );
    }
    let root = G::start();
    if let Some(moves) = probe::probe(book, &root) {
        println!(
            "main line  {} {}",
            Score(moves.first().map_or(0, |m| m.1.score as i32)),
            probe::main_line(book, &root, MAIN_LINE_MAX).join(" ")
        );
        for (m, b) in moves.iter().take(a.lines) {
            let mut line = vec![b.text.clone()];
            line.extend(probe::main_line(book, &root.make(m), MAIN_LINE_MAX - 1));
            println!(
                "  {:<10} {:>16}  {}",
                b.text,
                Score(b.score as i32).to_string(),
                line.join(" ")
            );
        }
    }
    Ok(())
}

fn probe_with<G: Evaluate>(a: &ProbeArgs) -> Result<(), String> {
    let variant = a.game.variant;
    let book = tiao::book::embedded::read(&a.file, variant).map_err(|e| e.to_string())?;
    let track = GameTrack::<G>::replay(a.position.fen.as_deref(), a.position.moves())
        .map_err(|e| e.to_string())?;
    let pos = track.position();
    let Some(moves) = probe::probe(&book, pos) else {
        println!("{}: not in the book", pos.fen());
        return Ok(());
    };
    println!("{}: {} moves in the book", pos.fen(), moves.len());
    println!(
        "{:<12} {:>16} {:>16} {:>6}",
        "move", "score", "search", "depth"
    );
    for (_, b) in &moves {
        println!(
            "{:<12} {:>16} {:>16} {:>6}",
            b.text,
            Score(b.score as i32).to_string(),
            Score(b.leaf as i32).to_string(),
            b.depth
        );
    }
    let missing = probe::missing_moves(&book, pos);
    if !missing.is_empty() {
        eprintln!(
            "warning: legal moves the book does not hold: {}",
            missing.join(" ")
        );
    }
    Ok(())
}
