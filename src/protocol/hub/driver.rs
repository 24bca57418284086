//! The Hub loop: a state machine that owns the [`Engine`], the pending `level` and the output.
//!
//! Threading model:
//! - the **loop thread** (the caller of [`run`]) reads the input a line at a time and runs each
//!   command as it comes, writing its answers;
//! - a search's lines (`info`, `done`) are written by whoever has them: the search's thread as it
//!   reports and when it ends by its limits, the loop thread itself on `stop` (the engine answers
//!   at once from the search's last report), or the engine's deadline thread;
//! - every line goes through one `Output` under a lock, so lines never interleave, and each is
//!   flushed as it is written.
//!
//! So `ping` is answered at once during a search, and `stop` is answered by the very thread that
//! read it: no hand-over to another thread (each of which waits for a core on a loaded machine)
//! between the `stop` arriving and the `done` leaving.
//!
//! Rules (documented for users in `protocol.md`):
//! - during a search, `ping` answers `pong`, `ponder-hit` turns a ponder search into a timed one,
//!   and any other command first stops the search (its `done` is written), then runs; a line that
//!   is not a valid command is answered with `error` and leaves the search running;
//! - `level` lines accumulate their limits until the next `go`, which uses and clears them;
//!   nothing else (`pos`, `new-game`, ...) clears them;
//! - a command that fails writes `error message="..."` and changes nothing;
//! - `quit` or the end of the input stops a running search (its `done` is written) and returns.

use super::command::{Command, GoMode, Level, PosSource};
use super::format::{self, ParamDecl, ParamType};
use super::numbering::Numbering;
use super::position;
use super::reader::{self, Input};
use crate::dispatch;
use crate::draughts::notation::fen;
use crate::engine::{
    self, BookOptions, Engine, EngineError, EngineOptions, Event, EventSink, MAX_BOOK_MARGIN,
    MAX_BOOK_PLY, MAX_BOOK_SEED, MAX_HASH_MIB, MAX_MOVE_OVERHEAD_MS, MAX_THREADS,
};
use crate::search::{Limits, MAX_CONTEMPT, Params};
use crate::variant::{DrawRuleSet, GameKind, Variant};
use std::io::{self, BufRead, Write};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// What `set-param name=egdb-path` answers: one line per file refused, then what is open.
fn tables_messages(t: &engine::TablesInfo) -> Vec<String> {
    let mut lines: Vec<String> = t
        .problems
        .iter()
        .map(|p| format!("endgame table refused: {p}"))
        .collect();
    if let Some(dir) = &t.dir {
        lines.push(format!(
            "endgame tables: {} slices up to {} pieces from {}",
            t.slices,
            t.max_pieces,
            dir.display()
        ));
    }
    lines
}

/// What `set-param name=weights` answers: the weights each draughts family reads, a file's
/// with its path (`family:checksum`, as `id` names them).
fn weights_in_use() -> String {
    use crate::draughts::eval::{active, weights::Family};
    Family::ALL
        .map(|f| match active::file(f) {
            Some(p) => format!("{} from {}", active::identity(f), p.display()),
            None => format!("{} (embedded)", active::identity(f)),
        })
        .join(", ")
}

/// The longest `error` message written, in bytes (longer ones are cut).
const MAX_ERROR: usize = 400;

/// Runs the Hub loop on `input` and `output` until `quit` or the end of the input. Fails only when
/// the output cannot be written.
pub fn run<R, W>(input: R, output: W) -> io::Result<()>
where
    R: BufRead,
    W: Write + Send + 'static,
{
    run_with(
        input,
        output,
        EngineOptions {
            book: BookOptions::on(),
            ..EngineOptions::default()
        },
    )
}

