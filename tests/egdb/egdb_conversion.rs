//! The engine converts won endings: from won 4-piece positions of every variant, the engine
//! (searching with the tables) plays against a defender that plays the tables' best defence
//! (the loss it delays longest, by the distance to capture), and wins every game before the
//! variant's draw counters or a repetition end it.
//!
//! The positions: in each slice, the won positions whose perfect conversion (both sides playing
//! by the tables' distances) ends the game within the variant's counters (a table win that
//! takes longer than a counter allows is a draw under the rules), the longest of them first.

use crate::egdb_common::*;
use std::sync::Arc;
use std::sync::mpsc;
use tiao::draughts::movegen;
use tiao::draughts::moves::Move;
use tiao::draughts::position::Position;
use tiao::draughts::rules::{Brazilian, Duoyibu, English, International, Rules, Russian};
use tiao::egdb::Wdl;
use tiao::egdb::draughts::DraughtsTables;
use tiao::engine::{EgdbSetting, Engine, EngineOptions, Event};
use tiao::game::Game;
use tiao::search::Limits;
use tiao::search::score::is_table;
use tiao::variant::GameKind;

/// The value of any position for its side to move and its distance to capture, from the
/// tables, captures resolved.
fn value<R: Rules>(t: &DraughtsTables<R>, pos: &Position<R>) -> (Wdl, u32) {
    let moves = movegen::legal_moves(pos);
    if moves.is_empty() {
        return (Wdl::Loss, 0);
    }
    if let Some(p) = t.lookup(pos) {
        return (p.wdl, p.distance.map_or(0, u32::from));
    }
    assert!(moves[0].is_capture(), "not in the tables: {}", pos.fen());
    let best = moves
        .iter()
        .map(|m| value(t, &pos.make(m)).0.flip())
        .max()
        .unwrap();
    (best, 1)
}

/// A move's result for the mover: value, and plies to the next capture.
fn move_value<R: Rules>(t: &DraughtsTables<R>, pos: &Position<R>, m: &Move) -> (Wdl, u32) {
    let (v, d) = value(t, &pos.make(m));
    (v.flip(), if m.is_capture() { 1 } else { d + 1 })
}

/// The defender's move: the best value, and a loss delayed as long as possible.
fn defend<R: Rules>(t: &DraughtsTables<R>, pos: &Position<R>) -> Move {
    movegen::legal_moves(pos)
        .into_iter()
        .max_by_key(|m| {
            let (v, d) = move_value(t, pos, m);
            (
                v,
                if v == Wdl::Loss {
                    d as i64
                } else {
                    -(d as i64)
                },
            )
        })
        .unwrap()
}

/// The tables' own winning move: the quickest capture.
fn attack<R: Rules>(t: &DraughtsTables<R>, pos: &Position<R>) -> Move {
    movegen::legal_moves(pos)
        .into_iter()
        .max_by_key(|m| {
            let (v, d) = move_value(t, pos, m);
            (v, -(d as i64))
        })
        .unwrap()
}

/// How a game from a won position ended.
#[derive(Debug, PartialEq)]
enum End {
    /// The attacker won in this many plies.
    Won(usize),
    /// Something else (a draw by a counter or by repetition, a loss, no end).
    Not(String),
}

/// Plays from `start` (the attacker to move) with `attacker` choosing the attacker's moves and
/// the tables' best defence the defender's.
fn play<R: Rules>(
    t: &DraughtsTables<R>,
    start: &Position<R>,
    mut attacker: impl FnMut(&[Move], &Position<R>) -> Move,
) -> End {
    let me = start.side();
    let mut pos = *start;
    let mut keys = vec![pos.key()];
    let mut line: Vec<Move> = Vec::new();
    for ply in 0..400 {
        if movegen::legal_moves(&pos).is_empty() {
            return if pos.side() == me {
                End::Not(format!("lost after {ply} plies"))
            } else {
                End::Won(ply)
            };
        }
        if let Some(rule) = pos.draw_by_rule() {
            return End::Not(format!("drawn by '{}' after {ply} plies", rule.source));
        }
        let recent = &keys[keys
            .len()
            .saturating_sub(pos.counters().reversible as usize + 1)..];
        if recent.iter().filter(|&&k| k == pos.key()).count() >= 3 {
            return End::Not(format!("drawn by repetition after {ply} plies"));
        }
        let m = if pos.side() == me {
            attacker(&line, &pos)
        } else {
            defend(t, &pos)
        };
        line.push(m);
        pos = pos.make(&m);
        keys.push(pos.key());
    }
    End::Not("no end in 400 plies".into())
}

/// Won positions of `slice` (its side to move wins) that the tables convert within the
/// counters, the longest conversions first, at most `n`.
fn won_positions<R: Rules>(
    t: &DraughtsTables<R>,
    slice: &str,
    n: usize,
) -> Vec<(Position<R>, usize)> {
    let mut found = Vec::new();
    for p in spread::<R>(slice, 3000) {
        if t.lookup(&p).is_some_and(|v| v.wdl == Wdl::Win)
            && let End::Won(plies) = play(t, &p, |_, pos| attack(t, pos))
        {
            found.push((p, plies));
        }
    }
    found.sort_by_key(|(p, plies)| (std::cmp::Reverse(*plies), p.fen()));
    found.truncate(n);
    found
}

