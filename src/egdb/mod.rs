//! Endgame tables. This file is a placeholder until the game-agnostic part (file format, build
//! and verify drivers, the probe trait) lands; it holds the Nine Men's Morris part, [`morris`].

pub mod morris;
