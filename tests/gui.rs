//! The web board's HTTP API, end to end: `damiera gui --no-open` on a free port, spoken
//! to over plain TCP (no client crate), with the real engine process behind it; the
//! server's bounds (503 beyond the worker pool and the stream limit) in process; the
//! LAN token over a network namespace; the JSON API as a pure function under
//! proptest. Also runs the browser test (tests/browser/test_board.py).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code: a failed unwrap fails the test

mod support;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use damiera::gui::api::json_api;
use damiera::gui::state::App;
use damiera::gui::{Config, Server};
use damiera::protocol::client::EngineSpec;
use damiera::protocol::response::{Param, ParamType};
use proptest::prelude::*;
use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_damiera");

/// A running `damiera gui`; killed on drop.
struct Gui {
    child: Child,
    /// `127.0.0.1:PORT`
    host: String,
}

impl Drop for Gui {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn minimal_engine() -> String {
    let script =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fake_engines/minimal_hub.py");
    format!("python3 '{}'", script.display())
}

/// Starts the server on a free port and reads its address from the first line.
fn start(extra: &[&str]) -> Gui {
    let (child, url) = spawn_gui(Command::new(BIN).args(["gui", "--no-open"]).args(extra));
    let host = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string();
    assert!(host.starts_with("127.0.0.1:"), "unexpected URL {url:?}");
    let gui = Gui { child, host };
    wait_for(&gui, "the engine to start", |s| {
        s["engine"]["status"] == "ready"
    });
    gui
}

/// Spawns `command` (a `damiera gui`) and reads the URL from its first line.
fn spawn_gui(command: &mut Command) -> (Child, String) {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start damiera gui");
    let stdout = child.stdout.take().expect("stdout");
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .expect("first line");
    let url = line.split_whitespace().last().unwrap_or("").to_string();
    (child, url)
}

/// One request with optional extra headers; returns status and body.
fn request(
    gui: &Gui,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> (u16, String) {
    request_at(&gui.host, method, path, headers, body)
}

/// One request to `host` (`ip:port`, also the Host header unless one is given).
fn request_at(
    host: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> (u16, String) {
    let mut stream = TcpStream::connect(host).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .expect("timeout");
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("Host")) {
        head.push_str(&format!("Host: {host}\r\n"));
    }
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(body);
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    let text = String::from_utf8_lossy(&raw).to_string();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status line in {text:?}"));
    let body = text
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_string();
    (status, body)
}

fn get_json(gui: &Gui, path: &str) -> Value {
    let (status, body) = request(gui, "GET", path, &[], b"");
    assert_eq!(status, 200, "{path}: {body}");
    serde_json::from_str(&body).expect("JSON")
}

fn post(gui: &Gui, path: &str, body: Value) -> (u16, Value) {
    let (status, text) = request(
        gui,
        "POST",
        path,
        &[("Content-Type", "application/json")],
        body.to_string().as_bytes(),
    );
    (
        status,
        serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON: {text:?}")),
    )
}

fn post_ok(gui: &Gui, path: &str, body: Value) -> Value {
    let (status, answer) = post(gui, path, body);
    assert_eq!(status, 200, "{path}: {answer}");
    answer["state"].clone()
}

fn wait_for(gui: &Gui, what: &str, done: impl Fn(&Value) -> bool) -> Value {
    let until = Instant::now() + Duration::from_secs(30);
    loop {
        let state = get_json(gui, "/api/state");
        if done(&state) {
            return state;
        }
        assert!(
            Instant::now() < until,
            "timed out waiting for {what}: {state}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn legal(state: &Value) -> Vec<String> {
    let mut v: Vec<String> = state["legal"]
        .as_array()
        .expect("legal")
        .iter()
        .map(|m| m["text"].as_str().unwrap_or("").to_string())
        .collect();
    v.sort();
    v
}

fn error_of(answer: &Value) -> String {
    answer["error"].as_str().unwrap_or("").to_string()
}

#[test]
fn page_and_state() {
    let gui = start(&[]);
    let (status, page) = request(&gui, "GET", "/", &[], b"");
    assert_eq!(status, 200);
    assert!(
        page.contains("id=\"moves\"") && page.contains("id=\"analysis\""),
        "{page}"
    );
    let (status, js) = request(&gui, "GET", "/app.js", &[], b"");
    assert_eq!(status, 200);
    assert!(js.contains("data-square"));
    let state = get_json(&gui, "/api/state");
    assert_eq!(state["board"], "bbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");
    let start = [
        "21-17", "21-18", "22-18", "22-19", "23-19", "23-20", "24-20",
    ];
    assert_eq!(legal(&state), start);
    let (status, _) = request(&gui, "GET", "/etc/passwd", &[], b"");
    assert_eq!(status, 404);
    let (status, _) = request(&gui, "GET", "/../Cargo.toml", &[], b"");
    assert_eq!(status, 404);
}

#[test]
fn a_move_gets_the_engine_reply() {
    let gui = start(&[]);
    post_ok(
        &gui,
        "/api/settings",
        json!({"movetime": 0.1, "engine_side": "black"}),
    );
    let state = post_ok(&gui, "/api/move", json!({"move": "22-18"}));
    assert_eq!(state["moves"][0]["text"], "22-18");
    let state = wait_for(&gui, "the engine's reply", |s| s["plies"] == 2);
    assert_eq!(state["turn"], "white");
    assert!(!legal(&state).is_empty());
    // Take back returns to White's turn at the start.
    let state = post_ok(&gui, "/api/takeback", json!({}));
    assert_eq!(state["plies"], 0);
}

#[test]
fn bad_requests_get_clear_json_errors() {
    let gui = start(&[]);
    post_ok(&gui, "/api/settings", json!({"engine_side": "none"}));
    let (status, answer) = post(&gui, "/api/move", json!({"move": "22-17"}));
    assert_eq!(status, 400);
    assert!(error_of(&answer).contains("illegal move"), "{answer}");
    let (status, answer) = post(&gui, "/api/move", json!({"move": "hello"}));
    assert_eq!(status, 400);
    assert!(error_of(&answer).contains("bad move"), "{answer}");
    let (status, answer) = post(&gui, "/api/position", json!({"fen": "W:W33:B1"}));
    assert_eq!(status, 400);
    assert!(error_of(&answer).starts_with("bad position"), "{answer}");
    let (status, answer) = post(&gui, "/api/position", json!({}));
    assert_eq!(
        (status, error_of(&answer).as_str()),
        (400, "missing field \"fen\"")
    );
    let (status, answer) = post(&gui, "/api/settings", json!({"movetime": -1}));
    assert_eq!(status, 400, "{answer}");
    let (status, answer) = post(&gui, "/api/pdn", json!({"pdn": "1. 22-17 *"}));
    assert_eq!(status, 400, "{answer}");
    let (status, text) = request(&gui, "POST", "/api/move", &[], b"{not json");
    assert_eq!(status, 400);
    assert!(text.contains("bad JSON"), "{text}");
    let big = vec![b' '; 300 * 1024];
    let (status, text) = request(&gui, "POST", "/api/pdn", &[], &big);
    assert_eq!(status, 413, "{text}");
    let (status, _) = request(&gui, "DELETE", "/api/state", &[], b"");
    assert_eq!(status, 405);
    // Nothing changed and the server still answers.
    let state = post_ok(&gui, "/api/position", json!({"fen": "W:W19:B14,6"}));
    assert_eq!(legal(&state), ["19x10x3"]);
    assert_eq!(state["legal"][0]["paths"], json!([[19, 10, 3]]));
    let state = post_ok(&gui, "/api/move", json!({"move": "19x10x3"}));
    assert_eq!(state["result"]["result"], "1-0", "{state}");
}

/// POSTs a PDN file's raw bytes, as the page does; returns status and JSON answer.
fn post_pdn_file(gui: &Gui, query: &str, bytes: &[u8]) -> (u16, Value) {
    let path = format!("/api/pdn-file{query}");
    let headers = [("Content-Type", "application/octet-stream")];
    let (status, text) = request(gui, "POST", &path, &headers, bytes);
    let answer = serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON: {text:?}"));
    (status, answer)
}

#[test]
fn pdn_files_load_with_a_choice_of_games() {
    let gui = start(&[]);
    post_ok(&gui, "/api/settings", json!({"engine_side": "none"}));
    // Latin-1 bytes, CRLF, a byte-order mark-free file from an older program.
    let latin1 = b"[Event \"Citt\xe0\"]\r\n[GameType \"22\"]\r\n\r\n1. 22-18 {pi\xf9} 11-14 *\r\n";
    let (status, answer) = post_pdn_file(&gui, "", latin1);
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["state"]["plies"], 2, "{answer}");
    // A UTF-8 file with a byte-order mark.
    let bom = "\u{FEFF}[White \"Città\"]\n\n1. 21-17 *\n";
    let (status, answer) = post_pdn_file(&gui, "", bom.as_bytes());
    assert_eq!(
        (status, answer["state"]["moves"][0]["text"].as_str()),
        (200, Some("21-17"))
    );
    // Three games: the board stays, the answer lists them; then game 2 is loaded.
    let three = "[White \"Uno\"]\n\n1. 22-18 *\n\n[White \"Due\"]\n\n1. 22-19 11-15 *\n\n\
                 [White \"Tre\"]\n\n1. 23-19 *\n";
    let (status, answer) = post_pdn_file(&gui, "", three.as_bytes());
    assert_eq!(status, 200, "{answer}");
    let choose: Vec<&str> = answer["choose"]
        .as_array()
        .expect("a list to choose from")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(choose.len(), 3, "{answer}");
    assert!(choose[1].starts_with("2. Due - ?"), "{choose:?}");
    assert_eq!(
        answer["state"]["moves"][0]["text"], "21-17",
        "the board stays"
    );
    let (status, answer) = post_pdn_file(&gui, "?game=2", three.as_bytes());
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["state"]["moves"][1]["text"], "11-15", "{answer}");
    let (status, answer) = post_pdn_file(&gui, "?game=4", three.as_bytes());
    assert_eq!(
        (status, error_of(&answer).as_str()),
        (400, "no game 4: the PDN file holds 3")
    );
    let (status, answer) = post_pdn_file(&gui, "?game=x", three.as_bytes());
    assert_eq!(status, 400, "{answer}");
    // The JSON route takes a game number too.
    let state = post_ok(&gui, "/api/pdn", json!({"pdn": three, "game": 3}));
    assert_eq!(state["moves"][0]["text"], "23-19");
    // Another variant than the board's: the file's GameType picks it, the board follows.
    let english = b"[GameType \"21\"]\n\n1. 11-15 *\n";
    let (status, answer) = post_pdn_file(&gui, "", english);
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["state"]["variant"], "english");
    assert_eq!(answer["state"]["moves"][0]["text"], "11-15");
    post_ok(&gui, "/api/new", json!({"variant": "italian"}));
    // A game type Damiera does not play: skipped by name.
    let international = b"[GameType \"20\"]\n\n1. 32-28 *\n";
    let (status, answer) = post_pdn_file(&gui, "", international);
    assert_eq!(status, 400);
    assert!(
        error_of(&answer)
            .contains("GameType 20 is international draughts, which Damiera does not play"),
        "{answer}"
    );
    let state = get_json(&gui, "/api/state");
    assert_eq!(
        (state["variant"].as_str(), state["plies"].as_u64()),
        (Some("italian"), Some(0)),
        "unchanged"
    );
}

#[test]
fn foreign_host_and_origin_are_refused() {
    let gui = start(&[]);
    let (status, text) = request(
        &gui,
        "POST",
        "/api/new",
        &[("Origin", "http://evil.example")],
        b"{}",
    );
    assert_eq!(status, 403);
    assert!(text.contains("Origin"), "{text}");
    let (status, _) = request(&gui, "GET", "/api/state", &[("Host", "evil.example")], b"");
    assert_eq!(status, 403, "DNS rebinding: a foreign Host is refused");
    let (status, _) = request(&gui, "GET", "/api/events", &[("Origin", "null")], b"");
    assert_eq!(status, 403);
    let own = format!("http://{}", gui.host);
    let (status, _) = request(&gui, "POST", "/api/new", &[("Origin", own.as_str())], b"{}");
    assert_eq!(status, 200, "the page's own Origin is fine");
    let localhost = gui.host.replace("127.0.0.1", "localhost");
    let (status, _) = request(
        &gui,
        "GET",
        "/api/state",
        &[("Host", localhost.as_str())],
        b"",
    );
    assert_eq!(status, 200);
}

#[test]
fn engine_restart_after_it_is_killed() {
    let gui = start(&[]);
    let pid = get_json(&gui, "/api/state")["engine"]["pid"]
        .as_u64()
        .expect("pid");
    let killed = Command::new("kill")
        .arg("-9")
        .arg(pid.to_string())
        .status()
        .expect("kill");
    assert!(killed.success());
    let state = wait_for(&gui, "the engine to be reported dead", |s| {
        s["engine"]["status"] == "dead"
    });
    assert!(
        state["engine"]["reason"]
            .as_str()
            .unwrap_or("")
            .contains("exited"),
        "{state}"
    );
    post_ok(&gui, "/api/engine/restart", json!({}));
    let state = wait_for(&gui, "the engine to restart", |s| {
        s["engine"]["status"] == "ready"
    });
    assert_ne!(state["engine"]["pid"].as_u64(), Some(pid));
    // And it plays.
    post_ok(
        &gui,
        "/api/settings",
        json!({"movetime": 0.1, "engine_side": "white"}),
    );
    wait_for(&gui, "the restarted engine's move", |s| s["plies"] == 1);
}

#[test]
fn analysis_lines_arrive_and_stop() {
    let gui = start(&["--engine", &minimal_engine()]);
    assert_eq!(get_json(&gui, "/api/state")["engine"]["name"], "Minimal");
    post_ok(&gui, "/api/analysis", json!({"run": true}));
    wait_for(&gui, "the analysis to start", |s| {
        s["engine"]["busy"] == true
    });
    // The event stream carries the analysis lines.
    let mut stream = TcpStream::connect(&gui.host).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .expect("timeout");
    let head = format!("GET /api/events HTTP/1.1\r\nHost: {}\r\n\r\n", gui.host);
    stream.write_all(head.as_bytes()).expect("write");
    let mut reader = BufReader::new(stream);
    let mut seen = String::new();
    // An analysis event with a line (the state's explorer has depths of its own).
    let has_line = |seen: &str| {
        seen.split("\n\n")
            .any(|event| event.starts_with("event: analysis") && event.contains("\"depth\":"))
    };
    while !has_line(&seen) {
        let mut line = String::new();
        assert!(
            reader.read_line(&mut line).expect("read event") > 0,
            "stream closed: {seen}"
        );
        seen.push_str(&line);
    }
    assert!(seen.contains("event: analysis"), "{seen}");
    let state = post_ok(&gui, "/api/analysis", json!({"run": false}));
    assert_eq!(state["settings"]["analysing"], false);
    wait_for(&gui, "the search to stop", |s| s["engine"]["busy"] == false);
    // When the last page closes its stream, the analysis stops too.
    post_ok(&gui, "/api/analysis", json!({"run": true}));
    wait_for(&gui, "the analysis to start again", |s| {
        s["engine"]["busy"] == true
    });
    drop(reader);
    wait_for(&gui, "the analysis to stop with the last page", |s| {
        s["settings"]["analysing"] == false && s["engine"]["busy"] == false
    });
}

#[test]
fn any_hub_engine_plays() {
    let gui = start(&["--engine", &minimal_engine()]);
    post_ok(
        &gui,
        "/api/settings",
        json!({"movetime": 0.2, "engine_side": "white"}),
    );
    let state = wait_for(&gui, "the minimal engine's move", |s| s["plies"] == 1);
    assert_eq!(state["turn"], "black");
    let (status, pdn) = request(&gui, "GET", "/api/pdn", &[], b"");
    assert_eq!(status, 200);
    assert!(
        pdn.contains("[White \"Minimal\"]") && pdn.contains("1. "),
        "{pdn}"
    );
}

/// The real browser test: headless Chromium drives the page (see tests/browser/), with
/// Damiera's engine and with the minimal Python engine (any Hub engine).
#[test]
fn browser_plays_and_analyses() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let Some(python) = support::browser_python("browser_plays_and_analyses") else {
        return;
    };
    for engine in [None, Some(minimal_engine())] {
        let mut cmd = Command::new(&python);
        cmd.arg(root.join("tests/browser/test_board.py"))
            .arg(BIN)
            .current_dir(root);
        if let Some(e) = &engine {
            cmd.arg("--engine").arg(e);
        }
        let out = cmd.output().expect("run the browser test");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        if out.status.code() == Some(77) {
            support::skip("browser_plays_and_analyses", &stdout);
            return;
        }
        assert!(
            out.status.success(),
            "browser test failed (engine {engine:?}):\n{stdout}\n{stderr}"
        );
        eprintln!("{stdout}");
    }
}

