//! PDN reading and writing for Italian draughts, at the text level.
//!
//! Moves are kept as strings (`22-19`, `29x22x15x6`, `22x15`): replaying them
//! against the rules is left to the rules core. The reader checks only their
//! shape: squares 1..=32 joined by `-` (a plain move, two squares) or `x`
//! (a capture, two or more squares; `X` and `:` are accepted and written as
//! `x`).
//!
//! The reader skips `;` line comments, `%` escape lines and NAGs (`$1`).
//! `{comments}`, `(variations)` (nested, with any comments inside, kept as text)
//! and `!`/`?` move annotations are kept, with runs of whitespace collapsed to one
//! space. The result token
//! `*` (unknown or unfinished game) is read as `result: None`, and the writer
//! writes `None` as `*`.
//!
//! [`parse_pdn`] refuses a text at its first fault; [`recover_pdn`], the reader of
//! files from outside, reads every game it can, repairing faults of certain meaning
//! and skipping the other faulty games, each with a warning naming its line.
//!
//! The writer writes a move number before each White move, and before a move by
//! Black only where a reader would not infer it (a first move, or one that does not
//! follow White's move of the same number, as a file read with odd numbers may
//! hold): continuation numbers such as `11...` are optional in PDN, and some
//! readers (pydraughts 0.6.7) fail on them.
//!
//! Writing a game and reading it back gives the same game when its moves are
//! normalized move text, its comments are whitespace-normalized without `}`,
//! its variations are whitespace-normalized with balanced parentheses and no
//! braces, its annotations are runs of `!` and `?`,
//! its tag names are alphanumeric (or `_`) and its tags are in writing order
//! (see [`PdnGame::sort_tags`]). The writer does not keep the `Result` tag in

mod lexer;
mod model;
mod parser;
mod reader;
mod writer;

pub use model::{PdnError, PdnErrorKind, PdnGame, PdnMove, Slot};
pub use reader::{Fix, PdnWarning, RecoveredGame, parse_pdn, recover_pdn};
pub use writer::{number_word, write_pdn};

use crate::board::Color;
use lexer::*;
use parser::*;
use reader::*;
#[cfg(test)]
use writer::*;

#[cfg(test)]
mod tests;
