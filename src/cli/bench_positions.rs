//! The bench: a fixed set of positions of every game (each draughts variant and Morris) searched
//! to a fixed depth on one thread. The total node count is the search's signature (it changes
//! exactly when the search or the evaluation changes its decisions); nodes/s measure its speed.
//!
//! Each position is searched from an empty table, so the result does not depend on the order.

use std::path::Path;
use std::time::Duration;
use tiao::dispatch;
use tiao::draughts::position::Position;
use tiao::egdb::Opener;
use tiao::game::Evaluate;
use tiao::search::tt::Tt;
use tiao::search::{self, Params, SearchOptions};
use tiao::variant::{GameKind, Variant};

/// A bench position: variant, FEN, what it is, and how much shallower than the bench depth it is
/// searched (Morris' placing phase branches about twenty ways a ply).
pub struct BenchPosition {
    pub variant: Variant,
    pub fen: &'static str,
    pub what: &'static str,
    pub shallower: u32,
}

/// The bench positions.
pub const POSITIONS: &[BenchPosition] = &[
    BenchPosition {
        variant: Variant::International,
        fen: "W:W31-50:B1-20",
        what: "start",
        shallower: 0,
    },
    BenchPosition {
        variant: Variant::International,
        fen: "W:W27,30,31,32,34,35,37,40,41,43,47,48,49,50:B1,2,3,5,7,9,11,14,16,17,18,19,23,24",
        what: "middlegame",
        shallower: 0,
    },
    BenchPosition {
        variant: Variant::International,
        fen: "W:WK49,27,32,33:BK2,12,17,18",
        what: "endgame with kings",
        shallower: 0,
    },
    BenchPosition {
        variant: Variant::Brazilian,
        fen: "W:W21-32:B1-12",
        what: "start",
        shallower: 0,
    },
    BenchPosition {
        variant: Variant::Brazilian,
        fen: "W:Wf4,h4,a3,c3,e3,g3,a1,c1,e1,g1:Bd8,h8,e7,g7,d6,f6,h6,a5,g5,b4",
        what: "middlegame",
        shallower: 0,
    },
    BenchPosition {
        variant: Variant::Russian,
        fen: "W:W21-32:B1-12",
        what: "start",
        shallower: 0,
    },
    BenchPosition {
        variant: Variant::Russian,
        fen: "W:Wh6,a5,f4,a3,d2,f2,a1,c1,g1:Bb8,d8,f8,a7,c7,e7,f6,c5,h2",
        what: "middlegame",
        shallower: 0,
    },
    BenchPosition {
        variant: Variant::Duoyibu,
        fen: "W:W21-32:B1-12",
        what: "start",
        shallower: 0,
    },
    BenchPosition {
        variant: Variant::Duoyibu,
        fen: "W:WKa3,Kh2,e1:Bg5,Kd4",
        what: "endgame with kings",
        shallower: 0,
    },
    BenchPosition {
        variant: Variant::English,
        fen: "B:W21-32:B1-12",
        what: "start",
        shallower: 0,
    },
    BenchPosition {
        variant: Variant::English,
        fen: "B:W5,14,23,28,29,30,31,32:B1,2,3,4,6,8,20,21",
        what: "middlegame",
        shallower: 0,
    },
    BenchPosition {
        variant: Variant::Morris,
        fen: "W:W:B:H9,9:R0",
        what: "start (placing)",
        shallower: 6,
    },
    BenchPosition {
        variant: Variant::Morris,
        fen: "W:Wa7,d7,b6,f4,d2,g1,c3:Bg7,f6,d5,e4,b4,a1,d1,c5:H0,0:R6",
        what: "moving phase",
        shallower: 2,
    },
];

/// Default bench depth (plies).
pub const DEFAULT_DEPTH: u32 = 16;

/// The result of one bench position.
#[derive(Clone, Debug)]
pub struct BenchLine {
    pub nodes: u64,
    pub time: Duration,
    /// The best move (PDN).
    pub best: String,
}

fn run_one<G: Evaluate>(
    fen: &str,
    depth: u32,
    tt: &Tt,
    params: &Params,
    tables: Option<Opener<G>>,
    egdb: Option<&Path>,
) -> Result<BenchLine, String> {
    let pos = G::from_fen(fen).map_err(|e| format!("bench FEN '{fen}': {e}"))?;
    // The first evaluation of a variant loads its tables (the pattern weights, read once): here,
    // outside the timed search, so that nodes/s is the search's.
    std::hint::black_box(pos.evaluate());
    let opts = SearchOptions {
        params: params.clone(),
        ..SearchOptions::default()
    };
    let opened = match (tables, egdb) {
        (Some(open), Some(dir)) => open(dir, pos.variant()).tables,
        _ => None,
    };
    let r = match &opened {
        None => search::search_to_depth_with(&pos, depth, tt, &opts),
        Some(t) => {
            tt.clear();
            let limits = search::Limits {
                analyze: true,
                ..search::Limits::depth(depth)
            };
            search::search_with_tables(
                &pos,
                &[],
                &limits,
                &opts,
                Some(&**t),
                tt,
                &search::Control::new(false),
                None,
                &mut |_| {},
            )
        }
    };
    Ok(BenchLine {
        nodes: r.nodes,
        time: r.time,
        best: r.best.map_or("none".into(), |m| pos.move_to_pdn(&m)),
    })
}

/// Searches one bench position to the bench `depth` (less its `shallower`) with the table `tt`,
/// the search parameters `params` (the signature is that of the defaults) and the endgame
/// tables of `egdb` (which change the signature).
pub fn run_position_with_tables(
    p: &BenchPosition,
    depth: u32,
    tt: &Tt,
    params: &Params,
    egdb: Option<&Path>,
) -> Result<BenchLine, String> {
    let depth = depth.saturating_sub(p.shallower).max(1);
    dispatch!(GameKind::new(p.variant),
        R => run_one::<Position<R>>(p.fen, depth, tt, params, Some(tiao::egdb::draughts::open::<R>), egdb),
        morris => run_one::<tiao::morris::MorrisPosition>(p.fen, depth, tt, params, None, egdb))
}
