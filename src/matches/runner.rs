//! The match runner: games between two players on several threads, each game judged by the
//! referee, the clocks and the adjudication rules, and recorded as PDN.
//!
//! Games are numbered from 1; game `g` plays opening `(g-1)/2` (openings cycle when there are
//! fewer than pairs), player A having the move from the opening position in odd games and player
//! B in even ones. Each worker thread owns one instance of each player and plays games until
//! none are left (or the SPRT has decided, or the caller's stop flag is set); results are
//! reported through a callback as games finish, so a PDN file can be written as the match runs.
//!
//! A game ends by the rules (no legal move, a draw counter, the third repetition), at the ply
//! limit (a draw), by score adjudication ([`Adjudication`]), or when a player fails: crash, no
//! answer in time, an illegal move, a loss on time, a protocol error, a failed start. The failing
//! player loses, the reason is recorded, and its engine is restarted for its next game.

use super::clock::{Clock, Control};
use super::openings::{self, Opening};
pub use super::player::Fault;
use super::player::{Player, Request};
use super::referee::{Track, track_for};
use super::stats::{Pentanomial, Sprt, SprtState, Wdl};
use super::{Log, PlayerSpec};
use crate::game::color::Color;
use crate::memory;
use crate::pdn::{self, PdnGame, PdnMove};
use crate::search::Score;
use crate::track::RuleEnd;
use crate::variant::GameKind;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// Score adjudication, scores in centi-men from the engines' own reports.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Adjudication {
    /// `(score, moves)`: a side wins when, for `moves` consecutive moves of each player, its
    /// engine reports at least `+score` and the opponent's at most `-score`.
    pub win: Option<(i32, u32)>,
    /// `(score, moves, from_ply)`: a draw when, from ply `from_ply` of the game on, both
    /// engines report `|score| <= score` for `moves` consecutive moves each.
    pub draw: Option<(i32, u32, u32)>,
}

/// A match's settings.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The game.
    pub kind: GameKind,
    /// Games to play (each opening twice: an odd number leaves the last opening's second game
    /// out).
    pub games: usize,
    /// Time or search limit.
    pub control: Control,
    /// Games played at the same time.
    pub concurrency: usize,
    /// A game still going after this many plies (openings included) is a draw.
    pub max_plies: u32,
    /// The openings, cycled.
    pub openings: Vec<Opening>,
    /// Score adjudication.
    pub adjudication: Adjudication,
    /// Time over the limit tolerated before a loss on time.
    pub margin: Duration,
    /// How long a move may take without a time limit (nodes, depth) before the player is taken
    /// to hang.
    pub hang_timeout: Duration,
    /// Stop as soon as this test decides (on the complete opening pairs: the pentanomial LLR).
    pub sprt: Option<Sprt>,
    /// The PDN `Event` tag.
    pub event: String,
}

impl MatchConfig {
    /// Settings with the usual defaults: 2 games, 100 ms per move, one at a time, 400 plies,
    /// 100 ms margin, 60 s hang timeout.
    pub fn new(kind: GameKind, openings: Vec<Opening>) -> MatchConfig {
        MatchConfig {
            kind,
            games: 2,
            control: Control::MoveTime(Duration::from_millis(100)),
            concurrency: 1,
            max_plies: 400,
            openings,
            adjudication: Adjudication::default(),
            margin: Duration::from_millis(100),
            hang_timeout: Duration::from_secs(60),
            sprt: None,
            event: "tiao match".into(),
        }
    }
}

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// By the rules of the game.
    Rules(RuleEnd),
    /// The ply limit: a draw.
    MaxPlies,
    /// Score adjudication: a win for the player of this index (0 = A, 1 = B).
    AdjudicatedWin(usize),
    /// Score adjudication: a draw.
    AdjudicatedDraw,
    /// A player (0 = A, 1 = B) failed and lost.
    Fault(usize, Fault),
}

impl End {
    /// The PDN `Termination` tag (PGN's standard values).
    pub fn termination(&self) -> &'static str {
        match self {
            End::Rules(_) => "normal",
            End::MaxPlies | End::AdjudicatedWin(_) | End::AdjudicatedDraw => "adjudication",
            End::Fault(_, Fault::Hung | Fault::Time) => "time forfeit",
            End::Fault(_, Fault::Illegal { .. }) => "rules infraction",
            End::Fault(_, _) => "abandoned",
        }
    }
}