/// [`run`] with the engine's settings (the command line's `--egdb` and `--book`; the book is
/// on when `options.book` says so: [`run`] and `tiao hub` turn it on). Table files the engine
/// refuses at the start are reported on stderr (the protocol has no line for them yet).
pub fn run_with<R, W>(mut input: R, output: W, options: EngineOptions) -> io::Result<()>
where
    R: BufRead,
    W: Write + Send + 'static,
{
    let engine =
        Engine::new(GameKind::default(), options).map_err(|e| io::Error::other(e.to_string()))?;
    for p in &engine.tables().problems {
        eprintln!("warning: endgame table refused: {p}");
    }
    let mut hub = Hub::new(engine, Output::new(output));
    let mut buf = Vec::new();
    loop {
        match reader::next_input(&mut input, &mut buf) {
            Input::Line(Ok(text)) => {
                if hub.line(&text)? == Flow::Quit {
                    break;
                }
            }
            Input::Line(Err(e)) => hub.error(&e.to_string())?,
            Input::Eof => break,
        }
        hub.late_tables()?;
    }
    hub.finish_search()?;
    hub.out.check()
}

/// The output, shared by every thread that writes a line, the first write error kept.
#[derive(Clone)]
struct Output(Arc<Mutex<OutputState>>);

struct OutputState {
    w: Box<dyn Write + Send>,
    failed: Option<(io::ErrorKind, String)>,
}

impl Output {
    fn new<W: Write + Send + 'static>(w: W) -> Output {
        Output(Arc::new(Mutex::new(OutputState {
            w: Box::new(w),
            failed: None,
        })))
    }

    /// Writes one line and flushes it. After a failed write every write fails.
    fn line(&self, text: &str) -> io::Result<()> {
        let mut st = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((kind, msg)) = &st.failed {
            return Err(io::Error::new(*kind, msg.clone()));
        }
        let r =
            st.w.write_all(text.as_bytes())
                .and_then(|_| st.w.write_all(b"\n"))
                .and_then(|_| st.w.flush());
        if let Err(e) = &r {
            st.failed = Some((e.kind(), e.to_string()));
        }
        r
    }

    /// The first write error, if any (one from a search's thread included).
    fn check(&self) -> io::Result<()> {
        let st = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        match &st.failed {
            Some((kind, msg)) => Err(io::Error::new(*kind, msg.clone())),
            None => Ok(()),
        }
    }
}

/// What the loop does after a command.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// The loop's state.
struct Hub {
    engine: Engine,
    out: Output,
    /// The limits of the next search, accumulated from `level` lines.
    level: Level,
    /// The last search's mode, while it may still run (see [`Hub::searching`]).
    search: Option<GoMode>,
    /// The `ponder` parameter (the engine accepts `go ponder` either way; GUIs read it).
    ponder: bool,
    numbering: Numbering,
}

impl Hub {
    fn new(engine: Engine, out: Output) -> Self {
        Hub {
            engine,
            out,
            level: Level::default(),
            search: None,
            ponder: false,
            numbering: Numbering::default(),
        }
    }

    /// The running search's mode, if one runs (until its `done` is written: a line of ours
    /// written before it would come out of order).
    fn searching(&mut self) -> Option<GoMode> {
        if self.engine.answer_sent() {
            self.search = None;
        }
        self.search
    }

    /// Writes one line and flushes it.
    fn send(&mut self, line: &str) -> io::Result<()> {
        self.out.line(line)
    }

    /// Writes an `info message` line for each table file that its check in the background has
    /// found damaged since the last call (the file never answered; the engine plays without it).
    fn late_tables(&mut self) -> io::Result<()> {
        for p in self.engine.late_table_problems() {
            let line = format!("endgame table not used: {p}");
            self.send(&super::syntax::message("info", &[("message", line)]))?;
        }
        Ok(())
    }

    /// Writes an `error` line; a message longer than [`MAX_ERROR`] bytes (one quoting a huge
    /// piece of the input) is cut.
    fn error(&mut self, text: &str) -> io::Result<()> {
        if text.len() <= MAX_ERROR {
            return self.send(&format::error_line(text));
        }
        let mut cut = MAX_ERROR;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        let short = format!("{}... ({} bytes in all)", &text[..cut], text.len());
        self.send(&format::error_line(&short))
    }