/// The opening explorer in headless Chromium (tests/browser/test_explorer.py): the
/// shipped book's moves at the start as the test reads the file, a PDN collection's
/// moves and W/D/L counts as the test counts them, moves clicked and played, bad files
/// refused in one line.
#[test]
fn browser_explores_openings() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let Some(python) = support::browser_python("browser_explores_openings") else {
        return;
    };
    let out = Command::new(&python)
        .arg(root.join("tests/browser/test_explorer.py"))
        .arg(BIN)
        .current_dir(root)
        .output()
        .expect("run the explorer's browser test");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    if out.status.code() == Some(77) {
        support::skip("browser_explores_openings", &stdout);
        return;
    }
    assert!(
        out.status.success(),
        "explorer browser test failed:\n{stdout}\n{stderr}"
    );
    eprintln!("{stdout}");
}

/// An open event stream, as a page holds one. The server stops the analysis when its
/// last page goes away, so a test that analyses keeps one open throughout.
struct Events(BufReader<TcpStream>);

impl Events {
    fn open(gui: &Gui) -> Events {
        let mut stream = TcpStream::connect(&gui.host).expect("connect");
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .expect("timeout");
        let head = format!("GET /api/events HTTP/1.1\r\nHost: {}\r\n\r\n", gui.host);
        stream.write_all(head.as_bytes()).expect("write");
        Events(BufReader::new(stream))
    }

