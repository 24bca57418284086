//! The engine facade: a game chosen at run time, its position and history, a shared
//! transposition table, and searches run on a background thread.
//!
//! This is the API the protocol layers (Hub, later DXP) and the CLI drive. Nothing here prints:
//! a search reports through an [`EventSink`] (an [`Event::Info`] per completed iteration, and
//! one for an unfinished iteration that found a better move when the search answers with it,
//! then exactly one [`Event::Done`]),
//! with moves already written as text (Hub form and PDN form).
//!
//! Typical use (the Hub loop): [`Engine::new`], setters ([`Engine::set_option`] for `set-param`),
//! [`Engine::new_game`] (`new-game`), [`Engine::set_position`] (`pos`), [`Engine::go`] (`go` with
//! the `level` as [`Limits`]), then [`Engine::stop`] / [`Engine::ponder_hit`] while it runs, and
//! [`Engine::wait`] for it to end.
//!
//! Invariants: at most one search runs at a time; anything that changes what a search shares
//! (the table's contents, the game) first stops and joins a running search; other changes (the
//! options, a new table, the draw rules) stop it and leave the join to the next search (a
//! position is refused while a search runs, and is the search's own copy once it runs); a failed setter leaves the state as it was; every
//! search sends exactly one `Done`, with a legal move whenever the position has one, and nothing
//! after it. `Done` goes out as soon as the answer is known, from one of three places: the search
//! itself when it ends by its limits, before its helper threads are joined; [`Engine::stop`], at
//! once, from the search's last report (see there); or the engine's watchdog thread, at a timed
//! search's hard budget, also from the last report, when the search's own threads have not got a
//! core to notice the deadline (see `outbox`). The search threads end on their own afterwards and
//! are joined by the next search or change, whose clock is already running: a search's clock
//! starts when [`Engine::go`] is called, before that join, so that the wait counts against its
//! budget and its deadline.
//!
//! Games: the variant is bound once, here, by [`dispatch!`](crate::dispatch) into a
//! [`GameSession<G>`] for the concrete position type; adding a game means filling its arm of the
//! dispatch with its position type (Nine Men's Morris: `morris => ...`).
//!
//! Endgame tables ([`EgdbSetting`], option `egdb-path`): each game's arm of the dispatch names
//! its table [`Opener`]; the session opens the tables of its variant from the directory (once per
//! process and directory: opened tables are shared by every engine), and hands them to its
//! searches. Files refused are reported ([`Engine::tables`]) and left out; the engine plays on
//! without them. A game may have built-in tables too (option `builtin-tables`: the 8x8 kings'
//! endings, [`crate::egdb::draughts::builtin`]), asked where the directory's have no answer.
//!
//! Opening book ([`BookOptions`], options `book`, `book-file`, `book-ply`, `book-margin`,
//! `book-seed`): off in [`EngineOptions::default`] (the tools search every position), on in the
//! Hub and DXP engines. When on, a `go` that plays a move (not `analyze`, `ponder` or `infinite`)
//! in a position the book holds is answered at once, on the calling thread, without a search: an
//! [`Info`] with `book: true` and depth 0, then `Done`. The book is the default one embedded for
//! the variant played ([`crate::book::embedded`]), or a file's of that variant; the choice among
//! its moves is [`crate::book::choose`]'s, from a generator seeded per engine (`book-seed`).
//!
//! Pattern weights (option `weights`, [`Engine::set_weights`]): weight files to evaluate with
//! instead of the embedded weights of their families, at most one a family (a list in the
//! system's path-list form: `a.tpw:b.tpw` on Unix). It is the process's choice, not one
//! engine's ([`crate::draughts::eval::active`]): an engine made or set with them makes every
//! engine of the process evaluate with them; one made without leaves the process's choice as it
//! is (the commands choose their `--weights` files once, before their engines), and
//! `weights=default` goes back to the embedded weights.

mod outbox;

use crate::book::{self, Book, BookMove};
use crate::dispatch;
use crate::draughts::eval::active;
use crate::draughts::position::Position;
use crate::egdb::{Builtin, EgdbError, Opener, PendingCheck, Probe};
use crate::game::Evaluate;
use crate::game::Game;
use crate::game::MoveList;
use crate::game::rng::Rng;
use crate::memory::MemoryError;
use crate::search::time::TimeManager;
use crate::search::time::TimeParams;
use crate::search::tt::Tt;
use crate::search::{self, Control, Limits, Params, Report, Score, SearchOptions, SearchResult};
use crate::track::{GameTrack, ReplayError};
use crate::variant::{DrawRuleSet, GameKind, Variant};
use outbox::{Outbox, Watchdog};
use std::any::Any;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A move in the forms the outside world uses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveText {
    /// Hub form (`32-28`, `28x19x23`: from, to, captured squares ascending).
    pub hub: String,
    /// PDN form (`32-28`, `28x19`, `c3:e5`; long form only when ambiguous).
    pub pdn: String,
}

/// An iteration's report.
#[derive(Clone, Debug, PartialEq)]
pub struct Info {
    /// Nominal depth in plies.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Mean ply of the leaves (Hub `mean-depth`).
    pub mean_depth: f64,
    /// Score from the side to move (format with [`Score::to_hub`]).
    pub score: Score,
    /// Nodes, all threads.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Nodes per second.
    pub nps: u64,
    /// Per-mille of the table used by this search (sampled).
    pub hashfull: u32,
    /// The principal variation.
    pub pv: Vec<MoveText>,
    /// An unfinished iteration that found a better move (see [`Report::partial`]). The engine
    /// passes such a report on only when the search ends with it as its answer, just before
    /// `Done`, so that a sink sees each depth once.
    pub partial: bool,
    /// Endgame-table answers (`None` when the engine has no tables).
    pub tb_hits: Option<u64>,
    /// The move comes from the opening book, not from a search (depth 0, no nodes).
    pub book: bool,
}

/// The end of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct Done {
    /// The move to play; `None` only when the position has no legal move (it is lost).
    pub best: Option<MoveText>,
    /// The expected reply.
    pub ponder: Option<MoveText>,
    /// Score of the last reported iteration.
    pub score: Score,
    /// Depth of the last reported iteration (0: answered at once).
    pub depth: u32,
    /// Nodes, all threads.
    pub nodes: u64,
    /// Time spent.
    pub time: Duration,
}

/// What a search reports.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// A completed iteration (or an unfinished one that found a better move).
    Info(Info),
    /// The search ended (always sent, once).
    Done(Done),
}

/// Where events go. Called from the search thread.
pub type EventSink = Arc<dyn Fn(Event) + Send + Sync>;

/// An engine request that was refused; the engine's state is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// A position text that does not parse.
    BadPosition(String),
    /// A move of the `moves` list that is not legal or not understood (0-based index).
    BadMove {
        index: usize,
        text: String,
        reason: String,
    },
    /// An unknown option or a bad value.
    BadOption { name: String, reason: String },
    /// A search is running.
    Busy,
    /// The table's memory cannot be had (more than the machine has available, or refused).
    Memory(MemoryError),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::BadPosition(e) => write!(f, "bad position: {e}"),
            EngineError::BadMove {
                index,
                text,
                reason,
            } => write!(
                f,
                "bad move '{text}' (move {} of the list): {reason}",
                index + 1
            ),
            EngineError::BadOption { name, reason } => write!(f, "option {name}: {reason}"),
            EngineError::Busy => write!(f, "a search is running"),
            EngineError::Memory(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for EngineError {}

impl From<ReplayError> for EngineError {
    fn from(e: ReplayError) -> EngineError {
        match e {
            ReplayError::BadFen { reason, .. } => EngineError::BadPosition(reason),
            ReplayError::BadMove { ply, text, reason } => EngineError::BadMove {
                index: ply,
                text,
                reason: reason.to_string(),
            },
        }
    }
}

/// Where the engine's endgame tables come from.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum EgdbSetting {
    /// The default directory ([`crate::egdb::default_dir`]) when it exists; none otherwise.
    #[default]
    Default,
    /// No tables.
    Off,
    /// The tables of this directory (an error when it is not a directory).
    Dir(PathBuf),
}

