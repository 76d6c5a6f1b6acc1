//! `damiera bench [--depth N] [--threads N]`: fixed positions searched to a fixed depth.
//! The node total is the search's signature (identical run to run with one thread);
//! commits that change the search record it as `Bench: N`. `--variant` plays the same
//! boards by another game's rules (to time that game's evaluation or network); the
//! signature is Italian's.

use std::io::Write;
use std::time::Instant;

use clap::Args;

use super::VariantArg;
use super::engine_args::EngineArgs;
use crate::board::Position;
use crate::clock::Limits;
use crate::engine::{EngineOptions, Thinker};
use crate::game::Game;
use crate::search::eval::EvalFile;

/// The bench positions: the start, opening ballots, middlegames, endgames with kings.
pub const POSITIONS: [&str; 10] = [
    "W:W21-32:B1-12",
    "W:W24,23,22,21,27,26,25,32,31,30,29:B4,3,2,1,7,6,5,11,10,9,15",
    "W:W24,23,22,21,28,26,25,32,31,30,29:B4,3,2,1,7,6,5,11,10,9,13",
    "B:W30,26,27,22,23,24,17,18,20:B14,15,16,9,11,5,6,1,3",
    "W:W30,26,27,22,23,24,17,18,20:B14,15,16,9,11,5,6,1,3",
    "B:W30,21,22,17,20,K6:B25,28,9,5,1,3",
    "W:WK27,K28,17,20,9,K12,8:B21,24,K19,K13,14,K11,4",
    "W:W31,29,27,22,19:B13,10,6,3,2",
    "W:WK14,K23:BK1",
    "B:W32,28,24,K5:B21,17,9,K30",
];

/// Default bench depth.
pub const DEFAULT_DEPTH: u32 = 12;

/// Arguments of `bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Search depth for every position.
    #[arg(long, default_value_t = DEFAULT_DEPTH, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: u32,
    /// The engine's settings (the node total is reproducible only with one thread;
    /// `--style hce` benches the hand-made evaluation, for speed comparisons).
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Weights file for the pattern evaluation, or a network file (default: the
    /// built-in weights).
    #[arg(long)]
    pub eval_file: Option<String>,
    /// The game whose rules (and embedded weights) the positions are searched with.
    #[command(flatten)]
    pub variant: VariantArg,
}

/// Runs the bench; the last line is exactly `bench <nodes> nodes <nps> nps` (speed over
/// the searches alone, not the table clearing between positions).
pub fn run(args: &BenchArgs, eval: &EvalFile, out: &mut impl Write) -> std::io::Result<()> {
    let options = args.engine.apply(EngineOptions {
        weights: std::sync::Arc::clone(eval.weights()),
        ..EngineOptions::default()
    });
    let thinker =
        Thinker::new(options.map_err(std::io::Error::other)?).map_err(std::io::Error::other)?;
    let (mut total, mut searching) = (0u64, std::time::Duration::ZERO);
    for (i, text) in POSITIONS.iter().enumerate() {
        let Ok(pos) = Position::parse(text) else {
            continue;
        };
        let pos = pos.with_variant(args.variant.variant);
        thinker.new_game();
        let t = Instant::now();
        let r = thinker.think(&Game::new(pos), &Limits::depth(args.depth), |_| {});
        let elapsed = t.elapsed();
        searching += elapsed;
        total += r.nodes;
        let best = r
            .best
            .map(crate::movegen::hub_text)
            .unwrap_or_else(|| "none".into());
        writeln!(
            out,
            "position {} nodes {} time_ms {} best {best} score {}",
            i + 1,
            r.nodes,
            elapsed.as_millis(),
            r.score
        )?;
    }
    let nps = (total as f64 / searching.as_secs_f64().max(1e-9)) as u64;
    writeln!(out, "bench {total} nodes {nps} nps")
}
