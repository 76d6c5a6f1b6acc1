//! Soak run: one `damiera hub` process driven through random Hub sessions for
//! `DAMIERA_SOAK_SECS` seconds (110 by default, so that the whole test stays under two
//! minutes): positions (legal games and positions
//! reached by random play, and illegal ones), every `go` mode under every `level` form,
//! `stop` and `ponder-hit` at random moments, `set-param` of every parameter (good and
//! bad values, weights files, database directories), and garbage lines.
//!
//! After each round the driver stops what runs and pings, then checks that the engine
//! answered every line: one `pong` per `ping`, one `ready` per `init`, one `wait` per
//! `hub`, one `error` per line that must be refused and none for the others, one
//! `done` per `go`, each with a move legal in that `go`'s position. It measures the
//! engine's resident memory (VmRSS, from /proc) after a warm-up and at the end, both
//! times in the same settings (the largest the rounds use), settled: it must stay flat.
//! The peak (VmHWM) is reported but not bounded by the warm-up's: a new table is
//! allocated while the old one still serves (so that a refused size keeps it), and rare
//! runs of `tt-size` changes hold several at once for a moment.
//!
//! ```sh
//! cargo test --release --test soak -- --ignored --exact soak --nocapture     # 2 minutes
//! DAMIERA_SOAK_SECS=3600 cargo test --release --test soak -- --ignored --exact soak --nocapture
//! ```
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code: a failed unwrap fails the test

mod support;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use damiera::board::Position;
use damiera::movegen::{hub_text, legal_moves, parse_move, path_text};
use damiera::protocol::parser::parse_command;
use damiera::search::eval::EMBEDDED_FILE;
use damiera::search::eval::pattern::PatternWeights;
use damiera::search::eval::weights_file::to_bytes;
use damiera::train::Rng;

/// Longest wait for an answer the engine owes (only guards against hangs).
const PATIENCE: Duration = Duration::from_secs(120);

/// Resident memory the engine may gain between the warm-up and the end in the same
/// settings, KiB: allocator slack, nothing that grows with the number of rounds.
const SLACK_KIB: u64 = 16 * 1024;

