//! The Hub protocol through the real binary and pipes: protocol.md's transcripts,
//! every `level` form, stop / ping / ponder during searches, malformed input, end of
//! input, repetition history, and a real client (pydraughts).
//!
//! Timeouts are generous and only guard against hangs: nothing here asserts speed.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code: a failed unwrap fails the test

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

mod support;

/// Longest wait for any answer.
const PATIENCE: Duration = Duration::from_secs(60);

/// A running `damiera hub` process.
struct Hub {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Hub {
    fn start() -> Hub {
        let (child, stdin, lines) = support::hub::spawn(support::hub::damiera_hub());
        Hub {
            child,
            stdin: Some(stdin),
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("write to engine");
        stdin.flush().expect("flush");
    }

    /// The next line, `info` included.
    fn recv_any(&mut self) -> String {
        match self.lines.recv_timeout(PATIENCE) {
            Ok(line) => line,
            Err(e) => panic!("no answer from the engine: {e}"),
        }
    }

    /// The next line that is not `info`; `info` lines are checked for their keys.
    fn recv(&mut self) -> String {
        loop {
            let line = self.recv_any();
            if line.starts_with("info ") {
                check_info(&line);
            } else {
                return line;
            }
        }
    }

    /// The next non-`info` line, which must be a `done` (returned).
    fn done(&mut self) -> String {
        let line = self.recv();
        assert!(line == "done" || line.starts_with("done move="), "{line}");
        line
    }

    /// Sends `ping` and expects `pong` as the next non-`info` line.
    fn ping(&mut self) {
        self.send("ping");
        assert_eq!(self.recv(), "pong");
    }

    /// The `info` lines and the `done` of the running search.
    fn infos_and_done(&mut self) -> (Vec<String>, String) {
        let mut infos = Vec::new();
        loop {
            let line = self.recv_any();
            if line.starts_with("info ") {
                infos.push(line);
            } else {
                assert!(line.starts_with("done"), "{line}");
                return (infos, line);
            }
        }
    }

    /// Closes stdin and waits for the exit; returns the status and the remaining output.
    fn close(mut self) -> (ExitStatus, Vec<String>) {
        self.stdin = None;
        let deadline = Instant::now() + PATIENCE;
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                break status;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("engine did not exit at end of input");
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        let mut rest = Vec::new();
        loop {
            match self.lines.recv_timeout(Duration::from_secs(5)) {
                Ok(line) => rest.push(line),
                Err(RecvTimeoutError::Disconnected) => break,
                Err(RecvTimeoutError::Timeout) => panic!("stdout not closed"),
            }
        }
        (status, rest)
    }

    /// Closes stdin; expects exit status 0 and no output but `info` lines.
    fn close_cleanly(self) {
        let (status, rest) = self.close();
        assert!(status.success(), "{status}");
        assert!(rest.iter().all(|l| l.starts_with("info ")), "{rest:?}");
    }
}

/// An `info` line has the seven keys of protocol.md, in order, well formed.
fn check_info(line: &str) {
    let re_keys = [
        "depth=",
        " mean-depth=",
        " score=",
        " nodes=",
        " time=",
        " nps=",
        " pv=\"",
    ];
    let mut rest = line.strip_prefix("info ").expect("info");
    for key in re_keys {
        let at = rest.find(key).unwrap_or_else(|| panic!("{key} in {line}"));
        rest = &rest[at + key.len()..];
    }
    assert!(rest.ends_with('"'), "{line}");
    let score = info_value(line, "score");
    assert_eq!(score.split('.').nth(1).map(str::len), Some(2), "{line}");
    let time = info_value(line, "time");
    assert_eq!(time.split('.').nth(1).map(str::len), Some(3), "{line}");
}

fn info_value<'a>(line: &'a str, key: &str) -> &'a str {
    let pattern = format!(" {key}=");
    let at = line
        .find(&pattern)
        .unwrap_or_else(|| panic!("{key} in {line}"));
    let rest = &line[at + pattern.len()..];
    rest.split(' ').next().unwrap_or("")
}

