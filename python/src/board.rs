//! `damiera.Board`: a game of one variant (its start, its moves, the verdict under its
//! federation's draw rules), as python-chess's `Board`.

use damiera::board::{Color, Position, Square};
use damiera::game::{DrawReason, Game, Verdict, WinReason};
use damiera::movegen::{legal_moves, parse_move, perft};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyByteArray;

use crate::moves::{PyMove, first_path, legal, parse_square, parse_variant};

/// A board: the position reached, the moves that led there (with `pop()` to take them
/// back) and the game's verdict under the variant's draw rules.
#[pyclass(module = "damiera", name = "Board")]
#[derive(Clone)]
pub struct Board {
    pub game: Game,
    pub stack: Vec<PyMove>,
}

impl Board {
    /// A board at `position` under its variant's rules.
    pub fn at(position: Position) -> Board {
        Board {
            game: Game::new(position),
            stack: Vec::new(),
        }
    }

    /// The current position.
    pub fn position(&self) -> Position {
        self.game.position()
    }

    /// Plays a legal move (checked by the caller).
    pub fn play(&mut self, mv: PyMove) {
        self.game.play(mv.mv);
        self.stack.push(mv);
    }

    /// The move `arg` (a `Move` of this position or its text) as a legal move here.
    fn resolve(&self, arg: &Bound<'_, PyAny>) -> PyResult<PyMove> {
        let pos = self.position();
        if let Ok(m) = arg.cast::<PyMove>() {
            let m = m.get();
            if m.variant == pos.variant() && legal(&pos).contains(m) {
                return Ok(m.clone());
            }
            return Err(PyValueError::new_err(format!(
                "illegal move {:?} in {}",
                m.text(),
                pos.to_fen()
            )));
        }
        let text: String = arg
            .extract()
            .map_err(|_| PyValueError::new_err("a move is a damiera.Move or its text"))?;
        parse_text(&pos, &text)
    }
}

/// The legal move `text` names in `pos` (path form, Hub form or a short `fromxto`),
/// by the path it gives when it gives every landing square, else by its first path.
pub fn parse_text(pos: &Position, text: &str) -> PyResult<PyMove> {
    let mv = parse_move(pos, text).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let variant = pos.variant();
    let squares: Vec<Option<Square>> = text
        .trim()
        .split(['x', 'X', ':', '-'])
        .map(|t| variant.parse_square(t))
        .collect();
    let given = legal(pos)
        .into_iter()
        .find(|m| m.mv == mv && m.path.iter().map(Some).eq(squares.iter().copied()));
    Ok(given.unwrap_or_else(|| first_path(pos, mv)))
}

/// How a game ended: `winner` (`True` White, `False` Black, `None` a draw), the rule that
/// ended it (`termination`: `no_legal_move`, `repetition`, `move_limit`, `ending`), that
/// rule in words (`reason`) and the PDN `result`.
#[pyclass(module = "damiera", name = "Outcome", frozen, get_all)]
#[derive(Clone, Debug)]
pub struct Outcome {
    pub winner: Option<bool>,
    pub termination: &'static str,
    pub reason: String,
    pub result: &'static str,
}

#[pymethods]
impl Outcome {
    fn __repr__(&self) -> String {
        let winner = match self.winner {
            Some(true) => "True",
            Some(false) => "False",
            None => "None",
        };
        format!(
            "Outcome(winner={winner}, termination={:?}, reason={:?}, result={:?})",
            self.termination, self.reason, self.result
        )
    }
}

/// The outcome of a verdict, `None` while the game goes on.
pub fn outcome_of(verdict: Verdict) -> Option<Outcome> {
    let termination = match verdict {
        Verdict::Ongoing => return None,
        Verdict::Win(_, WinReason::MorePieces) | Verdict::Draw(DrawReason::EqualPieces) => {
            "pieces_counted"
        }
        Verdict::Win(..) => "no_legal_move",
        Verdict::Draw(DrawReason::Repetition { .. }) => "repetition",
        Verdict::Draw(DrawReason::QuietMoves { .. }) => "move_limit",
        Verdict::Draw(DrawReason::Ending { .. }) => "ending",
    };
    Some(Outcome {
        winner: match verdict {
            Verdict::Win(c, _) => Some(c == Color::White),
            _ => None,
        },
        termination,
        reason: verdict.to_string(),
        result: verdict.result(),
    })
}

