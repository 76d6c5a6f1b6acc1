//! The released `damiera.exe` (from `dist/damiera-windows-x86_64.zip`, made by
//! `scripts/windows-release.sh`) under wine: perft, a match against the Linux build
//! over the Hub protocol, and endgame database files byte-identical to Linux's.
//! Fails under CI (`CI` set, and not empty, `0` or `false`: tests/support/mod.rs) when
//! the release or the tools are missing; elsewhere it says loudly that it skipped.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code: a failed unwrap fails the test

mod support;
#[path = "../cb/tests/wine_env/mod.rs"]
mod wine_env;

use std::path::Path;
use std::process::Command;

use wine_env::{WineDist, win_path};

/// The unpacked release for test `name`, or `None` after [`support::skip`] said why not.
fn dist(name: &str) -> Option<WineDist> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    WineDist::setup(root, name, Path::new(env!("CARGO_TARGET_TMPDIR")))
        .map_err(|why| support::skip(name, &why))
        .ok()
}

fn run_ok(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?}: {}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn exe_perft_9_under_wine() {
    let Some(dist) = dist("perft") else { return };
    let out = run_ok(dist.command("damiera.exe").args(["perft", "9"]));
    let last = out.lines().last().unwrap_or("");
    assert!(last.starts_with("total 3860875 "), "{out}");
    eprintln!("wine: damiera.exe perft 9: {last}");
}

#[test]
fn linux_match_against_exe_hub_under_wine_has_no_fault() {
    let Some(dist) = dist("match") else { return };
    let exe = dist.dir.join("damiera.exe");
    // Separate words after --engine; the command line itself groups with quotes.
    let windows = format!("cmd='{}' '{}' hub", dist.wine().display(), exe.display());
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_damiera"));
    cmd.args(["match", "--engine"])
        .arg(format!("cmd={}", env!("CARGO_BIN_EXE_damiera")))
        .args(["name=linux", "option.tt-size=16", "--engine"])
        .arg(&windows)
        .args(["name=windows", "option.tt-size=16"])
        .args([
            "--games",
            "4",
            "--tc",
            "4+0.04",
            "--margin-ms",
            "1000",
            "--json",
        ]);
    dist.wine_env(&mut cmd);
    let out = run_ok(&mut cmd);
    let summary: serde_json::Value =
        serde_json::from_str(out.lines().last().unwrap_or("")).expect("a JSON summary");
    assert_eq!(summary["games"], 4, "{out}");
    let endings = summary["terminations"].as_object().expect("terminations");
    // The runner's fault endings (matchrun/game.rs); every other ending is by the rules.
    const FAULTS: [&str; 4] = ["time forfeit", "crash of", "protocol error", "illegal move"];
    for reason in endings.keys() {
        let fault = FAULTS.iter().any(|f| reason.starts_with(f));
        assert!(!fault, "a game ended by a fault: {reason} ({out})");
    }
    eprintln!(
        "wine: match linux vs windows: {}",
        out.lines().last().unwrap_or("")
    );
}

#[test]
fn exe_builds_and_reads_the_same_database_files() {
    let Some(dist) = dist("egdb") else { return };
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let linux_dir = scratch.join("egdb-linux");
    let windows_dir = dist.dir.join("egdb");
    let _ = std::fs::remove_dir_all(&linux_dir);
    run_ok(
        Command::new(env!("CARGO_BIN_EXE_damiera"))
            .args(["egdb", "build", "--pieces", "4", "--dir"])
            .arg(&linux_dir),
    );
    run_ok(dist.command("damiera.exe").args([
        "egdb",
        "build",
        "--pieces",
        "4",
        "--dir",
        &win_path(&windows_dir),
    ]));
    let mut names: Vec<String> = std::fs::read_dir(&linux_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names.len(), 41, "{names:?}");
    for name in &names {
        let a = std::fs::read(linux_dir.join(name)).unwrap();
        let b = std::fs::read(windows_dir.join(name)).unwrap_or_default();
        assert!(a == b, "{name} differs between Linux and Windows");
    }
    // Windows reads Linux's files (positioned reads) and finds them sound.
    let out = run_ok(dist.command("damiera.exe").args([
        "egdb",
        "verify",
        "--dir",
        &win_path(&linux_dir),
    ]));
    assert!(
        out.contains("41 classes of italian sound, 0 problems"),
        "{out}"
    );
    let probe = run_ok(dist.command("damiera.exe").args([
        "egdb",
        "probe",
        "--dir",
        &win_path(&linux_dir),
        "W:WK29,K30:BK4",
    ]));
    assert!(probe.trim().starts_with("win"), "{probe}");
}

