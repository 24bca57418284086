//! Shared by the endgame-table tests: small tables built once per test program, in a directory
//! of their own under the system's temporary directory.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use tiao::draughts::position::Position;
use tiao::draughts::rules::Rules;
use tiao::egdb::draughts::index::{Material, SliceIndex};
use tiao::egdb::draughts::{DraughtsBuilder, DraughtsTables, open_tables};
use tiao::egdb::driver::{self, Builder};
use tiao::game::Game;
use tiao::game::color::Color;

/// A fresh directory for this test program.
pub fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tiao-egdb-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The directory every table of this test program is built in (removed when the program
/// ends is not possible from a test: it lives in the temporary directory).
pub fn tables_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| temp_dir("tables"))
}

/// Builds (once per program) the slices `slices` of rules `R`, with what they lead to, in
/// [`tables_dir`], and opens them.
pub fn build<R: Rules>(slices: &[&str]) -> DraughtsTables<R> {
    static LOCK: Mutex<()> = Mutex::new(());
    let _guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    build_in(tables_dir(), slices)
}

/// Builds the slices `slices` of rules `R`, with what they lead to, in `dir`, and opens them.
pub fn build_in<R: Rules>(dir: &Path, slices: &[&str]) -> DraughtsTables<R> {
    let targets: Vec<Material> = slices.iter().map(|s| Material::parse(s).unwrap()).collect();
    let b = DraughtsBuilder::<R>::new(dir, 0, true).only(&targets);
    driver::build(&b, false, &mut |_| {}).unwrap();
    let (t, problems) = open_tables::<R>(dir);
    assert!(problems.is_empty(), "{problems:?}");
    t
}

/// Every slice up to `pieces` pieces of rules `R`, built (once) in `dir`.
pub fn build_all<R: Rules>(dir: &Path, pieces: u32) -> DraughtsBuilder<R> {
    let b = DraughtsBuilder::<R>::new(dir, pieces, true);
    driver::build(&b, false, &mut |_| {}).unwrap();
    b
}

/// A position from a FEN.
pub fn pos<R: Rules>(fen: &str) -> Position<R> {
    Position::<R>::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Units of a builder (re-exported for the tests that verify).
pub fn units<R: Rules>(b: &DraughtsBuilder<R>) -> Vec<driver::Unit> {
    b.units()
}

/// About `n` positions of `slice` spread evenly over its numbering, White to move.
pub fn spread<R: Rules>(slice: &str, n: u64) -> impl Iterator<Item = Position<R>> {
    let ix = SliceIndex::<R::Board>::new(Material::parse(slice).unwrap());
    let step = (ix.positions() / n).max(1);
    (0..ix.positions()).step_by(step as usize).map(move |i| {
        let (w, b, k) = ix.position_of(i);
        Position::<R>::from_parts(w, b, k, Color::White).unwrap()
    })
}
