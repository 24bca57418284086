//! `tiao egdb`: endgame tables. `build` solves every slice up to a number of pieces (resumable:
//! what is built is skipped), `verify` checks built tables against the rules (without `--pieces`
//! or `--slice`: every table of the variant found in the directory), `info` lists the tables of
//! a directory (and what is wrong with any of them) or looks a position up, `sample` writes quiet
//! positions with their tables' values (drawn from the slices, or read from a file of FENs).

use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};
use tiao::dispatch;
use tiao::draughts::position::Position;
use tiao::egdb::Kind;
use tiao::egdb::draughts::index::Material;
use tiao::egdb::draughts::{DraughtsBuilder, built_slices, max_table_pieces, open_tables};
use tiao::egdb::driver::{self, Builder, UnitReport};
use tiao::egdb::morris::build::MorrisBuilder;
use tiao::egdb::morris::store::built_sectors;
use tiao::game::{Game, Variant};
use tiao::variant::{DrawRuleSet, GameKind};

#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  tiao egdb build --variant english --pieces 4
  tiao egdb verify --variant english              (every english table in the directory)
  tiao egdb verify --variant english --pieces 4
  tiao egdb info --variant english --fen W:WK1,K2:BK30
  tiao egdb build --variant morris --pieces 12
  tiao egdb verify --variant morris --pieces 18 --from-pieces 14

Tables go to DIR/<variant>/ (default DIR: $XDG_DATA_HOME/tiao/egdb, else
~/.local/share/tiao/egdb, which the engine reads when it is there). A build can be stopped and
run again: the slices already built (files whole, checksums right) are skipped. See docs/egdb.md.")]
pub struct EgdbArgs {
    #[command(subcommand)]
    command: EgdbCommand,
}

#[derive(Subcommand, Debug)]
enum EgdbCommand {
    /// Build every slice of up to --pieces pieces (resumable).
    Build(BuildArgs),
    /// Check built tables: every stored value agrees with the values of its successors. Without
    /// --pieces or --slice: every table of the variant found in the directory.
    Verify(BuildArgs),
    /// List the tables of a variant and their problems, or look a position up (--fen).
    Info(InfoArgs),
    /// Draw random quiet positions of the built draughts tables with their values (training
    /// data for an endgame evaluation): one line each, `SQUARES WDL SLICE`.
    Sample(SampleArgs),
}

#[derive(Args, Debug)]
struct SampleArgs {
    /// Variant (draughts).
    #[arg(long, short, default_value = "russian")]
    variant: Variant,
    /// Directory of the tables.
    #[arg(long)]
    dir: Option<PathBuf>,
    /// Positions drawn from each slice built (before the positions with a capture for the side
    /// to move are left out).
    #[arg(long, default_value_t = 10_000, value_parser = super::whole::<u64>(1, 1 << 40))]
    per_slice: u64,
    /// Only slices of at least this many pieces.
    #[arg(long, default_value_t = 2, value_parser = super::whole::<u32>(2, 7))]
    min_pieces: u32,
    /// Seed of the draw (the output depends only on it, the tables and the options).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Output file (text).
    #[arg(long)]
    out: PathBuf,
    /// Positions to look up instead of drawing them: a file of PDN FENs, one a line (positions
    /// with a capture to make or not in the tables are left out).
    #[arg(long, value_name = "FILE")]
    positions: Option<PathBuf>,
}

