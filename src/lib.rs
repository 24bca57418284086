//! tiao (跳, "jump"): a game engine for draughts (international, brazilian, russian, duoyibu,
//! english) and Nine Men's Morris.
//!
//! Layers, bottom up:
//! - [`board`], [`rules`], [`movegen`], [`position`], [`draw`], [`notation`]: the draughts rules,
//!   bitboard move generation and notation, generic over a rules type per variant;
//! - [`game`]: the generic game interface the search is written against; [`variant`]: the run-time
//!   choice of game, resolved once by [`dispatch!`]; [`track`]: a game being played (its moves and
//!   its end by the rules), shared by the match referee and DXP, and the one replay of games
//!   given as text;
//! - [`morris`]: Nine Men's Morris, a game of its own behind the same traits;
//! - [`perft`]: move-tree counting for every game;
//! - [`eval`]: static evaluation ([`eval::Evaluate`]), weights as data; [`search`]: iterative
//!   deepening alpha-beta with quiescence, Lazy SMP over the shared [`tt`], limits and [`time`]
//!   management, reporting through callbacks (it never prints);
//! - [`engine`]: the facade the protocols drive (background searches, events, options);
//!   [`bench`](mod@bench): the search signature; [`matches`](mod@matches): self-play matches between configurations.
//! - [`protocol`]: the Hub and DXP protocols (parse and format only);
//! - [`rng`]: the one small fixed-seed generator (match openings, Morris sample games).

pub mod analysis;
pub mod bench;
pub mod board;
pub mod color;
pub mod draw;
pub mod engine;
pub mod eval;
pub mod game;
pub mod matches;
pub mod morris;
pub mod movegen;
pub mod notation;
pub mod perft;
pub mod position;
pub mod protocol;
pub mod render;
pub mod rng;
pub mod rules;
pub mod search;
pub mod time;
pub mod track;
pub mod tt;
pub mod variant;