// ---------------------------------------------------------------------------
// (a) protocol.md transcripts
// ---------------------------------------------------------------------------

/// One step of a transcript: a line to send, or a pattern to expect.
#[derive(Debug)]
enum Step {
    Send(String),
    Expect(String),
}

/// The ```transcript blocks of a Markdown text.
fn transcripts(text: &str) -> Vec<Vec<Step>> {
    let mut blocks = Vec::new();
    let mut current: Option<Vec<Step>> = None;
    for line in text.lines() {
        match (&mut current, line.trim_end()) {
            (None, "```transcript") => current = Some(Vec::new()),
            (Some(_), "```") => blocks.extend(current.take()),
            (Some(steps), l) => steps.push(step(l)),
            (None, _) => {}
        }
    }
    assert!(current.is_none(), "unterminated transcript block");
    blocks
}

fn step(line: &str) -> Step {
    if line == ">" {
        Step::Send(String::new())
    } else if let Some(sent) = line.strip_prefix("> ") {
        Step::Send(sent.to_string())
    } else if let Some(expected) = line.strip_prefix("< ") {
        Step::Expect(expected.to_string())
    } else {
        panic!("transcript line is neither '> ' nor '< ': {line:?}")
    }
}

/// `*` matches any run of characters; the rest is literal; the whole line must match.
fn matches(pattern: &str, line: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if parts.len() == 1 {
        return pattern == line;
    }
    if !line.starts_with(first) || line.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &line[first.len()..];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.ends_with(last)
}

#[test]
fn wildcard_matching() {
    assert!(matches("done move=*", "done move=22-19 ponder=11-15"));
    assert!(matches("done move=19x10x14*", "done move=19x10x14"));
    assert!(!matches("done move=*", "done"));
    assert!(matches("done", "done"));
    assert!(matches("a*b*c", "abc"));
    assert!(!matches("a*b*c", "acb"));
    assert!(matches("*", ""));
}

fn protocol_md() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol.md");
    std::fs::read_to_string(path).expect("read protocol.md")
}

#[test]
fn protocol_md_transcripts() {
    let blocks = transcripts(&protocol_md());
    assert!(blocks.len() >= 6, "found {} transcripts", blocks.len());
    for steps in blocks {
        let mut hub = Hub::start();
        for step in &steps {
            match step {
                Step::Send(line) => hub.send(line),
                Step::Expect(pattern) => {
                    // `info` patterns match the very next line; others skip `info`.
                    let line = if pattern.starts_with("info ") {
                        hub.recv_any()
                    } else {
                        hub.recv()
                    };
                    assert!(
                        matches(pattern, &line),
                        "expected {pattern:?}, got {line:?}"
                    );
                }
            }
        }
        hub.close_cleanly();
    }
}

// ---------------------------------------------------------------------------
// (b) handshake and every level form
// ---------------------------------------------------------------------------

#[test]
fn handshake_names_crate_version() {
    let mut hub = Hub::start();
    hub.send("hub");
    let id = hub.recv();
    let version = format!(" version={} ", env!("CARGO_PKG_VERSION"));
    assert!(
        id.starts_with("id name=Damiera") && id.contains(&version),
        "{id}"
    );
    let mut params = Vec::new();
    loop {
        let line = hub.recv();
        if line == "wait" {
            break;
        }
        params.push(line);
    }
    // The process declares what the library does (whose unit test holds the
    // declarations to protocol.md's table).
    let declared: Vec<String> = damiera::hub::params::Params::default()
        .declarations()
        .iter()
        .map(|p| p.to_string())
        .collect();
    assert!(declared.len() >= 10, "{declared:?}");
    assert_eq!(params, declared);
    hub.send("init");
    assert_eq!(hub.recv(), "ready");
    hub.close_cleanly();
}

