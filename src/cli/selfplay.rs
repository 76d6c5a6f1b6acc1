//! `damiera selfplay`: self-play games written as training positions (see
//! [`crate::train::data`] for the format and [`crate::train::selfplay`] for the rules).

use std::fs::File;
use std::io::{BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use super::CliError;
use crate::game::DrawRules;
use crate::game::openings::{default_openings, parse_openings};
use crate::search::Style;
use crate::search::eval::EvalFile;
use crate::train::data::{encode, header};
use crate::train::selfplay::{SelfplayConfig, run as run_games};
use std::sync::Arc;

/// Arguments of `selfplay`.
#[derive(Args, Debug)]
pub struct SelfplayArgs {
    /// Output file for the training positions.
    #[arg(long, short)]
    pub output: PathBuf,
    /// Games to play.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub games: u64,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 3000, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    pub nodes: u64,
    /// Games played at once (threads).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub concurrency: u64,
    /// Seed of the opening choice and the random plies.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random plies after the opening: 0 up to this many.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=40))]
    pub random_plies: u32,
    /// Extra start positions (FEN lines or PDN), added to the built-in 3-ply openings.
    #[arg(long)]
    pub openings: Vec<PathBuf>,
    /// Plies after which a game is a draw.
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub max_plies: u64,
    /// Evaluation of both sides: full (pattern) or hce.
    #[arg(long, default_value = "full", value_parser = ["full", "hce"])]
    pub style: String,
    /// Weights file for the pattern evaluation (default: the built-in one).
    #[arg(long)]
    pub eval_file: Option<String>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
    /// Moves per side without a capture or a man move that draw a game (0: no limit).
    #[arg(long, default_value_t = 40, value_parser = clap::value_parser!(u32).range(0..=1000))]
    pub draw_moves: u32,
}

/// Plays the games, writes the file, prints the totals.
pub fn run(args: &SelfplayArgs, eval: &EvalFile, out: &mut impl Write) -> Result<(), CliError> {
    let mut openings = default_openings(3);
    for path in &args.openings {
        let bytes = std::fs::read(path)
            .map_err(|e| CliError(format!("cannot read {}: {e}", path.display())))?;
        openings.extend(parse_openings(&path.display().to_string(), &bytes).map_err(CliError)?);
    }
    let cfg = SelfplayConfig {
        games: args.games,
        nodes: args.nodes,
        concurrency: args.concurrency as usize,
        seed: args.seed,
        random_plies: args.random_plies,
        openings,
        max_plies: args.max_plies as usize,
        style: if args.style == "hce" {
            Style::HCE
        } else {
            Style::FULL
        },
        tt_mib: 8,
        rules: DrawRules::default().with_quiet_moves(args.draw_moves),
        weights: Arc::clone(eval.weights()),
    };
    let file = File::create(&args.output)
        .map_err(|e| CliError(format!("cannot create {}: {e}", args.output.display())))?;
    let mut writer = BufWriter::new(file);
    let io_err = |e: std::io::Error| CliError(format!("{}: {e}", args.output.display()));
    writer.write_all(&header()).map_err(io_err)?;
    let bar = progress_bar(args);
    let start = Instant::now();
    let (mut positions, mut plies, mut failure) = (0u64, 0u64, None);
    let mut buf = Vec::new();
    run_games(&cfg, |game| {
        buf.clear();
        for s in &game.samples {
            encode(s, &mut buf);
        }
        if failure.is_none()
            && let Err(e) = writer.write_all(&buf)
        {
            failure = Some(e);
        }
        positions += game.samples.len() as u64;
        plies += game.plies as u64;
        bar.inc(1);
        bar.set_message(format!("{positions} positions"));
    });
    bar.finish_and_clear();
    if let Some(e) = failure {
        return Err(io_err(e));
    }
    writer.flush().map_err(io_err)?;
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    writeln!(
        out,
        "selfplay: {} games, {plies} plies, {positions} positions in {secs:.1} s ({:.0} positions/hour) -> {}",
        args.games,
        positions as f64 * 3600.0 / secs,
        args.output.display()
    )
    .map_err(|e| CliError(e.to_string()))
}

fn progress_bar(args: &SelfplayArgs) -> ProgressBar {
    if args.quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(args.games);
    if let Ok(style) = ProgressStyle::with_template(
        "selfplay {pos}/{len} games [{elapsed_precise}<{eta}] {wide_bar} {msg}",
    ) {
        bar.set_style(style);
    }
    bar
}