    fn variant(&self) -> Variant {
        self.engine.kind().variant
    }

    /// A move of ours as the client numbers it.
    fn move_out(&self, m: &str) -> String {
        self.numbering.move_out(self.variant(), m)
    }

    /// Stops a running search; its `done` is written before this returns (by this thread, from
    /// the search's last report, or by the search in the fraction of a millisecond its first
    /// iteration takes). The search threads are not waited for: the engine joins them before its
    /// next search or change.
    fn finish_search(&mut self) -> io::Result<()> {
        if self.searching().is_none() {
            return Ok(());
        }
        self.engine.stop();
        while !self.engine.answer_sent() {
            if self.engine.search_thread_ended() && self.engine.is_searching() {
                // Ended without its `Done` (it cannot, but the loop must not hang if it did).
                self.search = None;
                return self.error("the search ended without a result");
            }
            std::thread::sleep(Duration::from_micros(100));
        }
        self.search = None;
        Ok(())
    }

    /// Handles one input line.
    fn line(&mut self, text: &str) -> io::Result<Flow> {
        let command = match Command::parse(text) {
            Ok(c) => c,
            Err(e) => {
                self.error(&e.to_string())?;
                return Ok(Flow::Continue);
            }
        };
        if let Some(mode) = self.searching() {
            match command {
                Command::Ping => {
                    self.send("pong")?;
                    return Ok(Flow::Continue);
                }
                Command::PonderHit => {
                    if mode == GoMode::Ponder {
                        self.engine.ponder_hit();
                        self.search = Some(GoMode::Think);
                    }
                    return Ok(Flow::Continue);
                }
                _ => self.finish_search()?,
            }
        }
        self.command(command)
    }

    /// Runs a command (no search is running).
    fn command(&mut self, command: Command) -> io::Result<Flow> {
        match command {
            Command::Hub => {
                self.send(&format::id_line())?;
                for p in self.params() {
                    self.send(&format::param_line(&p))?;
                }
                self.send("wait")?;
            }
            Command::SetParam { name, value } => match self.set_param(&name, &value) {
                Err(e) => self.error(&e)?,
                Ok(()) if engine::option_name(&name) == "threads" => {
                    if let Some(w) = engine::threads_warning(self.engine.options().threads) {
                        self.send(&super::syntax::message("info", &[("message", w)]))?;
                    }
                }
                Ok(()) if engine::option_name(&name) == "weights" => {
                    let line = format!("weights: {}", weights_in_use());
                    self.send(&super::syntax::message("info", &[("message", line)]))?;
                }
                Ok(()) if engine::option_name(&name) == "egdb-path" => {
                    for line in tables_messages(self.engine.tables()) {
                        self.send(&super::syntax::message("info", &[("message", line)]))?;
                    }
                }
                Ok(()) => {}
            },
            Command::Init => self.send("ready")?,
            Command::NewGame => self.engine.new_game(),
            Command::Pos { source, moves } => {
                if let Err(e) = self.set_position(source, &moves) {
                    self.error(&e)?;
                }
            }
            Command::Level(level) => merge(&mut self.level, level),
            Command::Go(mode) => self.go(mode)?,
            Command::Ping => self.send("pong")?,
            Command::PonderHit | Command::Stop => {}
            Command::Quit => return Ok(Flow::Quit),
            Command::LegalMoves => {
                let moves = self.engine.legal_moves();
                let hub: Vec<String> = moves.iter().map(|m| self.move_out(&m.hub)).collect();
                let pdn: Vec<&str> = moves.iter().map(|m| m.pdn.as_str()).collect();
                self.send(&super::syntax::message(
                    "legal-moves",
                    &[
                        ("count", moves.len().to_string()),
                        ("moves", hub.join(" ")),
                        ("pdn", pdn.join(" ")),
                    ],
                ))?;
            }
            Command::GetPos => {
                let fen = self.engine.fen();
                self.send(&super::syntax::message("pos", &[("fen", fen)]))?;
            }
        }
        Ok(Flow::Continue)
    }

