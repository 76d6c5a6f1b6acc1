//! Match runner tests: real games between fake Python Hub engines, engines that
//! fail in various ways, PDN replay errors, and bad command lines.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code: a failed unwrap fails the test

use std::path::PathBuf;
use std::process::Command;

use damiera::game::pdn::parse_pdn;
use damiera::game::replay::{replay_all, replay_game};

const BIN: &str = env!("CARGO_BIN_EXE_damiera");

fn fake(mode: &str, seed: u32) -> String {
    let script =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/fake_engines/fake_hub.py");
    format!(
        "cmd='python3 {} {BIN} {mode} {seed}' name={mode}{seed}",
        script.display()
    )
}

fn tmp_pdn(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    dir.join(format!("{name}-{}.pdn", std::process::id()))
}

/// Runs `damiera match` with two engines and extra args; returns (status, JSON, stderr).
fn run_match(a: &str, b: &str, extra: &[&str]) -> (i32, serde_json::Value, String) {
    let out = Command::new(BIN)
        .args(["match", "--engine", a, "--engine", b, "--json", "--quiet"])
        .args(extra)
        .output();
    let Ok(out) = out else {
        return (-1, serde_json::Value::Null, "cannot run".into());
    };
    let json = serde_json::from_slice(&out.stdout).unwrap_or(serde_json::Value::Null);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    (out.status.code().unwrap_or(-1), json, stderr)
}

fn read_games(path: &PathBuf) -> Vec<damiera::game::pdn::PdnGame> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    parse_pdn(&text).unwrap_or_default()
}

