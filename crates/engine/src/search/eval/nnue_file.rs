//! The network file (`.dmn`) of the network evaluation ([`super::nnue`]).
//!
//! Layout, little-endian (format version 1):
//!
//! | bytes  | content                                                      |
//! |--------|--------------------------------------------------------------|
//! | 0..8   | magic `DMRANNUE`                                             |
//! | 8..12  | format version, `u32` ([`VERSION`])                          |
//! | 12..20 | FNV-1a 64-bit hash of bytes 20.. (everything after it)       |
//! | 20..24 | the variant the network was trained for: its PDN `GameType`, `u32` |
//! | 24..36 | layer sizes, three `u32`: inputs, first layer, dense layer (128, 128, 32) |
//! | 36..   | payload, in this order: first layer biases `i16` × 128; first layer weights `i16` × 128 × 128 (row by input feature); dense biases `i32` × 32; dense weights `i8` × 32 × 256 (row by neuron); output bias `i32`; output weights `i16` × 32 |
//!
//! Nothing may follow the payload. A file that is too short or too long, names other
//! layer sizes, another version or an unknown game, or fails its checksum is refused.

use std::fmt;

use super::nnue::{DENSE, HIDDEN, INPUTS, Network};
use super::weights_file::fnv1a;
use crate::board::Variant;

/// The file's first eight bytes.
pub const MAGIC: &[u8; 8] = b"DMRANNUE";
/// The format version this build reads and writes.
pub const VERSION: u32 = 1;
/// Header length in bytes.
pub const HEADER: usize = 36;
/// Payload length in bytes.
const PAYLOAD: usize =
    2 * HIDDEN + 2 * INPUTS * HIDDEN + 4 * DENSE + 2 * HIDDEN * DENSE + 4 + 2 * DENSE;
/// Length of a network file in bytes.
pub const FILE_LEN: usize = HEADER + PAYLOAD;

/// Why a network file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetworkError {
    /// Not a Damiera network file.
    Magic,
    /// Written by another format version.
    Version(u32),
    /// The file length disagrees with the format.
    Size {
        /// Bytes the format calls for.
        expected: usize,
        /// Bytes present.
        found: usize,
    },
    /// The bytes after the hash do not match it (a corrupt file).
    Checksum,
    /// The variant word names no game Damiera plays.
    UnknownVariant(u32),
    /// The network has other layer sizes than this build's.
    Layers([u32; 3]),
}

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetworkError::Magic => f.write_str("not a Damiera network file (bad magic)"),
            NetworkError::Version(v) => {
                write!(f, "network file version {v}, this build reads {VERSION}")
            }
            NetworkError::Size { expected, found } => write!(
                f,
                "network file has the wrong size: {found} bytes, expected {expected}"
            ),
            NetworkError::Checksum => f.write_str("network file is corrupt (checksum mismatch)"),
            NetworkError::UnknownVariant(n) => write!(
                f,
                "network file is for game type {n}, which Damiera does not play"
            ),
            NetworkError::Layers([i, h, d]) => write!(
                f,
                "network file has layers {i}→2×{h}→{d}→1, this build reads {INPUTS}→2×{HIDDEN}→{DENSE}→1"
            ),
        }
    }
}

impl std::error::Error for NetworkError {}

/// The checksum a network file of `bytes` must carry: the hash of everything after the
/// checksum field (0 for bytes too short to have one).
pub fn body_checksum(bytes: &[u8]) -> u64 {
    bytes.get(20..).map_or(0, fnv1a)
}

/// Whether `bytes` start like a network file.
pub fn is_network(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// The file bytes of `net`.
pub fn to_bytes(net: &Network) -> Vec<u8> {
    let mut body = net.variant.game_type().to_le_bytes().to_vec();
    for size in [INPUTS, HIDDEN, DENSE] {
        body.extend((size as u32).to_le_bytes());
    }
    body.extend(net.ft_bias.iter().flat_map(|w| w.to_le_bytes()));
    body.extend(
        net.ft_weights
            .iter()
            .flatten()
            .flat_map(|w| w.to_le_bytes()),
    );
    body.extend(net.dense_bias.iter().flat_map(|w| w.to_le_bytes()));
    // Dense weights are `i8` in the file; the reader keeps them within that range.
    for neuron in 0..DENSE {
        body.extend(
            (0..2 * HIDDEN)
                .map(|input| net.dense_weight(input, neuron).clamp(-128, 127) as i8 as u8),
        );
    }
    body.extend(net.out_bias.to_le_bytes());
    body.extend(net.out_weights.iter().flat_map(|w| w.to_le_bytes()));
    let mut out = Vec::with_capacity(FILE_LEN);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&fnv1a(&body).to_le_bytes());
    out.extend_from_slice(&body);
    out
}