/// What the engine owes and what it gave.
#[derive(Default, Debug, Clone, Copy, PartialEq, Eq)]
struct Counts {
    pongs: u64,
    readies: u64,
    waits: u64,
    errors: u64,
    dones: u64,
}

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Owed (expected) and received answers.
    owed: Counts,
    got: Counts,
    /// Lines sent.
    sent: u64,
    /// The position of each `go` not yet answered, oldest first.
    searches: std::collections::VecDeque<Position>,
    /// Unexpected answers seen.
    problems: Vec<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut command = support::hub::damiera_hub();
        command
            .env("XDG_DATA_HOME", "/nonexistent")
            .stderr(Stdio::null());
        let (child, stdin, lines) = support::hub::spawn(command);
        Engine {
            child,
            stdin,
            lines,
            owed: Counts::default(),
            got: Counts::default(),
            sent: 0,
            searches: Default::default(),
            problems: Vec::new(),
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("engine alive");
        self.stdin.flush().expect("engine alive");
        self.sent += 1;
    }

    /// Takes every answer that arrives within `wait`.
    fn drain(&mut self, wait: Duration) {
        let until = Instant::now() + wait;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => self.take(&line),
                Err(RecvTimeoutError::Timeout) => return,
                Err(RecvTimeoutError::Disconnected) => panic!("the engine died"),
            }
        }
    }

    fn take(&mut self, line: &str) {
        let word = line.split(' ').next().unwrap_or("");
        match word {
            "pong" => self.got.pongs += 1,
            "ready" => self.got.readies += 1,
            "wait" => self.got.waits += 1,
            "error" => self.got.errors += 1,
            "info" | "id" | "param" => {}
            "done" => {
                self.got.dones += 1;
                let Some(pos) = self.searches.pop_front() else {
                    self.problems.push(format!("done without a go: {line}"));
                    return;
                };
                self.check_move(&pos, line);
            }
            _ => self.problems.push(format!("unknown answer {line:?}")),
        }
    }

    /// A `done` names a legal move of its position, or none when there is none.
    fn check_move(&mut self, pos: &Position, line: &str) {
        let mv = line
            .split(' ')
            .find_map(|w| w.strip_prefix("move="))
            .map(str::to_string);
        let fine = match mv {
            Some(text) => parse_move(pos, &text).is_ok(),
            None => legal_moves(pos).is_empty(),
        };
        if !fine {
            self.problems.push(format!("{line} in {}", pos.to_fen()));
        }
    }

    /// Ends every search (`stop` until each `go` has its `done`), then pings and waits
    /// for the `pong`: every line sent so far has been handled.
    fn settle(&mut self) {
        let deadline = Instant::now() + PATIENCE;
        while self.got.dones < self.owed.dones {
            assert!(
                Instant::now() < deadline,
                "go without done: {:?} owed, {:?} got",
                self.owed,
                self.got
            );
            self.send("stop");
            self.drain(Duration::from_millis(200));
        }
        self.send("ping");
        self.owed.pongs += 1;
        let deadline = Instant::now() + PATIENCE;
        while self.got.pongs < self.owed.pongs {
            assert!(Instant::now() < deadline, "no pong: {:?}", self.got);
            self.drain(Duration::from_millis(50));
        }
        assert_eq!(self.got, self.owed, "answers differ from what was owed");
        assert!(self.problems.is_empty(), "{:?}", self.problems);
    }

    /// Resident memory (now, peak) in KiB, in the largest settings the rounds use (a
    /// 32 MiB table, MultiPV 4, two threads, the embedded weights), once every search
    /// has ended and every line has been handled. A `go` (in `position`, stopped at once
    /// if it runs on) follows the settings: the search thread takes its jobs in order, so
    /// by its `done` the old table has been swapped out and freed (`pong` alone comes from
    /// the protocol thread, possibly before that).
    fn settled_memory(&mut self, position: Position) -> (u64, u64) {
        for line in [
            "set-param name=tt-size value=32",
            "set-param name=multipv value=4",
            "set-param name=threads value=2",
            "set-param name=eval-file value=embedded",
            "go",
        ] {
            self.send(line);
        }
        self.owed.dones += 1;
        self.searches.push_back(position);
        self.settle();
        self.memory()
    }

    /// Resident memory now and at its peak, KiB.
    fn memory(&self) -> (u64, u64) {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .unwrap_or_default();
        let field = |name: &str| {
            status
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .and_then(|v| v.trim().trim_end_matches(" kB").trim().parse().ok())
                .unwrap_or(0)
        };
        (field("VmRSS:"), field("VmHWM:"))
    }
}

/// The files the sessions point parameters at.
struct Files {
    dir: PathBuf,
    egdb: PathBuf,
    empty: PathBuf,
    weights: Vec<PathBuf>,
}

fn files() -> Files {
    let dir = std::env::temp_dir().join(format!("damiera-soak-{}", std::process::id()));
    let egdb = dir.join("egdb");
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_damiera"))
        .args(["egdb", "build", "--pieces", "3", "--dir"])
        .arg(&egdb)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let material = dir.join("material.dmw");
    std::fs::write(&material, to_bytes(&PatternWeights::material_only())).unwrap();
    let copy = dir.join("copy.dmw");
    std::fs::write(&copy, EMBEDDED_FILE).unwrap();
    Files {
        dir,
        egdb,
        empty,
        weights: vec![material, copy],
    }
}

/// What the driver knows of the engine's state, to know which lines it must refuse.
struct Model {
    rng: Rng,
    /// `init` has been sent (a changed `egdb-path` is loaded at once from then on).
    init: bool,
    /// The current `egdb-path` can be read.
    egdb_ok: bool,
    egdb_path: String,
    /// The position the next `go` searches.
    position: Position,
    /// The system refuses a huge table (not "always overcommit").
    huge_table_refused: bool,
}

