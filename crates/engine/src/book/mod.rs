//! Opening books: an open, documented file format for the 8x8 games (`docs/book.md`),
//! read without trusting the file, and probed for the moves of a position.
//!
//! - [`key`]: the book key of a position (pieces, side to move, the game), from a table
//!   any program can draw with SplitMix64;
//! - [`format`](mod@format): the file (header, 32-byte entries sorted by key and move, checksum)
//!   written and read, every field checked;
//! - [`Book`]: the entries of one game in memory; [`Book::probe`] gives a position's book
//!   moves, each checked to be a legal move of that position (a colliding key, or a
//!   file that passed its checksum but lies, gives no move rather than a wrong one);
//!   [`Book::choose`] picks one under a [`BookMode`].
//!
//! - [`games`]: PDN games indexed by position, with their results (`book import`'s
//!   counts, the opening explorer's games).
//!
//! The books shipped with Damiera (the games listed in `SHIPPED`) are [`embedded`]
//! (`book=embedded`).

pub mod format;
pub mod games;
pub mod key;

use std::fmt;
use std::path::Path;

pub use format::{Entry, FLAG_CROWNS, FLAG_VALUE, FormatError};

use crate::board::{Move, Position, Variant};
use crate::movegen::legal_moves;
use crate::rng::Rng;

/// Why a book could not be had: the file could not be read, or it is not a sound book.
#[derive(Debug)]
pub enum BookError {
    /// The file could not be read.
    Io(String, std::io::Error),
    /// The file is not a sound book (named).
    Format(String, FormatError),
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Io(name, e) => write!(f, "book {name}: {e}"),
            BookError::Format(name, e) => write!(f, "book {name}: {e}"),
        }
    }
}

impl std::error::Error for BookError {}

/// How the engine picks among a position's book moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BookMode {
    /// The move of best value (ties: the most played, then the first in file order).
    Best,
    /// At random among the moves whose value is within `margin` (hundredths of a man) of
    /// the best one.
    Varied {
        /// Hundredths of a man below the best value a move may be.
        margin: i32,
    },
}

/// A book move of a position: the legal move and its entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move, legal in the position probed.
    pub mv: Move,
    /// What the book says of it.
    pub entry: Entry,
}

/// The entries of one game's book, sorted by key and move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    game: Variant,
    entries: Vec<Entry>,
}

impl Book {
    /// A book of `game` from entries in any order; of entries for the same key and move
    /// the last one stays.
    pub fn new(game: Variant, mut entries: Vec<Entry>) -> Book {
        entries.reverse();
        entries.sort_by_key(Entry::order);
        entries.dedup_by_key(|e| e.order());
        Book { game, entries }
    }

