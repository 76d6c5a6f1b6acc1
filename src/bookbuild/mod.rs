//! Opening books made: grown by drop-out expansion with the engine's searches
//! ([`dropout`]), in slices that [`merge`] joins, or imported from PDN games
//! ([`import`]); the book as a graph of positions while it is made ([`tree`]); a book
//! checked against fresh, deeper searches ([`verify`]).

pub mod dropout;
pub mod import;
pub mod tree;
pub mod verify;

pub use dropout::{BuildOptions, BuildReport, Sides, build};
pub use tree::Tree;

use std::collections::HashMap;

use crate::board::Position;
use crate::book::{Book, Entry};

/// The books of `books` (of one game) joined: of entries for the same position and move,
/// the values of the deepest search (a searched entry over an unsearched one), the game
/// counts added; then every value reached from `roots` minimaxed again (the slices of a
/// sliced build meet in the trunk they all hold).
pub fn merge(books: &[Book], roots: &[Position]) -> Result<Book, String> {
    let Some(first) = books.first() else {
        return Err("no books to merge".into());
    };
    let game = first.game();
    if let Some(other) = books.iter().find(|b| b.game() != game) {
        return Err(format!(
            "books of two games: {} and {}",
            game.name(),
            other.game().name()
        ));
    }
    let mut joined: HashMap<(u64, u8, u8, u32, u8), Entry> = HashMap::new();
    for book in books {
        for e in book.entries() {
            joined
                .entry(e.order())
                .and_modify(|old| {
                    let deeper = e.has_value() && (!old.has_value() || e.depth > old.depth);
                    let (count, wins, losses) = (
                        old.count.saturating_add(e.count),
                        old.wins.saturating_add(e.wins),
                        old.losses.saturating_add(e.losses),
                    );
                    if deeper {
                        *old = *e;
                    }
                    old.count = count;
                    old.wins = wins.min(count);
                    old.losses = losses.min(count - old.wins);
                })
                .or_insert(*e);
        }
    }
    let book = Book::new(game, joined.into_values().collect());
    Ok(Tree::load(&book, roots).to_book())
}
