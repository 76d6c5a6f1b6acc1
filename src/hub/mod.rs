//! The Hub protocol (version 2, as defined by Scan 3.1), adapted to 8x8 Italian
//! draughts. See `protocol.md` at the repository root for the contract.
//!
//! The text layer has no I/O and no engine state:
//! - [`parser`]: tokenizer, quoting rules and GUI → engine [`parser::Command`]s;
//! - [`response`]: engine → GUI [`response::Response`]s, both printed and parsed
//!   (the match runner drives other Hub engines with the latter).
//!
//! On top of it, the engine side of the protocol:
//! - [`params`]: the engine parameters and `set-param` checks;
//! - [`session`]: the protocol loop ([`session::Session`] core, [`session::run`] driver).
//!
//! And the GUI side, shared by the match runner and the web board:
//! - [`client`]: one Hub engine process (spawn, handshake, `go`, answers with deadlines).

pub mod client;
pub mod params;
pub mod parser;
pub mod response;
pub mod session;

pub use parser::{Command, ParseError, parse_command};
pub use response::{Response, parse_response};
