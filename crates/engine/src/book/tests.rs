use super::format::{ENTRY_LEN, HEADER_LEN};
use super::*;

/// A book of the start position of `game` and of the positions after each of its
/// moves: every move with a made-up value.
fn small_book(game: Variant) -> Book {
    let mut entries = Vec::new();
    let start = Position::start_of(game);
    let mut add = |pos: &Position, salt: i16| {
        for (i, &mv) in legal_moves(pos).as_slice().iter().enumerate() {
            let (from, to, captured, crowns) = encode(game, mv);
            entries.push(Entry {
                key: key::book_key(pos),
                from,
                to,
                captured,
                flags: crowns | FLAG_VALUE,
                depth: 8,
                value: salt + i as i16 * 3,
                search: salt - i as i16,
                count: i as u32,
                wins: 0,
                losses: 0,
            });
        }
    };
    add(&start, 0);
    for (i, &mv) in legal_moves(&start).as_slice().iter().enumerate() {
        add(&start.play(mv), i as i16 * 10);
    }
    Book::new(game, entries)
}

#[test]
fn written_and_read_back_is_the_same_book() {
    for game in Variant::ALL {
        let book = small_book(game);
        assert_eq!(
            book.positions(),
            1 + legal_moves(&Position::start_of(game)).len()
        );
        let bytes = book.to_bytes();
        assert_eq!(bytes.len(), HEADER_LEN + ENTRY_LEN * book.entries().len());
        assert_eq!(Book::from_bytes(&bytes).as_ref(), Ok(&book));
    }
}

#[test]
fn probe_finds_every_move_and_only_legal_ones() {
    let book = small_book(Variant::English);
    let start = Position::start_of(Variant::English);
    let moves = book.probe(&start);
    assert_eq!(moves.len(), legal_moves(&start).len());
    // Another game's position with the same pieces is not in this book.
    assert!(book.probe(&Position::start()).is_empty());
    // An entry that is not a legal move silences its position.
    let mut entries = book.entries().to_vec();
    let first = entries[0].key;
    let bad = Entry {
        from: 1,
        to: 5,
        ..entries[0]
    };
    entries.push(bad);
    let lying = Book::new(Variant::English, entries);
    let pos = if key::book_key(&start) == first {
        start
    } else {
        legal_moves(&start)
            .as_slice()
            .iter()
            .map(|&m| start.play(m))
            .find(|p| key::book_key(p) == first)
            .unwrap()
    };
    assert!(lying.probe(&pos).is_empty());
}

#[test]
fn choose_best_and_varied() {
    let book = small_book(Variant::Italian);
    let start = Position::start();
    let mut rng = Rng::new(1);
    let best = book.choose(&start, BookMode::Best, &mut rng).unwrap();
    let top = book
        .probe(&start)
        .iter()
        .map(|m| m.entry.value)
        .max()
        .unwrap();
    assert_eq!(best.entry.value, top);
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..200 {
        let m = book
            .choose(&start, BookMode::Varied { margin: 6 }, &mut rng)
            .unwrap();
        assert!(m.entry.value >= top - 6);
        seen.insert(m.mv);
    }
    assert_eq!(seen.len(), 3, "the three moves within 0.06 of the best");
}

#[test]
fn damaged_files_are_refused_with_one_line() {
    let bytes = small_book(Variant::Italian).to_bytes();
    let refuse = |b: &[u8]| {
        let e = Book::from_bytes(b).unwrap_err().to_string();
        assert!(!e.contains('\n') && !e.is_empty(), "{e}");
        e
    };
    assert!(refuse(&bytes[..10]).contains("shorter"));
    assert!(refuse(&bytes[..bytes.len() - 1]).contains("entries announced"));
    let mut flipped = bytes.clone();
    flipped[HEADER_LEN + 40] ^= 1;
    assert!(refuse(&flipped).contains("checksum"));
    let mut foreign = bytes.clone();
    foreign[0] = b'X';
    assert!(refuse(&foreign).contains("not a book"));
    let mut version = bytes.clone();
    version[8] = 9;
    assert!(refuse(&version).contains("version 9"));
    // Out of order, with the checksum made right: the order check catches it.
    let (game, mut entries) = format::read(&bytes).unwrap();
    entries.swap(0, 1);
    assert!(refuse(&format::write(game, &entries)).contains("out of order"));
    let mut off = entries.clone();
    off.sort_by_key(Entry::order);
    off[0].from = 33;
    assert!(refuse(&format::write(game, &off)).contains("off the board"));
}

#[test]
fn the_shipped_books_read_and_cover_their_start() {
    for game in [
        Variant::Italian,
        Variant::English,
        Variant::Russian,
        Variant::Brazilian,
        Variant::Pool,
        Variant::Czech,
        Variant::Spanish,
        Variant::Damka,
    ] {
        let book = embedded(game).unwrap();
        assert_eq!(book.game(), game);
        assert!(book.positions() > 1000, "{game}: {}", book.positions());
        let start = Position::start_of(game);
        assert_eq!(book.probe(&start).len(), legal_moves(&start).len());
    }
    assert!(embedded(Variant::Thai).is_none());
}
