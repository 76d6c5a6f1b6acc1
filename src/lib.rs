//! Damiera: an Italian draughts (dama italiana) engine following the FID rulebook.
//!
//! Rooms, each depending only on rooms before it in this list (no arrow runs back up):
//!
//! - [`shard`] (no dependency): `--shard K/N`, the slices of a run for batch systems;
//! - [`memory`] (no dependency): freed tables given back to the system;
//! - [`rng`] (no dependency): a small seeded generator (SplitMix64) for reproducible
//!   games, shuffles and test data;
//! - [`board`]: squares, bitboards, positions and their text forms;
//! - [`movegen`] (→ board): the FID move rules, [`movegen::is_irreversible`], perft, and
//!   the move and line texts every front end writes;
//! - [`clock`] (→ board): how long a side may think — time controls, the game clock, the
//!   clock reading a search gets (one meaning of the increment: Fischer's), the limits
//!   of one search, and the monotonic [`clock::Instant`] every room reads (the system's,
//!   or in the browser build the page's);
//! - [`game`] (→ board, movegen): one [`game::Game`] with its verdict under
//!   [`game::DrawRules`] (and the search's twofold shortcut of its repetition rule), PDN
//!   files in and out (read game by game, faults repaired or skipped), the one game → PDN
//!   record, replay, openings — every front end keeps its games here, so a game ends at
//!   the same ply wherever it is played;
//! - [`egdb`] (→ board, movegen): endgame databases;
//! - [`book`] (→ board, movegen, rng): opening books — the open file format, read
//!   without trusting it, and probed for a position's legal book moves;
//! - [`search`] (→ memory, rng, board, movegen, clock, game, egdb): evaluation, transposition
//!   table, alpha-beta under the game's move limit, time management, scores and their
//!   text; reports through a callback, never prints; its entry point is private to the
//!   crate;
//! - [`engine`] (→ rng, board, clock, game, egdb, book, search): the one way into the
//!   search — [`engine::EngineOptions`], the blocking [`engine::Thinker`] and the search
//!   thread [`engine::Engine`]; a book move is played before searching;
//! - [`train`] (→ shard, rng, board, movegen, clock, game, search, engine): self-play data and
//!   weight fitting;
//! - [`protocol`] (→ board, clock): the Hub protocol's text both ways, and its client
//!   side (what the match runner and the board drive any Hub engine with);
//! - [`hub`] (→ board, movegen, clock, game, book, search, engine, protocol): Damiera's engine
//!   side of the protocol (session, parameters);
//! - [`review`] (→ board, movegen, game, search scores): a game's moves scored against
//!   the best ones, `?`/`??` marks, the evaluation curve and the annotated PDN, the same
//!   for `damiera analyse` and the web board;
//! - [`matchrun`] (→ shard, board, movegen, clock, game, protocol): the match runner, a
//!   Hub client;
//! - [`gui`] (→ board, movegen, clock, game, search scores, protocol, review): the web
//!   board, a Hub client;
//! - [`bookbuild`] (→ shard, board, movegen, clock, game, book, engine): opening books made —
//!   drop-out expansion with the engine's searches, in slices, merged; PDN imports;
//! - [`cli`] (→ all): the command-line tools.
//!
//! The property checks over untrusted input that the fuzz targets (`fuzz/`) and the
//! corpus tests run live outside the shipped library, in the dev crate `checks/`.

pub mod board;
pub mod book;
pub mod bookbuild;
#[cfg(feature = "native")]
pub mod cli;
pub mod clock;
pub mod egdb;
pub mod engine;
pub mod game;
pub mod gui;
pub mod hub;
pub mod matchrun;
pub mod memory;
pub mod movegen;
pub mod protocol;
pub mod review;
pub mod rng;
pub mod search;
pub mod shard;
pub mod train;