/// One finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// Game number, from 1.
    pub number: usize,
    /// The opening's name.
    pub opening: String,
    /// Which player had White (0 = A, 1 = B).
    pub white: usize,
    /// A's points (1, 0.5, 0).
    pub score_a: f64,
    /// Why it ended.
    pub end: End,
    /// A sentence saying why, with the players' names.
    pub reason: String,
    /// Plies played by the engines (the opening's not counted).
    pub plies: usize,
    /// The game as PDN.
    pub pdn: PdnGame,
    /// The side that moves first in the variant, and the side to move at the game's start (for
    /// the move numbers of the PDN text).
    pub sides: (Color, Color),
}

impl GameRecord {
    /// The game as PDN text.
    pub fn pdn_text(&self) -> String {
        pdn::write(&self.pdn, self.sides.0, self.sides.1)
    }
}

/// The state of a match after a game, for progress reports.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    /// Games finished.
    pub done: usize,
    /// Games planned.
    pub total: usize,
    /// W/D/L of player A.
    pub wdl: Wdl,
    /// The SPRT's log-likelihood ratio and state on the complete opening pairs, when a test runs.
    pub sprt: Option<(f64, SprtState)>,
}

/// The outcome of a match.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchResult {
    /// The players' names (A, B).
    pub names: [String; 2],
    /// W/D/L of player A.
    pub wdl: Wdl,
    /// Every game, in the order they finished.
    pub games: Vec<GameRecord>,
    /// The final SPRT state, when a test ran.
    pub sprt: Option<(f64, SprtState)>,
    /// Whether the match stopped before all games were played (SPRT decided, or stopped).
    pub stopped_early: bool,
}

impl MatchResult {
    /// Faults per player (A, B): how many games each lost by failing.
    pub fn faults(&self) -> [Vec<&Fault>; 2] {
        let mut out: [Vec<&Fault>; 2] = [Vec::new(), Vec::new()];
        for g in &self.games {
            if let End::Fault(p, f) = &g.end {
                out[*p].push(f);
            }
        }
        out
    }

    /// A's results by opening pair: games `2i - 1` and `2i` play one opening with the colours
    /// reversed (see the module doc); a pair with a game not played (a match stopped early) is
    /// left out.
    pub fn pairs(&self) -> Pentanomial {
        pairs_of(&self.games)
    }
}

/// A's results by opening pair in these games, in any order (see [`MatchResult::pairs`]).
fn pairs_of(games: &[GameRecord]) -> Pentanomial {
    let last = games.iter().map(|g| g.number).max().unwrap_or(0);
    let mut score_of = vec![None; last + 1];
    for g in games {
        score_of[g.number] = Some(g.score_a);
    }
    let mut pairs = Pentanomial::default();
    for first in (1..last).step_by(2) {
        if let (Some(a), Some(b)) = (score_of[first], score_of[first + 1]) {
            pairs.add_pair(a, b);
        }
    }
    pairs
}

/// The SPRT's log-likelihood ratio and state on these games' complete opening pairs.
fn sprt_of(test: Sprt, games: &[GameRecord]) -> (f64, SprtState) {
    let llr = test.llr_pairs(&pairs_of(games));
    (llr, test.decide(llr))
}