/// Searches from the start position after the given `level` line; one `done`, then quiet.
fn search_with_level(hub: &mut Hub, level: &str) -> String {
    hub.send("pos start moves=\"22-19 11-15\"");
    hub.send(level);
    hub.send("go think");
    let done = hub.done();
    hub.ping(); // nothing but `info` between `done` and `pong`: exactly one `done`
    done
}

#[test]
fn every_level_form_answers_once() {
    let mut hub = Hub::start();
    hub.send("set-param name=tt-size value=8");
    for level in [
        "level depth=3",
        "level depth=0",
        "level nodes=2000",
        "level move-time=0.2",
        "level time=2 inc=0.1",
        "level time=1.5",
        "level moves=10 time=3 inc=0",
        "level moves=1 time=0.3",
        "level depth=40 move-time=0.1",
        "level infinite nodes=500",
    ] {
        let done = search_with_level(&mut hub, level);
        assert!(done.starts_with("done move="), "{level}: {done}");
    }
    hub.send("level infinite");
    hub.send("go think");
    hub.ping();
    std::thread::sleep(Duration::from_millis(100));
    hub.send("stop");
    hub.done();
    hub.ping();
    hub.close_cleanly();
}

#[test]
fn a_level_stays_in_force() {
    let mut hub = Hub::start();
    hub.send("level depth=2");
    for _ in 0..3 {
        hub.send("go");
        let (infos, _) = hub.infos_and_done();
        let last = infos.last().expect("an info line");
        assert_eq!(info_value(last, "depth"), "2", "{last}");
    }
    hub.close_cleanly();
}

// ---------------------------------------------------------------------------
// (c), (d) stop and ping during searches
// ---------------------------------------------------------------------------

#[test]
fn stop_ends_analysis() {
    let mut hub = Hub::start();
    for pause in [0, 1, 20, 200] {
        hub.send("level depth=2"); // go analyze ignores the level
        hub.send("go analyze");
        std::thread::sleep(Duration::from_millis(pause));
        hub.send("stop");
        hub.done();
    }
    hub.ping();
    hub.close_cleanly();
}

/// The `multipv=N` value of an `info` line.
fn rank(line: &str) -> usize {
    info_value(line, "multipv").parse().expect("multipv rank")
}

#[test]
fn multipv_analysis_sends_ranked_lines_per_depth() {
    let mut hub = Hub::start();
    hub.send("set-param name=multipv value=3");
    hub.send("pos start");
    hub.send("go analyze");
    let mut infos = Vec::new();
    while infos.len() < 5 * 3 {
        let line = hub.recv_any();
        assert!(line.starts_with("info "), "{line}");
        check_info(&line);
        infos.push(line);
    }
    hub.send("stop");
    let (rest, done) = hub.infos_and_done();
    infos.extend(rest);
    // Whole iterations only: ranks 1, 2, 3 in turn, one depth each, depths rising.
    assert_eq!(infos.len() % 3, 0, "{infos:#?}");
    for (i, group) in infos.chunks(3).enumerate() {
        let depths: Vec<&str> = group.iter().map(|l| info_value(l, "depth")).collect();
        assert_eq!(depths, vec![(i + 1).to_string(); 3], "{group:#?}");
        assert_eq!(group.iter().map(|l| rank(l)).collect::<Vec<_>>(), [1, 2, 3]);
        let scores: Vec<f64> = group
            .iter()
            .map(|l| info_value(l, "score").parse().unwrap())
            .collect();
        assert!(
            scores[0] >= scores[1] && scores[1] >= scores[2],
            "{group:#?}"
        );
        let firsts: Vec<&str> = group
            .iter()
            .map(|l| info_value(l, "pv").trim_matches('"'))
            .collect();
        assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    }
    // `done` names the best line's move of the last iteration.
    let best = info_value(&infos[infos.len() - 3], "pv")
        .trim_matches('"')
        .to_string();
    assert!(
        done.starts_with(&format!("done move={best}")),
        "{done} vs {best}"
    );
    hub.send("set-param name=multipv value=1");
    hub.send("level depth=3");
    hub.send("go think");
    let (plain, _) = hub.infos_and_done();
    assert_eq!(plain.len(), 3, "{plain:#?}");
    assert!(plain.iter().all(|l| !l.contains("multipv")), "{plain:#?}");
    hub.send("set-param name=multipv value=0");
    assert!(hub.recv().starts_with("error message=\"set-param: "));
    hub.ping();
    hub.close_cleanly();
}

