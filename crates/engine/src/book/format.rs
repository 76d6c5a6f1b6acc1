//! The book file: a 32-byte header, then 32-byte entries sorted by key and move, all
//! little-endian (`docs/book.md` is the specification).
//!
//! ```text
//! header  0  magic "DBOOK8x8"      8  version u16 (1)   10 game u16 (PDN GameType)
//!        12  entry size u32 (32)  16  entries u64      24 FNV-1a 64 of the entry bytes
//! entry   0  key u64   8 from u8   9 to u8   10 flags u8   11 depth u8
//!        12  captured u32 (bit n-1: square n)   16 value i16   18 search i16
//!        20  count u32   24 wins u32   28 losses u32
//! ```
//! Squares are numbered in the game's own numbering (as [`super::key`] does).

use std::fmt;

use crate::board::Variant;

/// The file's first eight bytes.
pub const MAGIC: [u8; 8] = *b"DBOOK8x8";
/// The format version this reader and writer speak.
pub const VERSION: u16 = 1;
/// Bytes of the header.
pub const HEADER_LEN: usize = 32;
/// Bytes of an entry.
pub const ENTRY_LEN: usize = 32;
/// Largest number of entries a reader accepts (32 GiB of entries; a larger count is a
/// damaged header).
pub const MAX_ENTRIES: u64 = 1 << 30;

/// Flag: the move is a Russian capture whose man is crowned on the way.
pub const FLAG_CROWNS: u8 = 1;
/// Flag: `value`, `search` and `depth` hold a search's values (built books); without
/// it the entry has only game counts (imported books).
pub const FLAG_VALUE: u8 = 2;
/// The flags version 1 defines; any other bit set is a damaged entry.
const KNOWN_FLAGS: u8 = FLAG_CROWNS | FLAG_VALUE;

/// One book move of one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Entry {
    /// The position's book key ([`super::key::book_key`]).
    pub key: u64,
    /// The square the piece leaves, 1..=32 in the game's numbering.
    pub from: u8,
    /// The square it ends on.
    pub to: u8,
    /// The captured squares: bit `n - 1` for square `n`.
    pub captured: u32,
    /// [`FLAG_CROWNS`], [`FLAG_VALUE`].
    pub flags: u8,
    /// Depth of the move's own search (of the position after it), plies.
    pub depth: u8,
    /// The minimaxed book value of the move, hundredths of a man for the side to move
    /// (the engine's score convention: `10000 - n` a win in `n` plies).
    pub value: i16,
    /// The value the move's own search gave, same units and side.
    pub search: i16,
    /// Games that played the move (imported books; 0 in built ones).
    pub count: u32,
    /// Of them, won by the side that played it.
    pub wins: u32,
    /// Of them, lost by the side that played it.
    pub losses: u32,
}

impl Entry {
    /// Whether the entry carries a search value.
    pub fn has_value(&self) -> bool {
        self.flags & FLAG_VALUE != 0
    }

    /// Games drawn (`count - wins - losses`).
    pub fn draws(&self) -> u32 {
        self.count
            .saturating_sub(self.wins.saturating_add(self.losses))
    }

    /// The sort order of the file: key, then from, to, captured squares, flags.
    pub fn order(&self) -> (u64, u8, u8, u32, u8) {
        (
            self.key,
            self.from,
            self.to,
            self.captured,
            self.flags & FLAG_CROWNS,
        )
    }

    /// The 32 bytes of the entry.
    pub fn to_bytes(&self) -> [u8; ENTRY_LEN] {
        let mut b = [0u8; ENTRY_LEN];
        b[0..8].copy_from_slice(&self.key.to_le_bytes());
        b[8] = self.from;
        b[9] = self.to;
        b[10] = self.flags;
        b[11] = self.depth;
        b[12..16].copy_from_slice(&self.captured.to_le_bytes());
        b[16..18].copy_from_slice(&self.value.to_le_bytes());
        b[18..20].copy_from_slice(&self.search.to_le_bytes());
        b[20..24].copy_from_slice(&self.count.to_le_bytes());
        b[24..28].copy_from_slice(&self.wins.to_le_bytes());
        b[28..32].copy_from_slice(&self.losses.to_le_bytes());
        b
    }

    /// An entry from its bytes, checked field by field (squares on the board, a
    /// captured set apart from both ends, known flags, counts that add up).
    pub fn from_bytes(b: &[u8; ENTRY_LEN]) -> Result<Entry, String> {
        let u32_at = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        let i16_at = |i: usize| i16::from_le_bytes([b[i], b[i + 1]]);
        let mut key = [0u8; 8];
        key.copy_from_slice(&b[0..8]);
        let entry = Entry {
            key: u64::from_le_bytes(key),
            from: b[8],
            to: b[9],
            flags: b[10],
            depth: b[11],
            captured: u32_at(12),
            value: i16_at(16),
            search: i16_at(18),
            count: u32_at(20),
            wins: u32_at(24),
            losses: u32_at(28),
        };
        entry.check()?;
        Ok(entry)
    }

    /// The field checks every entry read must pass.
    fn check(&self) -> Result<(), String> {
        if !(1..=32).contains(&self.from) || !(1..=32).contains(&self.to) {
            return Err(format!("square {} or {} off the board", self.from, self.to));
        }
        if self.flags & !KNOWN_FLAGS != 0 {
            return Err(format!("unknown flags {:#04x}", self.flags));
        }
        if u64::from(self.wins) + u64::from(self.losses) > u64::from(self.count) {
            return Err("more games won and lost than played".into());
        }
        if !self.has_value() && (self.value != 0 || self.search != 0 || self.depth != 0) {
            return Err("a value in an entry without one".into());
        }
        if self.captured & (1u32 << (self.to - 1)) != 0
            || self.captured & (1u32 << (self.from - 1)) != 0
        {
            return Err("a move captures on its own square".into());
        }
        if self.from == self.to && self.captured == 0 {
            return Err("a move that goes nowhere".into());
        }
        Ok(())
    }
}

