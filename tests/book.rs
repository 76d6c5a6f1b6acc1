//! Opening books (docs/book.md): built, written and read back the same; resumed and
//! threaded builds the same bytes; slices merged; the CLI's probe, import and refusals;
//! a second reader in Python finding the same moves; the Hub playing book moves; and
//! varied books giving varied games. Every book here is built at test time, small.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code: a failed unwrap fails the test

mod support;

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;

use damiera::board::{Position, Variant};
use damiera::book::{Book, BookMode};
use damiera::bookbuild::{self, BuildOptions, Tree};
use damiera::clock::Limits;
use damiera::engine::{EngineOptions, Thinker};
use damiera::game::Game;
use damiera::movegen::{hub_text_in, legal_moves};
use damiera::shard::Shard;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("damiera-book-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn options(depth: u32, positions: usize, threads: usize) -> BuildOptions {
    BuildOptions {
        depth,
        positions,
        threads,
        batch: 4,
        engine: EngineOptions {
            tt_mib: 1,
            ..EngineOptions::default()
        },
        ..BuildOptions::default()
    }
}

/// A book of `game` from its start, grown to `positions` positions.
fn built(game: Variant, depth: u32, positions: usize) -> Book {
    let mut tree = Tree::new(game, &[Position::start_of(game)]);
    bookbuild::build(&mut tree, &options(depth, positions, 2), |_| Ok(()), |_| {}).unwrap();
    tree.to_book()
}

#[test]
fn a_built_book_is_written_and_read_back_the_same() {
    for game in [Variant::Italian, Variant::English, Variant::Russian] {
        let book = built(game, 3, 20);
        assert_eq!(book.positions(), 20, "{game}"); // 5 rounds of 4
        let bytes = book.to_bytes();
        let read = Book::from_bytes(&bytes).unwrap();
        assert_eq!(read, book);
        // The tree a resumed build starts from writes the same entries again.
        let again = Tree::load(&read, &[Position::start_of(game)]).to_book();
        assert_eq!(again, book);
        // The start position's entries are all its legal moves, each with a value.
        let start = Position::start_of(game);
        let moves = book.probe(&start);
        assert_eq!(moves.len(), legal_moves(&start).len());
        assert!(
            moves
                .iter()
                .all(|m| m.entry.has_value() && m.entry.depth > 0)
        );
    }
}

#[test]
fn resumed_and_threaded_builds_give_the_same_bytes() {
    let game = Variant::Italian;
    let roots = [Position::start()];
    let mut whole = Tree::new(game, &roots);
    bookbuild::build(&mut whole, &options(4, 24, 1), |_| Ok(()), |_| {}).unwrap();
    // Stopped at 10 positions (12: the end of its round) (its file saved), then resumed from the file with two
    // threads.
    let mut first = Tree::new(game, &roots);
    let mut saved = Vec::new();
    bookbuild::build(
        &mut first,
        &options(4, 10, 2),
        |t| {
            saved = t.to_book().to_bytes();
            Ok(())
        },
        |_| {},
    )
    .unwrap();
    let mut two = Tree::new(game, &roots);
    bookbuild::build(&mut two, &options(4, 24, 2), |_| Ok(()), |_| {}).unwrap();
    let same = |what: &str, a: &Tree, b: &Tree| {
        let (a, b) = (a.to_book(), b.to_book());
        let differ: Vec<_> = a
            .entries()
            .iter()
            .zip(b.entries())
            .filter(|(x, y)| x != y)
            .take(3)
            .collect();
        assert!(
            a == b,
            "{what}: {} and {} entries; first differences {differ:?}",
            a.entries().len(),
            b.entries().len()
        );
    };
    same("two threads", &two, &whole);
    let mut resumed = Tree::load(&Book::from_bytes(&saved).unwrap(), &roots);
    let report = bookbuild::build(&mut resumed, &options(4, 24, 2), |_| Ok(()), |_| {}).unwrap();
    assert_eq!(report.expanded, 12);
    same("resumed", &resumed, &whole);
}

