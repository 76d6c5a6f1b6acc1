//! Shared by the integration tests: how a test that cannot run says so.

use std::io::Write;

/// Whether this is a CI run (`CI` set to anything but empty, `0` or `false`), where
/// every test must run. cb/tests/common/mod.rs keeps the same rule for cb's tests.
pub fn ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !matches!(v.trim(), "" | "0" | "false"))
}

/// Reports that `test` cannot run here and why. Under CI this fails the test; else it
/// is written straight to stderr, past the test harness's capture, so that a plain
/// `cargo test` shows it.
pub fn skip(test: &str, reason: &str) {
    assert!(!ci(), "{test} cannot run under CI: {reason}");
    let _ = writeln!(
        std::io::stderr(),
        "\n!!! SKIPPED {test}: {reason} (bash .ci/run installs what the tests need) !!!\n"
    );
}
