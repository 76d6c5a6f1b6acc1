//! Engine settings: defaults, the settings file beside the DLL, and where the endgame
//! databases are.
//!
//! Like other CheckerBoard engines, Damiera keeps its settings in a file next to the
//! DLL, `damiera_cb.ini` (`key=value` lines, `;` or `#` comments), read when the DLL is
//! first used and rewritten by every `set` command that changes a setting. The
//! environment variable `DAMIERA_CB_INI` names another file (tests use it).
//!
//! The endgame databases are found in this order: `dbpath` from the file or `set dbpath`
//! (relative paths are relative to the current directory, CheckerBoard's own folder);
//! else a folder `egdb` beside the DLL; else Damiera's default folder
//! (`%LOCALAPPDATA%\damiera\egdb` on Windows, `~/.local/share/damiera/egdb` elsewhere).

use std::path::{Path, PathBuf};

use damiera_engine::board::Variant;
use damiera_engine::engine::EngineOptions;

/// Settings file name, beside the DLL.
pub const FILE_NAME: &str = "damiera_cb.ini";
/// Database cache sizes accepted, MiB.
pub const DB_MIB: std::ops::RangeInclusive<usize> = 1..=65_536;

/// What the engine plays with.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// The engine's settings ([`EngineOptions::PARAMETERS`]: `threads`, `tt-size`, ...,
    /// also under the DLL's older keys `searchthreads` and `hashsize`); its weights and
    /// databases are not used (the search state holds the databases).
    pub engine: EngineOptions,
    /// Endgame database directory chosen by the user (`None`: look in the usual places).
    pub db_path: Option<PathBuf>,
    /// Endgame database block cache, MiB.
    pub db_mib: usize,
    /// Whether the endgame databases are used.
    pub db_enabled: bool,
    /// Show every root move with its score instead of the main line.
    pub allscores: bool,
    /// The game played: CheckerBoard's game type 21, 22, 25 or 26 (`gametype`).
    pub variant: Variant,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            engine: EngineOptions::default(),
            db_path: None,
            db_mib: 128,
            db_enabled: true,
            allscores: false,
            variant: Variant::Italian,
        }
    }
}

/// The variant of a CheckerBoard game type given as text.
pub fn parse_gametype(value: &str) -> Result<Variant, String> {
    value
        .trim()
        .parse::<u32>()
        .ok()
        .and_then(Variant::from_game_type)
        .ok_or_else(|| {
            format!(
                "gametype must be one of {}, not {:?}",
                Variant::game_types_listed(),
                clip(value)
            )
        })
}

/// Parses a number within `range`, naming the setting when it is not.
pub fn parse_in(
    name: &str,
    value: &str,
    range: std::ops::RangeInclusive<usize>,
) -> Result<usize, String> {
    match value.trim().parse::<usize>() {
        Ok(n) if range.contains(&n) => Ok(n),
        _ => Err(format!(
            "{name} must be a whole number from {} to {}, not {:?}",
            range.start(),
            range.end(),
            clip(value)
        )),
    }
}

/// Parses `0` or `1`.
pub fn parse_flag(name: &str, value: &str) -> Result<bool, String> {
    match value.trim() {
        "0" => Ok(false),
        "1" => Ok(true),
        other => Err(format!("{name} must be 0 or 1, not {:?}", clip(other))),
    }
}

/// At most 40 characters of a value, for messages.
pub fn clip(text: &str) -> String {
    text.chars().take(40).collect()
}

impl Settings {
    /// Applies one `key=value` of the settings file (the keys are the `set` commands'):
    /// an engine setting by its name or alias, or one of the DLL's own.
    pub fn apply(&mut self, key: &str, value: &str) -> Result<(), String> {
        if self.engine.set(key, value.trim())? {
            return Ok(());
        }
        match key {
            "dbmbytes" => self.db_mib = parse_in(key, value, DB_MIB)?,
            "enable_wld" => self.db_enabled = parse_flag(key, value)?,
            "allscores" => self.allscores = parse_flag(key, value)?,
            "gametype" => self.variant = parse_gametype(value)?,
            "dbpath" => {
                let v = value.trim();
                self.db_path = (!v.is_empty()).then(|| PathBuf::from(v));
            }
            other => return Err(format!("unknown setting {:?}", clip(other))),
        }
        Ok(())
    }

