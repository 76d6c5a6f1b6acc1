//! The web board's HTTP API, end to end: `damiera gui --no-open` on a free port, spoken
//! to over plain TCP (no client crate), with the real engine process behind it.
//! Also runs the browser test (tests/browser/test_board.py) when Chromium is present.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code: a failed unwrap fails the test

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

mod support;

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
    let mut child = Command::new(BIN)
        .arg("gui")
        .arg("--no-open")
        .args(extra)
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
    let host = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string();
    assert!(
        host.starts_with("127.0.0.1:"),
        "unexpected first line {line:?}"
    );
    let gui = Gui { child, host };
    wait_for(&gui, "the engine to start", |s| {
        s["engine"]["status"] == "ready"
    });
    gui
}

/// One request with optional extra headers; returns status and body.
fn request(
    gui: &Gui,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> (u16, String) {
    let mut stream = TcpStream::connect(&gui.host).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .expect("timeout");
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("Host")) {
        head.push_str(&format!("Host: {}\r\n", gui.host));
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
    // Another game type: a one-line JSON error, the board unchanged.
    let english = b"[GameType \"21\"]\n\n1. 22-18 *\n";
    let (status, answer) = post_pdn_file(&gui, "", english);
    assert_eq!(status, 400);
    assert_eq!(
        error_of(&answer),
        "bad PDN: PDN game 1: GameType 21 is English draughts, not Italian"
    );
    assert_eq!(get_json(&gui, "/api/state")["moves"][0]["text"], "23-19");
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
    while !seen.contains("\"depth\":") {
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

/// The real browser test: headless Chromium drives the page (see tests/browser/).
#[test]
fn browser_plays_and_analyses() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let ci = support::ci();
    let python = std::env::var_os("DAMIERA_PYTHON")
        .map(PathBuf::from)
        .or_else(|| Some(root.join(".venv/bin/python")).filter(|p| p.exists()));
    let have_driver = Path::new("/usr/bin/chromedriver").exists();
    let Some(python) = python.filter(|_| have_driver) else {
        support::skip(
            "browser_plays_and_analyses",
            "needs /usr/bin/chromedriver (apt-get install chromium chromium-driver) and the \
             .venv with selenium",
        );
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
        if out.status.code() == Some(77) && !ci {
            support::skip("browser_plays_and_analyses", stdout.trim());
            return;
        }
        assert!(
            out.status.success(),
            "browser test failed (engine {engine:?}):\n{stdout}\n{stderr}"
        );
        eprintln!("{stdout}");
    }
}
