//! The network evaluation: the engine's integers equal the trainer's own reference on
//! committed positions (`tests/data/nnue/`, written by `scripts/nnue/train.py`), a
//! network file reaches the search through `--eval-file`, and damaged, truncated or
//! foreign files are refused with a one-line error.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code: a failed unwrap fails the test

mod support;

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use damiera::board::{Position, Variant};
use damiera::search::eval::nnue::Network;
use damiera::search::eval::nnue_file::{self, FILE_LEN, NetworkError};
use damiera::search::eval::{EvalFile, EvalStyle, WeightsError, evaluate};

const NET: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/nnue/english-tiny.dmn"
);
const VECTORS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/nnue/english-tiny.txt"
);
/// A network of four heads (format version 2), with its vectors.
const HEADS_NET: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/nnue/english-tiny-heads.dmn"
);
const HEADS_VECTORS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/nnue/english-tiny-heads.txt"
);
/// A network of two heads with second dense layers (format version 3), with its vectors.
const SECOND_NET: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/nnue/english-tiny-second.dmn"
);
const SECOND_VECTORS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/nnue/english-tiny-second.txt"
);

fn damiera(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_damiera"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run damiera")
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("damiera-nnue-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// The position of a test vector: FID square sets (bit i = square i + 1), side, game.
fn position(white: u32, black: u32, kings: u32, side: &str, variant: Variant) -> Position {
    let list = |set: u32| -> String {
        (0..32)
            .filter(|i| set & (1 << i) != 0)
            .map(|i| {
                let king = if kings & (1 << i) != 0 { "K" } else { "" };
                format!("{king}{}", i + 1)
            })
            .collect::<Vec<_>>()
            .join(",")
    };
    let text = format!("{}:W{}:B{}", side.to_uppercase(), list(white), list(black));
    Position::parse(&text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .with_variant(variant)
}

/// The committed vectors: each position with the trainer's integer score.
fn vectors() -> Vec<(Position, i32)> {
    vectors_of(VECTORS)
}

/// The vectors of file `path`.
fn vectors_of(path: &str) -> Vec<(Position, i32)> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split_whitespace().collect();
            let hex = |s: &str| u32::from_str_radix(s, 16).unwrap();
            let variant: Variant = f[4].parse().unwrap();
            let pos = position(hex(f[0]), hex(f[1]), hex(f[2]), f[3], variant);
            (pos, f[5].parse().unwrap())
        })
        .collect()
}

#[test]
fn the_engine_computes_the_trainers_integers() {
    let net = nnue_file::parse(&std::fs::read(NET).unwrap()).unwrap();
    assert_eq!(net.variant, Variant::English);
    let loaded = EvalFile::load(NET).unwrap();
    let vectors = vectors();
    assert!(vectors.len() >= 50);
    assert!(vectors.iter().any(|(_, s)| *s < 0) && vectors.iter().any(|(_, s)| *s > 0));
    for (pos, expected) in vectors {
        assert_eq!(net.evaluate(&pos), expected, "{pos:?}");
        // Through the eval-file road: the pattern style evaluates with the network.
        assert_eq!(
            evaluate(&pos, EvalStyle::Pattern, loaded.weights()),
            expected
        );
    }
}

/// Checks that the engine gives the trainer's integer score to every vector of
/// `vectors`, both from the network of `path` and through the eval-file road, and that
/// every head scored some of them; returns the network.
fn scores_the_vectors_with_every_head(path: &str, vectors: &str) -> Network {
    let net = nnue_file::parse(&std::fs::read(path).unwrap()).unwrap();
    let loaded = EvalFile::load(path).unwrap();
    let mut used = vec![0; net.heads.len()];
    for (pos, expected) in vectors_of(vectors) {
        used[net.head_index(pos.occupied().count_ones())] += 1;
        assert_eq!(net.evaluate(&pos), expected, "{pos:?}");
        assert_eq!(
            evaluate(&pos, EvalStyle::Pattern, loaded.weights()),
            expected
        );
    }
    assert!(used.iter().all(|&n| n > 0), "heads used: {used:?}");
    net
}

