//! Moves as Python sees them: one [`PyMove`] per capture path (the library's
//! [`Move`] is one per from, to and captured set), with its text, squares and action index.

use damiera::board::{Move, Position, Square, Variant};
use damiera::movegen::{capture_paths, capture_separator, legal_moves};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// Actions of one (from square, first landing square, last square): 32 × 32 × 32.
pub const TRIPLES: u32 = 32 * 32 * 32;

/// Paths told apart among those that share a triple (a long capture's: at most 6 in 9,000
/// positions of long captures, tests/python/variant_moves.py's); a 17th and later would
/// share the 16th's index.
pub const RANKS: u32 = 16;

/// Size of the action space: a triple and the path's rank among the legal paths that share
/// it.
pub const ACTIONS: u32 = TRIPLES * RANKS;

/// The variant named `name`, or a `ValueError` naming it.
pub fn parse_variant(name: &str) -> PyResult<Variant> {
    name.parse::<Variant>()
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// A square given as its number in the variant's numbering (an `int`) or its name (`"22"`,
/// `"c3"`), or a `ValueError` naming it.
pub fn parse_square(variant: Variant, square: &Bound<'_, PyAny>) -> PyResult<Square> {
    let bad = |shown: String| {
        PyValueError::new_err(format!(
            "bad square {shown}: not a square of {} (numbers 1-32{})",
            variant.name(),
            if variant.flying_kings() {
                " or dark squares a1-h8"
            } else {
                ""
            }
        ))
    };
    if let Ok(n) = square.extract::<i64>() {
        return u8::try_from(n)
            .ok()
            .and_then(|n| variant.square_numbered(n))
            .ok_or_else(|| bad(n.to_string()));
    }
    let text: String = square
        .extract()
        .map_err(|_| PyValueError::new_err("a square is an int or a str"))?;
    variant
        .parse_square(&text)
        .ok_or_else(|| bad(format!("{text:?}")))
}

/// The name of square number `number` (1-32 in the variant's numbering) in `variant`'s
/// notation: `"22"`, or `"c3"` in Russian and Brazilian.
#[pyfunction]
#[pyo3(signature = (number, variant = "italian"))]
pub fn square_name(number: i64, variant: &str) -> PyResult<String> {
    let v = parse_variant(variant)?;
    u8::try_from(number)
        .ok()
        .and_then(|n| v.square_numbered(n))
        .map(|sq| v.square_name(sq))
        .ok_or_else(|| PyValueError::new_err(format!("bad square {number}: not in 1-32")))
}

/// The squares a piece stands on during a move, start and end included, stored inline (a
/// move list is built at every call: no allocation per move). A capture takes at most 12
/// pieces, so 13 squares; more are never stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Path {
    len: u8,
    squares: [u8; 15],
}

impl Path {
    /// The path through `squares` (at most 15 kept).
    pub fn new(squares: &[Square]) -> Path {
        let mut path = Path {
            len: 0,
            squares: [0; 15],
        };
        for (slot, sq) in path.squares.iter_mut().zip(squares) {
            *slot = sq.number();
            path.len += 1;
        }
        path
    }

    /// The squares, start to end.
    pub fn iter(&self) -> impl Iterator<Item = Square> + '_ {
        self.squares[..usize::from(self.len)]
            .iter()
            .filter_map(|&n| Square::new(n))
    }

    /// The `i`-th square.
    pub fn get(&self, i: usize) -> Option<Square> {
        self.iter().nth(i)
    }
}

/// A legal move of one position: the squares its piece stands on (`path`, start and end
/// included), the squares it captures, whether the man is crowned, in the variant's
/// numbering; `str(move)` is its text in the variant's notation (`22-19`, `29x22x15`,
/// `c3:e5`). Two capture paths that take the same pieces another way are two moves.
#[pyclass(module = "damiera", name = "Move", frozen, eq, hash)]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PyMove {
    pub mv: Move,
    pub path: Path,
    pub crowns: bool,
    pub variant: Variant,
    /// A capture's action index (see [`PyMove::action_index`]), set by [`legal`]; 0 for
    /// a quiet move, whose index is its triple.
    pub action: u32,
}

impl PyMove {
    /// The text in the variant's notation.
    pub fn text(&self) -> String {
        let sep = if self.mv.is_capture() {
            capture_separator(self.variant).to_string()
        } else {
            "-".to_string()
        };
        self.path
            .iter()
            .map(|sq| self.variant.square_name(sq))
            .collect::<Vec<_>>()
            .join(&sep)
    }

