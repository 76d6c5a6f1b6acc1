//! The native module of the `damiera` Python package (`damiera._damiera`): the library's
//! boards, moves, games, PDN, engine and endgame databases behind a python-chess-like API.
//!
//! Translation only: every rule, text form, verdict and search is the library's. Errors from
//! outside input (a position, a move, a square, a PDN file, a path) become `ValueError`s
//! that name the bad token; nothing here unwraps or panics on them.

use pyo3::prelude::*;

mod batch;
mod board;
mod egdb;
mod engine;
mod moves;
mod pdn;
mod svg;

/// The side that is White (python-chess's convention: `board.turn == damiera.WHITE`).
pub const WHITE: bool = true;

/// The module `damiera._damiera`.
#[pymodule]
fn _damiera(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<moves::PyMove>()?;
    m.add_class::<moves::LegalMoves>()?;
    m.add_class::<board::Board>()?;
    m.add_class::<board::Outcome>()?;
    m.add_class::<engine::PyEngine>()?;
    m.add_class::<engine::Score>()?;
    m.add_class::<engine::Limit>()?;
    m.add_class::<engine::PlayResult>()?;
    m.add_class::<pdn::PdnGameObj>()?;
    m.add_class::<pdn::Reading>()?;
    m.add_class::<egdb::Probe>()?;
    m.add_function(wrap_pyfunction!(pdn::pdn_read_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(pdn::pdn_write, m)?)?;
    m.add_function(wrap_pyfunction!(egdb::egdb_probe, m)?)?;
    m.add_function(wrap_pyfunction!(batch::random_games_raw, m)?)?;
    m.add_function(wrap_pyfunction!(moves::square_name, m)?)?;
    m.add("WHITE", WHITE)?;
    m.add("BLACK", !WHITE)?;
    m.add(
        "VARIANTS",
        damiera::board::Variant::ALL
            .iter()
            .map(|v| v.name())
            .collect::<Vec<_>>(),
    )?;
    m.add("ACTIONS", moves::ACTIONS)?;
    Ok(())
}
