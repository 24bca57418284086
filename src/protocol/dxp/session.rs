//! One DXP connection: the game state machine of either role, driving the engine.
//!
//! Two threads feed one channel: the reader thread turns the socket into frames (stamped with
//! their arrival time, which starts our clock), and the engine's search thread sends its `Done`.
//! The session handles one input at a time, so it never blocks on the engine: a GAMEEND, a
//! BACKREQ or a disconnection while the engine thinks stops the search at once.
//!
//! States: `Idle` (between games) → `AwaitingAcc` (initiator: GAMEREQ sent) → `Playing` →
//! `Ending` (we sent GAMEEND, waiting for the peer's) → `Idle`. The initiator sends the next
//! GAMEREQ from `Idle` until its games are played; the follower waits there for one.
//!
//! Rules of play:
//! - at our turn the game is checked first: no legal move → GAMEEND `1` (I give up); a draw by
//!   the rules → GAMEEND `2`; the GAMEREQ's move limit → a short search adjudicates (±3 men:
//!   GAMEEND `3` or `1`, else `2`); otherwise the engine searches and we send its MOVE;
//! - when the rules have ended the game at the peer's turn we wait for its GAMEEND; a MOVE it
//!   sends after a draw is logged with a warning and answered with GAMEEND `2` (derived from the
//!   game each time, never kept as state);
//! - a received GAMEEND is always answered with a GAMEEND (our reason and our stop code), at any
//!   moment of a game; the result is the rules' verdict when the rules have ended the game, or
//!   else the reason the sender gave (`0` leaves it unknown);
//! - take-backs are accepted (BACKACC `0`) for any position of the current game: the moves after
//!   it are undone, and if we are then to move, we think and move; the clocks are not given back.
//!   A BACKREQ outside a game, or naming a position that is not in it, is answered `2` (continue);
//! - CHAT is logged; a stray BACKACC or a GAMEEND between games is logged and ignored;
//! - two frames of ours with none of the peer's between them are at least [`FRAME_GAP`] apart
//!   (a client that reads one frame a receive call would drop the second).
//!
//! Deadlines (the session waits with `recv_deadline`, never without one while the peer owes a
//! message): at the peer's turn in a game, its clock (the GAMEREQ's minutes, measured by us) plus
//! a grace ([`PEER_GRACE_SHARE`], at least [`PEER_GRACE_MIN`]): past it the peer loses on time
//! (CHAT, GAMEEND `3` with stop code `1`, the game recorded as won) and the connection ends; when
//! no game waits for the peer's move, [`Config::idle_timeout`] since the last message, its or
//! ours, that moved a game on: the connection is closed. While we think, none. A frame that
//! arrived after the deadline is not handled, so a peer that never stops sending meets it too.
//!
//! What moves a game on is decided by the handler of each message, by what the message did, not
//! by its type: a GAMEREQ accepted (or one that abandons the game in progress), a GAMEACC to our
//! GAMEREQ, a legal MOVE, a GAMEEND inside a game. Only such a message resets the idle timeout and
//! has its `recv` line written in full; everything else the peer sends (a refused GAMEREQ, a
//! GAMEEND between games, CHAT, BACKREQ, BACKACC, empty frames) and our replies to it (the refusing
//! GAMEACC, BACKACC) go through the log's rate limit, so a peer can neither hold the follower by
//! repeating them nor flood the log.
//!
//! Faults: a frame that is not a message, a message that does not read, an illegal move, or a
//! message the state does not allow (a MOVE out of turn, or one that arrived before our MOVE was
//! sent, a GAMEREQ from the follower, ...) logs an `error:` line, tells the peer in a CHAT,
//! records the game in progress as lost by the peer, and ends the connection. A disconnection in
//! the middle of a game records it as lost by the peer too. Nothing the peer sends can panic the
//! session.

use super::clock::{Caps, Clock};
use super::framing::{FrameError, FrameReader, Incoming, encode};
use super::game::{Game, Outcome, Record, Setup, Status};
use super::log::{Log, RateLimit};
use super::message::{
    AcceptCode, BackCode, BackReq, Board, DxpMove, DxpPosition, EndReason, GameAcc, GameEnd,
    GameReq, MAX_CHAT, Message, StartPosition, VERSION,
};
use super::pdn;
use crate::engine::{Done, Engine, Event, EventSink};
use crate::game::Game as _;
use crate::game::color::Color;
use crate::track::{GameTrack, RuleEnd};
use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, unbounded};
use std::io::Write;
use std::net::{Shutdown, TcpStream};
use std::path::PathBuf;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A score (centi-men, side to move) at which a game stopped by the move limit counts as won.
pub const ADJUDICATION_MARGIN: i32 = 300;
/// Longest search for that adjudication.
pub const ADJUDICATION_TIME: Duration = Duration::from_secs(1);

/// Longest a write to the peer may block.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(30);

/// The default [`Config::idle_timeout`].
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(60);

/// Time over its clock a peer may take before it loses on time: this share of its clock, and at
/// least [`PEER_GRACE_MIN`] (our measure of its time includes the network both ways).
pub const PEER_GRACE_SHARE: f64 = 0.05;
/// See [`PEER_GRACE_SHARE`].
pub const PEER_GRACE_MIN: Duration = Duration::from_secs(1);

