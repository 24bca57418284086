//! Deeper labels for self-play data (`tiao relabel`): each position of a chunk searched again at
//! a larger node count, its stored score replaced by the deeper search's; the position, the
//! game's result and the ply are kept.
//!
//! Self-play is cheapest at a small node count (many games, many positions a core-hour), but
//! then its scores are those of a shallow search, and the evaluation fitted to them can only
//! learn what that search sees. Relabelling spends a deeper search on positions that are
//! already there: on all of a file, or on a share of its chunks.
//!
//! Determinism: a chunk's new scores depend only on its records, the node count and the build.
//! The table is cleared at the chunk's start, the positions are searched in their order (so a
//! game's positions share what the search learned on the plies before), one thread, a node
//! limit, never a time limit, no game history (a record has none). So any split of the chunks
//! over threads, processes or machines gives the same scores, and the chunks of the parts,
//! concatenated in the input's order, are those of the whole.
//!
//! Endgame labels: with endgame tables ([`Relabel::tables`]) the search probes them, so a
//! position they cover is scored exactly (a table win or loss is stored as ±`DECISIVE`, a
//! draw as 0) and a position a few captures above them is scored by a search that reaches
//! them, where the self-play's search (which never probes tables) scored both by the
//! evaluation. A record holds no draw counters or game history: the tables answer as for a
//! position whose counters are at zero. With [`Relabel::max_pieces`] only the positions of at
//! most that many pieces are searched again (the endings), the others keep their score.
//!
//! Invariant: [`relabel_chunk`] changes nothing but `score`, and refuses a record that is not a
//! position of the rules before it changes anything.

use super::data::Record;
use super::selfplay::{node_search_with_tables, stored_score};
use crate::draughts::board::Geometry;
use crate::draughts::position::Position;
use crate::draughts::rules::Rules;
use crate::egdb::Probe;
use crate::game::Game;
use crate::search::tt::Tt;
use std::fmt;

/// A record that is not a position of the rules the chunk is relabelled with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RelabelError {
    /// The record's index in its chunk.
    pub index: usize,
    /// Why it is not a position.
    pub reason: String,
}

impl fmt::Display for RelabelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "record {}: {}", self.index, self.reason)
    }
}

impl std::error::Error for RelabelError {}

/// The position of record `r` under rules `R`.
fn position_of<R: Rules>(r: &Record) -> Result<Position<R>, String> {
    let all = <R::Board as Geometry>::ALL;
    if (r.white | r.black | r.kings) & !all != 0 {
        return Err("pieces outside the board".to_string());
    }
    Position::<R>::from_parts(r.white, r.black, r.kings, r.side).map_err(|e| e.to_string())
}

/// How the positions of a chunk are scored again.
#[derive(Clone, Copy)]
pub struct Relabel<'a, R: Rules> {
    /// Nodes searched per position.
    pub nodes: u64,
    /// Only positions of at most this many pieces are searched again; the others keep their
    /// score (`u32::MAX`: every position).
    pub max_pieces: u32,
    /// Endgame tables the search probes, or none.
    pub tables: Option<&'a dyn Probe<Position<R>>>,
}

impl<R: Rules> Relabel<'_, R> {
    /// Every position searched again at `nodes`, without tables.
    pub fn nodes(nodes: u64) -> Self {
        Relabel {
            nodes,
            max_pieces: u32::MAX,
            tables: None,
        }
    }
}

/// Searches the positions of `records` (one chunk, in order) as `how` says, on `tt` (cleared
/// first), and stores the scores. Every record is checked first: on an error nothing has
/// changed.
pub fn relabel_chunk<R: Rules>(
    records: &mut [Record],
    how: &Relabel<'_, R>,
    tt: &Tt,
) -> Result<(), RelabelError> {
    let positions = records
        .iter()
        .enumerate()
        .map(|(index, r)| position_of::<R>(r).map_err(|reason| RelabelError { index, reason }))
        .collect::<Result<Vec<_>, _>>()?;
    tt.clear();
    for (r, pos) in records.iter_mut().zip(&positions) {
        if pos.piece_count() <= how.max_pieces {
            let found = node_search_with_tables(pos, &[], how.nodes, how.tables, tt);
            r.score = stored_score(found.score.0);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::rules::{International, Russian};
    use crate::training::selfplay::{Settings, play_game};

    fn game_records<R: Rules>(game: u64) -> Vec<Record> {
        let s = Settings {
            nodes: 200,
            opening_plies: 6,
            max_plies: 120,
            seed: 9,
        };
        play_game::<R>(&s, game, &Tt::new(1)).records
    }

    #[test]
    fn only_the_scores_change_and_they_are_deterministic() {
        let original = game_records::<International>(1);
        assert!(original.len() > 10);
        let mut a = original.clone();
        relabel_chunk::<International>(&mut a, &Relabel::nodes(3000), &Tt::new(1)).unwrap();
        // Another table size, a table holding another chunk's entries: the same scores.
        let tt = Tt::new(2);
        let mut other = game_records::<International>(2);
        relabel_chunk::<International>(&mut other, &Relabel::nodes(3000), &tt).unwrap();
        let mut b = original.clone();
        relabel_chunk::<International>(&mut b, &Relabel::nodes(3000), &tt).unwrap();
        assert_eq!(a, b);
        for (new, old) in a.iter().zip(&original) {
            let keep = Record {
                score: old.score,
                ..*new
            };
            assert_eq!(&keep, old);
        }
        // A deeper search than the self-play's 200 nodes scores some positions differently.
        assert!(a.iter().zip(&original).any(|(n, o)| n.score != o.score));
    }

    #[test]
    fn a_record_that_is_no_position_is_refused_and_nothing_changes() {
        let mut records = game_records::<Russian>(0);
        assert!(records.len() > 3);
        // A bit outside the 8x8 board.
        records[3].white |= 1 << 63;
        let before = records.clone();
        let e =
            relabel_chunk::<Russian>(&mut records, &Relabel::nodes(500), &Tt::new(1)).unwrap_err();
        assert_eq!(e.index, 3);
        assert!(e.to_string().contains("outside the board"), "{e}");
        assert_eq!(records, before);
    }
}
