//! `tiao analyze`: searches one position and prints each iteration and the best move (the
//! default), or, for scripts, writes JSON lines: one object per position (`--json`, a file of
//! positions with `--positions`) or per move of the games of a PDN file (`--pdn`), with a game
//! review written back as annotated PDN (`--review`) and evaluation plots (`--plot`). Batches run
//! on every core with a progress bar on stderr; stdout holds only the results.

use clap::Args;
use std::io::{IsTerminal, Write};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tiao::analysis::json::{self, ErrorLine, MoveLine, PositionLine};
use tiao::analysis::review::{self, Thresholds};
use tiao::analysis::{self as batch, Analysis, Job, Settings};
use tiao::engine::{BookEntry, BookOptions, Engine, EngineOptions, Event};
use tiao::game::Variant;
use tiao::pdn;
use tiao::render::plot::{self, EvalPlot};
use tiao::search::Limits;
use tiao::variant::GameKind;

/// Depth searched when no limit is given: a few seconds on a small machine.
const DEFAULT_DEPTH: u32 = 22;

/// Depth searched per position in batches (--positions, --pdn) when no limit is given.
const BATCH_DEPTH: u32 = 12;

#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  tiao analyze --fen W:W31-50:B1-20 --depth 16
  tiao analyze --fen W:W31-50:B1-20 --depth 12 --json
  tiao analyze --moves \"32-28 18-23\" --depth 12 --no-book
  tiao analyze --positions positions.txt --depth 12 > results.jsonl
  tiao analyze --pdn games.pdn --movetime 0.5 --review reviewed.pdn --plot eval.svg > moves.jsonl

A positions file holds one FEN per line, optionally followed by blanks and an id; blank lines
and lines starting with # are skipped. JSON scores are centi-men from the side to move, or null
with win_in/loss_in in plies when the result is proven (see docs/tools.md).

A large collection over N machines (a Slurm array job, a Kubernetes indexed Job): each runs
  tiao analyze --pdn games.pdn --depth 14 --shard $I/$N --review rev-$I.pdn > moves-$I.jsonl
on its block of the games. Every search starts from an empty table, so with --depth or --nodes
(one thread a search) the results do not depend on the sharding: the moves-$I.jsonl files
concatenated in shard order (moves-0, moves-1, ...) are the whole run's output but for the
time_ms and nps fields, and the reviews concatenated the same way its review.")]
pub struct AnalyzeArgs {
    #[command(flatten)]
    game: super::GameArgs,
    #[command(flatten)]
    position: super::PositionArgs,
    /// Search to this depth in plies, 1..=127 (default when no other limit is given: 22).
    #[arg(long, short, value_parser = super::whole::<u32>(1, super::MAX_DEPTH))]
    depth: Option<u32>,
    /// Search for this many seconds, or with a unit (500ms, 2s); above 0.
    #[arg(long, value_name = "TIME", value_parser = super::positive_seconds)]
    movetime: Option<f64>,
    /// Search this many nodes.
    #[arg(long, value_parser = super::whole::<u64>(1, u64::MAX))]
    nodes: Option<u64>,
    /// Search threads, 1..=256.
    #[arg(long, short, default_value_t = 1, value_parser = super::whole::<usize>(1, super::MAX_THREADS))]
    threads: usize,
    /// Transposition table size in MiB, 1..=65536 (per parallel search; default 64, in batches
    /// 16).
    #[arg(long, value_parser = super::whole::<usize>(1, super::MAX_HASH_MIB))]
    hash: Option<usize>,
    /// Write one JSON object for the position instead of the table.
    #[arg(long)]
    json: bool,
    /// Analyse a file of positions ('-': standard input): one JSON line per position (batches
    /// search to depth 12 unless a limit is given).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["fen", "moves", "pdn"])]
    positions: Option<String>,
    /// Analyse every move of the games of a PDN file: one JSON line per move (depth 12 unless a
    /// limit is given).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["fen", "moves"])]
    pdn: Option<String>,
    /// With --pdn: write the games back annotated (scores, ?! ? ?? marks, better moves).
    #[arg(long, value_name = "FILE", requires = "pdn")]
    review: Option<String>,
    /// With --pdn: an SVG plot of each game's evaluation: the first game's to FILE, game n's to
    /// FILE-n.svg.
    #[arg(long, value_name = "FILE", requires = "pdn")]
    plot: Option<String>,
    /// Searches run at the same time in batches, 1..=256 (default: cores / threads).
    #[arg(long, value_parser = super::whole::<usize>(1, super::MAX_PARALLEL))]
    jobs: Option<usize>,
    /// This run's share of a batch, I/N (0-based I): the I-th of N contiguous blocks of the
    /// positions (--positions) or games (--pdn). Ids and game numbers stay those of the whole
    /// file, so the shards' outputs concatenated in shard order are the whole run's.
    #[arg(long, value_name = "I/N", value_parser = super::shard::parse_shard)]
    shard: Option<(u32, u32)>,
    /// Score losses in centi-men from which a move is an inaccuracy, a mistake, a blunder.
    #[arg(long, value_name = "I,M,B", default_value = "25,60,150")]
    thresholds: String,
    /// No progress bar on stderr.
    #[arg(long, short)]
    quiet: bool,
    /// Do not look the position up in the opening book (one position only; batches never do).
    #[arg(long, conflicts_with = "book")]
    no_book: bool,
    /// An opening book file to look the position up in instead of the embedded one.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["positions", "pdn"])]
    book: Option<std::path::PathBuf>,
    #[command(flatten)]
    params: super::ParamArgs,
    #[command(flatten)]
    egdb: super::EgdbArgs,
    #[command(flatten)]
    weights: super::WeightsArgs,
}

