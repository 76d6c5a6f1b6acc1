//! The Windows release under wine: the files of `dist/damiera-windows-x86_64.zip`
//! (made by `scripts/windows-release.sh`) unpacked into a scratch folder, with a stand-in
//! `bcryptprimitives.dll` for wine 8 beside them, and the commands to run them.
//! Shared by `cb/tests/wine.rs` and the root package's `tests/windows.rs`.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The zip's files, exactly.
pub const ZIP_FILES: [&str; 4] = [
    "README.txt",
    "damiera.exe",
    "damiera_cb.dll",
    "damiera_cb.htm",
];
/// The zip, relative to the workspace root.
pub const ZIP: &str = "dist/damiera-windows-x86_64.zip";
/// The C compiler for Windows programs.
pub const MINGW_GCC: &str = "x86_64-w64-mingw32-gcc";

/// The unpacked release and the wine to run it with.
pub struct WineDist {
    /// The release's files, plus the test's own.
    pub dir: PathBuf,
    wine: PathBuf,
    prefix: PathBuf,
}

fn find_wine() -> Option<PathBuf> {
    ["/usr/lib/wine/wine64", "/usr/bin/wine64", "/usr/bin/wine"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.is_file())
}

fn has(program: &str) -> bool {
    Command::new(program).arg("--version").output().is_ok()
}

/// A Linux path as a Windows program under wine sees it.
pub fn win_path(p: &Path) -> String {
    format!("Z:{}", p.display()).replace('/', "\\")
}

impl WineDist {
    /// Unpacks the release for test `name`. When the release, wine or mingw is missing,
    /// says which (`Err`): the caller skips, which fails under CI (each test package's
    /// `skip`: tests/support/mod.rs, cb/tests/common/mod.rs).
    pub fn setup(root: &Path, name: &str, scratch: &Path) -> Result<WineDist, String> {
        let zip = root.join(ZIP);
        let wine = find_wine();
        let missing: Vec<&str> = [
            (!zip.is_file()).then_some(ZIP),
            wine.is_none().then_some("wine64"),
            (!has(MINGW_GCC)).then_some(MINGW_GCC),
        ]
        .into_iter()
        .flatten()
        .collect();
        if !missing.is_empty() {
            return Err(format!(
                "missing {}; run scripts/windows-release.sh (it installs the Windows \
                 toolchain and wine64 and builds {ZIP})",
                missing.join(", ")
            ));
        }
        let dir = scratch.join(format!("wine-{name}"));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let unzip = Command::new("python3")
            .args(["-m", "zipfile", "-e"])
            .arg(&zip)
            .arg(&dir)
            .status()
            .expect("python3 to unpack the zip");
        assert!(unzip.success(), "cannot unpack {}", zip.display());
        let mut files: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        files.sort();
        assert_eq!(files, ZIP_FILES, "the zip's files");
        let stand_in = root.join("cb/tests/harness/bcryptprimitives.c");
        mingw(
            &stand_in,
            &dir.join("bcryptprimitives.dll"),
            &["-shared", "-ladvapi32"],
        );
        let prefix = scratch.join("wine-prefix");
        std::fs::create_dir_all(&prefix).unwrap();
        let dist = WineDist {
            dir,
            wine: wine.unwrap(),
            prefix,
        };
        dist.ensure_prefix();
        Ok(dist)
    }

    /// Creates the wine prefix once, before tests run programs in it side by side.
    fn ensure_prefix(&self) {
        static INIT: std::sync::Mutex<()> = std::sync::Mutex::new(());
        let _one = INIT.lock().unwrap_or_else(|e| e.into_inner());
        let ready = self.prefix.join("damiera-ready");
        if ready.exists() {
            return;
        }
        let out = self
            .command("damiera.exe")
            .arg("--version")
            .output()
            .expect("wine to start");
        assert!(
            out.status.success(),
            "damiera.exe --version under wine: {}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        std::fs::write(ready, "").unwrap();
    }

    /// A command running `program` (a Windows program in the release folder) under wine,
    /// in that folder.
    pub fn command(&self, program: &str) -> Command {
        let mut cmd = Command::new(&self.wine);
        cmd.arg(program).current_dir(&self.dir);
        self.wine_env(&mut cmd);
        cmd
    }

    /// Wine's settings: its own prefix, quiet, no Mono or Gecko installer.
    pub fn vars(&self) -> Vec<(&'static str, String)> {
        vec![
            ("WINEPREFIX", self.prefix.display().to_string()),
            ("WINEDEBUG", "-all".into()),
            ("WINEDLLOVERRIDES", "mscoree,mshtml=".into()),
        ]
    }

    /// Wine's settings for `cmd` (also for processes it starts).
    pub fn wine_env(&self, cmd: &mut Command) {
        for (k, v) in self.vars() {
            cmd.env(k, v);
        }
    }

    /// The wine program.
    pub fn wine(&self) -> &Path {
        &self.wine
    }
}

/// Compiles C for Windows with mingw-w64; panics with the compiler's output.
pub fn mingw(src: &Path, out: &Path, extra: &[&str]) {
    let output = Command::new(MINGW_GCC)
        .args(["-O2", "-Wall", "-o"])
        .arg(out)
        .arg(src)
        .args(extra)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {MINGW_GCC}: {e}"));
    assert!(
        output.status.success(),
        "{MINGW_GCC} failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}
