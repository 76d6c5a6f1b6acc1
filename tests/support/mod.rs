//! Shared by the integration tests: how a test that cannot run says so, the perft
//! suites ([`perft`]) and how a Hub engine is started ([`hub`]).

pub mod hub;
pub mod perft;

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

/// The Python interpreter with pydraughts: `DAMIERA_PYTHON`, else the repo's venv; when
/// there is neither, `test` is reported as skipped ([`skip`]).
#[allow(dead_code)] // not every test binary that includes this module runs Python
pub fn python(test: &str) -> Option<std::path::PathBuf> {
    if let Some(path) = std::env::var_os("DAMIERA_PYTHON") {
        return Some(path.into());
    }
    let venv = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(".venv/bin/python");
    if venv.exists() {
        return Some(venv);
    }
    skip(test, "no DAMIERA_PYTHON and no .venv with pydraughts");
    None
}

/// The Python with selenium for a headless-Chromium test, when the machine has all it
/// needs (chromedriver, the venv, axe-core); else `test` is reported as skipped
/// ([`skip`]) and `None` returned.
#[allow(dead_code)] // only the browser tests call it
pub fn browser_python(test: &str) -> Option<std::path::PathBuf> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let python = std::env::var_os("DAMIERA_PYTHON")
        .map(std::path::PathBuf::from)
        .or_else(|| Some(root.join(".venv/bin/python")).filter(|p| p.exists()));
    let have_driver = std::path::Path::new("/usr/bin/chromedriver").exists();
    let have_axe = root
        .join("tests/browser/node_modules/axe-core/axe.min.js")
        .exists();
    let python = python.filter(|_| have_driver && have_axe);
    if python.is_none() {
        skip(
            test,
            "needs /usr/bin/chromedriver (apt-get install chromium chromium-driver), the .venv \
             with selenium and tests/browser/node_modules (npm ci --prefix tests/browser)",
        );
    }
    python
}