impl EgdbSetting {
    /// Reads an `egdb-path` value: a directory, or `none` / `off` / empty for no tables,
    /// `default` for the default directory.
    pub fn parse(value: &str) -> EgdbSetting {
        match value.trim() {
            "" | "none" | "off" | "<empty>" => EgdbSetting::Off,
            "default" => EgdbSetting::Default,
            d => EgdbSetting::Dir(PathBuf::from(d)),
        }
    }

    /// The directory to read, if any: an error when a given directory is not one.
    pub fn dir(&self) -> Result<Option<PathBuf>, String> {
        match self {
            EgdbSetting::Off => Ok(None),
            EgdbSetting::Default => Ok(crate::egdb::default_dir().filter(|d| d.is_dir())),
            EgdbSetting::Dir(d) if d.is_dir() => Ok(Some(d.clone())),
            EgdbSetting::Dir(d) => Err(format!("{}: no such directory", d.display())),
        }
    }

    /// The value as `egdb-path` shows it.
    pub fn value(&self) -> String {
        match self {
            EgdbSetting::Off => "none".into(),
            EgdbSetting::Default => "default".into(),
            EgdbSetting::Dir(d) => d.display().to_string(),
        }
    }
}

/// The endgame tables an engine has for the game it plays.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TablesInfo {
    /// The directory they come from (`None`: no tables).
    pub dir: Option<PathBuf>,
    /// Slices (files) open for the game being played.
    pub slices: usize,
    /// The most pieces they cover.
    pub max_pieces: u32,
    /// Files refused, and why (the engine plays without them).
    pub problems: Vec<EgdbError>,
    /// Slices of the built-in tables in play (option `builtin-tables`; 0: none), asked where
    /// the directory's have no answer.
    pub builtin_slices: usize,
    /// The most pieces they cover.
    pub builtin_pieces: u32,
}

/// The engine's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineOptions {
    /// Search threads.
    pub threads: usize,
    /// Transposition table size in MiB.
    pub hash_mib: usize,
    /// Search tunables.
    pub params: Params,
    /// Time-management tunables.
    pub time: TimeParams,
    /// Endgame tables.
    pub egdb: EgdbSetting,
    /// When the payload checksums of large table files are checked ([`TableCheck`]).
    pub egdb_check: TableCheck,
    /// Whether the game's built-in tables are used (`builtin-tables`, on by default): the
    /// kings-only endings of up to 4 pieces on the 8x8 boards, built in memory once a process
    /// ([`crate::egdb::draughts::builtin`]), asked where the directory's tables have no answer.
    pub builtin_tables: bool,
    /// The opening book (off by default: see [`BookOptions`]).
    pub book: BookOptions,
    /// Pattern-weight files to evaluate with instead of the embedded weights of their
    /// families, at most one a family (`weights`). The process's choice, not one engine's
    /// ([`crate::draughts::eval::active`]): every engine of the process evaluates with them.
    /// None at [`Engine::new`] leaves the process's choice as it is; [`Engine::set_weights`]
    /// with none chooses the embedded weights.
    pub weights: Vec<PathBuf>,
}

/// Plies from the start within which the book's choices are random by default (`book-ply`).
pub const DEFAULT_BOOK_PLY: u32 = 10;
/// How far below the best a book move chosen may score by default, centi-men (`book-margin`).
pub const DEFAULT_BOOK_MARGIN: u32 = 4;
/// The largest `book-ply` accepted.
pub const MAX_BOOK_PLY: u32 = 10_000;
/// The largest `book-margin` accepted, centi-men.
pub const MAX_BOOK_MARGIN: u32 = 10_000;
/// The largest `book-seed` accepted (a Hub `int` parameter is signed 64-bit).
pub const MAX_BOOK_SEED: u64 = i64::MAX as u64;

/// How the engine plays from its opening book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookOptions {
    /// Whether `go` plays book moves (`book`).
    pub enabled: bool,
    /// Game plies (moves of the position's history) before which a move is drawn among those
    /// within `margin` of the best; from then on the best (`book-ply`).
    pub ply: u32,
    /// How far below the best a chosen move may score, centi-men; 0: always the best
    /// (`book-margin`).
    pub margin: u32,
    /// The seed of the choices (`book-seed`); `None`: one of the engine's own, different for
    /// each engine.
    pub seed: Option<u64>,
    /// A book file to use instead of the embedded one (`book-file`); `None`: the default book.
    pub file: Option<PathBuf>,
}

impl Default for BookOptions {
    /// Off: the book is not used (the tools, `tiao match`'s engines).
    fn default() -> Self {
        BookOptions {
            enabled: false,
            ply: DEFAULT_BOOK_PLY,
            margin: DEFAULT_BOOK_MARGIN,
            seed: None,
            file: None,
        }
    }
}

impl BookOptions {
    /// On, with the default book and settings (the Hub and DXP engines).
    pub fn on() -> BookOptions {
        BookOptions {
            enabled: true,
            ..BookOptions::default()
        }
    }

    /// The option names [`BookOptions::set`] takes.
    pub const NAMES: &'static [&'static str] =
        &["book", "book-ply", "book-margin", "book-seed", "book-file"];

    /// Sets one of [`BookOptions::NAMES`] (`_` may stand for `-`) from its text: `book` a
    /// boolean (`true`/`false`, `on`/`off`, `yes`/`no`, `1`/`0`), `book-file` a path (`default`,
    /// `none` or empty: the embedded book; not read here). On error nothing changes.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let key = name.trim().to_ascii_lowercase().replace('_', "-");
        let number = |max: u64| crate::numbers::whole(value, 0, max);
        match key.as_str() {
            "book" => {
                self.enabled = crate::numbers::switch(value)
                    .ok_or_else(|| format!("bad value '{value}' (expected true or false)"))?;
            }
            "book-ply" => self.ply = number(MAX_BOOK_PLY as u64)? as u32,
            "book-margin" => self.margin = number(MAX_BOOK_MARGIN as u64)? as u32,
            "book-seed" => self.seed = Some(number(MAX_BOOK_SEED)?),
            "book-file" => {
                self.file = match value.trim() {
                    "" | "default" | "none" | "<empty>" => None,
                    f => Some(PathBuf::from(f)),
                }
            }
            _ => return Err(format!("unknown book option '{name}'")),
        }
        Ok(())
    }
}

/// A move of the position in the engine's book, with its scores.
#[derive(Clone, Debug, PartialEq)]
pub struct BookEntry {
    /// The move.
    pub mv: MoveText,
    /// Its value through the book (minimax), side to move.
    pub score: Score,
    /// The score of its own search when the book was built, side to move.
    pub leaf: Score,
    /// The depth of that search, plies.
    pub depth: u32,
}

/// When the engine checks the payload checksums of the table files its opener left unchecked
/// (those above [`crate::egdb::CHECK_AT_OPEN_MAX`] bytes; they answer nothing until checked).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TableCheck {
    /// When the tables are opened: the engine starts when every table answers (a search is the
    /// same whenever it runs: the command-line tools).
    #[default]
    AtOpen,
    /// On a thread of its own, smallest file first, while the engine goes on: a quick start
    /// (the Hub and DXP engines, which a GUI starts and waits for). A damaged file is written
    /// on stderr when found, never answers, and is given by [`Engine::late_table_problems`].
    Background,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            threads: 1,
            hash_mib: 64,
            params: Params::default(),
            time: TimeParams::default(),
            egdb: EgdbSetting::Default,
            egdb_check: TableCheck::AtOpen,
            builtin_tables: true,
            book: BookOptions::default(),
            weights: Vec::new(),
        }
    }
}