    /// The action index (the getter `action`).
    pub fn action_index(&self) -> u32 {
        if self.mv.is_capture() {
            self.action
        } else {
            self.triple()
        }
    }

    /// The triple (from, first landing square, last square), each 0-31 in the variant's
    /// numbering: `(f * 32 + l) * 32 + t`.
    pub fn triple(&self) -> u32 {
        let n = |sq: Square| u32::from(self.variant.number_of(sq)) - 1;
        let first = self.path.get(1).unwrap_or(self.mv.to());
        (n(self.mv.from()) * 32 + n(first)) * 32 + n(self.mv.to())
    }
}

#[pymethods]
impl PyMove {
    /// Squares the piece stands on, start to end, numbered 1-32 in the variant's numbering.
    #[getter]
    fn path(&self) -> Vec<u32> {
        self.path
            .iter()
            .map(|sq| u32::from(self.variant.number_of(sq)))
            .collect()
    }

    /// Captured squares, ascending, numbered in the variant's numbering.
    #[getter]
    fn captured(&self) -> Vec<u32> {
        let mut v: Vec<u32> = self
            .mv
            .captured()
            .iter()
            .map(|&sq| u32::from(self.variant.number_of(sq)))
            .collect();
        v.sort_unstable();
        v
    }

    /// The square the piece leaves (python-chess's name).
    #[getter]
    #[allow(clippy::wrong_self_convention)]
    fn from_square(&self) -> u8 {
        self.variant.number_of(self.mv.from())
    }

    /// The square the piece ends on.
    #[getter]
    fn to_square(&self) -> u8 {
        self.variant.number_of(self.mv.to())
    }

    /// Whether a man is crowned by this move.
    #[getter]
    fn crowns(&self) -> bool {
        self.crowns
    }

    /// Whether it captures.
    #[getter]
    fn is_capture(&self) -> bool {
        self.mv.is_capture()
    }

    /// The variant's name.
    #[getter]
    fn variant(&self) -> &'static str {
        self.variant.name()
    }

    /// The Hub protocol's form: from, to, then the captured squares (`19x10x14`).
    #[getter]
    fn hub(&self) -> String {
        damiera::movegen::hub_text_in(self.variant, self.mv)
    }

    /// An index in `0..damiera.ACTIONS` (524288) that no other legal move of the position
    /// has: `triple + 32768 * rank`, where `triple = (f * 32 + l) * 32 + t` numbers the
    /// from square, the first landing square and the last square (counted from 0 in the
    /// variant's numbering) and `rank` is the path's place, by its squares, among the legal
    /// paths with that triple (0 but in long captures that come back by other ways).
    #[getter]
    fn action(&self) -> u32 {
        self.action_index()
    }

    fn __str__(&self) -> String {
        self.text()
    }

    fn __repr__(&self) -> String {
        format!("Move({:?})", self.text())
    }
}

/// Whether `mv` crowns the moving man in `pos`.
fn crowns(pos: &Position, mv: Move) -> bool {
    let man = pos.men(pos.side_to_move()) & mv.from().mask() != 0;
    man && (mv.crowns() || pos.side_to_move().crown_row() & mv.to().mask() != 0)
}

/// One Python move for each capture path of `mv` in `pos` (one for a quiet move).
pub fn expand(pos: &Position, mv: Move, out: &mut Vec<PyMove>) {
    let variant = pos.variant();
    let crowns = crowns(pos, mv);
    let make = |path: &[Square]| PyMove {
        mv,
        path: Path::new(path),
        crowns,
        variant,
        action: 0,
    };
    if mv.is_capture() {
        let paths = capture_paths(pos, mv);
        if paths.is_empty() {
            out.push(make(&[mv.from(), mv.to()]));
        }
        out.extend(paths.iter().map(|p| make(p)));
    } else {
        out.push(make(&[mv.from(), mv.to()]));
    }
}

