//! PDN files from the real world (issue 33): a file carrying the faults of the Italian
//! federation's archives between good games is read game by game, through the reader
//! and through `analyse`; and a property: a game written by Damiera, damaged by one
//! fault, is read back equal, repaired or skipped with a warning, and the games after
//! it are always read.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code: a failed unwrap fails the test

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use damiera::board::{Position, Variant};
use damiera::game::pdn::{Fix, PdnGame, PdnMove, Slot, write_pdn};
use damiera::game::pdn_file::{PdnRead, read_recovering};
use damiera::movegen::{legal_moves, path_text};
use proptest::prelude::*;

const BIN: &str = env!("CARGO_BIN_EXE_damiera");

fn data_file() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/federation_faults.pdn")
}

/// The warnings of game `number`, as text.
fn warnings_of(read: &PdnRead, number: usize) -> Vec<String> {
    let of_game = read.warnings.iter().filter(|w| w.game == number);
    of_game.map(|w| w.to_string()).collect()
}

fn game(read: &PdnRead, number: usize) -> &PdnGame {
    let found = read.games.iter().find(|g| g.number == number);
    &found
        .unwrap_or_else(|| panic!("game {number} not read"))
        .pdn
}

/// Checks the read of tests/data/federation_faults.pdn (12 games: see the file).
fn check_federation_read(read: &PdnRead) {
    let numbers: Vec<usize> = read.games.iter().map(|g| g.number).collect();
    assert_eq!(
        numbers,
        [1, 2, 3, 4, 5, 6, 8, 9, 11, 12],
        "{:#?}",
        read.warnings
    );
    assert_eq!((read.repaired, read.skipped), (5, 2));
    assert_eq!(read.summary(), "10 games read (5 repaired), 2 skipped");
    // Every game read replays whole.
    for g in &read.games {
        assert_eq!(
            g.replay.moves().len(),
            g.pdn.moves.len(),
            "game {}",
            g.number
        );
    }
    // Good games: no warning.
    for n in [1, 3, 8, 12] {
        assert_eq!(warnings_of(read, n), Vec::<String>::new(), "game {n}");
    }
    // 1: Italian tags, resigned in mid-position.
    let g1 = game(read, 1);
    assert_eq!(g1.tag("White"), Some("Rossi, Mario"));
    assert_eq!(g1.tag("Black"), Some("Bianchi, Luca"));
    assert_eq!(g1.result.as_deref(), Some("2-0"));
    assert_eq!(g1.tag("Apertura"), Some("Ravenna"));
    assert_eq!(g1.moves.len(), 30);
    // 2: a tag value ending in a doubled quote.
    assert_eq!(
        game(read, 2).tag("Event"),
        Some("74° Ass. Ital. - Finale - 1 turno")
    );
    let w2 = warnings_of(read, 2);
    assert_eq!(w2.len(), 1);
    assert!(
        w2[0].starts_with("game 2, line 14: repaired: tag value ends in a doubled quote"),
        "{w2:?}"
    );
    // 3: leading zeros, a comment with `[` at a line start.
    let g3 = game(read, 3);
    assert!(g3.moves.iter().any(|m| m.text == "6-11"), "{g3:?}");
    assert_eq!(
        g3.moves[2].comment.as_deref(),
        Some("posizione critica: [diagramma 1] il bianco sta meglio")
    );
    assert_eq!(g3.result.as_deref(), Some("1-1"));
    // 4: braces inside a comment.
    let g4 = game(read, 4);
    assert_eq!(g4.result.as_deref(), Some("1/2-1/2"));
    let last = g4.moves.last().and_then(|m| m.comment.as_deref());
    assert_eq!(last, Some("* 11-7 19-14 38. 26-21 {PARI} 1/2-1/2"));
    assert!(warnings_of(read, 4)[0].contains("repaired: comment holds braces"));
    // 5: a result with a suffix.
    let g5 = game(read, 5);
    assert_eq!(g5.result.as_deref(), Some("0-2"));
    assert_eq!(g5.tag("Termination"), Some("time forfeit"));
    assert!(warnings_of(read, 5)[0].contains("repaired: result `0-2t` read as 0-2"));
    // 6: an ambiguous short capture decided by the move after it.
    assert_eq!(game(read, 6).moves[0].text, "3x10x19x26");
    let w6 = warnings_of(read, 6);
    assert!(w6[0].contains("the moves that follow decide it"), "{w6:?}");
    // 9: the same capture as the last move: the first in move-list order.
    assert_eq!(game(read, 9).moves[0].text, "3x10x17x26");
    let w9 = warnings_of(read, 9);
    assert!(w9[0].contains("the first in move-list order"), "{w9:?}");
    // 11: an English game (GameType 21), read in English checkers' rules.
    let english = read
        .games
        .iter()
        .find(|g| g.number == 11)
        .map(|g| g.replay.start());
    assert_eq!(english, Some(Position::start_of(Variant::English)));
    // Skipped: an illegal move, a comment never closed.
    let skipped: Vec<String> = read
        .warnings
        .iter()
        .filter(|w| w.fix == Fix::Skipped)
        .map(|w| w.to_string())
        .collect();
    assert_eq!(skipped.len(), 2, "{skipped:?}");
    assert!(skipped[0].starts_with("game 7, line 67: skipped: move 3 (White) `21-16`: illegal"));
    assert!(skipped[1].starts_with("game 10, line 98: skipped: unterminated comment `{"));
}