    /// Reads a settings file over the defaults; bad lines are skipped and reported.
    pub fn from_text(text: &str) -> (Settings, Vec<String>) {
        let mut settings = Settings::default();
        let mut problems = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with(';') || line.starts_with('#') {
                continue;
            }
            let result = match line.split_once('=') {
                Some((k, v)) => settings.apply(k.trim(), v),
                None => Err(format!("expected key=value, got {:?}", clip(line))),
            };
            if let Err(e) = result {
                problems.push(format!("line {}: {e}", i + 1));
            }
        }
        (settings, problems)
    }

    /// The value of `key` (an engine setting by name or alias, or one of the DLL's own)
    /// as text; `None` for an unknown key. (`dbpath` is the one chosen, empty for the
    /// default.)
    pub fn get(&self, key: &str) -> Option<String> {
        if let Some(value) = self.engine.get(key) {
            return Some(value);
        }
        Some(match key {
            "dbmbytes" => self.db_mib.to_string(),
            "enable_wld" => u8::from(self.db_enabled).to_string(),
            "allscores" => u8::from(self.allscores).to_string(),
            "gametype" => self.variant.game_type().to_string(),
            "dbpath" => self
                .db_path
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
            _ => return None,
        })
    }

    /// The settings file's text: every engine setting by its name, then the DLL's own.
    pub fn to_text(&self) -> String {
        let db_path = self
            .db_path
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        let engine: String = EngineOptions::PARAMETERS
            .iter()
            .map(|p| {
                format!(
                    "{}={}\n",
                    p.name,
                    self.engine.get(p.name).unwrap_or_default()
                )
            })
            .collect();
        format!(
            "; Damiera CheckerBoard engine settings (written by the engine; see README)\n\
             {engine}dbpath={db_path}\ndbmbytes={}\nenable_wld={}\nallscores={}\ngametype={}\n",
            self.db_mib,
            u8::from(self.db_enabled),
            u8::from(self.allscores),
            self.variant.game_type(),
        )
    }

    /// The endgame database directory to use, if any (see the module docs).
    pub fn db_dir(&self, dll_dir: Option<&Path>) -> Option<PathBuf> {
        if !self.db_enabled {
            return None;
        }
        if let Some(p) = &self.db_path {
            return Some(p.clone());
        }
        dll_dir
            .map(|d| d.join("egdb"))
            .filter(|d| d.is_dir())
            .or_else(|| {
                Some(damiera_engine::egdb::default_dir(self.variant)).filter(|d| d.is_dir())
            })
    }
}

/// The settings file: `DAMIERA_CB_INI`, else beside the DLL.
pub fn file_path(dll_dir: Option<&Path>) -> Option<PathBuf> {
    std::env::var_os("DAMIERA_CB_INI")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| dll_dir.map(|d| d.join(FILE_NAME)))
}

/// Loads the settings file (defaults when there is none).
pub fn load(path: Option<&Path>) -> (Settings, Vec<String>) {
    match path.map(std::fs::read) {
        Some(Ok(bytes)) => Settings::from_text(&String::from_utf8_lossy(&bytes)),
        _ => (Settings::default(), Vec::new()),
    }
}

/// Writes the settings file; the error says why it could not.
pub fn save(path: Option<&Path>, settings: &Settings) -> Result<(), String> {
    let path = path.ok_or("the DLL's folder is unknown")?;
    std::fs::write(path, settings.to_text()).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_round_trips_and_bad_lines_are_reported() {
        let s = Settings {
            engine: EngineOptions {
                tt_mib: 256,
                threads: 2,
                contempt: -5,
                ..EngineOptions::default()
            },
            db_path: Some(PathBuf::from(r"C:\Program Files\Damiera\egdb")),
            db_mib: 512,
            db_enabled: false,
            allscores: true,
            variant: Variant::Russian,
        };
        let text = s.to_text();
        assert!(text.contains("threads=2\ntt-size=256\n"), "{text}");
        assert_eq!(Settings::from_text(&text), (s, vec![]));
        let (_, problems) = Settings::from_text("gametype=24");
        assert!(problems[0].contains("gametype"), "{problems:?}");
        let (read, problems) = Settings::from_text("hashsize=9999999\nfoo\nsearchthreads=4\nx=1");
        assert_eq!(read.engine.tt_mib, 64);
        assert_eq!(read.engine.threads, 4);
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert!(problems[0].contains("hashsize"), "{problems:?}");
    }

    #[test]
    fn every_engine_setting_is_in_the_file_and_set_by_its_name() {
        let text = Settings::default().to_text();
        for p in EngineOptions::PARAMETERS {
            let line = format!("\n{}={}\n", p.name, p.default_text());
            assert!(text.contains(&line), "{line:?} not in {text}");
            let mut s = Settings::default();
            assert_eq!(s.get(p.name), Some(p.default_text()));
            assert!(s.apply(p.name, "nonsense").is_err(), "{}", p.name);
            assert_eq!(s, Settings::default());
        }
    }

    #[test]
    fn disabled_databases_have_no_directory() {
        let s = Settings {
            db_enabled: false,
            db_path: Some(PathBuf::from("/x")),
            ..Settings::default()
        };
        assert_eq!(s.db_dir(None), None);
        let s = Settings {
            db_path: Some(PathBuf::from("/x")),
            ..Settings::default()
        };
        assert_eq!(s.db_dir(None), Some(PathBuf::from("/x")));
    }
}
