//! `damiera.Engine`: the real search in process, through the library's engine facade (the
//! search thread [`Engine`] with its [`EngineOptions`]), as python-chess's engines.
//!
//! A search runs on the engine's own thread; the caller waits for it with the GIL
//! released, waking every few milliseconds to let Python look at its signals, so Ctrl-C
//! (`KeyboardInterrupt`) stops the search and is raised once it has stopped. `stop()`
//! from another Python thread ends a search early; its answer is then returned as usual.

use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError};
use damiera::board::Variant;
use damiera::clock::Limits;
use damiera::engine::{
    Engine, EngineEvent, EngineOptions, GoRequest, Searcher, Stopper, load_databases,
};
use damiera::search::SearchResult;
use damiera::search::eval::EvalFile;
use damiera::search::score::{database_plies, in_men, plies_to_end, text};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::board::Board;
use crate::moves::{PyMove, line, parse_variant};

/// A score from the side to move's view: `cp` hundredths of a man (`None` for a proven
/// result), `win_in` plies to a proven end (negative: a loss), `egdb` when the endgame
/// databases proved it; `str()` as Damiera writes scores (`+0.25`, `win in 7`).
#[pyclass(module = "damiera", name = "Score", frozen, eq, hash)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Score {
    raw: i32,
}

impl Score {
    /// As the library writes scores, but a side with no move (raw `-WIN`, 0 plies) has
    /// lost: `loss in 0`, where the library's text, which tells a win from a loss by the
    /// plies' sign, says `win in 0`.
    fn text(&self) -> String {
        match self.win_in() {
            Some(0) if self.raw < 0 => "loss in 0".to_string(),
            _ => text(self.raw),
        }
    }
}

#[pymethods]
impl Score {
    /// Hundredths of a man, `None` for a proven win or loss.
    #[getter]
    fn cp(&self) -> Option<i32> {
        match self.win_in() {
            Some(_) => None,
            None => Some(self.raw),
        }
    }

    /// Men (the Hub protocol's score): `cp / 100`, or the protocol's value of a result.
    #[getter]
    fn men(&self) -> f64 {
        in_men(self.raw)
    }

    /// Plies to the end of a result proven by the search or the databases (negative for a
    /// loss; 0 when the side to move has no move, lost), else `None`.
    #[getter]
    fn win_in(&self) -> Option<i32> {
        plies_to_end(self.raw).or(database_plies(self.raw))
    }

    /// Whether the endgame databases proved the result.
    #[getter]
    fn egdb(&self) -> bool {
        database_plies(self.raw).is_some()
    }

    /// The engine's raw score (hundredths of a man; proven results beyond 9000).
    #[getter]
    fn raw(&self) -> i32 {
        self.raw
    }

    /// Whether it is a proven win or loss (python-chess: `is_mate`).
    fn is_mate(&self) -> bool {
        self.win_in().is_some()
    }

    fn __str__(&self) -> String {
        self.text()
    }

    fn __repr__(&self) -> String {
        format!("Score({:?})", self.text())
    }
}

/// What `Engine.play` answers: the move, the expected reply and the search's info.
#[pyclass(module = "damiera", name = "PlayResult", frozen, get_all)]
pub struct PlayResult {
    pub r#move: Option<PyMove>,
    pub ponder: Option<PyMove>,
    pub info: Py<PyDict>,
}

