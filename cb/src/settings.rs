//! Engine settings: defaults, the settings file beside the DLL, and where the endgame
//! databases are.
//!
//! Like other CheckerBoard engines, Damiera keeps its settings in a file next to the
//! DLL, `damiera_cb.ini` (`key=value` lines, `;` or `#` comments), read when the DLL is
//! first used and rewritten by every `set` command that changes a setting. The
//! environment variable `DAMIERA_CB_INI` names another file (tests use it).
//!
//! The opening book: `bookfile` is `embedded` (the book shipped for the game played, by
//! default; none for Thai), `off`, or a book file (a bare name
//! is looked for beside the DLL first); `book` is CheckerBoard's book strength, 0 no
//! book, 1 all kinds of moves (varied within three times `book-margin`), 2 good moves
//! (varied within `book-margin`), 3 best moves (the default). `book` and `book-mode`
//! follow each other.
//!
//! The endgame databases are found in this order: `dbpath` from the file or `set dbpath`
//! (relative paths are relative to the current directory, CheckerBoard's own folder);
//! else a folder `egdb` beside the DLL; else Damiera's default folder
//! (`%LOCALAPPDATA%\damiera\egdb` on Windows, `~/.local/share/damiera/egdb` elsewhere).

use std::path::{Path, PathBuf};

use damiera_engine::board::Variant;
use damiera_engine::book::BookMode;
use damiera_engine::engine::EngineOptions;

/// Settings file name, beside the DLL.
pub const FILE_NAME: &str = "damiera_cb.ini";
/// Database cache sizes accepted, MiB.
pub const DB_MIB: std::ops::RangeInclusive<usize> = 1..=65_536;
/// CheckerBoard's book strengths: none, all kinds of moves, good moves, best moves.
pub const BOOK_STRENGTH: std::ops::RangeInclusive<usize> = 0..=3;
/// `bookfile` of the book shipped for the game played.
pub const BOOK_EMBEDDED: &str = "embedded";
/// `bookfile` of no book.
pub const BOOK_OFF: &str = "off";

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
    /// CheckerBoard's book strength, 0..=3 (`book`, see the module docs).
    pub book_strength: u8,
    /// The opening book: `embedded`, `off` or a file (`bookfile`).
    pub book_file: String,
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
            book_strength: 3,
            book_file: BOOK_EMBEDDED.to_string(),
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
            if key == "book-mode" && self.book_strength > 0 {
                self.book_strength = if self.engine.book_varied { 2 } else { 3 };
            }
            return Ok(());
        }
        match key {
            "book" => {
                let strength = parse_in(key, value, BOOK_STRENGTH)? as u8;
                if strength > 0 {
                    self.engine.book_varied = strength < 3;
                }
                self.book_strength = strength;
            }
            "bookfile" => {
                let v = value.trim();
                self.book_file = if v.is_empty() { BOOK_OFF } else { v }.to_string();
            }
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
            "book" => self.book_strength.to_string(),
            "bookfile" => self.book_file.clone(),
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
             {engine}dbpath={db_path}\ndbmbytes={}\nenable_wld={}\nallscores={}\ngametype={}\n\
             bookfile={}\nbook={}\n",
            self.db_mib,
            u8::from(self.db_enabled),
            u8::from(self.allscores),
            self.variant.game_type(),
            self.book_file,
            self.book_strength,
        )
    }

    /// How the book's move is chosen, `None` for no book: the strength's mode (all kinds
    /// of moves: varied within three times `book-margin`).
    pub fn book_mode(&self) -> Option<BookMode> {
        match self.book_strength {
            0 => None,
            1 => Some(BookMode::Varied {
                margin: self.engine.book_margin.saturating_mul(3),
            }),
            _ => Some(self.engine.book_mode()),
        }
    }

    /// The book file to open for `bookfile` (neither `embedded` nor `off`): a bare name
    /// found beside the DLL, else the path as given.
    pub fn book_path(&self, dll_dir: Option<&Path>) -> PathBuf {
        let given = PathBuf::from(&self.book_file);
        let beside = dll_dir
            .filter(|_| given.components().count() == 1)
            .map(|d| d.join(&given))
            .filter(|p| p.is_file());
        beside.unwrap_or(given)
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
                book_varied: true,
                ..EngineOptions::default()
            },
            db_path: Some(PathBuf::from(r"C:\Program Files\Damiera\egdb")),
            db_mib: 512,
            db_enabled: false,
            allscores: true,
            variant: Variant::Russian,
            book_strength: 1,
            book_file: r"C:\Books\my.book".into(),
        };
        let text = s.to_text();
        assert!(text.contains("threads=2\ntt-size=256\n"), "{text}");
        assert_eq!(Settings::from_text(&text), (s, vec![]));
        let (_, problems) = Settings::from_text("gametype=30");
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
    fn book_strength_and_book_mode_follow_each_other() {
        let mut s = Settings::default();
        assert_eq!(
            (s.get("book"), s.get("bookfile")),
            (Some("3".into()), Some("embedded".into()))
        );
        assert_eq!(s.book_mode(), Some(BookMode::Best));
        s.apply("book", "2").unwrap();
        assert_eq!(s.get("book-mode").as_deref(), Some("varied"));
        s.apply("book", "1").unwrap();
        assert_eq!(s.book_mode(), Some(BookMode::Varied { margin: 30 }));
        s.apply("book-mode", "best").unwrap();
        assert_eq!(s.get("book").as_deref(), Some("3"));
        s.apply("book", "0").unwrap();
        assert_eq!(s.book_mode(), None);
        s.apply("book-mode", "varied").unwrap();
        assert_eq!(s.get("book").as_deref(), Some("0"), "no book stays no book");
        assert!(s.apply("book", "4").is_err());
        s.apply("bookfile", " ").unwrap();
        assert_eq!(s.get("bookfile").as_deref(), Some("off"));
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