/// Plays a match of A against B. `on_game` is called (from worker threads, one call at a time)
/// after each game; `stop` ends the match early when set (games in progress finish).
pub fn run_match(
    cfg: &MatchConfig,
    specs: [&PlayerSpec; 2],
    log: Option<Log>,
    stop: &AtomicBool,
    on_game: &(dyn Fn(&GameRecord, &Progress) + Sync),
) -> Result<MatchResult, String> {
    if cfg.openings.is_empty() {
        return Err("no openings".into());
    }
    for o in &cfg.openings {
        openings::check(cfg.kind, o)?;
    }
    // Every game in progress holds a table per built-in engine: refused up front when the
    // machine cannot give them all at once.
    let workers = cfg.concurrency.max(1).min(cfg.games.max(1));
    let tables: Vec<usize> = specs.iter().filter_map(|s| s.table_mib()).collect();
    if !tables.is_empty() {
        let per_game: usize = tables.iter().sum();
        let what = format!(
            "--concurrency {workers} x the built-in engines' tables ({} MiB)",
            tables
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(" + ")
        );
        memory::check(&what, (per_game as u64).saturating_mul(workers as u64))
            .map_err(|e| e.to_string())?;
    }
    // Start each player once, so that a wrong command line stops the match at once.
    let mut names = [String::new(), String::new()];
    for (i, spec) in specs.iter().enumerate() {
        let who = ["A", "B"][i];
        let mut p = spec.player(&format!("{who}#probe"), log.clone());
        p.new_game(cfg.kind)
            .map_err(|e| format!("engine {who}: {e}"))?;
        names[i] = p.name();
        p.quit();
    }
    // Two builds of one engine answer with the same id: tell them apart by their command lines,
    // and by their letters when even those agree.
    if names[0] == names[1] {
        let described = specs.map(PlayerSpec::describe);
        names = if described[0] != described[1] {
            [0, 1].map(|i| format!("{} [{}]", names[i], described[i]))
        } else {
            [0, 1].map(|i| format!("{} ({})", names[i], ["A", "B"][i]))
        };
    }
    let next = AtomicUsize::new(0);
    let shared = Mutex::new((Vec::<GameRecord>::new(), Wdl::default()));
    let sprt_stop = AtomicBool::new(false);
    let total = cfg.games;
    std::thread::scope(|s| {
        for worker in 0..workers {
            let (names, log, next, shared, sprt_stop) = (&names, &log, &next, &shared, &sprt_stop);
            s.spawn(move || {
                let mut players = [
                    specs[0].player(&format!("A#{worker}"), log.clone()),
                    specs[1].player(&format!("B#{worker}"), log.clone()),
                ];
                loop {
                    if stop.load(Ordering::Relaxed) || sprt_stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let g = next.fetch_add(1, Ordering::Relaxed);
                    if g >= total {
                        break;
                    }
                    let record = play_game(cfg, g, &mut players, names);
                    let mut guard = shared.lock().unwrap_or_else(PoisonError::into_inner);
                    let (records, wdl) = &mut *guard;
                    match record.score_a {
                        s if s > 0.75 => wdl.wins += 1,
                        s if s < 0.25 => wdl.losses += 1,
                        _ => wdl.draws += 1,
                    }
                    records.push(record);
                    let sprt = cfg.sprt.map(|t| sprt_of(t, records));
                    if sprt.is_some_and(|(_, st)| st != SprtState::Continue) {
                        sprt_stop.store(true, Ordering::Relaxed);
                    }
                    let progress = Progress {
                        done: records.len(),
                        total,
                        wdl: *wdl,
                        sprt,
                    };
                    on_game(records.last().expect("just pushed"), &progress);
                }
                for p in &mut players {
                    p.quit();
                }
            });
        }
    });
    let (games, wdl) = shared.into_inner().unwrap_or_else(PoisonError::into_inner);
    let sprt = cfg.sprt.map(|t| sprt_of(t, &games));
    Ok(MatchResult {
        stopped_early: games.len() < total,
        names,
        wdl,
        games,
        sprt,
    })
}

/// What the comment of an engine move says: score (men, mover's view; `#7` a win in 7 plies,
/// `#-4` a loss in 4), depth and time.
pub fn move_comment(score: Option<Score>, depth: Option<u32>, used: Duration) -> String {
    let mut parts = Vec::new();
    let s = score.map(Score::short_text);
    match (s, depth) {
        (Some(s), Some(d)) => parts.push(format!("{s}/{d}")),
        (Some(s), None) => parts.push(s),
        (None, Some(d)) => parts.push(format!("d{d}")),
        (None, None) => {}
    }
    parts.push(format!("{:.3}s", used.as_secs_f64()));
    parts.join(" ")
}

/// Per-player score streaks for adjudication.
#[derive(Default)]
struct Streaks {
    up: [u32; 2],
    down: [u32; 2],
    level: [u32; 2],
}

impl Streaks {
    /// Records player `p`'s score after its move at `ply`; returns an adjudicated end.
    fn record(
        &mut self,
        adj: &Adjudication,
        p: usize,
        score: Option<Score>,
        ply: u32,
    ) -> Option<End> {
        let q = 1 - p;
        match score {
            None => {
                self.up[p] = 0;
                self.down[p] = 0;
                self.level[p] = 0;
            }
            Some(Score(s)) => {
                if let Some((t, _)) = adj.win {
                    self.up[p] = if s >= t { self.up[p] + 1 } else { 0 };
                    self.down[p] = if s <= -t { self.down[p] + 1 } else { 0 };
                }
                if let Some((t, _, from)) = adj.draw {
                    self.level[p] = if ply >= from && s.abs() <= t {
                        self.level[p] + 1
                    } else {
                        0
                    };
                }
            }
        }
        if let Some((_, n)) = adj.win {
            if self.up[p] >= n && self.down[q] >= n {
                return Some(End::AdjudicatedWin(p));
            }
            if self.down[p] >= n && self.up[q] >= n {
                return Some(End::AdjudicatedWin(q));
            }
        }
        if let Some((_, n, _)) = adj.draw
            && self.level[p] >= n
            && self.level[q] >= n
        {
            return Some(End::AdjudicatedDraw);
        }
        None
    }
}

