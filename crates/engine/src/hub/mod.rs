//! Damiera's engine side of the Hub protocol (the text of the protocol and its client
//! side are [`crate::protocol`]):
//! - [`params`]: the parameters and `set-param` checks (the engine's own are declared in
//!   [`crate::engine::EngineOptions::PARAMETERS`]);
//! - [`session`]: the protocol loop ([`session::Session`] core, [`session::run`] driver).

pub mod params;
pub mod session;