#[pymethods]
impl PlayResult {
    fn __repr__(&self) -> String {
        let show = |m: &Option<PyMove>| m.as_ref().map_or("None".to_string(), PyMove::text);
        format!(
            "PlayResult(move={}, ponder={})",
            show(&self.r#move),
            show(&self.ponder)
        )
    }
}

/// The engine: its search thread and what it searches with.
pub struct Running {
    engine: Engine,
    events: Receiver<EngineEvent>,
}

/// An engine playing `variant`, searching in process on its own thread.
#[pyclass(module = "damiera", name = "Engine")]
pub struct PyEngine {
    running: Mutex<Option<Running>>,
    stopper: Stopper,
    /// Set by `stop()`: the waiting thread passes it on to the search once the search has
    /// started (a stop the search thread gets before its `go` is forgotten by it).
    stop_asked: AtomicBool,
    variant: Variant,
}

/// How long the waiting thread sleeps between looks at Python's signals.
const SIGNAL_POLL: Duration = Duration::from_millis(20);

impl PyEngine {
    /// Runs one search of `board`'s game with the GIL released; the engine's multipv is
    /// set to `multipv` first. Ctrl-C stops it and raises `KeyboardInterrupt`.
    fn search(
        &self,
        py: Python<'_>,
        board: &Board,
        limits: Limits,
        multipv: usize,
    ) -> PyResult<(SearchResult, Duration)> {
        let game = board.game.clone();
        py.detach(|| {
            let mut guard = self
                .running
                .lock()
                .map_err(|_| PyRuntimeError::new_err("the engine failed in an earlier search"))?;
            let running = guard
                .as_mut()
                .ok_or_else(|| PyRuntimeError::new_err("the engine is closed"))?;
            let options = running.engine.options();
            if options.multipv != multipv {
                running
                    .engine
                    .configure(EngineOptions { multipv, ..options })
                    .map_err(PyValueError::new_err)?;
            }
            let start = Instant::now();
            self.stop_asked.store(false, Ordering::SeqCst);
            running.engine.go(GoRequest {
                game,
                limits,
                ponder: false,
            });
            let mut interrupted: Option<PyErr> = None;
            loop {
                match running.events.recv_timeout(SIGNAL_POLL) {
                    Ok(EngineEvent::Done(result)) => {
                        return match interrupted {
                            Some(e) => Err(e),
                            None => Ok((result, start.elapsed())),
                        };
                    }
                    // A look after every report too: a search that reports more often
                    // than SIGNAL_POLL must not hide a stop or a Ctrl-C.
                    Ok(EngineEvent::Info(_)) | Err(RecvTimeoutError::Timeout) => {
                        if self.stop_asked.swap(false, Ordering::SeqCst) {
                            running.engine.stop();
                        }
                        if interrupted.is_none()
                            && let Err(e) = Python::attach(|py| py.check_signals())
                        {
                            running.engine.stop();
                            interrupted = Some(e);
                        }
                    }
                    Err(RecvTimeoutError::Disconnected) => {
                        return Err(PyRuntimeError::new_err("the search thread has ended"));
                    }
                }
            }
        })
    }
}

/// A search limit as python-chess writes it (`engine.analyse(board, damiera.Limit(depth=
/// 12))`): `depth`, `nodes`, `time` (seconds); the first reached stops the search.
#[pyclass(module = "damiera", name = "Limit", frozen, get_all)]
#[derive(Clone, Copy, Debug)]
pub struct Limit {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub time: Option<f64>,
}

#[pymethods]
impl Limit {
    #[new]
    #[pyo3(signature = (depth = None, nodes = None, time = None))]
    fn new(depth: Option<u32>, nodes: Option<u64>, time: Option<f64>) -> Limit {
        Limit { depth, nodes, time }
    }