impl Model {
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.rng.below(items.len() as u64) as usize]
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.rng.below(100) < percent
    }
}

/// A random `set-param`: the line and whether the engine must refuse it.
fn set_param(m: &mut Model, files: &Files) -> (String, bool) {
    let good = m.chance(80);
    let (name, value, bad) = match m.rng.below(10) {
        0 => (
            // Russian is a variant now; international draughts is not (and the model's
            // positions stay Italian).
            "variant",
            if good { "italian" } else { "international" }.to_string(),
            !good,
        ),
        1 => {
            let v = if good {
                1 + m.rng.below(2) as i64
            } else {
                *m.pick(&[0, 65, -3])
            };
            ("threads", v.to_string(), !good)
        }
        2 => {
            if !good && m.huge_table_refused && m.chance(30) {
                ("tt-size", "1048576".to_string(), true)
            } else if good {
                ("tt-size", (1 + m.rng.below(32)).to_string(), false)
            } else {
                (
                    "tt-size",
                    m.pick(&["0", "1048577", "big"]).to_string(),
                    true,
                )
            }
        }
        3 => (
            "ponder",
            if good {
                *m.pick(&["true", "false"])
            } else {
                "maybe"
            }
            .to_string(),
            !good,
        ),
        4 => {
            let v = if good {
                *m.pick(&["full", "hce", "baseline", "patterns"])
            } else {
                "turbo"
            };
            ("style", v.to_string(), !good)
        }
        5 => {
            let v = if good {
                (1 + m.rng.below(4)).to_string()
            } else {
                "33".to_string()
            };
            ("multipv", v, !good)
        }
        6 => {
            let v = if good {
                m.rng.below(100).to_string()
            } else {
                "-1".to_string()
            };
            ("draw-moves", v, !good)
        }
        7 => {
            let v = if good {
                let w = m.pick(&files.weights).display().to_string();
                if m.chance(30) {
                    "embedded".to_string()
                } else {
                    w
                }
            } else {
                files.dir.join("missing.dmw").display().to_string()
            };
            ("eval-file", v, !good)
        }
        8 => {
            let (path, ok) = match m.rng.below(3) {
                0 => (files.egdb.display().to_string(), true),
                1 => (files.empty.display().to_string(), true),
                _ => (files.dir.join("no-such-dir").display().to_string(), false),
            };
            // Loaded at once after `init` when it changes: an unreadable one is an error.
            let bad = m.init && path != m.egdb_path && !ok;
            m.egdb_ok = ok;
            m.egdb_path = path.clone();
            ("egdb-path", path, bad)
        }
        _ => ("hash", "16".to_string(), true),
    };
    (format!("set-param name={name} value=\"{value}\""), bad)
}

/// A random position: reached by random play from the start (with its moves in either
/// notation), or set directly; sometimes an illegal one. Returns the line and whether
/// it must be refused.
fn pos(m: &mut Model) -> (String, bool) {
    let mut pos = Position::start();
    let mut moves = Vec::new();
    for _ in 0..m.rng.below(60) {
        let legal = legal_moves(&pos);
        if legal.is_empty() {
            break;
        }
        let mv = legal[m.rng.below(legal.len() as u64) as usize];
        moves.push(if m.chance(50) {
            hub_text(mv)
        } else {
            path_text(&pos, mv)
        });
        pos = pos.play(mv);
    }
    match m.rng.below(10) {
        0 => {
            // An illegal move at the end.
            moves.push("1-2".to_string());
            (format!("pos start moves=\"{}\"", moves.join(" ")), true)
        }
        1 => (
            "pos pos=Wbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb".to_string(),
            true,
        ),
        2 => {
            m.position = pos;
            (format!("pos pos={}", pos.to_hub()), false)
        }
        _ => {
            m.position = pos;
            (format!("pos start moves=\"{}\"", moves.join(" ")), false)
        }
    }
}

