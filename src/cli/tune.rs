//! `damiera tune`: fits the evaluation weights to game results (Texel's method).
//!
//! Quiet positions (no capture pending) are taken from PDN games, each labelled with its
//! game's result from White's view (1, 0.5, 0). The error is the mean squared difference
//! between the result and `sigmoid(k * eval)`; first `k` is fitted to the current weights,
//! then each weight in turn is moved up or down while that lowers the error. The new
//! weights are printed as a Rust literal for the hand-made evaluation
//! (`crates/engine/src/search/eval/hce.rs`, `weights_for`).
//!
//! Regenerate: play self-play games (`damiera match ... --pdn games.pdn`), then
//! `damiera tune games.pdn > weights.rs`.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use crate::board::Position;
use crate::game::pdn_file::read_file;
use crate::movegen::has_capture;
use crate::search::eval::hce::evaluate_white;
use crate::search::eval::{WEIGHTS, Weights};

use super::{CliError, Reading, report_pdn};

/// Arguments of `tune`.
#[derive(Args, Debug)]
pub struct TuneArgs {
    /// PDN files of games with results.
    #[arg(required = true)]
    pub pdn: Vec<PathBuf>,
    /// Passes over all weights.
    #[arg(long, default_value_t = 20)]
    pub passes: u32,
    /// Plies skipped at the start of each game (opening book moves).
    #[arg(long, default_value_t = 4)]
    pub skip: usize,
}

/// A training position: the position and its game's result for White.
struct Sample {
    position: Position,
    result: f64,
}

/// Runs the tuner; progress on stderr, the new weights on `out`. Tells whether every
/// game of the files was read.
pub fn run(args: &TuneArgs, out: &mut impl Write) -> Result<Reading, CliError> {
    let (samples, reading) = load(&args.pdn, args.skip)?;
    if samples.is_empty() {
        return Err(CliError("no positions with a game result found".into()));
    }
    eprintln!("tune: {} positions", samples.len());
    let k = fit_k(&samples, &WEIGHTS);
    let mut params = WEIGHTS.to_vec();
    let mut best = error(&samples, &params, k);
    eprintln!("tune: k = {k:.5}, start error {best:.6}");
    for pass in 0..args.passes {
        let improved;
        (params, best, improved) = improve_pass(&samples, params, best, k);
        eprintln!("tune: pass {} error {best:.6}", pass + 1);
        if !improved {
            break;
        }
    }
    write_weights(out, &params).map_err(|e| CliError(e.to_string()))?;
    Ok(reading)
}

/// The samples of every game with a result; each file's warnings and summary go to
/// stderr.
fn load(paths: &[PathBuf], skip: usize) -> Result<(Vec<Sample>, Reading), CliError> {
    let mut samples = Vec::new();
    let mut reads = Vec::new();
    for path in paths {
        let read = read_file(path).map_err(CliError)?;
        report_pdn(&path.display().to_string(), &read);
        for game in &read.games {
            let Some(result) = game.pdn.result_or_tag().and_then(white_result) else {
                continue;
            };
            samples.extend(
                game.replay
                    .positions()
                    .iter()
                    .skip(skip)
                    .filter(|p| !has_capture(p))
                    .map(|&position| Sample { position, result }),
            );
        }
        reads.push(read);
    }
    Ok((samples, Reading::of(&reads)))
}

/// The result for White of a PDN result token.
fn white_result(token: &str) -> Option<f64> {
    match token {
        "1-0" | "2-0" => Some(1.0),
        "0-1" | "0-2" => Some(0.0),
        "1/2-1/2" | "1-1" => Some(0.5),
        _ => None,
    }
}

fn sigmoid(k: f64, eval: i32) -> f64 {
    1.0 / (1.0 + (-k * eval as f64).exp())
}

fn error(samples: &[Sample], params: &[i32], k: f64) -> f64 {
    let Some(w) = Weights::from_slice(params) else {
        return f64::INFINITY;
    };
    let sum: f64 = samples
        .iter()
        .map(|s| (s.result - sigmoid(k, evaluate_white(&s.position, &w))).powi(2))
        .sum();
    sum / samples.len() as f64
}

/// The scaling constant that best fits the current weights (golden-section search).
fn fit_k(samples: &[Sample], w: &Weights) -> f64 {
    let params = w.to_vec();
    let (mut lo, mut hi) = (0.0001f64, 0.05f64);
    for _ in 0..40 {
        let m1 = lo + (hi - lo) * 0.382;
        let m2 = lo + (hi - lo) * 0.618;
        if error(samples, &params, m1) < error(samples, &params, m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    (lo + hi) / 2.0
}

/// One pass of coordinate descent: each weight moves by ±1 step while the error drops.
/// The man's value stays fixed at 100 (it sets the scale).
fn improve_pass(
    samples: &[Sample],
    mut params: Vec<i32>,
    mut best: f64,
    k: f64,
) -> (Vec<i32>, f64, bool) {
    let mut improved = false;
    for i in 1..params.len() {
        for delta in [1, -1] {
            loop {
                params[i] += delta;
                let e = error(samples, &params, k);
                if e < best {
                    best = e;
                    improved = true;
                } else {
                    params[i] -= delta;
                    break;
                }
            }
        }
    }
    (params, best, improved)
}

fn write_weights(out: &mut impl Write, params: &[i32]) -> std::io::Result<()> {
    writeln!(out, "// Weights fitted by `damiera tune`.")?;
    for (name, value) in Weights::names().iter().zip(params) {
        writeln!(out, "{name} = {value}")?;
    }
    if let Some(w) = Weights::from_slice(params) {
        writeln!(out, "{w:#?}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_for_white() {
        assert_eq!(white_result("1-0"), Some(1.0));
        assert_eq!(white_result("0-2"), Some(0.0));
        assert_eq!(white_result("1/2-1/2"), Some(0.5));
        assert_eq!(white_result("*"), None);
    }

    #[test]
    fn descent_lowers_the_error() {
        // White wins every game with an extra king: the king's weight should not drop.
        let pos = Position::parse("W:WK22,23:B9").unwrap();
        let samples: Vec<Sample> = (0..10)
            .map(|_| Sample {
                position: pos,
                result: 1.0,
            })
            .collect();
        let k = 0.01;
        let start = error(&samples, &WEIGHTS.to_vec(), k);
        let (params, best, improved) = improve_pass(&samples, WEIGHTS.to_vec(), start, k);
        assert!(improved && best < start);
        assert!(params[1] >= WEIGHTS.king);
    }
}