    fn __repr__(&self) -> String {
        let show = |name: &str, v: Option<String>| v.map(|v| format!("{name}={v}"));
        let parts: Vec<String> = [
            show("depth", self.depth.map(|d| d.to_string())),
            show("nodes", self.nodes.map(|n| n.to_string())),
            show("time", self.time.map(|t| t.to_string())),
        ]
        .into_iter()
        .flatten()
        .collect();
        format!("Limit({})", parts.join(", "))
    }
}

/// The keyword limits, each over the same field of `limit` when given.
fn merged(
    limit: Option<PyRef<'_, Limit>>,
    depth: Option<u32>,
    nodes: Option<u64>,
    time: Option<f64>,
) -> PyResult<Limits> {
    let l = limit.map(|l| *l);
    limits(
        depth.or(l.and_then(|l| l.depth)),
        nodes.or(l.and_then(|l| l.nodes)),
        time.or(l.and_then(|l| l.time)),
    )
}

/// The limits from the keyword arguments; at least one is needed.
fn limits(depth: Option<u32>, nodes: Option<u64>, time: Option<f64>) -> PyResult<Limits> {
    if depth.is_none() && nodes.is_none() && time.is_none() {
        return Err(PyValueError::new_err(
            "give a limit: depth=, nodes= or time= (seconds)",
        ));
    }
    if depth.is_some_and(|d| d == 0 || d > 100) {
        return Err(PyValueError::new_err("depth must be 1..100"));
    }
    if nodes == Some(0) {
        return Err(PyValueError::new_err("nodes must be at least 1"));
    }
    if let Some(t) = time
        && !(t.is_finite() && t > 0.0 && t <= 1e6)
    {
        return Err(PyValueError::new_err(format!(
            "time must be a positive number of seconds, not {t}"
        )));
    }
    Ok(Limits {
        depth,
        nodes,
        move_time: time,
        ..Limits::default()
    })
}

/// One info dict: `score`, `pv` (moves), `depth`, `nodes`, `time`, `nps`, `multipv`.
fn info<'py>(
    py: Python<'py>,
    board: &Board,
    result: &SearchResult,
    rank: usize,
    elapsed: Duration,
) -> PyResult<Bound<'py, PyDict>> {
    let pos = board.position();
    let (score, pv) = match result.lines.get(rank) {
        Some(l) => (l.score, l.pv.as_slice()),
        None => (result.score, result.pv.as_slice()),
    };
    let d = PyDict::new(py);
    d.set_item("score", Score { raw: score })?;
    d.set_item("pv", line(&pos, pv))?;
    d.set_item("depth", result.depth)?;
    d.set_item("nodes", result.nodes)?;
    let secs = elapsed.as_secs_f64();
    d.set_item("time", secs)?;
    d.set_item("nps", (result.nodes as f64 / secs.max(1e-6)) as u64)?;
    d.set_item("multipv", rank + 1)?;
    Ok(d)
}

#[pymethods]
impl PyEngine {
    /// An engine for `variant` with `threads` search threads, a `hash_mib` MiB table, the
    /// endgame databases in `egdb_path` (by default those in the variant's default
    /// directory, when it exists) and the weights or network file `eval_file` (by default
    /// the built-in weights). A board of another variant is searched with its variant's
    /// built-in weights and without the databases.
    #[new]
    #[pyo3(signature = (variant = "italian", threads = 1, hash_mib = 64, egdb_path = None, eval_file = None))]
    fn new(
        variant: &str,
        threads: usize,
        hash_mib: usize,
        egdb_path: Option<PathBuf>,
        eval_file: Option<String>,
    ) -> PyResult<PyEngine> {
        let v = parse_variant(variant)?;
        if !(1..=64).contains(&threads) {
            return Err(PyValueError::new_err(format!(
                "threads must be 1..64, not {threads}"
            )));
        }
        if !(1..=damiera::engine::MAX_TT_MIB).contains(&hash_mib) {
            return Err(PyValueError::new_err(format!(
                "hash_mib must be 1..{}, not {hash_mib}",
                damiera::engine::MAX_TT_MIB
            )));
        }
        let eval = match eval_file.as_deref() {
            Some(path) => EvalFile::load(path).map_err(|e| PyValueError::new_err(e.to_string()))?,
            None => EvalFile::embedded(),
        };
        eval.check_variant(v)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        let egdb = load_databases(egdb_path.as_deref(), v).map_err(PyValueError::new_err)?;
        let options = EngineOptions {
            threads,
            tt_mib: hash_mib,
            weights: std::sync::Arc::clone(eval.weights()),
            egdb,
            ..EngineOptions::default()
        };
        let (engine, events) = Engine::spawn(options).map_err(PyValueError::new_err)?;
        Ok(PyEngine {
            stopper: engine.stopper(),
            stop_asked: AtomicBool::new(false),
            running: Mutex::new(Some(Running { engine, events })),
            variant: v,
        })
    }

