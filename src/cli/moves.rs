//! `damiera moves [--variant V] [--fen F] [--format path|hub|fen]`.

use std::io::Write;

use clap::{Args, ValueEnum};

use super::{CliError, VariantArg};
use crate::movegen::{hub_text_in, legal_moves, path_text, sort_moves_in};

/// Move text forms.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum MoveFormat {
    /// Every landing square: `29x22x15x6`.
    Path,
    /// From, to, captured squares: `29x6x15x18x26`.
    Hub,
    /// The move in path form, a space, and the position after it as FEN:
    /// `22-18 B:W18,21,23-32:B1-12`.
    Fen,
}

/// Arguments of `moves`.
#[derive(Args, Debug)]
pub struct MovesArgs {
    /// The game whose rules give the moves.
    #[command(flatten)]
    pub variant: VariantArg,
    /// Position (PDN FEN or Hub position string, in the variant's notation); the initial
    /// position by default.
    #[arg(long)]
    pub fen: Option<String>,
    /// How to write the moves.
    #[arg(long, value_enum, default_value = "path")]
    pub format: MoveFormat,
}

/// Prints the legal moves, one per line, sorted by their squares numerically.
pub fn run(args: &MovesArgs, out: &mut impl Write) -> Result<(), CliError> {
    let pos = args.variant.position(args.fen.as_deref())?;
    let mut moves = legal_moves(&pos).to_vec();
    sort_moves_in(pos.variant(), &mut moves);
    let mut write = || -> std::io::Result<()> {
        for &mv in &moves {
            let text = match args.format {
                MoveFormat::Path => path_text(&pos, mv),
                MoveFormat::Hub => hub_text_in(pos.variant(), mv),
                MoveFormat::Fen => format!("{} {}", path_text(&pos, mv), pos.play(mv).to_fen()),
            };
            writeln!(out, "{text}")?;
        }
        Ok(())
    };
    write().or_else(|e| match e.kind() {
        std::io::ErrorKind::BrokenPipe => Ok(()),
        _ => Err(CliError(format!("error: {e}"))),
    })
}
