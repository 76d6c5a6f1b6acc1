//! The network file (`.dmn`) of the network evaluation ([`super::nnue`]).
//!
//! Layout, little-endian (format versions 1, 2 and 3):
//!
//! | bytes  | content                                                      |
//! |--------|--------------------------------------------------------------|
//! | 0..8   | magic `DMRANNUE`                                             |
//! | 8..12  | format version, `u32`: 1 (one head), 2 (several), 3 (second dense layers) |
//! | 12..20 | FNV-1a 64-bit hash of bytes 20.. (everything after it)       |
//! | 20..24 | the variant the network was trained for: its PDN `GameType`, `u32` |
//! | 24..36 | layer sizes, three `u32`: inputs, first layer, dense layer (128, 128, 32) |
//! | 36..40 | versions 2 and 3: the number of heads, `u32`: 2 to [`MAX_HEADS`] (version 2), 1 to [`MAX_HEADS`] (version 3) |
//! | 40..44 | version 3 only: the second dense layer's size, `u32` (32)    |
//! | then   | payload: first layer biases `i16` × 128; first layer weights `i16` × 128 × 128 (row by input feature); then each head in turn, fewest pieces first: dense biases `i32` × 32; dense weights `i8` × 32 × 256 (row by neuron); version 3 only: second layer biases `i32` × 32, weights `i8` × 32 × 32 (row by neuron); output bias `i32`; output weights `i16` × 32 |
//!
//! A network of one head is written as version 1 and one of several as version 2, so
//! that files made before heads or second layers existed read and write the same bytes;
//! a network with second dense layers is version 3 (a head without one is written with
//! the identity layer, which scores the same). Nothing may follow the payload. A file
//! that is too short or too long, names other layer sizes, another version, a number of
//! heads out of range or an unknown game, or fails its checksum is refused.

use std::fmt;

use super::nnue::{DENSE, HIDDEN, Head, INPUTS, MAX_HEADS, Network, SecondLayer};
use super::weights_file::fnv1a;
use crate::board::Variant;

/// The file's first eight bytes.
pub const MAGIC: &[u8; 8] = b"DMRANNUE";
/// The newest format version this build reads and writes (it reads 1 and 2 too).
pub const VERSION: u32 = 3;
/// Header length in bytes, version 1 (version 2 adds the number of heads, version 3
/// that and the second layer's size).
pub const HEADER: usize = 36;
/// Length of the first layer in the payload, bytes.
const FIRST_LAYER: usize = 2 * HIDDEN + 2 * INPUTS * HIDDEN;
/// Length of a head in the payload, bytes (without a second dense layer).
const HEAD: usize = 4 * DENSE + 2 * HIDDEN * DENSE + 4 + 2 * DENSE;
/// Length of a second dense layer in the payload, bytes.
const SECOND: usize = 4 * DENSE + DENSE * DENSE;
/// Length of a network file of one head (version 1) in bytes.
pub const FILE_LEN: usize = HEADER + FIRST_LAYER + HEAD;
/// Length of the longest network file: version 3 with the most heads.
pub const MAX_FILE_LEN: usize = HEADER + 8 + FIRST_LAYER + MAX_HEADS * (HEAD + SECOND);

/// The file version of a network of `heads` heads, with second dense layers or without.
fn version_of(heads: usize, second: bool) -> u32 {
    match (heads, second) {
        (_, true) => 3,
        (1, false) => 1,
        _ => 2,
    }
}

/// The header length of a file of format `version`.
fn header_len(version: u32) -> usize {
    match version {
        1 => HEADER,
        2 => HEADER + 4,
        _ => HEADER + 8,
    }
}