/// The colour name for sentences.
fn colour(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// Plays game `g` (0-based) of the match.
fn play_game(
    cfg: &MatchConfig,
    g: usize,
    players: &mut [Box<dyn Player>; 2],
    names: &[String; 2],
) -> GameRecord {
    let opening = &cfg.openings[(g / 2) % cfg.openings.len()];
    let a_moves_first = g.is_multiple_of(2);
    let opening_moves = opening.moves.iter().map(String::as_str);
    let mut track: Box<dyn Track> =
        track_for(cfg.kind, opening.fen.as_deref(), opening_moves).expect("openings are checked");
    let opening_plies = opening.moves.len();
    let first = track.side();
    let a_colour = if a_moves_first { first } else { !first };
    let white = if a_colour == Color::White { 0 } else { 1 };
    let index_of = |c: Color| if c == a_colour { 0 } else { 1 };
    let label = |p: usize| format!("{} ({})", ["A", "B"][p], names[p]);
    let mut comments: Vec<String> = Vec::new();
    let mut clocks = [Clock::new(cfg.control), Clock::new(cfg.control)];
    let mut streaks = Streaks::default();

    let mut end = None;
    for (p, player) in players.iter_mut().enumerate() {
        if let Err(e) = player.new_game(cfg.kind) {
            player.reset();
            end = Some(End::Fault(p, e));
            break;
        }
    }
    let end = match end {
        Some(e) => e,
        None => loop {
            if let Some(r) = track.status() {
                break End::Rules(r);
            }
            if track.plies() >= cfg.max_plies as usize {
                break End::MaxPlies;
            }
            let p = index_of(track.side());
            let start_fen = track.start_fen();
            let start_hub = track.start_hub();
            let moves = track.moves_hub();
            let req = Request {
                start_fen: &start_fen,
                start_hub: &start_hub,
                moves: &moves,
                budget: clocks[p].budget(),
                deadline: clocks[p].deadline(cfg.margin, cfg.hang_timeout),
            };
            let t0 = Instant::now();
            let result = players[p].play(&req);
            let used = t0.elapsed();
            let reply = match result {
                Ok(r) => r,
                Err(e) => {
                    players[p].reset();
                    let f = match (e, cfg.control) {
                        (Fault::Hung, Control::Clock { .. } | Control::MoveTime(_)) => Fault::Time,
                        (e, _) => e,
                    };
                    break End::Fault(p, f);
                }
            };
            if !clocks[p].charge(used, cfg.margin) {
                players[p].reset();
                break End::Fault(p, Fault::Time);
            }
            if let Err(e) = track.play(&reply.mv) {
                players[p].reset();
                break End::Fault(
                    p,
                    Fault::Illegal {
                        mv: reply.mv,
                        reason: e.to_string(),
                    },
                );
            }
            comments.push(move_comment(reply.score, reply.depth, used));
            // A move answered at once (depth 0: a single legal move) carries no searched score:
            // it neither counts for adjudication nor breaks a streak.
            let ply = track.plies() as u32;
            if reply.depth != Some(0)
                && let Some(e) = streaks.record(&cfg.adjudication, p, reply.score, ply)
            {
                break e;
            }
        },
    };

    // A's points and the sentence.
    let (score_a, reason) = match &end {
        End::Rules(RuleEnd::NoMove(c)) => {
            let loser = index_of(*c);
            (
                if loser == 0 { 0.0 } else { 1.0 },
                format!("{} {} has no legal move", colour(*c), label(loser)),
            )
        }
        End::Rules(RuleEnd::DrawRule) => (0.5, "draw by the variant's draw rule".to_string()),
        End::Rules(RuleEnd::Repetition) => (0.5, "draw by threefold repetition".to_string()),
        End::MaxPlies => (
            0.5,
            format!("draw adjudicated at the {}-ply limit", cfg.max_plies),
        ),
        End::AdjudicatedWin(p) => (
            if *p == 0 { 1.0 } else { 0.0 },
            format!("win of {} adjudicated by score", label(*p)),
        ),
        End::AdjudicatedDraw => (0.5, "draw adjudicated by score".to_string()),
        End::Fault(p, f) => (
            if *p == 0 { 0.0 } else { 1.0 },
            format!("{} {f}", label(*p)),
        ),
    };

    // The PDN record.
    let variant = track.variant();
    let white_score = if white == 0 { score_a } else { 1.0 - score_a };
    let result = pdn::result_text(variant, Some(white_score)).to_string();
    let mut game = PdnGame::default();
    game.set_tag("Event", cfg.event.clone());
    game.set_tag("Site", "?");
    game.set_tag("Date", pdn::today());
    game.set_tag("Round", (g + 1).to_string());
    game.set_tag("White", names[white].clone());
    game.set_tag("Black", names[1 - white].clone());
    game.set_tag("Result", result.clone());
    if let Some(gt) = pdn::game_type(variant) {
        game.set_tag("GameType", gt);
    }
    if !matches!(
        variant,
        crate::game::Variant::International
            | crate::game::Variant::English
            | crate::game::Variant::Russian
            | crate::game::Variant::Brazilian
    ) {
        game.set_tag("Variant", variant.name());
    }
    if !track.starts_at_start() {
        game.set_tag("SetUp", "1");
        game.set_tag("FEN", track.start_fen());
    }
    game.set_tag("TimeControl", cfg.control.pdn_tag());
    game.set_tag("Opening", opening.name.clone());
    game.set_tag("Termination", end.termination());
    for (i, text) in track.moves_pdn().into_iter().enumerate() {
        let mut m = PdnMove::new(text);
        if i + 1 == opening_plies {
            m.comments.push(pdn::END_OF_OPENING.into());
        }
        if i >= opening_plies
            && let Some(c) = comments.get(i - opening_plies)
        {
            m.comments.push(c.clone());
        }
        game.moves.push(m);
    }
    match game.moves.last_mut() {
        Some(m) => m.comments.push(reason.clone()),
        None => game.intro.push(reason.clone()),
    }
    game.result = Some(result);
    GameRecord {
        number: g + 1,
        opening: opening.name.clone(),
        white,
        score_a,
        end,
        reason,
        plies: track.plies() - opening_plies,
        pdn: game,
        sides: (track.first_side(), track.start_side()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments() {
        let c = move_comment(Some(Score(12)), Some(14), Duration::from_millis(101));
        assert_eq!(c, "+0.12/14 0.101s");
        let c = move_comment(
            Some(Score(crate::search::score::win_in(7))),
            Some(20),
            Duration::ZERO,
        );
        assert_eq!(c, "#7/20 0.000s");
        assert_eq!(move_comment(None, None, Duration::ZERO), "0.000s");
    }

    #[test]
    fn pairs_are_an_openings_two_games() {
        let game = |number: usize, score_a: f64| GameRecord {
            number,
            opening: String::new(),
            white: (number + 1) % 2,
            score_a,
            end: End::MaxPlies,
            reason: String::new(),
            plies: 0,
            pdn: PdnGame::default(),
            sides: (Color::White, Color::White),
        };
        // Finished out of order; game 4 never played (a stopped match), so 3 has no partner,
        // nor has the last game, 7.
        let r = MatchResult {
            names: [String::new(), String::new()],
            wdl: Wdl::default(),
            games: vec![
                game(2, 0.5),
                game(5, 1.0),
                game(1, 1.0),
                game(3, 0.0),
                game(6, 1.0),
                game(7, 0.0),
            ],
            sprt: None,
            stopped_early: true,
        };
        // Pair 1-2: 1.5 points; pair 5-6: 2 points.
        assert_eq!(r.pairs().counts, [0, 0, 0, 1, 1]);
        let empty = MatchResult {
            games: Vec::new(),
            ..r
        };
        assert_eq!(empty.pairs().pairs(), 0);
    }

    #[test]
    fn adjudication_streaks() {
        let adj = Adjudication {
            win: Some((300, 2)),
            draw: Some((10, 2, 4)),
        };
        let mut s = Streaks::default();
        assert_eq!(s.record(&adj, 0, Some(Score(400)), 1), None);
        assert_eq!(s.record(&adj, 1, Some(Score(-350)), 2), None);
        assert_eq!(s.record(&adj, 0, Some(Score(500)), 3), None);
        assert_eq!(
            s.record(&adj, 1, Some(Score(-400)), 4),
            Some(End::AdjudicatedWin(0))
        );
        let mut s = Streaks::default();
        assert_eq!(s.record(&adj, 0, Some(Score(0)), 4), None);
        assert_eq!(s.record(&adj, 1, Some(Score(5)), 5), None);
        assert_eq!(s.record(&adj, 0, None, 6), None);
        assert_eq!(s.record(&adj, 1, Some(Score(-5)), 7), None);
        assert_eq!(s.record(&adj, 0, Some(Score(3)), 8), None);
        assert_eq!(s.record(&adj, 1, Some(Score(0)), 9), None);
        assert_eq!(
            s.record(&adj, 0, Some(Score(3)), 10),
            Some(End::AdjudicatedDraw)
        );
    }
}
