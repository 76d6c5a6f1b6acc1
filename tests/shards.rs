//! Jobs for batch systems (`--shard K/N`): four self-play slices put one after the other
//! are byte for byte one run's file; four match slices merged give one run's totals
//! (fixed nodes, so the games are the same); a slice re-run alone replaces a lost one.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code: a failed unwrap fails the test

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_damiera");

fn damiera(args: &[&str]) -> Output {
    let out = Command::new(BIN).args(args).output().expect("run damiera");
    assert!(
        out.status.success(),
        "damiera {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("shards-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

fn text(p: &Path) -> String {
    p.display().to_string()
}

fn selfplay(out: &Path, shard: Option<&str>) {
    let mut args = vec![
        "selfplay", "--games", "10", "--nodes", "300", "--seed", "9", "--quiet",
    ];
    if let Some(s) = shard {
        args.extend(["--shard", s]);
    }
    let out = text(out);
    args.extend(["-o", &out]);
    damiera(&args);
}

#[test]
fn selfplay_slices_concatenate_to_one_run() {
    let dir = scratch("selfplay");
    let whole = dir.join("whole.bin");
    selfplay(&whole, None);
    let part = |k: usize| dir.join(format!("part-{k}.bin"));
    let mut joined = Vec::new();
    for k in 1..=4 {
        selfplay(&part(k), Some(&format!("{k}/4")));
        joined.extend(std::fs::read(part(k)).unwrap());
    }
    let whole_bytes = std::fs::read(&whole).unwrap();
    assert!(
        whole_bytes.len() > 16 + 20 * 100,
        "{} bytes",
        whole_bytes.len()
    );
    assert_eq!(joined, whole_bytes);
    assert!(!dir.join("whole.bin.partial").exists());

    // A lost slice, re-run alone, comes back byte for byte.
    let lost = std::fs::read(part(3)).unwrap();
    std::fs::remove_file(part(3)).unwrap();
    selfplay(&part(3), Some("3/4"));
    assert_eq!(std::fs::read(part(3)).unwrap(), lost);

    // `train` takes the slices in order as it takes the whole file.
    let train = |inputs: Vec<String>, out: &Path| {
        let mut args = vec!["train".to_string()];
        args.extend(inputs);
        let out = text(out);
        args.extend(["-o", &out, "--epochs", "1", "--validation", "0.3"].map(String::from));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        damiera(&args);
        std::fs::read(out).unwrap()
    };
    let parts = (1..=4).map(|k| text(&part(k))).collect();
    assert_eq!(
        train(parts, &dir.join("parts.dmw")),
        train(vec![text(&whole)], &dir.join("whole.dmw"))
    );
    // A later slice alone has no header: train says what to do.
    let out = Command::new(BIN)
        .args(["train", &text(&part(2)), "-o", &text(&dir.join("x.dmw"))])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("list slice 1/N"), "{err}");
}

/// `match` of the engine against itself with the hand-made evaluation, at fixed nodes,
/// without endgame databases; returns the JSON summary.
fn play(dir: &Path, extra: &[&str]) -> serde_json::Value {
    let empty = dir.join("no-egdb");
    std::fs::create_dir_all(&empty).unwrap();
    let engine = |name: &str, style: &str| {
        format!(
            "cmd={BIN} name={name} option.egdb-path={} option.style={style}",
            text(&empty)
        )
    };
    let mut args = vec![
        "match".to_string(),
        "--engine".into(),
        engine("learned", "full"),
        "--engine".into(),
        engine("hand-made", "hce"),
    ];
    args.extend(
        [
            "--games", "12", "--nodes", "400", "--seed", "4", "--quiet", "--json", "--sprt",
            "elo0=0", "elo1=20",
        ]
        .map(String::from),
    );
    args.extend(extra.iter().map(|s| s.to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    serde_json::from_slice(&damiera(&args).stdout).expect("JSON summary")
}

#[test]
fn match_slices_merge_to_one_runs_totals() {
    let dir = scratch("match");
    let whole = play(&dir, &["--concurrency", "2"]);
    assert_eq!(whole["games"], 12, "{whole}");
    let results = |k: usize| dir.join(format!("r{k}.json"));
    for k in 1..=4 {
        let r = text(&results(k));
        let slice = play(&dir, &["--shard", &format!("{k}/4"), "--results", &r]);
        assert_eq!(slice["games"], if k % 2 == 0 { 4 } else { 2 }, "{slice}");
    }
    let merge = |files: &[PathBuf]| {
        let mut args = vec!["match".to_string(), "merge".into(), "--json".into()];
        args.extend(files.iter().map(|f| text(f)));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        Command::new(BIN).args(&args).output().unwrap()
    };
    let all: Vec<PathBuf> = [4, 2, 1, 3].map(results).to_vec();
    let out = merge(&all);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let merged: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for key in [
        "games",
        "wins",
        "draws",
        "losses",
        "score",
        "elo",
        "elo_error",
        "los",
        "pentanomial",
        "sprt",
        "terminations",
        "engines",
    ] {
        assert_eq!(merged[key], whole[key], "{key}: {merged} vs {whole}");
    }
    assert!(whole["sprt"]["llr"].is_number(), "{whole}");

    // A lost slice: the merge refuses, the slice re-run alone gives the same file back.
    let lost = std::fs::read(results(2)).unwrap();
    std::fs::remove_file(results(2)).unwrap();
    let without: Vec<PathBuf> = [1, 3, 4].map(results).to_vec();
    let out = merge(&without);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("missing slices: 2/4"), "{err}");
    play(&dir, &["--shard", "2/4", "--results", &text(&results(2))]);
    assert_eq!(std::fs::read(results(2)).unwrap(), lost);
    let again: serde_json::Value = serde_json::from_slice(&merge(&all).stdout).unwrap();
    assert_eq!(again, merged);

    // Slices of another run do not merge.
    let other = dir.join("other.json");
    play(
        &dir,
        &[
            "--shard",
            "2/4",
            "--results",
            &text(&other),
            "--draw-moves",
            "30",
        ],
    );
    let out = merge(&[results(1), other, results(3), results(4)]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("not the same run") && err.contains("rules"),
        "{err}"
    );
}

#[test]
fn bad_shards_are_refused() {
    for args in [
        &["selfplay", "-o", "/tmp/x.bin", "--shard", "0/4"][..],
        &["selfplay", "-o", "/tmp/x.bin", "--shard", "5/4"],
        &[
            "match", "--engine", "cmd=x", "--engine", "cmd=y", "--shard", "1",
        ],
        &["match", "merge"],
        &["match", "merge", "/nonexistent/r.json"],
    ] {
        let out = Command::new(BIN).args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    }
}

/// A batch job writes into folders nobody made yet (`gen3/`, `results/`): the commands
/// make them, before any game, as a user expects of `-o gen3/part-00001.bin`.
#[test]
fn outputs_go_into_folders_not_yet_made() {
    let dir = scratch("new-folders");
    let part = dir.join("gen3/deeper/part-00001.bin");
    selfplay(&part, Some("1/4"));
    assert!(std::fs::metadata(&part).unwrap().len() > 16);

    let results = dir.join("results/deeper/r-1.json");
    let pdn = dir.join("games/deeper/slice-1.pdn");
    let slice = play(
        &dir,
        &[
            "--shard",
            "1/4",
            "--results",
            &text(&results),
            "--pdn",
            &text(&pdn),
        ],
    );
    assert_eq!(slice["games"], 2, "{slice}");
    assert!(
        std::fs::read_to_string(&results)
            .unwrap()
            .contains("\"games\"")
    );
    assert!(std::fs::read_to_string(&pdn).unwrap().contains("[Result"));
    assert!(!dir.join("results/deeper/r-1.json.partial").exists());

    let whole = dir.join("whole/new/whole.bin");
    selfplay(&whole, None);
    let weights = dir.join("weights/new/w.dmw");
    damiera(&[
        "train",
        &text(&whole),
        "-o",
        &text(&weights),
        "--epochs",
        "1",
        "--validation",
        "0.3",
    ]);
    assert!(weights.exists());
}

/// An output folder that cannot be made (under a regular file) fails at once, on one
/// line naming the path and the reason, before any game is played: a slice of a long
/// match used to play all its games and only then fail on its results file.
#[test]
fn an_impossible_output_folder_fails_before_any_game() {
    let dir = scratch("impossible-folder");
    let file = dir.join("a-file");
    std::fs::write(&file, "not a folder").unwrap();
    let one_line_error = |args: &[&str], code: i32| {
        let start = std::time::Instant::now();
        let out = Command::new(BIN).args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.contains(&text(&file)) && err.contains("is a file, not a folder"),
            "{args:?}: {err}"
        );
        assert!(
            start.elapsed().as_secs() < 20,
            "{args:?}: {:?}",
            start.elapsed()
        );
    };

    // The match's PDN, in a folder that can be made, is the witness: no game was played.
    let pdn = dir.join("games.pdn");
    let empty = dir.join("no-egdb");
    std::fs::create_dir_all(&empty).unwrap();
    let engine = format!("cmd={BIN} option.egdb-path={}", text(&empty));
    let results = text(&file.join("results/r-1.json"));
    let pdn_text = text(&pdn);
    let mut args = vec![
        "match", "--engine", &engine, "--engine", &engine, "--games", "12", "--nodes", "400",
        "--quiet", "--shard", "1/2",
    ];
    one_line_error(
        &[&args[..], &["--results", &results, "--pdn", &pdn_text]].concat(),
        1,
    );
    assert!(!pdn.exists(), "a game was played before the error");
    args.truncate(args.len() - 2);
    let bad_pdn = text(&file.join("g.pdn"));
    one_line_error(&[&args[..], &["--pdn", &bad_pdn]].concat(), 1);

    let bad_part = text(&file.join("gen3/part-00001.bin"));
    one_line_error(
        &[
            "selfplay", "--games", "100000", "--nodes", "3000", "--quiet", "--shard", "1/4", "-o",
            &bad_part,
        ],
        2,
    );
    // `train` fails before reading its data (which does not exist either).
    let bad_weights = text(&file.join("w.dmw"));
    one_line_error(
        &["train", &text(&dir.join("missing.bin")), "-o", &bad_weights],
        2,
    );
}
