//! The weights file of the pattern evaluation.
//!
//! Layout, little-endian:
//!
//! | bytes  | content                                                      |
//! |--------|--------------------------------------------------------------|
//! | 0..8   | magic `DMRAEVAL`                                             |
//! | 8..12  | format version, `u32` (this is version [`VERSION`])          |
//! | 12..16 | number of weights `n`, `u32` (must be [`WEIGHT_COUNT`])      |
//! | 16..24 | FNV-1a 64-bit hash of the payload bytes                      |
//! | 24..   | payload: `n` weights, `i16`, in [`PatternWeights::to_vec`] order |
//!
//! Nothing may follow the payload.

use std::fmt;

use super::pattern::{PatternWeights, WEIGHT_COUNT};

/// The file's first eight bytes.
pub const MAGIC: &[u8; 8] = b"DMRAEVAL";
/// The format version this build reads and writes.
pub const VERSION: u32 = 1;
/// Header length in bytes.
pub const HEADER: usize = 24;
/// Length of a weights file in bytes: the header and [`WEIGHT_COUNT`] weights.
pub const FILE_LEN: usize = HEADER + 2 * WEIGHT_COUNT;

/// Why a weights file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WeightsError {
    /// The file could not be read.
    Io(String),
    /// Not a Damiera weights file.
    Magic,
    /// Written by another format version.
    Version(u32),
    /// The header announces the wrong number of weights, or the file length disagrees.
    Size {
        /// Bytes the header calls for.
        expected: usize,
        /// Bytes present.
        found: usize,
    },
    /// The payload does not match its checksum (a corrupt file).
    Checksum,
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightsError::Io(e) => write!(f, "cannot read weights file: {e}"),
            WeightsError::Magic => f.write_str("not a Damiera weights file (bad magic)"),
            WeightsError::Version(v) => {
                write!(f, "weights file version {v}, this build reads {VERSION}")
            }
            WeightsError::Size { expected, found } => write!(
                f,
                "weights file has the wrong size: {found} bytes, expected {expected}"
            ),
            WeightsError::Checksum => f.write_str("weights file is corrupt (checksum mismatch)"),
        }
    }
}

impl std::error::Error for WeightsError {}

/// FNV-1a, 64 bits.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The file bytes for `weights`.
pub fn to_bytes(weights: &PatternWeights) -> Vec<u8> {
    let payload: Vec<u8> = weights
        .to_vec()
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    let mut out = Vec::with_capacity(HEADER + payload.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(WEIGHT_COUNT as u32).to_le_bytes());
    out.extend_from_slice(&fnv1a(&payload).to_le_bytes());
    out.extend_from_slice(&payload);
    out
}

/// Checks and reads a weights file.
pub fn parse(bytes: &[u8]) -> Result<PatternWeights, WeightsError> {
    let expected = FILE_LEN;
    if bytes.len() < HEADER {
        return Err(if bytes.len() >= 8 && &bytes[..8] != MAGIC {
            WeightsError::Magic
        } else {
            WeightsError::Size {
                expected,
                found: bytes.len(),
            }
        });
    }
    let u32_at =
        |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
    if &bytes[..8] != MAGIC {
        return Err(WeightsError::Magic);
    }
    let version = u32_at(8);
    if version != VERSION {
        return Err(WeightsError::Version(version));
    }
    if u32_at(12) as usize != WEIGHT_COUNT || bytes.len() != expected {
        return Err(WeightsError::Size {
            expected,
            found: bytes.len(),
        });
    }
    let mut sum = [0u8; 8];
    sum.copy_from_slice(&bytes[16..24]);
    let payload = &bytes[HEADER..];
    if fnv1a(payload) != u64::from_le_bytes(sum) {
        return Err(WeightsError::Checksum);
    }
    let weights: Vec<i16> = payload
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
        .collect();
    PatternWeights::from_slice(&weights).ok_or(WeightsError::Size {
        expected,
        found: bytes.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<u8> {
        let mut w = PatternWeights::material_only();
        w.patterns[7] = [3, -4];
        w.tempo = 5;
        to_bytes(&w)
    }

    #[test]
    fn round_trip() {
        let mut w = PatternWeights::material_only();
        w.patterns[7] = [3, -4];
        w.tempo = 5;
        assert_eq!(parse(&to_bytes(&w)), Ok(w));
    }

    #[test]
    fn truncated_file_is_refused() {
        let bytes = sample();
        for len in [0, 7, 23, 24, bytes.len() - 1] {
            assert!(
                matches!(parse(&bytes[..len]), Err(WeightsError::Size { .. })),
                "{len}"
            );
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(matches!(parse(&longer), Err(WeightsError::Size { .. })));
    }

    #[test]
    fn wrong_version_and_magic_are_refused() {
        let mut bytes = sample();
        bytes[8] = 2;
        assert_eq!(parse(&bytes), Err(WeightsError::Version(2)));
        let mut bytes = sample();
        bytes[0] = b'X';
        assert_eq!(parse(&bytes), Err(WeightsError::Magic));
    }

    #[test]
    fn corrupt_payload_is_refused() {
        let mut bytes = sample();
        let last = bytes.len() - 1;
        bytes[last] ^= 0x10;
        assert_eq!(parse(&bytes), Err(WeightsError::Checksum));
    }
}