impl EngineOptions {
    /// Sets one option by any of its names ([`option_name`]) from its text, in this value
    /// alone: nothing is allocated or opened (an `egdb-path` directory is only checked to be
    /// one; a `book-file` is not read). Returns the option's name as [`option_name`] gives it,
    /// so that a caller with state ([`Engine::set_option`]) knows what to apply. `variant` and
    /// `draw-rules` are the game's, not an engine setting: [`OptionError::GameRules`], for the
    /// caller to say where they are set. On error nothing changes.
    ///
    /// The one reader of option values: the Hub's `set-param` (through
    /// [`Engine::set_option`]) and `tiao match`'s engine specs both call it.
    pub fn set(&mut self, name: &str, value: &str) -> Result<String, OptionError> {
        let key = option_name(name);
        let whole = |max: usize| crate::numbers::whole(value, 1, max as u64).map(|n| n as usize);
        match key.as_str() {
            "variant" | "draw-rules" => return Err(OptionError::GameRules),
            "threads" => self.threads = whole(MAX_THREADS)?,
            "hash" => self.hash_mib = whole(MAX_HASH_MIB)?,
            "egdb-path" => {
                let setting = EgdbSetting::parse(value);
                setting.dir()?;
                self.egdb = setting;
            }
            "move-overhead" => self.time.move_overhead = move_overhead(value)?,
            "builtin-tables" => {
                self.builtin_tables = crate::numbers::switch(value)
                    .ok_or_else(|| format!("bad value '{value}' (expected true or false)"))?;
            }
            "weights" => {
                self.weights = weight_files(value);
            }
            k if BookOptions::NAMES.contains(&k) => self.book.set(k, value)?,
            k if TimeParams::NAMES.contains(&k) => {
                self.time.set(k, value).map_err(|e| e.to_string())?
            }
            k => self.params.set(k, value).map_err(|e| e.to_string())?,
        }
        Ok(key)
    }
}

/// Why [`EngineOptions::set`] refused an option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// `variant` or `draw-rules`: the game's rules, set with the game (the Hub's `set-param`
    /// through [`Engine::set_option`], `tiao match --variant`), not an engine setting.
    GameRules,
    /// An unknown name or a bad value, and why (without the option's name: the caller adds it).
    Bad(String),
}

impl From<String> for OptionError {
    fn from(reason: String) -> Self {
        OptionError::Bad(reason)
    }
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::GameRules => f.write_str("the game's rules, set with the game"),
            OptionError::Bad(reason) => f.write_str(reason),
        }
    }
}

/// Most threads accepted.
pub const MAX_THREADS: usize = 256;
/// Largest table accepted, in MiB.
pub const MAX_HASH_MIB: usize = 1 << 16;

/// The cores of this machine, as the system reports them (1 when it cannot say).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// What to tell the user when `threads` search threads are more than the machine's cores: they
/// are accepted, but share the cores (each reaches less depth, and a stop or a deadline waits for
/// threads that are not running). `None` when the cores suffice. The text has no `=`, so that it
/// fits a Hub value.
pub fn threads_warning(threads: usize) -> Option<String> {
    let cores = cores();
    (threads > cores).then(|| {
        format!(
            "{threads} search threads on {cores} core(s): accepted, but the threads share the \
             cores, so each searches less deep and stops and answers later"
        )
    })
}

/// An engine option's name as every way in takes it (Hub `set-param`, `tiao match`'s engine
/// specs, `tiao spsa --base`): trimmed, lower case, `_` read as `-`, and the aliases folded
/// into their option (`hash-mib`, `tt-size` and `tt-size-mib`, Scan's name, are `hash`, in MiB;
/// `egdb` is `egdb-path`). One function, so that an option has the same names everywhere.
pub fn option_name(name: &str) -> String {
    let key = name.trim().to_ascii_lowercase().replace('_', "-");
    match key.as_str() {
        "hash-mib" | "tt-size" | "tt-size-mib" => "hash".into(),
        "egdb" => "egdb-path".into(),
        _ => key,
    }
}

/// The largest `move-overhead` accepted, in milliseconds.
pub const MAX_MOVE_OVERHEAD_MS: usize = 10_000;

/// A `move-overhead` value: whole milliseconds in `0..=`[`MAX_MOVE_OVERHEAD_MS`], or why not.
pub fn move_overhead(value: &str) -> Result<Duration, String> {
    crate::numbers::whole(value, 0, MAX_MOVE_OVERHEAD_MS as u64).map(Duration::from_millis)
}

/// A game's position and history, behind a type-erased interface (one implementation per
/// position type: [`GameSession`]).
pub trait Session: Send {
    /// Sets the position: `fen` (or the start position) followed by `moves` in any accepted
    /// form. On error nothing changes.
    fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), EngineError>;
    /// The current position's FEN.
    fn fen(&self) -> String;
    /// The legal moves of the current position.
    fn legal_moves(&self) -> Vec<MoveText>;
    /// Whether the side to move has a legal move (without writing the moves out).
    fn has_legal_move(&self) -> bool;
    /// A search of the current position, ready to run on any thread.
    fn searcher(&self) -> Searcher;
    /// Opens the game's endgame tables from `dir` (`None`: no directory), replacing any; with
    /// `builtin`, the game's built-in tables answer where those have no answer.
    fn open_tables(&mut self, dir: Option<&Path>, check: TableCheck, builtin: bool) -> TablesInfo;
    /// The files of the open tables that their check in the background
    /// ([`TableCheck::Background`]) has found damaged so far, in the order found.
    fn late_table_problems(&self) -> Vec<EgdbError>;
    /// The current position's moves in `book`, best first (`None`: not in the book, or none of
    /// its moves is legal here).
    fn book_moves(&self, book: &Book) -> Option<Vec<(MoveText, BookMove)>>;
    /// Moves played from the position set (its history's length).
    fn ply(&self) -> usize;
    /// Evaluates the current position once, so that what the game's evaluation reads once a
    /// process (the embedded pattern weights) is read now and not under a search's clock.
    fn load_evaluation(&self);
}

/// A search of a position, ready to run on any thread: called with its limits, options, table,
/// signals and sink, it reports to the sink (`Done` as soon as the main search thread has the
/// result, before the helper threads are joined) and returns when they are joined.
pub type Searcher = Box<dyn FnOnce(&Limits, &SearchOptions, &Tt, &Control, &dyn Fn(Event)) + Send>;

/// The position of game `G` with the keys of the positions before it: the history the search
/// checks repetitions against. A `pos` is replayed by [`GameTrack::replay`]; only the final
/// position and the keys are kept.
#[derive(Clone)]
pub struct GameSession<G: Evaluate> {
    pos: G,
    history: Vec<u64>,
    /// How the game opens its endgame tables (`None`: it has none).
    opener: Option<Opener<G>>,
    /// The game's built-in tables (`None`: it has none).
    builtin: Option<Builtin<G>>,
    tables: Option<Arc<dyn Probe<G>>>,
    /// What the background check of those tables has found damaged.
    late: Option<LateProblems>,
}

impl<G: Evaluate> Default for GameSession<G> {
    fn default() -> Self {
        GameSession {
            pos: G::start(),
            history: Vec::new(),
            opener: None,
            builtin: None,
            tables: None,
            late: None,
        }
    }
}

/// Tables opened in this process: (directory, position type) to what the opener gave, so that
/// every engine of a batch or a match shares one copy (engines that open the same directory at
/// the same moment may each read it; the first stored is kept).
type Cached = (PathBuf, std::any::TypeId, Arc<dyn Any + Send + Sync>);
static OPENED: Mutex<Vec<Cached>> = Mutex::new(Vec::new());

/// The files a background check found damaged, written by its thread as it finds them and
/// read by every engine using the tables.
type LateProblems = Arc<Mutex<Vec<EgdbError>>>;

/// What an opener gave, kept in [`OPENED`].
struct OpenedTables<G> {
    tables: Option<Arc<dyn Probe<G>>>,
    slices: usize,
    max_pieces: u32,
    problems: Vec<EgdbError>,
    /// The large files the thread below found damaged.
    late: LateProblems,
    /// The thread checking the large files ([`TableCheck::Background`]), until an engine that
    /// wants them checked at open has waited for it.
    checking: Mutex<Option<std::thread::JoinHandle<()>>>,
}

