//! The Hub protocol (version 2, as defined by Scan 3.1), adapted to 8x8 Italian
//! draughts. See `protocol.md` at the repository root for the contract.
//!
//! This module is the pure text layer, with no I/O and no engine state:
//! - [`parser`]: tokenizer, quoting rules and GUI → engine [`parser::Command`]s;
//! - [`response`]: engine → GUI [`response::Response`]s, both printed and parsed
//!   (the match runner drives other Hub engines with the latter).
//!
//! Positions and moves stay text here; the board layer validates them.

pub mod parser;
pub mod response;

pub use parser::{Command, ParseError, parse_command};
pub use response::{Response, parse_response};
