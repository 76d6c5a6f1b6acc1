//! The released `damiera_cb.dll` (from `dist/damiera-windows-x86_64.zip`) under wine,
//! loaded by the same C harness compiled for Windows with mingw-w64: the 1,000-position
//! check, a whole game, every command, playnow and bad input, as on Linux.
//! Fails under CI (`CI` set, and not empty, `0` or `false`: cb/tests/common/mod.rs)
//! when the release or the tools are missing; elsewhere it says loudly that it skipped.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code: a failed unwrap fails the test

mod common;
mod wine_env;

use std::path::Path;

use common::*;
use wine_env::{WineDist, mingw, win_path};

#[test]
fn released_dll_under_wine_answers_by_the_rules() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let dist = match WineDist::setup(root, "dll", scratch) {
        Ok(dist) => dist,
        Err(why) => return skip("released_dll_under_wine_answers_by_the_rules", &why),
    };
    let harness = dist.dir.join("harness.exe");
    mingw(&root.join("cb/tests/harness/harness.c"), &harness, &[]);
    let ini = dist.dir.join("test-settings.ini");
    std::fs::write(&ini, "hashsize=16\nenable_wld=0\n").unwrap();
    let cmd = vec![
        dist.wine().display().to_string(),
        "harness.exe".to_string(),
        "damiera_cb.dll".to_string(),
    ];
    let ini_win = win_path(&ini);
    let mut vars: Vec<(&str, &str)> = Vec::new();
    let wine_vars = dist.vars();
    for (k, v) in &wine_vars {
        vars.push((k, v.as_str()));
    }
    vars.push(("DAMIERA_CB_INI", &ini_win));
    let start = || Harness::start_in(&cmd, &dist.dir, &vars);

    let mut h = start();
    check_commands(&mut h);
    assert_eq!(h.command("set hashsize 16").0, 1);
    let positions = test_positions(1000, 18);
    let (long, kings) = check_positions(&mut h, &positions, 0.005);
    eprintln!("wine: 1000 positions, {kings} with kings, {long} king captures of 3+ played");
    let (reason, plies) = whole_game(&mut h, 0.02);
    eprintln!("wine: whole game, {plies} plies, {reason}");
    let ms = check_play_now(&mut h, &open_positions(20, 7));
    eprintln!(
        "wine: playnow latency ms: median {:.2}, max {:.2}",
        median(&ms),
        ms[ms.len() - 1]
    );
    assert!(median(&ms) < 50.0 && ms[ms.len() - 1] < 2000.0, "{ms:?}");
    let got = h.abuse();
    assert_eq!(got.len(), 15);
    assert_eq!(h.command("get gametype"), (1, "22".to_string()));
    h.quit();
}