    /// The parameters the `hub` reply declares, with their current values.
    fn params(&self) -> Vec<ParamDecl> {
        let kind = self.engine.kind();
        let variants = Variant::ALL
            .iter()
            .filter(|v| engine::session_for(GameKind::new(**v)).is_ok())
            .map(|v| v.hub_name().to_string())
            .collect();
        let options = self.engine.options();
        vec![
            ParamDecl {
                name: "variant",
                value: kind.variant.hub_name().into(),
                kind: ParamType::Enum(variants),
            },
            ParamDecl {
                name: "draw-rules",
                value: kind.draw_rules.name().into(),
                kind: ParamType::Enum(vec![
                    DrawRuleSet::Standard.name().into(),
                    DrawRuleSet::Fmjd.name().into(),
                ]),
            },
            ParamDecl {
                name: "threads",
                value: options.threads.to_string(),
                kind: ParamType::Int {
                    min: 1,
                    max: MAX_THREADS as i64,
                },
            },
            ParamDecl {
                name: "hash",
                value: options.hash_mib.to_string(),
                kind: ParamType::Int {
                    min: 1,
                    max: MAX_HASH_MIB as i64,
                },
            },
            ParamDecl {
                name: "move-overhead",
                value: options.time.move_overhead.as_millis().to_string(),
                kind: ParamType::Int {
                    min: 0,
                    max: MAX_MOVE_OVERHEAD_MS as i64,
                },
            },
            ParamDecl {
                name: "contempt",
                value: options.params.contempt.to_string(),
                kind: ParamType::Int {
                    min: -(MAX_CONTEMPT as i64),
                    max: MAX_CONTEMPT as i64,
                },
            },
            ParamDecl {
                name: "ponder",
                value: self.ponder.to_string(),
                kind: ParamType::Bool,
            },
            ParamDecl {
                name: "egdb-path",
                value: options.egdb.value(),
                kind: ParamType::String,
            },
            ParamDecl {
                name: "builtin-tables",
                value: options.builtin_tables.to_string(),
                kind: ParamType::Bool,
            },
            ParamDecl {
                name: "book",
                value: options.book.enabled.to_string(),
                kind: ParamType::Bool,
            },
            ParamDecl {
                name: "book-file",
                value: options
                    .book
                    .file
                    .as_ref()
                    .map_or_else(|| "default".to_string(), |f| f.display().to_string()),
                kind: ParamType::String,
            },
            ParamDecl {
                name: "book-ply",
                value: options.book.ply.to_string(),
                kind: ParamType::Int {
                    min: 0,
                    max: MAX_BOOK_PLY as i64,
                },
            },
            ParamDecl {
                name: "book-margin",
                value: options.book.margin.to_string(),
                kind: ParamType::Int {
                    min: 0,
                    max: MAX_BOOK_MARGIN as i64,
                },
            },
            ParamDecl {
                name: "book-seed",
                value: self.engine.book_seed().to_string(),
                kind: ParamType::Int {
                    min: 0,
                    max: MAX_BOOK_SEED as i64,
                },
            },
            ParamDecl {
                name: "weights",
                value: engine::weights_value(&options.weights),
                kind: ParamType::String,
            },
            ParamDecl {
                name: "numbering-8x8",
                value: self.numbering.name().into(),
                kind: ParamType::Enum(
                    Numbering::ALL
                        .iter()
                        .map(|n| n.name().to_string())
                        .collect(),
                ),
            },
        ]
    }