pub fn run(args: AnalyzeArgs) -> Result<(), String> {
    let kind = args.game.kind();
    args.weights.choose(kind)?;
    if args.positions.is_some() || args.pdn.is_some() {
        return run_batch(&args, kind);
    }
    if args.shard.is_some() {
        return Err("--shard shares a batch: it needs --positions or --pdn".into());
    }
    super::warn_threads(args.threads);
    let mut engine = Engine::new(
        kind,
        EngineOptions {
            threads: args.threads,
            hash_mib: args.hash.unwrap_or(64),
            params: args.params.params()?,
            egdb: args.egdb.checked()?,
            // On to list the book's moves; a search to analyse never plays from it.
            book: BookOptions {
                enabled: !args.no_book,
                file: args.book.clone(),
                ..BookOptions::default()
            },
            ..EngineOptions::default()
        },
    )
    .map_err(super::engine_error)?;
    super::warn_tables(&engine);
    let moves = args.position.moves();
    engine
        .set_position(args.position.fen.as_deref(), &moves)
        .map_err(|e| e.to_string())?;
    let limits = limits_of(&args, DEFAULT_DEPTH);
    if args.json {
        let job = Job {
            fen: args.position.fen.clone(),
            moves: moves.iter().map(|m| m.to_string()).collect(),
            kind: None,
        };
        let book = engine.book_moves();
        let a = batch::analyze_one(&mut engine, &job, &limits)?;
        let weights = weights_identity(kind);
        let line = PositionLine::new("1", args.game.variant.name(), weights.as_deref(), &a);
        let mut line = serde_json::to_value(line).map_err(|e| e.to_string())?;
        if let Some(fields) = line.as_object_mut() {
            fields.insert("book".into(), book_json(book.as_deref()));
        }
        println!("{}", json::line(&line));
        return Ok(());
    }
    let what = match (limits.depth, limits.move_time, limits.nodes) {
        (Some(d), _, _) => format!("depth {d}"),
        (_, Some(t), _) => format!("{:.1} s", t.as_secs_f64()),
        (_, _, Some(n)) => format!("{n} nodes"),
        _ => String::new(),
    };
    let fen = engine.fen();
    let side = if fen.starts_with('W') {
        "White"
    } else {
        "Black"
    };
    let (game, unit) = if args.game.variant == Variant::Morris {
        ("Nine Men's Morris".to_string(), "pieces (1.00 = one piece)")
    } else {
        (
            format!("{} draughts", args.game.variant),
            "men (1.00 = one man)",
        )
    };
    println!(
        "{game}, {side} to move, searching {what} on {} thread(s)",
        args.threads
    );
    println!("position {fen}");
    let kind = args.game.kind();
    let evaluation = tiao::dispatch!(kind, R => tiao::draughts::eval::patterns::describe::<R>(),
        morris => "hand-made Morris terms".to_string());
    println!("evaluation {evaluation}");
    println!("score: {unit} for the side to move; a win in n plies shows as 'win in n plies'");
    match (args.no_book, engine.book_moves()) {
        (true, _) => println!("book: not looked up (--no-book)"),
        (false, None) => println!("book: the position is not in the opening book"),
        (false, Some(moves)) => {
            println!(
                "book: the position is in the opening book, {} move(s) (value through the book, \
                 the move's own search score, its depth):",
                moves.len()
            );
            for m in &moves {
                println!(
                    "  {:<12} {:>16} {:>16} {:>5}",
                    m.mv.pdn,
                    m.score.to_string(),
                    m.leaf.to_string(),
                    m.depth
                );
            }
        }
    }
    let tables = engine.tables().dir.is_some();
    if let Some(dir) = &engine.tables().dir {
        println!(
            "endgame tables: {} slices up to {} pieces from {}; a table win converting in n plies \
             scores +96.00 - n/100 (see docs/egdb.md)",
            engine.tables().slices,
            engine.tables().max_pieces,
            dir.display()
        );
    }
    println!(
        "{:>5} {:>16} {:>12} {:>8} {:>6}{}  principal variation",
        "depth",
        "score",
        "nodes",
        "time",
        "Mn/s",
        if tables {
            format!(" {:>10}", "tbhits")
        } else {
            String::new()
        }
    );
    let sink = Arc::new(|e: Event| match e {
        Event::Info(i) => {
            let pv: Vec<&str> = i.pv.iter().map(|m| m.pdn.as_str()).collect();
            println!(
                "{:>5} {:>16} {:>12} {:>7.2}s {:>6.2}{}  {}",
                i.depth,
                i.score.to_string(),
                i.nodes,
                i.time.as_secs_f64(),
                i.nps as f64 / 1e6,
                i.tb_hits.map(|h| format!(" {h:>10}")).unwrap_or_default(),
                pv.join(" ")
            );
        }
        Event::Done(d) => match d.best {
            Some(b) => {
                let ponder = d.ponder.map(|p| format!(" (expected reply {})", p.pdn));
                println!(
                    "bestmove {}{}  score {}",
                    b.pdn,
                    ponder.unwrap_or_default(),
                    d.score
                );
            }
            None => println!("no legal move: the side to move has lost"),
        },
    });
    engine.go(limits, sink).map_err(|e| e.to_string())?;
    engine.wait();
    Ok(())
}

