//! The learned evaluation through the binary: bad weights files (truncated, wrong
//! version, corrupt) are refused with a clear error while the engine keeps answering
//! with the embedded weights; `selfplay` and `train` refuse bad arguments and together
//! produce a weights file that the engine loads.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code: a failed unwrap fails the test

mod support;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Output, Stdio};
use std::sync::mpsc::Receiver;
use std::time::Duration;

const EMBEDDED: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/crates/engine/src/search/eval/default.dmw"
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
    let dir = std::env::temp_dir().join(format!("damiera-learned-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// The three broken variants of the embedded weights file, with a word of their error.
fn broken_files(dir: &std::path::Path) -> Vec<(PathBuf, &'static str)> {
    let good = std::fs::read(EMBEDDED).expect("embedded weights");
    let truncated = good[..good.len() / 2].to_vec();
    let mut version = good.clone();
    version[8] = 99;
    let mut corrupt = good.clone();
    let middle = good.len() / 2;
    corrupt[middle] ^= 0x01;
    let mut files = Vec::new();
    for (name, bytes, word) in [
        ("truncated.dmw", truncated, "size"),
        ("version.dmw", version, "version"),
        ("corrupt.dmw", corrupt, "corrupt"),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, bytes).expect("write test file");
        files.push((path, word));
    }
    files
}

struct Hub {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Hub {
    fn start() -> Hub {
        let (child, stdin, lines) = support::hub::spawn(support::hub::damiera_hub());
        Hub {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("write");
        self.stdin.flush().expect("flush");
    }

    /// Lines up to and including the first one starting with `end`.
    fn until(&mut self, end: &str) -> Vec<String> {
        let mut out = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(60))
                .expect("engine answers");
            let last = line.starts_with(end);
            out.push(line);
            if last {
                return out;
            }
        }
    }

    /// Searches the start position to depth 6 with an empty table; returns the `done` line.
    fn search(&mut self) -> String {
        self.send("new-game");
        self.send("pos start");
        self.send("level depth=6");
        self.send("go think");
        self.until("done").pop().unwrap_or_default()
    }
}

impl Drop for Hub {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}

#[test]
fn bad_weights_files_are_refused_and_the_engine_keeps_answering() {
    let dir = scratch("hub");
    let mut reference = Hub::start();
    reference.send("hub");
    reference.until("wait");
    reference.send("init");
    reference.until("ready");
    let expected = reference.search();

    let mut hub = Hub::start();
    hub.send("hub");
    hub.until("wait");
    for (path, word) in broken_files(&dir) {
        hub.send(&format!(
            "set-param name=eval-file value={}",
            path.display()
        ));
        hub.send("ping");
        let answer = hub.until("pong");
        assert_eq!(answer.len(), 2, "{answer:?}");
        assert!(
            answer[0].starts_with("error message=\"set-param: ") && answer[0].contains(word),
            "{answer:?}"
        );
    }
    hub.send("hub");
    let params = hub.until("wait");
    assert!(params.contains(&"param name=eval-file value=embedded type=string".to_string()));
    hub.send("init");
    hub.until("ready");
    // Same answer as an engine that never saw a bad file: the embedded weights are in use.
    assert_eq!(hub.search(), expected);

    // A good file loads and is named.
    let copy = dir.join("copy.dmw");
    std::fs::copy(EMBEDDED, &copy).expect("copy weights");
    hub.send(&format!(
        "set-param name=eval-file value={}",
        copy.display()
    ));
    hub.send("hub");
    let params = hub.until("wait");
    assert!(params.contains(&format!(
        "param name=eval-file value={} type=string",
        copy.display()
    )));
    assert_eq!(hub.search(), expected);
}

#[test]
fn bad_eval_file_flag_is_a_one_line_error() {
    let dir = scratch("flag");
    for (path, word) in broken_files(&dir) {
        let path = path.display().to_string();
        for cmd in [
            &["bench", "--depth", "1", "--eval-file", &path][..],
            &["analyse", "--depth", "1", "--eval-file", &path],
        ] {
            let out = damiera(cmd);
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{cmd:?}");
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(err.contains(word), "{err}");
        }
    }
}

#[test]
fn selfplay_and_train_refuse_bad_arguments() {
    let dir = scratch("args");
    let data = dir.join("d.bin").display().to_string();
    let truncated = dir.join("truncated.bin");
    std::fs::write(&truncated, b"DMRADATA\x01\x00\x00\x00\x14\x00\x00\x00abc").expect("write");
    let truncated = truncated.display().to_string();
    let weights = dir.join("w.dmw").display().to_string();
    // A folder that cannot be made: its parent is a file (missing folders are made).
    let under_file = format!("{truncated}/d.bin");
    // A folder without databases.
    let empty = dir.join("no-egdb");
    std::fs::create_dir_all(&empty).expect("mkdir");
    let empty = empty.display().to_string();
    for args in [
        &["selfplay"][..],
        &["selfplay", "-o", &data, "--games", "0"],
        &["selfplay", "-o", &data, "--nodes", "many"],
        &["selfplay", "-o", &data, "--concurrency", "0"],
        &["selfplay", "-o", &data, "--style", "fast"],
        &["selfplay", "-o", &data, "--contempt", "101"],
        &[
            "selfplay",
            "-o",
            &data,
            "--openings",
            "/nonexistent/openings.fen",
        ],
        &["selfplay", "-o", &under_file, "--games", "1"],
        &["selfplay", "-o", &data, "--egdb-path", "/nonexistent/egdb"],
        &["selfplay", "-o", &data, "--egdb-path", &empty],
        &["train", "-o", &weights],
        &["train", "/nonexistent/d.bin", "-o", &weights],
        &["train", &truncated, "-o", &weights],
        &["train", EMBEDDED, "-o", &weights],
        &["train", &data, "-o", &weights, "--lambda", "2"],
        &["train", &data, "-o", &weights, "--validation", "-0.1"],
        &["train", &data, "-o", &weights, "--learning-rate", "0"],
        &["train", &data, "-o", &weights, "--threads", "0"],
    ] {
        let out = damiera(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
    assert!(!PathBuf::from(&weights).exists());
}

#[test]
fn selfplay_then_train_gives_weights_the_engine_loads() {
    let dir = scratch("pipeline");
    let data = dir.join("d.bin").display().to_string();
    let weights = dir.join("w.dmw").display().to_string();
    let play = |seed: &str| {
        let out = damiera(&[
            "selfplay",
            "-o",
            &data,
            "--games",
            "6",
            "--nodes",
            "300",
            "--seed",
            seed,
            "--max-plies",
            "80",
            "--concurrency",
            "2",
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        std::fs::read(&data).expect("data written")
    };
    let first = play("3");
    assert!(first.len() > 16 && (first.len() - 16) % 20 == 0);
    assert_eq!(play("3"), first, "same seed, same data");
    let train = |_: ()| {
        let out = damiera(&[
            "train",
            &data,
            "-o",
            &weights,
            "--epochs",
            "2",
            "--validation",
            "0.3",
        ]);
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(text.contains("epoch   2"), "{text}");
        std::fs::read(&weights).expect("weights written")
    };
    let w = train(());
    assert_eq!(train(()), w, "training is deterministic");
    let out = damiera(&["bench", "--depth", "3", "--eval-file", &weights]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("bench "));
}

#[test]
fn each_variant_trains_its_own_weights_and_refuses_another_variants() {
    let dir = scratch("variant");
    let data = dir.join("ru.bin").display().to_string();
    let weights = dir.join("ru.dmw").display().to_string();
    let run = |args: &[&str]| {
        let out = damiera(args);
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let selfplay = [
        "selfplay",
        "-o",
        &data,
        "--variant",
        "russian",
        "--games",
        "6",
        "--nodes",
        "300",
        "--max-plies",
        "80",
        "--quiet",
    ];
    assert_eq!(run(&selfplay), (Some(0), String::new()));
    let train = [
        "train",
        &data,
        "-o",
        &weights,
        "--epochs",
        "1",
        "--validation",
        "0.3",
    ];
    assert_eq!(run(&train).0, Some(0));
    // The file is Russian: refused for an Italian or English game, taken for a Russian one.
    for args in [
        &["bench", "--depth", "2", "--eval-file", &weights][..],
        &[
            "selfplay",
            "-o",
            &data,
            "--games",
            "1",
            "--eval-file",
            &weights,
            "--variant",
            "english",
        ],
    ] {
        let (code, err) = run(args);
        assert_eq!(code, Some(2), "{args:?}");
        assert!(
            err.contains("is for Russian draughts (russian), not"),
            "{err}"
        );
    }
    let again = [
        "selfplay",
        "-o",
        &data,
        "--variant",
        "russian",
        "--games",
        "1",
        "--nodes",
        "100",
        "--eval-file",
        &weights,
        "--quiet",
    ];
    assert_eq!(run(&again).0, Some(0));
}
