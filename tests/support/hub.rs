//! Starting a Hub engine for a test: the process with piped stdin and stdout, and a
//! thread that hands its output over line by line.
#![allow(dead_code)] // not every test binary that includes the support module runs an engine

use std::io::{BufRead, BufReader};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};

/// `damiera hub`, ready to be configured further and [`spawn`]ed.
pub fn damiera_hub() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_damiera"));
    command.arg("hub");
    command
}

/// Starts `command` with piped stdin and stdout (stderr as configured, inherited by
/// default): the process, its stdin, and its output lines as they arrive.
pub fn spawn(mut command: Command) -> (Child, ChildStdin, Receiver<String>) {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("start {command:?}: {e}"));
    let stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, lines) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    (child, stdin, lines)
}
