//! DXP, the DamExchange Protocol: international draughts (10x10) engines playing each other over
//! TCP (Scan, Kingsrow, Moby Dam and pydraughts' `DXPEngine` speak it). `docs/dxp.md` is its
//! user-facing description.
//!
//! Layers, bottom up:
//! - [`message`]: the typed messages and their fixed-width text, with typed errors;
//! - [`framing`]: NUL-terminated frames over a byte stream, however the reads split them;
//! - [`game`]: one game, on the shared [`GameTrack`](crate::track::GameTrack): MOVE matching,
//!   take-backs, the move limit, the result; [`clock`]: our clock and the time of each move;
//! - [`session`]: one connection's state machine in either role, driving the [`Engine`];
//! - [`server`] (follower, TCP server) and [`client`] (initiator, TCP client);
//! - [`pdn`]: finished games as PDN; [`log`]: one line per event.
//!
//! The DXP role (initiator or follower) and the TCP role (client or server) are independent in
//! the protocol; tiao pairs them as Scan and pydraughts do: the follower listens, the initiator
//! connects.

pub mod client;
pub mod clock;
pub mod framing;
pub mod game;
pub mod log;
pub mod message;
pub mod pdn;
pub mod server;
pub mod session;

use crate::engine::{Engine, EngineError, EngineOptions};
use crate::search::time::TimeParams;
use crate::variant::{GameKind, Variant};

/// The default TCP port of DXP (`tiao dxp --listen` defaults to it on 127.0.0.1).
pub const DEFAULT_PORT: u16 = 27531;

/// An engine for DXP games: international draughts, with the DXP move overhead, the endgame
/// tables of `egdb` and the opening book on (as in the Hub).
pub fn engine(
    threads: usize,
    hash_mib: usize,
    egdb: crate::engine::EgdbSetting,
) -> Result<Engine, EngineError> {
    Engine::new(
        GameKind::new(Variant::International),
        EngineOptions {
            threads,
            hash_mib,
            egdb,
            // A network opponent waits for us: large tables are checked while we play.
            egdb_check: crate::engine::TableCheck::Background,
            time: TimeParams {
                move_overhead: clock::MOVE_OVERHEAD,
                ..TimeParams::default()
            },
            // As the Hub engine: the opening book on.
            book: crate::engine::BookOptions::on(),
            ..EngineOptions::default()
        },
    )
}
