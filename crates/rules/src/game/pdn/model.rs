//! The PDN model: a game's tags, moves (with their comments, annotations and
//! variations) and result, and the errors of the strict reader.

use std::fmt;

use super::*;

use crate::board::Color;

/// Where a move stands in its numbered pair: in `1. 22-19 11-15`, 22-19 is first and
/// 11-15 second. A number starts with the move of the side that starts a game from the
/// standard position — White in Italian, Black in English checkers (`1. 11-15 23-19`
/// is Black's move, then White's) — so the slot is not the colour of the side that moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Slot {
    /// The move written right after its number (`1.`).
    First,
    /// The move after it (or after `1...` when a game starts with it).
    Second,
}

impl Slot {
    /// The slot of the next move.
    pub fn next(self) -> Slot {
        match self {
            Slot::First => Slot::Second,
            Slot::Second => Slot::First,
        }
    }
}

/// One move of a game's main line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnMove {
    /// Move text in normalized form, e.g. `22-19` or `29x22x15x6`.
    pub text: String,
    /// Full-move number the move belongs to (`1` for `1. 22-19 11-15`).
    pub number: u32,
    /// Its place in the numbered pair.
    pub slot: Slot,
    /// Comment following the move, whitespace-normalized.
    pub comment: Option<String>,
    /// Annotation glyph written after the move, such as `?` (mistake), `??`, `!`.
    pub annotation: Option<String>,
    /// Variations after the move (alternatives to it), each the text between its
    /// parentheses, whitespace-normalized.
    pub variations: Vec<String>,
}

impl PdnMove {
    /// A move with no comment, annotation or variation.
    pub fn new(text: &str, number: u32, slot: Slot) -> PdnMove {
        PdnMove {
            text: text.to_string(),
            number,
            slot,
            comment: None,
            annotation: None,
            variations: Vec::new(),
        }
    }
}

/// A game: tag pairs, main line and result.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PdnGame {
    /// Tag pairs in file order, e.g. `("Event", "Torneo")`.
    pub tags: Vec<(String, String)>,
    /// Comment before the first move, whitespace-normalized.
    pub comment: Option<String>,
    /// The main line.
    pub moves: Vec<PdnMove>,
    /// Result token (`1-0`, `0-1`, `1/2-1/2`, `2-0`, `0-2`, `1-1`, `0-0`);
    /// `None` for an unknown result (`*` or no result token).
    pub result: Option<String>,
}

impl PdnGame {
    /// The value of the first tag called `name`, if any; without one, `White`,
    /// `Black` and `Result` are read from the Italian federation's names `Bianco`,
    /// `Nero` and `Risultato`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        let find = |name: &str| {
            self.tags
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.as_str())
        };
        find(name).or_else(|| {
            ITALIAN_TAGS
                .iter()
                .find(|(pdn, _)| *pdn == name)
                .and_then(|(_, italian)| find(italian))
        })
    }

    /// The result: the result token, else the `Result` tag's value when it is a
    /// result (`2-0`, `1-1`, `0-2` as well as `1-0`, `1/2-1/2`, `0-1`); `None` when
    /// unknown.
    pub fn result_or_tag(&self) -> Option<&str> {
        self.result.as_deref().or_else(|| {
            self.tag("Result")
                .map(str::trim)
                .filter(|r| RESULTS[..7].contains(r))
        })
    }

    /// Sets tag `name` to `value`, replacing the first tag of that name or
    /// appending a new one.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(slot) => slot.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// The side to move first: Black when the `FEN` tag starts with `B`,
    /// White otherwise.
    pub fn first_side(&self) -> Color {
        match self.tag("FEN").and_then(|f| f.trim_start().chars().next()) {
            Some('B') | Some('b') => Color::Black,
            _ => Color::White,
        }
    }
}

/// Tag names of the Italian federation's files read as their PDN equivalents, as
/// (PDN, Italian).
const ITALIAN_TAGS: [(&str, &str); 3] = [
    ("White", "Bianco"),
    ("Black", "Nero"),
    ("Result", "Risultato"),
];

/// What went wrong while reading PDN.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PdnErrorKind {
    /// A `{` comment is not closed.
    UnterminatedComment,
    /// A `(` variation is not closed.
    UnterminatedVariation,
    /// A `)` without a matching `(`.
    UnmatchedParenthesis,
    /// A tag pair is not of the form `[Name "value"]`.
    MalformedTag,
    /// A token that is not a move, move number, result or annotation.
    BadToken,
}

impl fmt::Display for PdnErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PdnErrorKind::UnterminatedComment => "unterminated comment",
            PdnErrorKind::UnterminatedVariation => "unterminated variation",
            PdnErrorKind::UnmatchedParenthesis => "unmatched ')'",
            PdnErrorKind::MalformedTag => "malformed tag pair",
            PdnErrorKind::BadToken => "invalid token",
        })
    }
}

/// A PDN reading error, locating the bad token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnError {
    /// 1-based number of the game being read.
    pub game: usize,
    /// 1-based line of the token.
    pub line: usize,
    /// 1-based column (in characters) of the token.
    pub column: usize,
    /// The offending text (at most [`PdnError::MAX_TOKEN_CHARS`] characters, control
    /// characters as spaces, so that the error prints as one line).
    pub token: String,
    /// The kind of error.
    pub kind: PdnErrorKind,
}

impl PdnError {
    /// Longest token text kept in an error.
    pub const MAX_TOKEN_CHARS: usize = 40;
}

impl fmt::Display for PdnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "PDN game {}, line {}, column {}: {} `{}`",
            self.game, self.line, self.column, self.kind, self.token
        )
    }
}

impl std::error::Error for PdnError {}