/// Shortest time between two frames of ours with no frame of the peer's handled between them (a
/// BACKACC or a GAMEACC and then a forced MOVE, found in a few milliseconds; a CHAT and then a
/// GAMEEND; a peer flooding us with requests answered at once waits no gap).
/// pydraughts 0.6.7, the DXP client of lidraughts-bot, reads a chunk up to the first NUL and
/// drops whatever came after it, so two frames that reach it in one read lose the second: its
/// side then waits for a move that was sent and loses on time. The gap lets a reader that waits
/// in its receive call take the first frame alone; it cannot help one that is not reading (no
/// sender can), and it costs nothing when the peer answers between our frames, as in play.
pub const FRAME_GAP: Duration = Duration::from_millis(50);

/// Settings shared by both roles.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// Our name in GAMEREQ / GAMEACC and in the PDN.
    pub name: String,
    /// Extra per-move limits.
    pub caps: Caps,
    /// Our clock for every game instead of the GAMEREQ's minutes (tests).
    pub clock: Option<Duration>,
    /// The peer's clock for every game instead of the GAMEREQ's minutes (tests).
    pub peer_clock: Option<Duration>,
    /// A connection on which the peer sends no game message for this long, while no game waits
    /// for its move, is closed.
    pub idle_timeout: Duration,
    /// Append each finished game to this PDN file.
    pub pdn: Option<PathBuf>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            name: format!("tiao {}", env!("CARGO_PKG_VERSION")),
            caps: Caps::default(),
            clock: None,
            peer_clock: None,
            idle_timeout: IDLE_TIMEOUT,
            pdn: None,
        }
    }
}

/// The initiator's colour in each game: always White, always Black, or `Alternate` (White in odd
/// games, Black in even ones). Also the values of `tiao dxp --color`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    // (No doc comments on the variants: clap would show them as help of the values.)
    White,
    Black,
    Alternate,
}

impl ColorChoice {
    /// Our colour in game `number` (1-based).
    pub fn ours(self, number: u32) -> Color {
        match self {
            ColorChoice::White => Color::White,
            ColorChoice::Black => Color::Black,
            ColorChoice::Alternate if number % 2 == 1 => Color::White,
            ColorChoice::Alternate => Color::Black,
        }
    }
}

/// What the initiator asks for.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// Games to play.
    pub games: u32,
    /// Thinking time per player, minutes.
    pub minutes: u16,
    /// Moves of each game (0: no limit).
    pub moves: u16,
    pub color: ColorChoice,
    /// Start position (GAMEREQ `B`); `None`: the initial position (`A`).
    pub start: Option<Board>,
}

/// The role of this side of the connection.
#[derive(Clone, Debug, PartialEq)]
pub enum Role {
    /// Answers GAMEREQs; `games_left`: how many more games it will play (`None`: no limit).
    Follower { games_left: Option<u32> },
    /// Sends GAMEREQs.
    Initiator(Plan),
}

/// How a connection ended.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// The games finished on it.
    pub records: Vec<Record>,
    /// Why it ended, in words.
    pub end: String,
    /// Whether the peer broke the protocol or the connection.
    pub fault: bool,
    /// The peer's name, once known.
    pub peer: String,
}

/// What the session reacts to.
enum Input {
    /// A frame's text and when it arrived.
    Frame { text: String, at: Instant },
    /// A frame that is not a message, and when it arrived.
    Bad { error: FrameError, at: Instant },
    /// The connection is gone.
    Closed(String),
    /// A search ended.
    Done { id: u64, done: Box<Done> },
}

impl Input {
    /// When a frame from the peer arrived (`None`: not from the peer).
    fn arrival(&self) -> Option<Instant> {
        match self {
            Input::Frame { at, .. } | Input::Bad { at, .. } => Some(*at),
            Input::Closed(_) | Input::Done { .. } => None,
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Purpose {
    /// Find our move.
    Move,
    /// Score the position at the move limit.
    Adjudicate,
}

/// A game being played.
struct Live {
    game: Game,
    /// Our clock.
    clock: Clock,
    /// The peer's time as we measure it (its MOVE's arrival minus our MOVE's departure).
    peer_used: Duration,
    /// The peer's time for the whole game (the GAMEREQ's, like ours).
    peer_total: Duration,
    /// When the side to move started thinking.
    turn_started: Instant,
    /// The running search: its id and purpose.
    search: Option<(u64, Purpose)>,
}

enum State {
    Idle,
    AwaitingAcc(Box<Setup>),
    Playing(Box<Live>),
    /// We sent GAMEEND with this result and stop code; waiting for the peer's.
    Ending(Box<Live>, Outcome, String, bool),
}

/// One connection in one role.
pub struct Session<'a> {
    role: Role,
    cfg: &'a Config,
    engine: &'a mut Engine,
    log: &'a Log,
    conn: u64,
    stream: TcpStream,
    rx: Receiver<Input>,
    tx: Sender<Input>,
    reader: Option<JoinHandle<()>>,
    state: State,
    peer: String,
    next_number: u32,
    next_search: u64,
    records: Vec<Record>,
    on_record: &'a mut dyn FnMut(&Record),
    /// Set when the connection must end, with the reason.
    end: Option<String>,
    fault: bool,
    write_failed: Option<String>,
    /// The message being handled, and when the peer last moved a game on.
    activity: Activity,
    /// The lines the peer can make us write as often as it likes.
    noise: RateLimit,
    /// When we last sent a frame, if no frame of the peer's has been handled since (see
    /// [`FRAME_GAP`]).
    unanswered: Option<Instant>,
}

/// What a wait for the peer ends with when nothing comes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Expiry {
    /// The peer is to move and has used its clock and the grace.
    PeerClock,
    /// No game message for the idle timeout.
    Idle,
}

fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
}

