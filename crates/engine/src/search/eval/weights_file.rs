//! The weights file of the pattern evaluation.
//!
//! Layout, little-endian (format version 2):
//!
//! | bytes  | content                                                      |
//! |--------|--------------------------------------------------------------|
//! | 0..8   | magic `DMRAEVAL`                                             |
//! | 8..12  | format version, `u32` (this is version [`VERSION`])          |
//! | 12..16 | number of weights `n`, `u32` (must be [`WEIGHT_COUNT`])      |
//! | 16..24 | FNV-1a 64-bit hash of bytes 24.. (the variant and the payload) |
//! | 24..28 | the variant the weights were fitted for: its PDN `GameType`, `u32` (22 Italian, 21 English, 25 Russian, 26 Brazilian, 23 Pool, 29 Czech, 24 Spanish, 31 Thai) |
//! | 28..   | payload: `n` weights, `i16`, in [`PatternWeights::to_vec`] order |
//!
//! Nothing may follow the payload. Version 1 files (the first format: no variant word,
//! the payload at byte 24, hashed alone) are Italian weights, and are still read: the
//! shipped Italian weights are one.

use std::fmt;

use super::nnue_file::NetworkError;
use super::pattern::{PatternWeights, WEIGHT_COUNT};
use crate::board::Variant;

/// The file's first eight bytes.
pub const MAGIC: &[u8; 8] = b"DMRAEVAL";
/// The format version this build writes (it reads 1 too).
pub const VERSION: u32 = 2;
/// Header length in bytes (format 2).
pub const HEADER: usize = 28;
/// Header length of a format 1 file.
pub const HEADER_V1: usize = 24;
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
    /// The variant word names no game Damiera plays.
    UnknownVariant(u32),
    /// The weights were fitted for another game than the one to be played.
    Variant {
        /// The file's variant.
        file: Variant,
        /// The variant being played.
        wanted: Variant,
    },
    /// A network file (`.dmn`) that was refused.
    Network(NetworkError),
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightsError::Io(e) => write!(f, "cannot read weights file: {e}"),
            WeightsError::Magic => f.write_str("not a Damiera weights file (bad magic)"),
            WeightsError::Version(v) => {
                write!(
                    f,
                    "weights file version {v}, this build reads 1 and {VERSION}"
                )
            }
            WeightsError::Size { expected, found } => write!(
                f,
                "weights file has the wrong size: {found} bytes, expected {expected}"
            ),
            WeightsError::Checksum => f.write_str("weights file is corrupt (checksum mismatch)"),
            WeightsError::UnknownVariant(n) => {
                write!(
                    f,
                    "weights file is for game type {n}, which Damiera does not play"
                )
            }
            WeightsError::Variant { file, wanted } => write!(
                f,
                "weights file is for {} ({file}), not {} ({wanted}): train weights on {wanted} games",
                file.title(),
                wanted.title()
            ),
            WeightsError::Network(e) => e.fmt(f),
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

/// The file bytes for `weights` (format [`VERSION`], recording their variant).
pub fn to_bytes(weights: &PatternWeights) -> Vec<u8> {
    let mut body = weights.variant.game_type().to_le_bytes().to_vec();
    body.extend(weights.to_vec().iter().flat_map(|w| w.to_le_bytes()));
    let mut out = Vec::with_capacity(HEADER_V1 + body.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(WEIGHT_COUNT as u32).to_le_bytes());
    out.extend_from_slice(&fnv1a(&body).to_le_bytes());
    out.extend_from_slice(&body);
    out
}

/// Checks and reads a weights file (format 1 or 2).
pub fn parse(bytes: &[u8]) -> Result<PatternWeights, WeightsError> {
    if bytes.len() < HEADER_V1 {
        return Err(if bytes.len() >= 8 && &bytes[..8] != MAGIC {
            WeightsError::Magic
        } else {
            WeightsError::Size {
                expected: FILE_LEN,
                found: bytes.len(),
            }
        });
    }
    let u32_at =
        |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
    if &bytes[..8] != MAGIC {
        return Err(WeightsError::Magic);
    }
    let header = match u32_at(8) {
        1 => HEADER_V1,
        VERSION => HEADER,
        version => return Err(WeightsError::Version(version)),
    };
    let expected = header + 2 * WEIGHT_COUNT;
    if u32_at(12) as usize != WEIGHT_COUNT || bytes.len() != expected {
        return Err(WeightsError::Size {
            expected,
            found: bytes.len(),
        });
    }
    let mut sum = [0u8; 8];
    sum.copy_from_slice(&bytes[16..24]);
    if fnv1a(&bytes[HEADER_V1..]) != u64::from_le_bytes(sum) {
        return Err(WeightsError::Checksum);
    }
    let variant = if header == HEADER_V1 {
        Variant::Italian
    } else {
        let n = u32_at(HEADER_V1);
        Variant::from_game_type(n).ok_or(WeightsError::UnknownVariant(n))?
    };
    let weights: Vec<i16> = bytes[header..]
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
        .collect();
    PatternWeights::from_slice(&weights)
        .map(|w| w.in_variant(variant))
        .ok_or(WeightsError::Size {
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
    fn the_file_records_its_variant() {
        for v in Variant::ALL {
            let w = PatternWeights::material_only_in(v);
            let bytes = to_bytes(&w);
            assert_eq!(bytes.len(), FILE_LEN);
            assert_eq!(parse(&bytes), Ok(w));
        }
        let mut bytes = to_bytes(&PatternWeights::material_only_in(Variant::Russian));
        bytes[HEADER_V1] = 99;
        assert_eq!(parse(&bytes), Err(WeightsError::Checksum));
        let body = bytes[HEADER_V1..].to_vec();
        bytes[16..24].copy_from_slice(&fnv1a(&body).to_le_bytes());
        assert_eq!(parse(&bytes), Err(WeightsError::UnknownVariant(99)));
    }

    #[test]
    fn format_1_files_are_italian() {
        let w = PatternWeights::material_only_in(Variant::English);
        let payload: Vec<u8> = w.to_vec().iter().flat_map(|x| x.to_le_bytes()).collect();
        let mut bytes = MAGIC.to_vec();
        bytes.extend(1u32.to_le_bytes());
        bytes.extend((WEIGHT_COUNT as u32).to_le_bytes());
        bytes.extend(fnv1a(&payload).to_le_bytes());
        bytes.extend(&payload);
        assert_eq!(parse(&bytes), Ok(w.in_variant(Variant::Italian)));
        bytes.push(0);
        assert_eq!(
            parse(&bytes),
            Err(WeightsError::Size {
                expected: FILE_LEN - 4,
                found: FILE_LEN - 3
            })
        );
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
        bytes[8] = 3;
        assert_eq!(parse(&bytes), Err(WeightsError::Version(3)));
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