#[test]
fn ping_during_search_answers_before_done() {
    let mut hub = Hub::start();
    hub.send("level infinite");
    hub.send("go think");
    for _ in 0..3 {
        hub.ping();
    }
    hub.send("stop");
    hub.done();
    hub.close_cleanly();
}

#[test]
fn commands_during_search_wait_for_done() {
    let mut hub = Hub::start();
    hub.send("go analyze");
    hub.send("level depth=abc"); // queued: its error comes after done
    hub.send("init");
    hub.send("stop");
    hub.done();
    assert_eq!(
        hub.recv(),
        "error message=\"level: bad value for depth: 'abc'\""
    );
    assert_eq!(hub.recv(), "ready");
    hub.close_cleanly();
}

// ---------------------------------------------------------------------------
// (e) malformed lines
// ---------------------------------------------------------------------------

#[test]
fn malformed_lines_get_errors_and_change_nothing() {
    let mut hub = Hub::start();
    // A forced capture: the only legal move is 19x10x14.
    hub.send("pos pos=Wbeeeeeeeeeeeebeeeeweeeeeeeeeeeee");
    hub.send("level depth=1");
    for bad in [
        "pos pos=Wbbb",
        "pos pos=Xbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww",
        "pos pos=Wzbbbbbbbbbbbeeeeeeeewwwwwwwwwwww",
        "pos",
        "pos start pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww",
        "pos start moves=\"22-19 22-18\"",
        "pos start moves=\"11-15\"",
        "pos start moves=\"99-100\"",
        "pos start moves=\"22-19 11-15 19x10\"",
        "pos pos=\"Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww",
        "level depth=-1",
        "level depth=abc",
        "level nodes=1e3",
        "level move-time=abc",
        "level move-time=inf",
        "level time=abc",
        "level time=nan",
        "level moves=10",
        "level inc=1",
        "level",
        "level depth=",
        "set-param name=threads value=0",
        "set-param name=threads value=65",
        "set-param name=tt-size value=huge",
        "set-param name=ponder value=maybe",
        "set-param name=variant value=international",
        "set-param name=style value=turbo",
        "set-param name=bogus value=1",
        "set-param value=1",
        "set-param name=threads",
        "go think ponder",
        "go \"junk\"",
        "go think=",
        "go = x",
    ] {
        hub.send(bad);
        let line = hub.recv();
        assert!(line.starts_with("error message=\""), "{bad}: {line}");
        hub.ping();
    }
    hub.send("go");
    assert_eq!(hub.done(), "done move=19x10x14");
    hub.close_cleanly();
}