#[test]
fn a_federation_file_is_read_game_by_game() {
    let bytes = std::fs::read(data_file()).unwrap();
    assert!(bytes.starts_with(b"\xEF\xBB\xBF") && bytes.windows(2).any(|w| w == b"\r\n"));
    check_federation_read(&read_recovering(&bytes));
    // The same file in Latin-1 with LF line ends reads the same.
    let text = String::from_utf8(bytes[3..].to_vec()).unwrap();
    let latin1: Vec<u8> = text
        .replace("\r\n", "\n")
        .chars()
        .map(|c| c as u8)
        .collect();
    assert!(std::str::from_utf8(&latin1).is_err(), "really Latin-1");
    check_federation_read(&read_recovering(&latin1));
}

#[test]
fn analyse_reads_every_good_game_and_says_what_it_skipped() {
    let out = Command::new(BIN)
        .args(["analyse", "--depth", "1", "--tt-size", "1"])
        .arg(data_file())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    let name = data_file().display().to_string();
    assert!(
        stderr.contains(&format!("{name}: 10 games read (5 repaired), 2 skipped")),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("{name}: game 7, line 67: skipped:")),
        "{stderr}"
    );
    let numbers: BTreeSet<u64> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter_map(|v| v["game"].as_u64())
        .collect();
    assert_eq!(numbers, BTreeSet::from([1, 2, 3, 4, 5, 6, 8, 9, 11, 12]));
    // A file without faults: exit status 0.
    let good = "[Event \"x\"]\n1. 22-18 11-15 *\n";
    let dir = std::env::temp_dir().join(format!("damiera-pdn-recovery-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("good.pdn");
    std::fs::write(&path, good).unwrap();
    let out = Command::new(BIN)
        .args(["analyse", "--depth", "1", "--tt-size", "1"])
        .arg(&path)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("1 game read (0 repaired), 0 skipped"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

// ------------------------------------------------------------- property --

/// A legal game from the initial position: each ply takes the legal move `choice %
/// count`, until the side to move has none.
fn random_game(choices: &[usize], name: &str, result: &str) -> PdnGame {
    let mut pos = Position::start();
    let mut moves = Vec::new();
    for (ply, &choice) in choices.iter().enumerate() {
        let legal = legal_moves(&pos);
        if legal.is_empty() {
            break;
        }
        let mv = legal.as_slice()[choice % legal.len()];
        let slot = if ply % 2 == 0 {
            Slot::First
        } else {
            Slot::Second
        };
        moves.push(PdnMove::new(&path_text(&pos, mv), ply as u32 / 2 + 1, slot));
        pos = pos.play(mv);
    }
    let tags = [
        ("Event", format!("Torneo {name}")),
        ("White", format!("Bianco {name}")),
        ("Black", format!("Nero {name}")),
        ("Result", result.to_string()),
        ("GameType", "22".to_string()),
    ];
    PdnGame {
        tags: tags.map(|(n, v)| (n.to_string(), v)).to_vec(),
        comment: None,
        moves,
        result: (result != "*").then(|| result.to_string()),
    }
}

/// The faults a game is damaged by.
#[derive(Clone, Copy, Debug)]
enum Damage {
    None,
    DoubledQuote,
    BracesInComment,
    ResultSuffix,
    ShortCaptures,
    ItalianNames,
    Cut,
    StrayBrace(bool),
    DuplicatedQuote,
}

fn damage() -> impl Strategy<Value = Damage> {
    prop_oneof![
        Just(Damage::None),
        Just(Damage::DoubledQuote),
        Just(Damage::BracesInComment),
        Just(Damage::ResultSuffix),
        Just(Damage::ShortCaptures),
        Just(Damage::ItalianNames),
        Just(Damage::Cut),
        any::<bool>().prop_map(Damage::StrayBrace),
        Just(Damage::DuplicatedQuote),
    ]
}

/// The text of `game` damaged by `damage`, `at` (0..1) placing a cut or a stray brace.
fn damaged(game: &PdnGame, damage: Damage, at: f64) -> String {
    let text = write_pdn(std::slice::from_ref(game));
    let header_end = text.find("\n\n").map_or(0, |i| i + 2);
    // Before the final line end: a game's text ends with one, and a blank line parts
    // the games of a file.
    let place = |from: usize| {
        let spots: Vec<usize> = (from..text.len())
            .filter(|&i| text.is_char_boundary(i))
            .collect();
        spots[((spots.len() - 1) as f64 * at) as usize]
    };
    match damage {
        Damage::None => text,
        Damage::DoubledQuote => text.replacen("\"]\n", "\"\"]\n", 1),
        Damage::BracesInComment => {
            let result = game.result.as_deref().unwrap_or("*");
            let end = text.trim_end().len() - result.len();
            format!("{}{{nota {{PARI}} fine}} {}", &text[..end], &text[end..])
        }
        Damage::ResultSuffix if game.result.is_some() => format!("{}t\n", text.trim_end()),
        Damage::ResultSuffix => text,
        Damage::ShortCaptures => {
            let mut short = game.clone();
            for m in &mut short.moves {
                let squares: Vec<&str> = m.text.split('x').collect();
                if squares.len() > 2 {
                    m.text = format!("{}x{}", squares[0], squares[squares.len() - 1]);
                }
            }
            write_pdn(&[short])
        }
        Damage::ItalianNames => text
            .replace("[White ", "[Bianco ")
            .replace("[Black ", "[Nero ")
            .replace("[Result ", "[Risultato "),
        // A cut keeps at least the game's first character: a cut at 0 leaves no game
        // to read or to warn about.
        Damage::Cut => format!("{}\n\n", &text[..place(0).max(1)]),
        Damage::StrayBrace(open) => {
            let i = place(header_end);
            let brace = if open { "{" } else { "}" };
            format!("{}{brace}{}", &text[..i], &text[i..])
        }
        Damage::DuplicatedQuote => {
            let quotes: Vec<usize> = text[..header_end]
                .match_indices('"')
                .map(|(i, _)| i)
                .collect();
            let i = quotes[((quotes.len() - 1) as f64 * at) as usize];
            format!("{}\"{}", &text[..i], &text[i..])
        }
    }
}

fn sorted(game: &PdnGame) -> PdnGame {
    let mut g = game.clone();
    g.sort_tags();
    g
}

fn results() -> impl Strategy<Value = &'static str> {
    prop::sample::select(&["1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "*"][..])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn a_damaged_game_costs_at_most_itself(
        a in prop::collection::vec(any::<usize>(), 0..50),
        b in prop::collection::vec(any::<usize>(), 1..80),
        c in prop::collection::vec(any::<usize>(), 0..50),
        results in (results(), results(), results()),
        damage in damage(),
        at in 0.0..1.0f64,
    ) {
        let (a, b, c) = (
            random_game(&a, "A", results.0),
            random_game(&b, "B", results.1),
            random_game(&c, "C", results.2),
        );
        let text = format!("{}\n{}\n{}", write_pdn(std::slice::from_ref(&a)), damaged(&b, damage, at), write_pdn(std::slice::from_ref(&c)));
        let read = read_recovering(text.as_bytes());
        let lines = text.lines().count();
        for w in &read.warnings {
            prop_assert!((1..=lines).contains(&w.line), "{w}\n{text}");
            prop_assert!(w.fault.contains('`'), "names no token: {w}");
        }
        for g in &read.games {
            prop_assert_eq!(g.replay.moves().len(), g.pdn.moves.len());
        }
        // The games before and after are read, unharmed.
        let first = read.games.first().map(|g| (g.number, g.pdn.clone()));
        prop_assert_eq!(first, Some((1, sorted(&a))), "{}", text);
        let last = read.games.last().map(|g| &g.pdn);
        prop_assert_eq!(last, Some(&sorted(&c)), "{}", text);
        let last_number = read.games.last().map_or(0, |g| g.number);
        prop_assert!(warnings_of(&read, 1).is_empty() && warnings_of(&read, last_number).is_empty());
        // The damaged game: equal, repaired or skipped, and never silently changed.
        let middle: Vec<_> = read.games.iter().filter(|g| g.number > 1 && g.number < last_number).collect();
        let warned = read.warnings.iter().any(|w| w.game > 1 && w.game < last_number);
        let b = sorted(&b);
        let equal = middle.len() == 1 && middle[0].pdn == b;
        match damage {
            Damage::None => prop_assert!(equal && !warned && read.complete()),
            Damage::ItalianNames => {
                prop_assert_eq!(middle.len(), 1);
                let g = &middle[0].pdn;
                prop_assert!(!warned);
                prop_assert_eq!((g.tag("White"), g.tag("Black")), (b.tag("White"), b.tag("Black")));
                prop_assert_eq!(g.result_or_tag(), b.result_or_tag());
                prop_assert_eq!(&g.moves, &b.moves);
            }
            Damage::DoubledQuote => prop_assert!(equal && warned && read.complete(), "{}", text),
            Damage::ResultSuffix if b.result.is_none() => prop_assert!(equal && !warned),
            Damage::BracesInComment | Damage::ResultSuffix => {
                prop_assert!(warned && read.complete() && middle.len() == 1, "{}", text);
                let g = &middle[0].pdn;
                let texts = |g: &PdnGame| g.moves.iter().map(|m| m.text.clone()).collect::<Vec<_>>();
                prop_assert_eq!(texts(g), texts(&b));
                if matches!(damage, Damage::ResultSuffix) {
                    prop_assert_eq!(&g.result, &b.result);
                    prop_assert_eq!(g.tag("Termination"), Some("time forfeit"));
                }
            }
            Damage::ShortCaptures => {
                prop_assert!(read.complete() && middle.len() == 1, "{}", text);
                // Unambiguous short captures are the same moves; ambiguous ones warn.
                let moves = damiera::game::replay::replay_game(&b, 2).map(|g| g.moves().to_vec());
                prop_assert!(Ok(middle[0].replay.moves().to_vec()) == moves || warned, "{}", text);
            }
            Damage::Cut => {
                // Read as a prefix of its moves (the last maybe cut short), or skipped.
                for g in &middle {
                    let n = g.pdn.moves.len();
                    prop_assert!(n <= b.moves.len(), "{}", text);
                    let same = n.saturating_sub(1);
                    prop_assert_eq!(&g.pdn.moves[..same], &b.moves[..same]);
                }
                prop_assert!(!middle.is_empty() || warned, "{}", text);
            }
            Damage::StrayBrace(_) | Damage::DuplicatedQuote => {
                prop_assert!(equal || warned, "{}", text);
            }
        }
    }
}
