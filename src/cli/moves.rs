//! `damiera moves [--fen F] [--format path|hub]`.

use std::io::Write;

use clap::{Args, ValueEnum};

use crate::board::Position;
use crate::movegen::{hub_text, legal_moves, path_text, sort_moves};

/// Move text forms.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum MoveFormat {
    /// Every landing square: `29x22x15x6`.
    Path,
    /// From, to, captured squares: `29x6x15x18x26`.
    Hub,
}

/// Arguments of `moves`.
#[derive(Args, Debug)]
pub struct MovesArgs {
    /// Position (PDN FEN or Hub position string); the initial position by default.
    #[arg(long, value_parser = super::parse_position)]
    pub fen: Option<Position>,
    /// How to write the moves.
    #[arg(long, value_enum, default_value = "path")]
    pub format: MoveFormat,
}

/// Prints the legal moves, one per line, sorted by their squares numerically.
pub fn run(args: &MovesArgs, out: &mut impl Write) -> std::io::Result<()> {
    let pos = args.fen.unwrap_or_else(Position::start);
    let mut moves = legal_moves(&pos).to_vec();
    sort_moves(&mut moves);
    for mv in moves {
        let text = match args.format {
            MoveFormat::Path => path_text(&pos, mv),
            MoveFormat::Hub => hub_text(mv),
        };
        writeln!(out, "{text}")?;
    }
    Ok(())
}
