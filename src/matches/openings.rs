//! Match openings: where each pair of games starts.
//!
//! An [`Opening`] is a position (a FEN, or the variant's start) and moves played from it; each is
//! played twice, colours reversed. Sources:
//! - english: the 156 three-move ballots of the current ACF deck ([`super::ballots`]), shuffled
//!   by the seed (seed 0 keeps the ACF order); asked for more than three plies, each ballot in
//!   turn continued by a random walk to that length (more openings than the deck, still from
//!   the ballots);
//! - every other game: random walks of a few plies from the start (the fixed-seed [`Rng`]);
//! - a file ([`parse_file`]): a PDN file (each game's `FEN` tag and moves), or one opening per
//!   line, a FEN or a move sequence (`1. 32-28 19-23 2. ...` or `32-28 19-23`), `#` comments.
//!
//! A random walk is kept when a shallow search finds its position balanced (within [`BALANCE`])
//! and different from those already kept ([`random_walks`]); the first `n` walks do not depend on
//! how many are asked for.

use super::ballots;
use super::referee::track_for;
use crate::dispatch;
use crate::draughts::position::Position;
use crate::draughts::rules::{English, Variant};
use crate::game::Evaluate;
use crate::game::rng::Rng;
use crate::game::walk::random_walk;
use crate::morris::MorrisPosition;
use crate::pdn;
use crate::search;
use crate::search::tt::Tt;
use crate::track::ReplayError;
use crate::variant::GameKind;
use std::collections::HashSet;

pub use crate::game::walk::BALANCE;
/// Depth of the balance check, plies.
const CHECK_DEPTH: u32 = 6;
/// Walks tried per opening kept before giving up on balance.
const TRIES_PER_OPENING: usize = 50;

/// Where a pair of games starts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Opening {
    /// A short name for the record (`ballot 12`, `walk 3`, `line 7`).
    pub name: String,
    /// The initial position; `None` is the variant's start.
    pub fen: Option<String>,
    /// Moves played from it before the engines take over.
    pub moves: Vec<String>,
}

/// Plies of the english ballots: up to this many, the built-in english openings are the deck.
pub const BALLOT_PLIES: u32 = 3;

/// The default length of a game's built-in openings, in plies: 6 on 10x10, the ballots' 3 in
/// english, 4 on the other boards.
pub fn default_plies(kind: GameKind) -> u32 {
    match kind.variant {
        Variant::International => 6,
        Variant::English => BALLOT_PLIES,
        _ => 4,
    }
}

/// The built-in openings of a game: `count` of them (english up to [`BALLOT_PLIES`]: the whole
/// deck whatever the count; longer: walks from the ballots).
pub fn builtin(kind: GameKind, count: usize, plies: u32, seed: u64) -> Vec<Opening> {
    if kind.variant == Variant::English {
        let deck = english_deck(seed);
        if plies <= BALLOT_PLIES {
            return deck;
        }
        return walks_from::<Position<English>>(&deck, count, plies, seed);
    }
    dispatch!(kind,
        R => random_walks::<Position<R>>(count, plies, seed),
        morris => random_walks::<MorrisPosition>(count, plies, seed))
}

/// The 156 ballots, shuffled by `seed` (0: ACF order).
pub fn english_deck(seed: u64) -> Vec<Opening> {
    let mut deck: Vec<Opening> = ballots::deck()
        .into_iter()
        .map(|b| Opening {
            name: format!("ballot {} ({})", b.number, b.moves.join(" ")),
            fen: None,
            moves: b.moves.to_vec(),
        })
        .collect();
    if seed != 0 {
        let mut rng = Rng::new(seed);
        for i in (1..deck.len()).rev() {
            let j = rng.below(i + 1);
            deck.swap(i, j);
        }
    }
    deck
}

/// `count` distinct balanced random walks of `plies` plies from the start (fewer if the game has
/// fewer).
pub fn random_walks<G: Evaluate>(count: usize, plies: u32, seed: u64) -> Vec<Opening> {
    walks_from::<G>(&[Opening::default()], count, plies, seed)
}

/// `count` distinct balanced openings of `plies` plies, each one of `starts` (in turn, one per
/// try) continued by a random walk; `starts` are legal move sequences from the start of `G`.
fn walks_from<G: Evaluate>(
    starts: &[Opening],
    count: usize,
    plies: u32,
    seed: u64,
) -> Vec<Opening> {
    // Each start replayed once: its position.
    let start_positions: Vec<G> = starts
        .iter()
        .map(|o| {
            o.moves.iter().fold(G::start(), |pos, m| {
                pos.make(&pos.parse_move(m).expect("a built-in opening is legal"))
            })
        })
        .collect();
    let mut rng = Rng::new(seed);
    let tt = Tt::new(1);
    let mut seen = HashSet::new();
    let mut out = Vec::with_capacity(count);
    let mut tries = 0;
    while out.len() < count && tries < count * TRIES_PER_OPENING {
        let (start, from) = (
            &starts[tries % starts.len()],
            start_positions[tries % starts.len()],
        );
        tries += 1;
        let mut moves = start.moves.clone();
        let walk = plies.saturating_sub(moves.len() as u32);
        let end = random_walk(from, walk, &mut rng, |p, m| moves.push(p.move_to_pdn(m)));
        let Some(pos) = end.filter(|p| seen.insert(p.key())) else {
            continue;
        };
        let r = search::search_to_depth(&pos, CHECK_DEPTH, &tt);
        if r.score.0.abs() <= BALANCE {
            let n = out.len() + 1;
            out.push(Opening {
                name: if start.name.is_empty() {
                    format!("walk {n}")
                } else {
                    format!("walk {n} from {}", start.name)
                },
                fen: None,
                moves,
            });
        }
    }
    out
}

