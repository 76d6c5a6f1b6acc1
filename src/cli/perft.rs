//! `damiera perft <depth> [--variant V] [--house-rule R]... [--fen F] [--divide] [--paths]`.

use std::io::Write;
use std::time::Instant;

use clap::Args;

use super::{CliError, HouseArg, VariantArg};
use crate::movegen::{divide, hub_text_in, perft, sort_moves_in};

/// Arguments of `perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Depth in plies.
    #[arg(value_parser = clap::value_parser!(u32).range(0..=20))]
    pub depth: u32,
    /// The game whose rules count.
    #[command(flatten)]
    pub variant: VariantArg,
    /// Damka's house rules.
    #[command(flatten)]
    pub house: HouseArg,
    /// Start position (PDN FEN or Hub position string, in the variant's notation); the
    /// initial position by default.
    #[arg(long)]
    pub fen: Option<String>,
    /// First print one line per root move: `<move> <leaves>` (Hub move form).
    #[arg(long)]
    pub divide: bool,
    /// Count every capture path separately (captures that take the same pieces in another
    /// order, or by another way, count once each), as the classic C generators and Rein
    /// Halbersma's published counts do. By default each distinct move (from, to, captured
    /// set) counts once.
    #[arg(long)]
    pub paths: bool,
}

/// Runs perft and prints `total <leaves> time_ms <ms> nps <leaves per second>` last.
pub fn run(args: &PerftArgs, out: &mut impl Write) -> Result<(), CliError> {
    let pos = args.house.position(&args.variant, args.fen.as_deref())?;
    write(args, &pos, out).or_else(|e| match e.kind() {
        std::io::ErrorKind::BrokenPipe => Ok(()),
        _ => Err(CliError(format!("error: {e}"))),
    })
}

fn write(
    args: &PerftArgs,
    pos: &crate::board::Position,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let variant = pos.variant();
    let started = Instant::now();
    let total = if args.divide {
        let mut rows = divide(pos, args.depth, args.paths);
        let mut moves: Vec<_> = rows.iter().map(|r| r.0).collect();
        sort_moves_in(variant, &mut moves);
        rows.sort_by_key(|r| moves.iter().position(|m| *m == r.0));
        for (mv, n) in &rows {
            writeln!(out, "{} {n}", hub_text_in(variant, *mv))?;
        }
        if args.depth == 0 {
            1
        } else {
            rows.iter().map(|r| r.1).sum()
        }
    } else {
        perft(pos, args.depth, args.paths)
    };
    let elapsed = started.elapsed();
    let nps = (total as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
    writeln!(
        out,
        "total {total} time_ms {} nps {nps}",
        elapsed.as_millis()
    )
}
