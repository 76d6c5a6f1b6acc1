//! The 8x8 family through the front ends: for every game but Italian a short `damiera
//! match` between two Damiera engines, whose PDN carries the variant's GameType and which
//! Damiera's reader replays, and for English, Russian and Brazilian draughts pydraughts
//! too, move by move (`tests/python/replay_pdn.py`);
//! `analyse --variant` on that PDN; `play --variant` with a resignation.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code: a failed unwrap fails the test

mod support;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use damiera::board::{Position, Variant};
use damiera::game::pdn::parse_pdn;
use damiera::game::replay::replay_game;

const BIN: &str = env!("CARGO_BIN_EXE_damiera");

fn python() -> Option<PathBuf> {
    support::python("the pydraughts replay of variant matches")
}

fn tmp(name: &str, ext: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    dir.join(format!("{name}-{}.{ext}", std::process::id()))
}

/// Plays a two-game match of `variant` between two Damiera engines at depth 2, writing
/// its PDN; returns the file.
fn play_match(variant: Variant) -> PathBuf {
    let pdn = tmp(&format!("variant-match-{variant}"), "pdn");
    let engine = |name: &str| format!("cmd='{BIN} hub' name={name}");
    let out = Command::new(BIN)
        .args(["match", "--variant", variant.name(), "--quiet", "--json"])
        .args(["--engine", &engine("A"), "--engine", &engine("B")])
        .args(["--depth", "2", "--games", "2", "--max-moves", "80"])
        .arg("--pdn")
        .arg(&pdn)
        .output()
        .expect("run damiera match");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{variant} match failed: {stderr}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("match JSON");
    assert_eq!(json["games"], 2, "{json}");
    pdn
}

/// Checks that a match's PDN holds two real games of `variant` from its start, tagged
/// with its GameType, that Damiera's own reader replays move by move.
fn assert_two_games_replay(variant: Variant, pdn: &Path) {
    let text = std::fs::read_to_string(pdn).unwrap();
    let games = parse_pdn(&text).unwrap();
    assert_eq!(games.len(), 2, "{text}");
    for (i, game) in games.iter().enumerate() {
        let number = variant.game_type().to_string();
        assert_eq!(game.tag("GameType"), Some(number.as_str()), "{text}");
        let replay = replay_game(game, i + 1).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(replay.start(), Position::start_of(variant));
        assert!(replay.plies() >= 10, "{variant}: a real game: {text}");
    }
}

/// The games pydraughts knows: their matches are replayed by it too.
const PYDRAUGHTS_GAMES: [Variant; 3] = [Variant::English, Variant::Russian, Variant::Brazilian];

#[test]
fn the_other_games_play_a_match_whose_pdn_replays() {
    let newer = Variant::ALL
        .into_iter()
        .filter(|v| *v != Variant::Italian && !PYDRAUGHTS_GAMES.contains(v));
    let mut played = Vec::new();
    for variant in newer {
        assert_two_games_replay(variant, &play_match(variant));
        played.push(variant.name());
    }
    assert_eq!(played, ["pool", "czech", "spanish", "thai", "damka"]);
}

#[test]
fn each_variant_plays_a_match_whose_pdn_pydraughts_replays() {
    for variant in PYDRAUGHTS_GAMES {
        let pdn = play_match(variant);
        assert_two_games_replay(variant, &pdn);
        let Some(python) = python() else { continue };
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/replay_pdn.py");
        let out = Command::new(python)
            .arg(script)
            .arg(variant.name())
            .arg(&pdn)
            .output()
            .expect("run python");
        let said = String::from_utf8_lossy(&out.stdout);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success(),
            "pydraughts refused {variant}: {err}\n{}",
            pdn.display()
        );
        assert!(said.contains(&format!("{variant}: 2 games")), "{said}");
        assert!(!err.contains("GameType"), "{err}");
    }
}

#[test]
fn analyse_reads_a_variant_game_and_annotates_it_with_its_game_type() {
    // An English game without GameType, read with --variant english (as CheckerBoard's
    // files come), annotated with GameType 21.
    let input = tmp("english-untagged", "pdn");
    std::fs::write(&input, "[Event \"e\"]\n1. 11-15 23-19 2. 8-11 22-17 *\n").unwrap();
    let annotated = tmp("english-annotated", "pdn");
    let out = Command::new(BIN)
        .args([
            "analyse",
            "--variant",
            "english",
            "--depth",
            "2",
            "--annotate",
        ])
        .arg(&annotated)
        .arg(&input)
        .output()
        .expect("run damiera analyse");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines = String::from_utf8_lossy(&out.stdout).lines().count();
    assert_eq!(lines, 4, "one analysis a move");
    let text = std::fs::read_to_string(&annotated).unwrap();
    assert!(text.contains("[GameType \"21\"]"), "{text}");
    // Read as Italian (no --variant) the same file is refused: Black cannot open 11-15.
    let out = Command::new(BIN)
        .args(["analyse", "--depth", "1"])
        .arg(&input)
        .output()
        .expect("run damiera analyse");
    assert!(!out.status.success());
}

#[test]
fn play_a_russian_game_and_resign() {
    let mut child = Command::new(BIN)
        .args(["play", "--variant", "russian", "--depth", "2"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run damiera play");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(b"c3-d4\nresign\nquit\n").expect("write");
    drop(stdin);
    let out = child.wait_with_output().expect("wait");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("Russian draughts"), "{text}");
    assert!(
        text.contains("Last move: Black"),
        "the engine replied: {text}"
    );
    assert!(
        text.contains("Game over: White resigns, Black wins."),
        "{text}"
    );
}