/// The `"book"` field of `--json`: `null` when the position is not in the book (or the book is
/// off), else its moves best first, with the value through the book and the move's own search
/// score in centi-men for the side to move (a proven win in p plies is 10000 - p) and the depth.
fn book_json(moves: Option<&[BookEntry]>) -> serde_json::Value {
    let Some(moves) = moves else {
        return serde_json::Value::Null;
    };
    moves
        .iter()
        .map(|m| {
            serde_json::json!({
                "move": m.mv.pdn,
                "move_hub": m.mv.hub,
                "score": m.score.0,
                "leaf": m.leaf.0,
                "depth": m.depth,
            })
        })
        .collect()
}

/// The limits given, or a search to `depth` when none is.
fn limits_of(args: &AnalyzeArgs, depth: u32) -> Limits {
    let mut limits = Limits {
        analyze: true,
        depth: args.depth,
        nodes: args.nodes,
        move_time: args.movetime.map(Duration::from_secs_f64),
        ..Limits::default()
    };
    if limits.depth.is_none() && limits.nodes.is_none() && limits.move_time.is_none() {
        limits.depth = Some(depth);
    }
    limits
}

/// What the limits are, for the review's comment.
fn describe(l: &Limits) -> String {
    match (l.depth, l.move_time, l.nodes) {
        (Some(d), _, _) => format!("depth {d}"),
        (_, Some(t), _) => format!("{} s", t.as_secs_f64()),
        (_, _, Some(n)) => format!("{n} nodes"),
        _ => String::new(),
    }
}

