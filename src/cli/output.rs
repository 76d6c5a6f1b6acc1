//! Output files written whole or not at all: the text goes to `NAME.tmp` beside the
//! destination and is renamed over it only once complete, so an interrupted or failed
//! run never leaves a partial file under the final name.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::CliError;

/// A file being written; removed on drop unless [`TempFile::commit`]ted.
pub struct TempFile {
    tmp: PathBuf,
    dest: PathBuf,
    file: Option<File>,
}

impl TempFile {
    /// Creates `dest` + `.tmp`; fails (one line) when `dest` cannot be written there
    /// or is a directory.
    pub fn create(dest: &Path) -> Result<TempFile, CliError> {
        if dest.is_dir() {
            return Err(CliError(format!(
                "cannot write {}: it is a directory",
                dest.display()
            )));
        }
        let mut name = dest.file_name().unwrap_or_default().to_os_string();
        name.push(".tmp");
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
        assert!(TempFile::create(&dir.join("no/such/dir/x.pdn")).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