impl<'a> Session<'a> {
    /// A session on a connected stream. `conn` numbers the connection in logs; games are
    /// numbered from `first_game`; `on_record` is called as each game finishes.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        stream: TcpStream,
        conn: u64,
        role: Role,
        cfg: &'a Config,
        engine: &'a mut Engine,
        log: &'a Log,
        first_game: u32,
        on_record: &'a mut dyn FnMut(&Record),
    ) -> std::io::Result<Session<'a>> {
        let _ = stream.set_nodelay(true);
        // A peer that stops reading must not block us forever.
        let _ = stream.set_write_timeout(Some(WRITE_TIMEOUT));
        let (tx, rx) = unbounded();
        let reader = spawn_reader(stream.try_clone()?, tx.clone());
        Ok(Session {
            role,
            cfg,
            engine,
            log,
            conn,
            stream,
            rx,
            tx,
            reader: Some(reader),
            state: State::Idle,
            peer: String::from("peer"),
            next_number: first_game,
            next_search: 0,
            records: Vec::new(),
            on_record,
            end: None,
            fault: false,
            write_failed: None,
            activity: Activity {
                line: None,
                last: Instant::now(),
            },
            noise: RateLimit::default(),
            unanswered: None,
        })
    }

    /// Runs the connection to its end.
    pub fn run(mut self) -> Summary {
        if matches!(self.role, Role::Initiator(_)) {
            self.request_game();
        }
        while self.end.is_none() {
            let input = match self.deadline() {
                None => self.rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
                Some((at, _)) => self.rx.recv_deadline(at),
            };
            let input = match input {
                Ok(input) => input,
                Err(RecvTimeoutError::Timeout) => {
                    if let Some((_, expiry)) = self.deadline() {
                        self.expire(expiry);
                    }
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => {
                    self.finish("input channel closed");
                    break;
                }
            };
            // A peer that never stops sending is held to its deadline too: what arrived after it
            // is not handled (what arrived before it is, however late we read it).
            if let (Some(arrived), Some((at, expiry))) = (input.arrival(), self.deadline())
                && arrived >= at
            {
                self.expire(expiry);
                continue;
            }
            match input {
                Input::Frame { text, at } => self.on_frame(&text, at),
                Input::Bad {
                    error: FrameError::Empty,
                    ..
                } => self.noise("warning: empty message (a lone NUL) ignored"),
                Input::Bad { error, .. } => self.fault(&format!("peer sent garbage: {error}")),
                Input::Closed(why) => self.on_closed(&why),
                Input::Done { id, done } => self.on_done(id, *done),
            }
            if let Some(e) = self.write_failed.take()
                && self.end.is_none()
            {
                self.on_closed(&format!("cannot send to the peer: {e}"));
            }
        }
        self.engine.stop();
        self.engine.wait();
        let _ = self.stream.shutdown(Shutdown::Both);
        if let Some(r) = self.reader.take() {
            let _ = r.join();
        }
        let end = self.end.take().unwrap_or_default();
        if let Some(note) = self.noise.flush() {
            self.log(&note);
        }
        self.log(&format!("connection {} closed: {end}", self.conn));
        Summary {
            records: std::mem::take(&mut self.records),
            end,
            fault: self.fault,
            peer: self.peer.clone(),
        }
    }

    fn log(&self, text: &str) {
        self.log.line(text);
    }

    /// A line the peer can make us write as often as it likes: rate-limited (see `log`).
    fn noise(&mut self, text: &str) {
        if let Some(line) = self.noise.admit(text) {
            self.log.line(&line);
        }
    }

    /// When the wait for the peer ends if nothing comes, and why: in a game at the peer's turn,
    /// at its clock plus the grace; when no game waits for its move (between games, a GAMEREQ
    /// or a GAMEEND unanswered), after the idle timeout. While we think, never.
    fn deadline(&self) -> Option<(Instant, Expiry)> {
        match &self.state {
            State::Playing(live) if live.game.our_turn() => None,
            State::Playing(live) => {
                let grace = live
                    .peer_total
                    .mul_f64(PEER_GRACE_SHARE)
                    .max(PEER_GRACE_MIN);
                let left = live.peer_total.saturating_sub(live.peer_used);
                Some((live.turn_started + left + grace, Expiry::PeerClock))
            }
            _ => Some((self.activity.last + self.cfg.idle_timeout, Expiry::Idle)),
        }
    }

    /// The peer let a deadline pass: it loses the game on time, or the connection is closed.
    fn expire(&mut self, expiry: Expiry) {
        match expiry {
            Expiry::PeerClock => {
                let State::Playing(mut live) = std::mem::replace(&mut self.state, State::Idle)
                else {
                    return;
                };
                self.halt(&mut live);
                let used = live.peer_used + live.turn_started.elapsed();
                let why = format!(
                    "{} lost on time: {:.1} s used of its {:.1} s",
                    self.peer,
                    secs(used),
                    secs(live.peer_total)
                );
                self.log(&format!("game {}: {why}", live.game.setup().number));
                let chat = format!("tiao: your time is up ({why}); closing");
                self.send(&Message::Chat(chat.chars().take(MAX_CHAT).collect()));
                self.send(&Message::GameEnd(GameEnd {
                    reason: EndReason::Win,
                    stop: true,
                }));
                let ours = live.game.setup().ours;
                self.finish_game(&live, Outcome::Win(ours), &why);
                self.finish(&why);
            }
            Expiry::Idle => {
                let why = format!(
                    "nothing from the peer for {:.0} s",
                    secs(self.cfg.idle_timeout)
                );
                self.log(&format!("warning: {why}: closing"));
                let chat = format!("tiao: {why}; closing");
                self.send(&Message::Chat(chat.chars().take(MAX_CHAT).collect()));
                self.abort_game(&why);
                self.finish(&why);
            }
        }
    }

    fn finish(&mut self, why: &str) {
        if self.end.is_none() {
            self.end = Some(why.to_string());
        }
    }

    fn send(&mut self, msg: &Message) {
        pace(self.unanswered);
        let text = msg.to_wire();
        let line = format!("send {} {text:?}", msg.name());
        if moves_a_game_on(msg) {
            self.log(&line);
            // The peer owes an answer from now (our GAMEEND, our GAMEREQ): the idle timeout
            // counts from here, not from the peer's last move before a long think of ours.
            self.activity.last = Instant::now();
        } else {
            self.noise(&line);
        }
        if let Err(e) = self.stream.write_all(&encode(&text)) {
            self.write_failed.get_or_insert_with(|| e.to_string());
        }
        self.unanswered = Some(Instant::now());
    }

    fn is_initiator(&self) -> bool {
        matches!(self.role, Role::Initiator(_))
    }

    /// Whether we want no game after the one now ending.
    fn stop_after_this_game(&self) -> bool {
        match &self.role {
            Role::Follower { games_left } => games_left.is_some_and(|n| n <= 1),
            Role::Initiator(plan) => self.next_number > plan.games,
        }
    }

    fn our_clock(&self, minutes: u16) -> Clock {
        self.cfg
            .clock
            .map(Clock::new)
            .unwrap_or_else(|| Clock::from_minutes(minutes))
    }

    fn on_frame(&mut self, text: &str, at: Instant) {
        // A frame of the peer's between two of ours: no gap. Handled, not arrived, since our
        // last: a peer flooding us with requests answered at once (BACKREQ) must not make us
        // wait a gap for every answer.
        self.unanswered = None;
        let msg = match Message::parse(text) {
            Ok(m) => m,
            Err(e) => {
                self.noise(&format!("recv unreadable {text:?}"));
                self.fault(&format!("peer sent a bad message: {e}"));
                return;
            }
        };
        // Written by the handler once it knows what the message did (see `Activity`).
        self.activity.line = Some(format!("recv {} {text:?}", msg.name()));
        match msg {
            Message::GameReq(r) => self.on_gamereq(r, at),
            Message::GameAcc(a) => self.on_gameacc(a, at),
            Message::Move(m) => self.on_move(m, at),
            Message::GameEnd(e) => self.on_gameend(e, at),
            Message::Chat(t) => {
                self.ignored();
                let line = format!("chat from {}: {t}", self.peer);
                self.noise(&line)
            }
            Message::BackReq(b) => self.on_backreq(b, at),
            Message::BackAcc(_) => {
                self.ignored();
                self.noise("warning: BACKACC ignored (tiao never sends BACKREQ)");
            }
        }
        // A handler that did not say: the message moved nothing on.
        self.ignored();
    }

    /// The message being handled moved a game on: its line is written in full, and the peer
    /// counts as active (the idle timeout starts again).
    fn moved_on(&mut self) {
        self.activity.moved_on(self.log);
    }

    /// The message being handled moved nothing on: its line goes through the rate limit, and the
    /// idle timeout keeps running.
    fn ignored(&mut self) {
        self.activity.ignored(self.log, &mut self.noise);
    }

    /// The peer broke the protocol: the game in progress is lost by the peer; the connection
    /// ends.
    fn fault(&mut self, why: &str) {
        // The message that broke the protocol is written in full: it ends the connection.
        if let Some(line) = self.activity.line.take() {
            self.log(&line);
        }
        self.log(&format!("error: {why}"));
        self.fault = true;
        let chat = format!("tiao: protocol error, closing: {why}");
        self.send(&Message::Chat(chat.chars().take(MAX_CHAT).collect()));
        self.write_failed = None;
        self.abort_game(&format!("protocol error: {why}"));
        self.finish(&format!("protocol error: {why}"));
    }

    /// The connection is gone.
    fn on_closed(&mut self, why: &str) {
        if matches!(self.state, State::Playing(_)) {
            self.log(&format!("error: {why} in the middle of a game"));
            self.fault = true;
        } else if matches!(self.state, State::Ending(..)) {
            self.log(&format!(
                "warning: {why} before confirming the end of the game"
            ));
        } else {
            self.log(why);
        }
        self.abort_game(why);
        self.finish(why);
    }

    /// Ends the game in progress, if any, because of the peer: lost by the peer when it was
    /// being played, the announced result when we had already ended it.
    fn abort_game(&mut self, why: &str) {
        match std::mem::replace(&mut self.state, State::Idle) {
            State::Playing(mut live) => {
                self.halt(&mut live);
                let ours = live.game.setup().ours;
                let text = format!("lost by {} ({why})", self.peer);
                self.finish_game(&live, Outcome::Win(ours), &text);
            }
            State::Ending(live, outcome, text, _) => {
                let text = format!("{text}; the peer did not confirm the end ({why})");
                self.finish_game(&live, outcome, &text);
            }
            State::AwaitingAcc(_) | State::Idle => {}
        }
    }

    /// Stops our search, charging its time to our clock.
    fn halt(&mut self, live: &mut Live) {
        if live.search.take().is_some() {
            self.engine.stop();
            self.engine.wait();
            live.clock.used += live.turn_started.elapsed();
        }
    }

    fn finish_game(&mut self, live: &Live, outcome: Outcome, termination: &str) {
        let r = live.game.record(outcome, termination);
        self.log(&format!(
            "game {} over: {} ({}), {} (white) - {} (black): {termination}; tiao used {:.3} s of {:.3} s{}",
            r.number,
            outcome.pdn(),
            match r.our_points() {
                Some(2) => "tiao won",
                Some(1) => "draw",
                Some(_) => "tiao lost",
                None => "result unknown",
            },
            r.white,
            r.black,
            secs(live.clock.used),
            secs(live.clock.total),
            if live.clock.overrun() {
                " (CLOCK OVERRUN)"
            } else {
                ""
            }
        ));
        if let Some(path) = &self.cfg.pdn
            && let Err(e) = pdn::append(path, &r, "tiao DXP")
        {
            self.log(&format!(
                "error: cannot write the PDN file {}: {e}",
                path.display()
            ));
        }
        if let Role::Follower {
            games_left: Some(n),
        } = &mut self.role
        {
            *n = n.saturating_sub(1);
        }
        (self.on_record)(&r);
        self.records.push(r);
    }

    // ---- Starting games ----

    /// Initiator: asks for the next game, or ends the connection when all are played.
    fn request_game(&mut self) {
        let Role::Initiator(plan) = &self.role else {
            return;
        };
        let number = self.next_number;
        if number > plan.games {
            self.finish("all games played");
            return;
        }
        let ours = plan.color.ours(number);
        let start = plan.start.unwrap_or_else(Board::start);
        let req = GameReq {
            version: VERSION,
            initiator: self.cfg.name.clone(),
            follower_color: !ours,
            minutes: plan.minutes,
            moves: plan.moves,
            start: match plan.start {
                Some(b) => StartPosition::Setup(DxpPosition::from_board(&b)),
                None => StartPosition::Initial,
            },
        };
        let setup = Setup {
            number,
            start,
            from_position: plan.start.is_some(),
            ours,
            minutes: plan.minutes,
            move_limit: plan.moves,
        };
        self.send(&Message::GameReq(req));
        self.state = State::AwaitingAcc(Box::new(setup));
    }

    /// Follower: whether to accept a GAMEREQ, and the start position.
    fn acceptance(&self, req: &GameReq) -> Result<Board, (AcceptCode, String)> {
        if req.version != VERSION {
            return Err((
                AcceptCode::WrongVersion,
                format!("protocol version {:02}, not 01", req.version),
            ));
        }
        if let Role::Follower {
            games_left: Some(0),
        } = self.role
        {
            return Err((AcceptCode::NoGames, "all games played".into()));
        }
        let board = match &req.start {
            StartPosition::Initial => Board::start(),
            StartPosition::Setup(p) => p.to_board().map_err(|e| {
                (
                    AcceptCode::NotThisGame,
                    format!("not a valid start position: {e}"),
                )
            })?,
        };
        if let Some(RuleEnd::NoMove(c)) = GameTrack::new(board).status() {
            return Err((
                AcceptCode::NotThisGame,
                format!("{c} is to move and has no legal move in the start position"),
            ));
        }
        Ok(board)
    }

    fn on_gamereq(&mut self, req: GameReq, at: Instant) {
        if self.is_initiator() {
            self.fault("GAMEREQ from the follower (only the initiator sends GAMEREQ)");
            return;
        }
        if matches!(self.state, State::Playing(_) | State::Ending(..)) {
            // The game in progress ends: that moves it on, once per game.
            self.moved_on();
            self.log("warning: a new GAMEREQ in the middle of a game: the game is abandoned");
            if let State::Playing(mut live) | State::Ending(mut live, ..) =
                std::mem::replace(&mut self.state, State::Idle)
            {
                self.halt(&mut live);
                self.finish_game(&live, Outcome::Unknown, "abandoned: a new GAMEREQ arrived");
            }
        }
        self.peer = if req.initiator.is_empty() {
            "peer".into()
        } else {
            req.initiator.clone()
        };
        let board = match self.acceptance(&req) {
            Ok(b) => b,
            Err((code, why)) => {
                self.ignored();
                self.noise(&format!("game refused ({}): {why}", code.meaning()));
                self.send(&Message::GameAcc(GameAcc {
                    follower: self.cfg.name.clone(),
                    code,
                }));
                return;
            }
        };
        self.moved_on();
        self.send(&Message::GameAcc(GameAcc {
            follower: self.cfg.name.clone(),
            code: AcceptCode::Accepted,
        }));
        let setup = Setup {
            number: self.next_number,
            start: board,
            from_position: matches!(req.start, StartPosition::Setup(_)),
            ours: req.follower_color,
            minutes: req.minutes,
            move_limit: req.moves,
        };
        self.start_game(setup, at);
    }

    fn on_gameacc(&mut self, acc: GameAcc, at: Instant) {
        if !self.is_initiator() {
            self.fault("GAMEACC from the initiator (only the follower sends GAMEACC)");
            return;
        }
        let State::AwaitingAcc(setup) = std::mem::replace(&mut self.state, State::Idle) else {
            self.fault("GAMEACC without a pending GAMEREQ");
            return;
        };
        // The answer to our GAMEREQ: a game starts, or the connection ends.
        self.moved_on();
        if !acc.follower.is_empty() {
            self.peer = acc.follower.clone();
        }
        if acc.code != AcceptCode::Accepted {
            self.log(&format!(
                "game {} {} by {}",
                setup.number,
                acc.code.meaning(),
                self.peer
            ));
            self.finish(&format!("the peer {}", acc.code.meaning()));
            return;
        }
        self.start_game(*setup, at);
    }

    fn start_game(&mut self, setup: Setup, at: Instant) {
        self.next_number = setup.number + 1;
        self.engine.new_game();
        let clock = self.our_clock(setup.minutes);
        let game = Game::new(setup, &self.cfg.name, &self.peer);
        let setup = game.setup();
        self.log(&format!(
            "game {} start: {} (white) - {} (black), {} min each{}, {} moves, start {}{}; tiao plays {}, clock {:.3} s",
            setup.number,
            game.white(),
            game.black(),
            setup.minutes,
            if setup.minutes == 0 { " (read as 30 s)" } else { "" },
            if setup.move_limit == 0 {
                "no limit on the number of".to_string()
            } else {
                setup.move_limit.to_string()
            },
            if setup.from_position { "position " } else { "" },
            setup.start.fen(),
            setup.ours,
            secs(clock.total),
        ));
        let peer_total = self
            .cfg
            .peer_clock
            .unwrap_or_else(|| Clock::from_minutes(setup.minutes).total);
        let live = Live {
            game,
            clock,
            peer_used: Duration::ZERO,
            peer_total,
            turn_started: at,
            search: None,
        };
        self.state = State::Playing(Box::new(live));
        self.next_turn();
    }

    // ---- Playing ----

    /// After a move or at the start: our turn begins, or we wait for the peer's move.
    fn next_turn(&mut self) {
        let State::Playing(live) = &mut self.state else {
            return;
        };
        let status = live.game.status();
        let number = live.game.setup().number;
        if !live.game.our_turn() {
            if status != Status::Ongoing {
                self.log(&format!(
                    "game {number}: the game is over at the peer's turn ({}); waiting for its GAMEEND",
                    describe(status)
                ));
            }
            return;
        }
        let ours = live.game.setup().ours;
        match status {
            Status::Ongoing => self.think(Purpose::Move),
            Status::MoveLimit => self.think(Purpose::Adjudicate),
            Status::NoMove(_) => {
                self.end_game(
                    EndReason::GiveUp,
                    Outcome::Win(!ours),
                    &format!("{ours} has no legal move"),
                );
            }
            Status::Draw(why) => self.end_game(EndReason::Draw, Outcome::Draw, why),
        }
    }

    fn think(&mut self, purpose: Purpose) {
        let State::Playing(live) = &mut self.state else {
            return;
        };
        let fen = live.game.setup().start.fen();
        let moves = live.game.track().hub_moves();
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        if let Err(e) = self.engine.set_position(Some(&fen), &refs) {
            let why = format!("internal error: the engine refused the game's position: {e}");
            self.log(&format!("error: {why}"));
            self.abort_unknown(&why);
            return;
        }
        let setup = live.game.setup();
        let played = live.game.moves_by(setup.ours);
        let mut limits = live.clock.limits(setup.move_limit, played, &self.cfg.caps);
        if purpose == Purpose::Adjudicate {
            limits.move_time = Some(
                limits
                    .move_time
                    .map_or(ADJUDICATION_TIME, |t| t.min(ADJUDICATION_TIME)),
            );
        }
        self.next_search += 1;
        let id = self.next_search;
        let tx = self.tx.clone();
        let sink: EventSink = Arc::new(move |e: Event| {
            if let Event::Done(done) = e {
                let _ = tx.send(Input::Done {
                    id,
                    done: Box::new(done),
                });
            }
        });
        match self.engine.go(limits, sink) {
            Ok(()) => live.search = Some((id, purpose)),
            Err(e) => {
                let why = format!("internal error: the engine cannot search: {e}");
                self.log(&format!("error: {why}"));
                self.abort_unknown(&why);
            }
        }
    }

    /// Ends the game with an unknown result and the connection, for a failure on our side.
    fn abort_unknown(&mut self, why: &str) {
        if let State::Playing(live) | State::Ending(live, ..) =
            std::mem::replace(&mut self.state, State::Idle)
        {
            self.finish_game(&live, Outcome::Unknown, why);
        }
        self.finish(why);
    }

    fn on_done(&mut self, id: u64, done: Done) {
        let State::Playing(live) = &mut self.state else {
            return;
        };
        let Some((sid, purpose)) = live.search else {
            return;
        };
        if sid != id {
            return;
        }
        live.search = None;
        let ours = live.game.setup().ours;
        let number = live.game.setup().number;
        if purpose == Purpose::Adjudicate {
            live.clock.used += live.turn_started.elapsed();
            let (reason, outcome, verdict) = if done.score.0 >= ADJUDICATION_MARGIN {
                (EndReason::Win, Outcome::Win(ours), "tiao wins")
            } else if done.score.0 <= -ADJUDICATION_MARGIN {
                (EndReason::GiveUp, Outcome::Win(!ours), "tiao loses")
            } else {
                (EndReason::Draw, Outcome::Draw, "a draw")
            };
            let text = format!(
                "the move limit of {} moves is reached; adjudicated {verdict} on tiao's score {}",
                live.game.setup().move_limit,
                done.score
            );
            self.end_game(reason, outcome, &text);
            return;
        }
        let pos = *live.game.track().position();
        let Some(m) = done.best.and_then(|b| pos.parse_move(&b.hub).ok()) else {
            // The rules were checked before the search: this is a position without moves.
            self.end_game(
                EndReason::GiveUp,
                Outcome::Win(!ours),
                &format!("{ours} has no legal move"),
            );
            return;
        };
        // The gap before a move (after our BACKACC or GAMEACC) is our time, not the peer's.
        pace(self.unanswered);
        let now = Instant::now();
        let used = now.saturating_duration_since(live.turn_started);
        live.clock.used += used;
        let dxp = DxpMove::from_move(&m, used.as_secs_f64().round() as u16);
        let pdn = pos.move_to_pdn(&m);
        live.game.play(m);
        live.turn_started = now;
        let line = format!(
            "game {number}: tiao plays {pdn} in {:.3} s (depth {}, score {}, {} nodes); clock {:.3} s left",
            secs(used),
            done.depth,
            done.score,
            done.nodes,
            secs(live.clock.left()),
        );
        self.send(&Message::Move(dxp));
        self.log(&line);
        self.next_turn();
    }

    /// We end the game at our turn: GAMEEND, then wait for the peer's.
    fn end_game(&mut self, reason: EndReason, outcome: Outcome, termination: &str) {
        let State::Playing(live) = std::mem::replace(&mut self.state, State::Idle) else {
            return;
        };
        self.log(&format!(
            "game {}: tiao ends the game: {} ({termination})",
            live.game.setup().number,
            reason.meaning()
        ));
        let stop = self.stop_after_this_game();
        self.send(&Message::GameEnd(GameEnd { reason, stop }));
        self.state = State::Ending(live, outcome, termination.to_string(), stop);
    }

    fn on_move(&mut self, m: DxpMove, at: Instant) {
        let State::Playing(live) = &mut self.state else {
            let why = match self.state {
                State::Ending(..) => "a MOVE after our GAMEEND (expected the peer's GAMEEND)",
                _ => "a MOVE outside a game",
            };
            self.fault(why);
            return;
        };
        if live.game.our_turn() {
            self.fault(&format!(
                "MOVE {} out of turn (tiao is to move)",
                m.describe()
            ));
            return;
        }
        // Arrived before the peer's turn began (before our MOVE was sent, stamped just before it
        // was written), though handled after it (our move came at once, from the book, before the
        // reader handed the frame on): out of turn too, whatever the threads' order.
        if at < live.turn_started {
            self.fault(&format!(
                "MOVE {} out of turn (it arrived before tiao's move was sent)",
                m.describe()
            ));
            return;
        }
        let number = live.game.setup().number;
        let mv = match live.game.match_move(&m) {
            Ok(mv) => mv,
            Err(e) => {
                self.fault(&format!("peer sent an {e}"));
                return;
            }
        };
        // A legal move: the game moves on.
        self.activity.moved_on(self.log);
        // The game may be over at the peer's turn already (it should have sent GAMEEND).
        let before = live.game.status();
        let took = at.saturating_duration_since(live.turn_started);
        live.peer_used += took;
        let pdn = live.game.track().position().move_to_pdn(&mv);
        live.game.play(mv);
        live.turn_started = at;
        let line = format!(
            "game {number}: {} plays {pdn} (it says {} s; {:.3} s by our watch, {:.3} s in all)",
            self.peer,
            m.seconds,
            secs(took),
            secs(live.peer_used)
        );
        self.log(&line);
        match before {
            Status::Draw(why) => {
                self.log("warning: the peer moved after the game was drawn");
                self.end_game(EndReason::Draw, Outcome::Draw, why);
            }
            _ => self.next_turn(),
        }
    }

    fn on_gameend(&mut self, e: GameEnd, _at: Instant) {
        match std::mem::replace(&mut self.state, State::Idle) {
            State::Playing(mut live) => {
                self.moved_on();
                self.halt(&mut live);
                let ours = live.game.setup().ours;
                let (outcome, how) = match live.game.status() {
                    Status::NoMove(c) => (Outcome::Win(!c), format!("{c} has no legal move")),
                    Status::Draw(why) => (Outcome::Draw, why.to_string()),
                    _ => (
                        match e.reason {
                            EndReason::GiveUp => Outcome::Win(ours),
                            EndReason::Win => Outcome::Win(!ours),
                            EndReason::Draw => Outcome::Draw,
                            EndReason::Unspecified => Outcome::Unknown,
                        },
                        format!("{} ended the game: {}", self.peer, e.reason.meaning()),
                    ),
                };
                let reply = match outcome {
                    Outcome::Win(c) if c == ours => EndReason::Win,
                    Outcome::Win(_) => EndReason::GiveUp,
                    Outcome::Draw => EndReason::Draw,
                    Outcome::Unknown => EndReason::Unspecified,
                };
                let stop = self.stop_after_this_game();
                self.send(&Message::GameEnd(GameEnd {
                    reason: reply,
                    stop,
                }));
                self.finish_game(&live, outcome, &how);
                self.after_game(e.stop || stop);
            }
            State::Ending(live, outcome, text, our_stop) => {
                self.moved_on();
                self.finish_game(&live, outcome, &text);
                self.after_game(e.stop || our_stop);
            }
            other => {
                self.state = other;
                self.ignored();
                self.noise("warning: GAMEEND outside a game ignored");
            }
        }
    }

    /// Between games: the next GAMEREQ, or the end of the connection.
    fn after_game(&mut self, stop: bool) {
        self.state = State::Idle;
        if stop {
            self.finish("no more games (stop code 1)");
        } else if self.is_initiator() {
            self.request_game();
        }
    }

    fn on_backreq(&mut self, req: BackReq, at: Instant) {
        // A take-back the peer may ask for again and again: never activity.
        self.ignored();
        let State::Playing(live) = &mut self.state else {
            self.noise("BACKREQ while no game is being played: answered 2 (continue)");
            self.send(&Message::BackAcc(BackCode::Continue));
            return;
        };
        let number = live.game.setup().number;
        if live.game.ply_of(&req).is_none() {
            let line = format!(
                "game {number}: BACKREQ to move {} {} is not a position of this game: answered 2 (continue)",
                req.move_number, req.color
            );
            self.noise(&line);
            self.send(&Message::BackAcc(BackCode::Continue));
            return;
        }
        let mut live = match std::mem::replace(&mut self.state, State::Idle) {
            State::Playing(l) => l,
            _ => unreachable!("checked above"),
        };
        self.halt(&mut live);
        if !live.game.our_turn() {
            // The peer's clock is not given back either: its turn so far is charged.
            live.peer_used += at.saturating_duration_since(live.turn_started);
        }
        let taken = live.game.back_to(&req).unwrap_or(0);
        live.turn_started = at;
        self.noise(&format!(
            "game {number}: took back {taken} plies to move {} with {} to move, as the peer asked",
            req.move_number, req.color
        ));
        self.state = State::Playing(live);
        self.send(&Message::BackAcc(BackCode::Accepted));
        self.next_turn();
    }
}