/// A random `level` line and whether it must be refused; whether its searches end by
/// themselves.
fn level(m: &mut Model) -> (String, bool) {
    let line = match m.rng.below(9) {
        0 => format!("level depth={}", 1 + m.rng.below(6)),
        1 => format!("level nodes={}", 1 + m.rng.below(50_000)),
        2 => format!("level move-time={:.3}", m.rng.below(300) as f64 / 1000.0),
        3 => format!(
            "level time={:.2} inc={:.2}",
            m.rng.below(300) as f64 / 100.0,
            m.rng.below(10) as f64 / 100.0
        ),
        4 => format!("level moves={} time=1", m.rng.below(40)),
        5 => "level infinite".to_string(),
        6 => format!("level infinite depth={}", 1 + m.rng.below(5)),
        7 => return ("level depth=-1".to_string(), true),
        _ => return ("level".to_string(), true),
    };
    (line, false)
}

/// A garbage line the parser gives a known verdict on: `Some(true)` an error,
/// `Some(false)` ignored. Lines that happen to be valid commands are not sent.
fn garbage(m: &mut Model) -> Option<(String, bool)> {
    let line = match m.rng.below(5) {
        0 => (0..m.rng.below(80))
            .map(|_| char::from(m.rng.below(128) as u8))
            .filter(|&c| c != '\n' && c != '\r')
            .collect(),
        1 => m
            .pick(&[
                "go = x",
                "pos start pos=x",
                "level time=nan",
                "set-param value=1",
            ])
            .to_string(),
        2 => m
            .pick(&["frobnicate", "", "   ", "=", "\"", "hub2 x=1"])
            .to_string(),
        3 => (0..m.rng.below(40))
            .map(|_| char::from_u32(m.rng.below(0x3000) as u32).unwrap_or('?'))
            .filter(|&c| c != '\n' && c != '\r')
            .collect(),
        _ => format!(
            "{} {}",
            m.pick(&["go", "level", "pos", "set-param"]),
            m.pick(&["\u{0}", "x=\"", "depth=1e99"])
        ),
    };
    match parse_command(&line) {
        Ok(Some(_)) => None,
        Ok(None) => Some((line, false)),
        Err(_) => Some((line, true)),
    }
}

/// One round: a few set-up lines, a search with lines during it, then `settle`.
fn round(e: &mut Engine, m: &mut Model, files: &Files) {
    for _ in 0..m.rng.below(6) {
        let (line, bad) = match m.rng.below(9) {
            0 | 1 => set_param(m, files),
            2 | 3 => pos(m),
            4 => level(m),
            5 => ("new-game".to_string(), false),
            6 => {
                e.owed.waits += 1;
                ("hub".to_string(), false)
            }
            7 => {
                e.owed.readies += 1;
                let bad = !m.egdb_ok;
                m.init = true;
                ("init".to_string(), bad)
            }
            _ => match garbage(m) {
                Some(g) => g,
                None => continue,
            },
        };
        e.owed.errors += u64::from(bad);
        e.send(&line);
    }
    let mode = *m.pick(&["go", "go think", "go ponder", "go analyze"]);
    e.send(mode);
    e.owed.dones += 1;
    e.searches.push_back(m.position);
    for _ in 0..m.rng.below(4) {
        std::thread::sleep(Duration::from_millis(m.rng.below(150)));
        match m.rng.below(6) {
            0 => e.send("ponder-hit"),
            1 => e.send("stop"),
            2 => {
                e.send("ping");
                e.owed.pongs += 1;
            }
            3 => {
                if let Some((line, bad)) = garbage(m) {
                    e.owed.errors += u64::from(bad);
                    e.send(&line);
                }
            }
            4 => {
                let (line, bad) = level(m);
                e.owed.errors += u64::from(bad);
                e.send(&line);
            }
            _ => e.drain(Duration::from_millis(20)),
        }
    }
    e.settle();
}