#[test]
fn random_movers_play_legal_games() {
    let pdn = tmp_pdn("random");
    let pdn_arg = pdn.display().to_string();
    let (code, json, err) = run_match(
        &fake("random", 1),
        &fake("random", 2),
        &[
            "--games",
            "4",
            "--tc",
            "5+0.1",
            "--concurrency",
            "2",
            "--pdn",
            &pdn_arg,
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(json["games"], 4, "{json}");
    let games = read_games(&pdn);
    assert_eq!(games.len(), 4);
    let replays = replay_all(&games).map_err(|e| e.to_string());
    assert!(replays.is_ok(), "{replays:?}");
    for (game, replay) in games.iter().zip(replays.unwrap_or_default()) {
        assert_eq!(game.tag("GameType"), Some("22"));
        let term = game.tag("Termination").unwrap_or("");
        let result = game.result.as_deref().unwrap_or("");
        assert_eq!(game.tag("Result"), Some(result));
        let verdict = replay.verdict();
        if verdict.is_over() {
            // The referee ended it by the rules: the record says the same.
            assert_eq!(result, verdict.result(), "{term}");
            assert_eq!(term, verdict.to_string());
        } else {
            assert_eq!(result, "1/2-1/2", "{term}");
        }
    }
    let _ = std::fs::remove_file(pdn);
}

/// Plays two games of `mode` (engine A) against a random mover and checks that A
/// lost both with a termination containing `reason`.
fn failing_engine_loses(mode: &str, reason: &str, extra: &[&str]) {
    let pdn = tmp_pdn(mode);
    let pdn_arg = pdn.display().to_string();
    let mut args = vec!["--games", "2", "--pdn", &pdn_arg];
    args.extend_from_slice(extra);
    let (code, json, err) = run_match(&fake(mode, 1), &fake("random", 2), &args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json["games"], 2, "{json}");
    assert_eq!(json["losses"], 2, "{json}");
    let games = read_games(&pdn);
    assert_eq!(games.len(), 2);
    for (i, game) in games.iter().enumerate() {
        let term = game.tag("Termination").unwrap_or("");
        assert!(
            term.contains(reason) && term.contains(&format!("{mode}1")),
            "{term}"
        );
        assert!(replay_game(game, i + 1).is_ok());
    }
    let _ = std::fs::remove_file(pdn);
}

#[test]
fn crashing_engine_loses_and_is_restarted() {
    failing_engine_loses("crash", "crash of", &["--tc", "2+0"]);
}

#[test]
fn hanging_engine_forfeits_on_time() {
    // Two seconds a move: the random mover's answers (a process start each) fit with
    // room to spare on a loaded machine; only the hanging engine runs out.
    failing_engine_loses("hang", "time forfeit", &["--movetime", "2"]);
}

#[test]
fn illegal_move_loses() {
    failing_engine_loses("illegal", "illegal move 1-2 by", &["--tc", "2+0"]);
}

#[test]
fn garbage_output_is_a_protocol_error() {
    failing_engine_loses("garbage", "protocol error by", &["--tc", "2+0"]);
}

#[test]
fn replay_names_the_first_illegal_move() {
    let text = "[Event \"a\"]\n1. 22-18 11-14 2. 18x11 7x14 1-0\n\n\
                [Event \"b\"]\n1. 22-18 11-14 2. 21-17 12-16 0-1\n";
    let games = parse_pdn(text).unwrap_or_default();
    let err = replay_all(&games)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(
        err.starts_with("game 2, move 2 (White): illegal move \"21-17\"; legal moves: 18x11"),
        "{err}"
    );
}

/// Runs `damiera match` with bad arguments: exit 2 and exactly one stderr line.
fn rejects(args: &[&str], needle: &str) {
    let out = Command::new(BIN).arg("match").args(args).output();
    let Ok(out) = out else {
        panic!("cannot run {BIN}");
    };
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(needle), "{err}");
}

#[test]
fn bad_command_lines_exit_2_with_one_line() {
    rejects(&["--engine", "cmd=x"], "exactly two engines");
    rejects(&[], "exactly two engines");
    rejects(&["--engine", "name=y", "--engine", "name=z"], "missing cmd");
    // Words after one --engine up to the next cmd= belong to the same engine.
    rejects(
        &["--engine", "cmd=x", "--engine", "name=y"],
        "exactly two engines",
    );
    rejects(
        &["--engine", "cmd=x", "bogus=1", "--engine", "cmd=y"],
        "unknown key",
    );
    rejects(
        &["--engine", "cmd=x", "--engine", "cmd=y", "--tc", "fast"],
        "--tc",
    );
    // Sizes and durations beyond what the runner can hold are refused, not a panic.
    for (flag, value) in [
        ("--tc", "1e300"),
        ("--tc", "10+1e300"),
        ("--movetime", "1e300"),
        ("--movetime", "inf"),
        ("--margin-ms", "18446744073709551615"),
        ("--adjudicate-score", "nan"),
    ] {
        let mut args = vec!["--engine", "cmd=x", "--engine", "cmd=y", flag, value];
        if flag == "--adjudicate-score" {
            args.extend(["--adjudicate-count", "3"]);
        }
        rejects(&args, flag);
    }
    let sprt = [
        "--engine", "cmd=x", "--engine", "cmd=y", "--sprt", "elo0=5", "elo1=0",
    ];
    rejects(&sprt, "--sprt");
    rejects(
        &["--engine", "cmd=x", "--engine", "cmd=y", "--sprt", "elo1=5"],
        "elo0",
    );
}

#[test]
fn engine_that_cannot_start_fails_fast() {
    let out = Command::new(BIN)
        .args([
            "match",
            "--engine",
            "cmd=/nonexistent/engine",
            "--engine",
            "cmd=/x/y",
        ])
        .output();
    let Ok(out) = out else {
        panic!("cannot run {BIN}");
    };
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot start"));
}

#[test]
fn sprt_stops_the_match_early() {
    let (code, json, err) = run_match(
        &fake("random", 1),
        &fake("illegal", 2),
        &[
            "--games", "200", "--tc", "2+0", "--sprt", "elo0=0", "elo1=50",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(json["sprt"]["result"], "H1", "{json}");
    let games = json["games"].as_u64().unwrap_or(0);
    assert!(games > 0 && games < 200, "{json}");
}

fn analyse(input: &str, name: &str, extra: &[&str]) -> Vec<serde_json::Value> {
    let path = std::env::temp_dir().join(format!("damiera-analyse-{}-{name}", std::process::id()));
    std::fs::write(&path, input).unwrap();
    let mut args = vec!["analyse", path.to_str().unwrap()];
    args.extend_from_slice(extra);
    // No endgame databases from the user's data directory: the test expects search results.
    let out = Command::new(env!("CARGO_BIN_EXE_damiera"))
        .args(&args)
        .env("XDG_DATA_HOME", "/nonexistent")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

#[test]
fn analyse_fen_lines_gives_json_lines() {
    let lines = analyse(
        "W:W21-32:B1-12\n# a comment\n\nW:W32:BK28\nW:WK22,K23:BK10\n",
        "fens",
        &["--depth", "8"],
    );
    assert_eq!(lines.len(), 3);
    assert_eq!(
        lines[0]["fen"],
        "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    );
    assert_eq!(lines[0]["depth"], 8);
    assert!(
        lines[0]["best"].is_string()
            && lines[0]["pv"].is_array()
            && lines[0]["nodes"].as_u64().unwrap() > 0
    );
    assert!(lines[1]["best"].is_null(), "no legal move: {}", lines[1]);
    assert!(
        lines[2]["score"].as_f64().unwrap() > 99.0,
        "a proven win: {}",
        lines[2]
    );
    assert!(lines[2]["win_in"].as_i64().unwrap() > 0);
}

#[test]
fn analyse_pdn_flags_blunders() {
    // Black's 10-14?? hangs a man to 19x10 (a free capture).
    let pdn = "[Event \"t\"]\n[FEN \"W:W19,30:B10,3\"]\n1. 30-26 10-14 2. 19x10 *\n";
    let lines = analyse(pdn, "game", &["--depth", "8", "--blunder", "0.5"]);
    assert_eq!(lines.len(), 3);
    for (i, l) in lines.iter().enumerate() {
        assert_eq!(
            (l["game"].as_u64(), l["ply"].as_u64()),
            (Some(1), Some(i as u64 + 1))
        );
        assert!(l["played"].is_string() && l["loss"].as_f64().unwrap() >= 0.0);
    }
    assert_eq!(lines[1]["played"], "10-14");
    assert_eq!(lines[1]["blunder"], true, "{}", lines[1]);
    assert_eq!(lines[2]["played"], "19x10");
}

#[test]
fn analyse_reports_bad_input_in_one_line() {
    let path = std::env::temp_dir().join(format!("damiera-analyse-{}-bad", std::process::id()));
    std::fs::write(&path, "W:W21-32:B1-12\nW:W33:B1\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_damiera"))
        .args(["analyse", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 2") && err.contains("33"), "{err}");
}
