//! The opening explorer: for the position shown, every move of a book (the game's
//! default book, or one the user loads) with its value, depth and count, and every move
//! of a loaded PDN collection with its games, their players and results (W/D/L from
//! White's view: `1-0`, `1/2-1/2`, `0-1`). Files come as bytes from the page and are
//! read without trusting them: a bad one is refused with one line.

use serde_json::{Value, json};

use crate::board::{Position, Variant};
use crate::book::games::{GameIndex, Outcome};
use crate::book::{Book, embedded};
use crate::game::pdn_file::read_recovering_in;
use crate::movegen::{hub_text_in, path_text};
use crate::search::score;

/// Games listed under a move (the counts cover them all).
pub const LISTED_GAMES: usize = 12;

/// Which book the explorer reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BookChoice {
    /// The game's default book (the shipped one), if it has one.
    Default,
    /// None.
    Off,
    /// The book file the user loaded.
    File,
}

/// The explorer's books and games.
#[derive(Clone, Debug)]
pub struct Explorer {
    /// The book chosen.
    choice: BookChoice,
    /// The book file the user loaded: its name and the book.
    loaded: Option<(String, Book)>,
    /// The default books, one per game that has one.
    defaults: Vec<Book>,
    /// The loaded PDN collection.
    games: Option<Collection>,
}

/// A PDN collection read: its name and its games.
#[derive(Clone, Debug)]
pub struct Collection {
    name: String,
    index: GameIndex,
}

impl Collection {
    /// Reads a PDN collection's bytes: its games of `variant` with a result. Returns it
    /// with a one-line summary; an error (one line) when no such game was read.
    pub fn read(
        name: &str,
        bytes: &[u8],
        variant: Variant,
    ) -> Result<(Collection, String), String> {
        let read = read_recovering_in(bytes, variant);
        let index = GameIndex::new(variant, std::slice::from_ref(&read), None);
        if index.games().is_empty() {
            let why = match read.warnings.last() {
                Some(w) => format!(": {w}"),
                None => String::new(),
            };
            return Err(format!(
                "{name}: no game of {} with a result{why}",
                variant.title()
            ));
        }
        let summary = format!(
            "{name}: {} games of {} ({} left out: another game, no result, or unreadable)",
            index.games().len(),
            variant.title(),
            index.left_out() + read.skipped
        );
        let name = name.to_string();
        Ok((Collection { name, index }, summary))
    }
}

impl Default for Explorer {
    fn default() -> Self {
        Explorer::new()
    }
}

impl Explorer {
    /// The default books are the shipped ones (none in the browser build, whose page
    /// hands them over: [`Explorer::set_default`]).
    pub fn new() -> Explorer {
        let games = [
            Variant::Italian,
            Variant::English,
            Variant::Russian,
            Variant::Brazilian,
        ];
        Explorer {
            choice: BookChoice::Default,
            loaded: None,
            defaults: games.into_iter().filter_map(embedded).collect(),
            games: None,
        }
    }

    /// Makes `book` its game's default book.
    pub fn set_default(&mut self, book: Book) {
        self.defaults.retain(|b| b.game() != book.game());
        self.defaults.push(book);
    }

    /// Reads a book file's bytes: the explorer's book from now on (or, with
    /// `as_default`, its game's default book). The error is one line.
    pub fn load_book(&mut self, name: &str, bytes: &[u8], as_default: bool) -> Result<(), String> {
        let book = Book::from_bytes(bytes).map_err(|e| format!("book {name}: {e}"))?;
        self.set_book(name.to_string(), book, as_default);
        Ok(())
    }

    /// Makes `book` the explorer's book (with `as_default`, its game's default book).
    pub fn set_book(&mut self, name: String, book: Book, as_default: bool) {
        if as_default {
            self.set_default(book);
        } else {
            self.loaded = Some((name, book));
            self.choice = BookChoice::File;
        }
    }

    /// The book chosen.
    pub fn choice(&self) -> BookChoice {
        self.choice
    }

    /// Chooses the book; [`BookChoice::File`] only once a file was loaded.
    pub fn choose(&mut self, choice: BookChoice) -> Result<(), String> {
        if choice == BookChoice::File && self.loaded.is_none() {
            return Err("no book file loaded: load one first".into());
        }
        self.choice = choice;
        Ok(())
    }

