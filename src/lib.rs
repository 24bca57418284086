//! tiao (跳, "jump"): a game engine for draughts (international, brazilian, russian, duoyibu,
//! english) and Nine Men's Morris.
//!
//! The tree reads "two games, one engine, then the ways in". Floors, bottom up; every import goes
//! from a floor to one below it:
//! - what both games share: [`game`] (the [`Game`](game::Game) and
//!   [`Evaluate`](game::Evaluate) traits the search is written against, the move list, the
//!   variant names, the move text errors, [`color`](game::color), [`rng`](game::rng): the
//!   fixed-seed generator and the Zobrist keys);
//! - the two games: [`draughts`] (rules values per variant, bitboard move generation, position,
//!   draw counters, notation, evaluation) and [`morris`] (Nine Men's Morris, the same shape);
//! - the engine: [`search`] (iterative deepening alpha-beta with quiescence, Lazy SMP over the
//!   shared [`tt`](search::tt), limits and [`time`](search::time) management, reporting through
//!   callbacks: it never prints), [`perft`]; [`memory`]: the check every table size given from
//!   outside passes; [`numbers`]: the one reader of the whole numbers and times users give;
//!   [`variant`]: the run-time choice of game, resolved once by [`dispatch!`]; [`engine`]: the
//!   facade the protocols drive (background searches, events, options); [`track`]: a game
//!   being played and the one replay of games given as text; [`pdn`]: game records; [`book`]:
//!   opening books (format, build by drop-out expansion, probe);
//! - the ways in: [`protocol`] (Hub and DXP, parse and format only), [`gui`] (the board in the
//!   browser, serve only), [`matches`](mod@matches)
//!   (engine matches), [`analysis`], [`render`], [`training`] (fitting the evaluation), and the
//!   `tiao` command line (`src/cli`, with the bench positions and their signature).

pub mod analysis;
pub mod book;
pub mod draughts;
pub mod egdb;
pub mod engine;
pub mod game;
pub mod gui;
pub mod matches;
pub mod memory;
pub mod morris;
pub mod numbers;
pub mod pdn;
pub mod perft;
pub mod protocol;
pub mod render;
pub mod search;
pub mod track;
pub mod training;
pub mod variant;