impl<G: Evaluate> GameSession<G> {
    /// A session whose game opens its endgame tables with `opener`, and has the built-in
    /// tables `builtin`.
    pub fn with_opener(opener: Opener<G>, builtin: Option<Builtin<G>>) -> Self {
        GameSession {
            opener: Some(opener),
            builtin,
            ..GameSession::default()
        }
    }

    /// The current position.
    pub fn position(&self) -> &G {
        &self.pos
    }

    /// The keys of the positions before the current one, oldest first.
    pub fn history(&self) -> &[u64] {
        &self.history
    }

    /// Opens the tables of `dir` (shared with every engine of the process that opened them),
    /// replacing any: the Session's `open_tables` without the built-in tables.
    fn open_dir_tables(&mut self, dir: Option<&Path>, check: TableCheck) -> TablesInfo {
        self.tables = None;
        self.late = None;
        let (Some(dir), Some(opener)) = (dir, self.opener) else {
            return TablesInfo::default();
        };
        let key = std::any::TypeId::of::<G>();
        let find = |opened: &[Cached]| {
            opened
                .iter()
                .find(|(d, t, _)| d == dir && *t == key)
                .and_then(|(_, _, o)| o.clone().downcast::<OpenedTables<G>>().ok())
        };
        let found = find(&OPENED.lock().unwrap_or_else(|e| e.into_inner()));
        let o = match found {
            Some(o) => o,
            None => {
                // Opened and checked with OPENED unlocked: the opener and the check read files on
                // rayon, and a rayon worker waiting there may run another job of its pool, such
                // as a batch's next engine opening these tables, which would wait for the lock
                // its own thread holds (`analyze --positions --jobs 2 --egdb DIR` hung so,
                // 2026-12-03). Engines that race may each open the directory; the first stored
                // is kept and shared, the others' are dropped.
                let got = opener(dir, self.pos.variant());
                let mut problems = got.problems;
                let late = LateProblems::default();
                let checking = got.check.and_then(|run| match check {
                    TableCheck::AtOpen => {
                        problems.extend(run());
                        None
                    }
                    TableCheck::Background => {
                        check_in_background(run, &mut problems, Arc::clone(&late))
                    }
                });
                let mine = Arc::new(OpenedTables {
                    max_pieces: got.tables.as_ref().map_or(0, |t| t.max_pieces()),
                    tables: got.tables,
                    slices: got.slices,
                    problems,
                    late,
                    checking: Mutex::new(checking),
                });
                let mut opened = OPENED.lock().unwrap_or_else(|e| e.into_inner());
                match find(&opened) {
                    Some(first) => first,
                    None => {
                        opened.push((dir.to_path_buf(), key, mine.clone()));
                        mine
                    }
                }
            }
        };
        let mut problems = o.problems.clone();
        if check == TableCheck::AtOpen {
            let h = o.checking.lock().unwrap_or_else(|e| e.into_inner()).take();
            if let Some(h) = h {
                let _ = h.join();
            }
            // Checked by an earlier engine's thread: what it found is known now.
            problems.extend(o.late.lock().unwrap_or_else(|e| e.into_inner()).clone());
        } else {
            self.late = Some(Arc::clone(&o.late));
        }
        self.tables = o.tables.clone();
        TablesInfo {
            dir: Some(dir.to_path_buf()),
            slices: o.slices,
            max_pieces: o.max_pieces,
            problems,
            ..TablesInfo::default()
        }
    }

    /// The legal moves of the current position.
    fn legal(&self) -> MoveList<G::Move> {
        let mut l = MoveList::default();
        self.pos.generate(&mut l);
        l
    }
}

/// A move in both text forms.
pub fn move_text<G: Evaluate>(pos: &G, m: &G::Move) -> MoveText {
    MoveText {
        hub: pos.move_to_hub(m),
        pdn: pos.move_to_pdn(m),
    }
}

/// A line of moves from `pos` in both text forms.
pub fn line_text<G: Evaluate>(pos: &G, line: &[G::Move]) -> Vec<MoveText> {
    let mut p = *pos;
    line.iter()
        .map(|m| {
            let t = move_text(&p, m);
            p = p.make(m);
            t
        })
        .collect()
}

/// The [`Info`] event of a search report.
pub fn info_of<G: Evaluate>(root: &G, r: &Report<G::Move>) -> Info {
    Info {
        depth: r.depth,
        seldepth: r.seldepth,
        mean_depth: r.mean_depth,
        score: r.score,
        nodes: r.nodes,
        time: r.time,
        nps: r.nps(),
        hashfull: r.hashfull,
        pv: line_text(root, &r.pv),
        partial: r.partial,
        tb_hits: r.tb_hits,
        book: false,
    }
}

/// The [`Done`] event of a search result.
pub fn done_of<G: Evaluate>(root: &G, r: &SearchResult<G::Move>) -> Done {
    Done {
        best: r.best.map(|m| move_text(root, &m)),
        ponder: r
            .best
            .zip(r.ponder)
            .map(|(b, p)| move_text(&root.make(&b), &p)),
        score: r.score,
        depth: r.depth,
        nodes: r.nodes,
        time: r.time,
    }
}

impl<G: Evaluate> Session for GameSession<G> {
    fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), EngineError> {
        let track = GameTrack::<G>::replay(fen, moves.iter().copied())?;
        let before = &track.positions()[..track.plies()];
        self.history = before.iter().map(Game::key).collect();
        self.pos = *track.position();
        Ok(())
    }

    fn fen(&self) -> String {
        self.pos.fen()
    }

    fn legal_moves(&self) -> Vec<MoveText> {
        self.legal()
            .iter()
            .map(|m| move_text(&self.pos, m))
            .collect()
    }

    fn has_legal_move(&self) -> bool {
        !self.legal().is_empty()
    }

    fn open_tables(&mut self, dir: Option<&Path>, check: TableCheck, builtin: bool) -> TablesInfo {
        let mut info = self.open_dir_tables(dir, check);
        let built = self.builtin.filter(|_| builtin).and_then(|b| b());
        if let Some((b, slices)) = built {
            info.builtin_slices = slices;
            info.builtin_pieces = b.max_pieces();
            self.tables = Some(match self.tables.take() {
                Some(first) => Arc::new(crate::egdb::Layered { first, then: b }),
                None => b,
            });
        }
        info
    }

    fn late_table_problems(&self) -> Vec<EgdbError> {
        self.late.as_ref().map_or_else(Vec::new, |late| {
            late.lock().unwrap_or_else(|e| e.into_inner()).clone()
        })
    }

    fn book_moves(&self, book: &Book) -> Option<Vec<(MoveText, BookMove)>> {
        if book.variant != self.pos.variant() {
            return None;
        }
        let moves: Vec<_> = book::probe::probe(book, &self.pos)?
            .into_iter()
            .map(|(m, b)| (move_text(&self.pos, &m), b))
            .collect();
        (!moves.is_empty()).then_some(moves)
    }

    fn ply(&self) -> usize {
        self.history.len()
    }

    fn load_evaluation(&self) {
        self.pos.evaluate();
    }

    fn searcher(&self) -> Searcher {
        let (root, history) = (self.pos, self.history.clone());
        let tables = self.tables.clone();
        Box::new(move |limits, options, tt, control, sink| {
            search::search_with_tables(
                &root,
                &history,
                limits,
                options,
                tables.as_deref(),
                tt,
                control,
                Some(&mut |r| sink(Event::Info(info_of(&root, r)))),
                &mut |result| sink(Event::Done(done_of(&root, result))),
            );
        })
    }
}