/// A progress bar on stderr (drawn only on a terminal).
struct Bar {
    total: usize,
    what: &'static str,
    start: Instant,
    draw: bool,
}

impl Bar {
    fn new(total: usize, what: &'static str, quiet: bool) -> Bar {
        Bar {
            total,
            what,
            start: Instant::now(),
            draw: !quiet && std::io::stderr().is_terminal(),
        }
    }

    fn set(&self, done: usize) {
        if !self.draw {
            return;
        }
        let width = 30;
        let filled = (width * done).checked_div(self.total).unwrap_or(width);
        let _ = write!(
            std::io::stderr(),
            "\r[{}{}] {done}/{} {}  {:.1} s",
            "#".repeat(filled),
            ".".repeat(width - filled),
            self.total,
            self.what,
            self.start.elapsed().as_secs_f64()
        );
        let _ = std::io::stderr().flush();
    }

    fn finish(&self, quiet: bool) {
        if self.draw {
            eprintln!();
        }
        if !quiet {
            eprintln!(
                "analysed {} {} in {:.1} s",
                self.total,
                self.what,
                self.start.elapsed().as_secs_f64()
            );
        }
    }
}

/// The pattern weights the process evaluates `kind` with, as the JSON lines name them
/// (`family:checksum`); `None` for Morris.
fn weights_identity(kind: GameKind) -> Option<String> {
    use tiao::draughts::eval::{active, weights::Family};
    tiao::dispatch!(kind, R => Some(active::identity(Family::of::<R>())), morris => None)
}