    /// The book in `bytes` (a whole file), refused with the first fault found.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, FormatError> {
        let (game, entries) = format::read(bytes)?;
        Ok(Book { game, entries })
    }

    /// The book in file `path`; the error is one line naming the file.
    pub fn open(path: &Path) -> Result<Book, BookError> {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|e| BookError::Io(name.clone(), e))?;
        Book::from_bytes(&bytes).map_err(|e| BookError::Format(name, e))
    }

    /// [`Book::open`] for a book that must be of `game`.
    pub fn open_for(path: &Path, game: Variant) -> Result<Book, BookError> {
        let book = Book::open(path)?;
        if book.game != game {
            let name = path.display().to_string();
            return Err(BookError::Format(
                name,
                FormatError::WrongGame {
                    file: book.game,
                    wanted: game,
                },
            ));
        }
        Ok(book)
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        format::write(self.game, &self.entries)
    }

    /// Writes the file to `path` through a temporary file beside it, renamed into place
    /// (a reader never sees half a book).
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        std::fs::write(&tmp, self.to_bytes())?;
        std::fs::rename(&tmp, path)
    }

    /// The game of the book.
    pub fn game(&self) -> Variant {
        self.game
    }

    /// Every entry, in file order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Number of positions (distinct keys).
    pub fn positions(&self) -> usize {
        let mut n = 0;
        let mut last = None;
        for e in &self.entries {
            if last != Some(e.key) {
                n += 1;
                last = Some(e.key);
            }
        }
        n
    }

    /// The entries of a key (binary search), in file order.
    pub fn entries_of(&self, key: u64) -> &[Entry] {
        let start = self.entries.partition_point(|e| e.key < key);
        let end = self.entries.partition_point(|e| e.key <= key);
        self.entries.get(start..end).unwrap_or(&[])
    }

    /// The book moves of `position`, in file order. None when the position is of another
    /// game, is not in the book, or any of its entries is not a legal move there (a key
    /// collision or a lying file: the book then says nothing rather than something wrong).
    pub fn probe(&self, position: &Position) -> Vec<BookMove> {
        if position.variant() != self.game {
            return Vec::new();
        }
        let entries = self.entries_of(key::book_key(position));
        if entries.is_empty() {
            return Vec::new();
        }
        let legal = legal_moves(position);
        let mut found = Vec::with_capacity(entries.len());
        for entry in entries {
            match legal.as_slice().iter().find(|&&mv| {
                encode(self.game, mv)
                    == (
                        entry.from,
                        entry.to,
                        entry.captured,
                        entry.flags & FLAG_CROWNS,
                    )
            }) {
                Some(&mv) => found.push(BookMove { mv, entry: *entry }),
                None => return Vec::new(),
            }
        }
        found
    }

    /// The move the book plays in `position` under `mode`, if it has one; `rng` draws
    /// among the moves [`BookMode::Varied`] allows. Moves with a value are ranked by it;
    /// a position whose entries have only game counts (an imported book) plays its most
    /// played move, or, varied, a move drawn in proportion to its games.
    pub fn choose(&self, position: &Position, mode: BookMode, rng: &mut Rng) -> Option<BookMove> {
        let moves = self.probe(position);
        let valued: Vec<BookMove> = moves
            .iter()
            .copied()
            .filter(|m| m.entry.has_value())
            .collect();
        if valued.is_empty() {
            let played: Vec<BookMove> = moves.into_iter().filter(|m| m.entry.count > 0).collect();
            return match mode {
                BookMode::Best => played.iter().copied().max_by_key(|m| m.entry.count),
                BookMode::Varied { .. } => {
                    let total: u64 = played.iter().map(|m| u64::from(m.entry.count)).sum();
                    let mut draw = rng.below(total);
                    played.into_iter().find(|m| {
                        let c = u64::from(m.entry.count);
                        if draw < c {
                            true
                        } else {
                            draw -= c;
                            false
                        }
                    })
                }
            };
        }
        // The best: highest value, then most played, then first in file order.
        let best = valued.iter().copied().reduce(|a, b| {
            if (b.entry.value, b.entry.count) > (a.entry.value, a.entry.count) {
                b
            } else {
                a
            }
        })?;
        match mode {
            BookMode::Best => Some(best),
            BookMode::Varied { margin } => {
                let floor = i32::from(best.entry.value) - margin.max(0);
                let near: Vec<BookMove> = valued
                    .into_iter()
                    .filter(|m| i32::from(m.entry.value) >= floor)
                    .collect();
                near.get(rng.below(near.len() as u64) as usize).copied()
            }
        }
    }
}

/// A move as a book entry writes it: from, to, captured squares (bit `n - 1` for square
/// `n`), all in `game`'s numbering, and [`FLAG_CROWNS`] when a Russian man is crowned on
/// the way.
pub fn encode(game: Variant, mv: Move) -> (u8, u8, u32, u8) {
    let captured = mv
        .captured()
        .into_iter()
        .fold(0u32, |set, sq| set | 1 << (game.number_of(sq) - 1));
    let crowns = if mv.crowns() { FLAG_CROWNS } else { 0 };
    (
        game.number_of(mv.from()),
        game.number_of(mv.to()),
        captured,
        crowns,
    )
}

/// The books shipped for the games that have one (built from the start position:
/// `docs/book.md`), kept beside this room and built into the native binary (not into the
/// browser build, whose download they would grow).
#[cfg(feature = "native")]
const SHIPPED: [(Variant, &[u8]); 8] = [
    (Variant::Italian, include_bytes!("italian.book")),
    (Variant::English, include_bytes!("english.book")),
    (Variant::Russian, include_bytes!("russian.book")),
    (Variant::Brazilian, include_bytes!("brazilian.book")),
    (Variant::Pool, include_bytes!("pool.book")),
    (Variant::Czech, include_bytes!("czech.book")),
    (Variant::Spanish, include_bytes!("spanish.book")),
    (Variant::Damka, include_bytes!("damka.book")),
];
#[cfg(not(feature = "native"))]
const SHIPPED: [(Variant, &[u8]); 0] = [];

/// The shipped book of `game`, if one is shipped (read, and checked, as any file is:
/// `None` too if it were damaged, which a unit test rules out).
pub fn embedded(game: Variant) -> Option<Book> {
    SHIPPED
        .iter()
        .find(|(g, _)| *g == game)
        .and_then(|(_, bytes)| Book::from_bytes(bytes).ok())
        .filter(|book| book.game() == game)
}

#[cfg(test)]
mod tests;