/// A table size in range that the system cannot give is an `error`, and the table in
/// use stays: the engine still searches, and `hub` names the old size.
#[test]
fn a_table_the_system_cannot_give_is_an_error() {
    // With "always overcommit" (mode 1) the kernel promises any size and the process
    // would be killed when the table is touched: nothing here could refuse it.
    let mode = std::fs::read_to_string("/proc/sys/vm/overcommit_memory").unwrap_or_default();
    if mode.trim() == "1" {
        support::skip(
            "a_table_the_system_cannot_give_is_an_error",
            "vm.overcommit_memory is 1: the kernel grants every allocation",
        );
        return;
    }
    let mut hub = Hub::start();
    hub.send("set-param name=tt-size value=2");
    hub.send("set-param name=tt-size value=1048576");
    let line = hub.recv();
    assert_eq!(
        line,
        "error message=\"set-param: cannot allocate a transposition table of 1048576 MiB\""
    );
    hub.send("hub");
    let mut declared = Vec::new();
    loop {
        let line = hub.recv();
        if line == "wait" {
            break;
        }
        declared.push(line);
    }
    assert!(
        declared.contains(&"param name=tt-size value=2 type=int min=1 max=1048576".to_string()),
        "{declared:?}"
    );
    hub.send("level depth=4");
    hub.send("go");
    assert!(hub.done().starts_with("done move="));
    hub.close_cleanly();
}

/// A line longer than the reader holds (1 MiB) is one error, in its turn; the next
/// line is read as usual.
#[test]
fn an_overlong_line_is_an_error_and_skipped() {
    let mut hub = Hub::start();
    let long = format!("pos start moves=\"{}\"", "22-19 ".repeat(200_000));
    hub.send(&long);
    assert_eq!(
        hub.recv(),
        "error message=\"input: line longer than 1048576 bytes, ignored\""
    );
    hub.ping();
    // During a search it waits for the `done`, like any other line.
    hub.send("go analyze");
    hub.send(&long);
    hub.ping();
    hub.send("stop");
    hub.done();
    assert!(hub.recv().starts_with("error message=\"input: line longer"));
    hub.ping();
    hub.close_cleanly();
}

/// A weights "file" that never ends is read only as far as a weights file goes.
#[test]
fn an_endless_weights_file_is_refused() {
    let mut hub = Hub::start();
    hub.send("set-param name=eval-file value=/dev/zero");
    let line = hub.recv();
    assert!(
        line.starts_with("error message=\"set-param: bad value for eval-file: '/dev/zero'"),
        "{line}"
    );
    hub.ping();
    hub.close_cleanly();
}

// ---------------------------------------------------------------------------
// (f) end of input
// ---------------------------------------------------------------------------

#[test]
fn end_of_input_exits_when_idle() {
    let mut hub = Hub::start();
    hub.ping();
    hub.close_cleanly();
    Hub::start().close_cleanly();
}

#[test]
fn end_of_input_stops_a_search() {
    for go in ["go analyze", "go ponder", "go think"] {
        let mut hub = Hub::start();
        hub.send("level infinite");
        hub.send(go);
        hub.ping();
        let (status, rest) = hub.close();
        assert!(status.success(), "{go}: {status}");
        let done: Vec<&String> = rest.iter().filter(|l| !l.starts_with("info")).collect();
        assert_eq!(done.len(), 1, "{go}: {rest:?}");
        assert!(done[0].starts_with("done move="), "{go}: {rest:?}");
    }
}

#[test]
fn quit_during_search_answers_done_and_exits() {
    let mut hub = Hub::start();
    hub.send("go analyze");
    hub.send("quit");
    hub.done();
    hub.close_cleanly();
}

// ---------------------------------------------------------------------------
// (g) pondering
// ---------------------------------------------------------------------------

#[test]
fn ponder_hit_becomes_a_timed_search() {
    let mut hub = Hub::start();
    for level in ["level move-time=0.3", "level time=2 inc=0.1"] {
        hub.send("pos start moves=\"22-19 11-15\"");
        hub.send(level);
        hub.send("go ponder");
        std::thread::sleep(Duration::from_millis(200));
        hub.ping();
        hub.send("ponder-hit");
        // A ponder search answers only after ponder-hit or stop: this done proves the
        // hit turned it into a search that ends on its own, within its time.
        hub.done();
        hub.ping();
    }
    hub.close_cleanly();
}

