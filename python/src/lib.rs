//! The `tiao` Python module: the engine as a library for scripts and notebooks (`import tiao`),
//! built by maturin from this crate (`pip install ./python`).
//!
//! A thin layer over the `tiao` library crate, which it drives as the Hub loop and `tiao analyze`
//! do: [`position`] (games in progress, perft, pictures), [`engine`] (searches, alone or in
//! batches, without the GIL), [`pdn`] (game records), [`errors`] (the exception classes, and the
//! one mapping of the library's errors to them), [`game`] (the run-time choice of game, bound once
//! by the library's `dispatch!`). Everything Python sees is described, with types, in `tiao.pyi`
//! beside this crate, and in `docs/python.md`.
//!
//! Invariant: no input reaches a panic: every text and number from Python is checked by the
//! library's parsers or by a range check here, and comes back as a `tiao.Error` subclass.

mod engine;
mod errors;
mod game;
mod pdn;
mod position;

use pyo3::prelude::*;
use tiao::game::Variant;

/// tiao: a game engine for draughts (international, brazilian, russian, duoyibu, english) and
/// Nine Men's Morris.
///
/// >>> import tiao
/// >>> p = tiao.Position("international")
/// >>> p.push("32-28")
/// >>> tiao.Engine("international").analyse(p, depth=8).best_move in p.legal_moves()
/// True
#[pymodule]
#[pyo3(name = "tiao")]
fn tiao_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::add_to(m)?;
    m.add_class::<position::Position>()?;
    m.add_class::<position::Outcome>()?;
    m.add_class::<engine::Engine>()?;
    m.add_class::<engine::Analysis>()?;
    m.add_class::<pdn::PdnGame>()?;
    m.add_function(wrap_pyfunction!(position::perft, m)?)?;
    m.add_function(wrap_pyfunction!(position::board_svg, m)?)?;
    m.add_function(wrap_pyfunction!(pdn::read_pdn, m)?)?;
    m.add_function(wrap_pyfunction!(pdn::write_pdn, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    let names: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
    m.add("VARIANTS", pyo3::types::PyTuple::new(m.py(), names)?)?;
    Ok(())
}
