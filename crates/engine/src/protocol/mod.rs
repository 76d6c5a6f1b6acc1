//! The Hub protocol (version 2, as defined by Scan 3.1), adapted to 8x8 Italian
//! draughts, as text both ways, and the client side that drives Hub engines. See
//! `protocol.md` at the repository root for the contract.
//!
//! The text layer has no I/O and no engine state:
//! - [`parser`]: tokenizer, quoting rules and GUI → engine [`parser::Command`]s;
//! - [`response`]: engine → GUI [`response::Response`]s, both printed and parsed.
//!
//! The GUI side, shared by the match runner and the web board (it knows nothing of
//! Damiera's own engine, which it drives as any other Hub engine):
//! - [`client`]: one Hub engine process (spawn, handshake, `go`, answers with deadlines).
//!
//! Damiera's engine side of the protocol is [`crate::hub`].

pub mod client;
pub mod parser;
pub mod response;

pub use parser::{Command, ParseError, parse_command};
pub use response::{Response, parse_response};
