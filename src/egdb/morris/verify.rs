//! The verify pass: every stored value of a sector agrees with the values of its successors.
//!
//! For each position (holes must hold a draw) the moves are generated afresh and their values
//! looked up: in the mirror sector for a move that removes nothing, one removal below for a move
//! that closes a mill (a removal that leaves 2 pieces wins). The value must then be exactly what
//! the rules make of them: a win at the least distance over the winning moves (`1` for a winning
//! removal, `d + 1` for a move to a position lost in `d`), else a draw if a move reaches a draw,
//! else a loss at the greatest distance over all moves (`1` for a removal, `d + 1` otherwise; `0`
//! with no move). Distances compare saturated at [`MAX_DISTANCE`](super::value::MAX_DISTANCE).
//!
//! This is a check of local consistency: it cannot tell a drawn cycle from a won one, which the
//! tests do by solving small sectors a second, naive way.

use super::index::{MIN_PIECES, Sector};
use super::solve::{moves, removal_target};
use super::value::{DRAW, Value, is_loss, is_win};
use crate::morris::board::{ALL, bit, closes_mill, points, removable};
use rayon::prelude::*;

/// What a verification found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Checked {
    /// Positions checked (holes included).
    pub checked: u64,
    /// Positions whose stored value disagrees with their successors'.
    pub errors: u64,
    /// A few of them, described.
    pub examples: Vec<String>,
}

/// The value the rules give the position (`x` to move against `y`) from its successors' values.
fn expected(sector: Sector, x: u32, y: u32, mirror: &[u8], lower: Option<&[u8]>) -> u8 {
    let mirror_sector = sector.mirror();
    let target = removal_target(sector);
    let empty = ALL & !(x | y);
    let mut list = [(0u8, 0u8); 64];
    let n = moves(x, empty, sector.stm == MIN_PIECES, &mut list);
    if n == 0 {
        return Value::Loss(0).encode();
    }
    let victims = removable(y);
    let mut win: Option<u8> = None;
    let mut loss: u8 = 0;
    let mut draw = false;
    let inc = |code: u8| (code & 127).saturating_add(1).min(127);
    for &(from, to) in &list[..n] {
        let x2 = x ^ bit(from) ^ bit(to);
        if closes_mill(x2, to) {
            match (target, lower) {
                (Some(t), Some(lv)) => {
                    let row = t.row_of(x2);
                    for v in points(victims) {
                        let code = lv[t.index_in(&row, y ^ bit(v)) as usize];
                        if is_loss(code) {
                            win = Some(1);
                        } else if code == DRAW {
                            draw = true;
                        } else {
                            loss = loss.max(1);
                        }
                    }
                }
                _ => win = Some(1),
            }
        } else {
            let code = mirror[mirror_sector.index(y, x2) as usize];
            if is_loss(code) {
                let d = inc(code - 128);
                win = Some(win.map_or(d, |w| w.min(d)));
            } else if is_win(code) {
                loss = loss.max(inc(code));
            } else {
                draw = true;
            }
        }
    }
    match win {
        Some(d) => Value::Win(d as u32).encode(),
        None if draw => DRAW,
        None => Value::Loss(loss as u32).encode(),
    }
}

/// Checks `values` of `sector` against `mirror` (the values of `sector.mirror()`) and `lower` (the
/// sector one removal below, absent when a removal wins outright). `progress` hears of the
/// slots checked.
pub fn verify_sector(
    sector: Sector,
    values: &[u8],
    mirror: &[u8],
    lower: Option<&[u8]>,
    progress: &(dyn Fn(u64) + Sync),
) -> Checked {
    let len = sector.row_len() as usize;
    let rows = sector.rows();
    values
        .par_chunks(len)
        .enumerate()
        .map(|(row, chunk)| {
            let y = rows.rep(row);
            let stab = rows.stabiliser(row);
            let free = ALL & !y;
            let mut c = Checked::default();
            let mut inner: u32 = (1 << sector.stm) - 1;
            for (r, &stored) in chunk.iter().enumerate() {
                let x = super::index::deposit(inner, free);
                if r + 1 < len {
                    inner = super::index::next_combination(inner);
                }
                c.checked += 1;
                let hole = stab != 0 && super::index::least_rank(x, y, stab, r as u64) != r as u64;
                let want = if hole {
                    DRAW
                } else {
                    expected(sector, x, y, mirror, lower)
                };
                if stored != want {
                    c.errors += 1;
                    if c.examples.len() < 3 {
                        c.examples.push(format!(
                            "sector {}-{} slot {}: stored {:?}, successors give {:?}",
                            sector.stm,
                            sector.opp,
                            row * len + r,
                            Value::decode(stored),
                            Value::decode(want)
                        ));
                    }
                }
            }
            progress(len as u64);
            c
        })
        .reduce(Checked::default, |mut a, b| {
            a.checked += b.checked;
            a.errors += b.errors;
            for e in b.examples {
                if a.examples.len() < 3 {
                    a.examples.push(e);
                }
            }
            a
        })
}