/// The four planes (white men, white kings, black men, black kings) of `pos`, 8x8 each,
/// rows and columns as the variant's players see the board (row 0 at the top, Black's
/// side), one byte a square: 256 bytes.
pub fn planes(pos: &Position, out: &mut Vec<u8>) {
    let start = out.len();
    out.resize(start + 256, 0);
    for (sq, piece) in Square::all().filter_map(|sq| pos.piece_at(sq).map(|p| (sq, p))) {
        let (row, col) = pos.variant().row_col(sq);
        let plane = match (piece.color, piece.king) {
            (Color::White, false) => 0,
            (Color::White, true) => 1,
            (Color::Black, false) => 2,
            (Color::Black, true) => 3,
        };
        out[start + plane * 64 + usize::from(row) * 8 + usize::from(col)] = 1;
    }
}

/// A NumPy array of `dtype` (a NumPy type name: `uint8`, `<u4`, ...) in `shape` over
/// a copy of `bytes` (native order, writable), made by Python's numpy (no numpy crate).
pub fn numpy_array<'py>(
    py: Python<'py>,
    bytes: &[u8],
    shape: Vec<usize>,
    dtype: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let np = py.import("numpy")?;
    let array = np
        .getattr("frombuffer")?
        .call1((PyByteArray::new(py, bytes), dtype))?;
    array.call_method1("reshape", (shape,))
}

#[pymethods]
impl Board {
    /// A board of `variant` (`italian`, `english`, `russian`, `brazilian`) at `fen` (a PDN
    /// FEN or a Hub position string in the variant's notation), or at the start.
    #[new]
    #[pyo3(signature = (variant = "italian", fen = None))]
    fn new(variant: &str, fen: Option<&str>) -> PyResult<Board> {
        let v = parse_variant(variant)?;
        let position = match fen {
            None => Position::start_of(v),
            Some(text) => Position::parse_in(v, text)
                .map_err(|e| PyValueError::new_err(format!("bad position {text:?}: {e}")))?,
        };
        Ok(Board::at(position))
    }

    /// Every legal move, a capture path each, sorted by their squares: a sequence whose
    /// `Move` objects are made when asked for (`list(board.legal_moves)` makes them all).
    #[getter]
    fn legal_moves(&self) -> crate::moves::LegalMoves {
        crate::moves::LegalMoves {
            moves: legal(&self.position()),
        }
    }

    /// The number of legal moves (capture paths counted apart), without building them.
    fn legal_move_count(&self) -> usize {
        let pos = self.position();
        let list = legal_moves(&pos);
        usize::try_from(list.total_paths()).unwrap_or(usize::MAX)
    }

