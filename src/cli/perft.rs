//! `damiera perft <depth> [--fen F] [--divide] [--paths]`.

use std::io::Write;
use std::time::Instant;

use clap::Args;

use crate::board::Position;
use crate::movegen::{divide, hub_text, perft, sort_moves};

/// Arguments of `perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Depth in plies.
    #[arg(value_parser = clap::value_parser!(u32).range(0..=20))]
    pub depth: u32,
    /// Start position (PDN FEN or Hub position string); the initial position by default.
    #[arg(long, value_parser = super::parse_position)]
    pub fen: Option<Position>,
    /// First print one line per root move: `<move> <leaves>` (Hub move form).
    #[arg(long)]
    pub divide: bool,
    /// Count every capture path separately, as the classic C generators do.
    #[arg(long)]
    pub paths: bool,
}

/// Runs perft and prints `total <leaves> time_ms <ms> nps <leaves per second>` last.
pub fn run(args: &PerftArgs, out: &mut impl Write) -> std::io::Result<()> {
    let pos = args.fen.unwrap_or_else(Position::start);
    let started = Instant::now();
    let total = if args.divide {
        let mut rows = divide(&pos, args.depth, args.paths);
        let mut moves: Vec<_> = rows.iter().map(|r| r.0).collect();
        sort_moves(&mut moves);
        rows.sort_by_key(|r| moves.iter().position(|m| *m == r.0));
        for (mv, n) in &rows {
            writeln!(out, "{} {n}", hub_text(*mv))?;
        }
        if args.depth == 0 {
            1
        } else {
            rows.iter().map(|r| r.1).sum()
        }
    } else {
        perft(&pos, args.depth, args.paths)
    };
    let elapsed = started.elapsed();
    let nps = (total as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
    writeln!(
        out,
        "total {total} time_ms {} nps {nps}",
        elapsed.as_millis()
    )
}
