//! Every engine setting, declared once in `EngineOptions::PARAMETERS`, reaches every
//! front end from that declaration: each command that searches offers it as `--NAME`
//! and the Hub engine declares it in its handshake with its default. (The board's panel
//! is checked in tests/gui.rs, the DLL's settings file and commands in cb/src/settings.rs.)
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code: a failed unwrap fails the test

use std::io::Write;
use std::process::{Command, Stdio};

use damiera::engine::EngineOptions;

const DAMIERA: &str = env!("CARGO_BIN_EXE_damiera");

#[test]
fn every_command_that_searches_offers_every_setting() {
    for command in ["analyse", "bench", "play", "selfplay"] {
        let out = Command::new(DAMIERA)
            .args([command, "--help"])
            .output()
            .unwrap();
        let help = String::from_utf8(out.stdout).unwrap();
        assert!(help.contains("Engine settings:"), "{command}: {help}");
        for p in EngineOptions::PARAMETERS {
            let flag = format!("--{} <", p.name);
            assert!(
                help.contains(&flag),
                "{command} --help lacks {flag}: {help}"
            );
            let default = format!("[default: {}]", p.default_text());
            let line = help.lines().skip_while(|l| !l.contains(&flag)).take(4);
            assert!(
                line.collect::<String>().contains(&default),
                "{command} --help: {} without {default}",
                p.name
            );
        }
    }
}

#[test]
fn a_setting_given_on_the_command_line_reaches_the_search() {
    // MultiPV 3 at depth 2: three lines for the position.
    let mut child = Command::new(DAMIERA)
        .args([
            "analyse",
            "--depth",
            "2",
            "--multipv",
            "3",
            "--tt-size",
            "1",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let json: serde_json::Value =
        serde_json::from_str(String::from_utf8(out.stdout).unwrap().trim()).unwrap();
    assert_eq!(json["lines"].as_array().map(Vec::len), Some(3), "{json}");
    let bad = Command::new(DAMIERA)
        .args(["bench", "--contempt", "101"])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    let error = String::from_utf8(bad.stderr).unwrap();
    assert!(error.contains("expected an integer -100..100"), "{error}");
}

#[test]
fn the_hub_declares_every_setting_with_its_default() {
    let mut child = Command::new(DAMIERA)
        .arg("hub")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"hub\nquit\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    for p in EngineOptions::PARAMETERS {
        let declared = format!("param name={} value={} ", p.name, p.default_text());
        assert!(text.contains(&declared), "no {declared:?} in {text}");
    }
}