    /// `set-param name=... value=...`.
    fn set_param(&mut self, name: &str, value: &str) -> Result<(), String> {
        let key = name.trim().to_ascii_lowercase().replace('_', "-");
        match key.as_str() {
            "ponder" => {
                self.ponder = crate::numbers::switch(value).ok_or_else(|| {
                    format!("parameter ponder: bad value '{value}' (expected true or false)")
                })?;
                Ok(())
            }
            "numbering-8x8" => {
                self.numbering = value
                    .parse()
                    .map_err(|e| format!("parameter numbering-8x8: {e}"))?;
                Ok(())
            }
            k if Engine::OPTIONS.contains(&k)
                || Params::NAMES.contains(&k)
                || crate::search::time::TimeParams::NAMES.contains(&k) =>
            {
                self.engine.set_option(k, value).map_err(|e| e.to_string())
            }
            _ => Err(format!(
                "unknown parameter {} (ignored)",
                super::command::quoted(name)
            )),
        }
    }

    /// `pos`: the position and the moves played from it.
    fn set_position(&mut self, source: PosSource, moves: &[String]) -> Result<(), String> {
        let variant = self.variant();
        let fen = match source {
            PosSource::Start => None,
            PosSource::Fen(f) => Some(f),
            PosSource::Hub(s) => {
                let s = self.numbering.position_in(variant, &s);
                Some(dispatch!(self.engine.kind(),
                    R => position::parse::<R>(&s).map(|p| fen::write(&p)).map_err(|e| e.to_string())?,
                    morris => s))
            }
        };
        // No draughts move starts with `x`, so joining Morris' separate removals is safe for all.
        let given = join_removals(moves);
        let ours: Vec<String> = given
            .iter()
            .map(|m| self.numbering.move_in(variant, m))
            .collect();
        let refs: Vec<&str> = ours.iter().map(String::as_str).collect();
        self.engine
            .set_position(fen.as_deref(), &refs)
            .map_err(|e| match e {
                EngineError::BadMove { index, reason, .. } if given[index] != ours[index] => {
                    format!(
                        "bad move '{}' (move {} of the list, read as {} in tiao's numbering): {reason}",
                        given[index],
                        index + 1,
                        ours[index]
                    )
                }
                e => e.to_string(),
            })
    }

    /// `go`: starts a search with the accumulated `level`.
    fn go(&mut self, mode: GoMode) -> io::Result<()> {
        if !self.engine.has_legal_move() {
            return self
                .error("no legal move: the side to move has lost, there is nothing to search");
        }
        let limits = limits(&self.level, mode);
        // The search's lines are written by whichever thread has them (see the module
        // documentation); a write error is kept by the output and reported by the loop.
        let (out, variant, numbering) = (self.out.clone(), self.variant(), self.numbering);
        let sink: EventSink = Arc::new(move |e| {
            let mv = |m: &str| numbering.move_out(variant, m);
            let line = match e {
                Event::Info(info) => format::info_line(&info, &mv),
                Event::Done(done) => format::done_line(&done, &mv).unwrap_or_else(|| {
                    format::error_line("the search found no move (the side to move has lost)")
                }),
            };
            let _ = out.line(&line);
        });
        match self.engine.go(limits, sink) {
            Ok(()) => {
                self.search = Some(mode);
                self.level = Level::default();
                Ok(())
            }
            Err(e) => self.error(&e.to_string()),
        }
    }
}

/// Adds the limits of a `level` line to those already given.
fn merge(into: &mut Level, l: Level) {
    into.depth = l.depth.or(into.depth);
    into.nodes = l.nodes.or(into.nodes);
    into.move_time = l.move_time.or(into.move_time);
    into.moves = l.moves.or(into.moves);
    into.time = l.time.or(into.time);
    into.inc = l.inc.or(into.inc);
    into.infinite |= l.infinite;
}

