//! [`EngineOptions`]: everything a search runs with, in one value, and the engine
//! settings every front end sets by name, each declared here once.
//!
//! A new setting is one entry in the `settings!` list below (its doc comment is its help,
//! then its type, default, name, values and other front ends' names for it) plus its line
//! in `protocol.md`. From that entry come the field, its default, the Hub's `param`
//! declaration and `set-param`, the command line's `--NAME` on every command that
//! searches, the board's settings panel (built from the Hub declarations), and the
//! CheckerBoard DLL's settings file and *Engine command* keys. The search borrows the
//! whole value ([`crate::search`]'s context holds a reference), it copies nothing.

use std::sync::Arc;

use crate::book::{Book, BookMode};
use crate::egdb::Egdb;
use crate::search::eval::embedded_weights;
use crate::search::{PatternWeights, Style};

/// The default contempt for draws, hundredths of a man.
pub const CONTEMPT: i32 = 0;

/// The default `book-margin`, hundredths of a man.
pub const BOOK_MARGIN: i32 = 10;

/// Largest `tt-size`, MiB (1 TiB: a size the machine cannot give is refused when the
/// table is allocated, see [`crate::engine::Searcher::configure`]).
pub const MAX_TT_MIB: usize = 1 << 20;

/// The values a setting takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParameterKind {
    /// An integer from `min` to `max`.
    Int {
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// One of the names (stored as its index).
    Enum(&'static [&'static str]),
    /// `true` or `false` (stored as 1 or 0).
    Bool,
}

/// An engine setting that front ends set by name.
#[derive(Clone, Copy, Debug)]
pub struct Parameter {
    /// Its name, as the Hub's `set-param` and the command line (`--NAME`) write it.
    pub name: &'static str,
    /// Other names front ends accept for it (the CheckerBoard DLL's older keys).
    pub aliases: &'static [&'static str],
    /// Its values.
    pub kind: ParameterKind,
    /// One line of help.
    pub help: &'static str,
    /// Its value in `options`, as an integer (the index of a name, 0 or 1 for a flag).
    read: fn(&EngineOptions) -> i64,
    /// Stores a checked value.
    write: fn(&mut EngineOptions, i64),
}

impl PartialEq for Parameter {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name && self.kind == other.kind
    }
}

impl Parameter {
    /// Its default, as text.
    pub fn default_text(&self) -> String {
        self.text((self.read)(&EngineOptions::default()))
    }

    /// The setting `name` or one of its aliases.
    pub fn named(name: &str) -> Option<&'static Parameter> {
        EngineOptions::PARAMETERS
            .iter()
            .find(|p| p.name == name || p.aliases.contains(&name))
    }

    /// `value` checked against this setting: the integer, the index of the name, or 0/1.
    pub fn check(&self, value: &str) -> Result<i64, String> {
        self.check_as(self.name, value)
    }

    /// [`Parameter::check`], the error naming the setting `shown` (the name or alias the
    /// user wrote).
    pub fn check_as(&self, shown: &str, value: &str) -> Result<i64, String> {
        let bad = |why: String| format!("bad value for {shown}: '{value}' ({why})");
        match self.kind {
            ParameterKind::Int { min, max } => match value.trim().parse::<i64>() {
                Ok(n) if (min..=max).contains(&n) => Ok(n),
                _ => Err(bad(format!("expected an integer {min}..{max}"))),
            },
            ParameterKind::Enum(names) => names
                .iter()
                .position(|n| *n == value.trim())
                .map(|i| i as i64)
                .ok_or_else(|| bad(format!("expected {}", or_list(names)))),
            ParameterKind::Bool => match value.trim() {
                "true" | "1" => Ok(1),
                "false" | "0" => Ok(0),
                _ => Err(bad("expected true or false".into())),
            },
        }
    }

    /// A stored integer as text.
    fn text(&self, value: i64) -> String {
        match self.kind {
            ParameterKind::Int { .. } => value.to_string(),
            ParameterKind::Enum(names) => names
                .get(value as usize)
                .copied()
                .unwrap_or_default()
                .to_string(),
            ParameterKind::Bool => (value != 0).to_string(),
        }
    }
}

/// A setting's field type, stored in the table as an integer.
trait SettingValue {
    fn to_i64(&self) -> i64;
    fn from_i64(value: i64) -> Self;
}

impl SettingValue for usize {
    fn to_i64(&self) -> i64 {
        *self as i64
    }
    fn from_i64(value: i64) -> Self {
        value.max(0) as usize
    }
}