    /// The variant the engine plays (and whose databases it probes).
    #[getter]
    fn variant(&self) -> &'static str {
        self.variant.name()
    }

    /// Whether endgame databases were found.
    #[getter]
    fn has_egdb(&self) -> bool {
        self.running
            .lock()
            .ok()
            .and_then(|g| g.as_ref().map(|r| r.engine.options().egdb.is_some()))
            .unwrap_or(false)
    }

    /// Analyses `board` to a limit (`damiera.Limit`, or the keywords `depth`, `nodes`,
    /// `time` in seconds; the first reached stops): an info dict (`score` from the side to move, `pv` as moves, `depth`,
    /// `nodes`, `time`, `nps`, `multipv`), or with `multipv=k` a list of the best k lines'.
    /// Draws score 0 (analysis: no contempt), a forced move is searched like any other.
    #[pyo3(signature = (board, limit = None, *, depth = None, nodes = None, time = None, multipv = None))]
    #[allow(clippy::too_many_arguments)]
    fn analyse<'py>(
        &self,
        py: Python<'py>,
        board: PyRef<'py, Board>,
        limit: Option<PyRef<'py, Limit>>,
        depth: Option<u32>,
        nodes: Option<u64>,
        time: Option<f64>,
        multipv: Option<usize>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let mut limits = merged(limit, depth, nodes, time)?;
        limits.analysis = true;
        if multipv.is_some_and(|k| !(1..=32).contains(&k)) {
            return Err(PyValueError::new_err("multipv must be 1..32"));
        }
        // A copy, the borrow ended: Python may use the board while the engine thinks.
        let board: Board = {
            let borrowed = board;
            Board::clone(&borrowed)
        };
        let (result, elapsed) = self.search(py, &board, limits, multipv.unwrap_or(1))?;
        match multipv {
            None => Ok(info(py, &board, &result, 0, elapsed)?.into_any()),
            Some(_) => {
                let lines = result.lines.len().max(1);
                let infos = (0..lines)
                    .map(|rank| info(py, &board, &result, rank, elapsed))
                    .collect::<PyResult<Vec<_>>>()?;
                Ok(pyo3::types::PyList::new(py, infos)?.into_any())
            }
        }
    }

    /// The engine's move in `board` within the limit (a `Limit`, or `depth`, `nodes`, `time`): a
    /// `PlayResult` with `move` (`None` when the side to move has lost), `ponder`, `info`.
    #[pyo3(signature = (board, limit = None, *, depth = None, nodes = None, time = None))]
    fn play<'py>(
        &self,
        py: Python<'py>,
        board: PyRef<'py, Board>,
        limit: Option<PyRef<'py, Limit>>,
        depth: Option<u32>,
        nodes: Option<u64>,
        time: Option<f64>,
    ) -> PyResult<PlayResult> {
        let limits = merged(limit, depth, nodes, time)?;
        // A copy, the borrow ended: Python may use the board while the engine thinks.
        let board: Board = {
            let borrowed = board;
            Board::clone(&borrowed)
        };
        let (result, elapsed) = self.search(py, &board, limits, 1)?;
        let pos = board.position();
        let moves = line(&pos, &result.pv);
        let best = result
            .best
            .map(|mv| crate::moves::first_path(&pos, mv))
            .map(|m| moves.first().filter(|f| f.mv == m.mv).cloned().unwrap_or(m));
        Ok(PlayResult {
            r#move: best,
            ponder: moves.get(1).cloned(),
            info: info(py, &board, &result, 0, elapsed)?.unbind(),
        })
    }

    /// Stops the running search (from another thread); its answer is returned as usual.
    fn stop(&self) {
        self.stop_asked.store(true, Ordering::SeqCst);
        self.stopper.stop();
    }

    /// Forgets what earlier searches learnt (the transposition table).
    fn new_game(&self, py: Python<'_>) -> PyResult<()> {
        py.detach(|| {
            let mut guard = self
                .running
                .lock()
                .map_err(|_| PyRuntimeError::new_err("the engine failed in an earlier search"))?;
            if let Some(r) = guard.as_mut() {
                r.engine.new_game();
            }
            Ok(())
        })
    }

    /// Stops the search thread and frees the table; the engine cannot search afterwards.
    fn close(&self, py: Python<'_>) {
        self.stopper.stop();
        py.detach(|| {
            if let Ok(mut guard) = self.running.lock() {
                guard.take();
            }
        });
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __exit__(
        &self,
        py: Python<'_>,
        _kind: &Bound<'_, PyAny>,
        _value: &Bound<'_, PyAny>,
        _traceback: &Bound<'_, PyAny>,
    ) {
        self.close(py);
    }

    fn __repr__(&self) -> String {
        format!("Engine(variant={:?})", self.variant.name())
    }
}