#[test]
fn ponder_then_stop_answers_done() {
    let mut hub = Hub::start();
    hub.send("level time=100");
    for pause in [0, 50] {
        hub.send("go ponder");
        std::thread::sleep(Duration::from_millis(pause));
        hub.send("stop");
        hub.done();
    }
    hub.send("ponder-hit"); // idle: ignored
    hub.ping();
    hub.close_cleanly();
}

#[test]
fn ponder_on_a_single_legal_move_waits_for_the_hit() {
    let mut hub = Hub::start();
    hub.send("pos pos=Wbeeeeeeeeeeeebeeeeweeeeeeeeeeeee");
    hub.send("level move-time=1");
    hub.send("go ponder");
    hub.ping(); // no done yet: ponder holds the answer
    hub.send("ponder-hit");
    // A fixed move time is searched even for a forced move, so a ponder move may come.
    let done = hub.done();
    assert!(done.starts_with("done move=19x10x14"), "{done}");
    hub.close_cleanly();
}

// ---------------------------------------------------------------------------
// (h) repetition history
// ---------------------------------------------------------------------------

/// White kings on 29 and men on 21, 22, 23 against a lone black king on 4; White to move.
fn kings_position() -> String {
    let mut squares = vec!['e'; 32];
    squares[4 - 1] = 'B';
    squares[29 - 1] = 'W';
    for sq in [21, 22, 23] {
        squares[sq - 1] = 'w';
    }
    std::iter::once('W').chain(squares).collect()
}

fn last_score(hub: &mut Hub) -> (f64, String) {
    hub.send("go");
    let (infos, done) = hub.infos_and_done();
    let last = infos.last().expect("info");
    let score = info_value(last, "score").parse().expect("score");
    (score, done)
}

#[test]
fn repetition_history_reaches_the_search() {
    let mut hub = Hub::start();
    hub.send("level depth=4");
    // After 29-25 4-8 25-29, Black's 8-4 repeats the first position: a draw, which the
    // losing side takes. Without that history the same position is simply lost.
    hub.send(&format!(
        "pos pos={} moves=\"29-25 4-8 25-29\"",
        kings_position()
    ));
    let (with_history, done) = last_score(&mut hub);
    assert_eq!(with_history, 0.0, "{done}");
    assert!(done.starts_with("done move=8-4"), "{done}");
    let mut squares: Vec<char> = kings_position().chars().collect();
    squares[0] = 'B';
    squares.swap(4, 8);
    hub.send(&format!("pos pos={}", squares.iter().collect::<String>()));
    let (without, done) = last_score(&mut hub);
    assert!(without < -0.5, "{without} {done}");
    hub.close_cleanly();
}

// ---------------------------------------------------------------------------
// A real client: pydraughts
// ---------------------------------------------------------------------------

/// The Python interpreter for the client test: `DAMIERA_PYTHON`, else the repo's venv.
fn python() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("DAMIERA_PYTHON") {
        return Some(PathBuf::from(path));
    }
    let venv = Path::new(env!("CARGO_MANIFEST_DIR")).join(".venv/bin/python");
    venv.exists().then_some(venv)
}

#[test]
fn pydraughts_plays_complete_games() {
    let Some(python) = python() else {
        support::skip(
            "pydraughts_plays_complete_games",
            "no DAMIERA_PYTHON and no .venv (python3 -m venv .venv && \
             .venv/bin/pip install -r tests/python/requirements.txt)",
        );
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let output = Command::new(&python)
        .arg(root.join("tests/python/test_pydraughts.py"))
        .arg(env!("CARGO_BIN_EXE_damiera"))
        .current_dir(root)
        .output()
        .expect("run the pydraughts client");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "pydraughts client failed ({}):\n{stdout}\n{stderr}",
        output.status
    );
}

// ---------------------------------------------------------------------------
// Measurements (not timed tests): cargo test --release --test hub -- --ignored --nocapture
// ---------------------------------------------------------------------------

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let at = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[at.min(sorted.len() - 1)]
}