impl SettingValue for i32 {
    fn to_i64(&self) -> i64 {
        i64::from(*self)
    }
    fn from_i64(value: i64) -> Self {
        value.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
    }
}

impl SettingValue for bool {
    fn to_i64(&self) -> i64 {
        i64::from(*self)
    }
    fn from_i64(value: i64) -> Self {
        value != 0
    }
}

const STYLES: &[&str] = &["full", "hce", "baseline", "patterns"];
/// `book-mode`'s names, stored as `book_varied` (0 best, 1 varied).
const BOOK_MODES: &[&str] = &["best", "varied"];
const STYLE_VALUES: [Style; 4] = [Style::FULL, Style::HCE, Style::BASELINE, Style::PATTERNS];

impl SettingValue for Style {
    fn to_i64(&self) -> i64 {
        STYLE_VALUES.iter().position(|s| s == self).unwrap_or(0) as i64
    }
    fn from_i64(value: i64) -> Self {
        STYLE_VALUES
            .get(value as usize)
            .copied()
            .unwrap_or(Style::FULL)
    }
}

/// Declares [`EngineOptions`]: its settings (field, type, default, name, values, aliases;
/// the doc comment is the help) and its other fields, and from the same list the table
/// [`EngineOptions::PARAMETERS`].
macro_rules! settings {
    (
        settings {
            $(
                #[doc = $help:literal]
                $field:ident: $ty:ty = $default:expr,
                    $name:literal, $kind:expr, aliases $aliases:expr;
            )*
        }
        others {
            $(
                $(#[doc = $odoc:literal])*
                $ofield:ident: $oty:ty = $odefault:expr;
            )*
        }
    ) => {
        /// What every search of an engine runs with: its settings (table size, threads,
        /// features, MultiPV, contempt, ...), the evaluation's weights and the endgame
        /// databases. (The draw rules are the game's: every search is of a
        /// [`crate::game::Game`], which carries them.)
        #[derive(Clone, Debug)]
        pub struct EngineOptions {
            $(
                #[doc = $help]
                pub $field: $ty,
            )*
            $(
                $(#[doc = $odoc])*
                pub $ofield: $oty,
            )*
        }

        impl Default for EngineOptions {
            fn default() -> Self {
                EngineOptions {
                    $($field: $default,)*
                    $($ofield: $odefault,)*
                }
            }
        }

        impl EngineOptions {
            /// The engine settings, in declaration order.
            pub const PARAMETERS: &'static [Parameter] = &[
                $(
                    Parameter {
                        name: $name,
                        aliases: $aliases,
                        kind: $kind,
                        help: $help.trim_ascii(),
                        read: |o| SettingValue::to_i64(&o.$field),
                        write: |o, v| o.$field = SettingValue::from_i64(v),
                    },
                )*
            ];

            /// Whether the settings (not the weights or databases) are equal.
            fn same_settings(&self, other: &Self) -> bool {
                true $(&& self.$field == other.$field)*
            }
        }
    };
}

settings! {
    settings {
        /// Search threads (Lazy SMP).
        threads: usize = 1, "threads", ParameterKind::Int { min: 1, max: 64 },
            aliases &["searchthreads"];
        /// Transposition table size, MiB.
        tt_mib: usize = 64, "tt-size", ParameterKind::Int { min: 1, max: MAX_TT_MIB as i64 },
            aliases &["hashsize"];
        /// Search features: full, hce (the hand-made evaluation), baseline (plain alpha-beta) or patterns (the learned patterns where the game's evaluation is a network).
        style: Style = Style::FULL, "style", ParameterKind::Enum(STYLES), aliases &[];
        /// Best root moves searched and reported per iteration (MultiPV).
        multipv: usize = 1, "multipv", ParameterKind::Int { min: 1, max: 32 }, aliases &[];
        /// Contempt for draws in play, hundredths of a man: what a draw (repetition, move limit, database draw) costs the side to move at the root, the opponent gaining as much; analysis searches score draws 0.
        contempt: i32 = CONTEMPT, "contempt", ParameterKind::Int { min: -100, max: 100 },
            aliases &[];
        /// How a book move is chosen: best, or varied (at random among those within book-margin of the best).
        book_varied: bool = false, "book-mode", ParameterKind::Enum(BOOK_MODES), aliases &[];
        /// Hundredths of a man below the best book move a varied choice may be.
        book_margin: i32 = BOOK_MARGIN, "book-margin", ParameterKind::Int { min: 0, max: 1000 },
            aliases &[];
    }
    others {
        /// The pattern evaluation's weights. A search of a position of another variant than
        /// theirs uses that variant's embedded weights instead
        /// ([`crate::search::eval::weights_in`]): the default plays every variant with its own.
        weights: Arc<PatternWeights> = embedded_weights();
        /// Endgame databases to probe (`None`: play without).
        egdb: Option<Arc<Egdb>> = None;
        /// The opening book played from before searching (`None`: no book). Used in play,
        /// not in analysis (`infinite`), pondering or MultiPV searches.
        book: Option<Arc<Book>> = None;
    }
}

/// Two option sets are equal when their settings are and they share the same weights and
/// databases (compared by identity, not content).
impl PartialEq for EngineOptions {
    fn eq(&self, other: &Self) -> bool {
        self.same_settings(other)
            && Arc::ptr_eq(&self.weights, &other.weights)
            && match (&self.egdb, &other.egdb) {
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                (None, None) => true,
                _ => false,
            }
            && match (&self.book, &other.book) {
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                (None, None) => true,
                _ => false,
            }
    }
}

impl EngineOptions {
    /// How the book move is chosen: [`BookMode::Best`], or varied within the margin.
    pub fn book_mode(&self) -> BookMode {
        if self.book_varied {
            BookMode::Varied {
                margin: self.book_margin,
            }
        } else {
            BookMode::Best
        }
    }

    /// The value of setting `name` (or an alias) as text, `None` for a name that is not
    /// an engine setting.
    pub fn get(&self, name: &str) -> Option<String> {
        Parameter::named(name).map(|p| p.text((p.read)(self)))
    }

    /// Sets setting `name` (or an alias) from its text. `Ok(false)`: not an engine
    /// setting (nothing changed); on a bad value nothing changes and the error says why,
    /// e.g. `bad value for threads: '0' (expected an integer 1..64)`.
    pub fn set(&mut self, name: &str, value: &str) -> Result<bool, String> {
        let Some(parameter) = Parameter::named(name) else {
            return Ok(false);
        };
        let checked = parameter.check_as(name, value)?;
        (parameter.write)(self, checked);
        Ok(true)
    }
}

/// `a, b or c`.
fn or_list(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// The name of a [`Style`]: `full`, `hce` or `baseline` (a style of none of them is
/// shown as `full`, the engine's).
pub fn style_name(style: Style) -> &'static str {
    STYLES[style.to_i64() as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_parameter_reads_back_what_was_set_under_each_name() {
        for p in EngineOptions::PARAMETERS {
            let value = match p.kind {
                ParameterKind::Int { max, .. } => max.to_string(),
                ParameterKind::Enum(names) => names[names.len() - 1].to_string(),
                ParameterKind::Bool => (p.default_text() == "false").to_string(),
            };
            for name in std::iter::once(&p.name).chain(p.aliases) {
                let mut options = EngineOptions::default();
                assert_eq!(options.set(name, &value), Ok(true), "{name}");
                assert_eq!(options.get(p.name).as_deref(), Some(value.as_str()));
                assert_ne!(options, EngineOptions::default(), "{name} changed nothing");
            }
        }
    }

    #[test]
    fn defaults_are_within_their_ranges_and_names_are_unique() {
        let mut names = std::collections::BTreeSet::new();
        for p in EngineOptions::PARAMETERS {
            assert_eq!(p.check(&p.default_text()).map(|_| ()), Ok(()), "{}", p.name);
            assert!(!p.help.is_empty(), "{} has no help", p.name);
            for name in std::iter::once(&p.name).chain(p.aliases) {
                assert!(names.insert(*name), "{name} declared twice");
            }
        }
    }

    #[test]
    fn bad_values_name_the_parameter_and_change_nothing() {
        let mut options = EngineOptions::default();
        assert_eq!(
            options.set("threads", "0"),
            Err("bad value for threads: '0' (expected an integer 1..64)".into())
        );
        assert_eq!(
            options.set("style", "fast"),
            Err("bad value for style: 'fast' (expected full, hce, baseline or patterns)".into())
        );
        assert_eq!(
            options.set("hashsize", "0"),
            Err("bad value for hashsize: '0' (expected an integer 1..1048576)".into())
        );
        assert_eq!(options, EngineOptions::default());
        assert_eq!(options.set("ponder", "true"), Ok(false));
    }
}
