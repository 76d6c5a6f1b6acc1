//! The static site (`scripts/web-release.sh`, `dist/web/`) in headless Chromium, served
//! by a plain static file server and no Damiera process: tests/browser/test_static.py
//! (a game by clicks checked against this build's rules core, analysis and Stop, the
//! PDN picker, the opening explorer, the databases' "wins in N", a clocked game, axe-core, the phone, speed
//! against the native engine, offline after the first visit).
//!
//! The site is built by `bash scripts/web-release.sh` (`.ci/run` runs it before the
//! tests); without it, or without Chromium and Selenium, the test says so loudly and
//! fails under CI=true. A site whose page or scripts differ from the sources is stale:
//! rebuild it.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code: a failed unwrap fails the test

mod support;

use std::path::Path;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_damiera");

#[test]
fn the_static_site_plays_offline_in_a_browser() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let site = root.join("dist/web");
    if !site.join("index.html").exists() || !site.join("damiera_web.wasm").exists() {
        support::skip(
            "the_static_site_plays_offline_in_a_browser",
            "no dist/web: build it with bash scripts/web-release.sh",
        );
        return;
    }
    for (built, source) in [
        ("app.js", "crates/gui/src/gui/page/app.js"),
        ("style.css", "crates/gui/src/gui/page/style.css"),
        ("web.js", "web/site/web.js"),
        ("board-worker.js", "web/site/board-worker.js"),
        ("engine-worker.js", "web/site/engine-worker.js"),
        ("wasm.js", "web/site/wasm.js"),
    ] {
        let a = std::fs::read(site.join(built)).unwrap();
        let b = std::fs::read(root.join(source)).unwrap();
        assert!(
            a == b,
            "dist/web/{built} differs from {source}: the site is stale, run bash scripts/web-release.sh"
        );
    }
    let Some(python) = support::browser_python("the_static_site_plays_offline_in_a_browser") else {
        return;
    };
    let out = Command::new(&python)
        .arg(root.join("tests/browser/test_static.py"))
        .arg(&site)
        .arg(BIN)
        .current_dir(root)
        .output()
        .expect("run the static site's browser test");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    if out.status.code() == Some(77) {
        support::skip("the_static_site_plays_offline_in_a_browser", &stdout);
        return;
    }
    assert!(
        out.status.success(),
        "static site browser test failed:\n{stdout}\n{stderr}"
    );
    eprintln!("{stdout}");
}
