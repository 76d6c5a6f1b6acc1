//! Output files written whole or not at all: the text goes to `NAME.tmp` (or
//! `NAME.partial`) beside the destination and is renamed over it only once complete, so
//! an interrupted or failed run never leaves a partial file under the final name.
//!
//! Every command that writes a file prepares it before its long part ([`prepare`]): the
//! missing folders above it are made (a job writing `results/r-7.json` needs no `mkdir`
//! first), and a path that cannot be written fails at once, on one line, not after
//! hours of games.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::CliError;

/// Makes ready to write `dest` later: creates the folders above it that are missing, and
/// fails (one line naming the path and the reason) when one cannot be made or when
/// `dest` is a folder.
pub fn prepare(dest: &Path) -> Result<(), CliError> {
    if dest.is_dir() {
        return Err(CliError(format!(
            "cannot write {}: it is a directory",
            dest.display()
        )));
    }
    let Some(dir) = dest.parent().filter(|d| !d.as_os_str().is_empty()) else {
        return Ok(());
    };
    std::fs::create_dir_all(dir).map_err(|e| {
        // Name the culprit when it is a file in the way (create_dir_all says only
        // "Not a directory" or "File exists").
        let file = dir
            .ancestors()
            .find(|a| !a.as_os_str().is_empty() && a.exists() && !a.is_dir());
        let reason = match file {
            Some(file) if file == dir => format!("{} is a file, not a folder", dir.display()),
            Some(file) => format!(
                "cannot create folder {}: {} is a file, not a folder",
                dir.display(),
                file.display()
            ),
            None => format!("cannot create folder {}: {e}", dir.display()),
        };
        CliError(format!("cannot write {}: {reason}", dest.display()))
    })
}

/// A file being written; removed on drop unless [`TempFile::commit`]ted.
pub struct TempFile {
    tmp: PathBuf,
    dest: PathBuf,
    file: Option<File>,
}

impl TempFile {
    /// Creates `dest` + `.tmp` (and the folders above it, [`prepare`]); fails (one
    /// line) when `dest` cannot be written there or is a directory.
    pub fn create(dest: &Path) -> Result<TempFile, CliError> {
        Self::with_suffix(dest, ".tmp")
    }

    /// Like [`TempFile::create`], with the name `dest` + `.partial`: the unfinished
    /// slice of a batch job (`selfplay`, `match --results`).
    pub fn partial(dest: &Path) -> Result<TempFile, CliError> {
        Self::with_suffix(dest, ".partial")
    }

    fn with_suffix(dest: &Path, suffix: &str) -> Result<TempFile, CliError> {
        prepare(dest)?;
        let mut name = dest.file_name().unwrap_or_default().to_os_string();
        name.push(suffix);
        let tmp = dest.with_file_name(name);
        let file = File::create(&tmp)
            .map_err(|e| CliError(format!("cannot write {}: {e}", dest.display())))?;
        Ok(TempFile {
            tmp,
            dest: dest.to_path_buf(),
            file: Some(file),
        })
    }

    /// Appends bytes.
    pub fn write_all(&mut self, bytes: &[u8]) -> Result<(), CliError> {
        let dest = &self.dest;
        match self.file.as_mut() {
            Some(f) => f
                .write_all(bytes)
                .map_err(|e| CliError(format!("cannot write {}: {e}", dest.display()))),
            None => Err(CliError(format!("cannot write {}", dest.display()))),
        }
    }

    /// Flushes the text to disk and gives it its final name.
    pub fn commit(mut self) -> Result<(), CliError> {
        let error =
            |e: std::io::Error| CliError(format!("cannot write {}: {e}", self.dest.display()));
        if let Some(file) = self.file.take() {
            file.sync_all().map_err(error)?;
        }
        std::fs::rename(&self.tmp, &self.dest).map_err(error)
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        // After a successful commit the temporary name is gone; otherwise clean up.
        let _ = std::fs::remove_file(&self.tmp);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_whole_or_not_at_all() {
        let dir = std::env::temp_dir().join(format!("damiera-output-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let dest = dir.join("out.pdn");
        let mut f = TempFile::create(&dest).unwrap();
        f.write_all(b"half").unwrap();
        drop(f);
        assert!(!dest.exists() && !dir.join("out.pdn.tmp").exists());
        let mut f = TempFile::create(&dest).unwrap();
        f.write_all(b"whole").unwrap();
        f.commit().unwrap();
        assert_eq!(std::fs::read_to_string(&dest).unwrap(), "whole");
        assert!(!dir.join("out.pdn.tmp").exists());
        assert!(TempFile::create(&dir).is_err());
        // Missing folders are made; under a regular file they cannot be.
        let mut f = TempFile::partial(&dir.join("new/sub/x.json")).unwrap();
        f.write_all(b"{}").unwrap();
        f.commit().unwrap();
        assert_eq!(std::fs::read(dir.join("new/sub/x.json")).unwrap(), b"{}");
        let err = TempFile::create(&dest.join("sub/x.pdn")).err().unwrap().0;
        assert!(err.contains("is a file, not a folder"), "{err}");
        assert!(prepare(&dir).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
