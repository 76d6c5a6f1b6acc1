//! Games played entirely in Rust for training data: random moves, or a fixed-node engine
//! after a few random plies, each game ended by the library's `Game` verdict (the
//! variant's draw rules) or a ply cap. `damiera.batch.play_games` wraps this.

use damiera::board::{Color, Position, Square, Variant};
use damiera::clock::Limits;
use damiera::engine::{EngineOptions, Thinker};
use damiera::game::{Game, Verdict};
use damiera::movegen::{MoveList, generate_into};
use damiera::rng::Rng;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::board::{numpy_array, planes};
use crate::moves::{first_path, parse_variant};

/// The positions of the games, in order, and each game's end.
#[derive(Default)]
struct Batch {
    /// Per position: white men, white kings, black men, black kings as 32-bit sets
    /// (bit n-1 for the square numbered n in the variant's numbering).
    pieces: Vec<u32>,
    planes: Vec<u8>,
    turn: Vec<u8>,
    action: Vec<u32>,
    game: Vec<u32>,
    ply: Vec<u32>,
    value: Vec<i8>,
    /// Per game: +1 White won, -1 Black won, 0 drawn or cut at the ply cap.
    results: Vec<i8>,
    lengths: Vec<u32>,
    finished: Vec<u8>,
}

fn sets(pos: &Position) -> [u32; 4] {
    let mut out = [0u32; 4];
    for (sq, piece) in Square::all().filter_map(|sq| pos.piece_at(sq).map(|p| (sq, p))) {
        let i = match (piece.color, piece.king) {
            (Color::White, false) => 0,
            (Color::White, true) => 1,
            (Color::Black, false) => 2,
            (Color::Black, true) => 3,
        };
        out[i] |= 1 << (pos.variant().number_of(sq) - 1);
    }
    out
}

/// Settings of one batch.
struct Settings {
    games: usize,
    variant: Variant,
    seed: u64,
    max_plies: usize,
    nodes: Option<u64>,
    random_plies: usize,
    hash_mib: usize,
    with_planes: bool,
}

fn play_all(s: &Settings) -> Result<Batch, PyErr> {
    let thinker = match s.nodes {
        Some(_) => Some(
            Thinker::new(EngineOptions {
                tt_mib: s.hash_mib,
                ..EngineOptions::default()
            })
            .map_err(PyValueError::new_err)?,
        ),
        None => None,
    };
    let mut rng = Rng::new(s.seed);
    let mut batch = Batch::default();
    let mut list = MoveList::new();
    for g in 0..s.games {
        if g % 256 == 255 {
            Python::attach(|py| py.check_signals())?;
        }
        if let Some(t) = &thinker {
            t.new_game();
        }
        let mut game = Game::new(Position::start_of(s.variant));
        let first = batch.value.len();
        let mut verdict = game.verdict();
        while !verdict.is_over() && game.plies() < s.max_plies {
            let pos = game.position();
            generate_into(&pos, &mut list);
            let engine_move = match (&thinker, s.nodes) {
                (Some(t), Some(n)) if game.plies() >= s.random_plies => {
                    t.think(&game, &Limits::nodes(n), |_| {}).best
                }
                _ => None,
            };
            let mv = match engine_move {
                Some(mv) => mv,
                None => list[rng.below(list.len() as u64) as usize],
            };
            let action = if mv.is_capture() {
                first_path(&pos, mv).action_index()
            } else {
                let n = |sq| u32::from(pos.variant().number_of(sq)) - 1;
                (n(mv.from()) * 32 + n(mv.to())) * 32 + n(mv.to())
            };
            batch.pieces.extend_from_slice(&sets(&pos));
            if s.with_planes {
                planes(&pos, &mut batch.planes);
            }
            batch
                .turn
                .push(u8::from(pos.side_to_move() == Color::White));
            batch.action.push(action);
            batch.game.push(g as u32);
            batch.ply.push(game.plies() as u32);
            game.play(mv);
            verdict = game.verdict();
        }
        let result: i8 = match verdict {
            Verdict::Win(Color::White, _) => 1,
            Verdict::Win(Color::Black, _) => -1,
            _ => 0,
        };
        for i in first..batch.turn.len() {
            let white = batch.turn[i] == 1;
            batch.value.push(if white { result } else { -result });
        }
        batch.results.push(result);
        batch.lengths.push(game.plies() as u32);
        batch.finished.push(u8::from(verdict.is_over()));
    }
    Ok(batch)
}

fn bytes_of<T: Copy, const N: usize>(values: &[T], to: fn(T) -> [u8; N]) -> Vec<u8> {
    values.iter().flat_map(|&v| to(v)).collect()
}

/// Plays `games` games of `variant` in Rust (see `damiera.batch.play_games`) and returns
/// their positions and results as NumPy arrays in a dict.
#[pyfunction]
#[pyo3(signature = (games, variant = "italian", seed = 0, max_plies = 400, nodes = None, random_plies = 0, hash_mib = 16, planes = true))]
#[allow(clippy::too_many_arguments)]
pub fn random_games_raw<'py>(
    py: Python<'py>,
    games: usize,
    variant: &str,
    seed: u64,
    max_plies: usize,
    nodes: Option<u64>,
    random_plies: usize,
    hash_mib: usize,
    planes: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let settings = Settings {
        games,
        variant: parse_variant(variant)?,
        seed,
        max_plies,
        nodes: nodes.filter(|&n| n > 0),
        random_plies,
        hash_mib: hash_mib.clamp(1, 4096),
        with_planes: planes,
    };
    let b = py.detach(|| play_all(&settings))?;
    let n = b.turn.len();
    let d = PyDict::new(py);
    d.set_item(
        "pieces",
        numpy_array(
            py,
            &bytes_of(&b.pieces, u32::to_le_bytes),
            vec![n, 4],
            "<u4",
        )?,
    )?;
    if planes {
        d.set_item(
            "planes",
            numpy_array(py, &b.planes, vec![n, 4, 8, 8], "uint8")?,
        )?;
    }
    d.set_item("turn", numpy_array(py, &b.turn, vec![n], "uint8")?)?;
    d.set_item(
        "action",
        numpy_array(py, &bytes_of(&b.action, u32::to_le_bytes), vec![n], "<u4")?,
    )?;
    d.set_item(
        "game",
        numpy_array(py, &bytes_of(&b.game, u32::to_le_bytes), vec![n], "<u4")?,
    )?;
    d.set_item(
        "ply",
        numpy_array(py, &bytes_of(&b.ply, u32::to_le_bytes), vec![n], "<u4")?,
    )?;
    d.set_item(
        "value",
        numpy_array(py, &bytes_of(&b.value, i8::to_le_bytes), vec![n], "int8")?,
    )?;
    let g = b.results.len();
    d.set_item(
        "results",
        numpy_array(py, &bytes_of(&b.results, i8::to_le_bytes), vec![g], "int8")?,
    )?;
    d.set_item(
        "lengths",
        numpy_array(py, &bytes_of(&b.lengths, u32::to_le_bytes), vec![g], "<u4")?,
    )?;
    d.set_item("finished", numpy_array(py, &b.finished, vec![g], "bool")?)?;
    Ok(d)
}
