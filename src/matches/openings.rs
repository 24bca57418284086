//! Match openings: balanced positions a few plies from the start, the same for every run.
//!
//! A position is a random walk of `plies` legal moves from the start (a fixed-seed generator), kept
//! when a shallow search finds it balanced (within [`BALANCE`]) and it differs from the positions
//! already kept.

use crate::eval::Evaluate;
use crate::movegen::MoveList;
use crate::search;
use crate::tt::Tt;
use std::collections::HashSet;

/// Largest |score| of a kept opening, centi-men.
pub const BALANCE: i32 = 40;
/// Depth of the balance check, plies.
const CHECK_DEPTH: u32 = 6;
/// Walks tried per opening kept before giving up on balance.
const TRIES_PER_OPENING: usize = 50;

/// xorshift64*: small, fixed, good enough to pick moves.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

/// `count` distinct balanced openings of `plies` plies (fewer if the game has fewer).
pub fn openings<G: Evaluate>(count: usize, plies: u32, seed: u64) -> Vec<G> {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let tt = Tt::new(1);
    let mut seen = HashSet::new();
    let mut out = Vec::with_capacity(count);
    let mut list = MoveList::default();
    let mut tries = 0;
    while out.len() < count && tries < count * TRIES_PER_OPENING {
        tries += 1;
        let mut pos = G::start();
        let mut ok = true;
        for _ in 0..plies {
            pos.generate(&mut list);
            if list.is_empty() {
                ok = false;
                break;
            }
            let i = (rng.next() % list.len() as u64) as usize;
            pos = pos.make(&list[i]);
        }
        pos.generate(&mut list);
        if !ok || list.is_empty() || !seen.insert(pos.key()) {
            continue;
        }
        let r = search::search_to_depth(&pos, CHECK_DEPTH, &tt);
        if r.score.0.abs() <= BALANCE {
            out.push(pos);
        }
    }
    out
}
