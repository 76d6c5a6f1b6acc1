//! Property checks over untrusted input: what the fuzz targets (`fuzz/`) run on every
//! input, and what `tests/fuzz_corpus.rs` replays over the corpora kept in the
//! repository, on stable Rust, in every `cargo test`. A development crate of the
//! workspace (never published): it reads the engine through `damiera`'s public API only.
//!
//! Each check takes arbitrary bytes and returns `Err` with a description when a
//! property fails; a panic inside is a failure too. Beyond "no panic", each checks what
//! the reader promises: a position written and read back is the same position, every
//! move a parser accepts is legal, a PDN game written and read back is the same game, a
//! weights file that loads writes back to the same bytes, an endgame table that opens
//! never gives a value that differs from the original, and a Hub session answers every
//! `go` with exactly one `done`, and the web board's API answers `ok` with the state
//! or one line of error that changed nothing.
//!
//! - [`position`]: PDN FEN, Hub position strings, move text, the `pos` command.
//! - [`pdn`]: PDN files (encodings, games, tags, comments) and their replay; openings.
//! - [`weights`]: weights files of the pattern evaluation.
//! - [`network`]: network files of the network evaluation.
//! - [`egdb`]: endgame table files (header, index, blocks).
//! - [`book`]: opening book files (header, entries, checksum) and their probes.
//! - [`hub`]: a Hub session fed lines, over a stand-in engine and clock.
//! - [`web`]: the web board's JSON API fed requests, body to handler, no network.

pub mod book;
pub mod egdb;
pub mod hub;
pub mod network;
pub mod pdn;
pub mod position;
pub mod web;
pub mod weights;

/// The outcome of a check: `Err` names the property that failed.
pub type Checked = Result<(), String>;

/// `Err(message())` unless `condition` holds.
fn ensure(condition: bool, message: impl FnOnce() -> String) -> Checked {
    if condition { Ok(()) } else { Err(message()) }
}