/// The search limits of a `level` and a `go` mode.
fn limits(level: &Level, mode: GoMode) -> Limits {
    // `level` refused anything else (`command::seconds`); a clamp keeps this total all the same.
    let secs = |s: f64| Duration::from_secs_f64(s.clamp(0.0, crate::numbers::MAX_SECONDS));
    Limits {
        depth: level.depth,
        nodes: level.nodes,
        move_time: level.move_time.map(secs),
        time: level.time.map(secs),
        inc: level.inc.map(secs).unwrap_or_default(),
        moves_to_go: level.moves,
        infinite: level.infinite,
        ponder: mode == GoMode::Ponder,
        analyze: mode == GoMode::Analyze,
    }
}

/// Morris: a removal given as a token of its own (`xa4`) belongs to the move before it.
fn join_removals(moves: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(moves.len());
    for m in moves {
        match out.last_mut() {
            Some(last) if m.starts_with(['x', 'X']) => last.push_str(m),
            _ => out.push(m.clone()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// An output the test can read after the loop has consumed its writer.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, b: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn runs_in_process_and_ends_a_search_at_the_end_of_input() {
        let out = Shared::default();
        let input = "hub\ninit\nlevel depth=1\nnonsense\ngo think\n";
        run(io::Cursor::new(input.as_bytes().to_vec()), out.clone()).unwrap();
        let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("id name=tiao"));
        assert!(lines.contains(&"wait") && lines.contains(&"ready"));
        assert!(lines.contains(&"error message=\"unknown command 'nonsense'\""));
        assert!(lines.last().unwrap().starts_with("done move="), "{text}");
    }

    #[test]
    fn a_table_found_damaged_in_the_background_is_an_info_message() {
        let dir = crate::engine::tests::fresh_dir("hub");
        let out = Shared::default();
        let mut hub = Hub::new(
            crate::engine::tests::engine_with_damaged_late(),
            Output::new(out.clone()),
        );
        let set = format!("set-param name=egdb-path value={}", dir.display());
        assert!(hub.line(&set).unwrap() == Flow::Continue);
        let text = || String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        // After each command the Hub writes what the check found since; wait for the check.
        while !text().contains("not used") {
            hub.late_tables().unwrap();
            std::thread::sleep(Duration::from_millis(5));
        }
        hub.late_tables().unwrap();
        let lines: Vec<String> = text().lines().map(String::from).collect();
        let late: Vec<&String> = lines.iter().filter(|l| l.contains("not used")).collect();
        assert_eq!(late.len(), 1, "once: {lines:?}");
        assert!(
            late[0].starts_with("info message=\"endgame table not used: ")
                && late[0].contains("big.tbl"),
            "{lines:?}"
        );
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn huge_bad_input_is_not_sent_back_whole() {
        let out = Shared::default();
        let long = "x".repeat(1 << 20);
        let input = format!("{long}\npos fen=\"W:W{long}\"\nset-param name={long} value=1\n");
        run(io::Cursor::new(input.into_bytes()), out.clone()).unwrap();
        let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{}", text.len());
        for l in lines {
            assert!(
                l.starts_with("error message=") && l.len() < 500,
                "{}",
                l.len()
            );
        }
    }

    #[test]
    fn levels_accumulate() {
        let mut l = Level::default();
        merge(
            &mut l,
            Level {
                depth: Some(5),
                ..Level::default()
            },
        );
        merge(
            &mut l,
            Level {
                move_time: Some(1.5),
                ..Level::default()
            },
        );
        assert_eq!((l.depth, l.move_time), (Some(5), Some(1.5)));
        let lim = limits(
            &Level {
                time: Some(100.0),
                inc: Some(2.0),
                ..l
            },
            GoMode::Ponder,
        );
        assert_eq!(lim.time, Some(Duration::from_secs(100)));
        assert_eq!(lim.inc, Duration::from_secs(2));
        assert!(lim.ponder && !lim.analyze);
    }

    #[test]
    fn removals_join_their_move() {
        let v: Vec<String> = ["d6", "xa4", "a1-a4", "Xd7", "b2"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(join_removals(&v), ["d6xa4", "a1-a4Xd7", "b2"]);
        assert_eq!(join_removals(&["xa4".to_string()]), ["xa4"]);
    }
}
