//! [`EngineOptions`]: everything a search runs with, in one value, and the engine
//! parameters front ends set by name (the Hub's `set-param`), declared here once.
//!
//! A new engine parameter is one change in this file: a field, its default, its entry in
//! [`EngineOptions::PARAMETERS`] and its arms in [`EngineOptions::get`] and
//! [`EngineOptions::set`]. The Hub declares and sets it from this table, and every other
//! front end starts from [`EngineOptions::default`].

use std::sync::Arc;

use crate::book::{Book, BookMode};
use crate::egdb::Egdb;
use crate::search::eval::embedded_weights;
use crate::search::{PatternWeights, Style};

/// The default contempt for draws, hundredths of a man.
pub const CONTEMPT: i32 = 0;

/// The default `book-margin`, hundredths of a man.
pub const BOOK_MARGIN: i32 = 10;

/// What every search of an engine runs with: table size, threads, features, MultiPV,
/// contempt, the evaluation's weights and the endgame databases. (The draw rules are the
/// game's: every search is of a [`crate::game::Game`], which carries them.)
#[derive(Clone, Debug)]
pub struct EngineOptions {
    /// Search threads (Lazy SMP), 1..=64.
    pub threads: usize,
    /// Transposition table size in MiB.
    pub tt_mib: usize,
    /// Search features.
    pub style: Style,
    /// Best root moves searched and reported per iteration (MultiPV), 1..=32.
    pub multipv: usize,
    /// Contempt for draws in play, in hundredths of a man: what a draw (repetition,
    /// move limit, database draw) costs the side to move at the root; the opponent gains
    /// as much. Positive avoids draws against a weaker opponent. Analysis searches
    /// (`infinite` or `analysis` limits) score draws 0 whatever this says.
    pub contempt: i32,
    /// The pattern evaluation's weights. A search of a position of another variant than
    /// theirs uses that variant's embedded weights instead
    /// ([`crate::search::eval::weights_in`]): the default plays every variant with its own.
    pub weights: Arc<PatternWeights>,
    /// Endgame databases to probe (`None`: play without).
    pub egdb: Option<Arc<Egdb>>,
    /// The opening book played from before searching (`None`: no book). Used in play,
    /// not in analysis (`infinite`), pondering or MultiPV searches.
    pub book: Option<Arc<Book>>,
    /// Whether the book move is drawn at random among those within [`Self::book_margin`]
    /// of the best (`book-mode=varied`) instead of the best (`best`).
    pub book_varied: bool,
    /// Hundredths of a man below the best book move a varied choice may be.
    pub book_margin: i32,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            threads: 1,
            tt_mib: 64,
            style: Style::FULL,
            multipv: 1,
            contempt: CONTEMPT,
            weights: embedded_weights(),
            egdb: None,
            book: None,
            book_varied: false,
            book_margin: BOOK_MARGIN,
        }
    }
}

/// Two option sets are equal when their values are and they share the same weights and
/// databases (compared by identity, not content).
impl PartialEq for EngineOptions {
    fn eq(&self, other: &Self) -> bool {
        self.threads == other.threads
            && self.tt_mib == other.tt_mib
            && self.style == other.style
            && self.multipv == other.multipv
            && self.contempt == other.contempt
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
            && self.book_varied == other.book_varied
            && self.book_margin == other.book_margin
    }
}

/// The values a parameter takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParameterKind {
    /// An integer from `min` to `max`.
    Int {
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// One of the names.
    Enum(&'static [&'static str]),
}

/// An engine parameter that front ends set by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Parameter {
    /// Its name, as the Hub's `set-param` writes it.
    pub name: &'static str,
    /// Its values.
    pub kind: ParameterKind,
}

/// Largest `tt-size`, MiB (1 TiB: a size the machine cannot give is refused when the
/// table is allocated, see [`crate::engine::Searcher::configure`]).
pub const MAX_TT_MIB: usize = 1 << 20;

const STYLES: &[&str] = &["full", "hce", "baseline"];
const BOOK_MODES: &[&str] = &["best", "varied"];