/// Reads openings from a file's text (see the module documentation), each checked against the
/// rules of `kind`.
pub fn parse_file(kind: GameKind, text: &str) -> Result<Vec<Opening>, String> {
    let looks_pdn = text.lines().any(|l| l.trim_start().starts_with('['));
    let mut out = Vec::new();
    if looks_pdn {
        let games = pdn::parse(text).map_err(|e| e.to_string())?;
        for (i, g) in games.iter().enumerate() {
            out.push(Opening {
                name: format!("game {}", i + 1),
                fen: g.fen().map(str::to_string),
                moves: g.moves.iter().map(|m| m.text.clone()).collect(),
            });
        }
    } else {
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let name = format!("line {}", n + 1);
            // A FEN has a ':' after its side letter; move text never starts that way.
            let is_fen = line.len() > 1
                && line.as_bytes()[0].is_ascii_alphabetic()
                && line[1..].trim_start().starts_with(':');
            if is_fen {
                out.push(Opening {
                    name,
                    fen: Some(line.to_string()),
                    moves: Vec::new(),
                });
            } else {
                let games = pdn::parse(line).map_err(|e| format!("line {}: {e}", n + 1))?;
                let moves = games
                    .first()
                    .map(|g| g.moves.iter().map(|m| m.text.clone()).collect())
                    .unwrap_or_default();
                out.push(Opening {
                    name,
                    fen: None,
                    moves,
                });
            }
        }
    }
    for o in &out {
        check(kind, o)?;
    }
    if out.is_empty() {
        return Err("no openings in the file".into());
    }
    Ok(out)
}

/// Checks that an opening replays and leaves a game to play.
pub fn check(kind: GameKind, o: &Opening) -> Result<(), String> {
    let t = track_for(kind, o.fen.as_deref(), o.moves.iter().map(String::as_str)).map_err(|e| {
        let why = match e {
            ReplayError::BadMove { reason, .. } => reason.to_string(),
            e => e.to_string(),
        };
        format!("{}: {why}", o.name)
    })?;
    if let Some(end) = t.status() {
        return Err(format!("{}: the game is already over ({end:?})", o.name));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_walks_are_distinct_balanced_and_stable() {
        let kind = GameKind::new(Variant::Russian);
        let a = builtin(kind, 6, 4, 1);
        assert_eq!(a.len(), 6);
        let b = builtin(kind, 3, 4, 1);
        assert_eq!(&a[..3], &b[..]);
        for o in &a {
            assert_eq!(o.moves.len(), 4);
            check(kind, o).unwrap();
        }
    }

    #[test]
    fn english_uses_the_deck() {
        let kind = GameKind::new(Variant::English);
        assert_eq!(default_plies(kind), BALLOT_PLIES);
        let d = builtin(kind, 2, BALLOT_PLIES, 0);
        assert_eq!(d.len(), 156);
        assert_eq!(d[0].moves, ["9-13", "21-17", "5-9"]);
        let shuffled = builtin(kind, 2, BALLOT_PLIES, 7);
        assert_eq!(shuffled.len(), 156);
        assert_ne!(shuffled, d);
        for o in &shuffled {
            check(kind, o).unwrap();
        }
    }

    #[test]
    fn longer_english_openings_continue_the_ballots() {
        let kind = GameKind::new(Variant::English);
        let deck = english_deck(3);
        let walks = builtin(kind, 400, 7, 3);
        assert_eq!(walks.len(), 400, "more openings than the deck");
        let mut ballots_used = HashSet::new();
        for o in &walks {
            assert_eq!(o.moves.len(), 7);
            check(kind, o).unwrap();
            let ballot = deck
                .iter()
                .position(|b| o.moves[..3] == b.moves[..])
                .expect("every walk starts with a ballot of the deck");
            assert!(o.name.ends_with(&deck[ballot].name), "{}", o.name);
            ballots_used.insert(ballot);
        }
        assert!(ballots_used.len() > 100, "{} ballots", ballots_used.len());
        assert_eq!(builtin(kind, 10, 7, 3)[..], walks[..10]);
    }

    #[test]
    fn files_of_fens_and_moves() {
        let kind = GameKind::new(Variant::International);
        let text = "# openings\nW:W31-50:B1-20\n1. 32-28 19-23 2. 28x19 14x23\n\n33-29 17-21\n";
        let o = parse_file(kind, text).unwrap();
        assert_eq!(o.len(), 3);
        assert_eq!(o[0].fen.as_deref(), Some("W:W31-50:B1-20"));
        assert_eq!(o[1].moves, ["32-28", "19-23", "28x19", "14x23"]);
        assert_eq!(o[2].moves.len(), 2);
        assert!(parse_file(kind, "32-28 32-28").is_err());
        assert!(parse_file(kind, "W:W99:B1").is_err());
        assert!(parse_file(kind, "# nothing").is_err());
        let pdn = "[FEN \"B:W31-50:B1-20\"]\n1... 19-23 *\n[Event \"x\"]\n1. 32-28 *";
        let o = parse_file(kind, pdn).unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o[0].fen.as_deref(), Some("B:W31-50:B1-20"));
    }
}