    /// Plays a move (a `Move` of this position, or its text in the variant's notation:
    /// path form `22x15x6`, Hub form, or a short `22x6` naming one move) and returns it.
    fn push(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<PyMove> {
        let mv = self.resolve(r#move)?;
        self.play(mv.clone());
        Ok(mv)
    }

    /// The legal move that `text` names here, without playing it.
    fn parse_move(&self, text: &str) -> PyResult<PyMove> {
        parse_text(&self.position(), text)
    }

    /// The legal move with this action index (see `Move.action`).
    fn move_from_action(&self, action: i64) -> PyResult<PyMove> {
        legal(&self.position())
            .into_iter()
            .find(|m| i64::from(m.action_index()) == action)
            .ok_or_else(|| PyValueError::new_err(format!("no legal move has action {action}")))
    }

    /// Takes back the last move and returns it.
    fn pop(&mut self) -> PyResult<PyMove> {
        let mv = self
            .stack
            .pop()
            .ok_or_else(|| PyIndexError::new_err("pop from an empty move stack"))?;
        self.game.undo();
        Ok(mv)
    }

    /// The last move played.
    fn peek(&self) -> PyResult<PyMove> {
        self.stack
            .last()
            .cloned()
            .ok_or_else(|| PyIndexError::new_err("peek at an empty move stack"))
    }

    /// The moves played, oldest first.
    #[getter]
    fn move_stack(&self) -> Vec<PyMove> {
        self.stack.clone()
    }

    /// The side to move: `damiera.WHITE` (`True`) or `damiera.BLACK` (`False`).
    #[getter]
    fn turn(&self) -> bool {
        self.position().side_to_move() == Color::White
    }

    /// The position as a PDN FEN in the variant's notation.
    #[getter]
    fn fen(&self) -> String {
        self.position().to_fen()
    }

    /// The position as a Hub protocol string.
    #[getter]
    fn hub(&self) -> String {
        self.position().to_hub()
    }

    /// The variant's name.
    #[getter]
    fn variant(&self) -> &'static str {
        self.position().variant().name()
    }

    /// Plies played since the board was made.
    #[getter]
    fn ply(&self) -> usize {
        self.game.plies()
    }

    /// The piece on a square (number or name): `w`, `b` (men), `W`, `B` (kings) or `None`.
    fn piece_at(&self, square: &Bound<'_, PyAny>) -> PyResult<Option<char>> {
        let pos = self.position();
        let sq = parse_square(pos.variant(), square)?;
        Ok(pos.piece_at(sq).map(damiera::board::piece_char))
    }

    /// A copy (with its move stack).
    fn copy(&self) -> Board {
        self.clone()
    }

    fn __copy__(&self) -> Board {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Board {
        self.clone()
    }

    /// Whether the game is over under the variant's rules (no legal move, repetition,
    /// move limit, the Russian and Brazilian endings' limits).
    fn is_game_over(&self) -> bool {
        self.game.verdict().is_over()
    }

    /// How the game ended, or `None` while it goes on.
    fn outcome(&self) -> Option<Outcome> {
        outcome_of(self.game.verdict())
    }

    /// The PDN result: `1-0`, `0-1`, `1/2-1/2`, or `*` while the game goes on.
    fn result(&self) -> &'static str {
        self.game.verdict().result()
    }

    /// Leaves of the move tree `depth` plies deep; with `paths`, capture paths that take
    /// the same pieces another way are counted apart. The GIL is released meanwhile.
    #[pyo3(signature = (depth, paths = false))]
    fn perft(&self, py: Python<'_>, depth: u32, paths: bool) -> PyResult<u64> {
        if depth > 30 {
            return Err(PyValueError::new_err(format!(
                "perft depth {depth} is too deep"
            )));
        }
        let pos = self.position();
        Ok(py.detach(move || perft(&pos, depth, paths)))
    }

    /// The pieces as a NumPy array of shape (4, 8, 8), uint8: white men, white kings,
    /// black men, black kings, rows as the variant's players see the board (row 0 at the
    /// top, Black's side). Needs numpy.
    fn to_planes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let mut bytes = Vec::with_capacity(256);
        planes(&self.position(), &mut bytes);
        numpy_array(py, &bytes, vec![4, 8, 8], "uint8")
    }

    /// A text diagram: `w`/`b` men, `W`/`B` kings, `.` empty dark squares.
    fn __str__(&self) -> String {
        self.position().to_string()
    }

    fn __repr__(&self) -> String {
        let pos = self.position();
        format!("Board({:?}, {:?})", pos.variant().name(), pos.to_fen())
    }

    /// The board drawn as SVG (Jupyter shows it), as the variant's players see it.
    fn _repr_svg_(&self) -> String {
        crate::svg::board_svg(&self.position(), self.stack.last())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Board>()
            .ok()
            .and_then(|b| b.try_borrow().ok().map(|b| b.position() == self.position()))
            .unwrap_or(false)
    }

    /// The game as a PDN record (a `damiera.pdn.Game`) with these tags.
    #[pyo3(signature = (tags = None))]
    fn to_pdn(&self, tags: Option<Vec<(String, String)>>) -> crate::pdn::PdnGameObj {
        crate::pdn::record_of(self, &tags.unwrap_or_default())
    }
}
