//! Opening book files ([`damiera::book`]): header, entries, checksum, and the moves a
//! probe gives.
//!
//! Two originals are made in memory, without searching: an Italian and a Russian book of
//! the start position and of every position after one and two moves, each move with a
//! made-up value. The first input byte picks the original (bit 0) and the mode (bits
//! 1–2):
//! - 0: the rest is a whole file;
//! - 1: corruption: the rest edits the original, three bytes an edit (a 2-byte offset
//!   and the new byte; offset `0xFFFF` cuts the file, `0xFFFE` appends a byte), the
//!   stored checksum left as it was;
//! - 2: the same edits, then the checksum recomputed, so that the edits reach the entry
//!   checks and the probe.
//!
//! Properties: no file makes the reader fail other than with an error of one line; a
//! file that reads writes back to the same bytes; a corrupted file whose checksum was
//! left alone either is refused or has exactly the original's entries; and whatever
//! reads, every move a probe or a choice gives in the originals' positions is a legal
//! move there.

use std::sync::OnceLock;

use super::{Checked, ensure};
use damiera::board::{Position, Variant};
use damiera::book::format::{HEADER_LEN, fnv1a};
use damiera::book::key::book_key;
use damiera::book::{Book, BookMode, Entry, FLAG_VALUE, encode};
use damiera::movegen::legal_moves;
use damiera::rng::Rng;

/// An original book: its file bytes and the positions it covers.
pub struct Original {
    /// The file.
    pub bytes: Vec<u8>,
    /// The book.
    pub book: Book,
    /// The positions probed (the book's and some it does not have).
    pub positions: Vec<Position>,
}

/// The two originals (see the module documentation), made once.
pub fn originals() -> &'static [Original] {
    static ORIGINALS: OnceLock<Vec<Original>> = OnceLock::new();
    ORIGINALS.get_or_init(|| [Variant::Italian, Variant::Russian].map(original).into())
}

fn original(game: Variant) -> Original {
    let start = Position::start_of(game);
    let mut positions = vec![start];
    let mut ply = vec![start];
    for _ in 0..3 {
        let next: Vec<Position> = ply
            .iter()
            .flat_map(|p| {
                legal_moves(p)
                    .as_slice()
                    .iter()
                    .map(|&m| p.play(m))
                    .collect::<Vec<_>>()
            })
            .collect();
        positions.extend(next.iter().copied());
        ply = next;
    }
    let mut entries = Vec::new();
    // The book holds the first 65 positions (the start, those after one and two moves,
    // a few after three); the others are probed too.
    for (i, p) in positions.iter().enumerate() {
        if i > 64 {
            break;
        }
        for (j, &mv) in legal_moves(p).as_slice().iter().enumerate() {
            let (from, to, captured, crowns) = encode(game, mv);
            let value = ((i * 7 + j * 13) % 61) as i16 - 30;
            entries.push(Entry {
                key: book_key(p),
                from,
                to,
                captured,
                flags: crowns | FLAG_VALUE,
                depth: 6,
                value,
                search: value / 2,
                count: j as u32,
                wins: 0,
                losses: 0,
            });
        }
    }
    positions.truncate(200);
    let book = Book::new(game, entries);
    Original {
        bytes: book.to_bytes(),
        book,
        positions,
    }
}

/// Runs every property on `data` (see the module documentation).
pub fn check(data: &[u8]) -> Checked {
    let Some((&mode, rest)) = data.split_first() else {
        return Ok(());
    };
    let originals = originals();
    let Some(original) = originals.get(usize::from(mode & 1) % originals.len().max(1)) else {
        return Err("no original book".to_string());
    };
    match (mode >> 1) & 3 {
        0 => read(original, rest, false),
        1 => read(original, &edited(original, rest), true),
        _ => {
            let mut file = edited(original, rest);
            if let Some(body) = file.get(HEADER_LEN..) {
                let sum = fnv1a(body);
                file[24..32].copy_from_slice(&sum.to_le_bytes());
            }
            read(original, &file, false)
        }
    }
}

/// The original's file with `edits` applied.
fn edited(original: &Original, edits: &[u8]) -> Vec<u8> {
    let mut file = original.bytes.clone();
    for edit in edits.chunks_exact(3) {
        let at = usize::from(u16::from_le_bytes([edit[0], edit[1]]));
        match at {
            0xFFFF => file.truncate(usize::from(edit[2]) * 8),
            0xFFFE => file.push(edit[2]),
            _ if (24..32).contains(&at) => {}
            _ => {
                if let Some(b) = file.get_mut(at % original.bytes.len().max(1)) {
                    *b = edit[2];
                }
            }
        }
    }
    file
}

fn read(original: &Original, file: &[u8], checksum_kept: bool) -> Checked {
    let book = match Book::from_bytes(file) {
        Ok(book) => book,
        Err(e) => {
            let line = e.to_string();
            return ensure(!line.is_empty() && !line.contains('\n'), || {
                format!("a refusal that is not one line: {line:?}")
            });
        }
    };
    ensure(book.to_bytes() == file, || {
        "a file that reads does not write back to the same bytes".into()
    })?;
    if checksum_kept {
        ensure(book.entries() == original.book.entries(), || {
            "a corrupted file with its checksum read as other entries".into()
        })?;
    }
    let mut rng = Rng::new(7);
    for p in &original.positions {
        let p = p.with_variant(book.game());
        let legal = legal_moves(&p);
        for m in book.probe(&p) {
            ensure(legal.as_slice().contains(&m.mv), || {
                format!("probe gave an illegal move in {}", p.to_fen())
            })?;
        }
        for mode in [BookMode::Best, BookMode::Varied { margin: 20 }] {
            if let Some(m) = book.choose(&p, mode, &mut rng) {
                ensure(legal.as_slice().contains(&m.mv), || {
                    format!("choose gave an illegal move in {}", p.to_fen())
                })?;
            }
        }
    }
    Ok(())
}