    /// Reads events until an `analysis` event satisfies `done` (at most 120 s).
    fn analysis_until(&mut self, done: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + Duration::from_secs(120);
        let mut event = String::new();
        let mut last = Value::Null;
        loop {
            assert!(
                Instant::now() < deadline,
                "no such analysis event; the last: {last}"
            );
            let mut line = String::new();
            assert!(
                self.0.read_line(&mut line).expect("read") > 0,
                "stream closed"
            );
            if let Some(name) = line.strip_prefix("event: ") {
                event = name.trim().to_string();
            } else if let Some(data) = line.strip_prefix("data: ")
                && event == "analysis"
            {
                last = serde_json::from_str(data).expect("JSON event");
                if done(&last) {
                    return last;
                }
            }
        }
    }
}

#[test]
fn engine_parameters_reach_the_engine() {
    let gui = start(&[]);
    let params = get_json(&gui, "/api/state")["engine"]["params"].clone();
    // The board's panel is built from these: every engine setting is in it, with its
    // default, whatever settings the engine's table holds.
    for setting in damiera::engine::EngineOptions::PARAMETERS {
        let declared = params
            .as_array()
            .and_then(|ps| ps.iter().find(|p| p["name"] == setting.name))
            .unwrap_or_else(|| panic!("{} is not in the board's panel: {params}", setting.name));
        let value = match &declared["value"] {
            serde_json::Value::String(text) => text.clone(),
            other => other.to_string(),
        };
        assert_eq!(value, setting.default_text(), "{}", setting.name);
    }
    let multipv = params
        .as_array()
        .and_then(|ps| ps.iter().find(|p| p["name"] == "multipv"))
        .expect("Damiera declares multipv");
    assert_eq!(
        (&multipv["type"], &multipv["min"], &multipv["max"]),
        (&json!("int"), &json!(1), &json!(32))
    );
    let (status, answer) = post(
        &gui,
        "/api/engine/param",
        json!({"name": "multipv", "value": 0}),
    );
    assert_eq!(
        (status, error_of(&answer).as_str()),
        (400, "multipv: 0 is out of range 1..32")
    );
    post_ok(
        &gui,
        "/api/engine/param",
        json!({"name": "multipv", "value": 3}),
    );
    let mut page = Events::open(&gui);
    post_ok(&gui, "/api/analysis", json!({"run": true}));
    let analysis = page.analysis_until(|a| a["lines"].as_array().is_some_and(|l| l.len() == 3));
    let ranks: Vec<&Value> = analysis["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| &l["multipv"])
        .collect();
    assert_eq!(ranks, [&json!(1), &json!(2), &json!(3)]);
    // Every line carries what the page draws: squares for the arrow, boards for the preview.
    for line in analysis["lines"].as_array().unwrap() {
        assert!(
            line["squares"][0].as_array().is_some_and(|s| s.len() >= 2),
            "{line}"
        );
        assert_eq!(
            line["boards"].as_array().map(Vec::len),
            line["pv"].as_array().map(Vec::len)
        );
    }
    // A proven win reads as who wins in how many plies.
    post_ok(
        &gui,
        "/api/engine/param",
        json!({"name": "multipv", "value": 1}),
    );
    post_ok(&gui, "/api/position", json!({"fen": "W:W19:B14,6"}));
    let analysis = page.analysis_until(|a| {
        a["lines"][0]["score_text"]
            .as_str()
            .is_some_and(|t| t.contains(" wins in "))
    });
    assert_eq!(analysis["lines"][0]["score_text"], "White wins in 1");
    post_ok(&gui, "/api/analysis", json!({"run": false}));
}

#[test]
fn any_hub_engine_gets_its_settings_and_reviews_a_game() {
    let gui = start(&["--engine", &minimal_engine()]);
    let state = get_json(&gui, "/api/state");
    let kinds: Vec<&str> = state["engine"]["params"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["type"].as_str().unwrap_or("?"))
        .collect();
    assert_eq!(kinds, ["bool", "int", "real", "enum", "string"]);
    post_ok(
        &gui,
        "/api/engine/param",
        json!({"name": "mood", "value": "wild"}),
    );
    post_ok(
        &gui,
        "/api/engine/param",
        json!({"name": "book", "value": false}),
    );
    post_ok(
        &gui,
        "/api/engine/param",
        json!({"name": "motto", "value": "x y"}),
    );
    let (status, _) = post(
        &gui,
        "/api/engine/param",
        json!({"name": "mood", "value": "sad"}),
    );
    assert_eq!(status, 400);
    post_ok(
        &gui,
        "/api/settings",
        json!({"engine_side": "none", "review_seconds": 0.25}),
    );
    for m in ["22-18", "11-14", "18x11", "7x14"] {
        post_ok(&gui, "/api/move", json!({"move": m}));
    }
    let state = post_ok(&gui, "/api/review", json!({"run": true}));
    assert_eq!(state["review"]["total"], 5);
    let state = wait_for(&gui, "the review", |s| s["review"]["running"] == false);
    assert_eq!(state["review"]["error"], Value::Null, "{state}");
    assert_eq!(state["review"]["points"].as_array().map(Vec::len), Some(5));
    assert_eq!(
        state["engine"]["message"],
        Value::Null,
        "the engine took every set-param"
    );
    let (status, pdn) = request(&gui, "GET", "/api/review/pdn", &[], b"");
    assert_eq!(status, 200, "{pdn}");
    assert!(pdn.contains("[Annotator \"Minimal via Damiera"), "{pdn}");
    assert!(
        pdn.contains("18x11 {") || pdn.contains("18x11? {") || pdn.contains("18x11?? {"),
        "a score after each move: {pdn}"
    );
    // A click on a chart point shows that ply of the reviewed line.
    let state = post_ok(&gui, "/api/review/goto", json!({"ply": 2}));
    assert_eq!(state["ply"], 2);
}

#[test]
fn a_flag_falls_and_loses() {
    let gui = start(&[]);
    post_ok(
        &gui,
        "/api/settings",
        json!({"engine_side": "none", "clock": {"time": 1, "inc": 0}}),
    );
    let state = get_json(&gui, "/api/state");
    assert_eq!(
        (
            state["clock"]["paused"].clone(),
            state["clock"]["running"].clone()
        ),
        (json!(true), Value::Null)
    );
    let state = post_ok(&gui, "/api/move", json!({"move": "22-18"}));
    assert_eq!(state["clock"]["running"], "black");
    let state = wait_for(&gui, "Black's flag", |s| !s["result"].is_null());
    assert_eq!(state["result"]["result"], "1-0");
    assert_eq!(state["result"]["reason"], "Black lost on time");
    let (status, answer) = post(&gui, "/api/move", json!({"move": "11-14"}));
    assert_eq!(
        (status, error_of(&answer).as_str()),
        (400, "the game is over: Black lost on time")
    );
    let (_, pdn) = request(&gui, "GET", "/api/pdn", &[], b"");
    assert!(
        pdn.contains("[Result \"1-0\"]") && pdn.contains("Black lost on time"),
        "{pdn}"
    );
}

#[test]
fn variations_survive_over_http() {
    let gui = start(&[]);
    post_ok(&gui, "/api/settings", json!({"engine_side": "none"}));
    for m in ["22-18", "11-14"] {
        post_ok(&gui, "/api/move", json!({"move": m}));
    }
    post_ok(&gui, "/api/goto", json!({"ply": 1}));
    let state = post_ok(&gui, "/api/move", json!({"move": "12-16"}));
    assert_eq!(state["moves"].as_array().map(Vec::len), Some(2));
    assert_eq!(state["tree"][1]["text"], "11-14", "the main line stays");
    assert_eq!(state["tree"][1]["variations"][0][0]["text"], "12-16");
    let (_, pdn) = request(&gui, "GET", "/api/pdn", &[], b"");
    assert!(pdn.contains("11-14 (1... 12-16)"), "{pdn}");
    let state = post_ok(&gui, "/api/variation/delete", json!({"path": [0, 1]}));
    assert!(
        state["tree"][1]["variations"]
            .as_array()
            .is_some_and(Vec::is_empty),
        "{state}"
    );
    let (status, _) = post(&gui, "/api/variation/delete", json!({"path": [0, 1]}));
    assert_eq!(status, 400);
}

/// A server in this process with `workers` workers and no queue; its `host:port`.
fn in_process(workers: usize) -> String {
    let engine = EngineSpec {
        name: "none".into(),
        command: vec!["/nonexistent/engine".into()],
        options: vec![],
        if_declared: vec![],
        variant: damiera::board::Variant::Italian,
        nodes: None,
    };
    let mut config = Config::new("127.0.0.1", 0, engine);
    config.workers = workers;
    config.queue = 0;
    let server = Server::bind(config).unwrap();
    let host = server
        .url()
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string();
    std::thread::spawn(move || server.serve());
    host
}

/// Reads whatever answer `stream` got (up to its end); the status, 0 when none.
fn status_of(stream: &mut TcpStream) -> u16 {
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    String::from_utf8_lossy(&raw)
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

#[test]
fn a_busy_server_answers_503_at_once() {
    let host = in_process(1);
    assert_eq!(request_at(&host, "GET", "/api/state", &[], b"").0, 200);
    // A client that sends half a request holds the only worker; the next request is
    // refused at once, not queued behind it.
    let mut refused = None;
    for _ in 0..50 {
        let mut slow = TcpStream::connect(&host).unwrap();
        slow.write_all(b"GET /api/state HTTP/1.1\r\nHost: ")
            .unwrap();
        let (status, body) = request_at(&host, "GET", "/api/state", &[], b"");
        if status == 503 {
            refused = Some(body);
            drop(slow);
            break;
        }
        // The worker was not free for the slow client yet (it was refused): try again.
        slow.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let _ = slow.shutdown(std::net::Shutdown::Write);
        assert_eq!(
            status_of(&mut slow),
            503,
            "then the slow client was the one refused"
        );
    }
    let body = refused.expect("a request beyond the pool got 503");
    assert!(body.contains("\"error\":\"the board is busy"), "{body}");
    // The worker is free again once the slow client goes.
    let until = Instant::now() + Duration::from_secs(30);
    while request_at(&host, "GET", "/api/state", &[], b"").0 != 200 {
        assert!(Instant::now() < until, "the server did not recover");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn event_streams_are_bounded() {
    let host = in_process(4);
    // A stream's worker hands it to the event thread and is free again; on a loaded
    // machine the next request can come before that, and finds the pool busy (503 at
    // once, by design): it is asked again.
    let open_stream = || {
        let until = Instant::now() + Duration::from_secs(60);
        loop {
            let mut s = TcpStream::connect(&host).unwrap();
            let head = format!("GET /api/events HTTP/1.1\r\nHost: {host}\r\n\r\n");
            s.write_all(head.as_bytes()).unwrap();
            let mut first = String::new();
            s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
            BufReader::new(&s).read_line(&mut first).unwrap();
            if first.starts_with("HTTP/1.1 503") && Instant::now() < until {
                std::thread::sleep(Duration::from_millis(20));
                continue;
            }
            assert!(first.starts_with("HTTP/1.1 200"), "{first}");
            return s;
        }
    };
    let open: Vec<TcpStream> = (0..damiera::gui::events::MAX_STREAMS)
        .map(|_| open_stream())
        .collect();
    let until = Instant::now() + Duration::from_secs(60);
    let (status, body) = loop {
        let (status, body) = request_at(&host, "GET", "/api/events", &[], b"");
        if !body.contains("the board is busy") || Instant::now() > until {
            break (status, body);
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status, 503, "{body}");
    assert!(body.contains("too many open pages"), "{body}");
    drop(open);
    let until = Instant::now() + Duration::from_secs(60);
    loop {
        let mut s = TcpStream::connect(&host).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        let head = format!("GET /api/events HTTP/1.1\r\nHost: {host}\r\n\r\n");
        s.write_all(head.as_bytes()).unwrap();
        let mut first = String::new();
        BufReader::new(&s).read_line(&mut first).unwrap();
        if first.starts_with("HTTP/1.1 200") {
            break;
        }
        assert!(
            Instant::now() < until,
            "closed streams are not given back: {first}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// The LAN test runs inside a new network namespace (`unshare -rn`: its own loopback
/// and an extra address 10.77.0.1 on it, gone when the test ends), where the server
/// binds 0.0.0.0 and a request from 10.77.0.1 is one from another machine.
#[test]
fn lan_requests_need_the_token() {
    if std::env::var_os("DAMIERA_IN_NETNS").is_some() {
        lan_inside_namespace();
        return;
    }
    let me = std::env::current_exe().unwrap();
    let unshare = ["/usr/bin/unshare", "/bin/unshare"]
        .into_iter()
        .find(|p| Path::new(p).exists());
    let Some(unshare) = unshare else {
        support::skip("lan_requests_need_the_token", "no unshare (util-linux)");
        return;
    };
    let probe = Command::new(unshare).args(["-rn", "true"]).status();
    if !probe.is_ok_and(|s| s.success()) {
        support::skip(
            "lan_requests_need_the_token",
            "this machine does not allow a user+network namespace (unshare -rn)",
        );
        return;
    }
    let out = Command::new(unshare)
        .args(["-rn"])
        .arg(&me)
        .args([
            "--exact",
            "lan_requests_need_the_token",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("DAMIERA_IN_NETNS", "1")
        .output()
        .unwrap();
    let text = format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success(),
        "the LAN test in its namespace failed:\n{text}"
    );
    assert!(text.contains("1 passed"), "{text}");
    eprintln!("{text}");
}

fn lan_inside_namespace() {
    let ip = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"]
        .into_iter()
        .find(|p| Path::new(p).exists())
        .expect("the ip command (iproute2)");
    for args in [
        &["link", "set", "lo", "up"][..],
        &["addr", "add", "10.77.0.1/24", "dev", "lo"][..],
    ] {
        let ok = Command::new(ip).args(args).status().unwrap();
        assert!(ok.success(), "ip {args:?}");
    }
    let (child, url) = spawn_gui(Command::new(BIN).args([
        "gui",
        "--no-open",
        "--host",
        "0.0.0.0",
        "--port",
        "0",
        "--engine",
        "/nonexistent",
    ]));
    let _gui = Gui {
        child,
        host: String::new(),
    };
    let token = url.split("?token=").nth(1).unwrap_or("").to_string();
    assert_eq!(token.len(), 32, "a random token in the printed URL {url}");
    let port = url
        .split("?token=")
        .next()
        .and_then(|u| u.trim_end_matches('/').rsplit(':').next())
        .unwrap()
        .to_string();
    let lan = format!("10.77.0.1:{port}");
    let local = format!("127.0.0.1:{port}");
    let (status, body) = request_at(&lan, "GET", "/api/state", &[], b"");
    assert_eq!(status, 401, "another machine without the token: {body}");
    assert!(body.contains("needs its token"), "{body}");
    let (status, _) = request_at(
        &lan,
        "GET",
        "/api/state?token=0123456789abcdef0123456789abcdef",
        &[],
        b"",
    );
    assert_eq!(status, 401, "a wrong token");
    let with = format!("/?token={token}");
    let (status, page) = request_at(&lan, "GET", &with, &[], b"");
    assert_eq!(status, 200, "with the token: {page}");
    let (status, _) = request_at(
        &lan,
        "POST",
        "/api/new",
        &[
            ("Cookie", &format!("damiera_token={token}")),
            ("Origin", &format!("http://{lan}")),
        ],
        b"{}",
    );
    assert_eq!(status, 200, "the cookie the page got carries the token");
    let (status, _) = request_at(
        &lan,
        "GET",
        "/api/state",
        &[("X-Damiera-Token", &token)],
        b"",
    );
    assert_eq!(status, 200);
    let (status, _) = request_at(&local, "GET", "/api/state", &[], b"");
    assert_eq!(status, 200, "loopback needs no token");
    let (status, _) = request_at(
        &local,
        "GET",
        "/api/state",
        &[("Host", "evil.example")],
        b"",
    );
    assert_eq!(status, 403, "and still no DNS rebinding");
    println!("ok: LAN token: refused without it (401), accepted with it; loopback free");
}

// ---------------------------------------------------- the JSON API as a function --

/// Requests the API is driven with: known routes and bodies near what they expect,
/// mixed with arbitrary paths, methods and bytes.
fn arb_request() -> impl Strategy<Value = (String, String, String, Vec<u8>)> {
    let routes = prop::sample::select(vec![
        "/api/state",
        "/api/move",
        "/api/goto",
        "/api/line",
        "/api/variation/promote",
        "/api/variation/delete",
        "/api/takeback",
        "/api/new",
        "/api/position",
        "/api/pdn",
        "/api/pdn-file",
        "/api/settings",
        "/api/clock",
        "/api/analysis",
        "/api/engine/restart",
        "/api/engine/param",
        "/api/review",
        "/api/review/goto",
        "/api/explorer",
        "/api/explorer/pdn",
        "/api/explorer/book",
    ]);
    let path = prop_oneof![
        6 => routes.prop_map(str::to_string),
        1 => "/api/[a-z/]{0,16}",
        1 => "\\PC{0,24}",
    ];
    let method = prop_oneof![
        2 => Just("POST".to_string()),
        1 => Just("GET".to_string()),
        1 => "[A-Z]{0,7}",
    ];
    let scalar = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        (-1e3f64..1e3).prop_map(Value::from),
        prop::sample::select(vec![
            "22-18",
            "11-14",
            "18x11",
            "8x15",
            "21-17",
            "9-13",
            "play",
            "analyse",
            "white",
            "none",
            "multipv",
            "mood",
            "wild",
            "W:W19:B14,6",
            "1. 22-18 11-14 *",
            "default",
            "off",
            "file",
        ])
        .prop_map(Value::from),
        "\\PC{0,12}".prop_map(Value::from),
    ];
    let value = scalar.prop_recursive(2, 12, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec(
                (prop::sample::select(vec!["time", "inc", "x"]), inner),
                0..3
            )
            .prop_map(|kv| Value::Object(
                kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
            )),
        ]
    });
    let keys = prop::sample::select(vec![
        "move",
        "ply",
        "path",
        "fen",
        "pdn",
        "game",
        "mode",
        "engine_side",
        "movetime",
        "clock",
        "review_seconds",
        "run",
        "resume",
        "name",
        "value",
        "book",
        "games",
        "other",
    ]);
    let object = prop::collection::vec((keys, value), 0..4).prop_map(|kv| {
        let map = kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
        serde_json::to_vec(&Value::Object(map)).unwrap()
    });
    let body = prop_oneof![
        4 => object,
        1 => prop::collection::vec(any::<u8>(), 0..64),
    ];
    (method, path, "[a-z=&0-9]{0,12}", body)
}

/// An App with no engine, declaring one parameter of each type.
fn offline_app() -> App {
    let app = App::offline();
    let param = |name: &str, value: &str, kind| Param {
        name: name.into(),
        value: value.into(),
        kind: Some(kind),
    };
    app.state.lock().params = vec![
        param("book", "true", ParamType::Bool),
        param(
            "multipv",
            "1",
            ParamType::Int {
                min: Some(1),
                max: Some(32),
            },
        ),
        param(
            "contempt",
            "0",
            ParamType::Real {
                min: Some(-1.0),
                max: Some(1.0),
            },
        ),
        param(
            "mood",
            "calm",
            ParamType::Enum {
                values: vec!["calm".into(), "wild".into()],
            },
        ),
        param("motto", "", ParamType::String),
    ];
    app
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Whatever a client sends, json_api answers JSON: `ok` and the state on 200, a
    /// one-line error on 4xx, and a refused request leaves the game as it was.
    #[test]
    fn the_json_api_answers_any_request(requests in prop::collection::vec(arb_request(), 1..24)) {
        let app = offline_app();
        let snapshot = |app: &App| {
            let mut v = app.state.lock().to_json();
            v["clock"] = Value::Null; // its seconds tick by themselves
            v
        };
        for (method, path, query, body) in requests {
            let before = snapshot(&app);
            let (status, answer) = json_api(&app, &method, &path, &query, &body);
            prop_assert!(answer.is_object(), "{status} {answer}");
            match status {
                200 if method == "GET" && path == "/api/state" => {
                    prop_assert!(answer["board"].is_string());
                }
                200 => {
                    prop_assert_eq!(&answer["ok"], &json!(true));
                    prop_assert!(answer["state"].is_object());
                }
                400..=499 => {
                    let message = answer["error"].as_str().unwrap_or("");
                    prop_assert!(!message.is_empty() && !message.contains('\n'), "{answer}");
                    prop_assert!(answer.get("state").is_none());
                    prop_assert_eq!(snapshot(&app), before, "{} {} changed the state", method, path);
                }
                _ => prop_assert!(false, "status {status} for {method} {path}: {answer}"),
            }
        }
    }
}

/// A new game of another variant: its board, its notation, an engine started for it
/// (the engine's move in that notation); the engine's `variant` is the board's alone.
#[test]
fn a_new_game_of_another_variant_gets_its_rules_and_engine() {
    let gui = start(&[]);
    post_ok(
        &gui,
        "/api/settings",
        json!({"movetime": 0.1, "engine_side": "black"}),
    );
    let state = post_ok(&gui, "/api/new", json!({"variant": "russian"}));
    assert_eq!(state["variant"], "russian");
    assert_eq!(
        state["squares"][0],
        json!({"number": 1, "name": "a1", "row": 7, "col": 0})
    );
    assert_eq!(state["board"], "wwwwwwwwwwwweeeeeeeebbbbbbbbbbbb");
    assert!(legal(&state).contains(&"c3-d4".to_string()), "{state}");
    wait_for(&gui, "the Russian engine", |s| {
        s["engine"]["status"] == "ready"
    });
    post_ok(&gui, "/api/move", json!({"move": "c3-d4"}));
    let state = wait_for(&gui, "the engine's reply", |s| s["plies"] == 2);
    let reply = state["moves"][1]["text"].as_str().unwrap_or("").to_string();
    assert!(
        reply.len() == 5 && reply.as_bytes()[0].is_ascii_lowercase(),
        "an algebraic reply: {reply:?}"
    );
    let (status, pdn) = request(&gui, "GET", "/api/pdn", &[], b"");
    assert_eq!(status, 200);
    assert!(
        pdn.contains("[GameType \"25\"]") && pdn.contains("c3-d4"),
        "{pdn}"
    );
    // English: Black moves first, so the engine (Black) opens.
    let state = post_ok(&gui, "/api/new", json!({"variant": "english"}));
    assert_eq!(
        (state["variant"].as_str(), state["turn"].as_str()),
        (Some("english"), Some("black"))
    );
    let state = wait_for(&gui, "the English engine's first move", |s| s["plies"] == 1);
    let first = state["moves"][0]["text"].as_str().unwrap_or("");
    assert!(first.starts_with(|c: char| c.is_ascii_digit()), "{first}");
    let params = state["engine"]["params"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(
        !params.is_empty() && params.iter().all(|p| p["name"] != "variant"),
        "{params:?}"
    );
    let (status, answer) = post(
        &gui,
        "/api/engine/param",
        json!({"name": "variant", "value": "italian"}),
    );
    assert_eq!(status, 400);
    assert!(error_of(&answer).contains("Variant"), "{answer}");
    let (status, answer) = post(&gui, "/api/new", json!({"variant": "international"}));
    assert_eq!(
        (status, error_of(&answer).as_str()),
        (
            400,
            "unknown variant \"international\" (expected italian, english, russian, brazilian, pool, czech, spanish, thai or damka)"
        )
    );
    // New game keeps the variant.
    let state = post_ok(&gui, "/api/new", json!({}));
    assert_eq!(state["variant"], "english");
}

/// Resigning and draw offers: the player's side resigns; two people agree a draw at
/// once; the engine accepts a draw when its own search says it is level or worse, and
/// declines when it expects to win; the game is over after either, until a take-back.
#[test]
fn resign_and_draw_offers() {
    let gui = start(&[]);
    post_ok(
        &gui,
        "/api/settings",
        json!({"engine_side": "none", "movetime": 0.2}),
    );
    post_ok(&gui, "/api/move", json!({"move": "22-18"}));
    let state = post_ok(&gui, "/api/resign", json!({}));
    assert_eq!(
        state["result"],
        json!({"result": "1-0", "reason": "Black resigned"})
    );
    let (status, answer) = post(&gui, "/api/move", json!({"move": "10-14"}));
    assert_eq!(
        (status, error_of(&answer).as_str()),
        (400, "the game is over: Black resigned")
    );
    let (_, pdn) = request(&gui, "GET", "/api/pdn", &[], b"");
    assert!(
        pdn.contains("[Result \"1-0\"]") && pdn.contains("Black resigned"),
        "{pdn}"
    );
    let (status, answer) = post(&gui, "/api/draw", json!({}));
    assert_eq!(
        (status, error_of(&answer).as_str()),
        (400, "the game is over: Black resigned")
    );
    let state = post_ok(&gui, "/api/takeback", json!({}));
    assert_eq!(state["result"], Value::Null, "a take-back reopens the game");
    let state = post_ok(&gui, "/api/draw", json!({}));
    assert_eq!(
        state["result"],
        json!({"result": "1/2-1/2", "reason": "draw agreed"})
    );

    // Against the engine (Black): lost for it, it accepts; won for it, it declines.
    post_ok(&gui, "/api/settings", json!({"engine_side": "black"}));
    post_ok(&gui, "/api/position", json!({"fen": "W:WK13,K14,K15:B4"}));
    let state = post_ok(&gui, "/api/draw", json!({}));
    assert_eq!(state["offer"]["pending"], true, "{state}");
    let state = wait_for(&gui, "the engine's answer", |s| {
        s["offer"]["pending"] == false
    });
    assert_eq!(state["offer"]["answer"]["accepted"], true, "{state}");
    assert!(
        state["offer"]["answer"]["score"].as_f64().unwrap_or(0.0) < -1.0,
        "{state}"
    );
    assert_eq!(state["result"]["reason"], "draw agreed");
    post_ok(&gui, "/api/position", json!({"fen": "W:W29:BK1,K2,K3"}));
    post_ok(&gui, "/api/draw", json!({}));
    let state = wait_for(&gui, "the engine's answer", |s| {
        s["offer"]["pending"] == false
    });
    assert_eq!(state["offer"]["answer"]["accepted"], false, "{state}");
    assert!(
        state["offer"]["answer"]["score"].as_f64().unwrap_or(0.0) > 1.0,
        "{state}"
    );
    assert_eq!(state["result"], Value::Null);
    // Not on the engine's turn, not in analyse mode. The engine must still be thinking
    // when the offer arrives: a long move time, and a position no database answers at
    // once (with four pieces left the engine could answer before the offer was sent).
    post_ok(&gui, "/api/settings", json!({"movetime": 10.0}));
    post_ok(
        &gui,
        "/api/position",
        json!({"fen": "W:W29,30,31:BK1,K2,K3"}),
    );
    post_ok(&gui, "/api/move", json!({"move": "29-25"}));
    let (status, answer) = post(&gui, "/api/draw", json!({}));
    assert_eq!(
        (status, error_of(&answer).as_str()),
        (400, "offer the draw on your turn: the engine is to move")
    );
    post_ok(&gui, "/api/settings", json!({"mode": "analyse"}));
    let (status, answer) = post(&gui, "/api/resign", json!({}));
    assert_eq!(
        (status, error_of(&answer).as_str()),
        (400, "resigning is for play mode: choose Play first")
    );
}
