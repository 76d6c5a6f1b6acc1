//! Damiera's web board and game review, over the engine of [`damiera_engine`] (whose
//! rooms are re-exported here):
//!
//! - [`review`] (→ board, movegen, game, search scores): a game's moves scored against
//!   the best ones, `?`/`??` marks, the evaluation curve and the annotated PDN, the same
//!   for `damiera analyse` and the web board;
//! - [`gui`] (→ board, movegen, clock, game, book, search scores, protocol, review): the
//!   web board — its state, JSON API, engine link, HTTP server and opening explorer — a
//!   Hub client. The
//!   browser build (`web/`) runs the same state and API in WebAssembly.

pub use damiera_engine::{board, book, clock, egdb, engine, game, hub, movegen, protocol, search};

pub mod gui;
pub mod review;
