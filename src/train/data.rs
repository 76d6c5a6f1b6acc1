//! The training positions file written by `damiera selfplay` and read by `damiera train`.
//!
//! A 16-byte header, then 20-byte records, all little-endian:
//!
//! | bytes  | header                                  |
//! |--------|-----------------------------------------|
//! | 0..8   | magic `DMRADATA`                        |
//! | 8..12  | format version, `u32` ([`VERSION`])     |
//! | 12..16 | record size in bytes, `u32` (20)        |
//!
//! | bytes  | record                                                         |
//! |--------|----------------------------------------------------------------|
//! | 0..4   | White's pieces: bit i set = a white piece on square i + 1 of the internal (FID) board |
//! | 4..8   | Black's pieces, likewise                                       |
//! | 8..12  | kings (either colour), likewise                                |
//! | 12..16 | game number, `u32` (the train/validation split is by game)     |
//! | 16..18 | search score from White's view, hundredths of a man, `i16`     |
//! | 18     | game result: 0 Black won, 1 draw, 2 White won                  |
//! | 19     | flags: bit 0 set = Black to move; bits 1–7 the game, its place in `Variant::ALL` (0 Italian, 1 English, 2 Russian, 3 Brazilian) |
//!
//! Every variant is stored on the internal board, whose squares are the Italian (FID)
//! numbers (the other variants' boards are its mirror, see [`crate::board::Variant`]); an
//! Italian record has the variant bits zero, so Italian files are as they always were.
//!
//! `selfplay --shard K/N` writes the header only in slice 1: the slices of a run, put
//! one after the other (`cat`), are byte for byte the file of the whole run. A slice
//! K > 1 alone is a [`parse_continuation`]: records without a header.

use std::fmt;

use crate::board::bitboard::bits;
use crate::board::{Color, Position, Square, Variant};

/// The file's first eight bytes.
pub const MAGIC: &[u8; 8] = b"DMRADATA";
/// The format version.
pub const VERSION: u32 = 1;
/// Header bytes.
pub const HEADER: usize = 16;
/// Bytes per record.
pub const RECORD: usize = 20;

/// One training position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// The position (no capture pending).
    pub position: Position,
    /// Which game it comes from.
    pub game: u32,
    /// The search score, White's view, hundredths of a man.
    pub score: i16,
    /// The game result: 0 Black won, 1 draw, 2 White won.
    pub result: u8,
}

impl Sample {
    /// The result for White: 0, 0.5 or 1.
    pub fn white_result(&self) -> f64 {
        self.result as f64 / 2.0
    }
}

/// Why a data file was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DataError {
    /// Not a training data file.
    Magic,
    /// Another format version or record size.
    Version(u32, u32),
    /// The file ends inside the header or a record.
    Truncated(usize),
    /// A record that cannot be a position or a result.
    BadRecord(usize),
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataError::Magic => f.write_str("not a Damiera training data file (bad magic)"),
            DataError::Version(v, size) => write!(
                f,
                "data format version {v} with {size}-byte records; this build reads version {VERSION} with {RECORD}-byte records"
            ),
            DataError::Truncated(len) => write!(f, "truncated data file ({len} bytes)"),
            DataError::BadRecord(i) => write!(f, "record {} is not a valid position", i + 1),
        }
    }
}

/// The file header.
pub fn header() -> [u8; HEADER] {
    let mut h = [0u8; HEADER];
    h[..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&VERSION.to_le_bytes());
    h[12..16].copy_from_slice(&(RECORD as u32).to_le_bytes());
    h
}

/// FID square set (bit i = square i + 1) of an internal bitboard.
fn to_fid(set: u64) -> u32 {
    bits(set).fold(0, |acc, b| acc | 1 << (Square::from_bit(b).number() - 1))
}

/// Internal bitboard of an FID square set.
fn from_fid(set: u32) -> u64 {
    (0..32)
        .filter(|i| set & (1 << i) != 0)
        .filter_map(|i| Square::new(i as u8 + 1))
        .fold(0, |acc, sq| acc | sq.mask())
}

/// Appends one record to `out`.
pub fn encode(sample: &Sample, out: &mut Vec<u8>) {
    let pos = &sample.position;
    out.extend_from_slice(&to_fid(pos.pieces(Color::White)).to_le_bytes());
    out.extend_from_slice(&to_fid(pos.pieces(Color::Black)).to_le_bytes());
    out.extend_from_slice(&to_fid(pos.all_kings()).to_le_bytes());
    out.extend_from_slice(&sample.game.to_le_bytes());
    out.extend_from_slice(&sample.score.to_le_bytes());
    out.push(sample.result);
    let variant = (pos.variant().index() as u8) << 1;
    out.push((pos.side_to_move() == Color::Black) as u8 | variant);
}

