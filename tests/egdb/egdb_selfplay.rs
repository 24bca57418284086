//! Self-play ended by endgame tables (`tiao selfplay --egdb`): a game ends at its first position
//! of at most `pieces` pieces that the tables cover, kept as any other, and its result is the
//! tables' value there; everything before that point is the game played without tables.

use crate::egdb_common::*;
use tiao::draughts::position::Position;
use tiao::draughts::rules::Russian;
use tiao::egdb::draughts::open_tables;
use tiao::egdb::{Probe, Wdl};
use tiao::game::color::Color;
use tiao::search::tt::Tt;
use tiao::training::data::Record;
use tiao::training::selfplay::{Settings, TableEnd, play_game, play_game_ending};

fn pieces(r: &Record) -> u32 {
    (r.white | r.black).count_ones()
}

/// A record without its game's result (the one thing the tables may change before the end).
fn unscored(r: &Record) -> Record {
    Record { result: 0, ..*r }
}

#[test]
fn games_end_where_the_tables_take_over() {
    let dir = temp_dir("selfplay-end");
    build_all::<Russian>(&dir, 3);
    let (tables, problems) = open_tables::<Russian>(&dir);
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(tables.complete_pieces(), 3);
    let end = TableEnd::<Russian> {
        tables: &tables,
        pieces: 3,
    };
    let s = Settings {
        nodes: 300,
        opening_plies: 6,
        max_plies: 300,
        seed: 11,
    };
    let (mut ended, mut scored_there) = (0, 0);
    for g in 0..16 {
        let plain = play_game::<Russian>(&s, g, &Tt::new(1));
        let cut = play_game_ending::<Russian>(&s, g, Some(&end), &Tt::new(1));
        // The same game up to where the tables took over: its records a prefix of the plain
        // game's, scores and plies alike.
        assert!(cut.records.len() <= plain.records.len(), "game {g}");
        for (c, p) in cut.records.iter().zip(&plain.records) {
            assert_eq!(unscored(c), unscored(p), "game {g}");
            assert_eq!(c.result, cut.result, "game {g}");
        }
        if !cut.tabled {
            // Never covered: exactly the plain game.
            assert_eq!(cut, plain, "game {g}");
            assert!(plain.records.iter().all(|r| pieces(r) > 3), "game {g}");
            continue;
        }
        ended += 1;
        assert!(!cut.adjudicated, "game {g}");
        assert!(cut.plies <= plain.plies, "game {g}");
        // Only the last kept position may be one the tables cover.
        let (last, before) = cut.records.split_last().expect("positions kept");
        assert!(before.iter().all(|r| pieces(r) > 3), "game {g}");
        if pieces(last) <= 3 {
            // The first position of at most 3 pieces follows a capture, so the draw counters
            // are at zero there, as in a position set up from the record.
            let pos =
                Position::<Russian>::from_parts(last.white, last.black, last.kings, last.side)
                    .unwrap();
            let mover = match tables.probe(&pos).expect("covered").wdl {
                Wdl::Win => 1,
                Wdl::Draw => 0,
                Wdl::Loss => -1,
            };
            let white = if last.side == Color::White {
                mover
            } else {
                -mover
            };
            assert_eq!(cut.result, white, "game {g}");
            scored_there += 1;
        }
    }
    assert!(ended >= 4, "{ended} of 16 games reached 3 pieces");
    assert!(
        scored_there >= 2,
        "{scored_there} kept their covered position"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
