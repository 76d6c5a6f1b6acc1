//! Weights files of the pattern evaluation ([`damiera::search::eval::weights_file`]).
//!
//! A file is 236 KB; a fuzzer works best on small inputs, so the first byte chooses:
//! - even: the rest is a whole file, as read from disk;
//! - odd: the rest edits a valid file (the embedded English weights, the current
//!   format), four bytes an edit: a
//!   3-byte offset and the new byte. With the first byte's second bit set the checksum
//!   is then recomputed, so the edits reach the evaluation past the checksum; without
//!   it the stored checksum is left as it was (edits to it are skipped): corruption.
//!
//! Properties: a file that parses writes back to exactly its bytes (a format 1 file: to
//! the current format's file of the same weights); a corrupted file
//! that differs from the original does not parse (the checksum catches it); the
//! evaluation with any weights that parse stays within its bounds on a set of
//! positions.

use super::{Checked, ensure};
use damiera::board::Position;
use damiera::search::eval::weights_file::{self, FILE_LEN, HEADER_V1, fnv1a, to_bytes};
use damiera::search::eval::{EvalStyle, PatternWeights, embedded_file, evaluate};
use damiera::search::score::EVAL_LIMIT;

/// Where the payload's checksum is stored.
const CHECKSUM: std::ops::Range<usize> = 16..24;

/// Positions evaluated with every weights that parse.
const POSITIONS: [&str; 5] = [
    "W:W21-32:B1-12",
    "B:W18,19,25,K1:B2,7,K30",
    "W:WK5,K9,K13,K17:BK28,K32",
    "B:W5,6,7,8,13,14,15,16,21,22,23,24:B9,10,11,12,17,18,19,20,25,26,27,28",
    "W:W20:B13",
];

/// Runs every property on `data` (see the module documentation).
pub fn check(data: &[u8]) -> Checked {
    let Some((&mode, rest)) = data.split_first() else {
        return Ok(());
    };
    if mode & 1 == 0 {
        return parses_back(rest, false);
    }
    let fixed = mode & 2 != 0;
    let Some(base) = embedded_file(damiera::board::Variant::English) else {
        return Ok(());
    };
    let mut file = base.to_vec();
    for edit in rest.chunks_exact(4) {
        let offset = usize::from(edit[0]) | usize::from(edit[1]) << 8 | usize::from(edit[2]) << 16;
        let offset = offset % FILE_LEN;
        if fixed || !CHECKSUM.contains(&offset) {
            file[offset] = edit[3];
        }
    }
    if fixed {
        let sum = fnv1a(&file[HEADER_V1..]);
        file[CHECKSUM].copy_from_slice(&sum.to_le_bytes());
    }
    if !fixed && file[HEADER_V1..] != base[HEADER_V1..] {
        // Refused, so there is nothing more to check of it.
        return ensure(weights_file::parse(&file).is_err(), || {
            "a corrupted file passed its checksum".to_string()
        });
    }
    parses_back(&file, fixed)
}

/// A file that parses writes back to its bytes and evaluates within bounds.
fn parses_back(bytes: &[u8], evaluate_all: bool) -> Checked {
    let Ok(weights) = weights_file::parse(bytes) else {
        return Ok(());
    };
    let written = to_bytes(&weights);
    let format_1 = bytes.get(8..12) == Some(&1u32.to_le_bytes()[..]);
    let same = written == bytes || format_1 && weights_file::parse(&written) == Ok(weights.clone());
    ensure(same, || {
        "a weights file does not write back to its bytes".to_string()
    })?;
    if evaluate_all {
        evaluations_in_bounds(&weights)?;
    }
    Ok(())
}

fn evaluations_in_bounds(weights: &PatternWeights) -> Checked {
    for text in POSITIONS {
        let Ok(pos) = Position::parse(text) else {
            continue;
        };
        let score = evaluate(&pos, EvalStyle::Pattern, weights);
        ensure(score.abs() < EVAL_LIMIT, || {
            format!("{text}: evaluation {score} out of bounds")
        })?;
    }
    Ok(())
}