fn decode(r: &[u8], index: usize) -> Result<Sample, DataError> {
    let u32_at = |i: usize| u32::from_le_bytes([r[i], r[i + 1], r[i + 2], r[i + 3]]);
    let (white, black, kings) = (u32_at(0), u32_at(4), u32_at(8));
    let (result, flags) = (r[18], r[19]);
    let both_sides = white != 0 && black != 0;
    let variant = Variant::from_index((flags >> 1) as usize);
    let bad = white & black != 0 || kings & !(white | black) != 0 || result > 2;
    let Some(variant) = variant.filter(|_| both_sides && !bad) else {
        return Err(DataError::BadRecord(index));
    };
    let side = if flags & 1 == 1 {
        Color::Black
    } else {
        Color::White
    };
    let position = Position::from_sets(from_fid(white), from_fid(black), from_fid(kings), side)
        .with_variant(variant);
    Ok(Sample {
        position,
        game: u32_at(12),
        score: i16::from_le_bytes([r[16], r[17]]),
        result,
    })
}

/// Reads a whole data file.
pub fn parse(bytes: &[u8]) -> Result<Vec<Sample>, DataError> {
    if bytes.len() < HEADER {
        return Err(if bytes.len() >= 8 && &bytes[..8] != MAGIC {
            DataError::Magic
        } else {
            DataError::Truncated(bytes.len())
        });
    }
    if &bytes[..8] != MAGIC {
        return Err(DataError::Magic);
    }
    let u32_at =
        |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
    let (version, size) = (u32_at(8), u32_at(12));
    if version != VERSION || size as usize != RECORD {
        return Err(DataError::Version(version, size));
    }
    if !(bytes.len() - HEADER).is_multiple_of(RECORD) {
        return Err(DataError::Truncated(bytes.len()));
    }
    parse_continuation(&bytes[HEADER..])
}

/// Whether `bytes` start with a data file header (magic).
pub fn has_header(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// Reads records without a header: a self-play slice after the first, which continues
/// the file of the slices before it.
pub fn parse_continuation(body: &[u8]) -> Result<Vec<Sample>, DataError> {
    if !body.len().is_multiple_of(RECORD) {
        return Err(DataError::Truncated(body.len()));
    }
    body.chunks_exact(RECORD)
        .enumerate()
        .map(|(i, r)| decode(r, i))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn samples() -> Vec<Sample> {
        vec![
            Sample {
                position: Position::start(),
                game: 0,
                score: 12,
                result: 1,
            },
            Sample {
                position: Position::parse("B:W18,K1:B12,K30,5").unwrap(),
                game: 7,
                score: -250,
                result: 0,
            },
            Sample {
                position: Position::parse_in(Variant::Russian, "B:Wc3,Kh8:Bd6,Ka1").unwrap(),
                game: 8,
                score: 40,
                result: 2,
            },
            Sample {
                position: Position::start_of(Variant::English),
                game: 9,
                score: 0,
                result: 1,
            },
        ]
    }

    fn file() -> Vec<u8> {
        let mut bytes = header().to_vec();
        for s in samples() {
            encode(&s, &mut bytes);
        }
        bytes
    }

    #[test]
    fn italian_records_keep_their_bytes_and_others_carry_their_variant() {
        let bytes = file();
        let flags = |i: usize| bytes[HEADER + i * RECORD + 19];
        assert_eq!([flags(0), flags(1), flags(2), flags(3)], [0, 1, 5, 3]);
        let read = parse(&bytes).unwrap();
        assert_eq!(read[2].position.variant(), Variant::Russian);
        assert_eq!(read[3].position, Position::start_of(Variant::English));
    }

    #[test]
    fn records_round_trip() {
        let bytes = file();
        assert_eq!(bytes.len(), HEADER + 4 * RECORD);
        assert_eq!(parse(&bytes), Ok(samples()));
    }

    #[test]
    fn bad_files_are_refused() {
        let bytes = file();
        assert_eq!(
            parse(&bytes[..bytes.len() - 1]),
            Err(DataError::Truncated(95))
        );
        assert_eq!(parse(&bytes[..10]), Err(DataError::Truncated(10)));
        let mut wrong = bytes.clone();
        wrong[8] = 9;
        assert_eq!(parse(&wrong), Err(DataError::Version(9, 20)));
        let mut wrong = bytes.clone();
        wrong[1] = b'x';
        assert_eq!(parse(&wrong), Err(DataError::Magic));
        let mut wrong = bytes.clone();
        wrong[HEADER + 18] = 3;
        assert_eq!(parse(&wrong), Err(DataError::BadRecord(0)));
        let mut wrong = bytes;
        wrong[HEADER + 19] = (Variant::COUNT as u8) << 1;
        assert_eq!(parse(&wrong), Err(DataError::BadRecord(0)));
        let empty_side = Sample {
            position: Position::parse("W:W18:B").unwrap(),
            ..samples()[0]
        };
        let mut one = header().to_vec();
        encode(&empty_side, &mut one);
        assert_eq!(parse(&one), Err(DataError::BadRecord(0)));
    }

    #[test]
    fn continuations_are_records_without_a_header() {
        let bytes = file();
        assert!(has_header(&bytes) && !has_header(&bytes[HEADER..]));
        assert_eq!(parse_continuation(&bytes[HEADER..]), Ok(samples()));
        assert_eq!(parse_continuation(&[]), Ok(vec![]));
        assert_eq!(
            parse_continuation(&bytes[HEADER + 1..]),
            Err(DataError::Truncated(4 * RECORD - 1))
        );
        assert_eq!(
            parse_continuation(&[0; RECORD]),
            Err(DataError::BadRecord(0))
        );
    }
}