/// Why a book file is refused: one line, naming what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormatError {
    /// Shorter than its header.
    Truncated,
    /// Not a book file (its first bytes are not [`MAGIC`]).
    NotABook,
    /// A version this reader does not know.
    Version(u16),
    /// A game that is not one of the four 8x8 games (its PDN `GameType`).
    Game(u16),
    /// A book of another game than the one asked for.
    WrongGame {
        /// The game of the file.
        file: Variant,
        /// The game asked for.
        wanted: Variant,
    },
    /// The entry size is not 32.
    EntrySize(u32),
    /// The file's length is not the header's entry count's.
    Length {
        /// Entries the header announces.
        entries: u64,
        /// The file's length in bytes.
        bytes: u64,
    },
    /// The entries' checksum is not the header's.
    Checksum,
    /// An entry out of order or repeated.
    Order(u64),
    /// An entry with an impossible field.
    Entry(u64, String),
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatError::Truncated => write!(f, "not a book file: shorter than its header"),
            FormatError::NotABook => write!(f, "not a book file (no DBOOK8x8 header)"),
            FormatError::Version(v) => write!(f, "book version {v}, this reader knows {VERSION}"),
            FormatError::Game(g) => write!(f, "book of an unknown game (GameType {g})"),
            FormatError::WrongGame { file, wanted } => {
                write!(f, "a {} book, not a {} one", file.name(), wanted.name())
            }
            FormatError::EntrySize(s) => write!(f, "book entries of {s} bytes, not 32"),
            FormatError::Length { entries, bytes } => write!(
                f,
                "damaged book: {entries} entries announced, {bytes} bytes in the file"
            ),
            FormatError::Checksum => write!(f, "damaged book: checksum mismatch"),
            FormatError::Order(i) => {
                write!(f, "damaged book: entry {i} out of order or repeated")
            }
            FormatError::Entry(i, why) => write!(f, "damaged book: entry {i}: {why}"),
        }
    }
}

impl std::error::Error for FormatError {}

/// 64-bit FNV-1a, the entries' checksum.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The file of `entries` (which must be sorted and unique, as [`super::Book`] keeps
/// them) for `game`.
pub fn write(game: Variant, entries: &[Entry]) -> Vec<u8> {
    let mut body = Vec::with_capacity(entries.len() * ENTRY_LEN);
    for e in entries {
        body.extend_from_slice(&e.to_bytes());
    }
    let mut file = Vec::with_capacity(HEADER_LEN + body.len());
    file.extend_from_slice(&MAGIC);
    file.extend_from_slice(&VERSION.to_le_bytes());
    file.extend_from_slice(&(game.game_type() as u16).to_le_bytes());
    file.extend_from_slice(&(ENTRY_LEN as u32).to_le_bytes());
    file.extend_from_slice(&(entries.len() as u64).to_le_bytes());
    file.extend_from_slice(&fnv1a(&body).to_le_bytes());
    file.extend_from_slice(&body);
    file
}

/// The game and entries of a file, every field checked: the header, the length, the
/// checksum, each entry's fields and their strict order.
pub fn read(bytes: &[u8]) -> Result<(Variant, Vec<Entry>), FormatError> {
    let header = bytes.get(..HEADER_LEN).ok_or(FormatError::Truncated)?;
    if header[..8] != MAGIC {
        return Err(FormatError::NotABook);
    }
    let u16_at = |i: usize| u16::from_le_bytes([header[i], header[i + 1]]);
    let u64_at = |i: usize| {
        let mut b = [0u8; 8];
        b.copy_from_slice(&header[i..i + 8]);
        u64::from_le_bytes(b)
    };
    let version = u16_at(8);
    if version != VERSION {
        return Err(FormatError::Version(version));
    }
    let game_type = u16_at(10);
    let game = Variant::from_game_type(u32::from(game_type)).ok_or(FormatError::Game(game_type))?;
    let size = u32::from_le_bytes([header[12], header[13], header[14], header[15]]);
    if size as usize != ENTRY_LEN {
        return Err(FormatError::EntrySize(size));
    }
    let count = u64_at(16);
    let body = &bytes[HEADER_LEN..];
    if count > MAX_ENTRIES || body.len() as u64 != count * ENTRY_LEN as u64 {
        return Err(FormatError::Length {
            entries: count,
            bytes: bytes.len() as u64,
        });
    }
    if fnv1a(body) != u64_at(24) {
        return Err(FormatError::Checksum);
    }
    let mut entries: Vec<Entry> = Vec::with_capacity(body.len() / ENTRY_LEN);
    for (i, chunk) in body.chunks_exact(ENTRY_LEN).enumerate() {
        let mut b = [0u8; ENTRY_LEN];
        b.copy_from_slice(chunk);
        let e = Entry::from_bytes(&b).map_err(|why| FormatError::Entry(i as u64, why))?;
        if entries.last().is_some_and(|last| last.order() >= e.order()) {
            return Err(FormatError::Order(i as u64));
        }
        entries.push(e);
    }
    Ok((game, entries))
}
