//! `damiera train`: fits the pattern evaluation to self-play positions and writes a
//! weights file (see [`crate::train::fit`]).

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use clap::Args;

use super::CliError;
use super::output::TempFile;
use crate::search::eval::weights_file;
use crate::train::data::{self, Sample};
use crate::train::fit::{TrainConfig, train};

/// Arguments of `train`.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// Training data files written by `damiera selfplay`; the slices of a sharded run
    /// in order (1/N first), or their concatenation.
    #[arg(required = true)]
    pub data: Vec<PathBuf>,
    /// Output weights file.
    #[arg(long, short)]
    pub output: PathBuf,
    /// Passes over the training set.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(0..=1000))]
    pub epochs: u32,
    /// Weight of the game result in the target, 0..1; the rest is the search score
    /// (0.5 beat 1.0 by +22 Elo in an SPRT; 0.25 was no better than 0.5).
    #[arg(long, default_value_t = 0.5, value_parser = unit_interval)]
    pub lambda: f64,
    /// Share of games held out for validation, 0..1.
    #[arg(long, default_value_t = 0.1, value_parser = unit_interval)]
    pub validation: f64,
    /// Seed of the split and the shuffles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Adam step size (logit units).
    #[arg(long, default_value_t = 0.005, value_parser = positive)]
    pub learning_rate: f64,
    /// Positions per mini-batch.
    #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    pub batch: u64,
    /// L2 penalty on the pattern weights.
    #[arg(long, default_value_t = 0.00003, value_parser = unit_interval)]
    pub l2: f64,
    /// Threads.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub threads: u64,
}

fn unit_interval(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(v) if (0.0..=1.0).contains(&v) => Ok(v),
        _ => Err(format!("'{text}' is not a number from 0 to 1")),
    }
}

fn positive(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        _ => Err(format!("'{text}' is not a positive number")),
    }
}

/// Reads the data files in order. A file with a header starts a run; a file without one
/// (a self-play slice K/N with K > 1) continues the run of the file before it. Game
/// numbers restart in each run: they are kept apart for the train/validation split.
pub fn load_samples(paths: &[PathBuf]) -> Result<Vec<Sample>, CliError> {
    let mut samples = Vec::new();
    let mut runs = 0u32;
    for path in paths {
        let bytes = std::fs::read(path)
            .map_err(|e| CliError(format!("cannot read {}: {e}", path.display())))?;
        let bad = |e: data::DataError| CliError(format!("{}: {e}", path.display()));
        let mut part = if data::has_header(&bytes) {
            runs += 1;
            data::parse(&bytes).map_err(bad)?
        } else if runs == 0 {
            return Err(CliError(format!(
                "{}: no data file header: a self-play slice K/N with K > 1 continues the \
                 slices before it; list slice 1/N (which has the header) first",
                path.display()
            )));
        } else {
            data::parse_continuation(&bytes).map_err(bad)?
        };
        let base = (runs - 1) << 24;
        for s in &mut part {
            s.game = s.game.wrapping_add(base);
        }
        samples.extend(part);
    }
    Ok(samples)
}

/// Loads the data, trains, writes the weights; progress lines on `out`.
pub fn run(args: &TrainArgs, out: &mut impl Write) -> Result<(), CliError> {
    let start = Instant::now();
    // Opened (and its folders made) before the data is read and the weights fitted, so
    // that a path that cannot be written fails at once.
    let mut weights_out = TempFile::create(&args.output)?;
    let samples = load_samples(&args.data)?;
    let cfg = TrainConfig {
        epochs: args.epochs,
        lambda: args.lambda,
        validation: args.validation,
        seed: args.seed,
        learning_rate: args.learning_rate,
        batch: args.batch as usize,
        l2: args.l2,
        threads: args.threads as usize,
    };
    let say = |out: &mut dyn Write, text: String| {
        writeln!(out, "{text}").map_err(|e| CliError(e.to_string()))
    };
    say(out, format!("train: {} positions loaded", samples.len()))?;
    let trained = train(&samples, &cfg, |r| {
        let _ = writeln!(
            out,
            "epoch {:3}  train loss {:.5}  validation loss {:.5}  ({:.1} s)",
            r.epoch, r.train_loss, r.validation_loss, r.seconds
        );
        let _ = out.flush();
    })
    .map_err(CliError)?;
    weights_out.write_all(&weights_file::to_bytes(&trained.weights))?;
    weights_out.commit()?;
    say(
        out,
        format!(
            "train: k = {:.6}; {} training and {} validation positions; validation loss: material only {:.5}, hand-made eval {:.5}, best {:.5} at epoch {}; {:.1} s; wrote {}",
            trained.k,
            trained.sizes.0,
            trained.sizes.1,
            trained.reference.0,
            trained.reference.1,
            trained.best.0,
            trained.best.1,
            start.elapsed().as_secs_f64(),
            args.output.display()
        ),
    )
}