impl EngineOptions {
    /// The engine parameters, in declaration order.
    pub const PARAMETERS: &'static [Parameter] = &[
        Parameter {
            name: "threads",
            kind: ParameterKind::Int { min: 1, max: 64 },
        },
        Parameter {
            name: "tt-size",
            kind: ParameterKind::Int {
                min: 1,
                max: MAX_TT_MIB as i64,
            },
        },
        Parameter {
            name: "style",
            kind: ParameterKind::Enum(STYLES),
        },
        Parameter {
            name: "multipv",
            kind: ParameterKind::Int { min: 1, max: 32 },
        },
        Parameter {
            name: "contempt",
            kind: ParameterKind::Int {
                min: -100,
                max: 100,
            },
        },
        Parameter {
            name: "book-mode",
            kind: ParameterKind::Enum(BOOK_MODES),
        },
        Parameter {
            name: "book-margin",
            kind: ParameterKind::Int { min: 0, max: 1000 },
        },
    ];

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

    /// The value of parameter `name` as text, `None` for a name that is not an engine
    /// parameter.
    pub fn get(&self, name: &str) -> Option<String> {
        Some(match name {
            "threads" => self.threads.to_string(),
            "tt-size" => self.tt_mib.to_string(),
            "style" => style_name(self.style).to_string(),
            "multipv" => self.multipv.to_string(),
            "contempt" => self.contempt.to_string(),
            "book-mode" => BOOK_MODES[usize::from(self.book_varied)].to_string(),
            "book-margin" => self.book_margin.to_string(),
            _ => return None,
        })
    }

    /// Sets parameter `name` from its text. `Ok(false)`: not an engine parameter
    /// (nothing changed); on a bad value nothing changes and the error says why, e.g.
    /// `bad value for threads: '0' (expected an integer 1..64)`.
    pub fn set(&mut self, name: &str, value: &str) -> Result<bool, String> {
        let Some(parameter) = Self::PARAMETERS.iter().find(|p| p.name == name) else {
            return Ok(false);
        };
        let checked = check(parameter, value)?;
        match name {
            "threads" => self.threads = checked as usize,
            "tt-size" => self.tt_mib = checked as usize,
            "style" => self.style = [Style::FULL, Style::HCE, Style::BASELINE][checked as usize],
            "multipv" => self.multipv = checked as usize,
            "contempt" => self.contempt = checked as i32,
            "book-mode" => self.book_varied = checked == 1,
            "book-margin" => self.book_margin = checked as i32,
            _ => return Ok(false),
        }
        Ok(true)
    }
}

/// `value` checked against `parameter`: the integer, or the index of the name.
fn check(parameter: &Parameter, value: &str) -> Result<i64, String> {
    let bad = |why: String| format!("bad value for {}: '{value}' ({why})", parameter.name);
    match parameter.kind {
        ParameterKind::Int { min, max } => match value.parse::<i64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(n),
            _ => Err(bad(format!("expected an integer {min}..{max}"))),
        },
        ParameterKind::Enum(names) => names
            .iter()
            .position(|n| *n == value)
            .map(|i| i as i64)
            .ok_or_else(|| bad(format!("expected {}", or_list(names)))),
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
    if style == Style::BASELINE {
        "baseline"
    } else if style == Style::HCE {
        "hce"
    } else {
        "full"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_parameter_reads_back_what_was_set() {
        for p in EngineOptions::PARAMETERS {
            let mut options = EngineOptions::default();
            let value = match p.kind {
                ParameterKind::Int { max, .. } => max.to_string(),
                ParameterKind::Enum(names) => names[names.len() - 1].to_string(),
            };
            assert_eq!(options.set(p.name, &value), Ok(true), "{}", p.name);
            assert_eq!(options.get(p.name).as_deref(), Some(value.as_str()));
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
            Err("bad value for style: 'fast' (expected full, hce or baseline)".into())
        );
        assert_eq!(options, EngineOptions::default());
        assert_eq!(options.set("ponder", "true"), Ok(false));
    }
}