#[derive(Args, Debug)]
struct BuildArgs {
    /// Variant: international (normal), brazilian, russian, duoyibu, english, morris.
    #[arg(long, short, default_value = "international")]
    variant: Variant,
    /// Pieces: 2..=7 for draughts (every ending of up to this many pieces), 6..=18 for morris
    /// (every sector of the moving phase with up to this many pieces on the board). Build: needed
    /// unless --slice is given; verify: without it (and --slice), every table found in the
    /// directory.
    #[arg(long, short, value_parser = super::whole::<u32>(2, 18))]
    pieces: Option<u32>,
    /// Draughts: only these slices (and every slice they lead to), e.g. --slice KKKKvK (the side
    /// to move's kings and men, v, the other side's); repeatable.
    #[arg(long, value_name = "SLICE", value_parser = slice_name)]
    slice: Vec<Material>,
    /// Only shard I of N, e.g. --shard 0/4 (for several machines or runs; the shards' counts
    /// add up to the whole's). Morris build and verify: each level's sectors, one level after
    /// another; draughts verify: every N-th block of 16,384 positions of each unit (a draughts
    /// build's slices depend on each other: --slice).
    #[arg(long, value_name = "I/N", value_parser = shard)]
    shard: Option<(usize, usize)>,
    /// Directory of the tables (default: the user's data directory, see below).
    #[arg(long)]
    dir: Option<PathBuf>,
    /// Build no distance-to-conversion tables (they let the engine convert wins; without them
    /// it relies on its evaluation).
    #[arg(long)]
    no_distance: bool,
    /// Worker threads (default: every core).
    #[arg(long, short, value_parser = super::whole::<usize>(1, super::MAX_THREADS))]
    threads: Option<usize>,
    /// Verify only: check the units of at least this many pieces (the levels a resumed build
    /// added; the smaller tables are read as successors, not checked).
    #[arg(long, value_name = "N", value_parser = super::whole::<u32>(2, 18))]
    from_pieces: Option<u32>,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

#[derive(Args, Debug)]
struct InfoArgs {
    /// Variant.
    #[arg(long, short, default_value = "international")]
    variant: Variant,
    /// Directory of the tables.
    #[arg(long)]
    dir: Option<PathBuf>,
    /// A position to look up (PDN FEN).
    #[arg(long, short)]
    fen: Option<String>,
}

/// The directory given, or the default one.
fn dir_of(dir: &Option<PathBuf>) -> Result<PathBuf, String> {
    dir.clone().or_else(tiao::egdb::default_dir).ok_or_else(|| {
        "no --dir given and no data directory known (set XDG_DATA_HOME or HOME)".to_string()
    })
}

pub fn run(args: EgdbArgs) -> Result<(), String> {
    match args.command {
        EgdbCommand::Build(a) => with_pool(a.threads, || build(&a, false)),
        EgdbCommand::Verify(a) => with_pool(a.threads, || build(&a, true)),
        EgdbCommand::Info(a) => info(&a),
        EgdbCommand::Sample(a) => sample(&a),
    }
}

fn with_pool(
    threads: Option<usize>,
    f: impl FnOnce() -> Result<(), String> + Send,
) -> Result<(), String> {
    match threads {
        None => f(),
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .map_err(|e| e.to_string())?
            .install(f),
    }
}

/// `I/N` with `I < N` ([`super::shard::parse_shard`]), as the tables' builder counts it.
fn shard(text: &str) -> Result<(usize, usize), String> {
    super::shard::parse_shard(text).map(|(i, n)| (i as usize, n as usize))
}

fn slice_name(s: &str) -> Result<Material, String> {
    Material::parse(s).ok_or_else(|| {
        format!("'{s}' is not a slice (kings K and men M of the side to move, v, the other side's: KKMvK)")
    })
}

fn kind_of(variant: Variant) -> Result<GameKind, String> {
    Ok(GameKind {
        variant,
        draw_rules: DrawRuleSet::Standard,
    })
}

fn build(a: &BuildArgs, verify: bool) -> Result<(), String> {
    let dir = dir_of(&a.dir)?;
    let kind = kind_of(a.variant)?;
    if a.pieces.is_none() && a.slice.is_empty() {
        if verify {
            return verify_found(&dir, kind, a);
        }
        return Err("--pieces: needed for a build (or --slice)".into());
    }
    let is_morris = a.variant == Variant::Morris;
    let pieces = a.pieces.unwrap_or(0);
    if is_morris {
        if !a.slice.is_empty() {
            return Err("--slice: only for draughts (morris builds whole levels: --pieces)".into());
        }
        if !(6..=18).contains(&pieces) {
            return Err(format!(
                "--pieces {pieces}: morris sectors have 6..=18 pieces"
            ));
        }
        if a.no_distance {
            return Err("--no-distance: morris tables always carry their distances".into());
        }
    } else {
        if a.shard.is_some() && !verify {
            return Err(
                "--shard: a draughts build's slices depend on each other (--slice builds some \
                 of them; --shard is for verify)"
                    .into(),
            );
        }
        // What the solver numbers on this board (docs/egdb.md: 7 on 8x8, 6 on 10x10).
        let most = dispatch!(kind,
            R => max_table_pieces::<<R as tiao::draughts::rules::Rules>::Board>(),
            morris => 0);
        let too_many = || {
            format!(
                "{} tables go up to {most} pieces (more would have slices whose positions \
                 with the same men the solver cannot number)",
                a.variant
            )
        };
        if pieces > most {
            return Err(format!("--pieces {pieces}: {}", too_many()));
        }
        if let Some(m) = a.slice.iter().find(|m| m.pieces() > most) {
            return Err(format!("--slice {m}: {}", too_many()));
        }
    }
    let builder: Box<dyn Builder> = dispatch!(kind,
        R => {
            let b = DraughtsBuilder::<R>::new(&dir, pieces, !a.no_distance)
                .verify_shard(a.shard.unwrap_or((0, 1)));
            Box::new(if a.slice.is_empty() { b } else { b.only(&a.slice) })
        },
        morris => Box::new(MorrisBuilder::new(&dir, pieces as u8, a.shard.unwrap_or((0, 1)))));
    if verify {
        return run_verify(&*builder, a);
    }
    if a.from_pieces.is_some() {
        return Err("--from-pieces: only for verify (a build skips what is built)".into());
    }
    let what = if a.slice.is_empty() {
        format!("up to {pieces} pieces")
    } else {
        let names: Vec<String> = a.slice.iter().map(|m| m.to_string()).collect();
        format!("{} and the slices they lead to", names.join(", "))
    };
    eprintln!(
        "building {} tables ({what}) in {}{}",
        a.variant,
        dir.display(),
        if a.no_distance {
            " (no distance tables)"
        } else {
            ""
        }
    );
    // Per level: the units' sums (the peak after the level's last unit), the units skipped.
    let mut by_pieces: Vec<(UnitReport, usize)> = Vec::new();
    let mut on_unit = |r: &UnitReport| {
        if !r.skipped {
            println!(
                "{:<28} {:>13} positions {:>12} bytes {:>9.1} s {:>9.1} s CPU",
                r.name,
                r.positions,
                r.bytes,
                r.time.as_secs_f64(),
                r.cpu.as_secs_f64()
            );
        }
        match by_pieces.last_mut() {
            Some((p, skipped)) if p.pieces == r.pieces => {
                p.positions += r.positions;
                p.bytes += r.bytes;
                p.time += r.time;
                p.cpu += r.cpu;
                p.peak_memory = r.peak_memory;
                *skipped += r.skipped as usize;
            }
            _ => by_pieces.push((r.clone(), r.skipped as usize)),
        }
    };
    driver::build(&*builder, !a.quiet, &mut on_unit).map_err(|e| e.to_string())?;
    println!(
        "pieces  positions          bytes      bits/pos   build time       CPU time   peak memory"
    );
    for (l, skipped) in &by_pieces {
        println!(
            "{:>6} {:>14} {:>14} {:>9.3} {:>12.1} s {:>12.1} s {:>9} MiB{}",
            l.pieces,
            l.positions,
            l.bytes,
            l.bytes as f64 * 8.0 / l.positions.max(1) as f64,
            l.time.as_secs_f64(),
            l.cpu.as_secs_f64(),
            l.peak_memory >> 20,
            if *skipped > 0 {
                format!(" ({skipped} units already built)")
            } else {
                String::new()
            }
        );
    }
    Ok(())
}

/// Slice or sector names listed per level when `verify` says what it found; a level with more
/// is counted only.
const LISTED_NAMES: usize = 12;

/// `tiao egdb verify` without `--pieces` or `--slice`: every table of the variant found in the
/// directory (`--from-pieces` and `--shard` still narrow it), after saying what was found.
fn verify_found(dir: &Path, kind: GameKind, a: &BuildArgs) -> Result<(), String> {
    let variant = a.variant;
    let sub = dir.join(variant.name());
    if !dir.is_dir() {
        return Err(format!(
            "{}: no such directory, so no {variant} tables to verify",
            dir.display()
        ));
    }
    let shard = a.shard.unwrap_or((0, 1));
    // What is there: (pieces, name) of each table, how many have distance files, and the
    // builder that verifies them.
    type Found = (Vec<(u32, String)>, usize, Box<dyn Builder>);
    let (found, distances, builder): Found = dispatch!(kind,
    R => {
        let slices = built_slices::<R>(dir).map_err(|e| e.to_string())?;
        let most = max_table_pieces::<<R as tiao::draughts::rules::Rules>::Board>();
        if let Some((m, _)) = slices.iter().find(|(m, _)| m.pieces() > most) {
            return Err(format!(
                "{}: slice {m} has more than the {most} pieces {variant} tables go up to",
                sub.display()
            ));
        }
        // Distance files are expected when every slice has one (a build with
        // --no-distance writes none); a slice's own distances are checked when there.
        let distances = slices.iter().filter(|&&(_, d)| d).count();
        let expected = !a.no_distance && distances == slices.len();
        let targets: Vec<Material> = slices.iter().map(|&(m, _)| m).collect();
        let b = DraughtsBuilder::<R>::new(dir, 0, expected)
            .verify_shard(shard)
            .only(&targets);
        let names = slices.iter().map(|(m, _)| (m.pieces(), m.to_string())).collect();
        (names, distances, Box::new(b))
    },
    morris => {
        if a.no_distance {
            return Err("--no-distance: morris tables always carry their distances".into());
        }
        let sectors = built_sectors(dir);
        let most = sectors.iter().map(|s| s.pieces()).max().unwrap_or(0);
        let b = MorrisBuilder::new(dir, most, shard).only(&sectors);
        let names = sectors
            .iter()
            .map(|s| (s.pieces() as u32, format!("{}-{}", s.stm, s.opp)))
            .collect();
        (names, sectors.len(), Box::new(b))
    });
    let (Some(least), Some(most)) = (
        found.iter().map(|f| f.0).min(),
        found.iter().map(|f| f.0).max(),
    ) else {
        return Err(format!(
            "no {variant} tables in {} (no .wdl files there): nothing to verify; build them \
             with `tiao egdb build --variant {variant} --pieces N --dir {}`, or name another \
             directory with --dir",
            sub.display(),
            dir.display()
        ));
    };
    println!(
        "found {} in {}, {least} to {most} pieces, {}:",
        count(found.len(), &format!("{variant} table")),
        sub.display(),
        if distances == found.len() {
            "each with its distance file".to_string()
        } else {
            format!("{distances} of them with a distance file")
        }
    );
    for pieces in least..=most {
        let names: Vec<&str> = found
            .iter()
            .filter(|f| f.0 == pieces)
            .map(|f| f.1.as_str())
            .collect();
        if names.is_empty() {
            continue;
        }
        let listed = if names.len() <= LISTED_NAMES {
            format!(": {}", names.join(" "))
        } else {
            String::new()
        };
        println!("  {pieces} pieces: {}{listed}", count(names.len(), "table"));
    }
    if let Some(from) = a.from_pieces
        && from > most
    {
        return Err(format!(
            "--from-pieces {from}: the {variant} tables in {} have at most {most} pieces",
            sub.display()
        ));
    }
    run_verify(&*builder, a)
}

/// `1 table`, `16 tables`.
fn count(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

fn run_verify(builder: &dyn Builder, a: &BuildArgs) -> Result<(), String> {
    let mut tables = 0;
    let mut on_unit = |u: &driver::Unit, v: &driver::Verified| {
        tables += u
            .outputs
            .iter()
            .filter(|o| o.header.kind == Kind::Wdl)
            .count();
        println!(
            "{:<28} {:>13} positions checked, {} wrong",
            u.name, v.checked, v.errors
        );
        for e in &v.examples {
            println!("    {e}");
        }
    };
    let from = a.from_pieces.unwrap_or(0);
    if let Some(pieces) = a.pieces
        && from > pieces
    {
        return Err(format!("--from-pieces {from}: more than --pieces {pieces}"));
    }
    let all =
        driver::verify_from(builder, from, !a.quiet, &mut on_unit).map_err(|e| e.to_string())?;
    if all.errors > 0 {
        return Err(format!(
            "{} of {} positions disagree with their successors",
            all.errors,
            all.checked + all.errors
        ));
    }
    let shard = a
        .shard
        .map(|(i, n)| format!(" (shard {i}/{n})"))
        .unwrap_or_default();
    println!(
        "verified{shard}: {} positions of {} agree with their successors",
        all.checked,
        count(tables, "table")
    );
    Ok(())
}

fn info(a: &InfoArgs) -> Result<(), String> {
    let dir = dir_of(&a.dir)?;
    let kind = kind_of(a.variant)?;
    dispatch!(kind, R => info_for::<R>(&dir, a), morris => info_morris(&dir, a))
}

fn info_morris(dir: &std::path::Path, a: &InfoArgs) -> Result<(), String> {
    use tiao::morris::MorrisPosition;
    let (tables, slices, problems) = tiao::egdb::morris::probe::open_tables(dir);
    for p in &problems {
        eprintln!("warning: {p}");
    }
    let max = tables
        .as_ref()
        .map_or(0, tiao::egdb::Probe::<MorrisPosition>::max_pieces);
    println!(
        "morris tables in {}: {slices} files, up to {max} pieces",
        dir.join("morris").display(),
    );
    if let Some(fen) = &a.fen {
        let pos = MorrisPosition::from_fen(fen).map_err(|e| format!("bad --fen: {e}"))?;
        match tables.as_ref().and_then(|t| t.lookup(&pos)) {
            Some((wdl, d)) => println!(
                "{}: {wdl} for the side to move{} (the tables ignore the 100-ply rule)",
                pos.fen(),
                d.map(|d| format!(", {d} plies to the next removal"))
                    .unwrap_or_default()
            ),
            None => println!(
                "{}: not in the tables (pieces in hand, or its sector is not there)",
                pos.fen()
            ),
        }
    }
    Ok(())
}

fn info_for<R: tiao::draughts::rules::Rules>(
    dir: &std::path::Path,
    a: &InfoArgs,
) -> Result<(), String> {
    let (tables, problems) = open_tables::<R>(dir);
    for p in &problems {
        eprintln!("warning: {p}");
    }
    println!(
        "{} tables in {}: {} slices, up to {} pieces, {} bytes",
        a.variant,
        dir.join(a.variant.name()).display(),
        tables.slices(),
        tiao::egdb::Probe::<Position<R>>::max_pieces(&tables),
        tables.bytes()
    );
    if let Some(fen) = &a.fen {
        let pos = Position::<R>::from_fen(fen).map_err(|e| format!("bad --fen: {e}"))?;
        match tables.lookup(&pos) {
            Some(p) => println!(
                "{}: {} for the side to move{}",
                pos.fen(),
                p.wdl,
                p.distance
                    .map(|d| format!(", {d} plies to the conversion"))
                    .unwrap_or_default()
            ),
            None => println!(
                "{}: not in the tables (a capture is pending, or its slice is not there)",
                pos.fen()
            ),
        }
    }
    Ok(())
}

fn sample(a: &SampleArgs) -> Result<(), String> {
    let dir = dir_of(&a.dir)?;
    let kind = kind_of(a.variant)?;
    dispatch!(kind, R => sample_for::<R>(&dir, a), morris => Err("egdb sample: draughts only".to_string()))
}

/// `SQUARES WDL SLICE` lines: the squares 1..=N from the side to move's view (`.` empty, `m`/`k`
/// its man/king, `x`/`y` the other side's; a position with Black to move is turned round, as the
/// tables store it), the table's value for the side to move (`W`, `D`, `L`), the slice. Only
/// positions with no capture to make, in the tables.
fn sample_for<R: tiao::draughts::rules::Rules>(dir: &Path, a: &SampleArgs) -> Result<(), String> {
    use std::io::{BufRead, Write};
    use tiao::draughts::board::Geometry;
    use tiao::draughts::movegen::has_capture;
    use tiao::egdb::draughts::index::{SliceIndex, white_to_move};
    use tiao::game::color::Color;
    use tiao::game::rng::Rng;
    let (tables, problems) = open_tables::<R>(dir);
    for p in &problems {
        eprintln!("warning: {p}");
    }
    if tables.slices() == 0 {
        return Err(format!(
            "no {} tables in {}",
            a.variant.name(),
            dir.join(a.variant.name()).display()
        ));
    }
    // A file of positions is read whole before the output is created: a bad line leaves an
    // earlier output as it was (without --positions the list stays empty).
    let mut listed: Vec<Position<R>> = Vec::new();
    if let Some(path) = &a.positions {
        let f = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        for (n, line) in std::io::BufReader::new(f).lines().enumerate() {
            let line = line.map_err(|e| format!("{}: {e}", path.display()))?;
            let fen = line.trim();
            if fen.is_empty() || fen.starts_with('#') {
                continue;
            }
            let pos = Position::<R>::from_fen(fen)
                .map_err(|e| format!("{} line {}: {e}", path.display(), n + 1))?;
            listed.push(pos);
        }
    }
    let file = std::fs::File::create(&a.out).map_err(|e| format!("{}: {e}", a.out.display()))?;
    let mut out = std::io::BufWriter::new(file);
    let squares = <R::Board as Geometry>::ALL.count_ones();
    let mut written = 0u64;
    let mut emit = |pos: Position<R>| -> Result<(), String> {
        if pos.white() == 0 || pos.black() == 0 || has_capture(&pos) {
            return Ok(());
        }
        let Some(p) = tables.lookup(&pos) else {
            return Ok(());
        };
        let (w, b, k) = white_to_move(&pos);
        let m = Material::of(w, b, k, true);
        let mut line = String::with_capacity(squares as usize + 16);
        for n in 1..=squares {
            let bit = 1u64 << R::Board::bit_of_number(n).expect("a square");
            let c = match (w & bit != 0, b & bit != 0, k & bit != 0) {
                (true, _, false) => 'm',
                (true, _, true) => 'k',
                (_, true, false) => 'x',
                (_, true, true) => 'y',
                _ => '.',
            };
            line.push(c);
        }
        let v = match p.wdl {
            tiao::egdb::Wdl::Win => 'W',
            tiao::egdb::Wdl::Draw => 'D',
            tiao::egdb::Wdl::Loss => 'L',
        };
        writeln!(out, "{line} {v} {m}").map_err(|e| e.to_string())?;
        written += 1;
        Ok(())
    };
    for pos in listed {
        emit(pos)?;
    }
    if a.positions.is_none() {
        // Drawn from every slice built, one at a time (no list: --per-slice may be large).
        let slices = built_slices::<R>(dir).map_err(|e| e.to_string())?;
        for (m, _) in slices {
            if m.pieces() < a.min_pieces {
                continue;
            }
            let index = SliceIndex::<R::Board>::new(m);
            let total = index.positions();
            // Each slice's own sequence: a slice's draw does not depend on which others are built.
            let mut rng = Rng::new(a.seed ^ m.id().rotate_left(32));
            for _ in 0..a.per_slice {
                let (w, b, k) = index.position_of(rng.next_u64() % total);
                if let Ok(pos) = Position::<R>::from_parts(w, b, k, Color::White) {
                    emit(pos)?;
                }
            }
        }
    }
    out.flush().map_err(|e| e.to_string())?;
    eprintln!("{written} positions written to {}", a.out.display());
    Ok(())
}
