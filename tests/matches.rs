//! Match runner tests: real games between fake Python Hub engines, engines that
//! fail in various ways, PDN replay errors, and bad command lines.

use std::path::PathBuf;
use std::process::Command;

use damiera::matchrun::pdn::parse_pdn;
use damiera::matchrun::replay::{replay_all, replay_game};

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

fn read_games(path: &PathBuf) -> Vec<damiera::matchrun::pdn::PdnGame> {
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
        match replay.loser_by_rules() {
            Some(loser) => {
                let expect = if format!("{loser:?}") == "White" {
                    "0-1"
                } else {
                    "1-0"
                };
                assert_eq!(result, expect, "{term}");
                assert!(term.ends_with("has no legal move"), "{term}");
            }
            None => assert_eq!(result, "1/2-1/2", "{term}"),
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
    failing_engine_loses("hang", "time forfeit", &["--movetime", "0.2"]);
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
    rejects(&["--engine", "cmd=x"], "exactly two --engine");
    rejects(&[], "exactly two --engine");
    rejects(&["--engine", "cmd=x", "--engine", "name=y"], "missing cmd");
    rejects(
        &["--engine", "cmd=x", "--engine", "cmd=y", "--tc", "fast"],
        "--tc",
    );
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