    /// Reads a PDN collection's bytes (see [`Collection::read`]) into the explorer.
    pub fn load_games(
        &mut self,
        name: &str,
        bytes: &[u8],
        variant: Variant,
    ) -> Result<String, String> {
        let (games, summary) = Collection::read(name, bytes, variant)?;
        self.set_games(games);
        Ok(summary)
    }

    /// Makes `games` the explorer's games.
    pub fn set_games(&mut self, games: Collection) {
        self.games = Some(games);
    }

    /// Forgets the PDN collection.
    pub fn drop_games(&mut self) {
        self.games = None;
    }

    /// The book read for `variant`, with its name.
    fn book_for(&self, variant: Variant) -> Option<(String, &Book)> {
        match self.choice {
            BookChoice::Off => None,
            BookChoice::File => self.loaded.as_ref().map(|(n, b)| (n.clone(), b)),
            BookChoice::Default => self
                .defaults
                .iter()
                .find(|b| b.game() == variant)
                .map(|b| (format!("the shipped {} book", variant.title()), b)),
        }
    }

    /// What the explorer shows for `pos` (see the page and `docs/gui.md`).
    pub fn to_json(&self, pos: &Position) -> Value {
        json!({
            "choice": match self.choice {
                BookChoice::Default => "default",
                BookChoice::Off => "off",
                BookChoice::File => "file",
            },
            "file": self.loaded.as_ref().map(|(name, _)| name),
            "book": self.book_json(pos),
            "games": self.games_json(pos),
        })
    }

    fn book_json(&self, pos: &Position) -> Value {
        let variant = pos.variant();
        let Some((name, book)) = self.book_for(variant) else {
            return Value::Null;
        };
        let note = (book.game() != variant)
            .then(|| format!("{name} is a book of {}", book.game().title()));
        let mut moves = book.probe(pos);
        moves.sort_by_key(|m| {
            let e = &m.entry;
            let value = if e.has_value() {
                i32::from(e.value)
            } else {
                i32::MIN
            };
            std::cmp::Reverse((value, e.count))
        });
        let moves: Vec<Value> = moves
            .iter()
            .map(|m| {
                let e = &m.entry;
                let mut v = move_json(pos, m.mv);
                let fields = json!({
                    "value": e.has_value().then(|| score::in_men(i32::from(e.value))),
                    "value_text": e.has_value().then(|| score::text(i32::from(e.value))),
                    "depth": e.has_value().then_some(e.depth),
                    "count": e.count,
                    "wins": e.wins,
                    "draws": e.draws(),
                    "losses": e.losses,
                });
                merge(&mut v, fields);
                v
            })
            .collect();
        json!({"name": name, "game": book.game().name(), "note": note, "moves": moves})
    }

    fn games_json(&self, pos: &Position) -> Value {
        let Some(Collection { name, index }) = &self.games else {
            return Value::Null;
        };
        let note = (index.game() != pos.variant())
            .then(|| format!("{name} holds games of {}", index.game().title()));
        let moves: Vec<Value> = index
            .moves_of(pos)
            .iter()
            .map(|m| {
                let games: Vec<_> = m.games.iter().filter_map(|&i| index.games().get(i)).collect();
                let count = |o| games.iter().filter(|g| g.outcome == o).count();
                let mut v = move_json(pos, m.mv);
                let listed: Vec<Value> = games
                    .iter()
                    .take(LISTED_GAMES)
                    .map(|g| json!({"number": g.number, "white": g.white, "black": g.black, "result": g.outcome.text()}))
                    .collect();
                let fields = json!({
                    "games": games.len(),
                    "white_won": count(Outcome::WhiteWon),
                    "drawn": count(Outcome::Drawn),
                    "black_won": count(Outcome::BlackWon),
                    "listed": listed,
                });
                merge(&mut v, fields);
                v
            })
            .collect();
        json!({
            "name": name,
            "game": index.game().name(),
            "total": index.games().len(),
            "note": note,
            "moves": moves,
        })
    }
}