#[test]
fn slices_share_the_trunk_and_merge_into_one_book() {
    let game = Variant::English;
    let roots = [Position::start_of(game)];
    let slice = |k| {
        let mut tree = Tree::new(game, &roots);
        let o = BuildOptions {
            shard: Shard::new(k, 2).unwrap(),
            split_plies: 1,
            ..options(3, 20, 1)
        };
        bookbuild::build(&mut tree, &o, |_| Ok(()), |_| {}).unwrap();
        tree.to_book()
    };
    let (a, b) = (slice(1), slice(2));
    let start = Position::start_of(game);
    let firsts: Vec<Position> = legal_moves(&start)
        .as_slice()
        .iter()
        .map(|&m| start.play(m))
        .collect();
    // Both slices hold the trunk (the start); the positions after one move are dealt
    // out between them.
    assert!(!a.probe(&start).is_empty() && !b.probe(&start).is_empty());
    for p in &firsts {
        let (in_a, in_b) = (!a.probe(p).is_empty(), !b.probe(p).is_empty());
        assert!(in_a != in_b, "{}: in both slices or in none", p.to_fen());
    }
    let merged = bookbuild::merge(&[a.clone(), b.clone()], &roots).unwrap();
    let keys = |book: &Book| -> BTreeSet<u64> { book.entries().iter().map(|e| e.key).collect() };
    assert_eq!(keys(&merged), &keys(&a) | &keys(&b));
    assert!(merged.positions() > a.positions().max(b.positions()));
    // The merged values are minimaxed again: the start's best move is worth the best of
    // what the position after it is worth, backed up.
    let best = merged
        .choose(&start, BookMode::Best, &mut damiera::rng::Rng::new(0))
        .unwrap();
    let after = merged.probe(&start.play(best.mv));
    if !after.is_empty() {
        let reply = after
            .iter()
            .map(|m| i32::from(m.entry.value))
            .max()
            .unwrap();
        assert_eq!(i32::from(best.entry.value), -reply);
    }
}

fn damiera(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_damiera"));
    // No endgame databases from the user's directory.
    c.env("XDG_DATA_HOME", dir.join("no-data")).current_dir(dir);
    c
}