/// `--positions` and `--pdn`.
fn run_batch(args: &AnalyzeArgs, kind: GameKind) -> Result<(), String> {
    let limits = limits_of(args, BATCH_DEPTH);
    let weights = weights_identity(kind);
    let threads = args.threads.max(1);
    let settings = Settings {
        kind,
        limits: limits.clone(),
        threads,
        hash_mib: args.hash.unwrap_or(16),
        jobs: args
            .jobs
            .unwrap_or_else(|| batch::default_jobs(threads))
            .max(1),
        params: args.params.params()?,
        egdb: args.egdb.checked()?,
    };
    super::warn_threads(settings.threads * settings.jobs);
    let mut out = std::io::stdout().lock();
    let mut emit = |line: String| {
        // Flushed line by line for consumers that stream; a closed stdout (`| head`) is ignored.
        let _ = writeln!(out, "{line}").and_then(|_| out.flush());
    };
    if let Some(path) = &args.positions {
        let text = if path == "-" {
            std::io::read_to_string(std::io::stdin()).map_err(|e| format!("stdin: {e}"))?
        } else {
            std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?
        };
        let mut ids = Vec::new();
        let mut jobs = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (fen, id) = match line.split_once(char::is_whitespace) {
                Some((f, id)) => (f, id.trim().to_string()),
                None => (line, String::new()),
            };
            ids.push(if id.is_empty() {
                (n + 1).to_string()
            } else {
                id
            });
            jobs.push(Job {
                fen: Some(fen.to_string()),
                ..Job::default()
            });
        }
        let share = block(jobs.len(), args.shard);
        let ids = &ids[share.clone()];
        let jobs = &jobs[share];
        let bar = Bar::new(jobs.len(), "positions", args.quiet);
        batch::analyze_batch(
            &settings,
            jobs,
            &mut |i, r| {
                emit(match r {
                    Ok(a) => json::line(&PositionLine::new(
                        &ids[i],
                        kind.variant.name(),
                        weights.as_deref(),
                        &a,
                    )),
                    Err(e) => json::line(&ErrorLine {
                        id: Some(ids[i].clone()),
                        game: None,
                        error: e,
                    }),
                })
            },
            &mut |done| bar.set(done),
        )?;
        bar.finish(args.quiet);
        return Ok(());
    }
    let path = args.pdn.as_deref().unwrap_or_default();
    // Everything that can be refused is refused before the analysis, and before any file is
    // touched: the thresholds, the outputs, the memory.
    let t = thresholds(&args.thresholds)?;
    let outputs = [("--review", &args.review), ("--plot", &args.plot)];
    for (option, out) in outputs {
        if let Some(out) = out
            && same_file(out, path)
        {
            return Err(format!(
                "{option} {out} is the --pdn file: the review would overwrite the games it reads \
                 (give another file)"
            ));
        }
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let all_games = pdn::parse(&text).map_err(|e| format!("{path}: {e}"))?;
    let share = block(all_games.len(), args.shard);
    // Game numbers (1-based) in the lines and plots are the whole file's.
    let first_game = share.start;
    let games = &all_games[share];
    // Each game under the variant its tags name (else --variant); its jobs say so.
    let mut prepared = Vec::new();
    for (g, game) in games.iter().enumerate() {
        let kind = match game.variant() {
            Some(Ok(v)) => GameKind {
                variant: v,
                draw_rules: args.game.draw_rules,
            },
            Some(Err(e)) => {
                prepared.push(Err(e));
                continue;
            }
            None => kind,
        };
        prepared.push(
            review::jobs(kind, game).map_err(|e| format!("game {}: {e}", first_game + g + 1)),
        );
    }
    // Every position of every game in one batch: the workers' engines and tables serve the
    // whole file (a game at a time would allocate and zero them per game).
    let mut jobs = Vec::new();
    let mut reviews = Reviews {
        games,
        first_game,
        replayed: Vec::with_capacity(prepared.len()),
        next: 0,
        received: 0,
        analyses: Vec::new(),
        failed: None,
        thresholds: t,
        limits: describe(&limits),
        weights,
        review: args.review.is_some(),
        plot: args.plot.is_some(),
        reviewed_pdn: String::new(),
        plots: Vec::new(),
    };
    for prep in prepared {
        reviews.replayed.push(prep.map(|mut r| {
            let n = r.jobs.len();
            jobs.append(&mut r.jobs);
            (r, n)
        }));
    }
    settings.check_memory(settings.workers(jobs.len()))?;
    // The files written at the end are checked before the analysis, without changing them: a path
    // that cannot be written is said now, not after the analysis (and its work lost).
    for (option, out) in outputs {
        if let Some(out) = out {
            check_writable(out).map_err(|e| format!("{option} {out}: {e}"))?;
        }
    }
    let bar = Bar::new(jobs.len(), "positions", args.quiet);
    reviews.skip_failed(&mut emit);
    batch::analyze_batch(
        &settings,
        &jobs,
        &mut |_, r| reviews.push(r, &mut emit),
        &mut |done| bar.set(done),
    )?;
    reviews.skip_failed(&mut emit);
    let Reviews {
        reviewed_pdn,
        plots,
        ..
    } = reviews;
    bar.finish(args.quiet);
    if let Some(path) = &args.review {
        std::fs::write(path, reviewed_pdn).map_err(|e| format!("{path}: {e}"))?;
    }
    if let Some(path) = &args.plot {
        // The whole file's first plot is named FILE and the others FILE-n, so a later shard
        // numbers all of its own.
        let later_shard = first_game > 0;
        for (i, (g, svg)) in plots.iter().enumerate() {
            let file = if later_shard || (plots.len() > 1 && i > 0) {
                numbered(path, *g)
            } else {
                path.clone()
            };
            std::fs::write(&file, svg).map_err(|e| format!("{file}: {e}"))?;
        }
    }
    Ok(())
}

/// The games of a `--pdn` batch, reviewed as their positions' analyses come back (in input
/// order): each game's move lines are written once its last position is analysed, a game that
/// did not replay or whose analysis failed is one error line, in its place.
struct Reviews<'a> {
    /// The games of this shard (the whole file's without `--shard`).
    games: &'a [pdn::PdnGame],
    /// The 0-based number in the whole file of `games[0]`.
    first_game: usize,
    /// Each game replayed, with its number of positions, or why not.
    replayed: Vec<Result<(review::Replayed, usize), String>>,
    /// The game whose analyses are coming, and how many of them came.
    next: usize,
    received: usize,
    analyses: Vec<Analysis>,
    failed: Option<String>,
    thresholds: Thresholds,
    /// The search limits, for the review's comment.
    limits: String,
    /// The weights that evaluate, for the move lines.
    weights: Option<String>,
    review: bool,
    plot: bool,
    reviewed_pdn: String,
    plots: Vec<(usize, String)>,
}

