//! Endgame table files ([`damiera::egdb::store`]): header, index, blocks.
//!
//! Two originals are made in memory: class `0201` (14,880 positions, 15 blocks of
//! 1,024, one byte a value) and class `0101` (992 positions, one block, two bytes a
//! value). The first input byte picks the original (bit 0) and the mode (bits 1–2):
//! - 0: the rest is a whole file, opened as the original's class;
//! - 1: corruption: the rest edits the original, three bytes an edit (a 2-byte offset
//!   and the new byte; offset `0xFFFF` cuts the file, `0xFFFE` appends a byte), and
//!   the stored checksums are left as they were (edits to them are skipped);
//! - 2: the same edits, then every checksum is recomputed, so the edits reach the
//!   index and the blocks past the checksums.
//!
//! Properties: no file makes the reader fail other than with an error; a block that
//! reads has the right number of values; and a corrupted file that opens never gives a
//! value that differs from the original's (its checksums catch every corruption).

use std::path::PathBuf;
use std::sync::OnceLock;

use super::{Checked, ensure};
use damiera::board::Variant;
use damiera::egdb::store::{TableFile, fnv1a, table_bytes};
use damiera::egdb::value::{Code, Outcome};
use damiera::egdb::{ClassIndex, Material, SolvedTable};

const HEADER_LEN: usize = 64;
/// Values a block in the originals.
const BLOCK: usize = 1024;

/// An original table: its class name, file bytes and values.
pub struct Original {
    /// Class name (the file stem).
    pub name: &'static str,
    /// The file.
    pub bytes: Vec<u8>,
    /// Its values.
    pub values: Vec<Code>,
    /// Number of blocks.
    pub blocks: usize,
}

/// The two originals (see the module documentation), made once.
pub fn originals() -> &'static [Original] {
    static ORIGINALS: OnceLock<Vec<Original>> = OnceLock::new();
    ORIGINALS.get_or_init(|| {
        [("0201", 253u16), ("0101", 700)]
            .into_iter()
            .filter_map(|(name, longest)| original(name, longest))
            .collect()
    })
}

/// A table of class `name` with made-up values up to `longest` plies (above 253 the
/// file stores two bytes a value), compressible as real tables are.
fn original(name: &'static str, longest: u16) -> Option<Original> {
    let index = ClassIndex::new(Material::from_name(name)?);
    let values: Vec<Code> = (0..index.size)
        .map(|i| {
            let d = (i.wrapping_mul(2_654_435_761) >> 7) as u16 % (longest / 2);
            match i % 7 {
                0 | 1 => Outcome::Draw,
                2..=4 => Outcome::Win(2 * d + 1),
                _ => Outcome::Loss(2 * d),
            }
            .encode()
        })
        .collect();
    let table = SolvedTable {
        variant: Variant::Italian,
        index,
        values,
    };
    let bytes = table_bytes(&table, &table.stats(), BLOCK).ok()?;
    Some(Original {
        name,
        blocks: table.values.len().div_ceil(BLOCK),
        bytes,
        values: table.values,
    })
}

/// Runs every property on `data` (see the module documentation).
pub fn check(data: &[u8]) -> Checked {
    let Some((&mode, rest)) = data.split_first() else {
        return Ok(());
    };
    let originals = originals();
    let Some(original) = originals.get(usize::from(mode & 1) % originals.len().max(1)) else {
        return Err("no original table".to_string());
    };
    match (mode >> 1) & 3 {
        0 => read_everything(original, rest, false),
        1 => read_everything(original, &edited(original, rest, false), true),
        _ => {
            let mut file = edited(original, rest, true);
            fix_checksums(&mut file);
            read_everything(original, &file, false)
        }
    }
}

/// Opens `file` as the original's class and reads every block; with `corrupted`, every
/// value read must be the original's.
fn read_everything(original: &Original, file: &[u8], corrupted: bool) -> Checked {
    let path = PathBuf::from(format!("{}.egdb", original.name));
    let Ok(table) = TableFile::from_source(file, &path) else {
        return Ok(());
    };
    let positions = table.header.positions as usize;
    if corrupted {
        ensure(positions == original.values.len(), || {
            "a corrupted header opened with another size".to_string()
        })?;
    }
    let size = table.block_positions;
    for b in 0..table.blocks() {
        let Ok(values) = table.read_block(b) else {
            continue;
        };
        let start = b * size;
        ensure(values.len() == size.min(positions - start), || {
            format!("block {b} has {} values", values.len())
        })?;
        if corrupted {
            ensure(
                original.values.get(start..start + values.len()) == Some(&values[..]),
                || format!("block {b} of a corrupted file opened with other values"),
            )?;
        }
    }
    Ok(())
}

/// Where the original's checksums are stored: the block checksums and the header's.
fn checksum_bytes(original: &Original) -> std::ops::Range<usize> {
    let start = HEADER_LEN + 8 * (original.blocks + 1);
    start..start + 8 * original.blocks + 8
}

/// The original with `edits` applied (three bytes each, see the module documentation);
/// unless `anywhere`, the stored checksums are not touched.
fn edited(original: &Original, edits: &[u8], anywhere: bool) -> Vec<u8> {
    let mut file = original.bytes.clone();
    let pinned = checksum_bytes(original);
    for edit in edits.chunks_exact(3) {
        let offset = usize::from(u16::from_le_bytes([edit[0], edit[1]]));
        match offset {
            0xFFFF => file.truncate(file.len() * usize::from(edit[2]) / 256),
            0xFFFE => file.push(edit[2]),
            _ if file.is_empty() => {}
            _ => {
                let at = offset % file.len();
                if anywhere || !pinned.contains(&at) {
                    file[at] = edit[2];
                }
            }
        }
    }
    file
}

/// Recomputes the block checksums and the header checksum of `file` where its index
/// lets them be found.
fn fix_checksums(file: &mut [u8]) {
    let Some(blocks) = file.get(28..32) else {
        return;
    };
    let blocks = u32::from_le_bytes([blocks[0], blocks[1], blocks[2], blocks[3]]) as usize;
    let Some(index_end) = blocks
        .checked_mul(16)
        .and_then(|n| n.checked_add(HEADER_LEN + 16))
        .filter(|&end| end <= file.len())
    else {
        return;
    };
    let u64_at = |file: &[u8], at: usize| {
        let mut b = [0u8; 8];
        b.copy_from_slice(&file[at..at + 8]);
        u64::from_le_bytes(b)
    };
    for b in 0..blocks {
        let (start, end) = (
            u64_at(file, HEADER_LEN + 8 * b),
            u64_at(file, HEADER_LEN + 8 * (b + 1)),
        );
        let range = usize::try_from(start)
            .ok()
            .zip(usize::try_from(end).ok())
            .and_then(|(s, e)| Some(s.checked_add(index_end)?..e.checked_add(index_end)?));
        if let Some(sum) = range.and_then(|r| file.get(r)).map(fnv1a) {
            let at = HEADER_LEN + 8 * (blocks + 1 + b);
            file[at..at + 8].copy_from_slice(&sum.to_le_bytes());
        }
    }
    let sum = fnv1a(&file[..index_end - 8]);
    file[index_end - 8..index_end].copy_from_slice(&sum.to_le_bytes());
}