/// Whether a message of ours is logged in full: one that starts, plays or ends a game (GAMEREQ,
/// a GAMEACC that accepts, MOVE, GAMEEND). The others (CHAT, BACKACC, a GAMEACC that refuses) are
/// replies a peer can have without end, and go through the log's rate limit.
fn moves_a_game_on(msg: &Message) -> bool {
    match msg {
        Message::GameAcc(a) => a.code == AcceptCode::Accepted,
        m => matches!(
            m,
            Message::GameReq(_) | Message::Move(_) | Message::GameEnd(_)
        ),
    }
}

/// The `recv` line of the message being handled, written once its handler knows whether it
/// moved a game on (see the module documentation), and when one last did.
struct Activity {
    /// The line not yet written.
    line: Option<String>,
    /// When a message of the peer or ours last moved a game on (or the peer connected).
    last: Instant,
}

impl Activity {
    /// The message moved a game on: its line in full, the idle timeout restarted.
    fn moved_on(&mut self, log: &Log) {
        if let Some(line) = self.line.take() {
            log.line(&line);
        }
        self.last = Instant::now();
    }

    /// The message moved nothing on: its line through the rate limit.
    fn ignored(&mut self, log: &Log, noise: &mut RateLimit) {
        if let Some(line) = self.line.take()
            && let Some(line) = noise.admit(&line)
        {
            log.line(&line);
        }
    }
}