#[test]
fn the_engine_computes_the_trainers_integers_with_four_heads() {
    let net = scores_the_vectors_with_every_head(HEADS_NET, HEADS_VECTORS);
    assert_eq!(net.heads.len(), 4);
    assert!(net.heads[0] != net.heads[3]);
}

#[test]
fn the_engine_computes_the_trainers_integers_with_second_layers() {
    assert_eq!(std::fs::read(SECOND_NET).unwrap()[8], 3, "format version");
    let net = scores_the_vectors_with_every_head(SECOND_NET, SECOND_VECTORS);
    assert_eq!(net.heads.len(), 2);
    assert!(net.has_second_layer());
}

#[test]
fn the_trained_network_scores_mirrored_positions_the_same() {
    let net = nnue_file::parse(&std::fs::read(NET).unwrap()).unwrap();
    let turn = |set: u32| set.reverse_bits();
    for (pos, _) in vectors() {
        let fid = |set: u64| -> u32 {
            (1..=32u8)
                .filter(|&n| damiera::board::Square::new(n).is_some_and(|sq| set & sq.mask() != 0))
                .fold(0, |acc, n| acc | 1 << (n - 1))
        };
        let (white, black) = (
            fid(pos.pieces(damiera::board::Color::White)),
            fid(pos.pieces(damiera::board::Color::Black)),
        );
        let kings = fid(pos.all_kings());
        let side = match pos.side_to_move() {
            damiera::board::Color::White => "b",
            damiera::board::Color::Black => "w",
        };
        // Colours swapped, board turned: Black's pieces become White's on square 33 - n.
        let mirrored = position(turn(black), turn(white), turn(kings), side, pos.variant());
        assert_eq!(net.evaluate(&pos), net.evaluate(&mirrored), "{pos:?}");
    }
}