/// Runs the table checks `run` on a thread of its own, each damaged file written on stderr
/// when found (the engine's warnings are written by then) and added to `late`; without a
/// thread to be had, here, into `problems`.
fn check_in_background(
    run: PendingCheck,
    problems: &mut Vec<EgdbError>,
    late: LateProblems,
) -> Option<std::thread::JoinHandle<()>> {
    let job = Arc::new(Mutex::new(Some(run)));
    let theirs = Arc::clone(&job);
    let take = |job: &Mutex<Option<PendingCheck>>| {
        let run = job.lock().unwrap_or_else(|e| e.into_inner()).take();
        run.map_or_else(Vec::new, |run| run())
    };
    let spawned = std::thread::Builder::new()
        .name("egdb-check".into())
        .spawn(move || {
            for e in take(&theirs) {
                eprintln!("tiao: endgame table not used: {e}");
                late.lock().unwrap_or_else(|e| e.into_inner()).push(e);
            }
        });
    match spawned {
        Ok(h) => Some(h),
        Err(_) => {
            problems.extend(take(&job));
            None
        }
    }
}

/// A session for a game chosen at run time.
pub fn session_for(kind: GameKind) -> Result<Box<dyn Session>, EngineError> {
    dispatch!(kind,
        R => Ok(Box::new(GameSession::<Position<R>>::with_opener(
            crate::egdb::draughts::open::<R>,
            Some(crate::egdb::draughts::builtin::probe::<R>),
        )) as Box<dyn Session>),
        morris => Ok(Box::new(GameSession::<crate::morris::MorrisPosition>::with_opener(
            crate::egdb::morris::probe::open,
            None,
        )) as Box<dyn Session>))
}

/// Checks that an option's value is in `min..=max`.
fn in_range(name: &str, value: usize, min: usize, max: usize) -> Result<(), EngineError> {
    crate::numbers::in_range(value as u64, min as u64, max as u64)
        .map(|_| ())
        .map_err(|reason| EngineError::BadOption {
            name: name.into(),
            reason,
        })
}

struct Running {
    control: Arc<Control>,
    handle: JoinHandle<()>,
    outbox: Arc<Outbox>,
    /// The search's limits (a ponder hit arms the deadline with them).
    limits: Limits,
}

/// The engine.
pub struct Engine {
    kind: GameKind,
    options: EngineOptions,
    tt: Arc<Tt>,
    session: Box<dyn Session>,
    /// The last position set, to replay it when the game's rules change.
    setup: (Option<String>, Vec<String>),
    running: Option<Running>,
    watchdog: Watchdog,
    /// The endgame tables of the game being played.
    tables: TablesInfo,
    /// How many of the session's [`Session::late_table_problems`] are in `tables` already.
    late_seen: usize,
    /// The book of `options.book.file` (`None`: the embedded books); used while its variant is
    /// played.
    file_book: Option<Arc<Book>>,
    /// The generator of the book's choices.
    book_rng: Rng,
    /// The seed it started from (`book-seed`: given, or the engine's own).
    book_seed: u64,
}

/// A seed of the engine's own for the book's choices: different for each engine (time, process,
/// and a count), within [`MAX_BOOK_SEED`].
fn own_seed() -> u64 {
    static COUNT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let mut r = Rng::new(nanos ^ (u64::from(std::process::id()) << 32) ^ n);
    r.next_u64() & MAX_BOOK_SEED
}

/// Reads the book file `path` for `variant`, or the option error naming it.
fn read_book_file(path: &Path, variant: Variant) -> Result<Arc<Book>, EngineError> {
    book::embedded::read(path, variant)
        .map(Arc::new)
        .map_err(|e| EngineError::BadOption {
            name: "book-file".into(),
            reason: e.to_string(),
        })
}

/// The files of the option `weights`'s value: none for `default` (also `embedded`, `none` or
/// nothing), else one path, or a list in the system's path-list form (`a.tpw:b.tpw` on Unix,
/// `;` on Windows) unless the whole value names a file.
pub fn weight_files(value: &str) -> Vec<PathBuf> {
    let v = value.trim();
    match v.to_ascii_lowercase().as_str() {
        "" | "default" | "embedded" | "none" => Vec::new(),
        _ if std::path::Path::new(v).is_file() => vec![PathBuf::from(v)],
        _ => std::env::split_paths(v)
            .filter(|p| !p.as_os_str().is_empty())
            .collect(),
    }
}

/// The option `weights`'s value for `paths`, as [`weight_files`] reads it back: `default`, or
/// the paths in the system's path-list form.
pub fn weights_value(paths: &[PathBuf]) -> String {
    if paths.is_empty() {
        return "default".to_string();
    }
    // The system's own join, so that `split_paths` reads it back (on Windows it quotes a path
    // holding `;`). Where it refuses (a `:` in a Unix path), the paths are shown as they are:
    // such a path alone reads back as the file it names.
    std::env::join_paths(paths).map_or_else(
        |_| {
            paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(if cfg!(windows) { ";" } else { ":" })
        },
        |v| v.to_string_lossy().into_owned(),
    )
}

/// Reads and checks every weight file of `paths` whole, at most one a family (nothing chosen
/// yet).
fn read_weights(paths: &[PathBuf]) -> Result<Vec<active::WeightsFile>, EngineError> {
    let files = paths
        .iter()
        .map(|p| active::WeightsFile::read(p))
        .collect::<Result<Vec<_>, _>>()
        .map_err(weights_error)?;
    active::one_a_family(&files).map_err(weights_error)?;
    Ok(files)
}

/// A weight file refused, as the option `weights`'s error.
fn weights_error(e: active::WeightsFileError) -> EngineError {
    EngineError::BadOption {
        name: "weights".into(),
        reason: e.to_string(),
    }
}

/// The directory of an `egdb` setting, or the option error naming it.
fn egdb_dir(setting: &EgdbSetting) -> Result<Option<PathBuf>, EngineError> {
    setting.dir().map_err(|reason| EngineError::BadOption {
        name: "egdb-path".into(),
        reason,
    })
}

impl Engine {
    /// An engine for `kind` at its start position. Threads and table size are brought into
    /// their ranges; a table the machine cannot give is an [`EngineError::Memory`], an
    /// `egdb` directory that is not one an [`EngineError::BadOption`]. Table files that are
    /// refused are listed in [`Engine::tables`] (the engine plays without them).
    pub fn new(kind: GameKind, options: EngineOptions) -> Result<Engine, EngineError> {
        let mut session = session_for(kind)?;
        let options = EngineOptions {
            threads: options.threads.clamp(1, MAX_THREADS),
            hash_mib: options.hash_mib.clamp(1, MAX_HASH_MIB),
            ..options
        };
        let file_book = match &options.book.file {
            Some(path) => Some(read_book_file(path, kind.variant)?),
            None => None,
        };
        let book_seed = options.book.seed.unwrap_or_else(own_seed);
        // Read and checked now; chosen once nothing else can fail, so a refused engine leaves
        // the process's weights as they were.
        let weights = read_weights(&options.weights)?;
        let tables = session.open_tables(
            egdb_dir(&options.egdb)?.as_deref(),
            options.egdb_check,
            options.builtin_tables,
        );
        let engine = Engine {
            kind,
            tt: Arc::new(Tt::try_new(options.hash_mib).map_err(EngineError::Memory)?),
            options,
            session,
            setup: (None, Vec::new()),
            running: None,
            watchdog: Watchdog::default(),
            tables,
            late_seen: 0,
            file_book,
            book_rng: Rng::new(book_seed),
            book_seed,
        };
        if !weights.is_empty() {
            active::choose(weights).map_err(weights_error)?;
        }
        // The embedded book and weights are decoded now, not at the first `go`, whose clock
        // runs.
        let _ = engine.book();
        engine.session.load_evaluation();
        Ok(engine)
    }

