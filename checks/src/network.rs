//! Network files of the network evaluation ([`damiera::search::eval::nnue_file`]).
//!
//! As for [`super::weights`], the first byte chooses:
//! - even: the rest is a whole file, as read from disk;
//! - odd: the rest edits a valid file (a tiny English network of `tests/data/nnue/`: of
//!   one head, of four with the first byte's third bit set, of two with second dense
//!   layers with its fourth bit set), four bytes an edit: a
//!   3-byte offset and the new byte. With the first byte's second bit set the checksum is
//!   then recomputed, so the edits reach the network past the checksum; without it the
//!   stored checksum is left as it was: corruption.
//!
//! Properties: a file that parses writes back to exactly its bytes; a corrupted file
//! that differs from the original does not parse; with any network that parses, the
//! evaluation through the search's accumulators equals the one from scratch along a
//! line of moves, and the search's evaluation stays within its bounds.

use super::{Checked, ensure};
use damiera::board::Position;
use damiera::movegen::legal_moves;
use damiera::search::eval::nnue::Network;
use damiera::search::eval::nnue_file::{self, body_checksum, to_bytes};
use damiera::search::eval::nnue_stack::AccumulatorStack;
use damiera::search::eval::{EvalStyle, PatternWeights, evaluate};
use damiera::search::score::EVAL_LIMIT;
use std::sync::Arc;

/// A valid network file: the tiny English network the tests use.
pub static ORIGINAL: &[u8] = include_bytes!("../../tests/data/nnue/english-tiny.dmn");

/// A valid network file of four heads (format version 2).
pub static HEADS: &[u8] = include_bytes!("../../tests/data/nnue/english-tiny-heads.dmn");

/// A valid network file of two heads with second dense layers (format version 3).
pub static SECOND: &[u8] = include_bytes!("../../tests/data/nnue/english-tiny-second.dmn");

/// Where the checksum is stored.
const CHECKSUM: std::ops::Range<usize> = 12..20;

/// Runs every property on `data` (see the module documentation).
pub fn check(data: &[u8]) -> Checked {
    let Some((&mode, rest)) = data.split_first() else {
        return Ok(());
    };
    if mode & 1 == 0 {
        return parses_back(rest, false);
    }
    let fixed = mode & 2 != 0;
    let original = match mode & 12 {
        0 => ORIGINAL,
        4 => HEADS,
        _ => SECOND,
    };
    let mut file = original.to_vec();
    for edit in rest.chunks_exact(4) {
        let offset = usize::from(edit[0]) | usize::from(edit[1]) << 8 | usize::from(edit[2]) << 16;
        let offset = offset % original.len();
        if fixed || !CHECKSUM.contains(&offset) {
            file[offset] = edit[3];
        }
    }
    if fixed {
        let sum = body_checksum(&file);
        file[CHECKSUM].copy_from_slice(&sum.to_le_bytes());
    }
    if !fixed && file[CHECKSUM.end..] != original[CHECKSUM.end..] {
        return ensure(nnue_file::parse(&file).is_err(), || {
            "a corrupted network file passed its checksum".to_string()
        });
    }
    parses_back(&file, fixed)
}

/// A file that parses writes back to its bytes, and evaluates consistently.
fn parses_back(bytes: &[u8], evaluate_all: bool) -> Checked {
    let Ok(net) = nnue_file::parse(bytes) else {
        return Ok(());
    };
    ensure(to_bytes(&net) == bytes, || {
        "a network file does not write back to its bytes".to_string()
    })?;
    if evaluate_all {
        evaluations_agree(net)?;
    }
    Ok(())
}

/// Along a fixed line of moves from the start, the accumulators' evaluation equals the
/// network's from scratch, and the search's (clamped) evaluation is within bounds.
fn evaluations_agree(net: Network) -> Checked {
    let mut weights = PatternWeights::material_only_in(net.variant);
    let net = Arc::new(net);
    weights.network = Some(Arc::clone(&net));
    let mut stack = AccumulatorStack::new(64);
    let mut pos = Position::start_of(net.variant);
    for ply in 0..40 {
        stack.enter(ply, &pos);
        let incremental = stack.evaluate(&net, ply, &pos);
        let scratch = net.evaluate(&pos);
        ensure(incremental == scratch, || {
            format!("ply {ply}: accumulators give {incremental}, a refresh {scratch}")
        })?;
        let score = evaluate(&pos, EvalStyle::Pattern, &weights);
        ensure(score.abs() < EVAL_LIMIT, || {
            format!("ply {ply}: evaluation {score} out of bounds")
        })?;
        let moves = legal_moves(&pos);
        let Some(&mv) = moves.get(ply % moves.len().max(1)) else {
            break;
        };
        pos = pos.play(mv);
    }
    Ok(())
}
