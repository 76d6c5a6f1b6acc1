//! The rules of English, Russian and Brazilian draughts against outside references: perft
//! suites (tests/data/perft.txt, published counts and pydraughts' counts; run in
//! tests/rules.rs) and
//! the legal move lists of pydraughts on thousands of positions per variant
//! (tests/python/variant_moves.py: random games, king endings, long captures).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code: a failed unwrap fails the test

mod support;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use damiera::board::{Position, Variant};
use damiera::movegen::{capture_paths, legal_moves};

#[test]
fn every_game_has_perft_suites() {
    // The suites themselves run in tests/rules.rs, every game's from one file.
    let suites = support::perft::suites();
    for v in Variant::ALL {
        assert!(
            suites.iter().any(|s| s.position.variant() == v),
            "no perft suite for {v}"
        );
    }
}

#[test]
fn start_positions_follow_each_federation() {
    let english = Position::start_of(Variant::English);
    assert_eq!(english.side_to_move(), damiera::board::Color::Black);
    let moves: BTreeSet<String> = legal_moves(&english)
        .iter()
        .map(|&m| damiera::movegen::path_text(&english, m))
        .collect();
    let expected = ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"];
    assert_eq!(moves, expected.iter().map(|s| s.to_string()).collect());
    let russian = Position::start_of(Variant::Russian);
    let moves: BTreeSet<String> = legal_moves(&russian)
        .iter()
        .map(|&m| damiera::movegen::path_text(&russian, m))
        .collect();
    let expected = [
        "a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4",
    ];
    assert_eq!(moves, expected.iter().map(|s| s.to_string()).collect());
}

/// A Russian man crowned during a capture goes on capturing as a king; a Brazilian one
/// goes on as a man and stays one.
#[test]
fn crowning_during_a_capture() {
    use damiera::board::Color::White;
    use damiera::movegen::path_text;
    // White man b6 takes c7 and lands on d8, its last row; Black's e7 is next to it.
    let fen = "W:Wb6:Bc7,e7";
    let russian = Position::parse_in(Variant::Russian, fen).unwrap();
    let mut texts: Vec<String> = legal_moves(&russian)
        .iter()
        .map(|&m| path_text(&russian, m))
        .collect();
    texts.sort();
    assert_eq!(texts, ["b6:d8:f6", "b6:d8:g5", "b6:d8:h4"]);
    for &m in legal_moves(&russian).iter() {
        assert_eq!(russian.play(m).kings(White).count_ones(), 1);
    }
    let brazilian = Position::parse_in(Variant::Brazilian, fen).unwrap();
    let moves = legal_moves(&brazilian);
    assert_eq!(moves.len(), 1);
    assert_eq!(path_text(&brazilian, moves[0]), "b6xd8xf6");
    assert_eq!(brazilian.play(moves[0]).kings(White), 0);
}

/// pydraughts' legal moves of one position: (from, to, captured squares, crowned) in the
/// variant's names.
type MoveKey = (String, String, Vec<String>, bool);

fn python() -> Option<PathBuf> {
    support::python("the pydraughts comparison of the variants' move lists")
}

fn our_moves(pos: &Position) -> BTreeSet<MoveKey> {
    let v = pos.variant();
    legal_moves(pos)
        .iter()
        .map(|&m| {
            let mut captured: Vec<String> =
                m.captured().iter().map(|&s| v.square_name(s)).collect();
            captured.sort();
            let crowned = pos.play(m).piece_at(m.to()).is_some_and(|p| p.king)
                && pos.piece_at(m.from()).is_some_and(|p| !p.king);
            (
                v.square_name(m.from()),
                v.square_name(m.to()),
                captured,
                crowned,
            )
        })
        .collect()
}

fn compare_with_pydraughts(variant: Variant, count: usize, seed: u64) {
    let Some(python) = python() else { return };
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/variant_moves.py");
    let out = Command::new(python)
        .arg(script)
        .args([variant.name(), &count.to_string(), &seed.to_string()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "variant_moves.py failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let mut positions = 0;
    let mut with_kings = 0;
    let mut long_captures = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let value: serde_json::Value = serde_json::from_str(line).unwrap();
        let fen = value["fen"].as_str().unwrap();
        let pos = Position::parse_in(variant, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let theirs: BTreeSet<MoveKey> = value["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                let names = |key: &str| -> Vec<String> {
                    m[key]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|s| s.as_str().unwrap().to_string())
                        .collect()
                };
                let path = names("path");
                let mut captured = names("captured");
                captured.sort();
                let crowned = m["crowned"].as_bool().unwrap();
                (
                    path[0].clone(),
                    path[path.len() - 1].clone(),
                    captured,
                    crowned,
                )
            })
            .collect();
        let ours = our_moves(&pos);
        assert_eq!(ours, theirs, "{variant} {fen}");
        // Every capture path pydraughts lists is one of ours for that move.
        for m in value["moves"].as_array().unwrap() {
            let path: Vec<_> = m["path"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|s| s.as_str().and_then(|s| variant.parse_square(s)))
                .collect();
            if m["captured"].as_array().is_some_and(|c| !c.is_empty()) {
                let found = legal_moves(&pos).iter().any(|&mv| {
                    mv.from() == path[0]
                        && mv.to() == path[path.len() - 1]
                        && capture_paths(&pos, mv).contains(&path)
                });
                assert!(found, "{variant} {fen}: path {:?} not ours", m["path"]);
            }
        }
        positions += 1;
        with_kings += usize::from(pos.all_kings() != 0);
        long_captures += usize::from(legal_moves(&pos).iter().any(|m| m.capture_count() >= 3));
    }
    assert!(positions >= count, "{variant}: only {positions} positions");
    assert!(
        with_kings * 5 >= positions,
        "{variant}: {with_kings} with kings"
    );
    assert!(
        long_captures >= 20,
        "{variant}: {long_captures} long captures"
    );
}

#[test]
fn english_moves_equal_pydraughts() {
    compare_with_pydraughts(Variant::English, 2000, 1);
}

#[test]
fn russian_moves_equal_pydraughts() {
    compare_with_pydraughts(Variant::Russian, 2000, 2);
}

#[test]
fn brazilian_moves_equal_pydraughts() {
    compare_with_pydraughts(Variant::Brazilian, 2000, 3);
}