/// The length of a file of `heads` heads, with second dense layers or without.
pub fn file_len(heads: usize, second: bool) -> usize {
    let head = if second { HEAD + SECOND } else { HEAD };
    header_len(version_of(heads, second)) + FIRST_LAYER + heads * head
}

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
    /// A version 2 or 3 file names a number of heads out of range.
    Heads(u32),
    /// A version 3 file names a second dense layer of another size than this build's.
    SecondLayer(u32),
}

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetworkError::Magic => f.write_str("not a Damiera network file (bad magic)"),
            NetworkError::Version(v) => {
                write!(
                    f,
                    "network file version {v}, this build reads 1 to {VERSION}"
                )
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
            NetworkError::Heads(n) => write!(
                f,
                "network file has {n} heads, this build reads 2 to {MAX_HEADS} in a version 2 file, 1 to {MAX_HEADS} in version 3"
            ),
            NetworkError::SecondLayer(n) => write!(
                f,
                "network file has a second dense layer of {n}, this build reads {DENSE}"
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

/// The file bytes of `net`: version 1 for one head, 2 for more, 3 with second dense
/// layers.
pub fn to_bytes(net: &Network) -> Vec<u8> {
    let mut body = net.variant.game_type().to_le_bytes().to_vec();
    for size in [INPUTS, HIDDEN, DENSE] {
        body.extend((size as u32).to_le_bytes());
    }
    let second = net.has_second_layer();
    let version = version_of(net.heads.len(), second);
    if version >= 2 {
        body.extend((net.heads.len() as u32).to_le_bytes());
    }
    if version == 3 {
        body.extend((DENSE as u32).to_le_bytes());
    }
    body.extend(net.ft_bias.iter().flat_map(|w| w.to_le_bytes()));
    body.extend(
        net.ft_weights
            .iter()
            .flatten()
            .flat_map(|w| w.to_le_bytes()),
    );
    for head in &net.heads {
        write_head(&mut body, head, second);
    }
    let mut out = Vec::with_capacity(file_len(net.heads.len(), second));
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&version.to_le_bytes());
    out.extend_from_slice(&fnv1a(&body).to_le_bytes());
    out.extend_from_slice(&body);
    out
}

fn write_head(body: &mut Vec<u8>, head: &Head, second: bool) {
    body.extend(head.dense_bias.iter().flat_map(|w| w.to_le_bytes()));
    // Dense weights are `i8` in the file; the reader keeps them within that range.
    for neuron in 0..DENSE {
        body.extend(
            (0..2 * HIDDEN)
                .map(|input| head.dense_weight(input, neuron).clamp(-128, 127) as i8 as u8),
        );
    }
    if second {
        let identity = SecondLayer::identity();
        let layer = head.second.as_ref().unwrap_or(&identity);
        body.extend(layer.bias.iter().flat_map(|w| w.to_le_bytes()));
        for neuron in 0..DENSE {
            body.extend(
                (0..DENSE).map(|input| layer.weight(input, neuron).clamp(-128, 127) as i8 as u8),
            );
        }
    }
    body.extend(head.out_bias.to_le_bytes());
    body.extend(head.out_weights.iter().flat_map(|w| w.to_le_bytes()));
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
    let size = |expected| NetworkError::Size {
        expected,
        found: bytes.len(),
    };
    if bytes.len() < 8 {
        return Err(size(FILE_LEN));
    }
    if !is_network(bytes) {
        return Err(NetworkError::Magic);
    }
    if bytes.len() < HEADER {
        return Err(size(FILE_LEN));
    }
    let mut header = Reader(&bytes[8..]);
    let version = header.u32();
    let stored_sum = u64::from_le_bytes(header.take());
    let (game_type, layers) = (header.u32(), [header.u32(), header.u32(), header.u32()]);
    if !(1..=VERSION).contains(&version) {
        return Err(NetworkError::Version(version));
    }
    let second = version == 3;
    if bytes.len() < header_len(version) {
        return Err(size(file_len(2, second)));
    }
    let heads = if version == 1 { 1 } else { header.u32() };
    let least = if second { 1 } else { 2 };
    if version >= 2 && !(least..=MAX_HEADS as u32).contains(&heads) {
        return Err(NetworkError::Heads(heads));
    }
    if second {
        let neurons = header.u32();
        if neurons != DENSE as u32 {
            return Err(NetworkError::SecondLayer(neurons));
        }
    }
    let expected = file_len(heads as usize, second);
    if bytes.len() != expected {
        return Err(size(expected));
    }
    if body_checksum(bytes) != stored_sum {
        return Err(NetworkError::Checksum);
    }
    let variant =
        Variant::from_game_type(game_type).ok_or(NetworkError::UnknownVariant(game_type))?;
    if layers != [INPUTS as u32, HIDDEN as u32, DENSE as u32] {
        return Err(NetworkError::Layers(layers));
    }
    let mut net = Network::zeroed(variant, heads as usize, second);
    let mut r = Reader(&bytes[header_len(version)..]);
    net.ft_bias.iter_mut().for_each(|w| *w = r.i16());
    net.ft_weights
        .iter_mut()
        .flatten()
        .for_each(|w| *w = r.i16());
    for head in net.heads.iter_mut() {
        read_head(&mut r, head);
    }
    Ok(net)
}

fn read_head(r: &mut Reader, head: &mut Head) {
    head.dense_bias.iter_mut().for_each(|w| *w = r.i32());
    // Rows by neuron in the file, pairs of inputs in memory.
    for neuron in 0..DENSE {
        for input in 0..2 * HIDDEN {
            head.set_dense_weight(input, neuron, i16::from(i8::from_le_bytes(r.take())));
        }
    }
    if let Some(layer) = head.second.as_mut() {
        layer.bias.iter_mut().for_each(|w| *w = r.i32());
        for neuron in 0..DENSE {
            for input in 0..DENSE {
                layer.set_weight(input, neuron, i16::from(i8::from_le_bytes(r.take())));
            }
        }
    }
    head.out_bias = r.i32();
    head.out_weights.iter_mut().for_each(|w| *w = r.i16());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::eval::nnue::tests::{
        random_network, random_network_with, random_network_with_heads,
    };

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
    fn several_heads_round_trip_as_version_2() {
        for heads in 2..=MAX_HEADS {
            let net = random_network_with_heads(3, Variant::English, heads);
            let bytes = to_bytes(&net);
            assert_eq!(bytes[8], 2);
            assert_eq!(bytes.len(), file_len(heads, false));
            assert_eq!(parse(&bytes), Ok(net));
        }
    }

    #[test]
    fn version_2_files_with_heads_out_of_range_or_cut_short_are_refused() {
        let bytes = to_bytes(&random_network_with_heads(4, Variant::Russian, 4));
        for heads in [0, 1, MAX_HEADS as u32 + 1, u32::MAX] {
            let mut other = bytes.clone();
            other[36..40].copy_from_slice(&heads.to_le_bytes());
            assert_eq!(parse(&other), Err(NetworkError::Heads(heads)), "{heads}");
        }
        let mut three = bytes.clone();
        three[36..40].copy_from_slice(&3u32.to_le_bytes());
        assert!(matches!(parse(&three), Err(NetworkError::Size { .. })));
        for len in [HEADER, HEADER + 3, HEADER + 4, bytes.len() - 1] {
            assert!(
                matches!(parse(&bytes[..len]), Err(NetworkError::Size { .. })),
                "{len}"
            );
        }
        for at in [36, 40, 1000, bytes.len() - 1] {
            let mut damaged = bytes.clone();
            damaged[at] ^= 0x04;
            assert!(parse(&damaged).is_err(), "{at}");
        }
    }

    #[test]
    fn second_layers_round_trip_as_version_3() {
        for heads in 1..=MAX_HEADS {
            let net = random_network_with(5, Variant::Italian, heads, true);
            let bytes = to_bytes(&net);
            assert_eq!(bytes[8], 3);
            assert_eq!(bytes.len(), file_len(heads, true));
            assert_eq!(parse(&bytes), Ok(net));
        }
        assert_eq!(file_len(MAX_HEADS, true), MAX_FILE_LEN);
    }

    #[test]
    fn a_head_without_a_second_layer_is_written_with_the_identity() {
        let mut net = random_network_with(6, Variant::English, 2, true);
        net.heads[1].second = None;
        let read = parse(&to_bytes(&net)).unwrap();
        assert!(read.heads[1].second == Some(SecondLayer::identity()));
        assert!(read.heads[0] == net.heads[0]);
    }

    #[test]
    fn version_3_files_with_bad_counts_or_cut_short_are_refused() {
        let bytes = to_bytes(&random_network_with(7, Variant::Russian, 2, true));
        let with = |at: usize, value: u32| {
            let mut other = bytes.clone();
            other[at..at + 4].copy_from_slice(&value.to_le_bytes());
            parse(&other)
        };
        for heads in [0, MAX_HEADS as u32 + 1, u32::MAX] {
            assert_eq!(with(36, heads), Err(NetworkError::Heads(heads)), "{heads}");
        }
        assert!(matches!(with(36, 1), Err(NetworkError::Size { .. })));
        for neurons in [0, 16, 64, u32::MAX] {
            assert_eq!(with(40, neurons), Err(NetworkError::SecondLayer(neurons)));
        }
        for len in [HEADER, HEADER + 4, HEADER + 7, HEADER + 8, bytes.len() - 1] {
            assert!(
                matches!(parse(&bytes[..len]), Err(NetworkError::Size { .. })),
                "{len}"
            );
        }
        for at in [44, 1000, bytes.len() - 200, bytes.len() - 1] {
            let mut damaged = bytes.clone();
            damaged[at] ^= 0x08;
            assert_eq!(parse(&damaged), Err(NetworkError::Checksum), "{at}");
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
        bytes[8] = 4;
        assert_eq!(parse(&bytes), Err(NetworkError::Version(4)));
        bytes[8] = 0;
        assert_eq!(parse(&bytes), Err(NetworkError::Version(0)));
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
