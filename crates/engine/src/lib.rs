//! Damiera's engine over the rules of [`damiera_rules`] (re-exported here as [`board`],
//! [`movegen`], [`game`] and [`rng`]): the search and its evaluations, the endgame
//! databases, the one way into the search, and the Hub protocol.
//!
//! Rooms, each depending only on the rules and on rooms before it:
//!
//! - [`memory`] (no dependency): freed tables given back to the system;
//! - [`clock`] (→ board): how long a side may think — time controls, the game clock, the
//!   clock reading a search gets (one meaning of the increment: Fischer's), the limits
//!   of one search, and the monotonic [`clock::Instant`] every room reads (the system's,
//!   or in the browser build the page's);
//! - [`egdb`] (→ board, movegen): endgame databases;
//! - [`book`] (→ board, movegen, game, rng): opening books — the open file format, read
//!   without trusting it, and probed for a position's legal book moves; PDN games
//!   indexed by position with their results;
//! - [`search`] (→ memory, rng, board, movegen, clock, game, egdb, book): evaluation,
//!   transposition table, alpha-beta under the game's move limit, time management, scores
//!   and their text; reports through a callback, never prints; its entry point is private
//!   to the crate;
//! - [`engine`] (→ rng, board, clock, game, egdb, book, search): the one way into the
//!   search — [`engine::EngineOptions`], the blocking [`engine::Thinker`] and the search
//!   thread [`engine::Engine`]; a book move is played before searching;
//! - [`protocol`] (→ board, clock): the Hub protocol's text both ways, and its client
//!   side (what the match runner and the board drive any Hub engine with);
//! - [`hub`] (→ board, movegen, clock, game, book, search, engine, protocol): Damiera's engine
//!   side of the protocol (session, parameters).

pub use damiera_rules::{board, game, movegen, rng};

pub mod book;
pub mod clock;
pub mod egdb;
pub mod engine;
pub mod hub;
pub mod memory;
pub mod protocol;
pub mod search;