#[test]
fn the_cli_builds_probes_and_refuses_damaged_books() {
    let dir = scratch("cli");
    let out = damiera(&dir)
        .args([
            "book",
            "build",
            "-o",
            "en.book",
            "--variant",
            "english",
            "--depth",
            "3",
        ])
        .args(["--positions", "12", "--quiet"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let book = Book::open(&dir.join("en.book")).unwrap();
    assert_eq!(book.positions(), 16, "12 rounded up to the batch of 8");
    let out = damiera(&dir)
        .args(["book", "probe", "--book", "en.book", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let start = Position::start_of(Variant::English);
    let listed: BTreeSet<String> = json["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap().to_string())
        .collect();
    let legal: BTreeSet<String> = legal_moves(&start)
        .as_slice()
        .iter()
        .map(|&m| hub_text_in(Variant::English, m))
        .collect();
    assert_eq!(listed, legal);
    assert_eq!(json["game"], "english");

    // A damaged file: one line on stderr, exit status 2, for probe and for play.
    let mut bytes = std::fs::read(dir.join("en.book")).unwrap();
    let last = bytes.len() - 3;
    bytes[last] ^= 0x40;
    std::fs::write(dir.join("bad.book"), &bytes).unwrap();
    std::fs::write(dir.join("short.book"), &bytes[..20]).unwrap();
    for (args, fault) in [
        (vec!["book", "probe", "--book", "bad.book"], "checksum"),
        (
            vec!["book", "probe", "--book", "short.book"],
            "shorter than its header",
        ),
        (
            vec!["book", "probe", "--book", "missing.book"],
            "missing.book",
        ),
        (
            vec!["analyse", "--book", "bad.book", "--depth", "2"],
            "checksum",
        ),
        (
            vec!["analyse", "--book", "en.book", "--depth", "2"],
            "a english book, not a italian one",
        ),
    ] {
        let out = damiera(&dir)
            .args(&args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(fault), "{args:?}: {err}");
    }
}

#[test]
fn import_counts_games_won_drawn_and_lost() {
    let dir = scratch("import");
    let pdn = "[Result \"1-0\"]\n1. 22-18 11-15 2. 18-14 1-0\n\n\
               [Result \"0-1\"]\n1. 22-18 12-16 0-1\n\n\
               [Result \"1/2-1/2\"]\n1. 23-19 1/2-1/2\n\n\
               [Result \"*\"]\n1. 21-17 *\n";
    std::fs::write(dir.join("games.pdn"), pdn).unwrap();
    let out = damiera(&dir)
        .args([
            "book",
            "import",
            "-o",
            "games.book",
            "games.pdn",
            "--plies",
            "2",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("from 3 games (1 left out"), "{text}");
    let book = Book::open(&dir.join("games.book")).unwrap();
    let start = Position::start();
    let counts: Vec<(String, u32, u32, u32)> = book
        .probe(&start)
        .iter()
        .map(|m| {
            let e = m.entry;
            (
                hub_text_in(Variant::Italian, m.mv),
                e.wins,
                e.draws(),
                e.losses,
            )
        })
        .collect();
    assert_eq!(
        counts,
        vec![
            ("22-18".to_string(), 1, 0, 1),
            ("23-19".to_string(), 0, 1, 0)
        ]
    );
    // Plies 2 counted, not 3: the capture 18x11 is not in the book.
    let after = {
        let mut g = Game::new(start);
        g.play_text("22-18").unwrap();
        g.play_text("11-15").unwrap();
        g.position()
    };
    assert!(book.probe(&after).is_empty());
    // Best without values: the most played move.
    let best = book
        .choose(&start, BookMode::Best, &mut damiera::rng::Rng::new(1))
        .unwrap();
    assert_eq!(hub_text_in(Variant::Italian, best.mv), "22-18");
}

/// The interpreter for the Python reader: `DAMIERA_PYTHON`, the venv, else `python3`
/// (the reader needs only the standard library).
fn python() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("DAMIERA_PYTHON") {
        return Some(p.into());
    }
    let venv = Path::new(env!("CARGO_MANIFEST_DIR")).join(".venv/bin/python");
    if venv.exists() {
        return Some(venv);
    }
    let found = Command::new("python3").arg("--version").output();
    if found.is_ok_and(|o| o.status.success()) {
        return Some("python3".into());
    }
    support::skip("the Python book reader", "no python3");
    None
}

#[test]
fn a_python_reader_of_the_documented_format_finds_the_same_moves() {
    let Some(python) = python() else {
        return;
    };
    let dir = scratch("python");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/read_book.py");
    // Every game, numbered or named algebraically, so that each game's key (drawn in
    // its documented order) and square names are checked.
    for game in Variant::ALL {
        let book = built(game, 3, 16);
        let path = dir.join(format!("{}.book", game.name()));
        book.save(&path).unwrap();
        // The start, every position after one move and after two.
        let start = Position::start_of(game);
        let mut positions = vec![start];
        for &m in legal_moves(&start).as_slice() {
            let p = start.play(m);
            positions.push(p);
            positions.extend(legal_moves(&p).as_slice().iter().map(|&r| p.play(r)));
        }
        let fens: Vec<String> = positions.iter().map(Position::to_fen).collect();
        let out = Command::new(&python)
            .arg(&script)
            .arg(&path)
            .args(&fens)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), positions.len());
        let mut found = 0;
        for (pos, line) in positions.iter().zip(&lines) {
            let mut ours: Vec<String> = book
                .probe(pos)
                .iter()
                .map(|m| format!("{}={}", hub_text_in(game, m.mv), m.entry.value))
                .collect();
            ours.sort();
            let key = format!("{:016x}", damiera::book::key::book_key(pos));
            let expected = format!("{key} {}", ours.join(" "));
            assert_eq!(line.trim_end(), expected.trim_end(), "{}", pos.to_fen());
            found += usize::from(!ours.is_empty());
        }
        assert!(found >= 8, "{game}: only {found} book positions compared");
    }
    // A damaged file is refused by the second reader too.
    let mut bytes = std::fs::read(dir.join("italian.book")).unwrap();
    bytes[40] ^= 1;
    std::fs::write(dir.join("bad.book"), &bytes).unwrap();
    let out = Command::new(&python)
        .arg(&script)
        .arg(dir.join("bad.book"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn the_hub_plays_book_moves_and_reports_them() {
    let dir = scratch("hub");
    let book = built(Variant::Italian, 3, 12);
    book.save(&dir.join("it.book")).unwrap();
    let best = book
        .choose(
            &Position::start(),
            BookMode::Best,
            &mut damiera::rng::Rng::new(0),
        )
        .unwrap();
    let best = hub_text_in(Variant::Italian, best.mv);
    let mut child = damiera(&dir)
        .arg("hub")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap());
    let mut read_line = || {
        let mut line = String::new();
        output.read_line(&mut line).unwrap();
        line.trim_end().to_string()
    };
    let mut send = |line: &str| writeln!(input, "{line}").unwrap();
    send("set-param name=book value=missing.book");
    send("set-param name=book value=it.book");
    send("init");
    assert!(
        read_line().starts_with("error message=\"set-param: bad value for book: 'missing.book'")
    );
    assert_eq!(read_line(), "ready");
    send("pos start");
    send("level depth=4");
    send("go");
    assert_eq!(
        read_line(),
        format!(
            "info depth=0 mean-depth=0.0 score={} nodes=0 time=0.000 nps=0.0 pv=\"{best}\" book=1",
            format_score(
                book.probe(&Position::start())
                    .iter()
                    .map(|m| m.entry.value)
                    .max()
                    .unwrap()
            )
        )
    );
    assert_eq!(read_line(), format!("done move={best}"));
    // Out of the book (a position after two quiet moves the book may not have): either a
    // book move again or a search, never both; analysis always searches.
    send("go analyze");
    send("stop");
    let line = read_line();
    assert!(
        line.starts_with("info depth=1 ") && !line.contains("book=1"),
        "{line}"
    );
    loop {
        if read_line().starts_with("done") {
            break;
        }
    }
    send("set-param name=book value=off");
    send("go");
    let line = read_line();
    assert!(
        line.starts_with("info depth=1 ") && !line.contains("book=1"),
        "{line}"
    );
    send("quit");
    drop(input);
    assert!(child.wait().unwrap().success());
}

fn format_score(value: i16) -> String {
    format!("{:.2}", f64::from(value) / 100.0)
}

#[test]
fn varied_books_give_varied_games() {
    let book = Arc::new(built(Variant::Italian, 3, 160));
    let after_six = |varied: bool| -> BTreeSet<u64> {
        let thinker = Thinker::new(EngineOptions {
            tt_mib: 1,
            book: Some(Arc::clone(&book)),
            book_varied: varied,
            book_margin: 30,
            ..EngineOptions::default()
        })
        .unwrap();
        let mut seen = BTreeSet::new();
        for _ in 0..100 {
            thinker.new_game();
            let mut game = Game::new(Position::start());
            for _ in 0..6 {
                let r = thinker.think(&game, &Limits::depth(1), |_| {});
                game.play(r.best.unwrap());
            }
            seen.insert(game.position().key());
        }
        seen
    };
    assert_eq!(after_six(false).len(), 1, "the best book move every time");
    let varied = after_six(true).len();
    assert!(
        varied >= 30,
        "100 varied games reached {varied} positions after 6 plies"
    );
}

#[test]
fn verify_flags_a_book_move_a_fresh_search_finds_bad() {
    let game = Variant::Italian;
    let roots = [Position::start()];
    let book = built(game, 3, 8);
    let engine = EngineOptions {
        tt_mib: 1,
        ..EngineOptions::default()
    };
    let tree = Tree::load(&book, &roots);
    let honest = bookbuild::verify::verify(&tree, 3, 10, 2, &engine, usize::MAX).unwrap();
    assert_eq!(honest.positions, 8);
    assert!(honest.moves >= 8);
    // A position's worst move that the book does not follow, made the book's best.
    let mut tree = tree;
    let expanded: BTreeSet<u64> = tree.nodes.keys().copied().collect();
    let mut keys: Vec<u64> = expanded.iter().copied().collect();
    keys.sort();
    let key = keys
        .into_iter()
        .find(|k| {
            tree.nodes[k]
                .edges
                .iter()
                .any(|e| !expanded.contains(&e.child))
        })
        .unwrap();
    let node = tree.nodes.get_mut(&key).unwrap();
    let position = node.position;
    let edge = node
        .edges
        .iter_mut()
        .filter(|e| !expanded.contains(&e.child))
        .min_by_key(|e| e.search.map(|s| s.0))
        .unwrap();
    edge.search = Some((500, 3));
    tree.minimax();
    let checked = bookbuild::verify::verify(&tree, 3, 10, 2, &engine, usize::MAX).unwrap();
    let flagged: Vec<_> = checked
        .exceptions
        .iter()
        .filter(|e| e.position == position)
        .collect();
    assert_eq!(flagged.len(), 1, "{:?}", checked.exceptions);
    assert!(flagged[0].best.1 - flagged[0].fresh > 10);
    // Refreshed with the fresh searches, the lie is gone: the same check finds nothing
    // at that position.
    bookbuild::verify::refresh(&mut tree, &checked);
    let again = bookbuild::verify::verify(&tree, 3, 10, 2, &engine, usize::MAX).unwrap();
    assert!(
        again.exceptions.iter().all(|e| e.position != position),
        "{:?}",
        again.exceptions
    );
}