/// The engine's move: a fixed-depth search with the tables.
fn engine_move<R: Rules>(
    engine: &mut Engine,
    start: &Position<R>,
    line: &[Move],
    depth: u32,
) -> Move {
    let mut pos = *start;
    let mut texts = Vec::new();
    for m in line {
        texts.push(pos.move_to_hub(m));
        pos = pos.make(m);
    }
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    engine.set_position(Some(&start.fen()), &refs).unwrap();
    let (tx, rx) = mpsc::channel();
    let tx = std::sync::Mutex::new(tx);
    engine
        .search_here(
            Limits::depth(depth),
            Arc::new(move |e| {
                if let Event::Done(d) = e {
                    let _ = tx.lock().unwrap().send(d);
                }
            }),
        )
        .unwrap();
    let done = rx.recv().unwrap();
    pos.parse_move(&done.best.expect("a move").hub).unwrap()
}

fn converts<R: Rules>(slices: &[&str], per_slice: usize) {
    let tables = build::<R>(slices);
    let mut engine = Engine::new(
        GameKind::new(R::VARIANT),
        EngineOptions {
            hash_mib: 16,
            egdb: EgdbSetting::Dir(tables_dir().to_path_buf()),
            ..EngineOptions::default()
        },
    )
    .unwrap();
    assert!(engine.tables().slices > 0, "{:?}", engine.tables());
    let mut failures = Vec::new();
    let mut games = 0;
    for slice in slices {
        let starts = won_positions(&tables, slice, per_slice);
        assert!(!starts.is_empty(), "no won position in {slice}");
        for (start, perfect) in starts {
            engine.new_game();
            let end = play(&tables, &start, |line, _| {
                engine_move(&mut engine, &start, line, 4)
            });
            games += 1;
            match end {
                End::Won(_) => {}
                End::Not(why) => failures.push(format!(
                    "{} {slice} {}: {why} (the tables win in {perfect} plies)",
                    R::VARIANT,
                    start.fen()
                )),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {games} not converted:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn english_endings_are_converted() {
    converts::<English>(&["KKKvK", "KKvKM", "KKMvK", "KMvKM"], 10);
}

#[test]
fn russian_endings_are_converted() {
    converts::<Russian>(&["KKKvK", "KKvKM", "KKMvK", "KMvKM"], 10);
}

#[test]
fn brazilian_endings_are_converted() {
    converts::<Brazilian>(&["KKKvK", "KKvKM", "KKMvK", "KMvKM"], 10);
}

#[test]
fn duoyibu_endings_are_converted() {
    converts::<Duoyibu>(&["KKKvK", "KKvKM", "KKMvK", "KMvKM"], 10);
}

#[test]
fn international_endings_are_converted() {
    converts::<International>(&["KKKvK", "KKMvK", "KMMvK", "KMvKM"], 10);
}

/// A single legal move is played without a search; its score is the tables' when they know the
/// position after it (a table win, not an evaluation).
#[test]
fn a_single_move_into_the_tables_takes_their_score() {
    // Its own directory: the other tests' engines read theirs while it builds.
    let dir = temp_dir("single-move");
    let tables = build_in::<English>(&dir, &["KKvKM"]);
    let start = spread::<English>("KKvKM", 20_000)
        .find(|p| {
            let moves = movegen::legal_moves(p);
            moves.len() == 1
                && tables
                    .lookup(&p.make(&moves[0]))
                    .is_some_and(|v| v.wdl == Wdl::Loss)
        })
        .expect("a position with one move, into a table win");
    let score_of = |egdb: EgdbSetting| {
        let mut engine = Engine::new(
            GameKind::new(English::VARIANT),
            EngineOptions {
                hash_mib: 16,
                egdb,
                ..EngineOptions::default()
            },
        )
        .unwrap();
        engine.set_position(Some(&start.fen()), &[]).unwrap();
        let (tx, rx) = mpsc::channel();
        let tx = std::sync::Mutex::new(tx);
        engine
            .search_here(
                Limits::move_time(std::time::Duration::from_secs(3600)),
                Arc::new(move |e| {
                    if let Event::Done(d) = e {
                        let _ = tx.lock().unwrap().send(d);
                    }
                }),
            )
            .unwrap();
        let done = rx.recv().unwrap();
        assert_eq!(done.depth, 0, "{}: answered at once", start.fen());
        done.score.0
    };
    let with = score_of(EgdbSetting::Dir(dir.clone()));
    assert!(with > 0 && is_table(with), "{}: {with}", start.fen());
    let without = score_of(EgdbSetting::Off);
    assert!(!is_table(without), "{}: {without}", start.fen());
}
