//! The exceptions of the `tiao` module and the one place where the engine's errors become them.
//!
//! Hierarchy (made at import, so that each class can have two bases):
//!
//! ```text
//! tiao.Error(Exception)                  everything tiao raises
//!   tiao.VariantError(Error, ValueError)   unknown variant or draw rules; a position of another game
//!   tiao.FenError(Error, ValueError)       a position text that does not parse
//!   tiao.MoveError(Error, ValueError)      a move that is not legal, not understood or ambiguous
//!   tiao.PdnError(Error, ValueError)       PDN text that does not parse, or a game that does not replay
//!   tiao.OptionError(Error, ValueError)    an option or limit out of its range, a table too large
//!   tiao.BusyError(Error, RuntimeError)    a search is already running on this engine
//! ```
//!
//! Every message is the engine's own (the same text the Hub protocol's `error` line carries).
//! Invariant: nothing here panics; the classes exist once the module is imported
//! ([`add_to`]), and [`raise`] falls back to a plain `ValueError` only if they could not be made.

use pyo3::exceptions::{PyException, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyTuple, PyType};

/// The kinds of error, one per exception class.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    Variant,
    Fen,
    Move,
    Pdn,
    Option,
    Busy,
}

/// Each class: its kind, name, second base (after `tiao.Error`) and docstring.
const CLASSES: [(Kind, &str, Base, &str); 6] = [
    (
        Kind::Variant,
        "VariantError",
        Base::Value,
        "An unknown variant or draw-rule set, or a position of another game than the engine's.",
    ),
    (
        Kind::Fen,
        "FenError",
        Base::Value,
        "A position text (FEN, or a Nine Men's Morris position string) that does not parse.",
    ),
    (
        Kind::Move,
        "MoveError",
        Base::Value,
        "A move that is not legal here, not understood, or ambiguous (the message lists the \
         candidates).",
    ),
    (
        Kind::Pdn,
        "PdnError",
        Base::Value,
        "PDN text that does not parse (the message names the line), or a game whose moves do not \
         replay (it names the ply).",
    ),
    (
        Kind::Option,
        "OptionError",
        Base::Value,
        "An engine option or search limit out of its range, or a table larger than the memory \
         available.",
    ),
    (
        Kind::Busy,
        "BusyError",
        Base::Runtime,
        "A search is already running on this engine (from another thread).",
    ),
];

#[derive(Copy, Clone, Debug)]
enum Base {
    Value,
    Runtime,
}

static BASE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static MADE: PyOnceLock<Vec<(Kind, Py<PyType>)>> = PyOnceLock::new();

/// Makes the classes and adds them to the module.
pub fn add_to(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    let base = base(py)?;
    m.add("Error", base.clone_ref(py))?;
    let made = MADE.get_or_try_init(py, || -> PyResult<_> {
        let builtins = py.import("builtins")?;
        let make_type = builtins.getattr("type")?;
        let mut made = Vec::new();
        for (kind, name, second, doc) in CLASSES {
            let second = match second {
                Base::Value => py.get_type::<PyValueError>(),
                Base::Runtime => py.get_type::<PyRuntimeError>(),
            };
            let bases = PyTuple::new(py, [base.bind(py).clone(), second])?;
            let attrs = PyDict::new(py);
            attrs.set_item("__doc__", doc)?;
            attrs.set_item("__module__", "tiao")?;
            let class = make_type
                .call1((name, bases, attrs))?
                .cast_into::<PyType>()?;
            made.push((kind, class.unbind()));
        }
        Ok(made)
    })?;
    for ((_, class), (_, name, _, _)) in made.iter().zip(CLASSES) {
        m.add(name, class.clone_ref(py))?;
    }
    Ok(())
}

fn base(py: Python<'_>) -> PyResult<&Py<PyType>> {
    BASE.get_or_try_init(py, || -> PyResult<_> {
        let builtins = py.import("builtins")?;
        let attrs = PyDict::new(py);
        attrs.set_item("__doc__", "The base class of every error tiao raises.")?;
        attrs.set_item("__module__", "tiao")?;
        let bases = PyTuple::new(py, [py.get_type::<PyException>()])?;
        let class = builtins
            .getattr("type")?
            .call1(("Error", bases, attrs))?
            .cast_into::<PyType>()?;
        Ok(class.unbind())
    })
}

/// The exception of `kind` with `message`.
pub fn raise(kind: Kind, message: impl Into<String>) -> PyErr {
    let message = message.into();
    Python::attach(|py| {
        let class = MADE
            .get(py)
            .and_then(|made| made.iter().find(|(k, _)| *k == kind))
            .map(|(_, class)| class.bind(py).clone());
        match class {
            Some(class) => PyErr::from_type(class, message),
            None => PyValueError::new_err(message),
        }
    })
}

/// A [`tiao::engine::EngineError`] as the exception that says what was wrong.
pub fn engine_error(e: tiao::engine::EngineError) -> PyErr {
    use tiao::engine::EngineError as E;
    let kind = match &e {
        E::BadPosition(_) => Kind::Fen,
        E::BadMove { .. } => Kind::Move,
        E::BadOption { .. } | E::Memory(_) => Kind::Option,
        E::Busy => Kind::Busy,
    };
    raise(kind, e.to_string())
}

/// A [`tiao::track::ReplayError`] (a FEN, then moves) as a `FenError` or a `MoveError`.
pub fn replay_error(e: tiao::track::ReplayError) -> PyErr {
    use tiao::track::ReplayError as R;
    let kind = match &e {
        R::BadFen { .. } => Kind::Fen,
        R::BadMove { .. } => Kind::Move,
    };
    raise(kind, e.to_string())
}
