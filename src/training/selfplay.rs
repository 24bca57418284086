//! Self-play games for training data (`tiao selfplay`): the engine plays itself at a fixed
//! small node count from varied balanced openings, and every quiet position of every game is
//! kept with the game's result and the search's score ([`Record`]).
//!
//! Determinism: game `g` of a run depends only on the run's seed, `g` and the settings (its
//! opening walk is drawn from a generator seeded by both; each game starts from an empty table;
//! one search thread; a node limit, never a time limit). So a run split into shards
//! (`--shard I/N`: the games `g` with `g % N == I`) plays exactly the games of the unsplit run,
//! whatever machines run the shards and in whatever order, and the shards' files concatenate.
//!
//! A position is kept when its side to move has no capture (the positions the static
//! evaluation scores in the quiescence search) and it lies after the opening walk.
//!
//! Ending games by the endgame tables ([`TableEnd`]): a game ends at its first position of at
//! most `pieces` pieces that the tables answer for (under the game's draw counters), that
//! position kept as any other, and the tables' value is the game's result. The endings the
//! engine would otherwise play out move by move (russian self-play spends half its positions
//! on four pieces or fewer, mostly king endings run to the draw rules) cost no search, and the
//! result is exact where a 4,000-node search may misplay a won ending. The searches never probe
//! the tables, so the scores are those of a run without them. Determinism holds for a given set
//! of table files (their answers are fixed).

use super::data::{DECISIVE, Record};
use crate::draughts::movegen::has_capture;
use crate::draughts::position::Position;
use crate::draughts::rules::Rules;
use crate::egdb::{Probe, Wdl};
use crate::game::Game;
use crate::game::color::Color;
use crate::game::rng::Rng;
use crate::game::walk::random_walk;
use crate::search::score::{is_decisive, is_table};
use crate::search::tt::Tt;
use crate::search::{self, Control, Limits, SearchOptions};
use crate::track::{GameTrack, RuleEnd};

pub use crate::game::walk::BALANCE;
/// Opening walks tried per game before the last one is taken whatever its score.
const WALK_TRIES: usize = 50;

/// How the games of a run are played.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Nodes per move.
    pub nodes: u64,
    /// Random plies from the start before the engine plays.
    pub opening_plies: u32,
    /// A game still going after this many plies is scored a draw.
    pub max_plies: usize,
    /// The run's seed.
    pub seed: u64,
}

/// A played game: its kept positions and its result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    /// The kept positions, in order.
    pub records: Vec<Record>,
    /// The result for White: 1, 0, -1.
    pub result: i8,
    /// Plies played (the opening walk included).
    pub plies: usize,
    /// The game reached `max_plies` and was scored a draw.
    pub adjudicated: bool,
    /// The game ended where the endgame tables took over ([`TableEnd`]).
    pub tabled: bool,
}

/// Games end where endgame tables cover them (see the module's doc).
#[derive(Clone, Copy)]
pub struct TableEnd<'a, R: Rules> {
    /// The tables asked.
    pub tables: &'a dyn Probe<Position<R>>,
    /// Only positions of at most this many pieces are asked about.
    pub pieces: u32,
}

impl<R: Rules> TableEnd<'_, R> {
    /// The result for White the tables give the game at `pos`, when they cover it.
    fn result(&self, pos: &Position<R>) -> Option<i8> {
        if pos.piece_count() > self.pieces {
            return None;
        }
        let wdl = self.tables.probe(pos)?.wdl;
        let for_white = if pos.side() == Color::White {
            wdl
        } else {
            wdl.flip()
        };
        Some(match for_white {
            Wdl::Win => 1,
            Wdl::Draw => 0,
            Wdl::Loss => -1,
        })
    }
}