/// Waits out what is left of [`FRAME_GAP`] after an unanswered frame of ours.
fn pace(unanswered: Option<Instant>) {
    let wait = gap_left(unanswered, Instant::now());
    if !wait.is_zero() {
        std::thread::sleep(wait);
    }
}

/// What is left of [`FRAME_GAP`] at `now` after our frame sent at `unanswered` (none when the
/// peer has answered it).
fn gap_left(unanswered: Option<Instant>, now: Instant) -> Duration {
    unanswered.map_or(Duration::ZERO, |sent| {
        FRAME_GAP.saturating_sub(now.saturating_duration_since(sent))
    })
}

/// A game status in words.
fn describe(s: Status) -> String {
    match s {
        Status::Ongoing => "ongoing".into(),
        Status::NoMove(c) => format!("{c} has no legal move"),
        Status::Draw(why) => format!("draw: {why}"),
        Status::MoveLimit => "the move limit is reached".into(),
    }
}

/// The reader thread: frames in, stamped with their arrival (the end of the read that completed
/// them, see [`FrameReader::arrived`]).
fn spawn_reader(stream: TcpStream, tx: Sender<Input>) -> JoinHandle<()> {
    std::thread::spawn(move || {
        let mut reader = FrameReader::new(stream);
        loop {
            let input = match reader.next_frame() {
                Incoming::Frame(text) => Input::Frame {
                    text,
                    at: reader.arrived(),
                },
                Incoming::Bad(error) => Input::Bad {
                    error,
                    at: reader.arrived(),
                },
                Incoming::Closed { pending } => {
                    let why = if pending > 0 {
                        format!(
                            "the peer closed the connection in the middle of a message ({pending} bytes without a NUL)"
                        )
                    } else {
                        "the peer closed the connection".to_string()
                    };
                    let _ = tx.send(Input::Closed(why));
                    return;
                }
                Incoming::Failed(e) => {
                    let _ = tx.send(Input::Closed(format!("connection error: {e}")));
                    return;
                }
            };
            if tx.send(input).is_err() {
                return;
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_frame_waits_out_the_gap_only_while_the_first_is_unanswered() {
        let sent = Instant::now();
        let ms = Duration::from_millis;
        // Answered (or nothing sent yet): no wait.
        assert_eq!(gap_left(None, sent + ms(1)), Duration::ZERO);
        // Unanswered: the rest of the gap, then nothing.
        assert_eq!(gap_left(Some(sent), sent), FRAME_GAP);
        assert_eq!(gap_left(Some(sent), sent + ms(20)), FRAME_GAP - ms(20));
        assert_eq!(gap_left(Some(sent), sent + FRAME_GAP), Duration::ZERO);
        assert_eq!(
            gap_left(Some(sent), sent + FRAME_GAP + ms(1)),
            Duration::ZERO
        );
        // A clock read before the send (another thread's instant) waits the whole gap, no more.
        assert_eq!(gap_left(Some(sent + ms(5)), sent), FRAME_GAP);
    }
}
