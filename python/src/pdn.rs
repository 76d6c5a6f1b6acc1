//! PDN in and out: the library's recovering reader (each game with its warnings; a bad
//! game is skipped and never costs the file) and its writer. `damiera/pdn.py` wraps these
//! for files, paths and text.

use damiera::game::Game;
use damiera::game::pdn::{PdnGame, write_pdn};
use damiera::game::pdn_file::read_recovering_in;
use damiera::game::record::{RecordEnd, pdn_record};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::board::Board;
use crate::moves::{first_path, parse_variant};

/// A PDN game: its tags, its moves as written (`moves`), its result, the warnings of the
/// reader (repairs made), and `board()`, the board after its moves (with them on its move
/// stack).
#[pyclass(module = "damiera.pdn", name = "Game", frozen)]
#[derive(Clone)]
pub struct PdnGameObj {
    pub pdn: PdnGame,
    pub replay: Option<Game>,
    pub number: usize,
    pub warnings: Vec<String>,
}

#[pymethods]
impl PdnGameObj {
    /// Tag pairs in file order.
    #[getter]
    fn tags(&self) -> Vec<(String, String)> {
        self.pdn.tags.clone()
    }

    /// One tag's value (case-insensitive name; the Italian names are read too), or `None`.
    fn tag(&self, name: &str) -> Option<String> {
        self.pdn.tag(name).map(str::to_string)
    }

    /// The main line's moves as written in the record (repairs applied).
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.pdn.moves.iter().map(|m| m.text.clone()).collect()
    }

    /// The comments after each move (`None` where there is none), aligned with `moves`.
    #[getter]
    fn comments(&self) -> Vec<Option<String>> {
        self.pdn.moves.iter().map(|m| m.comment.clone()).collect()
    }

    /// The result token (`1-0`, `0-1`, `1/2-1/2`, ...), `None` when unknown (`*`).
    #[getter]
    fn result(&self) -> Option<String> {
        self.pdn.result.clone()
    }

    /// The game's number in the file it was read from (skipped games keep their
    /// numbers); 0 for a game made from a board.
    #[getter]
    fn number(&self) -> usize {
        self.number
    }

    /// What the reader repaired in this game, one line each.
    #[getter]
    fn warnings(&self) -> Vec<String> {
        self.warnings.clone()
    }

    /// The variant the game is played in.
    #[getter]
    fn variant(&self) -> &'static str {
        self.replay
            .as_ref()
            .map_or("italian", |g| g.start().variant().name())
    }

    /// The board after the game's moves, the moves on its stack (`board().move_stack`).
    fn board(&self) -> PyResult<Board> {
        let game = self
            .replay
            .as_ref()
            .ok_or_else(|| PyValueError::new_err("this game has no replay"))?;
        let mut board = Board::at(game.start());
        board.game.set_rules(game.rules());
        for (pos, &mv) in game.positions().iter().zip(game.moves()) {
            board.play(first_path(pos, mv));
        }
        Ok(board)
    }

    /// The game as PDN text.
    fn __str__(&self) -> String {
        write_pdn(std::slice::from_ref(&self.pdn))
    }

    fn __repr__(&self) -> String {
        let tag = |n| self.pdn.tag(n).unwrap_or("?").to_string();
        format!(
            "<damiera.pdn.Game {} - {}, {} moves>",
            tag("White"),
            tag("Black"),
            self.pdn.moves.len()
        )
    }
}

/// What the reader made of a file: `games` read (repaired ones included), every warning
/// (`warnings`, one line each, skipped games included), `skipped` and `summary`.
#[pyclass(module = "damiera.pdn", name = "Reading", frozen, get_all)]
pub struct Reading {
    pub games: Vec<PdnGameObj>,
    pub warnings: Vec<String>,
    pub skipped: usize,
    pub repaired: usize,
    pub summary: String,
}

#[pymethods]
impl Reading {
    fn __len__(&self) -> usize {
        self.games.len()
    }

    fn __getitem__(&self, index: isize) -> PyResult<PdnGameObj> {
        let n = self.games.len() as isize;
        let i = if index < 0 { index + n } else { index };
        usize::try_from(i)
            .ok()
            .and_then(|i| self.games.get(i))
            .cloned()
            .ok_or_else(|| pyo3::exceptions::PyIndexError::new_err("game index out of range"))
    }

    fn __repr__(&self) -> String {
        format!("<damiera.pdn.Reading: {}>", self.summary)
    }
}

/// Reads PDN bytes (any encoding PDN files come in) with the recovering reader; a game
/// without `GameType` is of `variant`.
#[pyfunction]
#[pyo3(signature = (data, variant = "italian"))]
pub fn pdn_read_bytes(py: Python<'_>, data: &[u8], variant: &str) -> PyResult<Reading> {
    let v = parse_variant(variant)?;
    let data = data.to_vec();
    let read = py.detach(move || read_recovering_in(&data, v));
    let games = read
        .games
        .iter()
        .map(|g| PdnGameObj {
            pdn: g.pdn.clone(),
            replay: Some(g.replay.clone()),
            number: g.number,
            warnings: read
                .warnings
                .iter()
                .filter(|w| w.game == g.number)
                .map(|w| w.to_string())
                .collect(),
        })
        .collect();
    Ok(Reading {
        games,
        warnings: read.warnings.iter().map(|w| w.to_string()).collect(),
        skipped: read.skipped,
        repaired: read.repaired,
        summary: read.summary(),
    })
}

/// The PDN record of a board's game with `tags` (then `Result`, `GameType`, `FEN` when
/// it does not start at the start, `Termination` when it is over).
pub fn record_of(board: &Board, tags: &[(String, String)]) -> PdnGameObj {
    let tags: Vec<(&str, &str)> = tags.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    PdnGameObj {
        pdn: pdn_record(&board.game, &tags, &RecordEnd::of(&board.game)),
        replay: Some(board.game.clone()),
        number: 0,
        warnings: Vec::new(),
    }
}

/// PDN text of games (`damiera.pdn.Game`s or `Board`s, whose games are recorded).
#[pyfunction]
pub fn pdn_write(games: Vec<Bound<'_, PyAny>>) -> PyResult<String> {
    let mut records = Vec::with_capacity(games.len());
    for g in games {
        if let Ok(game) = g.cast::<PdnGameObj>() {
            records.push(game.get().pdn.clone());
        } else if let Ok(board) = g.cast::<Board>() {
            let board = board
                .try_borrow()
                .map_err(|e| PyValueError::new_err(e.to_string()))?;
            records.push(record_of(&board, &[]).pdn);
        } else {
            return Err(PyValueError::new_err(
                "pdn.write takes damiera.pdn.Game and damiera.Board objects",
            ));
        }
    }
    Ok(write_pdn(&records))
}