impl Reviews<'_> {
    /// One position's analysis, in input order.
    fn push(&mut self, r: Result<Analysis, String>, emit: &mut dyn FnMut(String)) {
        match r {
            Ok(a) => self.analyses.push(a),
            Err(e) => {
                self.failed.get_or_insert(e);
            }
        }
        self.received += 1;
        if let Some(Ok((_, n))) = self.replayed.get(self.next)
            && self.received == *n
        {
            self.finish_game(emit);
            self.skip_failed(emit);
        }
    }

    /// Writes the error lines of the games, from the next one, that did not replay.
    fn skip_failed(&mut self, emit: &mut dyn FnMut(String)) {
        while let Some(Err(e)) = self.replayed.get(self.next) {
            emit(error_line(self.first_game + self.next, e.clone()));
            self.next += 1;
        }
    }

    /// The next game's analyses are all in: its lines, review and plot (or its error line).
    fn finish_game(&mut self, emit: &mut dyn FnMut(String)) {
        let g = self.next;
        self.next += 1;
        self.received = 0;
        let analyses = std::mem::take(&mut self.analyses);
        if let Some(e) = self.failed.take() {
            emit(error_line(self.first_game + g, e));
            return;
        }
        let Some(Ok((replayed, _))) = self.replayed.get(g) else {
            return;
        };
        let game = &self.games[g];
        let moves = review::review(replayed, &analyses, &self.thresholds);
        for m in &moves {
            emit(json::line(&MoveLine::new(
                self.first_game + g + 1,
                self.weights.as_deref(),
                m,
            )));
        }
        if self.review {
            let annotated = review::annotate(game, &moves, &self.limits);
            let (first, start) = replayed.sides;
            self.reviewed_pdn
                .push_str(&pdn::write(&annotated, first, start));
        }
        if self.plot {
            let title = format!(
                "{} - {} {}",
                game.tag("White").unwrap_or("White"),
                game.tag("Black").unwrap_or("Black"),
                game.tag("Result").unwrap_or("")
            );
            self.plots.push((
                self.first_game + g + 1,
                plot::svg(&EvalPlot::of_review(title.trim(), &moves), 5.0),
            ));
        }
    }
}

/// The error line of game `g` (0-based).
fn error_line(g: usize, error: String) -> String {
    json::line(&ErrorLine {
        id: None,
        game: Some(g + 1),
        error,
    })
}

/// Whether `a` and `b` name the same existing file.
fn same_file(a: &str, b: &str) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Whether `path` can be written, found without changing it: opened for writing without
/// truncation (and removed again if that created it).
fn check_writable(path: &str) -> std::io::Result<()> {
    let existed = std::path::Path::new(path).exists();
    std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)?;
    if !existed {
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}

/// The items of shard `I/N` of `len` items: the I-th of N contiguous blocks, as equal as can be
/// (all of them without a shard).
fn block(len: usize, shard: Option<(u32, u32)>) -> std::ops::Range<usize> {
    let Some((i, n)) = shard else { return 0..len };
    let (i, n) = (i as usize, n as usize);
    len * i / n..len * (i + 1) / n
}

/// `plot.svg` for game 3: `plot-3.svg`.
fn numbered(path: &str, game: usize) -> String {
    match path.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() && !ext.contains('/') => {
            format!("{stem}-{game}.{ext}")
        }
        _ => format!("{path}-{game}"),
    }
}

fn thresholds(text: &str) -> Result<Thresholds, String> {
    let v: Result<Vec<i32>, _> = text.split(',').map(|s| s.trim().parse::<i32>()).collect();
    match v {
        Ok(v) if v.len() == 3 && v[0] > 0 && v[0] <= v[1] && v[1] <= v[2] => Ok(Thresholds {
            inaccuracy: v[0],
            mistake: v[1],
            blunder: v[2],
        }),
        _ => Err(format!(
            "bad --thresholds '{text}' (three ascending centi-men values, e.g. 25,60,150)"
        )),
    }
}