/// Every legal move of `pos`, a capture path each, sorted by their squares in the
/// variant's numbering.
pub fn legal(pos: &Position) -> Vec<PyMove> {
    let list = legal_moves(pos);
    let mut out = Vec::with_capacity(list.len());
    for &mv in list.iter() {
        expand(pos, mv, &mut out);
    }
    let v = pos.variant();
    // One key a move, the path's numbers 6 bits each from the top (a shorter path sorts
    // before its longer extensions): sorting compares integers.
    let key = |m: &PyMove| {
        m.path.iter().enumerate().fold(0u128, |k, (i, sq)| {
            k | u128::from(v.number_of(sq)) << (6 * (14 - i.min(14)))
        })
    };
    out.sort_by_cached_key(key);
    // Only captures can share a triple (quiet moves differ by from and to): a quiet move's
    // action is its triple, made when asked for.
    if out.first().is_some_and(|m| m.mv.is_capture()) {
        for m in out.iter_mut() {
            m.action = m.triple();
        }
        for i in 1..out.len() {
            let triple = out[i].action;
            let rank = out[..i]
                .iter()
                .filter(|m| m.action % TRIPLES == triple)
                .count() as u32;
            out[i].action = triple + TRIPLES * rank.min(RANKS - 1);
        }
    }
    out
}

/// The move `mv` of `pos` as a Python move, by its first capture path (as
/// [`damiera::movegen::path_text`] writes it).
pub fn first_path(pos: &Position, mv: Move) -> PyMove {
    let first = capture_paths(pos, mv).first().map(|p| Path::new(p));
    let mut fallback = None;
    for m in legal(pos) {
        if m.mv == mv {
            if first.is_none_or(|p| p == m.path) {
                return m;
            }
            fallback.get_or_insert(m);
        }
    }
    fallback.unwrap_or(PyMove {
        mv,
        path: Path::new(&[mv.from(), mv.to()]),
        crowns: false,
        variant: pos.variant(),
        action: 0,
    })
}

/// A line of library moves from `pos` as Python moves; stops at a move that is not legal.
pub fn line(pos: &Position, moves: &[Move]) -> Vec<PyMove> {
    let mut p = *pos;
    let mut out = Vec::new();
    for &mv in moves {
        if !legal_moves(&p).contains(&mv) {
            break;
        }
        out.push(first_path(&p, mv));
        p = p.play(mv);
    }
    out
}

/// The legal moves of a position, as python-chess's `board.legal_moves`: a sequence that
/// makes each `Move` object only when it is asked for (`len()`, indexing, `in`,
/// iteration, `random.choice`); `list(board.legal_moves)` gives them all.
#[pyclass(module = "damiera", name = "LegalMoves", frozen, sequence)]
pub struct LegalMoves {
    pub moves: Vec<PyMove>,
}

#[pymethods]
impl LegalMoves {
    fn __len__(&self) -> usize {
        self.moves.len()
    }

    fn __bool__(&self) -> bool {
        !self.moves.is_empty()
    }

    fn __getitem__<'py>(
        &self,
        py: Python<'py>,
        index: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if let Ok(slice) = index.cast::<pyo3::types::PySlice>() {
            let indices = slice.indices(self.moves.len() as isize)?;
            let mut picked = Vec::new();
            let mut i = indices.start;
            while (indices.step > 0 && i < indices.stop) || (indices.step < 0 && i > indices.stop) {
                if let Some(m) = usize::try_from(i).ok().and_then(|i| self.moves.get(i)) {
                    picked.push(m.clone());
                }
                i += indices.step;
            }
            return Ok(pyo3::types::PyList::new(py, picked)?.into_any());
        }
        let i: isize = index.extract()?;
        let n = self.moves.len() as isize;
        let at = if i < 0 { i + n } else { i };
        let m = usize::try_from(at)
            .ok()
            .and_then(|at| self.moves.get(at))
            .ok_or_else(|| pyo3::exceptions::PyIndexError::new_err("move index out of range"))?;
        Ok(Bound::new(py, m.clone())?.into_any())
    }

    fn __contains__(&self, item: &Bound<'_, PyAny>) -> bool {
        item.cast::<PyMove>()
            .is_ok_and(|m| self.moves.contains(m.get()))
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let list = pyo3::types::PyList::new(py, self.moves.iter().cloned())?;
        list.as_any().try_iter().map(Bound::into_any)
    }

    /// The number of legal moves (python-chess's `legal_moves.count()`).
    fn count(&self) -> usize {
        self.moves.len()
    }

    fn __repr__(&self) -> String {
        let texts: Vec<String> = self.moves.iter().map(PyMove::text).collect();
        format!("<LegalMoves ({})>", texts.join(", "))
    }
}
