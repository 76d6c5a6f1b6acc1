//! `damiera.egdb.probe`: the endgame databases' value of a board's position.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use damiera::board::Variant;
use damiera::egdb::{Egdb, Outcome};
use damiera::engine::load_databases;
use pyo3::exceptions::{PyFileNotFoundError, PyValueError};
use pyo3::prelude::*;

use crate::board::Board;

/// The databases opened so far, by directory (`None`: the default one) and variant: a
/// directory is opened once and its block cache kept.
type Opened = Vec<((Option<PathBuf>, Variant), Arc<Egdb>)>;
static OPENED: Mutex<Opened> = Mutex::new(Vec::new());

/// A database value for the side to move: `result` (`win`, `loss`, `draw`) and `plies` to
/// the end under best play (`None` for a draw).
#[pyclass(module = "damiera.egdb", name = "Probe", frozen, get_all, eq)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Probe {
    pub result: &'static str,
    pub plies: Option<u16>,
}

#[pymethods]
impl Probe {
    fn __str__(&self) -> String {
        match self.plies {
            Some(n) => format!("{} in {n}", self.result),
            None => self.result.to_string(),
        }
    }

    fn __repr__(&self) -> String {
        format!("Probe({:?}, plies={:?})", self.result, self.plies)
    }
}

fn databases(dir: Option<PathBuf>, variant: Variant) -> PyResult<Arc<Egdb>> {
    let key = (dir, variant);
    let mut opened = OPENED
        .lock()
        .map_err(|_| PyValueError::new_err("the databases failed to open earlier"))?;
    if let Some((_, db)) = opened.iter().find(|(k, _)| *k == key) {
        return Ok(Arc::clone(db));
    }
    let db = load_databases(key.0.as_deref(), variant)
        .map_err(PyValueError::new_err)?
        .ok_or_else(|| {
            PyFileNotFoundError::new_err(format!(
                "no endgame databases of {} in {}",
                variant.name(),
                damiera::egdb::default_dir(variant).display()
            ))
        })?;
    opened.push((key, Arc::clone(&db)));
    Ok(db)
}

/// The databases' value of `board`'s position (in `path`, or the variant's default
/// directory), `None` when they do not hold it (too many pieces).
#[pyfunction]
#[pyo3(signature = (board, path = None))]
pub fn egdb_probe(
    py: Python<'_>,
    board: PyRef<'_, Board>,
    path: Option<PathBuf>,
) -> PyResult<Option<Probe>> {
    let pos = board.position();
    let db = databases(path, pos.variant())?;
    Ok(py.detach(move || db.probe(&pos)).map(|o| match o {
        Outcome::Win(n) => Probe {
            result: "win",
            plies: Some(n),
        },
        Outcome::Loss(n) => Probe {
            result: "loss",
            plies: Some(n),
        },
        Outcome::Draw => Probe {
            result: "draw",
            plies: None,
        },
    }))
}
