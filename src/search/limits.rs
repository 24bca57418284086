//! What bounds a search: depth, nodes, time per move, a clock, or nothing (infinite), and the
//! search modes (ponder, analysis).

use std::time::Duration;

/// The limits of one search. Several may be given; the search stops at the first one reached.
/// With none, the search runs to the maximum depth (or until stopped).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Limits {
    /// Deepest iteration, in plies.
    pub depth: Option<u32>,
    /// Nodes, over all threads.
    pub nodes: Option<u64>,
    /// Fixed time for this move.
    pub move_time: Option<Duration>,
    /// Time left on the clock, **before** this move's increment is added (Hub: "the increment is
    /// added before every move").
    pub time: Option<Duration>,
    /// Increment per move.
    pub inc: Duration,
    /// Moves to play until the next time control (`None`: sudden death / Fischer).
    pub moves_to_go: Option<u32>,
    /// Search until stopped (the search may still end by itself at the maximum depth).
    pub infinite: bool,
    /// Pondering: no time limit until `ponder_hit`, after which `time`/`move_time` apply.
    pub ponder: bool,
    /// Analysis (Hub `go analyze`): a single legal move is searched too, instead of being
    /// answered at once.
    pub analyze: bool,
}

impl Limits {
    /// A fixed-depth search.
    pub fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    /// A fixed-node search.
    pub fn nodes(n: u64) -> Limits {
        Limits {
            nodes: Some(n),
            ..Limits::default()
        }
    }

    /// A fixed time per move.
    pub fn move_time(t: Duration) -> Limits {
        Limits {
            move_time: Some(t),
            ..Limits::default()
        }
    }

    /// An infinite (analysis) search.
    pub fn infinite() -> Limits {
        Limits {
            infinite: true,
            analyze: true,
            ..Limits::default()
        }
    }

    /// Whether the search has a time limit (once not pondering).
    pub fn is_timed(&self) -> bool {
        self.move_time.is_some() || self.time.is_some()
    }
}