#[test]
fn exe_match_spawns_engines_by_windows_command_lines() {
    let Some(dist) = dist("winmatch") else { return };
    // An engine in a folder whose name has a blank and an apostrophe.
    let odd = dist.dir.join("O'Brien engines");
    std::fs::create_dir_all(&odd).unwrap();
    std::fs::copy(dist.dir.join("damiera.exe"), odd.join("damiera.exe")).unwrap();
    std::fs::copy(
        dist.dir.join("bcryptprimitives.dll"),
        odd.join("bcryptprimitives.dll"),
    )
    .unwrap();
    let engine = format!("cmd=\"{}\" hub", win_path(&odd.join("damiera.exe")));
    let out = run_ok(dist.command("damiera.exe").args([
        "match",
        "--engine",
        "cmd=damiera.exe",
        "name=plain",
        "option.tt-size=8",
        "--engine",
        &engine,
        "name=obrien",
        "option.tt-size=8",
        "--games",
        "2",
        "--nodes",
        "2000",
        "--json",
    ]));
    let summary: serde_json::Value =
        serde_json::from_str(out.lines().last().unwrap_or("")).expect("a JSON summary");
    assert_eq!(summary["games"], 2, "{out}");
    let endings = summary["terminations"].as_object().expect("terminations");
    assert!(
        endings
            .keys()
            .all(|r| !r.contains("crash") && !r.contains("forfeit") && !r.contains("error")),
        "{out}"
    );
}

/// GET `path` from the board server; the body.
fn http_get(port: u16, path: &str) -> Option<String> {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).ok()?;
    s.set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .ok()?;
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
    )
    .ok()?;
    let mut text = String::new();
    s.read_to_string(&mut text).ok()?;
    text.split_once("\r\n\r\n")
        .map(|(_, body)| body.to_string())
}

#[test]
fn exe_gui_serves_the_board_and_starts_its_engine() {
    use std::io::BufRead;
    let Some(dist) = dist("gui") else { return };
    let mut child = dist
        .command("damiera.exe")
        .args(["gui", "--no-open"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut first = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let port: u16 = first
        .trim()
        .rsplit(':')
        .next()
        .and_then(|p| p.trim_end_matches('/').parse().ok())
        .unwrap_or_else(|| panic!("no address in {first:?}"));
    let page = http_get(port, "/").unwrap_or_default();
    let mut status = String::new();
    for _ in 0..300 {
        let state = http_get(port, "/api/state").unwrap_or_default();
        let json: serde_json::Value = serde_json::from_str(&state).unwrap_or_default();
        status = json["engine"]["status"].as_str().unwrap_or("").to_string();
        if status == "ready" || status == "dead" {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        page.contains("<html") || page.contains("<!DOCTYPE"),
        "{page:.200}"
    );
    assert_eq!(
        status, "ready",
        "the board's engine (damiera.exe hub) did not start"
    );
}

#[test]
fn exe_writes_the_same_training_data_and_weights() {
    let Some(dist) = dist("weights") else { return };
    let linux = |args: &[&str]| {
        run_ok(
            Command::new(env!("CARGO_BIN_EXE_damiera"))
                .args(args)
                .current_dir(&dist.dir),
        )
    };
    let windows = |args: &[&str]| run_ok(dist.command("damiera.exe").args(args));
    let play = ["--games", "60", "--nodes", "300", "--seed", "4"];
    linux(&[&["selfplay", "-o", "linux.bin"][..], &play].concat());
    windows(&[&["selfplay", "-o", "windows.bin"][..], &play].concat());
    let read = |name: &str| std::fs::read(dist.dir.join(name)).unwrap();
    assert!(
        read("linux.bin") == read("windows.bin"),
        "self-play data differ"
    );
    linux(&["train", "linux.bin", "-o", "linux.dmw", "--epochs", "3"]);
    let log = windows(&["train", "linux.bin", "-o", "windows.dmw", "--epochs", "3"]);
    assert!(
        read("linux.dmw") == read("windows.dmw"),
        "weights differ: {log}"
    );
}