/// `stop` → `done` latency of `go analyze` through the pipes, over 200 trials.
#[test]
#[ignore = "measurement"]
fn measure_stop_latency() {
    let mut hub = Hub::start();
    hub.send("pos start");
    let mut latencies = Vec::new();
    for trial in 0..200u64 {
        hub.send("go analyze");
        std::thread::sleep(Duration::from_millis(5 + trial % 20));
        let sent = Instant::now();
        hub.send("stop");
        hub.done();
        latencies.push(sent.elapsed());
    }
    latencies.sort();
    println!(
        "stop -> done over {} trials: p50 {:?}, p99 {:?}, max {:?}",
        latencies.len(),
        percentile(&latencies, 0.5),
        percentile(&latencies, 0.99),
        latencies[latencies.len() - 1]
    );
    hub.close_cleanly();
}

/// A self-play game at `level time=10 inc=0.1` with clocks kept here (the increment is
/// added before each move, as protocol.md says): time used per move against the clock.
#[test]
#[ignore = "measurement"]
fn measure_clock_use() {
    const INC: f64 = 0.1;
    let mut hub = Hub::start();
    let mut clocks = [10.0f64, 10.0];
    let mut moves: Vec<String> = Vec::new();
    let (mut worst, mut worst_at, mut spent) = (0.0f64, 0, [0.0f64; 2]);
    for ply in 0..300 {
        let side = ply % 2;
        hub.send(&format!("pos start moves=\"{}\"", moves.join(" ")));
        hub.send(&format!("level time={:.3} inc={INC}", clocks[side]));
        let start = Instant::now();
        hub.send("go think");
        let done = hub.done();
        let used = start.elapsed().as_secs_f64();
        let available = clocks[side] + INC;
        assert!(
            used < available,
            "ply {ply}: used {used:.3} of {available:.3}"
        );
        if used / available > worst {
            (worst, worst_at) = (used / available, ply);
        }
        spent[side] += used;
        clocks[side] = available - used;
        let Some(mv) = done.strip_prefix("done move=") else {
            println!("game over at ply {ply}: side {side} has no move");
            break;
        };
        moves.push(mv.split(' ').next().unwrap_or(mv).to_string());
    }
    println!(
        "{} plies; max used/(time+inc) {worst:.3} at ply {worst_at}; spent {:.2} s / {:.2} s; \
         clocks left {:.2} s / {:.2} s",
        moves.len(),
        spent[0],
        spent[1],
        clocks[0],
        clocks[1]
    );
    hub.close_cleanly();
}

#[test]
fn a_variant_change_starts_its_game_and_its_notation() {
    let mut hub = Hub::start();
    hub.send("pos start moves=\"22-19\"");
    hub.send("set-param name=variant value=english");
    hub.send("level depth=1");
    hub.send("go think");
    // English checkers from its start: Black moves first, from 9-12.
    let done = hub.done();
    let from = done
        .strip_prefix("done move=")
        .and_then(|m| m.split('-').next())
        .and_then(|n| n.parse::<u8>().ok());
    assert!(from.is_some_and(|n| (9..=12).contains(&n)), "{done}");
    // Brazilian, a position string in its numbering (a1 = 1 ... h8 = 32): a White king
    // on a1 (1) must take b2 (5) and d4 (14), the most pieces.
    hub.send("set-param name=variant value=brazilian");
    hub.send("pos pos=Weeeeeeeeeeeeeeeeebeeeeeebeee Wee");
    let line = hub.recv();
    assert!(
        line.starts_with("error message=\"pos:"),
        "a malformed string: {line}"
    );
    hub.send("pos pos=WWeeebeeeeeeeebeeeeeeeeeeeeeeeeee");
    hub.send("go think");
    let done = hub.done();
    assert!(
        done.starts_with("done move=a1x") && done.contains("xb2xd4"),
        "{done}"
    );
    hub.close_cleanly();
}