    /// Evaluates with the pattern weights of the files at `paths` (each its family's, at most
    /// one a family; every other family its embedded ones), or with the embedded weights of
    /// every family (no path): the process's choice ([`crate::draughts::eval::active`]). A
    /// running search is stopped and joined first, and the table is cleared (its scores are the
    /// old weights'). Files that are refused (one of them unreadable, two of one family) change
    /// nothing.
    pub fn set_weights(&mut self, paths: Vec<PathBuf>) -> Result<(), EngineError> {
        let files = read_weights(&paths)?;
        self.halt();
        active::choose(files).map_err(weights_error)?;
        self.tt.clear();
        self.options.weights = paths;
        Ok(())
    }

    /// The book `go` plays from: `None` when the book is off; else the book file's when it is
    /// of the variant played, otherwise the embedded book of the variant.
    pub fn book(&self) -> Option<Arc<Book>> {
        if !self.options.book.enabled {
            return None;
        }
        match &self.file_book {
            Some(b) if b.variant == self.kind.variant => Some(b.clone()),
            _ => book::embedded::default_book(self.kind.variant),
        }
    }

    /// The current position's moves in the book (see [`Engine::book`]), best first; `None`
    /// when the book is off or does not hold the position.
    pub fn book_moves(&self) -> Option<Vec<BookEntry>> {
        let book = self.book()?;
        let moves = self.session.book_moves(&book)?;
        Some(
            moves
                .into_iter()
                .map(|(mv, b)| BookEntry {
                    mv,
                    score: Score(i32::from(b.score)),
                    leaf: Score(i32::from(b.leaf)),
                    depth: u32::from(b.depth),
                })
                .collect(),
        )
    }

    /// The seed of the book's choices (`book-seed`: the one given, or the engine's own).
    pub fn book_seed(&self) -> u64 {
        self.book_seed
    }

    /// Uses the book file at `path` (`None`: the embedded books) from now on (option
    /// `book-file`). A file that is not a whole, undamaged book of the variant played is an
    /// error naming it, and the engine keeps the book it had.
    pub fn set_book_file(&mut self, path: Option<PathBuf>) -> Result<(), EngineError> {
        self.file_book = match &path {
            Some(p) => Some(read_book_file(p, self.kind.variant)?),
            None => None,
        };
        self.options.book.file = path;
        Ok(())
    }

    /// The book's answer to a `go` with `limits`: a move and the events saying so, when the
    /// book is on, the search plays a move (not analysis, pondering or an infinite search) and
    /// the position is in the book.
    fn book_answer(&mut self, limits: &Limits) -> Option<(Info, Done)> {
        if limits.analyze || limits.ponder || limits.infinite {
            return None;
        }
        let book = self.book()?;
        let moves = self.session.book_moves(&book)?;
        let scored: Vec<BookMove> = moves.iter().map(|(_, b)| b.clone()).collect();
        let ply = u32::try_from(self.session.ply()).unwrap_or(u32::MAX);
        let o = &self.options.book;
        let i = book::choose(&scored, ply, o.ply, o.margin as i32, &mut self.book_rng)?;
        let (mv, chosen) = moves.into_iter().nth(i)?;
        let score = Score(i32::from(chosen.score));
        let info = Info {
            depth: 0,
            seldepth: 0,
            mean_depth: 0.0,
            score,
            nodes: 0,
            time: Duration::ZERO,
            nps: 0,
            hashfull: 0,
            pv: vec![mv.clone()],
            partial: false,
            tb_hits: None,
            book: true,
        };
        let done = Done {
            best: Some(mv),
            ponder: None,
            score,
            depth: 0,
            nodes: 0,
            time: Duration::ZERO,
        };
        Some((info, done))
    }

    /// The endgame tables of the game being played: where from, how many, and the files that
    /// were refused.
    pub fn tables(&self) -> &TablesInfo {
        &self.tables
    }

    /// Uses the endgame tables of `setting` from now on (option `egdb-path`). A directory that
    /// is not one is an error and changes nothing; files refused are listed in
    /// [`Engine::tables`].
    pub fn set_egdb(&mut self, setting: EgdbSetting) -> Result<&TablesInfo, EngineError> {
        let dir = egdb_dir(&setting)?;
        self.halt();
        self.open_tables(dir.as_deref());
        self.options.egdb = setting;
        Ok(&self.tables)
    }

    /// A new session's tables: the current setting's, for the session's game.
    fn reopen_tables(&mut self) {
        let dir = self.options.egdb.dir().ok().flatten();
        self.open_tables(dir.as_deref());
    }

    fn open_tables(&mut self, dir: Option<&Path>) {
        self.tables =
            self.session
                .open_tables(dir, self.options.egdb_check, self.options.builtin_tables);
        self.late_seen = 0;
    }

    /// Plays with `session` (a test's own table opener).
    #[cfg(test)]
    pub(crate) fn set_session(&mut self, session: Box<dyn Session>) {
        self.session = session;
    }

    /// The table files found damaged by their check in the background
    /// ([`TableCheck::Background`]) since the last call or the tables' opening, each once; they
    /// are added to [`Engine::tables`]' problems. Such files never answered.
    pub fn late_table_problems(&mut self) -> Vec<EgdbError> {
        let found = self.session.late_table_problems();
        let new = found.get(self.late_seen..).unwrap_or_default().to_vec();
        self.late_seen = found.len();
        self.tables.problems.extend(new.iter().cloned());
        new
    }

    /// The game being played.
    pub fn kind(&self) -> GameKind {
        self.kind
    }

    /// The current settings.
    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// Stops a running search and waits for its threads (its `Done` is sent): for changes of
    /// what the search shares (the table's contents, the game).
    fn halt(&mut self) {
        self.stop();
        self.wait();
    }

    /// Stops a running search (its `Done` is sent) without waiting for its threads: for changes
    /// the search does not see (it has its own copies of the options and the position, and holds
    /// its own table), so that the next search joins them, on its clock (see [`Engine::go`]).
    fn end_search(&mut self) {
        self.stop();
        if self.is_searching() {
            // Stopped before its first report: it answers itself, within its first iteration.
            self.wait();
        }
    }

    /// Plays another game (variant and draw rules). The position goes back to the start.
    pub fn set_game(&mut self, kind: GameKind) -> Result<(), EngineError> {
        let session = session_for(kind)?;
        self.halt();
        self.kind = kind;
        self.session = session;
        self.setup = (None, Vec::new());
        self.tt.clear();
        self.reopen_tables();
        // The new variant's book and weights decoded now, not at the first `go`, whose clock
        // runs.
        let _ = self.book();
        self.session.load_evaluation();
        Ok(())
    }

    /// Changes the variant (keeping the draw-rule set). The position goes back to the start.
    /// Setting the variant already played changes nothing: the position and the table stay
    /// (clients such as draughtsnet send their parameters before every search).
    pub fn set_variant(&mut self, variant: Variant) -> Result<(), EngineError> {
        if variant == self.kind.variant {
            return Ok(());
        }
        self.set_game(GameKind {
            variant,
            draw_rules: self.kind.draw_rules,
        })
    }

    /// Changes the draw rules; the current position is kept (replayed under the new rules).
    pub fn set_draw_rules(&mut self, draw_rules: DrawRuleSet) -> Result<(), EngineError> {
        let kind = GameKind {
            variant: self.kind.variant,
            draw_rules,
        };
        let mut session = session_for(kind)?;
        let (fen, moves) = &self.setup;
        let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
        session.set_position(fen.as_deref(), &moves)?;
        self.end_search();
        self.kind = kind;
        self.session = session;
        self.reopen_tables();
        Ok(())
    }

    /// Sets the number of search threads (1..=`MAX_THREADS`).
    pub fn set_threads(&mut self, threads: usize) -> Result<(), EngineError> {
        in_range("threads", threads, 1, MAX_THREADS)?;
        self.end_search();
        self.options.threads = threads;
        Ok(())
    }