/// A cursor over the payload; reads are in bounds once the length was checked.
struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0u8; N];
        if let Some((head, rest)) = self.0.split_at_checked(N) {
            out.copy_from_slice(head);
            self.0 = rest;
        }
        out
    }
    fn i16(&mut self) -> i16 {
        i16::from_le_bytes(self.take())
    }
    fn i32(&mut self) -> i32 {
        i32::from_le_bytes(self.take())
    }
    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take())
    }
}

/// Checks and reads a network file.
pub fn parse(bytes: &[u8]) -> Result<Network, NetworkError> {
    let size = NetworkError::Size {
        expected: FILE_LEN,
        found: bytes.len(),
    };
    if bytes.len() < 8 {
        return Err(size);
    }
    if !is_network(bytes) {
        return Err(NetworkError::Magic);
    }
    if bytes.len() < HEADER {
        return Err(size);
    }
    let mut header = Reader(&bytes[8..HEADER]);
    let version = header.u32();
    if version != VERSION {
        return Err(NetworkError::Version(version));
    }
    if bytes.len() != FILE_LEN {
        return Err(size);
    }
    if body_checksum(bytes) != u64::from_le_bytes(header.take()) {
        return Err(NetworkError::Checksum);
    }
    let game_type = header.u32();
    let variant =
        Variant::from_game_type(game_type).ok_or(NetworkError::UnknownVariant(game_type))?;
    let layers = [header.u32(), header.u32(), header.u32()];
    if layers != [INPUTS as u32, HIDDEN as u32, DENSE as u32] {
        return Err(NetworkError::Layers(layers));
    }
    let mut r = Reader(&bytes[HEADER..]);
    let mut net = Network::zeroed(variant);
    net.ft_bias.iter_mut().for_each(|w| *w = r.i16());
    net.ft_weights
        .iter_mut()
        .flatten()
        .for_each(|w| *w = r.i16());
    net.dense_bias.iter_mut().for_each(|w| *w = r.i32());
    // Rows by neuron in the file, pairs of inputs in memory.
    for neuron in 0..DENSE {
        for input in 0..2 * HIDDEN {
            net.set_dense_weight(input, neuron, i16::from(i8::from_le_bytes(r.take())));
        }
    }
    net.out_bias = r.i32();
    net.out_weights.iter_mut().for_each(|w| *w = r.i16());
    Ok(net)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::eval::nnue::tests::random_network;

    fn sample() -> Vec<u8> {
        to_bytes(&random_network(1, Variant::English))
    }

    #[test]
    fn round_trip() {
        for v in Variant::ALL {
            let net = random_network(2, v);
            let bytes = to_bytes(&net);
            assert_eq!(bytes.len(), FILE_LEN);
            assert_eq!(parse(&bytes), Ok(net));
        }
    }

    #[test]
    fn truncated_and_long_files_are_refused() {
        let bytes = sample();
        for len in [0, 7, 8, 20, HEADER - 1, HEADER, bytes.len() - 1] {
            assert_eq!(
                parse(&bytes[..len]),
                Err(NetworkError::Size {
                    expected: FILE_LEN,
                    found: len
                }),
                "{len}"
            );
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(matches!(parse(&longer), Err(NetworkError::Size { .. })));
    }

    #[test]
    fn foreign_and_damaged_files_are_refused() {
        let mut bytes = sample();
        bytes[0] = b'X';
        assert_eq!(parse(&bytes), Err(NetworkError::Magic));
        let dmw = crate::search::eval::EMBEDDED_FILE;
        assert_eq!(parse(dmw), Err(NetworkError::Magic));
        let mut bytes = sample();
        bytes[8] = 2;
        assert_eq!(parse(&bytes), Err(NetworkError::Version(2)));
        for at in [20, 24, 100, FILE_LEN - 1] {
            let mut bytes = sample();
            bytes[at] ^= 0x10;
            assert_eq!(parse(&bytes), Err(NetworkError::Checksum), "{at}");
        }
    }

    /// Rewrites the header field at `at` and fixes the checksum.
    fn with_field(at: usize, value: u32) -> Vec<u8> {
        let mut bytes = sample();
        bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
        let sum = body_checksum(&bytes);
        bytes[12..20].copy_from_slice(&sum.to_le_bytes());
        bytes
    }

    #[test]
    fn unknown_games_and_other_sizes_are_refused_by_name() {
        assert_eq!(
            parse(&with_field(20, 99)),
            Err(NetworkError::UnknownVariant(99))
        );
        let err = parse(&with_field(28, 256)).unwrap_err();
        assert_eq!(err, NetworkError::Layers([128, 256, 32]));
        assert_eq!(
            err.to_string(),
            "network file has layers 128→2×256→32→1, this build reads 128→2×128→32→1"
        );
    }
}