/// A move for the page: its text (what `/api/move` takes) and Hub text.
fn move_json(pos: &Position, mv: crate::board::Move) -> Value {
    json!({"text": path_text(pos, mv), "hub": hub_text_in(pos.variant(), mv)})
}

/// Adds `extra`'s fields to the object `v`.
fn merge(v: &mut Value, extra: Value) {
    if let (Some(map), Value::Object(fields)) = (v.as_object_mut(), extra) {
        map.extend(fields);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAMES: &str = r#"[White "Ann"][Black "Bob"][Result "1-0"]
1. 22-18 11-14 1-0
[White "Cid"][Black "Dan"][Result "1/2-1/2"]
1. 22-18 12-15 1/2-1/2
[White "Eve"][Black "Fay"][Result "0-1"]
1. 21-17 11-14 0-1
[White "Gus"][Black "Hal"][Result "*"]
1. 22-18 *
"#;

    #[test]
    fn a_collection_counts_each_move_from_whites_view() {
        let mut ex = Explorer::new();
        let summary = ex.load_games("g.pdn", GAMES.as_bytes(), Variant::Italian);
        assert_eq!(
            summary.as_deref(),
            Ok(
                "g.pdn: 3 games of Italian draughts (1 left out: another game, no result, or unreadable)"
            )
        );
        let start = Position::start_of(Variant::Italian);
        let v = ex.to_json(&start);
        let moves = v["games"]["moves"].as_array().cloned().unwrap_or_default();
        let row = |m: &Value| {
            (
                m["text"].as_str().unwrap_or("").to_string(),
                m["games"].as_u64(),
                m["white_won"].as_u64(),
                m["drawn"].as_u64(),
                m["black_won"].as_u64(),
            )
        };
        let rows: Vec<_> = moves.iter().map(row).collect();
        assert_eq!(
            rows,
            [
                ("22-18".to_string(), Some(2), Some(1), Some(1), Some(0)),
                ("21-17".to_string(), Some(1), Some(0), Some(0), Some(1)),
            ]
        );
        assert_eq!(moves[0]["listed"][0]["white"], "Ann");
        assert_eq!(moves[0]["listed"][1]["result"], "1/2-1/2");
    }

    #[test]
    fn bad_files_are_refused_in_one_line() {
        let mut ex = Explorer::new();
        let e = ex.load_games("x.pdn", b"[White \"A\"\n1. 99-98 *", Variant::Italian);
        assert!(e.as_ref().is_err_and(|m| !m.contains('\n')), "{e:?}");
        assert!(e.is_err_and(|m| m.starts_with("x.pdn: no game of Italian draughts")));
        let e = ex.load_book("x.book", b"DBOOK8x8 and then nothing", false);
        assert_eq!(
            e,
            Err("book x.book: not a book file: shorter than its header".into())
        );
        assert_eq!(ex.choice(), BookChoice::Default);
        assert!(ex.choose(BookChoice::File).is_err(), "no file yet");
    }

    #[test]
    fn the_book_moves_come_best_first_and_off_is_off() {
        use crate::book::{Entry, FLAG_VALUE, encode, key::book_key};
        let start = Position::start_of(Variant::Italian);
        let legal = crate::movegen::legal_moves(&start);
        let entries = legal.as_slice().iter().zip([5i16, 30]).map(|(&mv, value)| {
            let (from, to, captured, flags) = encode(Variant::Italian, mv);
            Entry {
                key: book_key(&start),
                from,
                to,
                captured,
                flags: flags | FLAG_VALUE,
                depth: 9,
                value,
                search: value,
                count: 0,
                wins: 0,
                losses: 0,
            }
        });
        let mut ex = Explorer::new();
        ex.set_default(Book::new(Variant::Italian, entries.collect()));
        let v = ex.to_json(&start);
        let values: Vec<_> = v["book"]["moves"]
            .as_array()
            .map(|m| m.iter().map(|m| m["value_text"].clone()).collect())
            .unwrap_or_default();
        assert_eq!(values, [json!("+0.30"), json!("+0.05")], "{v}");
        assert_eq!(v["book"]["moves"][0]["depth"], 9);
        assert_eq!(ex.choose(BookChoice::Off), Ok(()));
        assert_eq!(ex.to_json(&start)["book"], Value::Null);
    }
}