#[test]
#[ignore = "soak run: under 2 minutes by default (DAMIERA_SOAK_SECS), run by .ci/run"]
fn soak() {
    let seconds: u64 = std::env::var("DAMIERA_SOAK_SECS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(110);
    let seed: u64 = std::env::var("DAMIERA_SOAK_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let files = files();
    let overcommit = std::fs::read_to_string("/proc/sys/vm/overcommit_memory").unwrap_or_default();
    let mut model = Model {
        rng: Rng::new(seed),
        init: false,
        egdb_ok: true,
        egdb_path: String::new(),
        position: Position::start(),
        huge_table_refused: overcommit.trim() != "1",
    };
    let mut engine = Engine::start();
    // Start from our own directory, not the user's databases.
    engine.send(&format!(
        "set-param name=egdb-path value=\"{}\"",
        files.egdb.display()
    ));
    model.egdb_path = files.egdb.display().to_string();
    // The largest settings the rounds use, once, so that the warm-up reaches the
    // engine's full size: a 32 MiB table, MultiPV's side table, two threads, databases.
    for line in [
        "set-param name=tt-size value=32",
        "set-param name=multipv value=4",
        "set-param name=threads value=2",
        "init",
        "pos pos=Weeeeeeeeeeeebeeeeeeeeeeweeeeeewe",
        "level depth=8",
        "go",
    ] {
        engine.send(line);
    }
    engine.owed.readies += 1;
    engine.owed.dones += 1;
    engine
        .searches
        .push_back(Position::from_hub("Weeeeeeeeeeeebeeeeeeeeeeweeeeeewe").unwrap());
    model.init = true;
    engine.settle();
    let start = Instant::now();
    let total = Duration::from_secs(seconds);
    let warm_up = total / 10;
    let (mut after_warm_up, mut rounds) = (None, 0u64);
    while start.elapsed() < total {
        round(&mut engine, &mut model, &files);
        rounds += 1;
        if after_warm_up.is_none() && start.elapsed() >= warm_up {
            after_warm_up = Some(engine.settled_memory(model.position));
        }
    }
    let (rss, hwm) = engine.settled_memory(model.position);
    let (rss0, hwm0) = after_warm_up.unwrap_or((rss, hwm));
    engine.send("quit");
    let status = engine.child.wait().expect("exit");
    let _ = std::fs::remove_dir_all(&files.dir);
    let report = format!(
        "soak: {} s, {rounds} rounds, {} lines sent, {} searches, {} errors answered; \
         after warm-up ({} s): VmRSS {rss0} KiB, VmHWM {hwm0} KiB; at the end: VmRSS {rss} KiB, \
         VmHWM {hwm} KiB",
        start.elapsed().as_secs(),
        engine.sent,
        engine.got.dones,
        engine.got.errors,
        warm_up.as_secs(),
    );
    // Past the capture, so that CI's log has the figures.
    let _ = writeln!(std::io::stderr(), "{report}");
    assert!(status.success(), "exit status {status}");
    assert!(
        rss <= rss0 + SLACK_KIB,
        "memory grew: {rss0} KiB after the warm-up, {rss} KiB at the end (same settings)"
    );
}

/// The soak's own driver works on a short run (so a broken driver fails every test run,
/// not only the soak).
#[test]
fn a_short_soak_round_settles() {
    let files = files();
    let mut model = Model {
        rng: Rng::new(7),
        init: false,
        egdb_ok: true,
        egdb_path: files.egdb.display().to_string(),
        position: Position::start(),
        huge_table_refused: false,
    };
    let mut engine = Engine::start();
    engine.send(&format!(
        "set-param name=egdb-path value=\"{}\"",
        files.egdb.display()
    ));
    for _ in 0..5 {
        round(&mut engine, &mut model, &files);
    }
    assert!(engine.got.dones >= 5);
    engine.send("quit");
    assert!(engine.child.wait().expect("exit").success());
    let _ = std::fs::remove_dir_all(Path::new(&files.dir));
}
