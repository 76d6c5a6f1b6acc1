//! Damiera in the browser: the web board's JSON API ([`damiera_gui::gui::api::json_api`],
//! with the game tree, clocks, review and PDN behind it) and the engine (the Hub
//! session over the search), as one WebAssembly module that the static site
//! (`scripts/web-release.sh`, `dist/web/`) runs in two Web Workers:
//!
//! - [`board::Board`], in the board Worker: the page's requests go to the same
//!   `json_api` as `damiera gui` answers over HTTP, the same engine driver
//!   ([`damiera_gui::gui::engine_link::EngineThread`]) keeps the engine in step with the state,
//!   and the events the page would get over Server-Sent Events are handed back as their
//!   text after each call;
//! - [`engine_worker::Engine`], in the engine Worker: Damiera's Hub session
//!   ([`damiera_gui::hub::session::Session`]) over a searcher that runs the search on the
//!   Worker's own thread, one search at a time, reporting every line as it goes.
//!
//! A Worker cannot read a message while a search blocks it, so `stop` is obeyed by
//! the page: it ends the engine Worker at once and hands the board the `done` line of
//! the best move found so far (the engine reports it with every iteration as a
//! fallback line), and a spare engine Worker, set up beforehand with the same
//! parameters, takes over. Timed searches end by themselves, on the engine's own clock.
//!
//! The module's interface (`abi`, WebAssembly only) is a plain C-like one — bytes in,
//! bytes out through one input and one output buffer — so the site needs no generated
//! glue; `web/site/` holds the scripts that use it.

pub mod board;
pub mod engine_worker;

#[cfg(target_arch = "wasm32")]
mod abi;