/// The generator of game `game` of a run with seed `seed`.
fn game_rng(seed: u64, game: u64) -> Rng {
    let mut r = Rng::new(seed ^ game.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    r.next_u64();
    r
}

/// The score stored for a search score (side to move): a proven win or loss (a game's end the
/// search found, or an endgame table's answer) as ±[`DECISIVE`], any other score clamped inside
/// it.
pub fn stored_score(s: i32) -> i16 {
    if is_decisive(s) || is_table(s) {
        if s > 0 { DECISIVE } else { -DECISIVE }
    } else {
        s.clamp(-(DECISIVE as i32) + 1, DECISIVE as i32 - 1) as i16
    }
}

/// A node-limited, one-thread search of `pos`, whose game passed through the positions of keys
/// `history` (for repetitions; empty when unknown), on `tt` as it is: the search of self-play
/// and of relabelling (`relabel`), where a node limit, never a time limit, keeps a run
/// reproducible.
pub fn node_search<R: Rules>(
    pos: &Position<R>,
    history: &[u64],
    nodes: u64,
    tt: &Tt,
) -> search::SearchResult<<Position<R> as Game>::Move> {
    node_search_with_tables(pos, history, nodes, None, tt)
}

/// [`node_search`] probing endgame `tables` (relabelling with them: positions they cover are
/// scored exactly, and the search stops where it reaches them).
pub fn node_search_with_tables<R: Rules>(
    pos: &Position<R>,
    history: &[u64],
    nodes: u64,
    tables: Option<&dyn Probe<Position<R>>>,
    tt: &Tt,
) -> search::SearchResult<<Position<R> as Game>::Move> {
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    search::search_with_tables(
        pos,
        history,
        &limits,
        &SearchOptions::default(),
        tables,
        tt,
        &Control::new(false),
        None,
        &mut |_| {},
    )
}

/// [`node_search`] of the last position of `track`.
fn search_at<R: Rules>(
    track: &GameTrack<Position<R>>,
    nodes: u64,
    tt: &Tt,
) -> search::SearchResult<<Position<R> as Game>::Move> {
    let positions = track.positions();
    let history: Vec<u64> = positions[..positions.len() - 1]
        .iter()
        .map(|p| p.key())
        .collect();
    node_search(track.position(), &history, nodes, tt)
}

/// The opening of game `game`: a random walk of `opening_plies` plies, kept when a search at
/// the run's node count finds it balanced (else the last of [`WALK_TRIES`] walks).
fn opening<R: Rules>(s: &Settings, game: u64, tt: &Tt) -> GameTrack<Position<R>> {
    let mut rng = game_rng(s.seed, game);
    let mut last = GameTrack::new(Position::<R>::start());
    for _ in 0..WALK_TRIES {
        let mut track = GameTrack::new(Position::<R>::start());
        let walked = random_walk(*track.position(), s.opening_plies, &mut rng, |_, m| {
            track.play(*m)
        });
        if walked.is_none() || track.status().is_some() {
            continue;
        }
        tt.clear();
        let r = search_at(&track, s.nodes, tt);
        if r.score.0.abs() <= BALANCE {
            return track;
        }
        last = track;
    }
    last
}

/// Plays game `game` of a run with settings `s`, on table `tt` (cleared first).
pub fn play_game<R: Rules>(s: &Settings, game: u64, tt: &Tt) -> PlayedGame {
    play_game_ending::<R>(s, game, None, tt)
}

/// [`play_game`], the game ended by the endgame tables of `table_end` where they cover it.
pub fn play_game_ending<R: Rules>(
    s: &Settings,
    game: u64,
    table_end: Option<&TableEnd<'_, R>>,
    tt: &Tt,
) -> PlayedGame {
    let mut track = opening::<R>(s, game, tt);
    tt.clear();
    let mut records = Vec::new();
    let mut end = None;
    let mut tabled = None;
    while track.plies() < s.max_plies {
        if let Some(e) = track.status() {
            end = Some(e);
            break;
        }
        let r = search_at(&track, s.nodes, tt);
        let pos = *track.position();
        let Some(best) = r.best else { break };
        if !has_capture(&pos) {
            records.push(Record {
                white: pos.white(),
                black: pos.black(),
                kings: pos.kings(),
                score: stored_score(r.score.0),
                result: 0,
                side: pos.side(),
                ply: track.plies().min(u16::MAX as usize) as u16,
            });
        }
        if let Some(result) = table_end.and_then(|t| t.result(&pos)) {
            tabled = Some(result);
            break;
        }
        track.play(best);
    }
    // A game the tables ended stopped at a position whose status was just found open.
    let end = end.or_else(|| track.status());
    let result = tabled.unwrap_or(match end {
        Some(RuleEnd::NoMove(Color::White)) => -1,
        Some(RuleEnd::NoMove(Color::Black)) => 1,
        _ => 0,
    });
    for r in &mut records {
        r.result = result;
    }
    PlayedGame {
        records,
        result,
        plies: track.plies(),
        adjudicated: end.is_none() && tabled.is_none(),
        tabled: tabled.is_some(),
    }
}

/// The games of shard `shard` of `shards` among games `0..games`: those `g` with
/// `g % shards == shard`, in order.
pub fn shard_games(games: u64, shard: u32, shards: u32) -> impl Iterator<Item = u64> {
    (shard as u64..games).step_by(shards.max(1) as usize)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::rules::{English, International};

    fn settings() -> Settings {
        Settings {
            nodes: 300,
            opening_plies: 6,
            max_plies: 160,
            seed: 5,
        }
    }

    #[test]
    fn a_game_is_determined_by_seed_and_index() {
        let tt = Tt::new(1);
        let a = play_game::<International>(&settings(), 3, &tt);
        let b = play_game::<International>(&settings(), 3, &Tt::new(2));
        assert_eq!(a, b);
        let c = play_game::<International>(&settings(), 4, &tt);
        assert_ne!(a.records, c.records);
        assert!(!a.records.is_empty());
        assert!(a.records.iter().all(|r| r.result == a.result));
        assert!(a.records.iter().all(|r| r.ply >= 6));
    }

    #[test]
    fn kept_positions_are_quiet_and_results_follow_the_rules() {
        let tt = Tt::new(1);
        for g in 0..3 {
            let game = play_game::<English>(&settings(), g, &tt);
            for r in &game.records {
                let pos = Position::<English>::from_parts(r.white, r.black, r.kings, r.side)
                    .expect("a recorded position is valid");
                assert!(!has_capture(&pos));
            }
            assert!(game.adjudicated || game.plies < 160);
            if game.adjudicated {
                assert_eq!(game.result, 0);
            }
        }
    }

    #[test]
    fn shards_partition_the_games() {
        let mut all: Vec<u64> = (0..3).flat_map(|i| shard_games(10, i, 3)).collect();
        all.sort();
        assert_eq!(all, (0..10).collect::<Vec<_>>());
        assert_eq!(shard_games(10, 1, 3).collect::<Vec<_>>(), vec![1, 4, 7]);
    }
}
