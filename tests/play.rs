//! `damiera play` end to end: a scripted session piped into the binary.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code: a failed unwrap fails the test

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `damiera play` with `args`, feeding `input` on stdin.
fn play(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_damiera"))
        .arg("play")
        .args(args)
        // No endgame databases from the user's data directory: the script expects search scores.
        .env("XDG_DATA_HOME", "/nonexistent")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start damiera");
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(input).expect("write the script");
    }
    child.wait_with_output().expect("wait for damiera")
}

/// The text after the first occurrence of `marker` (so checks follow the script order).
fn after<'a>(text: &'a str, marker: &str) -> &'a str {
    let at = text
        .find(marker)
        .unwrap_or_else(|| panic!("{marker:?} missing in:\n{text}"));
    &text[at + marker.len()..]
}

#[test]
fn scripted_session() {
    let script = "22-19\n1-5\nundo\nflip\nfen W:W22:B18\nhint\n22x13\nquit\nmoves\n";
    let output = play(&["--time", "0.05"], script.as_bytes());
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{text}");
    assert!(
        output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // Piped input is not echoed, so output follows the prompt on its line.
    let unprompted = |l: &str| l.split_once("> ").map_or(l, |(_, r)| r).chars().count();
    assert!(text.lines().all(|l| unprompted(l) <= 80), "{text}");

    let rest = after(&text, "You play White; the engine plays Black");
    let rest = after(rest, "White to move. Legal moves:");
    let rest = after(rest, "Thinking for Black");
    let rest = after(rest, "  depth  1  score");
    let rest = after(rest, "Damiera plays ");
    let rest = after(rest, "Last move: Black ");
    let rest = after(rest, "Illegal move \"1-5\"; legal moves:");
    let rest = after(rest, "Took back 2 move(s).");
    let rest = after(rest, "Board turned: Black at the bottom.");
    // Taken back to the start, then flipped: White's men at the top.
    let flipped = rest
        .lines()
        .find(|l| l.starts_with("    |"))
        .unwrap_or_default();
    assert_eq!(
        flipped, "    |  w       w       w       w     |   |32    31    30    29    |",
        "{text}"
    );
    let rest = after(rest, "Position set.");
    let rest = after(rest, "Hint: 22x13 (win in 1).");
    let rest = after(rest, "Last move: White 22x13");
    let rest = after(rest, "Black has no legal move, White wins. You win!");
    let rest = after(rest, "Goodbye.");
    assert!(
        !rest.contains("Legal moves"),
        "input after quit was read:\n{text}"
    );
}

#[test]
fn end_of_input_quits_cleanly_and_bad_bytes_are_harmless() {
    let output = play(&["--depth", "2", "--color", "black"], b"\xff\xfe\n\n");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{text}");
    assert!(text.contains("You play Black"), "{text}");
    assert!(text.contains("Damiera plays "), "{text}");
    assert!(text.contains("Unknown command"), "{text}");
    assert!(text.ends_with("End of input. Goodbye.\n"), "{text}");
}

#[test]
fn bad_arguments_exit_2_on_one_line() {
    for args in [
        &["--time", "0"][..],
        &["--color", "red"],
        &["--fen", "W:W33:B1"],
    ] {
        let output = play(args, b"");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&output.stderr);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
}
