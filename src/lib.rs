//! Damiera: a draughts engine for the 8x8 games — Italian (dama italiana, FID rules, the
//! game it was born for), English, Russian and Brazilian.
//!
//! The layers are crates, so the compiler holds them; this one re-exports their rooms
//! under one name:
//!
//! - `damiera-rules` ([`board`], [`movegen`], [`game`], [`rng`]): the rules, no threads
//!   and no I/O beyond parsing;
//! - `damiera-engine` ([`memory`], [`clock`], [`egdb`], [`book`], [`search`], [`engine`],
//!   [`protocol`], [`hub`]): the search, evaluations, databases, opening books, the one
//!   way into the search and the Hub protocol;
//! - `damiera-gui` ([`review`], [`gui`]): game review and the web board.
//!
//! This crate's own rooms are the front ends only the `damiera` binary needs, each
//! depending only on rooms before it:
//!
//! - [`shard`] (no dependency): `--shard K/N`, the slices of a run for batch systems;
//! - [`train`] (→ shard, rules, engine): self-play data and weight fitting;
//! - [`matchrun`] (→ shard, rules, clock, protocol): the match runner, a Hub client;
//! - [`bookbuild`] (→ shard, rules, clock, book, engine): opening books made — drop-out
//!   expansion with the engine's searches, in slices, merged; PDN imports;
//! - [`cli`] (→ all): the command-line tools.
//!
//! The property checks over untrusted input that the fuzz targets (`fuzz/`) and the
//! corpus tests run live outside the shipped library, in the dev crate `checks/`.

pub use damiera_engine::{book, clock, egdb, engine, hub, memory, protocol, search};
pub use damiera_gui::{gui, review};
pub use damiera_rules::{board, game, movegen, rng};

pub mod bookbuild;
pub mod cli;
pub mod matchrun;
pub mod shard;
pub mod train;