#[test]
fn bench_and_analyse_search_with_a_network() {
    let out = damiera(&[
        "bench",
        "--variant",
        "english",
        "--depth",
        "6",
        "--eval-file",
        NET,
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let last = text.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("bench ") && last.contains(" nodes "),
        "{last}"
    );
    // A different evaluation, a different search.
    let pattern = damiera(&["bench", "--variant", "english", "--depth", "6"]);
    let pattern_text = String::from_utf8_lossy(&pattern.stdout);
    assert_ne!(pattern_text.lines().last(), Some(last));
    // An English network is refused for Italian by name.
    let out = damiera(&["bench", "--depth", "2", "--eval-file", NET]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("is for English checkers"), "{err}");
    let dir = scratch("analyse");
    let input = dir.join("positions.txt");
    std::fs::write(&input, "B:W21-32:B1-12\nW:W18,19,25,K1:B2,7,K30\n").unwrap();
    let out = damiera(&[
        "analyse",
        "--variant",
        "english",
        "--depth",
        "4",
        "--eval-file",
        NET,
        input.to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        text.lines().filter(|l| l.contains("\"score\"")).count(),
        2,
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn damaged_truncated_and_foreign_files_are_refused_in_one_line() {
    let dir = scratch("broken");
    let good = std::fs::read(NET).unwrap();
    let mut corrupt = good.clone();
    corrupt[FILE_LEN / 2] ^= 1;
    let mut version = good.clone();
    version[8] = 9;
    let cases: [(&str, Vec<u8>, WeightsError); 4] = [
        (
            "truncated",
            good[..good.len() - 100].to_vec(),
            WeightsError::Network(NetworkError::Size {
                expected: FILE_LEN,
                found: FILE_LEN - 100,
            }),
        ),
        (
            "corrupt",
            corrupt,
            WeightsError::Network(NetworkError::Checksum),
        ),
        (
            "version",
            version,
            WeightsError::Network(NetworkError::Version(9)),
        ),
        (
            "foreign",
            b"PK\x03\x04 a zip file".to_vec(),
            WeightsError::Magic,
        ),
    ];
    for (name, bytes, expected) in cases {
        let path = dir.join(format!("{name}.dmn"));
        std::fs::write(&path, bytes).unwrap();
        let path = path.to_str().unwrap();
        assert_eq!(EvalFile::load(path).unwrap_err(), expected, "{name}");
        let out = damiera(&[
            "bench",
            "--variant",
            "english",
            "--depth",
            "2",
            "--eval-file",
            path,
        ]);
        assert!(!out.status.success(), "{name}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{name}: {err}");
        assert!(err.contains(&expected.to_string()), "{name}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_match_loads_a_network_through_the_hub_parameter() {
    let dir = scratch("match");
    let results = dir.join("results.json");
    let broken = dir.join("broken.dmn");
    std::fs::write(&broken, &std::fs::read(NET).unwrap()[..1000]).unwrap();
    let bin = env!("CARGO_BIN_EXE_damiera");
    let play = |net: &str| {
        damiera(&[
            "match",
            "--variant",
            "english",
            "--nodes",
            "200",
            "--games",
            "2",
            "--openings",
            "builtin:3ply",
            "--seed",
            "3",
            "--engine",
            &format!("cmd={bin}"),
            "name=nnue",
            &format!("option.eval-file={net}"),
            "--engine",
            &format!("cmd={bin}"),
            "name=pattern",
            "--results",
            results.to_str().unwrap(),
        ])
    };
    let out = play(NET);
    // The summary goes to stderr, with the progress.
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{text}");
    assert!(text.contains("nnue vs pattern: 2 games"), "{text}");
    // A broken network: the engine refuses the parameter, and the match says why.
    let out = play(broken.to_str().unwrap());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("network file has the wrong size: 1000 bytes"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Whether `python3` runs (the relabel script needs only the standard library); when it
/// does not, `test` is reported as skipped ([`support::skip`]).
fn python3(test: &str) -> bool {
    let found = Command::new("python3").arg("--version").output();
    let runs = found.is_ok_and(|o| o.status.success());
    if !runs {
        support::skip(test, "no python3");
    }
    runs
}

#[test]
fn the_relabel_script_remakes_brazilians_and_pools_networks_and_refuses_what_is_no_network() {
    if !python3("the relabel script") {
        return;
    }
    let dir = scratch("relabel");
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let script = root.join("scripts/nnue/relabel.py");
    let eval = root.join("crates/engine/src/search/eval");
    let out = dir.join("relabelled.dmn");
    let run = |input: &std::path::Path, game: &str| {
        Command::new("python3")
            .arg(&script)
            .arg(input)
            .args([game, "-o"])
            .arg(&out)
            .output()
            .unwrap()
    };
    for (game, variant) in [("brazilian", Variant::Brazilian), ("pool", Variant::Pool)] {
        let made = run(&eval.join("russian.dmn"), game);
        assert!(made.status.success(), "{made:?}");
        let shipped = std::fs::read(eval.join(format!("{game}.dmn"))).unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), shipped, "{game}");
        let loaded = EvalFile::load(out.to_str().unwrap()).unwrap();
        let net = loaded.weights().network.as_deref().unwrap();
        assert_eq!(net.variant, variant);
    }
    let shipped = std::fs::read(eval.join("brazilian.dmn")).unwrap();

    let mut corrupt = shipped.clone();
    corrupt[100] ^= 1;
    let cases = [
        ("corrupt", corrupt, "checksum"),
        ("foreign", b"PK".to_vec(), "not a"),
    ];
    for (name, bytes, says) in cases {
        let input = dir.join(format!("{name}.dmn"));
        std::fs::write(&input, bytes).unwrap();
        let refused = run(&input, "brazilian");
        assert!(!refused.status.success(), "{name}");
        let err = String::from_utf8_lossy(&refused.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{name}: {err}");
        assert!(err.contains(says), "{name}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