    /// Resizes the transposition table (1..=`MAX_HASH_MIB` MiB); it starts empty. The new table
    /// is allocated while the old one is still held: a size the machine cannot give is an
    /// [`EngineError::Memory`] and leaves the old table, its contents and a running search as
    /// they were.
    pub fn set_hash_mib(&mut self, mib: usize) -> Result<(), EngineError> {
        in_range("hash", mib, 1, MAX_HASH_MIB)?;
        if mib == self.options.hash_mib {
            self.end_search();
            return Ok(());
        }
        let tt = Tt::try_new(mib).map_err(EngineError::Memory)?;
        self.end_search();
        self.tt = Arc::new(tt);
        self.options.hash_mib = mib;
        Ok(())
    }

    /// The option names [`Engine::set_option`] takes besides the search parameters of
    /// [`Params::NAMES`] and the time tunables of [`TimeParams::NAMES`] (`_` may stand for `-`).
    pub const OPTIONS: &'static [&'static str] = &[
        "variant",
        "draw-rules",
        "threads",
        "hash",
        "hash-mib",
        "tt-size",
        "tt-size-mib",
        "move-overhead",
        "egdb-path",
        "builtin-tables",
        "book",
        "book-file",
        "book-ply",
        "book-margin",
        "book-seed",
        "weights",
    ];

    /// Sets an option by name, as the Hub `set-param` gives it: `variant`, `draw-rules`,
    /// `threads`, `hash` (MiB, also `hash-mib`, `tt-size`, `tt-size-mib`), `move-overhead`
    /// (milliseconds kept back from every time budget for the client's lag), `egdb-path` (the
    /// endgame tables' directory, `none` for none: see [`Engine::set_egdb`]), or any search
    /// parameter of [`Params::NAMES`], a time tunable of [`TimeParams::NAMES`] (`time-adapt`...),
    /// or a book option of [`BookOptions::NAMES`] (`book-file`: see [`Engine::set_book_file`];
    /// `book-seed` restarts the choices from the seed), or `weights` (a pattern-weight file, or
    /// `default`: see [`Engine::set_weights`]).
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        let bad = |reason: String| EngineError::BadOption {
            name: name.to_string(),
            reason,
        };
        match option_name(name).as_str() {
            "variant" => return self.set_variant(value.parse().map_err(|e| bad(format!("{e}")))?),
            "draw-rules" => return self.set_draw_rules(value.parse().map_err(bad)?),
            _ => {}
        }
        // Read into a copy; then apply what needs more than the value (a table, a file, a seed).
        let mut next = self.options.clone();
        let key = next.set(name, value).map_err(|e| bad(e.to_string()))?;
        match key.as_str() {
            "threads" => self.set_threads(next.threads),
            "hash" => self.set_hash_mib(next.hash_mib),
            "egdb-path" => self.set_egdb(next.egdb).map(|_| ()),
            "builtin-tables" => {
                self.halt();
                self.options.builtin_tables = next.builtin_tables;
                self.reopen_tables();
                Ok(())
            }
            "book-file" => self.set_book_file(next.book.file),
            "weights" => self.set_weights(next.weights),
            "book-seed" => {
                let seed = next.book.seed.unwrap_or(self.book_seed);
                self.book_rng = Rng::new(seed);
                self.book_seed = seed;
                self.options.book = next.book;
                Ok(())
            }
            k if BookOptions::NAMES.contains(&k) => {
                self.options.book = next.book;
                Ok(())
            }
            // Search and time tunables (move-overhead included): the next search's.
            _ => {
                self.end_search();
                self.options = next;
                Ok(())
            }
        }
    }

    /// Forgets everything learnt in the previous game (clears the table).
    pub fn new_game(&mut self) {
        self.halt();
        self.tt.clear();
    }

    /// Sets the position: a FEN (`None`: the start position) and the moves played from it (any
    /// accepted form: Hub, PDN short or long). The moves are the game history used for
    /// repetition. On error the position is unchanged. Refused while a search runs; the threads
    /// of one that has answered are not waited for (they search their own copy of the position):
    /// the next [`Engine::go`] joins them, on its clock.
    pub fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), EngineError> {
        if self.is_searching() {
            return Err(EngineError::Busy);
        }
        self.session.set_position(fen, moves)?;
        self.setup = (
            fen.map(str::to_string),
            moves.iter().map(|m| m.to_string()).collect(),
        );
        Ok(())
    }

    /// The current position as a FEN.
    pub fn fen(&self) -> String {
        self.session.fen()
    }

    /// The legal moves of the current position.
    pub fn legal_moves(&self) -> Vec<MoveText> {
        self.session.legal_moves()
    }

    /// Whether the side to move has a legal move: [`Engine::legal_moves`] is not empty, found
    /// without writing the moves out.
    pub fn has_legal_move(&self) -> bool {
        self.session.has_legal_move()
    }

    /// Starts a search of the current position on a background thread. Events go to `sink`;
    /// exactly one `Done` ends it. Its clock starts now, before the threads of the previous
    /// search (which may still be ending after its `Done`) are joined: that wait is part of this
    /// move's time, for its budget and its deadline alike.
    ///
    /// With the book on, a move to play (not `analyze`, `ponder` or `infinite`) in a book
    /// position is answered from the book at once, on this thread, before this returns: an
    /// [`Info`] marked `book`, then `Done`; no search starts, no thread is joined.
    pub fn go(&mut self, limits: Limits, sink: EventSink) -> Result<(), EngineError> {
        if self.is_searching() {
            return Err(EngineError::Busy);
        }
        if let Some((info, done)) = self.book_answer(&limits) {
            sink(Event::Info(info));
            sink(Event::Done(done));
            return Ok(());
        }
        // The clock's start (see `Control::started`).
        let control = Arc::new(Control::new(limits.ponder));
        let start = control.started();
        self.wait();
        let options = SearchOptions {
            threads: self.options.threads,
            params: self.options.params.clone(),
            time: self.options.time.clone(),
        };
        let outbox = Arc::new(Outbox::new(sink, start));
        let out = outbox.clone();
        let sink: EventSink = Arc::new(move |e: Event| out.send(e));
        let search = self.session.searcher();
        let (tt, signals, given) = (self.tt.clone(), control.clone(), limits.clone());
        let handle = std::thread::spawn(move || search(&given, &options, &tt, &signals, &*sink));
        let running = Running {
            control,
            handle,
            outbox,
            limits,
        };
        if !running.limits.ponder {
            self.arm_deadline(&running, start);
        }
        self.running = Some(running);
        Ok(())
    }

    /// Searches the current position on the calling thread until its limits end it (there is
    /// nobody to stop it: give it some), with the events of [`Engine::go`] sent to `sink` before
    /// this returns. For batches of short searches: no thread to start, hand over to or join,
    /// each of which costs a wait for a core on a loaded machine.
    pub fn search_here(&mut self, limits: Limits, sink: EventSink) -> Result<(), EngineError> {
        if self.is_searching() {
            return Err(EngineError::Busy);
        }
        let control = Control::new(false);
        self.wait();
        let options = SearchOptions {
            threads: self.options.threads,
            params: self.options.params.clone(),
            time: self.options.time.clone(),
        };
        let outbox = Outbox::new(sink, control.started());
        let search = self.session.searcher();
        search(&limits, &options, &self.tt, &control, &|e| outbox.send(e));
        Ok(())
    }

    /// Has the watchdog answer a timed search at its hard budget counted from `start` (see
    /// `outbox`): the search's main thread stops there too, but may get a core later.
    fn arm_deadline(&mut self, r: &Running, start: Instant) {
        if let Some(hard) = TimeManager::new(&r.limits, start, &self.options.time).hard() {
            self.watchdog
                .arm(start + hard, r.control.clone(), r.outbox.clone());
        }
    }

    /// Stops the running search (if any). Its `Done` is decided at once and sent on this thread,
    /// after any event of the search being written at that moment, with the move of the search's
    /// last report (a completed iteration, or an unfinished one that found a better move: what
    /// the search itself would answer); only before its first report does the search send `Done`
    /// itself, within a fraction of a millisecond of running. Either way the answer does not wait
    /// for the search threads to be scheduled, which on a loaded machine can take tens of
    /// milliseconds. Does not wait for them to end: see [`Engine::wait`].
    pub fn stop(&self) {
        if let Some(r) = &self.running {
            r.control.stop();
            r.outbox.answer_now();
        }
    }

    /// The expected move was played: a ponder search becomes a timed search from now on (its
    /// deadline armed from now).
    pub fn ponder_hit(&mut self) {
        if let Some(r) = self.running.take() {
            let now = Instant::now();
            r.control.ponder_hit();
            if r.limits.ponder {
                self.arm_deadline(&r, now);
            }
            self.running = Some(r);
        }
    }

    /// Whether a search is running: its `Done` has not been decided yet. Once it has, the next
    /// search may start; the `Done` may still be on its way to the sink ([`Engine::answer_sent`]).
    pub fn is_searching(&self) -> bool {
        self.running.as_ref().is_some_and(|r| !r.outbox.finished())
    }

    /// Whether the last search's `Done` has gone through its sink (true when there was none): a
    /// protocol that writes lines of its own waits for it, so that they follow the `done` line.
    pub fn answer_sent(&self) -> bool {
        self.running.as_ref().is_none_or(|r| r.outbox.sent())
    }

    /// Whether the thread of the last search has ended (or there was none); its `Done` may have
    /// gone out well before.
    pub fn search_thread_ended(&self) -> bool {
        self.running.as_ref().is_none_or(|r| r.handle.is_finished())
    }

    /// Waits for the running search, if any, to end.
    pub fn wait(&mut self) {
        if let Some(r) = self.running.take() {
            let _ = r.handle.join();
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.halt();
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crossbeam_channel::unbounded;

    /// An opener that finds one large file, which its background check finds damaged.
    pub(crate) fn damaged_late(
        dir: &Path,
        _: Variant,
    ) -> crate::egdb::Opened<crate::morris::MorrisPosition> {
        let path = dir.join("big.tbl");
        crate::egdb::Opened {
            check: Some(Box::new(move || {
                vec![EgdbError::Checksum {
                    path,
                    part: "payload",
                }]
            })),
            ..crate::egdb::Opened::none()
        }
    }

    /// An engine playing with [`damaged_late`]'s tables, checked in the background.
    pub(crate) fn engine_with_damaged_late() -> Engine {
        let mut e = Engine::new(
            GameKind::new(Variant::Morris),
            EngineOptions {
                hash_mib: 1,
                egdb: EgdbSetting::Off,
                egdb_check: TableCheck::Background,
                ..EngineOptions::default()
            },
        )
        .unwrap();
        e.set_session(Box::new(
            GameSession::<crate::morris::MorrisPosition>::with_opener(damaged_late, None),
        ));
        e
    }

    /// A directory of its own for each caller (the process keeps what it opened by directory).
    pub(crate) fn fresh_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("tiao-late-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn time_tunables_are_options() {
        let mut e = Engine::new(
            GameKind::new(Variant::International),
            EngineOptions::default(),
        )
        .unwrap();
        assert!(e.options.time.adapt);
        e.set_option("time-adapt", "off").unwrap();
        e.set_option("TIME_STABLE", "0.8").unwrap();
        assert!(!e.options.time.adapt);
        assert_eq!(e.options.time.stable_scale, 0.8);
        let before = e.options.time.clone();
        assert!(e.set_option("time-stable", "lots").is_err());
        assert!(e.set_option("time-adapt", "2").is_err());
        assert_eq!(e.options.time, before);
    }

    #[test]
    fn the_weights_value_is_a_path_list_read_back_as_written() {
        for v in ["", "default", " Embedded ", "none"] {
            assert!(weight_files(v).is_empty(), "{v}");
        }
        assert_eq!(weights_value(&[]), "default");
        let one = vec![PathBuf::from("no/such/fit.tpw")];
        assert_eq!(weight_files("no/such/fit.tpw"), one);
        let two = vec![PathBuf::from("a/ru.tpw"), PathBuf::from("b/intl.tpw")];
        let value = weights_value(&two);
        assert_eq!(weight_files(&value), two);
        // An empty entry of a list (`a::b`, a trailing separator) is no file.
        let sep = if cfg!(windows) { ';' } else { ':' };
        assert_eq!(
            weight_files(&format!("a/ru.tpw{sep}{sep}b/intl.tpw{sep}")),
            two
        );
        // A file whose whole name holds the separator is one file, not a list.
        let dir = fresh_dir("weights-value");
        let odd = dir.join(format!("fit{sep}1.tpw"));
        std::fs::write(&odd, b"x").unwrap();
        assert_eq!(weight_files(odd.to_str().unwrap()), vec![odd.clone()]);
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn a_file_found_damaged_in_the_background_is_reported_once_per_opening() {
        let dir = fresh_dir("engine");
        let mut e = engine_with_damaged_late();
        let opened = e.set_egdb(EgdbSetting::Dir(dir.clone())).unwrap();
        assert!(opened.problems.is_empty(), "{opened:?}");
        // The check's thread reports when it is done; wait for it.
        let late = loop {
            let late = e.late_table_problems();
            if !late.is_empty() {
                break late;
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        assert!(
            matches!(&late[..], [EgdbError::Checksum { path, .. }] if path.ends_with("big.tbl")),
            "{late:?}"
        );
        assert!(e.late_table_problems().is_empty(), "reported once");
        assert_eq!(
            e.tables().problems,
            late,
            "and kept with the other problems"
        );
        // Opened again (the process's copy: no new check), it is reported again.
        assert!(
            e.set_egdb(EgdbSetting::Dir(dir.clone()))
                .unwrap()
                .problems
                .is_empty()
        );
        assert_eq!(e.late_table_problems(), late);
        // An engine that wants its tables checked at open has them among the refused files.
        let mut at_open = engine_with_damaged_late();
        at_open.options.egdb_check = TableCheck::AtOpen;
        let opened = at_open.set_egdb(EgdbSetting::Dir(dir.clone())).unwrap();
        assert_eq!(opened.problems, late);
        assert!(at_open.late_table_problems().is_empty());
        // No tables: nothing to report.
        e.set_egdb(EgdbSetting::Off).unwrap();
        assert!(e.late_table_problems().is_empty() && e.tables().problems.is_empty());
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn the_wait_for_the_last_search_s_threads_is_charged_to_the_next_move() {
        let mut e = Engine::new(
            GameKind::default(),
            EngineOptions {
                hash_mib: 1,
                ..EngineOptions::default()
            },
        )
        .unwrap();
        // A search that has answered but whose threads take 300 ms more to end (a helper thread
        // that gets a core late on a loaded machine).
        let wait = Duration::from_millis(300);
        let outbox = Arc::new(Outbox::new(Arc::new(|_| {}), Instant::now()));
        outbox.send(Event::Done(Done {
            best: None,
            ponder: None,
            score: Score(0),
            depth: 0,
            nodes: 0,
            time: Duration::ZERO,
        }));
        e.running = Some(Running {
            control: Arc::new(Control::new(false)),
            handle: std::thread::spawn(move || std::thread::sleep(wait)),
            outbox,
            limits: Limits::default(),
        });
        // A client's set-param and pos between the searches do not join them (draughtsnet sends
        // its parameters before every search).
        e.set_option("move-overhead", "20").unwrap();
        e.set_option("threads", "1").unwrap();
        e.set_position(None, &["32-28"]).unwrap();
        // The next move has 100 ms: the join takes them all, so its budget is spent before it
        // searches, and it answers with the first iteration (never cut) in the time it was given
        // and the join's.
        let (tx, rx) = unbounded();
        let sink: EventSink = Arc::new(move |ev| {
            let _ = tx.send(ev);
        });
        e.go(Limits::move_time(Duration::from_millis(100)), sink)
            .unwrap();
        let done = loop {
            match rx.recv_timeout(Duration::from_secs(30)).expect("a Done") {
                Event::Done(d) => break d,
                Event::Info(_) => {}
            }
        };
        assert_eq!(done.depth, 1, "{done:?}");
        assert!(done.time >= wait, "{done:?}");
    }
}
